/* evq.c - binary min-heap of events keyed by (time, seq).
 *
 * The only place the simulated clock moves (pcs_evq_pop()).  Invariant: the
 * popped sequence of (time, seq) pairs is strictly increasing.
 */
#include "pcsim/evq.h"

static inline gboolean ev_before(const PcsEvent *a, const PcsEvent *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void pcs_evq_init(PcsEvq *q, size_t capacity) {
  q->cap = capacity ? capacity : 16;
  q->heap = g_new(PcsEvent, q->cap);
  q->len = 0;
  q->next_seq = 0;
  q->now = 0;
  q->popped = 0;
}

void pcs_evq_clear(PcsEvq *q) {
  g_clear_pointer(&q->heap, g_free);
  q->len = q->cap = 0;
}

void pcs_evq_push(PcsEvq *q, PcsTime t, uint32_t kind, uint32_t arg) {
  g_assert(t >= q->now);
  if (G_UNLIKELY(q->len == q->cap)) {
    q->cap *= 2;
    q->heap = g_renew(PcsEvent, q->heap, q->cap);
  }
  PcsEvent ev = {t, q->next_seq++, kind, arg};
  size_t i = q->len++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!ev_before(&ev, &q->heap[parent])) break;
    q->heap[i] = q->heap[parent];
    i = parent;
  }
  q->heap[i] = ev;
}

gboolean pcs_evq_pop(PcsEvq *q, PcsEvent *out) {
  if (q->len == 0) return FALSE;
  *out = q->heap[0];
  PcsEvent last = q->heap[--q->len];
  size_t i = 0, n = q->len;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && ev_before(&q->heap[c + 1], &q->heap[c])) c++;
    if (!ev_before(&q->heap[c], &last)) break;
    q->heap[i] = q->heap[c];
    i = c;
  }
  if (n) q->heap[i] = last;
  g_assert(out->time >= q->now);
  q->now = out->time;
  q->popped++;
  return TRUE;
}
