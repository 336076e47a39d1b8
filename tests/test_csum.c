/* test_csum.c - btrfs's checksum leaves (bio.csum_leaf_size, sim/model/csum.c):
 * what a user reading a run's trace would check against a kernel capture. */
#include "support.h"

#include "pcsim/ktrace.h"

#include <string.h>

/* Linux 6.18 at 4 MiB (8 MiB windows: a window's bio needs one or two
 * leaves) on a file of SIZE, THREADS readers. */
static void load(PcsParams *p, const char *size, const char *threads) {
  test_load(p, "workloads/linux-6.18-btrfs.ini");
  g_autofree char *fs = g_strdup_printf("workload.file_size=%s", size);
  g_autofree char *th = g_strdup_printf("workload.threads=%s", threads);
  test_set(p, fs, th, "readahead.read_ahead_kb=4096", NULL);
  assert_int_equal(p->bio_csum_leaf_size, 16 * 1024); /* the shipped scenario reads them */
}

/* Leaves of a file of FILE_PAGES pages at 16 KiB: (16384 - 126) / 4 = 4064 pages each. */
static uint64_t leaves(uint64_t file_pages) { return (file_pages + 4063) / 4064; }

/* Every leaf is read once, whoever needs it first, and every data bio goes
 * to the block layer only once its leaves are in: the bio a reader sleeps
 * for follows its leaf's completion, as the kernel's data bio follows its
 * RM read from the same task in every capture. */
static void each_leaf_is_read_once_before_the_bios_that_need_it(void **state) {
  (void)state;
  const char *threads[] = {"1", "4"};
  for (gsize k = 0; k < G_N_ELEMENTS(threads); k++) {
    PcsParams p;
    load(&p, "100M", threads[k]);
    PcsResult r;
    GArray *ev = test_run_traced(&p, "window", &r);
    uint64_t npages = p.workload_file_size / PCS_PAGE_SIZE, nleaves = leaves(npages);
    assert_int_equal(r.csum_reads, nleaves); /* 7 for 100 MiB */
    g_autofree PcsTime *leaf_done = g_new(PcsTime, nleaves);
    for (uint64_t i = 0; i < nleaves; i++) leaf_done[i] = UINT64_MAX;
    uint64_t data_bios = 0, leaf_bios = 0, sleeps = 0;
    for (guint i = 0; i < ev->len; i++) {
      const TestEvent *e = &g_array_index(ev, TestEvent, i);
      if (e->kind == PCS_TRACE_BIO_DONE && e->a >= PCS_META_FIRST_PAGE) {
        uint64_t leaf = (e->a - PCS_META_FIRST_PAGE) / (16 / 4 + 1);
        assert_true(leaf < nleaves);
        assert_int_equal(leaf_done[leaf], UINT64_MAX); /* read once */
        leaf_done[leaf] = e->t;
      }
      sleeps += e->kind == PCS_TRACE_CSUM_WAIT;
      if (e->kind != PCS_TRACE_SUBMIT) continue;
      if (e->a >= PCS_META_FIRST_PAGE) {
        leaf_bios++;
        assert_int_equal(e->b, 4); /* one 16 KiB leaf */
        continue;
      }
      data_bios++;
      for (uint64_t leaf = e->a / 4064; leaf <= (e->a + e->b - 1) / 4064; leaf++)
        if (leaf_done[leaf] > e->t)
          fail_msg("%s threads: data bio at page %" G_GUINT64_FORMAT " submitted before leaf %" G_GUINT64_FORMAT " was in",
                   threads[k], e->a, leaf);
    }
    assert_int_equal(leaf_bios, nleaves);
    assert_int_equal(data_bios, r.bios); /* the leaves are not counted as data bios */
    assert_true(sleeps >= nleaves);      /* the reader that sent a read sleeps on it */
    for (uint64_t i = 0; i < nleaves; i++) assert_true(leaf_done[i] != UINT64_MAX);
    /* the leaves' 16 KiB are not pages read for the file */
    assert_int_equal(r.pages_read, npages);
    g_array_unref(ev);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* fio numjobs without filename: each thread its own file, its own leaves. */
static void per_thread_files_each_read_their_own_leaves(void **state) {
  (void)state;
  PcsParams p;
  load(&p, "40M", "3");
  test_set(&p, "workload.files=per-thread", NULL);
  PcsResult r;
  test_run(&p, "window", &r);
  assert_int_equal(r.csum_reads, 3 * leaves(40 * 256));
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* bio.csum_leaf_size = 0 (every scenario but the Linux 6.18 one): no leaf
 * reads, and the readers never sleep on one. */
static void without_leaves_nothing_is_read(void **state) {
  (void)state;
  PcsParams p;
  load(&p, "40M", "2");
  test_set(&p, "bio.csum_leaf_size=0", NULL);
  PcsResult r;
  GArray *ev = test_run_traced(&p, "window", &r);
  assert_int_equal(r.csum_reads, 0);
  assert_int_equal(test_count(ev, TEST_ANY_THREAD, PCS_TRACE_CSUM_WAIT), 0);
  g_array_unref(ev);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

/* The number of leaves against real captures of the same job on file
 * systems made with three nodesizes (tests/data/kernel-6.18-nodesize, one
 * thread at 4 MiB).  pcsim's leaves are full; a real tree's need not be (at
 * 64k they held 48 MiB of file each, three quarters of a full leaf's 63.9),
 * and a capture's metadata reads may include other trees' blocks, so
 * pcsim's count is at most the capture's, and at least three quarters of
 * it (4k: 259 against 265, 16k: 63 against 66, 64k: 16 against 21). */
static void leaf_reads_scale_with_the_nodesize_as_real_captures(void **state) {
  (void)state;
  const char *sizes[] = {"4k", "16k", "64k"};
  for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++) {
    g_autofree char *rel = g_strdup_printf("tests/data/kernel-6.18-nodesize/n%s/blocks/ra4096-j1-rep1.ftrace.txt.gz", sizes[i]);
    g_autofree char *trace = test_path(rel);
    PcsKtrace t;
    GError *error = NULL;
    if (!pcs_ktrace_load(&t, trace, &error)) fail_msg("%s", error->message);
    uint64_t real = t.c.meta_bios;
    pcs_ktrace_clear(&t);
    PcsParams p;
    load(&p, "1000M", "1");
    g_autofree char *set = g_strdup_printf("bio.csum_leaf_size=%s", sizes[i]);
    test_set(&p, set, NULL);
    PcsResult r;
    test_run(&p, "window", &r);
    if (r.csum_reads > real || 4 * r.csum_reads < 3 * real)
      fail_msg("nodesize %s: pcsim reads %" G_GUINT64_FORMAT " leaves, the capture %" G_GUINT64_FORMAT " metadata blocks",
               sizes[i], r.csum_reads, real);
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* A nodesize btrfs would not make (not a power of two from 4k), or a leaf
 * larger than one request, is refused, naming the keys; no output. */
static void a_bad_nodesize_is_refused(void **state) {
  (void)state;
  const char *sets[][2] = {{"bio.csum_leaf_size=5000", NULL},
                           {"bio.csum_leaf_size=12k", NULL},
                           {"block.max_sectors=16", "block.max_sectors"}};
  g_autofree char *ini = test_path("workloads/linux-6.18-btrfs.ini");
  for (gsize i = 0; i < G_N_ELEMENTS(sets); i++) {
    g_autofree char *out = NULL, *err = NULL;
    int status = test_pcsim(&out, &err, "run", ini, "--set", sets[i][0], NULL);
    assert_int_equal(status, 2);
    assert_non_null(strstr(err, "bio.csum_leaf_size"));
    if (sets[i][1]) assert_non_null(strstr(err, sets[i][1]));
    assert_string_equal(out, "");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(each_leaf_is_read_once_before_the_bios_that_need_it),
    cmocka_unit_test(per_thread_files_each_read_their_own_leaves),
    cmocka_unit_test(without_leaves_nothing_is_read),
    cmocka_unit_test(leaf_reads_scale_with_the_nodesize_as_real_captures),
    cmocka_unit_test(a_bad_nodesize_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
