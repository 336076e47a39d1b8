/* endio.c - btrfs end-io workers completing read bios.
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
 * whole bio.
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

void pcs_endio_init(PcsEndio *e, uint32_t first_task, uint32_t nworkers, gboolean meta) {
  *e = (PcsEndio){.nworkers = nworkers, .head = PCS_NONE, .tail = PCS_NONE, .meta_head = PCS_NONE, .meta_tail = PCS_NONE};
  e->workers = g_new(PcsWorker, nworkers + 1);
  for (uint32_t i = 0; i < nworkers + meta; i++)
    e->workers[i] = (PcsWorker){.task = first_task + i, .bio = PCS_NONE, .busy = FALSE, .meta = i == nworkers};
}

void pcs_endio_clear(PcsEndio *e) {
  g_clear_pointer(&e->workers, g_free);
  pcs_endio_chains_clear(&e->split);
  pcs_endio_fills_clear(&e->fills);
}

static void worker_next(PcsSim *s, PcsWorker *w) {
  PcsEndio *e = &s->endio;
  uint32_t *head = w->meta ? &e->meta_head : &e->head, *tail = w->meta ? &e->meta_tail : &e->tail;
  uint32_t bio = *head;
  if (bio == PCS_NONE) {
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
  pcs_cpu_run(s, w->task, pcs_cpu_cost(&s->cpu, w->task, cost));
}

/* An idle worker W takes the bio just queued. */
static void worker_wake(PcsSim *s, PcsWorker *w) {
  if (G_UNLIKELY(s->opt.trace)) pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_WAKE, w->task + 1, pcs_cpu_wake_cpu(&s->cpu, w->task));
  worker_next(s, w);
}

void pcs_endio_queue(PcsSim *s, uint32_t bio) {
  PcsEndio *e = &s->endio;
  gboolean meta = pcs_csum_is_leaf(pcs_bio_at(&s->bio, bio)->first);
  uint32_t *head = meta ? &e->meta_head : &e->head, *tail = meta ? &e->meta_tail : &e->tail;
  pcs_bio_at(&s->bio, bio)->next = PCS_NONE;
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
  if (G_UNLIKELY(s->res->page_reads))
    for (uint32_t i = 0; i < n; i++) s->res->page_reads[first + i]++;
  pcs_pc_end_read(&s->pc, first, n);
  if (G_UNLIKELY(s->copy_cold)) pcs_endio_fills_part(&s->endio.fills, first - chain_off, chain_pages, first, n);
  uint32_t nwake = s->p->cpu_wake_exclusive ? pcs_pc_wake_first(&s->pc, first, n) : pcs_pc_wake_range(&s->pc, first, n);
  for (uint32_t i = 0; i < nwake; i++) {
    pcs_cpu_wake_target(&s->cpu, s->pc.woken[i], w->task);
    pcs_reader_wake(s, &s->readers[s->pc.woken[i]], w->task);
  }
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
