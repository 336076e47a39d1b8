/* steps.h - the step model: policies as atomic INSERT/READ steps.
 *
 * Every thread is handed the same page list 0..P-1, all absent.  A thread
 * runs its policy's program as atomic steps (INSERT p, READ p); a schedule
 * says which thread takes the next step.  replay runs one schedule; explore
 * counts the bios of every complete schedule, memoised on the state.
 */
#ifndef PCSIM_STEPS_H
#define PCSIM_STEPS_H

#include "pcsim/policy.h"
#include "pcsim/sim.h"

/* What the step model can hold: a schedule file, and so replay, takes up to
 * these (the state keeps a bit per page and a slot per thread). */
#define PCS_STEPS_MAX_THREADS 8
#define PCS_STEPS_MAX_PAGES 16

/* What explore accepts: the number of states grows about as
 * (pages + 1)^threads, so the product is bounded too.  2x8, 3x6 and 4x4
 * finish within a second; the largest accepted sizes take minutes. */
#define PCS_EXPLORE_MAX_THREADS 6
#define PCS_EXPLORE_MAX_PAGES 12
#define PCS_EXPLORE_MAX_CELLS 24 /* threads * pages */

typedef struct {
  uint32_t thread; /* 1-based */
  uint32_t first_page, pages;
} PcsStepBio;

typedef struct {
  uint32_t threads, pages;
  GArray *steps;      /* uint32_t thread ids, 1-based */
  GArray *step_lines; /* guint line of each step */
} PcsSchedule;

gboolean pcs_schedule_load(PcsSchedule *s, const char *path, GError **error);
/* The same from LEN bytes of DATA; PATH names it in messages. */
gboolean pcs_schedule_load_text(PcsSchedule *s, const char *path, const char *data, size_t len, GError **error);
void pcs_schedule_clear(PcsSchedule *s);

/* Runs SCHED under POLICY; bios (PcsStepBio) in submission order into BIOS.
 * Errors name PATH:LINE of the offending step. */
gboolean pcs_steps_replay(const PcsSchedule *sched, const PcsPolicy *policy, GArray *bios,
                          const char *path, GError **error);

/* The same, the schedule read as turns: a step naming a thread that has
 * already finished under POLICY passes idle instead of being an error, so
 * a schedule written for one policy replays under any; the 1-based numbers
 * of the steps that passed go into IDLE (guint). */
gboolean pcs_steps_replay_turns(const PcsSchedule *sched, const PcsPolicy *policy, GArray *bios, GArray *idle,
                                const char *path, GError **error);

/* The same run, told through TRACE in the full simulator's vocabulary
 * (sim.h), so the two models can be compared event for event: per step,
 * INSERT or EEXIST (a = page) or READ (a = page), then any SUBMIT the step
 * caused (a = first page, b = pages).  T is the 1-based step number;
 * THREAD is 1-based. */
gboolean pcs_steps_trace(const PcsSchedule *sched, const PcsPolicy *policy, PcsTraceFn trace, void *user,
                         const char *path, GError **error);

typedef struct {
  uint64_t schedules;
  uint32_t min_bios, max_bios;
  double mean_bios;
  double random_expected_bios;
  uint64_t *histogram; /* [bios] -> schedules, hist_len entries */
  uint32_t hist_len;
} PcsExplore;

/* Refuses (PCS_ERROR_LIMIT) sizes over the PCS_EXPLORE_MAX_* limits. */
gboolean pcs_steps_explore(uint32_t threads, uint32_t pages, const PcsPolicy *policy,
                           PcsExplore *out, GError **error);
void pcs_explore_clear(PcsExplore *e);

#endif
