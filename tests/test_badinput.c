/* test_badinput.c - every input path refuses bad input the same way.
 *
 * One row per case: what the user feeds pcsim and what the one-line error
 * must name.  Each case must exit 2, print nothing on stdout, print one
 * line "pcsim COMMAND: WHERE..." whose WHERE (the file and line, or the
 * option) comes first, name the key, and leave an existing output file
 * (--trace or --out) untouched.
 */
#include "support.h"

typedef enum { IN_SCENARIO, IN_FIO, IN_MODEL, IN_SET, IN_SCHEDULE, IN_RESULTS, IN_SWEEP, IN_PATH } InputKind;

typedef struct {
  const char *name;
  InputKind kind;
  const char *text;   /* file content (\x01 marks binary), or the option value */
  const char *extra;  /* one more option for run, or NULL */
  const char *expect[3];
} BadCase;

#define SCEN(name, text, ...) {name, IN_SCENARIO, text, NULL, {__VA_ARGS__}}
static const BadCase cases[] = {
  SCEN("empty file", "", "@:1:", "empty scenario"),
  SCEN("binary garbage", "\x01\x02\xff\xfe[workload]\x01", "@:1:", "not a text file"),
  SCEN("a byte that is not UTF-8 on line 3", "[workload]\nthreads = 4\nfile\xff_size = 8M\n", "@:3:",
       "not a text file"),
  SCEN("key before any section", "# header\nthreads = 4\n[workload]\n", "@:2:", "does not start with a group"),
  SCEN("broken section header", "[workload]\nthreads = 2\n[cpu\n", "@:3:", "[cpu"),
  SCEN("unknown key", "[workload]\nthreads = 4\nblock_sise = 32k\n", "@:3:", "did you mean 'workload.block_size'"),
  SCEN("unknown section", "[worklaod]\nthreads = 4\n", "@:2:", "did you mean 'workload.threads'"),
  SCEN("duplicate key", "[workload]\nthreads = 4\n\nthreads = 8\n", "@:4:", "duplicate key 'workload.threads'"),
  SCEN("zero count", "[workload]\nthreads = 0\n", "@:2:", "workload.threads", "out of range"),
  SCEN("negative count", "[cpu]\ncount = -2\n", "@:2:", "cpu.count", "unsigned integer"),
  SCEN("size overflowing 64 bits", "[workload]\nfile_size = 99999999T\n", "@:2:", "workload.file_size"),
  SCEN("non-numeric value", "[device]\nlatency = fast\n", "@:2:", "device.latency", "time with unit"),
  SCEN("time without unit", "[device]\nlatency = 100\n", "@:2:", "device.latency"),
  SCEN("the retired max_window key", "[readahead]\n# the old way\nmax_window = 8M\n", "@:3:",
       "readahead.max_window is no longer a key", "read_ahead_kb = 4096, fadvise_hint = 1"),
  SCEN("read_ahead_kb sysfs could not show", "[readahead]\nread_ahead_kb = 130\n", "@:2:",
       "readahead.read_ahead_kb = 130", "multiple of 4, as sysfs shows it"),
  SCEN("randread of blocks inside pages", "[workload]\nrw = randread\nblock_size = 6k\n", "@:2:",
       "workload.rw = randread needs workload.block_size a multiple"),
  SCEN("fadvise_hint fio does not know", "[readahead]\nfadvise_hint = yes\n", "@:2:",
       "readahead.fadvise_hint = 'yes'", "0, 1, sequential, random or noreuse"),
  SCEN("unknown kernel", "[scenario]\nkernel = v4.19\n", "@:2:", "scenario.kernel = 'v4.19'", "v3.5 or v6.18"),
  SCEN("file smaller than one page", "[workload]\nfile_size = 100\n", "@:2:", "workload.file_size", "4096"),
  SCEN("unknown workload.files", "[workload]\nfiles = each\n", "@:2:", "workload.files = 'each'", "shared or per-thread"),
  SCEN("scattered memory without contiguous memory", "[memory]\n# 88 MiB\nscattered = 88M\n", "@:3:",
       "memory.scattered", "memory.contiguous = 1"),
  SCEN("wake jitter without a wake latency", "[cpu]\n# spread\nwake_jitter = 0.3\n", "@:3:",
       "cpu.wake_jitter is set but cpu.wake_latency = 0"),
  SCEN("time based with nothing that takes time", "[workload]\ntime_based = 1\nruntime = 1ms\n[cost]\ncopy = 0\nsyscall = 0\n",
       "@:2:", "never reach workload.runtime"),
  SCEN("wake affinity without per-CPU run queues", "[cpu]\n# placement\nwake_affine = 0.4\n", "@:3:",
       "cpu.wake_affine is set but cpu.migration_cost = 0"),
  SCEN("the kernel's wake-up CPU rule without per-CPU run queues", "[cpu]\n# rule\nwake_select = 1\n", "@:3:",
       "cpu.wake_select is set but cpu.migration_cost = 0"),
  SCEN("the kernel's wake-up CPU rule and the coin flip", "[cpu]\nmigration_cost = 500us\nwake_affine = 0.02\nwake_select = 1\n",
       "@:4:", "cpu.wake_select and cpu.wake_affine are both set"),
  SCEN("io_uring over several files", "[scenario]\nkernel = v6.18\n[workload]\nioengine = io_uring\nnrfiles = 2\n",
       "@:4:", "workload.ioengine = io_uring with workload.nrfiles > 1 is not modelled"),
  SCEN("wake affinity of 1", "[cpu]\nmigration_cost = 500us\nwake_affine = 1\n", "@:3:", "cpu.wake_affine"),
  SCEN("wake latency with the v3.x hand-off", "[cpu]\nwake_exclusive = 1\nwake_latency = 30us\n", "@:3:",
       "cpu.wake_latency is not modelled with cpu.wake_exclusive = 1"),
  SCEN("cold copy without a cache size", "[cost]\n# cold\ncopy_cold = 800ns\n", "@:3:",
       "cost.copy_cold is set but cpu.cache_size = 0"),
  SCEN("cold copy cheaper than a warm one", "[cpu]\ncache_size = 1M\n[cost]\ncopy = 400ns\ncopy_cold = 300ns\n", "@:5:",
       "cost.copy_cold (300 ns) is less than cost.copy (400 ns)"),
  SCEN("cache size not a whole number of pages", "[cpu]\ncache_size = 1000\n", "@:2:",
       "cpu.cache_size", "multiple of the 4096"),
  SCEN("segment size not a whole number of pages", "[block]\nmax_segment_size = 6000\n", "@:2:",
       "block.max_segment_size", "multiple of the 4096"),
  SCEN("absurd thread count", "[workload]\nthreads = 100000\n", "@:2:", "workload.threads", "4096"),
  {"pool larger than the file", IN_SCENARIO, "[workload]\nfile_size = 64k\n[readahead]\nread_ahead_kb = 64\n",
   "--policy=pool:32", {"@:2:", "pool:32", "workload.file_size"}},
  {"unknown policy", IN_SCENARIO, "[workload]\nthreads = 2\n", "--policy=pool16", {"--policy", "pool16"}},
  {"bad policy in the scenario", IN_SCENARIO, "[scenario]\npolicies = immediate,pol:16\n", NULL,
   {"@:2: scenario.policies", "pol:16"}},
  /* a fio job's --model (@): its keys' errors named the job file, with the model's line */
  {"bad key in a fio job's model", IN_MODEL, "[bio]\n# not whole pages\nstripe_size = 1000\n", NULL,
   {"@:3:", "bio.stripe_size"}},
  {"bad policy in a fio job's model", IN_MODEL, "[scenario]\nkernel = v6.18\npolicies = pol:16\n", NULL,
   {"@:3: scenario.policies", "pol:16"}},
  {"model key against a job key", IN_MODEL, "[scenario]\nkernel = v6.18\npolicies = window\n[cost]\ninsert_alloc = 9us\n",
   NULL, {"@:5:", "cost.insert_alloc (9000 ns) is more than cost.insert_won"}},
  {"over the memory limit", IN_SCENARIO, "[workload]\nfile_size = 1T\n[limits]\nmax_memory = 64M\n", NULL,
   {"@", "limits.max_memory", "MiB"}},
  {"over the event limit", IN_SCENARIO, "[workload]\nthreads = 64\n[limits]\nmax_events = 1000000\n", NULL,
   {"@", "limits.max_events", "events"}},
  {"fio option that is not modelled", IN_FIO, "[global]\nbs=32k\n[READ]\nsize=64m\nrw=randwrite\n", NULL,
   {"@:5:", "fio option 'rw=randwrite' is not modelled by pcsim"}},
  {"fio job without size", IN_FIO, "[READ]\nrw=read\n", NULL, {"@:1:", "no size="}},
  {"fio option outside a section", IN_FIO, "numjobs=4\n[READ]\nsize=64m\n", NULL, {"@:1:", "outside"}},
  {"fio unset environment variable", IN_FIO, "[READ]\nsize=${PCSIM_SURELY_UNSET}\n", NULL,
   {"@:2:", "${PCSIM_SURELY_UNSET} is not set"}},
  {"fio fadvise_hint fio refuses", IN_FIO, "[READ]\nsize=64m\nfadvise_hint=SEQUENTIAL\n", NULL,
   {"@:3:", "fio: failed parsing fadvise_hint=SEQUENTIAL", "0, 1, sequential, random or noreuse"}},
  {"fio randread bs=6k", IN_FIO, "[READ]\nsize=64m\nrw=randread\nbs=6k\n", NULL,
   {"@:4:", "fio option 'bs=6k' is not modelled by pcsim", "rw=randread takes bs a multiple of 4k"}},
  {"fio random_generator=lfsr", IN_FIO, "[READ]\nsize=64m\nrw=randread\nrandom_generator=lfsr\n", NULL,
   {"@:4:", "fio option 'random_generator=lfsr' is not modelled by pcsim", "LFSR generator is not modelled"}},
  {"fio random_generator=xorshift", IN_FIO, "[READ]\nsize=64m\nrw=randread\nrandom_generator=xorshift\n", NULL,
   {"@:4:", "fio option random_generator = 'xorshift': expected tausworthe, lfsr or tausworthe64"}},
  {"fio randread:8", IN_FIO, "[READ]\nsize=64m\nrw=randread:8\n", NULL,
   {"@:3:", "fio option 'rw=randread:8' is not modelled by pcsim", "runs of sequential reads"}},
  {"fio block size smaller than a page", IN_FIO, "[READ]\nsize=64m\nbs=1000\n", NULL,
   {"@:3:", "workload.block_size", "4096"}},
  {"fio boolean fio refuses", IN_FIO, "[READ]\nsize=64m\ninvalidate=true\n", NULL,
   {"@:3:", "fio: failed parsing invalidate=true"}},
  {"fio option with a typo", IN_FIO, "[READ]\nsize=64m\nnumjob=4\n", NULL,
   {"@:3:", "Bad option <numjob=4>; did you mean numjobs?"}},
  {"fio job saved as a scenario", IN_SCENARIO, "[global]\nthread\n[READ]\nsize=64m\n", NULL,
   {"@:2:", "this looks like a fio job file", "--fio"}},
  {"scenario with 'thread' for 'threads'", IN_SCENARIO, "[scenario]\nname = mine\n[workload]\nthread = 1\n", NULL,
   {"@:4:", "unknown key 'workload.thread' (did you mean 'workload.threads'?)"}},
  {"scenario with a typo of threads", IN_SCENARIO, "[workload]\nthraeds = 4\n", NULL,
   {"@:2:", "did you mean 'workload.threads'"}},
  {"scenario with fio's bs", IN_SCENARIO, "[workload]\nthreads = 4\nbs = 32k\n", NULL,
   {"@:3:", "unknown key 'workload.bs' (did you mean 'workload.block_size'?)"}},
  {"--set of an unknown key", IN_SET, "cpu.cunt=2", NULL, {"--set", "did you mean 'cpu.count'"}},
  {"--set without a value", IN_SET, "cpu.count", NULL, {"--set", "SECTION.KEY=VALUE"}},
  {"--set out of range", IN_SET, "workload.threads=5000", NULL, {"--set", "workload.threads", "4096"}},
  {"--set block larger than the file", IN_SET, "workload.file_size=16k", NULL,
   {"--set", "workload.block_size (32768 bytes) is larger than workload.file_size (16384)"}},
  {"--set of the retired max_window", IN_SET, "readahead.max_window=128k", NULL,
   {"--set", "readahead.max_window is no longer a key", "read_ahead_kb = 128, fadvise_hint = 0"}},
  {"schedule with a bad step", IN_SCHEDULE, "threads 2\npages 2\nsteps 1 x\n", NULL, {"@:3:", "step 'x'"}},
  {"schedule naming a missing thread", IN_SCHEDULE, "threads 2\npages 2\nsteps 1 3\n", NULL, {"@:3:", "thread 3"}},
  {"schedule without threads", IN_SCHEDULE, "pages 2\n", NULL, {"@:1:", "missing 'threads N'"}},
  {"results that are not CSV", IN_RESULTS, "\n\n", NULL, {"@:1:", "not a pcsim result file"}},
  {"results with a short row", IN_RESULTS, "# workload.threads=2\npolicy,threads\nimmediate\n", NULL,
   {"@:3:", "expected 2 cells"}},
  {"results with a bad recorded key", IN_RESULTS, "# workload.thread=2\npolicy,threads\nimmediate,2\n", NULL,
   {"@:1:", "workload.thread"}},
  {"results with broken JSON", IN_RESULTS, "{\"results\": [", NULL, {"@"}},
  {"sweep over an unknown key", IN_SWEEP, "workload.thread=1,2", NULL, {"--vary", "did you mean 'workload.threads'"}},
  {"sweep with a bad range", IN_SWEEP, "workload.threads=8..1", NULL, {"--vary", "A <= B"}},
  /* a varied value a check refuses was blamed on the scenario file (no line) */
  {"sweep value a check refuses", IN_SWEEP, "cpu.cache_size=4096,1000", NULL,
   {"--vary cpu.cache_size=1000: cpu.cache_size: expected 0 or a multiple of the 4096-byte page (grid point 2)"}},
  {"sweep value against a scenario key", IN_SWEEP, "workload.file_size=16k", NULL,
   {"--vary workload.file_size=16384: workload.block_size (32768 bytes) is larger than workload.file_size"}},
  {"scenario path that does not exist", IN_PATH, "/nonexistent/pcsim.ini", NULL, {"/nonexistent/pcsim.ini", "No such"}},
  {"scenario path that is a directory", IN_PATH, "workloads", NULL, {"workloads", "is a directory"}},
};

static char *write_input(const BadCase *c, const char *dir, const char *name) {
  char *path = g_build_filename(dir, name, NULL);
  if (!g_file_set_contents(path, c->text, (gssize)strlen(c->text), NULL)) fail_msg("cannot write %s", path);
  return path;
}

/* The command a case runs, as its messages name it. */
static const char *command_of(InputKind kind) {
  return kind == IN_SCHEDULE ? "pcsim replay: " : kind == IN_SWEEP ? "pcsim sweep: " : "pcsim run: ";
}

static int run_case(const BadCase *c, const char *dir, const char *keep, char **out, char **err, char **input) {
  *input = NULL;
  switch (c->kind) {
  case IN_SCENARIO:
    *input = write_input(c, dir, "bad.ini");
    return c->extra ? test_pcsim(out, err, "run", *input, c->extra, "--trace", keep, NULL)
                    : test_pcsim(out, err, "run", *input, "--trace", keep, NULL);
  case IN_FIO:
    *input = write_input(c, dir, "bad.fio");
    return test_pcsim(out, err, "run", *input, "--trace", keep, NULL);
  case IN_MODEL: {
    *input = write_input(c, dir, "bad.ini");
    g_autofree char *job = g_build_filename(dir, "job.fio", NULL);
    if (!g_file_set_contents(job, "[j]\nsize=8m\n", -1, NULL)) fail_msg("cannot write %s", job);
    return test_pcsim(out, err, "run", job, "--model", *input, "--trace", keep, NULL);
  }
  case IN_SET:
    return test_pcsim(out, err, "run", "workloads/single-thread.ini", "--set", c->text, "--trace", keep, NULL);
  case IN_SCHEDULE:
    *input = write_input(c, dir, "bad.sched");
    return test_pcsim(out, err, "replay", *input, NULL);
  case IN_RESULTS:
    *input = write_input(c, dir, "bad.csv");
    return test_pcsim(out, err, "run", "--scenario-from", *input, "--trace", keep, NULL);
  case IN_SWEEP:
    return test_pcsim(out, err, "sweep", "workloads/single-thread.ini", "--vary", c->text, "--out", keep, NULL);
  case IN_PATH:
    return test_pcsim(out, err, "run", c->text, "--trace", keep, NULL);
  }
  return -1;
}

static void every_bad_input_exits_2_naming_file_line_and_key(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *keep = g_build_filename(dir, "keep.out", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const BadCase *c = &cases[i];
    g_file_set_contents(keep, "earlier results\n", -1, NULL);
    g_autofree char *out = NULL, *err = NULL, *input = NULL;
    int rc = run_case(c, dir, keep, &out, &err, &input);
    if (rc != 2) fail_msg("%s: exit %d, expected 2 (stderr: %s)", c->name, rc, err);
    if (*out) fail_msg("%s: stdout not empty: %s", c->name, out);
    if (strchr(err, '\n') != err + strlen(err) - 1) fail_msg("%s: expected one line, got: %s", c->name, err);
    for (size_t k = 0; k < 3 && c->expect[k]; k++) {
      g_autofree char *want = g_str_has_prefix(c->expect[k], "@") && input
                                  ? g_strdup_printf("%s%s", input, c->expect[k] + 1)
                                  : g_strdup(c->expect[k]);
      g_autofree char *first = g_strconcat(command_of(c->kind), want, NULL);
      if (k == 0 && !g_str_has_prefix(err, first)) fail_msg("%s: '%s' does not start with '%s'", c->name, err, first);
      if (!strstr(err, want)) fail_msg("%s: '%s' lacks '%s'", c->name, err, want);
    }
    g_autofree char *kept = NULL;
    g_file_get_contents(keep, &kept, NULL, NULL);
    if (g_strcmp0(kept, "earlier results\n") != 0) fail_msg("%s: the output file was touched", c->name);
    g_autofree char *tmp = g_strdup_printf("%s.tmp", keep);
    if (g_file_test(tmp, G_FILE_TEST_EXISTS)) fail_msg("%s: left %s behind", c->name, tmp);
  }
}


/* A 100 KB bad value is cut in the message, for a scenario, a fio job and --set. */
static void a_huge_value_is_cut(void **state) {
  g_autofree char *big = g_strnfill(100000, 'x');
  g_autofree char *ini_text = g_strdup_printf("[workload]\nthreads = %s\n", big);
  g_autofree char *fio_text = g_strdup_printf("[j]\nsize=%s\n", big);
  g_autofree char *ini = test_tempfile("big.ini", ini_text);
  g_autofree char *fio = test_tempfile("big.fio", fio_text);
  g_autofree char *set = g_strdup_printf("workload.threads=%s", big);
  const char *const argvs[][4] = {{"run", ini, NULL, NULL}, {"run", fio, NULL, NULL},
                                  {"run", "workloads/single-thread.ini", "--set", set}};
  for (size_t i = 0; i < G_N_ELEMENTS(argvs); i++) {
    g_autofree char *out = NULL, *err = NULL;
    int rc = argvs[i][2] ? test_pcsim(&out, &err, argvs[i][0], argvs[i][1], argvs[i][2], argvs[i][3], NULL)
                         : test_pcsim(&out, &err, argvs[i][0], argvs[i][1], NULL);
    assert_int_equal(rc, 2);
    if (strlen(err) > 1100) fail_msg("case %zu: %zu bytes on stderr", i, strlen(err));
    if (!strstr(err, "bytes in all]")) fail_msg("case %zu: no length of the cut value: %s", i, err);
  }
}

/* A control character inside a bad value (a CR, an escape sequence) is
 * echoed as a C escape: the message stays one line that starts with the
 * file, also on a terminal (a raw CR overwrote it there). */
static void control_characters_are_escaped(void **state) {
  g_autofree char *ini = test_tempfile("cr.ini", "[workload]\nthreads = 4\rx\n");
  g_autofree char *fio = test_tempfile("cr.fio", "[global]\nbs=4k\n[j]\nsize=8m\nthr\x1b[2Jead\n");
  const struct {
    const char *path, *want;
  } controls[] = {{ini, ":2: workload.threads = '4\\rx': expected an unsigned integer"},
                  {fio, ":5: thr\\x1b[2Jead: not a fio option (fio: Bad option <thr\\x1b[2Jead>"}};
  for (size_t i = 0; i < G_N_ELEMENTS(controls); i++) {
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "run", controls[i].path, NULL), 2);
    g_autofree char *want = g_strdup_printf("pcsim run: %s%s", controls[i].path, controls[i].want);
    if (!g_str_has_prefix(err, want)) fail_msg("case %zu: '%s' does not start with '%s'", i, err, want);
    if (strpbrk(err, "\r\x1b") || strchr(err, '\n') != err + strlen(err) - 1) fail_msg("case %zu: not one line: %s", i, err);
  }
}

/* A scenario saved with a UTF-8 byte-order mark (Windows editors) runs. */
static void a_byte_order_mark_is_skipped(void **state) {
  g_autofree char *path = test_tempfile("bom.ini", "\xef\xbb\xbf[workload]\nthreads = 2\nfile_size = 8M\n");
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", path, "--format", "csv", NULL), 0);
  assert_non_null(strstr(out, "# workload.threads=2\n"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_bad_input_exits_2_naming_file_line_and_key),
    cmocka_unit_test(a_huge_value_is_cut),
    cmocka_unit_test(control_characters_are_escaped),
    cmocka_unit_test(a_byte_order_mark_is_skipped),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
