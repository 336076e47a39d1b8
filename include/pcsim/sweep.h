/* sweep.h - run a parameter grid (grid.h) in parallel, print it in order.
 *
 * Output rows are ordered by (point, policy) whatever the number of worker
 * threads, so `--jobs 1` and `--jobs 8` print the same bytes.  A sharded
 * sweep prints the same header plus a shard line, and only its rows;
 * merge.h puts shards back together into the unsharded bytes.
 *
 * CSV: `#` provenance lines (version, source, every parameter, the --vary
 * options, varied columns, policies, "grid points=N rows=M"), the header,
 * one line per row.  JSON: the same provenance as fields, then "results"
 * with one row object per line: the varied keys, then every column and the
 * bio_pages_hist of `pcsim run --format json`.
 *
 * A cancelled sweep (PcsSweep.cancel) fails with PCS_ERROR_CANCELLED and
 * prints nothing, even when every point had finished.
 */
#ifndef PCSIM_SWEEP_H
#define PCSIM_SWEEP_H

#include "pcsim/grid.h"
#include "pcsim/report.h"

typedef void (*PcsSweepProgress)(void *user, uint64_t done, uint64_t total);

typedef struct {
  const PcsParams *base;     /* scenario after --set and --seed */
  const PcsGrid *grid;
  PcsShard shard;            /* {1, 1}: the whole grid */
  PcsFormat format;          /* CSV or JSON */
  guint jobs;                /* worker threads, >= 1 */
  const volatile int *cancel; /* non-zero stops the sweep; read with g_atomic_int_get() */
  PcsSweepProgress progress; /* called from the calling thread, about 10 times a second */
  void *progress_user;
} PcsSweep;

/* Checks every point of the shard (keys, cross-key rules, limits) before
 * running any. */
gboolean pcs_sweep_check(const PcsSweep *sw, GError **error);
/* The shard's points (returned) and, in *EVENTS, the events their runs
 * will take at most (pcs_sim_estimate() summed): for the work estimate a
 * long sweep prints first. */
guint pcs_sweep_estimate(const PcsSweep *sw, uint64_t *events);
/* EVENTS (may be NULL) receives the events of all runs. */
gboolean pcs_sweep_run(const PcsSweep *sw, GString *out, uint64_t *events, GError **error);

#endif
