/* endio.c - btrfs end-io workers completing read bios.
 *
 * Mirrors end_workqueue_bio() queueing a completed bio to the endio_workers
 * pool and end_bio_extent_readpage() running there: one work item per bio
 * (cost.bio_complete), then per page checksum verify, extent unlock,
 * SetPageUptodate and unlock_page (cost.page_complete), which wakes the
 * readers sleeping on those pages (pagecache.c).  cpu.endio_workers workers
 * take bios in completion order from one FIFO; they compete with the readers
 * for the CPUs.  Pages turn up to date when the worker has finished the
 * whole bio.
 */
#include "internal.h"

static void worker_next(PcsSim *s, PcsWorker *w) {
  uint32_t bio = s->endio_head;
  if (bio == PCS_NONE) {
    w->busy = FALSE;
    w->bio = PCS_NONE;
    pcs_cpu_release(s, w->task);
    return;
  }
  PcsBio *b = pcs_bio_at(s, bio);
  s->endio_head = b->next;
  if (s->endio_head == PCS_NONE) s->endio_tail = PCS_NONE;
  w->busy = TRUE;
  w->bio = bio;
  uint64_t cost = s->p->cost_bio_complete + (uint64_t)b->npages * s->p->cost_page_complete;
  pcs_cpu_run(s, w->task, pcs_cpu_cost(s, w->task, cost));
}

void pcs_endio_queue(PcsSim *s, uint32_t bio) {
  pcs_bio_at(s, bio)->next = PCS_NONE;
  if (s->endio_tail != PCS_NONE) pcs_bio_at(s, s->endio_tail)->next = bio; else s->endio_head = bio;
  s->endio_tail = bio;
  for (uint32_t i = 0; i < s->nworkers; i++)
    if (!s->workers[i].busy) {
      worker_next(s, &s->workers[i]);
      return;
    }
}

void pcs_endio_step(PcsSim *s, PcsWorker *w) {
  PcsBio *b = pcs_bio_at(s, w->bio);
  uint64_t first = b->first;
  uint32_t n = b->npages;
  pcs_pool_put(&s->bios, w->bio);
  w->bio = PCS_NONE;
  pcs_trace(s, w->task + 1, PCS_TRACE_BIO_DONE, first, n);
  if (G_UNLIKELY(s->res->page_reads))
    for (uint32_t i = 0; i < n; i++) s->res->page_reads[first + i]++;
  pcs_pc_complete(s, first, n);
  worker_next(s, w);
}
