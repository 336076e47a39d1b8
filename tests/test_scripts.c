/* test_scripts.c - the trace analysis scripts (python3 scripts in scripts/, sharing
 * scripts/ftrace_lines.py) as a user runs them: on a committed capture they
 * print their figures and exit 0; --help prints the usage; a path that does
 * not exist is named on stderr with exit status 2, never a traceback. */
#include "support.h"

#include <string.h>
#include <sys/wait.h>

/* Runs scripts/NAME with ARG; its exit status, stdout and stderr. */
static int run_script(const char *name, const char *arg, char **out, char **err) {
  g_autofree char *rel = g_strdup_printf("scripts/%s", name);
  g_autofree char *script = test_path(rel);
  char *argv[] = {"python3", script, (char *)arg, NULL};
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err, &status, &error))
    fail_msg("python3 %s: %s (scripts/install-deps installs python3)", rel, error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const struct {
  const char *name, *trace, *expect; /* a line of its output on that trace */
} SCRIPTS[] = {
  {"csum-leaf-reads", "tests/data/kernel-6.18-nodesize/n16k/blocks/ra4096-j1-rep1.ftrace.txt.gz",
   "metadata reads 66"},
  {"reader-time-split", "tests/data/kernel-6.18-evening/blocks/ra4096-j2-rep1.ftrace.txt.gz", "D sleeps"},
  {"wake-wait-burst", "tests/data/kernel-6.18-evening/blocks/ra4096-j2-rep1.ftrace.txt.gz", "woken"},
  {"marker-hits", "tests/data/kernel-6.18-btrfs-threads/mechanism/ra128-j4-rep1.ftrace.txt.gz", "async_ra"},
  {"lru-batch", "tests/data/kernel-6.18-btrfs-threads/mechanism/ra128-j1-rep1.ftrace.txt.gz", "31"},
  {"follower-timing", "tests/data/kernel-6.18-btrfs-threads/mechanism/ra128-j4-rep1.ftrace.txt.gz", "window"},
  {"window-chain", "tests/data/kernel-6.18-idle/mechanism/ra4096-j1-rep1.ftrace.txt.gz", "device busy"},
};

static void each_script_reads_a_capture_and_refuses_a_missing_one(void **state) {
  (void)state;
  for (gsize i = 0; i < G_N_ELEMENTS(SCRIPTS); i++) {
    g_autofree char *trace = test_path(SCRIPTS[i].trace);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_script(SCRIPTS[i].name, trace, &out, &err);
    if (rc != 0) fail_msg("%s %s: exit %d\n%s", SCRIPTS[i].name, SCRIPTS[i].trace, rc, err);
    if (!strstr(out, SCRIPTS[i].expect)) fail_msg("%s: no '%s' in its output:\n%s", SCRIPTS[i].name, SCRIPTS[i].expect, out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    assert_int_equal(run_script(SCRIPTS[i].name, "--help", &out, &err), 0);
    assert_non_null(strstr(out, "usage: scripts/"));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    assert_int_equal(run_script(SCRIPTS[i].name, "/nonexistent/trace.gz", &out, &err), 2);
    assert_non_null(strstr(err, "/nonexistent/trace.gz"));
    if (strstr(err, "Traceback")) fail_msg("%s: a traceback for a missing file:\n%s", SCRIPTS[i].name, err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(each_script_reads_a_capture_and_refuses_a_missing_one),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
