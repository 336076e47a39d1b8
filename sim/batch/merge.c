/* merge.c - joining the shards of one sweep.
 *
 * Models nothing.  Shard K of N holds the grid points p with p % N == K-1,
 * each as P consecutive rows (one per policy), under the unsharded header
 * plus one shard line.  Merging checks that every shard has the same header
 * (the same sweep: version, scenario, --vary options), that shards 1..N are
 * each there once and complete, then deals the rows back out point by point.
 * It works on the text, so the merged file is exactly the unsharded bytes.
 */
#include "pcsim/text.h"
#include "pcsim/merge.h"

#include "pcsim/params.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *path;
  gboolean json;
  uint32_t k, n;
  GString *header;   /* every line before the rows, without the shard line */
  GPtrArray *rows;   /* row lines, without a JSON separator comma */
  GString *footer;
  uint64_t points, nrows;
} Shard;

static void shard_clear(Shard *s) {
  if (s->header) g_string_free(s->header, TRUE);
  if (s->footer) g_string_free(s->footer, TRUE);
  if (s->rows) g_ptr_array_unref(s->rows);
}

static gboolean bad(GError **error, const char *path, guint line, const char *what) {
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", path, line, what);
  return FALSE;
}

/* "# grid points=N rows=M" or "\"points\": N, \"rows\": M". */
static void grid_size(Shard *s, const char *line) {
  const char *p = strstr(line, s->json ? "\"points\": " : "points=");
  const char *r = strstr(line, s->json ? "\"rows\": " : "rows=");
  if (p) s->points = g_ascii_strtoull(strchr(p, s->json ? ':' : '=') + 1, NULL, 10);
  if (r) s->nrows = g_ascii_strtoull(strchr(r, s->json ? ':' : '=') + 1, NULL, 10);
}

static gboolean shard_line(Shard *s, const char *line, guint no, GError **error) {
  const char *v = s->json ? line + strlen("  \"shard\": \"") : line + strlen("# shard ");
  unsigned k = 0, n = 0;
  if (sscanf(v, "%u/%u", &k, &n) != 2 || k < 1 || k > n) return bad(error, s->path, no, "malformed shard line");
  s->k = k;
  s->n = n;
  return TRUE;
}

static gboolean shard_load(Shard *s, const char *path, GError **error) {
  g_autofree char *text = NULL;
  memset(s, 0, sizeof *s);
  s->path = path;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  s->json = text[0] == '{';
  s->header = g_string_new(NULL);
  s->footer = g_string_new(NULL);
  s->rows = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  enum { HEAD, ROWS, FOOT } at = HEAD;
  for (guint i = 0; lines[i] && (lines[i][0] || lines[i + 1]); i++) {
    const char *l = lines[i];
    gboolean is_shard = s->json ? g_str_has_prefix(l, "  \"shard\": \"") : g_str_has_prefix(l, "# shard ");
    if (at == HEAD && is_shard) {
      if (!shard_line(s, l, i + 1, error)) return FALSE;
      continue;
    }
    if (at == HEAD && (s->json ? g_str_has_prefix(l, "  \"sweep\": ") : g_str_has_prefix(l, "# grid "))) grid_size(s, l);
    if (at == ROWS && s->json && !strcmp(l, "  ]")) at = FOOT;
    if (at == ROWS) {
      size_t n = strlen(l);
      g_ptr_array_add(s->rows, g_strndup(l, s->json && n && l[n - 1] == ',' ? n - 1 : n));
      continue;
    }
    g_string_append_printf(at == HEAD ? s->header : s->footer, "%s\n", l);
    if (at == HEAD && (s->json ? !strcmp(l, "  \"results\": [") : l[0] != '#')) at = ROWS;
  }
  if (!s->points || !s->nrows || s->nrows % s->points || at == HEAD)
    return bad(error, path, 1, "not the output of pcsim sweep (no grid line)");
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
    if (s->json != sh[0].json || !g_string_equal(s->header, sh[0].header) || !g_string_equal(s->footer, sh[0].footer) ||
        s->n != n) {
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
    if (s->rows->len != want) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: shard %u/%u holds %u rows, expected %" G_GUINT64_FORMAT
                  " (truncated or edited?)", s->path, s->k, n, s->rows->len, want);
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

static void deal_rows(Shard *sh, guint count, GString *out) {
  uint32_t n = sh[0].n;
  uint64_t points = sh[0].points, per = sh[0].nrows / points;
  Shard **by_k = g_new0(Shard *, n + 1);
  for (guint i = 0; i < count; i++) by_k[sh[i].k] = &sh[i];
  g_string_append(out, sh[0].header->str);
  for (uint64_t p = 0; p < points; p++) {
    Shard *s = by_k[p % n + 1];
    for (uint64_t j = 0; j < per; j++) {
      g_string_append(out, g_ptr_array_index(s->rows, (guint)((p / n) * per + j)));
      g_string_append(out, sh[0].json && (p + 1 < points || j + 1 < per) ? ",\n" : "\n");
    }
  }
  g_string_append(out, sh[0].footer->str);
  g_free(by_k);
}

gboolean pcs_merge(char **files, GString *out, GError **error) {
  guint count = g_strv_length(files);
  Shard *sh = g_new0(Shard, MAX(count, 1));
  gboolean ok = count > 0;
  if (!ok) g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "merge: no shard files given");
  for (guint i = 0; ok && i < count; i++) ok = shard_load(&sh[i], files[i], error);
  if (ok) ok = check_shards(sh, count, error);
  if (ok) deal_rows(sh, count, out);
  for (guint i = 0; i < count; i++) shard_clear(&sh[i]);
  g_free(sh);
  return ok;
}
