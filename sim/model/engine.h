/* engine.h - fio's async engines over buffered reads: libaio, io_uring (see engine.c). */
#ifndef PCSIM_MODEL_ENGINE_H
#define PCSIM_MODEL_ENGINE_H

#include "evq.h"
#include "pcsim/params.h"

#include <glib.h>
#include <stdint.h>

typedef enum { PCS_ENGINE_SYNC, PCS_ENGINE_LIBAIO, PCS_ENGINE_URING } PcsEngineKind;

/* One io_uring read fio has queued: pages [pos, end) still to copy. */
typedef struct {
  uint64_t pos, end;
  PcsTime start;    /* when fio queued it (its latency runs from there) */
  gboolean issued;  /* io_uring_enter() has submitted it */
  gboolean done;    /* completed: its CQE is posted, not yet reaped */
} PcsUringRead;

/* fio's side of one thread's engine: its options as fio's
 * fixup_options() leaves them, and its queue (td->cur_depth,
 * td->io_u_queued).  Under io_uring, its reads in submission order. */
typedef struct {
  PcsEngineKind kind;
  uint32_t iodepth, batch, cmin, cmax, low;
  uint32_t depth;  /* queued or in flight, not reaped */
  uint32_t queued; /* queued, not committed */
  /* libaio: when each read not yet reaped was queued, oldest first (a ring of iodepth) */
  PcsTime *starts;
  uint32_t head;
  /* libaio: the queue times of the reads reaped in the call under way; fio's
   * io_getevents() returns them after io_submit() ran the call's own read, so
   * their latencies end with the call (pcs_engine_libaio_flush()) */
  PcsTime *done;
  uint32_t ndone;
  /* io_uring */
  PcsUringRead *reads; /* iodepth of them; [0, depth) in submission order */
  uint32_t cqes;       /* completions posted, not reaped */
  uint32_t cur;        /* the read being issued or retried */
  uint64_t attempt_pos; /* where that attempt started */
  gboolean in_enter;   /* in io_uring_enter(): submissions and task work run */
  gboolean waiting;    /* in io_uring_enter(min_complete): until a completion is posted */
  gboolean reaping;    /* in wait_for_completions() */
  gboolean full;       /* the queue was full when it began */
  uint32_t reap_min, reap_max, reaped; /* the getevents call under way */
  uint64_t wait_page;  /* the folio it sleeps on in URING_WAIT */
} PcsEngine;

/* A read fio reaps, queued at START: fio's clat runs to the reap (io_u.c
 * io_completed() stamps it when the event is reaped). */
typedef void (*PcsEngineReaped)(void *ctx, PcsTime start);

PcsEngineKind pcs_engine_kind(const PcsParams *p);
/* Bytes one thread's engine allocates under P. */
uint64_t pcs_engine_bytes(const PcsParams *p);
void pcs_engine_init(PcsEngine *e, const PcsParams *p);
void pcs_engine_clear(PcsEngine *e);
/* libaio: fio queues one more read, which a buffered io_submit() runs to
 * its end; returns the system calls fio makes around it (io_submit(),
 * io_getevents()), counting its queue as fio does. */
uint32_t pcs_engine_libaio_read(PcsEngine *e, PcsTime start);
/* libaio: the job's reads are done; fio reaps those still queued (cleanup_pending_aio()). */
void pcs_engine_libaio_drain(PcsEngine *e);
/* libaio: the call under way ended (its read ran in io_submit()): each
 * read its io_getevents() reaped goes to REAPED, clat to now. */
void pcs_engine_libaio_flush(PcsEngine *e, PcsEngineReaped reaped, void *ctx);
/* io_uring: fio queues a read of [POS, END) at START; TRUE when fio
 * commits (io_uring_enter() submits every queued read). */
gboolean pcs_engine_uring_queue(PcsEngine *e, uint64_t pos, uint64_t end, PcsTime start);
/* wait_for_completions() begins (the queue is full, or DRAIN: the job's
 * reads are all queued and fio reaps the rest). */
void pcs_engine_uring_reap_begin(PcsEngine *e, gboolean drain);
/* Reaps what the CQ ring holds, up to the call's max (user space, no
 * system call); frees the reaped reads' slots. */
void pcs_engine_uring_reap(PcsEngine *e, PcsEngineReaped reaped, void *ctx);
/* The index of the read to run in io_uring_enter(): the first not yet
 * submitted, else the first parked read UPTODATE says may go on (its
 * folio unlocked: task work queued), else UINT32_MAX. */
uint32_t pcs_engine_uring_next(const PcsEngine *e, gboolean (*uptodate)(const void *, uint64_t), const void *ctx);

#endif
