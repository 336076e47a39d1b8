/* alloc.h - the frame allocator: each new page-cache page's physical frame,
 * and whether it sits right after the frame of the file page before it
 * (see alloc.c). */
#ifndef PCSIM_MODEL_ALLOC_H
#define PCSIM_MODEL_ALLOC_H

#include "pcsim/params.h"
#include "rng.h"

#include <glib.h>
#include <stdint.h>

/* Where the simulated frames start: pfns look like a real machine's. */
#define PCS_ALLOC_FIRST_PFN UINT64_C(0x100000)

/* One allocating task's stream of frames. */
typedef struct {
  uint64_t next_pfn;  /* the frame directly after its last one */
  uint64_t last_page; /* file page on its last frame, UINT64_MAX: none, or its run ended */
} PcsFrameStream;

typedef struct {
  gboolean enabled;        /* memory.contiguous: else no two frames are adjacent */
  uint64_t scattered_left; /* pages of memory.scattered not yet handed out */
  uint32_t follow_below;   /* memory.contiguous_share as a threshold on a 32-bit draw */
  gboolean always_follow;  /* memory.contiguous_share = 1: no draw */
  PcsRng *rng;             /* the draws, when 0 <= share < 1 (PCS_RNG_STREAM_FRAMES) */
  PcsFrameStream *streams; /* per task */
  uint32_t ntasks;
} PcsFrameAlloc;

/* Called once per run, for NTASKS allocating tasks (the readers) and a file
 * of NPAGES pages. */
void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks, uint64_t npages);
/* Frees what pcs_alloc_init() allocated. */
void pcs_alloc_clear(PcsFrameAlloc *fa);
/* The frame for PAGE, just inserted by TASK, in *PFN: TRUE when it directly
 * follows the frame of PAGE-1 (*PFN == pfn(PAGE-1) + 1), which happens only
 * when TASK's previous frame held PAGE-1 and this one follows it.  No two
 * frames are ever adjacent otherwise. */
static inline gboolean pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint64_t page, uint64_t *pfn);
/* pcs_alloc_page() when memory.contiguous = 1 (out of line: it may draw). */
gboolean pcs_alloc_page_contiguous(PcsFrameAlloc *fa, PcsFrameStream *st, uint64_t page, uint64_t *pfn);
/* TASK's private page lost its insert (-EEXIST) and went back: its run of
 * adjacent frames ends. */
void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task);

static inline gboolean pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint64_t page, uint64_t *pfn) {
  PcsFrameStream *st = &fa->streams[task];
  if (fa->enabled) return pcs_alloc_page_contiguous(fa, st, page, pfn);
  *pfn = st->next_pfn + 1; /* memory.contiguous = 0: no frame follows another */
  st->next_pfn = *pfn + 1;
  return FALSE;
}

#endif
