/* test_policy.c - policy names as users type them. */
#include "support.h"

static void parses_every_policy(void **state) {
  PcsPolicy p;
  assert_true(pcs_policy_parse("immediate", &p, NULL));
  assert_int_equal(p.kind, PCS_POLICY_IMMEDIATE);
  assert_int_equal(p.pool, 1);
  assert_true(pcs_policy_parse("pool", &p, NULL));
  assert_int_equal(p.pool, 16); /* the patch's pagepool[16] */
  assert_string_equal(p.name, "pool:16");
  assert_true(pcs_policy_parse("pool:64", &p, NULL));
  assert_int_equal(p.pool, 64);
  assert_true(pcs_policy_parse("pool-contig:8", &p, NULL));
  assert_int_equal(p.kind, PCS_POLICY_POOL_CONTIG);
  assert_string_equal(p.name, "pool-contig:8");
  assert_true(pcs_policy_parse("window", &p, NULL));
  assert_int_equal(p.kind, PCS_POLICY_WINDOW);
}

/* Each refusal quotes the text and says what was expected instead. */
static void rejects_bad_policies_with_a_message(void **state) {
  g_autofree char *range = g_strdup_printf("from 1 to %u", PCS_POLICY_MAX_POOL);
  g_autofree char *too_big = g_strdup_printf("pool:%u", PCS_POLICY_MAX_POOL + 1);
  const char *cases[][2] = {
    {"pool:0", range}, {"pool:x", range}, {"pool:", range}, {too_big, range},
    {"immediate:4", "takes no ':N'"}, {"window:2", "takes no ':N'"},
    {"batch", "expected immediate, pool:N, pool-contig:N or window"},
    {"", "expected immediate, pool:N, pool-contig:N or window"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    PcsPolicy p;
    GError *error = NULL;
    if (pcs_policy_parse(cases[i][0], &p, &error)) fail_msg("'%s' accepted", cases[i][0]);
    g_autofree char *quoted = g_strdup_printf("policy '%s': ", cases[i][0]);
    if (!g_str_has_prefix(error->message, quoted) || !strstr(error->message, cases[i][1]))
      fail_msg("'%s': expected '%s...%s'", error->message, quoted, cases[i][1]);
    g_error_free(error);
  }
  PcsPolicy p;
  g_autofree char *biggest = g_strdup_printf("pool:%u", PCS_POLICY_MAX_POOL);
  assert_true(pcs_policy_parse(biggest, &p, NULL));
  assert_int_equal(p.pool, PCS_POLICY_MAX_POOL);
}

static void parses_lists(void **state) {
  g_autoptr(GArray) a = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  assert_true(pcs_policy_parse_list("immediate,pool:16,window", a, NULL));
  assert_int_equal(a->len, 3);
  assert_string_equal(g_array_index(a, PcsPolicy, 1).name, "pool:16");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(parses_every_policy),
    cmocka_unit_test(rejects_bad_policies_with_a_message),
    cmocka_unit_test(parses_lists),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
