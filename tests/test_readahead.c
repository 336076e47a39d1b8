/* test_readahead.c - window sizes as mm/readahead.c computes them, and when
 * each reader runs synchronous and asynchronous readahead (the trace's
 * RA_SYNC / RA_ASYNC events: a = window start, b = pages). */
#include "support.h"

#include <math.h>
#include "internal.h"

static void init_size_follows_get_init_ra_size(void **state) {
  /* 128 KiB max = 32 pages: a 32 KiB read (8 pages) gets 16 pages */
  assert_int_equal(pcs_ra_init_size(8, 32), 16);
  assert_int_equal(pcs_ra_init_size(1, 32), 4);  /* 1 <= 32/32: x4 */
  assert_int_equal(pcs_ra_init_size(3, 32), 8);  /* rounds up to 4, x2 */
  assert_int_equal(pcs_ra_init_size(16, 32), 32);
  assert_int_equal(pcs_ra_init_size(64, 32), 32); /* capped */
}

static void next_size_ramps_up(void **state) {
  assert_int_equal(pcs_ra_next_size(16, 32), 32);
  assert_int_equal(pcs_ra_next_size(32, 32), 32);
  assert_int_equal(pcs_ra_next_size(4, 1024), 16); /* x4 below max/16 */
  assert_int_equal(pcs_ra_next_size(128, 1024), 256);
}

/* A single reader reads the fio job's file: first window 16 pages, then
 * 32-page windows, and with nobody to race each window is one bio. */
static void single_reader_windows_become_bios(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=1M", NULL));
  PcsResult r;
  test_run(&p, "immediate", &r);
  /* windows [0,16) [16,48) ... [208,240) [240,256): the last is cut at EOF */
  assert_int_equal(r.bio_pages_hist[16], 2);
  assert_int_equal(r.bio_pages_hist[32], 7);
  assert_int_equal(r.bios, 9);
  assert_int_equal(r.ra_sync, 1);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* v3.5, workload.files = per-thread: each reader's first read is at the
 * start of ITS file (ondemand_readahead()'s offset 0), so every reader gets
 * the initial window and reads its file exactly as a lone reader does. */
static void per_thread_files_each_start_with_the_initial_window(void **state) {
  (void)state;
  PcsResult one, four;
  for (int t = 0; t < 2; t++) {
    PcsParams p;
    pcs_params_init(&p);
    assert_true(pcs_params_set_assignment(&p, "workload.files=per-thread", NULL));
    assert_true(pcs_params_set_assignment(&p, t ? "workload.threads=4" : "workload.threads=1", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.file_size=1M", NULL));
    test_run(&p, "immediate", t ? &four : &one);
    pcs_params_clear(&p);
  }
  assert_int_equal(one.ra_sync, 1);
  assert_int_equal(four.ra_sync, 4);
  assert_int_equal(four.bios, 4 * one.bios);
  assert_int_equal(four.bio_pages_hist[16], 4 * one.bio_pages_hist[16]);
  pcs_result_clear(&one);
  pcs_result_clear(&four);
}

typedef struct {
  uint32_t thread;
  PcsTraceKind kind;
  uint64_t start, pages;
  uint64_t touched; /* the page whose lookup ran it */
} Window;

/* Find WANT[0..N) in EVENTS in that order; returns each match in GOT. */
static void expect_windows(GArray *events, const Window *want, size_t n, const TestEvent **got) {
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    got[i] = test_find(events, &at, want[i].thread, want[i].kind, TEST_ANY);
    if (got[i]->a != want[i].start || got[i]->b != want[i].pages)
      fail_msg("readahead %zu of thread %u: [%" G_GUINT64_FORMAT " +%" G_GUINT64_FORMAT "), expected [%" G_GUINT64_FORMAT
               " +%" G_GUINT64_FORMAT ")", i, got[i]->thread, got[i]->a, got[i]->b, want[i].start, want[i].pages);
  }
}

/* The same reader, window by window.  Page 0 misses: get_init_ra_size(8
 * pages of a 32 KiB read, 32 max) = 16, async_size = 16 - 8, so the marker
 * is page 8.  Touching page 8 ramps up: next window [16, 48) (16 x 2),
 * async_size = size, marker on its first page 16.  Touching 16 opens
 * [48, 80) with its marker on 48, and so on; touching 240 lists [272,
 * 304), past the end of the file: 1 sync and 9 async readaheads.  Every
 * marker is the first page of a read() call, so readahead runs 1 us
 * (cost.syscall) after the copy of the page before, and the reader inserts
 * and reads the window's pages itself (n x (0.5 + 21) us, + 20 us submit)
 * before it copies the marker page (1 us). */
static void readahead_runs_when_the_reader_touches_each_marker(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=1", "workload.file_size=1M", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  Window want[10] = {{1, PCS_TRACE_RA_SYNC, 0, 16, 0}, {1, PCS_TRACE_RA_ASYNC, 16, 32, 8}};
  for (uint64_t i = 2; i < G_N_ELEMENTS(want); i++)
    want[i] = (Window){1, PCS_TRACE_RA_ASYNC, 16 + 32 * (i - 1), 32, 16 + 32 * (i - 2)};
  const TestEvent *got[G_N_ELEMENTS(want)];
  expect_windows(ev, want, G_N_ELEMENTS(want), got);
  for (size_t i = 1; i < G_N_ELEMENTS(want); i++) {
    const TestEvent *before = test_find(ev, NULL, 1, PCS_TRACE_COPY, want[i].touched - 1);
    assert_int_equal(got[i]->t, before->t + 1000);
    uint64_t listed = MIN(want[i].start + want[i].pages, 256) - MIN(want[i].start, 256);
    if (!listed) continue;
    const TestEvent *copy = test_find(ev, NULL, 1, PCS_TRACE_COPY, want[i].touched);
    assert_int_equal(copy->t, got[i]->t + listed * 21500 + 20000 + 1000);
  }
  assert_int_equal(r.ra_sync, 1);
  assert_int_equal(r.ra_async, 9);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* Two threads, the seed's race (docs/scenarios.md).  Thread 1 misses page 0 and reads
 * [0, 16) with its marker on page 8; thread 2 finds page 0 locked and
 * sleeps first, so the completion wakes it first and, copying in lockstep,
 * it touches the marker first.  Its own readahead state is empty (it has
 * never read ahead): the marker-without-state path starts at the first
 * hole after page 8, 16, with next_size(16 - 8 + 8 pages, 32) = 32 pages
 * and the marker on page 16.  Thread 1 finds page 8 unmarked, copies on and
 * touches thread 2's marker on 16, which matches its own state (16 = start
 * + size): [16, 48), ramped up since offset = start and the window is all
 * async: + next_size(32) = 64 pages.  Both now insert from page 17 on. */
static const Window race_windows[] = {
  {1, PCS_TRACE_RA_SYNC, 0, 16, 0}, {2, PCS_TRACE_RA_ASYNC, 16, 32, 8}, {1, PCS_TRACE_RA_ASYNC, 16, 64, 16}};

static void a_marker_set_by_another_thread_reads_ahead_from_the_first_hole(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "workload.threads=2", "workload.file_size=1M", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  const TestEvent *got[G_N_ELEMENTS(race_windows)];
  expect_windows(ev, race_windows, G_N_ELEMENTS(race_windows), got);
  /* nothing else read ahead before: thread 2's first is the stateless one */
  for (const TestEvent *e = &g_array_index(ev, TestEvent, 0); e < got[2]; e++)
    if (e != got[0] && e != got[1]) assert_true(e->kind != PCS_TRACE_RA_SYNC && e->kind != PCS_TRACE_RA_ASYNC);
  /* "From then on the threads alternate indices" (docs/scenarios.md): with 21 us of
   * read setup after each insert, pages 16..47 go to threads 2, 1, 2, 1... */
  for (uint64_t page = 16; page < 48; page++)
    assert_int_equal(test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_INSERT, page)->thread, page % 2 ? 1 : 2);
  g_array_unref(ev);
  pcs_result_clear(&r);

  /* pool:16 inserts 16 pages in 8 us: thread 2 takes 16..31 before thread 1
   * gets there, and thread 1 goes on from 32 */
  ev = test_run_traced(&p, "pool:16", &r);
  expect_windows(ev, race_windows, G_N_ELEMENTS(race_windows), got);
  for (uint64_t page = 16; page < 48; page++)
    assert_int_equal(test_find(ev, NULL, TEST_ANY_THREAD, PCS_TRACE_INSERT, page)->thread, page < 32 ? 2 : 1);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* v6.18, one reader, 128 KiB bdi doubled by fadvise (64 pages): the sync
 * window at 0 is get_init_ra_size(8, 64) = 16 with the marker at 8; the
 * async path at the expected index ramps 32, 64, 64 ... (get_next_ra_size()
 * of 6.x), so a 1000-window file gives one sync and one async per window,
 * as the ra128-j1 capture has (1 and 4001). */
static void v618_one_reader_ramps_on_the_async_path_only(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=1", "workload.file_size=4M", "readahead.read_ahead_kb=128",
           "readahead.fadvise_hint=1", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "window", &r);
  const Window want[] = {
    {0, PCS_TRACE_RA_SYNC, 0, 16, 0},
    {0, PCS_TRACE_RA_ASYNC, 16, 32, 8},
    {0, PCS_TRACE_RA_ASYNC, 48, 64, 16},
    {0, PCS_TRACE_RA_ASYNC, 112, 64, 48},
  };
  const TestEvent *got[G_N_ELEMENTS(want)];
  expect_windows(ev, want, G_N_ELEMENTS(want), got);
  assert_int_equal(r.ra_sync, 1);
  /* windows [16,48) [48,112), 15 of 64 from 112 to [1008,1072) cut at
   * EOF, and the marker of that one still enters page_cache_async_ra() */
  assert_int_equal(r.ra_async, 2 + 15 + 1);
  assert_int_equal(r.eexist, 0);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* v6.18, four readers at 128 KiB: they share the windows, so the file's
 * pages change inserting thread along the file, and every readahead's
 * batch stops at a folio another thread holds: no insert is lost. */
static void v618_threads_share_windows_without_lost_inserts(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", "workload.threads=4", "workload.file_size=8M", "readahead.read_ahead_kb=128",
           "readahead.fadvise_hint=1", "cpu.count=2", "cost.insert_won=1345ns", NULL);
  PcsResult r;
  test_run(&p, "window", &r);
  /* seed 1: 34 changes of inserting thread along the file's 2048 pages, all
   * four threads inserting, only page 0's miss read synchronously */
  assert_int_equal(r.owner_changes, 34);
  assert_int_equal(r.ra_sync, 1);
  assert_int_equal(r.insert_threads, 4);
  assert_int_equal(r.inserts, 2048);
  assert_int_equal(r.eexist, 0); /* no insert lost */
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* cost.insert_alloc: the folio is stored at the end of the insert's work,
 * so a thread that looked a page up as missing can lose it (-EEXIST) to one
 * storing it meanwhile, and an interleaved window that loses its first page
 * loses its PG_readahead marker: more synchronous readaheads.  With 0 the
 * insert takes effect at the lookup and no insert is ever lost. */
static void v618_insert_stored_after_its_allocation(void **state) {
  PcsResult r0, r1;
  for (int alloc = 0; alloc < 2; alloc++) {
    PcsParams p;
    pcs_params_init(&p);
    test_set(&p, "scenario.kernel=v6.18", "workload.threads=4", "workload.file_size=64M",
             "readahead.read_ahead_kb=128", "readahead.fadvise_hint=1", "cpu.count=2", "cost.insert_won=1345ns",
             "device.channels=2", "device.jitter=0.2", alloc ? "cost.insert_alloc=400ns" : "cost.insert_alloc=0", NULL);
    test_run(&p, "window", alloc ? &r1 : &r0);
    pcs_params_clear(&p);
  }
  assert_int_equal(r0.eexist, 0);
  assert_true(r1.eexist > 0);
  if (r1.ra_sync < 2 * r0.ra_sync + 5)
    fail_msg("sync readaheads: %" G_GUINT64_FORMAT " with insert_alloc, %" G_GUINT64_FORMAT " without", (guint64)r1.ra_sync,
             (guint64)r0.ra_sync);
  pcs_result_clear(&r0);
  pcs_result_clear(&r1);
}

/* cost.ra_scan_page: a readahead that sizes its window from the cache
 * walks it first.  Two v6.18 readers: thread 2 gathers thread 1's marked
 * page M with no state of its own, so page_cache_async_ra() starts its
 * window at the first hole after M, S, having walked the S - M - 1 cached
 * pages between; its first insert comes that many cost.ra_scan_page later
 * than without the cost.  Thread 1's first window, a sync one at a miss
 * with nothing cached behind it, walks nothing and is not delayed. */
static PcsTime first_insert_after(GArray *ev, const TestEvent *ra) {
  size_t from = (size_t)(ra - &g_array_index(ev, TestEvent, 0));
  return test_find(ev, &from, ra->thread, PCS_TRACE_INSERT, TEST_ANY)->t - ra->t;
}

static void v618_context_readahead_walks_the_cached_run_first(void **state) {
  PcsTime delay[2], sync_delay[2];
  uint64_t walked = 0;
  for (int scan = 0; scan < 2; scan++) {
    PcsParams p;
    pcs_params_init(&p);
    test_set(&p, "scenario.kernel=v6.18", "workload.threads=2", "workload.file_size=1M", "readahead.read_ahead_kb=128",
             "readahead.fadvise_hint=1", scan ? "cost.ra_scan_page=1us" : "cost.ra_scan_page=0", NULL);
    PcsResult r;
    GArray *ev = test_run_traced(&p, "window", &r);
    const TestEvent *sync = test_find(ev, NULL, 1, PCS_TRACE_RA_SYNC, 0);
    sync_delay[scan] = first_insert_after(ev, sync);
    size_t at = 0;
    const TestEvent *ra = test_find(ev, &at, 2, PCS_TRACE_RA_ASYNC, TEST_ANY);
    const TestEvent *gathered = NULL; /* thread 2's gather that ended at the marked page */
    for (const TestEvent *e = &g_array_index(ev, TestEvent, 0); e < ra; e++)
      if (e->thread == 2 && e->kind == PCS_TRACE_GATHER) gathered = e;
    assert_non_null(gathered);
    uint64_t marked = gathered->a + gathered->b - 1;
    assert_true(ra->a > marked + 1); /* the window starts past a cached run */
    walked = ra->a - marked - 1;
    delay[scan] = first_insert_after(ev, ra);
    g_array_unref(ev);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
  assert_int_equal(delay[1] - delay[0], walked * 1000);
  assert_int_equal(sync_delay[1], sync_delay[0]);
}

/* v3.5 stores ra->prev_pos once per read() call, at do_generic_file_read()'s
 * out: label, not per page copied.  So a synchronous miss at a call's second
 * or later page is no "sequential cache miss" (ondemand_readahead()'s
 * offset - prev_pos <= 1: the call before ended further back) and takes
 * try_context_readahead(): the cached run before the miss (2048 pages, the
 * window's maximum) sizes a 2048-page window whose marker is its first
 * page, and readit: appends the next one: 4096 pages.  Taken as a
 * sequential miss it would be the 32-page initial window.  The seed's job
 * cut to 64 MiB (32 KiB calls: 8 pages each, from page 0): thread 2 misses
 * page 2434, the third page of its call at 2432. */
static void v35_a_sync_miss_inside_a_call_takes_context_readahead(void **state) {
  PcsParams p;
  test_load(&p, "workloads/liubo-2011.ini");
  test_set(&p, "workload.file_size=64M", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "immediate", &r);
  const TestEvent *miss = test_find(ev, NULL, 2, PCS_TRACE_RA_SYNC, 2434);
  assert_int_equal(miss->b, 4096);
  size_t inside = 0;
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->kind != PCS_TRACE_RA_SYNC || e->a % 8 == 0) continue;
    assert_int_equal(e->b, 4096); /* never the initial window */
    inside++;
  }
  assert_true(inside >= 1);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* ---- page_cache_ra_order() with large folios (pcs_ra_order()) ---- */

/* A page cache of folios for one lone reader: per page, present and the
 * folio's first page; per first page, its order and PG_readahead. */
typedef struct {
  uint64_t npages;
  uint8_t *present, *order, *marker;
  uint64_t *head;
  uint64_t by_order[16], folios, inserted_pages, ra_sync;
} FolioCache;

static gboolean fc_present(void *user, uint64_t index, uint64_t n) {
  const FolioCache *c = user;
  for (uint64_t p = index; p < index + n && p < c->npages; p++)
    if (c->present[p]) return TRUE;
  return FALSE;
}

static void fc_insert(FolioCache *c, uint64_t index, uint32_t order, gboolean marker) {
  uint64_t pages = UINT64_C(1) << order;
  assert_false(fc_present(c, index, pages)); /* an insert is all or nothing */
  for (uint64_t p = index; p < index + pages; p++) c->present[p] = 1, c->head[p] = index;
  c->order[index] = (uint8_t)order, c->marker[index] = (uint8_t)marker;
  c->by_order[order]++, c->folios++, c->inserted_pages += pages;
}

/* page_cache_ra_order() of RA's window, then do_page_cache_ra()'s order-0
 * rest, each absent page on its own (page_cache_ra_unbounded()). */
static void fc_read_window(FolioCache *c, PcsRaState *ra, uint32_t max_order, PcsRaFolios *out) {
  pcs_ra_order(ra, max_order, c->npages, fc_present, c, out);
  for (uint32_t i = 0; i < out->n; i++) fc_insert(c, out->folios[i].index, out->folios[i].order, out->folios[i].marker);
  for (uint64_t p = out->rest_start; p < out->rest_start + out->rest_n; p++)
    if (!c->present[p]) fc_insert(c, p, 0, p == out->rest_marker);
}

/* One reader reads NPAGES with read() calls of BS pages as filemap_read()
 * does in 6.18: a miss runs page_cache_sync_ra() (here only ever at the
 * start of the file: get_init_ra_size(), async_size = size - req, order 0);
 * the marked folio ending a batch runs page_cache_async_ra() with its own
 * index.  RA_PAGES is the file's window (bdi read_ahead_kb doubled by fio's
 * fadvise), MAX_ORDER the mapping's largest folio. */
static void fc_read_file(FolioCache *c, uint64_t npages, uint64_t bs, uint64_t ra_pages, uint32_t max_order) {
  *c = (FolioCache){.npages = npages};
  c->present = g_new0(uint8_t, npages), c->order = g_new0(uint8_t, npages), c->marker = g_new0(uint8_t, npages);
  c->head = g_new0(uint64_t, npages);
  PcsRaFolios out = {.folios = g_new(PcsRaFolio, ra_pages), .cap = (uint32_t)ra_pages};
  PcsRaState ra = {0};
  for (uint64_t pos = 0; pos < npages; pos += bs) {
    uint64_t last = MIN(pos + bs, npages);
    for (uint64_t idx = pos; idx < last;) {
      if (!c->present[idx]) {
        assert_int_equal(idx, 0); /* a lone sequential reader misses once, at the start */
        c->ra_sync++;
        ra.start = idx, ra.size = pcs_ra_init_size(last - idx, ra_pages);
        ra.async_size = ra.size > last - idx ? ra.size - (last - idx) : ra.size / 2;
        ra.order = 0;
        fc_read_window(c, &ra, max_order, &out);
        continue;
      }
      uint64_t f = c->head[idx];
      if (c->marker[f]) {
        c->marker[f] = 0;
        if (!pcs_ra6_advance(&ra, f, UINT64_C(1) << c->order[f], ra_pages))
          fail_msg("marker folio %" G_GUINT64_FORMAT " is not the expected index", f);
        fc_read_window(c, &ra, max_order, &out);
      }
      idx = f + (UINT64_C(1) << c->order[f]);
    }
  }
  g_free(out.folios);
}

static void fc_clear(FolioCache *c) { g_free(c->present), g_free(c->order), g_free(c->marker), g_free(c->head); }

/* The seed's job cut to 1000M on ext4 or xfs (Linux 6.18, largest folio
 * order 9): 32 KiB reads with a 256 KiB window (read_ahead_kb 128, doubled)
 * insert 4028 folios, one order-6 folio per window after the ramp; with an
 * 8 MiB window (4096, doubled) 589, four order-9 folios per window.  These
 * are the counts and orders of mm_filemap_add_to_page_cache in
 * tests/data/kernel-6.18-ext4/ and kernel-6.18-xfs/ at one thread. */
static void ra_order_gives_the_kernels_folios_for_one_reader(void **state) {
  static const struct {
    uint64_t ra_pages, folios, by_order[10];
  } want[] = {
    {64, 4028, {16, 0, 8, 0, 5, 2, 3997, 0, 0, 0}},
    {2048, 589, {32, 0, 32, 0, 16, 1, 7, 1, 4, 496}},
  };
  for (size_t w = 0; w < G_N_ELEMENTS(want); w++) {
    FolioCache c;
    fc_read_file(&c, 256000, 8, want[w].ra_pages, 9);
    if (c.folios != want[w].folios) fail_msg("ra_pages %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " folios, not %" G_GUINT64_FORMAT,
                                             want[w].ra_pages, c.folios, want[w].folios);
    for (int o = 0; o < 10; o++)
      if (c.by_order[o] != want[w].by_order[o])
        fail_msg("ra_pages %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " folios of order %d, not %" G_GUINT64_FORMAT,
                 want[w].ra_pages, c.by_order[o], o, want[w].by_order[o]);
    assert_int_equal(c.inserted_pages, 256000);
    assert_int_equal(c.ra_sync, 1);
    fc_clear(&c);
  }
  /* btrfs (no large folios): the same reads insert every page alone */
  FolioCache b;
  fc_read_file(&b, 256000, 8, 64, 0);
  assert_int_equal(b.folios, 256000);
  assert_int_equal(b.by_order[0], 256000);
  fc_clear(&b);
}

/* Folios carved by alignment and EOF, the marker rounded down to its folio,
 * and the first failed insert handing the rest to do_page_cache_ra(). */
static void ra_order_carves_marks_and_falls_back(void **state) {
  PcsRaFolio f[64];
  PcsRaFolios out = {.folios = f, .cap = 64};
  /* [192, 256) asked at order 6, EOF at page 250: each folio as large as
   * its index's alignment and the pages left allow */
  PcsRaState ra = {.start = 192, .size = 64, .async_size = 64, .order = 6};
  pcs_ra_order(&ra, 9, 250, NULL, NULL, &out);
  assert_int_equal(out.n, 4);
  const uint64_t idx[] = {192, 224, 240, 248}, ord[] = {5, 4, 3, 1};
  for (int i = 0; i < 4; i++) assert_int_equal(f[i].index, idx[i]), assert_int_equal(f[i].order, ord[i]);
  assert_true(f[0].marker);
  assert_int_equal(out.rest_n, 0);
  assert_int_equal(ra.order, 6); /* min(6, max 9, ilog2(64)) */
  /* order 11 asked of a 32-page window: ilog2(32) = 5; the marker at 144
   * rounds down to the one folio's first page */
  ra = (PcsRaState){.start = 128, .size = 32, .async_size = 16, .order = 11};
  pcs_ra_order(&ra, 9, 1000, NULL, NULL, &out);
  assert_int_equal(out.n, 1);
  assert_int_equal(f[0].index, 128), assert_int_equal(f[0].order, 5), assert_true(f[0].marker);
  assert_int_equal(ra.order, 5);
  /* a page of [28, 32) cached by another reader: the order-2 folio there
   * fails, the large loop ends, and the 20 pages left go at order 0 with no
   * marker (lookahead 32 is more than they are) */
  FolioCache c = {.npages = 1000};
  c.present = g_new0(uint8_t, 1000);
  c.present[30] = 1;
  ra = (PcsRaState){.start = 16, .size = 32, .async_size = 32, .order = 2};
  pcs_ra_order(&ra, 9, 1000, fc_present, &c, &out);
  assert_int_equal(out.n, 3);
  assert_int_equal(f[2].index, 24);
  assert_true(f[0].marker && !f[1].marker);
  assert_int_equal(out.rest_start, 28);
  assert_int_equal(out.rest_n, 20);
  assert_int_equal(out.rest_marker, UINT64_MAX);
  /* btrfs: order back to 0, the whole window at order 0, marker on start + size - async_size */
  ra = (PcsRaState){.start = 64, .size = 32, .async_size = 24, .order = 4};
  pcs_ra_order(&ra, 0, 1000, fc_present, &c, &out);
  assert_int_equal(out.n, 0);
  assert_int_equal(out.rest_start, 64), assert_int_equal(out.rest_n, 32), assert_int_equal(out.rest_marker, 72);
  assert_int_equal(ra.order, 0);
  g_free(c.present);
  /* the expected index is rounded down to the marked folio: a window
   * [112, 128) marked at 112 moves on from an order-4 folio's index */
  ra = (PcsRaState){.start = 112, .size = 16, .async_size = 16, .order = 4};
  assert_false(pcs_ra6_advance(&ra, 96, 16, 64));
  assert_true(pcs_ra6_advance(&ra, 112, 16, 64));
  assert_int_equal(ra.start, 128), assert_int_equal(ra.size, 32), assert_int_equal(ra.order, 6);
}

/* page_cache_next_miss() from a marked folio, as lib/xarray.c walks it
 * (pcs_ra_next_miss()): from a one-page folio or one of 64 pages and more,
 * the first empty page; from a folio of 2..32 pages, whose later slots are
 * sibling entries, one page past it, and across the leaf node's end the
 * next node's first page is not looked at.  The last case is ext4k's
 * (tests/data/kernel-6.18-ext4k/, ra128-j4-rep1, fio-3992 at 8606.316081):
 * a window [1856, 1920) of sixteen order-2 folios, all in, the cache empty
 * from 1920; the walk from the marked folio at 1856 answers 1921, 65 pages
 * on, more than the 64-page window, and page_cache_async_ra() returns
 * without a window: a reader then meets 1920 with no readahead. */
static void next_miss_walks_the_xarray(void **state) {
  FolioCache c = {.npages = 4096};
  c.present = g_new0(uint8_t, c.npages), c.order = g_new0(uint8_t, c.npages), c.marker = g_new0(uint8_t, c.npages);
  c.head = g_new0(uint64_t, c.npages);
  for (uint64_t p = 100; p < 128; p++) fc_insert(&c, p, 0, FALSE);
  assert_int_equal(pcs_ra_next_miss(100, 1, 64, fc_present, &c), 128); /* one page: exact */
  for (uint64_t p = 128; p < 152; p += 4) fc_insert(&c, p, 2, FALSE);
  assert_int_equal(pcs_ra_next_miss(128, 4, 64, fc_present, &c), 153); /* 152 empty: 153 */
  for (uint64_t p = 152; p < 192; p += 4) fc_insert(&c, p, 2, FALSE);
  assert_int_equal(pcs_ra_next_miss(128, 4, 128, fc_present, &c), 193); /* 192 and 193 empty: 193 */
  assert_int_equal(pcs_ra_next_miss(128, 4, 40, fc_present, &c), 169); /* 40 slots, none empty: 128 + 1 + 40 */
  fc_insert(&c, 193, 0, FALSE);
  fc_insert(&c, 194, 1, FALSE);
  assert_int_equal(pcs_ra_next_miss(128, 4, 128, fc_present, &c), 196); /* 192 never looked at */
  fc_insert(&c, 256, 6, FALSE);
  assert_int_equal(pcs_ra_next_miss(256, 64, 128, fc_present, &c), 320); /* 64 pages: exact */
  for (uint64_t p = 1856; p < 1920; p += 4) fc_insert(&c, p, 2, FALSE);
  assert_int_equal(pcs_ra_next_miss(1856, 4, 200, fc_present, &c), 1921); /* the cache empty from 1920 */
  for (uint64_t p = 4064; p < 4096; p += 4) fc_insert(&c, p, 2, FALSE);
  assert_int_equal(pcs_ra_next_miss(4064, 4, 200, fc_present, &c), 4097); /* EOF at 4096: an empty leaf, one past */
  uint64_t start = pcs_ra_next_miss(1856, 4, 64, fc_present, &c);
  assert_int_equal(start, 1921);
  assert_true(start - 1856 > 64);
  fc_clear(&c);
}

/* POSIX_FADV_RANDOM (fio's fadvise_hint=1 on rw=randread): a miss reads
 * exactly its read() call's pages, no window, no marker, under either
 * kernel (6.18 force_page_cache_ra(), 3.5 force_page_cache_readahead());
 * without it (fadvise_hint=0) the kernel's own detection reads more. */
static void fmode_random_reads_the_request(void **state) {
  const char *kernels[] = {"v6.18", "v3.5"};
  for (size_t k = 0; k < G_N_ELEMENTS(kernels); k++) {
    PcsParams p;
    pcs_params_init(&p);
    g_autofree char *kernel = g_strdup_printf("scenario.kernel=%s", kernels[k]);
    assert_true(pcs_params_set_assignment(&p, kernel, NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.file_size=8M", NULL));
    assert_true(pcs_params_set_assignment(&p, "workload.rw=randread", NULL));
    assert_true(pcs_params_set_assignment(&p, "readahead.read_ahead_kb=4096", NULL));
    assert_true(pcs_params_set_assignment(&p, "readahead.fadvise_hint=1", NULL));
    PcsResult r;
    test_run(&p, "immediate", &r);
    assert_int_equal(r.ra_sync, 256); /* one per 32k block */
    assert_int_equal(r.ra_async, 0);
    assert_int_equal(r.pages_read, 2048);
    assert_int_equal(r.bios, 256);
    assert_int_equal(r.bio_pages_hist[8], 256);
    pcs_result_clear(&r);
    assert_true(pcs_params_set_assignment(&p, "readahead.fadvise_hint=0", NULL));
    test_run(&p, "immediate", &r);
    assert_true(r.ra_async > 0 && r.bios < 256); /* windows and context readahead: fewer, larger bios */
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* The real kernel's randread (tests/data/kernel-6.18-randread/, btrfs on a
 * loop device, fio's default fadvise_hint=1): a 4k block is one 4k bio and
 * one request (256 per MiB), a 32k block one 32k bio (32 per MiB), with
 * one or four threads; pcsim's run of each capture's own job on the
 * session's calibrated host gives the same counts. */
static void randread_bios_as_the_capture(void **state) {
  const char *runs[] = {"rand4k-ra4096-j1-rep1", "rand4k-ra4096-j4-rep1", "rand32k-ra4096-j4-rep1"};
  g_autofree char *host = test_path("tests/data/kernel-6.18-randread/host.ini");
  for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
    g_autofree char *trace = g_strdup_printf("%s/tests/data/kernel-6.18-randread/blocks/%s.ftrace.txt.gz", PCSIM_SOURCE_DIR, runs[i]);
    g_autofree char *job = g_strdup_printf("%s/tests/data/kernel-6.18-randread/blocks/%s.fio", PCSIM_SOURCE_DIR, runs[i]);
    g_autofree char *real = NULL, *sim = NULL, *e1 = NULL, *e2 = NULL;
    assert_int_equal(test_pcsim(&real, &e1, "trace-stats", trace, "--format", "csv", NULL), 0);
    assert_int_equal(test_pcsim(&sim, &e2, "run", job, "--model", host, "--set", "readahead.read_ahead_kb=4096",
                                "--format", "csv", NULL), 0);
    double want = strstr(runs[i], "rand4k") ? 256.0 : 32.0;
    assert_float_equal(test_csv_cell(real, trace, 5), want, 0.05);     /* data bios/MiB */
    assert_float_equal(test_csv_cell(real, trace, 6), want, 0.05);     /* requests/MiB */
    assert_float_equal(test_csv_cell(sim, "window", 6), want, 1e-9);   /* pcsim bios/MiB */
    assert_float_equal(test_csv_cell(sim, "window", 7), want, 1e-9);   /* pcsim requests/MiB */
  }
}

/* The same random reads with fadvise_hint=0 (tests/data/kernel-6.18-randfadv0-dec07h/):
 * no FMODE_RANDOM, so page_cache_sync_ra()'s own detection reads a window at a
 * start of file, at a read adjacent to the previous one and where the pages
 * before are cached (context readahead).  The kernel's rep1: 4k blocks 139.6
 * data bios/MiB from 23789 synchronous readaheads with one thread, 172.8 from
 * 30758 with four; 32k blocks with four 24.6 from 18209 (`zcat ... | grep -c
 * page_cache_sync_ra:`).  pcsim's run of each job on the session's calibrated
 * host, predicted before the capture was looked at (predictions.txt), lands
 * within 3% on bios/MiB and 1% on the readaheads (seed 1). */
static void randread_fadvise0_as_the_capture(void **state) {
  static const struct {
    const char *run;
    double bios_per_mib;
    double ra_sync;
  } want[] = {{"rand4kf0-ra4096-j1-rep1", 139.571, 23789}, {"rand4kf0-ra4096-j4-rep1", 172.836, 30758},
              {"rand32kf0-ra4096-j4-rep1", 24.645, 18209}};
  const char *set = "tests/data/kernel-6.18-randfadv0-dec07h";
  g_autofree char *host = g_strdup_printf("%s/%s/host.ini", PCSIM_SOURCE_DIR, set);
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    g_autofree char *trace = g_strdup_printf("%s/%s/blocks/%s.ftrace.txt.gz", PCSIM_SOURCE_DIR, set, want[i].run);
    g_autofree char *job = g_strdup_printf("%s/%s/blocks/%s.fio", PCSIM_SOURCE_DIR, set, want[i].run);
    g_autofree char *real = NULL, *sim = NULL, *e1 = NULL, *e2 = NULL;
    assert_int_equal(test_pcsim(&real, &e1, "trace-stats", trace, "--format", "csv", NULL), 0);
    assert_float_equal(test_csv_cell(real, trace, 5), want[i].bios_per_mib, 0.001); /* the capture's */
    assert_int_equal(test_pcsim(&sim, &e2, "run", job, "--model", host, "--set", "readahead.read_ahead_kb=4096",
                                "--format", "csv", NULL), 0);
    double bios = test_csv_cell(sim, "window", 6), sync = test_csv_cell(sim, "window", 15);
    if (fabs(bios / want[i].bios_per_mib - 1) > 0.03 || fabs(sync / want[i].ra_sync - 1) > 0.01)
      fail_msg("%s: pcsim %.3f bios/MiB from %.0f synchronous readaheads, the kernel %.3f from %.0f", want[i].run, bios,
               sync, want[i].bios_per_mib, want[i].ra_sync);
  }
}

/* The simulation with large folios (filesystem = ext4): one reader of the
 * seed's job cut to 1000M inserts the folios the kernel inserted in
 * tests/data/kernel-6.18-ext4/ (4028 at read_ahead_kb 128, 589 at 4096),
 * the same bios and requests per MiB (4.003 and 0.130 / 0.877), every page
 * read once; four readers race: more folios (a lost large insert falls
 * back to single pages), still every page inserted and read once. */
static void ext4_readers_insert_the_kernels_folios(void **state) {
  static const struct {
    const char *ra;
    uint64_t folios, bios;
    double requests_per_mib;
  } want[] = {{"readahead.read_ahead_kb=128", 4028, 4003, 4.003}, {"readahead.read_ahead_kb=4096", 589, 130, 0.877}};
  for (size_t w = 0; w < G_N_ELEMENTS(want); w++) {
    PcsResult r[2];
    for (int t = 0; t < 2; t++) {
      PcsParams p;
      pcs_params_init(&p);
      test_set(&p, "scenario.kernel=v6.18", "scenario.filesystem=ext4", "workload.file_size=1000M",
               "workload.block_size=32k", "readahead.fadvise_hint=1", "block.max_sectors=2560", want[w].ra,
               t ? "workload.threads=4" : "workload.threads=1", NULL);
      test_run(&p, "window", &r[t]);
      pcs_params_clear(&p);
      assert_int_equal(r[t].inserted_pages, 256000);
      for (uint64_t pg = 0; pg < 256000; pg++)
        if (r[t].page_reads[pg] != 1) fail_msg("%s, %d threads: page %" G_GUINT64_FORMAT " read %" G_GUINT64_FORMAT " times",
                                               want[w].ra, t ? 4 : 1, pg, r[t].page_reads[pg]);
    }
    assert_int_equal(r[0].inserts, want[w].folios);
    assert_int_equal(r[0].bios, want[w].bios);
    assert_float_equal((double)r[0].requests / 1000.0, want[w].requests_per_mib, 0.0005);
    assert_true(r[1].inserts > r[0].inserts);
    pcs_result_clear(&r[0]);
    pcs_result_clear(&r[1]);
  }
}

/* Free page reporting (memory.reported_order = 9, cost.touch_reported):
 * the first touch of each page whose memory the host took back pays one
 * host fault, and no other touch does.  256 MiB, 65536 pages.  An order-9
 * folio takes a reported block whole; a smaller folio or a page of its own
 * frame is cold when it was carved from a block of order 9 or more
 * (alloc.c).  With no memory.buddyinfo free memory is order-10 blocks, all
 * untouched: ext4's reader copies every page cold once, at 4096 KiB and at
 * 128 KiB.  With 300 order-8 blocks (76800 pages, more than the file) only
 * the order-9 folios are: 63488 pages at 4096 KiB (the first 8 MiB in
 * smaller folios while the order ramps up, page_cache_ra_order()), none at
 * 128 KiB; four racing readers whole touches, no more (a page is touched
 * first once; a lost large insert leaves order-0 pages).  btrfs: its
 * end-io workers' checksum read touches first, so the readers' CPU time is
 * unchanged and the workers' 65536 faults set the pace; with the order-8
 * blocks nothing is cold. */
static uint64_t cold_run(const char *fs, const char *ra, const char *threads, const char *touch, const char *buddy,
                         uint64_t *sim_ns) {
  PcsParams p;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", fs, "workload.file_size=256M", "workload.block_size=32k",
           "readahead.fadvise_hint=1", "block.max_sectors=2560", ra, threads, "memory.reported_order=9", touch, buddy,
           NULL);
  if (strstr(fs, "btrfs") == NULL) test_set(&p, "bio.csum_leaf_size=0", NULL);
  PcsResult r;
  test_run(&p, "window", &r);
  uint64_t sum = 0;
  for (uint32_t t = 0; t < p.workload_threads; t++) sum += r.thread_cpu_ns[t];
  assert_int_equal(r.pages_read, 65536);
  if (sim_ns) *sim_ns = r.sim_time_ns;
  pcs_result_clear(&r);
  pcs_params_clear(&p);
  return sum;
}

static void cold_memory_costs_one_touch_a_page(void **state) {
  const char *ext4 = "scenario.filesystem=ext4", *on = "cost.touch_reported=5us", *off = "cost.touch_reported=0";
  const char *threads[] = {"workload.threads=1", "workload.threads=4"};
  const char *none = "memory.buddyinfo=", *small = "memory.buddyinfo=0 0 0 0 0 0 0 0 300"; /* 76800 pages, order 8 */
  const char *ras[] = {"readahead.read_ahead_kb=4096", "readahead.read_ahead_kb=128"};
  const uint64_t untouched[] = {65536, 65536}, order8[] = {63488, 0};
  for (size_t k = 0; k < G_N_ELEMENTS(ras); k++) {
    assert_int_equal(cold_run(ext4, ras[k], threads[0], on, none, NULL) - cold_run(ext4, ras[k], threads[0], off, none, NULL),
                     untouched[k] * 5000);
    assert_int_equal(cold_run(ext4, ras[k], threads[0], on, small, NULL) - cold_run(ext4, ras[k], threads[0], off, small, NULL),
                     order8[k] * 5000);
  }
  uint64_t warm = cold_run(ext4, ras[0], threads[1], off, small, NULL), cold = cold_run(ext4, ras[0], threads[1], on, small, NULL);
  assert_true((cold - warm) % 5000 == 0);
  assert_in_range((cold - warm) / 5000, 63488 / 2, 65536);
  /* btrfs: a fault of 200 us, beyond what the run's other work hides */
  const char *btrfs = "scenario.filesystem=btrfs", *ra = "readahead.read_ahead_kb=4096", *slow = "cost.touch_reported=200us";
  uint64_t warm_ns, cold_ns;
  assert_int_equal(cold_run(btrfs, ra, threads[0], slow, "memory.buddyinfo=", &cold_ns),
                   cold_run(btrfs, ra, threads[0], off, "memory.buddyinfo=", &warm_ns));
  uint64_t faults_ns = UINT64_C(65536) * 200000 / 2; /* over the two end-io workers (cpu.endio_workers) */
  assert_true(cold_ns >= faults_ns);
  assert_true(warm_ns < faults_ns / 2);
  cold_run(btrfs, ra, threads[0], slow, small, &cold_ns);
  cold_run(btrfs, ra, threads[0], off, small, &warm_ns);
  assert_int_equal(cold_ns, warm_ns);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(cold_memory_costs_one_touch_a_page),
    cmocka_unit_test(fmode_random_reads_the_request),
    cmocka_unit_test(randread_bios_as_the_capture),
    cmocka_unit_test(randread_fadvise0_as_the_capture),
    cmocka_unit_test(init_size_follows_get_init_ra_size),
    cmocka_unit_test(ra_order_gives_the_kernels_folios_for_one_reader),
    cmocka_unit_test(ra_order_carves_marks_and_falls_back),
    cmocka_unit_test(next_miss_walks_the_xarray),
    cmocka_unit_test(ext4_readers_insert_the_kernels_folios),
    cmocka_unit_test(next_size_ramps_up),
    cmocka_unit_test(single_reader_windows_become_bios),
    cmocka_unit_test(v618_one_reader_ramps_on_the_async_path_only),
    cmocka_unit_test(v618_threads_share_windows_without_lost_inserts),
    cmocka_unit_test(v618_insert_stored_after_its_allocation),
    cmocka_unit_test(v618_context_readahead_walks_the_cached_run_first),
    cmocka_unit_test(readahead_runs_when_the_reader_touches_each_marker),
    cmocka_unit_test(a_marker_set_by_another_thread_reads_ahead_from_the_first_hole),
    cmocka_unit_test(per_thread_files_each_start_with_the_initial_window),
    cmocka_unit_test(v35_a_sync_miss_inside_a_call_takes_context_readahead),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
