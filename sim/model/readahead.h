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
  /* readahead.max_folio_order > 0: PAGES are folios' first pages and
   * ORDERS their orders; LARGE while the list is page_cache_ra_order()'s
   * loop (a failed insert hands the rest to pcs_ra_list_fallback()) */
  uint8_t *orders;
  gboolean large;
} PcsRaList;

/* One folio page_cache_ra_order() allocates: its first page, its order,
 * and whether it carries PG_readahead. */
typedef struct {
  uint64_t index;
  uint32_t order;
  gboolean marker;
} PcsRaFolio;

/* What page_cache_ra_order() inserts for one window: FOLIOS, in index
 * order, up to the first insert that failed; then the order-0 rest that
 * do_page_cache_ra() reads, [rest_start, rest_start + rest_n), which
 * page_cache_ra_unbounded() looks up page by page (a present page splits
 * the batch, it does not end it). */
typedef struct {
  PcsRaFolio *folios;
  uint32_t n, cap;       /* CAP: at least the window's pages */
  uint64_t rest_start;   /* the first page do_page_cache_ra() reads */
  uint64_t rest_n;       /* its pages, 0: none (every folio went in) */
  uint64_t rest_marker;  /* the rest's page to carry PG_readahead, UINT64_MAX for none */
} PcsRaFolios;

/* TRUE when a page of [index, index + n) is in the page cache: an insert of
 * a folio over that range fails (-EEXIST anywhere in it). */
typedef gboolean (*PcsRaPresentFn)(void *user, uint64_t index, uint64_t n);

/* page_cache_ra_order() of 6.18 for RA's window (start, size, async_size,
 * and order: the order asked for), in a file of EOF pages whose mapping
 * takes folios up to MAX_ORDER (0: no large folios, as btrfs data: order
 * back to 0 and the whole window order 0).  Stores the order used in
 * ra->order; fills OUT.  PRESENT (NULL: nothing cached) decides which
 * insert fails.  Pure: reads nothing else, counts nothing. */
void pcs_ra_order(PcsRaState *ra, uint32_t max_order, uint64_t eof, PcsRaPresentFn present, void *user,
                  PcsRaFolios *out);
/* page_cache_next_miss(mapping, INDEX + 1, MAX) of 6.18 as lib/xarray.c
 * walks it, INDEX being the first page of the marked folio of FOLIO_PAGES
 * pages, in file pages (0 the file's first; PRESENT answers FALSE past the
 * file's end: the tree is empty there).  The index the walk reports: the
 * first page PRESENT says is empty, or one past it when the walk starts on
 * a sibling slot (readahead.c); INDEX + 1 + MAX when MAX slots hold no
 * empty one.  Pure. */
uint64_t pcs_ra_next_miss(uint64_t index, uint64_t folio_pages, uint64_t max, PcsRaPresentFn present, void *user);
/* page_cache_async_ra() of 6.18 on the marked folio at INDEX of FOLIO_PAGES
 * pages when INDEX is the expected one (start + size - async_size rounded
 * down to the folio): the window moves on, grows by get_next_ra_size() of
 * MAX pages, ra->order += 2, the end rounded down to 1 << order pages (at
 * most MAX's own alignment), async_size = size.  FALSE, RA untouched, when
 * INDEX is not the expected index. */
gboolean pcs_ra6_advance(PcsRaState *ra, uint64_t index, uint64_t folio_pages, uint64_t max);

/* page_cache_ra_order()'s loop ended with a failed insert at the folio
 * LIST->pages[AT] (-EEXIST: a page of its range present): do_page_cache_ra()
 * reads the rest of RA's window from there at order 0, so the list from AT
 * on becomes those pages (each looked up as the reader gets there), the
 * marker the rest's own.  THREAD reads the file. */
void pcs_ra_list_fallback(PcsSim *s, uint32_t thread, const PcsRaState *ra, PcsRaList *list, uint32_t at);

/* VM_READAHEAD_PAGES (128 KiB): bdi_alloc()'s io_pages, btrfs's own bdi's */
#define PCS_RA_BTRFS_IO_PAGES 32

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
