/* test_json.c - the one JSON writer: its layout and escaping, and every
 * command's JSON read back by json-glib. */
#include "support.h"

#include "pcsim/json.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* A name no command may print raw: a quote, a backslash, a tab. */
#define NASTY "we\"ird\\na\tme"

static JsonObject *parse_object(JsonParser *parser, const char *what, const char *text) {
  GError *error = NULL;
  if (!json_parser_load_from_data(parser, text, -1, &error)) fail_msg("%s: not JSON: %s\n%s", what, error->message, text);
  JsonNode *root = json_parser_get_root(parser);
  if (!JSON_NODE_HOLDS_OBJECT(root)) fail_msg("%s: not a JSON object", what);
  return json_node_get_object(root);
}

static void writer_places_commas_indents_and_escapes(void **state) {
  g_autoptr(GString) out = g_string_new(NULL);
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_json_string(&w, "name", NASTY "\x01");
  pcs_json_uint(&w, "n", 18446744073709551615u);
  pcs_json_double(&w, "x", "%.4f", 0.5);
  pcs_json_double(&w, "bad", "%.4f", 0.0 / 0.0);
  pcs_json_begin_array(&w, "empty", PCS_JSON_LINES);
  pcs_json_end(&w);
  pcs_json_begin_array(&w, "rows", PCS_JSON_LINES);
  pcs_json_begin_object(&w, NULL, PCS_JSON_INLINE);
  uint64_t hist[] = {0, 3, 0, 0, 7};
  pcs_json_hist(&w, "h", hist, G_N_ELEMENTS(hist));
  pcs_json_hist(&w, "none", hist, 1);
  pcs_json_end(&w);
  pcs_json_end(&w);
  pcs_json_end_document(&w);
  assert_string_equal(out->str, "{\n"
                                "  \"name\": \"we\\\"ird\\\\na\\u0009me\\u0001\",\n"
                                "  \"n\": 18446744073709551615,\n"
                                "  \"x\": 0.5000,\n"
                                "  \"bad\": null,\n"
                                "  \"empty\": [\n"
                                "  ],\n"
                                "  \"rows\": [\n"
                                "    {\"h\": {\"1\": 3, \"4\": 7}, \"none\": {}}\n"
                                "  ]\n"
                                "}\n");
  g_autoptr(JsonParser) parser = json_parser_new();
  JsonObject *o = parse_object(parser, "writer", out->str);
  assert_string_equal(json_object_get_string_member(o, "name"), NASTY "\x01");
}

static void numbers_are_checked_as_json_reads_them(void **state) {
  const char *good[] = {"0", "-0", "12", "0.5", "1e-20", "2.5E+3", "-7.25"};
  const char *bad[] = {"", ".5", "5.", "01", "+1", "0x1", "nan", "1e", "1 ", "25%"};
  for (size_t i = 0; i < G_N_ELEMENTS(good); i++)
    if (!pcs_json_is_number(good[i])) fail_msg("'%s' refused", good[i]);
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
    if (pcs_json_is_number(bad[i])) fail_msg("'%s' accepted", bad[i]);
}

/* Every command's JSON, with a scenario name, a scenario path and a trace
 * path holding a quote and a backslash, parses back to the same strings. */
static void every_command_json_parses_back_with_quotes_and_backslashes(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *sub = g_build_filename(dir, "a\"b\\c", NULL);
  assert_int_equal(g_mkdir(sub, 0700), 0);
  g_autofree char *ini = g_build_filename(sub, "x.ini", NULL), *trace = g_build_filename(sub, "t.txt", NULL);
  g_autofree char *src = test_path("workloads/liubo-2011.ini"), *text = NULL;
  assert_true(g_file_get_contents(src, &text, NULL, NULL));
  assert_true(g_file_set_contents(ini, text, -1, NULL));
  assert_true(g_file_set_contents(trace,
                                  "fio-1 [000] ..... 1.000000: block_bio_queue: 7,0 RA 0 + 256 [fio]\n"
                                  "fio-1 [000] ..... 1.000100: block_rq_issue: 7,0 RA 131072 () 0 + 256 be,0,4 [fio]\n",
                                  -1, NULL));
  g_autofree char *shard1 = g_build_filename(sub, "s1.json", NULL), *shard2 = g_build_filename(sub, "s2.json", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "sweep", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY,
                              "--vary", "workload.threads=1,2", "--format", "json", "--shard", "1/2", "--out", shard1,
                              NULL), 0);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "sweep", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY,
                              "--vary", "workload.threads=1,2", "--format", "json", "--shard", "2/2", "--out", shard2,
                              NULL), 0);
  struct {
    const char *what;
    const char *argv[12];
    const char *trace, *source; /* expected "trace" and "source" members, or NULL */
  } cases[] = {
    {"run", {"run", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY, "--format", "json"}, NULL,
     ini},
    {"fio-json", {"run", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY, "--format",
                  "fio-json"}, NULL, NULL},
    {"sweep", {"sweep", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY, "--vary",
               "scenario.name=x\"y,z\\\\w", "--format", "json"}, NULL, ini},
    {"merge", {"merge", shard2, shard1}, NULL, ini},
    {"trace-stats", {"trace-stats", trace, "--format", "json"}, trace, NULL},
    {"compare", {"compare", trace, ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY, "--format",
                 "json"}, trace, ini},
    {"replay", {"replay", "tests/fuzz/corpus/schedule/liubo-diagram.sched", "--format", "json"}, NULL, NULL},
    {"explore", {"explore", "--threads", "2", "--pages", "2", "--format", "json"}, NULL, NULL},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char **a = cases[i].argv;
    g_free(o), g_free(e);
    o = e = NULL;
    int rc = test_pcsim(&o, &e, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], NULL);
    if (rc != 0) fail_msg("%s: exit %d: %s", cases[i].what, rc, e);
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonObject *top = parse_object(parser, cases[i].what, o);
    if (cases[i].trace) assert_string_equal(json_object_get_string_member(top, "trace"), cases[i].trace);
    JsonObject *prov = json_object_has_member(top, "pcsim") ? json_object_get_object_member(top, "pcsim") : top;
    if (cases[i].source) assert_string_equal(json_object_get_string_member(prov, "source"), cases[i].source);
    if (json_object_has_member(prov, "scenario") && strcmp(cases[i].what, "trace-stats") != 0) {
      JsonObject *sc = json_object_get_object_member(prov, "scenario");
      assert_string_equal(json_object_get_string_member(sc, "scenario.name"), NASTY);
    }
    if (!strcmp(cases[i].what, "fio-json")) {
      JsonObject *job = json_array_get_object_element(json_object_get_array_member(top, "jobs"), 0);
      assert_string_equal(json_object_get_string_member(job, "jobname"), NASTY);
    }
    if (!strcmp(cases[i].what, "sweep")) {
      JsonArray *rows = json_object_get_array_member(top, "results");
      assert_string_equal(json_object_get_string_member(json_array_get_object_element(rows, 0), "scenario.name"),
                          "x\"y");
      assert_string_equal(json_object_get_string_member(json_array_get_object_element(rows, 2), "scenario.name"),
                          "z\\\\w");
    }
  }
  /* and pcsim reads its own JSON back: the recorded scenario reruns to the same bytes */
  g_autofree char *run = g_build_filename(sub, "run.json", NULL);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", ini, "--set", "workload.file_size=1M", "--set", "scenario.name=" NASTY,
                              "--format", "json", NULL), 0);
  assert_true(g_file_set_contents(run, o, -1, NULL));
  g_autofree char *again = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&again, &e2, "run", "--scenario-from", run, "--format", "json", NULL), 0);
  assert_string_equal(again, o);
}

/* `"bio_pages_hist": {...}` of TEXT, from its Nth occurrence (0-based). */
static char *hist_text(const char *text, int n) {
  const char *p = text;
  for (int i = 0; i <= n; i++) {
    p = strstr(i ? p + 1 : p, "\"bio_pages_hist\": {");
    if (!p) fail_msg("no bio_pages_hist #%d in\n%s", n, text);
  }
  return g_strndup(p, (gsize)(strchr(p, '}') - p + 1));
}

/* One bio size distribution printed by run, sweep and trace-stats: the
 * trace is the run's own submits written as ftrace block_bio_queue lines.
 * The sweep "varies" cost.jitter to the scenario's own 0.2, so it runs
 * the same point as the run. */
static void the_histogram_is_the_same_bytes_in_run_sweep_and_trace_stats(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *tsv = g_build_filename(dir, "events.tsv", NULL), *ftrace = g_build_filename(dir, "trace.txt", NULL);
  g_autofree char *run = NULL, *sweep = NULL, *stats = NULL, *e = NULL;
#define SCEN "workloads/liubo-2011.ini", "--set", "workload.file_size=4M", "--set", "workload.threads=3"
  assert_int_equal(test_pcsim(&run, &e, "run", SCEN, "--policy", "pool:16", "--format", "json", "--trace", tsv, NULL), 0);
  g_free(e);
  assert_int_equal(test_pcsim(&sweep, &e, "sweep", SCEN, "--policy", "pool:16", "--vary", "cost.jitter=0.2",
                              "--format", "json", NULL), 0);
  g_autofree char *events = NULL;
  assert_true(g_file_get_contents(tsv, &events, NULL, NULL));
  g_autoptr(GString) trace = g_string_new(NULL);
  g_auto(GStrv) lines = g_strsplit(events, "\n", -1);
  for (char **l = lines; *l; l++) {
    g_auto(GStrv) f = g_strsplit(*l, "\t", -1);
    if (g_strv_length(f) == 6 && !strcmp(f[3], "submit"))
      g_string_append_printf(trace, "fio-%s [000] ..... 1.000000: block_bio_queue: 7,0 RA %" G_GUINT64_FORMAT
                             " + %" G_GUINT64_FORMAT " [fio]\n", f[2], g_ascii_strtoull(f[4], NULL, 10) * 8,
                             g_ascii_strtoull(f[5], NULL, 10) * 8);
  }
  assert_true(trace->len > 0);
  assert_true(g_file_set_contents(ftrace, trace->str, -1, NULL));
  g_free(e);
  assert_int_equal(test_pcsim(&stats, &e, "trace-stats", ftrace, "--format", "json", NULL), 0);
#undef SCEN
  g_autofree char *from_run = hist_text(run, 0), *from_sweep = hist_text(sweep, 0), *from_trace = hist_text(stats, 0);
  assert_true(strlen(from_run) > strlen("\"bio_pages_hist\": {}"));
  assert_string_equal(from_sweep, from_run);
  assert_string_equal(from_trace, from_run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(writer_places_commas_indents_and_escapes),
    cmocka_unit_test(numbers_are_checked_as_json_reads_them),
    cmocka_unit_test(every_command_json_parses_back_with_quotes_and_backslashes),
    cmocka_unit_test(the_histogram_is_the_same_bytes_in_run_sweep_and_trace_stats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
