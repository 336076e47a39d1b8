/* support.c - shared helpers for pcsim's cmocka tests. */
#include "support.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

char *test_path(const char *relative) { return g_build_filename(PCSIM_SOURCE_DIR, relative, NULL); }

void test_load(PcsParams *p, const char *workload) {
  g_autofree char *path = test_path(workload);
  GError *error = NULL;
  pcs_params_init(p);
  if (!pcs_params_load(p, path, &error)) fail_msg("%s", error->message);
}

void test_run(const PcsParams *p, const char *policy, PcsResult *out) {
  PcsPolicy pol;
  GError *error = NULL;
  if (!pcs_policy_parse(policy, &pol, &error)) fail_msg("%s", error->message);
  PcsRunOptions opt = {.count_page_reads = TRUE};
  if (!pcs_sim_run(p, &pol, &opt, out, &error)) fail_msg("%s", error->message);
}

static int spawn_pcsim(char **out, char **err, char **env, const char *dir, va_list ap) {
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)PCSIM_BINARY);
  for (const char *a; (a = va_arg(ap, const char *));) g_ptr_array_add(argv, (gpointer)a);
  g_ptr_array_add(argv, NULL);
  g_auto(GStrv) envp = g_get_environ();
  for (char **e = env; e && *e; e++) {
    g_autofree char *k = g_strndup(*e, (gsize)(strchr(*e, '=') - *e));
    envp = g_environ_setenv(envp, k, strchr(*e, '=') + 1, TRUE);
  }
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(dir ? dir : PCSIM_SOURCE_DIR, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                    &status, &error))
    fail_msg("spawn: %s", error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int test_pcsim(char **out, char **err, ...) {
  va_list ap;
  va_start(ap, err);
  int rc = spawn_pcsim(out, err, NULL, NULL, ap);
  va_end(ap);
  return rc;
}

int test_pcsim_env(char **out, char **err, char **env, const char *dir, ...) {
  va_list ap;
  va_start(ap, dir);
  int rc = spawn_pcsim(out, err, env, dir, ap);
  va_end(ap);
  return rc;
}

char *test_tempdir(void) {
  char *dir = g_dir_make_tmp("pcsim-test-XXXXXX", NULL);
  if (!dir) fail_msg("cannot make a temporary directory");
  return dir;
}

char *test_tempfile(const char *name, const char *text) {
  g_autofree char *dir = g_dir_make_tmp("pcsim-test-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  if (!g_file_set_contents(path, text, -1, NULL)) fail_msg("cannot write %s", path);
  return path;
}
