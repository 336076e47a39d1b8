/* bio.h - bios: built page by page, then submitted to the block layer (see bio.c). */
#ifndef PCSIM_MODEL_BIO_H
#define PCSIM_MODEL_BIO_H

#include "pcsim/params.h"
#include "pool.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint64_t first;   /* first file page; disk sector = first * PCS_SECTORS_PER_PAGE */
  uint32_t npages;
  uint32_t nvecs;   /* bio_vec entries: runs of physically contiguous pages */
  uint32_t nseg;    /* request segments: those runs cut at block.max_segment_size */
  uint32_t seg_pages; /* pages in the last segment */
  uint32_t thread;  /* submitting reader */
  uint32_t next;    /* next bio in its request / end-io queue / free list */
  /* the bio as submitted, before the block layer split it (blk.c): this
   * part starts chain_off pages into it, which has chain_pages pages */
  uint32_t chain_off, chain_pages;
} PcsBio;

/* The bios of a run (the kernel's bio_set) and the limits a bio is built to. */
typedef struct {
  PcsPool pool;
  uint64_t max_pages;     /* bio.max_size, and with bio.queue_limited the request limit */
  uint64_t stripe_pages;  /* bio.stripe_size, 0 for none */
  uint32_t seg_max_pages; /* block.max_segment_size in pages */
} PcsBioSet;

/* The largest bio under P, in pages: bio.max_size, and with bio.queue_limited
 * the block queue's largest request (blk.c). */
uint64_t pcs_bio_max_pages(const PcsParams *p);
/* Called once per run. */
void pcs_bioset_init(PcsBioSet *bs, const PcsParams *p);
/* Frees the pool; every bio must have been completed (put) before. */
void pcs_bioset_clear(PcsBioSet *bs);
/* The bio ID; valid until the next pcs_pool_get() on the set. */
static inline PcsBio *pcs_bio_at(const PcsBioSet *bs, uint32_t id) { return pcs_pool_at(&bs->pool, id); }

/* submit_extent_page() for PAGE by THREAD, whose open bio is *BIO_RET
 * (PCS_NONE for none): TRUE when PAGE went into the open bio or opened the
 * first one; FALSE when the open bio must be submitted before PAGE can
 * start a new one.  Never schedules. */
gboolean pcs_bio_add_page(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t page);
/* bio_add_folio() of the folio whose first page is HEAD (ext4's
 * mpage_readahead(), xfs's iomap_readahead(): one bio_vec per folio, its
 * pages physically contiguous): all of it goes into the open bio, or opens
 * the first one, TRUE; FALSE when the open bio must be submitted first (a
 * block discontinuity, no free bio_vec, or bio.max_size). */
gboolean pcs_bio_add_folio(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t head);
/* Opens a one-page bio for PAGE in *BIO_RET, which must hold none. */
void pcs_bio_open(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t page);
/* submit_bio() of the open bio *BIO_RET (which then holds none) into the
 * block layer (blk.c); may dispatch to the device and schedule its
 * completion.  FALSE: the thread sleeps for a free request (v3.5
 * get_request_wait(), blk.c) and *BIO_RET stays open; call again when it
 * is woken. */
gboolean pcs_bio_submit(PcsSim *s, uint32_t *bio_ret);
/* How many of the NPAGES pages from FIRST fit in MAX_PAGES pages and
 * MAX_SEGS segments (at least one); *NSEG gets their segment count.
 * The one segment rule, shared with the block layer's split. */
uint32_t pcs_bio_fit(const PcsSim *s, uint64_t first, uint32_t npages, uint32_t max_pages, uint32_t max_segs,
                     uint32_t *nseg);

#endif
