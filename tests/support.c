/* support.c - shared helpers for pcsim's cmocka tests.
 *
 * Every temporary directory a test makes lives under one per-process root
 * in $TMPDIR, removed with everything in it when the test program exits
 * (scripts/test checks that nothing is left in $TMPDIR or in the tree).
 */
#include "support.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *test_path(const char *relative) { return g_build_filename(PCSIM_SOURCE_DIR, relative, NULL); }

void test_load(PcsParams *p, const char *workload) {
  g_autofree char *path = test_path(workload);
  GError *error = NULL;
  pcs_params_init(p);
  if (!pcs_params_load(p, path, &error)) fail_msg("%s", error->message);
}

GStrv test_fixture_lines(const char *relative) {
  g_autofree char *path = test_path(relative);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) fail_msg("cannot read %s", relative);
  g_auto(GStrv) all = g_strsplit(text, "\n", -1);
  GPtrArray *out = g_ptr_array_new();
  for (char **l = all; *l; l++)
    if (**l) g_ptr_array_add(out, g_strdup(*l));
  g_ptr_array_add(out, NULL);
  return (GStrv)g_ptr_array_free(out, FALSE);
}

void test_run(const PcsParams *p, const char *policy, PcsResult *out) {
  PcsPolicy pol;
  GError *error = NULL;
  if (!pcs_policy_parse(policy, &pol, &error)) fail_msg("%s", error->message);
  PcsRunOptions opt = {.count_page_reads = TRUE};
  if (!pcs_sim_run(p, &pol, &opt, out, &error)) fail_msg("%s", error->message);
}

/* Child setup for test_pcsim_full(): stdout to /dev/full (ENOSPC on write). */
static void stdout_to_dev_full(gpointer unused) {
  int fd = open("/dev/full", O_WRONLY);
  if (fd >= 0) dup2(fd, STDOUT_FILENO);
}

/* pcsim with ARGS (NULL-terminated) in DIR with ENV added; FULL: stdout
 * on /dev/full and OUT unused. */
static int spawn_argv(char **out, char **err, char **env, const char *dir, gboolean full, const char *const *args) {
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)PCSIM_BINARY);
  for (; *args; args++) g_ptr_array_add(argv, (gpointer)*args);
  g_ptr_array_add(argv, NULL);
  g_auto(GStrv) envp = g_get_environ();
  for (char **e = env; e && *e; e++) {
    g_autofree char *k = g_strndup(*e, (gsize)(strchr(*e, '=') - *e));
    envp = g_environ_setenv(envp, k, strchr(*e, '=') + 1, TRUE);
  }
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(dir ? dir : PCSIM_SOURCE_DIR, (char **)argv->pdata, envp, G_SPAWN_DEFAULT,
                    full ? stdout_to_dev_full : NULL, NULL, full ? NULL : out, err, &status, &error))
    fail_msg("spawn: %s", error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int spawn(char **out, char **err, char **env, const char *dir, gboolean full, va_list ap) {
  g_autoptr(GPtrArray) args = g_ptr_array_new();
  for (const char *a; (a = va_arg(ap, const char *));) g_ptr_array_add(args, (gpointer)a);
  g_ptr_array_add(args, NULL);
  return spawn_argv(out, err, env, dir, full, (const char *const *)args->pdata);
}

int test_pcsim_argv(char **out, char **err, gboolean full, const char *const *argv) {
  return spawn_argv(out, err, NULL, NULL, full, argv);
}

int test_pcsim(char **out, char **err, ...) {
  va_list ap;
  va_start(ap, err);
  int rc = spawn(out, err, NULL, NULL, FALSE, ap);
  va_end(ap);
  return rc;
}

int test_pcsim_env(char **out, char **err, char **env, const char *dir, ...) {
  va_list ap;
  va_start(ap, dir);
  int rc = spawn(out, err, env, dir, FALSE, ap);
  va_end(ap);
  return rc;
}

int test_pcsim_full(char **err, ...) {
  va_list ap;
  va_start(ap, err);
  int rc = spawn(NULL, err, NULL, NULL, TRUE, ap);
  va_end(ap);
  return rc;
}

/* ---- temporary directories ---- */

static char *temp_root;
static pid_t temp_owner;

static void remove_tree(const char *path) {
  if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
    GDir *d = g_dir_open(path, 0, NULL);
    for (const char *name; d && (name = g_dir_read_name(d));) {
      g_autofree char *child = g_build_filename(path, name, NULL);
      remove_tree(child);
    }
    if (d) g_dir_close(d);
  }
  g_remove(path);
}

static void remove_temp_root(void) {
  if (temp_root && getpid() == temp_owner) remove_tree(temp_root); /* not in a forked child */
  g_clear_pointer(&temp_root, g_free);
}

char *test_tempdir(void) {
  if (!temp_root) {
    temp_root = g_dir_make_tmp("pcsim-test-XXXXXX", NULL);
    if (!temp_root) fail_msg("cannot make a temporary directory in %s", g_get_tmp_dir());
    temp_owner = getpid();
    atexit(remove_temp_root);
  }
  char *dir = g_build_filename(temp_root, "XXXXXX", NULL);
  if (!g_mkdtemp(dir)) fail_msg("cannot make a temporary directory in %s", temp_root);
  return dir;
}

char *test_tempfile(const char *name, const char *text) {
  g_autofree char *dir = test_tempdir();
  char *path = g_build_filename(dir, name, NULL);
  if (!g_file_set_contents(path, text, -1, NULL)) fail_msg("cannot write %s", path);
  return path;
}

char *test_tool(const char *dir, char **argv) {
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error))
    fail_msg("%s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status(status, NULL)) fail_msg("%s failed: %s", argv[0], err ? err : "");
  return out;
}

void test_set(PcsParams *p, ...) {
  va_list ap;
  va_start(ap, p);
  for (const char *set; (set = va_arg(ap, const char *));) {
    GError *error = NULL;
    if (!pcs_params_set_assignment(p, set, &error)) fail_msg("%s: %s", set, error->message);
  }
  va_end(ap);
}

static void record_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  TestEvent ev = {t, thread, kind, a, b};
  g_array_append_val((GArray *)user, ev);
}

GArray *test_run_traced(const PcsParams *p, const char *policy, PcsResult *out) {
  PcsPolicy pol;
  GError *error = NULL;
  if (!pcs_policy_parse(policy, &pol, &error)) fail_msg("%s", error->message);
  GArray *events = g_array_new(FALSE, FALSE, sizeof(TestEvent));
  PcsRunOptions opt = {.trace = record_event, .trace_user = events, .count_page_reads = TRUE};
  if (!pcs_sim_run(p, &pol, &opt, out, &error)) fail_msg("%s", error->message);
  return events;
}

static gboolean event_matches(const TestEvent *e, uint32_t thread, PcsTraceKind kind, uint64_t a) {
  return e->kind == kind && (thread == TEST_ANY_THREAD || e->thread == thread) && (a == TEST_ANY || e->a == a);
}

const TestEvent *test_find(GArray *events, size_t *from, uint32_t thread, PcsTraceKind kind, uint64_t a) {
  for (size_t i = from ? *from : 0; i < events->len; i++) {
    const TestEvent *e = &g_array_index(events, TestEvent, i);
    if (!event_matches(e, thread, kind, a)) continue;
    if (from) *from = i + 1;
    return e;
  }
  fail_msg("no %s event of thread %u, a=%" G_GUINT64_FORMAT " in the trace", pcs_trace_kind_name(kind), thread, a);
  return NULL;
}

size_t test_count(GArray *events, uint32_t thread, PcsTraceKind kind) {
  size_t n = 0;
  for (size_t i = 0; i < events->len; i++) n += event_matches(&g_array_index(events, TestEvent, i), thread, kind, TEST_ANY);
  return n;
}

void test_trace_text(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  g_string_append_printf(user, "%" G_GUINT64_FORMAT " %u %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", t, thread,
                         pcs_trace_kind_name(kind), a, b);
}

double test_csv_cell(const char *csv, const char *first, int col) {
  g_autofree char *needle = g_strdup_printf("\n%s,", first);
  const char *row = strstr(csv, needle);
  if (!row) fail_msg("no row %s in:\n%s", first, csv);
  g_autofree char *line = g_strndup(row + 1, strcspn(row + 1, "\n"));
  g_auto(GStrv) cells = g_strsplit(line, ",", -1);
  guint n = g_strv_length(cells);
  guint k = col < 0 ? n - 1 : (guint)col;
  if (k >= n) fail_msg("row %s has no cell %d:\n%s", first, col, line);
  return g_ascii_strtod(cells[k], NULL);
}
