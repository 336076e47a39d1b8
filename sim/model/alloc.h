/* alloc.h - the frame allocator: which new page-cache pages sit in
 * adjacent physical frames (see alloc.c). */
#ifndef PCSIM_MODEL_ALLOC_H
#define PCSIM_MODEL_ALLOC_H

#include "pcsim/params.h"

#include <glib.h>
#include <stdint.h>

typedef struct {
  gboolean enabled;        /* memory.contiguous: else no two frames are adjacent */
  uint64_t scattered_left; /* pages of memory.scattered not yet handed out */
  uint64_t *last_frame;    /* per task: file page on its last contiguous frame, or UINT64_MAX */
  uint32_t ntasks;
} PcsFrameAlloc;

/* Called once per run, for NTASKS allocating tasks (the readers). */
void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks);
/* Frees what pcs_alloc_init() allocated. */
void pcs_alloc_clear(PcsFrameAlloc *fa);
/* The frame for PAGE, just inserted by TASK: TRUE when it directly follows
 * the frame of PAGE-1.  Always FALSE (and no state change) when disabled. */
gboolean pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint64_t page);
/* TASK's private page lost its insert (-EEXIST) and went back: its run of
 * adjacent frames ends.  No-op when disabled. */
void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task);

#endif
