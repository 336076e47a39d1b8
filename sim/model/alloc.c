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
 *                           scattered pages, then adjacent frames
 *
 * Differs from the kernel: one stream of frames per thread (no per-CPU
 * lists shared by threads on one CPU), no reclaim, and a page lost to
 * another thread's insert (-EEXIST) ends its thread's contiguous run.
 */
#include "internal.h"

/* Allocate the frame for PAGE, about to be inserted by R.  TRUE when it
 * directly follows the frame of PAGE - 1.  Only called with
 * memory.contiguous = 1 (pagecache.c skips the allocator otherwise). */
gboolean pcs_alloc_page(PcsSim *s, PcsReader *r, uint64_t page) {
  if (s->scattered_left) {
    s->scattered_left--;
    r->last_frame = UINT64_MAX;
    return FALSE;
  }
  gboolean contig = page > 0 && r->last_frame == page - 1;
  r->last_frame = page;
  return contig;
}

/* The page R just allocated lost its insert and was freed. */
void pcs_alloc_free(PcsSim *s, PcsReader *r) {
  (void)s;
  r->last_frame = UINT64_MAX;
}
