/* endio.h - btrfs end-io workers completing read bios (see endio.c). */
#ifndef PCSIM_MODEL_ENDIO_H
#define PCSIM_MODEL_ENDIO_H

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint32_t task;
  uint32_t bio; /* bio being completed, PCS_NONE when idle */
  gboolean busy;
} PcsWorker;

/* The endio_workers pool and its queue of completed bios (FIFO, linked through PcsBio.next). */
typedef struct {
  PcsWorker *workers;
  uint32_t nworkers;
  uint32_t head, tail; /* completed bios waiting for a worker */
} PcsEndio;

/* Called once per run: NWORKERS workers, tasks FIRST_TASK.. */
void pcs_endio_init(PcsEndio *e, uint32_t first_task, uint32_t nworkers);
/* Frees the workers; the queue must be empty. */
void pcs_endio_clear(PcsEndio *e);
/* end_workqueue_bio(): the device completed BIO; queue it and start an idle
 * worker on it (asks for CPU: may schedule). */
void pcs_endio_queue(PcsSim *s, uint32_t bio);
/* Worker W's CPU step has run: its bio's pages turn up to date and unlock,
 * the readers sleeping on them wake (reader.c), the bio is freed, and W
 * takes the next bio or goes idle. */
void pcs_endio_step(PcsSim *s, PcsWorker *w);

#endif
