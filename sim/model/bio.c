/* bio.c - building bios page by page.
 *
 * Mirrors submit_extent_page() (fs/btrfs/extent_io.c, v3.x) and
 * bio_add_page() (block/bio.c): a thread keeps one open bio; the next page
 * is appended when
 *   - its disk sector equals the bio's end sector (the file is laid out
 *     contiguously on disk: page p starts at sector p * PCS_SECTORS_PER_PAGE),
 *   - the bio stays within bio.max_size,
 *   - a page whose frame does not follow the previous page's (alloc.c)
 *     finds a free bio_vec: at most bio.max_vecs (BIO_MAX_VECS, bio_full()),
 *   - with bio.queue_limited (v3.x), the bio stays within the queue's
 *     block.max_sectors and block.max_segments, and
 *   - the bio would not cross a bio.stripe_size boundary
 *     (btrfs_merge_bio_hook());
 * otherwise the open bio must be submitted first and a new one opened.
 * The thread pays the per-bio submit cost (cost.bio_submit, reader.c
 * charges it as one CPU step), then pcs_bio_submit() hands the bio to the
 * block layer (blk.c), which owns it from there.  Like the kernel's
 * struct bio **bio_ret, the open bio is the caller's: one per ->readpages
 * call, surviving from one pool to the next.
 * Compression flags always match here: pcsim models uncompressed data.
 *
 * Segments, as the block layer counts them (blk_rq_map_sg(), bio_split_rw()):
 * runs of physically contiguous pages, cut at block.max_segment_size.
 */
#include "internal.h"

uint64_t pcs_bio_max_pages(const PcsParams *p) {
  uint64_t max = p->bio_max_size / PCS_PAGE_SIZE;
  /* v3.x bio_add_page() also honours the queue's max_sectors and
   * max_segments; newer kernels let the bio grow and split it (blk.c) */
  if (p->bio_queue_limited) max = MIN(max, pcs_blk_rq_max_pages(p));
  return max;
}

void pcs_bioset_init(PcsBioSet *bs, const PcsParams *p) {
  pcs_pool_init(&bs->pool, sizeof(PcsBio), offsetof(PcsBio, next), 256);
  bs->seg_max_pages = (uint32_t)MIN(p->block_max_segment_size / PCS_PAGE_SIZE, UINT32_MAX);
  bs->max_pages = pcs_bio_max_pages(p);
  bs->stripe_pages = p->bio_stripe_size / PCS_PAGE_SIZE;
}

void pcs_bioset_clear(PcsBioSet *bs) { pcs_pool_clear(&bs->pool); }

/* Does a page start a new segment after a segment of SEG_PAGES pages?
 * CONTIG: its frame follows the previous page's. */
static inline gboolean new_segment(const PcsBioSet *bs, uint32_t seg_pages, gboolean contig) {
  return !contig || seg_pages >= bs->seg_max_pages;
}

void pcs_bio_open(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t page) {
  g_assert(*bio_ret == PCS_NONE);
  uint32_t id = pcs_pool_get(&s->bio.pool);
  PcsBio *b = pcs_bio_at(&s->bio, id);
  b->first = page;
  b->npages = 1;
  b->nvecs = b->nseg = b->seg_pages = 1;
  b->thread = thread;
  *bio_ret = id;
}

/* CONTIG: PAGE's frame follows the previous page's; NEW_SEG: PAGE starts a segment. */
static gboolean bio_accepts(const PcsSim *s, const PcsBio *b, uint64_t page, gboolean contig, gboolean new_seg) {
  const PcsBioSet *bs = &s->bio;
  if (b->first + b->npages != page) return FALSE; /* not the next sector on disk */
  if (b->npages >= bs->max_pages) return FALSE;
  if (!contig && b->nvecs >= s->p->bio_max_vecs) return FALSE;
  if (new_seg && s->p->bio_queue_limited && b->nseg >= s->p->block_max_segments) return FALSE;
  if (bs->stripe_pages && b->first / bs->stripe_pages != page / bs->stripe_pages) return FALSE;
  return TRUE;
}

/* models submit_extent_page() contiguity check and bio_add_page() */
gboolean pcs_bio_add_page(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t page) {
  if (*bio_ret == PCS_NONE) {
    pcs_bio_open(s, bio_ret, thread, page);
    return TRUE;
  }
  PcsBio *b = pcs_bio_at(&s->bio, *bio_ret);
  gboolean contig = pcs_pc_frame_contig(&s->pc, page);
  gboolean new_seg = new_segment(&s->bio, b->seg_pages, contig);
  if (!bio_accepts(s, b, page, contig, new_seg)) return FALSE;
  b->nvecs += !contig;
  b->nseg += new_seg;
  b->seg_pages = new_seg ? 1 : b->seg_pages + 1;
  b->npages++;
  return TRUE;
}

/* The folio's pages one by one: its later pages follow their frames (the
 * head decides the new bio_vec), so the counts are a page walk's. */
gboolean pcs_bio_add_folio(PcsSim *s, uint32_t *bio_ret, uint32_t thread, uint64_t head) {
  uint64_t n = pcs_pc_folio_pages(&s->pc, head);
  if (*bio_ret != PCS_NONE) {
    const PcsBio *b = pcs_bio_at(&s->bio, *bio_ret);
    gboolean contig = pcs_pc_frame_contig(&s->pc, head);
    if (b->first + b->npages != head || b->npages + n > s->bio.max_pages) return FALSE;
    if (!contig && b->nvecs >= s->p->bio_max_vecs) return FALSE;
    if (s->bio.stripe_pages && b->first / s->bio.stripe_pages != (head + n - 1) / s->bio.stripe_pages) return FALSE;
  }
  for (uint64_t p = head; p < head + n; p++) {
    gboolean added = pcs_bio_add_page(s, bio_ret, thread, p);
    g_assert(added); /* checked above: sector, size, vec; queue limits are v3.x's, not with large folios */
  }
  return TRUE;
}

gboolean pcs_bio_submit(PcsSim *s, uint32_t *bio_ret) {
  uint32_t bio = *bio_ret;
  g_assert(bio != PCS_NONE);
  if (!pcs_blk_submit(s, pcs_bio_at(&s->bio, bio)->thread, bio)) return FALSE;
  *bio_ret = PCS_NONE;
  return TRUE;
}

uint32_t pcs_bio_fit(const PcsSim *s, uint64_t first, uint32_t npages, uint32_t max_pages, uint32_t max_segs,
                     uint32_t *nseg) {
  uint32_t n = 1, segs = 1, seg_pages = 1;
  for (; n < npages && n < max_pages; n++) {
    if (new_segment(&s->bio, seg_pages, pcs_pc_frame_contig(&s->pc, first + n))) {
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
