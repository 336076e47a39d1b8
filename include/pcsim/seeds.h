/* seeds.h - one scenario under several seeds, run on worker threads.
 *
 * `pcsim run --seeds N` and `pcsim compare --seeds N` run seeds S..S+N-1 of
 * one scenario under each policy.  Every run owns all of its state, so the
 * runs are handed out to --jobs threads and stored by slot: the results
 * (and any output formatted from them) depend on the seeds alone, never on
 * the number of threads or their scheduling.
 */
#ifndef PCSIM_SEEDS_H
#define PCSIM_SEEDS_H

#include "pcsim/sim.h"

/* One unit of work: slot I of a parallel loop; FALSE with ERROR set stops
 * the loop. */
typedef gboolean (*PcsSlotFn)(void *user, guint i, GError **error);

/* Calls FN(USER, i) for every i in 0..N-1 on at most JOBS threads (JOBS 0:
 * one).  Slots are taken in increasing order; after a failure no new slot
 * starts, and the error returned is that of the lowest failing slot, so it
 * is the same for any JOBS.  A non-zero *CANCEL (may be NULL) stops the
 * loop with PCS_ERROR_CANCELLED. */
gboolean pcs_parallel_for(guint n, guint jobs, const volatile int *cancel, PcsSlotFn fn, void *user,
                          GError **error);

typedef struct {
  const PcsParams *base;      /* the scenario; its scenario.seed is replaced */
  const GArray *policies;     /* PcsPolicy */
  uint64_t first;             /* seed of the first run */
  guint count;                /* seeds first .. first + count - 1, >= 1 */
  guint jobs;                 /* worker threads, >= 1 */
  const volatile int *cancel; /* non-zero stops the runs */
  gboolean no_fold;           /* PcsRunOptions.no_fold for every run */
  /* Optional: called in the worker thread before run I (seed index
   * I / npolicies, policy I % npolicies) to fill its trace callback. */
  void (*prepare)(void *user, guint i, PcsRunOptions *opt);
  void *prepare_user;
} PcsSeeds;

/* The seed of run index K (0-based). */
static inline uint64_t pcs_seeds_seed(const PcsSeeds *s, guint k) { return s->first + k; }
/* Runs every (seed, policy) into OUT[k * npolicies + j] (count * npolicies
 * entries, each cleared with pcs_result_clear() on success; nothing to
 * clear on failure).  EVENTS (may be NULL) receives the events of all runs. */
gboolean pcs_seeds_run(const PcsSeeds *s, PcsResult *out, uint64_t *events, GError **error);

#endif
