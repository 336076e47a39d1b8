/* test_ftrace.c - `pcsim run --ftrace FILE`: the run as the kernel's ftrace
 * text, read back by the trace reader (`pcsim trace-stats`) with the run's
 * own metrics, written atomically, refused with one clear message. */
#include "support.h"

#include "pcsim/ftrace.h"
#include "pcsim/ktrace.h"
#include "pcsim/units.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* The writer fed by a run, and every event kept to work out what the trace
 * reader must find. */
typedef struct {
  PcsFtrace ft;
  GArray *events; /* TestEvent */
} Tee;

static void tee_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Tee *tee = user;
  pcs_ftrace_event(&tee->ft, t, thread, kind, a, b);
  TestEvent e = {t, thread, kind, a, b};
  g_array_append_val(tee->events, e);
}

/* What the run's events say the trace reader must count. */
typedef struct {
  uint64_t inserts, inserted_pages, page_pairs, owner_changes, contiguous_pairs, file_pages;
  uint64_t thread_pages[64]; /* by thread, 1-based */
  uint32_t first_order[64];  /* threads in order of first insert */
  uint32_t nfirst;
  uint64_t timed, service_ns, service_rounded_ns, max_in_flight, sectors_before_large;
  uint64_t submitters; /* threads that submitted a bio */
} Expected;

static uint64_t rounded_us(PcsTime t) { return (t + 500) / 1000; }

static void expect_inserts(Expected *x, GArray *ev, uint64_t npages) {
  g_autofree uint32_t *owner = g_new0(uint32_t, npages);
  g_autofree uint64_t *pfn = g_new0(uint64_t, npages);
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->kind != PCS_TRACE_INSERT) continue;
    x->inserts++; /* folios */
    uint64_t n = UINT64_C(1) << (e->b >> PCS_TRACE_ORDER_SHIFT), first_pfn = e->b & PCS_TRACE_PFN_MASK;
    assert_true(e->thread < G_N_ELEMENTS(x->thread_pages));
    if (!x->thread_pages[e->thread]) x->first_order[x->nfirst++] = e->thread;
    x->thread_pages[e->thread] += n;
    x->inserted_pages += n;
    for (uint64_t k = 0; k < n; k++)
      if (!owner[e->a + k]) owner[e->a + k] = e->thread, pfn[e->a + k] = first_pfn + k;
    x->file_pages = MAX(x->file_pages, e->a + n);
  }
  for (uint64_t p = 0; p + 1 < npages; p++) {
    if (!owner[p] || !owner[p + 1]) continue;
    x->page_pairs++;
    x->owner_changes += owner[p] != owner[p + 1];
    x->contiguous_pairs += pfn[p + 1] == pfn[p] + 1;
  }
}

/* DISPATCH -> COMPLETE of each request (by sector and size), exact and as
 * the microsecond timestamps print them. */
static void expect_device(Expected *x, GArray *ev) {
  g_autoptr(GHashTable) issued = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  PcsLargeBioWatch large = {0};
  uint64_t submitted = 0; /* bit per thread */
  for (guint i = 0; i < ev->len; i++) {
    const TestEvent *e = &g_array_index(ev, TestEvent, i);
    if (e->kind == PCS_TRACE_SUBMIT && e->a < PCS_META_FIRST_PAGE) { /* data bios: a checksum leaf's read is metadata */
      pcs_large_bio_watch(&large, e->b * PCS_SECTORS_PER_PAGE);
      submitted |= UINT64_C(1) << e->thread;
    }
    if (e->kind != PCS_TRACE_DISPATCH && e->kind != PCS_TRACE_COMPLETE) continue;
    if (e->a >= PCS_META_FIRST_SECTOR) continue; /* trace-stats times data requests */
    char *key = g_strdup_printf("%" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT, e->a, e->b);
    if (e->kind == PCS_TRACE_DISPATCH) {
      g_hash_table_replace(issued, key, g_memdup2(&e->t, sizeof e->t));
      x->max_in_flight = MAX(x->max_in_flight, g_hash_table_size(issued));
      continue;
    }
    PcsTime *at = g_hash_table_lookup(issued, key);
    assert_non_null(at);
    x->timed++;
    x->service_ns += e->t - *at;
    x->service_rounded_ns += (rounded_us(e->t) - rounded_us(*at)) * 1000;
    g_hash_table_remove(issued, key);
    g_free(key);
  }
  x->sectors_before_large = large.sectors_before;
  x->submitters = (uint64_t)__builtin_popcountll(submitted);
}

/* Runs P under POLICY into an ftrace file and reads it back into T. */
static void run_and_read(const PcsParams *p, const char *policy, PcsResult *r, PcsKtrace *t, Expected *x) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "run.ftrace.txt", NULL);
  FILE *f = fopen(path, "wb+");
  assert_non_null(f);
  Tee tee = {.events = g_array_new(FALSE, FALSE, sizeof(TestEvent))};
  pcs_ftrace_init(&tee.ft, f, p);
  PcsPolicy pol;
  GError *error = NULL;
  if (!pcs_policy_parse(policy, &pol, &error)) fail_msg("%s", error->message);
  PcsRunOptions opt = {.trace = tee_event, .trace_user = &tee};
  if (!pcs_sim_run(p, &pol, &opt, r, &error)) fail_msg("%s", error->message);
  if (!pcs_ftrace_finish(&tee.ft, path, &error)) fail_msg("%s", error->message);
  assert_int_equal(fclose(f), 0);
  pcs_ftrace_clear(&tee.ft);
  memset(x, 0, sizeof *x);
  expect_inserts(x, tee.events, p->workload_file_size / PCS_PAGE_SIZE);
  expect_device(x, tee.events);
  g_array_unref(tee.events);
  if (!pcs_ktrace_load(t, path, &error)) fail_msg("%s", error->message);
}

/* Everything trace-stats reports of the file is the run's own figure. */
static void assert_round_trip(const PcsParams *p, const char *policy) {
  PcsResult r;
  PcsKtrace t;
  Expected x;
  run_and_read(p, policy, &r, &t, &x);
  assert_string_equal(t.format, "ftrace");
  assert_int_equal(t.c.bios, r.bios);
  assert_int_equal(t.c.requests, r.requests);
  assert_int_equal(t.c.sectors, r.pages_read * PCS_SECTORS_PER_PAGE);
  /* a checksum leaf's read (bio.csum_leaf_size) is metadata, apart from the data */
  assert_int_equal(t.c.meta_bios, r.csum_reads);
  assert_int_equal(t.c.meta_requests, r.csum_reads);
  /* threads: tasks that queued a bio, as in a capture; a simulated thread
   * that queued none (4 threads racing on 16 MiB under window) is unseen */
  assert_int_equal(t.c.threads, x.submitters);
  assert_true(t.c.threads <= r.threads);
  for (guint k = 0; k < MAX(t.bio_pages_hist->len, r.hist_len); k++) {
    uint64_t got = k < t.bio_pages_hist->len ? g_array_index(t.bio_pages_hist, guint64, k) : 0;
    uint64_t want = k < r.hist_len ? r.bio_pages_hist[k] : 0;
    if (got != want) fail_msg("%s: bios of %u pages: trace %" G_GUINT64_FORMAT ", run %" G_GUINT64_FORMAT, policy, k, got, want);
  }
  assert_int_equal(t.large.sectors_before, x.sectors_before_large);
  /* readahead and inserts */
  assert_true(t.mech.present);
  assert_int_equal(t.mech.ra_sync, r.ra_sync);
  assert_int_equal(t.mech.ra_async, r.ra_async);
  assert_int_equal(t.mech.inserts, x.inserts);
  assert_int_equal(t.mech.inserts, r.inserts); /* folios */
  assert_int_equal(t.mech.inserted_pages, r.inserted_pages);
  assert_int_equal(t.mech.inserted_pages, r.pages_read); /* every page read once, by the thread that inserted it */
  assert_int_equal(t.mech.other_inserts, 0);
  assert_int_equal(t.mech.file_pages, x.file_pages);
  assert_int_equal(t.mech.page_pairs, x.page_pairs);
  assert_int_equal(t.mech.owner_changes, x.owner_changes);
  assert_int_equal(t.mech.contiguous_pairs, x.contiguous_pairs);
  assert_int_equal(t.mech.inserted_mib_per_thread->len, x.nfirst);
  for (uint32_t i = 0; i < x.nfirst; i++) {
    const PcsKtraceThreadMib *m = &g_array_index(t.mech.inserted_mib_per_thread, PcsKtraceThreadMib, i);
    g_autofree char *task = g_strdup_printf("fio-%u", 1000 + x.first_order[i]);
    assert_string_equal(m->task, task);
    assert_true(m->mib == (double)x.thread_pages[x.first_order[i]] * PCS_PAGE_SIZE / PCS_MIB);
  }
  /* the device: exact up to the microsecond rounding of each timestamp */
  assert_true(t.dev.present);
  assert_int_equal(t.dev.timed, r.requests);
  assert_int_equal(t.dev.timed, x.timed);
  assert_int_equal(t.dev.timed_sectors, t.c.sectors);
  assert_int_equal(t.dev.unissued_completes + t.dev.uncompleted_issues, 0);
  assert_int_equal(t.dev.max_in_flight, x.max_in_flight);
  assert_int_equal(t.dev.service_ns, x.service_rounded_ns);
  uint64_t off = t.dev.service_ns > x.service_ns ? t.dev.service_ns - x.service_ns : x.service_ns - t.dev.service_ns;
  assert_true(off <= x.timed * PCS_NS_PER_US);
  pcs_ktrace_clear(&t);
  pcs_result_clear(&r);
}

static void load_small(PcsParams *p, const char *workload, const char *size) {
  g_autofree char *rel = g_strdup_printf("workloads/%s", workload);
  test_load(p, rel);
  g_autofree char *set = g_strdup_printf("workload.file_size=%s", size);
  test_set(p, set, NULL);
}

static void every_shipped_policy_reads_back_its_own_metrics(void **state) {
  static const struct {
    const char *workload, *size, *policy;
  } runs[] = {
    {"single-thread.ini", "8M", "immediate"},   {"single-thread.ini", "8M", "window"},
    {"liubo-2011.ini", "16M", "immediate"},     {"liubo-2011.ini", "16M", "pool:16"},
    {"nvme-fast.ini", "16M", "pool-contig:16"}, {"linux-6.18-btrfs.ini", "16M", "window"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
    PcsParams p;
    load_small(&p, runs[i].workload, runs[i].size);
    assert_round_trip(&p, runs[i].policy);
    pcs_params_clear(&p);
  }
}

/* ext4's large folios: one mm_filemap_add_to_page_cache line per folio with
 * its order, and trace-stats reads back the folios, the pages, and owner
 * changes per page, with four readers racing (a lost large insert falls
 * back to single pages). */
static void ext4_folios_read_back(void **state) {
  static const char *const ra[] = {"readahead.read_ahead_kb=128", "readahead.read_ahead_kb=4096"};
  for (size_t i = 0; i < G_N_ELEMENTS(ra); i++) {
    PcsParams p;
    load_small(&p, "linux-6.18-ext4.ini", "48M");
    test_set(&p, ra[i], NULL);
    PcsResult r;
    PcsKtrace t;
    Expected x;
    run_and_read(&p, "window", &r, &t, &x);
    assert_true(r.inserts < r.inserted_pages / 8); /* large folios */
    assert_int_equal(t.mech.inserts, r.inserts);
    assert_int_equal(t.mech.inserted_pages, r.inserted_pages);
    uint64_t by_order = 0;
    for (int o = 0; o <= PCS_KTRACE_MAX_FOLIO_ORDER; o++) by_order += t.mech.inserts_by_order[o];
    assert_int_equal(by_order, r.inserts);
    assert_true(t.mech.inserts_by_order[i ? 9 : 6] > 0); /* 2 MiB folios in 8 MiB windows, 256 KiB in 256 KiB ones */
    assert_int_equal(t.mech.owner_changes, r.owner_changes);
    assert_int_equal(t.mech.page_pairs, r.page_pairs);
    assert_int_equal(t.mech.contiguous_pairs, r.contiguous_pairs);
    pcs_ktrace_clear(&t);
    pcs_result_clear(&r);
    assert_round_trip(&p, "window");
    pcs_params_clear(&p);
  }
}

/* Eight threads on four CPUs with cost jitter, several seeds: pages change
 * owner often, and every owner change is read back.  With the seed's 8 MiB
 * windows a thread can finish 16 MiB without queueing a bio of its own
 * (it found every page inserted): the trace sees the submitters only. */
static void jittered_race_reads_back_its_owner_changes(void **state) {
  for (int seed = 1; seed <= 3; seed++) {
    PcsParams p;
    load_small(&p, "eight-threads.ini", "16M");
    g_autofree char *s = g_strdup_printf("scenario.seed=%d", seed);
    test_set(&p, s, NULL);
    assert_true(p.cost_jitter > 0);
    PcsResult r;
    PcsKtrace t;
    Expected x;
    run_and_read(&p, "immediate", &r, &t, &x);
    assert_true(r.eexist > 0);          /* the threads did race */
    assert_true(x.owner_changes > 100); /* and interleaved their inserts */
    assert_int_equal(t.mech.owner_changes, x.owner_changes);
    assert_int_equal(t.c.threads, x.submitters);
    assert_true(x.submitters > 4 && x.submitters <= 8); /* more submitters than CPUs */
    pcs_ktrace_clear(&t);
    pcs_result_clear(&r);
    assert_round_trip(&p, "immediate");
    assert_round_trip(&p, "pool:16");
    pcs_params_clear(&p);
  }
}

/* A queue-depth-1 device: requests wait for a slot, and those issued when a
 * completion frees it come from kblockd's worker, as in a capture. */
static void requests_issued_after_a_completion_come_from_kblockd(void **state) {
  PcsParams p;
  load_small(&p, "liubo-2011.ini", "8M");
  test_set(&p, "device.queue_depth=1", "device.latency=200us", NULL);
  assert_round_trip(&p, "immediate");
  pcs_params_clear(&p);
  g_autofree char *dir = test_tempdir();
  g_autofree char *file = g_build_filename(dir, "qd1.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=8M", "--set",
                      "device.queue_depth=1", "--set", "device.latency=200us", "-p", "immediate", "--ftrace", file, NULL);
  assert_int_equal(rc, 0);
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(file, &text, NULL, NULL));
  assert_non_null(strstr(text, "    kworker/0:1H-58      [000] .....     0."));
  assert_non_null(strstr(text, " be,0,4 [kworker/0:1H]\n"));
  assert_non_null(strstr(text, "          <idle>-0       [000] ..s1.     0."));
}

/* ---- the command line, as a user runs it ---- */

static JsonObject *parse_object(JsonParser *parser, const char *text) {
  GError *error = NULL;
  if (!json_parser_load_from_data(parser, text, -1, &error)) fail_msg("%s", error->message);
  return json_node_get_object(json_parser_get_root(parser));
}

/* Device-time keys: the run's exact ns against the trace's rounded us. */
static gboolean device_time_key(const char *key) {
  return g_str_has_prefix(key, "device_") || !strcmp(key, "latency_us_hist");
}

/* Every key `pcsim run --format json` and `pcsim trace-stats --format json`
 * share has the same value, device times within 1 us per request. */
static void assert_same_metrics(JsonObject *run, JsonObject *stats) {
  static const char *const must[] = {"bios", "requests", "threads", "bios_per_mib", "requests_per_mib",
                                     "avg_bio_kib", "avg_request_kib", "bio_pages_hist"};
  for (size_t i = 0; i < G_N_ELEMENTS(must); i++) assert_true(json_object_has_member(stats, must[i]));
  g_autoptr(GList) keys = json_object_get_members(run);
  double requests = json_object_get_double_member(run, "requests");
  double mib = json_object_get_double_member(stats, "mib_read");
  for (GList *k = keys; k; k = k->next) {
    const char *key = k->data;
    if (!json_object_has_member(stats, key)) continue;
    JsonNode *a = json_object_get_member(run, key), *b = json_object_get_member(stats, key);
    if (device_time_key(key)) {
      if (JSON_NODE_HOLDS_VALUE(a)) {
        double tol = !strcmp(key, "device_ms_per_mib") ? requests * 1e-3 / mib : 1.0;
        double d = json_node_get_double(a) - json_node_get_double(b);
        if (d > tol + 1e-4 || d < -tol - 1e-4) fail_msg("%s: run %g, trace %g", key, json_node_get_double(a), json_node_get_double(b));
      }
      continue;
    }
    if (JSON_NODE_HOLDS_ARRAY(a) || JSON_NODE_HOLDS_ARRAY(b)) continue; /* per-thread lists: names differ */
    g_autofree char *sa = json_to_string(a, FALSE), *sb = json_to_string(b, FALSE);
    if (strcmp(sa, sb)) fail_msg("%s: run %s, trace-stats %s", key, sa, sb);
  }
}

static void trace_stats_of_the_file_gives_the_run_json(void **state) {
  static const char *const policies[] = {"immediate", "pool:16", "window"};
  g_autofree char *dir = test_tempdir();
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
    g_autofree char *file = g_strdup_printf("%s/run-%zu.txt", dir, i);
    g_autofree char *run = NULL, *stats = NULL, *err = NULL;
    /* the seed's 4 threads: each queues bios under every policy here, so
     * the trace's thread count is the run's */
    int rc = test_pcsim(&run, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=16M", "-p",
                        policies[i], "--ftrace", file, "--format", "json", NULL);
    if (rc != 0) fail_msg("run: exit %d: %s", rc, err);
    g_clear_pointer(&err, g_free);
    rc = test_pcsim(&stats, &err, "trace-stats", file, "--format", "json", NULL);
    if (rc != 0) fail_msg("trace-stats: exit %d: %s", rc, err);
    g_autoptr(JsonParser) pr = json_parser_new(), ps = json_parser_new();
    JsonObject *r = parse_object(pr, run);
    JsonObject *result = json_array_get_object_element(json_object_get_array_member(r, "results"), 0);
    assert_string_equal(json_object_get_string_member(result, "policy"), policies[i]);
    assert_same_metrics(result, parse_object(ps, stats));
  }
}

/* The kernel's header and columns, and the same bytes from the same run. */
static void file_has_the_kernel_layout_and_is_deterministic(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *a = g_build_filename(dir, "a.txt", NULL), *b = g_build_filename(dir, "b.txt", NULL);
  const char *files[] = {a, b};
  for (int i = 0; i < 2; i++) {
    g_autofree char *out = NULL, *err = NULL;
    assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=4M",
                                "-p", "pool:16", "--ftrace", files[i], NULL),
                     0);
  }
  g_autofree char *ta = NULL, *tb = NULL;
  assert_true(g_file_get_contents(a, &ta, NULL, NULL) && g_file_get_contents(b, &tb, NULL, NULL));
  assert_string_equal(ta, tb);
  assert_true(g_str_has_prefix(ta, "# tracer: nop\n#\n# entries-in-buffer/entries-written: "));
  assert_non_null(strstr(ta, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"));
  g_auto(GStrv) lines = g_strsplit(ta, "\n", -1);
  uint64_t events = 0, last_us = 0;
  for (char **l = lines; *l; l++) {
    if (!**l || **l == '#') continue;
    events++;
    /* "%16s-%-7d [%03d] FLAGS %5lu.%06lu: " as print_trace_fmt() lays it out */
    assert_true(strlen(*l) > 45);
    assert_true((*l)[24] == ' ' && (*l)[25] == '[' && (*l)[29] == ']' && (*l)[36] == ' ');
    assert_true((*l)[42] == '.' && (*l)[49] == ':');
    uint64_t us = g_ascii_strtoull(*l + 37, NULL, 10) * 1000000 + g_ascii_strtoull(*l + 43, NULL, 10);
    assert_true(us >= last_us); /* simulated time never runs back */
    last_us = us;
  }
  g_autofree char *count = g_strdup_printf("entries-written: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "   #P:4 ",
                                           events, events);
  assert_non_null(strstr(ta, count));
  assert_non_null(strstr(ta, "             fio-1004    [003] ....."));
}

/* What the sched_switch and sched_waking lines of a run say, checked line
 * by line against the CPUs' occupants as the switches leave them. */
typedef struct {
  uint64_t d_sleeps;     /* a reader switched out asleep (prev_state=D) */
  uint64_t reader_wakes; /* sched_waking of a reader */
  uint64_t exits;        /* a reader switched out done (prev_state=X) */
  uint64_t preempted;    /* prev_state=R of a task (not the idle task) */
} SchedSeen;

static void read_sched_lines(const char *text, uint32_t ncpu, SchedSeen *seen) {
  g_autoptr(GRegex) line = g_regex_new("^\\s*(\\S+)-(\\d+)\\s+\\[(\\d+)\\]\\s+\\S+\\s+[\\d.]+: (\\w+): (.*)$", 0, 0, NULL);
  g_autoptr(GRegex) sw = g_regex_new("prev_pid=(\\d+) prev_prio=120 prev_state=(\\S+) ==> next_comm=\\S+ next_pid=(\\d+)", 0, 0, NULL);
  g_autoptr(GRegex) wk = g_regex_new("^comm=(\\S+) pid=(\\d+) prio=120 target_cpu=(\\d+)$", 0, 0, NULL);
  uint64_t on[16] = {0}; /* each CPU's task (pid; 0: idle) */
  g_autoptr(GHashTable) where = g_hash_table_new(g_direct_hash, g_direct_equal); /* pid -> CPU + 1 while on one */
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  memset(seen, 0, sizeof *seen);
  for (char **l = lines; *l; l++) {
    g_autoptr(GMatchInfo) m = NULL, f = NULL;
    if (**l == '#' || !g_regex_match(line, *l, 0, &m)) continue;
    g_autofree char *pid_s = g_match_info_fetch(m, 2), *cpu_s = g_match_info_fetch(m, 3);
    g_autofree char *event = g_match_info_fetch(m, 4), *fields = g_match_info_fetch(m, 5);
    uint64_t pid = g_ascii_strtoull(pid_s, NULL, 10), cpu = g_ascii_strtoull(cpu_s, NULL, 10);
    assert_true(cpu < ncpu);
    if (strcmp(event, "sched_switch") == 0) {
      assert_true(g_regex_match(sw, fields, 0, &f));
      g_autofree char *prev_s = g_match_info_fetch(f, 1), *state = g_match_info_fetch(f, 2), *next_s = g_match_info_fetch(f, 3);
      uint64_t prev = g_ascii_strtoull(prev_s, NULL, 10), next = g_ascii_strtoull(next_s, NULL, 10);
      assert_int_equal(prev, on[cpu]); /* the task leaving is the one the last switch put there */
      assert_int_equal(pid, prev);     /* and the line is in its context */
      if (next) assert_null(g_hash_table_lookup(where, GSIZE_TO_POINTER(next))); /* on one CPU at a time */
      if (prev) g_hash_table_remove(where, GSIZE_TO_POINTER(prev));
      if (next) g_hash_table_insert(where, GSIZE_TO_POINTER(next), GSIZE_TO_POINTER(cpu + 1));
      on[cpu] = next;
      gboolean reader = prev > 1000 && prev < 1100;
      seen->d_sleeps += reader && strcmp(state, "D") == 0;
      seen->exits += reader && strcmp(state, "X") == 0;
      seen->preempted += prev && strcmp(state, "R+") == 0;
    } else if (strcmp(event, "sched_waking") == 0) {
      assert_true(g_regex_match(wk, fields, 0, &f));
      g_autofree char *comm = g_match_info_fetch(f, 1), *target = g_match_info_fetch(f, 3);
      assert_true(g_ascii_strtoull(target, NULL, 10) < ncpu);
      seen->reader_wakes += strcmp(comm, "fio") == 0;
      if (pid) assert_int_equal(on[cpu], pid); /* a task wakes another from its CPU */
    } else if (strcmp(event, "sched_wakeup") != 0 && pid > 1000 && pid < 1100) {
      assert_int_equal(on[cpu], pid); /* a reader's tracepoints fire on the CPU it runs on */
    }
  }
  for (uint32_t c = 0; c < ncpu; c++) assert_int_equal(on[c], 0); /* every CPU idles at the end */
}

/* With per-CPU run queues (the 6.18 scenario), four readers on two CPUs:
 * the sched_switch lines follow each task on and off its CPU as the run's
 * own sleeps, wake-ups and exits, and a reader's other lines carry the CPU
 * it is on, so scripts/pcsim-trace reader-time-split reads a run as it reads a capture. */
static void scheduler_events_follow_each_task_on_and_off_its_cpu(void **state) {
  PcsParams p;
  load_small(&p, "linux-6.18-btrfs.ini", "16M");
  test_set(&p, "workload.threads=4", NULL);
  test_set(&p, "readahead.read_ahead_kb=128", NULL);
  test_set(&p, "cpu.slice=20us", NULL);
  assert_true(p.cpu_count == 2 && p.cpu_migration_cost > 0);
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "sched.ftrace.txt", NULL);
  FILE *f = fopen(path, "wb+");
  assert_non_null(f);
  Tee tee = {.events = g_array_new(FALSE, FALSE, sizeof(TestEvent))};
  pcs_ftrace_init(&tee.ft, f, &p);
  PcsPolicy pol;
  GError *error = NULL;
  assert_true(pcs_policy_parse("window", &pol, &error));
  PcsRunOptions opt = {.trace = tee_event, .trace_user = &tee};
  PcsResult r;
  if (!pcs_sim_run(&p, &pol, &opt, &r, &error)) fail_msg("%s", error->message);
  assert_true(pcs_ftrace_finish(&tee.ft, path, &error));
  assert_int_equal(fclose(f), 0);
  pcs_ftrace_clear(&tee.ft);
  uint64_t sleeps = 0, csum_sleeps = 0, off_asleep = 0, wakes = 0, preempted = 0;
  for (guint i = 0; i < tee.events->len; i++) {
    const TestEvent *e = &g_array_index(tee.events, TestEvent, i);
    sleeps += e->kind == PCS_TRACE_WAIT || e->kind == PCS_TRACE_RQ_WAIT;
    csum_sleeps += e->kind == PCS_TRACE_CSUM_WAIT;
    off_asleep += e->kind == PCS_TRACE_CPU_OFF && e->thread <= 4 && e->b == PCS_TASK_SLEEP;
    wakes += e->kind == PCS_TRACE_WAKE && e->a <= 4;
    preempted += e->kind == PCS_TRACE_CPU_OFF && e->b == PCS_TASK_PREEMPTED;
  }
  g_array_unref(tee.events);
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  SchedSeen seen;
  read_sched_lines(text, 2, &seen);
  assert_true(r.waits > 100); /* the readers race: they sleep on each other's pages */
  assert_int_equal(sleeps, r.waits);
  /* the scenario's checksum leaves (bio.csum_leaf_size): 16 MiB needs two,
   * each read once, and at least the reader that sent a read sleeps on it */
  assert_int_equal(r.csum_reads, 2);
  assert_true(csum_sleeps >= r.csum_reads);
  assert_int_equal(seen.reader_wakes, wakes);
  assert_int_equal(seen.reader_wakes, r.waits + csum_sleeps); /* every sleep ends in a wake-up */
  /* a woken reader is on a CPU before it looks again, so every sleep is a
   * switch-out in D, as in the kernel */
  assert_int_equal(seen.d_sleeps, off_asleep);
  assert_int_equal(seen.d_sleeps, sleeps + csum_sleeps);
  assert_int_equal(seen.exits, 4);
  /* the short slice (cpu.slice = 20us) makes tasks yield to waiting ones: R+ */
  assert_true(preempted > 0);
  assert_int_equal(seen.preempted, preempted);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

static guint dir_entries(const char *dir) {
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  guint n = 0;
  while (d && g_dir_read_name(d)) n++;
  return n;
}

/* A directory or a path under a file (bad input, 2), a path that cannot be
 * created in an existing folder (1), several policies (2): one message,
 * and no file, temporary or not. */
static void failing_ftrace_paths_leave_nothing(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *plain = g_build_filename(dir, "plain", NULL);
  assert_true(g_file_set_contents(plain, "x", 1, NULL));
  g_autofree char *under_file = g_build_filename(plain, "t.txt", NULL);
  g_autofree char *trace = g_build_filename(dir, "events.tsv", NULL);
  g_autofree char *ok = g_build_filename(dir, "t.txt", NULL);
  const struct {
    const char *path, *policy, *message;
    int status;
  } cases[] = {{dir, "immediate", "is a directory", 2},
               {under_file, "immediate", "is not a folder", 2},
               {"/proc/t.txt", "immediate", "cannot write", 1}, /* /proc takes no new files, even for root */
               {ok, "immediate,pool:16", "pick one with --policy", 2}};
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *out = NULL, *err = NULL;
    int rc = test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=4M", "-p",
                        cases[i].policy, "--trace", trace, "--ftrace", cases[i].path, NULL);
    assert_int_equal(rc, cases[i].status);
    if (!strstr(err, cases[i].message)) fail_msg("no '%s' in: %s", cases[i].message, err);
    assert_string_equal(out, "");
    assert_int_equal(dir_entries(dir), 1); /* only "plain": no trace, no ftrace, no .tmp */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_shipped_policy_reads_back_its_own_metrics),
    cmocka_unit_test(ext4_folios_read_back),
    cmocka_unit_test(jittered_race_reads_back_its_owner_changes),
    cmocka_unit_test(requests_issued_after_a_completion_come_from_kblockd),
    cmocka_unit_test(trace_stats_of_the_file_gives_the_run_json),
    cmocka_unit_test(file_has_the_kernel_layout_and_is_deterministic),
    cmocka_unit_test(scheduler_events_follow_each_task_on_and_off_its_cpu),
    cmocka_unit_test(failing_ftrace_paths_leave_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
