/* loop.h - the loop device's worker: requests to the host file (see loop.c). */
#ifndef PCSIM_MODEL_LOOP_H
#define PCSIM_MODEL_LOOP_H

#include "pcsim/params.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

/* The loop worker and the requests issued to it, not yet sent to the host. */
typedef struct {
  uint32_t task;   /* its CPU task; PCS_NONE: no loop worker (requests start at their issue) */
  gboolean busy;   /* running or waiting for a CPU */
  uint32_t *queue; /* ring of request ids, device.queue_depth slots */
  uint32_t head, len, cap;
  gboolean in_request; /* its current step is a request's submission (else the run's start) */
} PcsLoop;

/* Called once per run: with cost.loop_worker > 0 the worker is task TASK. */
void pcs_loop_init(PcsLoop *l, const PcsParams *p, uint32_t task);
/* Frees the queue; it must be empty. */
void pcs_loop_clear(PcsLoop *l);
/* TRUE when requests go through a loop worker (cost.loop_worker > 0). */
static inline gboolean pcs_loop_on(const PcsLoop *l) { return l->task != UINT32_MAX; }
/* loop_queue_rq(): request RQ, just issued, waits for the worker; an idle
 * worker is woken (asks for a CPU: may schedule). */
void pcs_loop_queue(PcsSim *s, uint32_t rq);
/* The worker's CPU step has run: a submitted request starts its service on
 * the host (device.c); then the next request, or the worker sleeps. */
void pcs_loop_step(PcsSim *s);

#endif
