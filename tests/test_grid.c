/* test_grid.c - --vary expansion, range syntax, row order and shards. */
#include "support.h"

#include "pcsim/grid.h"
#include "pcsim/sweep.h"

static char *joined(GPtrArray *a) {
  g_ptr_array_add(a, NULL);
  char *s = g_strjoinv(",", (char **)a->pdata);
  g_ptr_array_remove_index(a, a->len - 1);
  return s;
}

static void expect_expansion(const char *key, const char *list, const char *assign, const char *column) {
  g_autoptr(GPtrArray) as = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(GPtrArray) co = g_ptr_array_new_with_free_func(g_free);
  GError *error = NULL;
  const PcsParamInfo *info = key ? pcs_params_lookup(key, "test", &error) : NULL;
  if (!pcs_grid_expand(info, list, as, co, &error)) fail_msg("%s: %s", list, error->message);
  g_autofree char *a = joined(as), *c = joined(co);
  assert_string_equal(a, assign);
  assert_string_equal(c, column);
}

static void lists_and_ranges_expand(void **state) {
  expect_expansion("workload.threads", "1,2,4", "1,2,4", "1,2,4");
  expect_expansion("workload.threads", "1..8", "1,2,3,4,5,6,7,8", "1,2,3,4,5,6,7,8");
  expect_expansion(NULL, "1..64*2", "1,2,4,8,16,32,64", "1,2,4,8,16,32,64");
  expect_expansion(NULL, "1..100*2", "1,2,4,8,16,32,64", "1,2,4,8,16,32,64"); /* stops below the end */
  expect_expansion("workload.threads", "0..100+25", "0,25,50,75,100", "0,25,50,75,100");
  expect_expansion("workload.threads", "1,4..6,9", "1,4,5,6,9", "1,4,5,6,9");
  /* ranges take the key's units; columns are base units, assignments keep ns */
  expect_expansion("device.latency", "10us..10ms*10", "10000ns,100000ns,1000000ns,10000000ns",
                   "10000,100000,1000000,10000000");
  expect_expansion("workload.file_size", "1M..4M*2", "1048576,2097152,4194304", "1048576,2097152,4194304");
  expect_expansion("cost.jitter", "0,0.1,0.2", "0,0.1,0.2", "0,0.1,0.2");
  /* the step takes the key's units too (docs/sweeps.md); a bare step is base units */
  expect_expansion("workload.file_size", "64M..256M+64M", "67108864,134217728,201326592,268435456",
                   "67108864,134217728,201326592,268435456");
  expect_expansion("device.latency", "10us..400us+100us", "10000ns,110000ns,210000ns,310000ns",
                   "10000,110000,210000,310000");
  expect_expansion("device.latency", "10us..12us+1000", "10000ns,11000ns,12000ns", "10000,11000,12000");
  /* a decimal that is a whole number of the base unit is exact */
  expect_expansion("device.latency", "0.1ms,1.5us", "100000ns,1500ns", "100000,1500");
  expect_expansion("workload.file_size", "1.5G,0.5k", "1610612736,512", "1610612736,512");
}

static void expect_grid_error(const char *spec, const char *needle) {
  PcsGrid g;
  pcs_grid_init(&g);
  GError *error = NULL;
  assert_false(pcs_grid_add(&g, spec, &error));
  assert_non_null(error);
  if (!strstr(error->message, needle)) fail_msg("'%s': message '%s' lacks '%s'", spec, error->message, needle);
  assert_int_equal(error->code, PCS_ERROR_INPUT);
  g_error_free(error);
  pcs_grid_clear(&g);
}

static void bad_vary_specs_are_refused(void **state) {
  expect_grid_error("workload.threads", "--vary 'workload.threads': expected KEY=LIST"); /* the option first */
  expect_grid_error("=0.5us", "--vary '=0.5us': expected KEY=LIST");
  expect_grid_error("workload.thread=1,2", "did you mean 'workload.threads'");
  expect_grid_error("threads=1,2", "unknown key 'threads' (did you mean 'workload.threads'?)"); /* issue 16 */
  expect_grid_error("nosuchkey=1,2", "unknown key 'nosuchkey' (keys are SECTION.KEY");
  expect_grid_error("workload.threads=8..1", "A <= B");
  expect_grid_error("workload.threads=1..8*1", "FACTOR >= 2");
  expect_grid_error("workload.threads=0..8*2", "A >= 1");
  expect_grid_error("workload.threads=1,,2", "empty value");
  expect_grid_error("workload.threads=0,1", "workload.threads");      /* below the key's minimum */
  expect_grid_error("workload.threads=1,5000", "workload.threads");   /* above its maximum */
  expect_grid_error("device.latency=10..20", "range '10..20': start '10' of device.latency: expected a time with a "
                    "unit, ns, us, ms or s (missing unit");                /* times need units */
  expect_grid_error("workload.threads=1..20000", "more than 10000 values: use a larger step, START..END+STEP");
  expect_grid_error("device.latency=10us..1ms+0.5ns", "step '0.5ns' of device.latency: expected a whole number of ns");
  expect_grid_error("device.latency=0.0001us", "device.latency = '0.0001us': expected a whole number of ns");
  expect_grid_error("workload.file_size=1.3k", "workload.file_size = '1.3k': expected a whole number of bytes");
  expect_grid_error("pool=0,1", "pool");
  expect_grid_error("pool=a,b", "expected an integer");
  expect_grid_error("policy=immediate,bogus", "bogus");
}

static void grid_for(PcsGrid *g, PcsParams *p, const char *const *specs, char **policies) {
  GError *error = NULL;
  pcs_grid_init(g);
  test_load(p, "workloads/liubo-2011.ini");
  for (; *specs; specs++)
    if (!pcs_grid_add(g, *specs, &error)) fail_msg("%s", error->message);
  if (!pcs_grid_finish(g, p, policies, &error)) fail_msg("%s", error->message);
}

static void first_vary_is_the_outer_loop_and_policies_the_inner(void **state) {
  PcsGrid g;
  PcsParams p;
  const char *specs[] = {"workload.threads=1,2", "pool=1..4*2", "device.latency=10us,1ms", NULL};
  grid_for(&g, &p, specs, NULL);
  assert_int_equal(g.points, 4);
  assert_int_equal(g.policies->len, 3);
  g_autoptr(GPtrArray) cols = g_ptr_array_new();
  pcs_grid_columns(&g, cols);
  g_autofree char *c = joined(cols);
  assert_string_equal(c, "workload.threads,pool,device.latency");
  const char *want[] = {"1,1,10000", "1,2,10000", "1,4,10000", "1,1,1000000", "1,2,1000000", "1,4,1000000",
                        "2,1,10000", "2,2,10000", "2,4,10000", "2,1,1000000", "2,2,1000000", "2,4,1000000"};
  for (uint64_t row = 0; row < 12; row++) {
    g_autoptr(GPtrArray) cells = g_ptr_array_new();
    pcs_grid_cells(&g, row / 3, (guint)(row % 3), cells);
    g_autofree char *line = joined(cells);
    assert_string_equal(line, want[row]);
  }
  PcsParams q;
  pcs_params_copy(&q, &p);
  GError *error = NULL;
  assert_true(pcs_grid_apply(&g, 3, &q, &error));
  assert_int_equal(q.workload_threads, 2);
  assert_int_equal(q.device_latency, 1000000);
  pcs_params_clear(&q);
  pcs_params_clear(&p);
  pcs_grid_clear(&g);
}

static void policy_flag_and_policy_axis_conflict(void **state) {
  PcsGrid g;
  PcsParams p;
  GError *error = NULL;
  pcs_grid_init(&g);
  test_load(&p, "workloads/liubo-2011.ini");
  assert_true(pcs_grid_add(&g, "pool=1,2", &error));
  char *pol[] = {"immediate", NULL};
  assert_false(pcs_grid_finish(&g, &p, pol, &error));
  assert_non_null(strstr(error->message, "--policy"));
  g_error_free(error);
  error = NULL;
  assert_false(pcs_grid_add(&g, "policy=immediate", &error)); /* policies varied twice */
  g_error_free(error);
  pcs_params_clear(&p);
  pcs_grid_clear(&g);
}

static void shards_partition_the_grid(void **state) {
  GError *error = NULL;
  PcsShard s;
  for (uint32_t n = 1; n <= 5; n++) {
    for (uint64_t point = 0; point < 23; point++) {
      int owners = 0;
      for (uint32_t k = 1; k <= n; k++) owners += pcs_shard_has(&(PcsShard){k, n}, point);
      assert_int_equal(owners, 1);
    }
  }
  assert_true(pcs_shard_parse("3/8", &s, &error));
  assert_int_equal(s.k, 3);
  assert_int_equal(s.n, 8);
  const char *bad[] = {"0/4", "5/4", "1", "a/b", "1/0", "-1/4"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    assert_false(pcs_shard_parse(bad[i], &s, &error));
    assert_non_null(strstr(error->message, "K/N"));
    g_clear_error(&error);
  }
}

static char *sweep_text(guint jobs, PcsShard shard, PcsFormat format) {
  PcsGrid g;
  PcsParams p;
  const char *specs[] = {"workload.threads=1..3", "pool=1..16*4", NULL};
  grid_for(&g, &p, specs, NULL);
  GError *error = NULL;
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=8M", &error));
  PcsSweep sw = {.base = &p, .grid = &g, .shard = shard, .format = format, .jobs = jobs};
  GString *out = g_string_new(NULL);
  if (!pcs_sweep_check(&sw, &error) || !pcs_sweep_run(&sw, out, NULL, &error)) fail_msg("%s", error->message);
  pcs_params_clear(&p);
  pcs_grid_clear(&g);
  return g_string_free(out, FALSE);
}

static void jobs_do_not_change_a_byte(void **state) {
  for (PcsFormat f = PCS_FORMAT_CSV; f <= PCS_FORMAT_JSON; f++) {
    g_autofree char *one = sweep_text(1, (PcsShard){1, 1}, f);
    g_autofree char *two = sweep_text(2, (PcsShard){1, 1}, f);
    g_autofree char *five = sweep_text(5, (PcsShard){1, 1}, f);
    assert_string_equal(one, two);
    assert_string_equal(one, five);
  }
  g_autofree char *csv = sweep_text(2, (PcsShard){1, 1}, PCS_FORMAT_CSV);
  assert_non_null(strstr(csv, "# sweep --vary workload.threads=1..3 --vary pool=1..16*4\n"));
  assert_non_null(strstr(csv, "# grid points=3 rows=9\n"));
  assert_non_null(strstr(csv, "\nworkload.threads,pool,policy,threads,file_mib,bios,"));
  assert_non_null(strstr(csv, "\n1,1,pool:1,1,8.0000,"));
  assert_non_null(strstr(csv, "\n3,16,pool:16,3,8.0000,"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(lists_and_ranges_expand),
    cmocka_unit_test(bad_vary_specs_are_refused),
    cmocka_unit_test(first_vary_is_the_outer_loop_and_policies_the_inner),
    cmocka_unit_test(policy_flag_and_policy_axis_conflict),
    cmocka_unit_test(shards_partition_the_grid),
    cmocka_unit_test(jobs_do_not_change_a_byte),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
