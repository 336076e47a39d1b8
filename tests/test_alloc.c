/* test_alloc.c - frames from per-CPU page lists (alloc.c): what decides
 * whether a window's pages share bio_vecs. */
#include "support.h"

#include "alloc.h"

/* An allocator over P (memory.contiguous = 1) for a 64 MiB file. */
static void alloc_from(PcsFrameAlloc *fa, PcsParams *p, ...) G_GNUC_NULL_TERMINATED;
static void alloc_from(PcsFrameAlloc *fa, PcsParams *p, ...) {
  va_list ap;
  va_start(ap, p);
  GError *error = NULL;
  for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
    if (!pcs_params_set_assignment(p, a, &error)) fail_msg("%s", error->message);
  va_end(ap);
  if (!pcs_params_validate(p, &error)) fail_msg("%s", error->message);
  pcs_alloc_init(fa, p, 4, 16384);
}

/* Runs of adjacent frames handed to one thread allocating file pages
 * FIRST.. on CPU, N pages, while OTHER (on OTHER_CPU, from page 8192) takes
 * one page after each of its own when OTHER_CPU < ncpus. */
static GArray *runs_of(PcsFrameAlloc *fa, uint32_t cpu, uint32_t other_cpu, uint64_t n) {
  GArray *runs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  uint64_t run = 0, pfn, other;
  for (uint64_t i = 0; i < n; i++) {
    gboolean contig = (pcs_alloc_page(fa, 0, cpu, i, &pfn) & PCS_ALLOC_AFTER_PREV) != 0;
    if (i && !contig) g_array_append_val(runs, run), run = 0;
    run++;
    if (other_cpu < fa->ncpus) pcs_alloc_page(fa, 1, other_cpu, 8192 + i, &other);
  }
  g_array_append_val(runs, run);
  return runs;
}

/* One thread alone on its CPU: one run over the whole file (the free memory
 * past the listed blocks is one range, and its refills follow each other). */
static void one_thread_alone_gets_one_run(void **state) {
  PcsParams p;
  PcsFrameAlloc fa;
  pcs_params_init(&p);
  alloc_from(&fa, &p, "memory.contiguous=1", "cpu.count=2", NULL);
  g_autoptr(GArray) runs = runs_of(&fa, 0, UINT32_MAX, 4096);
  assert_int_equal(runs->len, 1);
  pcs_alloc_clear(&fa);
  pcs_params_clear(&p);
}

/* Two CPUs refilling in turn from the same buddy blocks: each thread's runs
 * are its refills: pcp_batch pages, doubling per refill up to
 * pcp_batch << pcp_batch_scale_max. */
static void two_cpus_cut_runs_at_the_refill_size(void **state) {
  PcsParams p;
  PcsFrameAlloc fa;
  pcs_params_init(&p);
  alloc_from(&fa, &p, "memory.contiguous=1", "cpu.count=2", "memory.pcp_batch=8", "memory.pcp_batch_scale_max=2",
             NULL);
  g_autoptr(GArray) runs = runs_of(&fa, 0, 1, 200);
  const uint64_t want[] = {8, 16, 32, 32, 32, 32, 32, 16};
  assert_int_equal(runs->len, G_N_ELEMENTS(want));
  for (guint i = 0; i < runs->len; i++) assert_int_equal(g_array_index(runs, uint64_t, i), want[i]);
  /* pcp_batch_scale_max = 0: every refill pcp_batch */
  pcs_alloc_clear(&fa);
  alloc_from(&fa, &p, "memory.pcp_batch_scale_max=0", NULL);
  g_autoptr(GArray) flat = runs_of(&fa, 0, 1, 64);
  assert_int_equal(flat->len, 8);
  for (guint i = 0; i < flat->len; i++) assert_int_equal(g_array_index(flat, uint64_t, i), 8);
  pcs_alloc_clear(&fa);
  pcs_params_clear(&p);
}

/* Two threads on ONE CPU share its list: their frames interleave, so no
 * page of either follows its file neighbour, and together they took
 * consecutive frames. */
static void two_threads_on_one_cpu_interleave_frames(void **state) {
  PcsParams p;
  PcsFrameAlloc fa;
  pcs_params_init(&p);
  alloc_from(&fa, &p, "memory.contiguous=1", "cpu.count=2", NULL);
  uint64_t a = 0, b = 0, last = 0;
  for (uint64_t i = 0; i < 100; i++) {
    assert_false(pcs_alloc_page(&fa, 0, 1, i, &a) && i);
    assert_false(pcs_alloc_page(&fa, 1, 1, 5000 + i, &b) && i);
    assert_int_equal(b, a + 1);
    if (i) assert_int_equal(a, last + 1);
    last = b;
  }
  pcs_alloc_clear(&fa);
  pcs_params_clear(&p);
}

/* memory.pcp_freed: CPU 0 hands its freed pages out first, descending (none
 * follows its neighbour), CPU 1 has none; memory.buddyinfo: then the
 * smallest blocks first, each in ascending frames. */
static void freed_pages_then_smallest_blocks_first(void **state) {
  PcsParams p;
  PcsFrameAlloc fa;
  pcs_params_init(&p);
  alloc_from(&fa, &p, "memory.contiguous=1", "cpu.count=2", "memory.pcp_freed=64k", "memory.buddyinfo=1 0 2 1", NULL);
  uint64_t pfn, prev = 0;
  for (uint64_t i = 0; i < 16; i++) {
    assert_false(pcs_alloc_page(&fa, 0, 0, i, &pfn));
    if (i) assert_int_equal(pfn, prev - 1);
    prev = pfn;
  }
  g_autoptr(GArray) runs = runs_of(&fa, 0, UINT32_MAX, 1 + 4 + 4 + 8 + 100);
  const uint64_t want[] = {1, 4, 4, 8, 100};
  assert_int_equal(runs->len, G_N_ELEMENTS(want));
  for (guint i = 0; i < runs->len; i++) assert_int_equal(g_array_index(runs, uint64_t, i), want[i]);
  /* CPU 1's list starts in the buddy blocks (here: past them), ascending */
  assert_false(pcs_alloc_page(&fa, 1, 1, 9000, &pfn));
  assert_true(pcs_alloc_page(&fa, 1, 1, 9001, &prev) && prev == pfn + 1);
  pcs_alloc_clear(&fa);
  GError *error = NULL;
  assert_false(pcs_params_set_assignment(&p, "memory.buddyinfo=1 2 x", &error) && pcs_params_validate(&p, &error));
  assert_non_null(strstr(error->message, "memory.buddyinfo"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(one_thread_alone_gets_one_run),
    cmocka_unit_test(two_cpus_cut_runs_at_the_refill_size),
    cmocka_unit_test(two_threads_on_one_cpu_interleave_frames),
    cmocka_unit_test(freed_pages_then_smallest_blocks_first),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
