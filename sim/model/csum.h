/* csum.h - btrfs's checksum tree leaves, read when a bio needs them (see csum.c). */
#ifndef PCSIM_MODEL_CSUM_H
#define PCSIM_MODEL_CSUM_H

#include "pcsim/params.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

/* The checksum leaves of the run's files.  span 0: not modelled. */
typedef struct {
  uint64_t span;        /* file pages whose checksums one leaf holds */
  uint32_t leaf_pages;  /* pages of one leaf read (bio.csum_leaf_size) */
  uint64_t per_file;    /* leaves of one file */
  uint8_t *state;       /* per leaf: absent, being read or in memory (csum.c) */
  uint64_t *waiting;    /* per reader: the leaf it sleeps on, PCS_CSUM_NONE for none */
  uint32_t nreaders;
} PcsCsum;

#define PCS_CSUM_NONE UINT64_MAX

/* What pcs_csum_lookup() found. */
typedef enum {
  PCS_CSUM_READY,  /* every leaf the bio needs is in memory: submit it */
  PCS_CSUM_SLEEP,  /* the thread sleeps on a leaf being read */
  PCS_CSUM_RQ_WAIT /* the leaf's read found no free request (v3.5 get_request_wait()): retried when woken */
} PcsCsumLookup;

/* Called once per run for NREADERS readers of files of FILE_PAGES pages. */
void pcs_csum_init(PcsCsum *c, const PcsParams *p, uint32_t nreaders, uint64_t file_pages, uint64_t nfiles);
void pcs_csum_clear(PcsCsum *c);
/* btrfs_lookup_bio_sums() by READER, on its CPU, for a bio of pages
 * [FIRST, LAST] of its file number FILE (pages counted from the file's
 * start): READY when every leaf they need is in memory.  SLEEP: READER
 * sent the first missing leaf's read, or found it under way, and sleeps
 * on it (off its CPU, its plug flushed); pcs_reader_wake() wakes it when
 * the leaf is in, and it asks again. */
PcsCsumLookup pcs_csum_lookup(PcsSim *s, uint32_t reader, uint64_t file, uint64_t first, uint64_t last);
/* Is a bio starting at FIRST_PAGE a checksum leaf's read? */
static inline gboolean pcs_csum_is_leaf(uint64_t first_page) { return first_page >= PCS_META_FIRST_PAGE; }
/* The end-io of a leaf's read, by the task WORKER: the leaf whose read
 * started at FIRST_PAGE is in memory; its sleepers are woken. */
void pcs_csum_leaf_read(PcsSim *s, uint64_t first_page, uint32_t worker);

#endif
