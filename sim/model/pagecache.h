/* pagecache.h - the shared page cache of one file (see pagecache.c).
 *
 * Owns the page bits, mapping->tree_lock and the page wait queue.  Every
 * other module reads and writes page state through the accessors below,
 * named after the kernel's page flag helpers, so the page cache can be
 * built and tested on its own (tests/test_pagecache.c): nothing here needs
 * a running simulation.
 */
#ifndef PCSIM_MODEL_PAGECACHE_H
#define PCSIM_MODEL_PAGECACHE_H

#include "evq.h"

#include <errno.h>
#include <glib.h>
#include <stdint.h>

/* One byte per page of the file.  A folio's first page (every page with
 * 4 KiB folios): four flag bits and, when at most PCS_PG_OWNER_TASKS tasks
 * insert, the task that inserted it in three more (else a separate array
 * holds it).  A large folio's later pages (TAIL): present and up to date
 * as the folio, and in place of READAHEAD, CONTIG and the owner, which are
 * the folio's (marker and owner on its first page; its frames one block),
 * the folio's order, so that its first page and size are found at once. */
enum {
  PCS_PG_PRESENT = 1u << 0,   /* in the radix tree (inserted, locked until read) */
  PCS_PG_UPTODATE = 1u << 1,  /* read completed, unlocked */
  PCS_PG_READAHEAD = 1u << 2, /* PG_readahead marker (a folio's first page) */
  PCS_PG_CONTIG = 1u << 3,    /* its frame directly follows page-1's frame (alloc.c) */
  PCS_PG_OWNER_SHIFT = 4,     /* bits 4..6: the inserting task */
  PCS_PG_OWNER_MASK = 7u << 4,
  PCS_PG_OWNER_TASKS = 8,
  PCS_PG_TAIL = 1u << 7,      /* a large folio's page after its first */
  PCS_PG_TOUCHED = 1u << 2,   /* TAIL: a CPU touched it since the insert (memory.reported_order) */
  PCS_PG_ORDER_SHIFT = 3,     /* TAIL: bits 3..6 hold the folio's order */
  PCS_PG_ORDER_MASK = 15u << 3,
};

typedef struct {
  uint64_t page;
  uint32_t task;
} PcsPcSleeper;

typedef struct {
  uint8_t *pages;
  uint64_t npages;
  gboolean unaligned_files; /* file_pages not a multiple of the largest folio: folios align within each file */
  uint64_t file_pages; /* pages per file: pairs are counted within a file (npages unless set) */
  uint16_t *owners; /* the inserting task of each page, only over PCS_PG_OWNER_TASKS tasks */
  uint64_t *cold;   /* one bit a page, only with pcs_pc_track_cold(): its frame is memory the host took back, untouched */
  PcsTime tree_lock_free; /* ticket spinlock: next time it is free */
  PcsTime tree_lock_hold; /* cost.tree_lock_hold: one radix-tree insert under the lock */
  PcsPcSleeper *sleepers; /* the wait queue, in sleep order */
  uint32_t n_sleepers, max_sleepers;
  uint32_t *woken; /* tasks taken off the queue by the last pcs_pc_wake_range() */
} PcsPageCache;

/* Called once per run: NPAGES absent pages, room for MAX_SLEEPERS sleeping
 * tasks, which are also the tasks that insert (task ids 0..MAX_SLEEPERS-1). */
void pcs_pc_init(PcsPageCache *pc, uint64_t npages, uint32_t max_sleepers, PcsTime tree_lock_hold);
/* Frees what pcs_pc_init() allocated. */
void pcs_pc_clear(PcsPageCache *pc);

/* find_get_page() != NULL: PAGE is in the cache (maybe still locked). */
static inline gboolean pcs_pc_present(const PcsPageCache *pc, uint64_t page) {
  return (pc->pages[page] & PCS_PG_PRESENT) != 0;
}
/* PageUptodate(): the read of PAGE completed (and so it is unlocked). */
static inline gboolean pcs_pc_uptodate(const PcsPageCache *pc, uint64_t page) {
  return (pc->pages[page] & PCS_PG_UPTODATE) != 0;
}
/* PageReadahead(): PAGE carries the PG_readahead marker (a later page of a
 * large folio never does: the folio's first page has it). */
static inline gboolean pcs_pc_readahead(const PcsPageCache *pc, uint64_t page) {
  return (pc->pages[page] & (PCS_PG_READAHEAD | PCS_PG_TAIL)) == PCS_PG_READAHEAD;
}
/* SetPageReadahead(): called by the inserting thread on a page it just won. */
static inline void pcs_pc_set_readahead(PcsPageCache *pc, uint64_t page) {
  pc->pages[page] |= PCS_PG_READAHEAD;
}
/* ClearPageReadahead() / folio_clear_readahead(). */
static inline void pcs_pc_clear_readahead(PcsPageCache *pc, uint64_t page) {
  pc->pages[page] &= (uint8_t)~PCS_PG_READAHEAD;
}
/* A read() copy touching [FROM, TO) of the large folio at HEAD: marks the
 * pages touched and returns how many were not yet (free page reporting:
 * the first touch of each is a host fault).  TOUCHED lives on later pages
 * (TAIL), where the marker bit is free; the first page goes with the
 * second, so a copy of the first page alone is counted until the second
 * is touched. */
static inline uint32_t pcs_pc_touch(PcsPageCache *pc, uint64_t head, uint64_t from, uint64_t to) {
  uint32_t fresh = 0;
  for (uint64_t p = from; p < to; p++) {
    uint64_t q = p == head ? head + 1 : p;
    fresh += !(pc->pages[q] & PCS_PG_TOUCHED);
    if (p != head) pc->pages[p] |= PCS_PG_TOUCHED;
  }
  return fresh;
}
/* Free page reporting for pages of their own frames (4 KiB folios and the
 * order-0 fallback): pcs_pc_track_cold() keeps a bit a page, set when the
 * allocator gave the page a frame from a free block the host took back
 * (alloc.c) and cleared by the first CPU touch, which pcs_pc_take_cold()
 * counts.  A large folio of the reporting order or more is cold by its size
 * instead (pcs_pc_touch()). */
void pcs_pc_track_cold(PcsPageCache *pc);
static inline void pcs_pc_set_cold(PcsPageCache *pc, uint64_t page) {
  pc->cold[page >> 6] |= UINT64_C(1) << (page & 63);
}
static inline gboolean pcs_pc_cold(const PcsPageCache *pc, uint64_t page) {
  return pc->cold && (pc->cold[page >> 6] >> (page & 63) & 1);
}
/* The first touch of [FROM, TO): how many of its pages were cold (each a
 * host fault), now touched. */
static inline uint32_t pcs_pc_take_cold(PcsPageCache *pc, uint64_t from, uint64_t to) {
  uint32_t n = 0;
  for (uint64_t p = from; p < to;) {
    uint64_t w = p >> 6, lo = p & 63, hi = MIN(to - (w << 6), 64);
    uint64_t mask = (hi == 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1) & ~((UINT64_C(1) << lo) - 1);
    n += (uint32_t)__builtin_popcountll(pc->cold[w] & mask);
    pc->cold[w] &= ~mask;
    p = (w + 1) << 6;
  }
  return n;
}
/* Does PAGE's frame directly follow PAGE-1's?  Decided by the allocator
 * (alloc.c) at insert; always inside a large folio. */
static inline gboolean pcs_pc_frame_contig(const PcsPageCache *pc, uint64_t page) {
  return (pc->pages[page] & (PCS_PG_CONTIG | PCS_PG_TAIL)) != 0;
}
/* Records that PAGE, just inserted, got the frame after PAGE-1's. */
static inline void pcs_pc_set_frame_contig(PcsPageCache *pc, uint64_t page) {
  pc->pages[page] |= PCS_PG_CONTIG;
}

/* The first page of the folio holding PAGE (present): folios are naturally
 * aligned within their file. */
static inline uint64_t pcs_pc_folio_head(const PcsPageCache *pc, uint64_t page) {
  uint8_t b = pc->pages[page];
  if (G_LIKELY(!(b & PCS_PG_TAIL))) return page;
  uint64_t mask = (UINT64_C(1) << ((b & PCS_PG_ORDER_MASK) >> PCS_PG_ORDER_SHIFT)) - 1;
  return page - ((G_UNLIKELY(pc->unaligned_files) ? page % pc->file_pages : page) & mask);
}

/* Records TASK as the inserter of PAGE, a folio's first page, which it
 * just inserted (the TASK-PID column of the mm_filemap_add_to_page_cache
 * event; the folio's other pages are its). */
static inline void pcs_pc_set_owner(PcsPageCache *pc, uint64_t page, uint32_t task) {
  if (G_UNLIKELY(pc->owners)) pc->owners[page] = (uint16_t)task;
  else pc->pages[page] |= (uint8_t)(task << PCS_PG_OWNER_SHIFT);
}
/* The task recorded by pcs_pc_set_owner() for PAGE's folio. */
static inline uint32_t pcs_pc_owner(const PcsPageCache *pc, uint64_t page) {
  page = pcs_pc_folio_head(pc, page);
  return pc->owners ? pc->owners[page] : (uint32_t)((pc->pages[page] & PCS_PG_OWNER_MASK) >> PCS_PG_OWNER_SHIFT);
}

/* The pages of the folio whose first page is HEAD (present): 1 for a page
 * of its own, 1 << order for a large folio. */
static inline uint64_t pcs_pc_folio_pages(const PcsPageCache *pc, uint64_t head) {
  if (head + 1 >= pc->npages || !(pc->pages[head + 1] & PCS_PG_TAIL)) return 1;
  return UINT64_C(1) << ((pc->pages[head + 1] & PCS_PG_ORDER_MASK) >> PCS_PG_ORDER_SHIFT);
}

/* Over the file's pages in index order, as the trace reader counts them
 * (include/pcsim/ktrace.h): pairs (i, i+1) both present, those whose owners
 * differ, those whose frames are adjacent (PCS_PG_CONTIG on i+1).  One pass;
 * called once, at the end of a run. */
void pcs_pc_count_pairs(const PcsPageCache *pc, uint64_t *pairs, uint64_t *owner_changes, uint64_t *contiguous);

/* invalidate_mapping_pages() of [FIRST, END), as POSIX_FADV_DONTNEED runs
 * it: every page present and up to date leaves the cache (its flags,
 * marker and owner cleared), except pages still locked under I/O
 * (trylock_page() fails) and the NKEEP pages of KEEP (ascending, repeats
 * allowed): pages a task holds or sleeps on, whose extra reference makes
 * remove_mapping() fail.  Returns how many left.  Never schedules. */
uint64_t pcs_pc_invalidate(PcsPageCache *pc, uint64_t first, uint64_t end, const uint64_t *keep, uint32_t nkeep);

/* add_to_page_cache_lru() at time NOW: takes tree_lock, inserts PAGE locked
 * and not up to date.  Returns 0, or -EEXIST when PAGE was already present
 * (the caller frees its private page).  *CPU gets the CPU time the caller
 * spends: spinning for tree_lock plus holding it.  Never schedules. */
int pcs_pc_insert(PcsPageCache *pc, uint64_t page, PcsTime now, PcsTime *cpu);
/* filemap_add_folio() of the folio [INDEX, INDEX + NPAGES) at NOW, NPAGES
 * a power of two and INDEX a multiple of it: one tree_lock hold; all or
 * nothing, -EEXIST when any page of the range is present.  Its pages are
 * present, locked, the later ones TAIL and CONTIG; *CPU as for
 * pcs_pc_insert().  NPAGES 1 is pcs_pc_insert().  INDEX aligned to NPAGES
 * within its file (pcs_pc_folio_head()). */
int pcs_pc_insert_folio(PcsPageCache *pc, uint64_t index, uint64_t npages, PcsTime now, PcsTime *cpu);
/* SetPageUptodate() + unlock_page() of [FIRST, FIRST+NPAGES); each must be
 * present and not yet up to date.  Wakes nobody: see pcs_pc_wake_range(). */
void pcs_pc_end_read(PcsPageCache *pc, uint64_t first, uint32_t npages);
/* TASK sleeps on locked PAGE (lock_page_killable()); it stays queued until
 * a pcs_pc_wake_range() covering PAGE. */
void pcs_pc_wait(PcsPageCache *pc, uint32_t task, uint64_t page);
/* The wake_up_page() half of unlock_page() for [FIRST, FIRST+NPAGES): takes
 * the tasks sleeping on those pages off the queue, in the order they went to
 * sleep, into pc->woken; returns how many.  The caller wakes them; the list
 * stays valid until the next call. */
uint32_t pcs_pc_wake_range(PcsPageCache *pc, uint64_t first, uint32_t npages);
/* The exclusive variant (v3.x lock_page_killable(), cpu.wake_exclusive):
 * for each page of [FIRST, FIRST+NPAGES) only its first sleeper (in sleep
 * order) is taken off the queue into pc->woken; the others stay until
 * pcs_pc_wake_next().  Returns how many were taken. */
uint32_t pcs_pc_wake_first(PcsPageCache *pc, uint64_t first, uint32_t npages);
/* unlock_page() of PAGE by the task it was handed to: takes PAGE's next
 * sleeper off the queue into pc->woken[0]; returns 1, or 0 if none. */
uint32_t pcs_pc_wake_next(PcsPageCache *pc, uint64_t page);

#endif
