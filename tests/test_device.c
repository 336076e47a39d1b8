/* test_device.c - the disk (device.c): latency, one shared transfer channel,
 * queue depth, completions in dispatch order, seen through the trace. */
#include "support.h"

/* One thread reads a 64 KiB file (16 pages): one 16-page window, at a
 * device that moves exactly 1 byte per ns, so a page's transfer is 4096 ns. */
static void one_thread_16_pages(PcsParams *p) {
  pcs_params_init(p);
  test_set(p, "workload.threads=1", "workload.file_size=64k", "readahead.read_ahead_kb=64", "device.latency=100us",
           "device.bandwidth=1000000000", NULL);
}

/* The window cut in two (block.max_sectors=64: requests at sectors 0 and
 * 64), both dispatched at one instant: that instant, and the two
 * completions in the order they came. */
typedef struct {
  PcsTime dispatched;
  const TestEvent *done[2];
} TwoRequests;

static TwoRequests two_requests_dispatched_together(GArray *ev) {
  size_t at = 0;
  const TestEvent *d0 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 0);
  const TestEvent *d1 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 64);
  assert_int_equal(d0->t, d1->t);
  TwoRequests two = {.dispatched = d0->t};
  at = 0;
  two.done[0] = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_COMPLETE, TEST_ANY);
  two.done[1] = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_COMPLETE, TEST_ANY);
  return two;
}

/* The window is one bio and one request of 128 sectors; alone on the
 * device it takes latency + size / bandwidth = 100000 + 65536 ns. */
static void a_lone_request_takes_latency_plus_transfer(void **state) {
  PcsParams p;
  one_thread_16_pages(&p);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  assert_int_equal(r.requests, 1);
  const TestEvent *d = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 0);
  const TestEvent *c = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_COMPLETE, 0);
  assert_int_equal(d->b, 128);
  assert_int_equal(c->t - d->t, 100000 + 65536);
  /* the end-io worker then takes cost.bio_complete + 16 x cost.page_complete
   * (20 us + 16 x 2 us), and the thread, asleep on page 0, copies 16 pages
   * and makes one more read() call: 17 x 1 us */
  const TestEvent *done = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0);
  assert_int_equal(done->t - c->t, 20000 + 16 * 2000);
  assert_int_equal(r.sim_time_ns - done->t, 17 * 1000);
  g_array_unref(ev);
  pcs_result_clear(&r);

  /* 1G is 2^30 bytes/s: 65536 bytes take 61035.16 ns, rounded up */
  test_set(&p, "device.bandwidth=1G", NULL);
  ev = test_run_traced(&p, "immediate", &r);
  d = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 0);
  c = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_COMPLETE, 0);
  assert_int_equal(c->t - d->t, 100000 + 61036);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* block.max_sectors=64 (32 KiB) cuts the window into two 8-page bios and
 * two requests that cannot merge; both sit on the plug until the
 * ->readpages call ends and are dispatched at the same instant T. */
static void requests_share_one_transfer_channel(void **state) {
  PcsParams p;
  one_thread_16_pages(&p);
  test_set(&p, "block.max_sectors=64", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  assert_int_equal(r.requests, 2);
  TwoRequests two = two_requests_dispatched_together(ev);
  /* latencies overlap, transfers (32768 ns each) do not:
   * T + 100000 + 32768, then T + 100000 + 2 x 32768 */
  assert_int_equal(two.done[0]->a, 0); /* in dispatch order */
  assert_int_equal(two.done[0]->t, two.dispatched + 100000 + 32768);
  assert_int_equal(two.done[1]->a, 64);
  assert_int_equal(two.done[1]->t, two.dispatched + 100000 + 2 * 32768);
  g_array_unref(ev);
  pcs_result_clear(&r);

  /* queue depth 1: the second is dispatched when the first completes and
   * pays its own latency: T + 2 x (100000 + 32768) */
  test_set(&p, "device.queue_depth=1", NULL);
  ev = test_run_traced(&p, "immediate", &r);
  size_t at = 0;
  const TestEvent *d0 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 0);
  const TestEvent *c0 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_COMPLETE, 0);
  const TestEvent *d1 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 64);
  const TestEvent *c1 = test_find(ev, &at, PCS_NO_THREAD, PCS_TRACE_COMPLETE, 64);
  assert_int_equal(c0->t, d0->t + 100000 + 32768);
  assert_int_equal(d1->t, c0->t);
  assert_int_equal(c1->t, d0->t + 2 * (100000 + 32768));
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* However deep the queue, the device never moves more than
 * device.bandwidth: 16 MiB read by four threads at 1 byte/ns cannot end
 * before 16 MiB x 1 ns after the first dispatch, and completions come in
 * dispatch order (the FIFO lane of the event queue). */
static void device_never_exceeds_its_bandwidth(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.file_size=16M", "device.bandwidth=1000000000", "device.queue_depth=64", "cost.read_setup=0",
           NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "pool:16", &r);
  const TestEvent *first = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_DISPATCH, TEST_ANY);
  GQueue order = G_QUEUE_INIT;
  PcsTime last_complete = 0;
  uint64_t sectors = 0;
  guint deepest = 0;
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->kind == PCS_TRACE_DISPATCH) g_queue_push_tail(&order, GSIZE_TO_POINTER(e->a + 1));
    deepest = MAX(deepest, order.length);
    if (e->kind != PCS_TRACE_COMPLETE) continue;
    assert_int_equal(GPOINTER_TO_SIZE(g_queue_pop_head(&order)), e->a + 1);
    sectors += e->b;
    last_complete = e->t;
    assert_true(e->t - first->t >= sectors * 512); /* bytes so far, at 1 byte/ns */
  }
  assert_int_equal(sectors, 16 * 2048);
  assert_true(g_queue_is_empty(&order));
  assert_true(deepest >= 8); /* many requests were in service at once */
  assert_true(last_complete - first->t >= 16 * 1048576 + 100000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* device.sharing = 1 (processor sharing, the loop device on its host): a
 * request alone gets the whole bandwidth, and two requests of one size
 * dispatched together share it and complete together, where the FIFO
 * channel above completes them one transfer apart. */
static void shared_requests_complete_together(void **state) {
  PcsParams p;
  one_thread_16_pages(&p);
  test_set(&p, "device.sharing=1", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  const TestEvent *d = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_DISPATCH, 0);
  const TestEvent *c = test_find(ev, NULL, PCS_NO_THREAD, PCS_TRACE_COMPLETE, 0);
  assert_int_equal(c->t - d->t, 100000 + 65536); /* alone: latency + size / bandwidth */
  g_array_unref(ev);
  pcs_result_clear(&r);

  test_set(&p, "block.max_sectors=64", NULL);
  ev = test_run_traced(&p, "immediate", &r);
  assert_int_equal(r.requests, 2);
  TwoRequests two = two_requests_dispatched_together(ev);
  /* both at T + 100000 + 2 x 32768: each moved at half the bandwidth */
  assert_int_equal(two.done[0]->t, two.dispatched + 100000 + 2 * 32768);
  assert_int_equal(two.done[1]->t, two.done[0]->t);
  assert_int_equal(two.done[0]->a, 0); /* ties in dispatch order */
  assert_int_equal(two.done[1]->a, 64);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* device.slow_rate: the host's slow spells make the same read take longer,
 * by no more than running the whole of it at the slow rate would, and the
 * same seed gives the same run. */
static void slow_spells_slow_the_device(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=16M", "device.sharing=1", "device.latency=0",
           "device.bandwidth=1000000000", "device.queue_depth=64", NULL);
  PcsResult fast, slow, again;
  test_run(&p, "window", &fast);
  test_set(&p, "device.slow_rate=0.1", "device.fast_time=1ms", "device.slow_time=1ms", NULL);
  test_run(&p, "window", &slow);
  test_run(&p, "window", &again);
  assert_true(slow.sim_time_ns > fast.sim_time_ns + 16 * 1048576 / 4); /* half the time at a tenth of the rate */
  assert_true(slow.sim_time_ns < fast.sim_time_ns + 16 * 1048576 * 10);
  g_autoptr(GString) row_slow = g_string_new(NULL), row_again = g_string_new(NULL);
  pcs_report_csv_row(row_slow, &slow);
  pcs_report_csv_row(row_again, &again);
  assert_string_equal(row_again->str, row_slow->str); /* every column of the run, not its time alone */
  /* a slow state without shared transfers is refused, naming the key */
  test_set(&p, "device.sharing=0", NULL);
  g_autoptr(GError) error = NULL;
  assert_false(pcs_params_validate(&p, &error));
  assert_non_null(strstr(error->message, "device.slow_rate"));
  pcs_result_clear(&fast);
  pcs_result_clear(&slow);
  pcs_result_clear(&again);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_lone_request_takes_latency_plus_transfer),
    cmocka_unit_test(requests_share_one_transfer_channel),
    cmocka_unit_test(device_never_exceeds_its_bandwidth),
    cmocka_unit_test(shared_requests_complete_together),
    cmocka_unit_test(slow_spells_slow_the_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
