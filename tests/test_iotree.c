/* test_iotree.c - btrfs's io_tree->lock on its own, and what its
 * contention does to a whole run. */
#include "support.h"

#include "iotree.h"

static void init_holds(PcsParams *p, const char *lock, const char *test, const char *priv) {
  pcs_params_init(p);
  char buf[64];
  g_snprintf(buf, sizeof buf, "cost.iotree_lock_extent=%s", lock);
  assert_true(pcs_params_set_assignment(p, buf, NULL));
  g_snprintf(buf, sizeof buf, "cost.iotree_test_bit=%s", test);
  assert_true(pcs_params_set_assignment(p, buf, NULL));
  g_snprintf(buf, sizeof buf, "cost.iotree_state_private=%s", priv);
  assert_true(pcs_params_set_assignment(p, buf, NULL));
}

/* A ticket lock: a page read alone pays the three holds; a second reader
 * asking during them spins until they end, then pays its own. */
static void a_second_reader_spins_behind_the_first(void **state) {
  PcsParams p;
  init_holds(&p, "300ns", "150ns", "150ns");
  PcsIoTree t;
  pcs_iotree_init(&t, &p);
  assert_int_equal(pcs_iotree_read_page(&t, 1000), 600);
  assert_int_equal(pcs_iotree_read_page(&t, 1200), 400 + 600); /* spins 400 ns */
  assert_int_equal(pcs_iotree_read_page(&t, 5000), 600);       /* free again */
  pcs_params_clear(&p);
}

/* No hold times (every scenario but the v3.5 seed's): the lock is not there. */
static void zero_holds_cost_nothing(void **state) {
  PcsParams p;
  init_holds(&p, "0", "0", "0");
  PcsIoTree t;
  pcs_iotree_init(&t, &p);
  assert_int_equal(pcs_iotree_read_page(&t, 0), 0);
  assert_int_equal(pcs_iotree_read_page(&t, 0), 0);
  pcs_params_clear(&p);
}

/* In a run, four racing readers spin on the lock: with long holds the run
 * takes longer than one thread's holds alone would add. */
static void contention_slows_a_run(void **state) {
  PcsTime t[2];
  for (int k = 0; k < 2; k++) {
    PcsParams p;
    init_holds(&p, k ? "2us" : "0", "0", "0");
    assert_true(pcs_params_set_assignment(&p, "workload.file_size=32M", NULL));
    assert_true(pcs_params_set_assignment(&p, "cost.read_setup=1us", NULL));
    PcsResult r;
    test_run(&p, "pool:16", &r);
    t[k] = r.sim_time_ns;
    print_message("holds %s: %.3f ms\n", k ? "2us" : "0", r.sim_time_ns / 1e6);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
  /* 8192 pages each read once: 2 us more per page spread over 4 CPUs
   * could add at most ~4 ms; serialised on one lock it adds more */
  assert_true(t[1] > t[0] + 6000 * (PcsTime)PCS_NS_PER_US);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_second_reader_spins_behind_the_first),
    cmocka_unit_test(zero_holds_cost_nothing),
    cmocka_unit_test(contention_slows_a_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
