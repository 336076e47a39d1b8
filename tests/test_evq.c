/* test_evq.c - the event queue pops in (time, sequence) order. */
#include "support.h"

static void pops_in_time_then_sequence_order(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 2); /* small, so it must grow */
  GRand *rng = g_rand_new_with_seed(7);
  for (uint32_t i = 0; i < 1000; i++) pcs_evq_push(&q, g_rand_int(rng) % 50, 0, i);
  PcsEvent ev, prev = {0};
  size_t n = 0;
  while (pcs_evq_pop(&q, &ev)) {
    if (n) {
      assert_true(ev.time > prev.time || (ev.time == prev.time && ev.seq > prev.seq));
      if (ev.time == prev.time) assert_true(ev.arg > prev.arg); /* FIFO among equals */
    }
    assert_int_equal(q.now, ev.time);
    prev = ev;
    n++;
  }
  assert_int_equal(n, 1000);
  assert_int_equal(q.popped, 1000);
  g_rand_free(rng);
  pcs_evq_clear(&q);
}

static void clock_only_moves_forward(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 4);
  pcs_evq_push(&q, 100, 0, 0);
  PcsEvent ev;
  assert_true(pcs_evq_pop(&q, &ev));
  pcs_evq_push(&q, 100, 0, 1); /* same instant is allowed */
  pcs_evq_push(&q, 150, 0, 2);
  assert_true(pcs_evq_pop(&q, &ev));
  assert_int_equal(ev.arg, 1);
  assert_true(pcs_evq_pop(&q, &ev));
  assert_int_equal(q.now, 150);
  assert_false(pcs_evq_pop(&q, &ev));
  pcs_evq_clear(&q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(pops_in_time_then_sequence_order),
    cmocka_unit_test(clock_only_moves_forward),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
