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
  uint64_t prev_index; /* last page copied (ra->prev_pos >> PAGE_SHIFT) */
  gboolean prev_valid;
} PcsRaState;

/* The pages one readahead hands to ->readpages: absent at lookup, in index order. */
typedef struct {
  uint64_t *pages;
  uint32_t n, next, cap; /* NEXT: the first page ->readpages has not taken yet */
  uint64_t marker;       /* page to carry PG_readahead, UINT64_MAX for none */
} PcsRaList;

/* get_init_ra_size(): the first window for a read of REQ pages, at most MAX. */
uint64_t pcs_ra_init_size(uint64_t req, uint64_t max);
/* get_next_ra_size(): the window after one of CUR pages, at most MAX. */
uint64_t pcs_ra_next_size(uint64_t cur, uint64_t max);
/* page_cache_sync_readahead() by reader THREAD, which missed page OFFSET of a
 * REQ-page read: moves RA's window and fills OUT.  TRUE when OUT has pages
 * to read.  Reads the page cache, counts ra_sync, never schedules. */
gboolean pcs_ra_sync(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req);
/* page_cache_async_readahead() by THREAD, which cleared the marker on page
 * OFFSET: as pcs_ra_sync(), counting ra_async. */
gboolean pcs_ra_async(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req);

#endif
