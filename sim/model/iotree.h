/* iotree.h - btrfs's per-inode extent io tree lock (see iotree.c). */
#ifndef PCSIM_MODEL_IOTREE_H
#define PCSIM_MODEL_IOTREE_H

#include "evq.h"
#include "pcsim/params.h"

/* io_tree->lock as a FIFO ticket spinlock: the time it is next free. */
typedef struct {
  PcsTime free_at;
  PcsTime read_hold; /* one page's lock_extent + test_range_bit + set_state_private */
} PcsIoTree;

/* Called once per run; the hold times come from cost.iotree_*. */
void pcs_iotree_init(PcsIoTree *t, const PcsParams *p);
/* The io_tree->lock operations of __extent_read_full_page() and the
 * submit hook for one page, asked for at NOW: the CPU time the caller
 * spends in them, spinning included (0 when every hold time is 0). */
PcsTime pcs_iotree_read_page(PcsIoTree *t, PcsTime now);

#endif
