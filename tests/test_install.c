/* test_install.c - `cmake --install` of this build into a temporary prefix
 * puts bin/pcsim, share/pcsim/ (every file of workloads/),
 * share/man/man1/pcsim.1, bin/pcsim-capture-kernel-trace and
 * bin/pcsim-predict-capture there (the capture and the calibrated
 * prediction, run from / with no build tree) and bin/pcsim-trace; the binary, copied on its own to another
 * folder and run from /, runs a fio job and a shipped scenario by name
 * (the bug of issue 35: the default model was looked up under the working
 * directory). */
#include "support.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Runs ARGV in DIR; returns the exit status, fills OUT and ERR. */
static int run_in(const char *dir, char **argv, char **out, char **err) {
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error))
    fail_msg("%s: %s", argv[0], error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *read_file(const char *path) {
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) fail_msg("%s: not installed", path);
  return text;
}

/* `cmake --install` of this build into TMP/prefix; returns that prefix. */
static char *install_into(const char *tmp) {
  char *prefix = g_build_filename(tmp, "prefix", NULL);
  g_autofree char *out = NULL, *err = NULL;
  char *install[] = {PCSIM_CMAKE_COMMAND, "--install", PCSIM_BUILD_DIR, "--prefix", prefix, NULL};
  if (run_in(NULL, install, &out, &err) != 0) fail_msg("cmake --install: %s%s", out, err);
  return prefix;
}

static void install_puts_binary_scenarios_and_man_page_in_the_prefix(void **state) {
  g_autofree char *tmp = test_tempdir();
  g_autofree char *prefix = install_into(tmp);
  g_autofree char *out = NULL, *err = NULL;

  g_autofree char *bin = g_build_filename(prefix, "bin", "pcsim", NULL);
  assert_true(g_file_test(bin, G_FILE_TEST_IS_EXECUTABLE));
  g_autofree char *src_dir = test_path("workloads");
  g_autoptr(GDir) d = g_dir_open(src_dir, 0, NULL);
  guint n = 0;
  for (const char *f; (f = g_dir_read_name(d));) {
    if (!g_str_has_suffix(f, ".ini") && !g_str_has_suffix(f, ".fio") && !g_str_has_suffix(f, ".sched")) continue;
    g_autofree char *src = g_build_filename(src_dir, f, NULL), *dst = g_build_filename(prefix, "share", "pcsim", f, NULL);
    g_autofree char *a = read_file(src), *b = read_file(dst);
    assert_string_equal(a, b);
    n++;
  }
  assert_true(n >= 8);
  g_autofree char *man = g_build_filename(prefix, "share", "man", "man1", "pcsim.1", NULL);
  g_autofree char *built = read_file(PCSIM_MAN_PAGE), *installed = read_file(man);
  assert_string_equal(built, installed);
  assert_true(g_str_has_prefix(installed, ".TH PCSIM 1 "));

  /* the installed binary finds its copies beside it */
  g_free(out), g_free(err);
  char *scenarios[] = {bin, "scenarios", NULL};
  assert_int_equal(run_in("/", scenarios, &out, &err), 0);
  g_autofree char *where = g_strdup_printf("Installed copies: %s/share/pcsim/\n", prefix);
  if (!strstr(out, where)) fail_msg("no '%s' in:\n%s", where, out);
}

static void a_copied_binary_runs_from_the_root_directory(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *copy = g_build_filename(dir, "pcsim", NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  assert_true(g_file_get_contents(PCSIM_BINARY, &data, &len, NULL));
  assert_true(g_file_set_contents(copy, data, (gssize)len, NULL));
  assert_int_equal(chmod(copy, 0755), 0);

  g_autofree char *job = test_path("workloads/liubo-2011.fio");
  g_autofree char *out = NULL, *err = NULL;
  char *fio[] = {copy, "run", job, "--set", "workload.file_size=64M", NULL};
  if (run_in("/", fio, &out, &err) != 0) fail_msg("pcsim run %s from /: %s", job, err);
  assert_true(g_str_has_prefix(out, "scenario linux-6.18-btrfs: 4 thread(s), 64 MiB file, bs 32 KiB"));
  assert_non_null(strstr(err, "using the shipped scenario linux-6.18-btrfs"));

  g_free(out), g_free(err);
  char *named[] = {copy, "run", "liubo-2011", "--set", "workload.file_size=64M", NULL};
  if (run_in("/", named, &out, &err) != 0) fail_msg("pcsim run liubo-2011 from /: %s", err);
  g_autofree char *want = NULL, *want_err = NULL;
  assert_int_equal(test_pcsim(&want, &want_err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                              NULL), 0);
  assert_string_equal(out, want);
}

/* Runs ARGV in DIR with only /usr/bin and /bin on the PATH (no build tree):
 * returns the exit status, fills OUT and ERR. */
static int run_bare(const char *dir, char **argv, char **out, char **err) {
  int status = 0;
  GError *error = NULL;
  char *env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
  if (!g_spawn_sync(dir, argv, env, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error))
    fail_msg("%s: %s", argv[0], error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The user's path without the source tree: the install carries
 * pcsim-capture-kernel-trace (its helper fio-job-threads in libexec/pcsim/,
 * found from bin/) and pcsim-predict-capture, which runs the pcsim beside
 * it.  Over ext4i's runs laid out as the capture script writes them, the
 * installed pair, run from / with no build tree on the PATH, prints what
 * scripts/predict-capture with this build's pcsim prints. */
static void install_carries_the_capture_and_the_prediction(void **state) {
  g_autofree char *tmp = test_tempdir();
  g_autofree char *prefix = install_into(tmp);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *capture = g_build_filename(prefix, "bin", "pcsim-capture-kernel-trace", NULL);
  g_autofree char *predict = g_build_filename(prefix, "bin", "pcsim-predict-capture", NULL);
  g_autofree char *helper = g_build_filename(prefix, "libexec", "pcsim", "fio-job-threads", NULL);
  assert_true(g_file_test(capture, G_FILE_TEST_IS_EXECUTABLE));
  assert_true(g_file_test(predict, G_FILE_TEST_IS_EXECUTABLE));
  assert_true(g_file_test(helper, G_FILE_TEST_IS_EXECUTABLE));

  /* the capture script: its help, and the job as it would run (its helper found, no root needed) */
  g_free(out), g_free(err);
  char *help[] = {capture, "--help", NULL};
  assert_int_equal(run_bare("/", help, &out, &err), 0);
  assert_non_null(strstr(out, "--loop-fs FS"));
  g_autofree char *job = test_path("tests/data/kernel-6.18-ext4i/job-bs32k.fio");
  g_free(out), g_free(err);
  char *print[] = {capture, "--print-job", "--job", job, NULL};
  if (run_bare("/", print, &out, &err) != 0) fail_msg("%s --print-job: %s", capture, err);
  assert_true(g_str_has_prefix(out, "[global]\n"));
  /* alone, without its helper: said, exit 2 */
  g_autofree char *lone_dir = g_build_filename(tmp, "lone", NULL), *lone = g_build_filename(lone_dir, "capture", NULL);
  g_autofree char *text = read_file(capture);
  assert_int_equal(g_mkdir(lone_dir, 0755), 0);
  assert_true(g_file_set_contents(lone, text, -1, NULL));
  assert_int_equal(chmod(lone, 0755), 0);
  g_free(out), g_free(err);
  char *alone[] = {lone, "--print-job", "--job", job, NULL};
  assert_int_equal(run_bare("/", alone, &out, &err), 2);
  assert_non_null(strstr(err, "fio-job-threads is neither beside"));

  /* the prediction: three of ext4i's runs as the capture script lays them out */
  g_autofree char *set = test_path("tests/data/kernel-6.18-ext4i");
  g_autofree char *cap = g_build_filename(tmp, "capture", NULL);
  assert_int_equal(g_mkdir(cap, 0755), 0);
  g_autofree char *machine_src = g_build_filename(set, "machine.txt", NULL), *machine = g_build_filename(cap, "machine.txt", NULL);
  assert_int_equal(symlink(machine_src, machine), 0);
  const char *names[] = {"ra128-j1-rep1", "ra4096-j1-rep1", "ra128-j4-rep1"}, *exts[] = {".ftrace.txt.gz", ".fio", ".json"};
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autofree char *rundir = g_build_filename(cap, names[i], NULL);
    assert_int_equal(g_mkdir(rundir, 0755), 0);
    for (gsize e = 0; e < G_N_ELEMENTS(exts); e++) {
      g_autofree char *file = g_strconcat(names[i], exts[e], NULL);
      g_autofree char *src = g_build_filename(set, "blocks", file, NULL), *dst = g_build_filename(rundir, file, NULL);
      assert_int_equal(symlink(src, dst), 0);
    }
  }
  g_free(out), g_free(err);
  char *installed[] = {predict, cap, "--seeds", "1", NULL};
  if (run_bare("/", installed, &out, &err) != 0) fail_msg("%s: %s", predict, err);
  g_autofree char *script = test_path("scripts/predict-capture");
  g_autofree char *want = NULL, *want_err = NULL;
  char *source[] = {script, cap, "--seeds", "1", "--pcsim", PCSIM_BINARY, NULL};
  if (run_in("/", source, &want, &want_err) != 0) fail_msg("scripts/predict-capture: %s", want_err);
  assert_string_equal(out, want);
  assert_non_null(strstr(out, ": pcsim calibrate of ra128-j1-rep1 and ra4096-j1-rep1\n"));
  assert_non_null(strstr(out, "\nra128-j4             "));
}

/* The trace analyses installed: bin/pcsim-trace, run from / with no source
 * tree, finds its package in libexec/pcsim/ and runs a subcommand on a
 * committed trace as scripts/pcsim-trace does. */
static void install_carries_the_trace_analyses(void **state) {
  g_autofree char *tmp = test_tempdir();
  g_autofree char *prefix = install_into(tmp);
  g_autofree char *tool = g_build_filename(prefix, "bin", "pcsim-trace", NULL);
  g_autofree char *pkg = g_build_filename(prefix, "libexec", "pcsim", "pcsim_trace", "cli.py", NULL);
  assert_true(g_file_test(tool, G_FILE_TEST_IS_EXECUTABLE));
  assert_true(g_file_test(pkg, G_FILE_TEST_IS_REGULAR));
  g_autofree char *out = NULL, *err = NULL;
  char *help[] = {tool, "--help", NULL};
  if (run_bare("/", help, &out, &err) != 0) fail_msg("%s --help: %s", tool, err);
  assert_non_null(strstr(out, "\n  alone-requests "));
  g_autofree char *trace = test_path("tests/data/kernel-6.18-btrfs-threads/mechanism/ra128-j1-rep1.ftrace.txt.gz");
  g_free(out), g_free(err);
  char *alone[] = {tool, "alone-requests", trace, NULL};
  if (run_bare("/", alone, &out, &err) != 0) fail_msg("%s alone-requests: %s", tool, err);
  assert_non_null(strstr(out, ": 946 requests of 256 KiB alone throughout: p25 147 us, median 165 us, p75 191 us"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(install_puts_binary_scenarios_and_man_page_in_the_prefix),
    cmocka_unit_test(a_copied_binary_runs_from_the_root_directory),
    cmocka_unit_test(install_carries_the_capture_and_the_prediction),
    cmocka_unit_test(install_carries_the_trace_analyses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
