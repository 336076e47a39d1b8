/* csum.c - btrfs's checksum tree leaves, read on demand when a bio is submitted.
 *
 * Mirrors btrfs_lookup_bio_sums() (fs/btrfs/file-item.c): before a data
 * read bio goes to the block layer, btrfs looks its sectors' checksums up
 * in the checksum tree, leaf by leaf (btrfs_search_slot()).  A leaf not in
 * memory is read there and then (read_block_for_search() ->
 * read_extent_buffer_pages(), wait on it): a metadata bio of one nodesize
 * (rwbs RM), submitted under the reader's plug, which io_schedule()
 * flushes when the reader sleeps; a second thread needing the same leaf
 * while it is being read sleeps on it too (read_extent_buffer_pages():
 * wait_on_bit_io() on EXTENT_BUFFER_READING).  The read completes through its own
 * workqueue (endio_meta_workers, end_bbio_meta_read(): cost.meta_complete,
 * endio.c), which marks the leaf up to date and wakes the sleepers.
 *
 * One leaf holds the crc32c of (nodesize - 126) / 4 sectors: at 16 KiB,
 * 4064 sectors of 4 KiB, 15.9 MiB of file.  Every Linux 6.18 capture of a
 * 1000 MiB file here at the default nodesize (16 KiB) shows 66 such reads
 * of 32 sectors, one each 15.8 to 16.0 MiB of file (median spacing), each
 * followed by the data bio that needed it from the same task; file systems
 * made with 4k and 64k nodes read 265 and 21 (docs/validation.md,
 * "Checksum leaves" and "Checksum leaves at three nodesizes").
 *
 * Differs from the kernel: a file's leaves are laid out one after the other
 * from the file's first page and are full (the tree's real leaf boundaries
 * depend on how the file was written: at 64k they held three quarters of
 * a full leaf); the interior nodes above the leaves, and the other trees'
 * blocks (the file's extent items), are taken as cached; no leaf is
 * evicted during a run; btrfs's tree readahead (reada_for_search(), asked
 * for when a bio has more sectors than a leaf holds, and by
 * btrfs_get_extent()) is not modelled: each leaf is read when first
 * needed; the lookup and the plug flush before the sleep cost no CPU
 * beyond cost.bio_submit; the leaf's read is an ordinary request to the
 * block layer (v3.5's CFQ favours metadata requests, REQ_PRIO, which pcsim
 * does not; the shipped v3.5 scenarios leave the leaves out).
 */
#include "internal.h"

enum { LEAF_ABSENT, LEAF_READING, LEAF_CACHED };

void pcs_csum_init(PcsCsum *c, const PcsParams *p, uint32_t nreaders, uint64_t file_pages, uint64_t nfiles) {
  *c = (PcsCsum){.nreaders = nreaders};
  if (!p->bio_csum_leaf_size) return;
  c->span = (p->bio_csum_leaf_size - PCS_CSUM_LEAF_OVERHEAD) / PCS_CSUM_SIZE; /* sectors of 4 KiB: pages */
  c->leaf_pages = (uint32_t)(p->bio_csum_leaf_size / PCS_PAGE_SIZE);
  c->per_file = (file_pages + c->span - 1) / c->span;
  c->state = g_new0(uint8_t, c->per_file * nfiles);
  c->waiting = g_new(uint64_t, nreaders);
  for (uint32_t i = 0; i < nreaders; i++) c->waiting[i] = PCS_CSUM_NONE;
}

void pcs_csum_clear(PcsCsum *c) {
  g_clear_pointer(&c->state, g_free);
  g_clear_pointer(&c->waiting, g_free);
}

/* Where leaf LEAF lies on the device: a gap of a page after each, so that
 * two leaves' reads never merge into one request. */
static uint64_t leaf_first_page(const PcsCsum *c, uint64_t leaf) { return PCS_META_FIRST_PAGE + leaf * (c->leaf_pages + 1); }

/* Sends LEAF's read for READER: a bio of one leaf into READER's plug.
 * FALSE: no free request (v3.5 get_request_wait()), READER sleeps there
 * and asks again when woken; the leaf stays absent. */
static gboolean read_leaf(PcsSim *s, uint32_t reader, uint64_t leaf) {
  PcsCsum *c = &s->csum;
  uint32_t bio = pcs_pool_get(&s->bio.pool);
  uint64_t first = leaf_first_page(c, leaf);
  *pcs_bio_at(&s->bio, bio) = (PcsBio){.first = first, .npages = c->leaf_pages, .nvecs = 1, .nseg = 1,
                                       .seg_pages = c->leaf_pages, .thread = reader, .next = PCS_NONE};
  if (!pcs_blk_submit(s, reader, bio)) {
    pcs_pool_put(&s->bio.pool, bio);
    return FALSE;
  }
  c->state[leaf] = LEAF_READING;
  s->res->csum_reads++;
  return TRUE;
}

PcsCsumLookup pcs_csum_lookup(PcsSim *s, uint32_t reader, uint64_t file, uint64_t first, uint64_t last) {
  PcsCsum *c = &s->csum;
  if (!c->span) return PCS_CSUM_READY;
  uint64_t leaf = file * c->per_file + first / c->span, end = file * c->per_file + last / c->span;
  while (leaf <= end && c->state[leaf] == LEAF_CACHED) leaf++;
  if (leaf > end) return PCS_CSUM_READY;
  if (c->state[leaf] == LEAF_ABSENT && !read_leaf(s, reader, leaf)) return PCS_CSUM_RQ_WAIT;
  /* io_schedule(): the plug goes to the device before the reader sleeps */
  pcs_blk_flush_plug(s, reader);
  c->waiting[reader] = leaf;
  pcs_trace(s, reader + 1, PCS_TRACE_CSUM_WAIT, leaf_first_page(c, leaf), c->leaf_pages);
  pcs_cpu_release(s, reader, PCS_TASK_SLEEP);
  return PCS_CSUM_SLEEP;
}

void pcs_csum_leaf_read(PcsSim *s, uint64_t first_page, uint32_t worker) {
  PcsCsum *c = &s->csum;
  uint64_t leaf = (first_page - PCS_META_FIRST_PAGE) / (c->leaf_pages + 1);
  g_assert(c->state[leaf] == LEAF_READING);
  c->state[leaf] = LEAF_CACHED;
  for (uint32_t i = 0; i < c->nreaders; i++) /* in reader order (the kernel: in the order they slept): few readers, a few dozen leaves a run */
    if (c->waiting[i] == leaf) {
      c->waiting[i] = PCS_CSUM_NONE;
      pcs_cpu_wake_target(&s->cpu, i, worker, s->evq.now);
      pcs_reader_wake(s, &s->readers[i], worker);
    }
}
