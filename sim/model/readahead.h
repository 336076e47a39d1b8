/* readahead.h - the on-demand readahead window of one open file (see readahead.c). */
#ifndef PCSIM_MODEL_READAHEAD_H
#define PCSIM_MODEL_READAHEAD_H

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

/* struct file_ra_state: one per reader (each fio job opens the file itself). */
typedef struct {
  uint64_t start;
  uint64_t size, async_size;
  uint64_t prev_index; /* v3.5: last page the last read() call copied (ra->prev_pos >> PAGE_SHIFT, stored at its end) */
  gboolean prev_valid;
  uint32_t order; /* v6.18 ra->order: preferred folio order of the last readahead */
  uint64_t prev_end;   /* v6.18 ra->prev_pos >> PAGE_SHIFT: where the last read() call ended */
  gboolean prev_end_valid; /* FALSE before the first call ended (prev_pos = -1) */
} PcsRaState;

/* The pages one readahead hands to ->readpages, in index order: under v3.5
 * those absent at lookup (__do_page_cache_readahead()); under v6.18 every
 * index of the window, each looked up again as page_cache_ra_unbounded()
 * reaches it (reader.c skips those present then). */
typedef struct {
  uint64_t *pages;
  uint32_t n, next, cap; /* NEXT: the first page ->readpages has not taken yet */
  uint64_t marker;       /* page to carry PG_readahead, UINT64_MAX for none */
  uint64_t scanned;      /* v6.18: cached pages page_cache_{next,prev}_miss() walked to decide the window */
} PcsRaList;

/* get_init_ra_size(): the first window for a read of REQ pages, at most MAX. */
uint64_t pcs_ra_init_size(uint64_t req, uint64_t max);
/* get_next_ra_size(): the window after one of CUR pages, at most MAX. */
uint64_t pcs_ra_next_size(uint64_t cur, uint64_t max);
/* Under [scenario] kernel = v3.5 these mirror ondemand_readahead(); under
 * v6.18 page_cache_sync_ra() / page_cache_async_ra() (readahead.c). */
/* page_cache_sync_readahead() by reader THREAD, which missed page OFFSET of a
 * REQ-page read: moves RA's window and fills OUT.  TRUE when OUT has pages
 * to read.  Reads the page cache, counts ra_sync, never schedules. */
gboolean pcs_ra_sync(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req);
/* page_cache_async_readahead() by THREAD, which cleared the marker on page
 * OFFSET: as pcs_ra_sync(), counting ra_async. */
gboolean pcs_ra_async(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req);

#endif
