/* test_fiorand.c - fio's rw=randread block order (sim/model/fiorand.c)
 * against what fio 3.33 itself read: tests/data/fio-randread/ holds the
 * blocks of iolog.fio's eight sections as fio's write_iolog recorded them
 * (4 MiB, bs=4k: 1024 blocks a loop). */
#include "support.h"
#include "fiorand.h"
#include "pcsim/text.h"

#include <string.h>

#define BLOCKS 1024

/* NAME.blocks: one block number a line. */
static GArray *fio_blocks(const char *name) {
  g_autofree char *rel = g_strdup_printf("tests/data/fio-randread/%s.blocks", name);
  GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  g_auto(GStrv) lines = test_fixture_lines(rel);
  for (char **l = lines; *l; l++) {
    uint64_t b = g_ascii_strtoull(*l, NULL, 10);
    g_array_append_val(out, b);
  }
  return out;
}

/* Our blocks for section NAME (thread THREAD) equal fio's, loop by loop;
 * RESEED as the run would (randrepeat). */
static void expect_fio_order(const char *name, PcsFioSeedMode mode, uint64_t randseed, uint32_t thread, gboolean use64,
                             gboolean nomap, gboolean reseed) {
  g_autoptr(GArray) want = fio_blocks(name);
  assert_true(want->len % BLOCKS == 0);
  PcsFioRand fr;
  pcs_fiorand_init(&fr, BLOCKS, nomap, use64, pcs_fiorand_block_seed(mode, randseed, thread));
  for (guint i = 0; i < want->len; i++) {
    if (i && i % BLOCKS == 0) pcs_fiorand_reset(&fr, reseed);
    uint64_t got = pcs_fiorand_next(&fr);
    if (got != g_array_index(want, uint64_t, i))
      fail_msg("%s: block %u is %" G_GUINT64_FORMAT ", fio read %" G_GUINT64_FORMAT, name, i, got,
               g_array_index(want, uint64_t, i));
  }
  pcs_fiorand_clear(&fr);
}

static void blocks_in_fio_order(void **state) {
  expect_fio_order("repeat1", PCS_FIORAND_REPEAT, 0, 1, FALSE, FALSE, TRUE);
  expect_fio_order("repeat2", PCS_FIORAND_REPEAT, 0, 2, FALSE, FALSE, TRUE);
  expect_fio_order("taus64", PCS_FIORAND_REPEAT, 0, 4, TRUE, FALSE, TRUE);
  expect_fio_order("nomap", PCS_FIORAND_REPEAT, 0, 5, FALSE, TRUE, TRUE);
  expect_fio_order("seed-norepeat", PCS_FIORAND_RANDSEED, 1234, 6, FALSE, FALSE, FALSE);
}

/* randseed without randrepeat=0 seeds as randrepeat=1 does (fio 3.33's
 * order of setup_random_seeds() and fixup_options()), and a second loop
 * goes on with the stream instead of repeating it; with randrepeat a
 * second loop repeats the first. */
static void loops_repeat_only_under_randrepeat(void **state) {
  expect_fio_order("randseed", PCS_FIORAND_REPEAT, 0, 3, FALSE, FALSE, TRUE);
  expect_fio_order("loops2", PCS_FIORAND_REPEAT, 0, 7, FALSE, FALSE, TRUE);
  expect_fio_order("seed-loops2", PCS_FIORAND_REPEAT, 0, 8, FALSE, FALSE, FALSE);
  expect_fio_order("nomap-loops2", PCS_FIORAND_REPEAT, 0, 9, FALSE, TRUE, FALSE); /* no map: no failed draw */
  g_autoptr(GArray) l2 = fio_blocks("loops2");
  assert_memory_equal(&g_array_index(l2, uint64_t, 0), &g_array_index(l2, uint64_t, BLOCKS), BLOCKS * sizeof(uint64_t));
  g_autoptr(GArray) s2 = fio_blocks("seed-loops2");
  assert_memory_not_equal(&g_array_index(s2, uint64_t, 0), &g_array_index(s2, uint64_t, BLOCKS), BLOCKS * sizeof(uint64_t));
}

/* With the map every block is read exactly once per loop, whatever the
 * size (not a multiple of 64: the map's last word is partial), and the
 * map is full after: the next pick says so. */
static void the_map_covers_each_block_once(void **state) {
  const uint64_t sizes[] = {1, 63, 65, 1000, 65536};
  for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
    uint64_t n = sizes[k];
    g_autofree uint8_t *seen = g_new0(uint8_t, n);
    PcsFioRand fr;
    pcs_fiorand_init(&fr, n, FALSE, FALSE, pcs_fiorand_block_seed(PCS_FIORAND_REPEAT, 0, 1));
    for (int loop = 0; loop < 2; loop++) {
      memset(seen, 0, n);
      for (uint64_t i = 0; i < n; i++) {
        uint64_t b = pcs_fiorand_next(&fr);
        assert_true(b < n);
        assert_int_equal(seen[b]++, 0);
      }
      assert_int_equal(pcs_fiorand_next(&fr), UINT64_MAX);
      pcs_fiorand_reset(&fr, FALSE);
    }
    pcs_fiorand_clear(&fr);
  }
}

/* norandommap draws with repeats: over 65536 draws about 1/e of the
 * blocks are never read (fio's documented price of norandommap). */
static void norandommap_repeats_blocks(void **state) {
  const uint64_t n = 65536;
  g_autofree uint8_t *seen = g_new0(uint8_t, n);
  PcsFioRand fr;
  pcs_fiorand_init(&fr, n, TRUE, FALSE, pcs_fiorand_block_seed(PCS_FIORAND_REPEAT, 0, 1));
  uint64_t distinct = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t b = pcs_fiorand_next(&fr);
    assert_true(b < n);
    distinct += !seen[b]++;
  }
  assert_in_range(distinct, n * 60 / 100, n * 66 / 100); /* 1 - 1/e = 63.2% */
  pcs_fiorand_clear(&fr);
}

/* randseed's seed goes through setup_random_seeds(): thread 1 of
 * randseed=1234 is not thread 1 of randseed=1235, nor the repeat seed. */
static void seeds_follow_fio(void **state) {
  assert_int_equal(pcs_fiorand_block_seed(PCS_FIORAND_REPEAT, 0, 1), 0xb1899bed);
  assert_int_equal(pcs_fiorand_block_seed(PCS_FIORAND_REPEAT, 0, 3), UINT64_C(3) * 0xb1899bed);
  assert_int_not_equal(pcs_fiorand_block_seed(PCS_FIORAND_RANDSEED, 1234, 1),
                       pcs_fiorand_block_seed(PCS_FIORAND_RANDSEED, 1235, 1));
  assert_int_equal(pcs_fiorand_block_seed(PCS_FIORAND_RANDSEED, 1234, 2) - 6,
                   2 * (pcs_fiorand_block_seed(PCS_FIORAND_RANDSEED, 1234, 1) - 6));
}

/* The real kernel capture of a 4k randread of 256 MiB (fio 3.33, one
 * thread, tests/data/kernel-6.18-randread/): each read() call's
 * page_cache_sync_ra index is the block pcsim picks for thread 1, for all
 * 65536 calls, so the kernel saw fio's order and pcsim reproduces it. */
static void the_capture_read_fios_order(void **state) {
  g_autofree char *path = test_path("tests/data/kernel-6.18-randread/blocks/rand4k-ra4096-j1-rep1.ftrace.txt.gz");
  g_autofree char *text = NULL;
  assert_true(pcs_text_read(path, PCS_TEXT_GZIP, &text, NULL, NULL));
  PcsFioRand fr;
  pcs_fiorand_init(&fr, 65536, FALSE, FALSE, pcs_fiorand_block_seed(PCS_FIORAND_REPEAT, 0, 1));
  /* Line by line, each cut at its newline: strstr or g_strsplit over the
   * whole 32 MB text costs a strlen of all of it per call under
   * AddressSanitizer's interceptor. */
  guint calls = 0;
  char *end = text + strlen(text);
  for (char *line = text, *nl; line < end; line = nl + 1) {
    nl = memchr(line, '\n', (size_t)(end - line));
    if (!nl) nl = end;
    *nl = '\0';
    const char *p = strstr(line, "page_cache_sync_ra: ");
    if (!p) continue;
    const char *idx = strstr(p, " index=");
    assert_non_null(idx);
    uint64_t got = g_ascii_strtoull(idx + 7, NULL, 10), want = pcs_fiorand_next(&fr);
    if (got != want) fail_msg("call %u: the kernel read page %" G_GUINT64_FORMAT ", pcsim picks %" G_GUINT64_FORMAT, calls, got, want);
    calls++;
  }
  assert_int_equal(calls, 65536);
  pcs_fiorand_clear(&fr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(blocks_in_fio_order),
    cmocka_unit_test(loops_repeat_only_under_randrepeat),
    cmocka_unit_test(the_map_covers_each_block_once),
    cmocka_unit_test(norandommap_repeats_blocks),
    cmocka_unit_test(seeds_follow_fio),
    cmocka_unit_test(the_capture_read_fios_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
