/* test_fold.c - copies folded into one event (sim/model/fold.h) change
 * nothing a user sees, and pcs_fold_allowed() is the one place that says
 * when a run folds.
 *
 * Each condition that forbids folding is asked of pcs_fold_allowed() and
 * of a run (it folds nothing).  Each case below runs a scenario twice, folded and with PcsRunOptions.no_fold
 * (every copy an event of its own, as before folding existed), and asks
 * for the same results to the bit: the JSON report, the event count, and
 * every per-thread array and latency histogram (its running mean and
 * deviation as doubles).  The cases are the shapes of race that put
 * events of different tasks at the same nanosecond, where a folded event's
 * place among them is decided by its stamp (fold.h): readers woken together
 * by one end-io, more readers than CPUs (slices ending mid-run), no jitter
 * (every copy the same cost, so steps of several readers end together and
 * the stamp cannot always tell: those runs are redone unfolded, and the
 * test asserts that some are), full jitter, both kernels' copy loops, the
 * scheduler tick and per-CPU run queues of the 6.18 scenario, a runtime
 * cut, per-thread files, block sizes from 4 KiB to 1 MiB, copies so cheap
 * that some cost 0 ns.
 */
#include "support.h"

#include "pcsim/report.h"
#include "pcsim/sim.h"

#include "fold.h"

#include <string.h>

typedef struct {
  const char *workload;
  const char *sets[6];
} FoldCase;

/* The v3.5 scenarios set cpu.cfs_wake_preempt, which forbids folding: the
 * cases turn it off to fold their race shapes (its own case is fold_off). */
static const FoldCase cases[] = {
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "scenario.kernel=v6.18", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.threads=16", "cpu.count=2", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.threads=3", "cpu.count=2", "cost.jitter=0", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.block_size=4k", "scenario.seed=2", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.block_size=1M", "cost.jitter=0.9", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.runtime=4ms", NULL}},
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "workload.files=per-thread", "scenario.kernel=v6.18", NULL}},
  {"workloads/liubo-2011-calibrated.ini", {"cpu.cfs_wake_preempt=0", NULL}},
  {"workloads/liubo-2011-calibrated.ini", {"cpu.cfs_wake_preempt=0", "cost.jitter=0", NULL}},
  {"workloads/eight-threads.ini", {"cpu.cfs_wake_preempt=0", NULL}},
  {"workloads/eight-threads.ini", {"cpu.cfs_wake_preempt=0", "scenario.seed=3", "scenario.kernel=v6.18", NULL}},
  {"workloads/eight-threads.ini", {"cpu.cfs_wake_preempt=0", "cost.loop_worker=14us", "cost.loop_request=5us", "cpu.migration_cost=500us", NULL}},
  {"workloads/nvme-fast.ini", {"cpu.cfs_wake_preempt=0", NULL}},
  /* the shipped 6.18 scenario has cost.copy_cold and cpu.wake_preempt,
   * which forbid folding: without them, its tick, per-CPU run queues and
   * wake-up spread fold */
  {"workloads/linux-6.18-btrfs.ini", {"cost.copy_cold=0", "cpu.wake_preempt=0", NULL}},
  {"workloads/linux-6.18-btrfs.ini", {"cost.copy_cold=0", "cpu.wake_preempt=0", "readahead.read_ahead_kb=128", NULL}},
  {"workloads/linux-6.18-btrfs.ini", {"cost.copy_cold=0", "cpu.wake_preempt=0", "workload.block_size=4k", "cost.jitter=0", NULL}},
  {"workloads/single-thread.ini", {"cpu.cfs_wake_preempt=0", NULL}},
  {"workloads/single-thread.ini", {"cpu.cfs_wake_preempt=0", "cost.copy=1ns", "cost.jitter=0.1", NULL}}, /* copies of 0 ns: nothing to stamp */
  {"workloads/liubo-2011.ini", {"cpu.cfs_wake_preempt=0", "cost.copy=3ns", "cost.jitter=0.9", "scenario.kernel=v6.18", NULL}},
};

static void run(const PcsParams *p, const PcsPolicy *pol, gboolean no_fold, PcsResult *out) {
  PcsRunOptions opt = {.count_page_reads = TRUE, .thread_latency = TRUE, .no_fold = no_fold};
  GError *error = NULL;
  if (!pcs_sim_run(p, pol, &opt, out, &error)) fail_msg("%s", error->message);
}

#define SAME_ARRAY(field, n)                                                                        \
  do {                                                                                              \
    if (memcmp(a->field, b->field, (n) * sizeof *a->field) != 0) fail_msg("%s: " #field " differs", what); \
  } while (0)

static void assert_same(const PcsParams *p, const PcsResult *a, const PcsResult *b, const char *what) {
  g_autoptr(GString) ja = g_string_new(NULL), jb = g_string_new(NULL);
  pcs_report_json(ja, p, a, 1);
  pcs_report_json(jb, p, b, 1);
  if (strcmp(ja->str, jb->str) != 0) fail_msg("%s: the JSON reports differ", what);
  assert_int_equal(a->events, b->events);
  assert_int_equal(a->sim_time_ns, b->sim_time_ns);
  assert_int_equal(a->owner_changes, b->owner_changes);
  assert_int_equal(memcmp(&a->read_lat, &b->read_lat, sizeof a->read_lat), 0);
  SAME_ARRAY(thread_bytes, a->threads);
  SAME_ARRAY(thread_done_ns, a->threads);
  SAME_ARRAY(thread_inserts, a->threads);
  SAME_ARRAY(thread_cpu_ns, a->threads);
  SAME_ARRAY(thread_switches, a->threads);
  SAME_ARRAY(thread_read_lat, a->threads);
  SAME_ARRAY(bio_pages_hist, a->hist_len);
  SAME_ARRAY(page_reads, p->workload_file_size / PCS_PAGE_SIZE);
}

static void folded_runs_equal_unfolded_runs(void **state) {
  uint64_t folded = 0, redone = 0, runs = 0;
  /* copy steps folded in the cases of each shipped scenario */
  g_autoptr(GHashTable) per_scenario = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) g_hash_table_insert(per_scenario, (gpointer)cases[c].workload, g_new0(uint64_t, 1));
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    PcsParams p;
    test_load(&p, cases[c].workload);
    test_set(&p, "workload.file_size=24M", NULL);
    for (size_t k = 0; cases[c].sets[k]; k++) test_set(&p, cases[c].sets[k], NULL);
    g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
    GError *error = NULL;
    if (!pcs_policy_parse_list(p.scenario_policies, pols, &error)) fail_msg("%s", error->message);
    for (guint i = 0; i < pols->len; i++) {
      const PcsPolicy *pol = &g_array_index(pols, PcsPolicy, i);
      g_autofree char *what = g_strdup_printf("%s %s%s%s", cases[c].workload, pol->name, cases[c].sets[0] ? " " : "",
                                              cases[c].sets[0] ? cases[c].sets[0] : "");
      PcsResult a, b;
      run(&p, pol, FALSE, &a);
      run(&p, pol, TRUE, &b);
      assert_same(&p, &a, &b, what);
      assert_int_equal(b.folded_steps, 0);
      *(uint64_t *)g_hash_table_lookup(per_scenario, cases[c].workload) += a.folded_steps;
      folded += a.folded_steps;
      redone += a.fold_redone;
      runs++;
      pcs_result_clear(&a);
      pcs_result_clear(&b);
    }
    pcs_params_clear(&p);
  }
  print_message("%" G_GUINT64_FORMAT " runs, %" G_GUINT64_FORMAT " copy steps folded, %" G_GUINT64_FORMAT
                " runs redone unfolded\n", runs, folded, redone);
  assert_true(folded > 100000);     /* the cases fold */
  GHashTableIter it;
  gpointer name, n;
  g_hash_table_iter_init(&it, per_scenario);
  while (g_hash_table_iter_next(&it, &name, &n)) /* each scenario: else its cases test nothing here */
    if (!*(uint64_t *)n) fail_msg("%s: no case folds", (const char *)name);
  assert_int_equal(g_hash_table_size(per_scenario), 6); /* every shipped scenario, workloads/NAME.ini */
  assert_true(redone >= 1);         /* and some tie where the stamp cannot tell: the redo path runs */
  assert_true(redone < runs / 2);   /* but not most */
}

/* Each condition of pcs_fold_allowed(): alone, on a scenario that folds
 * (the seed's at 8 MiB), it forbids folding, and the run folds nothing.
 * The parameters are those that would change the output if folded
 * (cpu.wake_preempt, cpu.cfs_wake_preempt, workload.loops, time_based) or that leave nothing to
 * fold (cost.copy_cold, cost.copy = 0); the options are --no-fold and a
 * trace (--trace, --ftrace, --blktrace and --timeline all set one). */
typedef struct {
  const char *sets[3];
  gboolean no_fold, trace;
} FoldOff;

static const FoldOff fold_off[] = {
  {{"cpu.wake_preempt=1", NULL}, FALSE, FALSE},
  {{"cpu.cfs_wake_preempt=1", NULL}, FALSE, FALSE},
  {{"workload.loops=2", NULL}, FALSE, FALSE},
  {{"workload.time_based=1", "workload.runtime=20ms", NULL}, FALSE, FALSE},
  {{"cost.copy_cold=3us", "cpu.cache_size=1M", NULL}, FALSE, FALSE},
  {{"cost.copy=0", NULL}, FALSE, FALSE},
  {{NULL}, TRUE, FALSE},
  {{NULL}, FALSE, TRUE},
};

static void fold_allowed_is_off_for_each_condition(void **state) {
  PcsParams p;
  test_load(&p, "workloads/liubo-2011.ini");
  test_set(&p, "workload.file_size=8M", "cpu.cfs_wake_preempt=0", NULL);
  PcsRunOptions plain = {0};
  assert_true(pcs_fold_allowed(&p, NULL));
  assert_true(pcs_fold_allowed(&p, &plain));
  PcsResult r;
  test_run(&p, "immediate", &r); /* the scenario folds */
  assert_true(r.folded_steps > 1000);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  for (size_t c = 0; c < G_N_ELEMENTS(fold_off); c++) {
    const FoldOff *f = &fold_off[c];
    test_load(&p, "workloads/liubo-2011.ini");
    test_set(&p, "workload.file_size=8M", "cpu.cfs_wake_preempt=0", NULL);
    if (f->sets[0]) test_set(&p, f->sets[0], f->sets[1], NULL);
    g_autoptr(GString) text = g_string_new(NULL);
    PcsRunOptions opt = {.no_fold = f->no_fold};
    if (f->trace) opt.trace = test_trace_text, opt.trace_user = text;
    const char *what = f->sets[0] ? f->sets[0] : f->no_fold ? "no_fold" : "trace";
    if (pcs_fold_allowed(&p, &opt)) fail_msg("%s: pcs_fold_allowed() says yes", what);
    GError *error = NULL;
    if (!pcs_sim_run(&p, &pol, &opt, &r, &error)) fail_msg("%s: %s", what, error->message);
    if (r.folded_steps || r.fold_redone) fail_msg("%s: the run folded %" G_GUINT64_FORMAT " steps", what, r.folded_steps);
    if (f->trace) assert_non_null(strstr(text->str, "copy")); /* and the trace has its copies */
    pcs_result_clear(&r);
    pcs_params_clear(&p);
  }
}

/* scripts/fold-check, the command docs/performance.md quotes: random
 * configurations through the CLI, folded and --no-fold, the same JSON. */
static void fold_check_finds_no_difference(void **state) {
  g_autofree char *script = test_path("scripts/fold-check");
  g_autofree char *env = g_strdup_printf("PCSIM=%s", PCSIM_BINARY);
  char *argv[] = {"env", env, "bash", script, "--seed", "3", "8", NULL};
  g_autofree char *out = test_tool(NULL, argv);
  if (!strstr(out, "fold-check: 8 configurations (seed 3), 0 differ;")) fail_msg("fold-check printed: %s", out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(folded_runs_equal_unfolded_runs),
    cmocka_unit_test(fold_allowed_is_off_for_each_condition),
    cmocka_unit_test(fold_check_finds_no_difference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
