/* test_calibrate.c - `pcsim calibrate` as a user runs it: a synthetic ftrace
 * text with known costs gives them back within 10%; the real captures give
 * values a kernel engineer would accept, stable between 1 and 4 threads;
 * traces that cannot show the estimates are refused with exit 2 and nothing
 * written. */
#include "support.h"

#include "pcsim/calibrate.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define MECH "tests/data/kernel-6.18-btrfs-threads/mechanism/"

/* Runs `pcsim calibrate ARGS... --no-check --out NEW.ini` and loads NEW.ini. */
static void calibrate_to(PcsParams *p, char **text, const char *const *args) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *ini = g_build_filename(dir, "new.ini", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  g_ptr_array_add(argv, "calibrate");
  for (const char *const *a = args; *a; a++) g_ptr_array_add(argv, (gpointer)*a);
  g_ptr_array_add(argv, "--no-check");
  g_ptr_array_add(argv, "--out");
  g_ptr_array_add(argv, ini);
  g_ptr_array_add(argv, NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim_argv(&out, &err, FALSE, (const char *const *)argv->pdata);
  if (rc) fail_msg("pcsim calibrate exited %d: %s", rc, err);
  GError *error = NULL;
  pcs_params_init(p);
  if (!pcs_params_load(p, ini, &error) || !pcs_params_validate(p, &error)) fail_msg("%s", error->message);
  if (text && !g_file_get_contents(ini, text, NULL, &error)) fail_msg("%s", error->message);
}

static void assert_near(double got, double want, double tolerance, const char *what) {
  if (!(got >= want * (1 - tolerance) && got <= want * (1 + tolerance)))
    fail_msg("%s: %g, expected %g within %.0f%%", what, got, want, tolerance * 100);
}

static void assert_within(double got, double lo, double hi, const char *what) {
  if (!(got >= lo && got <= hi)) fail_msg("%s: %g, expected %g..%g", what, got, lo, hi);
}

/* ---- a synthetic trace with known costs ---- */

#define SYN_INSERT_NS 300u
#define SYN_BIO_NS 5000u
#define SYN_PAGE_NS 1000u
#define SYN_LATENCY_NS 50000u
#define SYN_BANDWIDTH (2.0 * 1024 * 1024 * 1024) /* bytes/s */
#define SYN_SHARE 0.75
#define SYN_WINDOW 32u

typedef struct {
  uint64_t t;
  guint seq;
  char *line;
} Line;

static int line_cmp(gconstpointer a, gconstpointer b) {
  const Line *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* LINES in time order (emit()'s order at one instant) as ftrace text; frees their lines. */
static char *trace_text(GArray *lines) {
  g_array_sort(lines, line_cmp);
  GString *s = g_string_new("# tracer: nop\n#\n");
  for (guint i = 0; i < lines->len; i++) {
    g_string_append(s, g_array_index(lines, Line, i).line);
    g_free(g_array_index(lines, Line, i).line);
  }
  return g_string_free(s, FALSE);
}

static void emit(GArray *lines, uint64_t t, const char *task, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void emit(GArray *lines, uint64_t t, const char *task, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *ev = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  Line l = {t, lines->len,
            g_strdup_printf("%16s [000] ..... %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT ": %s\n", task,
                            t / 1000000000u, t % 1000000000u, ev)};
  g_array_append_val(lines, l);
}

/* Two threads take turns on 32-page windows: a readahead entry, 32 inserts
 * SYN_INSERT_NS apart, then bios of 1..32 pages, each SYN_BIO_NS + pages *
 * SYN_PAGE_NS after the thread's previous insert or bio, each issued at
 * once and served in SYN_LATENCY_NS + bytes / SYN_BANDWIDTH.  A thread's
 * next frame follows its previous one with probability SYN_SHARE.  Every
 * eighth window starts with a 16 KiB metadata read (a checksum leaf, RM)
 * served by the same device. */
static char *synthetic_trace(guint windows) {
  g_autoptr(GRand) rand = g_rand_new_with_seed(13);
  g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(Line));
  const char *tasks[] = {"fio-101", "fio-102"};
  uint64_t pfn[] = {0x100000, 0x200000}, t = 1000000000u;
  for (guint w = 0; w < windows; w++) {
    guint k = w % 2, page = w * SYN_WINDOW;
    emit(lines, t, tasks[k], "page_cache_%s_ra: dev=0:40 ino=65 index=%u req_count=8 order=0 size=32 "
         "async_size=32 ra_pages=64 mmap_miss=0 prev_pos=0", w ? "async" : "sync", page);
    t += 2000;
    if (w % 8 == 0) {
      uint64_t leaf = 50000u + (uint64_t)w * 8;
      emit(lines, t, tasks[k], "block_bio_queue: 7,0 RM %" G_GUINT64_FORMAT " + 32 [fio]", leaf);
      emit(lines, t, tasks[k], "block_rq_issue: 7,0 RM 16384 () %" G_GUINT64_FORMAT " + 32 be,0,4 [fio]", leaf);
      t += SYN_LATENCY_NS + (uint64_t)(16384 / SYN_BANDWIDTH * 1e9 + 0.5);
      emit(lines, t, "ksoftirqd/1-22", "block_rq_complete: 7,0 RM () %" G_GUINT64_FORMAT " + 32 be,0,4 [0]", leaf);
      t += 2000;
    }
    for (guint i = 0; i < SYN_WINDOW; i++, t += SYN_INSERT_NS) {
      pfn[k] = g_rand_double(rand) < SYN_SHARE ? pfn[k] + 1 : pfn[k] + 1000 + (uint64_t)g_rand_int_range(rand, 0, 1000);
      emit(lines, t, tasks[k], "mm_filemap_add_to_page_cache: dev 0:40 ino 65 pfn=0x%" G_GINT64_MODIFIER "x ofs=%u "
           "order=0", pfn[k], (page + i) * 4096);
    }
    t -= SYN_INSERT_NS;
    uint64_t last_done = t;
    for (guint done = 0; done < SYN_WINDOW;) {
      guint pages = MIN((guint)g_rand_int_range(rand, 1, SYN_WINDOW + 1), SYN_WINDOW - done);
      if (g_rand_int_range(rand, 0, 3) == 0) pages = SYN_WINDOW - done;
      t += SYN_BIO_NS + (uint64_t)pages * SYN_PAGE_NS;
      uint64_t sector = 1000000u + (uint64_t)(page + done) * 8;
      emit(lines, t, tasks[k], "block_bio_queue: 7,0 RA %" G_GUINT64_FORMAT " + %u [fio]", sector, pages * 8);
      emit(lines, t, tasks[k], "block_rq_issue: 7,0 RA %u () %" G_GUINT64_FORMAT " + %u be,0,4 [fio]", pages * 4096,
           sector, pages * 8);
      uint64_t end = t + SYN_LATENCY_NS + (uint64_t)(pages * 4096.0 / SYN_BANDWIDTH * 1e9 + 0.5);
      emit(lines, end, "ksoftirqd/1-22", "block_rq_complete: 7,0 RA () %" G_GUINT64_FORMAT " + %u be,0,4 [0]", sector,
           pages * 8);
      last_done = MAX(last_done, end);
      done += pages;
    }
    t = last_done + 20000;
  }
  return trace_text(lines);
}

/* The machine file of a btrfs capture on a disk, not a loop device: its requests' times are the
 * device's own (see loop_workers_come_from_the_machine); fstype=btrfs as the capture script writes it. */
#define DISK_MACHINE                                                                                  \
  "kernel=6.18 cpus=2 device=/dev/vdb dev=254:16 fstype=btrfs max_sectors_kb=1280 max_segments=128 " \
  "max_segment_size=65536 page_reporting_order=none scheduler=[none] mq-deadline\n"

/* calibrate of the trace TEXT with DISK_MACHINE beside it, into P and INI. */
static void calibrate_on_disk(const char *text, PcsParams *p, char **ini) {
  g_autofree char *trace = test_tempfile("synthetic.ftrace.txt", text);
  g_autofree char *machine = test_tempfile("machine.txt", DISK_MACHINE);
  calibrate_to(p, ini, (const char *const[]){trace, "--machine", machine, NULL});
}

static void synthetic_costs_come_back_within_10_percent(void **state) {
  g_autofree char *text = synthetic_trace(400);
  PcsParams p;
  g_autofree char *ini = NULL;
  calibrate_on_disk(text, &p, &ini);
  assert_int_equal(p.cost_loop_worker, 0); /* no loop device, no loop worker */
  assert_int_equal(p.cost_loop_request, 0);
  assert_near((double)(p.cost_insert_won + p.cost_tree_lock_hold), SYN_INSERT_NS, 0.10, "insert_won + tree_lock_hold");
  assert_near((double)p.cost_read_setup, SYN_PAGE_NS, 0.10, "read_setup");
  assert_near((double)p.cost_bio_submit, SYN_BIO_NS, 0.10, "bio_submit");
  assert_near((double)p.device_latency, SYN_LATENCY_NS, 0.10, "device.latency");
  assert_near((double)p.device_bandwidth, SYN_BANDWIDTH, 0.10, "device.bandwidth");
  assert_true(p.memory_contiguous_share == 1.0); /* the lists decide; the trace's share is in the comment */
  assert_non_null(strstr(ini, "# contiguous_share: 1, every page takes its list's next frame"));
  assert_int_equal(p.memory_contiguous, 1);
  assert_int_equal(p.memory_scattered, 0);
  assert_int_equal(pcs_params_window_bytes(&p), 64 * 4096);
  assert_int_equal(p.block_max_sectors, 2560);
  assert_int_equal(p.block_max_segments, 128);
  assert_int_equal(p.block_max_segment_size, 65536);
  assert_int_equal(p.cpu_count, 2);
  assert_int_equal(p.bio_csum_leaf_size, 16384); /* the metadata reads' size */
  /* every value says where it came from */
  assert_non_null(strstr(ini, "synthetic.ftrace.txt"));
  assert_non_null(strstr(ini, "# read_setup: the slope"));
  /* all but the copy costs and fio's user time, which need fio's JSON beside the trace */
  for (const char *at = ini; (at = strstr(at, "# NOT MEASURED:")); at++)
    if (!g_str_has_prefix(at, "# NOT MEASURED: copy") && !g_str_has_prefix(at, "# NOT MEASURED: fio_user"))
      fail_msg("an estimate is not measured:\n%s", at);
  pcs_params_clear(&p);
}

/* A one-channel device whose transfers share its rate, as calibrate finds the loop device: windows
 * of 4 requests of 256 KiB issued together complete together, SHARED_LATENCY_NS + their bytes /
 * SHARED_BANDWIDTH after their issue; between them lone requests of 16 and 128 KiB, each alone
 * on the device.  calibrate reads the rate off the loaded periods (device_loaded()) and gives
 * back the device it was made with. */
#define SHARED_LATENCY_NS 80000u
#define SHARED_BANDWIDTH (1.5 * 1024 * 1024 * 1024) /* bytes/s */

static char *shared_device_trace(guint windows) {
  g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(Line));
  uint64_t t = 1000000000u, sector = 1000000u, pfn = 0x100000;
  for (guint w = 0; w < windows; w++) {
    emit(lines, t, "fio-101", "page_cache_%s_ra: dev=0:40 ino=65 index=%u req_count=8 order=0 size=32 "
         "async_size=32 ra_pages=64 mmap_miss=0 prev_pos=0", w ? "async" : "sync", w * 32);
    for (guint i = 0; i < 32; i++, t += 500)
      emit(lines, t, "fio-101", "mm_filemap_add_to_page_cache: dev 0:40 ino 65 pfn=0x%" G_GINT64_MODIFIER "x ofs=%u "
           "order=0", pfn++, (w * 32 + i) * 4096);
    guint lone = w % 2 ? 32 : 256; /* sectors: 16 or 128 KiB */
    emit(lines, t, "fio-101", "block_rq_issue: 7,0 RA %u () %" G_GUINT64_FORMAT " + %u be,0,4 [fio]", lone * 512,
         sector, lone);
    t += SHARED_LATENCY_NS + (uint64_t)(lone * 512 / SHARED_BANDWIDTH * 1e9 + 0.5);
    emit(lines, t, "ksoftirqd/1-22", "block_rq_complete: 7,0 RA () %" G_GUINT64_FORMAT " + %u be,0,4 [0]", sector, lone);
    sector += lone, t += 30000;
    uint64_t end = t + SHARED_LATENCY_NS + (uint64_t)(4 * 262144 / SHARED_BANDWIDTH * 1e9 + 0.5);
    for (guint r = 0; r < 4; r++)
      emit(lines, t, "fio-101", "block_rq_issue: 7,0 RA 262144 () %" G_GUINT64_FORMAT " + 512 be,0,4 [fio]",
           sector + r * 512);
    for (guint r = 0; r < 4; r++)
      emit(lines, end, "ksoftirqd/1-22", "block_rq_complete: 7,0 RA () %" G_GUINT64_FORMAT " + 512 be,0,4 [0]",
           sector + r * 512);
    sector += 4 * 512, t = end + 30000;
  }
  return trace_text(lines);
}

static void shared_device_rate_comes_from_its_loaded_periods(void **state) {
  (void)state;
  g_autofree char *text = shared_device_trace(60);
  PcsParams p;
  g_autofree char *ini = NULL;
  calibrate_on_disk(text, &p, &ini);
  assert_int_equal(p.device_sharing, 1);
  assert_int_equal(p.device_channels, 1);
  assert_non_null(strstr(ini, "the one channel's rate under load: the bytes of the 60 busy periods"));
  assert_near((double)p.device_bandwidth, SHARED_BANDWIDTH, 0.01, "device.bandwidth");
  assert_near((double)p.device_latency, SHARED_LATENCY_NS, 0.02, "device.latency");
  pcs_params_clear(&p);
}

/* The loop device's worker (loop.c) is the machine file's: a loop device
 * (loop=, device=/dev/loopN, or dev=7:N) keeps the base's worker, any other
 * device has none.  The device fit is the same either way (the worker's
 * run is left in it: docs/notebook/2026-12-07-loop-double-count.md). */
static void loop_workers_come_from_the_machine(void **state) {
  g_autofree char *text = synthetic_trace(400);
  g_autofree char *trace = test_tempfile("synthetic.ftrace.txt", text);
  PcsParams base;
  test_load(&base, "workloads/linux-6.18-btrfs-base.ini");
  assert_true(base.cost_loop_worker > 0 && base.cost_loop_request > 0); /* the base's 14 and 5 us */
  const struct {
    const char *words;
    gboolean loop;
  } cases[] = {
    {"loop=/dev/loop0 dev=7:0", TRUE},          /* what scripts/capture-kernel-trace --loop-fs writes */
    {"device=/dev/loop3 dev=7:3", TRUE},        /* --device on a loop device the user made */
    {"dev=7:1", TRUE},                          /* the major alone: LOOP_MAJOR */
    {"dev=7:0 loop=/dev/loop0", TRUE},          /* in either order */
    {"device=/dev/block/7:0 dev=7:0", TRUE},    /* --device by another name of a loop device */
    {"device=/dev/nvme0n1 dev=259:0", FALSE},   /* --device on a disk */
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *body = g_strdup_printf("kernel=6.18 cpus=2 %s fstype=btrfs max_sectors_kb=1280 max_segments=128 "
                                            "max_segment_size=65536 page_reporting_order=none\n",
                                            cases[i].words);
    g_autofree char *machine = test_tempfile("machine.txt", body);
    PcsParams p;
    g_autofree char *ini = NULL;
    calibrate_to(&p, &ini, (const char *const[]){trace, "--machine", machine, NULL});
    if (cases[i].loop) {
      assert_int_equal(p.cost_loop_worker, base.cost_loop_worker);
      assert_int_equal(p.cost_loop_request, base.cost_loop_request);
      assert_non_null(strstr(ini, "# NOT MEASURED: loop_worker: a loop device ("));
    } else {
      assert_int_equal(p.cost_loop_worker, 0);
      assert_int_equal(p.cost_loop_request, 0);
      assert_non_null(strstr(ini, "# loop_worker: 0, no loop device: device=/dev/nvme0n1 in machine.txt"));
    }
    assert_near((double)p.device_latency, SYN_LATENCY_NS, 0.10, cases[i].words);
    assert_near((double)p.device_bandwidth, SYN_BANDWIDTH, 0.10, cases[i].words);
    pcs_params_clear(&p);
  }
  /* a machine file that names no device (dev=7 is no MAJ:MIN): the base's worker, said why */
  g_autofree char *none = test_tempfile("machine.txt", "kernel=6.18 cpus=2 dev=7 fstype=btrfs max_sectors_kb=1280 "
                                                       "max_segments=128 max_segment_size=65536\n");
  PcsParams p;
  g_autofree char *ini = NULL;
  calibrate_to(&p, &ini, (const char *const[]){trace, "--machine", none, NULL});
  assert_int_equal(p.cost_loop_worker, base.cost_loop_worker);
  assert_non_null(strstr(ini, "# NOT MEASURED: loop_worker: the machine file names no device (loop=, device= or dev=)"));
  pcs_params_clear(&p);
  pcs_params_clear(&base);
}

/* A simulation's own ftrace (`pcsim run --ftrace`) calibrated back: the
 * costs and the free memory the scenario ran with come back.  The device
 * does not: calibrate fits latency + size / bandwidth to requests issued
 * alone, and the simulated loop device (device.channels, a window split
 * into requests issued together) has few of those, so its device figures
 * are not asserted (docs/kernel-traces.md).  Run without wake-up
 * preemption: a kworker woken on the reader's CPU (cpu.wake_preempt = 1)
 * runs inside the reader's gap before a bio, and calibrate, which sees no
 * scheduler events, counts it into cost.bio_submit (36.7 us per bio against
 * the scenario's 9.2 on this run; 8.6 without).  The kernel's loop kworker
 * goes to the idle CPU instead and its readers are not switched out there
 * (scripts/pcsim-trace bio-gaps; docs/model.md). */
static void a_simulated_trace_calibrates_back_to_its_scenario(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *trace = g_build_filename(dir, "sim.ftrace.txt", NULL);
  g_autofree char *base = test_path("workloads/linux-6.18-btrfs.ini");
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/linux-6.18-btrfs.ini", "--set", "workload.threads=1", "--set",
                      "workload.file_size=200M", "--set", "cost.jitter=0", "--set", "device.jitter=0", "--set",
                      "cpu.wake_preempt=0", "--ftrace", trace,
                      NULL);
  if (rc) fail_msg("pcsim run --ftrace: exit %d: %s", rc, err);
  PcsParams want, got;
  test_load(&want, "workloads/linux-6.18-btrfs.ini");
  calibrate_to(&got, NULL, (const char *const[]){trace, "--model", base, NULL});
  assert_near((double)(got.cost_insert_won + got.cost_tree_lock_hold),
              (double)(want.cost_insert_won + want.cost_tree_lock_hold), 0.05, "insert_won + tree_lock_hold");
  assert_near((double)got.cost_read_setup, (double)want.cost_read_setup, 0.10, "read_setup");
  assert_near((double)got.cost_bio_submit, (double)want.cost_bio_submit, 0.10, "bio_submit");
  assert_int_equal(got.memory_pcp_freed, want.memory_pcp_freed); /* the freed pages, all read first */
  assert_int_equal(got.memory_contiguous, 1);
  assert_int_equal(got.bio_csum_leaf_size, want.bio_csum_leaf_size); /* its RM reads are one nodesize each */
  pcs_params_clear(&want);
  pcs_params_clear(&got);
}

/* ---- the real captures ---- */

/* Each of the shared session's four mechanism captures calibrated alone:
 * the figures a user's `pcsim calibrate` prints for it, and why each is
 * plausible for a loop device and a 2025 CPU. */
static void capture_estimates_are_plausible(void **state) {
  const char *files[] = {"ra128-j1-rep1", "ra128-j4-rep1", "ra4096-j1-rep1", "ra4096-j4-rep1"};
  /* what `pcsim calibrate MECH/FILE.ftrace.txt.gz --out F.ini` writes for each, pinned */
  const char *exact[][6] = {
    {"device.latency=0ns", "device.bandwidth=958M", "cost.insert_won=1151ns", "cost.read_setup=73ns",
     "cost.bio_submit=16333ns", "memory.pcp_freed=6884k"},
    {"device.latency=0ns", "device.bandwidth=562M", "cost.insert_won=1208ns", "cost.read_setup=183ns",
     "cost.bio_submit=9599ns", "memory.pcp_freed=108464k"},
    {"device.latency=170340ns", "device.bandwidth=311M", "cost.insert_won=1203ns", "cost.read_setup=190ns",
     "cost.bio_submit=20025ns", "memory.pcp_freed=70060k"},
    {"device.latency=215434ns", "device.bandwidth=1037M", "cost.insert_won=1335ns", "cost.read_setup=218ns",
     "cost.bio_submit=15813ns", "memory.pcp_freed=55800k"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *rel = g_strdup_printf(MECH "%s.ftrace.txt.gz", files[i]);
    g_autofree char *path = test_path(rel);
    PcsParams p, want;
    calibrate_to(&p, NULL, (const char *const[]){path, NULL});
    pcs_params_init(&want);
    for (size_t k = 0; k < G_N_ELEMENTS(exact[i]); k++) assert_true(pcs_params_set_assignment(&want, exact[i][k], NULL));
    assert_int_equal(p.device_latency, want.device_latency);
    assert_int_equal(p.device_bandwidth, want.device_bandwidth);
    assert_int_equal(p.cost_insert_won, want.cost_insert_won);
    assert_int_equal(p.cost_read_setup, want.cost_read_setup);
    assert_int_equal(p.cost_bio_submit, want.cost_bio_submit);
    assert_int_equal(p.memory_pcp_freed, want.memory_pcp_freed);
    pcs_params_clear(&want);
    /* a loop device over a host file: a lone 256 KiB request in tens to hundreds of us, 0.1 to 20 GiB/s
     * (the latency alone may come out 0: the loaded rate leaves the lone requests' median no room) */
    assert_within((double)p.device_latency, 0, 1e6, files[i]);
    assert_within((double)p.device_latency + 262144.0 / (double)p.device_bandwidth * 1e9, 50e3, 1e6, files[i]);
    assert_within((double)p.device_bandwidth, 100 * PCS_MIB, 20 * 1024 * PCS_MIB, files[i]);
    assert_int_equal(p.device_queue_depth, 128); /* nr_requests of machine.txt, one folder up */
    /* a 2025 CPU: about a microsecond per insert, sub-us per page, a few us per bio */
    assert_within((double)p.cost_insert_won, 200, 5000, files[i]);
    assert_within((double)p.cost_read_setup, 20, 5000, files[i]);
    assert_within((double)p.cost_bio_submit, 1000, 100000, files[i]);
    /* frames: the freed pages and the blocks account for the 1000 MiB file */
    uint64_t blocks[PCS_BUDDY_ORDERS];
    g_autofree char *why = NULL;
    assert_true(pcs_params_parse_buddyinfo(p.memory_buddyinfo, blocks, &why));
    uint64_t bytes = p.memory_pcp_freed;
    for (guint o = 0; o < PCS_BUDDY_ORDERS; o++) bytes += (blocks[o] << o) * PCS_PAGE_SIZE;
    assert_within((double)bytes / PCS_MIB, 990, 1010, files[i]);
    assert_within((double)p.memory_pcp_freed / PCS_MIB, 1, 120, files[i]);
    assert_int_equal(pcs_params_window_bytes(&p), (i < 2 ? 64 : 2048) * 4096);
    assert_int_equal(p.bio_csum_leaf_size, 16 * 1024); /* mkfs.btrfs's default nodesize */
    /* no --model: a 6.18 capture is based on the shipped 6.18 scenario, named after the output file */
    assert_string_equal(p.scenario_kernel, "v6.18");
    assert_string_equal(p.scenario_name, "new");
    assert_int_equal(p.readahead_read_ahead_kb, i < 2 ? 128 : 4096); /* the capture's, under fadvise_hint=1 */
    pcs_params_clear(&p);
  }
}

/* Loads "[SECTION]\nKEY = its default" as a scenario file: fails the test
 * when the loader refuses the key. */
static void assert_loader_takes(const char *section, const char *key) {
  const PcsParamInfo *info = pcs_params_find(section, key);
  if (!info) fail_msg("`pcsim calibrate --help` lists %s.%s, which is no scenario key", section, key);
  PcsParams p;
  pcs_params_init(&p);
  g_autofree char *value = pcs_params_format(&p, info);
  g_autofree char *text = g_strdup_printf("[%s]\n%s = %s\n", section, key, value);
  GError *error = NULL;
  if (!pcs_params_load_text(&p, "help.ini", text, strlen(text), &error)) fail_msg("%s", error->message);
  pcs_params_clear(&p);
}

/* Every key `pcsim calibrate --help` names is one a scenario file may set:
 * SECTION.KEY anywhere, and the bare keys of a list ("block.max_sectors,
 * max_segments") in the list's section. */
static void every_key_the_help_lists_loads(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "calibrate", "--help", NULL), 0);
  g_autoptr(GRegex) dotted = g_regex_new("\\b(scenario|workload|readahead|bio|block|memory|device|cpu|cost|limits)"
                                         "\\.([a-z_]+)", 0, 0, NULL);
  GMatchInfo *m = NULL;
  guint keys = 0;
  for (g_regex_match(dotted, out, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL), keys++) {
    g_autofree char *sec = g_match_info_fetch(m, 1), *key = g_match_info_fetch(m, 2);
    assert_loader_takes(sec, key);
  }
  g_match_info_free(m);
  assert_true(keys >= 12);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  for (char **l = lines; *l; l++) { /* "  a.b, c  what": c is in a's section */
    if (!g_str_has_prefix(*l, "  ") || !g_ascii_islower((*l)[2]) || !strchr(*l, ',')) continue;
    g_autofree char *head = g_strndup(*l + 2, strstr(*l + 2, "  ") ? (gsize)(strstr(*l + 2, "  ") - (*l + 2)) : 0);
    g_auto(GStrv) items = g_strsplit(head, ", ", -1);
    g_autofree char *section = NULL;
    for (char **it = items; *it; it++) {
      const char *dot = strchr(*it, '.');
      if (dot) g_free(section), section = g_strndup(*it, (gsize)(dot - *it));
      if (section) assert_loader_takes(section, dot ? dot + 1 : *it);
    }
  }
}

/* The simulated run of the 1-thread 4 MiB capture's fitted frames has the
 * capture's share of adjacent frames (0.916) and its scattered start. */
static void fitted_frames_give_the_real_contiguous_share(void **state) {
  g_autofree char *j1 = test_path(MECH "ra4096-j1-rep1.ftrace.txt.gz");
  g_autofree char *base = test_path("workloads/linux-6.18-btrfs.ini");
  PcsParams p;
  calibrate_to(&p, NULL, (const char *const[]){j1, "--model", base, NULL});
  test_set(&p, "workload.threads=1", NULL);
  PcsResult r;
  test_run(&p, "window", &r);
  double sim = pcs_report_value(&r, "contiguous_frames");
  pcs_result_clear(&r);
  assert_within(sim, 0.916 - 0.02, 0.916 + 0.02, "simulated contiguous_frames");
  pcs_params_clear(&p);
}

/* One and four threads, the same device: the service of a 256 KiB
 * request agrees within 2x (the 128 KiB captures: both have requests
 * alone in flight at two sizes). */
static void one_and_four_threads_see_the_same_device(void **state) {
  g_autofree char *j1 = test_path(MECH "ra128-j1-rep1.ftrace.txt.gz"), *j4 = test_path(MECH "ra128-j4-rep1.ftrace.txt.gz");
  PcsParams a, b;
  calibrate_to(&a, NULL, (const char *const[]){j1, NULL});
  calibrate_to(&b, NULL, (const char *const[]){j4, NULL});
  double la = (double)a.device_latency, lb = (double)b.device_latency;
  double sa = la + 262144.0 / (double)a.device_bandwidth * 1e9, sb = lb + 262144.0 / (double)b.device_bandwidth * 1e9;
  assert_within(sa / sb, 0.5, 2.0, "256 KiB service 1 thread / 4 threads");
  assert_within((double)a.cost_insert_won / (double)b.cost_insert_won, 0.5, 2.0, "insert_won 1 / 4 threads");
  pcs_params_clear(&a), pcs_params_clear(&b);
}

/* Pooled traces: one value, and each trace's beside it; the base's other keys kept. */
static void pooled_traces_keep_the_base(void **state) {
  g_autofree char *j1 = test_path(MECH "ra4096-j1-rep1.ftrace.txt.gz"), *j4 = test_path(MECH "ra4096-j4-rep1.ftrace.txt.gz");
  g_autofree char *base = test_path("workloads/linux-6.18-btrfs.ini");
  g_autofree char *machine = test_path("tests/data/kernel-6.18-btrfs-threads/machine.txt");
  PcsParams p;
  g_autofree char *ini = NULL;
  calibrate_to(&p, &ini, (const char *const[]){j1, j4, "--model", base, "--machine", machine, NULL});
  assert_string_equal(p.scenario_name, "linux-6.18-btrfs");
  assert_int_equal(p.workload_threads, 4);
  assert_int_equal(p.bio_max_vecs, 256);
  assert_int_equal(p.block_max_sectors, 2560);
  assert_int_equal(pcs_params_window_bytes(&p), 8 * 1024 * 1024);
  assert_int_equal(p.memory_scattered, 0);
  assert_non_null(strstr(ini, "per trace: ra4096-j1-rep1.ftrace.txt.gz"));
  pcs_params_clear(&p);
}

/* A machine faster on the insert path than the base's (the 2026-12-06
 * host: one thread's inserts 256 ns apart against the shipped scenario's
 * 1395 ns split, insert_won 1203 with insert_alloc 400 in it, tree_lock_hold
 * 50, lru_drain 4400 / 31): the spacing is split in the base's proportions,
 * so the scenario is valid (insert_alloc within insert_won) and its insert
 * path adds up to the measured spacing, instead of exit 2 on
 * "cost.insert_alloc is more than cost.insert_won". */
static void a_faster_machine_scales_the_insert_split(void **state) {
  g_autofree char *j1 = test_path("tests/data/kernel-6.18-dec06/mechanism/ra128-j1-rep1.ftrace.txt.gz");
  g_autofree char *base = test_path("workloads/linux-6.18-btrfs.ini");
  PcsParams p, b;
  g_autofree char *ini = NULL;
  calibrate_to(&p, &ini, (const char *const[]){j1, "--model", base, "--keys", "cost.insert_won", NULL});
  GError *error = NULL;
  pcs_params_init(&b);
  if (!pcs_params_load(&b, base, &error)) fail_msg("%s", error->message);
  double spacing = (double)p.cost_insert_won + (double)p.cost_tree_lock_hold + (double)p.cost_lru_drain / 31.0;
  assert_within(spacing, 200, 320, "insert_won + tree_lock_hold + lru_drain / 31");
  assert_true(p.cost_insert_alloc <= p.cost_insert_won);
  /* the base's proportions: insert_alloc / insert_won and lru_drain / insert_won kept within rounding */
  assert_near((double)p.cost_insert_alloc / (double)p.cost_insert_won,
              (double)b.cost_insert_alloc / (double)b.cost_insert_won, 0.02, "insert_alloc / insert_won");
  assert_near((double)p.cost_lru_drain / (double)p.cost_insert_won,
              (double)b.cost_lru_drain / (double)b.cost_insert_won, 0.02, "lru_drain / insert_won");
  assert_int_equal(p.cost_tree_lock_hold, b.cost_tree_lock_hold);
  assert_non_null(strstr(ini, "# lru_drain: scaled with insert_won"));
  /* asking for one of the three asks for all: they split one spacing */
  PcsParams q;
  g_autofree char *ini2 = NULL;
  calibrate_to(&q, &ini2, (const char *const[]){j1, "--model", base, "--keys", "cost.lru_drain", NULL});
  assert_int_equal(q.cost_insert_won, p.cost_insert_won);
  assert_int_equal(q.cost_insert_alloc, p.cost_insert_alloc);
  pcs_params_clear(&q);
  pcs_params_clear(&b);
  pcs_params_clear(&p);
}

/* --keys: only the insert path is estimated (the shared one-thread capture's
 * spacing, 1157 ns over both one-thread captures: 1000..1400 here), the
 * device and everything else stay the base's, marked; a key calibrate does
 * not estimate is refused, naming it, and nothing is written. */
static void keys_keep_the_rest_of_the_base(void **state) {
  g_autofree char *j1 = test_path(MECH "ra128-j1-rep1.ftrace.txt.gz"), *j4096 = test_path(MECH "ra4096-j1-rep1.ftrace.txt.gz");
  g_autofree char *base = test_path("workloads/linux-6.18-btrfs.ini");
  PcsParams p, b;
  g_autofree char *ini = NULL;
  calibrate_to(&p, &ini, (const char *const[]){j1, j4096, "--model", base, "--keys",
                                                "cost.insert_won,cost.read_setup,cost.bio_submit", NULL});
  GError *error = NULL;
  pcs_params_init(&b);
  if (!pcs_params_load(&b, base, &error)) fail_msg("%s", error->message);
  assert_within((double)p.cost_insert_won, 1000, 1400, "cost.insert_won");
  assert_true(p.device_latency == b.device_latency && p.device_bandwidth == b.device_bandwidth);
  assert_int_equal(p.memory_pcp_freed, b.memory_pcp_freed);
  assert_non_null(strstr(ini, "NOT MEASURED: device.bandwidth: not asked for (--keys)"));
  pcs_params_clear(&b);
  pcs_params_clear(&p);
  g_autofree char *dir = test_tempdir();
  g_autofree char *never = g_build_filename(dir, "never.ini", NULL);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "calibrate", j1, "--keys", "cost.insert_won,cost.syscall", "--out", never, NULL), 2);
  assert_non_null(strstr(err, "'cost.syscall' is not a key calibrate estimates"));
  assert_false(g_file_test(never, G_FILE_TEST_EXISTS));
  /* no key at all, and one trace given twice: refused, nothing written */
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "calibrate", j1, "--keys", "", "--out", never, NULL), 2);
  assert_non_null(strstr(err, "--keys '': expected the keys to estimate"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "calibrate", j1, j1, "--out", never, NULL), 2);
  assert_non_null(strstr(err, ": given twice (as "));
  assert_false(g_file_test(never, G_FILE_TEST_EXISTS));
}

/* ---- the one command ---- */

/* TEXT's lines that are not comments. */
static void assert_self_contained(const char *text) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++) {
    if (**l == '#') continue;
    if (strstr(*l, ".ini") || strstr(*l, "include") || strstr(*l, "base"))
      fail_msg("the scenario names another file: %s", *l);
  }
}

/* `pcsim calibrate A B --out host.ini` on a committed session's two
 * one-thread captures, no --model, no --machine: machine.txt one folder up
 * is found and gives the queue limits; the kernel is the machine file's
 * 6.18 and the policy its own; every value is printed with its source;
 * the scenario names no other file and runs a fio job from another
 * directory. */
static void one_command_writes_a_complete_host(void **state) {
  g_autofree char *a = test_path("tests/data/kernel-6.18-dec06/mechanism/ra128-j1-rep1.ftrace.txt.gz");
  g_autofree char *b = test_path("tests/data/kernel-6.18-dec06/mechanism/ra4096-j1-rep1.ftrace.txt.gz");
  g_autofree char *dir = test_tempdir(), *elsewhere = test_tempdir();
  g_autofree char *ini = g_build_filename(dir, "host.ini", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "calibrate", a, b, "--out", ini, NULL);
  if (rc) fail_msg("pcsim calibrate exited %d: %s", rc, err);
  PcsParams p;
  GError *error = NULL;
  pcs_params_init(&p);
  if (!pcs_params_load(&p, ini, &error)) fail_msg("%s", error->message);
  assert_string_equal(p.scenario_kernel, "v6.18");
  assert_string_equal(p.scenario_policies, "window");
  assert_int_equal(p.block_max_sectors, 2560); /* machine.txt: max_sectors_kb=1280 */
  assert_int_equal(p.block_max_segments, 128);
  assert_int_equal(p.block_max_segment_size, 65536);
  assert_int_equal(p.device_queue_depth, 128); /* nr_requests=128 */
  assert_int_equal(p.cpu_count, 2);
  assert_within((double)p.device_channels, 1, 16, "device.channels");
  if (p.device_sharing) assert_int_equal(p.device_channels, 1); /* one shared channel, or FIFO channels */
  /* a lone 256 KiB request: the host's median is 104..122 us (kernel-6.18-dec06/README) */
  assert_within((double)p.device_latency + 262144.0 / (double)p.device_bandwidth * 1e9, 60e3, 200e3,
                "256 KiB alone (ns)");
  pcs_params_clear(&p);
  /* the sources, on stderr */
  assert_non_null(strstr(err, "calibrate: machine file "));
  assert_non_null(strstr(err, "kernel-6.18-dec06/machine.txt"));
  assert_non_null(strstr(err, "calibrate: device.latency = "));
  assert_non_null(strstr(err, "calibrate: device.channels = "));
  assert_non_null(strstr(err, "calibrate: device.sharing = "));
  assert_non_null(strstr(err, "calibrate: device.jitter = "));
  assert_non_null(strstr(err, "calibrate: block.max_sectors = 2560\n    max_sectors_kb * 2 (sectors) in machine.txt"));
  assert_non_null(strstr(err, "calibrate: cost.insert_won = "));
  /* the jobs and fio JSON are not beside these captures: said, and the copy costs not measured */
  assert_non_null(strstr(err, "no job file or fio JSON beside it"));
  assert_non_null(strstr(err, "calibrate: warning: cost.copy = 350ns NOT MEASURED"));
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(ini, &text, NULL, NULL));
  assert_self_contained(text);
  /* from another directory, with only host.ini there */
  g_autofree char *copy = g_build_filename(elsewhere, "host.ini", NULL);
  assert_true(g_file_set_contents(copy, text, -1, NULL));
  g_autofree char *job = test_path("tests/data/kernel-6.18-dec06/blocks/ra128-j4-rep1.fio");
  g_autofree char *out2 = NULL, *err2 = NULL;
  rc = test_pcsim_env(&out2, &err2, NULL, elsewhere, "run", job, "--model", "host.ini", "--set",
                      "workload.file_size=100M", "--format", "csv", NULL);
  if (rc) fail_msg("pcsim run JOB --model host.ini from another directory exited %d: %s", rc, err2);
  assert_non_null(strstr(out2, "bios_per_mib"));
  /* the same results as the written file run by its absolute path from the source tree */
  g_autofree char *out3 = NULL, *err3 = NULL;
  rc = test_pcsim(&out3, &err3, "run", job, "--model", ini, "--set", "workload.file_size=100M", "--format", "csv", NULL);
  if (rc) fail_msg("pcsim run JOB --model %s exited %d: %s", ini, rc, err3);
  const char *rows2 = strstr(out2, "\npolicy,"), *rows3 = strstr(out3, "\npolicy,");
  assert_true(rows2 && rows3);
  assert_string_equal(rows2, rows3);
}

/* A capture as scripts/capture-kernel-trace writes it (OUT/NAME/NAME.ftrace.txt.gz
 * beside NAME.fio and NAME.json, OUT/machine.txt): the job's fadvise_hint
 * decides the window (fadvise_hint=0: read_ahead_kb is ra_pages * 4, here
 * 64 pages -> 256), fio's clat gives cost.copy, and the check runs the new
 * scenario on the job beside fio's MiB/s. */
static void the_job_and_json_beside_are_read(void **state) {
  g_autofree char *out_dir = test_tempdir();
  g_autofree char *run = g_build_filename(out_dir, "ra128-j1-rep1", NULL);
  assert_int_equal(g_mkdir(run, 0755), 0);
  g_autofree char *src = test_path(MECH "ra128-j1-rep1.ftrace.txt.gz"), *json_src = test_path(MECH "ra128-j1-rep1.json");
  g_autofree char *machine_src = test_path("tests/data/kernel-6.18-btrfs-threads/machine.txt");
  g_autofree char *trace = g_build_filename(run, "ra128-j1-rep1.ftrace.txt.gz", NULL);
  g_autofree char *json = g_build_filename(run, "ra128-j1-rep1.json", NULL);
  g_autofree char *job = g_build_filename(run, "ra128-j1-rep1.fio", NULL);
  g_autofree char *machine = g_build_filename(out_dir, "machine.txt", NULL);
  assert_int_equal(symlink(src, trace), 0);
  assert_int_equal(symlink(json_src, json), 0);
  assert_int_equal(symlink(machine_src, machine), 0);
  assert_true(g_file_set_contents(job, "[global]\nnumjobs=1\n[global]\nthread\nbs=32k\nrw=read\nioengine=sync\n"
                                       "fadvise_hint=0\n[READ]\nfilename=foobar\nsize=1000M\ninvalidate=1\n", -1, NULL));
  g_autofree char *ini = g_build_filename(out_dir, "host.ini", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "calibrate", trace, "--out", ini, NULL);
  if (rc) fail_msg("pcsim calibrate exited %d: %s", rc, err);
  PcsParams p;
  GError *error = NULL;
  pcs_params_init(&p);
  if (!pcs_params_load(&p, ini, &error)) fail_msg("%s", error->message);
  assert_int_equal(p.readahead_read_ahead_kb, 256); /* ra_pages 64, not doubled under fadvise_hint=0 */
  assert_non_null(strstr(err, "fadvise_hint=0 in ra128-j1-rep1.fio"));
  /* fio's clat p50 3184 ns less syscall 600 ns over 8 pages: 323 ns */
  assert_within((double)p.cost_copy, 320, 326, "cost.copy");
  assert_non_null(strstr(err, "calibrate: cost.copy = "));
  /* fio's user time between calls: usr_cpu x job_runtime over total_ios, 1.75 us a call
   * (scripts/pcsim-trace fio-cpu on the same JSON says the same) */
  assert_within((double)p.cost_fio_user, 1740, 1760, "cost.fio_user");
  assert_non_null(strstr(err, "calibrate: cost.fio_user = "));
  assert_non_null(strstr(err, "calibrate: check (not fitted): ra128-j1-rep1.ftrace.txt.gz, 1 thread(s), bs 32768, "
                              "read_ahead_kb 256: fio 560 MiB/s, clat p50 3.18 us; pcsim (seed 1) "));
  assert_int_equal(p.device_queue_depth, 128);
  pcs_params_clear(&p);
  /* a JSON beside that is not fio's: said, and calibrated without it (copy kept from the base, marked) */
  assert_int_equal(unlink(json), 0);
  assert_true(g_file_set_contents(json, "fio: some error\n", -1, NULL));
  g_autofree char *out2 = NULL, *err2 = NULL;
  assert_int_equal(test_pcsim(&out2, &err2, "calibrate", trace, "--no-check", NULL), 0);
  assert_non_null(strstr(err2, "ra128-j1-rep1.json: not fio's JSON output: no '{'; calibrated without it"));
  assert_non_null(strstr(out2, "# NOT MEASURED: copy: not measurable: no trace has its fio job and JSON beside it"));
}

/* The host files of docs/hosts/ are calibrate's output (issue 36), as scripts/validate-6.18
 * --calibrated writes them: the dec06e session's two one-thread captures
 * laid out as the capture script writes them (NAME/NAME.ftrace.txt.gz beside
 * NAME.fio and NAME.json, machine.txt one folder up), `pcsim calibrate A B
 * --out dec06e.ini` with no --model (the shipped linux-6.18-btrfs-base), and
 * the file is docs/hosts/dec06e.ini byte for byte. */
static void docs_hosts_are_calibrates_output(void **state) {
  (void)state;
  g_autofree char *dir = test_tempdir();
  g_autofree char *set = test_path("tests/data/kernel-6.18-dec06e");
  g_autofree char *machine_src = g_build_filename(set, "machine.txt", NULL);
  g_autofree char *machine = g_build_filename(dir, "machine.txt", NULL);
  assert_int_equal(symlink(machine_src, machine), 0);
  const char *runs[] = {"bs32k-ra128-j1-rep1", "bs32k-ra4096-j1-rep1"};
  char *traces[2];
  for (int i = 0; i < 2; i++) {
    g_autofree char *run = g_build_filename(dir, runs[i], NULL);
    assert_int_equal(g_mkdir(run, 0755), 0);
    const struct {
      const char *sub, *ext;
    } files[] = {{"mechanism", "ftrace.txt.gz"}, {"blocks", "fio"}, {"blocks", "json"}};
    for (gsize f = 0; f < G_N_ELEMENTS(files); f++) {
      g_autofree char *name = g_strdup_printf("%s.%s", runs[i], files[f].ext);
      g_autofree char *src = g_build_filename(set, files[f].sub, name, NULL);
      g_autofree char *dst = g_build_filename(run, name, NULL);
      assert_int_equal(symlink(src, dst), 0);
      if (f == 0) traces[i] = g_strdup(dst);
    }
  }
  g_autofree char *ini = g_build_filename(dir, "dec06e.ini", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "calibrate", traces[0], traces[1], "--out", ini, NULL);
  g_free(traces[0]), g_free(traces[1]);
  if (rc) fail_msg("pcsim calibrate exited %d: %s", rc, err);
  g_autofree char *made = NULL, *committed = NULL, *committed_path = test_path("docs/hosts/dec06e.ini");
  assert_true(g_file_get_contents(ini, &made, NULL, NULL));
  assert_true(g_file_get_contents(committed_path, &committed, NULL, NULL));
  /* its first line names the host (pcsim scenarios lists it), the header the base */
  assert_true(g_str_has_prefix(made, "# A host: Linux v6.18 on btrfs, 2 CPUs, written by `pcsim calibrate` from 2 "
                                     "trace(s):\n"));
  assert_non_null(strstr(made, "copied from linux-6.18-btrfs-base (no --model: the shipped\n# base"));
  if (strcmp(made, committed))
    fail_msg("docs/hosts/dec06e.ini is not what pcsim calibrate writes from its session: run scripts/validate-6.18 "
             "--calibrated");
}

/* The host's name is --out's file name less its extension, dots inside kept
 * (it was cut at the first dot: linux-6.18-ext4.ini gave "linux-6"); a key
 * copied from the base keeps the comment right above it there, a CRLF
 * base's without its CRs, and a comment above a section header goes with
 * no key. */
static void names_and_copied_comments(void **state) {
  (void)state;
  g_autofree char *a = test_path("tests/data/kernel-6.18-dec06/mechanism/ra128-j1-rep1.ftrace.txt.gz");
  g_autofree char *dir = test_tempdir();
  g_autofree char *ini = g_build_filename(dir, "host.v2.ini", NULL);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "calibrate", a, "--no-check", "--out", ini, NULL), 0);
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(ini, &text, NULL, NULL));
  assert_non_null(strstr(text, "\nname = host.v2\n"));
  /* the shipped base's comment on a key calibrate does not estimate, and its source */
  assert_non_null(strstr(text, "# insert_lost: an estimate, not fitted"));
  assert_non_null(strstr(text, "insert_lost = 200ns\n"));
  /* a base of our own, with CRLF line ends */
  const char *base_text = "[scenario]\r\nname = mybase\r\nkernel = v6.18\r\npolicies = window\r\n"
                          "# about the cost section\r\n[cost]\r\n# the lost insert, from a test\r\ninsert_lost = 250ns\r\n"
                          "copy = 300ns\r\n";
  g_autofree char *base = g_build_filename(dir, "mybase.ini", NULL);
  assert_true(g_file_set_contents(base, base_text, -1, NULL));
  g_autofree char *ini2 = g_build_filename(dir, "h2.ini", NULL);
  g_clear_pointer(&out, g_free);
  g_clear_pointer(&err, g_free);
  assert_int_equal(test_pcsim(&out, &err, "calibrate", a, "--no-check", "--model", base, "--keys", "cost.insert_won",
                              "--out", ini2, NULL), 0);
  g_autofree char *text2 = NULL;
  assert_true(g_file_get_contents(ini2, &text2, NULL, NULL));
  assert_null(strchr(text2, '\r'));
  assert_non_null(strstr(text2, "\n# the lost insert, from a test\ninsert_lost = 250ns\n"));
  assert_null(strstr(text2, "about the cost section")); /* above [cost], not a key */
  assert_non_null(strstr(text2, "\nname = mybase\n")); /* with --model, the base's name */
}

/* ---- refusals ---- */

static void bad_traces_are_refused_with_exit_2(void **state) {
  const char *block = "fio-1 [000] ..... 1.000000: block_bio_queue: 7,0 RA 8 + 8 [fio]\n"
                      "fio-1 [000] ..... 1.000001: block_rq_issue: 7,0 RA 4096 () 8 + 8 be,0,4 [fio]\n";
  const char *insert = "fio-1 [000] ..... 0.900000: mm_filemap_add_to_page_cache: dev 0:40 ino 65 pfn=0x10 ofs=0 "
                       "order=0\n";
  g_autofree char *no_complete = g_strconcat(insert, block, NULL);
  const char *cases[][3] = {
    {"notatrace.txt", "hello\nworld\n", "no block_bio_queue"},
    {"blkparse.txt",
     "  7,0  1  1  0.000100  1234  Q  RA 8 + 8 [fio]\n  7,0  1  2  0.000200  1234  D  RA 8 + 8 [fio]\n"
     "  7,0  1  3  0.000300  0  C  RA 8 + 8 [0]\n",
     "a blkparse trace has none"},
    {"blocks.txt", block, "no mm_filemap_add_to_page_cache events"},
    {"nocomplete.txt", no_complete, "no read request paired from block_rq_issue to block_rq_complete"},
  };
  g_autofree char *dir = test_tempdir();
  g_autofree char *ini = g_build_filename(dir, "never.ini", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *path = test_tempfile(cases[i][0], cases[i][1]);
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "calibrate", path, "--out", ini, NULL), 2);
    assert_non_null(strstr(err, cases[i][0]));
    if (!strstr(err, cases[i][2])) fail_msg("%s: expected '%s' in: %s", cases[i][0], cases[i][2], err);
    assert_false(g_file_test(ini, G_FILE_TEST_EXISTS));
  }
  /* a good trace with a bad machine file: refused too, nothing written */
  g_autofree char *good = test_path(MECH "ra128-j1-rep1.ftrace.txt.gz");
  g_autofree char *machine = test_tempfile("machine-bad.txt", "cpus=two max_sectors_kb=1280\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "calibrate", good, "--machine", machine, "--out", ini, NULL), 2);
  assert_non_null(strstr(err, "machine-bad.txt:1: cpus=two"));
  assert_false(g_file_test(ini, G_FILE_TEST_EXISTS));
  /* a file system no capture makes: refused by name (ext4 and xfs: test_calibrate_folios.c) */
  const char *fs[][2] = {
    {"?", "machine-?.txt:2: fstype=?: expected btrfs, ext4 or xfs"},
    {"zfs", "machine-zfs.txt:2: fstype=zfs: expected btrfs, ext4 or xfs"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(fs); i++) {
    g_autofree char *name = g_strdup_printf("machine-%s.txt", fs[i][0]);
    g_autofree char *text = g_strdup_printf("# captured\nkernel=6.18 cpus=2 fstype=%s max_sectors_kb=1280\n", fs[i][0]);
    g_autofree char *path = test_tempfile(name, text);
    g_autofree char *o = NULL, *e = NULL;
    assert_int_equal(test_pcsim(&o, &e, "calibrate", good, "--machine", path, "--out", ini, NULL), 2);
    if (!strstr(e, fs[i][1])) fail_msg("expected '%s' in: %s", fs[i][1], e);
    assert_false(g_file_test(ini, G_FILE_TEST_EXISTS));
  }
  g_autofree char *out2 = NULL, *err2 = NULL;
  assert_int_equal(test_pcsim(&out2, &err2, "calibrate", NULL), 2);
  assert_non_null(strstr(err2, "expected one or more TRACE files"));
}

/* A trace whose bios are all one size cannot separate per-page from per-bio
 * work: both keep the base values, marked, and the scenario still loads.
 * Its requests, all one size too, give the device one point: the base's
 * device scaled to their 100 us (device_one_size()). */
static void unidentifiable_costs_keep_the_base_marked(void **state) {
  /* one thread, 32-page windows, one 128 KiB bio each, one request size */
  GString *s = g_string_new(NULL);
  uint64_t t = 1000000000u, pfn = 0x1000;
  for (guint w = 0; w < 40; w++) {
    for (guint i = 0; i < 32; i++, t += 300)
      g_string_append_printf(s, "fio-1 [000] ..... %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT
                             ": mm_filemap_add_to_page_cache: dev 0:40 ino 65 pfn=0x%" G_GINT64_MODIFIER "x ofs=%u "
                             "order=0\n", t / 1000000000u, t % 1000000000u, ++pfn, (w * 32 + i) * 4096);
    t += 37000;
    uint64_t sector = 8000u + w * 256u;
    g_string_append_printf(s, "fio-1 [000] ..... %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT
                           ": block_bio_queue: 7,0 RA %" G_GUINT64_FORMAT " + 256 [fio]\n"
                           "fio-1 [000] ..... %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT
                           ": block_rq_issue: 7,0 RA 131072 () %" G_GUINT64_FORMAT " + 256 be,0,4 [fio]\n",
                           t / 1000000000u, t % 1000000000u, sector, t / 1000000000u, t % 1000000000u, sector);
    t += 100000;
    g_string_append_printf(s, "ksoftirqd/0-9 [000] ..... %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT
                           ": block_rq_complete: 7,0 RA () %" G_GUINT64_FORMAT " + 256 be,0,4 [0]\n",
                           t / 1000000000u, t % 1000000000u, sector);
  }
  g_autofree char *body = g_string_free(s, FALSE);
  g_autofree char *trace = test_tempfile("onesize.txt", body);
  PcsParams p, def;
  g_autofree char *ini = NULL;
  calibrate_to(&p, &ini, (const char *const[]){trace, NULL});
  pcs_params_init(&def);
  assert_int_equal(p.cost_read_setup, def.cost_read_setup);
  assert_int_equal(p.cost_bio_submit, def.cost_bio_submit);
  assert_near((double)p.device_latency + 131072.0 / (double)p.device_bandwidth * 1e9, 100000, 0.02, "128 KiB request");
  assert_true(p.device_latency < def.device_latency); /* the base's 128 KiB request is slower: scaled down */
  assert_non_null(strstr(ini, "# NOT MEASURED: read_setup: not measurable from this trace"));
  assert_non_null(strstr(ini, "the only size the traces time alone"));
  /* what it can see, it measures: every frame followed the previous one */
  assert_int_equal(p.memory_contiguous, 1);
  assert_near((double)(p.cost_insert_won + p.cost_tree_lock_hold), 300, 0.10, "insert spacing");
  pcs_params_clear(&p), pcs_params_clear(&def);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(synthetic_costs_come_back_within_10_percent),
    cmocka_unit_test(shared_device_rate_comes_from_its_loaded_periods),
    cmocka_unit_test(loop_workers_come_from_the_machine),
    cmocka_unit_test(a_simulated_trace_calibrates_back_to_its_scenario),
    cmocka_unit_test(capture_estimates_are_plausible),
    cmocka_unit_test(fitted_frames_give_the_real_contiguous_share),
    cmocka_unit_test(one_and_four_threads_see_the_same_device),
    cmocka_unit_test(pooled_traces_keep_the_base),
    cmocka_unit_test(keys_keep_the_rest_of_the_base),
    cmocka_unit_test(a_faster_machine_scales_the_insert_split),
    cmocka_unit_test(bad_traces_are_refused_with_exit_2),
    cmocka_unit_test(unidentifiable_costs_keep_the_base_marked),
    cmocka_unit_test(every_key_the_help_lists_loads),
    cmocka_unit_test(one_command_writes_a_complete_host),
    cmocka_unit_test(the_job_and_json_beside_are_read),
    cmocka_unit_test(docs_hosts_are_calibrates_output),
    cmocka_unit_test(names_and_copied_comments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
