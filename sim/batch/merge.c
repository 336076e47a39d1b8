/* merge.c - joining the shards of one sweep.
 *
 * Models nothing.  Shard K of N holds the grid points p with p % N == K-1,
 * each as P consecutive rows (one per policy), under the unsharded header
 * plus one shard line (CSV "# shard K/N", JSON "shard": "K/N").  Merging
 * checks that every shard has the same header (the same sweep: version,
 * scenario, --vary options), that shards 1..N are each there once and
 * complete, then deals the rows back out point by point.
 *
 * CSV is merged as text: its lines are the rows.  JSON is read with
 * json-glib, so layout does not matter (a shard re-indented by jq merges),
 * and written again by json.c in sweep.c's layout, each number in its
 * column's format, so the merged file is exactly the unsharded bytes.
 */
#include "pcsim/text.h"
#include "pcsim/merge.h"

#include "pcsim/json.h"
#include "pcsim/params.h"
#include "pcsim/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *path;
  gboolean json;
  uint32_t k, n;
  GString *header;   /* every line before the rows, without the shard line */
  GPtrArray *rows;   /* row lines, without a JSON separator comma */
  uint64_t points, nrows;
  guint count;        /* rows held */
  JsonParser *parser; /* JSON: the parsed shard */
  JsonObject *top;
  JsonArray *results;
} Shard;

static void shard_clear(Shard *s) {
  if (s->header) g_string_free(s->header, TRUE);
  if (s->rows) g_ptr_array_unref(s->rows);
  if (s->parser) g_object_unref(s->parser);
}

static G_GNUC_PRINTF(4, 5) gboolean bad(GError **error, const char *path, guint line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", path, line, what);
  return FALSE;
}

/* ---- CSV ---- */

/* "# grid points=N rows=M". */
static void grid_size(Shard *s, const char *line) {
  const char *p = strstr(line, "points="), *r = strstr(line, "rows=");
  if (p) s->points = g_ascii_strtoull(p + strlen("points="), NULL, 10);
  if (r) s->nrows = g_ascii_strtoull(r + strlen("rows="), NULL, 10);
}

static gboolean shard_id(Shard *s, const char *v, guint no, GError **error) {
  unsigned k = 0, n = 0;
  char end = 0;
  if (sscanf(v, "%u/%u%c", &k, &n, &end) < 2 || (end && end != '\n') || k < 1 || k > n)
    return bad(error, s->path, no, "malformed shard line");
  s->k = k;
  s->n = n;
  return TRUE;
}

/* The cells of a CSV line: sweep's cells hold no comma (report.c). */
static guint csv_cells(const char *l) {
  guint n = 1;
  for (; *l; l++) n += *l == ',';
  return n;
}

static gboolean csv_load(Shard *s, const char *text, GError **error) {
  s->header = g_string_new(NULL);
  s->rows = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  gboolean rows = FALSE;
  guint columns = 0, i = 0;
  for (; lines[i] && (lines[i][0] || lines[i + 1]); i++) {
    const char *l = lines[i];
    if (!rows && g_str_has_prefix(l, "# shard ")) {
      if (!shard_id(s, l + strlen("# shard "), i + 1, error)) return FALSE;
      continue;
    }
    if (rows) { /* a shard cut short (a sweep killed, a copy interrupted) loses cells or its last line end */
      if (csv_cells(l) != columns)
        return bad(error, s->path, i + 1, "expected %u cells as in the header, found %u (a shard cut short?)", columns,
                   csv_cells(l));
      g_ptr_array_add(s->rows, g_strdup(l));
      continue;
    }
    if (g_str_has_prefix(l, "# grid ")) grid_size(s, l);
    g_string_append_printf(s->header, "%s\n", l);
    if (l[0] != '#') rows = TRUE, columns = csv_cells(l);
  }
  if (i > 0 && lines[i] == NULL) /* the text's last line has no line end */
    return bad(error, s->path, i, "the last line has no line end (a shard cut short?)");
  s->count = s->rows->len;
  if (!s->points || !s->nrows || s->nrows % s->points || !rows)
    return bad(error, s->path, 1, "not the output of pcsim sweep (no grid line)");
  return TRUE;
}

/* ---- JSON ---- */

static gboolean json_load(Shard *s, const char *text, GError **error) {
  s->parser = pcs_json_parse(s->path, text, -1, error);
  if (!s->parser) return FALSE;
  JsonNode *root = json_parser_get_root(s->parser);
  s->top = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *sweep = s->top ? json_object_get_member(s->top, "sweep") : NULL;
  JsonNode *results = s->top ? json_object_get_member(s->top, "results") : NULL;
  JsonObject *grid = sweep && JSON_NODE_HOLDS_OBJECT(sweep) ? json_node_get_object(sweep) : NULL;
  if (grid) {
    s->points = (uint64_t)MAX(0, json_object_get_int_member_with_default(grid, "points", 0));
    s->nrows = (uint64_t)MAX(0, json_object_get_int_member_with_default(grid, "rows", 0));
  }
  if (!s->points || !s->nrows || s->nrows % s->points || !results || !JSON_NODE_HOLDS_ARRAY(results))
    return bad(error, s->path, 1, "not the output of pcsim sweep (no \"sweep\" with points and rows)");
  s->results = json_node_get_array(results);
  s->count = json_array_get_length(s->results);
  for (guint i = 0; i < s->count; i++)
    if (!JSON_NODE_HOLDS_OBJECT(json_array_get_element(s->results, i))) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: results[%u] is not an object", s->path, i);
      return FALSE;
    }
  const char *id = pcs_json_get_string(s->top, "shard");
  return !id || shard_id(s, id, 1, error);
}

/* The same sweep: every member but "shard" and "results" equal, in order. */
static gboolean json_same_header(const Shard *a, const Shard *b) {
  g_autoptr(GList) ma = json_object_get_members(a->top);
  g_autoptr(GList) mb = json_object_get_members(b->top);
  GList *x = ma, *y = mb;
  for (;; x = x->next, y = y->next) {
    while (x && (!strcmp(x->data, "shard") || !strcmp(x->data, "results"))) x = x->next;
    while (y && (!strcmp(y->data, "shard") || !strcmp(y->data, "results"))) y = y->next;
    if (!x || !y) return !x && !y;
    if (strcmp(x->data, y->data) ||
        !json_node_equal(json_object_get_member(a->top, x->data), json_object_get_member(b->top, y->data)))
      return FALSE;
  }
}

static gboolean shard_load(Shard *s, const char *path, GError **error) {
  g_autofree char *text = NULL;
  memset(s, 0, sizeof *s);
  s->path = path;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  const char *p = text;
  while (g_ascii_isspace(*p)) p++;
  s->json = *p == '{';
  if (!(s->json ? json_load(s, text, error) : csv_load(s, text, error))) return FALSE;
  if (!s->n) return bad(error, path, 1, "not a shard: it has no shard line (was it run with --shard K/N?)");
  return TRUE;
}

static uint64_t shard_points(uint64_t points, uint32_t k, uint32_t n) {
  return points > k - 1 ? (points - (k - 1) + n - 1) / n : 0;
}

static gboolean check_shards(Shard *sh, guint count, GError **error) {
  uint32_t n = sh[0].n;
  g_autofree const char **by_k = g_new0(const char *, n + 1);
  for (guint i = 0; i < count; i++) {
    Shard *s = &sh[i];
    gboolean same = s->json == sh[0].json && s->n == n &&
                    (s->json ? json_same_header(s, &sh[0])
                             : g_string_equal(s->header, sh[0].header));
    if (!same) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                  "%s: not a shard of the same sweep as %s (header, format or shard count differ)", s->path, sh[0].path);
      return FALSE;
    }
    if (by_k[s->k]) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "duplicate shard %u/%u: %s and %s", s->k, n, by_k[s->k], s->path);
      return FALSE;
    }
    by_k[s->k] = s->path;
    uint64_t want = shard_points(s->points, s->k, n) * (s->nrows / s->points);
    if (s->count != want) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: shard %u/%u holds %u rows, expected %" G_GUINT64_FORMAT
                  " (truncated or edited?)", s->path, s->k, n, s->count, want);
      return FALSE;
    }
  }
  for (uint32_t k = 1; k <= n; k++)
    if (!by_k[k]) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "missing shard %u/%u (got %u of %u files)", k, n, count, n);
      return FALSE;
    }
  return TRUE;
}

/* Row R of the merged sweep: point R / per from its shard. */
static guint64 row_in_shard(Shard **by_k, uint32_t n, uint64_t per, uint64_t r, Shard **s) {
  uint64_t p = r / per;
  *s = by_k[p % n + 1];
  return (p / n) * per + r % per;
}

static void csv_deal(Shard **by_k, const Shard *first, GString *out) {
  uint64_t per = first->nrows / first->points;
  g_string_append(out, first->header->str);
  for (uint64_t r = 0; r < first->nrows; r++) {
    Shard *s;
    guint64 i = row_in_shard(by_k, first->n, per, r, &s);
    g_string_append(out, g_ptr_array_index(s->rows, (guint)i));
    g_string_append_c(out, '\n');
  }
}

/* How sweep.c printed a value of COLUMN: 'S' text, 'U' integer, 'F' %.4f,
 * 'G' %.15g (a fraction key), 'H' a histogram, 0 unknown (as parsed). */
static char column_kind(const char *column) {
  const PcsColumnInfo *c = pcs_report_column_find(column, NULL);
  if (c) return c->kind;
  if (!strcmp(column, "bio_pages_hist")) return 'H';
  if (!strcmp(column, "pool")) return 'U';
  const PcsParamInfo *info = pcs_params_find_dotted(column);
  if (!info) return 0;
  return info->kind == PCS_KIND_TEXT ? 'S' : info->kind == PCS_KIND_FRAC ? 'G' : 'U';
}

static gboolean holds(JsonNode *n, GType type) {
  return JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == type;
}

static void json_cell(PcsJson *w, const char *key, JsonNode *n) {
  gboolean number = holds(n, G_TYPE_INT64) || holds(n, G_TYPE_DOUBLE);
  g_autoptr(GArray) hist = NULL;
  switch (column_kind(key)) {
  case 'U':
    if (holds(n, G_TYPE_INT64) && json_node_get_int(n) >= 0) return pcs_json_uint(w, key, (uint64_t)json_node_get_int(n));
    break;
  case 'F':
    if (number) return pcs_json_double(w, key, "%.4f", json_node_get_double(n));
    break;
  case 'G':
    if (number) return pcs_json_double(w, key, "%.15g", json_node_get_double(n));
    break;
  case 'H':
    if ((hist = pcs_json_get_hist(n))) return pcs_json_hist(w, key, (const uint64_t *)hist->data, hist->len);
    break;
  }
  pcs_json_node(w, key, n, PCS_JSON_INLINE);
}

static void json_deal(Shard **by_k, const Shard *first, GString *out) {
  uint64_t per = first->nrows / first->points;
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  g_autoptr(GList) members = json_object_get_members(first->top);
  for (GList *m = members; m; m = m->next) {
    const char *key = m->data;
    if (!strcmp(key, "shard")) continue;
    if (strcmp(key, "results") != 0) {
      /* the provenance's "scenario" has a line per key, the rest one line */
      JsonNode *n = json_object_get_member(first->top, key);
      pcs_json_node(&w, key, n, !strcmp(key, "scenario") ? PCS_JSON_LINES : PCS_JSON_INLINE);
      continue;
    }
    pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
    for (uint64_t r = 0; r < first->nrows; r++) {
      Shard *s;
      guint64 i = row_in_shard(by_k, first->n, per, r, &s);
      JsonObject *row = json_array_get_object_element(s->results, (guint)i);
      g_autoptr(GList) cols = json_object_get_members(row);
      pcs_json_begin_object(&w, NULL, PCS_JSON_INLINE);
      for (GList *c = cols; c; c = c->next) json_cell(&w, c->data, json_object_get_member(row, c->data));
      pcs_json_end(&w);
    }
    pcs_json_end(&w);
  }
  pcs_json_end_document(&w);
}

static void deal_rows(Shard *sh, guint count, GString *out) {
  uint32_t n = sh[0].n;
  Shard **by_k = g_new0(Shard *, n + 1);
  for (guint i = 0; i < count; i++) by_k[sh[i].k] = &sh[i];
  if (sh[0].json)
    json_deal(by_k, &sh[0], out);
  else
    csv_deal(by_k, &sh[0], out);
  g_free(by_k);
}

gboolean pcs_merge(char **files, GString *out, GError **error) {
  guint count = g_strv_length(files);
  Shard *sh = g_new0(Shard, MAX(count, 1));
  gboolean ok = count > 0;
  if (!ok) g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "no shard files given");
  for (guint i = 0; ok && i < count; i++) ok = shard_load(&sh[i], files[i], error);
  if (ok) ok = check_shards(sh, count, error);
  if (ok) deal_rows(sh, count, out);
  for (guint i = 0; i < count; i++) shard_clear(&sh[i]);
  g_free(sh);
  return ok;
}
