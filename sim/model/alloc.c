/* alloc.c - the page allocator, as far as bio and request sizes see it:
 * does a new page-cache page sit in the frame right after the frame of the
 * file page before it?
 *
 * Mirrors what __alloc_pages() -> rmqueue() hands readahead for order-0
 * pages (__page_cache_alloc() in __do_page_cache_readahead(), v3.x, and
 * page_cache_ra_unbounded(), v6.x).  Pages split from a large free block
 * come out in ascending frame order, so one thread allocating a window page
 * by page gets adjacent frames, and bio_add_page() merges adjacent frames
 * into one bio_vec (bvec_try_merge_page(), multi-page bvecs since v5.1) and
 * the block layer into one segment.  Pages freed shortly before (by
 * drop_caches, or fio's invalidate=1) sit scattered on the free lists and
 * are handed out first: each of those is a bio_vec and a segment of its own.
 *
 *   memory.contiguous = 0   no two frames adjacent (what pcsim assumed for
 *                           v3.x: a page is a segment)
 *   memory.contiguous = 1   the first memory.scattered bytes allocated are
 *                           scattered pages, then each page a thread
 *                           allocates directly follows its previous frame
 *                           with probability memory.contiguous_share (a
 *                           seeded stream of its own, PCS_RNG_STREAM_FRAMES;
 *                           1, the default, draws nothing)
 *
 * Frame numbers (the pfn of the INSERT trace event): each task hands out
 * frames from a region of its own, upwards; a frame that does not follow
 * skips one, so frames are adjacent exactly where the model says so:
 * pfn(page) == pfn(page-1) + 1 only when one task allocated page-1 and then
 * page, and the second followed the first.  A region spans 2 * file pages
 * + 4 frames, room for every page of the file and a gap to the next.
 *
 * Differs from the kernel: one stream of frames per thread (no per-CPU
 * lists shared by threads on one CPU), no reclaim, and a page lost to
 * another thread's insert (-EEXIST) ends its thread's contiguous run.
 * The frame is decided when the insert has won (pagecache.c, then here),
 * where the kernel allocates before inserting: the lost page's frame goes
 * back to the free list either way.
 */
#include "alloc.h"
#include "pcsim/units.h"

void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks, uint64_t npages) {
  double share = p->memory_contiguous_share;
  *fa = (PcsFrameAlloc){.enabled = p->memory_contiguous != 0, .ntasks = ntasks, .always_follow = share >= 1.0};
  fa->scattered_left = p->memory_scattered / PCS_PAGE_SIZE;
  fa->streams = g_new(PcsFrameStream, MAX(ntasks, 1));
  for (uint32_t t = 0; t < ntasks; t++)
    fa->streams[t] = (PcsFrameStream){.next_pfn = PCS_ALLOC_FIRST_PFN + t * (2 * npages + 4), .last_page = UINT64_MAX};
  if (fa->enabled && !fa->always_follow) {
    fa->follow_below = (uint32_t)(share * 4294967296.0); /* share < 1: below 2^32 */
    fa->rng = g_new(PcsRng, 1);
    pcs_rng_init_stream(fa->rng, p->scenario_seed, PCS_RNG_STREAM_FRAMES);
  }
}

void pcs_alloc_clear(PcsFrameAlloc *fa) {
  g_clear_pointer(&fa->streams, g_free);
  g_clear_pointer(&fa->rng, g_free);
}

/* Does the next frame of a running stream directly follow its last one? */
static gboolean follows(PcsFrameAlloc *fa) {
  return fa->always_follow || pcs_rng_u32(fa->rng) < fa->follow_below;
}

gboolean pcs_alloc_page_contiguous(PcsFrameAlloc *fa, PcsFrameStream *st, uint64_t page, uint64_t *pfn) {
  gboolean follow = FALSE, contig = FALSE;
  if (fa->scattered_left) {
    fa->scattered_left--; /* a scattered page: it ends its thread's run */
    st->last_page = UINT64_MAX;
  } else {
    follow = st->last_page != UINT64_MAX && follows(fa);
    contig = follow && st->last_page == page - 1; /* page 0: last_page is no page - 1 */
    st->last_page = page;
  }
  *pfn = st->next_pfn + !follow;
  st->next_pfn = *pfn + 1;
  return contig;
}

void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task) { fa->streams[task].last_page = UINT64_MAX; }
