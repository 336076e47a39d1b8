/* evq.h - the event queue: events ordered by (time, sequence).
 *
 * Simulated time is integer nanoseconds.  Two events at the same time run in
 * the order they were scheduled (the sequence number stamped by
 * pcs_evq_push()), so runs are reproducible to the byte.
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
 */
#ifndef PCSIM_EVQ_H
#define PCSIM_EVQ_H

#include <glib.h>
#include <stdint.h>

typedef uint64_t PcsTime; /* simulated nanoseconds */

typedef struct {
  PcsTime time;
  uint64_t seq;
  uint32_t kind;
  uint32_t arg;
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
  uint32_t lane_used; /* bit i: slot i holds an event */
  uint32_t lane_min;  /* the slot of the lane's (time, seq) minimum; an empty slot when none */
  PcsEvent *heap;     /* overflow: a binary min-heap for pushes that find the lane full */
  size_t len, cap;
  PcsEvent *fifo;   /* ring buffer, times non-decreasing */
  size_t fifo_head, fifo_len, fifo_cap;
  PcsTime fifo_time;  /* the FIFO head's key, (UINT64_MAX, UINT64_MAX) when empty */
  uint64_t fifo_seq;
  uint64_t next_seq;
  PcsTime now;      /* time of the last popped event; only pcs_evq_pop() moves it */
  uint64_t popped;  /* events handled so far, those dispatched inline included */
} PcsEvq;

/* The event loop looks at its cancel flag and progress callback when
 * popped & PCS_EVQ_POLL_MASK is 0 (every 4096 events); pcs_evq_hold_inline()
 * leaves those events to the loop. */
#define PCS_EVQ_POLL_MASK 0xfffu

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

/* Schedule at absolute time T (>= now); never allocates unless the bound was
 * wrong.  Into a free slot of the lane, the lowest: the new event's sequence
 * number is above every pending one, so it is the lane's new minimum iff
 * its time is strictly before the old minimum's. */
static inline void pcs_evq_push(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg) {
  g_assert(t >= q->now);
  uint64_t seq = q->next_seq++;
  if (G_UNLIKELY(q->lane_used == (1u << PCS_EVQ_LANE) - 1)) {
    pcs_evq_push_heap(q, (PcsEvent){t, seq, kind, arg});
    return;
  }
  uint32_t i = (uint32_t)__builtin_ctz(~q->lane_used);
  q->lane_time[i] = t;
  q->lane_seq[i] = seq;
  q->lane_kind[i] = kind;
  q->lane_arg[i] = arg;
  q->lane_used |= 1u << i;
  if (t < q->lane_time[q->lane_min]) q->lane_min = i;
}

/* Pop the earliest event into OUT and advance the clock; FALSE when empty. */
static inline gboolean pcs_evq_pop(PcsEvq *q, PcsEvent *out) {
  if (G_UNLIKELY(q->len)) return pcs_evq_pop_overflow(q, out);
  uint32_t m = q->lane_min;
  __extension__ typedef unsigned __int128 u128;
  if (G_UNLIKELY(((u128)q->fifo_time << 64 | q->fifo_seq) < ((u128)q->lane_time[m] << 64 | q->lane_seq[m]))) {
    pcs_evq_pop_fifo(q, out);
    goto popped;
  }
  if (G_UNLIKELY(!q->lane_used)) return FALSE;
  *out = (PcsEvent){q->lane_time[m], q->lane_seq[m], q->lane_kind[m], q->lane_arg[m]};
  q->lane_time[m] = q->lane_seq[m] = UINT64_MAX;
  q->lane_used &= ~(1u << m);
  q->lane_min = pcs_evq_lane_scan(q);
popped:
  g_assert(out->time >= q->now);
  q->now = out->time;
  q->popped++;
  return TRUE;
}

/* An event at T, scheduled now, would be the very next one popped: T is
 * strictly before every pending event (a new event's sequence number is
 * above all pending ones, so at an equal time a pending event goes first).
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
 * next or the loop is due to poll (PCS_EVQ_POLL_MASK); the caller then
 * pushes it.  T >= now, as for a push (the callers add a cost to now). */
static inline gboolean pcs_evq_hold_inline(PcsEvq *q, PcsTime t) {
  if (!pcs_evq_is_next(q, t) || ((q->popped + 1) & PCS_EVQ_POLL_MASK) == 0) return FALSE;
  q->next_seq++;
  q->now = t;
  q->popped++;
  return TRUE;
}

#endif
