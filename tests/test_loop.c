/* test_loop.c - the loop device's worker (cost.loop_worker,
 * cost.loop_request; loop.c): a request is served only once the worker
 * has run for it, and the worker is a task that waits for a CPU like any
 * other. */
#include "support.h"

/* One reader of a 64 KiB file: one 16-page window, one request of 128
 * sectors, dispatched at 365 us when the reader has inserted the window;
 * the device takes 50 us of latency and 61.036 us of transfer. */
static void one_reader(PcsParams *p, const char *cpus, const char *threads) {
  pcs_params_init(p);
  test_set(p, "scenario.kernel=v6.18", "workload.file_size=64k", "workload.files=per-thread",
           "readahead.read_ahead_kb=64", "readahead.fadvise_hint=0", "cpu.endio_workers=1", "device.latency=50us",
           cpus, threads, NULL);
}

/* The completion of the first request (sector 0). */
static PcsTime first_completion(const PcsParams *p, GArray **events) {
  PcsResult r;
  GArray *ev = test_run_traced(p, "window", &r);
  PcsTime t = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_COMPLETE, 0)->t;
  pcs_result_clear(&r);
  if (events) *events = ev; else g_array_unref(ev);
  return t;
}

/* A free CPU: the worker runs at the dispatch, 20 us for its run and 5 us
 * for the request, so the request completes 25 us later than without it
 * (476.036 us); the trace shows the worker's run on the other CPU. */
static void a_request_waits_for_the_workers_run(void **state) {
  PcsParams p;
  one_reader(&p, "cpu.count=2", "workload.threads=1");
  assert_int_equal(first_completion(&p, NULL), 476036);
  test_set(&p, "cost.loop_worker=20us", "cost.loop_request=5us", NULL);
  GArray *ev;
  assert_int_equal(first_completion(&p, &ev), 501036);
  const TestEvent *on = test_find(ev, NULL, 3, PCS_TRACE_CPU_ON, TEST_ANY); /* reader, end-io worker, loop worker */
  assert_int_equal(on->t, 365000);
  const TestEvent *off = test_find(ev, NULL, 3, PCS_TRACE_CPU_OFF, TEST_ANY);
  assert_int_equal(off->t, 390000);
  assert_int_equal(off->b, PCS_TASK_IDLE);
  g_array_unref(ev);
  pcs_params_clear(&p);
}

/* One CPU, two readers of a file each: reader 1 dispatches its request at
 * 365 us and sleeps, but reader 2 was queued for the CPU first and runs
 * until it dispatches its own and sleeps (730 us); only then does the
 * worker run, 20 us and 5 us for each request, so reader 1's request
 * starts at 755 us and completes at 866.036 us instead of 476.036 us. */
static void the_worker_waits_for_a_cpu_like_any_task(void **state) {
  PcsParams p;
  one_reader(&p, "cpu.count=1", "workload.threads=2");
  test_set(&p, "cost.loop_worker=20us", "cost.loop_request=5us", NULL);
  GArray *ev;
  assert_int_equal(first_completion(&p, &ev), 866036);
  assert_int_equal(test_find(ev, NULL, 4, PCS_TRACE_CPU_ON, TEST_ANY)->t, 730000);
  assert_int_equal(test_find(ev, NULL, 4, PCS_TRACE_CPU_OFF, TEST_ANY)->t, 760000);
  g_array_unref(ev);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_request_waits_for_the_workers_run),
      cmocka_unit_test(the_worker_waits_for_a_cpu_like_any_task),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
