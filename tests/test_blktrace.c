/* test_blktrace.c - `pcsim run --blktrace DIR`: real blktrace files that
 * blkparse and btt read with the counts pcsim printed. */
#include "support.h"

#include <glib/gstdio.h>
#include <math.h>

/* Column NAME of POLICY's row in pcsim's CSV. */
static double csv_cell(const char *csv, const char *policy, const char *name) {
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  char **header = NULL;
  for (char **l = lines; *l; l++) {
    if (**l == '#' || !**l) continue;
    g_auto(GStrv) cells = g_strsplit(*l, ",", -1);
    if (!header) {
      header = g_steal_pointer(&cells);
      continue;
    }
    if (strcmp(cells[0], policy)) continue;
    for (guint i = 0; header[i] && cells[i]; i++)
      if (!strcmp(header[i], name)) {
        double v = g_ascii_strtod(cells[i], NULL);
        g_strfreev(header);
        return v;
      }
  }
  g_strfreev(header);
  fail_msg("no column %s for %s in\n%s", name, policy, csv);
  return 0;
}

/* bios and requests of POLICY from pcsim's CSV. */
static void counts(const char *csv, const char *policy, uint64_t *bios, uint64_t *requests) {
  *bios = (uint64_t)csv_cell(csv, policy, "bios");
  *requests = (uint64_t)csv_cell(csv, policy, "requests");
}

/* btt's "All Devices" row NAME: its average (seconds) and N. */
static void btt_row(const char *report, const char *name, double *avg, uint64_t *n) {
  g_auto(GStrv) lines = g_strsplit(report, "\n", -1);
  for (char **l = lines; *l; l++) {
    g_auto(GStrv) w = g_strsplit_set(g_strstrip(*l), " ", -1);
    const char *f[5] = {0};
    guint k = 0;
    for (char **x = w; *x && k < 5; x++)
      if (**x) f[k++] = *x;
    if (k == 5 && !strcmp(f[0], name)) {
      *avg = g_ascii_strtod(f[2], NULL);
      *n = g_ascii_strtoull(f[4], NULL, 10);
      return;
    }
  }
  fail_msg("btt: no %s row in\n%s", name, report);
}

/* Event lines of blkparse: "  8,0  CPU  SEQ  TIME  PID  ACTION  RWBS ..." */
static uint64_t count_action(const char *text, const char *action) {
  uint64_t n = 0;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++) {
    g_auto(GStrv) w = g_strsplit_set(g_strstrip(*l), " ", -1);
    guint k = 0;
    const char *f[7] = {0};
    for (char **x = w; *x && k < 7; x++)
      if (**x) f[k++] = *x;
    if (k == 7 && !strcmp(f[0], "8,0") && !strcmp(f[5], action)) n++;
  }
  return n;
}

/* pcsim run --blktrace DIR with a slow queue-depth-1 device, which keeps
 * requests queued so bios merge (M); the CSV report is returned.  These
 * tests are about the blktrace files, not the seed: they run the old
 * calibration (liubo-2011-calibrated.ini), whose 128 KiB windows give bio
 * merges (M, F) on this device and one bio per request on a deep queue.
 * The honest seed merges whole requests at insert instead, which the next
 * test reads. */
static char *run_blktrace(const char *dir) {
  char *out = NULL;
  g_autofree char *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011-calibrated.ini", "--set", "workload.file_size=16M", "--set",
                      "device.queue_depth=1", "--set", "cpu.count=4", "--set", "device.latency=200us", "--policy", "immediate", "--policy",
                      "pool:16", "--format", "csv", "--blktrace", dir, NULL);
  if (rc != 0) fail_msg("pcsim run --blktrace: exit %d: %s", rc, err);
  return out;
}

static const char *const names[] = {"immediate", "pool-16"}, *const policies[] = {"immediate", "pool:16"};

static void blktrace_writes_one_file_per_cpu(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = run_blktrace(dir);
  assert_non_null(strstr(out, "\npool:16,")); /* the run's CSV still goes to stdout */
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    for (int cpu = 0; cpu < 4; cpu++) {
      g_autofree char *f = g_strdup_printf("%s/%s.blktrace.%d", dir, names[i], cpu);
      g_autofree char *data = NULL;
      gsize len = 0;
      assert_true(g_file_get_contents(f, &data, &len, NULL));
      assert_true(len >= 48);
      assert_memory_equal(data, "\x07\x74\x61\x65", 4); /* 0x65617407, little-endian */
    }
  }
}

/* blkparse and btt, run in the temporary directory (btt writes its .dat
 * files into the current directory), count what pcsim printed. */
static void blkparse_and_btt_count_what_pcsim_printed(void **state) {
  g_autofree char *blkparse = g_find_program_in_path("blkparse"), *btt = g_find_program_in_path("btt");
  if (!blkparse || !btt) {
    print_message("skipped: blkparse or btt is not installed (apt-get install blktrace)\n");
    skip();
  }
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = run_blktrace(dir);
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    uint64_t bios, requests;
    counts(out, policies[i], &bios, &requests);
    char *parse[] = {blkparse, "-i", (char *)names[i], "-D", dir, NULL};
    g_autofree char *text = test_tool(dir, parse);
    assert_int_equal(count_action(text, "Q"), bios);
    assert_int_equal(count_action(text, "D"), requests);
    assert_int_equal(count_action(text, "C"), requests);
    assert_true(i == 1 || count_action(text, "M") + count_action(text, "F") > 0);
    g_autofree char *bin = g_strdup_printf("%s/%s.bin", dir, names[i]);
    char *dump[] = {blkparse, "-i", (char *)names[i], "-D", dir, "-d", bin, "-O", NULL};
    g_free(test_tool(dir, dump));
    char *btt_argv[] = {btt, "-i", bin, NULL};
    g_autofree char *report = test_tool(dir, btt_argv);
    g_autofree char *want = g_strdup_printf("| %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %7.1f |", bios, requests,
                                            (double)bios / (double)requests);
    if (!strstr(report, want)) fail_msg("btt: no '%s' in\n%s", want, report);
  }
}

/* With several simulated CPUs, each request's Q, G, I and D share a
 * nanosecond when the submitting task runs the queue; blkparse must still
 * see them in causal order, so btt pairs every request (D2C) and every bio
 * (Q2C), and its mean D2C is pcsim's device_mean_us (block_rq_issue ->
 * block_rq_complete). */
static void btt_pairs_every_request_across_cpus(void **state) {
  g_autofree char *blkparse = g_find_program_in_path("blkparse"), *btt = g_find_program_in_path("btt");
  if (!blkparse || !btt) {
    print_message("skipped: blkparse or btt is not installed (apt-get install blktrace)\n");
    skip();
  }
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011-calibrated.ini", "--set", "workload.file_size=16M", "--set",
                      "cpu.count=4", "--set", "device.queue_depth=32", "--policy", "immediate", "--policy", "pool:16",
                      "--format", "csv", "--blktrace", dir, NULL);
  if (rc != 0) fail_msg("pcsim run --blktrace: exit %d: %s", rc, err);
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    uint64_t bios, requests;
    counts(out, policies[i], &bios, &requests);
    assert_int_equal(bios, requests); /* no merges here: one bio per request */
    g_autofree char *bin = g_strdup_printf("%s/%s.bin", dir, names[i]);
    char *dump[] = {blkparse, "-i", (char *)names[i], "-D", dir, "-d", bin, "-O", NULL};
    g_free(test_tool(dir, dump));
    char *btt_argv[] = {btt, "-i", bin, NULL};
    g_autofree char *report = test_tool(dir, btt_argv);
    double d2c, q2c;
    uint64_t nd2c, nq2c;
    btt_row(report, "D2C", &d2c, &nd2c);
    btt_row(report, "Q2C", &q2c, &nq2c);
    assert_int_equal(nd2c, requests);
    assert_int_equal(nq2c, bios);
    double mean_us = csv_cell(out, policies[i], "device_mean_us");
    if (fabs(d2c * 1e6 - mean_us) > 0.01) fail_msg("btt mean D2C %.6f us, pcsim device_mean_us %.4f", d2c * 1e6, mean_us);
  }
}

/* Records of every action in the files DIR/NAME.blktrace.* (struct
 * blk_io_trace: 48 bytes, action at offset 28, pdu_len at 46), by the
 * low 16 bits of the action: 1 Q, 2 M, 3 F, 4 G, 7 D, 8 C, 12 I. */
static void count_records(const char *dir, const char *name, uint64_t counts[16]) {
  memset(counts, 0, 16 * sizeof *counts);
  for (int cpu = 0;; cpu++) {
    g_autofree char *f = g_strdup_printf("%s/%s.blktrace.%d", dir, name, cpu), *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(f, &data, &len, NULL)) {
      assert_true(cpu > 0);
      return;
    }
    for (gsize at = 0; at + 48 <= len;) {
      const guint8 *r = (const guint8 *)data + at;
      uint32_t action = r[28] | r[29] << 8 | (uint32_t)r[30] << 16 | (uint32_t)r[31] << 24;
      if (!(action & (1u << 26))) counts[action & 0xf]++; /* not a note (BLK_TC_NOTIFY) */
      at += 48 + (r[46] | r[47] << 8);
    }
  }
}

/* The seed (v3.5, CFQ) at 256 MiB under pool:16 merges 200 of its 1573
 * bios by merging whole requests at insert: 1373 requests leave.  Each bio
 * is written as the kernel writes a bio: Q, then G (it starts a request) or
 * M (it joined one), never both; each request has one G, I, D and C.  btt
 * reads that: Q2G and I2D once per request, Q2M once per merged bio, and
 * D2C and Q2C, which btt times per IO, once per bio. */
static void merged_bios_are_m_and_requests_are_counted_once(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--policy", "pool:16", "--set",
                      "workload.file_size=256M", "--format", "csv", "--blktrace", dir, NULL);
  if (rc != 0) fail_msg("pcsim run --blktrace: exit %d: %s", rc, err);
  uint64_t bios, requests, n[16];
  counts(out, "pool:16", &bios, &requests);
  assert_int_equal(bios, 1573);
  assert_int_equal(requests, 1373);
  count_records(dir, "pool-16", n);
  assert_int_equal(n[1], 1573);       /* Q */
  assert_int_equal(n[2] + n[3], 200); /* M + F */
  assert_int_equal(n[4], 1373);       /* G */
  assert_int_equal(n[12], 1373);      /* I */
  assert_int_equal(n[7], 1373);       /* D */
  assert_int_equal(n[8], 1373);       /* C */
  g_autofree char *blkparse = g_find_program_in_path("blkparse"), *btt = g_find_program_in_path("btt");
  if (!blkparse || !btt) {
    print_message("btt not run: blkparse or btt is not installed (apt-get install blktrace)\n");
    return;
  }
  char *parse[] = {blkparse, "-i", "pool-16", "-D", dir, NULL};
  g_autofree char *text = test_tool(dir, parse);
  assert_int_equal(count_action(text, "Q"), 1573);
  assert_int_equal(count_action(text, "M"), 200);
  assert_int_equal(count_action(text, "G"), 1373);
  assert_int_equal(count_action(text, "D"), 1373);
  g_autofree char *bin = g_build_filename(dir, "pool-16.bin", NULL);
  char *dump[] = {blkparse, "-i", "pool-16", "-D", dir, "-d", bin, "-O", NULL};
  g_free(test_tool(dir, dump));
  char *btt_argv[] = {btt, "-i", bin, NULL};
  g_autofree char *report = test_tool(dir, btt_argv);
  struct { const char *row; uint64_t n; } want[] = {{"Q2G", 1373}, {"G2I", 1373}, {"I2D", 1373}, {"Q2M", 200},
                                                   {"M2D", 200}, {"D2C", 1573}, {"Q2C", 1573}};
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    double avg;
    uint64_t got;
    btt_row(report, want[i].row, &avg, &got);
    if (got != want[i].n) fail_msg("btt %s: N %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, want[i].row, got, want[i].n);
  }
  if (!strstr(report, "|     1573     1373     1.1 |")) fail_msg("btt: #Q 1573, #D 1373 not in\n%s", report);
}

static void blktrace_into_a_file_is_refused(void **state) {
  g_autofree char *file = test_tempfile("plain", "x");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--blktrace", file, NULL), 2);
  assert_non_null(strstr(err, "not a directory"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(blktrace_writes_one_file_per_cpu),
    cmocka_unit_test(blkparse_and_btt_count_what_pcsim_printed),
    cmocka_unit_test(btt_pairs_every_request_across_cpus),
    cmocka_unit_test(merged_bios_are_m_and_requests_are_counted_once),
    cmocka_unit_test(blktrace_into_a_file_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
