/* test_nrfiles.c - several files a job (workload.nrfiles, fio nrfiles):
 * the job file's options as fio reads them (sim/formats/fio.c), the order
 * a reader takes its files in against what fio 3.33 itself did
 * (tests/data/fio-nrfiles/: write_iolog of iolog.fio's eight sections),
 * each file's own readahead state, and pcsim against the real 6.18
 * capture of nrfiles=4 (tests/data/kernel-6.18-nrfiles/). */
#include "support.h"

#include "pcsim/fio.h"
#include "pcsim/ktrace.h"
#include "pcsim/text.h"

#include <stdio.h>
#include <string.h>

/* ---- the job file ---- */

/* TEXT loaded and applied to fresh parameters (fails the test on error). */
static void load_job(const char *text, PcsParams *p, PcsFioJob *job) {
  pcs_params_init(p);
  GError *error = NULL;
  if (!pcs_fio_load_text(job, "job.fio", text, strlen(text), &error) || !pcs_fio_apply(job, p, &error))
    fail_msg("%s", error->message);
}

static void nrfiles_sizes_its_files_as_fio_does(void **state) {
  PcsParams p;
  PcsFioJob job;
  /* the capture's job: filesize each, size the total */
  load_job("[READ]\nnrfiles=4\nfilesize=250M\nsize=1000M\nnumjobs=2\n", &p, &job);
  assert_int_equal(p.workload_nrfiles, 4);
  assert_int_equal(p.workload_file_size, 250 * 1024 * 1024);
  assert_string_equal(p.workload_files, "per-thread");
  assert_string_equal(p.workload_file_service_type, "roundrobin");
  assert_int_equal(pcs_params_nfiles(&p), 8);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  /* size alone is split: setup_files() fs = size / nr_files */
  load_job("[j]\nnr_files=4\nsize=1000M\nfile_service_type=random:3\nopenfiles=2\n", &p, &job);
  assert_int_equal(p.workload_file_size, 250 * 1024 * 1024);
  assert_string_equal(p.workload_file_service_type, "random:3");
  assert_int_equal(p.workload_openfiles, 2);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  /* a size above nrfiles x filesize is cut to it (o->size = total_size) */
  load_job("[j]\nnrfiles=2\nfilesize=8M\nsize=100M\n", &p, &job);
  assert_int_equal(p.workload_file_size, 8 * 1024 * 1024);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  /* filename=a:b:c: three files every clone shares */
  load_job("[j]\nfilename=a:b:c\nsize=3M\nnumjobs=4\n", &p, &job);
  assert_int_equal(p.workload_nrfiles, 3);
  assert_string_equal(p.workload_files, "shared");
  assert_int_equal(p.workload_file_size, 1024 * 1024);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  /* filename=foo with nrfiles=4: fio reads the one file named (fixup_options()), and says nothing */
  load_job("[j]\nfilename=foo\nnrfiles=4\nsize=8M\n", &p, &job);
  assert_int_equal(p.workload_nrfiles, 1);
  assert_int_equal(p.workload_file_size, 8 * 1024 * 1024);
  assert_int_equal(job.notes->len, 1);
  assert_non_null(strstr(g_ptr_array_index(job.notes, 0), "job.fio:3: nrfiles=4 with filename= naming 1 file(s)"));
  pcs_fio_clear(&job), pcs_params_clear(&p);
  /* nrfiles=1 is what every job did before: nothing set */
  load_job("[j]\nsize=8M\nnrfiles=1\nfile_service_type=sequential\n", &p, &job);
  assert_int_equal(p.workload_nrfiles, 1);
  assert_string_equal(p.workload_file_service_type, "roundrobin");
  pcs_fio_clear(&job), pcs_params_clear(&p);
}

/* A job pcsim refuses: exit 2, nothing on stdout, one line naming FILE:LINE and NEEDLE. */
static void expect_refused(const char *text, guint line, const char *needle) {
  g_autofree char *path = test_tempfile("job.fio", text);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, NULL), 2);
  assert_string_equal(out, "");
  g_autofree char *at = g_strdup_printf("%s:%u: ", path, line);
  if (!strstr(err, at) || !strstr(err, needle)) fail_msg("'%s' lacks '%s' and '%s'", err, at, needle);
}

static void what_is_not_modelled_is_refused_by_name(void **state) {
  expect_refused("[j]\nnrfiles=4\nfilesize=100M-200M\n", 3, "'filesize=100M-200M' is not modelled by pcsim (a filesize range");
  expect_refused("[j]\nnrfiles=4\nfilesize=250M\nsize=500M\n", 4, "'size=500M' is not modelled by pcsim (size below nrfiles x filesize");
  /* size / nrfiles leaves under nrfiles bytes over: a block or more only with more files than a block has bytes */
  expect_refused("[j]\nnrfiles=8192\nbs=4k\nsize=67117055\n", 4,
                 "(size not a multiple of nrfiles blocks: fio makes the first files a block larger)");
  expect_refused("[j]\nnrfiles=4\nsize=8M\nfile_service_type=zipf:1.2\n", 4, "'file_service_type=zipf:1.2' is not modelled by pcsim (a non-uniform");
  expect_refused("[j]\nnrfiles=4\nsize=8M\nfile_service_type=roundrobin:0\n", 4, "its :N must be a number of read() calls from 1");
  expect_refused("[j]\nnrfiles=4\nsize=8M\nfile_service_type=rr\n", 4, "fio option file_service_type = 'rr': expected roundrobin");
  expect_refused("[j]\nsize=8M\nrw=randread\nnrfiles=2\n", 4, "(random reads over several files");
  expect_refused("[j]\nsize=8M\nnrfiles=2\nloops=2\n", 3, "(loops over several files are not modelled");
  expect_refused("[j]\nsize=8M\nnrfiles=2\ntime_based\nruntime=1\n", 3, "(time_based over several files");
  expect_refused("[j]\nsize=8M\nnrfiles=0\n", 3, "fio option nrfiles = '0': expected an integer from 1");
  expect_refused("[j]\nsize=8M\nfilename=a:a\n", 3, "(a file named twice");
  /* the scenario keys check the same */
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.nrfiles=2", "--set",
                              "workload.file_service_type=roundrobin:x", NULL), 2);
  assert_non_null(strstr(err, "workload.file_service_type = 'roundrobin:x': expected roundrobin, sequential or random"));
}

/* ---- the order of files: pcsim against fio's write_iolog ---- */

/* NAME.calls of tests/data/fio-nrfiles/: "FILENO BLOCK" per read() call. */
static GArray *fio_calls(const char *name) {
  g_autofree char *rel = g_strdup_printf("tests/data/fio-nrfiles/%s.calls", name);
  GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  g_auto(GStrv) lines = test_fixture_lines(rel);
  for (char **l = lines; *l; l++) {
    char *end;
    uint64_t f = g_ascii_strtoull(*l, &end, 10), b = g_ascii_strtoull(end, NULL, 10);
    uint64_t call = f << 32 | b;
    g_array_append_val(out, call);
  }
  return out;
}

/* iolog.fio's section NAME is fio's thread THREAD: pcsim runs THREAD
 * readers of 4 files of 64k each (their own), 4k calls, with SETTINGS
 * (NULL-terminated), and reader THREAD's calls (file of its set, block)
 * must be fio's, call for call. */
static void expect_fio_files(const char *name, uint32_t thread, ...) {
  PcsParams p;
  pcs_params_init(&p);
  g_autofree char *threads = g_strdup_printf("workload.threads=%u", thread);
  test_set(&p, "scenario.kernel=v6.18", threads, "workload.files=per-thread", "workload.nrfiles=4",
           "workload.file_size=64k", "workload.block_size=4k", "readahead.fadvise_hint=1", NULL);
  va_list ap;
  va_start(ap, thread);
  for (const char *kv; (kv = va_arg(ap, const char *));) test_set(&p, kv, NULL);
  va_end(ap);
  PcsResult r;
  g_autoptr(GArray) ev = test_run_traced(&p, "window", &r);
  g_autoptr(GArray) want = fio_calls(name);
  uint64_t file_pages = 16, first = (uint64_t)(thread - 1) * 4;
  guint n = 0;
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->thread != thread || e->kind != PCS_TRACE_SYSCALL) continue;
    assert_true(n < want->len);
    uint64_t f = e->a / file_pages - first, b = e->a % file_pages, w = g_array_index(want, uint64_t, n);
    if ((f << 32 | b) != w)
      fail_msg("%s: call %u reads file %" G_GUINT64_FORMAT " block %" G_GUINT64_FORMAT ", fio read file %" G_GUINT64_FORMAT
               " block %" G_GUINT64_FORMAT, name, n, f, b, w >> 32, w & 0xffffffff);
    n++;
  }
  assert_int_equal(n, want->len);
  assert_int_equal(r.thread_bytes[thread - 1], 4 * 64 * PCS_KIB); /* every file read to its end, once */
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

static void files_in_fios_order(void **state) {
  expect_fio_files("rr", 1, NULL);                                                       /* 0 1 2 3 0 1 ... */
  expect_fio_files("seq", 2, "workload.file_service_type=sequential", NULL);              /* 0 x16, 1 x16, ... */
  expect_fio_files("rr2", 3, "workload.file_service_type=roundrobin:2", NULL);            /* 0 0 1 1 2 2 ... */
  expect_fio_files("rand", 4, "workload.file_service_type=random", NULL);                 /* taus88, seed 0x89 */
  expect_fio_files("rand64", 5, "workload.file_service_type=random", "workload.random_generator=tausworthe64", NULL);
  expect_fio_files("open2", 6, "workload.openfiles=2", NULL);                             /* 0 1 0 1 ..., then 2 3 */
  expect_fio_files("randopen2", 7, "workload.file_service_type=random:3", "workload.openfiles=2", NULL);
  expect_fio_files("randseed", 8, "workload.file_service_type=random", "workload.random_seed=1234", NULL);
}

/* ---- each file its own readahead ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One reader, v6.18, 32k calls, a 4 MiB bdi window:
 * NRFILES files of SIZE read with SERVICE.  Returns bios/MiB, the median
 * over seeds 1..5 (one seed's bio sizes move with the frames it draws:
 * 0.367-0.461 for one 128 MiB file); *SYNC and *ASYNC the readahead calls
 * of seed 1. */
static double bios_per_mib(const char *nrfiles, const char *size, const char *service, uint64_t *sync, uint64_t *async) {
  double v[5];
  for (int seed = 1; seed <= 5; seed++) {
    PcsParams p;
    test_load(&p, "workloads/linux-6.18-btrfs.ini");
    test_set(&p, "workload.threads=1", "readahead.read_ahead_kb=4096", nrfiles, size, service, NULL);
    p.scenario_seed = (uint64_t)seed;
    PcsResult r;
    test_run(&p, "window", &r);
    v[seed - 1] = (double)r.bios / ((double)r.file_bytes / PCS_MIB);
    if (seed == 1) *sync = r.ra_sync, *async = r.ra_async;
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
  qsort(v, 5, sizeof v[0], cmp_double);
  return v[2];
}

/* Two files read round robin, a call each in turn: each keeps its own
 * file_ra_state, so each starts with one synchronous readahead and ramps
 * its window as one file alone does (half the asynchronous readaheads
 * each), and the bios are as large as one file's of the same 128 MiB (a
 * readahead state shared by the two would see each call as a jump and
 * read call by call: 32 bios/MiB). */
static void each_file_ramps_its_own_window(void **state) {
  uint64_t s1, a1, s2, a2, s3, a3, s4, a4;
  double one = bios_per_mib("workload.nrfiles=1", "workload.file_size=128M", "workload.file_service_type=roundrobin", &s1, &a1);
  bios_per_mib("workload.nrfiles=1", "workload.file_size=64M", "workload.file_service_type=roundrobin", &s4, &a4);
  double rr = bios_per_mib("workload.nrfiles=2", "workload.file_size=64M", "workload.file_service_type=roundrobin", &s2, &a2);
  double seq = bios_per_mib("workload.nrfiles=2", "workload.file_size=64M", "workload.file_service_type=sequential", &s3, &a3);
  if (rr > one * 1.1 || rr < one * 0.9) fail_msg("round robin over 2 files: %.3f bios/MiB, one file %.3f", rr, one);
  if (seq > one * 1.1 || seq < one * 0.9) fail_msg("2 files one after the other: %.3f bios/MiB, one file %.3f", seq, one);
  assert_true(one < 1.0);
  assert_int_equal(s1, 1);
  assert_int_equal(s2, 2), assert_int_equal(s3, 2); /* one per file, at its first call */
  assert_int_equal(a2, 2 * a4), assert_int_equal(a3, 2 * a4); /* each file's ramp, as a 64 MiB file alone */
}

/* The same job twice, and --seeds, print the same bytes. */
static void runs_are_deterministic(void **state) {
  g_autofree char *path = test_tempfile("j.fio", "[j]\nnrfiles=3\nsize=24M\nnumjobs=2\nfile_service_type=random\n");
  g_autofree char *a = NULL, *b = NULL, *e1 = NULL, *e2 = NULL;
  assert_int_equal(test_pcsim(&a, &e1, "run", path, "--model", "linux-6.18-btrfs", "--seeds", "2", "--format", "json", NULL), 0);
  assert_int_equal(test_pcsim(&b, &e2, "run", path, "--model", "linux-6.18-btrfs", "--seeds", "2", "--format", "json", NULL), 0);
  assert_string_equal(a, b);
  assert_non_null(strstr(a, "\"workload.nrfiles\""));
}

/* ---- the real capture ---- */

#define CAPTURE "tests/data/kernel-6.18-nrfiles/"

/* Each fio thread of the capture's first repeat opened its 4 files round
 * robin (one page_cache_sync_ra each, at index 0, in inode order) and went
 * on round robin: every one of its page_cache_async_ra lines is on the
 * next of its 4 inodes in turn, as fio's get_next_file_rr() picks them. */
static void the_capture_read_round_robin(void **state) {
  g_autofree char *path = test_path(CAPTURE "blocks/nrfiles-ra4096-j2-rep1.ftrace.txt.gz");
  g_autofree char *text = NULL;
  assert_true(pcs_text_read(path, PCS_TEXT_GZIP, &text, NULL, NULL));
  g_autoptr(GHashTable) last = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL); /* pid -> last inode */
  guint sync = 0, async = 0, in_order = 0;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++) {
    gboolean s = strstr(*l, "page_cache_sync_ra: ") != NULL, a = strstr(*l, "page_cache_async_ra: ") != NULL;
    if (!s && !a) continue;
    const char *ino = strstr(*l, " ino=");
    assert_non_null(ino);
    const char *task = *l + strspn(*l, " "); /* "fio-15091 [000] ...": the task and its pid */
    g_autofree char *pid = g_strndup(task, strcspn(task, " "));
    guint64 inode = g_ascii_strtoull(ino + 5, NULL, 16);
    guint64 prev = GPOINTER_TO_SIZE(g_hash_table_lookup(last, pid));
    if (s) {
      sync++;
      const char *idx = strstr(*l, " index=");
      assert_int_equal(g_ascii_strtoull(idx + 7, NULL, 10), 0);
      if (prev) assert_int_equal(inode, prev + 1); /* opened in order */
    } else {
      async++;
      /* the next file of the 4 in turn: prev + 1, or back to the first */
      if (inode == prev + 1 || inode + 3 == prev) in_order++;
    }
    g_hash_table_replace(last, g_strdup(pid), GSIZE_TO_POINTER(inode));
  }
  assert_int_equal(sync, 8);
  assert_int_equal(async, 280); /* 35 a file: each ramps its own window to 8 MiB */
  if (in_order != async) fail_msg("%u of %u async readaheads were on the next file in turn", in_order, async);
}

/* pcsim on calibrate's host.ini of the capture's own one-thread runs (no
 * fit to this job) holds the capture's data bios per MiB: within 25% of
 * the real median (0.157, the README's table) or inside its range
 * (0.149..0.188). */
static void pcsim_holds_the_captures_bios(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", CAPTURE "blocks/nrfiles-ra4096-j2-rep1.fio", "--model", CAPTURE "host.ini",
                              "--set", "readahead.read_ahead_kb=4096", "--format", "csv", NULL), 0);
  double per_mib = test_csv_cell(out, "window", 6); /* bios_per_mib */
  if (!((per_mib >= 0.157 * 0.75 && per_mib <= 0.157 * 1.25) || (per_mib >= 0.149 && per_mib <= 0.188)))
    fail_msg("pcsim %.3f data bios/MiB, the capture 0.157 (0.149..0.188)", per_mib);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(nrfiles_sizes_its_files_as_fio_does),
    cmocka_unit_test(what_is_not_modelled_is_refused_by_name),
    cmocka_unit_test(files_in_fios_order),
    cmocka_unit_test(each_file_ramps_its_own_window),
    cmocka_unit_test(runs_are_deterministic),
    cmocka_unit_test(the_capture_read_round_robin),
    cmocka_unit_test(pcsim_holds_the_captures_bios),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
