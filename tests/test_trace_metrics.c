/* test_trace_metrics.c - the mechanism metrics of real kernel traces
 * (readahead, page inserts, device service time) as a user reads them in
 * tests/data/kernel-6.18-btrfs-threads/README, and as defined in ktrace.h on
 * a trace small enough to count by hand. */
#include "support.h"

#include "pcsim/ktrace.h"
#include "pcsim/units.h"

#define DIR "tests/data/kernel-6.18-btrfs-threads/"

static void load(PcsKtrace *t, const char *rel) {
  g_autofree char *path = test_path(rel);
  GError *error = NULL;
  if (!pcs_ktrace_load(t, path, &error)) fail_msg("%s", error->message);
}

static double data_mib(const PcsKtrace *t) { return (double)t->c.sectors * PCS_SECTOR_SIZE / PCS_MIB; }

/* X as the README prints it, to 3 decimals. */
static void assert_3f(double x, const char *want, const char *what, const char *config) {
  g_autofree char *got = g_strdup_printf("%.3f", x);
  if (strcmp(got, want)) fail_msg("%s %s: %s, README %s", config, what, got, want);
}

static double median3(double a, double b, double c) { return MAX(MIN(a, b), MIN(MAX(a, b), c)); }

/* The README's first table: data bios/MiB and requests/MiB, median
 * (min..max) over rep1..rep3 of blocks/. */
static void blocks_give_the_readme_medians(void **state) {
  struct {
    const char *config, *bios[3], *rq[3]; /* median, min, max */
  } want[] = {
    {"ra128-j1", {"4.005", "4.005", "4.005"}, {"4.005", "4.005", "4.005"}},
    {"ra128-j4", {"4.836", "4.763", "5.059"}, {"4.836", "4.763", "5.059"}},
    {"ra4096-j1", {"0.234", "0.209", "0.265"}, {"1.012", "0.973", "1.044"}},
    {"ra4096-j4", {"0.483", "0.361", "1.159"}, {"1.188", "1.109", "1.856"}},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    double bios[3], rq[3];
    for (int rep = 0; rep < 3; rep++) {
      g_autofree char *rel = g_strdup_printf(DIR "blocks/%s-rep%d.ftrace.txt.gz", want[i].config, rep + 1);
      PcsKtrace t;
      load(&t, rel);
      assert_3f(data_mib(&t), "1000.000", "data MiB", rel);
      bios[rep] = (double)t.c.bios / data_mib(&t);
      rq[rep] = (double)t.c.requests / data_mib(&t);
      assert_false(t.mech.present); /* blocks/ has no readahead or insert events */
      assert_false(t.mech.ra_present);
      assert_false(t.dev.present);
      pcs_ktrace_clear(&t);
    }
    assert_3f(median3(bios[0], bios[1], bios[2]), want[i].bios[0], "bios/MiB median", want[i].config);
    assert_3f(MIN(bios[0], MIN(bios[1], bios[2])), want[i].bios[1], "bios/MiB min", want[i].config);
    assert_3f(MAX(bios[0], MAX(bios[1], bios[2])), want[i].bios[2], "bios/MiB max", want[i].config);
    assert_3f(median3(rq[0], rq[1], rq[2]), want[i].rq[0], "requests/MiB median", want[i].config);
    assert_3f(MIN(rq[0], MIN(rq[1], rq[2])), want[i].rq[1], "requests/MiB min", want[i].config);
    assert_3f(MAX(rq[0], MAX(rq[1], rq[2])), want[i].rq[2], "requests/MiB max", want[i].config);
  }
}

/* The README's mechanism table.  bios/MiB, rq/MiB, ra_sync and ra_async are
 * the README's figures.  inserts, owner_changes/MiB and contiguous_frames are
 * not: the README counted mm_filemap_add_to_page_cache lines of every inode
 * of the file system (256264 = 256000 on the data file, ino 0x101, plus 264
 * on the btree inode, ino 1, holding metadata) and keyed pages by offset
 * alone, so the btree's pages overwrote data pages at the same indices
 * (the later insert winning).  That reproduces all four README columns
 * exactly (4.464, 0.193; 0.964, 0.833, 0.916, 0.933); on the data file
 * alone, as defined, they read as below.  The README column is kept in
 * readme_* so the difference stays visible. */
static void mechanism_runs_give_their_metrics(void **state) {
  struct {
    const char *config, *bios, *rq;
    uint64_t ra_sync, ra_async, inserts;
    const char *owner_changes, *contiguous;
    uint64_t threads;
    const char *readme_owner_changes, *readme_contiguous;
    const char *device_ms_per_mib, *device_mean_us; /* pcsim trace-stats of the trace */
    uint32_t max_in_flight;
  } want[] = {
    {"ra128-j1", "4.005", "4.005", 1, 4001, 256000, "0.000", "0.964", 1, "0.000", "0.964", "1.795", "448.104", 2},
    {"ra128-j4", "5.325", "5.325", 487, 4421, 256000, "4.412", "0.833", 4, "4.464", "0.833", "2.921", "548.501", 11},
    {"ra4096-j1", "0.193", "0.957", 1, 129, 256000, "0.000", "0.915", 1, "0.000", "0.916", "8.534", "8917.218", 27},
    {"ra4096-j4", "0.248", "0.995", 10, 155, 256000, "0.147", "0.934", 4, "0.193", "0.933", "9.247", "9293.000", 25},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    g_autofree char *rel = g_strdup_printf(DIR "mechanism/%s-rep1.ftrace.txt.gz", want[i].config);
    PcsKtrace t;
    load(&t, rel);
    const PcsKtraceMechanism *m = &t.mech;
    assert_3f((double)t.c.bios / data_mib(&t), want[i].bios, "bios/MiB", want[i].config);
    assert_3f((double)t.c.requests / data_mib(&t), want[i].rq, "rq/MiB", want[i].config);
    assert_true(m->present);
    assert_int_equal(m->dev_major, 0);
    assert_int_equal(m->dev_minor, 40);
    assert_int_equal(m->ino, 0x101); /* printed "ino 101": hex, btrfs's first file inode 257 */
    assert_int_equal(m->ra_sync, want[i].ra_sync);
    assert_int_equal(m->ra_async, want[i].ra_async);
    /* the window: read_ahead_kb (128 or 4096) doubled by fadvise_hint=1, in pages */
    assert_int_equal(m->ra_pages, (g_str_has_prefix(want[i].config, "ra128") ? 128 : 4096) * 2 / 4);
    assert_int_equal(m->inserts, want[i].inserts);
    assert_int_equal(m->inserts + m->other_inserts, 256264); /* the README's "inserts" */
    assert_int_equal(m->file_pages, 256000);                /* 1000 MiB, every page inserted */
    assert_int_equal(m->page_pairs, 255999);
    assert_3f(m->owner_changes_per_mib, want[i].owner_changes, "owner_changes/MiB", want[i].config);
    assert_3f(m->contiguous_frames, want[i].contiguous, "contiguous_frames", want[i].config);
    if (strcmp(want[i].owner_changes, want[i].readme_owner_changes) || strcmp(want[i].contiguous,
                                                                             want[i].readme_contiguous))
      assert_int_not_equal(m->other_inserts, 0); /* the README's mixing needs another inode */

    /* inserted_mib_per_thread: one thread inserts the whole file; four
     * share it, each a real part, summing to the inserted MiB. */
    GArray *per = m->inserted_mib_per_thread;
    assert_int_equal(per->len, want[i].threads);
    double sum = 0;
    for (guint k = 0; k < per->len; k++) {
      const PcsKtraceThreadMib *e = &g_array_index(per, PcsKtraceThreadMib, k);
      assert_true(g_str_has_prefix(e->task, "fio-"));
      assert_true(e->mib > (per->len == 1 ? 999.999 : 100.0));
      sum += e->mib;
    }
    assert_3f(sum, "1000.000", "inserted MiB", want[i].config);
    assert_int_equal(m->inserted_pages, 256000);

    /* Device: every data request issued is completed; the loop device on
     * this host serves 1.8 to 9.3 ms of request time per MiB (a request's
     * issue to its completion, summed), more with more in flight. */
    const PcsKtraceDevice *d = &t.dev;
    assert_true(d->present);
    assert_int_equal(d->timed, t.c.requests);
    assert_int_equal(d->unissued_completes, 0);
    assert_int_equal(d->uncompleted_issues, 0);
    assert_int_equal(d->timed_sectors, t.c.sectors);
    assert_3f(d->device_ms_per_mib, want[i].device_ms_per_mib, "device_ms_per_mib", want[i].config);
    assert_3f(d->device_mean_us, want[i].device_mean_us, "device_mean_us", want[i].config);
    assert_int_equal(d->max_in_flight, want[i].max_in_flight); /* at most nr_requests, 128 */
    uint64_t hist = 0;
    for (guint k = 0; k < PCS_KTRACE_LATENCY_BUCKETS; k++) hist += d->latency_us_hist[k];
    assert_int_equal(hist, d->timed);
    pcs_ktrace_clear(&t);
  }
}

/* Small enough to count by hand: two threads, a 4-page folio, a page
 * inserted twice, a hole, another inode, one request never completed and
 * one completed without an issue. */
static const char small_trace[] =
  "# tracer: nop\n"
  "  a-1 [000] ..... 10.000000: page_cache_sync_ra: dev=0:40 ino=101 index=0 req_count=8 order=0 size=0\n"
  "  a-1 [000] ..... 10.000001: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x100 ofs=0 order=0\n"
  "  a-1 [000] ..... 10.000002: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x101 ofs=4096 order=0\n"
  "  b-2 [001] ..... 10.000003: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x200 ofs=8192 order=2\n"
  "  a-1 [000] ..... 10.000004: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x300 ofs=16384 order=0\n"
  "  a-1 [000] ..... 10.000005: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x204 ofs=32768 order=0\n"
  "  a-1 [000] ..... 10.000006: mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x500 ofs=0 order=0\n"
  "  b-2 [001] ..... 10.000007: page_cache_async_ra: dev=0:40 ino=101 index=8 req_count=8 order=0\n"
  "  a-1 [000] ..... 10.000008: mm_filemap_add_to_page_cache: dev 0:40 ino 1 pfn=0x999 ofs=0 order=0\n"
  "  a-1 [000] ..... 10.000010: block_bio_queue: 7,0 RA 1000 + 16 [a]\n"
  "  a-1 [000] ..... 10.000011: block_rq_issue: 7,0 RA 8192 () 1000 + 16 be,0,4 [a]\n"
  "  b-2 [001] ..... 10.000012: block_rq_issue: 7,0 RA 4096 () 2000 + 8 be,0,4 [b]\n"
  "  b-2 [001] ..... 10.000013: block_rq_issue: 7,0 RM 4096 () 50 + 8 be,0,4 [b]\n"
  "  x-0 [001] ..s.. 10.000111: block_rq_complete: 7,0 RA () 1000 + 16 be,0,4 [0]\n"
  "  x-0 [000] ..s.. 10.000300: block_rq_complete: 7,0 RA () 3000 + 8 be,0,4 [0]\n";

/* `pcsim compare ra128-j4-rep1 linux-6.18-btrfs.ini`: the scenario's 4096
 * KiB read_ahead_kb against the capture's 128 is what sets them apart, so
 * the note names the window (from the trace's ra_pages) and its --set, then
 * the threads and bs the fio job beside the trace ran, and holds back the
 * memory.scattered hint the window made meaningless. */
static void compare_names_the_window_threads_and_bs_first(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "compare", DIR "mechanism/ra128-j4-rep1.ftrace.txt.gz",
                      "workloads/linux-6.18-btrfs.ini", "--set", "workload.file_size=64M", NULL);
  if (rc != 0) fail_msg("compare: exit %d: %s", rc, err);
  assert_non_null(strstr(out, "note: the trace's readahead window is 256 KiB (ra_pages=64 in its readahead events), "
                              "the scenario's is 8192 KiB (readahead.read_ahead_kb=4096, fadvise_hint=1): "
                              "read_ahead_kb=128 in the trace\n"));
  assert_non_null(strstr(out, "compare again with --set readahead.read_ahead_kb=128 before reading anything finer"));
  assert_null(strstr(out, "memory.scattered"));
  g_free(out), g_free(err);
  rc = test_pcsim(&out, &err, "compare", DIR "mechanism/ra128-j4-rep1.ftrace.txt.gz", "workloads/linux-6.18-btrfs.ini",
                  "--set", "workload.file_size=64M", "--set", "readahead.read_ahead_kb=128", "--set",
                  "workload.threads=2", "--set", "workload.block_size=128k", NULL);
  if (rc != 0) fail_msg("compare: exit %d: %s", rc, err);
  assert_null(strstr(out, "readahead window"));
  assert_non_null(strstr(out, "note: the trace ran 4 threads (numjobs in "));
  assert_non_null(strstr(out, "ra128-j4-rep1.fio), the simulation 2\n"));
  assert_non_null(strstr(out, "note: the trace read 32 KiB blocks (bs in "));
  assert_non_null(strstr(out, "compare again with --set workload.threads=4 --set workload.block_size=32k before"));
}

static void small_trace_counts_by_hand(void **state) {
  PcsKtrace t;
  GError *error = NULL;
  if (!pcs_ktrace_load_text(&t, "small.txt", small_trace, strlen(small_trace), &error))
    fail_msg("%s", error->message);
  const PcsKtraceMechanism *m = &t.mech;
  assert_true(m->present);
  assert_int_equal(m->ino, 0x101); /* 6 lines against ino 1's one */
  assert_int_equal(m->ra_sync, 1);
  assert_int_equal(m->ra_async, 1);
  assert_int_equal(m->inserts, 6);
  assert_int_equal(m->other_inserts, 1);
  assert_int_equal(m->inserted_pages, 9); /* a: 5 single pages; b: one folio of 4 */
  assert_int_equal(m->file_pages, 9);     /* pages 0..8; 6 and 7 never inserted */
  /* Pages in index order: 0 a, 1 a, 2..5 b (adjacent frames), 8 a.  Page 0's
   * and page 4's second inserts are ignored: the first insert counts. */
  assert_int_equal(m->page_pairs, 5);       /* (0,1) (1,2) (2,3) (3,4) (4,5) */
  assert_int_equal(m->owner_changes, 1);    /* (1,2) a -> b */
  assert_int_equal(m->contiguous_pairs, 4); /* all but (1,2): 0x101 -> 0x200 */
  assert_3f(m->owner_changes_per_mib, "28.444", "owner_changes/MiB", "small"); /* 1 / (9 pages) */
  assert_3f(m->contiguous_frames, "0.800", "contiguous_frames", "small");
  GArray *per = m->inserted_mib_per_thread;
  assert_int_equal(per->len, 2);
  assert_string_equal(g_array_index(per, PcsKtraceThreadMib, 0).task, "a-1"); /* first to insert */
  assert_true(g_array_index(per, PcsKtraceThreadMib, 0).mib == 5.0 * PCS_PAGE_SIZE / PCS_MIB);
  assert_string_equal(g_array_index(per, PcsKtraceThreadMib, 1).task, "b-2");
  assert_true(g_array_index(per, PcsKtraceThreadMib, 1).mib == 4.0 * PCS_PAGE_SIZE / PCS_MIB);

  const PcsKtraceDevice *d = &t.dev;
  assert_true(d->present);
  assert_int_equal(d->timed, 1);              /* 1000 + 16: 10.000011 -> 10.000111 */
  assert_int_equal(d->service_ns, 100000);    /* integer microseconds, no drift */
  assert_int_equal(d->uncompleted_issues, 1); /* 2000 + 8 */
  assert_int_equal(d->unissued_completes, 1); /* 3000 + 8 */
  assert_int_equal(d->max_in_flight, 2);      /* the RM request is metadata: not counted */
  assert_int_equal(d->latency_us_hist[6], 1); /* 100 us in [64, 128) */
  assert_3f(d->device_mean_us, "100.000", "device_mean_us", "small");
  assert_3f(d->device_ms_per_mib, "12.800", "device_ms_per_mib", "small"); /* 0.1 ms / 8 KiB */
  /* The block counts are unchanged by the new events. */
  assert_int_equal(t.c.bios, 1);
  assert_int_equal(t.c.requests, 2);
  assert_int_equal(t.c.meta_requests, 1);
  pcs_ktrace_clear(&t);
}

/* A timestamp with nanoseconds and one of seconds only (blkparse's D and C
 * are timed too). */
static void timestamps_are_integers(void **state) {
  const char text[] = "  7,0  1  1  5.000000001  12  D  RA 8 + 8 [fio]\n"
                      "  7,0  1  2  5.000001000  12  C  RA 8 + 8 [0]\n"
                      "  7,0  1  3  5.000001000  12  Q  RA 8 + 8 [fio]\n";
  PcsKtrace t;
  GError *error = NULL;
  if (!pcs_ktrace_load_text(&t, "b.txt", text, strlen(text), &error)) fail_msg("%s", error->message);
  assert_string_equal(t.format, "blkparse");
  assert_int_equal(t.dev.timed, 1);
  assert_int_equal(t.dev.service_ns, 999);
  assert_int_equal(t.dev.latency_us_hist[0], 1);
  assert_false(t.mech.present);
  pcs_ktrace_clear(&t);
}

static void bad_mechanism_lines_are_refused(void **state) {
#define P "fio-1 [001] ..... 1.000001: "
#define Q "fio-1 [001] ..... 1.000002: block_bio_queue: 7,0 RA 8 + 8 [fio]\n"
  const char *cases[][2] = {
    {P "mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0xzz ofs=0 order=0\n" Q,
     "t.txt:1: mm_filemap_add_to_page_cache event without a hex 'pfn=0x...'"},
    {P "mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=1234 ofs=0 order=0\n" Q, ":1: mm_filemap_add_to_page_cache "
     "event without a hex 'pfn=0x...'"},
    {Q P "mm_filemap_add_to_page_cache: dev 0:40 ino\n", "t.txt:2: mm_filemap_add_to_page_cache event without 'dev "
     "MAJOR:MINOR' and hex 'ino INODE'"},
    {P "mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x10\n", ":1: mm_filemap_add_to_page_cache event without "
     "'ofs=BYTES'"},
    {P "mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x10 ofs=100 order=0\n", ":1: mm_filemap_add_to_page_cache "
     "event without 'ofs=BYTES' (a multiple of 4096"},
    {P "mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x10 ofs=0 order=99\n", ":1: mm_filemap_add_to_page_cache "
     "event with 'order=99', expected 0 to 20"},
    {P "page_cache_sync_ra: dev=0:40\n", ":1: page_cache_sync_ra event without 'dev MAJOR:MINOR'"},
    {P "page_cache_async_ra: dev=0-40 ino=101 index=0\n", ":1: page_cache_async_ra event without"},
    {P "block_rq_complete: 7,0 RA ()\n", ":1: request event without 'SECTOR + NR'"},
    {"fio-1 [001] ..... block_rq_complete: 7,0 RA () 8 + 8 [0]\n", ":1: request event without a timestamp"},
    {"fio-1 [001] ..... 1.5.5: block_rq_issue: 7,0 RA 4096 () 8 + 8 [fio]\n", ":1: request event without a timestamp"},
    {P "block_rq_issue: 7x0 RA 4096 () 8 + 8 [fio]\n", ":1: request event without a device"},
  };
#undef P
#undef Q
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    PcsKtrace t;
    GError *error = NULL;
    assert_false(pcs_ktrace_load_text(&t, "t.txt", cases[i][0], strlen(cases[i][0]), &error));
    assert_int_equal(error->code, PCS_ERROR_INPUT);
    if (!strstr(error->message, cases[i][1])) fail_msg("case %zu: '%s' lacks '%s'", i, error->message, cases[i][1]);
    g_error_free(error);
    pcs_ktrace_clear(&t);
  }
}

/* `pcsim compare` of an ext4 capture against the shipped ext4 host: folios
 * against folios and pages against pages (a simulated large folio is one
 * insert of many pages, as the tracepoint counts it). */
static void compare_counts_folios_and_pages(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-ext4b/blocks/ra4096-j1-rep1.ftrace.txt.gz",
                      "workloads/linux-6.18-ext4.ini", "--set", "readahead.read_ahead_kb=4096", "--set",
                      "workload.threads=1", NULL);
  if (rc != 0) fail_msg("compare: exit %d: %s", rc, err);
  assert_non_null(strstr(out, "\ninserts                               589            589    1.000\n"));
  assert_non_null(strstr(out, "\ninserted_pages                     256000         256000    1.000\n"));
}

/* Without insert lines the readahead lines name the data file: ino 101's
 * two against ino 202's one, whichever comes first; the first seen wins a
 * tie; page_cache_ra_order lines alone name none. */
static void readahead_alone_names_the_data_file(void **state) {
#define RA(t, kind, ino) "  a-1 [000] ..... " t ": page_cache_" kind "_ra: dev=0:40 ino=" ino " index=0 ra_pages=64\n"
#define BIO "  a-1 [000] ..... 10.000010: block_bio_queue: 7,0 RA 1000 + 16 [a]\n"
  static const struct {
    const char *text;
    gboolean named;
    uint64_t ino, ra_sync, ra_async;
  } cases[] = {
    {RA("10.000001", "sync", "202") RA("10.000002", "sync", "101") RA("10.000003", "async", "101") BIO, TRUE, 0x101,
     1, 1},
    {RA("10.000001", "async", "202") RA("10.000002", "sync", "101") BIO, TRUE, 0x202, 0, 1},
    {"  a-1 [000] ..... 10.000001: page_cache_ra_order: dev=0:40 ino=101 index=0 order=0 size=64\n" BIO, FALSE, 0, 0,
     0},
  };
#undef RA
#undef BIO
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    for (guint flags = 0; flags <= PCS_KTRACE_KEEP_EVENTS; flags += PCS_KTRACE_KEEP_EVENTS) {
      PcsKtrace t;
      GError *error = NULL;
      if (!pcs_ktrace_load_text_flags(&t, "ra.txt", cases[i].text, strlen(cases[i].text), flags, &error))
        fail_msg("%s", error->message);
      const PcsKtraceMechanism *m = &t.mech;
      assert_false(m->present);
      assert_int_equal(m->ra_present, cases[i].named);
      assert_int_equal(m->ino, cases[i].ino);
      assert_int_equal(m->ra_sync, cases[i].ra_sync);
      assert_int_equal(m->ra_async, cases[i].ra_async);
      assert_int_equal(m->ra_pages, cases[i].named ? 64 : 0);
      if (flags) { /* the kept readahead events are the data file's only */
        guint ra = 0;
        for (guint k = 0; k < t.events->len; k++)
          ra += g_array_index(t.events, PcsKtraceEvent, k).kind != PCS_KEV_BIO;
        assert_int_equal(ra, cases[i].ra_sync + cases[i].ra_async);
      }
      pcs_ktrace_clear(&t);
    }
  }
}

/* A trace reduced to no page inserts (blocks/, as `scripts/pcsim-trace
 * reduce-capture` writes it; a --no-page-inserts capture is the same) keeps
 * its readahead lines, and the data file is found by them: ra_sync, ra_async
 * and the window (ra_pages) are its full trace's, only the insert metrics
 * are missing.  The figures are dec07n's full traces' (its README's
 * mechanism table). */
#define DEC07N "tests/data/kernel-6.18-dec07n/"
static void reduced_traces_keep_their_readahead(void **state) {
  static const struct {
    const char *config;
    uint64_t ra_sync, ra_async, ra_pages;
  } want[] = {
    {"bs32k-ra4096-j4-rep1", 4, 129, 2048}, /* read_ahead_kb 4096 doubled by fadvise_hint=1, in pages */
    {"bs32k-ra128-j4-rep1", 69, 4054, 64},
    {"bs1m-ra4096-j4-rep1", 9, 132, 2048},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    g_autofree char *full_rel = g_strdup_printf(DEC07N "mechanism/%s.ftrace.txt.gz", want[i].config);
    g_autofree char *reduced_rel = g_strdup_printf(DEC07N "blocks/%s.ftrace.txt.gz", want[i].config);
    PcsKtrace full, reduced;
    load(&full, full_rel);
    load(&reduced, reduced_rel);
    const PcsKtraceMechanism *f = &full.mech, *r = &reduced.mech;
    assert_true(f->present && f->ra_present);
    assert_true(r->ra_present);
    assert_false(r->present); /* no insert lines: no insert metrics */
    assert_int_equal(r->inserts + r->other_inserts, 0);
    assert_int_equal(r->inserted_mib_per_thread->len, 0);
    for (const PcsKtraceMechanism *m = f; m; m = m == f ? r : NULL) {
      assert_int_equal(m->dev_major, 0);
      assert_int_equal(m->dev_minor, 39); /* machine.txt's fs_dev */
      assert_int_equal(m->ino, 0x101);
      assert_int_equal(m->ra_sync, want[i].ra_sync);
      assert_int_equal(m->ra_async, want[i].ra_async);
      assert_int_equal(m->ra_pages, want[i].ra_pages);
    }
    assert_int_equal(reduced.c.bios, full.c.bios); /* and the block counts are one run's */
    assert_int_equal(reduced.c.requests, full.c.requests);
    pcs_ktrace_clear(&full);
    pcs_ktrace_clear(&reduced);
  }

  /* trace-stats prints them, and none of the insert metrics */
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", DEC07N "blocks/bs32k-ra4096-j4-rep1.ftrace.txt.gz", "--format",
                              "json", NULL), 0);
  assert_non_null(strstr(out, "\"ra_sync\": 4,\n  \"ra_async\": 129,\n"));
  assert_null(strstr(out, "inserts"));
  assert_null(strstr(out, "owner_changes_per_mib"));
  g_free(out), g_free(err);

  /* compare names the 8 MiB window against the scenario's 256 KiB, as on the
   * full trace, and gives the --set that matches the trace */
  int rc = test_pcsim(&out, &err, "compare", DEC07N "blocks/bs32k-ra4096-j4-rep1.ftrace.txt.gz", DEC07N "host.ini",
                      "--set", "workload.file_size=64M", NULL);
  if (rc != 0) fail_msg("compare: exit %d: %s", rc, err);
  assert_non_null(strstr(out, "\nra_sync                                 4 "));
  assert_non_null(strstr(out, "\nra_async                              129 "));
  assert_non_null(strstr(out, "note: the trace's readahead window is 8192 KiB (ra_pages=2048 in its readahead events), "
                              "the scenario's is 256 KiB (readahead.read_ahead_kb=128, fadvise_hint=1): "
                              "read_ahead_kb=4096 in the trace\n"));
  assert_non_null(strstr(out, "compare again with --set readahead.read_ahead_kb=4096 before reading anything finer"));
  assert_null(strstr(out, "memory.scattered"));
  assert_null(strstr(out, "\ninserts "));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(small_trace_counts_by_hand),
    cmocka_unit_test(compare_names_the_window_threads_and_bs_first),
    cmocka_unit_test(timestamps_are_integers),
    cmocka_unit_test(bad_mechanism_lines_are_refused),
    cmocka_unit_test(mechanism_runs_give_their_metrics),
    cmocka_unit_test(blocks_give_the_readme_medians),
    cmocka_unit_test(compare_counts_folios_and_pages),
    cmocka_unit_test(readahead_alone_names_the_data_file),
    cmocka_unit_test(reduced_traces_keep_their_readahead),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
