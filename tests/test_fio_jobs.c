/* test_fio_jobs.c - several fio job sections at once (issue 38): each
 * section a job of its own (PcsParams.jobs) whose clones read with its bs,
 * rw, ioengine and iodepth over the file setup they share; stonewall and
 * wait_for as barriers, new_group as fio's groupid; what the jobs cannot
 * differ in refused by name. */
#include "support.h"

#include "pcsim/fio.h"

#include <string.h>

/* The job, verbatim but for its size (SIZE) and an extra line in
 * [large] (LARGE_EXTRA, may be ""). */
static char *example(const char *size, const char *large_extra) {
  return g_strdup_printf("[global]\nthread\nioengine=sync\nrw=read\ninvalidate=1\nfilename=big\nsize=%s\n\n"
                         "[small]\nbs=4k\nnumjobs=2\n\n[large]\nbs=1M\nnumjobs=2\n%s",
                         size, large_extra);
}

/* TEXT loaded and applied over the shipped linux-6.18-btrfs (fails the test on error). */
static void load_job(const char *text, PcsParams *p, PcsFioJob *job) {
  test_load(p, "workloads/linux-6.18-btrfs.ini");
  GError *error = NULL;
  if (!pcs_fio_load_text(job, "job.fio", text, strlen(text), &error) || !pcs_fio_apply(job, p, &error))
    fail_msg("%s", error->message);
}

static gboolean has(char **set, const char *kv) {
  for (char **a = set; a && *a; a++)
    if (!strcmp(*a, kv)) return TRUE;
  return FALSE;
}

static void expect_refusal(const char *text, const char *want) {
  PcsFioJob job;
  GError *error = NULL;
  if (pcs_fio_load_text(&job, "job.fio", text, strlen(text), &error)) fail_msg("accepted: %s", text);
  if (!strstr(error->message, want)) fail_msg("'%s' lacks '%s'", error->message, want);
  g_error_free(error);
  pcs_fio_clear(&job);
}

static void sections_that_differ_become_jobs(void **state) {
  PcsParams p;
  PcsFioJob job;
  g_autofree char *text = example("1000M", "");
  load_job(text, &p, &job);
  assert_int_equal(p.njobs, 2);
  assert_int_equal(p.workload_threads, 4);
  assert_string_equal(p.jobs[0].name, "small");
  assert_string_equal(p.jobs[1].name, "large");
  assert_int_equal(p.jobs[0].clones, 2);
  assert_int_equal(p.jobs[1].clones, 2);
  assert_true(has(p.jobs[0].set, "workload.block_size=4096"));
  assert_true(has(p.jobs[1].set, "workload.block_size=1048576"));
  assert_true(has(p.jobs[1].set, "workload.rw=read"));
  assert_int_equal(p.jobs[1].group, 0);
  assert_int_equal(p.jobs[1].after, 0);
  assert_int_equal(p.jobs[1].wait_for, PCS_JOB_NONE);
  GError *error = NULL;
  assert_true(pcs_params_validate(&p, &error));
  pcs_fio_clear(&job), pcs_params_clear(&p);

  /* stonewall (and its alias) waits for every job before it and opens a group */
  g_autofree char *wall = example("8M", "wait_for_previous\n");
  load_job(wall, &p, &job);
  assert_int_equal(p.jobs[1].after, 1);
  assert_int_equal(p.jobs[1].group, 1);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  g_autofree char *group = example("8M", "new_group\n");
  load_job(group, &p, &job);
  assert_int_equal(p.jobs[1].after, 0);
  assert_int_equal(p.jobs[1].group, 1);
  pcs_fio_clear(&job), pcs_params_clear(&p);
  g_autofree char *waits = example("8M", "wait_for=small\n");
  load_job(waits, &p, &job);
  assert_int_equal(p.jobs[1].wait_for, 0);
  assert_int_equal(p.jobs[1].group, 0);
  pcs_fio_clear(&job), pcs_params_clear(&p);

  /* sections that read the same way stay one job: their numjobs add up */
  load_job("[a]\nsize=8m\nnumjobs=2\n[b]\nsize=8m\nnumjobs=3\n", &p, &job);
  assert_null(p.jobs);
  assert_int_equal(p.workload_threads, 5);
  pcs_fio_clear(&job), pcs_params_clear(&p);

  /* a job's own rw, engine and depth */
  load_job("[a]\nsize=8m\n[b]\nsize=8m\nrw=randread\nioengine=libaio\niodepth=8\n", &p, &job);
  assert_int_equal(p.njobs, 2);
  assert_true(has(p.jobs[0].set, "workload.rw=read"));
  assert_true(has(p.jobs[0].set, "workload.ioengine=sync"));
  assert_true(has(p.jobs[1].set, "workload.rw=randread"));
  assert_true(has(p.jobs[1].set, "workload.ioengine=libaio"));
  assert_true(has(p.jobs[1].set, "workload.iodepth=8"));
  pcs_fio_clear(&job), pcs_params_clear(&p);
}

static void what_jobs_share_is_refused_when_it_differs(void **state) {
  expect_refusal("[a]\nsize=8m\nbs=4k\n[b]\nsize=16m\nbs=1m\n", "job.fio:4: job 'b' reads differently from job 'a' in size");
  expect_refusal("[a]\nsize=8m\nfilename=x\n[b]\nsize=8m\nfilename=y\nbs=1m\n",
                 "job.fio:4: job 'b' reads differently from job 'a' in file");
  expect_refusal("[a]\nsize=8m\nfilename=x\n[b]\nsize=8m\nbs=1m\n", "job.fio:4: job 'b' reads differently from job 'a' in file");
  expect_refusal("[a]\nsize=8m\n[b]\nsize=8m\nbs=1m\nfadvise_hint=0\n", "in fadvise_hint");
  expect_refusal("[a]\nsize=8m\n[b]\nsize=8m\nbs=1m\nloops=2\n", "in loops");
  expect_refusal("[a]\nsize=8m\n[b]\nsize=8m\nwait_for=c\n",
                 "job.fio:5: fio option wait_for=c: no job of that name before this one");
}

typedef struct {
  uint64_t calls[4];
} Calls;

static void count_calls(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Calls *c = user;
  if (kind == PCS_TRACE_SYSCALL && thread >= 1 && thread <= 4) c->calls[thread - 1]++;
}

/* The job: the small clones' read() calls are 4 KiB, the large
 * ones' 1 MiB (bytes / calls), each clone reads the whole file, and the
 * run's bytes are the jobs' bytes. */
static void each_job_reads_with_its_own_block_size(void **state) {
  PcsParams p;
  PcsFioJob job;
  g_autofree char *text = example("16M", "");
  load_job(text, &p, &job);
  Calls c = {{0}};
  PcsRunOptions opt = {.trace = count_calls, .trace_user = &c};
  PcsResult r;
  GError *error = NULL;
  PcsPolicy policy;
  assert_true(pcs_policy_parse("window", &policy, NULL));
  if (!pcs_sim_run(&p, &policy, &opt, &r, &error)) fail_msg("%s", error->message);
  for (int t = 0; t < 4; t++) {
    assert_int_equal(r.thread_bytes[t], 16u << 20);
    assert_int_equal(r.thread_bytes[t] / c.calls[t], t < 2 ? 4096 : 1048576);
    assert_int_equal(r.thread_start_ns[t], 0);
  }
  assert_int_equal(r.bytes_returned, 4 * (16u << 20));
  assert_non_null(r.job_read_lat);
  assert_int_equal(r.job_read_lat[0].n, 2 * 4096);
  assert_int_equal(r.job_read_lat[1].n, 2 * 16);
  pcs_result_clear(&r);
  pcs_fio_clear(&job), pcs_params_clear(&p);
}

/* stonewall: the large clones start when the last small clone has finished. */
static void stonewall_starts_a_job_when_the_ones_before_have_finished(void **state) {
  PcsParams p;
  PcsFioJob job;
  g_autofree char *text = example("16M", "stonewall\n");
  load_job(text, &p, &job);
  PcsResult r;
  test_run(&p, "window", &r);
  uint64_t small_done = MAX(r.thread_done_ns[0], r.thread_done_ns[1]);
  assert_true(small_done > 0);
  assert_int_equal(r.thread_start_ns[0], 0);
  assert_int_equal(r.thread_start_ns[2], small_done);
  assert_int_equal(r.thread_start_ns[3], small_done);
  assert_true(r.thread_done_ns[2] > small_done);
  assert_int_equal(r.bytes_returned, 4 * (16u << 20));
  pcs_result_clear(&r);
  pcs_fio_clear(&job), pcs_params_clear(&p);
}

/* Jobs that read the same way run as the one job they are: the jobs'
 * path (each reader's view) gives the plain run's figures to the byte. */
static void jobs_that_read_alike_run_as_one_job(void **state) {
  PcsParams one, two;
  PcsFioJob j1, j2;
  load_job("[a]\nsize=16m\nbs=64k\nnumjobs=4\nfilename=f\n", &one, &j1);
  load_job("[a]\nsize=16m\nbs=64k\nnumjobs=2\nfilename=f\n[b]\nsize=16m\nbs=64k\nnumjobs=2\nfilename=f\nnew_group\n",
           &two, &j2);
  assert_null(one.jobs);
  assert_int_equal(two.njobs, 2);
  PcsResult a, b;
  test_run(&one, "pool:16", &a);
  test_run(&two, "pool:16", &b);
  assert_int_equal(a.sim_time_ns, b.sim_time_ns);
  assert_int_equal(a.bios, b.bios);
  assert_int_equal(a.events, b.events);
  assert_int_equal(a.read_lat.n, b.read_lat.n);
  for (int t = 0; t < 4; t++) assert_int_equal(a.thread_done_ns[t], b.thread_done_ns[t]);
  pcs_result_clear(&a), pcs_result_clear(&b);
  pcs_fio_clear(&j1), pcs_params_clear(&one);
  pcs_fio_clear(&j2), pcs_params_clear(&two);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(sections_that_differ_become_jobs),
    cmocka_unit_test(what_jobs_share_is_refused_when_it_differs),
    cmocka_unit_test(each_job_reads_with_its_own_block_size),
    cmocka_unit_test(stonewall_starts_a_job_when_the_ones_before_have_finished),
    cmocka_unit_test(jobs_that_read_alike_run_as_one_job),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
