/* reader.h - one fio reader thread: the read() loop and ->readpages (see reader.c). */
#ifndef PCSIM_MODEL_READER_H
#define PCSIM_MODEL_READER_H

#include "pcsim/evq.h"
#include "pcsim/policy.h"
#include "readahead.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

/* What its pending CPU step completes */
#define PCS_READER_PHASES(X) \
  X(START) X(SYSCALL) X(COPY) X(INSERT) X(READ) X(SUBMIT) X(SLEEP) X(DONE)

typedef enum {
#define X(name) PCS_RD_##name,
  PCS_READER_PHASES(X)
#undef X
} PcsReaderPhase;

typedef struct {
  uint32_t id; /* 0-based; task id too */
  PcsReaderPhase phase;
  uint64_t pos;      /* next page to copy */
  uint64_t call_end; /* end (exclusive) of the current read() call */
  gboolean tried_ra; /* sync readahead already ran for pos */
  PcsRaState ra;

  /* the current ->readpages call (or single-page ->readpage fallback) */
  gboolean in_readpages;
  PcsPolicy rp_policy;
  PcsRaList list;
  uint64_t *pool;  /* inserted pages waiting to be read */
  uint32_t pool_n, pool_i, pool_cap;
  gboolean flushing, open_after_submit;
  uint64_t cur_page;
  gboolean insert_won;
  uint32_t open_bio;

  PcsTime done_at;
} PcsReader;

/* Called once per run for reader ID; sizes its page list and pool. */
void pcs_reader_init(PcsSim *s, PcsReader *r, uint32_t id);
/* Frees what pcs_reader_init() allocated. */
void pcs_reader_clear(PcsReader *r);
/* At time 0: R issues its first read() (asks for CPU: schedules). */
void pcs_reader_start(PcsSim *s, PcsReader *r);
/* R's PCS_EV_TASK_STEP: its CPU step has run; apply it and start the next. */
void pcs_reader_step(PcsSim *s, PcsReader *r);
/* Called by end-io (unlock_page()) for R, asleep on a page now up to date. */
void pcs_reader_wake(PcsSim *s, PcsReader *r);

#endif
