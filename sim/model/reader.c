/* reader.c - one fio reader thread: the read() loop and ->readpages.
 *
 * Each reader is a clone of one job (r->job, sim.c): its block size, rw
 * and random stream, engine, readahead window (its own open file's
 * fadvise), file, range [offset, offset + size) of it (read_first,
 * read_end; readahead stops at the file's end, file_end, which may lie
 * past the range in a file other jobs read further), loops, runtime and
 * time_based are its job's, so several fio job sections run at once;
 * with one job they are the scenario's.
 *
 * Under [scenario] kernel = v3.5 the read() loop mirrors
 * do_generic_file_read() (mm/filemap.c, v3.x), page by page:
 *   1. look the page up; on a miss run synchronous readahead and look again;
 *   2. still missing: the single-page fallback (no_cached_page: insert,
 *      ->readpage, submit at once; -EEXIST goes back to the lookup);
 *   3. PG_readahead set: clear it and run asynchronous readahead (the
 *      test here and the clear in page_cache_async_readahead() are two
 *      steps: with cost.ra_marker that long apart, see v6.18 below);
 *   4. not up to date: sleep on the page lock until its bio completes;
 *   5. copy it to the user buffer (cost.copy, or cost.copy_cold when its
 *      data has left the CPU cache since its end-io: endio.c).
 * ra->prev_pos, which ondemand_readahead() reads to tell a sequential miss
 * from one inside a stream (readahead.c), is written once per call, at its
 * end (do_generic_file_read()'s out: label; next_call() here): a miss at a
 * call's second or later page finds the call before's last page there.
 * Under v6.18 it mirrors filemap_read() (mm/filemap.c, 6.13 to 6.18), a
 * folio_batch at a time: filemap_get_pages() from pos to the call's end,
 *   1. filemap_get_read_batch(): the run of cached folios from pos, ending
 *      after the first one not up to date or marked PG_readahead, at a
 *      hole, at the call's end, or at PAGEVEC_SIZE (31) folios; none:
 *      synchronous readahead and gather again; still none: the
 *      single-folio path (filemap_create_folio(), here no_cached_page);
 *   2. the batch's last folio marked: clear it and run asynchronous
 *      readahead for it (filemap_readahead()), before any page of the
 *      batch is copied, and go on with the batch held (no new lookup);
 *      the kernel tests the mark in filemap_get_pages() and clears it in
 *      page_cache_async_ra(), not atomically: with cost.ra_marker the
 *      clear comes that long after the test, and a reader gathering the
 *      folio meanwhile launches the same window too;
 *   3. the last folio not up to date (locked under read I/O): with other
 *      folios in the batch, drop it (-EAGAIN, 6.18-rc1) and copy the
 *      others; alone, filemap_update_page() -> folio_put_wait_locked():
 *      sleep until end-io unlocks it, then gather again from it (retry:);
 *   4. copy the batch's folios in order (cost.copy each, cold as above),
 *      put them, and gather the next batch (or end the call).
 * So under v6.18 a marker is acted on when its folio is gathered, up to
 * 30 pages before the pages ahead of it are copied, and a reader sleeps
 * only on the next page it copies (6.13 slept on a batch's locked last
 * folio first and copied the earlier ones after the wake).  The gather is
 * free (an xarray walk under RCU, a few ns a folio: no cost of its own);
 * the batch is [pos, pos + batch_n), since it is a
 * run of consecutive pages, so it needs no storage.
 * Differs from the kernel: filemap_create_folio() waits for its folio and
 * returns it as a batch of one; here the fallback's ->readpage ends in a
 * gather, which sleeps on the folio and, woken, gathers again from it (the
 * same copies, but a batch may then run past that folio at once).
 * Under v6.18 with cpu.wake_exclusive (the kernel's 6.x wait is never
 * exclusive) the woken reader hands the folio on as v3.x does.
 *
 * And btrfs extent_readpages() for the list readahead hands over, under
 * the run's policy (see policy.h):
 *   immediate      INSERT p; on success READ p                (pool of 1)
 *   pool:N         INSERT into a pool of N; full pool -> READ each, in order
 *   pool-contig:N  as pool:N, and a failed INSERT flushes a non-empty pool
 *   window         INSERT all; a failed INSERT or a page present at lookup
 *                  ends the batch, which is READ and submitted on its own
 * READ p is __extent_read_full_page(): per-page setup, then
 * submit_extent_page() (bio.c) appends p to the thread's open bio or
 * submits it and opens a new one.  The open bio survives from one pool to
 * the next and is submitted when the call ends.  The call runs inside
 * blk_start_plug()/blk_finish_plug() (read_pages()).
 *
 * The thread is one explicit state machine (PCS_READER_STATES, reader.h):
 * reader_step() runs one state in one switch and names the next.  A state
 * that decides at once (lookups, gathers, policy bookkeeping: they cost
 * nothing) returns TRUE and the thread goes on at the same instant; a
 * state that costs CPU asks cpu.c for the time, names the state to go on
 * in when it has run, and returns FALSE, as do sleeping and finishing.
 * Every state that goes on at once moves the page forward or charges CPU
 * within a few states, so reader_run()'s loop is bounded (it asserts so).
 *   v3.5:  FIND_PAGE -> SYNC_RA / ASYNC_RA / SLEEPING / COPIED; after
 *          readahead, ->readpage or a wake FIND_PAGE_AGAIN (a miss:
 *          NO_CACHED_PAGE); PAGE_LOCKED for cpu.wake_exclusive.
 *   v6.18: GATHER -> SYNC_RA (then GATHER_AGAIN; a miss: NO_CACHED_PAGE)
 *          / BATCH_ASYNC_RA -> BATCH_READY -> BATCH_COPIED per page
 *          -> GATHER, or, a batch of one locked folio, BATCH_WAIT (woken:
 *          GATHER); BATCH_LOCKED for cpu.wake_exclusive.
 *   both:  RP_* for ->readpages, which ends (RP_END) in the state the
 *          readahead came from (rp.ret).
 *
 * A page's walk, as this file drives it: FIND_PAGE (v6.18: GATHER) misses
 * -> SYNC_RA (readahead.c lists it) -> RP_NEXT inserts it (pagecache.c,
 * then alloc.c for its frame) -> RP_WON pools it -> RP_FLUSH/RP_READ
 * (bio.c) -> RP_SUBMIT (bio.c -> blk.c -> device.c); end-io (endio.c)
 * unlocks it and wakes a SLEEPING reader, which goes on in
 * FIND_PAGE_AGAIN and copies it (COPIED); under v6.18 a batch ending in
 * a locked folio copies its earlier pages (BATCH_COPIED) without it, and
 * the next gather, holding that folio alone, sleeps in BATCH_WAIT and
 * gathers again from it when woken.  Each
 * step calls forward along that walk; only the wake comes back here, as
 * unlock_page() does in the kernel.
 *
 * Several files (workload.nrfiles, fio nrfiles): each reader has a set of
 * files, each with its own position (fio's last_pos) and file_ra_state
 * (its own struct file), kept in its slot (PcsReaderFiles) while the
 * reader reads another; file_first .. ra are the current file's, so the
 * read loop and readahead.c see one file as before.  At each call
 * boundary files_next() chooses the file as fio 3.33's __get_next_file()
 * (io_u.c) does: stay for file_service_type sequential or :N calls, else
 * get_next_file_rr() or get_next_file_rand(); a file not yet open is
 * opened when picked (a shared one's cache dropped: invalidate=1), or the
 * pick is fio's -EBUSY past openfiles and fio asks again at once; a file
 * at its end is closed and done.  One file (nrfiles 1) never enters it.
 *
 * Large folios (ext4 and xfs, readahead.max_folio_order > 0; v6.18 only).
 * The readahead list is page_cache_ra_order()'s folios (readahead.c):
 * each is looked up by its insert alone (rp_insert(), pcs_pc_insert_folio():
 * all or nothing), which costs cost.insert_alloc and cost.insert_page a
 * page beyond the first before the store; the first that fails hands the
 * rest of the window to do_page_cache_ra() at order 0
 * (pcs_ra_list_fallback()), read as btrfs's pages are.  The pooled folios
 * are read in order (cost.read_setup each: ext4_mpage_readpages()'s and
 * iomap_readahead()'s per-folio work) into the open bio, one bio_vec per
 * folio (pcs_bio_add_folio()), submitted when the next folio does not fit
 * or the batch ends.  The batch gathers folios (read_batch_folios()), the
 * marker is the last folio's, the async readahead is asked for its first
 * index, and a copy is the part of one folio in the call (folio_copy()).
 * btrfs keeps 4 KiB folios: none of this runs for it.
 *
 * Invalidation (invalidate_file()) keeps the folio each reader waits on or
 * holds: its pos and, under v6.18, every folio of its batch (a reference
 * each); a reader between two batches (or read() calls) holds none.
 *
 * How long a thread reads is fio's (next_call(), end_of_file()): the file
 * workload.loops times, each pass after the first on a reopened file whose
 * cache fio's invalidate=1 dropped; or, with workload.time_based, over and
 * over, dropping the cache at each wrap; and no read() call starts at or
 * after workload.runtime (the call under way completes, as fio's sync read
 * does).  In-flight readahead then still completes; the run ends when the
 * last thread is done.
 *
 * Copies folded into one event (fold_copies(), fold_landed()): a run of
 * copies of up-to-date pages charged as one step, when pcs_fold_allowed()
 * says a run may fold; fold.h says what is folded, where its event runs,
 * and why the output is the same.
 *
 * The hot helpers (find_page(), page_found(), reader_step()) are forced
 * inline into reader_run(): with them the per-page cost is that of the
 * former hand-written loops (cachegrind: same instruction count).  The
 * v6.18 states add no work to the v3.5 path's pages.
 */
#include "internal.h"
#include "fold.h"

#include <stdlib.h>
#include <string.h>

/* The most states a reader runs at one instant: a batch end can lead
 * through RP_SUBMIT, RP_NEXT, RP_END, FIND_PAGE_AGAIN, ASYNC_RA,
 * FIND_PAGE_AGAIN to a copy or a sleep (v6.18: RP_END, BATCH_READY to a
 * copy or a sleep, or BATCH_COPIED, GATHER, BATCH_ASYNC_RA, RP_NEXT). */
#define READER_MAX_INSTANT 16

/* The longest list one readahead can hand over: a window with the next
 * one appended (ra_submit()), or a read() call's worth without a window. */
static uint32_t list_cap(const PcsParams *p) {
  return (uint32_t)(2 * (pcs_params_window_bytes(p) / PCS_PAGE_SIZE) + p->workload_block_size / PCS_PAGE_SIZE + 1);
}

/* A pool never holds more than the policy pools, nor more than a list. */
static uint32_t pool_cap(const PcsParams *p, const PcsPolicy *policy) {
  return policy->pool ? MIN(policy->pool, list_cap(p)) : list_cap(p);
}

/* Blocks of a randread loop: fio's last_block(), io_size / bs. */
static uint64_t rand_blocks(const PcsParams *p) { return p->workload_file_size / p->workload_block_size; }

uint64_t pcs_reader_bytes(const PcsParams *p, const PcsPolicy *policy) {
  uint64_t map = pcs_params_randread(p) && !p->workload_norandommap ? (rand_blocks(p) + 63) / 64 * 8 : 0;
  uint64_t files = p->workload_nrfiles > 1 ? p->workload_nrfiles * sizeof(PcsReaderFile) : 0;
  return sizeof(PcsReader) + ((uint64_t)list_cap(p) + pool_cap(p, policy)) * sizeof(uint64_t) + map + files +
         pcs_engine_bytes(p);
}

/* R's file is file F of the run's: its pages, its end (a shared file's is
 * the largest offset + size of its jobs, a file of R's own its job's) and
 * the range R's job reads of it (fio's file_offset and io_size). */
static void file_range(const PcsSim *s, PcsReader *r, uint32_t f) {
  r->file_first = (uint64_t)f * s->file_pages;
  r->file_end = r->file_first + s->file_eof[f];
  r->read_first = r->file_first + r->job->offset_pages;
  r->read_end = r->read_first + r->job->size_pages;
}

/* R's file J of its set (workload.nrfiles > 1) becomes the one it reads:
 * file_first .. read_first are J's pages; the file it leaves keeps its
 * pos and readahead state in its slot. */
static void files_load(PcsSim *s, PcsReader *r, uint32_t j) {
  PcsReaderFiles *fs = &r->files;
  if (fs->cur != PCS_NONE) {
    fs->f[fs->cur].pos = r->pos;
    fs->f[fs->cur].ra = r->ra;
  }
  fs->cur = j;
  file_range(s, r, fs->f[j].file);
  r->pos = r->call_end = fs->f[j].pos;
  r->ra = fs->f[j].ra;
  r->batch_n = 0; /* v6.18: the batch of the call that ended is long copied */
}

/* R reads files of its own: no other reader caches their pages. */
static gboolean reader_owns_files(const PcsSim *s, const PcsReader *r) {
  return s->per_thread_files || r->job->file == PCS_JOB_OWN_FILE;
}

/* The K-th file of R's set among the run's files (sim.c jobs_layout()):
 * of its own, its job's own_first on, a set per clone; else its job's
 * named K-th. */
static uint32_t reader_file(const PcsSim *s, const PcsReader *r, uint32_t k) {
  if (reader_owns_files(s, r)) return r->job->own_first + (r->id - r->job->first) * r->job->nrfiles + k;
  return pcs_sim_job_file(r->job, k);
}

static void files_init(PcsSim *s, PcsReader *r) {
  PcsReaderFiles *fs = &r->files;
  fs->nfiles = r->job->nrfiles;
  fs->cur = PCS_NONE;
  fs->f = g_new0(PcsReaderFile, fs->nfiles);
  for (uint32_t j = 0; j < fs->nfiles; j++) {
    fs->f[j].file = reader_file(s, r, j);
    fs->f[j].pos = (uint64_t)fs->f[j].file * s->file_pages + r->job->offset_pages;
  }
  if (r->job->fservice == PCS_FSERVICE_RANDOM) { /* td->next_file_state: td_fill_rand_seeds_internal() */
    int mode;
    uint64_t randseed;
    pcs_params_random_seed(r->job->p, &mode, &randseed);
    if (mode == 0) randseed = PCS_FIORAND_DEFAULT_RANDSEED; /* randrepeat=1 without randseed: options.c's 0x89 */
    uint64_t seed = pcs_fiorand_stream_seed(randseed, r->id + 1, PCS_FIORAND_FILE_OFF);
    gboolean use64 = !strcmp(r->job->p->workload_random_generator, "tausworthe64");
    pcs_fiorand_init(&fs->rand, fs->nfiles, TRUE, use64, seed);
  }
  files_load(s, r, 0); /* where the reader stands before its first call (no file chosen yet) */
  fs->cur = PCS_NONE;
}

/* Where a read() call starts: do_generic_file_read()'s first lookup, or
 * filemap_read()'s first filemap_get_pages(). */
static inline PcsReaderState call_state(const PcsSim *s) {
  return s->kernel == PCS_KERNEL_V6_18 ? PCS_RD_GATHER : PCS_RD_FIND_PAGE;
}

/* Where a reader looks again after readahead or ->readpage: do_generic_file_read()'s
 * find_page: label, or filemap_get_pages()' second filemap_get_read_batch(). */
static inline PcsReaderState again_state(const PcsSim *s) {
  return s->kernel == PCS_KERNEL_V6_18 ? PCS_RD_GATHER_AGAIN : PCS_RD_FIND_PAGE_AGAIN;
}

void pcs_reader_init(PcsSim *s, PcsReader *r, uint32_t id, const PcsSimJob *job) {
  memset(r, 0, sizeof *r);
  r->id = id;
  r->job = job;
  r->state = call_state(s);
  /* its first file (with nrfiles > 1, files_init() below loads the one it picks) */
  file_range(s, r, reader_file(s, r, 0));
  r->pos = r->call_end = r->read_first;
  r->list.cap = list_cap(job->p);
  r->list.pages = g_new(uint64_t, r->list.cap);
  r->list.marker = UINT64_MAX;
  if (s->max_folio_order) r->list.orders = g_new0(uint8_t, r->list.cap);
  r->rp.pool_cap = pool_cap(job->p, &s->policy);
  r->rp.pool = g_new(uint64_t, r->rp.pool_cap);
  r->rp.open_bio = PCS_NONE;
  if (job->nrfiles > 1) files_init(s, r);
  pcs_engine_init(&r->eng, job->p);
  r->uring_next = r->read_first;
  if (r->eng.kind == PCS_ENGINE_URING) r->state = PCS_RD_URING;
  if (job->randread) { /* fio's thread_number: 1 for the first clone, on over every job's clones */
    int mode;
    uint64_t randseed;
    pcs_params_random_seed(job->p, &mode, &randseed);
    gboolean repeat = mode == 0 || mode == 3; /* fio, fio-noreseed: FIO_RANDSEED * thread_number */
    uint64_t seed = pcs_fiorand_block_seed(repeat ? PCS_FIORAND_REPEAT : PCS_FIORAND_RANDSEED, randseed, id + 1);
    gboolean use64 = !strcmp(job->p->workload_random_generator, "tausworthe64");
    pcs_fiorand_init(&r->rand, rand_blocks(job->p), job->p->workload_norandommap != 0, use64, seed);
  }
}

void pcs_reader_clear(PcsReader *r) {
  pcs_engine_clear(&r->eng);
  pcs_fiorand_clear(&r->rand);
  pcs_fiorand_clear(&r->files.rand);
  g_clear_pointer(&r->files.f, g_free);
  g_clear_pointer(&r->list.pages, g_free);
  g_clear_pointer(&r->list.orders, g_free);
  g_clear_pointer(&r->rp.pool, g_free);
}

/* R runs on a CPU now (a woken reader looks at the page cache only once
 * the scheduler has run it: try_to_wake_up() queues it, schedule() runs it). */
static inline gboolean on_cpu(const PcsSim *s, const PcsReader *r) { return s->cpu.tasks[r->id].on_cpu; }

/* R runs for BASE ns of CPU (jittered), then goes on in NEXT.  Returns
 * FALSE: R waits for its CPU step; TRUE: the step was the next event and
 * ran inline (pcs_cpu_run_last(): only in R's own step event). */
G_ALWAYS_INLINE static inline gboolean run_cpu(PcsSim *s, PcsReader *r, uint64_t base, PcsReaderState next) {
  r->state = next;
  return pcs_cpu_run_last(s, r->id, pcs_cpu_cost(&s->cpu, r->id, base));
}

/* ---- do_generic_file_read() ----------------------------------------------- */

/* read_pages(): start a ->readpages call under POLICY over R's list; R's
 * read() loop goes on in RET when it ends.  A readahead (PLUGGED) first
 * pays for its call (cost.ra_setup) and, when it sized its window from the
 * cache, for the walk (cost.ra_scan_page a page, readahead.c). */
static gboolean readpages_begin(PcsSim *s, PcsReader *r, const PcsPolicy *policy, gboolean plugged, PcsReaderState ret) {
  g_assert(r->rp.open_bio == PCS_NONE);
  r->rp.policy = *policy;
  r->rp.ret = ret;
  r->rp.pool_n = r->rp.pool_i = 0;
  if (plugged) pcs_blk_start_plug(s, r->id);
  r->state = PCS_RD_RP_NEXT;
  uint64_t setup = plugged ? s->p->cost_ra_setup + r->list.scanned * s->p->cost_ra_scan_page : 0;
  return setup ? run_cpu(s, r, setup, PCS_RD_RP_NEXT) : TRUE;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* fio's file_invalidate_cache() of R's file: posix_fadvise(POSIX_FADV_DONTNEED)
 * over the whole file, i.e. invalidate_mapping_pages().  A page a thread is
 * on (looking it up, holding its lock, copying it), holds in its v6.18
 * folio_batch (filemap_get_read_batch() took a reference on each) or
 * sleeps on has an extra reference or is locked, and stays.  Once per
 * pass, not per page: qsort() here is off the hot path. */
static void invalidate_file(PcsSim *s, PcsReader *r) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->nreaders; i++) {
    const PcsReader *t = &s->readers[i];
    if (t->state == PCS_RD_DONE || !t->job->started) continue; /* a job behind a barrier has not opened it */
    if (t->state == call_state(s) && t->batch_n == 0) continue;   /* between batches: it holds no folio */
    /* its batch, or pos: the folio it waits on or, in BATCH_LOCKED, holds locked */
    for (uint32_t k = 0; k < MAX(t->batch_n, 1u); k++) s->keep[n++] = t->pos + k;
    /* io_uring's parked reads: their folios stay (differs from the kernel,
     * where a parked read holds no reference and its retry would miss and
     * read again: only a job behind a barrier invalidates while io_uring
     * reads are parked, as io_uring refuses loops and time_based) */
    for (uint32_t k = 0; t->eng.kind == PCS_ENGINE_URING && k < t->eng.depth; k++)
      if (t->eng.reads[k].issued && !t->eng.reads[k].done) s->keep[n++] = t->eng.reads[k].pos;
  }
  for (uint32_t i = 0; i < s->pc.n_sleepers; i++) s->keep[n++] = s->pc.sleepers[i].page;
  qsort(s->keep, n, sizeof *s->keep, cmp_u64);
  pcs_pc_invalidate(&s->pc, r->read_first, r->read_end, s->keep, n); /* [file_offset, +io_size) */
}

/* A read fio reaps (engine.c): its latency from its queueing to now. */
typedef struct {
  PcsSim *s;
  uint32_t thread, job;
} Reaper;

static void read_reaped(void *ctx, PcsTime start) {
  Reaper *rp = ctx;
  PcsTime now = rp->s->evq.now;
  pcs_result_read_done(rp->s->res, rp->thread, rp->job, now > start ? now - start : 0);
}

/* R is done: its loops are read, or the runtime passed. */
static gboolean finish(PcsSim *s, PcsReader *r) {
  if (r->eng.kind == PCS_ENGINE_LIBAIO) {
    pcs_engine_libaio_drain(&r->eng);
    pcs_engine_libaio_flush(&r->eng, read_reaped, &(Reaper){s, r->id, (uint32_t)(r->job - s->jobs)});
  }
  r->state = PCS_RD_DONE;
  r->done_at = s->evq.now;
  s->readers_done++;
  pcs_trace(s, r->id + 1, PCS_TRACE_FINISH, r->pos, 0);
  pcs_cpu_release(s, r->id, PCS_TASK_EXIT);
  pcs_sim_reader_done(s, r); /* may start a job behind a barrier */
  return FALSE;
}

/* The end of R's file: the next pass, or done.  Mirrors fio:
 *   time_based: get_next_seq_offset() goes on at the file's start, on the
 *     same open file (its readahead state carries on), and
 *     loop_cache_invalidate() drops the file's cache;
 *   loops: thread_main() runs do_io() once per loop (keep_running()); each
 *     loop after the first starts with clear_io_state(), which closes the
 *     file, and do_io() opens it again: td_io_open_file() drops the file's
 *     cache (invalidate=1) and the new struct file starts a fresh
 *     file_ra_state.
 * Differs from fio: the close, open and fadvise calls cost no CPU time. */
static gboolean end_of_file(PcsSim *s, PcsReader *r) {
  if (!r->job->time_based && ++r->loop >= r->job->loops) return finish(s, r);
  if (!r->job->time_based) memset(&r->ra, 0, sizeof r->ra); /* file_ra_state_init() of the new open */
  if (r->job->randread) { /* fio_file_reset(): the map emptied; a new loop reseeds under randrepeat (clear_io_state()) */
    pcs_fiorand_reset(&r->rand, !r->job->time_based && r->job->rand_reseed);
    r->rand_calls = 0;
  }
  invalidate_file(s, r);
  r->pos = r->call_end = r->read_first;
  return TRUE;
}

/* The next read() call of a randread job: fio's get_next_rand_offset()
 * picks its block (fiorand.c); the loop ends when it has made a call per
 * block (fio stops at io_size bytes: with the random map, every block once). */
static gboolean next_rand_call(PcsSim *s, PcsReader *r) {
  if (r->rand_calls == r->rand.nblocks && !end_of_file(s, r)) return FALSE;
  uint64_t b = pcs_fiorand_next(&r->rand);
  g_assert(b < r->rand.nblocks); /* a map is full only after nblocks calls */
  r->rand_calls++;
  r->pos = r->read_first + b * r->job->block_pages;
  r->call_end = r->pos + r->job->block_pages;
  r->call_start = s->evq.now + s->p->cost_fio_user; /* fio stamps the call after its own user-space part */
  pcs_trace(s, r->id + 1, PCS_TRACE_SYSCALL, r->pos, r->job->block_pages);
  if (r->eng.kind == PCS_ENGINE_LIBAIO) {
    uint32_t calls = pcs_engine_libaio_read(&r->eng, r->call_start);
    return run_cpu(s, r, s->p->cost_fio_user + calls * s->p->cost_syscall, call_state(s));
  }
  return run_cpu(s, r, s->p->cost_fio_user + s->p->cost_syscall, call_state(s));
}

/* ---- several files: fio's __get_next_file() ------------------------------ */

#define FILES_BUSY (PCS_NONE - 1) /* fio's ERR_PTR(-EBUSY): a file to open, openfiles already open */

/* td_io_open_file() of file J: counted open; its readahead state is the
 * fresh one of its slot (files never reopen: loops are refused). */
static uint32_t files_open(PcsReader *r, uint32_t j) {
  r->files.f[j].open = TRUE;
  r->files.nopen++;
  return j;
}

/* get_next_file_rr(): from td->next_file, the first file not done; opened
 * if it is not, or -EBUSY when openfiles are open (next_file moved on). */
static uint32_t files_pick_rr(PcsReader *r) {
  PcsReaderFiles *fs = &r->files;
  for (uint32_t tries = 0; tries < fs->nfiles; tries++) {
    uint32_t j = fs->next;
    fs->next = fs->next + 1 == fs->nfiles ? 0 : fs->next + 1;
    if (fs->f[j].done) continue;
    if (fs->f[j].open) return j;
    return fs->nopen >= r->job->openfiles ? FILES_BUSY : files_open(r, j);
  }
  g_assert_not_reached(); /* __get_next_file() asks only while a file is not done */
}

/* get_next_file_rand(): draws until a file not done; opened as above. */
static uint32_t files_pick_rand(PcsReader *r) {
  PcsReaderFiles *fs = &r->files;
  for (;;) {
    uint32_t j = (uint32_t)pcs_fiorand_next(&fs->rand);
    if (fs->f[j].done) continue;
    if (fs->f[j].open) return j;
    return fs->nopen >= r->job->openfiles ? FILES_BUSY : files_open(r, j);
  }
}

/* fio's set_io_u_file() for R's next read() call: __get_next_file() keeps
 * the file (file_service_type sequential, or :N calls left) or picks one;
 * a pick that would open a file past openfiles is -EBUSY, and do_io()
 * asks again at once (free here: no syscall); a file at its end fails
 * fill_io_u() and is closed and done.  FALSE: every file is done. */
static gboolean files_next(PcsSim *s, PcsReader *r) {
  PcsReaderFiles *fs = &r->files;
  for (;;) {
    if (fs->ndone == fs->nfiles) return FALSE;
    uint32_t j = fs->cur;
    gboolean keep = j != PCS_NONE && fs->f[j].open;
    if (keep && r->job->fservice != PCS_FSERVICE_SEQUENTIAL) keep = fs->left > 0 && fs->left--;
    uint32_t opened = fs->nopen;
    if (!keep) {
      do j = r->job->fservice == PCS_FSERVICE_RANDOM ? files_pick_rand(r) : files_pick_rr(r);
      while (j == FILES_BUSY);
      fs->left = r->job->fservice_nr - 1;
    }
    if (j != fs->cur) files_load(s, r, j);
    /* the open's invalidate=1 (file_invalidate_cache()): another reader
     * may have cached pages of a shared file; a file of R's own has none */
    if (fs->nopen > opened && !reader_owns_files(s, r)) invalidate_file(s, r);
    if (r->pos < r->read_end) return TRUE;
    fs->f[j].open = FALSE; /* fill_io_u() failed: td_io_close_file(), fio_file_set_done() */
    fs->f[j].done = TRUE;
    fs->nopen--, fs->ndone++;
  }
}

/* The read() call ended at pos: enter the next one, or end the pass. */
static gboolean next_call(PcsSim *s, PcsReader *r) {
  uint64_t page = r->pos;
  if (page > r->read_first && r->eng.kind != PCS_ENGINE_LIBAIO) /* the call that ended (libaio: when reaped) */
    pcs_result_read_done(s->res, r->id, (uint32_t)(r->job - s->jobs), s->evq.now - r->call_start);
  if (r->eng.kind == PCS_ENGINE_LIBAIO) /* the reads this call's io_getevents() reaped */
    pcs_engine_libaio_flush(&r->eng, read_reaped, &(Reaper){s, r->id, (uint32_t)(r->job - s->jobs)});
  if (s->kernel == PCS_KERNEL_V6_18 && page > r->read_first) {
    r->ra.prev_end = page; /* filemap_read(): ra->prev_pos = last_pos */
    r->ra.prev_end_valid = TRUE;
  } else if (page > r->read_first) {
    /* v3.5 do_generic_file_read() keeps prev_index in a local, moved on
     * with each page it copies, and stores it once, at out:
     * (ra->prev_pos = prev_index << PAGE_CACHE_SHIFT | prev_offset): a
     * sync miss inside a call sees the call before's last page */
    r->ra.prev_index = page - 1;
    r->ra.prev_valid = TRUE;
  }
  if (r->job->stop_at && s->evq.now >= r->job->stop_at) return finish(s, r); /* fio do_io(): runtime_exceeded() */
  if (r->job->randread) return next_rand_call(s, r);
  if (G_UNLIKELY(r->files.nfiles > 1)) {
    if (!files_next(s, r)) return finish(s, r);
    page = r->pos;
  } else if (page == r->read_end) {
    if (!end_of_file(s, r)) return FALSE;
    page = r->pos;
  }
  /* call k = (page - read_first) * PAGE / bs covers bytes [k bs, (k+1) bs) after the offset and ends in
   * the page holding its last byte; with bs >= PAGE, k is exact (a page two calls share is copied once) */
  uint64_t bs = r->job->p->workload_block_size, end = ((page - r->read_first) * PCS_PAGE_SIZE / bs + 1) * bs;
  r->call_end = MIN(r->read_first + (end + PCS_PAGE_SIZE - 1) / PCS_PAGE_SIZE, r->read_end);
  r->call_start = s->evq.now + s->p->cost_fio_user; /* fio stamps the call after its own user-space part */
  pcs_trace(s, r->id + 1, PCS_TRACE_SYSCALL, page, r->call_end - page);
  if (r->eng.kind == PCS_ENGINE_LIBAIO) { /* io_submit() and io_getevents() around the read (engine.c) */
    uint32_t calls = pcs_engine_libaio_read(&r->eng, r->call_start);
    return run_cpu(s, r, s->p->cost_fio_user + calls * s->p->cost_syscall, call_state(s));
  }
  return run_cpu(s, r, s->p->cost_fio_user + s->p->cost_syscall, call_state(s));
}

/* The copy of pos with cost.copy_cold set: cost.copy_cold when its data
 * has left the CPU cache since end-io verified it (endio.c), else
 * cost.copy. */
static inline PcsTime copy_cost_cache(const PcsSim *s, const PcsReader *r) {
  return pcs_endio_fills_warm(&s->endio.fills, r->pos, s->p->cpu_cache_size) ? s->p->cost_copy : s->p->cost_copy_cold;
}

/* The copy of pos with cost.copy_cold set (copy_cost_cache()); then NEXT.
 * Out of line, so that the copy without it costs page_found() one branch
 * and nothing else. */
static G_GNUC_NO_INLINE gboolean copy_maybe_cold(PcsSim *s, PcsReader *r, PcsReaderState next) {
  return run_cpu(s, r, copy_cost_cache(s, r), next);
}

/* The copy of pos, whose frame is memory the host took back and which no
 * CPU touched yet (ext4 and xfs; btrfs's end-io touched its pages first):
 * cost.touch_reported on top of the copy. */
static G_GNUC_NO_INLINE gboolean copy_first_touch(PcsSim *s, PcsReader *r, PcsReaderState next) {
  pcs_pc_take_cold(&s->pc, r->pos, r->pos + 1);
  PcsTime copy = G_UNLIKELY(s->copy_cold) ? copy_cost_cache(s, r) : s->p->cost_copy;
  return run_cpu(s, r, copy + s->p->cost_touch_reported, next);
}

/* R sleeps in STATE on PAGE, locked under read I/O, until end-io unlocks
 * it: wait_on_page_locked() (v3.x), folio_put_wait_locked() (6.x). */
G_ALWAYS_INLINE static inline gboolean sleep_on(PcsSim *s, PcsReader *r, uint64_t page, PcsReaderState state) {
  r->state = state;
  pcs_pc_wait(&s->pc, r->id, page);
  s->res->waits++;
  pcs_trace(s, r->id + 1, PCS_TRACE_WAIT, page, 0);
  pcs_cpu_release(s, r->id, PCS_TASK_SLEEP);
  return FALSE;
}

/* ---- copies folded into one event (fold.h) -------------------------------- */

/* May the copy at pos + 1 + folded be folded in after the ones before? */
static inline gboolean fold_next(const PcsSim *s, const PcsReader *r) {
  uint64_t page = r->pos + 1 + r->folded;
  gboolean cold = G_UNLIKELY(s->cold_order) && page < s->pc.npages && pcs_pc_cold(&s->pc, page); /* copy_first_touch() */
  if (s->kernel == PCS_KERNEL_V6_18) return r->folded + 1 < r->batch_n && !cold; /* held, up to date */
  return page < r->call_end && pcs_pc_present(&s->pc, page) && pcs_pc_uptodate(&s->pc, page) &&
         !pcs_pc_readahead(&s->pc, page) && !cold;
}

/* R copies pos (cost.copy) and goes on in NEXT, as run_cpu() would, with
 * the copies after it that may be folded in charged as the same step
 * (s->fold: pcs_fold_allowed()). */
static gboolean fold_copies(PcsSim *s, PcsReader *r, PcsReaderState next) {
  PcsCpus *c = &s->cpu;
  PcsTask *task = &c->tasks[r->id];
  PcsTime now = s->evq.now;
  if (!pcs_cpu_keeps(c, task, now) || !fold_next(s, r) || now >= PCS_FOLD_BEFORE)
    return run_cpu(s, r, s->p->cost_copy, next); /* a step of its own: it may yield, or is the only copy */
  PcsTime end = now + pcs_cpu_cost(c, r->id, s->p->cost_copy), stamp = now, before = now;
  while (end > now && end < task->slice_end && end < PCS_FOLD_BEFORE && fold_next(s, r)) { /* a copy of 0 ns: no stamp after now */
    before = stamp;
    stamp = end; /* the step before the last ends here: the last one's push */
    end += pcs_cpu_cost(c, r->id, s->p->cost_copy);
    r->folded++;
  }
  r->state = next;
  if (!r->folded) return pcs_cpu_run_last(s, r->id, end - now);
  /* the number of the step before the last: the first step's, taken now
   * as its push would have, or, a folded step itself, stamped */
  uint64_t first = pcs_evq_take_seq(&s->evq);
  r->fold_pseq = r->folded == 1 ? first : (uint64_t)before << PCS_EVQ_SEQ_SHIFT;
  pcs_cpu_charge_kept(s, r->id, end - now);
  pcs_evq_push_stamped(&s->evq, end, stamp, r->fold_pseq, PCS_EV_TASK_STEP, r->id);
  return FALSE;
}

/* The event of R's folded copies is popped.  Events at this time that
 * were pushed before its last step would have been may still wait behind
 * it: it then goes back behind them (FALSE).  Else the copies have run and
 * count as events (the clock is already at the last one's end); where its
 * place is not known the run is redone unfolded (fold.h). */
static inline gboolean fold_landed(PcsSim *s, PcsReader *r) {
  if (G_UNLIKELY(!pcs_evq_is_next(&s->evq, s->evq.now) || s->evq.seq_overflow)) { /* another event at now */
    uint64_t after;
    PcsEvqPlace place = s->evq.seq_overflow ? PCS_EVQ_PLACE_UNKNOWN : pcs_evq_place_stamped(&s->evq, r->fold_pseq, &after);
    if (place == PCS_EVQ_PLACE_LATER) {
      pcs_evq_unpop(&s->evq, after + 1, r->fold_pseq, PCS_EV_TASK_STEP, r->id);
      return FALSE;
    }
    if (place == PCS_EVQ_PLACE_UNKNOWN) s->fold_tied = TRUE;
  }
  s->evq.popped += r->folded;
  s->res->folded_steps += r->folded;
  return TRUE;
}

/* The read loop found its folio marked PG_readahead: go on in ASYNC (which
 * clears the mark and reads ahead), cost.ra_marker later (the kernel's
 * test and clear are two steps; a reader testing in between reads ahead
 * too), or at once. */
G_ALWAYS_INLINE static inline gboolean marker_seen(PcsSim *s, PcsReader *r, PcsReaderState async) {
  if (s->p->cost_ra_marker) return run_cpu(s, r, s->p->cost_ra_marker, async);
  r->state = async;
  return TRUE;
}

/* A cached page at pos: marked, read ahead (ASYNC_RA clears the mark; every
 * reader that tests it before then reads ahead too); else sleep while it
 * is locked, or copy it. */
G_ALWAYS_INLINE static inline gboolean page_found(PcsSim *s, PcsReader *r) {
  uint64_t page = r->pos;
  if (pcs_pc_readahead(&s->pc, page)) return marker_seen(s, r, PCS_RD_ASYNC_RA);
  if (!pcs_pc_uptodate(&s->pc, page)) return sleep_on(s, r, page, PCS_RD_SLEEPING);
  if (G_UNLIKELY(pcs_pc_cold(&s->pc, page))) return copy_first_touch(s, r, PCS_RD_COPIED);
  if (G_UNLIKELY(s->copy_cold)) return copy_maybe_cold(s, r, PCS_RD_COPIED);
  if (s->fold) return fold_copies(s, r, PCS_RD_COPIED);
  return run_cpu(s, r, s->p->cost_copy, PCS_RD_COPIED);
}

/* find_get_page() of pos, and what follows a hit (page_found()) or a miss.
 * AGAIN: readahead already ran for pos, so a miss takes the single-page
 * path; else a call boundary comes first. */
G_ALWAYS_INLINE static inline gboolean find_page(PcsSim *s, PcsReader *r, gboolean again) {
  if (!again && r->pos == r->call_end) return next_call(s, r);
  if (pcs_pc_present(&s->pc, r->pos)) return page_found(s, r);
  r->state = again ? PCS_RD_NO_CACHED_PAGE : PCS_RD_SYNC_RA;
  return TRUE;
}

/* The copy of pos has run: account it and move pos on. */
G_ALWAYS_INLINE static inline void account_copy(PcsSim *s, PcsReader *r) {
  pcs_trace(s, r->id + 1, PCS_TRACE_COPY, r->pos, 0);
  r->pos++;
  s->res->thread_bytes[r->id] += r->pos < r->read_end ? PCS_PAGE_SIZE /* the last page may be partial */
                                                      : r->job->p->workload_file_size - (r->pos - 1 - r->read_first) * PCS_PAGE_SIZE;
}

/* The copy of pos has run (and the ones folded in after it): account it
 * and look up the next page at once. */
static gboolean copied(PcsSim *s, PcsReader *r) {
  if (G_UNLIKELY(r->folded)) {
    if (!fold_landed(s, r)) return FALSE;
    for (; r->folded; r->folded--) account_copy(s, r);
  }
  account_copy(s, r);
  return find_page(s, r, FALSE);
}

/* no_cached_page: ->readpage() of pos alone, as a call of one page, unplugged. */
static gboolean no_cached_page(PcsSim *s, PcsReader *r) {
  static const PcsPolicy single_page = {PCS_POLICY_IMMEDIATE, 1, "immediate"};
  s->res->fallback_reads++;
  r->list.pages[0] = r->pos;
  r->list.n = 1;
  r->list.next = 0;
  r->list.marker = UINT64_MAX;
  r->list.large = FALSE; /* filemap_create_folio(): the mapping's smallest folio */
  return readpages_begin(s, r, &single_page, FALSE, again_state(s));
}

/* ---- v6.18 filemap_read(): a folio_batch at a time ------------------------ */

/* filemap_get_read_batch() from pos up to the call's last page: the run
 * of present folios, ending after one not up to date or marked
 * PG_readahead, or when the batch is full (PCS_FOLIO_BATCH).  Returns how
 * many: the batch is [pos, pos + n), a reference held on each.  Free: a
 * few ns a folio (an xarray walk under RCU), no cost of its own. */
static uint32_t read_batch_folios(const PcsSim *s, const PcsReader *r);

static uint32_t read_batch(const PcsSim *s, const PcsReader *r) {
  if (s->max_folio_order) return read_batch_folios(s, r);
  uint64_t page = r->pos, end = MIN(r->call_end, r->pos + PCS_FOLIO_BATCH);
  while (page < end && pcs_pc_present(&s->pc, page)) {
    gboolean stop = !pcs_pc_uptodate(&s->pc, page) || pcs_pc_readahead(&s->pc, page);
    page++;
    if (stop) break;
  }
  return (uint32_t)(page - r->pos);
}

/* The same with large folios: PCS_FOLIO_BATCH folios, the first the one
 * holding pos; the batch ends at the call's end, which may cut its last
 * folio (only that part is copied). */
static uint32_t read_batch_folios(const PcsSim *s, const PcsReader *r) {
  const PcsPageCache *pc = &s->pc;
  uint64_t page = r->pos, end = r->call_end;
  for (uint32_t folios = 0; page < end && folios < PCS_FOLIO_BATCH && pcs_pc_present(pc, page); folios++) {
    uint64_t head = pcs_pc_folio_head(pc, page);
    gboolean stop = !pcs_pc_uptodate(pc, page) || pcs_pc_readahead(pc, head);
    page = MIN(head + pcs_pc_folio_pages(pc, head), end);
    if (stop) break;
  }
  return (uint32_t)(page - r->pos);
}

/* The first page of the batch's last folio (the folio itself when it
 * started before pos). */
static inline uint64_t batch_last_folio(const PcsSim *s, const PcsReader *r) {
  uint64_t last = r->pos + r->batch_n - 1;
  return s->max_folio_order ? MAX(pcs_pc_folio_head(&s->pc, last), r->pos) : last;
}

/* copy_folio_to_iter() of the part of pos's large folio in the batch: one
 * step of cost.copy a page (filemap_read() copies a folio at a time). */
static G_GNUC_NO_INLINE gboolean folio_copy(PcsSim *s, PcsReader *r) {
  uint64_t head = pcs_pc_folio_head(&s->pc, r->pos), pages = pcs_pc_folio_pages(&s->pc, head);
  uint64_t end = MIN(head + pages, r->pos + r->batch_n);
  r->copy_n = (uint32_t)(end - r->pos);
  PcsTime cost = r->copy_n * s->p->cost_copy;
  if (G_UNLIKELY(s->reported_pages) && pages >= s->reported_pages)
    cost += pcs_pc_touch(&s->pc, head, r->pos, end) * s->p->cost_touch_reported; /* first touches: host faults */
  else if (G_UNLIKELY(s->cold_order))
    cost += pcs_pc_take_cold(&s->pc, r->pos, end) * s->p->cost_touch_reported; /* a page of its own cold frame */
  return run_cpu(s, r, cost, PCS_RD_BATCH_COPIED);
}

/* copy_folio_to_iter() of pos, the batch's next folio, then BATCH_COPIED. */
static inline gboolean batch_copy(PcsSim *s, PcsReader *r) {
  if (G_UNLIKELY(s->max_folio_order)) return folio_copy(s, r);
  if (G_UNLIKELY(pcs_pc_cold(&s->pc, r->pos))) return copy_first_touch(s, r, PCS_RD_BATCH_COPIED);
  if (G_UNLIKELY(s->copy_cold)) return copy_maybe_cold(s, r, PCS_RD_BATCH_COPIED);
  if (s->fold) return fold_copies(s, r, PCS_RD_BATCH_COPIED);
  return run_cpu(s, r, s->p->cost_copy, PCS_RD_BATCH_COPIED);
}

/* The rest of filemap_get_pages() for the batch R holds: its last folio
 * up to date, copy the batch.  Not up to date (locked under read I/O):
 * with other folios in the batch, 6.18 drops it with -EAGAIN and copies
 * the others first ("mm/filemap: skip non-uptodate folio if there are
 * available folios", 6.18-rc1); the next gather finds it first, alone,
 * and filemap_update_page() runs: folio_trylock() fails and
 * folio_put_wait_locked() sleeps until end-io unlocks it. */
static gboolean uring_attempt_end(PcsSim *s, PcsReader *r, gboolean parked);

static gboolean batch_ready(PcsSim *s, PcsReader *r) {
  uint64_t last = r->pos + r->batch_n - 1;
  if (pcs_pc_uptodate(&s->pc, last)) return batch_copy(s, r);
  r->batch_n = (uint32_t)(batch_last_folio(s, r) - r->pos); /* the last folio dropped */
  if (r->batch_n) return batch_copy(s, r);
  if (r->eng.kind == PCS_ENGINE_URING) return uring_attempt_end(s, r, TRUE); /* IOCB_WAITQ: -EIOCBQUEUED */
  return sleep_on(s, r, last, PCS_RD_BATCH_WAIT);
}

/* filemap_get_pages() from pos (retry:).  AGAIN: after sync readahead or
 * ->read_folio, an empty batch takes the single-folio path; else a call
 * boundary comes first, and an empty batch reads ahead. */
static gboolean gather(PcsSim *s, PcsReader *r, gboolean again) {
  if (!again && r->pos == r->call_end)
    return r->eng.kind == PCS_ENGINE_URING ? uring_attempt_end(s, r, FALSE) : next_call(s, r);
  r->batch_n = read_batch(s, r);
  pcs_trace(s, r->id + 1, PCS_TRACE_GATHER, r->pos, r->batch_n);
  if (!r->batch_n) {
    r->state = again ? PCS_RD_NO_CACHED_PAGE : PCS_RD_SYNC_RA;
    return TRUE;
  }
  uint64_t last = r->pos + r->batch_n - 1;
  if (pcs_pc_readahead(&s->pc, s->max_folio_order ? pcs_pc_folio_head(&s->pc, last) : last))
    return marker_seen(s, r, PCS_RD_BATCH_ASYNC_RA);
  return batch_ready(s, r);
}

/* Woken from folio_put_wait_locked() (AOP_TRUNCATED_PAGE): the batch
 * held only the waited folio (batch_ready()), so gather again (retry:). */
static gboolean batch_woken(PcsSim *s, PcsReader *r) {
  g_assert(r->batch_n == 0);
  r->state = PCS_RD_GATHER;
  return gather(s, r, FALSE);
}

/* The copy of pos has run: account it; copy the batch's next folio, or
 * put the batch and gather the next (filemap_read()'s loop). */
static gboolean batch_copied(PcsSim *s, PcsReader *r) {
  if (G_UNLIKELY(s->max_folio_order)) { /* the folio's part (folio_copy()) */
    for (uint32_t k = 0; k < r->copy_n; k++) account_copy(s, r);
    r->batch_n -= r->copy_n;
    if (r->batch_n) return batch_copy(s, r);
    r->state = PCS_RD_GATHER;
    return gather(s, r, FALSE);
  }
  if (G_UNLIKELY(r->folded)) {
    if (!fold_landed(s, r)) return FALSE;
    for (; r->folded; r->folded--, r->batch_n--) account_copy(s, r);
  }
  g_assert(pcs_pc_uptodate(&s->pc, r->pos)); /* held: no invalidation dropped it (invalidate_file()) */
  account_copy(s, r);
  if (--r->batch_n) return batch_copy(s, r);
  r->state = PCS_RD_GATHER;
  return gather(s, r, FALSE);
}

/* ---- ->readpages: extent_readpages() --------------------------------------- */

/* Counts a folio of NPAGES pages THREAD inserted (inserts are folios, as
 * the tracepoint counts them); its first makes it the next in insert_order. */
static inline void inserted(PcsResult *res, uint32_t thread, uint64_t npages) {
  res->inserts++;
  res->inserted_pages += npages;
  if (G_UNLIKELY(res->thread_inserts[thread] == 0)) res->insert_order[res->insert_threads++] = thread;
  res->thread_inserts[thread] += npages;
}

/* The order of the list's entry I: its folio's in page_cache_ra_order()'s
 * loop (large folios), else 0. */
static inline uint32_t list_order(const PcsRaList *l, uint32_t i) { return G_UNLIKELY(l->large) ? l->orders[i] : 0; }

/* A large folio's insert won: its pages' owner, its frames (one block of
 * the buddy allocator, alloc.c), its trace line (order in the top byte). */
static G_GNUC_NO_INLINE void folio_won(PcsSim *s, PcsReader *r, uint64_t head, uint32_t order) {
  uint64_t n = UINT64_C(1) << order;
  pcs_pc_set_owner(&s->pc, head, r->id); /* the folio's pages are its first page's */
  uint64_t pfn = pcs_alloc_folio(&s->alloc, order);
  if (G_UNLIKELY(s->cold_order) && order < s->cold_order && pcs_alloc_folio_block(&s->alloc, order) >= s->cold_order)
    for (uint64_t i = 0; i < n; i++) pcs_pc_set_cold(&s->pc, head + i); /* carved from memory the host took back */
  inserted(s->res, r->id, n);
  pcs_trace(s, r->id + 1, PCS_TRACE_INSERT, head, pfn | (uint64_t)order << PCS_TRACE_ORDER_SHIFT);
}

/* add_to_page_cache_lru() of the next listed page: the insert race
 * (pagecache.c), then the frame the page got (alloc.c).  It runs when
 * cost.insert_alloc has: the kernel stores the page in the tree at the end
 * of the insert's work, so a page another thread stores meanwhile makes
 * this one -EEXIST (in 6.18, filemap_add_folio() after ractl_alloc_folio()). */
static gboolean rp_insert(PcsSim *s, PcsReader *r) {
  uint32_t at = r->list.next++, order = list_order(&r->list, at);
  uint64_t page = r->list.pages[at];
  PcsTime cpu;
  r->rp.page = page;
  int err = G_UNLIKELY(r->list.large) ? pcs_pc_insert_folio(&s->pc, page, UINT64_C(1) << order, s->evq.now, &cpu)
                                      : pcs_pc_insert(&s->pc, page, s->evq.now, &cpu);
  if (err == -EEXIST) {
    s->res->eexist++;
    if (!order) pcs_alloc_free(&s->alloc, r->id, pcs_cpu_of(&s->cpu, r->id)); /* its private page goes back */
    pcs_trace(s, r->id + 1, PCS_TRACE_EEXIST, page, 0);
    if (G_UNLIKELY(r->list.large)) pcs_ra_list_fallback(s, r->id, &r->ra, &r->list, at); /* the rest at order 0 */
    return run_cpu(s, r, cpu + s->p->cost_insert_lost, PCS_RD_RP_LOST);
  }
  if (page == r->list.marker) pcs_pc_set_readahead(&s->pc, page);
  if (G_UNLIKELY(order)) {
    folio_won(s, r, page, order);
  } else {
    pcs_pc_set_owner(&s->pc, page, r->id);
    uint64_t pfn;
    uint32_t cpu_id = pcs_cpu_of(&s->cpu, r->id);
    uint32_t contig = pcs_alloc_page(&s->alloc, r->id, cpu_id, page, &pfn);
    if (contig & PCS_ALLOC_AFTER_PREV) pcs_pc_set_frame_contig(&s->pc, page);
    if (G_UNLIKELY(contig & PCS_ALLOC_BEFORE_NEXT) && pcs_pc_present(&s->pc, page + 1))
      pcs_pc_set_frame_contig(&s->pc, page + 1); /* a hole filled right behind its neighbour */
    if (G_UNLIKELY(s->cold_order) && pcs_alloc_last_order(&s->alloc, cpu_id) >= s->cold_order)
      pcs_pc_set_cold(&s->pc, page); /* memory the host took back (alloc.c) */
    inserted(s->res, r->id, 1);
    pcs_trace(s, r->id + 1, PCS_TRACE_INSERT, page, pfn);
  }
  PcsTime drain = pcs_cpu_lru_add(&s->cpu, r->id, s->p->cost_lru_drain); /* folio_add_lru() after the store */
  return run_cpu(s, r, cpu + s->p->cost_insert_won - s->p->cost_insert_alloc + drain, PCS_RD_RP_WON);
}

/* The page was looked up and is not in the cache: allocate (cost.insert_alloc),
 * then insert it (RP_INSERT); without an allocation cost, insert at once. */
static gboolean rp_alloc(PcsSim *s, PcsReader *r) {
  uint64_t extra = (((uint64_t)1 << list_order(&r->list, r->list.next)) - 1) * s->p->cost_insert_page; /* large folios */
  if (s->p->cost_insert_alloc || extra) return run_cpu(s, r, s->p->cost_insert_alloc + extra, PCS_RD_RP_INSERT);
  return rp_insert(s, r);
}

static gboolean rp_flush(PcsSim *s, PcsReader *r);

/* A state that only decides which state follows goes there at once, with
 * a direct call instead of a return to reader_run()'s dispatch: the same
 * steps in the same order, one indirect jump fewer per page. */
#define GO(s, r, next, fn) ((r)->state = (next), fn((s), (r)))

/* The page after the last pooled folio. */
static inline uint64_t pool_end(const PcsSim *s, const PcsReadpages *rp) {
  uint64_t last = rp->pool[rp->pool_n - 1];
  return last + (s->max_folio_order ? pcs_pc_folio_pages(&s->pc, last) : 1);
}

/* The next page of the list, or what ends the pool or the call.  In
 * page_cache_ra_order()'s loop (list->large) nothing is looked up first:
 * the insert itself fails (rp_insert()). */
static gboolean rp_next(PcsSim *s, PcsReader *r) {
  PcsReadpages *rp = &r->rp;
  PcsRaList *list = &r->list;
  if (list->next < list->n) {
    uint64_t page = list->pages[list->next];
    if (s->kernel == PCS_KERNEL_V6_18 && !list->large && pcs_pc_present(&s->pc, page)) {
      /* page_cache_ra_unbounded(): a folio already present ends the batch
       * (read_pages()); present folios are skipped at the cost of a lookup */
      if (rp->pool_n) return GO(s, r, PCS_RD_RP_FLUSH, rp_flush);
      while (list->next < list->n && pcs_pc_present(&s->pc, list->pages[list->next])) list->next++;
      r->state = PCS_RD_RP_NEXT;
      return TRUE;
    }
    gboolean gap = rp->pool_n && page != pool_end(s, rp);
    if (!gap || rp->policy.kind != PCS_POLICY_WINDOW) return rp_alloc(s, r);
    return GO(s, r, PCS_RD_RP_FLUSH, rp_flush); /* window: a page present at lookup splits the batch */
  }
  if (rp->pool_n) return GO(s, r, PCS_RD_RP_FLUSH, rp_flush); /* the list ended: read what is pooled */
  if (rp->open_bio != PCS_NONE) return run_cpu(s, r, s->p->cost_bio_submit, PCS_RD_RP_SUBMIT);
  r->state = PCS_RD_RP_END;
  return TRUE;
}

static gboolean rp_won(PcsSim *s, PcsReader *r) {
  PcsReadpages *rp = &r->rp;
  g_assert(rp->pool_n < rp->pool_cap);
  rp->pool[rp->pool_n++] = rp->page;
  if (rp->policy.pool && rp->pool_n >= rp->policy.pool) return GO(s, r, PCS_RD_RP_FLUSH, rp_flush);
  return GO(s, r, PCS_RD_RP_NEXT, rp_next);
}

static gboolean rp_lost(PcsSim *s, PcsReader *r) {
  PcsPolicyKind kind = r->rp.policy.kind;
  gboolean flush = r->rp.pool_n && (kind == PCS_POLICY_POOL_CONTIG || kind == PCS_POLICY_WINDOW);
  return flush ? GO(s, r, PCS_RD_RP_FLUSH, rp_flush) : GO(s, r, PCS_RD_RP_NEXT, rp_next);
}

/* __extent_read_full_page() of the next pooled page; an emptied pool goes
 * back to the list (window: after submitting the batch as its own bio). */
static gboolean rp_flush(PcsSim *s, PcsReader *r) {
  PcsReadpages *rp = &r->rp;
  if (rp->pool_i < rp->pool_n) {
    rp->page = rp->pool[rp->pool_i++];
    return run_cpu(s, r, s->p->cost_read_setup + pcs_iotree_read_page(&s->iotree, s->evq.now), PCS_RD_RP_READ);
  }
  rp->pool_n = rp->pool_i = 0;
  if (rp->policy.kind == PCS_POLICY_WINDOW && rp->open_bio != PCS_NONE)
    return run_cpu(s, r, s->p->cost_bio_submit, PCS_RD_RP_SUBMIT); /* each batch its own bio */
  return GO(s, r, PCS_RD_RP_NEXT, rp_next);
}

static gboolean rp_read(PcsSim *s, PcsReader *r) {
  pcs_trace(s, r->id + 1, PCS_TRACE_READ, r->rp.page, 0);
  gboolean added = s->max_folio_order ? pcs_bio_add_folio(s, &r->rp.open_bio, r->id, r->rp.page)
                                      : pcs_bio_add_page(s, &r->rp.open_bio, r->id, r->rp.page);
  if (added) return GO(s, r, PCS_RD_RP_FLUSH, rp_flush);
  /* not contiguous or full: submit, then open a bio with this page */
  return run_cpu(s, r, s->p->cost_bio_submit, PCS_RD_RP_SUBMIT_OPEN);
}

/* btrfs_lookup_bio_sums() before the open bio is submitted (csum.c): TRUE
 * when its checksum leaves are in memory; FALSE: R sleeps on a leaf
 * (RP_CSUM_WAIT, back in its submit state when woken) or waits for a
 * request for the leaf's read (its submit state, retried when woken). */
static gboolean csum_ready(PcsSim *s, PcsReader *r) {
  if (!s->csum.span) return TRUE;
  const PcsBio *b = pcs_bio_at(&s->bio, r->rp.open_bio);
  uint64_t file = r->file_first / s->file_pages; /* the run's files, one after the other */
  PcsCsumLookup got = pcs_csum_lookup(s, r->id, file, b->first - r->file_first, b->first + b->npages - 1 - r->file_first);
  if (got == PCS_CSUM_SLEEP) {
    r->rp.csum_ret = r->state;
    r->state = PCS_RD_RP_CSUM_WAIT;
  }
  return got == PCS_CSUM_READY;
}

/* v6.18 read_pages(): each batch runs under its own plug, flushed when its
 * bio is submitted (blk_finish_plug(): the requests go to the driver, whose
 * worker is woken; cost.plug_flush), and the next batch plugs anew. */
static gboolean batch_unplug(PcsSim *s, PcsReader *r) {
  pcs_blk_finish_plug(s, r->id);
  pcs_blk_start_plug(s, r->id);
  return run_cpu(s, r, s->p->cost_plug_flush, PCS_RD_RP_NEXT);
}

/* ---- io_uring: fio's loop around the reads it keeps in flight (engine.c) --- */

/* A parked read may go on: its folio is up to date (end-io unlocked it,
 * io_async_buf_func() queued the retry as task work). */
static gboolean uring_uptodate(const void *ctx, uint64_t page) {
  const PcsSim *s = ctx;
  return pcs_pc_present(&s->pc, page) && pcs_pc_uptodate(&s->pc, page);
}

/* io_read() of the read at I, in io_uring_enter(): first submitted, or a
 * retry in task work; filemap_read() from its pos (GATHER). */
static gboolean uring_attempt(PcsSim *s, PcsReader *r, uint32_t i) {
  PcsEngine *e = &r->eng;
  PcsUringRead *rd = &e->reads[i];
  rd->issued = TRUE;
  e->cur = i;
  e->attempt_pos = r->pos = rd->pos;
  r->call_end = rd->end;
  r->state = PCS_RD_GATHER;
  return TRUE;
}

/* The attempt ends: the read copied to its end (its CQE posted) or PARKED
 * on the locked folio at pos.  filemap_read() sets ra->prev_pos at its
 * end, moved only by a copy. */
static gboolean uring_attempt_end(PcsSim *s, PcsReader *r, gboolean parked) {
  PcsEngine *e = &r->eng;
  PcsUringRead *rd = &e->reads[e->cur];
  if (r->pos > e->attempt_pos) {
    r->ra.prev_end = r->pos;
    r->ra.prev_end_valid = TRUE;
  }
  rd->pos = r->pos;
  if (!parked) {
    rd->done = TRUE;
    e->cqes++;
  }
  r->state = PCS_RD_URING;
  return TRUE;
}

/* fio queues its next read (cost.fio_user), committed at iodepth_batch
 * (io_uring_enter(): cost.syscall); a full queue starts the reap, which
 * commits what is queued first (td_io_getevents()).  All queued: commit
 * the rest, reap every read (cleanup_pending_aio()), then finish. */
static gboolean uring_more(const PcsSim *s, const PcsReader *r) {
  if (r->job->stop_at && s->evq.now >= r->job->stop_at) return FALSE; /* do_io(): runtime_exceeded() */
  return r->job->randread ? r->rand_calls < r->rand.nblocks : r->uring_next < r->read_end;
}

static gboolean uring_queue(PcsSim *s, PcsReader *r) {
  PcsEngine *e = &r->eng;
  if (uring_more(s, r)) {
    uint64_t pos = r->uring_next;
    if (r->job->randread) { /* fio's get_next_rand_offset() (fiorand.c), one block per read */
      r->rand_calls++;
      pos = r->read_first + pcs_fiorand_next(&r->rand) * r->job->block_pages;
    }
    uint64_t end = MIN(pos + r->job->block_pages, r->read_end);
    r->uring_next = end;
    pcs_trace(s, r->id + 1, PCS_TRACE_SYSCALL, pos, end - pos);
    gboolean commit = pcs_engine_uring_queue(e, pos, end, s->evq.now + s->p->cost_fio_user);
    if (e->depth >= e->iodepth) {
      pcs_engine_uring_reap_begin(e, FALSE);
      if (e->queued) commit = TRUE, e->queued = 0;
    }
    e->in_enter = commit;
    return run_cpu(s, r, s->p->cost_fio_user + (commit ? s->p->cost_syscall : 0), PCS_RD_URING);
  }
  if (e->queued) {
    e->queued = 0;
    e->in_enter = TRUE;
    return run_cpu(s, r, s->p->cost_syscall, PCS_RD_URING);
  }
  if (e->depth) {
    pcs_engine_uring_reap_begin(e, TRUE);
    return TRUE;
  }
  return finish(s, r);
}

/* One decision of fio's loop (URING): in io_uring_enter(), submissions
 * and retries first, then, waiting for a completion, sleep on the oldest
 * parked read's folio; reaping, take the CQ ring's completions, entering
 * the kernel to wait while too few; else queue. */
static gboolean uring_step(PcsSim *s, PcsReader *r) {
  PcsEngine *e = &r->eng;
  if (e->in_enter) {
    uint32_t i = pcs_engine_uring_next(e, uring_uptodate, s);
    if (i != UINT32_MAX) return uring_attempt(s, r, i);
    if (e->waiting && !e->cqes) {
      g_assert(e->depth && !e->reads[0].done); /* no CQE: every read is parked, the first the oldest */
      e->wait_page = e->reads[0].pos;
      return sleep_on(s, r, e->wait_page, PCS_RD_URING_WAIT);
    }
    e->in_enter = e->waiting = FALSE;
  }
  if (e->reaping) {
    pcs_engine_uring_reap(e, read_reaped, &(Reaper){s, r->id, (uint32_t)(r->job - s->jobs)});
    if (e->reaped < e->reap_min) { /* io_uring_enter(0, min, GETEVENTS) */
      e->in_enter = e->waiting = TRUE;
      return run_cpu(s, r, s->p->cost_syscall, PCS_RD_URING);
    }
    e->reaping = FALSE;
    if (e->full && e->depth > e->low) pcs_engine_uring_reap_begin(e, FALSE); /* wait_for_completions()'s loop */
    return TRUE;
  }
  return uring_queue(s, r);
}

/* ---- the state machine ---------------------------------------------------- */

/* Runs R's state once.  TRUE: R goes on at this instant; FALSE: R waits
 * (for its CPU step, for a page, or for nothing when done). */
G_ALWAYS_INLINE static inline gboolean reader_step(PcsSim *s, PcsReader *r) {
  switch (r->state) {
  case PCS_RD_FIND_PAGE:
    return find_page(s, r, FALSE);
  case PCS_RD_SYNC_RA:
    if (pcs_ra_sync(s, r->id, &r->ra, &r->list, r->pos, r->call_end - r->pos))
      return readpages_begin(s, r, &s->policy, TRUE, again_state(s));
    r->state = again_state(s);
    return TRUE;
  case PCS_RD_FIND_PAGE_AGAIN:
    g_assert(r->pos < r->call_end);
    return find_page(s, r, TRUE);
  case PCS_RD_NO_CACHED_PAGE:
    return no_cached_page(s, r);
  case PCS_RD_ASYNC_RA:
    pcs_pc_clear_readahead(&s->pc, r->pos); /* ClearPageReadahead() */
    if (pcs_ra_async(s, r->id, &r->ra, &r->list, r->pos, r->call_end - r->pos))
      return readpages_begin(s, r, &s->policy, TRUE, PCS_RD_FIND_PAGE_AGAIN);
    r->state = PCS_RD_FIND_PAGE_AGAIN;
    return TRUE;
  case PCS_RD_SLEEPING: /* woken: by pcs_reader_wake(), or at its cpu.wake_latency event */
    if (s->p->cpu_wake_exclusive) return run_cpu(s, r, s->p->cost_wakeup, PCS_RD_PAGE_LOCKED);
    if (!on_cpu(s, r)) return run_cpu(s, r, 0, PCS_RD_SLEEPING); /* scheduled first, then it looks */
    r->state = PCS_RD_FIND_PAGE_AGAIN;
    return TRUE;
  case PCS_RD_PAGE_LOCKED: /* v3.x: up to date, unlock_page() hands the lock on */
    r->state = PCS_RD_FIND_PAGE_AGAIN;
    if (pcs_pc_wake_next(&s->pc, r->pos)) pcs_reader_wake(s, &s->readers[s->pc.woken[0]], r->id);
    return TRUE;
  case PCS_RD_COPIED:
    return copied(s, r);
  case PCS_RD_GATHER:
    return gather(s, r, FALSE);
  case PCS_RD_GATHER_AGAIN:
    g_assert(r->pos < r->call_end);
    return gather(s, r, TRUE);
  case PCS_RD_BATCH_ASYNC_RA: { /* the marker on the batch's last folio; req from it to the call's end */
    uint64_t last = r->pos + r->batch_n - 1;
    if (s->max_folio_order) last = pcs_pc_folio_head(&s->pc, last); /* folio->index */
    pcs_pc_clear_readahead(&s->pc, last); /* folio_clear_readahead() */
    if (pcs_ra_async(s, r->id, &r->ra, &r->list, last, r->call_end - last))
      return readpages_begin(s, r, &s->policy, TRUE, PCS_RD_BATCH_READY);
    return batch_ready(s, r);
  }
  case PCS_RD_BATCH_READY:
    return batch_ready(s, r);
  case PCS_RD_BATCH_WAIT: /* woken: by pcs_reader_wake(), or at its cpu.wake_latency event */
    if (s->p->cpu_wake_exclusive) return run_cpu(s, r, s->p->cost_wakeup, PCS_RD_BATCH_LOCKED);
    if (!on_cpu(s, r)) return run_cpu(s, r, 0, PCS_RD_BATCH_WAIT); /* scheduled first, then it looks */
    return batch_woken(s, r);
  case PCS_RD_BATCH_LOCKED: /* the waited folio is pos (a batch of it alone: batch_n is 0) */
    if (pcs_pc_wake_next(&s->pc, r->pos)) pcs_reader_wake(s, &s->readers[s->pc.woken[0]], r->id);
    return batch_woken(s, r);
  case PCS_RD_BATCH_COPIED:
    return batch_copied(s, r);
  case PCS_RD_RP_NEXT:
    return rp_next(s, r);
  case PCS_RD_RP_INSERT:
    return rp_insert(s, r);
  case PCS_RD_RP_WON:
    return rp_won(s, r);
  case PCS_RD_RP_LOST:
    return rp_lost(s, r);
  case PCS_RD_RP_FLUSH:
    return rp_flush(s, r);
  case PCS_RD_RP_READ:
    return rp_read(s, r);
  case PCS_RD_RP_SUBMIT_OPEN:
    if (!csum_ready(s, r)) return FALSE;
    if (!pcs_bio_submit(s, &r->rp.open_bio)) return FALSE; /* v3.5 get_request_wait(): retried when woken */
    if (s->max_folio_order) pcs_bio_add_folio(s, &r->rp.open_bio, r->id, r->rp.page); /* opens it */
    else pcs_bio_open(s, &r->rp.open_bio, r->id, r->rp.page);
    r->state = PCS_RD_RP_FLUSH;
    return TRUE;
  case PCS_RD_RP_SUBMIT:
    if (!csum_ready(s, r)) return FALSE;
    if (!pcs_bio_submit(s, &r->rp.open_bio)) return FALSE; /* v3.5 get_request_wait(): retried when woken */
    if (s->kernel == PCS_KERNEL_V6_18) return batch_unplug(s, r);
    r->state = PCS_RD_RP_NEXT;
    return TRUE;
  case PCS_RD_RP_CSUM_WAIT: /* woken: the leaf is in (csum.c) */
    if (!on_cpu(s, r)) return run_cpu(s, r, 0, PCS_RD_RP_CSUM_WAIT); /* scheduled first, then it looks */
    r->state = r->rp.csum_ret;
    return TRUE;
  case PCS_RD_RP_END:
    pcs_blk_finish_plug(s, r->id);
    r->state = r->rp.ret;
    return TRUE;
  case PCS_RD_URING:
    return uring_step(s, r);
  case PCS_RD_URING_WAIT: /* woken: by pcs_reader_wake(), or at its cpu.wake_latency event */
    if (!on_cpu(s, r)) return run_cpu(s, r, 0, PCS_RD_URING_WAIT); /* scheduled first, then it looks */
    if (s->p->cpu_wake_exclusive && pcs_pc_wake_next(&s->pc, r->eng.wait_page)) /* hand the folio on */
      pcs_reader_wake(s, &s->readers[s->pc.woken[0]], r->id);
    r->state = PCS_RD_URING;
    return TRUE;
  case PCS_RD_DONE: /* no event reaches a finished reader */
  default:
    g_assert_not_reached();
  }
  return FALSE;
}

/* R runs states until it waits; READER_MAX_INSTANT catches a state
 * machine that would spin at one instant (a step dispatched inline starts
 * a new one). */
G_ALWAYS_INLINE static inline void reader_run_inline(PcsSim *s, PcsReader *r) {
  uint64_t event = s->evq.popped;
  for (uint32_t n = 0; reader_step(s, r); n++) {
    if (s->evq.popped != event) event = s->evq.popped, n = 0;
    g_assert(n < READER_MAX_INSTANT + 4 * r->eng.iodepth); /* io_uring: an attempt that parks at once is free */
  }
}

/* The same, out of line: for the start and a wake-up (pcs_reader_steps()
 * has it inline, in its own loop). */
static void reader_run(PcsSim *s, PcsReader *r) { reader_run_inline(s, r); }

void pcs_reader_start(PcsSim *s, PcsReader *r) {
  g_assert((r->state == call_state(s) || r->state == PCS_RD_URING) && r->pos == r->read_first);
  /* a job started by a barrier opens the shared file then: fio's invalidate=1
   * drops what the jobs before it cached (at time 0 nothing is cached) */
  if (s->evq.now > 0 && !reader_owns_files(s, r) && r->job->nrfiles == 1) invalidate_file(s, r);
  reader_run(s, r);
}

/* R's own step event: R alone may go on inline (pcs_cpu_run_last()); a
 * reader it wakes, or one woken at another task's event, may not.  The
 * events are popped in the loop's order; only the return to the loop
 * and its dispatch are saved, for a run of reader steps. */
gboolean pcs_reader_steps(PcsSim *s, PcsEvent *ev) {
  do {
    PcsReader *r = &s->readers[ev->arg];
    s->cpu.inline_task = r->id;
    reader_run_inline(s, r);
    s->cpu.inline_task = PCS_NONE;
    if (!pcs_evq_pop(&s->evq, ev)) return FALSE;
  } while (ev->kind == PCS_EV_TASK_STEP && ev->arg < s->nreaders && !pcs_evq_poll_due(&s->evq));
  return TRUE;
}

/* R's page is unlocked: it runs at once, or with cpu.wake_latency (onto
 * WAKER's own CPU: cpu.wake_latency_local, when set; with cpu.idle_wake_*
 * only when its CPU is busy, cpu.c charges the idle exit) at the end of its
 * wake-up delay (an event of its own while off CPU, as a step
 * would be: pcs_reader_steps() runs its SLEEPING state then). */
void pcs_reader_wake(PcsSim *s, PcsReader *r, uint32_t waker) {
  g_assert(r->state == PCS_RD_SLEEPING || r->state == PCS_RD_BATCH_WAIT || r->state == PCS_RD_RP_CSUM_WAIT ||
           r->state == PCS_RD_URING_WAIT);
  if (G_UNLIKELY(s->opt.trace)) pcs_trace(s, waker + 1, PCS_TRACE_WAKE, r->id + 1, pcs_cpu_wake_cpu(&s->cpu, r->id));
  if (s->cpu.wake_latency && !pcs_cpu_wakes_onto_idle(&s->cpu, r->id)) { /* onto an idle CPU: cpu.idle_wake_* instead (cpu.c) */
    s->cpu.tasks[r->id].woke_busy = s->cpu.idle_since != NULL;
    gboolean local = pcs_cpu_wake_cpu(&s->cpu, r->id) == pcs_cpu_of(&s->cpu, waker); /* onto the waker's own CPU */
    pcs_evq_push(&s->evq, s->evq.now + pcs_cpu_wake_latency(&s->cpu, local), PCS_EV_TASK_STEP, r->id);
    return;
  }
  reader_run(s, r);
}
