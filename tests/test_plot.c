/* test_plot.c - `pcsim plot` as a kernel engineer reads the figures: lines
 * told apart, axes in words and units, the conditions in the title, the
 * saved script reproducing the figure, and --timeline drawing the race. */
#include "support.h"

#include <glib/gstdio.h>
#include <math.h>

#define SEED "workloads/liubo-2011.ini"

static gboolean have_gnuplot(void) {
  g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) print_message("skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n");
  return gnuplot != NULL;
}

static char *slurp(const char *path) {
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) fail_msg("cannot read %s", path);
  return text;
}

/* A small sweep over device latency and three policies, into DIR/lat.csv. */
static char *latency_sweep(const char *dir) {
  char *csv = g_build_filename(dir, "lat.csv", NULL);
  g_autofree char *o = NULL, *e = NULL;
  /* a fixed end-io pool of 2 (not v3.5's on-demand one): pool:16 and
   * pool-contig:16 then lie on each other at 8 MiB, which the key must show */
  int rc = test_pcsim(&o, &e, "sweep", SEED, "--set", "workload.file_size=8M", "--set", "cpu.endio_idle_thresh=0",
                      "--set", "cpu.endio_workers=2", "--vary",
                      "device.latency=10us,20us,40us,80us", "--vary", "policy=immediate,pool:16,pool-contig:16", "--out",
                      csv, NULL);
  if (rc) fail_msg("sweep: exit %d: %s", rc, e);
  return csv;
}

/* The script gnuplot ran, saved with --script, for ARGS after `plot CSV`. */
static char *script_of(const char *dir, const char *csv, const char *const *args, char **err) {
  g_autofree char *gp = g_build_filename(dir, "p.gp", NULL), *png = g_build_filename(dir, "p.png", NULL);
  GPtrArray *argv = g_ptr_array_new();
  const char *head[] = {"plot", csv, "--out", png, "--script", gp};
  for (size_t i = 0; i < G_N_ELEMENTS(head); i++) g_ptr_array_add(argv, (char *)head[i]);
  for (const char *const *a = args; *a; a++) g_ptr_array_add(argv, (char *)*a);
  g_ptr_array_add(argv, NULL);
  g_autofree char *out = NULL;
  int rc = test_pcsim_argv(&out, err, FALSE, (const char *const *)argv->pdata);
  g_ptr_array_free(argv, TRUE);
  if (rc) fail_msg("plot: exit %d: %s", rc, *err);
  assert_true(g_file_test(png, G_FILE_TEST_EXISTS));
  return slurp(gp);
}

/* --script saves what reproduces the figure: it draws into --out, not
 * into the temporary file pcsim renames. */
static void saved_script_draws_into_the_output_file(void **state) {
  if (!have_gnuplot()) skip();
  g_autofree char *dir = test_tempdir(), *csv = latency_sweep(dir), *err = NULL;
  const char *args[] = {"--x", "device.latency", "--y", "aggregate_mib_s", "--by", "policy", NULL};
  g_autofree char *gp = script_of(dir, csv, args, &err);
  g_autofree char *want = g_strdup_printf("set output \"%s/p.png\"\n", dir);
  assert_non_null(strstr(gp, want));
  assert_null(strstr(gp, ".tmp"));
}

/* Lines that lie on each other stay visible (each its own dash and point
 * type) and the key says which lies on which; axes read in words with
 * units; a log axis over the sweep's values is ticked at those values and
 * ends at them; the key sits beside the plot; the title says what every
 * point shares. */
static void lines_axes_and_title_read_at_a_glance(void **state) {
  if (!have_gnuplot()) skip();
  g_autofree char *dir = test_tempdir(), *csv = latency_sweep(dir), *err = NULL;
  const char *args[] = {"--x", "device.latency", "--y", "aggregate_mib_s", "--by", "policy", "--logx", NULL};
  g_autofree char *gp = script_of(dir, csv, args, &err);
  assert_non_null(strstr(gp, "dt 1 pt 7"));
  assert_non_null(strstr(gp, "dt 2 pt 5"));
  assert_non_null(strstr(gp, "dt 3 pt 9"));
  assert_non_null(strstr(gp, "within 1% of")); /* pool-contig:16 lies on pool:16 */
  assert_non_null(strstr(gp, "set xlabel \"device latency (us)\""));
  assert_null(strstr(gp, "device.latency"));
  assert_non_null(strstr(gp, "set xtics (\"10\" 10, \"20\" 20, \"40\" 40, \"80\" 80)"));
  assert_non_null(strstr(gp, "\\n4 reader threads, file size 8 MiB, block size 32 KiB"));
  /* the key beside the plot, not over the first points; the x axis from 10 to 80, not
   * stretched to the next power of ten */
  assert_non_null(strstr(gp, "set key outside right top box opaque\n"));
  assert_non_null(strstr(gp, "set autoscale xfix\n"));
}

/* --where belongs in the title; rows of several policies without --by are
 * drawn one line per policy (with a note), never as one zigzag. */
static void where_in_title_and_policies_never_zigzag(void **state) {
  if (!have_gnuplot()) skip();
  g_autofree char *dir = test_tempdir(), *csv = latency_sweep(dir), *err = NULL;
  const char *args[] = {"--x", "device.latency", "--y", "bios_per_mib", "--where", "device.latency=10us", NULL};
  g_autofree char *one = NULL, *gp = NULL;
  const char *by_none[] = {"--x", "device.latency", "--y", "bios_per_mib", NULL};
  gp = script_of(dir, csv, by_none, &err);
  assert_non_null(strstr(err, "one line per policy"));
  assert_non_null(strstr(gp, "title \"immediate\""));
  assert_non_null(strstr(gp, "title \"pool:16\""));
  g_free(err), err = NULL;
  one = script_of(dir, csv, args, &err);
  assert_non_null(strstr(one, "where device.latency=10us"));
}

/* `plot TRACE --timeline`: the seed's diagram as a picture, from the trace
 * of `pcsim run --trace`: every add and read of the page range in its
 * thread's column, each bio a bracket with its page range.  Pages 400-415
 * of the seed cut to 4 MiB: threads 3 and 4 alternate indices there, and
 * every bio holds one page. */
static void timeline_draws_the_race(void **state) {
  if (!have_gnuplot()) skip();
  g_autofree char *dir = test_tempdir();
  g_autofree char *tsv = g_build_filename(dir, "seed.tsv", NULL), *svg = g_build_filename(dir, "race.svg", NULL);
  g_autofree char *gp = g_build_filename(dir, "race.gp", NULL);
  g_autofree char *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "run", SEED, "--set", "workload.file_size=4M", "--trace", tsv, NULL), 0);
  g_free(o), g_free(e);
  /* two policies in the trace: which one? */
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--out", svg, NULL), 2);
  assert_non_null(strstr(e, "pick one with --policy"));
  assert_non_null(strstr(e, "immediate, pool:16"));
  assert_false(g_file_test(svg, G_FILE_TEST_EXISTS));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--policy", "immediate", "--pages", "400-415", "--out",
                              svg, "--script", gp, NULL), 0);
  g_autofree char *pic = slurp(svg), *script = slurp(gp);
  assert_non_null(strstr(pic, "<svg"));
  assert_non_null(strstr(pic, "thread 4"));
  assert_non_null(strstr(pic, "thread 3"));
  assert_non_null(strstr(script, "\"add Page 400\""));
  assert_non_null(strstr(script, "\"read Page 401\""));
  assert_non_null(strstr(script, "set arrow")); /* the bio brackets */
  assert_non_null(strstr(script, "\"submit bio 400..400\""));
  assert_non_null(strstr(script, "\"submit bio 401..401\""));
  assert_null(strstr(script, "\"add Page 416\""));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--pages", "9-3", NULL), 2);
  assert_non_null(strstr(e, "--pages '9-3'"));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--pages", "1-3", "--x", "a", "--y", "b", NULL), 2);
  assert_non_null(strstr(e, "add --timeline"));
  g_autofree char *csv = test_tempfile("r.csv", "policy,bios\nimmediate,3\n");
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", csv, "--timeline", NULL), 2);
  assert_non_null(strstr(e, ":1: not a `pcsim run --trace FILE` file"));
}

/* The picture says what `pcsim run --timeline` says: by default the same
 * pages (the 32 after the first readahead window), one column per thread
 * even for a thread with nothing there, every label a cell of the text
 * ("submit bio 32..39", never "bio 0-31"), each bracket left of its
 * thread's points where no label reaches.  A range too long to draw is
 * refused with the widest that fits, and nothing is written. */
static void timeline_picture_matches_the_text_and_stays_drawable(void **state) {
  if (!have_gnuplot()) skip();
  g_autofree char *dir = test_tempdir();
  g_autofree char *tsv = g_build_filename(dir, "seed.tsv", NULL), *png = g_build_filename(dir, "race.png", NULL);
  g_autofree char *gp = g_build_filename(dir, "race.gp", NULL);
  g_autofree char *text = NULL, *o = NULL, *e = NULL;
  assert_int_equal(test_pcsim(&text, &e, "run", SEED, "--set", "workload.file_size=4M", "--policy", "immediate",
                              "--timeline", "--trace", tsv, NULL), 0);
  assert_non_null(strstr(text, "\ntimeline immediate, pages 32-63\n"));
  g_free(e), e = NULL;
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--out", png, "--script", gp, NULL), 0);
  g_autofree char *script = NULL;
  assert_true(g_file_get_contents(gp, &script, NULL, NULL));
  assert_non_null(strstr(script, ": timeline of pages 32-63\\n"));
  assert_non_null(strstr(script, "set xtics (\"thread 1\" 1, \"thread 2\" 2, \"thread 3\" 3, \"thread 4\" 4)"));
  const char *data = strstr(script, "$ev << EOD\n");
  assert_non_null(data);
  g_auto(GStrv) lines = g_strsplit(data, "\n", -1);
  guint labels = 0, submits = 0;
  for (char **l = lines + 1; *l && strcmp(*l, "EOD"); l++) {
    g_auto(GStrv) q = g_strsplit(*l, "\"", 3); /* THREAD ROW "LABEL" COLOUR */
    assert_int_equal(g_strv_length(q), 3);
    g_autofree char *cell = g_strdup_printf("  %s", q[1]);
    if (!strstr(text, cell)) fail_msg("the picture's '%s' is not a cell of the text timeline", q[1]);
    labels++, submits += g_str_has_prefix(q[1], "submit bio ");
  }
  assert_true(labels > 32 && submits > 0);
  /* brackets: left of the thread's column (x < thread), labels to its right */
  g_auto(GStrv) arrows = g_strsplit(script, "set arrow from ", -1);
  for (guint i = 1; arrows[i]; i++) {
    double x = g_ascii_strtod(arrows[i], NULL);
    double frac = x - floor(x + 0.5);
    if (frac > 0 || frac < -0.2) fail_msg("a bracket at x %.2f, not just left of a column", x);
  }
  g_free(o), g_free(e);
  g_autofree char *big = g_build_filename(dir, "big.png", NULL);
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--pages", "0-1023", "--out", big, NULL), 2);
  assert_non_null(strstr(e, "pcsim plot: --pages 0-1023: "));
  assert_non_null(strstr(e, "a timeline draws at most 500 (one row each, 8060 pixels high): try --pages 0-"));
  assert_false(g_file_test(big, G_FILE_TEST_EXISTS));
  /* the range it suggests is drawn */
  const char *try = strstr(e, "try --pages ");
  g_autofree char *range = g_strndup(try + 12, strcspn(try + 12, " "));
  g_free(o), g_free(e);
  assert_int_equal(test_pcsim(&o, &e, "plot", tsv, "--timeline", "--pages", range, "--out", big, NULL), 0);
  g_autofree char *drawn = NULL;
  gsize png_len = 0;
  assert_true(g_file_get_contents(big, &drawn, &png_len, NULL)); /* drawn: a PNG file */
  assert_true(png_len > 8 && memcmp(drawn, "\x89PNG\r\n\x1a\n", 8) == 0);
}

/* `pcsim plot st.ini`: a scenario (or fio job, schedule, kernel trace) is
 * not a result file; plot says so and how to make one, before --x/--y or
 * gnuplot matter, instead of "expected 1 cells as in the header". */
static void plot_of_a_scenario_says_how_to_make_a_result_file(void **state) {
  g_autofree char *ini = test_tempfile("st.ini", "# my scenario\n[workload]\nthreads = 2\nfile_size = 8M\n");
  g_autofree char *job = test_tempfile("job.fio", "[reader]\nrw=read\nsize=8m\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "plot", ini, NULL), 2);
  g_autofree char *want = g_strdup_printf("pcsim plot: %s: is a scenario, not a result file: run it with `pcsim run %s "
                                          "--format csv > r.csv` (or `pcsim sweep %s --vary KEY=LIST --out r.csv`), "
                                          "then plot r.csv\n", ini, ini, ini);
  assert_string_equal(err, want);
  assert_string_equal(out, "");
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "plot", ini, "--histogram", NULL), 2);
  assert_non_null(strstr(err, "run it with `pcsim run "));
  assert_non_null(strstr(err, " --format json > r.json`, then `pcsim plot r.json --histogram`"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "plot", ini, "--timeline", NULL), 2);
  assert_non_null(strstr(err, " --trace r.tsv`, then `pcsim plot r.tsv --timeline`"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "plot", job, "--x", "a", "--y", "b", NULL), 2);
  assert_non_null(strstr(err, "is a fio job file, not a result file"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "plot", "workloads/liubo-diagram.sched", NULL), 2);
  assert_non_null(strstr(err, "is a schedule of `pcsim replay`"));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "plot", "tests/data/blkparse-sample.txt", NULL), 2);
  assert_non_null(strstr(err, "is a kernel block trace, not a result file: read it with `pcsim trace-stats "));
  g_free(out), g_free(err);
  g_autofree char *one = test_tempfile("one.csv", "bios\n1,2\n"); /* a broken CSV: one cell, not "1 cells" */
  assert_int_equal(test_pcsim(&out, &err, "plot", one, "--x", "bios", "--y", "bios", NULL), 2);
  assert_non_null(strstr(err, "one.csv:2: expected 1 cell as in the header, found 2\n"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(saved_script_draws_into_the_output_file),
    cmocka_unit_test(lines_axes_and_title_read_at_a_glance),
    cmocka_unit_test(where_in_title_and_policies_never_zigzag),
    cmocka_unit_test(timeline_draws_the_race),
    cmocka_unit_test(plot_of_a_scenario_says_how_to_make_a_result_file),
    cmocka_unit_test(timeline_picture_matches_the_text_and_stays_drawable),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
