/* results.c - reading pcsim's own CSV and JSON result files.
 *
 * Models nothing.  It is the other half of report.c and sweep.c: the
 * provenance those write (`# key=value` lines in CSV, "scenario" and "sweep"
 * in JSON) is what lets a published point be rerun.  JSON is read by
 * json.c (json-glib), so files reformatted by jq still load.
 */
#include "pcsim/text.h"
#include "pcsim/results.h"

#include "pcsim/json.h"

#include <string.h>

static void hist_free(gpointer a) {
  if (a) g_array_unref(a);
}

static void results_init(PcsResults *r, const char *path) {
  memset(r, 0, sizeof *r);
  r->path = g_strdup(path);
  r->scenario = g_ptr_array_new_with_free_func(g_free);
  r->scenario_line = g_array_new(FALSE, FALSE, sizeof(guint));
  r->varied = g_ptr_array_new_with_free_func(g_free);
  r->columns = g_ptr_array_new_with_free_func(g_free);
  r->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  r->hists = g_ptr_array_new_with_free_func(hist_free);
  r->jobs = g_ptr_array_new_with_free_func(g_free);
  r->fio_sections = g_array_new(FALSE, TRUE, sizeof(PcsFioSection));
  g_array_set_clear_func(r->fio_sections, (GDestroyNotify)pcs_params_fio_section_clear);
}

void pcs_results_clear(PcsResults *r) {
  g_clear_pointer(&r->path, g_free);
  g_clear_pointer(&r->version, g_free);
  g_clear_pointer(&r->source, g_free);
  g_clear_pointer(&r->scenario, g_ptr_array_unref);
  g_clear_pointer(&r->scenario_line, g_array_unref);
  g_clear_pointer(&r->varied, g_ptr_array_unref);
  g_clear_pointer(&r->columns, g_ptr_array_unref);
  g_clear_pointer(&r->rows, g_ptr_array_unref);
  g_clear_pointer(&r->hists, g_ptr_array_unref);
  g_clear_pointer(&r->jobs, g_ptr_array_unref);
  g_clear_pointer(&r->fio_model, g_free);
  g_clear_pointer(&r->fio_accepted, g_strfreev);
  g_clear_pointer(&r->fio_global_options, g_strfreev);
  g_clear_pointer(&r->fio_sections, g_array_unref);
}

int pcs_results_column(const PcsResults *r, const char *column) {
  for (guint i = 0; i < r->columns->len; i++)
    if (strcmp(g_ptr_array_index(r->columns, i), column) == 0) return (int)i;
  return -1;
}

static void add_scenario(PcsResults *r, const char *assignment, guint line) {
  g_ptr_array_add(r->scenario, g_strdup(assignment));
  g_array_append_val(r->scenario_line, line);
}

static void split_into(GPtrArray *out, const char *list) {
  g_auto(GStrv) v = g_strsplit(list, ",", -1);
  for (char **s = v; *s; s++)
    if (**s) g_ptr_array_add(out, g_strdup(*s));
}

/* FIRST and COUNT of a --seeds file's seeds, checked. */
static gboolean set_seeds(PcsResults *r, uint64_t first, uint64_t last, const char *where, GError **error) {
  if (last < first || last - first >= G_MAXUINT) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
                ": expected FIRST..LAST with FIRST <= LAST", where, first, last);
    return FALSE;
  }
  r->first_seed = first;
  r->nseeds = (guint)(last - first + 1);
  return TRUE;
}

/* ---- CSV ---- */

/* "# fio ..." lines: a fio job's run (report.c pcs_report_csv_provenance()). */
static gboolean csv_fio(PcsResults *r, const char *c, guint line, GError **error) {
  g_autofree char *why = NULL;
  gboolean ok = TRUE;
  if (g_str_has_prefix(c, "fio model ")) {
    g_free(r->fio_model);
    r->fio_model = g_strdup(c + strlen("fio model "));
  } else if (g_str_has_prefix(c, "fio accepted ")) { /* one word each, %20 a blank and %25 a '%' in one */
    g_strfreev(r->fio_accepted);
    r->fio_accepted = g_strsplit(c + strlen("fio accepted "), " ", -1);
    for (char **a = r->fio_accepted; *a; a++) {
      char *plain = strchr(*a, '%') ? g_uri_unescape_string(*a, NULL) : NULL;
      if (plain) g_free(*a), *a = plain; /* else as written (an older file's raw '%') */
    }
  } else if (!strcmp(c, "fio global") || g_str_has_prefix(c, "fio global ")) {
    g_auto(GStrv) words = g_strsplit(c + strlen("fio global"), " ", -1);
    g_strfreev(r->fio_global_options);
    r->fio_global_options = NULL;
    ok = pcs_params_fio_options_parse(words, &r->fio_global_options, &why);
  } else if (g_str_has_prefix(c, "fio section ")) {
    PcsFioSection sec;
    ok = pcs_params_fio_section_parse(c + strlen("fio section "), &sec, &why);
    if (ok) g_array_append_val(r->fio_sections, sec);
  }
  if (!ok) g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", r->path, line, why);
  return ok;
}

static gboolean csv_comment(PcsResults *r, const char *c, guint line, GError **error) {
  if (g_str_has_prefix(c, "fio ")) return csv_fio(r, c, line, error);
  if (g_str_has_prefix(c, "seeds ")) {
    uint64_t first, last;
    g_auto(GStrv) ab = g_strsplit(c + strlen("seeds "), "..", 2);
    g_autofree char *where = g_strdup_printf("%s:%u", r->path, line);
    if (!ab[0] || !ab[1] || !pcs_parse_u64(ab[0], &first) || !pcs_parse_u64(ab[1], &last)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: '# %s': expected '# seeds FIRST..LAST'", where, c);
      return FALSE;
    }
    return set_seeds(r, first, last, where, error);
  }
  if (g_str_has_prefix(c, "pcsim ")) {
    g_free(r->version);
    r->version = g_strdup(c + 6);
  } else if (g_str_has_prefix(c, "source ")) {
    g_free(r->source);
    r->source = g_strdup(c + 7);
  } else if (g_str_has_prefix(c, "varied ")) {
    split_into(r->varied, c + 7);
  } else if (g_str_has_prefix(c, "job ")) {
    g_ptr_array_add(r->jobs, g_strdup(c + 4));
  } else if (strchr(c, '=') && strchr(c, '.') && strchr(c, '.') < strchr(c, '=') &&
             !memchr(c, ' ', (size_t)(strchr(c, '=') - c))) { /* a value may hold blanks (memory.buddyinfo) */
    add_scenario(r, c, line);
  }
  return TRUE;
}

static gboolean load_csv(PcsResults *r, const char *text, GError **error) {
  r->format = PCS_FORMAT_CSV;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    char *l = lines[i];
    size_t n = strlen(l);
    if (n && l[n - 1] == '\r') l[n - 1] = 0;
    if (!*l) continue;
    if (l[0] == '#') {
      if (!csv_comment(r, g_strstrip(l + 1), i + 1, error)) return FALSE;
      continue;
    }
    if (r->columns->len == 0) {
      split_into(r->columns, l);
      continue;
    }
    char **cells = g_strsplit(l, ",", -1);
    if (g_strv_length(cells) != r->columns->len) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: expected %u cell%s as in the header, found %u", r->path,
                  i + 1, r->columns->len, r->columns->len == 1 ? "" : "s", g_strv_length(cells));
      g_strfreev(cells);
      return FALSE;
    }
    int job = pcs_results_column(r, "job");
    if (job >= 0 && *cells[job]) { /* a job's row (several jobs, report.c): the results are the run's rows */
      g_strfreev(cells);
      continue;
    }
    g_ptr_array_add(r->rows, cells);
    g_ptr_array_add(r->hists, NULL);
  }
  if (r->columns->len == 0) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:1: no CSV header: not a pcsim result file", r->path);
    return FALSE;
  }
  if (strcmp(g_ptr_array_index(r->columns, 0), "seed") != 0) /* `pcsim compare --seeds` records them too: no run's rows */
    r->first_seed = 0, r->nseeds = 0;
  return TRUE;
}

/* ---- JSON ---- */

static char *json_cell(JsonNode *n) {
  if (JSON_NODE_HOLDS_VALUE(n)) {
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_STRING) return g_strdup(json_node_get_string(n));
    if (t == G_TYPE_INT64) return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
    if (t == G_TYPE_DOUBLE) {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      return g_strdup(g_ascii_dtostr(buf, sizeof buf, json_node_get_double(n)));
    }
    if (t == G_TYPE_BOOLEAN) return g_strdup(json_node_get_boolean(n) ? "true" : "false");
  }
  return NULL;
}

static gboolean json_row(PcsResults *r, JsonObject *o, guint index, GError **error) {
  g_autoptr(GList) members = json_object_get_members(o);
  if (index == 0) /* the first row names the columns (numbers and text, not lists); every later row must have them */
    for (GList *m = members; m; m = m->next)
      if (JSON_NODE_HOLDS_VALUE(json_object_get_member(o, m->data))) g_ptr_array_add(r->columns, g_strdup(m->data));
  if (r->columns->len == 0) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: results[%u] has no columns", r->path, index);
    return FALSE;
  }
  char **cells = g_new0(char *, r->columns->len + 1);
  g_ptr_array_add(r->rows, cells);
  g_ptr_array_add(r->hists, pcs_json_get_hist(json_object_get_member(o, "bio_pages_hist")));
  for (guint c = 0; c < r->columns->len; c++) {
    JsonNode *n = json_object_get_member(o, g_ptr_array_index(r->columns, c));
    cells[c] = n ? json_cell(n) : NULL;
    if (!cells[c]) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: results[%u]: '%s' missing or not a number or string",
                  r->path, index, (char *)g_ptr_array_index(r->columns, c));
      return FALSE;
    }
  }
  return TRUE;
}

/* `pcsim run --format fio-json` output: fio's layout, with pcsim's
 * provenance under "pcsim" and one disk_util entry "pcsim:POLICY" per
 * policy run, read as one row per policy (column "policy"). */
static gboolean load_fio_json(PcsResults *r, JsonObject *fio, JsonObject *top, GError **error) {
  JsonNode *du = json_object_get_member(fio, "disk_util");
  g_ptr_array_add(r->columns, g_strdup("policy"));
  for (guint i = 0; du && JSON_NODE_HOLDS_ARRAY(du) && i < json_array_get_length(json_node_get_array(du)); i++) {
    JsonNode *n = json_array_get_element(json_node_get_array(du), i);
    const char *name = JSON_NODE_HOLDS_OBJECT(n) ? pcs_json_get_string(json_node_get_object(n), "name") : NULL;
    if (!name || !g_str_has_prefix(name, "pcsim:")) continue;
    char **cells = g_new0(char *, 2);
    cells[0] = g_strdup(name + strlen("pcsim:"));
    g_ptr_array_add(r->rows, cells);
    g_ptr_array_add(r->hists, NULL);
  }
  if (!json_object_get_member(top, "scenario")) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: \"pcsim\" has no \"scenario\": not pcsim's fio-json", r->path);
    return FALSE;
  }
  return TRUE;
}

/* A JSON integer at least 0 in *OUT. */
static gboolean json_u64(JsonNode *n, uint64_t *out) {
  if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64 || json_node_get_int(n) < 0)
    return FALSE;
  *out = (uint64_t)json_node_get_int(n);
  return TRUE;
}

/* A fio job's options object (report.c, pcs_json_string_pairs()) as key, value,
 * ..., NULL in member order; NULL when N is not an object of strings. */
static char **json_fio_options(JsonNode *n) {
  if (!n || !JSON_NODE_HOLDS_OBJECT(n)) return NULL;
  JsonObject *o = json_node_get_object(n);
  g_autoptr(GList) keys = json_object_get_members(o); /* in the file's order */
  g_autoptr(GPtrArray) kv = g_ptr_array_new_with_free_func(g_free);
  for (GList *k = keys; k; k = k->next) {
    const char *v = pcs_json_get_string(o, k->data);
    if (!v) return NULL;
    g_ptr_array_add(kv, g_strdup(k->data));
    g_ptr_array_add(kv, g_strdup(v));
  }
  g_ptr_array_add(kv, NULL);
  g_ptr_array_set_free_func(kv, NULL);
  return (char **)g_ptr_array_free(g_steal_pointer(&kv), FALSE);
}

/* A fio job's run in JSON provenance: fio_model, fio_accepted,
 * fio_global_options and fio_sections (report.c). */
static gboolean json_fio(PcsResults *r, JsonObject *top, GError **error) {
  r->fio_model = g_strdup(pcs_json_get_string(top, "fio_model"));
  JsonNode *acc = json_object_get_member(top, "fio_accepted");
  if (acc && JSON_NODE_HOLDS_ARRAY(acc)) {
    JsonArray *a = json_node_get_array(acc);
    g_autoptr(GPtrArray) list = g_ptr_array_new();
    for (guint i = 0; i < json_array_get_length(a); i++) {
      JsonNode *e = json_array_get_element(a, i);
      if (JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING)
        g_ptr_array_add(list, (gpointer)json_node_get_string(e));
    }
    g_ptr_array_add(list, NULL);
    r->fio_accepted = g_strdupv((char **)list->pdata);
  }
  JsonNode *global = json_object_get_member(top, "fio_global_options");
  JsonNode *secs = json_object_get_member(top, "fio_sections");
  if (!global && !secs) return TRUE;
  r->fio_global_options = json_fio_options(global);
  gboolean ok = r->fio_global_options && secs && JSON_NODE_HOLDS_ARRAY(secs);
  for (guint i = 0; ok && i < json_array_get_length(json_node_get_array(secs)); i++) {
    JsonNode *e = json_array_get_element(json_node_get_array(secs), i);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    uint64_t numjobs = 0, group = 0;
    ok = o && pcs_json_get_string(o, "name") && json_u64(json_object_get_member(o, "numjobs"), &numjobs) &&
         json_u64(json_object_get_member(o, "group"), &group) && group < G_MAXUINT32;
    char **options = ok ? json_fio_options(json_object_get_member(o, "options")) : NULL;
    ok = ok && options;
    if (!ok) break;
    PcsFioSection sec = {g_strdup(pcs_json_get_string(o, "name")), numjobs, options, (uint32_t)group};
    g_array_append_val(r->fio_sections, sec);
  }
  if (!ok)
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: fio_global_options and fio_sections: expected an object of "
                "strings and an array of {\"name\", \"numjobs\", \"group\", \"options\"} as pcsim writes them", r->path);
  return ok;
}

/* A --seeds file's "seeds": consecutive integers. */
static gboolean json_seeds(PcsResults *r, JsonObject *top, GError **error) {
  JsonNode *n = json_object_get_member(top, "seeds");
  if (!n) return TRUE;
  JsonArray *a = JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
  guint len = a ? json_array_get_length(a) : 0;
  uint64_t first = 0, seed;
  gboolean ok = len > 0 && json_u64(json_array_get_element(a, 0), &first);
  for (guint i = 1; ok && i < len; i++) ok = json_u64(json_array_get_element(a, i), &seed) && seed == first + i;
  if (!ok) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: \"seeds\": expected consecutive seeds, as --seeds writes them",
                r->path);
    return FALSE;
  }
  g_autofree char *where = g_strdup_printf("%s: \"seeds\"", r->path);
  return set_seeds(r, first, first + len - 1, where, error);
}

static gboolean load_json(PcsResults *r, const char *text, GError **error) {
  r->format = PCS_FORMAT_JSON;
  g_autoptr(JsonParser) parser = pcs_json_parse(r->path, text, -1, error);
  if (!parser) return FALSE;
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *obj = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *res = obj ? json_object_get_member(obj, "results") : NULL;
  JsonNode *prov = obj && !res && json_object_get_member(obj, "jobs") ? json_object_get_member(obj, "pcsim") : NULL;
  gboolean fio = prov && JSON_NODE_HOLDS_OBJECT(prov); /* fio's JSON as `--format fio-json` writes it */
  if (!fio && obj && !res && json_object_get_member(obj, "jobs")) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "%s:1: fio's JSON without pcsim's \"pcsim\" provenance: only `pcsim run --format fio-json` output "
                "records a scenario", r->path);
    return FALSE;
  }
  if (!fio && (!res || !JSON_NODE_HOLDS_ARRAY(res))) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:1: no \"results\" array: not a pcsim result file", r->path);
    return FALSE;
  }
  JsonObject *top = fio ? json_node_get_object(prov) : obj;
  r->version = g_strdup(pcs_json_get_string(top, "pcsim_version"));
  r->source = g_strdup(pcs_json_get_string(top, "source"));
  JsonNode *sc = json_object_get_member(top, "scenario");
  if (sc && JSON_NODE_HOLDS_OBJECT(sc)) {
    g_autoptr(GList) keys = json_object_get_members(json_node_get_object(sc));
    for (GList *k = keys; k; k = k->next) {
      JsonNode *n = json_object_get_member(json_node_get_object(sc), k->data);
      g_autofree char *v = json_cell(n);
      /* files since issue 16 write numbers: a time is its count of ns (older files: "100000ns") */
      g_auto(GStrv) sk = g_strsplit(k->data, ".", 2);
      const PcsParamInfo *info = sk[0] && sk[1] ? pcs_params_find(sk[0], sk[1]) : NULL;
      gboolean ns = info && info->kind == PCS_KIND_TIME && JSON_NODE_HOLDS_VALUE(n) &&
                    json_node_get_value_type(n) != G_TYPE_STRING;
      g_autofree char *a = g_strdup_printf("%s=%s%s", (char *)k->data, v ? v : "", ns ? "ns" : "");
      add_scenario(r, a, 0);
    }
  }
  JsonNode *jobs = json_object_get_member(top, "scenario_jobs");
  for (guint i = 0; jobs && JSON_NODE_HOLDS_ARRAY(jobs) && i < json_array_get_length(json_node_get_array(jobs)); i++) {
    JsonNode *e = json_array_get_element(json_node_get_array(jobs), i);
    if (JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING)
      g_ptr_array_add(r->jobs, g_strdup(json_node_get_string(e)));
  }
  if (!json_fio(r, top, error) || !json_seeds(r, top, error)) return FALSE;
  JsonNode *sw = json_object_get_member(top, "sweep");
  JsonNode *varied = sw && JSON_NODE_HOLDS_OBJECT(sw) ? json_object_get_member(json_node_get_object(sw), "varied") : NULL;
  if (varied && JSON_NODE_HOLDS_ARRAY(varied)) {
    JsonArray *a = json_node_get_array(varied);
    for (guint i = 0; i < json_array_get_length(a); i++) {
      JsonNode *e = json_array_get_element(a, i);
      if (JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING)
        g_ptr_array_add(r->varied, g_strdup(json_node_get_string(e)));
    }
  }
  if (fio) return load_fio_json(r, obj, top, error);
  JsonArray *rows = json_node_get_array(res);
  for (guint i = 0; i < json_array_get_length(rows); i++) {
    JsonNode *n = json_array_get_element(rows, i);
    if (!JSON_NODE_HOLDS_OBJECT(n)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: results[%u] is not an object", r->path, i);
      return FALSE;
    }
    if (!json_row(r, json_node_get_object(n), i, error)) return FALSE;
  }
  return TRUE;
}

gboolean pcs_results_load(PcsResults *r, const char *path, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) {
    results_init(r, path);
    return FALSE;
  }
  return pcs_results_load_text(r, path, text, strlen(text), error);
}

gboolean pcs_results_load_text(PcsResults *r, const char *path, const char *data, size_t len, GError **error) {
  results_init(r, path);
  if (memchr(data, 0, len) || !g_utf8_validate(data, (gssize)len, NULL)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:1: not a text file (binary data)", path);
    return FALSE;
  }
  g_autofree char *text = g_strndup(data, len);
  const char *p = text;
  while (g_ascii_isspace(*p)) p++;
  return *p == '{' ? load_json(r, text, error) : load_csv(r, text, error);
}

/* A recorded value for KEY: TIME columns hold bare nanoseconds. */
static gboolean set_recorded(PcsParams *p, const char *key, const char *value, const char *where, GError **error) {
  const PcsParamInfo *info = pcs_params_find_dotted(key);
  if (!info) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: '%s' is not a scenario key of this pcsim (%s)", where, key,
                pcs_version());
    return FALSE;
  }
  g_autofree char *v = info->kind == PCS_KIND_TIME && value[0] && !g_ascii_isalpha(value[strlen(value) - 1])
                           ? g_strdup_printf("%sns", value)
                           : g_strdup(value);
  return pcs_params_set(p, info, v, where, error);
}

/* Several jobs recorded: P's jobs. */
static gboolean results_jobs(const PcsResults *r, PcsParams *p, GError **error) {
  if (!r->jobs->len) return TRUE;
  pcs_params_jobs_free(p->jobs, p->njobs);
  p->njobs = r->jobs->len;
  p->jobs = g_new0(PcsJobSpec, p->njobs);
  for (guint j = 0; j < r->jobs->len; j++) {
    g_autofree char *why = NULL;
    if (!pcs_params_job_parse(g_ptr_array_index(r->jobs, j), &p->jobs[j], &why)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: recorded job %u: %s", r->path, j + 1, why);
      return FALSE;
    }
  }
  return TRUE;
}

/* A fio job's run recorded: P's fio_* as the job set them (fio.c
 * pcs_fio_apply()).  Only options were accepted when none are listed: the
 * list is written when not empty. */
static void results_fio(const PcsResults *r, PcsParams *p) {
  gboolean sections = r->fio_global_options || r->fio_sections->len;
  if (!r->fio_model && !r->fio_accepted && !sections) return;
  g_free(p->fio_model);
  p->fio_model = g_strdup(r->fio_model);
  g_strfreev(p->fio_accepted);
  p->fio_accepted = r->fio_accepted ? g_strdupv(r->fio_accepted) : g_new0(char *, 1);
  if (sections)
    pcs_params_set_fio_job(p, r->fio_global_options, (const PcsFioSection *)r->fio_sections->data, r->fio_sections->len);
  else { /* a file of a pcsim that did not record them: cmd_run.c refuses fio-json */
    g_clear_pointer(&p->fio_global_options, g_strfreev);
    pcs_params_fio_sections_free(p->fio_sections, p->fio_nsections);
    p->fio_sections = NULL, p->fio_nsections = 0;
  }
}

gboolean pcs_results_params(const PcsResults *r, guint row, PcsParams *p, GError **error) {
  if (r->scenario->len == 0) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: no recorded scenario (no provenance)", r->path);
    return FALSE;
  }
  for (guint i = 0; i < r->scenario->len; i++) {
    const char *a = g_ptr_array_index(r->scenario, i);
    g_autofree char *key = g_strndup(a, (gsize)(strchr(a, '=') - a));
    g_autofree char *where = g_strdup_printf("%s:%u", r->path, g_array_index(r->scenario_line, guint, i));
    if (!set_recorded(p, key, strchr(a, '=') + 1, where, error)) return FALSE;
  }
  g_free(p->source);
  p->source = g_strdup(r->source ? r->source : r->path);
  if (!results_jobs(r, p, error)) return FALSE;
  results_fio(r, p);
  if (row == G_MAXUINT) return TRUE;
  char **cells = g_ptr_array_index(r->rows, row);
  for (guint i = 0; i < r->varied->len; i++) {
    const char *key = g_ptr_array_index(r->varied, i);
    if (!strcmp(key, "pool") || !strcmp(key, "policy")) continue; /* the row's policy column */
    int c = pcs_results_column(r, key);
    g_autofree char *where = g_strdup_printf("%s: row %u", r->path, row + 1);
    if (c < 0) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: varied key '%s' has no column", where, key);
      return FALSE;
    }
    if (!set_recorded(p, key, cells[c], where, error)) return FALSE;
  }
  return TRUE;
}
