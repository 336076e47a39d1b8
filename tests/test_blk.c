/* test_blk.c - bio building, plug and elevator limits, seen through the trace. */
#include "support.h"

#include "pcsim/ktrace.h"

typedef struct {
  uint64_t max_bio_pages, max_rq_sectors, stripe_crossings, stripe_pages;
  uint64_t dispatched_sectors;
  PcsLargeBioWatch large; /* data submitted before the first bio over 1 MiB */
  uint64_t held, max_held; /* requests made but not yet inserted: on a plug */
} Seen;

static void watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Seen *s = user;
  if (kind == PCS_TRACE_SUBMIT) {
    s->max_bio_pages = MAX(s->max_bio_pages, b);
    pcs_large_bio_watch(&s->large, b * 8);
    if (s->stripe_pages && a / s->stripe_pages != (a + b - 1) / s->stripe_pages) s->stripe_crossings++;
  }
  if (kind == PCS_TRACE_REQUEST) {
    s->held++;
    s->max_held = MAX(s->max_held, s->held);
  }
  if (kind == PCS_TRACE_RQ_INSERT) s->held--;
  if (kind == PCS_TRACE_DISPATCH) {
    s->max_rq_sectors = MAX(s->max_rq_sectors, b);
    s->dispatched_sectors += b;
  }
}

static void run_watched(PcsParams *p, const char *policy, Seen *seen, PcsResult *r) {
  PcsPolicy pol;
  assert_true(pcs_policy_parse(policy, &pol, NULL));
  PcsRunOptions opt = {.trace = watch, .trace_user = seen};
  GError *error = NULL;
  if (!pcs_sim_run(p, &pol, &opt, r, &error)) fail_msg("%s", error->message);
}

static void bios_respect_size_and_stripe_limits(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=8M", NULL));
  assert_true(pcs_params_set_assignment(&p, "readahead.read_ahead_kb=1024", NULL));
  assert_true(pcs_params_set_assignment(&p, "bio.max_size=128k", NULL));
  Seen seen = {0};
  PcsResult r;
  run_watched(&p, "pool:16", &seen, &r);
  assert_int_equal(seen.max_bio_pages, 32); /* 128 KiB */
  pcs_result_clear(&r);

  assert_true(pcs_params_set_assignment(&p, "bio.max_size=512k", NULL));
  assert_true(pcs_params_set_assignment(&p, "bio.stripe_size=64k", NULL));
  seen = (Seen){.stripe_pages = 16};
  run_watched(&p, "pool:16", &seen, &r);
  assert_int_equal(seen.max_bio_pages, 16);
  assert_int_equal(seen.stripe_crossings, 0);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* A slow device with queue depth 1 keeps requests queued, so bios from
 * different threads meet in the elevator and merge (under CFQ when a plug
 * is flushed: the insert back merge). */
static void elevator_merges_queued_bios_up_to_max_sectors(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=16M", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.queue_depth=1", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.latency=200us", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.bandwidth=4G", NULL));
  assert_true(pcs_params_set_assignment(&p, "cost.read_setup=40us", NULL)); /* a hot race */
  assert_true(pcs_params_set_assignment(&p, "block.max_sectors=64", NULL));
  /* unbounded requests: no get_request_wait() throttling or congestion to calm the race */
  assert_true(pcs_params_set_assignment(&p, "block.nr_requests=0", NULL));
  Seen seen = {0};
  PcsResult r;
  run_watched(&p, "immediate", &seen, &r);
  assert_true(r.requests < r.bios * 9 / 10);
  assert_true(seen.max_rq_sectors <= 64);
  assert_int_equal(seen.dispatched_sectors, r.pages_read * 8);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* The same hot race under v6.18 (blk-mq, scheduler none): a bio merges
 * only into its own plug's last request, so the one-page bios the race
 * makes stay requests of their own instead of meeting in the elevator.
 * The bio and memory keys keep v3.5's values: only the queue differs. */
static void mq_none_merges_only_within_the_plug(void **state) {
  uint64_t requests[2], bios[2];
  for (int k = 0; k < 2; k++) {
    PcsParams p;
    pcs_params_init(&p);
    assert_true(pcs_params_set_assignment(&p, k ? "scenario.kernel=v6.18" : "scenario.kernel=v3.5", NULL));
    assert_true(pcs_params_set_assignment(&p, "bio.queue_limited=1", NULL));
    assert_true(pcs_params_set_assignment(&p, "bio.max_size=512k", NULL));
    assert_true(pcs_params_set_assignment(&p, "memory.contiguous=0", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.file_size=16M", NULL));
    assert_true(pcs_params_set_assignment(&p, "device.queue_depth=1", NULL));
    assert_true(pcs_params_set_assignment(&p, "device.latency=200us", NULL));
    assert_true(pcs_params_set_assignment(&p, "device.bandwidth=4G", NULL));
    assert_true(pcs_params_set_assignment(&p, "cost.read_setup=40us", NULL));
    Seen seen = {0};
    PcsResult r;
    run_watched(&p, "immediate", &seen, &r);
    requests[k] = r.requests;
    bios[k] = r.bios;
    assert_int_equal(seen.dispatched_sectors, r.pages_read * 8);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
  assert_true(requests[0] < bios[0] * 3 / 4); /* v3.5: the elevator merges across tasks */
  assert_true(requests[1] > bios[1] * 9 / 10); /* v6.18: almost every bio is a request */
}

/* blk_add_rq_to_plug(): under blk-mq a plug whose last request is
 * 128 KiB or more is flushed before the next request joins it, so a
 * thread's 512 KiB requests reach the device one at a time, not 32 at
 * once; a plug of small requests still holds up to block.plug_max. */
static void mq_plug_flushes_after_a_large_request(void **state) {
  uint64_t burst[2];
  for (int k = 0; k < 2; k++) {
    PcsParams p;
    pcs_params_init(&p);
    assert_true(pcs_params_set_assignment(&p, "scenario.kernel=v6.18", NULL));
    assert_int_equal(p.block_plug_max, 32);
    if (k) assert_true(pcs_params_set_assignment(&p, "block.plug_flush_size=0", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.file_size=16M", NULL));
    assert_true(pcs_params_set_assignment(&p, "readahead.read_ahead_kb=4096", NULL));
    assert_true(pcs_params_set_assignment(&p, "block.max_sectors=1024", NULL));
    Seen seen = {0};
    PcsResult r;
    run_watched(&p, "immediate", &seen, &r);
    burst[k] = seen.max_held;
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
  /* BLK_PLUG_FLUSH_SIZE: the plug holds one 512 KiB request (two while the
   * new one is made); without it a 2+ MiB window waits on the plug. */
  assert_int_equal(burst[0], 2);
  assert_true(burst[1] >= 4);
}

/* bio.queue_limited=0 (v4.13+): one thread's 1 MiB windows become 1 MiB
 * bios, counted once, each split into requests of at most max_sectors. */
static void large_bios_split_into_requests_at_max_sectors(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=64M", NULL));
  assert_true(pcs_params_set_assignment(&p, "readahead.read_ahead_kb=1024", NULL));
  assert_true(pcs_params_set_assignment(&p, "bio.max_size=4M", NULL));
  assert_true(pcs_params_set_assignment(&p, "bio.queue_limited=0", NULL));
  assert_true(pcs_params_set_assignment(&p, "block.max_sectors=640", NULL)); /* 320 KiB */
  assert_true(pcs_params_set_assignment(&p, "block.max_segments=1000", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.queue_depth=64", NULL));
  Seen seen = {0};
  PcsResult r;
  run_watched(&p, "window", &seen, &r);
  assert_int_equal(seen.max_bio_pages, 256); /* whole 1 MiB windows */
  assert_true(seen.max_rq_sectors <= 640);
  assert_int_equal(seen.dispatched_sectors, r.pages_read * 8);
  /* a 1 MiB bio is 320+320+320+64 KiB: four requests */
  assert_true(r.bio_pages_hist[256] > 50);
  assert_true(r.requests >= 4 * r.bio_pages_hist[256]);
  assert_true(r.requests > 3 * r.bios);
  pcs_result_clear(&r);
  /* queue-limited (v3.x): the same windows stop at max_sectors when built */
  assert_true(pcs_params_set_assignment(&p, "bio.queue_limited=1", NULL));
  seen = (Seen){0};
  run_watched(&p, "window", &seen, &r);
  assert_int_equal(seen.max_bio_pages, 80);
  assert_true(r.requests <= r.bios);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* Linux 6.18 on a loop device: 8 MiB windows in one bio when the pages are
 * physically contiguous; 256 single pages (BIO_MAX_VECS) when they are
 * scattered, and then 128 single-page segments (512 KiB) per request. */
static void scattered_pages_cap_bios_at_max_vecs_and_requests_at_max_segments(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  const char *sets[] = {"workload.threads=1", "workload.file_size=64M", "readahead.read_ahead_kb=8192",
                        "bio.max_size=16M", "bio.queue_limited=0", "bio.max_vecs=256", "block.max_sectors=2560",
                        "block.max_segments=128", "block.max_segment_size=64k", "device.queue_depth=64"};
  for (size_t i = 0; i < G_N_ELEMENTS(sets); i++) assert_true(pcs_params_set_assignment(&p, sets[i], NULL));
  Seen seen = {0};
  PcsResult r;
  run_watched(&p, "window", &seen, &r); /* memory.contiguous = 0: every page its own bio_vec */
  assert_int_equal(seen.max_bio_pages, 256);
  assert_int_equal(seen.max_rq_sectors, 1024);
  assert_int_equal(seen.dispatched_sectors, r.pages_read * 8);
  pcs_result_clear(&r);

  assert_true(pcs_params_set_assignment(&p, "memory.contiguous=1", NULL));
  seen = (Seen){0};
  run_watched(&p, "window", &seen, &r);
  assert_int_equal(seen.max_bio_pages, 2048); /* whole 8 MiB windows */
  assert_int_equal(seen.max_rq_sectors, 2560);
  assert_true(r.bio_pages_hist[2048] >= 6);
  assert_int_equal(seen.dispatched_sectors, r.pages_read * 8);
  uint64_t contiguous_bios = r.bios;
  pcs_result_clear(&r);

  /* 16 MiB of scattered pages first: those windows go out 1 MiB at a time */
  assert_true(pcs_params_set_assignment(&p, "memory.scattered=16M", NULL));
  seen = (Seen){0};
  run_watched(&p, "window", &seen, &r);
  assert_true(seen.large.sectors_before >= 2048 * 8 && seen.large.sectors_before <= 4096 * 8); /* 8-16 MiB */
  assert_true(r.bios > contiguous_bios + 8);
  assert_int_equal(seen.max_bio_pages, 2048);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* One thread, a 4 MiB file read as one 4 MiB window, built as one
 * 1024-page bio (bio.queue_limited=0) and split at block.max_sectors=8:
 * 1023 front parts of one page and the last page, 1024 requests, all made
 * at one instant while the device takes 32 at a time.  That is four times
 * the bio and request pools' first capacity (256), so both grow in the
 * middle of the split; the run must still account for every page once. */
static void a_split_larger_than_the_pools_completes(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=4M", "workload.block_size=4M", "readahead.read_ahead_kb=4096",
           "bio.max_size=4M", "bio.queue_limited=0", "bio.max_vecs=1024", "block.max_sectors=8", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "window", &r);
  assert_int_equal(r.bios, 1);
  assert_int_equal(r.bio_pages_hist[1024], 1);
  assert_int_equal(test_count(ev, 1, PCS_TRACE_SPLIT), 1023);
  assert_int_equal(r.requests, 1024);
  assert_int_equal(r.pages_read, 1024);
  assert_int_equal(test_count(ev, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE), 1024);
  for (uint64_t i = 0; i < 1024; i++) assert_int_equal(r.page_reads[i], 1);
  assert_int_equal(r.bytes_returned, 4 * 1048576);
  /* every request was made at the submit instant */
  PcsTime submit = test_find(ev, NULL, 1, PCS_TRACE_SUBMIT, 0)->t;
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_REQUEST, 1023 * 8)->t, submit);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* CFQ's per-process dispatch (block.cfq_quantum): in a race with a
 * backlog, only the active task's requests leave the queue, so the device
 * gets them in another order than insertion order, and still every page
 * once.  (Without idling a racing task's queue empties within a request or
 * two, so the runs stay short: CFQ reorders, it does not batch.)  Requests
 * are told apart by the task that made them (the REQUEST event). */
typedef struct {
  GHashTable *owner; /* request sector -> task + 1 */
  uint32_t last;
  uint64_t dispatches, changes, sectors, order_hash;
} Order;

static void watch_order(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Order *o = user;
  (void)t;
  if (kind == PCS_TRACE_REQUEST) g_hash_table_insert(o->owner, GSIZE_TO_POINTER(a), GUINT_TO_POINTER(thread));
  if (kind == PCS_TRACE_DISPATCH) {
    uint32_t task = GPOINTER_TO_UINT(g_hash_table_lookup(o->owner, GSIZE_TO_POINTER(a)));
    o->changes += o->dispatches++ > 0 && task != o->last;
    o->last = task;
    o->sectors += b;
    o->order_hash = o->order_hash * 1000003u + a;
  }
}

static Order dispatch_order(const char *quantum) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=16M", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.latency=200us", NULL));
  assert_true(pcs_params_set_assignment(&p, "device.bandwidth=4G", NULL));
  assert_true(pcs_params_set_assignment(&p, "cost.read_setup=40us", NULL)); /* a hot race */
  assert_true(pcs_params_set_assignment(&p, "device.queue_depth=1", NULL)); /* a backlog to order */
  assert_true(pcs_params_set_assignment(&p, "cost.jitter=0.2", NULL));     /* threads out of lockstep */
  assert_true(pcs_params_set_assignment(&p, quantum, NULL));
  Order o = {.owner = g_hash_table_new(g_direct_hash, g_direct_equal)};
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  PcsRunOptions opt = {.trace = watch_order, .trace_user = &o};
  PcsResult r;
  GError *error = NULL;
  if (!pcs_sim_run(&p, &pol, &opt, &r, &error)) fail_msg("%s", error->message);
  assert_int_equal(o.dispatches, r.requests);
  assert_true(r.requests > 500);
  assert_int_equal(o.sectors, r.pages_read * PCS_SECTORS_PER_PAGE);
  assert_int_equal(r.pages_read, 16 * PCS_MIB / PCS_PAGE_SIZE);
  g_hash_table_unref(o.owner);
  o.owner = NULL;
  pcs_result_clear(&r);
  pcs_params_clear(&p);
  return o;
}

/* The same 853 requests leave in another order, with as many changes of
 * task between consecutive dispatches (138 and 137: the racing tasks' cfq
 * queues empty within a request or two, so CFQ reorders, it does not batch);
 * the figures are this scenario's, seed 1, pinned so a change to either
 * dispatch path shows. */
static void cfq_dispatches_one_task_at_a_time(void **state) {
  Order fifo = dispatch_order("block.cfq_quantum=0"), cfq = dispatch_order("block.cfq_quantum=8");
  assert_true(fifo.order_hash != cfq.order_hash);
  assert_int_equal(fifo.dispatches, 853);
  assert_int_equal(cfq.dispatches, 853);
  assert_int_equal(fifo.changes, 138);
  assert_int_equal(cfq.changes, 137);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(bios_respect_size_and_stripe_limits),
    cmocka_unit_test(elevator_merges_queued_bios_up_to_max_sectors),
    cmocka_unit_test(mq_none_merges_only_within_the_plug),
    cmocka_unit_test(mq_plug_flushes_after_a_large_request),
    cmocka_unit_test(large_bios_split_into_requests_at_max_sectors),
    cmocka_unit_test(scattered_pages_cap_bios_at_max_vecs_and_requests_at_max_segments),
    cmocka_unit_test(a_split_larger_than_the_pools_completes),
    cmocka_unit_test(cfq_dispatches_one_task_at_a_time),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
