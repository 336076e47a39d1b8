/* evq.c - pending events keyed by (time, seq): a binary min-heap plus a
 * FIFO lane for a producer with non-decreasing times (see evq.h).
 *
 * The only place the simulated clock moves (pcs_evq_pop()).  Invariant: the
 * popped sequence of (time, seq) pairs is strictly increasing.
 */
#include "pcsim/evq.h"

void pcs_evq_init(PcsEvq *q, size_t capacity) {
  q->cap = capacity ? capacity : 16;
  q->heap = g_new(PcsEvent, q->cap);
  q->len = 0;
  q->fifo_cap = q->cap;
  q->fifo = g_new(PcsEvent, q->fifo_cap);
  q->fifo_head = q->fifo_len = 0;
  q->hole = FALSE;
  q->next_seq = 0;
  q->now = 0;
  q->popped = 0;
}

void pcs_evq_clear(PcsEvq *q) {
  g_clear_pointer(&q->heap, g_free);
  g_clear_pointer(&q->fifo, g_free);
  q->len = q->cap = 0;
  q->hole = FALSE;
  q->fifo_len = q->fifo_cap = 0;
}

/* Removes the popped root for good: the last entry takes its place. */
void pcs_evq_fill_hole(PcsEvq *q) {
  q->hole = FALSE;
  PcsEvent last = q->heap[--q->len];
  if (q->len) pcs_evq_sift_down(q, 0, last);
}

/* A push with no hole to fill: append and sift up. */
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
  q->fifo[(q->fifo_head + q->fifo_len++) % q->fifo_cap] = (PcsEvent){t, q->next_seq++, kind, arg};
}
