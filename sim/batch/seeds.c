/* seeds.c - one scenario under several seeds, on worker threads.
 *
 * Models nothing; it runs pcs_sim_run() once per (seed, policy), as
 * sweep.c does once per (point, policy).  Workers take the next slot from
 * an atomic counter and write its result into that slot; nothing is
 * formatted here, so the caller prints from an array whose content depends
 * on the seeds alone, and `--jobs 1` and `--jobs 8` print the same bytes.
 *
 * Errors: slots start in increasing order and a failure only stops new
 * slots from starting, so every slot below a failing one has run to its end
 * and the lowest failing slot is the same for any number of threads; its
 * error is the one reported.
 */
#include "pcsim/seeds.h"

#include "pcsim/params.h"

typedef struct {
  guint n;
  const volatile int *cancel;
  PcsSlotFn fn;
  void *user;
  gint next, failed; /* atomics */
  GMutex lock;       /* guards error, error_slot */
  GError *error;
  guint error_slot;
} ParallelRun;

static gboolean cancelled(const volatile int *cancel) { return cancel && g_atomic_int_get(cancel); }

static gpointer parallel_worker(gpointer data) {
  ParallelRun *run = data;
  for (;;) {
    if (g_atomic_int_get(&run->failed) || cancelled(run->cancel)) break;
    guint i = (guint)g_atomic_int_add(&run->next, 1);
    if (i >= run->n) break;
    GError *e = NULL;
    if (run->fn(run->user, i, &e)) continue;
    g_mutex_lock(&run->lock);
    if (!run->error || i < run->error_slot) {
      g_clear_error(&run->error);
      run->error = e, run->error_slot = i;
    } else {
      g_error_free(e);
    }
    g_mutex_unlock(&run->lock);
    g_atomic_int_set(&run->failed, 1);
  }
  return NULL;
}

gboolean pcs_parallel_for(guint n, guint jobs, const volatile int *cancel, PcsSlotFn fn, void *user,
                          GError **error) {
  ParallelRun run = {.n = n, .cancel = cancel, .fn = fn, .user = user};
  g_mutex_init(&run.lock);
  guint nt = MAX(1u, MIN(jobs, n));
  if (nt == 1) {
    parallel_worker(&run); /* no thread for a serial loop */
  } else {
    GThread **threads = g_new(GThread *, nt);
    for (guint t = 0; t < nt; t++) threads[t] = g_thread_new("pcsim-seeds", parallel_worker, &run);
    for (guint t = 0; t < nt; t++) g_thread_join(threads[t]);
    g_free(threads);
  }
  g_mutex_clear(&run.lock);
  if (!run.error && cancelled(cancel)) g_set_error(&run.error, PCS_ERROR, PCS_ERROR_CANCELLED, "cancelled");
  if (run.error) {
    g_propagate_error(error, run.error);
    return FALSE;
  }
  return TRUE;
}

/* ---- (seed, policy) runs ---- */

typedef struct {
  const PcsSeeds *s;
  PcsResult *out;
  gboolean *done; /* which slots hold a result to clear */
} SeedsRun;

static gboolean run_slot(void *user, guint i, GError **error) {
  SeedsRun *run = user;
  const PcsSeeds *s = run->s;
  guint np = s->policies->len;
  PcsParams p;
  pcs_params_copy(&p, s->base);
  p.scenario_seed = pcs_seeds_seed(s, i / np);
  PcsRunOptions opt = {.cancel = s->cancel, .no_fold = s->no_fold};
  if (s->prepare) s->prepare(s->prepare_user, i, &opt);
  gboolean ok = pcs_sim_run(&p, &g_array_index(s->policies, PcsPolicy, i % np), &opt, &run->out[i], error);
  pcs_params_clear(&p);
  run->done[i] = ok;
  if (!ok) g_prefix_error(error, "seed %" G_GUINT64_FORMAT ": ", pcs_seeds_seed(s, i / np));
  return ok;
}

gboolean pcs_seeds_run(const PcsSeeds *s, PcsResult *out, uint64_t *events, GError **error) {
  guint n = s->count * s->policies->len;
  SeedsRun run = {s, out, g_new0(gboolean, MAX(n, 1))};
  gboolean ok = pcs_parallel_for(n, s->jobs, s->cancel, run_slot, &run, error);
  uint64_t ev = 0;
  for (guint i = 0; i < n; i++) {
    if (run.done[i]) ev += out[i].events;
    if (!ok && run.done[i]) pcs_result_clear(&out[i]);
  }
  if (events) *events = ev;
  g_free(run.done);
  return ok;
}
