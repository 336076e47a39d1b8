/* evq.c - pending events keyed by (time, seq): a small unsorted lane with
 * its minimum cached, a binary min-heap for what overflows it, and a FIFO
 * lane for a producer with non-decreasing times (see evq.h).
 *
 * The clock moves only in evq.h's pcs_evq_pop() (its out-of-line parts are
 * here) and pcs_evq_hold_inline(); who calls them is said there.
 * Invariant: the popped sequence of (time, seq) pairs is strictly
 * increasing (a stamped push, fold.h, keeps it: its number is below those
 * pushed after its stamp; an event put back, pcs_evq_unpop(), is popped
 * again at the same time with a number above the one it had).
 *
 * Also the queue's part of the folding of copies (fold.h): placing a
 * stamped event among those at its time, and putting it back.
 */
#include "evq.h"
#include "fold.h"

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
  q->cur_seq = 0;
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
    PcsEvent lane = {q->lane_time[m], q->lane_seq[m], q->lane_kind[m], q->lane_arg[m], q->lane_pseq[m]};
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
  q->cur_seq = out->seq;
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
  q->fifo[(q->fifo_head + q->fifo_len++) % q->fifo_cap] = (PcsEvent){t, seq, kind, arg, q->cur_seq};
}

/* Is an event with sequence number SEQ pending? */
static gboolean seq_pending(const PcsEvq *q, uint64_t seq) {
  for (uint32_t i = 0; i < PCS_EVQ_LANE; i++)
    if ((q->lane_used & 1u << i) && q->lane_seq[i] == seq) return TRUE;
  for (size_t i = 0; i < q->len; i++)
    if (q->heap[i].seq == seq) return TRUE;
  for (size_t k = 0; k < q->fifo_len; k++)
    if (q->fifo[(q->fifo_head + k) % q->fifo_cap].seq == seq) return TRUE;
  return FALSE;
}

void pcs_evq_unpop(PcsEvq *q, uint64_t seq, uint64_t pseq, uint32_t kind, uint32_t arg) {
  g_assert(q->popped > 0);
  q->popped--;
  pcs_evq_push_seq(q, q->now, seq, pseq, kind, arg);
}

/* A number taken by pcs_evq_take_seq() (odd): its place among the numbers
 * taken in its nanosecond is exact.  The others are a folded event's: count
 * 0 (its last step's, pcs_evq_push_stamped()), or one it was put back with
 * (pcs_evq_unpop(): placed among the events pending then, not among the
 * steps other readers folded then), and their place in their nanosecond is
 * not known. */
static inline gboolean exact_seq(uint64_t seq) { return (seq & 1) != 0; }

typedef struct {
  uint64_t stamp, pseq, after;
  gboolean before, unknown;
} Placing;

/* One pending event E: at now and stamped like the popped event, it was
 * pushed before it (its parent handled first: P->before, P->after raised
 * to its number) or after it, or, parents of the same nanosecond one of
 * whose numbers is not exact, nobody knows. */
static void place_one(Placing *p, const PcsEvent *e, PcsTime now) {
  if (e->time != now || pcs_evq_stamp(e->seq) != p->stamp) return;
  if (e->pseq == p->pseq ||
      (pcs_evq_stamp(e->pseq) == pcs_evq_stamp(p->pseq) && (!exact_seq(e->pseq) || !exact_seq(p->pseq)))) {
    p->unknown = TRUE;
  } else if (e->pseq < p->pseq) {
    p->before = TRUE;
    p->after = MAX(p->after, e->seq);
  }
}

PcsEvqPlace pcs_evq_place_stamped(const PcsEvq *q, uint64_t pseq, uint64_t *after) {
  Placing p = {.stamp = pcs_evq_stamp(q->cur_seq), .pseq = pseq};
  for (uint32_t i = 0; i < PCS_EVQ_LANE; i++)
    if (q->lane_used & 1u << i)
      place_one(&p, &(PcsEvent){q->lane_time[i], q->lane_seq[i], q->lane_kind[i], q->lane_arg[i], q->lane_pseq[i]}, q->now);
  for (size_t i = 0; i < q->len; i++) place_one(&p, &q->heap[i], q->now);
  for (size_t k = 0; k < q->fifo_len; k++) place_one(&p, &q->fifo[(q->fifo_head + k) % q->fifo_cap], q->now);
  *after = p.after;
  /* after + 1 (even: no pcs_evq_take_seq() takes it) lies between after and
   * the next number taken, if after is a taken one and nobody holds it */
  if (p.unknown || (p.before && (!exact_seq(p.after) || seq_pending(q, p.after + 1)))) return PCS_EVQ_PLACE_UNKNOWN;
  return p.before ? PCS_EVQ_PLACE_LATER : PCS_EVQ_PLACE_NOW;
}
