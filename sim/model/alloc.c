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
 * The frame is decided when the insert has won (pagecache.c, then here),
 * where the kernel allocates before inserting: the lost page's frame goes
 * back to the free list either way.
 */
#include "alloc.h"
#include "pcsim/units.h"

void pcs_alloc_init(PcsFrameAlloc *fa, const PcsParams *p, uint32_t ntasks) {
  *fa = (PcsFrameAlloc){.enabled = p->memory_contiguous != 0, .ntasks = ntasks};
  fa->scattered_left = p->memory_scattered / PCS_PAGE_SIZE;
  fa->last_frame = g_new(uint64_t, MAX(ntasks, 1));
  for (uint32_t t = 0; t < ntasks; t++) fa->last_frame[t] = UINT64_MAX;
}

void pcs_alloc_clear(PcsFrameAlloc *fa) { g_clear_pointer(&fa->last_frame, g_free); }

gboolean pcs_alloc_page(PcsFrameAlloc *fa, uint32_t task, uint64_t page) {
  if (!fa->enabled) return FALSE; /* memory.contiguous = 0: no frame is adjacent */
  if (fa->scattered_left) {
    fa->scattered_left--;
    fa->last_frame[task] = UINT64_MAX;
    return FALSE;
  }
  gboolean contig = page > 0 && fa->last_frame[task] == page - 1;
  fa->last_frame[task] = page;
  return contig;
}

void pcs_alloc_free(PcsFrameAlloc *fa, uint32_t task) {
  if (fa->enabled) fa->last_frame[task] = UINT64_MAX;
}
