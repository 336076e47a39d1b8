/* test_fio_loops.c - how long a job reads: fio's loops, runtime and
 * time_based (workload.loops, workload.runtime, workload.time_based), in
 * the model and through fio job files, as a user would notice them. */
#include "support.h"

#include "pcsim/fio.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define FILE_MIB 32

/* liubo-2011-calibrated (v3.5, four threads on one 2000M file, 128 KiB window) cut to FILE_MIB, then SETS. */
static void scenario(PcsParams *p, const char *threads) {
  test_load(p, "workloads/liubo-2011-calibrated.ini");
  g_autofree char *size = g_strdup_printf("workload.file_size=%dM", FILE_MIB);
  test_set(p, size, threads, NULL);
}

static uint64_t file_pages(void) { return (uint64_t)FILE_MIB * PCS_MIB / PCS_PAGE_SIZE; }

/* One thread: each loop reopens the file on an empty cache (fio's
 * td_io_open_file() drops it, invalidate=1) with a fresh readahead state,
 * so every loop is the first one again: the same bios, the same pages. */
static void each_loop_reads_the_file_from_the_device_again(void **state) {
  PcsParams p;
  PcsResult one, three;
  scenario(&p, "workload.threads=1");
  test_run(&p, "pool:16", &one);
  test_set(&p, "workload.loops=3", NULL);
  test_run(&p, "pool:16", &three);
  assert_int_equal(one.pages_read, file_pages());
  assert_int_equal(three.pages_read, 3 * file_pages());
  assert_int_equal(three.bios, 3 * one.bios);
  assert_int_equal(three.bytes_returned, 3 * one.bytes_returned);
  assert_true(three.sim_time_ns > 2 * one.sim_time_ns);
  pcs_result_clear(&one), pcs_result_clear(&three);
  pcs_params_clear(&p);
}

/* Four threads on one file: loops=2 returns twice the bytes, and the device
 * reads the file at least twice (a thread that starts its second loop drops
 * pages a slower one has not read yet, which it then reads again). */
static void two_loops_read_twice_the_bytes_with_twice_the_bios(void **state) {
  PcsParams p;
  PcsResult one, two;
  scenario(&p, "workload.threads=4");
  test_run(&p, "immediate", &one);
  test_set(&p, "workload.loops=2", NULL);
  test_run(&p, "immediate", &two);
  assert_int_equal(two.bytes_returned, 2 * one.bytes_returned);
  assert_int_equal(two.bytes_returned, 2 * 4 * (uint64_t)FILE_MIB * PCS_MIB);
  assert_true(two.pages_read >= 2 * file_pages());
  double ratio = (double)two.bios / (double)one.bios;
  if (ratio < 1.8 || ratio > 2.3) fail_msg("bios: %" G_GUINT64_FORMAT " for 1 loop, %" G_GUINT64_FORMAT " for 2",
                                          one.bios, two.bios);
  pcs_result_clear(&one), pcs_result_clear(&two);
  pcs_params_clear(&p);
}

/* runtime: no read() starts at or after it; the one under way completes
 * (fio's runtime_exceeded() in do_io()), so the run ends just after it,
 * having read less than the file. */
static void runtime_caps_the_simulated_time(void **state) {
  PcsParams p;
  PcsResult full, capped;
  test_load(&p, "workloads/liubo-2011-calibrated.ini");
  test_set(&p, "workload.file_size=1000M", "workload.runtime=10ms", NULL);
  test_run(&p, "pool:16", &capped);
  assert_true(capped.sim_time_ns >= 10 * PCS_NS_PER_US * 1000);
  assert_true(capped.sim_time_ns < 12 * PCS_NS_PER_US * 1000); /* one read() past it at most */
  assert_true(capped.bytes_returned > 0);
  assert_true(capped.bytes_returned < 4 * (uint64_t)1000 * PCS_MIB / 10);
  for (uint32_t t = 0; t < capped.threads; t++) assert_true(capped.thread_done_ns[t] >= 10 * PCS_NS_PER_US * 1000);
  /* MiB/s is over the time run, not over the file */
  double mib_s = pcs_report_get(&capped, PCS_COLUMN_aggregate_mib_s);
  double want = (double)capped.bytes_returned / PCS_MIB / ((double)capped.sim_time_ns / PCS_NS_PER_S);
  assert_true(fabs(mib_s - want) < 1e-6 * want);
  pcs_result_clear(&capped);
  /* a runtime longer than the run changes nothing */
  pcs_params_clear(&p);
  scenario(&p, "workload.threads=4");
  test_run(&p, "pool:16", &full);
  PcsResult loose;
  test_set(&p, "workload.runtime=100s", NULL);
  test_run(&p, "pool:16", &loose);
  assert_int_equal(loose.sim_time_ns, full.sim_time_ns);
  assert_int_equal(loose.bios, full.bios);
  pcs_result_clear(&full), pcs_result_clear(&loose);
  pcs_params_clear(&p);
}

/* time_based: each thread reads its file over and over until runtime,
 * more than the file, and the device reads it again after each wrap
 * (loop_cache_invalidate()). */
static void time_based_wraps_and_reads_more_than_the_file(void **state) {
  PcsParams p;
  PcsResult once, timed;
  scenario(&p, "workload.threads=4");
  test_run(&p, "pool:16", &once);
  PcsTime runtime = 3 * once.sim_time_ns;
  g_autofree char *rt = g_strdup_printf("workload.runtime=%" G_GUINT64_FORMAT "ns", runtime);
  test_set(&p, rt, "workload.time_based=1", NULL);
  test_run(&p, "pool:16", &timed);
  for (uint32_t t = 0; t < timed.threads; t++) {
    assert_true(timed.thread_bytes[t] > 2 * (uint64_t)FILE_MIB * PCS_MIB);
    assert_true(timed.thread_done_ns[t] >= runtime);
  }
  assert_true(timed.sim_time_ns < runtime + runtime / 10);
  assert_true(timed.pages_read > 2 * file_pages());
  pcs_result_clear(&once), pcs_result_clear(&timed);
  pcs_params_clear(&p);
}

/* The same time_based run twice: byte-identical output. */
static void time_based_runs_are_deterministic(void **state) {
  g_autofree char *a = NULL, *b = NULL, *err = NULL;
  const char *sets[] = {"--set", "workload.file_size=8M", "--set", "workload.runtime=30ms", "--set",
                        "workload.time_based=1"};
  assert_int_equal(test_pcsim(&a, &err, "run", "workloads/liubo-2011-calibrated.ini", sets[0], sets[1], sets[2], sets[3], sets[4],
                              sets[5], "--format", "json", NULL), 0);
  g_clear_pointer(&err, g_free);
  assert_int_equal(test_pcsim(&b, &err, "run", "workloads/liubo-2011-calibrated.ini", sets[0], sets[1], sets[2], sets[3], sets[4],
                              sets[5], "--format", "json", NULL), 0);
  assert_string_equal(a, b);
  /* provenance and the table name what was set */
  assert_non_null(strstr(a, "\"workload.runtime\": 30000000"));
  assert_non_null(strstr(a, "\"workload.time_based\": 1"));
  assert_null(strstr(a, "\"workload.loops\"")); /* at its default: left out */
  g_autofree char *table = NULL;
  g_clear_pointer(&err, g_free);
  assert_int_equal(test_pcsim(&table, &err, "run", "workloads/liubo-2011-calibrated.ini", sets[0], sets[1], "--set",
                              "workload.loops=2", "--policy", "immediate", NULL), 0);
  assert_non_null(strstr(table, "8 MiB file, bs 32 KiB, readahead 128 KiB, loops 2, seed 1"));
}

static PcsFioJob job_of(const char *text) {
  PcsFioJob job;
  GError *error = NULL;
  if (!pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error)) fail_msg("%s", error->message);
  return job;
}

/* runtime as fio's parser reads it (parse.c get_mult_time(), is_seconds):
 * a bare number is seconds, us/ms/s/m/h/d, fio's alias timeout, and fio's
 * own quirks: unknown letters count as microseconds, "1.5s" reads 1 s. */
static void runtime_units_parse_as_fio_does(void **state) {
  static const struct {
    const char *value;
    uint64_t ns;
  } cases[] = {
    {"10", 10 * (uint64_t)PCS_NS_PER_S}, {"10s", 10 * (uint64_t)PCS_NS_PER_S}, {"10ms", 10000000},
    {"10MS", 10000000}, {"250us", 250000}, {"250usec", 250000}, {"2msec", 2000000},
    {"1m", 60 * (uint64_t)PCS_NS_PER_S}, {"1h", 3600 * (uint64_t)PCS_NS_PER_S},
    {"2d", 2 * 86400 * (uint64_t)PCS_NS_PER_S}, {"7x", 7000}, {"10sec", 10000}, {"1.5s", (uint64_t)PCS_NS_PER_S},
    {"10x", 16000}, /* it holds "0x": fio's strtoll() reads it in base 16 */
    {"5,7", 5 * (uint64_t)PCS_NS_PER_S}, {"0", 0},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = g_strdup_printf("[j]\nsize=8m\nruntime=%s\n", cases[i].value);
    PcsFioJob job = job_of(text);
    if (job.runtime_ns != cases[i].ns)
      fail_msg("runtime=%s: %" G_GUINT64_FORMAT " ns, fio reads %" G_GUINT64_FORMAT, cases[i].value, job.runtime_ns,
               cases[i].ns);
    pcs_fio_clear(&job);
  }
  PcsFioJob job = job_of("[j]\nsize=8m\ntimeout=3\nloops=0\n");
  assert_int_equal(job.runtime_ns, 3 * (uint64_t)PCS_NS_PER_S);
  assert_int_equal(job.loops, 1); /* keep_running(): loops=0 runs once */
  pcs_fio_clear(&job);
  /* fio ignores time_based without runtime, saying so; pcsim notes fio's words */
  job = job_of("[global]\ntime_based\n[j]\nsize=8m\n");
  assert_false(job.time_based);
  assert_int_equal(job.notes->len, 1);
  assert_non_null(strstr(g_ptr_array_index(job.notes, 0), "job.fio:2: time_based without runtime"));
  assert_non_null(strstr(g_ptr_array_index(job.notes, 0), "fio: time_based requires a runtime/timeout setting"));
  pcs_fio_clear(&job);
  job = job_of("[global]\ntime_based\nruntime=2m\nloops=4\n[j]\nsize=8m\n");
  assert_true(job.time_based);
  assert_int_equal(job.notes->len, 0);
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_int_equal(p.workload_runtime, 120 * (uint64_t)PCS_NS_PER_S);
  assert_int_equal(p.workload_time_based, 1);
  assert_int_equal(p.workload_loops, 4);
  g_autofree char *where = pcs_params_where(&p, "workload.runtime");
  assert_string_equal(where, "job.fio:3");
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
}

/* offset: each thread reads size bytes from the offset, of a file of
 * offset + size bytes (fio's filesetup.c); nothing before it is read, and
 * the first read() there has no readahead history: the kernel reads just
 * that call's pages, then ramps up as from the start of a file. */
static void offset_reads_size_bytes_from_the_offset(void **state) {
  PcsParams p;
  PcsResult from0, from4m;
  scenario(&p, "workload.threads=1");
  test_run(&p, "pool:16", &from0);
  test_set(&p, "workload.offset=4M", NULL);
  GArray *ev = test_run_traced(&p, "pool:16", &from4m);
  assert_int_equal(from4m.pages_read, file_pages());
  assert_int_equal(from4m.bytes_returned, (uint64_t)FILE_MIB * PCS_MIB);
  uint64_t first = 4 * PCS_MIB / PCS_PAGE_SIZE;
  for (uint64_t pg = 0; pg < first; pg++) assert_int_equal(from4m.page_reads[pg], 0);
  for (uint64_t pg = first; pg < first + file_pages(); pg++) assert_int_equal(from4m.page_reads[pg], 1);
  const TestEvent *ra = test_find(ev, NULL, 1, PCS_TRACE_RA_SYNC, TEST_ANY);
  assert_int_equal(ra->a, first);
  assert_int_equal(ra->b, 32 * PCS_KIB / PCS_PAGE_SIZE); /* one 32k call, no window */
  assert_true(from4m.bios > from0.bios - 2); /* the ramp starts over: not fewer bios */
  g_array_unref(ev);
  pcs_result_clear(&from0), pcs_result_clear(&from4m);
  pcs_params_clear(&p);
  /* a fio job's offset */
  PcsFioJob job;
  const char *text = "[j]\nsize=8m\noffset=4m\n";
  GError *error = NULL;
  assert_true(pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error));
  assert_int_equal(job.offset, 4 * PCS_MIB);
  pcs_params_init(&p);
  assert_true(pcs_fio_apply(&job, &p, &error));
  assert_int_equal(p.workload_offset, 4 * PCS_MIB);
  pcs_fio_clear(&job);
  pcs_params_clear(&p);
  static const char *const refused[][2] = {{"offset=1000", "'offset=1000' is not modelled by pcsim (an offset inside a page"},
                                           {"offset=30%", "'offset=30%' is not modelled by pcsim (a share of the device"}};
  for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
    g_autofree char *t = g_strdup_printf("[j]\nsize=8m\n%s\n", refused[i][0]);
    assert_false(pcs_fio_load_text(&job, "job.fio", t, strlen(t), &error));
    if (!strstr(error->message, refused[i][1])) fail_msg("'%s' lacks '%s'", error->message, refused[i][1]);
    g_clear_error(&error);
    pcs_fio_clear(&job);
  }
}

/* Bad values: exit 2, one line naming the file, line and option. */
static void bad_values_name_file_line_and_key(void **state) {
  static const struct {
    const char *line, *want;
  } cases[] = {
    {"runtime=abc", "job.fio:3: fio option runtime = 'abc': expected a time such as 10 (seconds), 10s, 500ms or 2m "
                    "(fio: failed parsing runtime=abc)"},
    {"runtime=-5", "job.fio:3: fio option runtime = '-5': expected a time"},
    {"runtime", "job.fio:3: fio option runtime: expected a time"},
    {"loops=abc", "job.fio:3: fio option loops = 'abc': expected an integer (fio: failed parsing loops=abc)"},
    {"loops=99999999", "job.fio:3: fio option loops = '99999999': pcsim runs at most"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = g_strdup_printf("[j]\nsize=8m\n%s\n", cases[i].line);
    g_autofree char *dir = test_tempdir();
    g_autofree char *path = g_build_filename(dir, "job.fio", NULL);
    assert_true(g_file_set_contents(path, text, -1, NULL));
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "run", path, NULL), 2);
    if (!strstr(err, cases[i].want)) fail_msg("%s: '%s' lacks '%s'", cases[i].line, err, cases[i].want);
    assert_null(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
  }
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011-calibrated.ini", "--set", "workload.time_based=1", NULL), 2);
  assert_non_null(strstr(err, "--set: workload.time_based = 1 needs workload.runtime"));
}

/* fio-json: runtime is the time the job ran, in ms, as fio reports it,
 * not the time a whole file would take: 10 ms and the read() calls under
 * way then (here one may wait for a whole 8 MiB readahead window of the
 * default model: 10 to 17 ms over seeds 1..5; at most 25).  job_runtime is fio's total_run_time: with
 * group_reporting, the four threads' run times summed (a real 4-thread
 * capture's JSON: runtime 1956, job_runtime 7813). */
static void fio_json_reports_the_runtime_run(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "rt.fio", NULL);
  assert_true(g_file_set_contents(path, "[global]\nrw=read\nbs=32k\nsize=1000m\nfilename=f\nnumjobs=4\n"
                                        "group_reporting\n[rt]\nruntime=10ms\n", -1, NULL));
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, "--format", "fio-json", "--policy", "pool:16", NULL), 0);
  g_autoptr(JsonParser) parser = json_parser_new();
  assert_true(json_parser_load_from_data(parser, out, -1, NULL));
  JsonObject *job = json_array_get_object_element(
      json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "jobs"), 0);
  JsonObject *read = json_object_get_object_member(job, "read");
  gint64 runtime = json_object_get_int_member(read, "runtime");
  gint64 job_runtime = json_object_get_int_member(job, "job_runtime");
  if (runtime < 10 || runtime > 25 || job_runtime < 4 * 10 || job_runtime > 4 * 25)
    fail_msg("runtime %" G_GINT64_FORMAT " ms, job_runtime %" G_GINT64_FORMAT " ms, for runtime=10ms, numjobs=4", runtime,
             job_runtime);
  assert_true(json_object_get_int_member(read, "io_bytes") < 4 * (gint64)1000 * PCS_MIB / 10);
  /* this run's own figures, seed 1: 17 ms, four threads' 62 ms, 33.34 MiB read */
  assert_int_equal(runtime, 17);
  assert_int_equal(job_runtime, 62);
  assert_int_equal(json_object_get_int_member(read, "io_bytes"), 34963456);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(each_loop_reads_the_file_from_the_device_again),
    cmocka_unit_test(two_loops_read_twice_the_bytes_with_twice_the_bios),
    cmocka_unit_test(runtime_caps_the_simulated_time),
    cmocka_unit_test(time_based_wraps_and_reads_more_than_the_file),
    cmocka_unit_test(time_based_runs_are_deterministic),
    cmocka_unit_test(runtime_units_parse_as_fio_does),
    cmocka_unit_test(offset_reads_size_bytes_from_the_offset),
    cmocka_unit_test(bad_values_name_file_line_and_key),
    cmocka_unit_test(fio_json_reports_the_runtime_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
