/* test_longrun.c - what a user sees around a long run, and small output
 * fixes of issue 16: the estimated work and progress lines of `pcsim run
 * --progress` (stderr not a terminal, as in CI), and trace-stats saying
 * "none" when no bio exceeded 1 MiB. */
#include "support.h"

#include <string.h>

/* --progress with stderr piped: the estimate, then progress lines (every
 * millisecond here: PCSIM_PROGRESS_MS, the tests' interval knob). */
static void progress_lines_when_forced(void **state) {
  g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "PCSIM_PROGRESS_MS", "1", TRUE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *cwd = g_strdup(PCSIM_SOURCE_DIR);
  assert_int_equal(test_pcsim_env(&out, &err, env, cwd, "run", "workloads/liubo-2011.ini", "--set",
                                  "workload.file_size=256M", "--policy", "pool:16", "--progress", NULL), 0);
  assert_non_null(strstr(err, "pcsim run: estimated work: 1 policy, at most "));
  assert_non_null(strstr(err, " min at 20 M events/s"));
  assert_non_null(strstr(err, "\nprogress: policy pool:16: "));
  assert_null(strchr(err, '\r')); /* lines, not a redrawn bar, when stderr is no terminal */
  assert_non_null(strstr(out, "pool:16")); /* the report is unchanged on stdout */
  /* without --progress a short run says nothing */
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim_env(&out, &err, env, cwd, "run", "workloads/liubo-2011.ini", "--set",
                                  "workload.file_size=16M", "--policy", "pool:16", NULL), 0);
  assert_null(strstr(err, "estimated work"));
  assert_null(strstr(err, "progress:"));
}

/* `sweep --progress` with stderr piped: the estimate (points, policies,
 * events, minutes), progress lines, the same CSV on stdout as without. */
static void sweep_progress_lines_when_forced(void **state) {
  g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "PCSIM_PROGRESS_MS", "1", TRUE);
  g_autofree char *out = NULL, *err = NULL, *plain = NULL, *perr = NULL;
  g_autofree char *cwd = g_strdup(PCSIM_SOURCE_DIR);
  assert_int_equal(test_pcsim_env(&out, &err, env, cwd, "sweep", "workloads/liubo-2011.ini", "--set",
                                  "workload.file_size=64M", "--vary", "workload.threads=1,2,4", "--policy", "pool:16",
                                  "--jobs", "1", "--progress", NULL), 0);
  assert_non_null(strstr(err, "pcsim sweep: estimated work: 3 points x 1 policy, at most "));
  assert_non_null(strstr(err, "\nprogress:      3/3 points ["));
  assert_null(strchr(err, '\r'));
  assert_int_equal(test_pcsim_env(&plain, &perr, env, cwd, "sweep", "workloads/liubo-2011.ini", "--set",
                                  "workload.file_size=64M", "--vary", "workload.threads=1,2,4", "--policy", "pool:16",
                                  "--jobs", "1", NULL), 0);
  assert_string_equal(out, plain);
  assert_null(strstr(perr, "estimated work")); /* a short sweep says nothing */
  assert_null(strstr(perr, "progress:"));
}

/* trace-stats of a run whose bios all stay under 1 MiB: "none", not the whole file. */
static void scattered_none(void **state) {
  g_autofree char *dir = test_tempdir(), *trace = g_build_filename(dir, "t.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=8M",
                              "--policy", "immediate", "--ftrace", trace, NULL), 0);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", trace, NULL), 0);
  assert_non_null(strstr(out, "scattered MiB              none   (no bio over 1 MiB)"));
  assert_null(strstr(out, "scattered MiB              8.0"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(progress_lines_when_forced),
    cmocka_unit_test(sweep_progress_lines_when_forced),
    cmocka_unit_test(scattered_none),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
