/* test_pinned.c - the shipped workloads' results, pinned byte for byte.
 *
 * Every INI file in workloads/ must print exactly tests/data/pinned/NAME.json
 * (less the pcsim_version line), so a speed-up or refactoring cannot change
 * results silently.  A change meant to change results re-pins them with
 * scripts/update-pinned and says so in its commit.
 */
#include "support.h"

static char *without_version(const char *json) {
  g_auto(GStrv) lines = g_strsplit(json, "\n", -1);
  GString *out = g_string_new(NULL);
  for (char **l = lines; *l; l++) {
    if (g_str_has_prefix(*l, "  \"pcsim_version\": ")) continue;
    g_string_append(out, *l);
    if (l[1]) g_string_append_c(out, '\n');
  }
  return g_string_free(out, FALSE);
}

static void shipped_workloads_print_their_pinned_json(void **state) {
  g_autofree char *dir = test_path("workloads");
  GDir *d = g_dir_open(dir, 0, NULL);
  assert_non_null(d);
  int checked = 0;
  for (const char *name; (name = g_dir_read_name(d));) {
    if (!g_str_has_suffix(name, ".ini")) continue;
    g_autofree char *rel = g_strdup_printf("workloads/%s", name);
    g_autofree char *base = g_strndup(name, strlen(name) - 4);
    g_autofree char *pin_rel = g_strdup_printf("tests/data/pinned/%s.json", base);
    g_autofree char *pin_path = test_path(pin_rel);
    g_autofree char *pinned = NULL, *out = NULL, *err = NULL;
    if (!g_file_get_contents(pin_path, &pinned, NULL, NULL))
      fail_msg("%s has no pinned result %s: run scripts/update-pinned", rel, pin_rel);
    assert_int_equal(test_pcsim(&out, &err, "run", rel, "--format", "json", NULL), 0);
    g_autofree char *got = without_version(out);
    if (strcmp(got, pinned) != 0) fail_msg("%s no longer prints %s", rel, pin_rel);
    checked++;
  }
  g_dir_close(d);
  assert_true(checked >= 4);
}

/* GRand's seeding of g_rand_new_with_seed() changes with G_RANDOM_VERSION;
 * pcsim seeds from arrays and draws raw 32-bit values, so it must not. */
static void g_random_version_changes_nothing(void **state) {
  g_autofree char *pinned = NULL;
  g_autofree char *pin_path = test_path("tests/data/pinned/liubo-2011.json");
  assert_true(g_file_get_contents(pin_path, &pinned, NULL, NULL));
  const char *versions[] = {"G_RANDOM_VERSION=2.0", "G_RANDOM_VERSION=2.2"};
  for (size_t i = 0; i < G_N_ELEMENTS(versions); i++) {
    char *env[] = {(char *)versions[i], NULL};
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim_env(&out, &err, env, NULL, "run", "workloads/liubo-2011.ini", "--format", "json", NULL), 0);
    g_autofree char *got = without_version(out);
    assert_string_equal(got, pinned);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(shipped_workloads_print_their_pinned_json),
    cmocka_unit_test(g_random_version_changes_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
