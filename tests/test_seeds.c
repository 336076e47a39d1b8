/* test_seeds.c - `pcsim run --seeds N` and `pcsim compare TRACE... --seeds N`
 * as a user runs them: the per-seed rows are the runs of those seeds, the
 * median and min..max are those of the rows, one seed prints what a plain
 * run prints, and --jobs never changes a byte. */
#include "support.h"

#include "pcsim/json.h"

#include <math.h>

#define SCEN "workloads/liubo-2011.ini", "--set", "workload.file_size=8M"
#define REPS "tests/data/kernel-6.18-btrfs-threads/blocks/ra128-j4-rep"
#define REP1 REPS "1.ftrace.txt.gz"
#define REP2 REPS "2.ftrace.txt.gz"
#define REP3 REPS "3.ftrace.txt.gz"

/* The line of CSV whose first cell is FIRST and second SECOND (NULL: any). */
static char *csv_line(const char *csv, const char *first, const char *second) {
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  for (char **l = lines; *l; l++) {
    g_auto(GStrv) cells = g_strsplit(*l, ",", 3);
    if (cells[0] && cells[1] && !strcmp(cells[0], first) && (!second || !strcmp(cells[1], second)))
      return g_strdup(*l);
  }
  fail_msg("no CSV line %s,%s in:\n%s", first, second ? second : "*", csv);
  return NULL;
}

/* Cell K (0-based) of a CSV line, as a number. */
static double cell(const char *line, guint k) {
  g_auto(GStrv) cells = g_strsplit(line, ",", -1);
  assert_true(k < g_strv_length(cells));
  return g_ascii_strtod(cells[k], NULL);
}

static char *run_ok(const char *first, ...) G_GNUC_NULL_TERMINATED;
/* stdout of `pcsim ARGS...` (which must exit 0). */
static char *run_ok(const char *first, ...) {
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  va_list ap;
  va_start(ap, first);
  for (const char *a = first; a; a = va_arg(ap, const char *)) g_ptr_array_add(argv, (gpointer)a);
  va_end(ap);
  g_ptr_array_add(argv, NULL);
  char *out = NULL;
  g_autofree char *err = NULL;
  int rc = test_pcsim_argv(&out, &err, FALSE, (const char *const *)argv->pdata);
  if (rc != 0) fail_msg("pcsim %s ...: exit %d: %s", first, rc, err);
  return out;
}

/* Each (seed, policy) row of `run --seeds 3` is, cell for cell, the row of
 * `run --seed K`; the median, min and max rows are those of the three.
 * `--scenario-from` of the file reruns its three seeds, to the byte. */
static void seed_rows_are_the_runs_of_those_seeds(void **state) {
  g_autofree char *seeds = run_ok("run", SCEN, "--seeds", "3", "--format", "csv", NULL);
  assert_non_null(strstr(seeds, "\n# seeds 1..3\nseed,policy,threads,"));
  const char *policies[] = {"immediate", "pool:16"};
  const guint bios = 3 + 1; /* the run's CSV column 3, after "seed" */
  for (size_t j = 0; j < G_N_ELEMENTS(policies); j++) {
    double v[3];
    for (int k = 1; k <= 3; k++) {
      g_autofree char *seed = g_strdup_printf("%d", k);
      g_autofree char *plain = run_ok("run", SCEN, "--seed", seed, "--format", "csv", NULL);
      g_autofree char *want = csv_line(plain, policies[j], NULL);
      g_autofree char *got = csv_line(seeds, seed, policies[j]);
      assert_string_equal(got + strlen(seed) + 1, want);
      v[k - 1] = cell(got, bios);
    }
    double lo = MIN(v[0], MIN(v[1], v[2])), hi = MAX(v[0], MAX(v[1], v[2]));
    double mid = v[0] + v[1] + v[2] - lo - hi;
    g_autofree char *median = csv_line(seeds, "median", policies[j]);
    g_autofree char *min = csv_line(seeds, "min", policies[j]);
    g_autofree char *max = csv_line(seeds, "max", policies[j]);
    assert_true(cell(median, bios) == mid && cell(min, bios) == lo && cell(max, bios) == hi);
    assert_true(lo < hi); /* jitter 0.2: the seeds differ, or this test proves nothing */
  }
  g_autofree char *path = test_tempfile("seeds.csv", seeds); /* reruns its seeds; --seeds 1: the first seed alone */
  g_autofree char *rerun = run_ok("run", "--scenario-from", path, "--format", "csv", NULL);
  assert_string_equal(rerun, seeds);
  g_autofree char *rerun_table = run_ok("run", "--scenario-from", path, NULL);
  g_autofree char *seeds_table = run_ok("run", SCEN, "--seeds", "3", NULL);
  assert_string_equal(rerun_table, seeds_table);
  g_autofree char *rerun1 = run_ok("run", "--scenario-from", path, "--seeds", "1", NULL);
  g_autofree char *first = run_ok("run", SCEN, NULL);
  assert_string_equal(rerun1, first);
  g_autofree char *out = NULL, *err = NULL; /* one run's output of a file of three seeds: refused, saying so */
  assert_int_equal(test_pcsim(&out, &err, "run", "--scenario-from", path, "--format", "fio-json", NULL), 2);
  assert_string_equal(out, "");
  if (!strstr(err, "--format fio-json shows one run") || !strstr(err, "records 3 seeds") || !strstr(err, "--seeds 1"))
    fail_msg("unclear: %s", err);
  g_autofree char *table = run_ok("run", SCEN, "--seeds", "3", "--seed", "5", NULL);
  assert_non_null(strstr(table, ", seeds 5..7\n"));
  assert_non_null(strstr(table, "\nimmediate             5 "));
  assert_non_null(strstr(table, "\npool:16          median "));
  assert_non_null(strstr(table, "\npool:16             max "));
}

/* --seeds 1 is a plain run, in every format, with or without --seed. */
static void one_seed_prints_what_a_plain_run_prints(void **state) {
  const char *formats[] = {"table", "csv", "json", "fio-json"};
  for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
    g_autofree char *plain = run_ok("run", SCEN, "--format", formats[i], NULL);
    g_autofree char *one = run_ok("run", SCEN, "--format", formats[i], "--seeds", "1", NULL);
    assert_string_equal(plain, one);
    g_autofree char *plain3 = run_ok("run", SCEN, "--format", formats[i], "--seed", "3", NULL);
    g_autofree char *one3 = run_ok("run", SCEN, "--format", formats[i], "--seed", "3", "--seeds", "1", NULL);
    assert_string_equal(plain3, one3);
  }
  g_autofree char *plain = run_ok("compare", REP1, SCEN, NULL);
  g_autofree char *one = run_ok("compare", REP1, SCEN, "--seeds", "1", NULL);
  assert_string_equal(plain, one);
}

/* --jobs 1, 2 and 4 print the same bytes, for run and for compare. */
static void any_jobs_prints_the_same_bytes(void **state) {
  const char *formats[] = {"table", "csv", "json"};
  for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
    g_autofree char *j1 = run_ok("run", SCEN, "--seeds", "5", "--jobs", "1", "--format", formats[i], NULL);
    g_autofree char *j2 = run_ok("run", SCEN, "--seeds", "5", "--jobs", "2", "--format", formats[i], NULL);
    g_autofree char *j4 = run_ok("run", SCEN, "--seeds", "5", "--jobs", "4", "--format", formats[i], NULL);
    assert_string_equal(j1, j2);
    assert_string_equal(j1, j4);
    g_autofree char *c1 = run_ok("compare", REP1, REP2, REP3, SCEN, "--seeds", "4", "--jobs", "1", "--format",
                                 formats[i], NULL);
    g_autofree char *c2 = run_ok("compare", REP1, REP2, REP3, SCEN, "--seeds", "4", "--jobs", "2", "--format",
                                 formats[i], NULL);
    g_autofree char *c4 = run_ok("compare", REP1, REP2, REP3, SCEN, "--seeds", "4", "--jobs", "4", "--format",
                                 formats[i], NULL);
    assert_string_equal(c1, c2);
    assert_string_equal(c1, c4);
  }
}

static JsonNode *member(JsonObject *o, const char *name) {
  JsonNode *n = json_object_get_member(o, name);
  if (!n) fail_msg("JSON object lacks \"%s\"", name);
  return n;
}

/* JSON: "results" is the first seed's run as without --seeds, "per_seed"
 * every run, "summary" numbers (not strings) that are the median, min and
 * max of per_seed. */
static void json_keeps_results_and_adds_per_seed_and_a_numeric_summary(void **state) {
  g_autofree char *out = run_ok("run", SCEN, "--seeds", "4", "--format", "json", NULL);
  g_autofree char *plain = run_ok("run", SCEN, "--seed", "1", "--format", "json", NULL);
  GError *error = NULL;
  g_autoptr(JsonParser) ps = pcs_json_parse("seeds", out, -1, &error);
  g_autoptr(JsonParser) pp = pcs_json_parse("plain", plain, -1, &error);
  assert_non_null(ps), assert_non_null(pp);
  JsonObject *root = json_node_get_object(json_parser_get_root(ps));
  JsonObject *proot = json_node_get_object(json_parser_get_root(pp));
  g_autofree char *a = json_to_string(member(root, "results"), FALSE);
  g_autofree char *b = json_to_string(member(proot, "results"), FALSE);
  assert_string_equal(a, b);
  JsonArray *seeds = json_node_get_array(member(root, "seeds"));
  assert_int_equal(json_array_get_length(seeds), 4);
  JsonArray *per = json_node_get_array(member(root, "per_seed"));
  assert_int_equal(json_array_get_length(per), 4);
  JsonArray *summary = json_node_get_array(member(root, "summary"));
  assert_int_equal(json_array_get_length(summary), 2);
  const char *metrics[] = {"bios", "aggregate_mib_s", "eexist", "owner_changes_per_mib"};
  for (guint j = 0; j < 2; j++) {
    JsonObject *s = json_array_get_object_element(summary, j);
    assert_int_equal(json_object_get_int_member(s, "runs"), 4);
    for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++) {
      double v[4];
      for (guint k = 0; k < 4; k++) {
        JsonObject *run = json_array_get_object_element(json_node_get_array(
            member(json_array_get_object_element(per, k), "results")), j);
        v[k] = json_node_get_double(member(run, metrics[m]));
      }
      for (guint x = 1; x < 4; x++) /* sort */
        for (guint y = x; y > 0 && v[y - 1] > v[y]; y--) {
          double t = v[y];
          v[y] = v[y - 1], v[y - 1] = t;
        }
      JsonObject *spread = json_node_get_object(member(s, metrics[m]));
      const char *keys[] = {"median", "min", "max"};
      double want[] = {(v[1] + v[2]) / 2, v[0], v[3]};
      for (int w = 0; w < 3; w++) {
        JsonNode *n = member(spread, keys[w]);
        GType t = json_node_get_value_type(n);
        if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE) fail_msg("%s.%s is no number", metrics[m], keys[w]);
        assert_true(fabs(json_node_get_double(n) - want[w]) <= 1e-4 * MAX(1.0, fabs(want[w])));
      }
    }
  }
}

/* Three repeats of one configuration: each metric's real median and
 * min..max are those of the three traces compared one by one. */
static void compare_gives_the_real_spread_of_several_traces(void **state) {
  const char *reps[] = {REP1, REP2, REP3};
  double bios[3], per_mib[3];
  for (int i = 0; i < 3; i++) {
    g_autofree char *one = run_ok("compare", reps[i], SCEN, "--format", "csv", NULL);
    g_autofree char *b = csv_line(one, "bios", NULL), *m = csv_line(one, "bios_per_mib", NULL);
    bios[i] = cell(b, 1), per_mib[i] = cell(m, 1);
    g_auto(GStrv) cells = g_strsplit(b, ",", -1); /* a count prints as an integer (issue 16) */
    assert_null(strchr(cells[1], '.'));
    assert_null(strchr(cells[2], '.'));
  }
  g_autofree char *all = run_ok("compare", REP1, REP2, REP3, SCEN, "--seeds", "3", "--format", "csv", NULL);
  assert_non_null(strstr(all, "\nmetric,real,real_min,real_max,simulated,simulated_min,simulated_max,ratio\n"));
  g_autofree char *b = csv_line(all, "bios", NULL), *m = csv_line(all, "bios_per_mib", NULL);
  double lo = MIN(bios[0], MIN(bios[1], bios[2])), hi = MAX(bios[0], MAX(bios[1], bios[2]));
  assert_true(cell(b, 1) == bios[0] + bios[1] + bios[2] - lo - hi);
  assert_true(cell(b, 2) == lo && cell(b, 3) == hi && lo < hi);
  double mlo = MIN(per_mib[0], MIN(per_mib[1], per_mib[2])), mhi = MAX(per_mib[0], MAX(per_mib[1], per_mib[2]));
  assert_true(fabs(cell(m, 2) - mlo) < 1e-9 && fabs(cell(m, 3) - mhi) < 1e-9);
  assert_true(cell(b, 5) <= cell(b, 4) && cell(b, 4) <= cell(b, 6)); /* simulated min <= median <= max */
  g_autofree char *table = run_ok("compare", REP1, REP2, REP3, SCEN, "--seeds", "3", NULL);
  assert_non_null(strstr(table, "real:      3 traces, median and min..max\n"));
  assert_non_null(strstr(table, ", seeds 1..3, median and min..max\n"));
  assert_non_null(strstr(table, "real min..max"));
}

/* What a per-run output cannot hold is refused with --seeds N > 1. */
static void per_run_outputs_are_refused_with_several_seeds(void **state) {
  const char *opts[][2] = {{"--trace", "/nonexistent/t.tsv"}, {"--timeline", NULL}, {"--format", "fio-json"}};
  for (size_t i = 0; i < G_N_ELEMENTS(opts); i++) {
    g_autofree char *out = NULL, *err = NULL;
    int rc = opts[i][1] ? test_pcsim(&out, &err, "run", SCEN, "--seeds", "2", opts[i][0], opts[i][1], NULL)
                        : test_pcsim(&out, &err, "run", SCEN, "--seeds", "2", opts[i][0], NULL);
    assert_int_equal(rc, 2);
    assert_string_equal(out, "");
    if (!strstr(err, opts[i][0]) || !strstr(err, "--seeds")) fail_msg("unclear: %s", err);
  }
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", SCEN, "--seeds", "-1", NULL), 2);
  assert_non_null(strstr(err, "--seeds -1: expected 1..10000"));
}

/* Table headers in human units: "128 KiB file", "1 TiB", not "0 MiB". */
static void sizes_print_in_human_units(void **state) {
  const struct {
    uint64_t bytes;
    const char *text;
  } cases[] = {{128 * PCS_KIB, "128 KiB"}, {PCS_MIB * PCS_MIB, "1 TiB"}, {1000 * PCS_MIB, "1000 MiB"},
               {2 * PCS_KIB * PCS_MIB, "2 GiB"},    {512, "512 B"},    {3 * PCS_KIB / 2, "1.5 KiB"}};
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *t = pcs_report_bytes(cases[i].bytes);
    assert_string_equal(t, cases[i].text);
  }
  g_autofree char *table = run_ok("run", "workloads/liubo-2011.ini", "--set", "workload.file_size=128k", NULL);
  assert_true(g_str_has_prefix(table, "scenario liubo-2011: 4 thread(s), 128 KiB file, bs 32 KiB, readahead 8 MiB,"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(seed_rows_are_the_runs_of_those_seeds),
    cmocka_unit_test(one_seed_prints_what_a_plain_run_prints),
    cmocka_unit_test(any_jobs_prints_the_same_bytes),
    cmocka_unit_test(json_keeps_results_and_adds_per_seed_and_a_numeric_summary),
    cmocka_unit_test(compare_gives_the_real_spread_of_several_traces),
    cmocka_unit_test(per_run_outputs_are_refused_with_several_seeds),
    cmocka_unit_test(sizes_print_in_human_units),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
