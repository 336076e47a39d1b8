/* units.h - the units pcsim counts in, each named once.
 *
 * Every size in the model is a whole number of pages or sectors; every
 * report divides by PCS_MIB.  Code multiplies by these names, never by a
 * bare 4096, 512 or 8, so a reader can tell a page count from a byte count.
 */
#ifndef PCSIM_UNITS_H
#define PCSIM_UNITS_H

#include <stdint.h>

#define PCS_PAGE_SIZE 4096u   /* bytes in a page (order-0 folio) */
#define PCS_SECTOR_SIZE 512u  /* bytes in a block-layer sector */
#define PCS_SECTORS_PER_PAGE (PCS_PAGE_SIZE / PCS_SECTOR_SIZE)
#define PCS_KIB 1024u
#define PCS_MIB (1024.0 * 1024.0) /* a double: used to divide byte counts */
#define PCS_NS_PER_US 1000u
#define PCS_NS_PER_S 1000000000.0
#define PCS_PAGEVEC_SIZE 31u  /* folios in a struct folio_batch (include/linux/pagevec.h): a read batch, a per-CPU LRU batch */

/* btrfs metadata: where pcsim places the checksum tree's leaves on the
 * device (page numbers from PCS_META_FIRST_PAGE up, past any file; the
 * kernel's metadata chunk is elsewhere on the disk too), and what a leaf
 * holds: crc32c (4 bytes) per sector after the 101-byte header and one
 * 25-byte item header (BTRFS_LEAF_DATA_SIZE(), struct btrfs_item). */
#define PCS_META_FIRST_PAGE (UINT64_C(1) << 36)
#define PCS_META_FIRST_SECTOR (PCS_META_FIRST_PAGE * PCS_SECTORS_PER_PAGE)
#define PCS_CSUM_LEAF_OVERHEAD 126u
#define PCS_CSUM_SIZE 4u

/* A / B, or 0 when B is 0 (a ratio over an empty run). */
static inline double pcs_per(double a, double b) { return b > 0 ? a / b : 0.0; }

#endif
