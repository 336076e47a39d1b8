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

static void rejects_bad_policies_with_a_message(void **state) {
  PcsPolicy p;
  const char *bad[] = {"pool:0", "pool:x", "pool:", "immediate:4", "window:2", "batch", "", "pool:99999999"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *error = NULL;
    assert_false(pcs_policy_parse(bad[i], &p, &error));
    assert_non_null(error);
    assert_non_null(strstr(error->message, "policy"));
    g_error_free(error);
  }
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
