/* test_validation.c - pcsim's Linux 6.18 scenario against the four shared
 * real captures (tests/data/kernel-6.18-btrfs-threads/), as issue 14's
 * "Done when" states them.
 *
 * Runs scripts/validate-6.18 --out on the four configurations (the same
 * script and figures as docs/validation.md's table): each capture's own fio
 * job through `pcsim run JOB --model workloads/linux-6.18-btrfs.ini --set
 * readahead.read_ahead_kb=K`, seeds 1..21, against `pcsim trace-stats` of the
 * three block repeats and fio's JSON.  Then asserts what a user comparing
 * the two would check:
 * - data bios/MiB, requests/MiB and fio's aggregate MiB/s: pcsim's median
 *   within 25% of the real median, or inside the real min..max, all four rows;
 * - the thread trend: bios/MiB and owner_changes_per_mib rise from 1 to 4
 *   threads at 128 KiB (by at least half the real rise), ra_sync stays at
 *   the file's first read with one thread and, with four, at 128 KiB and at
 *   4 MiB, is within a factor of 2 of the real mechanism run's (owner
 *   changes too).
 * The model does not meet all of it yet.  KNOWN_MISSES lists what it misses
 * today, each with the bound it stays inside (a ratchet: a known miss that
 * grows fails, and one that comes within the goal fails too, until it is
 * taken off the list).  docs/validation.md, "Known misses, and why", says why
 * each one misses.  21 seeds, not 3 or 9: four threads at 4 MiB race or
 * not from seed to seed (on the hand-made host before: 0.21 to 1.22 bios/MiB over seeds 1..21, as the real
 * repeats spread 0.36 to 1.16), and the median of a few seeds moves with
 * them (seeds 1..5 and 1..9: 0.375, 1..21: 0.386).
 * And --session-costs, the diagnostic of docs/validation.md ("Each session's
 * insert path"), on the dec04 session's bs=1M four-thread row; and another
 * host's scenario, calibrated from its one-thread captures only, on that
 * host's 2, 4 and 8 thread rows (docs/notebook/hosts/dec06-handmade.ini).
 */
#include "support.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

static const char *const CONFIGS[] = {"ra128-j1", "ra128-j4", "ra4096-j1", "ra4096-j4"};
#define NCONFIGS G_N_ELEMENTS(CONFIGS)

static char **header;      /* validation.csv's column names */
static char **rows[NCONFIGS]; /* its row of each of CONFIGS */

static int validate_setup(void **state) {
  (void)state;
  g_autofree char *dir = test_tempdir();
  g_autofree char *script = test_path("scripts/validate-6.18");
  char *argv[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--out", dir, "--seeds", "21", "--fixtures",
                  "tests/data/kernel-6.18-btrfs-threads", "--only",
                  "ra128-j1,ra128-j4,ra4096-j1,ra4096-j4", NULL};
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL)) return -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    print_error("scripts/validate-6.18 failed:\n%s%s", out, err);
    return -1;
  }
  g_autofree char *path = g_build_filename(dir, "validation.csv", NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return -1;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  header = g_strsplit(lines[0], ",", -1);
  for (gsize i = 1; lines[i] && *lines[i]; i++) {
    char **fields = g_strsplit(lines[i], ",", -1);
    for (gsize c = 0; c < NCONFIGS; c++)
      if (g_strv_length(fields) > 1 && !strcmp(fields[1], CONFIGS[c]) && !rows[c]) {
        rows[c] = fields;
        fields = NULL;
        break;
      }
    g_strfreev(fields);
  }
  return 0;
}

static int validate_teardown(void **state) {
  (void)state;
  g_strfreev(header);
  for (gsize c = 0; c < NCONFIGS; c++) g_strfreev(rows[c]);
  return 0;
}

/* The value of COLUMN in CONFIG's row; fails the test when there is none. */
static double value(const char *config, const char *column) {
  gsize c = 0;
  while (c < NCONFIGS && strcmp(CONFIGS[c], config)) c++;
  if (c == NCONFIGS || !rows[c]) fail_msg("validation.csv has no row %s", config);
  for (gsize i = 0; header[i]; i++)
    if (!strcmp(header[i], column)) {
      if (i >= g_strv_length(rows[c]) || !*rows[c][i]) fail_msg("%s: no %s", config, column);
      return g_ascii_strtod(rows[c][i], NULL);
    }
  fail_msg("validation.csv has no column %s", column);
  return 0;
}

/* One metric's columns in validation.csv: real median, min, max; pcsim's median. */
typedef struct {
  const char *name, *real, *real_min, *real_max, *sim;
} Metric;

static const Metric METRICS[] = {
  {"data bios/MiB", "real_bios_per_mib", "real_bios_min", "real_bios_max", "sim_bios_per_mib"},
  {"requests/MiB", "real_requests_per_mib", "real_requests_min", "real_requests_max", "sim_requests_per_mib"},
  {"aggregate MiB/s", "real_mib_s", "real_mib_s_min", "real_mib_s_max", "sim_mib_s"},
};

/* What the model misses today (docs/validation.md, "Known misses, and why"),
 * and how far off each may be before the test fails: the relative error of
 * pcsim's median against the real median. */
typedef struct {
  const char *config, *metric;
  double bound;
} KnownMiss;

static const KnownMiss KNOWN_MISSES[] = {
  /* Since the shipped scenario is calibrate's output of this host's two
   * one-thread captures (issue 36, scripts/update-shipped), and since
   * 2026-12-07 with the device's rate read off its loaded busy periods
   * (1284 MiB/s, no latency; before, 1064 MiB/s from the overlapping
   * requests' parallelism: docs/notebook/2026-12-07-loaded-rate.md, kept
   * because it holds 342 of 550 predicted rows over 96 sessions against 322,
   * though on this session it runs faster; validate-6.18's seeds 1..5):
   * - one thread at 128 KiB, a row calibrated on, runs at 945 MiB/s against
   *   487 (+94%; +71% before): one reader at 256 KiB windows keeps one or two
   *   requests in flight, which this host's device served behind a
   *   per-request cost (2.38x the shared time with two in flight, the
   *   bandwidth note in workloads/linux-6.18-btrfs.ini) and pcsim's share
   *   the rate (docs/validation.md);
   * - one thread at 4 MiB, calibrated on too: 1045 MiB/s against 720 (+45%;
   *   +16% before), and 0.166 bios/MiB against 0.234 (-29%, under the real
   *   0.209..0.265): fewer windows cut by scattered memory;
   * - four threads race harder than the kernel: at 128 KiB 6.74 bios/MiB
   *   against 4.84 (+39%, requests the same) at 3093 MiB/s against 1799
   *   (+72%); at 4 MiB 2.32 bios/MiB against 0.483 (+381%, over the real
   *   0.361..1.159) and 2.90 requests/MiB against 1.19 (+144%).
   * The hand-made host before it (docs/notebook/hosts/linux-6.18-btrfs-handmade.ini,
   * fitted to these one-thread rows by hand and to one wake-up measure of
   * three four-thread runs) missed only the four-thread 4 MiB MiB/s. */
  {"ra128-j1", "aggregate MiB/s", 1.0},
  {"ra128-j4", "data bios/MiB", 0.45},
  {"ra128-j4", "requests/MiB", 0.45},
  {"ra128-j4", "aggregate MiB/s", 0.8},
  {"ra4096-j1", "data bios/MiB", 0.35},
  {"ra4096-j1", "aggregate MiB/s", 0.55},
  {"ra4096-j4", "data bios/MiB", 4.2},
  {"ra4096-j4", "requests/MiB", 1.6},
  /* Four threads at 4 MiB: 2837 MiB/s against 2045 (+39%, over the real 1895..2628: pcsim's device
   * never gets ahead of the readers as the host's did, which completed windows together and was busy
   * 45% of the mechanism run, scripts/pcsim-trace window-order and scripts/pcsim-trace window-chain). */
  {"ra4096-j4", "aggregate MiB/s", 0.5},
};

/* The entry of LIST (N entries) for CONFIG and METRIC, or NULL. */
static const KnownMiss *known_in(const KnownMiss *list, gsize n, const char *config, const char *metric) {
  for (gsize i = 0; i < n; i++)
    if (!strcmp(list[i].config, config) && !strcmp(list[i].metric, metric)) return &list[i];
  return NULL;
}

static const KnownMiss *known_miss(const char *config, const char *metric) {
  return known_in(KNOWN_MISSES, G_N_ELEMENTS(KNOWN_MISSES), config, metric);
}

/* Every metric of every shared configuration: within 25% of the real median
 * or inside the real range, or a known miss inside its bound.  All misses
 * are reported at once. */
static void shared_rows_within_25_percent(void **state) {
  (void)state;
  g_autoptr(GString) misses = g_string_new(NULL);
  for (gsize c = 0; c < NCONFIGS; c++)
    for (gsize m = 0; m < G_N_ELEMENTS(METRICS); m++) {
      double real = value(CONFIGS[c], METRICS[m].real), lo = value(CONFIGS[c], METRICS[m].real_min);
      double hi = value(CONFIGS[c], METRICS[m].real_max), sim = value(CONFIGS[c], METRICS[m].sim);
      gboolean ok = (sim >= lo && sim <= hi) || fabs(sim - real) <= 0.25 * real;
      const KnownMiss *k = known_miss(CONFIGS[c], METRICS[m].name);
      if (k && ok)
        g_string_append_printf(misses, "  %s %s: a known miss now within the goal (pcsim %.3f, real %.3f): "
                               "take it off KNOWN_MISSES\n", CONFIGS[c], METRICS[m].name, sim, real);
      if (ok || (k && fabs(sim - real) <= k->bound * real)) continue;
      g_string_append_printf(misses, "  %s %s: pcsim %.3f, real %.3f (%.3f..%.3f), %+.0f%%%s\n", CONFIGS[c],
                             METRICS[m].name, sim, real, lo, hi, 100 * (sim - real) / real,
                             k ? " (a known miss, now past its bound)" : "");
    }
  if (misses->len) fail_msg("outside 25%% of the real median and its range:\n%s", misses->str);
}

/* More threads, more bios per MiB at 128 KiB, as on the real kernel: at
 * least half the real rise from 1 to 4 threads. */
static void bios_per_mib_rise_with_threads(void **state) {
  (void)state;
  double real_rise = value("ra128-j4", "real_bios_per_mib") / value("ra128-j1", "real_bios_per_mib") - 1;
  double sim_rise = value("ra128-j4", "sim_bios_per_mib") / value("ra128-j1", "sim_bios_per_mib") - 1;
  assert_true(real_rise > 0.1); /* the fixture's own finding, or this test means nothing */
  if (sim_rise < real_rise / 2)
    fail_msg("bios/MiB from 1 to 4 threads at 128 KiB: pcsim %+.1f%%, real %+.1f%%", 100 * sim_rise, 100 * real_rise);
}

/* The race: no owner change and only the file's first (synchronous) read
 * with one thread; with four, at 128 KiB and at 4 MiB, owner changes and
 * sync readaheads within a factor of 2 of the real mechanism run's (the
 * issue's goal).  KNOWN_RACE_MISSES are the factors the shipped scenario
 * misses by today, each a ratchet: one that grows fails, and one back
 * within a factor of 2 fails too, until it is taken off.  Since the shipped
 * scenario is calibrate's output (issue 36; with the loaded device rate
 * of 2026-12-07, seeds 1..5): at 128 KiB 1130 sync readaheads against 487
 * (2.3x); at 4 MiB 2.25 owner changes/MiB against 0.147 (15x; 1.82 before)
 * and 132 sync readaheads against 10 (13x: the 4 MiB race,
 * docs/validation.md, "Known misses, and why").  The hand-made host before
 * it was within 2x on all four (0.24 and 19 at 4 MiB). */
#define RACE_FACTOR 2.0

static const KnownMiss KNOWN_RACE_MISSES[] = { /* bound: the factor */
  {"ra128-j4", "sim_ra_sync", 2.5},
  {"ra4096-j4", "sim_owner_changes_per_mib", 18},
  {"ra4096-j4", "sim_ra_sync", 15},
};

static double race_factor(const char *config, const char *column) {
  const KnownMiss *k = known_in(KNOWN_RACE_MISSES, G_N_ELEMENTS(KNOWN_RACE_MISSES), config, column);
  return k ? k->bound : RACE_FACTOR;
}

static void race_mechanism_as_real(void **state) {
  (void)state;
  assert_true(value("ra128-j1", "sim_owner_changes_per_mib") < 0.01);
  if (value("ra128-j1", "sim_ra_sync") > 2)
    fail_msg("1 thread: %.0f sync readaheads, not only the file's first read", value("ra128-j1", "sim_ra_sync"));
  const struct {
    const char *real, *sim;
  } pairs[] = {{"real_owner_changes_per_mib", "sim_owner_changes_per_mib"}, {"real_ra_sync", "sim_ra_sync"}};
  static const char *const configs[] = {"ra128-j4", "ra4096-j4"};
  g_autoptr(GString) misses = g_string_new(NULL);
  for (gsize c = 0; c < G_N_ELEMENTS(configs); c++)
    for (gsize i = 0; i < G_N_ELEMENTS(pairs); i++) {
      double real = value(configs[c], pairs[i].real), sim = value(configs[c], pairs[i].sim);
      double factor = race_factor(configs[c], pairs[i].sim);
      assert_true(real > 0.1); /* the real race is in the mechanism run */
      if (sim < real / factor || sim > real * factor)
        g_string_append_printf(misses, "  4 threads, %s: %s %.3f, real %.3f (factor %.1f)\n", configs[c], pairs[i].sim,
                               sim, real, factor);
      else if (factor > RACE_FACTOR && sim >= real / RACE_FACTOR && sim <= real * RACE_FACTOR)
        g_string_append_printf(misses, "  4 threads, %s: %s %.3f within a factor of %.0f of the real %.3f: a known "
                               "miss no more, take it off KNOWN_RACE_MISSES\n", configs[c], pairs[i].sim, sim,
                               RACE_FACTOR, real);
    }
  if (value("ra128-j4", "sim_owner_changes_per_mib") <= value("ra128-j1", "sim_owner_changes_per_mib"))
    g_string_append(misses, "  owner changes do not rise from 1 to 4 threads\n");
  if (misses->len) fail_msg("the race against the real mechanism run:\n%s", misses->str);
}

/* Runs scripts/validate-6.18 --pcsim BIN --out DIR ARGS... (NULL-terminated)
 * from the source tree; fails the test unless it exits 0.  Returns
 * validation.csv's text; its stderr into *ERR when ERR is given. */
static char *validate_csv(char **err_out, ...) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *script = test_path("scripts/validate-6.18");
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  const char *head[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--out", dir};
  for (gsize i = 0; i < G_N_ELEMENTS(head); i++) g_ptr_array_add(argv, (gpointer)head[i]);
  va_list ap;
  va_start(ap, err_out);
  for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *)) g_ptr_array_add(argv, (gpointer)a);
  va_end(ap);
  g_ptr_array_add(argv, NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_autofree char *root = test_path(".");
  assert_true(g_spawn_sync(root, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("scripts/validate-6.18 failed:\n%s%s", out, err);
  g_autofree char *path = g_build_filename(dir, "validation.csv", NULL);
  char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  if (err_out) *err_out = g_steal_pointer(&err);
  return text;
}

/* ROW's value in COLUMN of a validation.csv whose column names are NAMES
 * (-1 when the column is missing or empty). */
static double csv_value(char **names, char **row, const char *column) {
  for (gsize i = 0; names[i] && row[i]; i++)
    if (!strcmp(names[i], column)) return *row[i] ? g_ascii_strtod(row[i], NULL) : -1;
  return -1;
}

/* --session-costs: the dec04 session's insert costs from `pcsim calibrate` on
 * its own one-thread captures (named on stderr), and with them bs=1M at four
 * threads races as that session's kernel did (4.27 bios/MiB; 6.76 with the
 * shipped, slow-session costs): within 25%.  Without --out it is refused. */
static void session_costs_predict_the_bs1m_race(void **state) {
  (void)state;
  g_autofree char *err = NULL;
  g_autofree char *text = validate_csv(&err, "--seeds", "3", "--session-costs", "--fixtures",
                                       "tests/data/kernel-6.18-dec04", "--only", "bs1m-ra128-j4", NULL);
  if (!strstr(err, "cost.insert_won=")) fail_msg("no session costs on stderr:\n%s", err);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_auto(GStrv) names = g_strsplit(lines[0], ",", -1);
  g_auto(GStrv) row = g_strsplit(lines[1], ",", -1);
  double real = csv_value(names, row, "real_bios_per_mib"), sim = csv_value(names, row, "sim_bios_per_mib");
  assert_string_equal(row[1], "bs1m-ra128-j4");
  if (!(real > 4 && fabs(sim - real) / real <= 0.25))
    fail_msg("bs=1M, 4 threads, session costs: %.3f bios/MiB against the real %.3f", sim, real);
  g_autofree char *script = test_path("scripts/validate-6.18");
  g_autofree char *root = test_path(".");
  char *refused[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--session-costs", NULL};
  g_autofree char *o2 = NULL, *e2 = NULL;
  int status = 0;
  assert_true(g_spawn_sync(root, refused, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &o2, &e2, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
  assert_non_null(strstr(e2, "--session-costs needs --out"));
}

/* Another host, calibrated from one thread: docs/notebook/hosts/dec06-handmade.ini is the
 * shipped scenario with only what a user measures from a new machine's
 * ONE-thread captures changed (the device from calibrate's service times and
 * the one-thread MiB/s, the insert path from calibrate), cost.ra_marker
 * scaled to that host's insert speed and cpu.wake_jitter fitted as the
 * shipped one was, to a 4-thread mechanism measure (how often two woken
 * readers start together), not to a metric asserted here.  On that machine
 * (tests/data/kernel-6.18-dec06: page inserts 5x faster, the device 2-4x
 * faster than the shipped scenario's host) the race is weak, and pcsim
 * predicts 2, 4 and 8 threads at 128 KiB: data bios/MiB and fio's MiB/s
 * within 25% of the real median or inside the real range, and owner changes
 * within a factor of 2 at 4 threads.  The shipped scenario, with the other
 * host's costs, over-races there (5.72 against 4.14 bios/MiB with 4 threads)
 * and runs 2-3x too slow. */
static void a_host_calibrated_from_one_thread_predicts_its_threads(void **state) {
  (void)state;
  g_autofree char *model = test_path("docs/notebook/hosts/dec06-handmade.ini");
  g_autofree char *text = validate_csv(NULL, "--seeds", "3", "--model", model, "--fixtures",
                                       "tests/data/kernel-6.18-dec06", "--only", "ra128-j2,ra128-j4,ra128-j8", NULL);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_auto(GStrv) names = g_strsplit(lines[0], ",", -1);
  g_autoptr(GString) misses = g_string_new(NULL);
  int seen = 0;
  for (gsize l = 1; lines[l] && *lines[l]; l++) {
    g_auto(GStrv) row = g_strsplit(lines[l], ",", -1);
    static const char *const metric[][5] = {
        {"bios/MiB", "real_bios_per_mib", "real_bios_min", "real_bios_max", "sim_bios_per_mib"},
        {"MiB/s", "real_mib_s", "real_mib_s_min", "real_mib_s_max", "sim_mib_s"}};
    for (gsize m = 0; m < G_N_ELEMENTS(metric); m++) {
      double real = csv_value(names, row, metric[m][1]), lo = csv_value(names, row, metric[m][2]);
      double hi = csv_value(names, row, metric[m][3]), sim = csv_value(names, row, metric[m][4]);
      if (!(real > 0 && (fabs(sim - real) / real <= 0.25 || (sim >= lo && sim <= hi))))
        g_string_append_printf(misses, "  %s %s: pcsim %.3f, real %.3f (%.3f..%.3f)\n", row[1], metric[m][0], sim, real,
                               lo, hi);
    }
    if (!strcmp(row[1], "ra128-j4")) {
      double real = csv_value(names, row, "real_owner_changes_per_mib");
      double sim = csv_value(names, row, "sim_owner_changes_per_mib");
      if (!(real > 0 && sim >= real / 2 && sim <= real * 2))
        g_string_append_printf(misses, "  ra128-j4 owner changes/MiB: pcsim %.3f, real %.3f\n", sim, real);
    }
    seen++;
  }
  assert_int_equal(seen, 3);
  if (misses->len) fail_msg("the dec06 host from its one-thread calibration:\n%s", misses->str);
}

/* A capture set from another host names its scenario in SET/model: without
 * --model, scripts/validate-6.18 runs its rows with that scenario (the CSV's
 * model column says which) and marks the one-thread rows it was fitted to
 * "host fitted", the others "host prediction". */
static void another_hosts_set_runs_its_own_scenario(void **state) {
  (void)state;
  g_autofree char *text = validate_csv(NULL, "--seeds", "1", "--fixtures", "tests/data/kernel-6.18-dec06", "--only",
                                       "ra128-j1,ra128-j2", NULL);
  assert_non_null(strstr(text, ",ra128-j1,1,32k,1,128,host fitted,"));
  assert_non_null(strstr(text, ",ra128-j2,2,32k,1,128,host prediction,"));
  /* btrfs's blocks/ keep no inserts; then the file system, the kind of job and the kernel build */
  assert_non_null(strstr(text, ",docs/notebook/hosts/dec06-handmade.ini,,,,,,,btrfs,sequential,6.18.44-fc-v1272\n"));
}

/* --calibrated, validation as a user lives it: every capture session with
 * the two one-thread captures with page inserts and a machine.txt is
 * calibrated by `pcsim calibrate A B --out SESSION.ini` (no --model, no
 * --machine) and its rows run on that host file, which goes to DIR/hosts/
 * (docs/hosts/ without --out); the others are listed as lacking them.
 * One configuration, one seed, six sessions (--sessions: all seventeen
 * take minutes under AddressSanitizer): btrfs-threads, dec04 and dec06
 * each get their row and their line in the summary, ext4 and xfs theirs
 * with the folios, and the idle session, without machine.txt, is listed. */
static void calibrated_sessions_each_from_their_own_captures(void **state) {
  (void)state;
  g_autofree char *dir = test_tempdir();
  g_autofree char *script = test_path("scripts/validate-6.18");
  g_autofree char *root = test_path(".");
  char *argv[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--calibrated", "--seeds", "1", "--out", dir, "--only",
                  "ra128-j4", "--sessions",
                  "kernel-6.18-btrfs-threads,kernel-6.18-dec04,kernel-6.18-dec06,kernel-6.18-idle,kernel-6.18-ext4,kernel-6.18-xfs",
                  NULL};
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  assert_true(g_spawn_sync(root, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, NULL));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("scripts/validate-6.18 --calibrated failed:\n%s%s", out, err);
  g_autofree char *md_path = g_build_filename(dir, "calibrated.md", NULL), *csv_path = g_build_filename(dir, "calibrated.csv", NULL);
  g_autofree char *md = NULL, *csv = NULL;
  assert_true(g_file_get_contents(md_path, &md, NULL, NULL));
  assert_true(g_file_get_contents(csv_path, &csv, NULL, NULL));
  const char *sessions[] = {"kernel-6.18-btrfs-threads", "kernel-6.18-dec04", "kernel-6.18-dec06"};
  for (gsize i = 0; i < G_N_ELEMENTS(sessions); i++) {
    g_autofree char *summary = g_strdup_printf("\n| %s | ", sessions[i]), *heading = g_strdup_printf("#### %s\n", sessions[i]);
    g_autofree char *row = g_strdup_printf("\n%s,ra128-j4,4,32k,1,128,prediction,", sessions[i]);
    if (!strstr(md, summary) || !strstr(md, heading)) fail_msg("no table for %s:\n%s", sessions[i], md);
    if (!strstr(csv, row)) fail_msg("no ra128-j4 row for %s:\n%s", sessions[i], csv);
  }
  assert_non_null(strstr(md, "- kernel-6.18-idle: no machine.txt"));
  /* ext4 and xfs sessions: calibrated as their machine.txt's fstype= says, the inserts (folios) a column */
  const char *at = strstr(md, "#### kernel-6.18-ext4\n");
  assert_non_null(at);
  assert_non_null(strstr(at, "| real inserts (folios) | pcsim inserts |"));
  assert_non_null(strstr(csv, "\nkernel-6.18-xfs,ra128-j4,4,32k,1,128,prediction,"));
  assert_null(strstr(md, "calibrate refuses it"));
  assert_non_null(strstr(md, "- check: ra128-j1-rep1.ftrace.txt.gz, 1 thread(s)")); /* the one-thread check, printed */
  /* each row on its session's calibrated host, named after the session, and its file in DIR/hosts/ */
  assert_non_null(strstr(csv, "/dec06.ini,,,,,,,btrfs,sequential,6.18.44-fc-v1272\n")); /* btrfs: no inserts in blocks/ */
  /* the summary by kind of row and by kernel build, at the top (the README's table) */
  assert_non_null(strstr(md, "| btrfs: sequential reads, the standard configurations (one file, one job section, ioengine=sync) | 3 | "));
  assert_non_null(strstr(md, "| ext4 and xfs (large folios; the folios inserted are part of each row) | 2 | "));
  assert_null(strstr(md, "| btrfs: fio's other jobs")); /* no such row was run */
  const char *all = strstr(md, "\n| all | 5 | ");
  assert_non_null(all);
  assert_non_null(strstr(all, " of 5 | ")); /* five rows, every one a prediction */
  assert_true(strstr(md, "| 6.18.44-fc-v1045 | 1 | ") && strstr(md, "| 6.18.44-fc-v1252 | 1 | ") && strstr(md, "| 6.18.44-fc-v1272 | 3 | "));
  const char *summary_at = strstr(md, "| rows | sessions |"), *sessions_at = strstr(md, "| session | rows that hold |");
  assert_true(summary_at && sessions_at && summary_at < sessions_at); /* the summary first */
  g_autofree char *host = g_build_filename(dir, "hosts", "dec06.ini", NULL), *host_text = NULL;
  assert_true(g_file_get_contents(host, &host_text, NULL, NULL));
  assert_non_null(strstr(host_text, "[scenario]\nname = dec06\n"));
  assert_non_null(strstr(err, "calibrate: check (not fitted)"));
  /* --calibrated predicts from calibrate's output alone: --model is refused */
  char *refused[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--calibrated", "--model", "x.ini", "--out", dir, NULL};
  g_autofree char *o2 = NULL, *e2 = NULL;
  assert_true(g_spawn_sync(root, refused, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &o2, &e2, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
  assert_non_null(strstr(e2, "--calibrated goes with"));
  /* --sessions names sessions that exist, and only those run */
  assert_null(strstr(md, "#### kernel-6.18-dec06e\n"));
  char *unknown[] = {"bash", script, "--pcsim", PCSIM_BINARY, "--calibrated", "--out", dir, "--sessions", "kernel-6.18-nosuch", NULL};
  g_autofree char *o3 = NULL, *e3 = NULL;
  assert_true(g_spawn_sync(root, unknown, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &o3, &e3, &status, NULL));
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
  assert_non_null(strstr(e3, "--sessions: no capture session tests/data/kernel-6.18-nosuch"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(session_costs_predict_the_bs1m_race),
    cmocka_unit_test(a_host_calibrated_from_one_thread_predicts_its_threads),
    cmocka_unit_test(another_hosts_set_runs_its_own_scenario),
    cmocka_unit_test(calibrated_sessions_each_from_their_own_captures),
    cmocka_unit_test(shared_rows_within_25_percent),
    cmocka_unit_test(bios_per_mib_rise_with_threads),
    cmocka_unit_test(race_mechanism_as_real),
  };
  return cmocka_run_group_tests(tests, validate_setup, validate_teardown);
}
