/* test_fio.c - fio job files: fio's syntax, what maps, what is refused, and
 * agreement with the real fio (`fio --parse-only`, `fio --showcmd`). */
#include "support.h"

#include "pcsim/fio.h"

#include <json-glib/json-glib.h>

static void sizes_follow_fio_kb_base(void **state) {
  struct {
    const char *text;
    unsigned base;
    uint64_t want;
  } ok[] = {
    {"4096", 1024, 4096}, {"32k", 1024, 32768}, {"32K", 1024, 32768}, {"32KB", 1024, 32768},
    {"1KiB", 1024, 1000}, {"1kib", 1024, 1000}, {"2000M", 1024, 2000ull << 20}, {"1g", 1024, 1ull << 30},
    {"1t", 1024, 1ull << 40}, {"1k", 1000, 1000}, {"1KiB", 1000, 1024}, {"16MiB", 1000, 16ull << 20},
    {"1MB", 1000, 1000000},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
    uint64_t v = 0;
    if (!pcs_fio_size(ok[i].text, ok[i].base, &v) || v != ok[i].want)
      fail_msg("%s (kb_base %u): got %" G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, ok[i].text, ok[i].base, v,
               ok[i].want);
  }
  const char *bad[] = {"", "k", "12x", "1kx", "99999999999999999999", "99999999P", "-4k"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    uint64_t v;
    if (pcs_fio_size(bad[i], 1024, &v)) fail_msg("'%s' accepted", bad[i]);
  }
}

static void load(PcsFioJob *job, const char *rel) {
  g_autofree char *path = test_path(rel);
  GError *error = NULL;
  if (!pcs_fio_load(job, path, &error)) fail_msg("%s", error->message);
}

static void fio_syntax_maps_onto_the_scenario(void **state) {
  PcsFioJob job;
  load(&job, "tests/data/fio/inherit.fio");
  assert_int_equal(job.numjobs, 2);
  assert_int_equal(job.bs, 16384);
  assert_int_equal(job.size, 64u << 20);
  assert_string_equal(job.name, "reader");
  pcs_fio_clear(&job);

  load(&job, "tests/data/fio/include.fio");
  assert_int_equal(job.numjobs, 3);
  assert_int_equal(job.bs, 8192);
  assert_true(job.group_reporting);
  pcs_fio_clear(&job);

  g_setenv("PCSIM_FIO_SIZE", "8m", TRUE);
  g_setenv("PCSIM_FIO_BS", "64k", TRUE);
  load(&job, "tests/data/fio/env.fio");
  assert_int_equal(job.size, 8u << 20);
  assert_int_equal(job.bs, 65536);
  pcs_fio_clear(&job);

  load(&job, "tests/data/fio/kb-base.fio");
  assert_int_equal(job.size, 16u << 20);
  assert_int_equal(job.bs, 4096);
  pcs_fio_clear(&job);

  load(&job, "tests/data/fio/two-jobs.fio");
  assert_int_equal(job.numjobs, 5);
  assert_int_equal(job.fadvise, PCS_FADVISE_PATTERN); /* fio's default "1" */
  pcs_fio_clear(&job);

  load(&job, "tests/data/fio/fadvise.fio");
  assert_int_equal(job.fadvise, PCS_FADVISE_SEQUENTIAL); /* the job's own wins over [global] */
  assert_int_equal(job.fadvise_line, 8);
  pcs_fio_clear(&job);

  PcsParams p;
  pcs_params_init(&p);
  load(&job, "workloads/liubo-2011.fio");
  GError *error = NULL;
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_int_equal(p.workload_threads, 4);
  assert_int_equal(p.workload_block_size, 32768);
  assert_int_equal(p.workload_file_size, 2000ull << 20);
  g_autofree char *accepted = g_strjoinv(" ", p.fio_accepted);
  assert_string_equal(accepted, "group_reporting thread directory=/mnt/btrfs/ filename=foobar");
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
}

/* The readahead window of TEXT's job applied to a 128 KiB bdi, in pages. */
static uint64_t window_pages_of(const char *text) {
  PcsFioJob job;
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error) || !pcs_fio_apply(&job, &p, &error) ||
      !pcs_params_set_assignment(&p, "readahead.read_ahead_kb=128", &error))
    fail_msg("%s", error->message);
  uint64_t pages = pcs_params_window_bytes(&p) / PCS_PAGE_SIZE;
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
  return pages;
}

/* fadvise_hint takes fio's values; the sequential advice (fio's default 1
 * for rw=read, or "sequential") doubles the window, 0 and noreuse do not. */
static void fadvise_hint_sets_the_window_as_fio_advises(void **state) {
  assert_int_equal(window_pages_of("[j]\nsize=8m\n"), 64);
  assert_int_equal(window_pages_of("[j]\nsize=8m\nfadvise_hint=1\n"), 64);
  assert_int_equal(window_pages_of("[j]\nsize=8m\nfadvise_hint=sequential\n"), 64);
  assert_int_equal(window_pages_of("[j]\nsize=8m\nfadvise_hint=0\n"), 32);
  assert_int_equal(window_pages_of("[j]\nsize=8m\nfadvise_hint=noreuse\n"), 32);
  assert_int_equal(window_pages_of("[global]\nfadvise_hint=0\n[j]\nsize=8m\n"), 32);
}

static void expect_refusal(const char *text, const char *needle) {
  PcsFioJob job;
  GError *error = NULL;
  assert_false(pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error));
  if (!strstr(error->message, needle)) fail_msg("'%s' lacks '%s'", error->message, needle);
  assert_int_equal(error->code, PCS_ERROR_INPUT);
  g_error_free(error);
  pcs_fio_clear(&job);
}

static void what_would_change_the_result_is_refused(void **state) {
  g_unsetenv("PCSIM_FIO_UNSET");
  expect_refusal("[j]\nsize=8m\nrw=randread\n", "job.fio:3: fio option 'rw=randread' is not modelled by pcsim");
  expect_refusal("[j]\nsize=8m\niodepth=32\n", "job.fio:3: fio option 'iodepth=32' is not modelled by pcsim");
  expect_refusal("[j]\nsize=8m\ndirect=1\n", "job.fio:3: fio option 'direct=1' is not modelled by pcsim");
  expect_refusal("[j]\nsize=8m\ninvalidate=0\n", "job.fio:3: fio option 'invalidate=0'");
  expect_refusal("[j]\nsize=8m\nioengine=libaio\n", "job.fio:3: fio option 'ioengine=libaio'");
  expect_refusal("[global]\ntime_based\n[j]\nsize=8m\n", "job.fio:2: fio option 'time_based' is not modelled by pcsim");
  expect_refusal("[j]\nsize=${PCSIM_FIO_UNSET}\n", "job.fio:2: ${PCSIM_FIO_UNSET} is not set");
  expect_refusal("[j]\nrw=read\n", "job 'j' has no size=");
  expect_refusal("bs=4k\n[j]\nsize=8m\n", "job.fio:1:");
  expect_refusal("[global]\nbs=4k\n", "no job section");
  expect_refusal("[j]\nsize=8m\nnumjobs=0\n", "job.fio:3: fio option numjobs");
  expect_refusal("[j]\nsize=8q\n", "job.fio:2: fio option size = '8q'");
  expect_refusal("[a]\nsize=8m\n[b]\nsize=16m\n", "job.fio:3: job 'b' reads differently");
  expect_refusal("[j\nsize=8m\n", "job.fio:1:");
  expect_refusal("[j]\nsize=8m\ninclude /nonexistent/x.fio\n", "job.fio:3: include:");
  /* fio's own words for a value it does not know (it matches them exactly) */
  expect_refusal("[j]\nsize=8m\nfadvise_hint=yes\n",
                 "job.fio:3: fio option fadvise_hint = 'yes': expected 0, 1, sequential, random or noreuse "
                 "(fio: failed parsing fadvise_hint=yes)");
  expect_refusal("[j]\nsize=8m\nfadvise_hint=Sequential\n", "fio: failed parsing fadvise_hint=Sequential");
  expect_refusal("[j]\nsize=8m\nfadvise_hint\n", "job.fio:3: fio option fadvise_hint = '': expected");
  expect_refusal("[j]\nsize=8m\nfadvise_hint=random\n",
                 "job.fio:3: fio option 'fadvise_hint=random' is not modelled by pcsim");
  expect_refusal("[a]\nsize=8m\n[b]\nsize=8m\nfadvise_hint=0\n", "job.fio:3: job 'b' reads differently");
}

/* The real fio accepts every file pcsim accepts and reads the same numjobs,
 * bs and size from it (fio --showcmd prints the options it parsed). */
static void real_fio_agrees(void **state) {
  g_autofree char *fio = g_find_program_in_path("fio");
  if (!fio) {
    print_message("skipped: fio is not installed (apt-get install fio)\n");
    skip();
  }
  g_setenv("PCSIM_FIO_SIZE", "8m", TRUE);
  g_setenv("PCSIM_FIO_BS", "64k", TRUE);
  const char *files[] = {"workloads/liubo-2011.fio", "tests/data/fio/inherit.fio", "tests/data/fio/include.fio",
                         "tests/data/fio/env.fio", "tests/data/fio/kb-base.fio", "tests/data/fio/two-jobs.fio",
                         "tests/data/fio/random.fio", "tests/data/fio/fadvise.fio"};
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *path = test_path(files[i]);
    PcsFioJob job;
    GError *error = NULL;
    gboolean ours = pcs_fio_load(&job, path, &error);
    g_clear_error(&error);
    char *parse[] = {fio, "--parse-only", path, NULL};
    int status = 0;
    g_autofree char *o1 = NULL, *e1 = NULL;
    assert_true(g_spawn_sync(PCSIM_SOURCE_DIR, parse, NULL, G_SPAWN_DEFAULT, NULL, NULL, &o1, &e1, &status, NULL));
    gboolean theirs = g_spawn_check_wait_status(status, NULL);
    if (ours && !theirs) fail_msg("%s: pcsim accepts it, fio --parse-only does not: %s", files[i], e1);
    if (ours && strstr(files[i], "two-jobs") == NULL) {
      char *show[] = {fio, "--showcmd", path, NULL};
      g_autofree char *o2 = NULL, *e2 = NULL;
      assert_true(g_spawn_sync(PCSIM_SOURCE_DIR, show, NULL, G_SPAWN_DEFAULT, NULL, NULL, &o2, &e2, &status, NULL));
      uint64_t numjobs = 1, bs = 4096, size = 0;
      PcsFadvise fadvise = PCS_FADVISE_PATTERN;
      unsigned kb = 1024;
      g_auto(GStrv) words = g_strsplit_set(g_strstrip(o2), " \n", -1);
      for (char **w = words; *w; w++)
        if (g_str_has_prefix(*w, "--kb_base=")) kb = (unsigned)atoi(*w + 10);
      for (char **w = words; *w; w++) {
        if (g_str_has_prefix(*w, "--numjobs=")) numjobs = g_ascii_strtoull(*w + 10, NULL, 10);
        if (g_str_has_prefix(*w, "--bs=")) assert_true(pcs_fio_size(*w + 5, kb, &bs));
        if (g_str_has_prefix(*w, "--size=")) assert_true(pcs_fio_size(*w + 7, kb, &size));
        if (g_str_has_prefix(*w, "--fadvise_hint=")) assert_true(pcs_params_fadvise_parse(*w + 15, &fadvise));
      }
      if (fadvise != job.fadvise)
        fail_msg("%s: fio --showcmd says fadvise_hint=%s, pcsim read %s", files[i], pcs_params_fadvise_name(fadvise),
                 pcs_params_fadvise_name(job.fadvise));
      if (numjobs != job.numjobs || bs != job.bs || size != job.size)
        fail_msg("%s: fio --showcmd says numjobs %" G_GUINT64_FORMAT " bs %" G_GUINT64_FORMAT " size %" G_GUINT64_FORMAT
                 ", pcsim read %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, files[i], numjobs, bs,
                 size, job.numjobs, job.bs, job.size);
    }
    pcs_fio_clear(&job);
  }
}

/* The seed's job names no fadvise_hint: fio advises sequential reading,
 * which doubles the window the INI scenario (fadvise_hint = 0) has; with
 * the same window the two give the same results. */
static void the_seed_job_gives_the_ini_results(void **state) {
  g_autofree char *a = NULL, *b = NULL, *e1 = NULL, *e2 = NULL, *d = NULL, *e3 = NULL;
  assert_int_equal(test_pcsim(&d, &e3, "run", "workloads/liubo-2011.fio", "--model", "workloads/liubo-2011.ini",
                              "--set", "workload.file_size=64M", "--format", "csv", NULL), 0);
  assert_non_null(strstr(d, "# readahead.fadvise_hint=1\n"));
  assert_non_null(strstr(d, "# derived readahead.window=262144\n"));
  assert_int_equal(test_pcsim(&a, &e1, "run", "workloads/liubo-2011.fio", "--model", "workloads/liubo-2011.ini",
                              "--set", "workload.file_size=64M", "--set", "readahead.fadvise_hint=0", "--format", "csv",
                              NULL), 0);
  assert_int_equal(test_pcsim(&b, &e2, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                              "--format", "csv", NULL), 0);
  const char *ra = strstr(a, "\npolicy,"), *rb = strstr(b, "\npolicy,");
  assert_non_null(ra);
  assert_non_null(rb);
  assert_string_equal(ra, rb);
  assert_non_null(strstr(a, "# fio accepted group_reporting thread directory=/mnt/btrfs/ filename=foobar\n"));
  assert_non_null(strstr(a, "# scenario.name=liubo-2011\n"));
  g_autofree char *o = NULL, *e = NULL;
  g_autofree char *rnd = test_path("tests/data/fio/random.fio");
  assert_int_equal(test_pcsim(&o, &e, "run", rnd, NULL), 2);
  assert_non_null(strstr(e, "random.fio:2: fio option 'rw=randread' is not modelled by pcsim"));
}

/* The command: a capture's job file on the modern scenario, with
 * the bdi's read_ahead_kb of that capture; fio's fadvise doubles it. */
static void a_job_runs_with_the_bdi_read_ahead_kb(void **state) {
  g_autofree char *o = NULL, *e = NULL, *o2 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&o, &e, "run", "workloads/liubo-2011.fio", "--model", "workloads/linux-6.18-btrfs.ini",
                              "--set", "readahead.read_ahead_kb=128", "--set", "workload.file_size=64M", "--format",
                              "csv", NULL), 0);
  assert_non_null(strstr(o, "# scenario.kernel=v6.18\n"));
  assert_non_null(strstr(o, "# readahead.read_ahead_kb=128\n"));
  assert_non_null(strstr(o, "# readahead.fadvise_hint=1\n"));
  assert_non_null(strstr(o, "# derived readahead.window=262144\n"));
  assert_int_equal(test_pcsim(&o2, &e2, "run", "workloads/liubo-2011.fio", "--model", "workloads/linux-6.18-btrfs.ini",
                              "--set", "readahead.read_ahead_kb=4096", "--set", "workload.file_size=64M", "--format",
                              "csv", NULL), 0);
  assert_non_null(strstr(o2, "# derived readahead.window=8388608\n"));
  const char *r1 = strstr(o, "\npolicy,"), *r2 = strstr(o2, "\npolicy,");
  assert_non_null(r1);
  assert_non_null(r2);
  assert_string_not_equal(r1, r2); /* the knob reaches the model */
}

static JsonArray *fio_jobs(JsonParser *parser, const char *text) {
  assert_true(json_parser_load_from_data(parser, text, -1, NULL));
  return json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "jobs");
}

/* What tools reading fio's JSON look at: jobs[].read.io_bytes, bw (KiB/s),
 * iops and runtime (ms), one entry per group with group_reporting. */
static void fio_json_reads_like_fio(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.fio", "--model", "workloads/liubo-2011.ini",
                              "--set", "workload.file_size=64M", "--format", "fio-json", NULL), 0);
  g_autoptr(JsonParser) parser = json_parser_new();
  JsonArray *jobs = fio_jobs(parser, out);
  assert_int_equal(json_array_get_length(jobs), 2); /* group_reporting: one entry per policy */
  for (guint i = 0; i < 2; i++) {
    JsonObject *job = json_array_get_object_element(jobs, i);
    assert_int_equal(json_object_get_int_member(job, "groupid"), i);
    JsonObject *rd = json_object_get_object_member(job, "read");
    gint64 bytes = json_object_get_int_member(rd, "io_bytes"), bw = json_object_get_int_member(rd, "bw");
    gint64 runtime = json_object_get_int_member(rd, "runtime");
    assert_int_equal(bytes, 4 * (64 << 20)); /* every thread reads the whole file */
    assert_true(runtime > 0);
    double want_bw = (double)bytes / 1024.0 / ((double)runtime / 1000.0);
    assert_true(bw > want_bw * 0.99 && bw < want_bw * 1.01);
    assert_true(json_object_get_double_member(rd, "iops") > 0);
  }
  /* without group_reporting: one entry per thread */
  g_autofree char *path = test_tempfile("ng.fio", "[global]\nbs=32k\nrw=read\n[READ]\nnumjobs=3\nsize=8m\n");
  g_autofree char *o2 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&o2, &e2, "run", path, "--policy", "pool:16", "--format", "fio-json", NULL), 0);
  g_autoptr(JsonParser) p2 = json_parser_new();
  JsonArray *j2 = fio_jobs(p2, o2);
  assert_int_equal(json_array_get_length(j2), 3);
  JsonObject *rd = json_object_get_object_member(json_array_get_object_element(j2, 0), "read");
  assert_int_equal(json_object_get_int_member(rd, "io_bytes"), 8 << 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(sizes_follow_fio_kb_base),
    cmocka_unit_test(fio_syntax_maps_onto_the_scenario),
    cmocka_unit_test(fadvise_hint_sets_the_window_as_fio_advises),
    cmocka_unit_test(what_would_change_the_result_is_refused),
    cmocka_unit_test(real_fio_agrees),
    cmocka_unit_test(the_seed_job_gives_the_ini_results),
    cmocka_unit_test(a_job_runs_with_the_bdi_read_ahead_kb),
    cmocka_unit_test(fio_json_reads_like_fio),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
