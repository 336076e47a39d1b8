/* test_readahead.c - window sizes as mm/readahead.c computes them. */
#include "support.h"
#include "internal.h"

static void init_size_follows_get_init_ra_size(void **state) {
  /* 128 KiB max = 32 pages: a 32 KiB read (8 pages) gets 16 pages */
  assert_int_equal(pcs_ra_init_size(8, 32), 16);
  assert_int_equal(pcs_ra_init_size(1, 32), 4);  /* 1 <= 32/32: x4 */
  assert_int_equal(pcs_ra_init_size(3, 32), 8);  /* rounds up to 4, x2 */
  assert_int_equal(pcs_ra_init_size(16, 32), 32);
  assert_int_equal(pcs_ra_init_size(64, 32), 32); /* capped */
}

static void next_size_ramps_up(void **state) {
  assert_int_equal(pcs_ra_next_size(16, 32), 32);
  assert_int_equal(pcs_ra_next_size(32, 32), 32);
  assert_int_equal(pcs_ra_next_size(4, 1024), 16); /* x4 below max/16 */
  assert_int_equal(pcs_ra_next_size(128, 1024), 256);
}

/* A single reader reads the fio job's file: first window 16 pages, then
 * 32-page windows, and with nobody to race each window is one bio. */
static void single_reader_windows_become_bios(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=1M", NULL));
  PcsResult r;
  test_run(&p, "immediate", &r);
  /* windows [0,16) [16,48) ... [208,240) [240,256): the last is cut at EOF */
  assert_int_equal(r.bio_pages_hist[16], 2);
  assert_int_equal(r.bio_pages_hist[32], 7);
  assert_int_equal(r.bios, 9);
  assert_int_equal(r.ra_sync, 1);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(init_size_follows_get_init_ra_size),
    cmocka_unit_test(next_size_ramps_up),
    cmocka_unit_test(single_reader_windows_become_bios),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
