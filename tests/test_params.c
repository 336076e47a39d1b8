/* test_params.c - scenario keys, units and the messages users get. */
#include "support.h"

static void sizes_and_times_take_units(void **state) {
  uint64_t v;
  assert_true(pcs_parse_size("32k", &v)); assert_int_equal(v, 32768);
  assert_true(pcs_parse_size("2000M", &v)); assert_int_equal(v, 2000ull << 20);
  assert_true(pcs_parse_size("1G", &v)); assert_int_equal(v, 1ull << 30);
  assert_true(pcs_parse_size("4096", &v)); assert_int_equal(v, 4096);
  assert_false(pcs_parse_size("99999999T", &v)); /* overflows 64 bits */
  assert_false(pcs_parse_size("12q", &v));
  assert_false(pcs_parse_size("-4k", &v));
  assert_true(pcs_parse_time("100us", &v)); assert_int_equal(v, 100000);
  assert_true(pcs_parse_time("2ms", &v)); assert_int_equal(v, 2000000);
  assert_true(pcs_parse_time("0", &v)); assert_int_equal(v, 0);
  assert_false(pcs_parse_time("100", &v)); /* a time needs its unit */
}

static void every_key_has_a_valid_default_and_doc(void **state) {
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  assert_true(n >= 25);
  PcsParams p;
  pcs_params_init(&p);
  for (size_t i = 0; i < n; i++) {
    assert_true(strlen(t[i].doc) > 10);
    assert_non_null(pcs_params_find(t[i].section, t[i].key));
  }
  assert_int_equal(p.workload_threads, 4);
  assert_int_equal(p.readahead_max_window, 128 * 1024);
  assert_true(pcs_params_validate(&p, NULL));
  pcs_params_clear(&p);
}

/* Loads TEXT as a scenario and returns the error message (or NULL). */
static char *load_error(const char *text) {
  g_autofree char *path = test_tempfile("s.ini", text);
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  gboolean ok = pcs_params_load(&p, path, &error) && pcs_params_validate(&p, &error);
  pcs_params_clear(&p);
  if (ok) return NULL;
  char *msg = g_strdup(error->message);
  g_error_free(error);
  return msg;
}

static void expect_error(const char *text, const char *line, const char *needle) {
  g_autofree char *msg = load_error(text);
  if (!msg) fail_msg("accepted: %s", text);
  if (line && !strstr(msg, line)) fail_msg("no '%s' in: %s", line, msg);
  if (!strstr(msg, needle)) fail_msg("no '%s' in: %s", needle, msg);
}

static void bad_scenarios_name_file_line_and_key(void **state) {
  expect_error("", "s.ini:1:", "empty");
  expect_error("[workload]\nthreads = 4\nthraeds = 8\n", "s.ini:3:", "did you mean 'workload.threads'");
  expect_error("[workload]\nthreads = 4\nthreads = 8\n", "s.ini:3:", "duplicate key 'workload.threads'");
  expect_error("[workload]\nthreads = 0\n", "s.ini:2:", "out of range");
  expect_error("[workload]\nthreads = many\n", "s.ini:2:", "expected an unsigned integer");
  expect_error("[workload]\nfile_size = 99999999T\n", "s.ini:2:", "workload.file_size");
  expect_error("[device]\nlatency = 100\n", "s.ini:2:", "ns, us, ms or s");
  expect_error("[workload]\nthreads = 5000\n", "s.ini:2:", "out of range");
  expect_error("threads = 4\n", "s.ini:1:", "not a valid scenario");
  expect_error("[workload]\nfile_size = 6000\n", NULL, "multiple of the 4096-byte page");
  expect_error("[workload]\nfile_size = 64k\n[readahead]\nmax_window = 128k\n", NULL, "larger than workload.file_size");
  expect_error("[nosuch]\nkey = 1\n", "s.ini:2:", "unknown key");
}

static void binary_and_missing_files_are_refused(void **state) {
  g_autofree char *path = test_tempfile("bin.ini", "x");
  assert_true(g_file_set_contents(path, "\x7f" "ELF\x01\x00\x00garbage", 12, NULL));
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  assert_false(pcs_params_load(&p, path, &error));
  assert_non_null(strstr(error->message, "binary"));
  g_clear_error(&error);
  assert_false(pcs_params_load(&p, "/nonexistent/x.ini", &error));
  assert_non_null(strstr(error->message, "/nonexistent/x.ini"));
  g_clear_error(&error);
  assert_false(pcs_params_load(&p, "/tmp", &error));
  assert_non_null(strstr(error->message, "directory"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

static void set_overrides_and_checks_keys(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=8", NULL));
  assert_int_equal(p.workload_threads, 8);
  assert_true(pcs_params_set_assignment(&p, "device.bandwidth=250M", NULL));
  assert_int_equal(p.device_bandwidth, 250ull << 20);
  GError *error = NULL;
  assert_false(pcs_params_set_assignment(&p, "device.latncy=5us", &error));
  assert_non_null(strstr(error->message, "did you mean 'device.latency'"));
  g_clear_error(&error);
  assert_false(pcs_params_set_assignment(&p, "threads", &error));
  assert_non_null(strstr(error->message, "SECTION.KEY=VALUE"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(sizes_and_times_take_units),
    cmocka_unit_test(every_key_has_a_valid_default_and_doc),
    cmocka_unit_test(bad_scenarios_name_file_line_and_key),
    cmocka_unit_test(binary_and_missing_files_are_refused),
    cmocka_unit_test(set_overrides_and_checks_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
