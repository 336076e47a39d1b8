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
 */
#include "internal.h"

void pcs_endio_init(PcsEndio *e, uint32_t first_task, uint32_t nworkers) {
  *e = (PcsEndio){.nworkers = nworkers, .head = PCS_NONE, .tail = PCS_NONE};
  e->workers = g_new(PcsWorker, MAX(nworkers, 1));
  for (uint32_t i = 0; i < nworkers; i++)
    e->workers[i] = (PcsWorker){.task = first_task + i, .bio = PCS_NONE, .busy = FALSE};
}

void pcs_endio_clear(PcsEndio *e) { g_clear_pointer(&e->workers, g_free); }

static void worker_next(PcsSim *s, PcsWorker *w) {
  PcsEndio *e = &s->endio;
  uint32_t bio = e->head;
  if (bio == PCS_NONE) {
    w->busy = FALSE;
    w->bio = PCS_NONE;
    pcs_cpu_release(s, w->task);
    return;
  }
  PcsBio *b = pcs_bio_at(&s->bio, bio);
  e->head = b->next;
  if (e->head == PCS_NONE) e->tail = PCS_NONE;
  w->busy = TRUE;
  w->bio = bio;
  uint64_t cost = s->p->cost_bio_complete + (uint64_t)b->npages * s->p->cost_page_complete;
  pcs_cpu_run(s, w->task, pcs_cpu_cost(&s->cpu, w->task, cost));
}

void pcs_endio_queue(PcsSim *s, uint32_t bio) {
  PcsEndio *e = &s->endio;
  pcs_bio_at(&s->bio, bio)->next = PCS_NONE;
  if (e->tail != PCS_NONE) pcs_bio_at(&s->bio, e->tail)->next = bio; else e->head = bio;
  e->tail = bio;
  for (uint32_t i = 0; i < e->nworkers; i++)
    if (!e->workers[i].busy) {
      worker_next(s, &e->workers[i]);
      return;
    }
}

/* end_bio_extent_readpage() has run for W's bio: unlock its pages, wake
 * their sleepers in the order they slept. */
void pcs_endio_step(PcsSim *s, PcsWorker *w) {
  PcsBio *b = pcs_bio_at(&s->bio, w->bio);
  uint64_t first = b->first;
  uint32_t n = b->npages;
  pcs_pool_put(&s->bio.pool, w->bio);
  w->bio = PCS_NONE;
  pcs_trace(s, w->task + 1, PCS_TRACE_BIO_DONE, first, n);
  if (G_UNLIKELY(s->res->page_reads))
    for (uint32_t i = 0; i < n; i++) s->res->page_reads[first + i]++;
  pcs_pc_end_read(&s->pc, first, n);
  uint32_t nwake = s->p->cpu_wake_exclusive ? pcs_pc_wake_first(&s->pc, first, n) : pcs_pc_wake_range(&s->pc, first, n);
  for (uint32_t i = 0; i < nwake; i++) pcs_reader_wake(s, &s->readers[s->pc.woken[i]]);
  worker_next(s, w);
}
