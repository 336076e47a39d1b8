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
  assert_string_equal(accepted, "group_reporting thread directory=/mnt/btrfs/ filename=foobar invalidate=1");
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
  expect_refusal("[j]\nsize=8m\nrw=randwrite\n", "job.fio:3: fio option 'rw=randwrite' is not modelled by pcsim (a write");
  expect_refusal("[j]\nsize=8m\nrw=readwrite\n", "job.fio:3: fio option 'rw=readwrite' is not modelled by pcsim (a write");
  expect_refusal("[j]\nsize=8m\nrw=randrw\n", "(a write: it models reads");
  expect_refusal("[j]\nsize=8m\nramp_time=2\n", "job.fio:3: fio option 'ramp_time=2' is not modelled by pcsim");
  expect_refusal("[j]\nsize=8m\ndirect=1\n", "job.fio:3: fio option 'direct=1' is not modelled by pcsim");
  expect_refusal("[j]\nsize=8m\ninvalidate=0\n", "job.fio:3: fio option 'invalidate=0'");
  expect_refusal("[j]\nsize=8m\nioengine=posixaio\n", "job.fio:3: fio option 'ioengine=posixaio'");
  expect_refusal("[global]\nthinktime=10\n[j]\nsize=8m\n", "job.fio:2: fio option 'thinktime=10' is not modelled by pcsim");
  /* scheduling the model does not carry, refused with why; a size as a share of a real file */
  expect_refusal("[j]\nsize=8m\ncpus_allowed=0\n", "job.fio:3: fio option 'cpus_allowed=0' is not modelled by pcsim (CPU affinity");
  expect_refusal("[j]\nsize=8m\nprio=4\n", "job.fio:3: fio option 'prio=4' is not modelled by pcsim (an I/O priority");
  expect_refusal("[j]\nsize=8m\nnice=5\n", "job.fio:3: fio option 'nice=5' is not modelled by pcsim (a nice value");
  PcsFioJob nice0;
  GError *nice_error = NULL;
  const char *nice_text = "[j]\nsize=8m\nnice=0\n"; /* fio's default */
  assert_true(pcs_fio_load_text(&nice0, "job.fio", nice_text, strlen(nice_text), &nice_error));
  pcs_fio_clear(&nice0);
  expect_refusal("[j]\nsize=50%\n", "job.fio:2: fio option 'size=50%' is not modelled by pcsim (a share of the device or file");
  expect_refusal("[j]\nsize=${PCSIM_FIO_UNSET}\n", "job.fio:2: ${PCSIM_FIO_UNSET} is not set");
  expect_refusal("[j]\nrw=read\n", "job 'j' has no size=");
  expect_refusal("bs=4k\n[j]\nsize=8m\n", "job.fio:1:");
  expect_refusal("[global]\nbs=4k\n", "no job section");
  expect_refusal("[j]\nsize=8m\nnumjobs=0\n", "job.fio:3: fio option numjobs");
  expect_refusal("[j]\nsize=8q\n", "job.fio:2: fio option size = '8q'");
  expect_refusal("[j\nsize=8m\n", "job.fio:1:");
  expect_refusal("[j]\nsize=8m\ninclude /nonexistent/x.fio\n", "job.fio:3: include:");
  /* fio's own words for a value it does not know (it matches them exactly) */
  expect_refusal("[j]\nsize=8m\nfadvise_hint=yes\n",
                 "job.fio:3: fio option fadvise_hint = 'yes': expected 0, 1, sequential, random or noreuse "
                 "(fio: failed parsing fadvise_hint=yes)");
  expect_refusal("[j]\nsize=8m\nfadvise_hint=Sequential\n", "fio: failed parsing fadvise_hint=Sequential");
  expect_refusal("[j]\nsize=8m\nfadvise_hint\n", "job.fio:3: fio option fadvise_hint = '': expected");
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
 * which doubles btrfs's 4 MiB bdi window, as the INI scenario states
 * (fadvise_hint = 1): the job and the INI give the same results.  Without
 * the hint the window halves and the results change. */
static void the_seed_job_gives_the_ini_results(void **state) {
  g_autofree char *a = NULL, *b = NULL, *e1 = NULL, *e2 = NULL, *d = NULL, *e3 = NULL;
  assert_int_equal(test_pcsim(&a, &e1, "run", "workloads/liubo-2011.fio", "--model", "workloads/liubo-2011.ini",
                              "--set", "workload.file_size=64M", "--format", "csv", NULL), 0);
  assert_non_null(strstr(a, "# readahead.fadvise_hint=1\n"));
  assert_non_null(strstr(a, "# derived readahead.window=8388608\n"));
  assert_int_equal(test_pcsim(&b, &e2, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M",
                              "--format", "csv", NULL), 0);
  const char *ra = strstr(a, "\npolicy,"), *rb = strstr(b, "\npolicy,");
  assert_non_null(ra);
  assert_non_null(rb);
  assert_string_equal(ra, rb);
  assert_int_equal(test_pcsim(&d, &e3, "run", "workloads/liubo-2011.fio", "--model", "workloads/liubo-2011.ini",
                              "--set", "workload.file_size=64M", "--set", "readahead.fadvise_hint=0", "--format", "csv",
                              NULL), 0);
  assert_non_null(strstr(d, "# derived readahead.window=4194304\n"));
  const char *rd = strstr(d, "\npolicy,");
  assert_non_null(rd);
  assert_string_not_equal(rd, ra);
  assert_non_null(strstr(a, "# fio accepted group_reporting thread directory=/mnt/btrfs/ filename=foobar invalidate=1\n"));
  assert_non_null(strstr(a, "# scenario.name=liubo-2011\n"));
  g_autofree char *o = NULL, *e = NULL;
  g_autofree char *rnd = test_path("tests/data/fio/random.fio");
  /* a 4k randread of 16 MiB, fio's fadvise_hint=1: POSIX_FADV_RANDOM, one 4k bio a block */
  assert_int_equal(test_pcsim(&o, &e, "run", rnd, "--format", "csv", NULL), 0);
  assert_non_null(strstr(o, "# workload.rw=randread\n"));
  assert_non_null(strstr(o, "# derived readahead.window=4194304\n")); /* the bdi's 4096 KiB, not doubled */
  assert_float_equal(test_csv_cell(o, "window", 6), 256.0, 1e-9);
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


/* rw=randread and its options as scenario keys: fio's seeds as fio 3.33
 * derives them (randseed alone seeds as randrepeat=1 does), and on
 * rw=read the same options are accepted without effect. */
static char *random_key(const char *text, const char *key) {
  PcsFioJob job;
  GError *error = NULL;
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error)) fail_msg("%s", error->message);
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_fio_apply(&job, &p, NULL));
  char *v = pcs_params_format(&p, pcs_params_find_dotted(key));
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
  return v;
}

#define EXPECT_KEY(text, key, want)                     \
  do {                                                  \
    g_autofree char *v_ = random_key(text, key);        \
    assert_string_equal(v_, want);                      \
  } while (0)

static void randread_options_map_onto_the_scenario(void **state) {
  const char *rr = "[j]\nsize=8m\nrw=randread\n";
  EXPECT_KEY(rr, "workload.rw", "randread");
  EXPECT_KEY("[j]\nsize=8m\nreadwrite=randread\n", "workload.rw", "randread"); /* fio's alias of rw */
  EXPECT_KEY(rr, "workload.random_seed", "fio");
  EXPECT_KEY(rr, "workload.random_generator", "tausworthe");
  EXPECT_KEY(rr, "workload.norandommap", "0");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\nrandrepeat=0\n", "workload.random_seed", "scenario");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\nrandseed=42\n", "workload.random_seed", "fio-noreseed");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\nrandseed=42\nrandrepeat=0\n", "workload.random_seed", "42");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\nrandom_generator=tausworthe64\n", "workload.random_generator", "tausworthe64");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\nnorandommap\n", "workload.norandommap", "1");
  EXPECT_KEY("[j]\nsize=8m\nnorandommap\n", "workload.norandommap", "0"); /* rw=read: no effect */
  EXPECT_KEY("[j]\nsize=8m\nrw=read\n", "workload.rw", "read");
  /* fio's fadvise_hint=1 on randread is POSIX_FADV_RANDOM: the bdi's window, not doubled */
  assert_int_equal(window_pages_of("[j]\nsize=8m\nrw=randread\n"), 32);
  assert_int_equal(window_pages_of("[j]\nsize=8m\nrw=randread\nfadvise_hint=sequential\n"), 64);
  expect_refusal("[j]\nsize=8m\nrw=randread\nallrandrepeat=1\n", "job.fio:4: fio option 'allrandrepeat=1' is not modelled");
  EXPECT_KEY("[j]\nsize=8m\nrw=randread\npercentage_random=100\n", "workload.rw", "randread"); /* fio's default */
  expect_refusal("[j]\nsize=8m\nrw=randread\npercentage_random=50\n",
                 "job.fio:4: fio option 'percentage_random=50' is not modelled by pcsim (a mix of random and sequential");
  expect_refusal("[j]\nsize=8m\npercentage_random=100\n", "(random I/O in a sequential job: give rw=randread)");
  expect_refusal("[j]\nsize=8m\nrw=randread\nrandseed=abc\n",
                 "job.fio:4: fio option randseed = 'abc': expected an integer (fio: failed parsing randseed=abc)");
}

/* A randread job through the CLI: with fio's default fadvise_hint=1 a 4k
 * block is one 4k bio (256 bios/MiB, the kernel's count in
 * tests/data/kernel-6.18-randread/), 32k blocks 32 bios/MiB; the same seed
 * prints the same bytes, and randrepeat=0 reads another order per seed. */
/* ioengine=libaio and io_uring with direct=0 (fio's default) run: the
 * engine and fio's iodepth options (iodepth_batch_submit and
 * iodepth_batch_complete are fio's aliases) reach workload.*; what is not
 * modelled is refused by name with its line, and an io_uring job pcsim
 * cannot run (kernel v3.5, loops) names the key. */
static void async_engines_run_or_name_what_is_not_modelled(void **state) {
  const char *text = "[global]\nioengine=io_uring\niodepth=32\niodepth_batch_submit=8\niodepth_batch_complete=4\n"
                     "iodepth_low=16\ndirect=0\n[j]\nsize=8m\nfilename=f\n";
  PcsFioJob job;
  PcsParams p;
  GError *error = NULL;
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", NULL);
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error) || !pcs_fio_apply(&job, &p, &error) ||
      !pcs_params_validate(&p, &error))
    fail_msg("%s", error->message);
  assert_string_equal(p.workload_ioengine, "io_uring");
  assert_int_equal(p.workload_iodepth, 32);
  assert_int_equal(p.workload_iodepth_batch, 8);
  assert_int_equal(p.workload_iodepth_batch_complete_min, 4);
  assert_int_equal(p.workload_iodepth_low, 16);
  for (guint i = 0; i < job.accepted->len; i++) /* modelled, not "accepted without effect" */
    assert_null(strstr(g_ptr_array_index(job.accepted, i), "iodepth"));
  pcs_fio_clear(&job);
  /* the same job on v3.5 (no io_uring) names the key */
  test_set(&p, "scenario.kernel=v3.5", NULL);
  assert_false(pcs_params_validate(&p, &error));
  assert_non_null(strstr(error->message, "workload.ioengine = io_uring needs kernel = v6.18"));
  g_clear_error(&error);
  pcs_params_clear(&p);
  /* io_uring over several loops is not modelled: the engine's line is named */
  const char *rand = "[j]\nsize=8m\nioengine=io_uring\nloops=2\n";
  pcs_params_init(&p);
  test_set(&p, "scenario.kernel=v6.18", NULL);
  assert_true(pcs_fio_load_text(&job, "job.fio", rand, strlen(rand), &error) && pcs_fio_apply(&job, &p, &error));
  assert_false(pcs_params_validate(&p, &error));
  assert_non_null(strstr(error->message, "job.fio:3: workload.ioengine = io_uring with workload.loops > 1 or workload.time_based is not modelled"));
  g_clear_error(&error);
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
  expect_refusal("[j]\nsize=8m\nioengine=libaio\ndirect=1\n", "job.fio:4: fio option 'direct=1' is not modelled");
  expect_refusal("[j]\nsize=8m\nioengine=io_uring\nsqthread_poll\n",
                 "job.fio:4: fio option 'sqthread_poll' is not modelled by pcsim (a kernel thread polls io_uring's "
                 "submission queue (SQPOLL))");
  expect_refusal("[j]\nsize=8m\nioengine=io_uring\nfixedbufs\n", "'fixedbufs' is not modelled by pcsim (io_uring's registered buffers)");
  expect_refusal("[j]\nsize=8m\nioengine=io_uring\nregisterfiles=1\n", "(io_uring's registered files (fixed files))");
  expect_refusal("[j]\nsize=8m\nioengine=io_uring\nhipri\n", "(polled completions (IOPOLL) are for direct I/O)");
  expect_refusal("[j]\nsize=8m\nioengine=libaio\nuserspace_reap\n", "without io_getevents()");
  expect_refusal("[j]\nsize=8m\nioengine=libaio\nio_submit_mode=offload\n",
                 "job.fio:4: fio option 'io_submit_mode=offload' is not modelled by pcsim (offload: fio's own worker threads");
  expect_refusal("[j]\nsize=8m\nioengine=libaio\niodepth=0\n", "job.fio:4: fio option iodepth = '0': expected an integer "
                 "from 1 to 65536 (fio: min value out of range)");
  expect_refusal("[j]\nsize=8m\nioengine=posixaio\n", "'ioengine=posixaio' is not modelled by pcsim (an async engine");
}

static void randread_runs_and_repeats(void **state) {
  g_autofree char *job = test_tempfile("rr.fio", "[r]\nthread\nrw=randread\nbs=4k\nsize=8m\nnumjobs=2\nfilename=f\n");
  g_autofree char *a = NULL, *b = NULL, *e1 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&a, &e1, "run", job, "--format", "csv", NULL), 0);
  assert_int_equal(test_pcsim(&b, &e2, "run", job, "--format", "csv", NULL), 0);
  assert_string_equal(a, b);
  /* two threads on one file: a block the other read is a hit, not a bio */
  assert_float_equal(test_csv_cell(a, "window", 6), 256.0, 1e-9);
  assert_true(test_csv_cell(a, "window", 3) < 2 * 2048);
  g_autofree char *j32 = test_tempfile("rr32.fio", "[r]\nrw=randread\nbs=32k\nsize=8m\n");
  g_autofree char *c = NULL, *e3 = NULL;
  assert_int_equal(test_pcsim(&c, &e3, "run", j32, "--format", "csv", NULL), 0);
  assert_float_equal(test_csv_cell(c, "window", 6), 32.0, 1e-9);
  assert_float_equal(test_csv_cell(c, "window", 15), 256.0, 1e-9); /* ra_sync: one forced readahead a block */
  assert_float_equal(test_csv_cell(c, "window", 16), 0.0, 1e-9);   /* ra_async: no marker is ever set */
  g_autofree char *jn = test_tempfile("rrn.fio", "[r]\nrw=randread\nbs=4k\nsize=8m\nrandrepeat=0\nfadvise_hint=0\n");
  g_autofree char *s1 = NULL, *s2 = NULL, *e4 = NULL, *e5 = NULL;
  assert_int_equal(test_pcsim(&s1, &e4, "run", jn, "--format", "csv", "--seed", "1", NULL), 0);
  assert_int_equal(test_pcsim(&s2, &e5, "run", jn, "--format", "csv", "--seed", "2", NULL), 0);
  assert_true(test_csv_cell(s1, "window", 15) != test_csv_cell(s2, "window", 15) ||
              test_csv_cell(s1, "window", 3) != test_csv_cell(s2, "window", 3));
}

/* ---- fio's own examples (tests/data/fio-examples, GPL-2.0, see its README) ---- */

/* Each of fio's examples (examples/NAME.fio) and what pcsim says of it: NULL runs, else
 * the options that must all be named in its one refusal (the kind of I/O:
 * rw, ioengine, direct, buffered, random_distribution; the first refused
 * option when the kind of I/O is modelled).  None of fio's examples is a
 * plain buffered sequential read: 1mbs_clients.fio comes closest (rate
 * limits, staggered starts), backwards-read.fio skips back 8k per read.
 * loops, runtime, time_based and a page-aligned offset are modelled: no
 * refusal names them. */
typedef struct {
  const char *file;
  const char *named[5];
} Example;

static const Example examples[] = {
  {"1mbs_clients.fio", {"rate=1250"}},
  {"aio-read.fio", {"buffered=0"}},
  {"atomic-verify.fio", {"rw=randwrite", "direct=1", "atomic=1"}},
  {"backwards-read.fio", {"rw=read:-8k"}},
  {"basic-verify.fio", {"rw=randwrite", "direct=1"}},
  {"butterfly.fio", {"direct=1", "rw=read:-8k"}},
  {"cmdprio-bssplit.fio", {"direct=1", "rw=randrw"}},
  {"cmdprio-percentage.fio", {"direct=1"}},
  {"cpp_null.fio", {"ioengine=cpp_null"}},
  {"cpuio.fio", {"ioengine=cpuio"}},
  {"cross-stripe-verify.fio", {"direct=1", "rw=write:112k"}},
  {"dedupe-global.fio", {"rw=write"}},
  {"dev-dax.fio", {"ioengine=dev-dax", "rw=randwrite"}},
  {"dfs.fio", {"ioengine=dfs", "rw=write"}},
  {"dircreate-ioengine.fio", {"ioengine=dircreate"}},
  {"dirdelete-ioengine.fio", {"ioengine=dirdelete"}},
  {"dirstat-ioengine.fio", {"ioengine=dirstat"}},
  {"disk-zone-profile.fio", {"direct=1"}},
  {"e4defrag.fio", {"ioengine=e4defrag", "buffered=0", "rw=write", "direct=1"}},
  {"e4defrag2.fio", {"ioengine=e4defrag", "buffered=0", "rw=write", "direct=1"}},
  {"enospc-pressure.fio", {"direct=1", "buffered=0", "rw=randwrite"}},
  {"example_latency_steadystate.fio", {"direct=1"}},
  {"exec.fio", {"ioengine=exec"}},
  {"exitwhat.fio", {"rw=randrw"}},
  {"falloc.fio", {"ioengine=falloc", "buffered=0", "rw=randwrite", "direct=1"}},
  {"filecreate-ioengine.fio", {"ioengine=filecreate"}},
  {"filedelete-ioengine.fio", {"ioengine=filedelete"}},
  {"filestat-ioengine.fio", {"ioengine=filestat"}},
  {"fio-rand-RW.fio", {"rw=randrw"}},
  {"fio-rand-read.fio", {}},
  {"fio-rand-write.fio", {"rw=randwrite"}},
  {"fio-seq-RW.fio", {"rw=rw"}},
  {"fio-seq-read.fio", {"direct=1"}},
  {"fio-seq-write.fio", {"rw=write"}},
  {"fixed-rate-submission.fio", {"direct=1"}},
  {"flow.fio", {"direct=1", "rw=write"}},
  {"fsx.fio", {"rw=randrw", "direct=1"}},
  {"ftruncate.fio", {"ioengine=ftruncate", "direct=1", "rw=write"}},
  {"gfapi.fio", {"ioengine=gfapi", "rw=write"}},
  {"gpudirect-rdmaio-client.fio", {"ioengine=rdma", "rw=write"}},
  {"gpudirect-rdmaio-server.fio", {"ioengine=rdma"}},
  {"http-s3-crypto.fio", {"ioengine=http", "direct=1", "rw=write"}},
  {"http-s3-storage-class.fio", {"ioengine=http", "direct=1", "rw=write"}},
  {"http-s3.fio", {"ioengine=http", "direct=1", "rw=write"}},
  {"http-swift.fio", {"ioengine=http", "rw=randwrite", "direct=1"}},
  {"http-webdav.fio", {"ioengine=http", "rw=randwrite", "direct=1"}},
  {"ime.fio", {"rw=write", "ioengine=ime_psync"}},
  {"iometer-file-access-server.fio", {"rw=randrw", "direct=1"}},
  {"jesd219.fio", {"direct=1", "rw=randrw", "random_distribution=zoned:50/5:30/15:20/80"}},
  {"latency-profile.fio", {"direct=1"}},
  {"libblkio-io_uring.fio", {"ioengine=libblkio", "direct=1"}},
  {"libblkio-virtio-blk-vfio-pci.fio", {"ioengine=libblkio"}},
  {"libcufile-cufile.fio", {"ioengine=libcufile", "direct=1", "rw=write"}},
  {"libcufile-posix.fio", {"ioengine=libcufile", "rw=write"}},
  {"libhdfs.fio", {"ioengine=libhdfs"}},
  {"libhipfile-hipfile.fio", {"ioengine=libhipfile", "direct=1", "rw=write"}},
  {"libhipfile-posix.fio", {"ioengine=libhipfile", "rw=write"}},
  {"libiscsi.fio", {"ioengine=libiscsi"}},
  {"libpmem.fio", {"ioengine=libpmem", "direct=1", "rw=write"}},
  {"libzbc-rand-write.fio", {"rw=randwrite", "direct=1", "ioengine=libzbc"}},
  {"libzbc-seq-read.fio", {"direct=1", "ioengine=libzbc"}},
  {"mtd.fio", {"ioengine=mtd", "rw=trim"}},
  {"nbd.fio", {"ioengine=nbd", "rw=randrw"}},
  {"netio.fio", {"ioengine=net", "rw=write"}},
  {"netio_multicast.fio", {"ioengine=net", "rw=write"}},
  {"netio_vsock.fio", {"ioengine=net", "rw=write"}},
  {"netio_vsock_receiver.fio", {"ioengine=net"}},
  {"netio_vsock_sender.fio", {"ioengine=net", "rw=write"}},
  {"nfs.fio", {"ioengine=nfs", "rw=write"}},
  {"null.fio", {"ioengine=null"}},
  {"numa.fio", {"buffered=0"}},
  {"page_fault.fio", {"ioengine=page_fault", "rw=write"}},
  {"poisson-rate-submission.fio", {"direct=1"}},
  {"rados.fio", {"ioengine=rados", "rw=randwrite"}},
  {"rand-zones.fio", {"direct=1", "random_distribution=zoned:50/5:30/15:20/"}},
  {"rbd.fio", {"ioengine=rbd", "rw=randwrite"}},
  {"rdmaio-client.fio", {"ioengine=rdma", "rw=write"}},
  {"rdmaio-server.fio", {"ioengine=rdma"}},
  {"sequence-distribution.fio", {"ioengine=null", "random_distribution=sequence:2,0,1"}},
  {"sg_verify-fail.fio", {"ioengine=sg", "rw=write"}},
  {"sg_verify.fio", {"ioengine=sg", "rw=write"}},
  {"sg_write_same_ndob.fio", {"ioengine=sg", "rw=write"}},
  {"sprandom.fio", {"rw=randwrite", "direct=1"}},
  {"ssd-steadystate.fio", {"direct=1", "rw=write"}},
  {"ssd-test.fio", {"direct=1"}},
  {"steadystate.fio", {"rw=write"}},
  {"surface-scan.fio", {"direct=1", "rw=write"}},
  {"tiobench-example.fio", {"direct=1", "rw=write"}},
  {"uring-cmd-bsg.fio", {"ioengine=io_uring_cmd", "rw=randwrite"}},
  {"uring-cmd-fdp.fio", {"ioengine=io_uring_cmd", "rw=randrw"}},
  {"uring-cmd-ng.fio", {"ioengine=io_uring_cmd", "rw=randwrite"}},
  {"uring-cmd-pi-ext.fio", {"ioengine=io_uring_cmd", "rw=write"}},
  {"uring-cmd-pi-sb.fio", {"ioengine=io_uring_cmd", "rw=write"}},
  {"uring-cmd-trim-multi-range.fio", {"ioengine=io_uring_cmd", "rw=randtrim"}},
  {"uring-cmd-write-mode.fio", {"ioengine=io_uring_cmd", "rw=write"}},
  {"uring-cmd-zoned-append.fio", {"ioengine=io_uring_cmd", "rw=randwrite"}},
  {"uring-cmd-zoned.fio", {"ioengine=io_uring_cmd", "rw=randwrite"}},
  {"waitfor.fio", {"rw=write"}},
  {"xnvme-compare.fio", {"direct=1"}},
  {"xnvme-fdp.fio", {"rw=randwrite"}},
  {"xnvme-pi.fio", {"rw=write"}},
  {"xnvme-zoned.fio", {"rw=write", "direct=1"}},
  {"zbd-rand-write-trim-gc.fio", {"direct=1", "rw=randwrite"}},
  {"zbd-rand-write-zone-reset-gc.fio", {"rw=randwrite", "direct=1"}},
  {"zbd-rand-write.fio", {"rw=randwrite", "direct=1"}},
  {"zbd-seq-read.fio", {"direct=1"}},
  {"zipf.fio", {"ioengine=null", "random_distribution=zipf:0.5"}},
};

/* Variables the examples read from the environment (their comments say
 * how to run them), set as their authors suggest so the refusal names the
 * options and not the variable. */
static void set_example_env(void) {
  const char *env[][2] = {{"FIO_RW", "read"}, {"FIO_BS", "4k"}, {"FIO_IODEPTH", "1"}, {"FIO_DIR", "/tmp"},
                          {"GPU_DEV_IDS", "0"}, {"S3_KEY", "x"}, {"S3_ID", "x"}, {"POOL", "x"}, {"CONT", "x"},
                          {"uri", "x"}, {"SWIFT_id", "x"}, {"SSE_KEY", "x"}, {"STORAGE_CLASS", "x"}};
  for (size_t i = 0; i < G_N_ELEMENTS(env); i++) g_setenv(env[i][0], env[i][1], TRUE);
}

static void fio_examples_run_or_name_what_is_not_modelled(void **state) {
  set_example_env();
  g_autofree char *dir = test_path("tests/data/fio-examples");
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  assert_non_null(d);
  guint files = 0;
  for (const char *name; (name = g_dir_read_name(d));)
    if (g_str_has_suffix(name, ".fio")) files++;
  assert_int_equal(files, G_N_ELEMENTS(examples)); /* the table covers every copied example */
  for (size_t i = 0; i < G_N_ELEMENTS(examples); i++) {
    g_autofree char *path = g_build_filename(dir, examples[i].file, NULL);
    PcsFioJob job;
    GError *error = NULL;
    gboolean ok = pcs_fio_load(&job, path, &error);
    pcs_fio_clear(&job);
    if (!examples[i].named[0]) {
      if (!ok) fail_msg("%s: expected to run, got: %s", examples[i].file, error->message);
      continue;
    }
    if (ok) fail_msg("%s: accepted, expected a refusal naming %s", examples[i].file, examples[i].named[0]);
    if (!strstr(error->message, "not modelled by pcsim")) fail_msg("%s: %s", examples[i].file, error->message);
    static const char *const modelled[] = {"'loops=", "'runtime=", "'timeout=", "'time_based", "'offset=0'"};
    for (size_t k = 0; k < G_N_ELEMENTS(modelled); k++) /* modelled now: never a reason to refuse */
      if (strstr(error->message, modelled[k])) fail_msg("%s: '%s' names %s", examples[i].file, error->message, modelled[k]);
    for (size_t k = 0; k < G_N_ELEMENTS(examples[i].named) && examples[i].named[k]; k++) {
      g_autofree char *quoted = g_strdup_printf("'%s'", examples[i].named[k]);
      if (!strstr(error->message, quoted)) fail_msg("%s: '%s' lacks %s", examples[i].file, error->message, quoted);
    }
    g_error_free(error);
  }
}

/* What fio says of a value it cannot parse, and of an option it does not know. */
static void fio_words_for_what_fio_refuses(void **state) {
  expect_refusal("[j]\nsize=8m\ninvalidate=true\n",
                 "job.fio:3: fio option invalidate = 'true': expected 0 or 1 (fio: failed parsing invalidate=true)");
  expect_refusal("[j]\nsize=8m\ndirect=false\n", "(fio: failed parsing direct=false)");
  expect_refusal("[j]\nsize=8m\ndirect=2\n", "fio: max value out of range: 2 (1 max)");
  expect_refusal("[j]\nsize=8m\ndirect\n", "fio: Option direct requires an argument");
  /* bs=0 divided the size by zero (SIGFPE) */
  expect_refusal("[j]\nsize=8m\nbs=0k\n", "job.fio:3: fio option bs = '0k': expected a block size of at least a page, "
                                          "4k (fio: min value out of range: 0 (1 min))");
  expect_refusal("[global]\nbs=0\n[j]\nsize=8m\n", "job.fio:2: fio option bs = '0'");
  expect_refusal("[j]\nsize=8m\nnumjob=4\n",
                 "job.fio:3: numjob: not a fio option (fio: Bad option <numjob=4>; did you mean numjobs?)");
  expect_refusal("[j]\nsize=8m\nzzqqxx=1\n", "fio: Bad option <zzqqxx=1>)");
  /* all refused options at once, the kind of I/O first */
  expect_refusal("[j]\nsize=8m\nramp_time=10\nrw=randwrite\nioengine=posixaio\ndirect=1\n",
                 "job.fio:4: fio options not modelled by pcsim: 'rw=randwrite' (a write: it models reads, rw=read "
                 "and rw=randread), 'ioengine=posixaio' (line 5: an async engine");
  expect_refusal("[j]\nsize=8m\nramp_time=10\nrw=randwrite\nioengine=libaio\ndirect=1\n",
                 "'direct=1' (line 6: direct I/O bypasses the page cache it models) and 'ramp_time=10' (line 3");
}

/* Options that cannot change a buffered sequential read run, and are listed. */
static void what_cannot_change_a_buffered_read_is_accepted(void **state) {
  const char *text = "[global]\niodepth=1\nloops=1\ntime_based=0\nverify=0\nfsync=0\nnorandommap\nrandrepeat=0\n"
                     "offset=0%\nbuffered=1\ngtod_reduce=1\nioengine=pvsync\ndirect=0\ninvalidate=1\n[j]\nsize=8m\n"
                     "iodepth=16\nioengine=psync\n";
  PcsFioJob job;
  GError *error = NULL;
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error)) fail_msg("%s", error->message);
  g_ptr_array_add(job.accepted, NULL);
  g_autofree char *list = g_strjoinv(" ", (char **)job.accepted->pdata);
  g_ptr_array_remove_index(job.accepted, job.accepted->len - 1);
  /* iodepth last: accepted once the engine is known to be a sync one */
  assert_string_equal(list, "loops=1 time_based=0 verify=0 fsync=0 norandommap randrepeat=0 offset=0% "
                            "buffered=1 gtod_reduce=1 direct=0 invalidate=1 iodepth=1 iodepth=16");
  pcs_fio_clear(&job);
}

static PcsFioJob load_text_ok(const char *text) {
  PcsFioJob job;
  GError *error = NULL;
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error)) fail_msg("%s", error->message);
  return job;
}

/* fio's suffixes (parse.c): MiB is 1000-based under the default kb_base
 * 1024, the other way round under kb_base=1000; fio reads whole blocks up to
 * the size (a real fio 3.33 run of bs=32KiB, size=1m read 1024000 bytes). */
static void sizes_as_fio_reads_them(void **state) {
  PcsFioJob job = load_text_ok("[j]\nkb_base=1000\nsize=100MB\n");
  assert_int_equal(job.size, 100000000 / 4096 * 4096);
  pcs_fio_clear(&job);
  job = load_text_ok("[j]\nsize=100MiB\nbs=32KiB\n");
  assert_int_equal(job.bs, 32000);
  assert_int_equal(job.size, 100000000); /* 3125 blocks of 32000: a partial last page */
  pcs_fio_clear(&job);
  job = load_text_ok("[j]\nsize=1m\nbs=32KiB\n");
  assert_int_equal(job.size, 1024000);
  pcs_fio_clear(&job);
  job = load_text_ok("[j]\nsize=0x100000\n");
  assert_int_equal(job.size, 1 << 20);
  pcs_fio_clear(&job);
  /* they run: a partial last page, a file smaller than the window */
  const char *runs[] = {"[j]\nrw=read\nsize=100MiB\nbs=32KiB\n", "[j]\nrw=read\nsize=64k\n",
                        "[j]\nrw=read\nkb_base=1000\nsize=10MB\n"};
  const uint64_t bytes[] = {100000000, 65536, 10000000 / 4096 * 4096};
  for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
    g_autofree char *path = test_tempfile("sz.fio", runs[i]);
    g_autofree char *out = NULL, *err = NULL;
    if (test_pcsim(&out, &err, "run", path, "--format", "fio-json", NULL) != 0) fail_msg("%s: %s", runs[i], err);
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonObject *rd = json_object_get_object_member(
        json_array_get_object_element(fio_jobs(parser, out), 0), "read");
    assert_int_equal(json_object_get_int_member(rd, "io_bytes"), bytes[i]);
  }
}

/* fio gives each clone of a job without filename= its own file
 * (jobname.N.0): no shared pages, no race.  filename= shares one. */
static void clones_share_a_file_only_when_the_job_names_it(void **state) {
  PcsFioJob job = load_text_ok("[j]\nsize=8m\nnumjobs=4\n");
  assert_true(job.per_thread_files);
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_string_equal(p.workload_files, "per-thread");
  pcs_fio_clear(&job);
  job = load_text_ok("[j]\nsize=8m\nnumjobs=4\nfilename=/tmp/f\n");
  assert_false(job.per_thread_files);
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_string_equal(p.workload_files, "shared");
  pcs_fio_clear(&job);
  job = load_text_ok("[a]\nsize=8m\n[b]\nsize=8m\n"); /* two jobs, two files */
  assert_true(job.per_thread_files);
  assert_int_equal(job.numjobs, 2);
  pcs_fio_clear(&job);
  /* a job naming its file beside one naming none: [a]'s clones share f, [b]'s clone reads its own */
  job = load_text_ok("[a]\nsize=8m\nnumjobs=2\nfilename=/tmp/f\n[b]\nsize=8m\nbs=1m\n");
  assert_false(job.per_thread_files);
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_string_equal(p.workload_files, "shared");
  assert_int_equal(p.jobs[0].file, 0);
  assert_int_equal(p.jobs[1].file, PCS_JOB_OWN_FILE);
  assert_int_equal(pcs_params_nfiles(&p), 2);
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
}

/* The table's header says what is read: 8 clones without filename= read 8
 * files of 4 MiB, 32 MiB in all (the CSV's file_mib), not "4 MiB file". */
static void the_header_of_a_file_per_thread_job_says_what_is_read(void **state) {
  g_autofree char *job = test_tempfile("clones.fio", "[reader]\nrw=read\nbs=32k\nsize=4m\nnumjobs=8\n");
  g_autofree char *out = NULL, *err = NULL, *csv = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", job, "--policy", "pool:16", NULL), 0);
  assert_true(g_str_has_prefix(out, "scenario linux-6.18-btrfs: 8 thread(s), 8 files of 4 MiB (32 MiB), bs 32 KiB, "));
  g_free(err), err = NULL;
  assert_int_equal(test_pcsim(&csv, &err, "run", job, "--policy", "pool:16", "--format", "csv", NULL), 0);
  assert_true(test_csv_cell(csv, "pool:16", 2) == 32.0); /* file_mib */
  g_autofree char *named = test_tempfile("named.fio", "[reader]\nrw=read\nbs=32k\nsize=4m\nnumjobs=8\nfilename=f\n");
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", named, "--policy", "pool:16", NULL), 0);
  assert_true(g_str_has_prefix(out, "scenario linux-6.18-btrfs: 8 thread(s), 4 MiB file, bs 32 KiB, "));
}

/* Without --model a job runs on a shipped scenario, named on stderr and in
 * the provenance; --model is named there too. */
static void the_scenario_a_job_runs_on_is_named(void **state) {
  g_autofree char *path = test_tempfile("m.fio", "[j]\nrw=read\nsize=8m\nfilename=/tmp/f\n");
  g_autofree char *out = NULL, *err = NULL, *o2 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, "--format", "csv", NULL), 0);
  assert_non_null(strstr(err, "no --model given; using the shipped scenario linux-6.18-btrfs"));
  assert_non_null(strstr(out, "# fio model linux-6.18-btrfs.ini\n"));
  assert_non_null(strstr(out, "# scenario.kernel=v6.18\n"));
  assert_int_equal(test_pcsim(&o2, &e2, "run", path, "--model", "workloads/liubo-2011.ini", "--format", "json", NULL), 0);
  assert_null(strstr(e2, "no --model"));
  assert_non_null(strstr(o2, "\"fio_model\": \"workloads/liubo-2011.ini\""));
}

/* A fio job saved as .ini: pcsim says what it is and how to run it. */
static void a_job_given_as_a_scenario_is_recognised(void **state) {
  g_autofree char *path = test_tempfile("job.ini", "[global]\nthread\nrw=read\n[READ]\nsize=8m\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, NULL), 2);
  g_autofree char *want = g_strdup_printf("%s:2: this looks like a fio job file, not a scenario: run it with "
                                          "`pcsim run --fio %s`", path, path);
  if (!strstr(err, want)) fail_msg("'%s' lacks '%s'", err, want);
}

/* A job read from a pipe (`... | pcsim run --fio /dev/stdin`, a shell's
 * <(...)) runs as the same job from a file: the job is read once. */
static void a_job_from_a_pipe_runs_as_from_a_file(void **state) {
  const char *job = "[j]\nrw=read\nsize=8m\n";
  g_autofree char *path = test_tempfile("job.fio", job);
  const char *commands[] = {"run", "sweep"};
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
    g_autofree char *from_file = NULL, *err = NULL;
    if (i == 0)
      assert_int_equal(test_pcsim(&from_file, &err, "run", path, NULL), 0);
    else
      assert_int_equal(test_pcsim(&from_file, &err, "sweep", path, "--vary", "workload.threads=1,2", NULL), 0);
    g_autofree char *script = g_strdup_printf("printf '%s' | timeout 120 \"$0\" %s --fio /dev/stdin%s", "[j]\\nrw=read\\nsize=8m\\n",
                                              commands[i], i ? " --vary workload.threads=1,2" : "");
    const char *argv[] = {"sh", "-c", script, PCSIM_BINARY, NULL};
    g_autofree char *out = NULL, *perr = NULL;
    int status = 0;
    assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &perr, &status, NULL));
    if (!g_spawn_check_wait_status(status, NULL)) fail_msg("%s from a pipe: %s", commands[i], perr);
    /* the provenance names the job's path: the rest is the same */
    g_auto(GStrv) fa = g_strsplit(from_file, path, -1), fb = g_strsplit(out, "/dev/stdin", -1);
    g_autofree char *a = g_strjoinv("", fa), *b = g_strjoinv("", fb);
    assert_string_equal(b, a);
  }
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
    cmocka_unit_test(randread_options_map_onto_the_scenario),
    cmocka_unit_test(randread_runs_and_repeats),
    cmocka_unit_test(async_engines_run_or_name_what_is_not_modelled),
    cmocka_unit_test(fio_examples_run_or_name_what_is_not_modelled),
    cmocka_unit_test(fio_words_for_what_fio_refuses),
    cmocka_unit_test(what_cannot_change_a_buffered_read_is_accepted),
    cmocka_unit_test(sizes_as_fio_reads_them),
    cmocka_unit_test(clones_share_a_file_only_when_the_job_names_it),
    cmocka_unit_test(the_header_of_a_file_per_thread_job_says_what_is_read),
    cmocka_unit_test(the_scenario_a_job_runs_on_is_named),
    cmocka_unit_test(a_job_given_as_a_scenario_is_recognised),
    cmocka_unit_test(a_job_from_a_pipe_runs_as_from_a_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
