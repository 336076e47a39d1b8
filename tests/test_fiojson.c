/* test_fiojson.c - `pcsim run JOB.fio --format fio-json` is a drop-in for
 * fio's own `--output-format=json`: every key fio 3.33 writes for a sync
 * read job (ioengine=sync rw=read bs=32k numjobs=2 thread group_reporting,
 * on a 4 MiB file) is in pcsim's output with the same JSON type, or on the
 * NOT_MODELLED list below (docs/fio.md says why).  Checked against a real
 * fio run kept in tests/data/fio-json/ and, where fio is installed, against
 * a fresh one; then the values a fio user reads: percentiles in fio's
 * order and bucket values, bs as the job wrote it, the job's name. */
#include "support.h"

#include "pcsim/lathist.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

/* What pcsim leaves out (docs/fio.md, "not modelled"), as key paths. */
static const char *const not_modelled[] = {
  "/jobs[]/majf", "/jobs[]/minf",
  "/disk_util[]/read_merges", "/disk_util[]/write_merges", "/disk_util[]/in_queue",
  NULL};

static const char *node_type(JsonNode *n) {
  if (JSON_NODE_HOLDS_OBJECT(n)) return "object";
  if (JSON_NODE_HOLDS_ARRAY(n)) return "array";
  if (JSON_NODE_HOLDS_NULL(n)) return "null";
  GType t = json_node_get_value_type(n);
  return t == G_TYPE_STRING ? "string" : t == G_TYPE_DOUBLE ? "double" : t == G_TYPE_BOOLEAN ? "boolean" : "int";
}

/* Every key path under N ("/jobs[]/read/clat_ns/N") -> its type; arrays by their first element. */
static void key_types(JsonNode *n, const char *path, GHashTable *out) {
  if (JSON_NODE_HOLDS_OBJECT(n)) {
    JsonObject *o = json_node_get_object(n);
    g_autoptr(GList) members = json_object_get_members(o);
    for (GList *m = members; m; m = m->next) {
      char *sub = g_strdup_printf("%s/%s", path, (const char *)m->data);
      JsonNode *c = json_object_get_member(o, m->data);
      g_hash_table_insert(out, sub, (gpointer)node_type(c));
      key_types(c, sub, out);
    }
  } else if (JSON_NODE_HOLDS_ARRAY(n) && json_array_get_length(json_node_get_array(n))) {
    g_autofree char *sub = g_strdup_printf("%s[]", path);
    key_types(json_array_get_element(json_node_get_array(n), 0), sub, out);
  }
}

static GHashTable *keys_of(const char *what, const char *text) {
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *error = NULL;
  if (!json_parser_load_from_data(parser, text, -1, &error)) fail_msg("%s: %s", what, error->message);
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  key_types(json_parser_get_root(parser), "", h);
  return h;
}

static gboolean allowed_missing(const char *path) {
  for (const char *const *a = not_modelled; *a; a++)
    if (!strcmp(*a, path)) return TRUE;
  return FALSE;
}

/* Fails naming every key of FIO (fio's JSON) pcsim lacks or types differently. */
static void compare_keys(const char *what, const char *fio, const char *ours) {
  g_autoptr(GHashTable) theirs = keys_of(what, fio), mine = keys_of("pcsim", ours);
  g_autoptr(GString) bad = g_string_new(NULL);
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, theirs);
  while (g_hash_table_iter_next(&it, &k, &v)) {
    const char *t = g_hash_table_lookup(mine, k);
    if (!t && !allowed_missing(k)) g_string_append_printf(bad, " missing %s (%s);", (char *)k, (char *)v);
    /* fio prints integral doubles as "100.000000": a double either way */
    else if (t && strcmp(t, v)) g_string_append_printf(bad, " %s is %s, fio's is %s;", (char *)k, t, (char *)v);
  }
  for (const char *const *a = not_modelled; *a; a++) /* the list holds only what fio writes */
    if (!g_hash_table_contains(theirs, *a)) g_string_append_printf(bad, " %s is listed but fio has no such key;", *a);
  if (bad->len) fail_msg("%s vs pcsim:%s", what, bad->str);
}

static char *pcsim_fio_json(void) {
  g_autofree char *err = NULL;
  char *out = NULL;
  int rc = test_pcsim(&out, &err, "run", "tests/data/fio-json/sync-read.fio", "--format", "fio-json", "--policy",
                      "pool:16", NULL);
  if (rc != 0) fail_msg("pcsim run: exit %d: %s", rc, err);
  return out;
}

/* The committed real fio run: runs everywhere. */
static void keys_match_recorded_fio(void **state) {
  g_autofree char *fio = NULL, *path = test_path("tests/data/fio-json/fio-3.33-sync-read.json");
  assert_true(g_file_get_contents(path, &fio, NULL, NULL));
  g_autofree char *ours = pcsim_fio_json();
  compare_keys("recorded fio 3.33", fio, ours);
}

/* A fresh fio run of the same job, on a 4 MiB file in a temporary directory. */
static void keys_match_live_fio(void **state) {
  g_autofree char *fio = g_find_program_in_path("fio");
  if (!fio) {
    fprintf(stderr, "test_fiojson: skipped the live comparison: fio is not installed\n");
    skip();
  }
  g_autofree char *dir = test_tempdir(), *job = test_path("tests/data/fio-json/sync-read.fio");
  g_autofree char *data = g_build_filename(dir, "f4m", NULL);
  g_autofree char *bytes = g_malloc0(4 << 20);
  assert_true(g_file_set_contents(data, bytes, 4 << 20, NULL));
  char *argv[] = {fio, "--output-format=json", job, NULL};
  g_autofree char *theirs = test_tool(dir, argv);
  g_autofree char *ours = pcsim_fio_json();
  compare_keys("live fio", theirs, ours);
}

/* What a fio user reads off it: the job's name and options as written,
 * 256 read() calls of 32 KiB, percentiles that are fio bucket values in
 * order, p50 equal to pcsim's own read_lat_us_p50. */
static void values_read_like_fio(void **state) {
  g_autofree char *ours = pcsim_fio_json();
  g_autoptr(JsonParser) parser = json_parser_new();
  assert_true(json_parser_load_from_data(parser, ours, -1, NULL));
  JsonObject *top = json_node_get_object(json_parser_get_root(parser));
  JsonObject *global = json_object_get_object_member(top, "global options");
  assert_string_equal(json_object_get_string_member(global, "bs"), "32k");
  assert_string_equal(json_object_get_string_member(global, "size"), "4m");
  JsonObject *job = json_array_get_object_element(json_object_get_array_member(top, "jobs"), 0);
  assert_string_equal(json_object_get_string_member(job, "jobname"), "seqread");
  JsonObject *rd = json_object_get_object_member(job, "read");
  assert_int_equal(json_object_get_int_member(rd, "total_ios"), 2 * 4 * 1024 / 32);
  JsonObject *clat = json_object_get_object_member(rd, "clat_ns");
  assert_int_equal(json_object_get_int_member(clat, "N"), 256);
  JsonObject *pct = json_object_get_object_member(clat, "percentile");
  gint64 prev = 0, min = json_object_get_int_member(clat, "min"), max = json_object_get_int_member(clat, "max");
  static const char *const keys[] = {"1.000000", "50.000000", "90.000000", "99.000000", "99.990000"};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
    gint64 v = json_object_get_int_member(pct, keys[i]);
    assert_true(v >= prev);
    assert_int_equal(pcs_lathist_value(pcs_lathist_idx((uint64_t)v)), v); /* a bucket's value, as fio prints */
    /* within the buckets of min and max: fio prints a bucket's mean (plat_idx_to_val()), so p99.99 may
     * lie above max when max sits in the lower half of its bucket */
    assert_true(pcs_lathist_idx((uint64_t)v) >= pcs_lathist_idx((uint64_t)min) &&
                pcs_lathist_idx((uint64_t)v) <= pcs_lathist_idx((uint64_t)max));
    prev = v;
  }
  /* this run's figures (seed 1): cached reads in 2.7-5.3 us, the misses' waits in the tail */
  assert_int_equal(json_object_get_int_member(pct, "1.000000"), 2736);
  assert_int_equal(json_object_get_int_member(pct, "50.000000"), 3344);
  assert_int_equal(json_object_get_int_member(pct, "99.000000"), 1384448);
  /* the readers' CPU over the run, the user part fio's own (cost.fio_user) */
  assert_float_equal(json_object_get_double_member(job, "sys_cpu"), 24.117002, 1e-5);
  assert_float_equal(json_object_get_double_member(job, "usr_cpu"), 2.699604, 1e-5);
  JsonObject *disk = json_array_get_object_element(json_object_get_array_member(top, "disk_util"), 0);
  assert_float_equal(json_object_get_double_member(disk, "util"), 66.383762, 1e-6); /* the device busy 66% of the run */
  /* the same run's own JSON: read_lat_us_p50 is fio's p50 in us */
  g_autofree char *own = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&own, &err, "run", "tests/data/fio-json/sync-read.fio", "--format", "json", "--policy",
                              "pool:16", NULL), 0);
  g_autoptr(JsonParser) p2 = json_parser_new();
  assert_true(json_parser_load_from_data(p2, own, -1, NULL));
  JsonObject *r0 = json_array_get_object_element(
      json_object_get_array_member(json_node_get_object(json_parser_get_root(p2)), "results"), 0);
  assert_true(json_object_get_double_member(r0, "read_lat_us_p50") * 1000 ==
              (double)json_object_get_int_member(pct, "50.000000"));
  /* ctx: the readers' context switches, the run's reader_switches: at least
   * one a reader (its end) and one more a sleep it began on its CPU */
  gint64 ctx = json_object_get_int_member(job, "ctx");
  assert_int_equal(ctx, json_object_get_int_member(r0, "reader_switches"));
  assert_true(ctx >= json_object_get_int_member(r0, "threads") && ctx <= json_object_get_int_member(r0, "threads") +
                                                                          json_object_get_int_member(r0, "waits") + 1000);
}

/* A job of two sections, [reader-a] and [reader-b] with numjobs=2 each:
 * fio's JSON lists each clone under its own section's name (clones of one
 * section share it) with that section's options, and a section's name=
 * option renames it as in fio. */
static void each_job_keeps_its_section_name(void **state) {
  g_autofree char *job = test_tempfile("two-sections.fio", "[global]\nbs=128k\nsize=4M\nrw=read\nioengine=psync\n"
                                                            "[reader-a]\nnumjobs=2\n[reader-b]\nnumjobs=2\n"
                                                            "[reader-c]\nname=renamed\n");
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", job, "--format", "fio-json", "--policy", "pool:16", NULL);
  if (rc != 0) fail_msg("pcsim run: exit %d: %s", rc, err);
  g_autoptr(JsonParser) parser = json_parser_new();
  assert_true(json_parser_load_from_data(parser, out, -1, NULL));
  JsonArray *jobs = json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "jobs");
  static const char *const names[] = {"reader-a", "reader-a", "reader-b", "reader-b", "renamed"};
  assert_int_equal(json_array_get_length(jobs), 5);
  for (guint i = 0; i < 5; i++) {
    JsonObject *j = json_array_get_object_element(jobs, i);
    assert_string_equal(json_object_get_string_member(j, "jobname"), names[i]);
    JsonObject *opts = json_object_get_object_member(j, "job options");
    assert_string_equal(json_object_get_string_member(opts, i < 4 ? "numjobs" : "name"), i < 4 ? "2" : "renamed");
  }
}

/* `pcsim run JOB --format fio-json > f.json`, then `--scenario-from f.json`
 * reruns the same scenario with the same policies: the CSV of both runs is
 * the same to the byte, the job's "# fio" provenance lines included (the
 * fio-json file records them: no job file is read again). */
static void scenario_from_reads_pcsims_fio_json(void **state) {
  g_autofree char *dir = test_tempdir(), *json = g_build_filename(dir, "f.json", NULL);
  g_autofree char *out = NULL, *err = NULL, *csv = NULL, *err2 = NULL, *again = NULL, *err3 = NULL;
  const char *job = "tests/data/fio-json/sync-read.fio";
  int rc = test_pcsim(&out, &err, "run", job, "--format", "fio-json", "--policy", "pool:16,window", NULL);
  if (rc != 0) fail_msg("pcsim run: exit %d: %s", rc, err);
  assert_true(g_file_set_contents(json, out, -1, NULL));
  assert_int_equal(test_pcsim(&csv, &err2, "run", job, "--format", "csv", "--policy", "pool:16,window", NULL), 0);
  rc = test_pcsim(&again, &err3, "run", "--scenario-from", json, "--format", "csv", NULL);
  if (rc != 0) fail_msg("pcsim run --scenario-from: exit %d: %s", rc, err3);
  assert_string_equal(again, csv);
  assert_non_null(strstr(again, "\npool:16,2,")); /* both policies, numjobs=2 */
  assert_non_null(strstr(again, "\nwindow,2,"));
}

/* fio's bucket scheme and percentile rule, on values worked by hand from stat.c. */
static void histogram_is_fios(void **state) {
  assert_int_equal(PCS_LAT_PLAT_NR, 1856);
  assert_int_equal(pcs_lathist_idx(127), 127); /* exact below 2 * 64 */
  assert_int_equal(pcs_lathist_idx(128), 128);
  assert_int_equal(pcs_lathist_idx(130), 129); /* 2 ns wide from 128 */
  assert_int_equal(pcs_lathist_value(129), 131); /* the middle: 130 + 0.5 * 2 */
  assert_int_equal(pcs_lathist_idx(UINT64_MAX), PCS_LAT_PLAT_NR - 1);
  static PcsLatHist h; /* 100 calls of 1..100 us */
  for (uint64_t i = 1; i <= 100; i++) pcs_lathist_add(&h, i * 1000);
  assert_int_equal(h.n, 100);
  assert_int_equal(h.min, 1000);
  assert_int_equal(h.max, 100000);
  uint64_t p50 = pcs_lathist_percentile(&h, 50.0); /* the 50th value, 50 us, in its bucket */
  assert_int_equal(p50, pcs_lathist_value(pcs_lathist_idx(50000)));
  assert_true(p50 > 49000 && p50 < 51000);
  assert_true(pcs_lathist_stddev(&h) > 29000 && pcs_lathist_stddev(&h) < 29100); /* sample stddev of 1..100 us: 29011 */
  assert_int_equal(h.lat_u[pcs_lathist_decade(1)], 1); /* 1 us: fio's "2" */
  assert_int_equal(h.lat_u[3], 10); /* 10..19 us: fio's "20" */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(histogram_is_fios),
    cmocka_unit_test(keys_match_recorded_fio),
    cmocka_unit_test(keys_match_live_fio),
    cmocka_unit_test(values_read_like_fio),
    cmocka_unit_test(each_job_keeps_its_section_name),
    cmocka_unit_test(scenario_from_reads_pcsims_fio_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
