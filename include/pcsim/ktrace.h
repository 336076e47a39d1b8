/* ktrace.h - real kernel block traces read back: `pcsim trace-stats` and
 * `pcsim compare`.
 *
 * Two text formats are recognised line by line, gzip or plain:
 *   ftrace   "... block_bio_queue: 7,0 RA 1124352 + 256 [fio]"
 *            "... block_rq_issue: 7,0 RA 131072 () 1124352 + 256 be,0,4 [fio]"
 *   blkparse "  7,0  1  12  0.000123  1234  Q  RA 1124352 + 256 [fio]" (Q and D)
 * A bio is a block_bio_queue / Q event, a request a block_rq_issue / D
 * event.  Reads only; rwbs with 'M' (metadata) is counted apart.
 */
#ifndef PCSIM_KTRACE_H
#define PCSIM_KTRACE_H

#include "pcsim/params.h"

typedef struct {
  uint64_t bios, requests, sectors;                /* data reads */
  uint64_t meta_bios, meta_requests, meta_sectors; /* rwbs with M */
  uint64_t threads;        /* distinct tasks that queued data bios */
} PcsKtraceCounts;

/* 1 MiB: BIO_MAX_VECS (256) bio_vecs of one 4 KiB page each.  A larger bio
 * needs physically contiguous pages (or large folios) in a bio_vec. */
#define PCS_KTRACE_BIO_MAX_VECS 256u /* the kernel's BIO_MAX_VECS, not the scenario's bio.max_vecs */
#define PCS_KTRACE_LARGE_BIO (PCS_KTRACE_BIO_MAX_VECS * PCS_SECTORS_PER_PAGE)

/* Data read before the first bio over PCS_KTRACE_LARGE_BIO sectors: fed
 * every data bio in submission order, by the trace reader and by
 * `pcsim compare` watching a simulation, so both count it alike. */
typedef struct {
  uint64_t sectors_before;
  gboolean seen;
} PcsLargeBioWatch;

static inline void pcs_large_bio_watch(PcsLargeBioWatch *w, uint64_t sectors) {
  if (sectors > PCS_KTRACE_LARGE_BIO) w->seen = TRUE;
  if (!w->seen) w->sectors_before += sectors;
}

typedef struct {
  char *path;
  const char *format;  /* "ftrace" or "blkparse" */
  PcsKtraceCounts c;
  GArray *bio_pages_hist; /* guint64 by bio size in pages (rounded up), data bios */
  GHashTable *tasks;      /* names of the tasks counted in c.threads */
  PcsLargeBioWatch large; /* data read before the first bio over 1 MiB */
} PcsKtrace;

gboolean pcs_ktrace_load(PcsKtrace *t, const char *path, GError **error);
gboolean pcs_ktrace_load_text(PcsKtrace *t, const char *path, const char *text, size_t len, GError **error);
void pcs_ktrace_clear(PcsKtrace *t);

#endif
