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
/* Scattered frames (memory.scattered, memory.contiguous_share misses) lie
 * far above every block, two apart. */
#define PCS_ALLOC_STRAY_PFN (UINT64_C(1) << 52)

/* memory.contiguous = 0: one allocating task's stream of frames. */
typedef struct {
  uint64_t next_pfn;  /* the frame directly after its last one */
  uint64_t last_page; /* file page on its last frame, UINT64_MAX: none, or its run ended */
} PcsFrameStream;

/* memory.contiguous = 1: one CPU's per-CPU page list (struct per_cpu_pages).
 * Its pages are the freed ones first (CPU 0 only), then its share
 * [seq, seq_end) of the buddy allocator's sequence of pages. */
typedef struct {
  uint64_t freed_left;          /* pages of memory.pcp_freed not yet handed out */
  uint64_t freed_pfn;           /* the next of them: they come out descending */
  uint64_t seq, seq_end;        /* what is left of its last refill */
  uint32_t order;               /* the order of the block SEQ lies in */
  uint32_t alloc_factor;        /* pcp->alloc_factor: refills since a free, at most pcp_batch_scale_max */
  uint64_t last_pfn, last_page; /* its last frame handed out and the file page on it; UINT64_MAX: none */
  uint32_t last_order;          /* the order of the free block its last frame came from (freed pages: 0) */
} PcsPcpList;

typedef struct {
  gboolean enabled;        /* memory.contiguous: else no two frames are adjacent */
  uint64_t scattered_left; /* pages of memory.scattered not yet handed out */
  uint32_t follow_below;   /* memory.contiguous_share as a threshold on a 32-bit draw */
  gboolean always_follow;  /* memory.contiguous_share = 1: no draw */
  PcsRng *rng;             /* the draws, when 0 <= share < 1 (PCS_RNG_STREAM_FRAMES) */
  PcsFrameStream *streams; /* memory.contiguous = 0: per task */
  uint32_t ntasks;
  /* memory.contiguous = 1 */
  PcsPcpList *pcp;         /* per CPU */
  uint32_t ncpus;
  uint64_t batch;          /* memory.pcp_batch */
  uint32_t scale_max;      /* memory.pcp_batch_scale_max */
  uint64_t seq;            /* the buddy allocator: pages handed to lists so far */
  uint32_t order;          /* the order of the block SEQ lies in */
  uint64_t seq_start[PCS_BUDDY_ORDERS + 1]; /* where each order's blocks start in the sequence */
  uint64_t region[PCS_BUDDY_ORDERS];        /* each order's first frame */
  uint64_t stray_pfn;      /* the next scattered frame */
  uint64_t folio_pfn;      /* large folios: the next free frame of their region */
  uint64_t folio_seq;      /* large folios below the reporting order: their own walk through the buddy sequence */
} PcsFrameAlloc;

/* Called once per run, for NTASKS allocating tasks (the readers) and a file
 * of NPAGES pages. */
void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks, uint64_t npages);
/* Frees what pcs_alloc_init() allocated. */
void pcs_alloc_clear(PcsFrameAlloc *fa);
/* What pcs_alloc_page() tells of the frame it handed out for PAGE. */
typedef enum {
  PCS_ALLOC_AFTER_PREV = 1u << 0,  /* it directly follows PAGE-1's frame */
  PCS_ALLOC_BEFORE_NEXT = 1u << 1, /* PAGE+1, in the cache, has the frame right after it */
} PcsAllocContig;
/* The frame for PAGE, just inserted by TASK running on CPU, in *PFN, and
 * which of its neighbours' frames it is adjacent to (PcsAllocContig).  A
 * per-CPU list hands out its freed frames downward: a page inserted just
 * after PAGE+1 from the same list (a hole filled behind a later insert)
 * gets the frame before PAGE+1's. */
static inline uint32_t pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint32_t cpu, uint64_t page, uint64_t *pfn);
/* pcs_alloc_page() when memory.contiguous = 1 (out of line: it may draw or refill). */
uint32_t pcs_alloc_page_pcp(PcsFrameAlloc *fa, uint32_t cpu, uint64_t page, uint64_t *pfn);
/* A large folio's frames (readahead.max_folio_order): a block of 1 << ORDER
 * frames, aligned to its size, from a region of their own, past the last
 * one handed out and never right after it (the captures' order-9 folios
 * lie apart); returns its first pfn.  Its pages follow each other; the
 * folio starts a bio_vec of its own (the block's place among the small
 * pages' frames is not modelled: a large folio's bio_vec is cut into
 * segments at block.max_segment_size whatever its neighbours). */
uint64_t pcs_alloc_folio(PcsFrameAlloc *fa, uint32_t order);
/* The order of the free block the last frame CPU's list handed out came
 * from (pcs_alloc_page()): 0 for freed pages, scattered frames and without
 * per-CPU lists.  Free page reporting gives blocks of page_reporting_order
 * and more back to the host (memory.reported_order). */
static inline uint32_t pcs_alloc_last_order(const PcsFrameAlloc *fa, uint32_t cpu) {
  return fa->enabled ? fa->pcp[cpu].last_order : 0;
}
/* A large folio of ORDER below the reporting order (memory.reported_order):
 * the order of the free block __rmqueue_smallest() would take it from,
 * walking the listed blocks (memory.buddyinfo) smallest first, from blocks
 * of ORDER up, apart from the per-CPU lists' walk (the order-0 pages).  Its
 * frames stay pcs_alloc_folio()'s. */
uint32_t pcs_alloc_folio_block(PcsFrameAlloc *fa, uint32_t order);
/* TASK, running on CPU, lost its insert (-EEXIST) and freed its page. */
void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task, uint32_t cpu);

static inline uint32_t pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint32_t cpu, uint64_t page, uint64_t *pfn) {
  if (fa->enabled) return pcs_alloc_page_pcp(fa, cpu, page, pfn);
  PcsFrameStream *st = &fa->streams[task];
  *pfn = st->next_pfn + 1; /* memory.contiguous = 0: no frame follows another */
  st->next_pfn = *pfn + 1;
  return 0;
}

#endif
