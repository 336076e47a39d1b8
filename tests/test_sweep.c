/* test_sweep.c - pcsim sweep, merge, plot and --scenario-from as a user runs them. */
#include "support.h"

#include "pcsim/grid.h"
#include "pcsim/sweep.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCEN "workloads/liubo-2011.ini"
#define SMALL "--set", "workload.file_size=8M"
#define GRID "--vary", "workload.threads=1..3", "--vary", "pool=1..16*2"

static char *slurp(const char *path) {
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) fail_msg("cannot read %s", path);
  return text;
}

static void sweep_to(const char *dir, const char *name, const char *format, const char *shard) {
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *path = g_build_filename(dir, name, NULL);
  int rc = shard ? test_pcsim(&out, &err, "sweep", SCEN, SMALL, GRID, "--format", format, "--shard", shard, "--out",
                              path, NULL)
                 : test_pcsim(&out, &err, "sweep", SCEN, SMALL, GRID, "--format", format, "--out", path, NULL);
  if (rc != 0) fail_msg("sweep: %s", err);
  assert_string_equal(out, "");
}

static void merged_shards_equal_the_unsharded_sweep(void **state) {
  const char *formats[] = {"csv", "json"};
  for (size_t f = 0; f < 2; f++) {
    g_autofree char *dir = test_tempdir();
    sweep_to(dir, "all", formats[f], NULL);
    char *files[4];
    for (int k = 1; k <= 4; k++) {
      g_autofree char *name = g_strdup_printf("s%d", k), *shard = g_strdup_printf("%d/4", k);
      sweep_to(dir, name, formats[f], shard);
      files[k - 1] = g_build_filename(dir, name, NULL);
    }
    g_autofree char *out = NULL, *err = NULL;
    /* any order */
    assert_int_equal(test_pcsim(&out, &err, "merge", files[2], files[0], files[3], files[1], NULL), 0);
    g_autofree char *all_path = g_build_filename(dir, "all", NULL);
    g_autofree char *all = slurp(all_path);
    assert_string_equal(out, all);
    for (int k = 0; k < 4; k++) g_free(files[k]);
  }
}

/* PATH rewritten by json-glib: one line (PRETTY FALSE) or 4-space indents,
 * numbers as json-glib prints them (512.0000 becomes 512.0 or 512). */
static void reindent(const char *path, gboolean pretty) {
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *error = NULL;
  if (!json_parser_load_from_file(parser, path, &error)) fail_msg("%s: %s", path, error->message);
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_root(gen, json_parser_get_root(parser));
  json_generator_set_pretty(gen, pretty);
  json_generator_set_indent(gen, 4);
  g_autofree char *before = slurp(path);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  assert_string_not_equal(text, before);
  if (!g_file_set_contents(path, text, -1, NULL)) fail_msg("cannot write %s", path);
}

/* jq or any JSON tool may re-indent a shard; merge reads JSON, not lines. */
static void merge_accepts_reindented_json_shards(void **state) {
  const char *grids[][6] = {
    {"--vary", "workload.threads=1..3", "--vary", "pool=1..16*2", "--vary", "bio.max_vecs=256"},
    /* a text axis, a fraction axis given as ".5" (printed 0.5), policies */
    {"--vary", "scenario.name=a,b\\c", "--vary", "cost.jitter=0,.5", "--vary", "policy=immediate,pool:16"},
  };
  for (size_t g = 0; g < G_N_ELEMENTS(grids); g++) {
    g_autofree char *dir = test_tempdir();
    g_autofree char *all = g_build_filename(dir, "all.json", NULL);
    char *files[3];
    g_autofree char *o = NULL, *e = NULL;
    const char **v = grids[g];
    if (test_pcsim(&o, &e, "sweep", SCEN, SMALL, v[0], v[1], v[2], v[3], v[4], v[5], "--format", "json", "--out", all,
                   NULL) != 0)
      fail_msg("sweep: %s", e);
    for (int k = 1; k <= 3; k++) {
      g_autofree char *shard = g_strdup_printf("%d/3", k), *name = g_strdup_printf("s%d.json", k);
      files[k - 1] = g_build_filename(dir, name, NULL);
      g_free(o), g_free(e);
      if (test_pcsim(&o, &e, "sweep", SCEN, SMALL, v[0], v[1], v[2], v[3], v[4], v[5], "--format", "json", "--shard",
                     shard, "--out", files[k - 1], NULL) != 0)
        fail_msg("sweep: %s", e);
    }
    reindent(files[0], FALSE);
    reindent(files[1], TRUE);
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "merge", files[1], files[2], files[0], NULL), 0);
    g_autofree char *want = slurp(all);
    assert_string_equal(o, want);
    /* a re-indented shard of another sweep is still refused */
    g_autofree char *other = g_build_filename(dir, "other.json", NULL);
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--seed", "2", v[0], v[1], v[2], v[3], v[4], v[5],
                                "--format", "json", "--shard", "3/3", "--out", other, NULL), 0);
    reindent(other, TRUE);
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "merge", files[0], files[1], other, NULL), 2);
    assert_non_null(strstr(e, "not a shard of the same sweep"));
    for (int k = 0; k < 3; k++) g_free(files[k]);
  }
}

static void merge_refuses_missing_duplicate_foreign_and_truncated_shards(void **state) {
  g_autofree char *dir = test_tempdir();
  for (int k = 1; k <= 3; k++) {
    g_autofree char *name = g_strdup_printf("s%d.csv", k), *shard = g_strdup_printf("%d/3", k);
    sweep_to(dir, name, "csv", shard);
  }
  sweep_to(dir, "whole.csv", "csv", NULL);
  g_autofree char *s1 = g_build_filename(dir, "s1.csv", NULL), *s2 = g_build_filename(dir, "s2.csv", NULL);
  g_autofree char *s3 = g_build_filename(dir, "s3.csv", NULL), *whole = g_build_filename(dir, "whole.csv", NULL);
  g_autofree char *other = g_build_filename(dir, "other.csv", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--vary", "workload.threads=1..4", "--shard", "3/3",
                              "--out", other, NULL), 0);
  struct {
    const char *a, *b, *c, *needle;
  } cases[] = {
    {s1, s2, NULL, "missing shard 3/3"},
    {s1, s2, s2, "duplicate shard 2/3"},
    {s1, s2, other, "not a shard of the same sweep"},
    {s1, s2, whole, "not a shard"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "merge", cases[i].a, cases[i].b, cases[i].c, NULL), 2);
    if (!strstr(e, cases[i].needle)) fail_msg("case %zu: '%s' lacks '%s'", i, e, cases[i].needle);
    assert_string_equal(o, "");
  }
  /* a shard cut inside its last row: a row short of a cell, or a row without its line end */
  char *full = slurp(s3);
  g_autofree char *cut = g_build_filename(dir, "cut.csv", NULL);
  gssize last_comma = (gssize)strlen(full);
  while (last_comma > 0 && full[last_comma] != ',') last_comma--;
  struct {
    gssize len;
    const char *needle;
  } cuts[] = {
      {last_comma, "cells as in the header"}, /* "FILE:LINE: expected N cells as in the header, found N-1" */
      {(gssize)strlen(full) - 1, "the last line has no line end"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cuts); i++) {
    g_file_set_contents(cut, full, cuts[i].len, NULL);
    g_free(o), g_free(e);
    assert_int_equal(test_pcsim(&o, &e, "merge", s1, s2, cut, NULL), 2);
    g_autofree char *where = g_strdup_printf("%s:", cut);
    if (!strstr(e, where) || !strstr(e, cuts[i].needle))
      fail_msg("cut %zu: '%s' lacks '%s'", i, e, cuts[i].needle);
    assert_string_equal(o, "");
  }
  g_free(full);
  /* a shard that lost its last row */
  char *text = slurp(s3);
  size_t len = strlen(text) - 1;
  while (len && text[len - 1] != '\n') len--;
  g_file_set_contents(s3, text, (gssize)len, NULL);
  g_free(text);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "merge", s1, s2, s3, NULL), 2);
  assert_non_null(strstr(e, "truncated"));
}

static void gnu_parallel_shards_merge_to_the_sweep(void **state) {
  g_autofree char *parallel = g_find_program_in_path("parallel");
  if (!parallel) {
    print_message("skipped: GNU parallel is not installed (apt-get install parallel)\n");
    skip();
  }
  g_autofree char *dir = test_tempdir();
  g_autofree char *pattern = g_build_filename(dir, "shard-{}.csv", NULL);
  char *argv[] = {parallel, "--will-cite", "-j", "2", PCSIM_BINARY, "sweep", SCEN, "--set", "workload.file_size=8M",
                  "--vary", "workload.threads=1..3", "--vary", "pool=1..16*2", "--shard", "{}/4", "--out", pattern,
                  ":::", "1", "2", "3", "4", NULL};
  int status = 0;
  g_autofree char *pout = NULL, *perr = NULL;
  assert_true(g_spawn_sync(PCSIM_SOURCE_DIR, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &pout, &perr, &status, NULL));
  if (!g_spawn_check_wait_status(status, NULL)) fail_msg("parallel: %s", perr);
  char *shards[4];
  for (int k = 0; k < 4; k++) shards[k] = g_strdup_printf("%s/shard-%d.csv", dir, k + 1);
  g_autofree char *merged = NULL, *err = NULL, *whole = NULL, *err2 = NULL;
  assert_int_equal(test_pcsim(&merged, &err, "merge", shards[0], shards[1], shards[2], shards[3], NULL), 0);
  assert_int_equal(test_pcsim(&whole, &err2, "sweep", SCEN, SMALL, GRID, NULL), 0);
  assert_string_equal(merged, whole);
  for (int k = 0; k < 4; k++) g_free(shards[k]);
}

/* The data row of LINE-th row (1-based) of a CSV file, without the first SKIP cells. */
static char *csv_row(const char *csv, int row, int skip) {
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  int seen = -1;
  for (char **l = lines; *l; l++) {
    if (**l == '#' || !**l) continue;
    if (++seen == row) {
      char *p = *l;
      for (int i = 0; i < skip; i++) p = strchr(p, ',') + 1;
      return g_strdup(p);
    }
  }
  fail_msg("no row %d", row);
  return NULL;
}

static void scenario_from_reruns_a_recorded_point(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "sweep.csv", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, "--seed", "7", "--vary", "workload.threads=2,3",
                              "--vary", "device.latency=20us,2ms", "--policy", "immediate,pool:8", "--out", path, NULL),
                   0);
  g_autofree char *sweep = slurp(path);
  /* every parameter, defaults included, and the seed */
  assert_non_null(strstr(sweep, "\n# scenario.seed=7\n"));
  assert_non_null(strstr(sweep, "\n# cpu.slice=1000000ns\n"));
  assert_non_null(strstr(sweep, "# pcsim "));
  for (int row = 1; row <= 8; row += 3) {
    g_autofree char *rowarg = g_strdup_printf("%d", row), *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "run", "--scenario-from", path, "--row", rowarg, "--format", "csv", NULL), 0);
    g_autofree char *want = csv_row(sweep, row, 2), *got = csv_row(out, 1, 0);
    assert_string_equal(got, want);
  }
  /* a sweep needs --row; rows past the end are refused */
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", "--scenario-from", path, NULL), 2);
  assert_non_null(strstr(e, "--row"));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", "--scenario-from", path, "--row", "99", NULL), 2);
  /* a run's JSON reruns to the same bytes */
  g_autofree char *json = g_build_filename(dir, "run.json", NULL);
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "run", "workloads/eight-threads.ini", SMALL, "--format", "json", NULL), 0);
  g_file_set_contents(json, o, -1, NULL);
  g_autofree char *again = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&again, &e2, "run", "--scenario-from", json, "--format", "json", NULL), 0);
  assert_string_equal(again, o);
}

static void plot_writes_png_and_svg_or_says_how_to_get_gnuplot(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *csv = g_build_filename(dir, "s.csv", NULL), *png = g_build_filename(dir, "p.png", NULL);
  g_autofree char *svg = g_build_filename(dir, "p.svg", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "sweep", SCEN, SMALL, GRID, "--out", csv, NULL), 0);
  char *no_path[] = {"PATH=/nonexistent", NULL};
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim_env(&o, &e, no_path, NULL, "plot", csv, "--x", "pool", "--y", "bios_per_mib", "--out",
                                  png, NULL), 2);
  assert_non_null(strstr(e, "apt-get install gnuplot"));
  assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
  g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) {
    print_message("skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n");
    skip();
  }
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", csv, "--x", "pool", "--y", "bios_per_mib", "--by", "workload.threads",
                              "--logx", "--out", png, NULL), 0);
  gsize len = 0;
  g_autofree char *bytes = NULL;
  assert_true(g_file_get_contents(png, &bytes, &len, NULL));
  assert_true(len > 1000);
  assert_memory_equal(bytes, "\x89PNG\r\n\x1a\n", 8);
  g_autofree char *tmp = g_strdup_printf("%s.tmp", png);
  assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", csv, "--x", "workload.threads", "--y", "aggregate_mib_s", "--by", "pool",
                              "--out", svg, NULL), 0);
  g_autofree char *text = slurp(svg);
  assert_non_null(strstr(text, "<svg"));
  assert_non_null(strstr(text, "aggregate throughput (MiB/s)"));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", csv, "--x", "pool", "--y", "bios_per_mib", "--where",
                              "workload.threads=2", "--terminal", "dumb", NULL), 0);
  assert_non_null(strstr(o, "bios per MiB"));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", csv, "--x", "pol", "--y", "bios", NULL), 2);
  assert_non_null(strstr(e, "no column 'pol'"));
}

/* `pcsim sweep job.fio --vary workload.threads=1,2` takes the fio job as
 * `pcsim run job.fio` does (the same default model, named on stderr): each
 * row is the run of the job with that --set. */
static void sweep_takes_a_fio_job_as_run_does(void **state) {
  g_autofree char *job = test_tempfile("job.fio", "[global]\nbs=128k\nsize=4M\nrw=read\nioengine=psync\n"
                                                  "[reader]\nnumjobs=4\n");
  g_autofree char *sweep = NULL, *err = NULL;
  int rc = test_pcsim(&sweep, &err, "sweep", job, "--vary", "workload.threads=1,2", "--policy", "pool:16", NULL);
  if (rc != 0) fail_msg("pcsim sweep: exit %d: %s", rc, err);
  assert_non_null(strstr(err, "no --model given; using the shipped scenario"));
  assert_non_null(strstr(sweep, "\n# scenario.kernel=v6.18\n"));
  for (int row = 0; row < 2; row++) {
    g_autofree char *set = g_strdup_printf("workload.threads=%d", row + 1), *out = NULL, *e = NULL;
    assert_int_equal(test_pcsim(&out, &e, "run", job, "--set", set, "--policy", "pool:16", "--format", "csv", NULL), 0);
    g_autofree char *want = csv_row(out, 1, 0), *got = csv_row(sweep, row + 1, 1); /* row 0: the header */
    assert_string_equal(got, want);
  }
}

/* A job's own key (workload.block_size, ...) varied over a job file of
 * several jobs is refused as --set is: each job reads with its own, and
 * the sweep's column would name a value no job ran with. */
static void varying_a_key_each_job_sets_is_refused(void **state) {
  g_autofree char *job = test_tempfile("jobs.fio", "[global]\nsize=4M\nrw=read\n[a]\nbs=4k\n[b]\nbs=8k\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "sweep", job, "--vary", "workload.block_size=16k,32k", NULL), 2);
  if (!strstr(err, "pcsim sweep: --vary workload.block_size=16384: workload.block_size: each of the 2 jobs reads with "
                   "its own"))
    fail_msg("%s", err);
  assert_string_equal(out, "");
}

static void sweep_bad_input_exits_2_and_writes_nothing(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *out_path = g_build_filename(dir, "never.csv", NULL);
  const char *cases[][3] = {
    {"--vary", "workload.thread=1,2", "did you mean 'workload.threads'"},
    {"--vary", "workload.threads=1..9999", "workload.threads"},
    {"--format", "table", "csv or json"},
    {"--shard", "5/4", "K/N"},
    {"--jobs", "-3", "--jobs"},
    {"--vary", "readahead.read_ahead_kb=2000000", "readahead.read_ahead_kb"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *o = NULL, *e = NULL;
    int rc = test_pcsim(&o, &e, "sweep", SCEN, SMALL, cases[i][0], cases[i][1], "--out", out_path, NULL);
    if (rc != 2 || !strstr(e, cases[i][2])) fail_msg("case %zu: rc %d, '%s' lacks '%s'", i, rc, e, cases[i][2]);
    assert_false(g_file_test(out_path, G_FILE_TEST_EXISTS));
  }
}

/* Waits (up to 20 s) until PID catches SIGINT and SIGTERM (/proc's SigCgt):
 * a signal sent before pcsim installs its handlers would just kill it, and
 * a loaded machine or a sanitizer build can take long to get there. */
static void wait_for_handlers(GPid pid) {
  g_autofree char *status_path = g_strdup_printf("/proc/%d/status", (int)pid);
  const guint64 want = (1u << (SIGINT - 1)) | (1u << (SIGTERM - 1));
  for (int tries = 0; tries < 2000; tries++) {
    g_autofree char *text = NULL;
    if (!g_file_get_contents(status_path, &text, NULL, NULL)) return; /* no /proc: rely on the sleep below */
    const char *cgt = strstr(text, "SigCgt:");
    if (cgt && (g_ascii_strtoull(cgt + strlen("SigCgt:"), NULL, 16) & want) == want) return;
    g_usleep(10000);
  }
  fail_msg("pcsim did not install its SIGINT/SIGTERM handlers within 20 s");
}

static void a_signal_stops_a_sweep_without_leaving_a_file(void **state) {
  const int sigs[] = {SIGINT, SIGTERM};
  for (size_t i = 0; i < 2; i++) {
    g_autofree char *dir = test_tempdir();
    g_autofree char *path = g_build_filename(dir, "long.csv", NULL);
    char *argv[] = {PCSIM_BINARY, "sweep", SCEN, "--vary", "workload.threads=1..64", "--out", path, NULL};
    GPid pid;
    gint err_fd;
    assert_true(g_spawn_async_with_pipes(PCSIM_SOURCE_DIR, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                         NULL, NULL, &err_fd, NULL));
    wait_for_handlers(pid);
    g_usleep(400000);
    kill(pid, sigs[i]);
    int status;
    waitpid(pid, &status, 0);
    char buf[4096] = {0};
    ssize_t n = read(err_fd, buf, sizeof buf - 1);
    close(err_fd);
    if (!WIFEXITED(status)) fail_msg("pcsim died of signal %d: %s", WTERMSIG(status), buf);
    assert_int_equal(WEXITSTATUS(status), 128 + sigs[i]);
    assert_true(n > 0 && strstr(buf, "interrupted"));
    assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
  }
}

/* Cancels the sweep once a point has finished (progress runs on the
 * calling thread about ten times a second). */
typedef struct {
  int cancel;
  uint64_t done_at_cancel, total;
} CancelAt;

static void cancel_after_first_point(void *user, uint64_t done, uint64_t total) {
  CancelAt *c = user;
  c->total = total;
  if (done >= 1 && !g_atomic_int_get(&c->cancel)) {
    c->done_at_cancel = done;
    g_atomic_int_set(&c->cancel, SIGINT);
  }
}

/* Before the fix every slot after the first unfilled one leaked (ASan's
 * leak check fails this test then); output must stay empty. */
static void cancelling_a_sweep_after_points_finished_prints_nothing(void **state) {
  for (guint jobs = 1; jobs <= 2; jobs++) {
    PcsParams p;
    PcsGrid g;
    GError *error = NULL;
    test_load(&p, SCEN);
    assert_true(pcs_params_set(&p, pcs_params_find_dotted("workload.file_size"), "64M", "test", &error));
    pcs_grid_init(&g);
    assert_true(pcs_grid_add(&g, "workload.threads=1..48", &error));
    assert_true(pcs_grid_finish(&g, &p, NULL, &error));
    CancelAt c = {0};
    PcsSweep sw = {.base = &p, .grid = &g, .shard = {1, 1}, .format = PCS_FORMAT_JSON, .jobs = jobs,
                   .cancel = &c.cancel, .progress = cancel_after_first_point, .progress_user = &c};
    g_autoptr(GString) out = g_string_new(NULL);
    gboolean ok = pcs_sweep_run(&sw, out, NULL, &error);
    assert_false(ok);
    assert_non_null(error);
    assert_true(g_error_matches(error, PCS_ERROR, PCS_ERROR_CANCELLED));
    g_clear_error(&error);
    assert_true(c.done_at_cancel >= 1 && c.done_at_cancel < c.total); /* cancelled after points finished */
    assert_int_equal(out->len, 0);
    pcs_grid_clear(&g);
    pcs_params_clear(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(merged_shards_equal_the_unsharded_sweep),
    cmocka_unit_test(merge_accepts_reindented_json_shards),
    cmocka_unit_test(merge_refuses_missing_duplicate_foreign_and_truncated_shards),
    cmocka_unit_test(cancelling_a_sweep_after_points_finished_prints_nothing),
    cmocka_unit_test(gnu_parallel_shards_merge_to_the_sweep),
    cmocka_unit_test(scenario_from_reruns_a_recorded_point),
    cmocka_unit_test(plot_writes_png_and_svg_or_says_how_to_get_gnuplot),
    cmocka_unit_test(sweep_bad_input_exits_2_and_writes_nothing),
    cmocka_unit_test(sweep_takes_a_fio_job_as_run_does),
    cmocka_unit_test(varying_a_key_each_job_sets_is_refused),
    cmocka_unit_test(a_signal_stops_a_sweep_without_leaving_a_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
