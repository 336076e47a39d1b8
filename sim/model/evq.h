/* evq.h - the event queue: events ordered by (time, sequence).  Private
 * to the model (sim/model/).
 *
 * Simulated time is integer nanoseconds.  Two events at the same time run in
 * the order they were scheduled (the sequence number stamped by
 * pcs_evq_push(); a folded event, in the place its last step's push would
 * have had: fold.h), so runs are reproducible to the byte.
 *
 * Three lanes hold the pending events.  A small lane of PCS_EVQ_LANE
 * slots, unsorted, with the slot of its (time, seq) minimum cached: a push
 * takes the lowest free slot and compares its time with the minimum's (its
 * sequence number is above every pending one), a pop takes the minimum and
 * finds the next one with a branch-free tournament over the slots (four
 * while no upper slot is used).  The simulation keeps at most one step
 * event per task pending, so with a few CPUs the lane is all it uses; a
 * push that finds it full goes to a binary min-heap.  And a FIFO for a
 * producer whose times never decrease (the device's completions:
 * transfers end in dispatch order on its one channel).  Pop takes the
 * smallest (time, seq) of the lanes' minima, so the order is exactly that
 * of a single heap.  The heap and FIFO are sized once for the bounded
 * number of pending events a simulation can have and grow only if that
 * bound is wrong: the hot path does not allocate.
 *
 * An event that would be popped right after it is pushed need not enter
 * the queue at all: pcs_evq_hold_inline() lets the code that would push it
 * run it at once instead, counted as an event all the same.
 *
 * The clock (PcsEvq.now) moves in two places, both here: pcs_evq_pop()
 * and pcs_evq_hold_inline().  Events are popped by the event loop (sim.c
 * sim_loop()) and by pcs_reader_steps() (reader.c), the loop's case for a
 * reader's step event, which pops the next event itself while that is a
 * reader's step too and hands any other, and the loop's poll, back to the
 * loop.  pcs_evq_hold_inline() is called only by pcs_cpu_run_last()
 * (internal.h), when a reader's next step would be the next event popped.
 * Nothing else moves the clock or takes an event out.  Folded copies
 * (fold.h) do neither of their own: reader.c reads now to stamp their
 * event, which is pushed and popped as any other; when popped it may be
 * put back at the same time (pcs_evq_unpop()), and its copies are added
 * to popped.
 *
 * A sequence number is stamped with the time it was taken at: its bits from
 * PCS_EVQ_SEQ_SHIFT up hold that time (capped at PCS_EVQ_STAMP_MAX), the
 * rest count the pushes at that time, odd numbers only
 * (pcs_evq_take_seq()).  They still rise with every push, so the order is
 * that of a plain counter.  Each event also records the number of the
 * event being handled when it was pushed (PcsEvent.pseq, its parent).
 * Only the folding of copies uses the stamps and the parents: its part of
 * the queue (a push in the past of the pushing step, the placement of
 * such an event, and putting it back) is declared in fold.h.
 */
#ifndef PCSIM_EVQ_H
#define PCSIM_EVQ_H

#include "pcsim/sim.h" /* PcsTime */

#include <glib.h>
#include <stdint.h>

typedef struct {
  PcsTime time;
  uint64_t seq;
  uint32_t kind;
  uint32_t arg;
  uint64_t pseq; /* the sequence number of the event being handled when it was pushed (fold.h) */
} PcsEvent;

/* The small lane's slots; an empty one holds the key (UINT64_MAX, UINT64_MAX),
 * after every real event (no sequence number reaches UINT64_MAX). */
#define PCS_EVQ_LANE 8

typedef struct {
  /* the small lane, unsorted, structure of arrays: the scan for its
   * minimum reads whole arrays without a branch */
  PcsTime lane_time[PCS_EVQ_LANE];
  uint64_t lane_seq[PCS_EVQ_LANE];
  uint32_t lane_kind[PCS_EVQ_LANE], lane_arg[PCS_EVQ_LANE];
  uint64_t lane_pseq[PCS_EVQ_LANE];
  uint32_t lane_used; /* bit i: slot i holds an event */
  uint32_t lane_min;  /* the slot of the lane's (time, seq) minimum; an empty slot when none */
  PcsEvent *heap;     /* overflow: a binary min-heap for pushes that find the lane full */
  size_t len, cap;
  PcsEvent *fifo;   /* ring buffer, times non-decreasing */
  size_t fifo_head, fifo_len, fifo_cap;
  PcsTime fifo_time;  /* the FIFO head's key, (UINT64_MAX, UINT64_MAX) when empty */
  uint64_t fifo_seq;
  uint64_t next_seq; /* odd; pcs_evq_take_seq() */
  uint64_t seq_overflow; /* non-zero once a count ran past its stamp's range (pcs_evq_take_seq(), fold.h) */
  uint64_t cur_seq;      /* the sequence number of the event being handled (0 before the first) */
  PcsTime now;      /* the clock: moved only by pcs_evq_pop() and pcs_evq_hold_inline() */
  uint64_t popped;  /* events handled so far, those dispatched inline included */
  uint64_t poll_at; /* the loop polls once popped reaches it (pcs_evq_poll_due()) */
} PcsEvq;

/* The event loop looks at its cancel flag and progress callback every
 * 4096 events: once popped reaches poll_at, the next multiple of 4096
 * (reached, not hit: a reader's folded copies count as several events at
 * once, fold.h); pcs_evq_hold_inline() leaves that event to the loop. */
#define PCS_EVQ_POLL_MASK 0xfffu
static inline gboolean pcs_evq_poll_due(const PcsEvq *q) { return q->popped >= q->poll_at; }
/* The loop has polled: the next poll is at the next multiple of 4096. */
static inline void pcs_evq_polled(PcsEvq *q) { q->poll_at = (q->popped | PCS_EVQ_POLL_MASK) + 1; }

/* The stamp of a sequence number: the time it was taken at (above
 * PCS_EVQ_STAMP_MAX, that cap); below it, the count of pushes at that time.
 * Copies are folded only well before the cap (PCS_FOLD_BEFORE, fold.h).
 * A count that reaches 2^20 pushes at one instant runs into the next
 * nanosecond's stamps (the order stays that of a counter); the queue then
 * sets seq_overflow, and a folded event that finds it set has its run
 * redone unfolded, as for an unknown place (fold.h). */
#define PCS_EVQ_SEQ_SHIFT 20
#define PCS_EVQ_STAMP_MAX ((PcsTime)1 << 42)
static inline uint64_t pcs_evq_stamp(uint64_t seq) { return seq >> PCS_EVQ_SEQ_SHIFT; }

/* Called once per run: room for CAPACITY pending events in each lane (16 when 0). */
void pcs_evq_init(PcsEvq *q, size_t capacity);
/* Frees both lanes; pending events are dropped (teardown asserts there are none). */
void pcs_evq_clear(PcsEvq *q);
/* Schedule at T, which must be >= the time of every event pushed here before. */
void pcs_evq_push_fifo(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg);
static inline size_t pcs_evq_pending(const PcsEvq *q) {
  return (size_t)__builtin_popcount(q->lane_used) + q->len + q->fifo_len;
}

/* The out-of-line parts (evq.c): the overflow heap, a pop when it holds
 * events, and a pop from the FIFO. */
void pcs_evq_push_heap(PcsEvq *q, PcsEvent ev);
gboolean pcs_evq_pop_overflow(PcsEvq *q, PcsEvent *out);
void pcs_evq_pop_fifo(PcsEvq *q, PcsEvent *out);

/* (time, seq) order: A pops before B. */
static inline gboolean pcs_evq_before(const PcsEvent *a, const PcsEvent *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The lane's minimum: a branch-free tournament over its slots (an empty
 * one loses to any event).  Each match is one 128-bit compare of
 * (time, seq) (cmp, sbb) and a conditional move of the winner's slot. */
static inline uint32_t pcs_evq_lane_pick(const PcsEvq *q, uint32_t i, uint32_t j) {
  __extension__ typedef unsigned __int128 u128;
  u128 ki = (u128)q->lane_time[i] << 64 | q->lane_seq[i], kj = (u128)q->lane_time[j] << 64 | q->lane_seq[j];
  return kj < ki ? j : i;
}
static inline uint32_t pcs_evq_lane_scan4(const PcsEvq *q, uint32_t base) {
  return pcs_evq_lane_pick(q, pcs_evq_lane_pick(q, base, base + 1), pcs_evq_lane_pick(q, base + 2, base + 3));
}
/* Slots 4..7 take part only when one holds an event (the lowest free slot
 * is always taken first, so a lane of four or fewer lives in 0..3). */
static inline uint32_t pcs_evq_lane_scan(const PcsEvq *q) {
  uint32_t low = pcs_evq_lane_scan4(q, 0);
  if (G_LIKELY(q->lane_used < 1u << PCS_EVQ_LANE / 2)) return low;
  return pcs_evq_lane_pick(q, low, pcs_evq_lane_scan4(q, 4));
}

/* The next sequence number: above every one taken before, stamped with
 * now (branch-free: two conditional moves). */
static inline uint64_t pcs_evq_take_seq(PcsEvq *q) {
  PcsTime at = q->now < PCS_EVQ_STAMP_MAX ? q->now : PCS_EVQ_STAMP_MAX;
  uint64_t base = at << PCS_EVQ_SEQ_SHIFT | 1, seq = q->next_seq > base ? q->next_seq : base;
  q->next_seq = seq + 2;
  q->seq_overflow |= (seq - base) >> PCS_EVQ_SEQ_SHIFT;
  return seq;
}

/* Into a free slot of the lane, the lowest, or the heap when the lane is
 * full.  The lane's new minimum iff its key is below the old minimum's: a
 * stamped event (pcs_evq_push_stamped(), fold.h) may wait there with a
 * sequence number above the new one's. */
static inline void pcs_evq_push_seq(PcsEvq *q, PcsTime t, uint64_t seq, uint64_t pseq, uint32_t kind, uint32_t arg) {
  g_assert(t >= q->now);
  if (G_UNLIKELY(q->lane_used == (1u << PCS_EVQ_LANE) - 1)) {
    pcs_evq_push_heap(q, (PcsEvent){t, seq, kind, arg, pseq});
    return;
  }
  __extension__ typedef unsigned __int128 u128;
  uint32_t i = (uint32_t)__builtin_ctz(~q->lane_used), m = q->lane_min;
  q->lane_time[i] = t;
  q->lane_seq[i] = seq;
  q->lane_kind[i] = kind;
  q->lane_arg[i] = arg;
  q->lane_pseq[i] = pseq;
  q->lane_used |= 1u << i;
  if (((u128)t << 64 | seq) < ((u128)q->lane_time[m] << 64 | q->lane_seq[m])) q->lane_min = i;
}

/* Schedule at absolute time T (>= now); never allocates unless the bound was wrong. */
static inline void pcs_evq_push(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg) {
  pcs_evq_push_seq(q, t, pcs_evq_take_seq(q), q->cur_seq, kind, arg);
}

/* Pop the earliest event into OUT and move the clock to its time; FALSE when
 * empty.  Callers: sim.c sim_loop() and reader.c pcs_reader_steps(). */
static inline gboolean pcs_evq_pop(PcsEvq *q, PcsEvent *out) {
  if (G_UNLIKELY(q->len)) return pcs_evq_pop_overflow(q, out);
  uint32_t m = q->lane_min;
  __extension__ typedef unsigned __int128 u128;
  if (G_UNLIKELY(((u128)q->fifo_time << 64 | q->fifo_seq) < ((u128)q->lane_time[m] << 64 | q->lane_seq[m]))) {
    pcs_evq_pop_fifo(q, out);
    goto popped;
  }
  if (G_UNLIKELY(!q->lane_used)) return FALSE;
  *out = (PcsEvent){q->lane_time[m], q->lane_seq[m], q->lane_kind[m], q->lane_arg[m], q->lane_pseq[m]};
  q->lane_time[m] = q->lane_seq[m] = UINT64_MAX;
  q->lane_used &= ~(1u << m);
  q->lane_min = pcs_evq_lane_scan(q);
popped:
  g_assert(out->time >= q->now);
  q->now = out->time;
  q->cur_seq = out->seq;
  q->popped++;
  return TRUE;
}

/* An event at T, scheduled now, would be the very next one popped: T is
 * strictly before every pending event (at an equal time a pending event
 * goes first, or, stamped later than now, after it: either way not next).
 * The lane's minimum and the FIFO's head are cached; an empty one's time
 * is UINT64_MAX, after any T a run reaches. */
static inline gboolean pcs_evq_is_next(const PcsEvq *q, PcsTime t) {
  if (G_UNLIKELY(q->len) && t >= q->heap[0].time) return FALSE;
  return t < q->fifo_time && t < q->lane_time[q->lane_min];
}

/* Inline dispatch: when an event at T would be the next popped
 * (pcs_evq_is_next()), do what its push and pop would have done to the
 * queue without moving any entry: its sequence number is used up, the
 * clock moves to T and it counts as an event (popped: a simulated step,
 * however dispatched).  The caller then runs it at once, in place of
 * returning to the event loop.  FALSE, and nothing done, when T is not
 * next or the loop is due to poll (pcs_evq_poll_due()); the caller then
 * pushes it.  T >= now, as for a push (the callers add a cost to now). */
static inline gboolean pcs_evq_hold_inline(PcsEvq *q, PcsTime t) {
  if (!pcs_evq_is_next(q, t) || q->popped + 1 >= q->poll_at) return FALSE;
  q->cur_seq = pcs_evq_take_seq(q);
  q->now = t;
  q->popped++;
  return TRUE;
}

#endif
