/* test_evq.c - the event queue pops in (time, sequence) order, from the
 * small lane, its overflow heap and the FIFO lane alike; an event
 * dispatched inline (pcs_evq_hold_inline()) runs exactly where its push and
 * pop would have. */
#include "support.h"

#include "evq.h"
#include "fold.h"

static void pops_in_time_then_sequence_order(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 2); /* small, so it must grow */
  GRand *rng = g_rand_new_with_seed(7);
  for (uint32_t i = 0; i < 1000; i++) pcs_evq_push(&q, g_rand_int(rng) % 50, 0, i);
  PcsEvent ev, prev = {0};
  size_t n = 0;
  while (pcs_evq_pop(&q, &ev)) {
    if (n) {
      assert_true(ev.time > prev.time || (ev.time == prev.time && ev.seq > prev.seq));
      if (ev.time == prev.time) assert_true(ev.arg > prev.arg); /* FIFO among equals */
    }
    assert_int_equal(q.now, ev.time);
    prev = ev;
    n++;
  }
  assert_int_equal(n, 1000);
  assert_int_equal(q.popped, 1000);
  g_rand_free(rng);
  pcs_evq_clear(&q);
}

static void clock_only_moves_forward(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 4);
  pcs_evq_push(&q, 100, 0, 0);
  PcsEvent ev;
  assert_true(pcs_evq_pop(&q, &ev));
  pcs_evq_push(&q, 100, 0, 1); /* same instant is allowed */
  pcs_evq_push(&q, 150, 0, 2);
  assert_true(pcs_evq_pop(&q, &ev));
  assert_int_equal(ev.arg, 1);
  assert_true(pcs_evq_pop(&q, &ev));
  assert_int_equal(q.now, 150);
  assert_false(pcs_evq_pop(&q, &ev));
  pcs_evq_clear(&q);
}

/* Equal times across the lanes: whichever was pushed first pops first,
 * as in one heap.  Pushed: fifo@10 (seq 0), heap@10 (1), fifo@10 (2),
 * heap@5 (3), fifo@20 (4), heap@20 (5), heap@15 (6). */
static void fifo_and_heap_tie_break_by_push_order(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 4);
  pcs_evq_push_fifo(&q, 10, 1, 0);
  pcs_evq_push(&q, 10, 0, 1);
  pcs_evq_push_fifo(&q, 10, 1, 2);
  pcs_evq_push(&q, 5, 0, 3);
  pcs_evq_push_fifo(&q, 20, 1, 4);
  pcs_evq_push(&q, 20, 0, 5);
  pcs_evq_push(&q, 15, 0, 6);
  assert_int_equal(pcs_evq_pending(&q), 7);
  /* by (time, seq): 5/3, 10/0, 10/1, 10/2, 15/6, 20/4, 20/5 */
  const uint32_t want[] = {3, 0, 1, 2, 6, 4, 5};
  const PcsTime when[] = {5, 10, 10, 10, 15, 20, 20};
  const uint32_t lane[] = {0, 1, 0, 1, 0, 1, 0}; /* the kind: 1 = pushed to the FIFO */
  PcsEvent ev;
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    assert_true(pcs_evq_pop(&q, &ev));
    assert_int_equal(ev.arg, want[i]);
    assert_int_equal(ev.time, when[i]);
    assert_int_equal(ev.kind, lane[i]);
    assert_int_equal(q.now, when[i]);
  }
  assert_false(pcs_evq_pop(&q, &ev));
  assert_int_equal(q.popped, 7);
  pcs_evq_clear(&q);
}

/* A reference: every pending event in one array, the smallest
 * (time, seq) popped by a linear scan. */
/* The sequence number pcs_evq_take_seq() gives a push at NOW, NEXT its
 * counter: above every one before, stamped with NOW (evq.h). */
static uint64_t ref_seq(uint64_t *next, PcsTime now) {
  uint64_t base = (uint64_t)MIN(now, PCS_EVQ_STAMP_MAX) << PCS_EVQ_SEQ_SHIFT | 1, seq = MAX(*next, base);
  *next = seq + 2;
  return seq;
}

typedef struct {
  PcsEvent ev[4096];
  size_t n;
} Reference;

static PcsEvent reference_pop(Reference *r) {
  size_t best = 0;
  for (size_t i = 1; i < r->n; i++)
    if (r->ev[i].time < r->ev[best].time || (r->ev[i].time == r->ev[best].time && r->ev[i].seq < r->ev[best].seq))
      best = i;
  PcsEvent ev = r->ev[best];
  r->ev[best] = r->ev[--r->n];
  return ev;
}

/* Pops Q empty: each pop is the reference's next, and then Q has none. */
static void drain_as_reference(PcsEvq *q, Reference *ref) {
  while (ref->n) {
    PcsEvent want = reference_pop(ref), got = {0};
    assert_true(pcs_evq_pop(q, &got));
    assert_int_equal(got.seq, want.seq);
  }
  assert_false(pcs_evq_pop(q, &(PcsEvent){0}));
}

/* Pushes to both lanes interleaved with pops, as the simulation does
 * (device completions in the FIFO, task steps in the heap): every pop is
 * exactly the one a single (time, seq) heap would give.  The queue starts
 * at capacity 2, so the FIFO ring wraps and grows while it holds events. */
static void fifo_lane_interleaves_as_one_heap(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 2);
  static Reference ref;
  ref.n = 0;
  GRand *rng = g_rand_new_with_seed(11);
  PcsTime fifo_last = 0;
  uint64_t seq = 1, from_fifo = 0, cross_ties = 0;
  PcsEvent prev = {0};
  for (uint32_t i = 0; i < 20000; i++) {
    uint32_t what = g_rand_int_range(rng, 0, 20); /* 6/20 heap, 5/20 fifo, 9/20 pop */
    if (what < 6 && ref.n < G_N_ELEMENTS(ref.ev)) {
      PcsTime t = q.now + g_rand_int_range(rng, 0, 30);
      pcs_evq_push(&q, t, 0, i);
      ref.ev[ref.n++] = (PcsEvent){t, ref_seq(&seq, q.now), 0, i, 0};
    } else if (what < 11 && ref.n < G_N_ELEMENTS(ref.ev)) {
      fifo_last = MAX(fifo_last, q.now) + g_rand_int_range(rng, 0, 8); /* non-decreasing */
      pcs_evq_push_fifo(&q, fifo_last, 1, i);
      ref.ev[ref.n++] = (PcsEvent){fifo_last, ref_seq(&seq, q.now), 1, i, 0};
    } else if (ref.n) {
      PcsEvent want = reference_pop(&ref), got = {0};
      assert_true(pcs_evq_pop(&q, &got));
      assert_int_equal(got.time, want.time);
      assert_int_equal(got.seq, want.seq);
      assert_int_equal(got.kind, want.kind);
      assert_int_equal(got.arg, want.arg);
      from_fifo += got.kind;
      cross_ties += got.time == prev.time && got.kind != prev.kind; /* decided by seq alone */
      prev = got;
    }
    assert_int_equal(pcs_evq_pending(&q), ref.n);
  }
  drain_as_reference(&q, &ref);
  assert_true(from_fifo > 1000); /* both lanes were exercised, */
  assert_true(cross_ties > 100); /* often at the same instant, */
  assert_true(q.fifo_cap > 2);   /* and the ring grew */
  g_rand_free(rng);
  pcs_evq_clear(&q);
}

/* The event loop's pattern: pop one event, then push none, one (most
 * often: the task's next step) or two, sometimes a device completion to the
 * FIFO, with 8 to 64 pending: the small lane full and the overflow heap in
 * use.  Every pop must still be exactly the reference's, and the pending
 * count must hold. */
static void many_pending_pop_as_one_heap(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 4);
  static Reference ref;
  ref.n = 0;
  GRand *rng = g_rand_new_with_seed(23);
  uint64_t seq = 1, holds = 0, bare_pops = 0;
  PcsTime fifo_last = 0;
  for (uint32_t i = 0; i < 16; i++) { /* 16 pending, as the bench's bare heap */
    PcsTime t = g_rand_int_range(rng, 0, 100);
    pcs_evq_push(&q, t, 0, i);
    ref.ev[ref.n++] = (PcsEvent){t, ref_seq(&seq, q.now), 0, i, 0};
  }
  for (uint32_t i = 16; i < 200000; i++) {
    PcsEvent want = reference_pop(&ref), got = {0};
    assert_true(pcs_evq_pop(&q, &got));
    assert_int_equal(got.time, want.time);
    assert_int_equal(got.seq, want.seq);
    assert_int_equal(got.arg, want.arg);
    assert_int_equal(pcs_evq_pending(&q), ref.n);
    uint32_t what = g_rand_int_range(rng, 0, 16); /* 0: none, 1: two, 2: FIFO + one, else one */
    uint32_t pushes = what == 0 ? 0 : what == 1 ? 2 : 1;
    if (ref.n < 8) pushes = 2; /* keep a few pending */
    if (ref.n > 64) pushes = 0;
    if (what == 2) {
      fifo_last = MAX(fifo_last, q.now) + g_rand_int_range(rng, 0, 50);
      pcs_evq_push_fifo(&q, fifo_last, 1, i);
      ref.ev[ref.n++] = (PcsEvent){fifo_last, ref_seq(&seq, q.now), 1, i, 0};
    }
    holds += pushes > 0 && got.kind == 0;
    bare_pops += pushes == 0;
    for (uint32_t k = 0; k < pushes; k++) {
      PcsTime t = q.now + g_rand_int_range(rng, 0, 64); /* ties with pending events are common */
      pcs_evq_push(&q, t, 0, i);
      ref.ev[ref.n++] = (PcsEvent){t, ref_seq(&seq, q.now), 0, i, 0};
    }
    assert_int_equal(pcs_evq_pending(&q), ref.n);
  }
  drain_as_reference(&q, &ref);
  assert_int_equal(pcs_evq_pending(&q), 0);
  assert_true(holds > 100000);  /* a pop then a push was the common case, */
  assert_true(bare_pops > 5000); /* a pop alone was not rare */
  g_rand_free(rng);
  pcs_evq_clear(&q);
}

/* pcs_evq_is_next(): strictly before every pending event, in either lane,
 * right after a pop too; a tie goes to the pending event (it was scheduled
 * first). */
static void is_next_means_strictly_before_everything_pending(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 8);
  assert_true(pcs_evq_is_next(&q, 0)); /* nothing pending */
  pcs_evq_push(&q, 10, 0, 0);
  pcs_evq_push(&q, 30, 0, 1);
  pcs_evq_push(&q, 20, 0, 2);
  assert_true(pcs_evq_is_next(&q, 9));
  assert_false(pcs_evq_is_next(&q, 10));
  PcsEvent ev;
  assert_true(pcs_evq_pop(&q, &ev) && ev.time == 10); /* the lane's minimum is found again */
  assert_true(pcs_evq_is_next(&q, 10));
  assert_true(pcs_evq_is_next(&q, 19));
  assert_false(pcs_evq_is_next(&q, 20));
  assert_false(pcs_evq_is_next(&q, 25));
  pcs_evq_push_fifo(&q, 15, 1, 3);
  assert_true(pcs_evq_is_next(&q, 14));
  assert_false(pcs_evq_is_next(&q, 15));
  /* inline: the clock moves, the event counts, its sequence number is used */
  uint64_t seq = q.next_seq;
  assert_true(pcs_evq_hold_inline(&q, 12));
  assert_int_equal(q.now, 12);
  assert_int_equal(q.popped, 2);
  assert_int_equal(q.next_seq, seq + 2); /* one number taken (odd numbers only: evq.h) */
  assert_false(pcs_evq_hold_inline(&q, 15)); /* not next: nothing changes */
  assert_int_equal(q.now, 12);
  assert_int_equal(q.popped, 2);
  assert_int_equal(pcs_evq_pending(&q), 3);
  const PcsTime order[] = {15, 20, 30};
  for (size_t i = 0; i < G_N_ELEMENTS(order); i++) assert_true(pcs_evq_pop(&q, &ev) && ev.time == order[i]);
  assert_false(pcs_evq_pop(&q, &ev));
  pcs_evq_clear(&q);
}

/* The small lane (PCS_EVQ_LANE slots, unsorted, its minimum cached) and
 * the heap it overflows into: random pushes and pops that move the pending
 * count between empty, a few (the lane alone, slots 0..3), a full lane
 * (slots 4..7 too) and many (the overflow heap in use), with times drawn
 * from a narrow range so that ties are common, and a FIFO lane beside
 * them.  Every pop is the reference's (time, seq) minimum, and at every
 * step pcs_evq_is_next(T) holds exactly when T is strictly before every
 * pending event's time, for T at, just before and just after the earliest. */
static void small_lane_and_overflow_pop_as_one_heap(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 4);
  static Reference ref;
  ref.n = 0;
  GRand *rng = g_rand_new_with_seed(31);
  uint64_t seq = 1, overflow_pops = 0, lane_only_pops = 0, high_slots = 0, ties = 0, next_checks[2] = {0};
  PcsTime fifo_last = 0;
  PcsEvent prev = {0};
  uint32_t target = 4;
  for (uint32_t i = 0; i < 300000; i++) {
    if (i % 2000 == 0) target = g_rand_int_range(rng, 0, 24); /* phases: empty .. many pending */
    gboolean push = ref.n < target ? g_rand_int_range(rng, 0, 4) != 0 : g_rand_int_range(rng, 0, 4) == 0;
    if (push && ref.n < G_N_ELEMENTS(ref.ev)) {
      if (g_rand_int_range(rng, 0, 8) == 0) {
        fifo_last = MAX(fifo_last, q.now) + g_rand_int_range(rng, 0, 6);
        pcs_evq_push_fifo(&q, fifo_last, 1, i);
        ref.ev[ref.n++] = (PcsEvent){fifo_last, ref_seq(&seq, q.now), 1, i, 0};
      } else {
        PcsTime t = q.now + g_rand_int_range(rng, 0, 12);
        pcs_evq_push(&q, t, 0, i);
        ref.ev[ref.n++] = (PcsEvent){t, ref_seq(&seq, q.now), 0, i, 0};
      }
      high_slots += (q.lane_used >> PCS_EVQ_LANE / 2) != 0;
    } else if (ref.n) {
      gboolean overflow = q.len > 0;
      PcsEvent want = reference_pop(&ref), got = {0};
      assert_true(pcs_evq_pop(&q, &got));
      assert_int_equal(got.time, want.time);
      assert_int_equal(got.seq, want.seq);
      assert_int_equal(got.kind, want.kind);
      assert_int_equal(got.arg, want.arg);
      overflow_pops += overflow;
      lane_only_pops += !overflow && got.kind == 0;
      ties += got.time == prev.time;
      prev = got;
    } else {
      assert_false(pcs_evq_pop(&q, &(PcsEvent){0}));
    }
    assert_int_equal(pcs_evq_pending(&q), ref.n);
    PcsTime earliest = UINT64_MAX;
    for (size_t k = 0; k < ref.n; k++) earliest = MIN(earliest, ref.ev[k].time);
    PcsTime probe[] = {q.now, earliest == UINT64_MAX ? q.now + 5 : earliest, earliest - 1, earliest + 1};
    for (size_t k = 0; k < G_N_ELEMENTS(probe); k++) {
      if (probe[k] < q.now || probe[k] == UINT64_MAX) continue;
      gboolean next = probe[k] < earliest;
      assert_int_equal(pcs_evq_is_next(&q, probe[k]), next);
      next_checks[next]++;
    }
  }
  drain_as_reference(&q, &ref);
  assert_true(overflow_pops > 10000);   /* the heap took a lane's overflow, */
  assert_true(lane_only_pops > 10000);  /* the lane ran alone, */
  assert_true(high_slots > 10000);      /* its upper slots were used, */
  assert_true(ties > 10000);            /* equal times were common, */
  assert_true(next_checks[0] > 10000 && next_checks[1] > 10000); /* and is_next said both */
  g_rand_free(rng);
  pcs_evq_clear(&q);
}

/* One step of task TASK's deterministic life: its K-th step lasts this
 * long (0..23 ns: ties with pending events are common). */
static PcsTime step_ns(uint32_t task, uint64_t k) {
  uint64_t x = (k + 1) * 0x9e3779b97f4a7c15ull ^ (task + 1) * 0xbf58476d1ce4e5b9ull;
  x ^= x >> 31;
  x *= 0x94d049bb133111ebull;
  return (x >> 40) % 24;
}

/* The event loop's inline dispatch (cpu.c pcs_cpu_run_last()): a task
 * whose next step would be the very next event runs it at once instead of
 * pushing and popping it.  Three tasks, each scheduling its next step when
 * one ends, and a device lane: the same steps at the same times in the
 * same order, and the same event count, as with every step pushed and
 * popped; inline steps are most of them, yet none is one the loop polls
 * at (PCS_EVQ_POLL_MASK). */
static void inline_dispatch_runs_as_push_and_pop(void **state) {
  enum { TASKS = 3, STEPS = 300000 };
  PcsEvent *runs[2];
  uint64_t popped[2], inline_steps = 0;
  for (int with_inline = 0; with_inline < 2; with_inline++) {
    PcsEvq q;
    pcs_evq_init(&q, 4);
    uint64_t k[TASKS] = {0};
    PcsTime fifo_last = 0;
    PcsEvent *run = runs[with_inline] = g_new(PcsEvent, STEPS);
    size_t n = 0;
    for (uint32_t t = 0; t < TASKS; t++) pcs_evq_push(&q, step_ns(t, k[t]++), 0, t);
    PcsEvent ev;
    while (n < STEPS && pcs_evq_pop(&q, &ev)) {
      if (pcs_evq_poll_due(&q)) pcs_evq_polled(&q); /* as the event loop does (sim.c) */
      for (;;) { /* the task runs its step; one in 8 also starts a device transfer */
        run[n++] = (PcsEvent){q.now, q.popped, ev.kind, ev.arg, 0};
        if (ev.kind == 1 || n == STEPS) break;
        if (k[ev.arg] % 8 == 0) {
          fifo_last = MAX(fifo_last, q.now) + step_ns(ev.arg + TASKS, k[ev.arg]);
          pcs_evq_push_fifo(&q, fifo_last, 1, ev.arg);
        }
        PcsTime next = q.now + step_ns(ev.arg, k[ev.arg]++);
        if (with_inline && pcs_evq_hold_inline(&q, next)) {
          assert_true((q.popped & PCS_EVQ_POLL_MASK) != 0);
          inline_steps++;
          continue;
        }
        pcs_evq_push(&q, next, 0, ev.arg);
        break;
      }
    }
    assert_int_equal(n, STEPS);
    popped[with_inline] = q.popped;
    pcs_evq_clear(&q);
  }
  assert_int_equal(popped[0], popped[1]);
  for (size_t i = 0; i < STEPS; i++) {
    assert_int_equal(runs[1][i].time, runs[0][i].time);
    assert_int_equal(runs[1][i].seq, runs[0][i].seq); /* the event count when it ran */
    assert_int_equal(runs[1][i].kind, runs[0][i].kind);
    assert_int_equal(runs[1][i].arg, runs[0][i].arg);
  }
  assert_true(inline_steps > STEPS / 10);
  g_free(runs[0]), g_free(runs[1]);
}

/* A stamped push (a reader's folded copies, fold.h) sorts among the
 * events at its time by its stamp: after those pushed before the stamp,
 * before those pushed at it or later, whenever they were pushed.  Against
 * one pushed at the stamp itself, the numbers of the events that pushed
 * the two decide (pcs_evq_place_stamped(), then pcs_evq_unpop() behind the
 * ones pushed first); against a parent stamped alike that was itself a
 * folded step, nothing does. */
static void stamped_event_sorts_by_its_stamp(void **state) {
  PcsEvq q;
  pcs_evq_init(&q, 8);
  PcsEvent ev;
  uint64_t after;
  pcs_evq_push(&q, 100, 0, 1);                 /* A, pushed at 0 */
  pcs_evq_push_stamped(&q, 100, 50, 7, 0, 3);  /* F, its last step pushed at 50 */
  pcs_evq_push(&q, 40, 1, 0);
  pcs_evq_push(&q, 60, 1, 0);
  assert_true(pcs_evq_pop(&q, &ev) && ev.time == 40);
  pcs_evq_push(&q, 100, 0, 2);                 /* C, pushed at 40: before F, though F waits with a smaller number */
  assert_false(pcs_evq_is_next(&q, 100));
  assert_true(pcs_evq_pop(&q, &ev) && ev.time == 60);
  pcs_evq_push(&q, 100, 0, 4);                 /* D, pushed at 60: after F */
  pcs_evq_push_fifo(&q, 100, 1, 5);            /* E, the FIFO lane, pushed at 60: after D */
  const uint32_t order[] = {1, 2, 3, 4, 5};
  for (size_t i = 0; i < G_N_ELEMENTS(order); i++) {
    assert_true(pcs_evq_pop(&q, &ev));
    assert_int_equal(ev.time, 100);
    assert_int_equal(ev.arg, order[i]);
    if (ev.arg == 3) assert_int_equal(pcs_evq_place_stamped(&q, 7, &after), PCS_EVQ_PLACE_NOW); /* none stamped 50 */
  }
  /* pushed at G's stamp, 150, by Y1 and Y2: G's parent between them */
  uint64_t next = q.next_seq, y1 = ref_seq(&next, q.now);
  pcs_evq_push(&q, 150, 1, 10);                     /* Y1 */
  uint64_t mid = pcs_evq_take_seq(&q);              /* G's first step's number, as reader.c takes it */
  pcs_evq_push(&q, 150, 1, 11);                     /* Y2 */
  pcs_evq_push_stamped(&q, 200, 150, mid, 0, 6);    /* G: its last step's parent handled after Y1, before Y2 */
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 10 && ev.seq == y1);
  pcs_evq_push(&q, 200, 0, 12);                     /* H1, parent Y1 */
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 11);
  pcs_evq_push(&q, 200, 0, 13);                     /* H2, parent Y2 */
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 6); /* G's number is the least at 200 */
  assert_int_equal(pcs_evq_place_stamped(&q, mid, &after), PCS_EVQ_PLACE_LATER);
  uint64_t popped = q.popped;
  pcs_evq_unpop(&q, after + 1, mid, 0, 6);
  assert_int_equal(q.popped, popped - 1);
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 12); /* H1 */
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 6);  /* G, now in its place */
  assert_int_equal(pcs_evq_place_stamped(&q, mid, &after), PCS_EVQ_PLACE_NOW);
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 13); /* H2 */
  /* G2's parent a folded step stamped 200, H3's a real event pushed at 200: unknown */
  pcs_evq_push(&q, 250, 1, 14);                     /* Y3, pushed at 200 */
  pcs_evq_push_stamped(&q, 300, 250, (uint64_t)200 << PCS_EVQ_SEQ_SHIFT, 0, 16);
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 14);
  pcs_evq_push(&q, 300, 0, 15);                     /* H3, parent Y3 */
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 16);
  assert_int_equal(pcs_evq_place_stamped(&q, (uint64_t)200 << PCS_EVQ_SEQ_SHIFT, &after), PCS_EVQ_PLACE_UNKNOWN);
  assert_true(pcs_evq_pop(&q, &ev) && ev.arg == 15);
  assert_false(pcs_evq_pop(&q, &ev));
  pcs_evq_clear(&q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(pops_in_time_then_sequence_order),
    cmocka_unit_test(clock_only_moves_forward),
    cmocka_unit_test(fifo_and_heap_tie_break_by_push_order),
    cmocka_unit_test(fifo_lane_interleaves_as_one_heap),
    cmocka_unit_test(many_pending_pop_as_one_heap),
    cmocka_unit_test(is_next_means_strictly_before_everything_pending),
    cmocka_unit_test(small_lane_and_overflow_pop_as_one_heap),
    cmocka_unit_test(inline_dispatch_runs_as_push_and_pop),
    cmocka_unit_test(stamped_event_sorts_by_its_stamp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
