/* bio.c - building bios page by page.
 *
 * Mirrors submit_extent_page() (fs/btrfs/extent_io.c, v3.x) and
 * bio_add_page() (block/bio.c): a thread keeps one open bio; the next page
 * is appended when
 *   - its disk sector equals the bio's end sector (the file is laid out
 *     contiguously on disk: page p is sectors 8p..8p+7),
 *   - the bio stays within bio.max_size,
 *   - a page whose frame does not follow the previous page's (alloc.c)
 *     finds a free bio_vec: at most bio.max_vecs (BIO_MAX_VECS, bio_full()),
 *   - with bio.queue_limited (v3.x), the bio stays within the queue's
 *     block.max_sectors and block.max_segments, and
 *   - the bio would not cross a bio.stripe_size boundary
 *     (btrfs_merge_bio_hook());
 * otherwise the open bio must be submitted first (reader.c charges the
 * per-bio submit cost, then blk.c takes it) and a new one opened.
 * Compression flags always match here: pcsim models uncompressed data.
 *
 * Segments, as the block layer counts them (blk_rq_map_sg(), bio_split_rw()):
 * runs of physically contiguous pages, cut at block.max_segment_size.
 */
#include "internal.h"

static inline gboolean page_contig(const PcsSim *s, uint64_t page) {
  return (s->pages[page] & PCS_PG_CONTIG) != 0;
}

/* Does a page start a new segment after a segment of SEG_PAGES pages?
 * CONTIG: its frame follows the previous page's. */
static inline gboolean new_segment(const PcsSim *s, uint32_t seg_pages, gboolean contig) {
  return !contig || seg_pages >= s->seg_max_pages;
}

void pcs_bio_open(PcsSim *s, PcsReader *r, uint64_t page) {
  g_assert(r->open_bio == PCS_NONE);
  uint32_t id = pcs_pool_get(&s->bios);
  PcsBio *b = pcs_bio_at(s, id);
  b->first = page;
  b->npages = 1;
  b->nvecs = b->nseg = b->seg_pages = 1;
  b->thread = r->id;
  r->open_bio = id;
}

/* CONTIG: PAGE's frame follows the previous page's; NEW_SEG: PAGE starts a segment. */
static gboolean bio_accepts(PcsSim *s, const PcsBio *b, uint64_t page, gboolean contig, gboolean new_seg) {
  if (b->first + b->npages != page) return FALSE;
  if (b->npages >= s->bio_max_pages) return FALSE;
  if (!contig && b->nvecs >= s->p->bio_max_vecs) return FALSE;
  if (new_seg && s->p->bio_queue_limited && b->nseg >= s->p->block_max_segments) return FALSE;
  if (s->stripe_pages && b->first / s->stripe_pages != page / s->stripe_pages) return FALSE;
  return TRUE;
}

/* TRUE when PAGE went into the open bio (or opened the first one); FALSE
 * when the open bio has to be submitted before PAGE can start a new one. */
gboolean pcs_bio_add_page(PcsSim *s, PcsReader *r, uint64_t page) {
  if (r->open_bio == PCS_NONE) {
    pcs_bio_open(s, r, page);
    return TRUE;
  }
  PcsBio *b = pcs_bio_at(s, r->open_bio);
  gboolean contig = page_contig(s, page);
  gboolean new_seg = new_segment(s, b->seg_pages, contig);
  if (!bio_accepts(s, b, page, contig, new_seg)) return FALSE;
  b->nvecs += !contig;
  b->nseg += new_seg;
  b->seg_pages = new_seg ? 1 : b->seg_pages + 1;
  b->npages++;
  return TRUE;
}

/* How many of the NPAGES pages from FIRST fit in MAX_PAGES pages and
 * MAX_SEGS segments (at least one); *NSEG gets their segment count. */
uint32_t pcs_bio_fit(const PcsSim *s, uint64_t first, uint32_t npages, uint32_t max_pages, uint32_t max_segs,
                     uint32_t *nseg) {
  uint32_t n = 1, segs = 1, seg_pages = 1;
  for (; n < npages && n < max_pages; n++) {
    if (new_segment(s, seg_pages, page_contig(s, first + n))) {
      if (segs >= max_segs) break;
      segs++;
      seg_pages = 1;
    } else {
      seg_pages++;
    }
  }
  *nseg = segs;
  return n;
}
