/* test_cli.c - the pcsim command as a user runs it. */
#include "support.h"

static void run_prints_the_seed_table(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                      "--policy", "immediate", "--policy", "pool:16", NULL);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "immediate"));
  assert_non_null(strstr(out, "pool:16"));
  assert_non_null(strstr(out, "bios/MiB"));
  assert_non_null(strstr(out, "%"));
}

static void stdout_is_byte_identical_and_stats_go_to_stderr(void **state) {
  g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&o1, &e1, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=32M",
                              "--format", "json", "--stats", NULL), 0);
  assert_int_equal(test_pcsim(&o2, &e2, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=32M",
                              "--format", "json", "--stats", NULL), 0);
  assert_string_equal(o1, o2);
  assert_non_null(strstr(e1, "stats: wall_s="));
  assert_non_null(strstr(e1, " events="));
  assert_non_null(strstr(e1, " events_per_s="));
  assert_non_null(strstr(e1, " peak_rss_kib="));
  const char *keys[] = {"\"results\"", "\"policy\"", "\"threads\"", "\"file_mib\"", "\"bios\"", "\"requests\"",
                        "\"pages_read\"", "\"bios_per_mib\"", "\"requests_per_mib\"", "\"avg_bio_kib\"",
                        "\"bio_pages_hist\"", "\"eexist\"", "\"aggregate_mib_s\"", "\"device_mib_s\"",
                        "\"sim_time_ns\"", "\"events\""};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    if (!strstr(o1, keys[i])) fail_msg("JSON lacks %s", keys[i]);
}

static void csv_has_the_json_columns(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--set", "workload.file_size=8M",
                              "--format", "csv", "--policy", "window", NULL), 0);
  assert_non_null(strstr(out, "\npolicy,threads,file_mib,bios,requests,pages_read,bios_per_mib,"));
  assert_non_null(strstr(out, "\nwindow,1,8.0000,"));
}

static void bad_input_exits_2_with_file_line_and_key(void **state) {
  g_autofree char *path = test_tempfile("bad.ini", "[workload]\nthreads = 4\nblock_sise = 32k\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, NULL), 2);
  assert_non_null(strstr(err, "bad.ini:3:"));
  assert_non_null(strstr(err, "workload.block_size"));
  assert_string_equal(out, "");
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "cpu.cont=2", NULL), 2);
  assert_non_null(strstr(err, "cpu.count"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--policy", "pool:0", NULL), 2);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--format", "xml", NULL), 2);
  assert_non_null(strstr(err, "--format 'xml': expected table, csv, json or fio-json"));
  g_free(out), g_free(err);
  /* each command names only the formats it prints */
  assert_int_equal(test_pcsim(&out, &err, "replay", "workloads/liubo-diagram.sched", "--format", "csv", NULL), 2);
  assert_non_null(strstr(err, "--format 'csv': expected table or json"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "workloads/liubo-diagram.sched", "--format", "fio-json", NULL),
                   2);
  assert_non_null(strstr(err, "--format 'fio-json': expected table, csv or json"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--bogus", NULL), 2);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads", NULL), 2);
  assert_non_null(strstr(err, "directory"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "frobnicate", NULL), 2);
}

static void help_and_params_explain_everything(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "--help", NULL), 0);
  assert_non_null(strstr(out, "run"));
  assert_non_null(strstr(out, "params"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "--help", NULL), 0);
  const char *opts[] = {"--policy", "--set", "--seed", "--format", "--stats", "--trace"};
  for (size_t i = 0; i < G_N_ELEMENTS(opts); i++) assert_non_null(strstr(out, opts[i]));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "params", NULL), 0);
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s.%s ", t[i].section, t[i].key);
    if (!strstr(out, key)) fail_msg("pcsim params lacks %s", key);
  }
}

static void trace_is_written_whole(void **state) {
  g_autofree char *dir = g_dir_make_tmp("pcsim-trace-XXXXXX", NULL);
  g_autofree char *path = g_build_filename(dir, "t.tsv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--set", "workload.file_size=1M",
                              "--policy", "immediate", "--trace", path, NULL), 0);
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  assert_true(g_str_has_prefix(text, "policy\ttime_ns\tthread\tkind\ta\tb\n"));
  assert_non_null(strstr(text, "\tsubmit\t"));
  g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
  assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
}

static void timeline_draws_one_column_per_thread(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=8M",
                              "--policy", "immediate", "--timeline", NULL), 0);
  assert_non_null(strstr(out, "timeline immediate, pages 16-47")); /* past the first 16-page window */
  assert_non_null(strstr(out, "thread 4"));
  assert_non_null(strstr(out, "add Page 16"));
  assert_non_null(strstr(out, "read Page "));
  assert_non_null(strstr(out, "submit bio "));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--timeline", "--pages", "9-3", NULL), 2);
  assert_non_null(strstr(err, "--pages"));
}

static void replay_and_explore_from_the_command_line(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "replay", "workloads/liubo-diagram.sched", "--format", "json", NULL), 0);
  assert_non_null(strstr(out, "\"policy\": \"immediate\", \"total_bios\": 4"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "explore", "--threads", "2", "--pages", "3", "--format", "json", NULL), 0);
  const char *keys[] = {"\"schedules\"", "\"min_bios\"", "\"max_bios\"", "\"mean_bios\"", "\"histogram\"",
                        "\"random_expected_bios\"", "\"results\""};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) assert_non_null(strstr(out, keys[i]));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "explore", "--threads", "7", "--pages", "16", NULL), 2);
  assert_non_null(strstr(err, "too large"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(run_prints_the_seed_table),
    cmocka_unit_test(stdout_is_byte_identical_and_stats_go_to_stderr),
    cmocka_unit_test(csv_has_the_json_columns),
    cmocka_unit_test(bad_input_exits_2_with_file_line_and_key),
    cmocka_unit_test(help_and_params_explain_everything),
    cmocka_unit_test(trace_is_written_whole),
    cmocka_unit_test(timeline_draws_one_column_per_thread),
    cmocka_unit_test(replay_and_explore_from_the_command_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
