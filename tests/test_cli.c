/* test_cli.c - the pcsim command as a user runs it. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void one_line(const char *what, const char *err, const char *prefix);

/* The words of POLICY's row in the table. */
static GStrv table_row(const char *table, const char *policy) {
  g_autofree char *needle = g_strdup_printf("\n%s ", policy);
  const char *row = strstr(table, needle);
  if (!row) fail_msg("no row %s in %s", policy, table);
  g_autofree char *line = g_strndup(row + 1, strcspn(row + 1, "\n"));
  GStrv w = g_strsplit_set(line, " ", -1);
  guint n = 0;
  for (guint i = 0; w[i]; i++) {
    if (*w[i]) w[n++] = w[i];
    else g_free(w[i]);
  }
  w[n] = NULL;
  return w;
}

/* The table's last column is each policy's change in aggregate throughput
 * against the first policy: the same runs as the CSV, so it must equal the
 * ratio of their aggregate_mib_s, and the bios column the CSV's bios. */
static void run_table_shows_the_change_against_the_first_policy(void **state) {
  g_autofree char *table = NULL, *csv = NULL, *e1 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&table, &e1, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                              "--policy", "immediate", "--policy", "pool:16", NULL), 0);
  assert_int_equal(test_pcsim(&csv, &e2, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                              "--policy", "immediate", "--policy", "pool:16", "--format", "csv", NULL), 0);
  assert_non_null(strstr(table, "bios/MiB"));
  g_auto(GStrv) first = table_row(table, "immediate");
  g_auto(GStrv) second = table_row(table, "pool:16");
  guint n = g_strv_length(first);
  assert_int_equal(n, g_strv_length(second));
  assert_string_equal(first[n - 1], "-"); /* the base of the comparison */
  const guint bios = 3, aggregate = 11;   /* CSV columns */
  double base = test_csv_cell(csv, "immediate", aggregate), pool = test_csv_cell(csv, "pool:16", aggregate);
  g_autofree char *want = g_strdup_printf("%+.1f%%", (pool / base - 1.0) * 100.0);
  assert_string_equal(second[n - 1], want);
  assert_true(pool > base); /* the seed's claim: pooling inserts is faster */
  assert_int_equal(g_ascii_strtoull(first[3], NULL, 10), (guint64)test_csv_cell(csv, "immediate", bios));
  assert_int_equal(g_ascii_strtoull(second[3], NULL, 10), (guint64)test_csv_cell(csv, "pool:16", bios));
}

static void stdout_is_byte_identical_and_stats_go_to_stderr(void **state) {
  g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&o1, &e1, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=32M",
                              "--format", "json", "--stats", NULL), 0);
  assert_int_equal(test_pcsim(&o2, &e2, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=32M",
                              "--format", "json", "--stats", NULL), 0);
  assert_string_equal(o1, o2);
  assert_non_null(strstr(e1, "stats: wall_s="));
  assert_non_null(strstr(e1, " events="));
  assert_non_null(strstr(e1, " events_per_s="));
  assert_non_null(strstr(e1, " peak_rss_kib="));
  const char *keys[] = {"\"results\"", "\"policy\"", "\"threads\"", "\"file_mib\"", "\"bios\"", "\"requests\"",
                        "\"pages_read\"", "\"bios_per_mib\"", "\"requests_per_mib\"", "\"avg_bio_kib\"",
                        "\"bio_pages_hist\"", "\"eexist\"", "\"aggregate_mib_s\"", "\"device_mib_s\"",
                        "\"sim_time_ns\"", "\"events\""};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    if (!strstr(o1, keys[i])) fail_msg("JSON lacks %s", keys[i]);
}

static void csv_has_the_json_columns(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--set", "workload.file_size=8M",
                              "--format", "csv", "--policy", "window", NULL), 0);
  assert_non_null(strstr(out, "\npolicy,threads,file_mib,bios,requests,pages_read,bios_per_mib,"));
  assert_non_null(strstr(out, "\nwindow,1,8.0000,"));
}

static void bad_input_exits_2_with_file_line_and_key(void **state) {
  g_autofree char *path = test_tempfile("bad.ini", "[workload]\nthreads = 4\nblock_sise = 32k\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, NULL), 2);
  assert_non_null(strstr(err, "bad.ini:3:"));
  assert_non_null(strstr(err, "workload.block_size"));
  assert_string_equal(out, "");
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "cpu.cont=2", NULL), 2);
  assert_non_null(strstr(err, "cpu.count"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--policy", "pool:0", NULL), 2);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--format", "xml", NULL), 2);
  assert_non_null(strstr(err, "--format 'xml': expected table, csv, json or fio-json"));
  g_free(out), g_free(err);
  /* each command names only the formats it prints */
  assert_int_equal(test_pcsim(&out, &err, "replay", "workloads/liubo-diagram.sched", "--format", "csv", NULL), 2);
  assert_non_null(strstr(err, "--format 'csv': expected table or json"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "trace-stats", "workloads/liubo-diagram.sched", "--format", "fio-json", NULL),
                   2);
  assert_non_null(strstr(err, "--format 'fio-json': expected table, csv or json"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--bogus", NULL), 2);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads", NULL), 2);
  assert_non_null(strstr(err, "directory"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "frobnicate", NULL), 2);
}

static void help_and_params_explain_everything(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "--help", NULL), 0);
  assert_non_null(strstr(out, "run"));
  assert_non_null(strstr(out, "params"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "--help", NULL), 0);
  const char *opts[] = {"--policy", "--set", "--seed", "--format", "--stats", "--trace"};
  for (size_t i = 0; i < G_N_ELEMENTS(opts); i++) assert_non_null(strstr(out, opts[i]));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "params", NULL), 0);
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s.%s ", t[i].section, t[i].key);
    if (!strstr(out, key)) fail_msg("pcsim params lacks %s", key);
  }
}

static void trace_is_written_whole(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "t.tsv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/single-thread.ini", "--set", "workload.file_size=1M",
                              "--policy", "immediate", "--trace", path, NULL), 0);
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  assert_true(g_str_has_prefix(text, "policy\ttime_ns\tthread\tkind\ta\tb\n"));
  /* every bio (3: the same run's --format json "bios") and the reader's
   * finish after its 256 pages at the run's end (sim_time_ns 2263770) */
  int submits = 0;
  for (const char *at = text; (at = strstr(at, "\tsubmit\t")); at++) submits++;
  assert_int_equal(submits, 3);
  assert_non_null(strstr(text, "\nimmediate\t2263770\t1\tfinish\t256\t0\n"));
  assert_true(g_str_has_suffix(text, "\nimmediate\t2263770\t-\tcpu_on\t0\t0\n")); /* the last event, whole */
  g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
  assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
}

static void timeline_draws_one_column_per_thread(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=8M",
                              "--policy", "immediate", "--timeline", NULL), 0);
  /* past the first window: get_init_ra_size() of a 32 KiB read under an
   * 8 MiB maximum is 32 pages */
  assert_non_null(strstr(out, "timeline immediate, pages 32-63"));
  assert_non_null(strstr(out, "thread 4"));
  assert_non_null(strstr(out, "add Page 32"));
  assert_non_null(strstr(out, "read Page "));
  assert_non_null(strstr(out, "submit bio "));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--timeline", "--pages", "9-3", NULL), 2);
  assert_non_null(strstr(err, "--pages"));
}

static void replay_and_explore_from_the_command_line(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "replay", "workloads/liubo-diagram.sched", "--format", "json", NULL), 0);
  assert_non_null(strstr(out, "\"policy\": \"immediate\", \"total_bios\": 4"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "explore", "--threads", "2", "--pages", "3", "--format", "json", NULL), 0);
  const char *keys[] = {"\"schedules\"", "\"min_bios\"", "\"max_bios\"", "\"mean_bios\"", "\"histogram\"",
                        "\"random_expected_bios\"", "\"results\""};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) assert_non_null(strstr(out, keys[i]));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "explore", "--threads", "7", "--pages", "16", NULL), 2);
  assert_non_null(strstr(err, "too large"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "explore", "--threads", "7", "--pages", "2", NULL), 2);
  one_line("explore too large", err, "pcsim explore: --threads 7 --pages 2 is too large to enumerate here: at most 6 "
           "threads, 12 pages and threads*pages <= 24 (e.g. 2x8, 3x6, 4x4)\n");
}

/* ---- exit status and message format, every command ---- */

/* One command's three failures: stdout on /dev/full (exit 1), bad input
 * (exit 2, the message starts with the file at fault) and a usage error
 * (exit 2, ends with "(see pcsim CMD --help)").  "@" in an argument is the
 * temporary directory prepared by failure_inputs(). */
typedef struct {
  const char *name;
  const char *ok[12];    /* works, printing to stdout */
  const char *bad[12];   /* bad input: exit 2 */
  const char *where;     /* what the bad input message starts with, after "pcsim NAME: " */
  const char *usage[6];  /* usage error: exit 2 */
} CommandCase;

#define SCEN "workloads/single-thread.ini"
#define SMALL "--set", "workload.file_size=1M"
#define TRACE "tests/data/blkparse-sample.txt"
static const CommandCase commands[] = {
  {"run", {"run", SCEN, SMALL}, {"run", "@/bad.ini"}, "@/bad.ini:2:", {"run"}},
  {"params", {"params"}, {NULL}, NULL, {"params", "extra"}},
  {"sweep", {"sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--policy", "immediate"},
   {"sweep", "@/bad.ini"}, "@/bad.ini:2:", {"sweep"}},
  {"merge", {"merge", "@/shard1.csv", "@/shard2.csv"}, {"merge", "@/bad.csv"}, "@/bad.csv:", {"merge"}},
  {"plot", {"plot", "@/shard1.csv", "--x", "workload.threads", "--y", "bios"},
   {"plot", "@/bad.csv", "--x", "a", "--y", "b"}, "@/bad.csv:", {"plot"}},
  {"trace-stats", {"trace-stats", TRACE}, {"trace-stats", "@/bad.ini"}, "@/bad.ini:", {"trace-stats"}},
  {"compare", {"compare", TRACE, SCEN, SMALL}, {"compare", TRACE, "@/bad.ini"}, "@/bad.ini:2:", {"compare", TRACE}},
  {"replay", {"replay", "workloads/liubo-diagram.sched"}, {"replay", "@/bad.sched"}, "@/bad.sched:1:", {"replay"}},
  {"explore", {"explore", "--threads", "2", "--pages", "2"}, {"explore", "--threads", "2", "--pages", "2",
   "--policy", "pool16"}, "--policy: policy 'pool16'", {"explore"}},
};

/* Files the cases read: a bad scenario, a bad schedule, a file that is not
 * a result file, and the two shards of a small sweep. */
static void failure_inputs(const char *dir) {
  const char *files[][2] = {{"bad.ini", "[workload]\nthraeds = 4\n"}, {"bad.sched", "pages 2\n"},
                            {"bad.csv", "\n\n"}};
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *path = g_build_filename(dir, files[i][0], NULL);
    assert_true(g_file_set_contents(path, files[i][1], -1, NULL));
  }
  for (int k = 1; k <= 2; k++) {
    g_autofree char *out = NULL, *err = NULL, *shard = g_strdup_printf("%d/2", k);
    g_autofree char *path = g_strdup_printf("%s/shard%d.csv", dir, k);
    assert_int_equal(test_pcsim(&out, &err, "sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--policy",
                                "immediate", "--shard", shard, "--out", path, NULL), 0);
  }
}

/* ARGV with "@" replaced by DIR, as a NULL-terminated array for spawn. */
static GPtrArray *expand(const char *const *argv, const char *dir) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  for (; *argv; argv++)
    g_ptr_array_add(a, g_str_has_prefix(*argv, "@") ? g_strconcat(dir, *argv + 1, NULL) : g_strdup(*argv));
  g_ptr_array_add(a, NULL);
  return a;
}

/* Runs pcsim with ARGV (FULL: stdout on /dev/full). */
static int run_argv(const char *const *argv, const char *dir, gboolean full, char **out, char **err) {
  g_autoptr(GPtrArray) a = expand(argv, dir);
  return test_pcsim_argv(out, err, full, (const char *const *)a->pdata);
}

/* ERR is exactly one line and starts with PREFIX, the command named once
 * ("pcsim explore: explore: ..." names it twice). */
static void one_line(const char *what, const char *err, const char *prefix) {
  if (!g_str_has_prefix(err, prefix)) fail_msg("%s: '%s' does not start with '%s'", what, err, prefix);
  if (strchr(err, '\n') != err + strlen(err) - 1) fail_msg("%s: not one line: '%s'", what, err);
  const char *colon = strchr(err, ':');
  g_autofree char *twice = g_str_has_prefix(err, "pcsim ") && colon ? g_strdup_printf("%.*s", (int)(colon - err - 6) + 2, err + 6) : NULL;
  if (twice && g_str_has_prefix(colon + 2, twice)) fail_msg("%s: the command named twice: '%s'", what, err);
}

/* Options a user gets wrong: each refused alone with exit 2 and one line
 * naming it (an empty --policy, --seeds 0, --row without --scenario-from,
 * --pages without --timeline, calibrate of a missing trace: no warning
 * before the error); and a short option's value attached as getopt() takes
 * it ("-j1", "-pwindow") gives what the separate word gives. */
static void a_misused_option_is_refused_and_attached_values_work(void **state) {
  (void)state;
  const struct {
    const char *argv[8], *err;
  } bad[] = {
      {{"run", "single-thread", "--policy", "", NULL},
       "pcsim run: --policy: policy '': unknown, expected immediate, pool:N, pool-contig:N or window\n"},
      {{"run", "single-thread", "--seeds", "0", NULL}, "pcsim run: --seeds 0: expected 1..10000\n"},
      {{"compare", PCSIM_SOURCE_DIR "/tests/data/kernel-6.18-dec07n/blocks/bs32k-ra128-j1-rep1.ftrace.txt.gz",
        "single-thread", "--seeds", "0", NULL},
       "pcsim compare: --seeds 0: expected 1..10000\n"},
      {{"run", "single-thread", "--row", "3", NULL}, "pcsim run: --row 3 goes with --scenario-from RESULTS\n"},
      {{"run", "single-thread", "--pages", "1-4", NULL},
       "pcsim run: --pages 1-4 goes with --timeline (the page range it draws)\n"},
      {{"calibrate", "/nonexistent/run.ftrace.txt.gz", NULL},
       "pcsim calibrate: /nonexistent/run.ftrace.txt.gz: cannot read: No such file or directory\n"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *out = NULL, *err = NULL;
    int rc = test_pcsim_argv(&out, &err, FALSE, bad[i].argv);
    if (rc != 2 || *out || strcmp(err, bad[i].err) != 0)
      fail_msg("pcsim %s %s: exit %d, stdout '%s', stderr '%s', expected exit 2 and '%s'", bad[i].argv[0],
               bad[i].argv[2] ? bad[i].argv[2] : bad[i].argv[1], rc, out, err, bad[i].err);
  }
  const char *attached[] = {"run", "single-thread", "-pwindow", "-sworkload.threads=2", NULL};
  const char *apart[] = {"run", "single-thread", "-p", "window", "-s", "workload.threads=2", NULL};
  g_autofree char *out1 = NULL, *out2 = NULL, *err1 = NULL, *err2 = NULL;
  assert_int_equal(test_pcsim_argv(&out1, &err1, FALSE, attached), 0);
  assert_int_equal(test_pcsim_argv(&out2, &err2, FALSE, apart), 0);
  assert_string_equal(out1, out2);
  assert_non_null(strstr(out1, "2 thread(s)"));
  g_autofree char *dir = test_tempdir(), *csv = g_build_filename(dir, "s.csv", NULL);
  const char *sweep[] = {"sweep", "single-thread", "--vary", "workload.threads=1,2", "-j1", "--out", csv, NULL};
  g_autofree char *out3 = NULL, *err3 = NULL;
  if (test_pcsim_argv(&out3, &err3, FALSE, sweep) != 0) fail_msg("sweep -j1: %s", err3);
  assert_true(g_file_test(csv, G_FILE_TEST_IS_REGULAR));
}

static void every_command_exits_1_on_a_failed_write_2_on_bad_input_and_usage(void **state) {
  g_autofree char *dir = test_tempdir();
  failure_inputs(dir);
  g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
    const CommandCase *c = &commands[i];
    g_autofree char *prefix = g_strdup_printf("pcsim %s: ", c->name);
    g_autofree char *out = NULL, *err = NULL;
    if (strcmp(c->name, "plot") != 0 || gnuplot) { /* without gnuplot, plot exits 2 saying how to get it */
      int rc = run_argv(c->ok, dir, FALSE, &out, &err);
      if (rc != 0 || !*out) fail_msg("%s: exit %d, stdout '%s', stderr '%s'", c->name, rc, out, err);
      g_clear_pointer(&err, g_free);
      rc = run_argv(c->ok, dir, TRUE, NULL, &err);
      if (rc != 1) fail_msg("%s > /dev/full: exit %d, expected 1 (stderr: %s)", c->name, rc, err);
      g_autofree char *want = g_strconcat(prefix, "standard output: ", g_strerror(ENOSPC), "\n", NULL);
      if (strcmp(err, want) != 0) fail_msg("%s > /dev/full: '%s', expected '%s'", c->name, err, want);
      g_clear_pointer(&out, g_free);
      g_clear_pointer(&err, g_free);
    }
    if (c->bad[0]) {
      int rc = run_argv(c->bad, dir, FALSE, &out, &err);
      if (rc != 2 || *out) fail_msg("%s, bad input: exit %d, stdout '%s'", c->name, rc, out);
      g_autofree char *where = g_str_has_prefix(c->where, "@") ? g_strconcat(dir, c->where + 1, NULL)
                                                               : g_strdup(c->where);
      g_autofree char *first = g_strconcat(prefix, where, NULL);
      one_line(c->name, err, first);
      g_clear_pointer(&out, g_free);
      g_clear_pointer(&err, g_free);
    }
    int rc = run_argv(c->usage, dir, FALSE, &out, &err);
    if (rc != 2 || *out) fail_msg("%s, usage: exit %d, stdout '%s'", c->name, rc, out);
    one_line(c->name, err, prefix);
    g_autofree char *help = g_strdup_printf(" (see pcsim %s --help)\n", c->name);
    if (!g_str_has_suffix(err, help)) fail_msg("%s, usage: '%s' lacks '%s'", c->name, err, help);
  }
}

/* Before a command is known the program is just "pcsim". */
static void no_or_unknown_command_is_a_usage_error(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "frobnicate", NULL), 2);
  one_line("unknown command", err, "pcsim: unknown command 'frobnicate': expected run, sweep, merge");
  assert_true(g_str_has_suffix(err, " (see pcsim --help)\n"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, NULL), 2);
  one_line("no command", err, "pcsim: expected a COMMAND: run, ");
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", SCEN, "--bogus", NULL), 2);
  assert_string_equal(err, "pcsim run: Unknown option --bogus (see pcsim run --help)\n");
  g_free(err);
  assert_int_equal(test_pcsim_full(&err, "--help", NULL), 1);
  one_line("--help > /dev/full", err, "pcsim: standard output: ");
}

/* An output file that cannot be created in an existing folder is a failed
 * write (1), not bad input; an output path naming a directory, or under a
 * file, is bad input (2). */
static void an_output_file_that_cannot_be_written_exits_1(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  /* /proc exists and takes no new files, even for root */
  assert_int_equal(test_pcsim(&out, &err, "run", SCEN, SMALL, "--trace", "/proc/out.tsv", NULL), 1);
  one_line("--trace in /proc", err, "pcsim run: /proc/out.tsv: cannot write: ");
  assert_string_equal(out, "");
  g_free(out), g_free(err);
  g_autofree char *file = test_tempfile("plain", "x");
  g_autofree char *under = g_build_filename(file, "out.csv", NULL);
  assert_int_equal(test_pcsim(&out, &err, "sweep", SCEN, SMALL, "--out", under, NULL), 2);
  g_autofree char *not_folder = g_strdup_printf("pcsim sweep: --out %s: %s is not a folder\n", under, file);
  assert_string_equal(err, not_folder);
  g_free(out), g_free(err);
  g_autofree char *dir = test_tempdir();
  assert_int_equal(test_pcsim(&out, &err, "sweep", SCEN, SMALL, "--out", dir, NULL), 2);
  g_autofree char *want = g_strdup_printf("pcsim sweep: --out %s: is a directory", dir);
  one_line("--out a directory", err, want);
}

/* One rule for every output option: the file (or --blktrace's folder) may
 * be created, its parent folder must exist.  A missing parent is bad input
 * (exit 2) naming the option and the folder, before any work: nothing on
 * stdout, nothing created. */
static void every_output_option_needs_an_existing_folder(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *missing = g_build_filename(dir, "missing", NULL);
  g_autofree char *file = g_build_filename(missing, "x.out", NULL);
  g_autofree char *shard = g_build_filename(dir, "shard.csv", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--policy", "immediate",
                              "--out", shard, NULL), 0);
  const char *trace = "tests/data/kernel-6.18-btrfs-threads/mechanism/ra4096-j1-rep1.ftrace.txt.gz";
  struct {
    const char *option;
    const char *argv[16];
  } cases[] = {
    {"--trace", {"run", SCEN, SMALL, "--trace", file}},
    {"--ftrace", {"run", SCEN, SMALL, "--policy", "immediate", "--ftrace", file}},
    {"--blktrace", {"run", SCEN, SMALL, "--blktrace", file}},
    {"--out", {"sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--out", file}},
    {"--out", {"merge", shard, "--out", file}},
    {"--out", {"calibrate", trace, "--out", file}},
    {"--out", {"plot", shard, "--x", "workload.threads", "--y", "bios", "--out", file}},
    {"--script", {"plot", shard, "--x", "workload.threads", "--y", "bios", "--script", file}},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *argv[17] = {0};
    for (guint k = 0; cases[i].argv[k]; k++) argv[k] = cases[i].argv[k];
    g_autofree char *out = NULL, *err = NULL;
    int rc = test_pcsim_argv(&out, &err, FALSE, argv);
    g_autofree char *want = g_strdup_printf("pcsim %s: %s %s: folder %s does not exist\n", argv[0], cases[i].option,
                                            file, missing);
    if (rc != 2 || strcmp(err, want)) fail_msg("%s %s: exit %d, '%s', expected 2 and '%s'", argv[0], cases[i].option, rc, err, want);
    assert_string_equal(out, "");
    assert_false(g_file_test(missing, G_FILE_TEST_EXISTS));
  }
  /* the named folder itself may be created (not its parents) */
  g_autofree char *bt = g_build_filename(dir, "bt", NULL);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", SCEN, SMALL, "--policy", "immediate", "--blktrace", bt, NULL), 0);
  g_autofree char *cpu0 = g_build_filename(bt, "immediate.blktrace.0", NULL);
  assert_true(g_file_test(cpu0, G_FILE_TEST_IS_REGULAR));
}

/* An output path that is not a plain file: a symbolic link stays a link
 * and the file it names gets the output; a FIFO (and a link to one) gets it
 * copied in when complete and stays a FIFO (as /dev/stdout or a shell's
 * <(...) would: never replaced by a renamed temporary file); a link that
 * loops is refused before any work. */
static void outputs_follow_links_and_write_fifos_in_place(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *real = g_build_filename(dir, "real.csv", NULL), *link = g_build_filename(dir, "link.csv", NULL);
  g_autofree char *fifo = g_build_filename(dir, "fifo", NULL), *fifo_link = g_build_filename(dir, "fifo.csv", NULL);
  assert_true(g_file_set_contents(real, "orig\n", -1, NULL));
  assert_int_equal(symlink("real.csv", link), 0);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(symlink("fifo", fifo_link), 0);
  g_autofree char *o = NULL, *e = NULL, *whole = NULL;
  assert_int_equal(test_pcsim(&whole, &e, "sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", NULL), 0);
  assert_true(strlen(whole) < 16384); /* fits the pipe's buffer: no reader needs to run meanwhile */
  const char *outs[] = {link, fifo, fifo_link};
  for (size_t i = 0; i < G_N_ELEMENTS(outs); i++) {
    int reader = open(fifo, O_RDONLY | O_NONBLOCK); /* there first, so the writer's open does not wait */
    assert_true(reader >= 0);
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--out", outs[i], NULL), 0);
    char buf[16384];
    ssize_t n = read(reader, buf, sizeof buf - 1);
    close(reader);
    if (i > 0) { /* through the FIFO */
      assert_true(n > 0);
      buf[n] = '\0';
      assert_string_equal(buf, whole);
    }
  }
  assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK) && g_file_test(fifo_link, G_FILE_TEST_IS_SYMLINK));
  g_autofree char *written = NULL;
  assert_true(g_file_get_contents(real, &written, NULL, NULL));
  assert_string_equal(written, whole);
  GStatBuf st;
  assert_int_equal(g_stat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  g_autofree char *tmp = g_build_filename(dir, "real.csv.tmp", NULL);
  assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
  /* a link that loops: refused before any work, both links kept */
  g_autofree char *a = g_build_filename(dir, "a", NULL), *b = g_build_filename(dir, "b", NULL);
  assert_int_equal(symlink("b", a), 0);
  assert_int_equal(symlink("a", b), 0);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--vary", "workload.threads=1,2", "--out", a, NULL), 2);
  g_autofree char *want = g_strdup_printf("pcsim sweep: --out %s: Too many levels of symbolic links\n", a);
  assert_string_equal(e, want);
  assert_true(g_file_test(a, G_FILE_TEST_IS_SYMLINK));
}

/* The README's `pcsim run workloads/liubo-2011.ini` typed outside the source
 * tree: the file is missing, and the error names the shipped scenario. */
static void a_missing_scenario_file_names_the_shipped_one(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *missing = g_build_filename(dir, "workloads", "liubo-2011.ini", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "run", missing, NULL), 2);
  g_autofree char *want = g_strdup_printf("pcsim run: %s: cannot read: ", missing);
  one_line("missing scenario", e, want);
  assert_non_null(strstr(e, "(a scenario of that name is shipped with pcsim: `pcsim run liubo-2011`)\n"));
  g_autofree char *other = g_build_filename(dir, "no-such-scenario.ini", NULL);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", other, NULL), 2);
  assert_null(strstr(e, "shipped with pcsim"));
}

/* calibrate --out naming one of its inputs (a trace, the machine file
 * beside it) is refused before any work: the capture stays as it was. */
static void calibrate_never_writes_over_its_input(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *trace = g_build_filename(dir, "run.ftrace.txt", NULL), *machine = g_build_filename(dir, "machine.txt", NULL);
  assert_true(g_file_set_contents(trace, "# tracer: nop\n", -1, NULL));
  assert_true(g_file_set_contents(machine, "kernel=6.18.44 cpus=2\n", -1, NULL));
  const char *outs[][2] = {{trace, "is the trace"}, {machine, "is the machine file"}};
  for (size_t i = 0; i < G_N_ELEMENTS(outs); i++) {
    g_autofree char *o = NULL, *e = NULL, *want = g_strdup_printf("pcsim calibrate: --out %s: %s ", outs[i][0], outs[i][1]);
    assert_int_equal(test_pcsim(&o, &e, "calibrate", trace, "--out", outs[i][0], NULL), 2);
    one_line("--out an input", e, want);
  }
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(trace, &text, NULL, NULL));
  assert_string_equal(text, "# tracer: nop\n");
}

/* ---- every documented option of every command has an effect ---- */

/* One option: a command line with it and one without (the baseline).  Its
 * effect is a different stdout or stderr, or the file FILE created.  SAME:
 * the option changes how the work runs (threads), never the bytes: the two
 * outputs must then be equal, and BAD (the option with a value out of its
 * range) must be refused, so the option is not ignored.  "@" is the
 * temporary directory of option_inputs(). */
typedef struct {
  const char *command, *option;
  const char *with[16], *without[16];
  const char *file;
  gboolean same;
  const char *bad[16];
} OptionCase;

#define SEEDS_S "workloads/liubo-2011.ini", "--set", "workload.file_size=4M"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers" /* file, same and bad: only where they apply */
static const OptionCase option_cases[] = {
  {"run", "--policy", {"run", SEEDS_S, "--policy", "pool:16"}, {"run", SEEDS_S}},
  {"run", "--no-fold", {"run", SEEDS_S, "--stats", "--no-fold"}, {"run", SEEDS_S, "--stats"}}, /* and no_fold_... below */
  {"run", "--set", {"run", SEEDS_S, "--set", "workload.threads=2"}, {"run", SEEDS_S}},
  {"run", "--seed", {"run", SEEDS_S, "--seed", "2"}, {"run", SEEDS_S}},
  {"run", "--format", {"run", SEEDS_S, "--format", "csv"}, {"run", SEEDS_S}},
  {"run", "--scenario-from", {"run", "--scenario-from", "@/threads2.csv"}, {"run", SEEDS_S}},
  {"run", "--fio", {"run", "@/job.txt", "--fio"}, {"run", "@/job.txt"}},
  {"run", "--model", {"run", "@/job.fio", "--model", "workloads/single-thread.ini"}, {"run", "@/job.fio"}},
  {"run", "--row", {"run", "--scenario-from", "@/sweep.csv", "--row", "2"},
   {"run", "--scenario-from", "@/sweep.csv", "--row", "1"}},
  {"run", "--trace", {"run", SEEDS_S, "--trace", "@/t.tsv"}, {"run", SEEDS_S}, "@/t.tsv"},
  {"run", "--blktrace", {"run", SEEDS_S, "--policy", "immediate", "--blktrace", "@/blk"},
   {"run", SEEDS_S, "--policy", "immediate"}, "@/blk/immediate.blktrace.0"},
  {"run", "--ftrace", {"run", SEEDS_S, "--policy", "immediate", "--ftrace", "@/f.txt"},
   {"run", SEEDS_S, "--policy", "immediate"}, "@/f.txt"},
  {"run", "--timeline", {"run", SEEDS_S, "--timeline"}, {"run", SEEDS_S}},
  {"run", "--pages", {"run", SEEDS_S, "--timeline", "--pages", "0-3"}, {"run", SEEDS_S, "--timeline"}},
  {"run", "--stats", {"run", SEEDS_S, "--stats"}, {"run", SEEDS_S}},
  {"run", "--progress", {"run", SEEDS_S, "--progress"}, {"run", SEEDS_S}},
  {"run", "--seeds", {"run", SEEDS_S, "--seeds", "2"}, {"run", SEEDS_S}},
  {"run", "--jobs", {"run", SEEDS_S, "--seeds", "3", "--jobs", "2"}, {"run", SEEDS_S, "--seeds", "3", "--jobs", "1"},
   NULL, TRUE, {"run", SEEDS_S, "--seeds", "3", "--jobs", "5000"}},
  {"compare", "--policy", {"compare", TRACE, SEEDS_S, "--policy", "pool:16"}, {"compare", TRACE, SEEDS_S}},
  {"compare", "--set", {"compare", TRACE, SEEDS_S, "--set", "workload.threads=2"}, {"compare", TRACE, SEEDS_S}},
  {"compare", "--seed", {"compare", TRACE, SEEDS_S, "--seed", "2"}, {"compare", TRACE, SEEDS_S}},
  {"compare", "--seeds", {"compare", TRACE, SEEDS_S, "--seeds", "2"}, {"compare", TRACE, SEEDS_S}},
  {"compare", "--jobs", {"compare", TRACE, TRACE, SEEDS_S, "--seeds", "3", "--jobs", "2"},
   {"compare", TRACE, TRACE, SEEDS_S, "--seeds", "3", "--jobs", "1"}, NULL, TRUE,
   {"compare", TRACE, SEEDS_S, "--jobs", "-1"}},
  {"compare", "--format", {"compare", TRACE, SEEDS_S, "--format", "json"}, {"compare", TRACE, SEEDS_S}},
#define SWEEP "sweep", SEEDS_S, "--policy", "immediate", "--vary", "workload.threads=1,2"
  {"sweep", "--vary", {SWEEP, "--vary", "device.latency=50us,100us"}, {SWEEP}},
  {"sweep", "--policy", {SWEEP, "--policy", "pool:16"}, {SWEEP}},
  {"sweep", "--set", {SWEEP, "--set", "cost.copy=2us"}, {SWEEP}},
  {"sweep", "--seed", {SWEEP, "--seed", "2", "--set", "cost.jitter=0.2"}, {SWEEP, "--set", "cost.jitter=0.2"}},
  {"sweep", "--jobs", {SWEEP, "--jobs", "2"}, {SWEEP, "--jobs", "1"}, NULL, TRUE, {SWEEP, "--jobs", "100000"}},
  {"sweep", "--shard", {SWEEP, "--shard", "1/2"}, {SWEEP}},
  {"sweep", "--format", {SWEEP, "--format", "json"}, {SWEEP}},
  {"sweep", "--out", {SWEEP, "--out", "@/s2.csv"}, {SWEEP}, "@/s2.csv"},
  {"sweep", "--stats", {SWEEP, "--stats"}, {SWEEP}},
  {"sweep", "--progress", {SWEEP, "--progress"}, {SWEEP}},
  {"sweep", "--fio", {"sweep", "@/job.txt", "--fio", "--vary", "workload.threads=1,2", "--policy", "immediate"},
   {"sweep", "@/job.txt", "--vary", "workload.threads=1,2", "--policy", "immediate"}},
  {"sweep", "--model",
   {"sweep", "@/job.fio", "--model", "workloads/single-thread.ini", "--vary", "workload.threads=1,2", "--policy",
    "immediate"},
   {"sweep", "@/job.fio", "--vary", "workload.threads=1,2", "--policy", "immediate"}},
#define PLOT "plot", "@/sweep.csv", "--x", "workload.threads", "--y", "bios_per_mib"
  {"plot", "--x", {"plot", "@/sweep.csv", "--x", "workload.threads", "--y", "bios_per_mib"},
   {"plot", "@/sweep.csv", "--x", "eexist", "--y", "bios_per_mib"}},
  {"plot", "--y", {PLOT}, {"plot", "@/sweep.csv", "--x", "workload.threads", "--y", "aggregate_mib_s"}},
  {"plot", "--by", {PLOT, "--by", "workload.threads"}, {PLOT}},
  {"plot", "--where", {PLOT, "--where", "workload.threads=1"}, {PLOT}},
  {"plot", "--logx", {PLOT, "--logx"}, {PLOT}},
  {"plot", "--logy", {PLOT, "--logy"}, {PLOT}},
  {"plot", "--histogram", {"plot", "@/seed.json", "--histogram"}, {"plot", "@/seed.json"}},
  {"plot", "--timeline", {"plot", "@/seed.tsv", "--timeline"}, {"plot", "@/seed.tsv"}},
  {"plot", "--pages", {"plot", "@/seed.tsv", "--timeline", "--pages", "4-9"}, {"plot", "@/seed.tsv", "--timeline"}},
  {"plot", "--policy", {"plot", "@/seeds.tsv", "--timeline", "--policy", "pool:16"},
   {"plot", "@/seeds.tsv", "--timeline", "--policy", "immediate"}},
  {"plot", "--title", {PLOT, "--title", "my plot"}, {PLOT}},
  {"plot", "--out", {PLOT, "--out", "@/p.svg"}, {PLOT}, "@/p.svg"},
  {"plot", "--terminal", {PLOT, "--terminal", "svg"}, {PLOT}},
  {"plot", "--script", {PLOT, "--script", "@/p.gp"}, {PLOT}, "@/p.gp"},
  {"trace-stats", "--format", {"trace-stats", TRACE, "--format", "csv"}, {"trace-stats", TRACE}},
#define CALIB "calibrate", "tests/data/kernel-6.18-btrfs-threads/mechanism/ra4096-j1-rep1.ftrace.txt.gz"
  {"calibrate", "--model", {CALIB, "--model", "workloads/linux-6.18-btrfs.ini"}, {CALIB}},
  /* (without --machine, the machine.txt one folder up is read: another one with other limits) */
  {"calibrate", "--machine", {CALIB, "--machine", "@/m4.txt"}, {CALIB}},
  {"calibrate", "--no-check", {CALIB, "--no-check"}, {CALIB}},
  {"calibrate", "--out", {CALIB, "--out", "@/c.ini"}, {CALIB}, "@/c.ini"},
  {"calibrate", "--keys", {CALIB, "--keys", "cost.insert_won"}, {CALIB}},
  {"replay", "--policy", {"replay", "@/two.sched", "--policy", "pool:16"}, {"replay", "@/two.sched"}},
  {"replay", "--format", {"replay", "workloads/liubo-diagram.sched", "--format", "json"},
   {"replay", "workloads/liubo-diagram.sched"}},
  {"explore", "--threads", {"explore", "--threads", "3", "--pages", "3"}, {"explore", "--threads", "2", "--pages", "3"}},
  {"explore", "--pages", {"explore", "--threads", "2", "--pages", "4"}, {"explore", "--threads", "2", "--pages", "3"}},
  {"explore", "--policy", {"explore", "--threads", "2", "--pages", "3", "--policy", "window"},
   {"explore", "--threads", "2", "--pages", "3"}},
  {"explore", "--format", {"explore", "--threads", "2", "--pages", "3", "--format", "json"},
   {"explore", "--threads", "2", "--pages", "3"}},
  {"params", "--markdown", {"params", "--markdown"}, {"params"}},
  {"scenarios", "--show", {"scenarios", "--show", "liubo-2011"}, {"scenarios"}},
  {"merge", "--out", {"merge", "@/shard1.csv", "@/shard2.csv", "--out", "@/m.csv"}, {"merge", "@/shard1.csv", "@/shard2.csv"},
   "@/m.csv"},
};
#pragma GCC diagnostic pop

/* The inputs the cases read: result files, a sweep, fio jobs. */
static void option_inputs(const char *dir) {
  g_autofree char *out = NULL, *err = NULL, *sweep = NULL, *sweep_err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", SEEDS_S, "--set", "workload.threads=2", "--format", "csv", NULL), 0);
  g_autofree char *path = g_build_filename(dir, "threads2.csv", NULL);
  assert_true(g_file_set_contents(path, out, -1, NULL));
  g_autofree char *sweep_path = g_build_filename(dir, "sweep.csv", NULL);
  assert_int_equal(test_pcsim(&sweep, &sweep_err, "sweep", SEEDS_S, "--vary", "workload.threads=1,2", "--policy",
                              "immediate", "--out", sweep_path, NULL), 0);
  /* for plot: a run's JSON, a one-policy and a two-policy trace; for merge: two shards */
  struct {
    const char *name;
    const char *argv[16];
  } made[] = {
    {"seed.json", {"run", SEEDS_S, "--format", "json", NULL}},
    {"seed.tsv", {"run", SEEDS_S, "--policy", "immediate", "--trace", "@", NULL}},
    {"seeds.tsv", {"run", SEEDS_S, "--trace", "@", NULL}},
    {"shard1.csv", {SWEEP, "--shard", "1/2", "--out", "@", NULL}},
    {"shard2.csv", {SWEEP, "--shard", "2/2", "--out", "@", NULL}},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(made); i++) {
    g_autofree char *target = g_build_filename(dir, made[i].name, NULL);
    const char *argv[17] = {0};
    gboolean to_file = FALSE;
    for (size_t a = 0; made[i].argv[a]; a++) {
      to_file = to_file || !strcmp(made[i].argv[a], "@");
      argv[a] = !strcmp(made[i].argv[a], "@") ? target : made[i].argv[a];
    }
    g_autofree char *o = NULL, *e = NULL;
    if (test_pcsim_argv(&o, &e, FALSE, argv) != 0) fail_msg("making %s: %s", made[i].name, e);
    if (!to_file) assert_true(g_file_set_contents(target, o, -1, NULL));
  }
  const char *job = "[READ]\nrw=read\nbs=32k\nsize=4M\nnumjobs=2\nfilename=f\nthread\ngroup_reporting\n";
  g_autofree char *sched = g_build_filename(dir, "two.sched", NULL);
  assert_true(g_file_set_contents(sched, "threads 2\npages 4\nsteps 1 2 1 2\n", -1, NULL));
  g_autofree char *m4 = g_build_filename(dir, "m4.txt", NULL);
  assert_true(g_file_set_contents(m4, "kernel=6.18.44 cpus=4 max_sectors_kb=512 max_segments=64 nr_requests=64\n", -1, NULL));
  const char *names[] = {"job.txt", "job.fio"};
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autofree char *p = g_build_filename(dir, names[i], NULL);
    assert_true(g_file_set_contents(p, job, -1, NULL));
  }
}

/* The long options `pcsim COMMAND --help` lists, but --help itself. */
static GPtrArray *documented_options(const char *command) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, command, "--help", NULL), 0);
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  for (char **l = lines; *l; l++) {
    const char *o = strstr(*l, "--");
    g_autofree char *lead = g_strchug(g_strdup(*l));
    if (!o || !g_str_has_prefix(lead, "-")) continue; /* an option line starts with - */
    size_t n = strcspn(o, "= ");
    g_autofree char *name = g_strndup(o, n);
    if (g_str_has_prefix(name, "--help")) continue;
    g_ptr_array_add(a, g_steal_pointer(&name));
  }
  return a;
}

static void every_documented_option_of_every_command_has_an_effect(void **state) {
  g_autofree char *dir = test_tempdir();
  option_inputs(dir);
  const char *commands_with_cases[] = {"run",       "compare", "sweep",   "plot",   "trace-stats",
                                       "calibrate", "replay",  "explore", "params", "merge", "scenarios"};
  for (size_t c = 0; c < G_N_ELEMENTS(commands_with_cases); c++) { /* no option without a case */
    g_autoptr(GPtrArray) opts = documented_options(commands_with_cases[c]);
    assert_true(opts->len >= 1);
    for (guint i = 0; i < opts->len; i++) {
      gboolean found = FALSE;
      for (size_t k = 0; k < G_N_ELEMENTS(option_cases); k++)
        found = found || (!strcmp(option_cases[k].command, commands_with_cases[c]) &&
                          !strcmp(option_cases[k].option, g_ptr_array_index(opts, i)));
      if (!found) fail_msg("pcsim %s %s: documented, but no case tests its effect", commands_with_cases[c],
                           (char *)g_ptr_array_index(opts, i));
    }
  }
  for (size_t k = 0; k < G_N_ELEMENTS(option_cases); k++) {
    const OptionCase *oc = &option_cases[k];
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    g_autofree char *file = oc->file ? g_strconcat(dir, oc->file + 1, NULL) : NULL;
    int r2 = run_argv(oc->without, dir, FALSE, &o2, &e2); /* may fail: job.txt is no INI without --fio */
    if (file) assert_false(g_file_test(file, G_FILE_TEST_EXISTS));
    int r1 = run_argv(oc->with, dir, FALSE, &o1, &e1);
    if (r1 != 0) fail_msg("%s %s: exit %d: %s", oc->command, oc->option, r1, e1);
    if (oc->same) {
      if (strcmp(o1, o2) != 0) fail_msg("%s %s: changed the output", oc->command, oc->option);
      g_autofree char *o3 = NULL, *e3 = NULL;
      if (run_argv(oc->bad, dir, FALSE, &o3, &e3) != 2 || !strstr(e3, oc->option))
        fail_msg("%s %s out of range: not refused: %s", oc->command, oc->option, e3);
      continue;
    }
    gboolean effect = r1 != r2 || strcmp(o1, o2) != 0 || strcmp(e1, e2) != 0 || (file && g_file_test(file, G_FILE_TEST_EXISTS));
    if (!effect) fail_msg("pcsim %s %s: parses but changes nothing", oc->command, oc->option);
  }
}

/* The bug of issue 16: --policy was read before option parsing filled it. */
static void compare_simulates_the_policy_it_is_given(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "compare", TRACE, SEEDS_S, "--policy", "pool:16", NULL), 0);
  if (!strstr(out, "policy pool:16,")) fail_msg("compare --policy pool:16 printed:\n%s", out);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "compare", TRACE, SEEDS_S, "--policy", "immediate", "--format", "csv", NULL), 0);
  assert_non_null(strstr(out, "# policy immediate\n"));
}

/* --no-fold: every copy an event of its own (sim/model/fold.h), the same output
 * to the byte; --stats says how many copy steps were folded (with the v3.5
 * CFS wake-up preemption off: it forbids folding). */
static void no_fold_gives_the_same_output(void **state) {
  const char *formats[] = {"json", "csv"};
  for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    assert_int_equal(test_pcsim(&o1, &e1, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=64M",
                                "--set", "cpu.cfs_wake_preempt=0", "--format", formats[f], "--stats", NULL), 0);
    assert_int_equal(test_pcsim(&o2, &e2, "run", "workloads/eight-threads.ini", "--set", "workload.file_size=64M",
                                "--set", "cpu.cfs_wake_preempt=0", "--format", formats[f], "--stats", "--no-fold", NULL), 0);
    assert_string_equal(o1, o2);
    const char *folded = strstr(e1, " folded=");
    assert_non_null(folded);
    assert_true(g_ascii_strtoull(folded + strlen(" folded="), NULL, 10) > 1000);
    assert_non_null(strstr(e2, " folded=0 redone=0"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(run_table_shows_the_change_against_the_first_policy),
    cmocka_unit_test(every_documented_option_of_every_command_has_an_effect),
    cmocka_unit_test(compare_simulates_the_policy_it_is_given),
    cmocka_unit_test(stdout_is_byte_identical_and_stats_go_to_stderr),
    cmocka_unit_test(no_fold_gives_the_same_output),
    cmocka_unit_test(csv_has_the_json_columns),
    cmocka_unit_test(bad_input_exits_2_with_file_line_and_key),
    cmocka_unit_test(help_and_params_explain_everything),
    cmocka_unit_test(trace_is_written_whole),
    cmocka_unit_test(timeline_draws_one_column_per_thread),
    cmocka_unit_test(replay_and_explore_from_the_command_line),
    cmocka_unit_test(a_misused_option_is_refused_and_attached_values_work),
    cmocka_unit_test(every_command_exits_1_on_a_failed_write_2_on_bad_input_and_usage),
    cmocka_unit_test(no_or_unknown_command_is_a_usage_error),
    cmocka_unit_test(an_output_file_that_cannot_be_written_exits_1),
    cmocka_unit_test(outputs_follow_links_and_write_fifos_in_place),
    cmocka_unit_test(a_missing_scenario_file_names_the_shipped_one),
    cmocka_unit_test(calibrate_never_writes_over_its_input),
    cmocka_unit_test(every_output_option_needs_an_existing_folder),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
