/* fold.h - copies folded into one event: when a run may fold, and the
 * event queue's part in it.  Private to the model (sim/model/).
 *
 * A speed-up that changes no output: a folded run and the same run with
 * PcsRunOptions.no_fold (pcsim run --no-fold) give the same results to the
 * byte (tests/test_fold.c, scripts/fold-check).
 *
 * What is folded.  A reader's copy of a page that is up to date, followed
 * by more such pages of the same read() call (v6.18: of the folio batch it
 * holds), is a run of steps no other task can observe or change: nothing
 * unsets a present page's up-to-date bit or sets its marker, the copy
 * touches only the reader's own buffer and counts, and a reader on its CPU
 * keeps it until a step ends past its slice (not so with cpu.wake_preempt:
 * pcs_fold_allowed()).  So reader.c (fold_copies())
 * charges the run as one step: the costs drawn in order from the reader's
 * stream and summed, one event pushed for the end of the last copy, and
 * when it is popped (fold_landed(), then copied() or batch_copied()) every
 * copy of the run is accounted and counted as an event of its own
 * (PcsEvq.popped, PcsResult.folded_steps).  A run stops before a page not
 * yet up to date or marked PG_readahead, at the call's end (v6.18: the
 * batch's end), at the first step end at or past the reader's slice_end,
 * where the scheduler could act, and before PCS_FOLD_BEFORE; a copy that
 * would be a step of its own (the reader may lose its CPU, or the page
 * after it may not be folded) is run as one.
 *
 * Where the folded event runs.  Sequence numbers are stamped with the
 * time they were taken at (evq.h, pcs_evq_take_seq()).  The folded event
 * is pushed with the number its last step would have taken, in the past of
 * that step (pcs_evq_push_stamped(): stamped with the end of the step
 * before it, count 0, which no other push takes), so it sorts after every
 * event pushed before that time and before every event pushed at it or
 * later, as the unfolded run orders them.  Against another event at the
 * same time stamped at the same nanosecond, the order of the two pushes
 * decides, which is the order of the events that pushed them: every event
 * records its parent's number (PcsEvent.pseq), the folded one that of the
 * step before its last, and pcs_evq_place_stamped() compares them; the
 * folded event is then put back behind the ones pushed before it
 * (pcs_evq_unpop(), at the same time: the clock does not move).  Where the
 * two parents' numbers are of one nanosecond and one of them was not taken
 * by a push (a folded step's, or one a folded event was put back with), or
 * a count ran past its stamp's range (PcsEvq.seq_overflow), its place is
 * unknown: the run sets PcsSim.fold_tied and pcs_sim_run() (sim.c) runs it
 * again from the start with folding off (PcsResult.fold_redone).
 *
 * When a run may fold: pcs_fold_allowed() below, the one statement of it.
 */
#ifndef PCSIM_FOLD_H
#define PCSIM_FOLD_H

#include "pcsim/params.h"
#include "pcsim/sim.h"

#include "evq.h"

/* May a run of P with OPT (NULL: the defaults) fold copies?  Not when:
 *   - OPT asks not to (no_fold: pcsim run --no-fold, and the redone run);
 *   - OPT has a trace callback (--trace, --ftrace, --blktrace, --timeline):
 *     it reports each copy at the time it ends;
 *   - workload.loops > 1 or workload.time_based: a reader wrapping to its
 *     next pass invalidates the file under the other readers (reader.c
 *     invalidate_file()), pages a folded run has already counted on;
 *   - cpu.wake_preempt or cpu.cfs_wake_preempt is set: a task woken at
 *     another task's event may preempt the reader (cpu.c eevdf_woken(),
 *     cfs_woken() set its slice_due to then), which then yields at its
 *     next step end, inside a folded run;
 *   - cost.copy_cold is set: a copy's cost depends on the time it starts
 *     (reader.c copies each such page as a step of its own,
 *     copy_maybe_cold(), and never reaches fold_copies());
 *   - cost.copy is 0: a copy of no cost has no step to fold;
 *   - readahead.max_folio_order > 0: a copy is a folio's part of the call
 *     already (reader.c folio_copy()), one step for many pages.
 * Folding despite a trace, workload.loops, time_based or cpu.wake_preempt
 * would change the output (checked for the last three: a run forced to
 * fold gave other JSON than --no-fold's); despite cost.copy_cold or
 * cost.copy = 0 it would fold nothing. */
static inline gboolean pcs_fold_allowed(const PcsParams *p, const PcsRunOptions *opt) {
  if (opt && (opt->no_fold || opt->trace)) return FALSE;
  return p->cost_copy_cold == 0 && p->readahead_max_folio_order == 0 && p->workload_loops == 1 && !p->workload_time_based && p->cost_copy > 0 &&
         !p->cpu_wake_preempt && !p->cpu_cfs_wake_preempt;
}

/* Copies are folded only while their steps end before this time, half the
 * stamps' range (PCS_EVQ_STAMP_MAX, 2^42 ns, 73 simulated minutes): the
 * last one then ends within it (a copy costs far less than 2^41 ns).
 * Past it a run goes on unfolded. */
#define PCS_FOLD_BEFORE (PCS_EVQ_STAMP_MAX / 2)

/* ---- the event queue's part (evq.c) ---------------------------------------- */

/* Schedule at T the last of several steps folded into one event, with the
 * sequence number that step would have taken at STAMP, when the step
 * before it ended (now < STAMP <= T < PCS_EVQ_STAMP_MAX): count 0, which no
 * other push takes.  PSEQ: the sequence number the step before it would
 * have had (its parent). */
static inline void pcs_evq_push_stamped(PcsEvq *q, PcsTime t, PcsTime stamp, uint64_t pseq, uint32_t kind, uint32_t arg) {
  g_assert(q->now < stamp && stamp <= t && t < PCS_EVQ_STAMP_MAX);
  pcs_evq_push_seq(q, t, (uint64_t)stamp << PCS_EVQ_SEQ_SHIFT, pseq, kind, arg);
}

typedef enum {
  PCS_EVQ_PLACE_NOW,     /* no pending event goes before it: handle it */
  PCS_EVQ_PLACE_LATER,   /* some do: pcs_evq_unpop() it behind them */
  PCS_EVQ_PLACE_UNKNOWN  /* the stamps cannot tell */
} PcsEvqPlace;

/* The stamped event just popped (cur_seq; its parent's number PSEQ): where
 * it belongs among the pending events at its time stamped at the same
 * nanosecond, which wait behind it whatever their place.  Each was pushed
 * at that nanosecond by an event handled then, in the order of their
 * numbers: the one whose parent's number is below PSEQ was pushed before
 * it.  LATER: *AFTER is the number of the last of those; it goes back with
 * AFTER + 1, even, which no push takes. */
PcsEvqPlace pcs_evq_place_stamped(const PcsEvq *q, uint64_t pseq, uint64_t *after);
/* Puts the event just popped (at now, handled not at all) back with
 * sequence number SEQ and parent PSEQ: it is popped again after the events
 * below SEQ, and counts once.  The clock stays at now. */
void pcs_evq_unpop(PcsEvq *q, uint64_t seq, uint64_t pseq, uint32_t kind, uint32_t arg);

#endif
