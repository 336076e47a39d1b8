/* bio.c - building bios page by page.
 *
 * Mirrors submit_extent_page() (fs/btrfs/extent_io.c, v3.x): a thread keeps
 * one open bio; the next page is appended when
 *   - its disk sector equals the bio's end sector (the file is laid out
 *     contiguously on disk: page p is sectors 8p..8p+7),
 *   - the bio stays within bio.max_size (bio_add_page() accepting it), and
 *   - the bio would not cross a bio.stripe_size boundary
 *     (btrfs_merge_bio_hook());
 * otherwise the open bio must be submitted first (reader.c charges the
 * per-bio submit cost, then blk.c takes it) and a new one opened.
 * Compression flags always match here: pcsim models uncompressed data.
 */
#include "internal.h"

void pcs_bio_open(PcsSim *s, PcsReader *r, uint64_t page) {
  g_assert(r->open_bio == PCS_NONE);
  uint32_t id = pcs_pool_get(&s->bios);
  PcsBio *b = pcs_bio_at(s, id);
  b->first = page;
  b->npages = 1;
  b->thread = r->id;
  r->open_bio = id;
}

static gboolean bio_accepts(PcsSim *s, const PcsBio *b, uint64_t page) {
  if (b->first + b->npages != page) return FALSE;
  if (b->npages >= s->bio_max_pages) return FALSE;
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
  if (!bio_accepts(s, b, page)) return FALSE;
  b->npages++;
  return TRUE;
}
