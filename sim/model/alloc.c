/* alloc.c - the page allocator, as far as bio and request sizes see it:
 * does a new page-cache page sit in the frame right after the frame of the
 * file page before it?
 *
 * Mirrors what readahead's order-0 allocations get from __alloc_pages()
 * (__page_cache_alloc() in page_cache_ra_unbounded(), v6.x): rmqueue() ->
 * rmqueue_pcplist() takes the first page of the per-CPU list (pcp) of the
 * CPU the task runs on; an empty list is refilled by rmqueue_bulk() with
 * nr_pcp_alloc() pages: pcp->batch << pcp->alloc_factor, the factor growing
 * by one per refill up to vm.pcp_batch_scale_max and halved by every free
 * (free_unref_page_commit()).  rmqueue_bulk() takes them from the buddy
 * free lists, smallest order first (__rmqueue_smallest()); a block split by
 * expand() hands out its pages in ascending frames, so one list's pages are
 * adjacent until its block ends.  Every thread running on that CPU draws
 * from the same list: two threads inserting on one CPU interleave frames,
 * and two CPUs refilling in turn split one block between them.
 * bio_add_page() merges adjacent frames into one bio_vec
 * (bvec_try_merge_page(), multi-page bvecs since v5.1) and the block layer
 * into one segment.
 *
 *   memory.contiguous = 0   no two frames adjacent (what pcsim assumed for
 *                           v3.x: a page is a segment)
 *   memory.contiguous = 1   per-CPU lists:
 *     memory.pcp_freed      pages freed before the run (drop_caches, fio's
 *                           invalidate=1) on CPU 0's list: handed out first,
 *                           last freed first, so in descending frames (no
 *                           two share a bio_vec)
 *     memory.buddyinfo      free blocks per order, consumed smallest first;
 *                           then order-10 blocks without end, side by side
 *                           (the rest of free memory as one range)
 *     memory.pcp_batch, memory.pcp_batch_scale_max   the refill size
 *     memory.scattered      (old scenarios) the first pages allocated get
 *                           scattered frames
 *     memory.contiguous_share   a page gets its list's next frame with this
 *                           probability, else the list skips one (a seeded
 *                           stream of its own, PCS_RNG_STREAM_FRAMES; 1, the
 *                           default, draws nothing)
 *
 * Free page reporting (memory.reported_order): each list remembers the
 * order of the block its last frame came from (pcs_alloc_last_order()); a
 * page carved from a block of the reporting order or more is memory the
 * host took back, whose first touch faults (reader.c marks it, pagecache.h
 * keeps the bit).  The listed blocks come smallest first, so such pages are
 * the run's last, as the kernel's are once its small blocks are gone.
 *
 * The buddy allocator is a sequence of pages: the listed blocks in order of
 * size, then order-10 blocks.  A refill takes the next pcp_batch << k pages
 * of it; a list hands out its share in order.  Frames: freed pages from
 * PCS_ALLOC_FIRST_PFN up, then a region per order holding its blocks
 * aligned and one block apart (order 10: side by side), so two frames are
 * adjacent exactly where the model says so (one block, in order).  Scattered frames lie at
 * PCS_ALLOC_STRAY_PFN, two apart.  Each list remembers its last frame and
 * the page on it: a page's frame follows page-1's when page-1 took the
 * list's previous frame.  Hot path: no allocation; O(1) per page.
 *
 * Differs from the kernel: no reclaim, no pcp->high (a refill is never cut
 * by it: on the 24 GiB capture machine high is about 5000 pages, over the
 * largest refill of 63 << 5), no other allocations drawing from the lists
 * (the kernel's slab and metadata pages), blocks never adjacent to each
 * other below order 10, and the freed pages on CPU 0's list only (where the captures show
 * them).  The frame is decided when the insert has won (pagecache.c, then
 * here), where the kernel allocates before inserting: a lost page goes back
 * to the head of its list and is the next one handed out, which is the
 * frame the next insert gets here too; its free halves alloc_factor.
 */
#include "alloc.h"
#include "pcsim/units.h"

#include <string.h>

#define BLOCK_ALIGN (UINT64_C(2) << (PCS_BUDDY_ORDERS - 1)) /* regions start two max-order blocks apart */

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static void buddy_init(PcsFrameAlloc *fa, const PcsParams *p) {
  uint64_t blocks[PCS_BUDDY_ORDERS];
  char *why = NULL;
  if (!pcs_params_parse_buddyinfo(p->memory_buddyinfo, blocks, &why)) g_error("memory.buddyinfo: %s", why); /* validated */
  uint64_t freed = p->memory_pcp_freed / PCS_PAGE_SIZE;
  uint64_t seq = 0, pfn = align_up(PCS_ALLOC_FIRST_PFN + freed + 1, BLOCK_ALIGN);
  for (uint32_t o = 0; o < PCS_BUDDY_ORDERS; o++) {
    fa->seq_start[o] = seq;
    fa->region[o] = pfn;
    seq += blocks[o] << o;
    pfn = align_up(pfn + (blocks[o] << (o + 1)) + 1, BLOCK_ALIGN);
  }
  fa->seq_start[PCS_BUDDY_ORDERS] = UINT64_MAX; /* order-10 blocks without end */
  fa->pcp = g_new0(PcsPcpList, fa->ncpus);
  for (uint32_t c = 0; c < fa->ncpus; c++) fa->pcp[c] = (PcsPcpList){.last_pfn = UINT64_MAX, .last_page = UINT64_MAX};
  fa->pcp[0].freed_left = freed;
  fa->pcp[0].freed_pfn = PCS_ALLOC_FIRST_PFN + freed - 1;
}

void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks, uint64_t npages) {
  double share = p->memory_contiguous_share;
  *fa = (PcsFrameAlloc){.enabled = p->memory_contiguous != 0, .ntasks = ntasks, .always_follow = share >= 1.0};
  fa->scattered_left = p->memory_scattered / PCS_PAGE_SIZE;
  if (!fa->enabled) {
    fa->streams = g_new(PcsFrameStream, MAX(ntasks, 1));
    for (uint32_t t = 0; t < ntasks; t++)
      fa->streams[t] = (PcsFrameStream){.next_pfn = PCS_ALLOC_FIRST_PFN + t * (2 * npages + 4), .last_page = UINT64_MAX};
    return;
  }
  fa->ncpus = (uint32_t)p->cpu_count;
  fa->batch = p->memory_pcp_batch;
  fa->scale_max = (uint32_t)p->memory_pcp_batch_scale_max;
  fa->stray_pfn = PCS_ALLOC_STRAY_PFN;
  buddy_init(fa, p);
  if (!fa->always_follow) {
    fa->follow_below = (uint32_t)(share * 4294967296.0); /* share < 1: below 2^32 */
    fa->rng = g_new(PcsRng, 1);
    pcs_rng_init_stream(fa->rng, p->scenario_seed, PCS_RNG_STREAM_FRAMES);
  }
}

void pcs_alloc_clear(PcsFrameAlloc *fa) {
  g_clear_pointer(&fa->streams, g_free);
  g_clear_pointer(&fa->pcp, g_free);
  g_clear_pointer(&fa->rng, g_free);
}

/* rmqueue_bulk(): the list's next nr_pcp_alloc() pages of the buddy sequence. */
static void refill(PcsFrameAlloc *fa, PcsPcpList *l) {
  uint64_t n = fa->batch << l->alloc_factor;
  if (l->alloc_factor < fa->scale_max) l->alloc_factor++;
  l->seq = fa->seq;
  l->seq_end = fa->seq + n;
  l->order = fa->order;
  fa->seq += n;
  while (fa->seq >= fa->seq_start[fa->order + 1]) fa->order++;
}

/* The frame of page SEQ of the buddy sequence, in a block of ORDER. */
static inline uint64_t seq_pfn(const PcsFrameAlloc *fa, uint32_t order, uint64_t seq) {
  uint64_t j = seq - fa->seq_start[order];
  if (order == PCS_BUDDY_ORDERS - 1) return fa->region[order] + j; /* order-10 blocks lie together */
  return fa->region[order] + ((j >> order) << (order + 1)) + (j & ((UINT64_C(1) << order) - 1));
}

uint32_t pcs_alloc_page_pcp(PcsFrameAlloc *fa, uint32_t cpu, uint64_t page, uint64_t *pfn) {
  g_assert(cpu < fa->ncpus);
  PcsPcpList *l = &fa->pcp[cpu];
  if (fa->scattered_left) {
    fa->scattered_left--;
    *pfn = fa->stray_pfn; /* a scattered frame: the list is not touched */
    fa->stray_pfn += 2;
    l->last_order = 0;
    return 0;
  }
  /* memory.contiguous_share: a miss skips the list's next frame */
  uint64_t skip = !fa->always_follow && pcs_rng_u32(fa->rng) >= fa->follow_below;
  uint64_t f;
  if (l->freed_left > skip) {
    l->freed_left -= 1 + skip;
    l->freed_pfn -= skip;
    f = l->freed_pfn--;
    l->last_order = 0;
  } else {
    l->freed_left = 0;
    for (uint64_t k = 0; k <= skip; k++) {
      if (l->seq == l->seq_end) refill(fa, l);
      while (l->seq >= fa->seq_start[l->order + 1]) l->order++;
      f = seq_pfn(fa, l->order, l->seq++);
    }
    l->last_order = l->order;
  }
  uint32_t contig = 0;
  if (l->last_pfn != UINT64_MAX && f == l->last_pfn + 1 && l->last_page + 1 == page) contig |= PCS_ALLOC_AFTER_PREV;
  if (l->last_pfn != UINT64_MAX && f + 1 == l->last_pfn && l->last_page == page + 1) contig |= PCS_ALLOC_BEFORE_NEXT;
  l->last_pfn = f;
  l->last_page = page;
  *pfn = f;
  return contig;
}

void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task, uint32_t cpu) {
  if (!fa->enabled) {
    fa->streams[task].last_page = UINT64_MAX;
    return;
  }
  fa->pcp[cpu].alloc_factor >>= 1; /* free_unref_page_commit() */
}

/* Below the scattered frames, far above the per-CPU lists' blocks. */
#define FOLIO_REGION_PFN (PCS_ALLOC_STRAY_PFN >> 1)

uint64_t pcs_alloc_folio(PcsFrameAlloc *fa, uint32_t order) {
  uint64_t n = UINT64_C(1) << order;
  if (fa->folio_pfn < FOLIO_REGION_PFN) fa->folio_pfn = FOLIO_REGION_PFN;
  uint64_t pfn = (fa->folio_pfn + n - 1) / n * n;
  fa->folio_pfn = pfn + n + 1; /* the next starts a block later: never the frame after this one's last */
  return pfn;
}

uint32_t pcs_alloc_folio_block(PcsFrameAlloc *fa, uint32_t order) {
  if (!fa->enabled || order >= PCS_BUDDY_ORDERS) return 0;
  uint64_t n = UINT64_C(1) << order;
  uint32_t o = order;
  if (fa->folio_seq < fa->seq_start[o]) fa->folio_seq = fa->seq_start[o];
  for (;;) {
    while (fa->folio_seq >= fa->seq_start[o + 1]) o++;
    uint64_t at = fa->seq_start[o] + align_up(fa->folio_seq - fa->seq_start[o], n); /* aligned in its block */
    if (at + n <= fa->seq_start[o + 1]) {
      fa->folio_seq = at + n;
      return o;
    }
    fa->folio_seq = fa->seq_start[o + 1]; /* no room left at this order */
  }
}
