/* iotree.c - btrfs's extent io tree lock (io_tree->lock), v3.5.
 *
 * Every btrfs inode has one extent io tree (struct extent_io_tree) whose
 * rbtree of extent states is guarded by one spinlock, tree->lock, shared
 * by every thread reading the file.  Reading fs/btrfs/extent_io.c and
 * file-item.c of v3.5, one page read through __extent_read_full_page()
 * takes it three times on the submitting side:
 *   - lock_extent(): allocate an extent_state and insert it with
 *     EXTENT_LOCKED (set_extent_bit(), cost.iotree_lock_extent);
 *   - test_range_bit(EXTENT_UPTODATE): an rbtree search
 *     (cost.iotree_test_bit);
 *   - set_state_private(): btrfs_lookup_bio_sums() stores the page's
 *     checksum in its extent state when the bio is submitted, one search
 *     per page (cost.iotree_state_private).
 * (btrfs_lookup_ordered_extent() and btrfs_get_extent() take other locks:
 * the ordered tree's and the extent map tree's.)  As with tree_lock
 * (pagecache.c), the lock is a ticket spinlock, so it is a single "free
 * at" time: a thread arriving while it is held spins on its CPU until its
 * turn, and the spin is CPU time charged with the page's read setup.
 *
 * Differs from the kernel: the three operations are taken back to back
 * at the start of the page's read step (in the kernel the ordered and
 * extent map lookups come between them), and the completion side's
 * operations (the state lookup, set_extent_uptodate() and unlock_extent()
 * in end_bio_extent_readpage(), on the end-io workers) are not modelled
 * as lock holds: their CPU time is in cost.page_complete.  Reserving them
 * would place holds in the future of a "free at" lock, blocking readers
 * that in the kernel slip in between.
 */
#include "iotree.h"

#include <glib.h>

void pcs_iotree_init(PcsIoTree *t, const PcsParams *p) {
  *t = (PcsIoTree){.read_hold = p->cost_iotree_lock_extent + p->cost_iotree_test_bit + p->cost_iotree_state_private};
}

PcsTime pcs_iotree_read_page(PcsIoTree *t, PcsTime now) {
  if (t->read_hold == 0) return 0;
  PcsTime acquire = MAX(now, t->free_at);
  t->free_at = acquire + t->read_hold;
  return t->free_at - now;
}
