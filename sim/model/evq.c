/* evq.c - pending events keyed by (time, seq): a small unsorted lane with
 * its minimum cached, a binary min-heap for what overflows it, and a FIFO
 * lane for a producer with non-decreasing times (see evq.h).
 *
 * The only place the simulated clock moves (pcs_evq_pop()).  Invariant: the
 * popped sequence of (time, seq) pairs is strictly increasing (a stamped
 * push, evq.h, keeps it: its number is below those pushed after its stamp).
 */
#include "pcsim/evq.h"

void pcs_evq_init(PcsEvq *q, size_t capacity) {
  q->cap = capacity ? capacity : 16;
  q->heap = g_new(PcsEvent, q->cap);
  q->len = 0;
  q->fifo_cap = q->cap;
  q->fifo = g_new(PcsEvent, q->fifo_cap);
  q->fifo_head = q->fifo_len = 0;
  q->fifo_time = q->fifo_seq = UINT64_MAX;
  for (uint32_t i = 0; i < PCS_EVQ_LANE; i++) q->lane_time[i] = q->lane_seq[i] = UINT64_MAX;
  q->lane_used = q->lane_min = 0;
  q->next_seq = 1;
  q->seq_overflow = 0;
  q->now = 0;
  q->popped = 0;
  q->poll_at = PCS_EVQ_POLL_MASK + 1;
}

void pcs_evq_clear(PcsEvq *q) {
  g_clear_pointer(&q->heap, g_free);
  g_clear_pointer(&q->fifo, g_free);
  q->len = q->cap = 0;
  q->lane_used = 0;
  q->fifo_len = q->fifo_cap = 0;
  q->fifo_time = q->fifo_seq = UINT64_MAX;
}

/* A push that finds the lane full: append to the heap and sift up. */
void pcs_evq_push_heap(PcsEvq *q, PcsEvent ev) {
  if (G_UNLIKELY(q->len == q->cap)) {
    q->cap *= 2;
    q->heap = g_renew(PcsEvent, q->heap, q->cap);
  }
  size_t i = q->len++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!pcs_evq_before(&ev, &q->heap[parent])) break;
    q->heap[i] = q->heap[parent];
    i = parent;
  }
  q->heap[i] = ev;
}

/* A pop while the overflow heap holds events: the earliest of the three
 * lanes' minima.  The heap's root is removed at once (last entry, sift down). */
gboolean pcs_evq_pop_overflow(PcsEvq *q, PcsEvent *out) {
  uint32_t m = q->lane_min;
  PcsEvent best = q->heap[0];
  int from = 0; /* 0 heap, 1 lane, 2 fifo */
  if (q->lane_used) {
    PcsEvent lane = {q->lane_time[m], q->lane_seq[m], q->lane_kind[m], q->lane_arg[m]};
    if (pcs_evq_before(&lane, &best)) best = lane, from = 1;
  }
  if (q->fifo_len && pcs_evq_before(&q->fifo[q->fifo_head], &best)) best = q->fifo[q->fifo_head], from = 2;
  if (from == 0) {
    PcsEvent last = q->heap[--q->len];
    size_t i = 0, n = q->len;
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && pcs_evq_before(&q->heap[c + 1], &q->heap[c])) c++;
      if (!pcs_evq_before(&q->heap[c], &last)) break;
      q->heap[i] = q->heap[c];
      i = c;
    }
    if (n) q->heap[i] = last;
  } else if (from == 1) {
    q->lane_time[m] = q->lane_seq[m] = UINT64_MAX;
    q->lane_used &= ~(1u << m);
    q->lane_min = pcs_evq_lane_scan(q);
  } else {
    pcs_evq_pop_fifo(q, &best);
  }
  *out = best;
  g_assert(out->time >= q->now);
  q->now = out->time;
  q->popped++;
  return TRUE;
}

/* Takes the FIFO's head into OUT (the caller moves the clock). */
void pcs_evq_pop_fifo(PcsEvq *q, PcsEvent *out) {
  *out = q->fifo[q->fifo_head];
  q->fifo_head = q->fifo_head + 1 == q->fifo_cap ? 0 : q->fifo_head + 1;
  if (--q->fifo_len) {
    q->fifo_time = q->fifo[q->fifo_head].time;
    q->fifo_seq = q->fifo[q->fifo_head].seq;
  } else {
    q->fifo_time = q->fifo_seq = UINT64_MAX;
  }
}

void pcs_evq_push_fifo(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg) {
  g_assert(t >= q->now);
  if (G_UNLIKELY(q->fifo_len == q->fifo_cap)) {
    /* unroll the ring into a doubled buffer */
    PcsEvent *bigger = g_new(PcsEvent, q->fifo_cap * 2);
    for (size_t i = 0; i < q->fifo_len; i++) bigger[i] = q->fifo[(q->fifo_head + i) % q->fifo_cap];
    g_free(q->fifo);
    q->fifo = bigger;
    q->fifo_head = 0;
    q->fifo_cap *= 2;
  }
  if (q->fifo_len) g_assert(t >= q->fifo[(q->fifo_head + q->fifo_len - 1) % q->fifo_cap].time);
  uint64_t seq = pcs_evq_take_seq(q);
  if (!q->fifo_len) q->fifo_time = t, q->fifo_seq = seq;
  q->fifo[(q->fifo_head + q->fifo_len++) % q->fifo_cap] = (PcsEvent){t, seq, kind, arg};
}

gboolean pcs_evq_stamp_tied(const PcsEvq *q, PcsTime stamp) {
  PcsEvent next = {q->lane_time[q->lane_min], q->lane_seq[q->lane_min], 0, 0};
  if (q->len && pcs_evq_before(&q->heap[0], &next)) next = q->heap[0];
  if (q->fifo_len && pcs_evq_before(&q->fifo[q->fifo_head], &next)) next = q->fifo[q->fifo_head];
  return next.time == q->now && pcs_evq_stamp(next.seq) == stamp;
}
