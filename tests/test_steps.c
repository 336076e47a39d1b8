/* test_steps.c - replay and explore of the step model. */
#include "support.h"
#include "pcsim/steps.h"

static PcsSchedule sched_of(uint32_t threads, uint32_t pages, const uint32_t *steps, size_t n) {
  PcsSchedule s = {threads, pages, g_array_new(FALSE, FALSE, sizeof(uint32_t)),
                   g_array_new(FALSE, FALSE, sizeof(guint))};
  g_array_append_vals(s.steps, steps, (guint)n);
  for (size_t i = 0; i < n; i++) {
    guint line = 1;
    g_array_append_val(s.step_lines, line);
  }
  return s;
}

/* Replays STEPS; returns bios (or -1 when a step names a finished thread). */
static int replay_bios(uint32_t threads, uint32_t pages, const char *policy, const uint32_t *steps, size_t n,
                       GArray *bios) {
  PcsPolicy pol;
  assert_true(pcs_policy_parse(policy, &pol, NULL));
  PcsSchedule s = sched_of(threads, pages, steps, n);
  g_autoptr(GArray) local = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
  GArray *out = bios ? bios : local;
  gboolean ok = pcs_steps_replay(&s, &pol, out, "test.sched", NULL);
  pcs_schedule_clear(&s);
  return ok ? (int)out->len : -1;
}

static void the_seed_diagram_gives_four_one_page_bios(void **state) {
  g_autofree char *path = test_path("workloads/liubo-diagram.sched");
  PcsSchedule s;
  GError *error = NULL;
  if (!pcs_schedule_load(&s, path, &error)) fail_msg("%s", error->message);
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  g_autoptr(GArray) bios = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
  assert_true(pcs_steps_replay(&s, &pol, bios, path, NULL));
  assert_int_equal(bios->len, 4);
  for (guint i = 0; i < 4; i++) assert_int_equal(g_array_index(bios, PcsStepBio, i).pages, 1);
  /* thread k got page k-1 */
  uint32_t seen[5] = {0};
  for (guint i = 0; i < 4; i++) seen[g_array_index(bios, PcsStepBio, i).thread] = g_array_index(bios, PcsStepBio, i).first_page + 1;
  for (uint32_t t = 1; t <= 4; t++) assert_int_equal(seen[t], t);
  pcs_schedule_clear(&s);
}

/* Hand-checked: 2 threads, 4 pages, alternating single steps. */
static void hand_checked_schedules_per_policy(void **state) {
  const uint32_t alt[] = {1, 2, 1, 2, 1, 2, 1, 2};
  g_autoptr(GArray) b = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
  /* immediate: T1 ins0 | T2 ins0 fail | T1 read0 | T2 ins1 | T1 ins1 fail | T2 read1 |
   * T1 ins2 | T2 ins2 fail | then T1: read2 ins3 read3 -> bio 2..3 + bio 0; T2: bio 1 */
  assert_int_equal(replay_bios(2, 4, "immediate", alt, 8, b), 3);
  /* pool:16: T1 inserts 0..3 alternating with T2 failing: one bio */
  assert_int_equal(replay_bios(2, 4, "pool:16", alt, 8, NULL), 1);
  /* pool:2 with T2 first: T2 ins0, T1 ins0 fail, T2 ins1 -> pool full, T1 ins1 fail,
   * T2 read0, T1 ins2, T2 read1, T1 ins3 -> T1 reads 2,3; T2 ins2/3 fail: 2 bios */
  const uint32_t t2first[] = {2, 1, 2, 1, 2, 1, 2, 1};
  assert_int_equal(replay_bios(2, 4, "pool:2", t2first, 8, NULL), 2);
  /* A hole in the pool: T1 ins0, T2 ins0 fails, T2 ins1, T1 ins1 fails; then T1
   * inserts 2 and 3: its pool is {0,2,3} -> bios 0 and 2..3; T2 reads 1. */
  const uint32_t hole[] = {1, 2, 2, 1};
  const char *pools[] = {"pool:16", "pool-contig:16"};
  for (size_t i = 0; i < 2; i++) {
    g_autoptr(GArray) pb = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
    assert_int_equal(replay_bios(2, 4, pools[i], hole, 4, pb), 3);
    uint32_t pages_of_t1 = 0;
    for (guint k = 0; k < pb->len; k++) {
      PcsStepBio *x = &g_array_index(pb, PcsStepBio, k);
      if (x->thread == 1) pages_of_t1 += x->pages;
      else assert_true(x->first_page == 1 && x->pages == 1);
    }
    assert_int_equal(pages_of_t1, 3);
  }
  /* window submits each batch on its own even when contiguous */
  const uint32_t none[] = {0};
  assert_int_equal(replay_bios(1, 4, "window", none, 0, NULL), 1);
}

static void one_thread_gives_one_bio_for_every_policy(void **state) {
  const char *pols[] = {"immediate", "pool:16", "pool:3", "pool-contig:2", "window"};
  for (size_t i = 0; i < G_N_ELEMENTS(pols); i++) {
    PcsPolicy pol;
    assert_true(pcs_policy_parse(pols[i], &pol, NULL));
    PcsExplore e;
    assert_true(pcs_steps_explore(1, 8, &pol, &e, NULL));
    assert_int_equal(e.schedules, 1);
    assert_int_equal(e.min_bios, 1);
    assert_int_equal(e.max_bios, 1);
    pcs_explore_clear(&e);
  }
}

/* Brute force through replay alone: extend a prefix one thread at a time;
 * a prefix is complete when no thread can take another step. */
static void brute(uint32_t T, uint32_t P, const char *policy, GArray *prefix, uint64_t *hist, uint64_t *count) {
  gboolean complete = TRUE;
  for (uint32_t t = 1; t <= T; t++) {
    g_array_append_val(prefix, t);
    if (replay_bios(T, P, policy, (uint32_t *)prefix->data, prefix->len, NULL) >= 0) {
      complete = FALSE;
      brute(T, P, policy, prefix, hist, count);
    }
    g_array_set_size(prefix, prefix->len - 1);
  }
  if (complete) {
    int n = replay_bios(T, P, policy, (uint32_t *)prefix->data, prefix->len, NULL);
    hist[n]++;
    (*count)++;
  }
}

static void explore_matches_a_brute_force_walk(void **state) {
  const uint32_t sizes[][2] = {{2, 3}, {3, 2}, {2, 2}};
  const char *pols[] = {"immediate", "pool:16", "pool:2", "pool-contig:16", "window"};
  for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++)
    for (size_t i = 0; i < G_N_ELEMENTS(pols); i++) {
      uint32_t T = sizes[z][0], P = sizes[z][1];
      uint64_t hist[32] = {0}, count = 0;
      g_autoptr(GArray) prefix = g_array_new(FALSE, FALSE, sizeof(uint32_t));
      brute(T, P, pols[i], prefix, hist, &count);
      PcsPolicy pol;
      assert_true(pcs_policy_parse(pols[i], &pol, NULL));
      PcsExplore e;
      assert_true(pcs_steps_explore(T, P, &pol, &e, NULL));
      if (e.schedules != count) fail_msg("%s T=%u P=%u: explore %lu, brute force %lu", pols[i], T, P,
                                         (unsigned long)e.schedules, (unsigned long)count);
      for (uint32_t k = 0; k < e.hist_len && k < 32; k++) assert_int_equal(e.histogram[k], hist[k]);
      pcs_explore_clear(&e);
    }
}

static void a_replayed_schedule_lands_in_its_explore_bucket(void **state) {
  const uint32_t steps[] = {2, 2, 1, 3, 1, 2, 3, 3, 1};
  g_autoptr(GArray) b = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
  int n = replay_bios(3, 3, "immediate", steps, G_N_ELEMENTS(steps), b);
  assert_true(n > 0);
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  PcsExplore e;
  assert_true(pcs_steps_explore(3, 3, &pol, &e, NULL));
  assert_true(e.histogram[n] > 0);
  assert_true(e.mean_bios >= e.min_bios && e.mean_bios <= e.max_bios);
  assert_true(e.random_expected_bios >= e.min_bios && e.random_expected_bios <= e.max_bios);
  pcs_explore_clear(&e);
}

static void explore_refuses_sizes_it_cannot_finish(void **state) {
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  PcsExplore e;
  GError *error = NULL;
  assert_false(pcs_steps_explore(8, 16, &pol, &e, &error));
  assert_non_null(strstr(error->message, "too large"));
  g_clear_error(&error);
}

static void bad_schedules_name_file_and_line(void **state) {
  struct { const char *text, *needle; } cases[] = {
    {"threads 2\npages 2\nsteps 1 3\n", "bad.sched:3: step 2 names thread 3"},
    {"threads 2\npages 2\nsteps 1 x\n", "bad.sched:3: step 'x'"},
    {"threads 2\npages 1\nsteps 1 1 1\n", "already finished"},
    {"threads 2\n", "missing 'pages N'"},
    {"threads 2\npages 2\nfoo 3\n", "bad.sched:3: unknown keyword 'foo'"},
    {"threads 99\npages 2\n", "bad.sched:1: threads '99'"},
  };
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *path = test_tempfile("bad.sched", cases[i].text);
    PcsSchedule s;
    GError *error = NULL;
    gboolean ok = pcs_schedule_load(&s, path, &error);
    if (ok) {
      g_autoptr(GArray) b = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
      ok = pcs_steps_replay(&s, &pol, b, path, &error);
      pcs_schedule_clear(&s);
    }
    if (ok) fail_msg("accepted: %s", cases[i].text);
    if (!strstr(error->message, cases[i].needle)) fail_msg("no '%s' in '%s'", cases[i].needle, error->message);
    g_error_free(error);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(the_seed_diagram_gives_four_one_page_bios),
    cmocka_unit_test(hand_checked_schedules_per_policy),
    cmocka_unit_test(one_thread_gives_one_bio_for_every_policy),
    cmocka_unit_test(explore_matches_a_brute_force_walk),
    cmocka_unit_test(a_replayed_schedule_lands_in_its_explore_bucket),
    cmocka_unit_test(explore_refuses_sizes_it_cannot_finish),
    cmocka_unit_test(bad_schedules_name_file_and_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
