/* test_pagecache.c - the page cache on its own: insert race, PG_readahead,
 * completion, tree_lock spinning and the wait queue, with no simulation. */
#include "support.h"

#include "pagecache.h"

enum { HOLD = 100 }; /* cost.tree_lock_hold, ns */

static void the_first_insert_wins_and_the_second_gets_eexist(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 8, 4, HOLD);
  PcsTime cpu;
  assert_false(pcs_pc_present(&pc, 3));
  assert_int_equal(pcs_pc_insert(&pc, 3, 0, &cpu), 0);
  assert_true(pcs_pc_present(&pc, 3));
  assert_false(pcs_pc_uptodate(&pc, 3)); /* inserted locked, not yet read */
  assert_int_equal(pcs_pc_insert(&pc, 3, 1000, &cpu), -EEXIST);
  assert_int_equal(cpu, HOLD); /* the loser paid for the lock too */
  assert_false(pcs_pc_present(&pc, 2));
  assert_false(pcs_pc_present(&pc, 4));
  assert_int_equal(pcs_pc_insert(&pc, 4, 2000, &cpu), 0);
  pcs_pc_clear(&pc);
}

static void a_cleared_marker_is_seen_by_no_one_after(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 8, 4, HOLD);
  PcsTime cpu;
  assert_int_equal(pcs_pc_insert(&pc, 5, 0, &cpu), 0);
  assert_false(pcs_pc_readahead(&pc, 5)); /* an insert alone sets no marker */
  pcs_pc_set_readahead(&pc, 5);
  assert_true(pcs_pc_readahead(&pc, 5));  /* this reader starts async readahead */
  assert_true(pcs_pc_readahead(&pc, 5));  /* so does one that tests before the clear */
  pcs_pc_clear_readahead(&pc, 5);
  assert_false(pcs_pc_readahead(&pc, 5)); /* the next one does not */
  assert_true(pcs_pc_present(&pc, 5));    /* clearing the marker leaves the page */
  assert_false(pcs_pc_readahead(&pc, 6));
  pcs_pc_clear(&pc);
}

static void end_read_makes_exactly_its_pages_uptodate(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 8, 4, HOLD);
  PcsTime cpu;
  for (uint64_t p = 0; p < 4; p++) assert_int_equal(pcs_pc_insert(&pc, p, 0, &cpu), 0);
  pcs_pc_set_frame_contig(&pc, 1);
  pcs_pc_end_read(&pc, 0, 3);
  for (uint64_t p = 0; p < 3; p++) assert_true(pcs_pc_uptodate(&pc, p));
  assert_false(pcs_pc_uptodate(&pc, 3));
  assert_true(pcs_pc_present(&pc, 1) && pcs_pc_frame_contig(&pc, 1)); /* other bits kept */
  assert_false(pcs_pc_frame_contig(&pc, 2));
  pcs_pc_clear(&pc);
}

/* tree_lock is a ticket spinlock: a thread arriving while it is held spins
 * on its CPU until its turn, and pays the hold time once it has it. */
static void contending_inserts_spin_for_tree_lock(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 8, 4, HOLD);
  PcsTime a, b, c, d;
  assert_int_equal(pcs_pc_insert(&pc, 0, 1000, &a), 0);
  assert_int_equal(pcs_pc_insert(&pc, 1, 1000, &b), 0); /* same instant: waits a whole hold */
  assert_int_equal(pcs_pc_insert(&pc, 1, 1150, &c), -EEXIST); /* lock free at 1200 */
  assert_int_equal(pcs_pc_insert(&pc, 2, 5000, &d), 0);       /* lock long free */
  assert_int_equal(a, HOLD);
  assert_int_equal(b, 2 * HOLD);
  assert_int_equal(c, 50 + HOLD);
  assert_int_equal(d, HOLD);
  pcs_pc_clear(&pc);
}

/* lock_page_killable() is an exclusive FIFO wait: unlocking a range wakes
 * its sleepers in the order they went to sleep, and no one else. */
static void sleepers_wake_in_sleep_order(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 16, 4, HOLD);
  PcsTime cpu;
  for (uint64_t p = 0; p < 16; p++) assert_int_equal(pcs_pc_insert(&pc, p, 0, &cpu), 0);
  pcs_pc_wait(&pc, 2, 5);
  pcs_pc_wait(&pc, 3, 9); /* outside the completed range */
  pcs_pc_wait(&pc, 0, 4);
  pcs_pc_wait(&pc, 1, 5);
  pcs_pc_end_read(&pc, 4, 2);
  assert_int_equal(pcs_pc_wake_range(&pc, 4, 2), 3);
  assert_int_equal(pc.woken[0], 2);
  assert_int_equal(pc.woken[1], 0);
  assert_int_equal(pc.woken[2], 1);
  assert_int_equal(pc.n_sleepers, 1);
  pcs_pc_wait(&pc, 0, 12); /* a woken task may sleep again at once */
  pcs_pc_end_read(&pc, 8, 8);
  assert_int_equal(pcs_pc_wake_range(&pc, 8, 8), 2);
  assert_int_equal(pc.woken[0], 3);
  assert_int_equal(pc.woken[1], 0);
  assert_int_equal(pc.n_sleepers, 0);
  assert_int_equal(pcs_pc_wake_range(&pc, 0, 16), 0);
  pcs_pc_clear(&pc);
}

/* v3.x lock_page_killable(): end-io wakes one sleeper per page; each
 * woken task hands the page on to the next, in sleep order. */
static void exclusive_wake_hands_each_page_on_one_task_at_a_time(void **state) {
  PcsPageCache pc;
  PcsTime cpu;
  pcs_pc_init(&pc, 8, 4, HOLD);
  assert_int_equal(pcs_pc_insert(&pc, 2, 0, &cpu), 0);
  assert_int_equal(pcs_pc_insert(&pc, 3, 0, &cpu), 0);
  pcs_pc_wait(&pc, 0, 2);
  pcs_pc_wait(&pc, 1, 3);
  pcs_pc_wait(&pc, 2, 2);
  pcs_pc_wait(&pc, 3, 2);
  pcs_pc_end_read(&pc, 2, 2);
  assert_int_equal(pcs_pc_wake_first(&pc, 2, 2), 2);
  assert_int_equal(pc.woken[0], 0);
  assert_int_equal(pc.woken[1], 1);
  assert_int_equal(pcs_pc_wake_next(&pc, 3), 0); /* page 3 had one sleeper */
  assert_int_equal(pcs_pc_wake_next(&pc, 2), 1);
  assert_int_equal(pc.woken[0], 2);
  assert_int_equal(pcs_pc_wake_next(&pc, 2), 1);
  assert_int_equal(pc.woken[0], 3);
  assert_int_equal(pcs_pc_wake_next(&pc, 2), 0);
  assert_int_equal(pc.n_sleepers, 0);
  pcs_pc_clear(&pc);
}

/* filemap_add_folio(): a large folio goes in whole or not at all, -EEXIST
 * when any page of its range is taken; its pages find their folio from the
 * TAIL bits alone, and invalidation drops a folio as a whole or keeps it. */
/* The first touch of each page of a large folio, once: a copy of the
 * first page alone is counted until the second is touched (they share a
 * bit), and a new insert starts untouched. */
static void each_page_of_a_folio_is_touched_first_once(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 64, 4, HOLD);
  PcsTime cpu;
  assert_int_equal(pcs_pc_insert_folio(&pc, 16, 16, 0, &cpu), 0);
  assert_int_equal(pcs_pc_touch(&pc, 16, 16, 18), 2);
  assert_int_equal(pcs_pc_touch(&pc, 16, 16, 18), 0);
  assert_int_equal(pcs_pc_touch(&pc, 16, 16, 32), 14);
  assert_false(pcs_pc_readahead(&pc, 17)); /* TOUCHED on a later page is no marker */
  assert_int_equal(pcs_pc_insert_folio(&pc, 32, 8, 0, &cpu), 0);
  assert_int_equal(pcs_pc_touch(&pc, 32, 32, 33), 1);
  assert_int_equal(pcs_pc_touch(&pc, 32, 32, 33), 1); /* the first page alone: not yet recorded */
  assert_int_equal(pcs_pc_touch(&pc, 32, 33, 36), 3);
  assert_int_equal(pcs_pc_touch(&pc, 32, 32, 33), 0);
  pcs_pc_end_read(&pc, 16, 16);
  assert_int_equal(pcs_pc_invalidate(&pc, 16, 32, NULL, 0), 16);
  assert_int_equal(pcs_pc_insert_folio(&pc, 16, 16, 0, &cpu), 0);
  assert_int_equal(pcs_pc_touch(&pc, 16, 16, 32), 16); /* a new folio, untouched */
  pcs_pc_clear(&pc);
}

static void a_folio_insert_is_all_or_nothing(void **state) {
  PcsPageCache pc;
  pcs_pc_init(&pc, 64, 4, HOLD);
  PcsTime cpu;
  assert_int_equal(pcs_pc_insert(&pc, 5, 0, &cpu), 0);
  assert_int_equal(pcs_pc_insert_folio(&pc, 0, 8, 0, &cpu), -EEXIST); /* page 5 is in its range */
  for (uint64_t p = 0; p < 8; p++) assert_true(pcs_pc_present(&pc, p) == (p == 5));
  assert_int_equal(pcs_pc_insert_folio(&pc, 16, 16, 1000, &cpu), 0);
  assert_int_equal(cpu, HOLD); /* one store under the lock (free by now), whatever the folio's size */
  for (uint64_t p = 16; p < 32; p++) {
    assert_true(pcs_pc_present(&pc, p) && !pcs_pc_uptodate(&pc, p));
    assert_int_equal(pcs_pc_folio_head(&pc, p), 16);
    assert_true(p == 16 || pcs_pc_frame_contig(&pc, p)); /* one block of frames */
  }
  assert_int_equal(pcs_pc_folio_pages(&pc, 16), 16);
  assert_int_equal(pcs_pc_folio_pages(&pc, 5), 1);
  assert_int_equal(pcs_pc_insert_folio(&pc, 24, 8, 0, &cpu), -EEXIST); /* inside the folio */
  assert_int_equal(pcs_pc_insert(&pc, 31, 0, &cpu), -EEXIST);
  pcs_pc_set_owner(&pc, 16, 7);
  assert_int_equal(pcs_pc_owner(&pc, 31), 7); /* the folio's, from its first page */
  assert_false(pcs_pc_readahead(&pc, 31)); /* the order in a later page's byte is no marker */
  uint64_t pairs, changes, contig;
  pcs_pc_count_pairs(&pc, &pairs, &changes, &contig);
  assert_int_equal(pairs, 15); /* inside the folio; page 5 has no neighbour */
  assert_int_equal(changes, 0);
  assert_int_equal(contig, 15);
  assert_int_equal(pcs_pc_folio_head(&pc, 31), 16);
  pcs_pc_end_read(&pc, 16, 16);
  pcs_pc_end_read(&pc, 5, 1);
  uint64_t keep[] = {20};
  assert_int_equal(pcs_pc_invalidate(&pc, 0, 64, keep, 1), 1); /* page 5 goes, the held folio stays whole */
  assert_true(pcs_pc_present(&pc, 16) && pcs_pc_present(&pc, 31));
  assert_int_equal(pcs_pc_invalidate(&pc, 0, 64, NULL, 0), 16);
  assert_false(pcs_pc_present(&pc, 16) || pcs_pc_present(&pc, 31));
  assert_int_equal(pcs_pc_insert(&pc, 17, 0, &cpu), 0); /* no TAIL left behind */
  assert_int_equal(pcs_pc_folio_head(&pc, 17), 17);
  pcs_pc_clear(&pc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(exclusive_wake_hands_each_page_on_one_task_at_a_time),
    cmocka_unit_test(the_first_insert_wins_and_the_second_gets_eexist),
    cmocka_unit_test(a_cleared_marker_is_seen_by_no_one_after),
    cmocka_unit_test(end_read_makes_exactly_its_pages_uptodate),
    cmocka_unit_test(contending_inserts_spin_for_tree_lock),
    cmocka_unit_test(sleepers_wake_in_sleep_order),
    cmocka_unit_test(a_folio_insert_is_all_or_nothing),
    cmocka_unit_test(each_page_of_a_folio_is_touched_first_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
