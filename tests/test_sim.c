/* test_sim.c - invariants of one run and the mechanism behind the patch. */
#include "support.h"

#include "internal.h"

static const char *const policies[] = {"immediate", "pool:16", "pool-contig:16", "window", "pool:3"};

static void small_race(PcsParams *p) {
  test_load(p, "workloads/liubo-2011.ini");
  assert_true(pcs_params_set_assignment(p, "workload.file_size=64M", NULL));
}

static void check_invariants(const PcsParams *p, const PcsResult *r) {
  uint64_t npages = p->workload_file_size / PCS_PAGE_SIZE;
  for (uint64_t i = 0; i < npages; i++)
    if (r->page_reads[i] != 1) fail_msg("%s: page %" G_GUINT64_FORMAT " read %" G_GUINT64_FORMAT " times",
                                        r->policy.name, i, r->page_reads[i]);
  for (uint32_t t = 0; t < r->threads; t++) assert_int_equal(r->thread_bytes[t], p->workload_file_size);
  assert_int_equal(r->pages_read, npages);
  assert_true(r->requests <= r->bios);
  uint64_t in_bios = 0, nbios = 0;
  for (uint32_t k = 0; k < r->hist_len; k++) in_bios += k * r->bio_pages_hist[k], nbios += r->bio_pages_hist[k];
  assert_int_equal(in_bios, r->pages_read);
  assert_int_equal(nbios, r->bios);
  assert_int_equal(r->bytes_returned, r->threads * p->workload_file_size);
}

static void every_page_read_once_and_returned_to_every_thread(void **state) {
  PcsParams p;
  small_race(&p);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
    PcsResult r;
    test_run(&p, policies[i], &r);
    check_invariants(&p, &r);
    pcs_result_clear(&r);
  }
  pcs_params_clear(&p);
}

static void one_thread_gives_the_same_bios_for_every_policy(void **state) {
  PcsParams p;
  small_race(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=1", NULL));
  PcsResult first;
  test_run(&p, policies[0], &first);
  for (size_t i = 1; i < G_N_ELEMENTS(policies); i++) {
    PcsResult r;
    test_run(&p, policies[i], &r);
    assert_int_equal(r.bios, first.bios);
    assert_memory_equal(r.bio_pages_hist, first.bio_pages_hist, first.hist_len * sizeof(uint64_t));
    assert_int_equal(r.eexist, 0);
    pcs_result_clear(&r);
  }
  pcs_result_clear(&first);
  pcs_params_clear(&p);
}

typedef struct {
  PcsTime last;
  uint64_t n, backwards;
} Order;

static void order_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Order *o = user;
  if (t < o->last) o->backwards++;
  o->last = t;
  o->n++;
}

static void events_are_handled_in_time_order(void **state) {
  PcsParams p;
  small_race(&p);
  PcsPolicy pol;
  assert_true(pcs_policy_parse("immediate", &pol, NULL));
  Order o = {0};
  PcsRunOptions opt = {.trace = order_watch, .trace_user = &o};
  PcsResult r;
  assert_true(pcs_sim_run(&p, &pol, &opt, &r, NULL));
  assert_true(o.n > r.events);
  assert_int_equal(o.backwards, 0);
  assert_int_equal(o.last, r.sim_time_ns); /* the last thing is a thread finishing */
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

static double bios_per_mib(const PcsParams *p, const char *policy) {
  PcsResult r;
  test_run(p, policy, &r);
  double v = pcs_report_value(&r, "bios_per_mib");
  pcs_result_clear(&r);
  return v;
}

/* The patch's argument: the race comes from per-page work between two
 * inserts.  Without it, immediate builds bios as large as pool:16; as it
 * grows, immediate's bios shrink. */
static void read_setup_cost_drives_the_race(void **state) {
  PcsParams p;
  small_race(&p);
  assert_true(pcs_params_set_assignment(&p, "cost.read_setup=0", NULL));
  double pool = bios_per_mib(&p, "pool:16");
  double imm0 = bios_per_mib(&p, "immediate");
  assert_true(imm0 <= pool * 1.2 && imm0 >= pool * 0.8);
  double prev = imm0;
  const char *costs[] = {"2us", "5us", "10us", "21us"};
  for (size_t i = 0; i < G_N_ELEMENTS(costs); i++) {
    g_autofree char *set = g_strdup_printf("cost.read_setup=%s", costs[i]);
    assert_true(pcs_params_set_assignment(&p, set, NULL));
    double v = bios_per_mib(&p, "immediate");
    if (v < prev) fail_msg("read_setup %s: %.2f bios/MiB, fewer than %.2f before", costs[i], v, prev);
    prev = v;
  }
  assert_true(prev > 5 * pool);
  pcs_params_clear(&p);
}

static void limits_refuse_huge_scenarios_up_front(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.file_size=1T", NULL));
  assert_true(pcs_params_set_assignment(&p, "limits.max_memory=64M", NULL));
  PcsPolicy pol;
  assert_true(pcs_policy_parse("pool:16", &pol, NULL));
  GError *error = NULL;
  assert_false(pcs_sim_check_limits(&p, &pol, &error));
  assert_non_null(strstr(error->message, "limits.max_memory"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

/* pcs_rng is GRand's generator with GLib's default seeding, draw for draw
 * (ctest runs without G_RANDOM_VERSION). */
static void rng_streams_equal_grand(void **state) {
  if (g_getenv("G_RANDOM_VERSION")) skip();
  for (uint32_t stream = 1; stream <= 6; stream++) {
    uint32_t seed[3] = {12345u * stream, stream, stream + 1};
    PcsRng r;
    pcs_rng_init(&r, seed, 3);
    GRand *g = g_rand_new_with_seed_array(seed, 3);
    for (int i = 0; i < 2000; i++) assert_int_equal(pcs_rng_u32(&r), g_rand_int(g));
    g_rand_free(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(rng_streams_equal_grand),
    cmocka_unit_test(every_page_read_once_and_returned_to_every_thread),
    cmocka_unit_test(one_thread_gives_the_same_bios_for_every_policy),
    cmocka_unit_test(events_are_handled_in_time_order),
    cmocka_unit_test(read_setup_cost_drives_the_race),
    cmocka_unit_test(limits_refuse_huge_scenarios_up_front),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
