/* test_ktrace.c - real kernel traces counted as the shared README counts
 * them, and `pcsim trace-stats` / `pcsim compare` as a user runs them. */
#include "support.h"

#include "pcsim/ktrace.h"

#include <sys/wait.h>

static void load(PcsKtrace *t, const char *rel) {
  g_autofree char *path = test_path(rel);
  GError *error = NULL;
  if (!pcs_ktrace_load(t, path, &error)) fail_msg("%s", error->message);
}

/* tests/data/kernel-6.18-btrfs/README: jobs1 201 read bios (66 metadata),
 * 1001.0 MiB, 950 requests; jobs4 311 bios (66 metadata), 1086 requests. */
static void shared_traces_give_their_readme_counts(void **state) {
  struct {
    const char *file;
    uint64_t bios, meta, requests;
  } want[] = {{"tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz", 201, 66, 950},
              {"tests/data/kernel-6.18-btrfs/ra4096-jobs4.ftrace.txt.gz", 311, 66, 1086}};
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    PcsKtrace t;
    load(&t, want[i].file);
    assert_string_equal(t.format, "ftrace");
    assert_int_equal(t.c.bios + t.c.meta_bios, want[i].bios);
    assert_int_equal(t.c.meta_bios, want[i].meta);
    assert_int_equal(t.c.requests + t.c.meta_requests, want[i].requests);
    double mib = (double)(t.c.sectors + t.c.meta_sectors) * 512.0 / (1024.0 * 1024.0);
    assert_true(mib > 1000.95 && mib < 1001.05); /* "1001.0 MiB" */
    uint64_t hist_bios = 0;
    for (guint k = 0; k < t.bio_pages_hist->len; k++) hist_bios += g_array_index(t.bio_pages_hist, guint64, k);
    assert_int_equal(hist_bios, t.c.bios);
    pcs_ktrace_clear(&t);
  }
}

static void blkparse_text_counts_q_and_d(void **state) {
  PcsKtrace t;
  load(&t, "tests/data/blkparse-sample.txt");
  assert_string_equal(t.format, "blkparse");
  assert_int_equal(t.c.bios, 3);      /* Q of RA, RA, R; the RM apart, the WS not a read */
  assert_int_equal(t.c.meta_bios, 1);
  assert_int_equal(t.c.requests, 2);  /* D of RA and R */
  assert_int_equal(t.c.meta_requests, 1);
  assert_int_equal(t.c.sectors, 256 + 1024 + 2048);
  assert_int_equal(t.c.threads, 2); /* PIDs that queued data bios */
  assert_int_equal(t.large.sectors_before, 256 + 1024 + 2048); /* none over 1 MiB */
  pcs_ktrace_clear(&t);
}

static void bad_traces_are_refused(void **state) {
  const char *cases[][2] = {
    {"no events here\n", "no block_bio_queue"},
    {"fio-1 [001] ..... 1.0: block_bio_queue: 7,0 RA 12x + 8 [fio]\n", ":1: bio event without"},
    {"\x1f\x8b\x08garbage", "not a text trace"},
    /* a trace that lost events: its counts would be low */
    {"# tracer: nop\n#\n# entries-in-buffer/entries-written: 300/900   #P:2\n", "t.txt:3: the trace lost 600 of 900 events"},
    {"fio-1 [001] ..... 1.0: block_bio_queue: 7,0 RA 8 + 8 [fio]\nCPU:1 [LOST 5123 EVENTS]\n",
     "t.txt:2: CPU 1 lost 5123 events here"},
    {"CPU:0 [LOST EVENTS]\nfio-1 [001] ..... 1.0: block_bio_queue: 7,0 RA 8 + 8 [fio]\n",
     "t.txt:1: CPU 0 lost an unknown number of events here"},
    {"CPU:3 [77 EVENTS DROPPED]\n", "t.txt:1: CPU 3 lost 77 events here"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    PcsKtrace t;
    GError *error = NULL;
    assert_false(pcs_ktrace_load_text(&t, "t.txt", cases[i][0], strlen(cases[i][0]), &error));
    if (!strstr(error->message, cases[i][1])) fail_msg("'%s' lacks '%s'", error->message, cases[i][1]);
    g_error_free(error);
    pcs_ktrace_clear(&t);
  }
  g_autofree char *gz = test_tempfile("broken.gz", "\x1f\x8b\x08\x00garbage");
  PcsKtrace t;
  GError *error = NULL;
  assert_false(pcs_ktrace_load(&t, gz, &error));
  assert_non_null(strstr(error->message, "gzip"));
  g_error_free(error);
  pcs_ktrace_clear(&t);
}

static void trace_stats_and_compare_from_the_cli(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz",
                              "--format", "csv", NULL), 0);
  assert_non_null(strstr(out, "trace,format,bios,requests,mib_read,bios_per_mib,requests_per_mib,"));
  assert_non_null(strstr(out, ",ftrace,135,884,1000.0000,0.1350,0.8840,"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/blkparse-sample.txt", "--format", "json", NULL), 0);
  assert_non_null(strstr(out, "\"format\": \"blkparse\""));
  assert_non_null(strstr(out, "\"bio_pages_hist\": {\"32\": 1, \"128\": 1, \"256\": 1}"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz",
                              "workloads/single-thread.ini", "--set", "workload.file_size=1000M", "--format", "csv",
                              NULL), 0);
  assert_non_null(strstr(out, "\nmetric,real,simulated,ratio\nbios,135,"));
  assert_non_null(strstr(out, "\nmib_read,1000.0000,1000.0000,1.0000\n"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "workloads", NULL), 2);
  assert_non_null(strstr(err, "directory"));
}

/* A trace that times no request says so: the blkparse sample's one C pairs
 * with no D of its sector and size, so its device figures are n/a (JSON
 * null, an empty CSV cell), never a measured-looking 0.0000; a trace with
 * no C at all says that; one whose C pairs with its D is timed. */
static void trace_stats_says_when_requests_are_not_timed(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/blkparse-sample.txt", NULL), 0);
  assert_null(strstr(out, "0.0000"));
  assert_non_null(strstr(out, "\ndevice_ms_per_mib               n/a\n"));
  assert_non_null(strstr(out, "\nrequest times: none timed (1 C event, none paired with a D of the same sector and "
                              "size)\n"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/blkparse-sample.txt", "--format", "json", NULL), 0);
  assert_non_null(strstr(out, "\"device_ms_per_mib\": null,\n"));
  assert_non_null(strstr(out, "\"device_mean_us\": null,\n"));
  assert_non_null(strstr(out, "\"device_latency_us_hist\": null\n"));
  assert_non_null(strstr(out, "\"mib_before_large_bio\": null,\n")); /* the table's "none": no bio over 1 MiB */
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/blkparse-sample.txt", "--format", "csv", NULL), 0);
  assert_non_null(strstr(out, ",mib_before_large_bio,device_ms_per_mib,device_mean_us,max_in_flight,meta_bios,"));
  assert_non_null(strstr(out, ",2,,,,,1,1,0.0156\n")); /* threads 2, then mib_before_large_bio n/a too: no bio over 1 MiB */
  g_free(out), g_free(err);
  const char *qd = "  8,0  0  1  0.000100000  1001  Q  RA 2048 + 256 [fio]\n"
                   "  8,0  0  2  0.000200000  1001  D  RA 2048 + 256 [fio]\n";
  g_autofree char *no_c = test_tempfile("no-c.txt", qd);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", no_c, NULL), 0);
  assert_true(g_str_has_suffix(out, "\n\nrequest times: not in this trace (no C events)\n"));
  assert_null(strstr(out, "device_ms_per_mib"));
  g_free(out), g_free(err);
  g_autofree char *text = g_strconcat(qd, "  8,0  0  3  0.000600000  0  C  RA 2048 + 256 [0]\n", NULL);
  g_autofree char *timed = test_tempfile("timed.txt", text);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", timed, NULL), 0);
  g_autofree char *mean = g_strdup_printf("\n%-22s %12s\n", "device_mean_us", "400.0000"); /* 0.0002 s -> 0.0006 s */
  assert_non_null(strstr(out, mean));
  assert_non_null(strstr(out, "\nrequest times (us from: requests): 256:1\n"));
}

/* The ratio column (the last) of METRIC in a `compare --format csv` output. */
static double compare_ratio(const char *out, const char *metric) { return test_csv_cell(out, metric, -1); }

/* workloads/linux-6.18-btrfs.ini, unchanged, against every 4-thread capture
 * at 4096 KiB (the two older ones and the thread captures' three repeats):
 * data bios and requests per MiB inside the real min..max, which is wide
 * (0.135..1.159 bios/MiB: how scattered the free memory was).  A known miss
 * since cpu.wake_affine was read correctly (docs/validation.md, "Where woken
 * readers run"): the 4 MiB race is too strong.  The shipped scenario is
 * calibrate's output of the thread captures' one-thread runs (issue 36,
 * scripts/update-shipped); seed 1 gives 2.473 bios and 3.057 requests per
 * MiB against tops of 1.159 and 1.856 (the hand-made host before it: 1.208
 * and 1.891); held within 2.2 times the top (a ratchet: it fails if the miss
 * grows).  It was 1.346 and 1.998, held within 1.2 times, until calibrate read
 * the device's rate off its loaded busy periods (2026-12-07: this host's
 * bandwidth 1064M -> 1284M; seeds 1..8 gave 1.21-2.58 bios/MiB before, 1.88-2.67
 * after), kept because it holds 342 of 550 predicted rows over 96 sessions
 * against 322 (docs/notebook/2026-12-07-loaded-rate.md).  With an
 * older capture's own scattered memory in place of the scenario's freed
 * pages, the simulation reads as much before its first bio over 1 MiB. */
static void linux_618_scenario_inside_the_real_spread(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  const char *b = "tests/data/kernel-6.18-btrfs-threads/blocks/";
  g_autofree char *r1 = g_strconcat(b, "ra4096-j4-rep1.ftrace.txt.gz", NULL);
  g_autofree char *r2 = g_strconcat(b, "ra4096-j4-rep2.ftrace.txt.gz", NULL);
  g_autofree char *r3 = g_strconcat(b, "ra4096-j4-rep3.ftrace.txt.gz", NULL);
  int rc = test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs4.ftrace.txt.gz",
                      "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz", r1, r2, r3,
                      "workloads/linux-6.18-btrfs.ini", "--set", "readahead.read_ahead_kb=4096", "--format", "csv", NULL);
  if (rc) fail_msg("compare: exit %d: %s", rc, err);
  const char *metrics[] = {"bios_per_mib", "requests_per_mib"};
  for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++) {
    double lo = test_csv_cell(out, metrics[m], 2), hi = test_csv_cell(out, metrics[m], 3);
    double sim = test_csv_cell(out, metrics[m], 4);
    if (sim < lo || sim > hi * 2.2)
      fail_msg("%s: simulated %.3f outside the real %.3f..%.3f (up to 2.2x its top, a known miss)", metrics[m], sim,
               lo, hi);
  }
  g_free(out), g_free(err);
  rc = test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs4.ftrace.txt.gz",
                  "workloads/linux-6.18-btrfs.ini", "--set", "memory.pcp_freed=0", "--set", "memory.scattered=90432k",
                  "--format", "csv", NULL);
  assert_int_equal(rc, 0);
  double ratio = compare_ratio(out, "mib_before_large_bio");
  if (ratio < 0.9 || ratio > 1.2) fail_msg("mib_before_large_bio ratio %.3f", ratio);
}

/* What sets the two captures apart: both have four fio threads; the 4-job
 * one read 88.3 MiB before its first bio over 1 MiB, the 1-job one 1.6 MiB.
 * The table says which --set matches the trace when the scenario does not:
 * the threads first, the free memory once they match (the MiB read before
 * the first bio over 1 MiB, the trace's against the simulation's). */
static void traces_show_threads_and_scattered_memory(void **state) {
  PcsKtrace t;
  load(&t, "tests/data/kernel-6.18-btrfs/ra4096-jobs4.ftrace.txt.gz");
  assert_int_equal(t.c.threads, 4);
  assert_int_equal(t.large.sectors_before, 180864); /* 88.3125 MiB */
  pcs_ktrace_clear(&t);
  load(&t, "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz");
  assert_int_equal(t.c.threads, 4);
  assert_int_equal(t.large.sectors_before, 256 + 1024 + 2048);
  pcs_ktrace_clear(&t);

  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz",
                              "workloads/linux-6.18-btrfs.ini", "--set", "workload.threads=1", NULL), 0);
  assert_non_null(strstr(out, "note: the trace ran 4 threads (tasks that queued data bios), the simulation 1\n"));
  assert_non_null(strstr(out, "compare again with --set workload.threads=4 before reading anything finer"));
  assert_null(strstr(out, "memory.scattered")); /* the finer note waits for the threads to match */
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs1.ftrace.txt.gz",
                              "workloads/linux-6.18-btrfs.ini", NULL), 0);
  assert_non_null(strstr(out, "\nnote: the trace read 1.6 MiB before its first bio over 1 MiB, the simulation 13.5 MiB: "
                              "the scenario's free memory (memory.buddyinfo, memory.pcp_freed) is not the trace's"));
  g_free(out), g_free(err);
  /* pcsim's own trace against the scenario that wrote it: the same memory, no note */
  g_autofree char *dir = test_tempdir(), *own = g_build_filename(dir, "own.ftrace.txt", NULL);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/linux-6.18-btrfs.ini", "--policy", "window", "--set",
                              "workload.file_size=200M", "--ftrace", own, NULL), 0);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "compare", own, "workloads/linux-6.18-btrfs.ini", "--set",
                              "workload.file_size=200M", NULL), 0);
  assert_null(strstr(out, "note:"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "compare", "tests/data/kernel-6.18-btrfs/ra4096-jobs4.ftrace.txt.gz",
                              "workloads/linux-6.18-btrfs.ini", "--set", "memory.scattered=90432k", NULL), 0);
  assert_null(strstr(out, "note:"));
}

/* The capture script needs root and tracefs; without tracefs it must say so. */
static void capture_script_refuses_without_tracefs(void **state) {
  g_autofree char *script = test_path("scripts/capture-kernel-trace");
  g_autofree char *job = test_path("workloads/liubo-2011.fio");
  g_autofree char *dir = test_tempdir();
  char *argv[] = {"bash", script, "--job", job, "--out", dir, "--loop-btrfs", "1G", "--tracefs", "/nonexistent", NULL};
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
  assert_non_null(strstr(err, "no tracefs"));
}

/* --loop-fs picks the file system of the loop device (btrfs, ext4 or xfs) and
 * needs --loop-size; --loop-btrfs SIZE stays their shorthand; the job as run
 * loses its directory= with any of them.  Bad combinations exit 2, before
 * anything is set up. */
static void capture_script_takes_a_loop_file_system(void **state) {
  g_autofree char *script = test_path("scripts/capture-kernel-trace");
  g_autofree char *job = test_path("tests/data/kernel-6.18-btrfs/job.fio");
  g_autofree char *dir = test_tempdir();
  const struct {
    const char *args[4];
    const char *err; /* NULL: exits 0 */
  } cases[] = {
    {{"--loop-fs", "zfs", "--loop-size", "1G"}, "--loop-fs: 'zfs' is not btrfs, ext4 or xfs\n"},
    {{"--loop-fs", "ext4", NULL}, "--loop-fs ext4 needs --loop-size SIZE"},
    {{"--settle", "2.5", "--loop-btrfs", "1G"}, "--settle: '2.5' is not a whole number of seconds\n"},
    {{"--loop-size", "1G", "--device", "/dev/null"}, "give --loop-size SIZE or --device DEV, not both\n"},
    {{"--mkfs-options", "-n 4k", "--device", "/dev/null"}, "--mkfs-options needs --loop-size"},
    {{NULL}, "give --loop-fs FS --loop-size SIZE (or --loop-btrfs SIZE) or --device DEV\n"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GPtrArray *argv = g_ptr_array_new();
    const char *head[] = {"bash", script, "--job", job, "--out", dir};
    for (gsize a = 0; a < G_N_ELEMENTS(head); a++) g_ptr_array_add(argv, (gpointer)head[a]);
    for (gsize a = 0; a < G_N_ELEMENTS(cases[i].args) && cases[i].args[a]; a++) g_ptr_array_add(argv, (gpointer)cases[i].args[a]);
    g_ptr_array_add(argv, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int status = 0;
    assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
    g_ptr_array_free(argv, TRUE);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 || !strstr(err, cases[i].err))
      fail_msg("case %zu: exit %d, not 2 with '%s':\n%s", i, WEXITSTATUS(status), cases[i].err, err);
  }
  for (int fs = 0; fs < 3; fs++) {
    char *argv[] = {"bash", script, "--job", job, "--loop-fs", (char *[]){"btrfs", "ext4", "xfs"}[fs],
                    "--loop-size", "1G", "--print-job", NULL};
    g_autofree char *out = NULL, *err = NULL;
    int status = 0;
    assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_null(strstr(out, "directory"));
    assert_non_null(strstr(out, "size=1000M"));
  }
  g_autofree char *help = NULL, *err = NULL;
  char *argv[] = {"bash", script, "--help", NULL};
  int status = 0;
  assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &help, &err, &status, NULL));
  assert_non_null(strstr(help, "--loop-btrfs SIZE  the same as --loop-fs btrfs --loop-size SIZE\n"));
  assert_non_null(strstr(help, "the BLOCK DEVICE's bdi for"));
}

/* Why the "1-job" capture ran four threads, and what the script does about
 * it: fio applies command-line options as defaults the job file overrides,
 * so --numjobs (and --directory with --loop-btrfs) must leave the job file. */
static void capture_script_takes_numjobs_out_of_the_job_file(void **state) {
  g_autofree char *script = test_path("scripts/capture-kernel-trace");
  g_autofree char *job = test_path("tests/data/kernel-6.18-btrfs/job.fio");
  char *with[] = {"bash", script, "--job", job, "--numjobs", "1", "--loop-btrfs", "1G", "--print-job", NULL};
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  assert_true(g_spawn_sync(NULL, with, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_null(strstr(out, "numjobs"));
  assert_null(strstr(out, "directory"));
  assert_non_null(strstr(out, "size=1000M"));
  g_free(out), g_free(err);
  char *without[] = {"bash", script, "--job", job, "--print-job", NULL};
  assert_true(g_spawn_sync(NULL, without, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_non_null(strstr(out, "numjobs=4"));

  g_autofree char *fio = g_find_program_in_path("fio");
  if (!fio) {
    print_message("skipped the fio part: fio is not installed (apt-get install fio)\n");
    return;
  }
  /* the shared job, shrunk, run as the captures were: fio --numjobs=1 job.fio */
  g_autofree char *dir = test_tempdir();
  g_autofree char *text = g_strdup_printf("[global]\ngroup_reporting\nthread\nnumjobs=4\nbs=32k\nrw=read\n"
                                          "ioengine=sync\ndirectory=%s\n\n[READ]\nfilename=foobar\nsize=64k\n", dir);
  g_autofree char *small = g_build_filename(dir, "job.fio", NULL);
  assert_true(g_file_set_contents(small, text, -1, NULL));
  char *run[] = {fio, "--numjobs=1", "--output-format=json", small, NULL};
  g_free(out), g_free(err);
  assert_true(g_spawn_sync(dir, run, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* group_reporting sums the threads: 4 x 64 KiB were read, not 1 x 64 KiB */
  const char *read = strstr(out, "\"read\" : {");
  assert_non_null(read);
  if (!strstr(read, "\"io_kbytes\" : 256,")) fail_msg("fio did not run four threads:\n%s", out);
}

/* A mechanism capture (readahead, insert and complete events) gives every
 * mechanism key in `trace-stats --format json`, a blocks-only capture none;
 * `compare` on it shows each one real and simulated, with the per-thread
 * list and the latency histogram entry by entry; `pcsim run --format json`
 * prints the same keys. */
#define MECH_TRACE "tests/data/kernel-6.18-btrfs-threads/mechanism/ra4096-j4-rep1.ftrace.txt.gz"
static void mechanism_metrics_in_trace_stats_compare_and_run(void **state) {
  static const char *const keys[] = {"ra_sync", "ra_async", "inserts", "owner_changes_per_mib", "contiguous_frames",
                                     "device_ms_per_mib", "device_mean_us", "max_in_flight"};
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", MECH_TRACE, "--format", "json", NULL), 0);
  /* the README's mechanism table for ra4096-j4: 10 sync, 155 async readaheads */
  assert_non_null(strstr(out, "\"ra_sync\": 10,\n"));
  assert_non_null(strstr(out, "\"ra_async\": 155,\n"));
  assert_non_null(strstr(out, "\"owner_changes_per_mib\": 0.1"));
  assert_non_null(strstr(out, "\"contiguous_frames\": 0.93"));
  assert_non_null(strstr(out, "\"inserted_mib_per_thread\": ["));
  assert_non_null(strstr(out, "\"device_latency_us_hist\": [0, 0, 0, 0, 0, 0, 0, 4, "));
  /* btrfs inserts order-0 folios only: folios and pages are one count */
  assert_non_null(strstr(out, "\"inserts\": 256000,\n  \"inserted_pages\": 256000,\n"));
  assert_non_null(strstr(out, "\"inserts_by_order\": {\"0\": 256000}"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "tests/data/kernel-6.18-btrfs-threads/blocks/"
                              "ra128-j1-rep1.ftrace.txt.gz", "--format", "json", NULL), 0);
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    if (strstr(out, keys[i])) fail_msg("a blocks-only trace printed %s:\n%s", keys[i], out);
  assert_null(strstr(out, "inserted_mib_per_thread"));
  g_free(out), g_free(err);

  assert_int_equal(test_pcsim(&out, &err, "compare", MECH_TRACE, "workloads/linux-6.18-btrfs.ini", "--set",
                              "workload.file_size=64M", "--format", "csv", NULL), 0);
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
    g_autofree char *row = g_strdup_printf("\n%s,", keys[i]);
    if (!strstr(out, row)) fail_msg("compare has no %s row:\n%s", keys[i], out);
  }
  assert_non_null(strstr(out, "\ninserts,256000,16384,"));
  assert_non_null(strstr(out, "\ninserted_pages,256000,16384,")); /* the model's folios are order 0 */
  for (int k = 0; k < 4; k++) {
    g_autofree char *row = g_strdup_printf("\ninserted_mib_per_thread[%d],", k);
    assert_non_null(strstr(out, row));
  }
  assert_null(strstr(out, "inserted_mib_per_thread[4]"));
  assert_non_null(strstr(out, "\ndevice_latency_us_hist[12],427,"));
  g_free(out), g_free(err);

  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/linux-6.18-btrfs.ini", "--set", "workload.file_size=64M",
                              "--format", "json", NULL), 0);
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
    g_autofree char *key = g_strdup_printf("\"%s\": ", keys[i]);
    if (!strstr(out, key)) fail_msg("pcsim run --format json has no %s", keys[i]);
  }
  assert_non_null(strstr(out, "\"inserts\": 16384,"));
  assert_non_null(strstr(out, "\"inserted_mib_per_thread\": ["));
  assert_non_null(strstr(out, "\"device_latency_us_hist\": ["));
}

/* ext4 on Linux 6.18 reads ahead in large folios: trace-stats counts the
 * inserts as the tracepoint does, one per mm_filemap_add_to_page_cache line
 * (folios), with the pages beside them and the folios by order: one thread
 * of the 1000M job inserts 4028 folios at read_ahead_kb 128 (one order-6
 * folio per 256 KiB window after the ramp) and 589 at 4096 (four order-9
 * folios per 8 MiB window), 256000 pages either way. */
static void trace_stats_counts_ext4_folios_and_their_pages(void **state) {
  static const struct {
    const char *trace, *json, *table, *bios;
  } want[] = {
    {"tests/data/kernel-6.18-ext4/mechanism/ra128-j1-rep1.ftrace.txt.gz",
     "\"inserts\": 4028,\n  \"inserted_pages\": 256000,\n",
     "\"inserts_by_order\": {\"0\": 16, \"2\": 8, \"4\": 5, \"5\": 2, \"6\": 3997}", "\"bios_per_mib\": 4.0030,\n"},
    {"tests/data/kernel-6.18-ext4/mechanism/ra4096-j1-rep1.ftrace.txt.gz",
     "\"inserts\": 589,\n  \"inserted_pages\": 256000,\n",
     "\"inserts_by_order\": {\"0\": 32, \"2\": 32, \"4\": 16, \"5\": 1, \"6\": 7, \"7\": 1, \"8\": 4, \"9\": 496}",
     "\"bios_per_mib\": 0.1300,\n"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "trace-stats", want[i].trace, "--format", "json", NULL), 0);
    if (!strstr(out, want[i].json) || !strstr(out, want[i].table) || !strstr(out, want[i].bios))
      fail_msg("%s:\n%s", want[i].trace, out);
  }
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", want[0].trace, NULL), 0);
  assert_non_null(strstr(out, "\ninserts                        4028\ninserted_pages               256000\n"));
  assert_non_null(strstr(out, "\ninserts by order (order: folios): 0:16 2:8 4:5 5:2 6:3997\n"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(shared_traces_give_their_readme_counts),
    cmocka_unit_test(blkparse_text_counts_q_and_d),
    cmocka_unit_test(bad_traces_are_refused),
    cmocka_unit_test(trace_stats_and_compare_from_the_cli),
    cmocka_unit_test(trace_stats_says_when_requests_are_not_timed),
    cmocka_unit_test(mechanism_metrics_in_trace_stats_compare_and_run),
    cmocka_unit_test(trace_stats_counts_ext4_folios_and_their_pages),
    cmocka_unit_test(linux_618_scenario_inside_the_real_spread),
    cmocka_unit_test(traces_show_threads_and_scattered_memory),
    cmocka_unit_test(capture_script_refuses_without_tracefs),
    cmocka_unit_test(capture_script_takes_numjobs_out_of_the_job_file),
    cmocka_unit_test(capture_script_takes_a_loop_file_system),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
