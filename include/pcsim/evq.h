/* evq.h - the event queue: events ordered by (time, sequence).
 *
 * Simulated time is integer nanoseconds.  Two events at the same time run in
 * the order they were scheduled (the sequence number stamped by
 * pcs_evq_push()), so runs are reproducible to the byte.
 *
 * Two lanes hold the pending events: a binary min-heap for events in any
 * order, and a FIFO for a producer whose times never decrease (the device's
 * completions: transfers end in dispatch order on its one channel).  Pop
 * takes the smaller (time, seq) of the heap top and the FIFO head, so the
 * order is exactly that of a single heap while the heap stays a few entries
 * deep instead of holding the whole device queue.  The lanes are sized
 * once for the bounded number of pending events a simulation can have and
 * grow only if that bound is wrong: the hot path does not allocate.
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

typedef struct {
  PcsEvent *heap;
  size_t len, cap;
  gboolean hole;    /* heap[0] was popped; the next push replaces it, or the next pop removes it */
  PcsEvent *fifo;   /* ring buffer, times non-decreasing */
  size_t fifo_head, fifo_len, fifo_cap;
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
static inline size_t pcs_evq_pending(const PcsEvq *q) { return q->len - (size_t)q->hole + q->fifo_len; }

/* The hot path, inline: one pop and (usually) one push per event.  The
 * out-of-line parts (evq.c) grow the heap or push below a full heap. */
void pcs_evq_push_heap(PcsEvq *q, PcsEvent ev);
void pcs_evq_fill_hole(PcsEvq *q);

/* (time, seq) order: A pops before B. */
static inline gboolean pcs_evq_before(const PcsEvent *a, const PcsEvent *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Places EV in heap slot I or below (slot I free, len entries counting it). */
static inline void pcs_evq_sift_down(PcsEvq *q, size_t i, PcsEvent ev) {
  PcsEvent *h = q->heap;
  size_t n = q->len;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && pcs_evq_before(&h[c + 1], &h[c])) c++;
    if (!pcs_evq_before(&h[c], &ev)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = ev;
}

/* Schedule at absolute time T (>= now); never allocates unless the bound was
 * wrong.  Right after a pop from the heap this is a replace-top ("hold"):
 * the new event takes the popped root's slot and sifts down. */
static inline void pcs_evq_push(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg) {
  g_assert(t >= q->now);
  PcsEvent ev = {t, q->next_seq++, kind, arg};
  if (G_LIKELY(q->hole)) {
    q->hole = FALSE;
    pcs_evq_sift_down(q, 0, ev);
  } else {
    pcs_evq_push_heap(q, ev);
  }
}

/* Pop the earliest event into OUT and advance the clock; FALSE when empty. */
static inline gboolean pcs_evq_pop(PcsEvq *q, PcsEvent *out) {
  if (q->hole) pcs_evq_fill_hole(q);
  if (q->fifo_len && (q->len == 0 || pcs_evq_before(&q->fifo[q->fifo_head], &q->heap[0]))) {
    *out = q->fifo[q->fifo_head];
    q->fifo_head = q->fifo_head + 1 == q->fifo_cap ? 0 : q->fifo_head + 1;
    q->fifo_len--;
  } else if (G_LIKELY(q->len)) {
    *out = q->heap[0];
    q->hole = TRUE; /* removed by the next push (replace-top) or pop */
  } else {
    return FALSE;
  }
  g_assert(out->time >= q->now);
  q->now = out->time;
  q->popped++;
  return TRUE;
}

/* An event at T, scheduled now, would be the very next one popped: T is
 * strictly before every pending event (a new event's sequence number is
 * above all pending ones, so at an equal time a pending event goes first).
 * After a pop from the heap its root is a hole: the smallest pending heap
 * entry is then one of the root's two children. */
static inline gboolean pcs_evq_is_next(const PcsEvq *q, PcsTime t) {
  if (q->fifo_len && t >= q->fifo[q->fifo_head].time) return FALSE;
  if (!q->hole) return q->len == 0 || t < q->heap[0].time;
  return (q->len < 2 || t < q->heap[1].time) && (q->len < 3 || t < q->heap[2].time);
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
