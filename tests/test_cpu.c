/* test_cpu.c - simulated CPUs (cpu.c): a FIFO run queue, round-robin with a
 * fixed slice, a task keeps its CPU from step to step until it sleeps or its
 * slice is used up while another task waits (with cpu.tick: until the next
 * tick, or a task queued for its CPU after the slice's end). */
#include "support.h"
#include "cpu.h"

#include <math.h>
#include <string.h>

/* Three threads read a 64 KiB file (16 pages, one 16-page window, one bio)
 * on one CPU with one end-io worker. */
static void three_threads_one_cpu(PcsParams *p, const char *slice) {
  g_autofree char *set = g_strdup_printf("cpu.slice=%s", slice);
  pcs_params_init(p);
  test_set(p, "workload.threads=3", "workload.file_size=64k", "readahead.read_ahead_kb=64", "cpu.count=1",
           "cpu.endio_workers=1", set, NULL);
}

/* Runs P (then clears it) and gives each thread's finish time after the
 * bio's completion, threads 1, 2, 3 in that order. */
static void done_after_the_bio(PcsParams *p, PcsTime done[3]) {
  PcsResult r;
  GArray *ev = test_run_traced(p, "immediate", &r);
  PcsTime t = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0)->t;
  for (int i = 0; i < 3; i++) done[i] = r.thread_done_ns[i] - t;
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(p);
}

/* A 10 us slice.  At t=0 each thread asks for its 1 us read() entry; thread
 * 1 gets the CPU, 2 and 3 queue in that order.  Thread 1: syscall until
 * 1000, insert page 0 (100 ns tree_lock + 400 ns) until 1500, read setup
 * (21 us) until 22500.  Its slice (from 0) is used up while others wait,
 * so at its next step (the insert of page 1) it goes to the back: 2, 3, 1.
 * Thread 2 runs its syscall 22500..23500 and sleeps on locked page 0;
 * thread 3 likewise 23500..24500; thread 1 resumes: insert until 25000,
 * read setup of page 1 until 46000. */
static void a_used_up_slice_goes_to_the_back_of_the_queue(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "10us");
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 0)->t, 22500);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_WAIT, 0)->t, 23500);
  assert_int_equal(test_find(ev, NULL, 3, PCS_TRACE_WAIT, 0)->t, 24500);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 1)->t, 46000);

  /* The bio completes at T (BIO_DONE) and wakes the sleepers in the order
   * they slept: 2, 3, 1.  Each has 16 copies and one read() call left,
   * 17 steps of 1 us.  Slices of 10 steps: 2 runs T..T+10, 3 T+10..T+20,
   * 1 T+20..T+30; then 2 finishes its last 7 at T+37, 3 at T+44, 1 at T+51. */
  PcsTime t = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0)->t;
  assert_int_equal(r.thread_done_ns[1] - t, 37000);
  assert_int_equal(r.thread_done_ns[2] - t, 44000);
  assert_int_equal(r.thread_done_ns[0] - t, 51000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* A 1 ms slice: thread 1 is never preempted.  It inserts and reads the 16
 * pages, submits, sleeps on page 0 at W; only then do 2 and 3 run their
 * syscalls (W+1us, W+2us) and sleep.  Woken in that order (1, 2, 3), each
 * keeps the CPU for its 17 steps: done at T+17, T+34, T+51 us. */
static void a_task_keeps_its_cpu_within_its_slice(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "1ms");
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  /* 1 us syscall + 16 x (500 ns insert + 21 us read setup) + 20 us submit */
  PcsTime w = test_find(ev, NULL, 1, PCS_TRACE_WAIT, 0)->t;
  assert_int_equal(w, 1000 + 16 * 21500 + 20000);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_WAIT, 0)->t, w + 1000);
  assert_int_equal(test_find(ev, NULL, 3, PCS_TRACE_WAIT, 0)->t, w + 2000);
  PcsTime t = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0)->t;
  assert_int_equal(r.thread_done_ns[0] - t, 17000);
  assert_int_equal(r.thread_done_ns[1] - t, 34000);
  assert_int_equal(r.thread_done_ns[2] - t, 51000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* With a CPU for every task nobody waits: the three threads' steps overlap
 * and all of them finish 17 us after the bio is done. */
static void enough_cpus_run_every_task_at_once(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "10us");
  test_set(&p, "cpu.count=4", NULL);
  PcsTime done[3];
  done_after_the_bio(&p, done);
  for (uint32_t i = 0; i < 3; i++) assert_int_equal(done[i], 17000);
}

/* cpu.wake_latency 5 us, no spread, 1 ms slice (the run above): the bio
 * completes at T and wakes 1, 2, 3, but none runs before T+5 us; the three
 * wake-up events fall due together and run in the order they were woken,
 * each keeping the CPU for its 17 steps: done at T+22, T+39, T+56 us,
 * every one 5 us later than without the latency.  With a spread
 * (cpu.wake_jitter) the delays differ from one wake-up to the next but
 * repeat with the seed. */
static void a_woken_reader_runs_after_the_wake_latency(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "1ms");
  test_set(&p, "cpu.wake_latency=5us", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  PcsTime t = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0)->t;
  assert_int_equal(r.thread_done_ns[0] - t, 22000);
  assert_int_equal(r.thread_done_ns[1] - t, 39000);
  assert_int_equal(r.thread_done_ns[2] - t, 56000);
  g_array_unref(ev);
  pcs_result_clear(&r);

  test_set(&p, "cpu.wake_jitter=0.5", NULL);
  PcsResult a, b;
  test_run(&p, "immediate", &a);
  test_run(&p, "immediate", &b);
  for (uint32_t k = 0; k < 3; k++) assert_int_equal(a.thread_done_ns[k], b.thread_done_ns[k]); /* the same seed, the same delays */
  g_autoptr(GString) row_a = g_string_new(NULL), row_b = g_string_new(NULL);
  pcs_report_csv_row(row_a, &a);
  pcs_report_csv_row(row_b, &b);
  assert_string_equal(row_a->str, row_b->str); /* and the same run in every column */
  assert_true(a.thread_done_ns[2] != t + 56000);            /* but not exactly 5 us each */
  pcs_result_clear(&a);
  pcs_result_clear(&b);
  pcs_params_clear(&p);
}

static int cmp_time(const void *a, const void *b) {
  PcsTime x = *(const PcsTime *)a, y = *(const PcsTime *)b;
  return (x > y) - (x < y);
}

/* cpu.wake_latency_local 2 us beside cpu.wake_latency 5 us: on the one
 * CPU the end-io worker that wakes 1, 2, 3 runs on their CPU, so every
 * wake-up is local and none waits the 5 us: done at T+19, T+36, T+53 us,
 * 2 us later than without a latency and 3 us earlier than with 5 us (the
 * run above).  A local draw scales the same lognormal factor: with a
 * spread its median is cpu.wake_latency_local. */
static void a_reader_woken_onto_the_wakers_cpu_takes_the_local_latency(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "1ms");
  test_set(&p, "cpu.wake_latency=5us", "cpu.wake_latency_local=2us", NULL);
  PcsTime done[3];
  done_after_the_bio(&p, done);
  assert_int_equal(done[0], 19000);
  assert_int_equal(done[1], 36000);
  assert_int_equal(done[2], 53000);

  pcs_params_init(&p);
  test_set(&p, "cpu.wake_latency=36us", "cpu.wake_latency_local=8us", "cpu.wake_jitter=0.37", NULL);
  PcsCpus c;
  pcs_cpu_init(&c, &p, 1);
  enum { N = 2001 };
  PcsTime local[N], remote[N];
  for (int i = 0; i < N; i++) local[i] = pcs_cpu_wake_latency(&c, TRUE), remote[i] = pcs_cpu_wake_latency(&c, FALSE);
  qsort(local, N, sizeof *local, cmp_time);
  qsort(remote, N, sizeof *remote, cmp_time);
  assert_true(fabs((double)local[N / 2] / 8000.0 - 1) < 0.05);
  assert_true(fabs((double)remote[N / 2] / 36000.0 - 1) < 0.05);
  pcs_cpu_clear(&c);
  pcs_params_clear(&p);
}

/* The delays are lognormal with median cpu.wake_latency and sigma
 * cpu.wake_jitter: over 20001 draws the median is within 2% of 36 us and
 * the p90 / median ratio within 5% of exp(1.2816 sigma), as the captures'
 * latencies were read (docs/validation.md, "Woken readers run late"). */
static void wake_latencies_are_lognormal_around_their_median(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "cpu.wake_latency=36us", "cpu.wake_jitter=0.37", NULL);
  PcsCpus c;
  pcs_cpu_init(&c, &p, 1);
  enum { N = 20001 };
  PcsTime *d = g_new(PcsTime, N);
  for (int i = 0; i < N; i++) d[i] = pcs_cpu_wake_latency(&c, FALSE);
  qsort(d, N, sizeof *d, cmp_time);
  double median = (double)d[N / 2], p90 = (double)d[N * 9 / 10];
  assert_true(fabs(median / 36000.0 - 1) < 0.02);
  assert_true(fabs(p90 / median / exp(1.2816 * 0.37) - 1) < 0.05);
  g_free(d);
  pcs_cpu_clear(&c);
  pcs_params_clear(&p);
}

/* Per-CPU run queues (cpu.migration_cost): the three readers of the run
 * above on two CPUs, woken by the bio's end-io worker at T.  With one run
 * queue two of them take the two CPUs at once: the first two are done 17
 * us after T, the third 17 us later.  With per-CPU queues and (nearly)
 * every woken reader queued on the worker's CPU (cpu.wake_affine), they
 * run one after another on that CPU while the other idles: done 17, 34
 * and 51 us after T, as the kernel's wake-ups pile readers on one CPU. */
static void woken_readers_queue_on_the_wakers_cpu(void **state) {
  PcsTime done[2][3];
  for (int per_cpu = 0; per_cpu < 2; per_cpu++) {
    PcsParams p;
    three_threads_one_cpu(&p, "1ms");
    test_set(&p, "cpu.count=2", per_cpu ? "cpu.migration_cost=500us" : "cpu.migration_cost=0",
             per_cpu ? "cpu.wake_affine=0.999" : "cpu.wake_affine=0", NULL);
    done_after_the_bio(&p, done[per_cpu]);
    qsort(done[per_cpu], 3, sizeof done[per_cpu][0], cmp_time);
  }
  assert_int_equal(done[0][0], 17000);
  assert_int_equal(done[0][1], 17000);
  assert_int_equal(done[0][2], 34000);
  assert_int_equal(done[1][0], 17000);
  assert_int_equal(done[1][1], 34000);
  assert_int_equal(done[1][2], 51000);
}

/* The run of a_used_up_slice_goes_to_the_back_of_the_queue with per-CPU
 * run queues on its one CPU: the woken readers wait in that CPU's own
 * queue, and the reader that runs its steps inline still yields to them
 * when its 10 us slice is used up (pcs_cpu_waiting(), asked on the inline
 * path too): the same schedule as one shared queue, done 37, 44 and 51 us
 * after the bio (a reader that ignored the CPU's own queue inline would
 * finish all 17 steps first: 17, 34, 51). */
static void a_used_up_slice_yields_to_the_cpus_own_queue(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "10us");
  test_set(&p, "cpu.migration_cost=500us", NULL);
  PcsTime done[3];
  done_after_the_bio(&p, done);
  assert_int_equal(done[1], 37000);
  assert_int_equal(done[2], 44000);
  assert_int_equal(done[0], 51000);
}

/* cost.lru_drain: the per-CPU folio batch (PAGEVEC_SIZE, 31) is drained by
 * the insert that fills it, counted per CPU whichever task inserts there:
 * 62 inserts on CPU 0 drain twice, at the 31st and the 62nd; 30 on CPU 1
 * none, and the 31st there drains CPU 1's batch only.  With the key at 0
 * no insert costs anything more. */
static void the_31st_insert_on_a_cpu_drains_its_lru_batch(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "cpu.count=2", NULL);
  PcsCpus c;
  pcs_cpu_init(&c, &p, 3);
  c.tasks[0].cpu = 0, c.tasks[1].cpu = 0, c.tasks[2].cpu = 1;
  int drained_at[4], n = 0;
  for (int i = 1; i <= 62; i++) /* tasks 0 and 1 take turns on CPU 0 */
    if (pcs_cpu_lru_add(&c, (uint32_t)(i % 2), 4400) == 4400) drained_at[n++] = i;
  assert_int_equal(n, 2);
  assert_int_equal(drained_at[0], 31);
  assert_int_equal(drained_at[1], 62);
  for (int i = 1; i <= 30; i++) assert_int_equal(pcs_cpu_lru_add(&c, 2, 4400), 0);
  assert_int_equal(pcs_cpu_lru_add(&c, 0, 4400), 0); /* CPU 0's batch holds 1 */
  assert_int_equal(pcs_cpu_lru_add(&c, 2, 4400), 4400);
  for (int i = 0; i < 100; i++) assert_int_equal(pcs_cpu_lru_add(&c, 0, 0), 0);
  pcs_cpu_clear(&c);
  pcs_params_clear(&p);
}

/* cpu.tick (EEVDF without HRTICK): the run of
 * a_used_up_slice_goes_to_the_back_of_the_queue with a 25 us tick.
 * Thread 1's 10 us slice is used up at 10000 with 2 and 3 waiting since 0,
 * but it yields only at its first step from the tick at 25000: the end of
 * page 1's read setup (23000 + 21000 = 44000).  Then 2 and 3 run their
 * syscalls and sleep (45000, 46000). */
static void a_used_up_slice_lasts_to_the_next_tick(void **state) {
  PcsParams p;
  three_threads_one_cpu(&p, "10us");
  test_set(&p, "cpu.tick=25us", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 0)->t, 22500);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 1)->t, 44000);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_WAIT, 0)->t, 45000);
  assert_int_equal(test_find(ev, NULL, 3, PCS_TRACE_WAIT, 0)->t, 46000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* When a task past its slice yields, with cpu.tick: at the first tick from
 * its slice's end, or at once when a task is queued for its CPU after that
 * end (update_curr() at the enqueue); a task queued earlier waits for the
 * tick.  A 1.4 ms slice and a 4 ms tick (6.18 on 2 CPUs at HZ=250), the task
 * on CPU 1 from 5 ms: its slice ends at 6.4 ms, the tick after it is at 8 ms. */
static void a_task_queued_after_the_slice_ends_preempts_before_the_tick(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "cpu.count=2", "cpu.slice=1400us", "cpu.tick=4ms", "cpu.migration_cost=500us", NULL);
  PcsCpus c;
  pcs_cpu_init(&c, &p, 3);
  PcsTask *t = &c.tasks[0];
  t->cpu = 1, t->slice_end = 6400000, t->slice_due = 8000000; /* as cpu_start() sets them at 5 ms */
  c.queued_for[1] = 5500000;                                   /* queued before the slice ended */
  assert_false(pcs_cpu_slice_over(&c, t, 6400000));
  assert_false(pcs_cpu_slice_over(&c, t, 7999999));
  assert_true(pcs_cpu_slice_over(&c, t, 8000000));
  c.queued_for[0] = 7000000; /* another CPU's enqueue does not count */
  assert_false(pcs_cpu_slice_over(&c, t, 7000000));
  c.queued_for[1] = 7000000; /* queued after it: update_curr() finds the deadline passed */
  assert_true(pcs_cpu_slice_over(&c, t, 7000000));
  c.tick = 0; /* without a tick the slice's end is all that counts */
  t->slice_due = t->slice_end;
  c.queued_for[1] = 0;
  assert_true(pcs_cpu_slice_over(&c, t, 6400000));
  assert_false(pcs_cpu_slice_over(&c, t, 6399999));
  pcs_cpu_clear(&c);
  pcs_params_clear(&p);
}

/* cpu.tick: a task queued for the CPU after the running one's slice ended
 * takes the CPU at the running one's next step, not at the tick.  Two
 * readers of a 64 KiB file each (per-thread files, one 16-page window),
 * one CPU, one end-io worker, a 10 us slice and a 1 ms tick: thread 1 reads
 * its window and sleeps at 365 us; thread 2 gets the CPU and its slice ends
 * at 375 us.  Thread 1's bio completes at 476.036 us and the end-io worker
 * (thread 3) is queued then: thread 2 yields at the end of the step it is
 * in (479 us) and the worker runs; without the enqueue rule thread 2 would
 * keep the CPU to its own sleep at 782 us (the tick at 1 ms comes later). */
static void a_task_queued_after_the_slice_ended_runs_at_the_next_step(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=2", "workload.file_size=64k", "workload.files=per-thread",
           "readahead.read_ahead_kb=64", "readahead.fadvise_hint=0", "cpu.count=1", "cpu.endio_workers=1",
           "cpu.slice=10us", "cpu.tick=1ms", "device.latency=50us", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "window", &r);
  size_t at = 0;
  const TestEvent *done = test_find(ev, &at, TEST_ANY_THREAD, PCS_TRACE_COMPLETE, TEST_ANY);
  assert_int_equal(done->t, 476036);
  const TestEvent *off = test_find(ev, &at, 2, PCS_TRACE_CPU_OFF, 0);
  assert_int_equal(off->t, 479000);
  assert_int_equal(off->b, PCS_TASK_PREEMPTED);
  assert_int_equal(test_find(ev, &at, 3, PCS_TRACE_CPU_ON, 0)->t, 479000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* cpu.tick with the shared run queue: a task queued there counts as queued
 * for the CPU it last ran on only, as the kernel enqueues a woken task on
 * one CPU.  Four readers of a 64 KiB file each, two CPUs, one end-io worker
 * (task 4, "on" CPU 0), a 10 us slice and a 1 ms tick: threads 3 and 4
 * take the CPUs at 365 us; thread 1's bio completes at 476.036 us and the
 * worker is queued for CPU 0: thread 3 there yields at its next step (479
 * us), thread 4 on CPU 1 keeps its CPU until it sleeps after submitting its
 * bio (730.1 us).  Marking every CPU would preempt thread 4 too. */
static void a_task_on_the_shared_queue_counts_for_its_last_cpu_only(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=4", "workload.file_size=64k", "workload.files=per-thread",
           "readahead.read_ahead_kb=64", "readahead.fadvise_hint=0", "cpu.count=2", "cpu.endio_workers=1",
           "cpu.slice=10us", "cpu.tick=1ms", "device.latency=50us", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "window", &r);
  assert_int_equal(test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_COMPLETE, TEST_ANY)->t, 476036);
  const TestEvent *off3 = test_find(ev, NULL, 3, PCS_TRACE_CPU_OFF, 0);
  assert_int_equal(off3->t, 479000);
  assert_int_equal(off3->b, PCS_TASK_PREEMPTED);
  const TestEvent *off4 = test_find(ev, NULL, 4, PCS_TRACE_CPU_OFF, 1);
  assert_int_equal(off4->t, 730100);
  assert_int_equal(off4->b, PCS_TASK_SLEEP);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* cpu.wake_preempt (EEVDF): four readers of a 64 KiB file each, two CPUs,
 * one end-io worker (thread 5), a 1 ms slice that never runs out here.
 * At 476 us the worker is woken onto CPU 0's queue while thread 3 runs
 * there: thread 3 is eligible (it has run 111 us, the queue's average is
 * 238 us) and inside its protected slice, so it keeps the CPU until it
 * sleeps at 730 us.  At 841 us the worker is woken again while thread 1
 * runs: thread 1 went to sleep at 365 us ahead of the queue's average and
 * stayed on it, delayed, so it woke at 782 us with that vruntime (372 us
 * by then) against the worker's 341 us: no longer eligible, it yields at
 * its next step (842 us) and the worker runs.  Without cpu.wake_preempt
 * thread 1 keeps the CPU until it is done at 851 us. */
static void a_woken_task_preempts_a_reader_no_longer_eligible(void **state) {
  for (int on = 0; on <= 1; on++) {
    PcsParams p;
    pcs_params_init(&p);
    test_set(&p, "scenario.kernel=v6.18", "workload.threads=4", "workload.file_size=64k",
             "workload.files=per-thread", "readahead.read_ahead_kb=64", "readahead.fadvise_hint=0", "cpu.count=2",
             "cpu.endio_workers=1", "cpu.slice=1ms", "cpu.tick=4ms", "cpu.migration_cost=500us",
             "device.latency=50us", on ? "cpu.wake_preempt=1" : "cpu.wake_preempt=0", NULL);
    PcsResult r;
    GArray *ev = test_run_traced(&p, "window", &r);
    const TestEvent *off3 = test_find(ev, NULL, 3, PCS_TRACE_CPU_OFF, 0);
    assert_int_equal(off3->t, 730000); /* eligible and protected: not preempted at 476 us */
    assert_int_equal(off3->b, PCS_TASK_SLEEP);
    size_t at = 0;
    test_find(ev, &at, 1, PCS_TRACE_CPU_ON, 0);                     /* its first run */
    const TestEvent *on1 = test_find(ev, &at, 1, PCS_TRACE_CPU_ON, 0); /* woken at 782 us */
    assert_int_equal(on1->t, 834000);
    const TestEvent *off1 = test_find(ev, &at, 1, PCS_TRACE_CPU_OFF, 0);
    assert_int_equal(off1->t, on ? 842000 : 851000);
    assert_int_equal(off1->b, on ? PCS_TASK_PREEMPTED : PCS_TASK_EXIT);
    if (on) assert_int_equal(test_find(ev, &at, 5, PCS_TRACE_CPU_ON, 0)->t, 842000);
    g_array_unref(ev);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* cpu.cfs_wake_preempt (v3.5 CFS, check_preempt_wakeup()): one reader of
 * an 8 MiB file (64 KiB windows), one CPU, one end-io worker (thread 2), a
 * 100 ms slice that never runs out here, copies of 10 us.  On one CPU the
 * wakeup granularity is 1 ms (1 + ilog2(1) = 1 times 1 ms).  At 1084.072
 * us a bio completes while the reader runs: the reader has run 921 us
 * (0..365, 528..1084), the worker 52 us, so the worker is 869 us behind,
 * within the granularity: the reader keeps the CPU until it sleeps at
 * 1418.036 us.  At 1529.072 us the next bio completes: the reader has run
 * 1314 us, the worker 104 us, 1210 us behind: the reader yields at the end
 * of its step (1530.036 us) and the worker runs.  Without it the reader
 * keeps the CPU until it sleeps at 1996.036 us. */
static void a_woken_worker_preempts_a_reader_more_than_the_granularity_ahead(void **state) {
  for (int on = 0; on <= 1; on++) {
    PcsParams p;
    pcs_params_init(&p);
    test_set(&p, "scenario.kernel=v3.5", "workload.threads=1", "workload.file_size=8M", "readahead.read_ahead_kb=64",
             "readahead.fadvise_hint=0", "device.latency=50us", "cpu.count=1", "cpu.slice=100ms",
             "cpu.endio_workers=1", "cost.copy=10us", on ? "cpu.cfs_wake_preempt=1" : "cpu.cfs_wake_preempt=0", NULL);
    PcsResult r;
    GArray *ev = test_run_traced(&p, "immediate", &r);
    size_t at = 0;
    assert_int_equal(test_find(ev, &at, TEST_ANY_THREAD, PCS_TRACE_COMPLETE, 128)->t, 1084072);
    const TestEvent *off = test_find(ev, &at, 1, PCS_TRACE_CPU_OFF, 0);
    assert_int_equal(off->t, 1418036); /* within the granularity: not preempted */
    assert_int_equal(off->b, PCS_TASK_SLEEP);
    assert_int_equal(test_find(ev, &at, TEST_ANY_THREAD, PCS_TRACE_COMPLETE, 256)->t, 1529072);
    off = test_find(ev, &at, 1, PCS_TRACE_CPU_OFF, 0);
    assert_int_equal(off->t, on ? 1530036 : 1996036);
    assert_int_equal(off->b, on ? PCS_TASK_PREEMPTED : PCS_TASK_SLEEP);
    assert_int_equal(test_find(ev, &at, 2, PCS_TRACE_CPU_ON, 0)->t, on ? 1530036 : 1996036);
    g_array_unref(ev);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* The two kernels' rules for the same decision are not combined. */
static void cfs_and_eevdf_wake_preemption_exclude_each_other(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "cpu.cfs_wake_preempt=1", "cpu.wake_preempt=1", NULL);
  g_autoptr(GError) err = NULL;
  assert_false(pcs_params_validate(&p, &err));
  assert_non_null(strstr(err->message, "cpu.cfs_wake_preempt"));
  pcs_params_clear(&p);
}

/* One reader on one CPU reads one 64 KiB window (one bio) from a device
 * that takes LATENCY: the reader's finish time, with the idle-wake keys
 * (short 3 us, long 40 us past 200 us of idling) or without. */
static PcsTime one_reader_done(const char *latency, gboolean idle_wake) {
  PcsParams p;
  g_autofree char *lat = g_strdup_printf("device.latency=%s", latency);
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=64k", "readahead.read_ahead_kb=64", "cpu.count=1",
           "cpu.endio_workers=1", "cpu.slice=1ms", lat, NULL);
  if (idle_wake) test_set(&p, "cpu.idle_wake_short=3us", "cpu.idle_wake_long=40us", "cpu.idle_wake_poll=200us", NULL);
  PcsResult r;
  test_run(&p, "immediate", &r);
  PcsTime done = r.thread_done_ns[0];
  pcs_result_clear(&r);
  pcs_params_clear(&p);
  return done;
}

/* cpu.idle_wake_*: the reader starts on the CPU idle since time 0 (3 us)
 * and sleeps on its page; the CPU idles until the bio completes and the
 * end-io worker is woken onto it: after 100 us of idling (within the
 * 200 us poll) it starts 3 us late, after 1 ms 40 us late.  The worker
 * then wakes the reader onto its own, busy CPU: the reader queues and pays
 * nothing (else each run would be 3 or 40 us later still).  The helper
 * gives the boundary: idle exactly the poll time is still short. */
static void a_wake_onto_an_idle_cpu_costs_by_its_idle_time(void **state) {
  PcsTime base100 = one_reader_done("100us", FALSE), base1ms = one_reader_done("1ms", FALSE);
  assert_int_equal(one_reader_done("100us", TRUE) - base100, 3000 + 3000);
  assert_int_equal(one_reader_done("1ms", TRUE) - base1ms, 3000 + 40000);
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "cpu.idle_wake_short=3us", "cpu.idle_wake_long=40us", "cpu.idle_wake_poll=200us", NULL);
  PcsCpus c;
  pcs_cpu_init(&c, &p, 1);
  assert_int_equal(pcs_cpu_idle_exit(&c, 1000000, 1100000), 3000);
  assert_int_equal(pcs_cpu_idle_exit(&c, 1000000, 1200000), 3000);
  assert_int_equal(pcs_cpu_idle_exit(&c, 1000000, 1200001), 40000);
  assert_int_equal(pcs_cpu_idle_exit(&c, 1000000, 2000000), 40000);
  pcs_cpu_clear(&c);
  pcs_params_clear(&p);
}

/* cpu.wake_select: CPU taken by a running task (as pcs_cpu_run() takes it). */
static void occupy(PcsCpus *c, uint32_t cpu) {
  uint32_t at = c->free_pos[cpu], top = c->free_ids[--c->cpus_free];
  c->free_ids[at] = top, c->free_pos[top] = at;
  c->free_pos[cpu] = UINT32_MAX;
}

/* cpu.wake_select, select_task_rq_fair() on two CPUs: readers 0..3, the
 * end-io worker is task 4 and runs on CPU 1 (busy).  Reader 0 last ran on
 * CPU 0.  CPU 0 idle: it goes back there.  CPU 0 busy: wake_affine_weight()
 * weighs the waker's CPU (its readers plus the woken one, x 100) against
 * CPU 0's other readers (x 108.5): with readers 1, 2 last on CPU 0 and 3 on
 * CPU 1, 2 x 100 < 2 x 108.5 and it goes to the waker's CPU; with 1 on
 * CPU 0 and 2, 3 on CPU 1 (3 x 100 against 1 x 108.5) it stays on CPU 0.
 * The worker on reader 0's own CPU 0 and CPU 1 idle: select_idle_sibling()
 * finds CPU 1; unless a reader woken earlier is on its way there. */
static void a_woken_reader_goes_where_select_task_rq_fair_sends_it(void **state) {
  (void)state;
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=4", "cpu.count=2", "cpu.migration_cost=500us", "cpu.wake_select=1", NULL);
  static const struct {
    uint32_t worker_cpu, reader_cpu[4];
    gboolean cpu0_busy, on_way_to_1;
    uint32_t want;
  } cases[] = {
      {1, {0, 0, 0, 1}, FALSE, FALSE, 0}, /* prev idle */
      {1, {0, 0, 0, 1}, TRUE, FALSE, 1},  /* prev busy, the waker's CPU the lighter */
      {1, {0, 0, 1, 1}, TRUE, FALSE, 0},  /* prev busy and the lighter */
      {0, {0, 0, 1, 1}, TRUE, FALSE, 1},  /* woken on its own CPU: the idle other one */
      {0, {0, 0, 1, 1}, TRUE, TRUE, 0},   /* ... which a woken reader is on its way to */
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    PcsCpus c;
    pcs_cpu_init(&c, &p, 5);
    for (uint32_t t = 0; t < 4; t++) c.tasks[t].cpu = cases[i].reader_cpu[t];
    c.tasks[4].cpu = cases[i].worker_cpu;
    occupy(&c, cases[i].worker_cpu);
    if (cases[i].cpu0_busy && cases[i].worker_cpu != 0) occupy(&c, 0);
    if (cases[i].on_way_to_1) c.tasks[3].wake_cpu = 1;
    pcs_cpu_wake_target(&c, 0, 4, 0);
    if (c.tasks[0].wake_cpu != cases[i].want)
      fail_msg("case %zu: reader 0 sent to CPU %u, want %u", i, c.tasks[0].wake_cpu, cases[i].want);
    pcs_cpu_clear(&c);
  }
  pcs_params_clear(&p);
}

/* cpu.wake_select = 2, wake_affine_weight() on PELT loads: reader 0
 * (last on CPU 0, load 0.5, asleep) is woken by the end-io worker (task 4,
 * load 1.0) on CPU 1 while reader 1 (load 0.6) runs on CPU 0; readers 2
 * and 3 last ran on CPU 0 and weigh nothing.  Counting readers (1): the
 * waker's CPU has none, (0 + 1) x 100 < 3 x 108, and reader 0 goes there.
 * By PELT the worker weighs on its CPU: (1.0 + 0.5) x 100 against
 * (1.1 - 0.5) x 108, and reader 0 stays on CPU 0.  Three half-lives
 * (3 x 32.768 ms: y^32 = 0.5 per 1024 us period) on, with the worker asleep
 * since, its load is 0.125 and reader 0's 0.0625, while reader 1, running,
 * has grown to 0.95: (0.125 + 0.0625) x 100 < 0.95 x 108, and reader 0
 * goes to CPU 1. */
static void pelt_loads_keep_woken_readers_off_the_workers_cpu(void **state) {
  (void)state;
  static const struct {
    const char *select;
    PcsTime now;
    uint32_t want;
  } cases[] = {
      {"cpu.wake_select=1", 0, 1},
      {"cpu.wake_select=2", 0, 0},
      {"cpu.wake_select=2", 3 * UINT64_C(32768000), 1},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    PcsParams p;
    pcs_params_init(&p);
    test_set(&p, "workload.threads=4", "cpu.count=2", "cpu.migration_cost=500us", cases[i].select, NULL);
    PcsCpus c;
    pcs_cpu_init(&c, &p, 5);
    static const uint32_t cpu[5] = {0, 0, 0, 0, 1};
    static const double load[5] = {0.5, 0.6, 0, 0, 1.0};
    for (uint32_t t = 0; t < 5; t++) c.tasks[t].cpu = cpu[t], c.tasks[t].load = load[t], c.tasks[t].load_at = 0;
    c.tasks[1].runnable = TRUE;
    occupy(&c, 1), occupy(&c, 0);
    pcs_cpu_wake_target(&c, 0, 4, cases[i].now);
    if (c.tasks[0].wake_cpu != cases[i].want)
      fail_msg("case %zu (%s at %" G_GUINT64_FORMAT " ns): reader 0 sent to CPU %u, want %u", i, cases[i].select,
               cases[i].now, c.tasks[0].wake_cpu, cases[i].want);
    pcs_cpu_clear(&c);
    pcs_params_clear(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_used_up_slice_goes_to_the_back_of_the_queue),
    cmocka_unit_test(a_task_keeps_its_cpu_within_its_slice),
    cmocka_unit_test(enough_cpus_run_every_task_at_once),
    cmocka_unit_test(a_woken_reader_runs_after_the_wake_latency),
    cmocka_unit_test(wake_latencies_are_lognormal_around_their_median),
    cmocka_unit_test(a_reader_woken_onto_the_wakers_cpu_takes_the_local_latency),
    cmocka_unit_test(woken_readers_queue_on_the_wakers_cpu),
    cmocka_unit_test(a_used_up_slice_yields_to_the_cpus_own_queue),
    cmocka_unit_test(the_31st_insert_on_a_cpu_drains_its_lru_batch),
    cmocka_unit_test(a_used_up_slice_lasts_to_the_next_tick),
    cmocka_unit_test(a_task_queued_after_the_slice_ends_preempts_before_the_tick),
    cmocka_unit_test(a_task_queued_after_the_slice_ended_runs_at_the_next_step),
    cmocka_unit_test(a_task_on_the_shared_queue_counts_for_its_last_cpu_only),
    cmocka_unit_test(a_woken_task_preempts_a_reader_no_longer_eligible),
    cmocka_unit_test(a_woken_worker_preempts_a_reader_more_than_the_granularity_ahead),
    cmocka_unit_test(cfs_and_eevdf_wake_preemption_exclude_each_other),
    cmocka_unit_test(a_wake_onto_an_idle_cpu_costs_by_its_idle_time),
    cmocka_unit_test(a_woken_reader_goes_where_select_task_rq_fair_sends_it),
    cmocka_unit_test(pelt_loads_keep_woken_readers_off_the_workers_cpu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
