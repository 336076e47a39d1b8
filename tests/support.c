/* support.c - shared helpers for pcsim's cmocka tests. */
#include "support.h"

#include <glib/gstdio.h>

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

int test_pcsim(char **out, char **err, ...) {
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)PCSIM_BINARY);
  va_list ap;
  va_start(ap, err);
  for (const char *a; (a = va_arg(ap, const char *));) g_ptr_array_add(argv, (gpointer)a);
  va_end(ap);
  g_ptr_array_add(argv, NULL);
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync(PCSIM_SOURCE_DIR, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                    &status, &error))
    fail_msg("spawn: %s", error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

char *test_tempfile(const char *name, const char *text) {
  g_autofree char *dir = g_dir_make_tmp("pcsim-test-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  if (!g_file_set_contents(path, text, -1, NULL)) fail_msg("cannot write %s", path);
  return path;
}
