/* endio.c - btrfs end-io workers completing read bios (and ext4's and
 * xfs's completion in the bio's own end-io).
 *
 * Mirrors end_workqueue_bio() queueing a completed bio to the endio_workers
 * pool and end_bio_extent_readpage() running there: one work item per bio
 * (cost.bio_complete), then per page checksum verify, extent unlock,
 * SetPageUptodate and unlock_page (cost.page_complete), which wakes the
 * readers sleeping on those pages: pagecache.c takes them off its wait
 * queue in sleep order, and each goes on in reader.c, where its page's
 * walk through the model began.  cpu.endio_workers workers
 * take bios in completion order from one FIFO; they compete with the readers
 * for the CPUs.  Pages turn up to date when the worker has finished the
 * whole bio.  With cpu.endio_idle_thresh the pool is btrfs 3.x's instead
 * (async-thread.c, "btrfs 3.x's pool" below): workers started on demand up
 * to cpu.endio_workers, each bio handed to one worker's own list.
 *
 * ext4 and xfs (scenario.filesystem, s->endio_inline).  Their read bios
 * complete in the bio's own bi_end_io (mpage_read_end_io(),
 * iomap_read_end_io()): no workqueue, no checksum, so pcs_endio_queue()
 * ends the read of the bio's folios at once (endio_inline()), charging no
 * CPU (interrupt and softirq time is not modelled); a split bio does so
 * once its last part is in (bio.chained = 1, their profile's).  The
 * workers exist and idle.
 *
 * Split bios (bio.chained).  In 6.x btrfs submits a whole readahead batch
 * as one bio (up to 8 MiB) and the block layer splits it at the queue's
 * limits (bio_split_to_limits(), blk.c), chaining each part to the rest
 * (bio_chain()): the bio's own end_io, btrfs_simple_end_io(), runs once,
 * when the last part has completed, and queues ONE end-io work, which
 * verifies every sector (btrfs_check_read_bio()) and then unlocks all the
 * folios (end_bbio_data_read()).  With bio.chained = 1 the parts wait in a
 * table until the last completes, which then stands for the whole bio
 * (cost.bio_complete once, cost.page_complete per page).  With 0 (the
 * default, pcsim before) each part goes to end-io on its own and its pages
 * unlock when it is done.
 *
 * Checksum leaves (bio.csum_leaf_size, csum.c).  The read of a checksum
 * tree leaf completes on btrfs's other read workqueue, endio_meta_workers
 * (btrfs_end_io_wq()): one more worker after the data workers, with a
 * queue of its own, so a leaf's completion never waits behind data bios
 * in the queue (it competes with them, and the readers, for a CPU).  It
 * costs cost.meta_complete (end_bbio_meta_read(): checksum and validate
 * the tree block), then wakes the leaf's sleepers.
 *
 * Memory the host took back (memory.reported_order, cost.touch_reported).
 * A page whose frame came from a free block the host took back (alloc.c,
 * pagecache.h's cold bit) faults on the host at its first CPU touch.  In
 * btrfs that is the checksum's read of the page here
 * (btrfs_check_read_bio()), so the worker pays cost.touch_reported per
 * such page of the bio before it unlocks them; the reader's copy then finds
 * the page touched.  ext4 and xfs have no such read: their reader's copy
 * pays it (reader.c).
 *
 * The cache-cold copy (cost.copy_cold, cpu.cache_size).  btrfs's end-io
 * work (btrfs_end_bio_work() -> btrfs_check_read_bio()) reads every sector
 * of the bio to verify its checksum (btrfs_data_csum_ok()) before
 * end_bbio_data_read() unlocks the pages, so the data of a page just
 * completed sits in a CPU cache.  A reader that copies the page to user
 * space soon after (copy_page_to_iter()) reads it from there; one that
 * copies it after many more pages were verified reads it from memory, and
 * pays cost.copy_cold instead of cost.copy.  The check runs once per bio
 * as btrfs submitted it: a bio the block layer split (bio_split_to_limits(),
 * blk.c) is verified when its last part has completed (bio_chain()), all
 * its pages in order.  pcsim completes each part on its own, so the parts
 * wait in a table (chains, grown to its high-water mark like the pools)
 * until the bio is whole.  The fills ring records, for the last
 * PCS_ENDIO_FILLS verified bios (one that continues the newest extends
 * it), the pages each filled and how many were filled before it; a page is
 * warm while fewer than cpu.cache_size bytes of page data were filled
 * after it (pages later in its own bio count: they were verified after
 * it).  No per-page state: the copy walks the ring from the newest entry
 * back and stops at the page's entry, past cpu.cache_size bytes, or at the
 * ring's end (cold).  Fills are recorded only with cost.copy_cold > 0.
 * Differs from the kernel (unless bio.chained = 1, below): a page of a
 * split bio is unlocked when its own part completes, so a reader can copy
 * it before its bio is verified; it is cold then, as the kernel's reader,
 * which waits for the whole bio, finds it when the bio is larger than the
 * cache.  One cache for all
 * CPUs, not one per core (the end-io worker and the reader may run on
 * different cores, and the reader then copies from a shared cache or
 * memory however recent the fill).  Only page data is counted (no
 * metadata, checksums, user buffers or other tasks evicting it), a page is
 * warm or cold as a whole (no cache lines, LRU or prefetching), and a page
 * copied by several threads is warm or cold by its fill alone.
 */
#include "internal.h"

void pcs_endio_init(PcsEndio *e, uint32_t first_task, uint32_t nworkers, gboolean meta, uint32_t idle_thresh) {
  *e = (PcsEndio){.nworkers = nworkers, .head = PCS_NONE, .tail = PCS_NONE, .meta_head = PCS_NONE, .meta_tail = PCS_NONE};
  e->workers = g_new(PcsWorker, nworkers + 1);
  for (uint32_t i = 0; i < nworkers + meta; i++)
    e->workers[i] = (PcsWorker){.task = first_task + i, .bio = PCS_NONE, .busy = FALSE, .meta = i == nworkers,
                                .head = PCS_NONE, .tail = PCS_NONE};
  e->idle_thresh = idle_thresh;
  if (!idle_thresh) return;
  e->idle_list = g_new(uint32_t, nworkers);
  e->busy_list = g_new(uint32_t, nworkers);
  /* btrfs_start_workers() at mount: one worker, on the idle list */
  e->started = 1;
  e->idle_list[e->n_idle++] = 0;
  e->workers[0].idle = TRUE;
}

gboolean pcs_endio_drained(const PcsEndio *e) {
  for (uint32_t i = 0; e->idle_thresh && i < e->nworkers; i++)
    if (e->workers[i].head != PCS_NONE || e->workers[i].pending) return FALSE;
  return TRUE;
}

void pcs_endio_clear(PcsEndio *e) {
  g_clear_pointer(&e->workers, g_free);
  g_clear_pointer(&e->idle_list, g_free);
  g_clear_pointer(&e->busy_list, g_free);
  pcs_endio_chains_clear(&e->split);
  pcs_endio_fills_clear(&e->fills);
}

/* ---- btrfs 3.x's pool (cpu.endio_idle_thresh) ------------------------------
 *
 * Mirrors fs/btrfs/async-thread.c of v3.5 for the endio_workers pool that
 * open_ctree() sets up: max_workers = thread_pool_size = min(ncpus + 2, 8)
 * (cpu.endio_workers), idle_thresh = 4 ("endios are largely parallel and
 * should have a very low idle thresh").  btrfs_start_workers() starts one
 * worker at mount.  btrfs_queue_worker() hands a bio to one worker at once,
 * onto that worker's own pending list (find_worker() -> next_worker()):
 *   - the first worker on the idle list, if any (it is not moved, so the
 *     next bio goes to it too);
 *   - else, below max_workers, a new worker is asked for
 *     (atomic_start_pending) and the bio goes to the first busy worker;
 *   - else the first busy worker, moved to the back of the worker list
 *     every idle_thresh picks (sequence % idle_thresh).
 * A worker leaves the idle list for the back of the worker list once it
 * holds idle_thresh bios (check_busy_worker()), and goes back to the front
 * of the idle list when it has run out of them (check_idle_worker(), with
 * fewer than idle_thresh / 2 pending).  The worker that finishes a bio
 * while a start is asked for starts one (check_pending_worker_creates(),
 * then the generic worker's __btrfs_start_workers()): the new worker joins
 * the back of the idle list.  So a new worker appears only when every
 * worker holds idle_thresh bios at once, and the pool grows with bursts of
 * completions (a request that completes hands over all its bios at once).
 * Differs from the kernel: the new worker is there at once (no kthread
 * creation, no generic worker on a CPU); workers idle for 120 s are never
 * shut down (try_worker_shutdown(): no run lasts that long); a worker that
 * runs out of work sleeps at once (worker_loop()'s schedule_timeout(1)
 * while still TASK_RUNNING only yields the CPU). */

static void worker_next(PcsSim *s, PcsWorker *w);

/* An idle worker W takes the bio just queued. */
static void worker_wake(PcsSim *s, PcsWorker *w) {
  if (G_UNLIKELY(s->opt.trace)) pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_WAKE, w->task + 1, pcs_cpu_wake_cpu(&s->cpu, w->task));
  worker_next(s, w);
}

/* Removes worker I from LIST (N entries), keeping the others' order. */
static void list_del(uint32_t *list, uint32_t *n, uint32_t i) {
  uint32_t k = 0;
  while (list[k] != i) k++;
  for (; k + 1 < *n; k++) list[k] = list[k + 1];
  (*n)--;
}

static void list_add_head(uint32_t *list, uint32_t *n, uint32_t i) {
  for (uint32_t k = (*n)++; k > 0; k--) list[k] = list[k - 1];
  list[0] = i;
}

/* find_worker(): the worker the next bio goes to. */
static uint32_t pool_find(PcsEndio *e) {
  if (e->n_idle) return e->idle_list[0];
  if (e->started < e->nworkers) {
    e->start_pending = TRUE; /* started by the next worker to finish a bio */
    return e->busy_list[0];
  }
  uint32_t i = e->busy_list[0];
  if (++e->workers[i].sequence % e->idle_thresh == 0) { /* list_move_tail() */
    list_del(e->busy_list, &e->n_busy, i);
    e->busy_list[e->n_busy++] = i;
  }
  return i;
}

/* btrfs_queue_worker() of data BIO. */
static void pool_queue(PcsSim *s, uint32_t bio) {
  PcsEndio *e = &s->endio;
  uint32_t i = pool_find(e);
  PcsWorker *w = &e->workers[i];
  w->pending++;
  if (w->tail != PCS_NONE) pcs_bio_at(&s->bio, w->tail)->next = bio; else w->head = bio;
  w->tail = bio;
  if (w->idle && w->pending >= e->idle_thresh) { /* check_busy_worker() */
    w->idle = FALSE;
    list_del(e->idle_list, &e->n_idle, i);
    e->busy_list[e->n_busy++] = i;
  }
  if (!w->busy) worker_wake(s, w);
}

/* W finished a bio: check_pending_worker_creates(). */
static void pool_done(PcsEndio *e, PcsWorker *w) {
  w->pending--;
  if (!e->start_pending) return;
  e->start_pending = FALSE;
  if (e->started == e->nworkers) return;
  uint32_t i = e->started++;
  e->workers[i].idle = TRUE;
  e->idle_list[e->n_idle++] = i; /* list_add_tail(.., &workers->idle_list) */
}

/* W ran out of bios: check_idle_worker(). */
static void pool_idle(PcsEndio *e, PcsWorker *w) {
  if (w->idle || w->pending >= e->idle_thresh / 2) return;
  uint32_t i = (uint32_t)(w - e->workers);
  w->idle = TRUE;
  list_del(e->busy_list, &e->n_busy, i);
  list_add_head(e->idle_list, &e->n_idle, i); /* list_move() */
}

static void worker_next(PcsSim *s, PcsWorker *w) {
  PcsEndio *e = &s->endio;
  gboolean pool = e->idle_thresh && !w->meta;
  uint32_t *head = pool ? &w->head : w->meta ? &e->meta_head : &e->head;
  uint32_t *tail = pool ? &w->tail : w->meta ? &e->meta_tail : &e->tail;
  uint32_t bio = *head;
  if (bio == PCS_NONE) {
    if (pool) pool_idle(e, w);
    w->busy = FALSE;
    w->bio = PCS_NONE;
    pcs_cpu_release(s, w->task, PCS_TASK_IDLE);
    return;
  }
  PcsBio *b = pcs_bio_at(&s->bio, bio);
  *head = b->next;
  if (*head == PCS_NONE) *tail = PCS_NONE;
  w->busy = TRUE;
  w->bio = bio;
  uint64_t cost = w->meta ? s->p->cost_meta_complete
                          : s->p->cost_bio_complete + (uint64_t)b->npages * s->p->cost_page_complete;
  if (G_UNLIKELY(s->cold_order) && !w->meta) /* the checksum's read is the first touch (host faults) */
    cost += (uint64_t)pcs_pc_take_cold(&s->pc, b->first, b->first + b->npages) * s->p->cost_touch_reported;
  pcs_cpu_run(s, w->task, pcs_cpu_cost(&s->cpu, w->task, cost));
}


static void endio_inline(PcsSim *s, uint32_t bio);

void pcs_endio_queue(PcsSim *s, uint32_t bio) {
  PcsEndio *e = &s->endio;
  if (s->endio_inline) {
    endio_inline(s, bio);
    return;
  }
  gboolean meta = pcs_csum_is_leaf(pcs_bio_at(&s->bio, bio)->first);
  uint32_t *head = meta ? &e->meta_head : &e->head, *tail = meta ? &e->meta_tail : &e->tail;
  pcs_bio_at(&s->bio, bio)->next = PCS_NONE;
  if (!meta && e->idle_thresh) { /* btrfs 3.x's pool: onto one worker's own list */
    pool_queue(s, bio);
    return;
  }
  if (*tail != PCS_NONE) pcs_bio_at(&s->bio, *tail)->next = bio; else *head = bio;
  *tail = bio;
  if (meta) {
    if (!e->workers[e->nworkers].busy) worker_wake(s, &e->workers[e->nworkers]);
    return;
  }
  for (uint32_t i = 0; i < e->nworkers; i++)
    if (!e->workers[i].busy) {
      worker_wake(s, &e->workers[i]);
      return;
    }
}

/* bio_chain(): a split part's completion counts toward its parent; the
 * parent's bi_end_io (btrfs_simple_end_io(), which queues the end-io work)
 * runs when the last part has completed.  The table is looked up by the
 * bio as submitted; a bio submitted again at the same pages while parts of
 * the first are in flight shares the entry until it is full (as the fills
 * table above), so such a bio may complete a part early or late. */
void pcs_endio_part_done(PcsSim *s, uint32_t bio) {
  PcsEndio *e = &s->endio;
  PcsBio *b = pcs_bio_at(&s->bio, bio);
  if (b->npages == b->chain_pages) {
    pcs_endio_queue(s, bio);
    return;
  }
  uint64_t first = b->first - b->chain_off;
  if (!pcs_endio_chains_part(&e->split, first, b->chain_pages, b->npages)) {
    pcs_pool_put(&s->bio.pool, bio);
    return;
  }
  b->first = first; /* the last part stands for the whole bio */
  b->npages = b->chain_pages;
  b->chain_off = 0;
  pcs_endio_queue(s, bio);
}

/* The bio's pages are read: up to date and unlocked, their sleepers woken
 * in the order they slept, by WAKER. */
static void pages_done(PcsSim *s, uint64_t first, uint32_t n, uint32_t chain_off, uint32_t chain_pages, uint32_t waker) {
  if (G_UNLIKELY(s->res->page_reads))
    for (uint32_t i = 0; i < n; i++) s->res->page_reads[first + i]++;
  pcs_pc_end_read(&s->pc, first, n);
  if (G_UNLIKELY(s->copy_cold)) pcs_endio_fills_part(&s->endio.fills, first - chain_off, chain_pages, first, n);
  uint32_t nwake = s->p->cpu_wake_exclusive ? pcs_pc_wake_first(&s->pc, first, n) : pcs_pc_wake_range(&s->pc, first, n);
  for (uint32_t i = 0; i < nwake; i++) {
    pcs_cpu_wake_target(&s->cpu, s->pc.woken[i], waker, s->evq.now);
    pcs_reader_wake(s, &s->readers[s->pc.woken[i]], waker);
  }
}

/* ext4's mpage_read_end_io(), xfs's iomap_read_end_io(): the bio's own
 * bi_end_io, in the completion's context (the loop device's aio completion
 * here), ends the read of every folio at once: no worker, no checksum, no
 * CPU time charged (interrupt and softirq time is not modelled).  The
 * sleepers are woken from the loop worker's CPU (the CPU that completed
 * the host's I/O is not modelled), or the first end-io worker's, idle. */
static void endio_inline(PcsSim *s, uint32_t bio) {
  PcsBio *b = pcs_bio_at(&s->bio, bio);
  uint64_t first = b->first;
  uint32_t n = b->npages, chain_off = b->chain_off, chain_pages = b->chain_pages;
  pcs_pool_put(&s->bio.pool, bio);
  uint32_t waker = pcs_loop_on(&s->loop) ? s->loop.task : s->endio.workers[0].task;
  pcs_trace(s, waker + 1, PCS_TRACE_BIO_DONE, first, n);
  pages_done(s, first, n, chain_off, chain_pages, waker);
}

/* end_bio_extent_readpage() has run for W's bio: unlock its pages, wake
 * their sleepers in the order they slept. */
void pcs_endio_step(PcsSim *s, PcsWorker *w) {
  PcsBio *b = pcs_bio_at(&s->bio, w->bio);
  uint64_t first = b->first;
  uint32_t n = b->npages, chain_off = b->chain_off, chain_pages = b->chain_pages;
  pcs_pool_put(&s->bio.pool, w->bio);
  w->bio = PCS_NONE;
  pcs_trace(s, w->task + 1, PCS_TRACE_BIO_DONE, first, n);
  if (w->meta) { /* end_bbio_meta_read(): the leaf is in, its sleepers wake (csum.c) */
    pcs_csum_leaf_read(s, first, w->task);
    worker_next(s, w);
    return;
  }
  pages_done(s, first, n, chain_off, chain_pages, w->task);
  if (s->endio.idle_thresh) pool_done(&s->endio, w);
  worker_next(s, w);
}

/* ---- the fills ring: which pages are still in the CPU cache ----------------- */

void pcs_endio_fills_add(PcsEndioFills *f, uint64_t first, uint64_t n) {
  PcsEndioFill *e = &f->ring[f->newest];
  if (f->len && first == e->first + e->n) {
    e->n += n; /* continues the newest run: its pages were verified right after */
  } else {
    f->newest = (f->newest + 1) % PCS_ENDIO_FILLS;
    f->len = MIN(f->len + 1, PCS_ENDIO_FILLS);
    f->ring[f->newest] = (PcsEndioFill){.first = first, .n = n, .start = f->filled};
  }
  f->filled += n;
}

void pcs_endio_fills_part(PcsEndioFills *f, uint64_t chain_first, uint32_t chain_pages, uint64_t first, uint32_t n) {
  if (n == chain_pages) { /* not split */
    pcs_endio_fills_add(f, first, n);
    return;
  }
  if (pcs_endio_chains_part(&f->chains, chain_first, chain_pages, n)) pcs_endio_fills_add(f, chain_first, chain_pages);
}

/* The bio's entry.  A bio submitted again at the same pages (a re-read
 * after an invalidation) while parts of the first are still in flight
 * shares the entry until it is full, then opens its own: the parts are
 * not told apart, so such a bio may complete a part early or late. */
gboolean pcs_endio_chains_part(PcsEndioChains *t, uint64_t first, uint32_t pages, uint32_t n) {
  uint32_t i = 0;
  while (i < t->n && (t->v[i].first != first || t->v[i].pages != pages || t->v[i].done + n > pages)) i++;
  if (i == t->n) {
    if (G_UNLIKELY(t->n == t->cap)) {
      t->cap = t->cap ? 2 * t->cap : 64;
      t->v = g_renew(PcsEndioChain, t->v, t->cap);
    }
    t->v[t->n++] = (PcsEndioChain){.first = first, .pages = pages, .done = 0};
  }
  PcsEndioChain *c = &t->v[i];
  c->done += n;
  if (c->done < c->pages) return FALSE;
  t->v[i] = t->v[--t->n]; /* swap-remove */
  return TRUE;
}

void pcs_endio_chains_clear(PcsEndioChains *t) {
  g_clear_pointer(&t->v, g_free);
  t->n = t->cap = 0;
}

void pcs_endio_fills_clear(PcsEndioFills *f) { pcs_endio_chains_clear(&f->chains); }

gboolean pcs_endio_fills_warm(const PcsEndioFills *f, uint64_t page, uint64_t cache_bytes) {
  uint32_t at = f->newest;
  for (uint32_t i = 0; i < f->len; i++) {
    const PcsEndioFill *e = &f->ring[at];
    if (page - e->first < e->n) /* unsigned: also FALSE when page < first */
      return (f->filled - (e->start + (page - e->first) + 1)) * PCS_PAGE_SIZE < cache_bytes;
    /* a page of an older entry has at least this entry's pages and all newer ones after it */
    if ((f->filled - e->start) * PCS_PAGE_SIZE >= cache_bytes) return FALSE;
    at = (at + PCS_ENDIO_FILLS - 1) % PCS_ENDIO_FILLS;
  }
  return FALSE;
}
