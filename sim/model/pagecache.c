/* pagecache.c - the shared page cache of one file: page state, tree_lock,
 * -EEXIST, and the page wait queue.
 *
 * Mirrors add_to_page_cache_lru() (mm/filemap.c, v3.x): the radix-tree
 * insert runs under mapping->tree_lock, a spinlock shared by every thread
 * reading the file; the loser of a race for an index gets -EEXIST and frees
 * its private page (with any PG_readahead marker on it).  An inserted page is
 * locked until its bio completes; readers that find it locked sleep
 * (lock_page_killable(), an exclusive FIFO wait) and are woken by
 * unlock_page() in the end-io path (endio.c), in the order they slept.
 * With cpu.wake_exclusive (v3.x) the wait is exclusive, as
 * __lock_page_killable()'s __wait_on_bit_lock() is: unlock_page() wakes
 * one sleeper per page (pcs_pc_wake_first()), which takes the lock, finds
 * the page up to date and unlocks it, waking the next (pcs_pc_wake_next(),
 * called from reader.c once the woken task has run).
 *
 * One byte per page: PRESENT, UPTODATE, READAHEAD bits, CONTIG: the
 * frame the allocator gave it follows page-1's (alloc.c), three bits for
 * the task that inserted it, for the owner-change count (over 8 inserting
 * tasks a uint16_t per page holds it instead), and TAIL (below).  With
 * free page reporting and frames of their own (pcs_pc_track_cold()), one
 * bit more a page: its frame is memory the host took back, not yet touched.
 *
 * Large folios (6.x, ext4 and xfs: readahead.max_folio_order).  A folio of
 * 1 << order pages is inserted as one (filemap_add_folio(): one xarray
 * store under the lock, -EEXIST when any index of its range is taken), so
 * its pages are present, locked and up to date together; its later pages
 * carry TAIL and, in the bits a folio's first page keeps for its marker,
 * frame and owner, the folio's order: its first page (pcs_pc_folio_head())
 * and size (pcs_pc_folio_pages()) follow at once, folios being naturally
 * aligned in their file.
 * Invalidation drops whole folios.  btrfs data folios are single pages:
 * no TAIL bit is ever set and every path is the page's.  Only the
 * accessors in pagecache.h touch them.  tree_lock is a ticket spinlock
 * (FIFO, as x86 Linux has had since 2.6.25), so it is a single "free at"
 * time: a thread arriving while it is held spins, on its CPU, until its turn.
 *
 * pcs_pc_invalidate() is invalidate_mapping_pages(), run by fio's
 * posix_fadvise(POSIX_FADV_DONTNEED) when a loop reopens the file or a
 * time_based job wraps (reader.c): up-to-date pages nobody holds leave.
 *
 * This file knows nothing of readers, bios or the clock beyond the NOW it
 * is given, so tests/test_pagecache.c drives it without a simulation.
 *
 * Differs from the kernel: the outcome of an insert is decided when the
 * thread asks for the lock, not when it gets it.  Because the lock is FIFO
 * the winner is the same; only a lockless lookup by a third thread during
 * the spin can see the page a few hundred nanoseconds early.
 */
#include "pagecache.h"

#include <string.h>

void pcs_pc_init(PcsPageCache *pc, uint64_t npages, uint32_t max_sleepers, PcsTime tree_lock_hold) {
  *pc = (PcsPageCache){.npages = npages, .file_pages = npages, .max_sleepers = max_sleepers, .tree_lock_hold = tree_lock_hold};
  pc->pages = g_new0(uint8_t, npages);
  pc->sleepers = g_new(PcsPcSleeper, MAX(max_sleepers, 1));
  pc->woken = g_new(uint32_t, MAX(max_sleepers, 1));
  if (max_sleepers > PCS_PG_OWNER_TASKS) pc->owners = g_new0(uint16_t, npages);
}

void pcs_pc_clear(PcsPageCache *pc) {
  g_clear_pointer(&pc->pages, g_free);
  g_clear_pointer(&pc->sleepers, g_free);
  g_clear_pointer(&pc->woken, g_free);
  g_clear_pointer(&pc->owners, g_free);
  g_clear_pointer(&pc->cold, g_free);
}

void pcs_pc_track_cold(PcsPageCache *pc) {
  if (!pc->cold) pc->cold = g_new0(uint64_t, (pc->npages + 63) / 64);
}

/* Pages i-1 and i both present: owners from the page bytes (up to 8
 * tasks) or the owner array, of the folio's first page for a large
 * folio's later pages (one owner, adjacent frames inside a folio).  Once
 * per run. */
void pcs_pc_count_pairs(const PcsPageCache *pc, uint64_t *pairs, uint64_t *owner_changes, uint64_t *contiguous) {
  const uint8_t *pg = pc->pages;
  uint64_t n = 0, changes = 0, contig = 0;
  uint32_t prev_owner = 0;
  for (uint64_t p = 0; p < pc->npages; p++) {
    if (pg[p] & PCS_PG_TAIL) { /* page p-1 is in the same folio */
      n++, contig++;
      continue;
    }
    uint32_t owner = pc->owners ? pc->owners[p] : (uint32_t)((pg[p] & PCS_PG_OWNER_MASK) >> PCS_PG_OWNER_SHIFT);
    gboolean both = p > 0 && (pg[p - 1] & pg[p] & PCS_PG_PRESENT) && !(pc->file_pages < pc->npages && p % pc->file_pages == 0);
    n += both;
    contig += both && (pg[p] & PCS_PG_CONTIG);
    changes += both && owner != prev_owner;
    prev_owner = owner;
  }
  *pairs = n, *owner_changes = changes, *contiguous = contig;
}

/* A folio goes as a whole (mapping_evict_folio()): kept when any of its
 * pages is held; [FIRST, END) never cuts a folio (a file's range). */
uint64_t pcs_pc_invalidate(PcsPageCache *pc, uint64_t first, uint64_t end, const uint64_t *keep, uint32_t nkeep) {
  uint64_t dropped = 0;
  uint32_t k = 0;
  for (uint64_t p = first; p < end;) {
    uint64_t n = pcs_pc_present(pc, p) ? pcs_pc_folio_pages(pc, p) : 1;
    while (k < nkeep && keep[k] < p) k++;
    gboolean held = k < nkeep && keep[k] < p + n;
    if (pcs_pc_uptodate(pc, p) && !held) { /* else absent, locked, or held */
      memset(pc->pages + p, 0, n);
      if (pc->owners) memset(pc->owners + p, 0, n * sizeof *pc->owners);
      if (pc->cold) pcs_pc_take_cold(pc, p, p + n); /* a page read again gets a new frame */
      dropped += n;
    }
    p += n;
  }
  return dropped;
}

/* spin_lock_irq(&mapping->tree_lock) at NOW, held for one insert: the CPU
 * time the caller spends, spinning included. */
static PcsTime tree_lock(PcsPageCache *pc, PcsTime now) {
  PcsTime acquire = MAX(now, pc->tree_lock_free);
  pc->tree_lock_free = acquire + pc->tree_lock_hold;
  return acquire - now + pc->tree_lock_hold;
}

int pcs_pc_insert(PcsPageCache *pc, uint64_t page, PcsTime now, PcsTime *cpu) {
  g_assert(page < pc->npages);
  *cpu = tree_lock(pc, now);
  if (pcs_pc_present(pc, page)) return -EEXIST;
  pc->pages[page] = PCS_PG_PRESENT; /* locked, not up to date */
  return 0;
}

int pcs_pc_insert_folio(PcsPageCache *pc, uint64_t index, uint64_t npages, PcsTime now, PcsTime *cpu) {
  g_assert(npages && (npages & (npages - 1)) == 0 && index + npages <= pc->npages);
  g_assert((pc->unaligned_files ? index % pc->file_pages : index) % npages == 0);
  *cpu = tree_lock(pc, now);
  for (uint64_t p = index; p < index + npages; p++)
    if (pcs_pc_present(pc, p)) return -EEXIST; /* xas_store() finds an entry in the range */
  pc->pages[index] = PCS_PG_PRESENT;
  uint32_t order = (uint32_t)__builtin_ctzll(npages);
  if (npages > 1) memset(pc->pages + index + 1, PCS_PG_PRESENT | PCS_PG_TAIL | order << PCS_PG_ORDER_SHIFT, npages - 1);
  return 0;
}

void pcs_pc_end_read(PcsPageCache *pc, uint64_t first, uint32_t npages) {
  for (uint64_t p = first; p < first + npages; p++) {
    g_assert((pc->pages[p] & (PCS_PG_PRESENT | PCS_PG_UPTODATE)) == PCS_PG_PRESENT);
    pc->pages[p] |= PCS_PG_UPTODATE;
  }
}

void pcs_pc_wait(PcsPageCache *pc, uint32_t task, uint64_t page) {
  g_assert(pc->n_sleepers < pc->max_sleepers);
  g_assert(pcs_pc_present(pc, page) && !pcs_pc_uptodate(pc, page));
  pc->sleepers[pc->n_sleepers++] = (PcsPcSleeper){.page = page, .task = task};
}

/* Keeps the rest of the queue in sleep order: collecting first means a
 * woken task that sleeps again cannot disturb the scan. */
uint32_t pcs_pc_wake_range(PcsPageCache *pc, uint64_t first, uint32_t npages) {
  uint32_t kept = 0, nwake = 0;
  for (uint32_t i = 0; i < pc->n_sleepers; i++) {
    PcsPcSleeper sl = pc->sleepers[i];
    if (sl.page >= first && sl.page < first + npages)
      pc->woken[nwake++] = sl.task;
    else
      pc->sleepers[kept++] = sl;
  }
  pc->n_sleepers = kept;
  return nwake;
}

/* __wake_up_bit() with nr_exclusive = 1, for every page of the range: a
 * page's first sleeper is taken, later sleepers on the same page stay in
 * order.  A small bitmap would do; ranges are at most a bio long, so a
 * scan of the woken list is as cheap. */
uint32_t pcs_pc_wake_first(PcsPageCache *pc, uint64_t first, uint32_t npages) {
  uint32_t kept = 0, nwake = 0;
  uint64_t *taken_page = g_newa(uint64_t, MAX(pc->n_sleepers, 1));
  for (uint32_t i = 0; i < pc->n_sleepers; i++) {
    PcsPcSleeper sl = pc->sleepers[i];
    gboolean take = sl.page >= first && sl.page < first + npages;
    for (uint32_t j = 0; take && j < nwake; j++) take = taken_page[j] != sl.page;
    if (take) {
      taken_page[nwake] = sl.page;
      pc->woken[nwake++] = sl.task;
    } else {
      pc->sleepers[kept++] = sl;
    }
  }
  pc->n_sleepers = kept;
  return nwake;
}

uint32_t pcs_pc_wake_next(PcsPageCache *pc, uint64_t page) {
  for (uint32_t i = 0; i < pc->n_sleepers; i++)
    if (pc->sleepers[i].page == page) {
      pc->woken[0] = pc->sleepers[i].task;
      memmove(pc->sleepers + i, pc->sleepers + i + 1, (pc->n_sleepers - i - 1) * sizeof *pc->sleepers);
      pc->n_sleepers--;
      return 1;
    }
  return 0;
}
