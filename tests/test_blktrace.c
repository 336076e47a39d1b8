/* test_blktrace.c - `pcsim run --blktrace DIR`: real blktrace files that
 * blkparse and btt read with the counts pcsim printed. */
#include "support.h"

#include <glib/gstdio.h>

/* bios and requests of POLICY from pcsim's CSV. */
static void counts(const char *csv, const char *policy, uint64_t *bios, uint64_t *requests) {
  g_autofree char *needle = g_strdup_printf("\n%s,", policy);
  const char *row = strstr(csv, needle);
  assert_non_null(row);
  g_auto(GStrv) cells = g_strsplit(row + 1, ",", 6);
  *bios = g_ascii_strtoull(cells[3], NULL, 10);
  *requests = g_ascii_strtoull(cells[4], NULL, 10);
}

/* Event lines of blkparse: "  8,0  CPU  SEQ  TIME  PID  ACTION  RWBS ..." */
static uint64_t count_action(const char *text, const char *action) {
  uint64_t n = 0;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++) {
    g_auto(GStrv) w = g_strsplit_set(g_strstrip(*l), " ", -1);
    guint k = 0;
    const char *f[7] = {0};
    for (char **x = w; *x && k < 7; x++)
      if (**x) f[k++] = *x;
    if (k == 7 && !strcmp(f[0], "8,0") && !strcmp(f[5], action)) n++;
  }
  return n;
}

/* pcsim run --blktrace DIR with a slow queue-depth-1 device, which keeps
 * requests queued so bios merge (M); the CSV report is returned. */
static char *run_blktrace(const char *dir) {
  char *out = NULL;
  g_autofree char *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=16M", "--set",
                      "device.queue_depth=1", "--set", "device.latency=200us", "--policy", "immediate", "--policy",
                      "pool:16", "--format", "csv", "--blktrace", dir, NULL);
  if (rc != 0) fail_msg("pcsim run --blktrace: exit %d: %s", rc, err);
  return out;
}

static const char *const names[] = {"immediate", "pool-16"}, *const policies[] = {"immediate", "pool:16"};

static void blktrace_writes_one_file_per_cpu(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = run_blktrace(dir);
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    for (int cpu = 0; cpu < 4; cpu++) {
      g_autofree char *f = g_strdup_printf("%s/%s.blktrace.%d", dir, names[i], cpu);
      g_autofree char *data = NULL;
      gsize len = 0;
      assert_true(g_file_get_contents(f, &data, &len, NULL));
      assert_true(len >= 48);
      assert_memory_equal(data, "\x07\x74\x61\x65", 4); /* 0x65617407, little-endian */
    }
  }
}

/* blkparse and btt, run in the temporary directory (btt writes its .dat
 * files into the current directory), count what pcsim printed. */
static void blkparse_and_btt_count_what_pcsim_printed(void **state) {
  g_autofree char *blkparse = g_find_program_in_path("blkparse"), *btt = g_find_program_in_path("btt");
  if (!blkparse || !btt) {
    print_message("skipped: blkparse or btt is not installed (apt-get install blktrace)\n");
    skip();
  }
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = run_blktrace(dir);
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    uint64_t bios, requests;
    counts(out, policies[i], &bios, &requests);
    char *parse[] = {blkparse, "-i", (char *)names[i], "-D", dir, NULL};
    g_autofree char *text = test_tool(dir, parse);
    assert_int_equal(count_action(text, "Q"), bios);
    assert_int_equal(count_action(text, "D"), requests);
    assert_int_equal(count_action(text, "C"), requests);
    assert_true(i == 1 || count_action(text, "M") + count_action(text, "F") > 0);
    g_autofree char *bin = g_strdup_printf("%s/%s.bin", dir, names[i]);
    char *dump[] = {blkparse, "-i", (char *)names[i], "-D", dir, "-d", bin, "-O", NULL};
    g_free(test_tool(dir, dump));
    char *btt_argv[] = {btt, "-i", bin, NULL};
    g_autofree char *report = test_tool(dir, btt_argv);
    g_autofree char *want = g_strdup_printf("| %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %7.1f |", bios, requests,
                                            (double)bios / (double)requests);
    if (!strstr(report, want)) fail_msg("btt: no '%s' in\n%s", want, report);
  }
}

static void blktrace_into_a_file_is_refused(void **state) {
  g_autofree char *file = test_tempfile("plain", "x");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--blktrace", file, NULL), 2);
  assert_non_null(strstr(err, "not a directory"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(blktrace_writes_one_file_per_cpu),
    cmocka_unit_test(blkparse_and_btt_count_what_pcsim_printed),
    cmocka_unit_test(blktrace_into_a_file_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
