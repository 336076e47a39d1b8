/* test_sim.c - invariants of one run, the page cache (wake order, tree_lock),
 * counters, determinism, and the mechanism behind the patch. */
#include "support.h"

#include "internal.h"

#include <math.h>

static const char *const policies[] = {"immediate", "pool:16", "pool-contig:16", "window", "pool:3"};

static void small_race(PcsParams *p) {
  test_load(p, "workloads/liubo-2011.ini");
  assert_true(pcs_params_set_assignment(p, "workload.file_size=64M", NULL));
}

static void check_invariants(const PcsParams *p, const PcsResult *r) {
  uint64_t npages = p->workload_file_size / PCS_PAGE_SIZE;
  for (uint64_t i = 0; i < npages; i++)
    if (r->page_reads[i] != 1) fail_msg("%s: page %" G_GUINT64_FORMAT " read %" G_GUINT64_FORMAT " times",
                                        r->policy.name, i, r->page_reads[i]);
  for (uint32_t t = 0; t < r->threads; t++) assert_int_equal(r->thread_bytes[t], p->workload_file_size);
  assert_int_equal(r->pages_read, npages);
  assert_true(r->requests <= r->bios);
  uint64_t in_bios = 0, nbios = 0;
  for (uint32_t k = 0; k < r->hist_len; k++) in_bios += k * r->bio_pages_hist[k], nbios += r->bio_pages_hist[k];
  assert_int_equal(in_bios, r->pages_read);
  assert_int_equal(nbios, r->bios);
  assert_int_equal(r->bytes_returned, r->threads * p->workload_file_size);
}

static void every_page_read_once_and_returned_to_every_thread(void **state) {
  PcsParams p;
  small_race(&p);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
    PcsResult r;
    test_run(&p, policies[i], &r);
    check_invariants(&p, &r);
    pcs_result_clear(&r);
  }
  pcs_params_clear(&p);
}

static void one_thread_gives_the_same_bios_for_every_policy(void **state) {
  PcsParams p;
  small_race(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  PcsResult first;
  test_run(&p, policies[0], &first);
  for (size_t i = 1; i < G_N_ELEMENTS(policies); i++) {
    PcsResult r;
    test_run(&p, policies[i], &r);
    assert_int_equal(r.bios, first.bios);
    assert_memory_equal(r.bio_pages_hist, first.bio_pages_hist, first.hist_len * sizeof(uint64_t));
    assert_int_equal(r.eexist, 0);
    pcs_result_clear(&r);
  }
  pcs_result_clear(&first);
  pcs_params_clear(&p);
}

/* Per page, when each step of its life happened (UINT64_MAX: not yet). */
typedef struct {
  PcsTime inserted, read, completed, done;
  uint32_t owner;
} PageLife;

/* Follow every page through the trace of a racing run and check the
 * causal order a user relies on: one thread inserts it, the same thread
 * sets up its read, the device completes it, an end-io worker finishes
 * it, and only then does any thread copy it; each thread copies pages 0,
 * 1, 2, ... in order, and a sleeper sleeps on a page still in flight. */
static void check_page_lives(const PcsParams *p, const PcsResult *r, GArray *ev) {
  uint64_t npages = p->workload_file_size / PCS_PAGE_SIZE;
  g_autofree PageLife *pg = g_new(PageLife, npages);
  for (uint64_t i = 0; i < npages; i++) pg[i] = (PageLife){UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, 0};
  g_autofree uint64_t *next_copy = g_new0(uint64_t, r->threads + 1);
  g_autofree PcsTime *finished = g_new0(PcsTime, r->threads + 1);
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    PageLife *l = e->a < npages ? &pg[e->a] : NULL;
    switch (e->kind) {
    case PCS_TRACE_INSERT:
      assert_int_equal(l->inserted, UINT64_MAX); /* inserted once */
      l->inserted = e->t;
      l->owner = e->thread;
      break;
    case PCS_TRACE_EEXIST:
      assert_true(l->inserted <= e->t); /* lost to an insert that happened */
      break;
    case PCS_TRACE_READ:
      assert_int_equal(l->owner, e->thread); /* the winner reads it */
      assert_int_equal(l->read, UINT64_MAX);
      l->read = e->t;
      break;
    case PCS_TRACE_COMPLETE:
      for (uint64_t s = e->a; s < e->a + e->b; s += PCS_SECTORS_PER_PAGE) {
        PageLife *c = &pg[s / PCS_SECTORS_PER_PAGE];
        assert_true(c->read <= e->t);
        assert_int_equal(c->completed, UINT64_MAX);
        c->completed = e->t;
      }
      break;
    case PCS_TRACE_BIO_DONE:
      assert_true(e->thread > r->threads); /* an end-io worker */
      for (uint64_t q = e->a; q < e->a + e->b; q++) {
        assert_true(pg[q].completed <= e->t);
        assert_int_equal(pg[q].done, UINT64_MAX);
        pg[q].done = e->t;
      }
      break;
    case PCS_TRACE_WAIT:
      assert_true(l->inserted <= e->t && l->done == UINT64_MAX); /* locked: in flight */
      assert_int_equal(next_copy[e->thread], e->a);
      break;
    case PCS_TRACE_COPY:
      assert_int_equal(next_copy[e->thread], e->a); /* in file order */
      next_copy[e->thread]++;
      if (l->done > e->t) fail_msg("thread %u copied page %" G_GUINT64_FORMAT " before its bio was done", e->thread, e->a);
      break;
    case PCS_TRACE_FINISH:
      finished[e->thread] = e->t;
      break;
    default:
      break;
    }
  }
  for (uint64_t i = 0; i < npages; i++) assert_true(pg[i].done != UINT64_MAX);
  PcsTime last = 0;
  for (uint32_t t = 1; t <= r->threads; t++) {
    assert_int_equal(next_copy[t], npages);
    assert_int_equal(finished[t], r->thread_done_ns[t - 1]);
    last = MAX(last, finished[t]);
  }
  assert_int_equal(last, r->sim_time_ns);
}

static void no_thread_copies_a_page_before_its_bio_is_done(void **state) {
  PcsParams p;
  small_race(&p);
  test_set(&p, "workload.file_size=8M", "cost.jitter=0.3", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
    PcsResult r;
    GArray *ev = test_run_traced(&p, policies[i], &r);
    check_page_lives(&p, &r, ev);
    assert_true(r.eexist > 0 && r.waits > 0); /* it was a race */
    g_array_unref(ev);
    pcs_result_clear(&r);
  }
  pcs_params_clear(&p);
}

/* Three threads, 64 KiB (one 16-page window).  Thread 1 inserts page 0 at
 * 1 us; threads 2 and 3 find it locked at that instant and sleep, in that
 * order; thread 1 sleeps on it after submitting.  unlock_page() wakes them
 * in the order they slept (a FIFO wait queue), and with a CPU each they all
 * copy page 0 1 us (cost.copy) after the end-io worker is done. */
static void sleepers_wake_in_the_order_they_slept(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=3", "workload.file_size=64k", "readahead.read_ahead_kb=64", "cpu.count=8", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  const uint32_t order[] = {2, 3, 1};
  size_t waits = 0, copies = 0;
  PcsTime done = test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_BIO_DONE, 0)->t;
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->kind == PCS_TRACE_WAIT && e->a == 0) assert_int_equal(e->thread, order[waits++]);
    if (e->kind == PCS_TRACE_COPY && e->a == 0) {
      assert_int_equal(e->thread, order[copies++]);
      assert_int_equal(e->t, done + 1000);
    }
  }
  assert_int_equal(waits, 3);
  assert_int_equal(copies, 3);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_WAIT, 0)->t, 1000);
  assert_int_equal(r.waits, 3);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* tree_lock is a ticket spinlock held cost.tree_lock_hold per insert; a
 * thread that asks while it is held spins, on its CPU, until it is free.
 * Two threads, 1 MiB, hold 10 us.  At X thread 2 takes the marker on page
 * 8 and inserts page 16 (the lock is free: it holds it X..X+10us); its
 * read of 16 is set up at X + 10 + 0.4 (insert_won) + 21 (read_setup) us.
 * Thread 1 copies pages 8..15 and enters read() (9 x 1 us) and inserts page
 * 17 at X + 9 us: it spins 1 us, holds 10 us, so its read of 17 is set up
 * at X + 9 + 1 + 10 + 0.4 + 21 us.  Thread 2 then loses page 17 at X +
 * 31.4 us, the lock long free: 10 us hold + 0.2 (insert_lost) later it
 * tries page 18. */
static void the_later_insert_pays_the_tree_lock_spin(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=2", "workload.file_size=1M", "cost.tree_lock_hold=10us", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  PcsTime x = test_find(ev, NULL, 2, PCS_TRACE_INSERT, 16)->t;
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_READ, 16)->t, x + 10000 + 400 + 21000);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_INSERT, 17)->t, x + 9000);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 17)->t, x + 9000 + 1000 + 10000 + 400 + 21000);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_EEXIST, 17)->t, x + 31400);
  assert_int_equal(test_find(ev, NULL, 2, PCS_TRACE_EEXIST, 18)->t, x + 31400 + 10000 + 200);
  g_array_unref(ev);
  pcs_result_clear(&r);

  /* with the default 100 ns hold the same insert of 17 does not wait */
  test_set(&p, "cost.tree_lock_hold=100ns", NULL);
  ev = test_run_traced(&p, "immediate", &r);
  PcsTime t17 = test_find(ev, NULL, 1, PCS_TRACE_INSERT, 17)->t;
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_READ, 17)->t, t17 + 100 + 400 + 21000);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* The counters a report prints are the trace's events counted. */
static void check_counters(const PcsResult *r, GArray *ev) {
  assert_int_equal(r->ra_sync, test_count(ev, TEST_ANY_THREAD, PCS_TRACE_RA_SYNC));
  assert_int_equal(r->ra_async, test_count(ev, TEST_ANY_THREAD, PCS_TRACE_RA_ASYNC));
  assert_int_equal(r->waits, test_count(ev, TEST_ANY_THREAD, PCS_TRACE_WAIT));
  assert_int_equal(r->eexist, test_count(ev, TEST_ANY_THREAD, PCS_TRACE_EEXIST));
  assert_int_equal(r->bios, test_count(ev, TEST_ANY_THREAD, PCS_TRACE_SUBMIT));
  assert_int_equal(r->requests, test_count(ev, PCS_NO_THREAD, PCS_TRACE_DISPATCH));
}

/* One thread, 1 MiB (see test_readahead.c for its windows): it sleeps
 * twice, on page 0 (the first window is in flight) and on page 240: the
 * last window is 16 pages, read in 16 x 21.5 + 20 = 364 us, and the thread
 * touches it 36 us later (32 copies, 4 read() calls), before the device
 * (100 us + transfer) is done.  Every full window took 708 us to read, long
 * enough for the one before to complete.  Several threads racing lose
 * inserts and sleep; none ever falls back to ->readpage(): every page a
 * thread misses is in the window of its own synchronous readahead. */
static void counters_match_the_trace(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=1M", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  check_counters(&r, ev);
  assert_int_equal(r.ra_sync, 1);
  assert_int_equal(r.ra_async, 9);
  assert_int_equal(r.waits, 2);
  assert_int_equal(test_find(ev, NULL, 1, PCS_TRACE_WAIT, 240)->t, test_find(ev, NULL, 1, PCS_TRACE_SUBMIT, 240)->t + 36000);
  assert_int_equal(r.eexist, 0);
  assert_int_equal(r.fallback_reads, 0);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);

  small_race(&p);
  test_set(&p, "workload.file_size=8M", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
    ev = test_run_traced(&p, policies[i], &r);
    check_counters(&r, ev);
    assert_true(r.eexist > 0);
    assert_true(r.waits > r.threads);
    assert_true(r.ra_async > r.ra_sync);
    assert_int_equal(r.fallback_reads, 0);
    g_array_unref(ev);
    pcs_result_clear(&r);
  }
  pcs_params_clear(&p);
}

/* The whole trace of a run, as text. */
static GString *trace_text(const PcsParams *p, const char *policy) {
  PcsPolicy pol;
  assert_true(pcs_policy_parse(policy, &pol, NULL));
  GString *text = g_string_new(NULL);
  PcsRunOptions opt = {.trace = test_trace_text, .trace_user = text};
  PcsResult r;
  GError *error = NULL;
  if (!pcs_sim_run(p, &pol, &opt, &r, &error)) fail_msg("%s", error->message);
  g_string_append_printf(text, "sim_time_ns %" G_GUINT64_FORMAT " events %" G_GUINT64_FORMAT "\n", r.sim_time_ns, r.events);
  pcs_result_clear(&r);
  return text;
}

/* Same scenario and seed: the same run, event for event.  The seed feeds
 * the cost jitter only: with jitter another seed gives another run,
 * without it the same one. */
static void same_seed_same_trace_byte_for_byte(void **state) {
  PcsParams p;
  small_race(&p);
  test_set(&p, "workload.file_size=4M", "cost.jitter=0.2", NULL);
  GString *a = trace_text(&p, "immediate");
  GString *b = trace_text(&p, "immediate");
  assert_true(a->len > 100000);
  assert_int_equal(a->len, b->len);
  assert_memory_equal(a->str, b->str, a->len);
  test_set(&p, "scenario.seed=2", NULL);
  GString *c = trace_text(&p, "immediate");
  assert_false(a->len == c->len && memcmp(a->str, c->str, a->len) == 0);
  test_set(&p, "cost.jitter=0", NULL);
  GString *d = trace_text(&p, "immediate");
  test_set(&p, "scenario.seed=1", NULL);
  GString *e = trace_text(&p, "immediate");
  assert_int_equal(d->len, e->len);
  assert_memory_equal(d->str, e->str, d->len);
  assert_false(d->len == a->len && memcmp(d->str, a->str, a->len) == 0);
  for (GString **s = (GString *[]){a, b, c, d, e, NULL}; *s; s++) g_string_free(*s, TRUE);
  pcs_params_clear(&p);
}

static double bios_per_mib(const PcsParams *p, const char *policy) {
  PcsResult r;
  test_run(p, policy, &r);
  double v = pcs_report_value(&r, "bios_per_mib");
  pcs_result_clear(&r);
  return v;
}

/* The patch's argument: the race comes from per-page work between two
 * inserts.  Without it, immediate builds bios nearly as large as pool:16
 * (on this 64 MiB cut of the seed, within 2x: the start of the file still
 * splits a few windows); as it grows, immediate's bios shrink, to several
 * times pool:16's count.  (Between 2 and 5 us, around the scenario's 3 us,
 * the race sets in and the count wobbles with the seed: docs/scenarios.md.) */
static void read_setup_cost_drives_the_race(void **state) {
  PcsParams p;
  small_race(&p);
  assert_true(pcs_params_set_assignment(&p, "cost.read_setup=0", NULL));
  double pool = bios_per_mib(&p, "pool:16");
  double imm0 = bios_per_mib(&p, "immediate");
  assert_true(imm0 <= pool * 2 && imm0 >= pool * 0.8);
  double prev = imm0;
  const char *costs[] = {"5us", "10us", "21us"};
  for (size_t i = 0; i < G_N_ELEMENTS(costs); i++) {
    g_autofree char *set = g_strdup_printf("cost.read_setup=%s", costs[i]);
    assert_true(pcs_params_set_assignment(&p, set, NULL));
    double v = bios_per_mib(&p, "immediate");
    if (v < prev) fail_msg("read_setup %s: %.2f bios/MiB, fewer than %.2f before", costs[i], v, prev);
    prev = v;
  }
  assert_true(prev > 5 * pool);
  pcs_params_clear(&p);
}

static void limits_refuse_huge_scenarios_up_front(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=1T", NULL));
  assert_true(pcs_params_set_assignment(&p, "limits.max_memory=64M", NULL));
  PcsPolicy pol;
  assert_true(pcs_policy_parse("pool:16", &pol, NULL));
  GError *error = NULL;
  assert_false(pcs_sim_check_limits(&p, &pol, &error));
  assert_non_null(strstr(error->message, "limits.max_memory"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

/* pcs_rng is GRand's generator with GLib's default seeding, draw for draw
 * (ctest runs without G_RANDOM_VERSION). */
static void rng_streams_equal_grand(void **state) {
  if (g_getenv("G_RANDOM_VERSION")) skip();
  for (uint32_t stream = 1; stream <= 6; stream++) {
    uint32_t seed[3] = {12345u * stream, stream, stream + 1};
    PcsRng r;
    pcs_rng_init(&r, seed, 3);
    GRand *g = g_rand_new_with_seed_array(seed, 3);
    for (int i = 0; i < 2000; i++) assert_int_equal(pcs_rng_u32(&r), g_rand_int(g));
    g_rand_free(g);
  }
}

/* ---- mechanism metrics, as the trace reader defines them (ktrace.h) ---- */

/* One thread inserts every page itself: no owner changes, its inserted MiB
 * is the file, and with contiguous memory every page after the first sits
 * in the frame after its predecessor's; without, none does. */
static void one_thread_inserts_the_whole_file_in_one_run_of_frames(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=4M", "memory.contiguous=1", NULL);
  PcsResult r;
  test_run(&p, "pool:16", &r);
  assert_int_equal(r.inserts, 1024);
  assert_int_equal(r.page_pairs, 1023);
  assert_int_equal(r.owner_changes, 0);
  assert_true(pcs_report_value(&r, "owner_changes_per_mib") == 0.0);
  assert_true(pcs_report_value(&r, "contiguous_frames") == 1.0);
  assert_int_equal(r.insert_threads, 1);
  assert_true(pcs_result_inserted_mib(&r, 0) == 4.0);
  pcs_result_clear(&r);
  test_set(&p, "memory.contiguous=0", NULL);
  test_run(&p, "pool:16", &r);
  assert_true(pcs_report_value(&r, "contiguous_frames") == 0.0);
  assert_true(pcs_result_inserted_mib(&r, 0) == 4.0);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* The run's counters are what the trace reader would count on the run's own
 * INSERT events (a = page, b = pfn, thread): owner changes and adjacent
 * frames over the file's pages in index order, each thread's pages in order
 * of its first insert.  4 threads keep the inserter in the page byte, 20 in
 * the separate array; every frame is handed out once. */
static void insert_events_give_the_runs_mechanism_counters(void **state) {
  const char *threads[] = {"workload.threads=4", "workload.threads=20"};
  for (size_t i = 0; i < G_N_ELEMENTS(threads); i++) {
    PcsParams p;
    small_race(&p);
    test_set(&p, threads[i], "workload.file_size=8M", "memory.contiguous=1", "memory.contiguous_share=0.8", NULL);
    PcsResult r;
    GArray *ev = test_run_traced(&p, "pool:16", &r);
    uint64_t npages = p.workload_file_size / PCS_PAGE_SIZE;
    g_autofree uint32_t *owner = g_new0(uint32_t, npages);
    g_autofree uint64_t *pfn = g_new0(uint64_t, npages);
    g_autofree uint64_t *per_thread = g_new0(uint64_t, r.threads + 1);
    g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GHashTable) frames = g_hash_table_new(g_int64_hash, g_int64_equal);
    for (guint k = 0; k < ev->len; k++) {
      TestEvent *e = &g_array_index(ev, TestEvent, k);
      if (e->kind != PCS_TRACE_INSERT) continue;
      assert_int_equal(owner[e->a], 0); /* each page inserted once */
      owner[e->a] = e->thread, pfn[e->a] = e->b;
      if (per_thread[e->thread]++ == 0) g_array_append_val(order, e->thread);
      assert_false(g_hash_table_contains(frames, &e->b));
      g_hash_table_add(frames, &e->b);
    }
    uint64_t changes = 0, contiguous = 0;
    for (uint64_t pg = 1; pg < npages; pg++) {
      changes += owner[pg] != owner[pg - 1];
      contiguous += pfn[pg] == pfn[pg - 1] + 1;
    }
    assert_int_equal(r.inserts, npages);
    assert_int_equal(r.page_pairs, npages - 1);
    assert_int_equal(r.owner_changes, changes);
    assert_int_equal(r.contiguous_pairs, contiguous);
    assert_true(changes > 0 && contiguous > 0 && contiguous < npages - 1);
    assert_true(fabs(pcs_report_value(&r, "owner_changes_per_mib") - (double)changes / 8.0) < 1e-9);
    assert_int_equal(r.insert_threads, order->len);
    for (guint k = 0; k < order->len; k++) {
      uint32_t t = g_array_index(order, uint32_t, k);
      assert_int_equal(r.insert_order[k] + 1, t);
      assert_true(pcs_result_inserted_mib(&r, k) == (double)per_thread[t] * PCS_PAGE_SIZE / PCS_MIB);
    }
    g_array_unref(ev);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

static double contiguous_frames(const PcsParams *p) {
  PcsResult r;
  test_run(p, "window", &r);
  double v = pcs_report_value(&r, "contiguous_frames");
  pcs_result_clear(&r);
  return v;
}

/* memory.contiguous_share: one thread, 64 MiB (16384 pages): the share of
 * adjacent frames is the probability asked for (within 4 standard
 * deviations), from a stream of its own: the seed moves it, and 1 draws
 * nothing (every frame follows). */
static void contiguous_share_sets_the_share_of_adjacent_frames(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=64M", "memory.contiguous=1", NULL);
  assert_true(contiguous_frames(&p) == 1.0);
  test_set(&p, "memory.contiguous_share=0.5", NULL);
  double a = contiguous_frames(&p);
  assert_true(fabs(a - 0.5) < 0.016);
  assert_true(contiguous_frames(&p) == a);
  test_set(&p, "scenario.seed=7", NULL);
  double b = contiguous_frames(&p);
  assert_true(fabs(b - 0.5) < 0.016 && b != a);
  test_set(&p, "memory.contiguous_share=0", NULL);
  assert_true(contiguous_frames(&p) == 0.0);
  GError *error = NULL;
  assert_false(pcs_params_set_assignment(&p, "memory.contiguous_share=1.5", &error));
  assert_non_null(strstr(error->message, "memory.contiguous_share"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

/* One thread and a queue depth of 1: every request is alone on the device,
 * so its dispatch -> complete time is device.latency + size / bandwidth
 * (rounded up to the ns), and device_ms_per_mib is their sum per MiB. */
static void device_time_is_latency_plus_transfer_alone(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=8M", "device.queue_depth=1", "device.latency=50us",
           "device.bandwidth=500M", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "pool:16", &r);
  uint64_t sum = 0, bw = p.device_bandwidth, hist[PCS_LATENCY_BUCKETS] = {0};
  for (guint k = 0; k < ev->len; k++) {
    TestEvent *e = &g_array_index(ev, TestEvent, k);
    if (e->kind != PCS_TRACE_DISPATCH) continue;
    uint64_t ns = 50000 + (e->b * PCS_SECTOR_SIZE * (uint64_t)PCS_NS_PER_S + bw - 1) / bw;
    sum += ns;
    hist[pcs_latency_bucket(ns)]++;
  }
  assert_true(r.requests > 10);
  assert_int_equal(r.device_ns, sum);
  assert_memory_equal(r.latency_us_hist, hist, sizeof hist);
  assert_int_equal(r.max_in_flight, 1);
  assert_true(fabs(pcs_report_value(&r, "device_ms_per_mib") - (double)sum / 1e6 / 8.0) < 1e-9);
  assert_true(fabs(pcs_report_value(&r, "device_mean_us") - (double)sum / 1e3 / (double)r.requests) < 1e-9);
  /* 128 KiB windows: 50 us + 250 us, in [256, 512) us */
  assert_true(hist[8] > 0);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* Buckets as the trace reader's: under 2 us in 0, [2^k, 2^(k+1)) us in k. */
static void latency_buckets_are_powers_of_two_in_us(void **state) {
  assert_int_equal(pcs_latency_bucket(0), 0);
  assert_int_equal(pcs_latency_bucket(1999), 0);
  assert_int_equal(pcs_latency_bucket(2000), 1);
  assert_int_equal(pcs_latency_bucket(3999), 1);
  assert_int_equal(pcs_latency_bucket(4000), 2);
  assert_int_equal(pcs_latency_bucket(300000), 8);
  assert_int_equal(pcs_latency_bucket(UINT64_MAX), PCS_LATENCY_BUCKETS - 1);
}

/* workload.files = per-thread: each reader reads a file of its own, so
 * nothing is shared: no lost insert, no owner change, and the device reads
 * every file once (threads x file_size). */
static void per_thread_files_do_not_race(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=4", "workload.file_size=4M", "workload.files=per-thread",
           "readahead.read_ahead_kb=128", NULL);
  PcsResult r;
  test_run(&p, "window", &r);
  assert_int_equal(r.eexist, 0);
  assert_int_equal(r.owner_changes, 0);
  assert_int_equal(r.pages_read, 4 * 1024);
  assert_int_equal(r.inserts, 4 * 1024);
  assert_int_equal(r.bytes_returned, 4 * 4 * PCS_MIB);
  for (uint32_t t = 0; t < 4; t++) assert_int_equal(r.thread_inserts[t], 1024);
  pcs_result_clear(&r);
  /* the same job on one shared file reads it once */
  test_set(&p, "workload.files=shared", NULL);
  test_run(&p, "window", &r);
  assert_int_equal(r.pages_read, 1024);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* device.channels: with the queue deep enough, two channels move about
 * twice what one moves, and a request alone still takes latency + size /
 * bandwidth. */
static void channels_serve_requests_in_parallel(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=1", "workload.file_size=64M", "readahead.read_ahead_kb=4096",
           "device.latency=100us", "device.bandwidth=200M", "device.queue_depth=64", "cost.read_setup=200ns",
           "cost.copy=200ns", "cost.page_complete=100ns", NULL);
  PcsResult one, two;
  test_run(&p, "window", &one);
  test_set(&p, "device.channels=2", NULL);
  test_run(&p, "window", &two);
  double r1 = pcs_report_value(&one, "device_mib_s"), r2 = pcs_report_value(&two, "device_mib_s");
  assert_true(r1 <= 200.0 * 1.0001); /* one channel: never over device.bandwidth (MiB/s) */
  assert_true(r2 > 1.6 * r1);
  assert_int_equal(one.pages_read, two.pages_read);
  pcs_result_clear(&one);
  pcs_result_clear(&two);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(rng_streams_equal_grand),
    cmocka_unit_test(every_page_read_once_and_returned_to_every_thread),
    cmocka_unit_test(one_thread_gives_the_same_bios_for_every_policy),
    cmocka_unit_test(no_thread_copies_a_page_before_its_bio_is_done),
    cmocka_unit_test(sleepers_wake_in_the_order_they_slept),
    cmocka_unit_test(the_later_insert_pays_the_tree_lock_spin),
    cmocka_unit_test(counters_match_the_trace),
    cmocka_unit_test(same_seed_same_trace_byte_for_byte),
    cmocka_unit_test(read_setup_cost_drives_the_race),
    cmocka_unit_test(limits_refuse_huge_scenarios_up_front),
    cmocka_unit_test(one_thread_inserts_the_whole_file_in_one_run_of_frames),
    cmocka_unit_test(insert_events_give_the_runs_mechanism_counters),
    cmocka_unit_test(contiguous_share_sets_the_share_of_adjacent_frames),
    cmocka_unit_test(device_time_is_latency_plus_transfer_alone),
    cmocka_unit_test(latency_buckets_are_powers_of_two_in_us),
    cmocka_unit_test(per_thread_files_do_not_race),
    cmocka_unit_test(channels_serve_requests_in_parallel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
