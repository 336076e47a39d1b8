/* pagecache.c - the shared page cache of one file: page state, tree_lock,
 * -EEXIST, and the page wait queue.
 *
 * Mirrors add_to_page_cache_lru() (mm/filemap.c, v3.x): the radix-tree
 * insert runs under mapping->tree_lock, a spinlock shared by every thread
 * reading the file; the loser of a race for an index gets -EEXIST and frees
 * its private page (with any PG_readahead marker on it).  An inserted page is
 * locked until its bio completes; readers that find it locked sleep
 * (wait_on_page_locked) and are woken by unlock_page() in the end-io path.
 *
 * One byte per page: PRESENT, UPTODATE, READAHEAD bits, and CONTIG: the
 * frame the allocator gave it follows page-1's (alloc.c).  tree_lock is a
 * ticket spinlock (FIFO, as x86 Linux has had since 2.6.25), so it is a
 * single "free at" time: a thread arriving while it is held spins, on its
 * CPU, until its turn.
 *
 * Differs from the kernel: the outcome of an insert is decided when the
 * thread asks for the lock, not when it gets it.  Because the lock is FIFO
 * the winner is the same; only a lockless lookup by a third thread during
 * the spin can see the page a few hundred nanoseconds early.
 */
#include "internal.h"

gboolean pcs_pc_insert(PcsSim *s, uint32_t reader, uint64_t page, gboolean marker, PcsTime *spin) {
  PcsTime now = s->evq.now;
  PcsTime acquire = MAX(now, s->tree_lock_free);
  s->tree_lock_free = acquire + s->p->cost_tree_lock_hold;
  *spin = acquire - now + s->p->cost_tree_lock_hold;
  uint8_t *pg = &s->pages[page];
  gboolean frames = s->p->memory_contiguous != 0; /* else no frame is adjacent: skip alloc.c */
  if (*pg & PCS_PG_PRESENT) {
    s->res->eexist++;
    if (frames) pcs_alloc_free(s, &s->readers[reader]); /* its private page goes back */
    pcs_trace(s, reader + 1, PCS_TRACE_EEXIST, page, 0);
    return FALSE;
  }
  gboolean contig = frames && pcs_alloc_page(s, &s->readers[reader], page);
  *pg = PCS_PG_PRESENT | (marker ? PCS_PG_READAHEAD : 0) | (contig ? PCS_PG_CONTIG : 0);
  pcs_trace(s, reader + 1, PCS_TRACE_INSERT, page, 0);
  return TRUE;
}

void pcs_pc_wait(PcsSim *s, PcsReader *r, uint64_t page) {
  r->wait_page = page;
  s->sleepers[s->n_sleepers++] = r->id;
  s->res->waits++;
  pcs_trace(s, r->id + 1, PCS_TRACE_WAIT, page, 0);
}

/* end_bio_extent_readpage(): SetPageUptodate + unlock_page for each page,
 * then wake the readers sleeping on them. */
void pcs_pc_complete(PcsSim *s, uint64_t first, uint32_t npages) {
  for (uint64_t p = first; p < first + npages; p++) {
    g_assert((s->pages[p] & (PCS_PG_PRESENT | PCS_PG_UPTODATE)) == PCS_PG_PRESENT);
    s->pages[p] |= PCS_PG_UPTODATE;
  }
  /* Keep the wait queue in sleep order, wake in that order (a FIFO wait
   * queue); collect first so waking cannot disturb the scan. */
  uint32_t kept = 0, nwake = 0;
  for (uint32_t i = 0; i < s->n_sleepers; i++) {
    uint32_t id = s->sleepers[i];
    uint64_t w = s->readers[id].wait_page;
    if (w >= first && w < first + npages)
      s->wake_scratch[nwake++] = id;
    else
      s->sleepers[kept++] = id;
  }
  s->n_sleepers = kept;
  for (uint32_t i = 0; i < nwake; i++) pcs_reader_wake(s, &s->readers[s->wake_scratch[i]]);
}
