/* blktrace.h - a simulation written as real blktrace files.
 *
 * `pcsim run --blktrace DIR` writes DIR/NAME.blktrace.N, one file per
 * simulated CPU, in blktrace's binary format (struct blk_io_trace, version
 * 7, 48-byte little-endian records, magic 0x65617407), so blkparse, btt and
 * other blktrace tools read a simulation like a capture.  NAME is the
 * policy ("immediate", "pool-16").  Time is simulated ns.
 */
#ifndef PCSIM_BLKTRACE_H
#define PCSIM_BLKTRACE_H

#include "pcsim/sim.h"

typedef struct {
  GPtrArray *cpu;      /* GArray of records per CPU (blktrace.c), numbered when written */
  GHashTable *rqs;     /* requests not yet issued, by first sector: their G and I records */
  uint32_t ncpu, nreaders;
  PcsTime ctx_time;    /* the last block event's time ... */
  uint32_t ctx_thread; /* ... and the task it ran in (PCS_NO_THREAD: the device) */
} PcsBlktrace;

void pcs_blktrace_init(PcsBlktrace *bt, uint32_t ncpu, uint32_t nreaders);
void pcs_blktrace_clear(PcsBlktrace *bt);
/* A PcsTraceFn: USER is the PcsBlktrace. */
void pcs_blktrace_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b);
/* DIR/NAME.blktrace.N for every CPU, each written as .tmp and renamed;
 * DIR is created when missing, its parent must exist (the command checks),
 * and removed again when a write fails. */
gboolean pcs_blktrace_write(const PcsBlktrace *bt, const char *dir, const char *name, GError **error);
/* Removes the files pcs_blktrace_write() wrote (a later policy's failed). */
void pcs_blktrace_remove(const PcsBlktrace *bt, const char *dir, const char *name);
/* "pool:16" -> "pool-16": a file-name-safe policy name. */
char *pcs_blktrace_name(const char *policy);

#endif
