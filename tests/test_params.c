/* test_params.c - scenario keys, units and the messages users get. */
#include "support.h"

static void sizes_and_times_take_units(void **state) {
  uint64_t v;
  assert_true(pcs_parse_size("32k", &v)); assert_int_equal(v, 32768);
  assert_true(pcs_parse_size("2000M", &v)); assert_int_equal(v, 2000ull << 20);
  assert_true(pcs_parse_size("1G", &v)); assert_int_equal(v, 1ull << 30);
  assert_true(pcs_parse_size("4096", &v)); assert_int_equal(v, 4096);
  assert_false(pcs_parse_size("99999999T", &v)); /* overflows 64 bits */
  assert_false(pcs_parse_size("12q", &v));
  assert_false(pcs_parse_size("-4k", &v));
  assert_true(pcs_parse_time("100us", &v)); assert_int_equal(v, 100000);
  assert_true(pcs_parse_time("2ms", &v)); assert_int_equal(v, 2000000);
  assert_true(pcs_parse_time("0", &v)); assert_int_equal(v, 0);
  assert_false(pcs_parse_time("100", &v)); /* a time needs its unit */
  assert_true(pcs_parse_time("0.1ms", &v)); assert_int_equal(v, 100000); /* decimals: whole ns only */
  assert_true(pcs_parse_time("2.5s", &v)); assert_int_equal(v, 2500000000ull);
  assert_false(pcs_parse_time("0.5ns", &v));
  assert_false(pcs_parse_time("1.ms", &v));
  assert_true(pcs_parse_size("1.5G", &v)); assert_int_equal(v, 1536ull << 20);
  assert_true(pcs_parse_size("0.25k", &v)); assert_int_equal(v, 256);
  assert_false(pcs_parse_size("1.3k", &v)); /* 1331.2 bytes */
  assert_false(pcs_parse_size("4096.5", &v));
}

/* Value of INFO in P, whatever its kind, for comparing two scenarios. */
static char *value_of(const PcsParams *p, const PcsParamInfo *info) { return pcs_params_format(p, info); }

/* What provenance and --scenario-from rely on: every key's value, printed
 * by pcs_params_format(), reads back as the same value; a scenario file
 * setting every key to its printed default loads without error. */
static void every_value_reads_back_as_printed(void **state) {
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  PcsParams def, back;
  pcs_params_init(&def);
  pcs_params_init(&back);
  g_autoptr(GString) ini = g_string_new(NULL);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *printed = value_of(&def, &t[i]);
    g_string_append_printf(ini, "[%s]\n%s = %s\n", t[i].section, t[i].key, printed);
  }
  g_autofree char *path = test_tempfile("all.ini", ini->str);
  GError *error = NULL;
  if (!pcs_params_load(&back, path, &error) || !pcs_params_validate(&back, &error)) fail_msg("%s", error->message);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *a = value_of(&def, &t[i]), *b = value_of(&back, &t[i]);
    g_autofree char *key = g_strdup_printf("%s.%s", t[i].section, t[i].key);
    if (strcmp(a, b) != 0) fail_msg("%s: printed '%s', read back '%s'", key, a, b);
    g_autofree char *where = pcs_params_where(&back, key);
    g_autofree char *want = g_strdup_printf("%s:%zu", path, 2 * i + 2);
    assert_string_equal(where, want); /* errors between keys name this line */
  }
  assert_int_equal(def.workload_threads, 4);
  assert_int_equal(pcs_params_window_bytes(&def), 128 * 1024);
  pcs_params_clear(&def);
  pcs_params_clear(&back);
}

/* Each integer key accepts exactly its table range and the refusal quotes
 * it: lo and hi pass, lo - 1 and hi + 1 fail naming "expected LO to HI". */
static void ranges_are_enforced_at_their_bounds(void **state) {
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  size_t checked = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i].kind == PCS_KIND_TEXT || t[i].kind == PCS_KIND_FRAC) continue;
    const char *unit = t[i].kind == PCS_KIND_TIME ? "ns" : "";
    PcsParams p;
    pcs_params_init(&p);
    uint64_t edges[] = {t[i].lo, t[i].hi, t[i].lo - 1, t[i].hi + 1};
    for (size_t e = 0; e < 4; e++) {
      if ((e == 2 && t[i].lo == 0) || (e == 3 && t[i].hi == UINT64_MAX)) continue;
      g_autofree char *v = g_strdup_printf("%" G_GUINT64_FORMAT "%s", edges[e], unit);
      GError *error = NULL;
      gboolean ok = pcs_params_set(&p, &t[i], v, "test", &error);
      if (e < 2 && !ok) fail_msg("%s.%s = %s refused: %s", t[i].section, t[i].key, v, error->message);
      if (e >= 2) {
        if (ok) fail_msg("%s.%s = %s accepted", t[i].section, t[i].key, v);
        g_autofree char *range = g_strdup_printf("expected %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, t[i].lo,
                                                 t[i].hi);
        if (!strstr(error->message, range)) fail_msg("'%s' lacks '%s'", error->message, range);
        g_error_free(error);
        checked++;
      }
    }
    pcs_params_clear(&p);
  }
  assert_true(checked >= 20);
}

/* Loads TEXT as a scenario and returns the error message (or NULL). */
static char *load_error(const char *text) {
  g_autofree char *path = test_tempfile("s.ini", text);
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  gboolean ok = pcs_params_load(&p, path, &error) && pcs_params_validate(&p, &error);
  pcs_params_clear(&p);
  if (ok) return NULL;
  char *msg = g_strdup(error->message);
  g_error_free(error);
  return msg;
}

static void expect_error(const char *text, const char *line, const char *needle) {
  g_autofree char *msg = load_error(text);
  if (!msg) fail_msg("accepted: %s", text);
  if (line && !strstr(msg, line)) fail_msg("no '%s' in: %s", line, msg);
  if (!strstr(msg, needle)) fail_msg("no '%s' in: %s", needle, msg);
}

static void bad_scenarios_name_file_line_and_key(void **state) {
  expect_error("", "s.ini:1:", "empty");
  expect_error("[workload]\nthreads = 4\nthraeds = 8\n", "s.ini:3:", "did you mean 'workload.threads'");
  expect_error("[workload]\nthreads = 4\nthreads = 8\n", "s.ini:3:", "duplicate key 'workload.threads'");
  expect_error("[workload]\nthreads = 0\n", "s.ini:2:", "out of range");
  expect_error("[workload]\nthreads = many\n", "s.ini:2:", "expected an unsigned integer");
  expect_error("[workload]\nfile_size = 99999999T\n", "s.ini:2:", "workload.file_size");
  expect_error("[device]\nlatency = 100\n", "s.ini:2:", "ns, us, ms or s");
  expect_error("[workload]\nthreads = 5000\n", "s.ini:2:", "out of range");
  expect_error("threads = 4\n", "s.ini:1:", "not a valid scenario");
  /* a partial last page and a file smaller than the window run (readahead stops at the end of the file) */
  assert_null(load_error("[workload]\nfile_size = 40000\n"));
  assert_null(load_error("[workload]\nfile_size = 64k\n[readahead]\nread_ahead_kb = 128\n"));
  expect_error("[workload]\nfile_size = 3000\n", "s.ini:2:", "out of range");
  expect_error("[workload]\nfiles = private\n", "s.ini:2:", "workload.files = 'private': expected shared or per-thread");
  expect_error("[nosuch]\nkey = 1\n", "s.ini:2:", "unknown key");
  /* a part larger than its whole: cost.insert_alloc is part of cost.insert_won */
  expect_error("[cost]\ninsert_won = 1us\ninsert_alloc = 2us\n", "s.ini:3:",
               "cost.insert_alloc (2000 ns) is more than cost.insert_won (1000 ns)");
}

/* A bio takes a large folio whole (bio.c): a bio.max_size below the largest
 * folio the run reads, a stripe inside it, or v3.x's queue limits aborted
 * the run (bio.c: "assertion failed: (added)"); they are refused at the
 * key's line, and a bio of the largest folio's size runs (123 bios, none over
 * 32 pages). */
static void a_bio_takes_the_largest_folio_whole(void **state) {
  const char *ext4 = "[scenario]\nkernel = v6.18\nfilesystem = ext4\n[workload]\nfile_size = 8M\n";
  const struct {
    const char *more, *line, *needle;
  } bad[] = {
    {"[bio]\nmax_size = 64k\n", "s.ini:7:",
     "bio.max_size (65536 bytes) is less than the largest folio this run reads, 128 KiB"},
    {"[readahead]\nread_ahead_kb = 4096\n[bio]\nmax_size = 1M\n", "s.ini:9:", "largest folio this run reads, 2048 KiB"},
    {"[bio]\nstripe_size = 64k\n", "s.ini:7:", "bio.stripe_size (65536 bytes) would cut the largest folio"},
    {"[bio]\nqueue_limited = 1\n", "s.ini:7:", "bio.queue_limited = 1 (v3.x's bio_add_page() limits) with "
                                                "readahead.max_folio_order = 9"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *text = g_strconcat(ext4, bad[i].more, NULL);
    expect_error(text, bad[i].line, bad[i].needle);
  }
  g_autofree char *fits = g_strconcat(ext4, "[bio]\nmax_size = 128k\n", NULL);
  g_autofree char *path = test_tempfile("fits.ini", fits);
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  if (!pcs_params_load(&p, path, &error) || !pcs_params_validate(&p, &error)) fail_msg("%s", error->message);
  PcsResult r;
  test_run(&p, "window", &r); /* 128 KiB folios in 128 KiB bios: none larger, 33 of them whole */
  assert_int_equal(r.hist_len, 33);
  assert_int_equal(r.bio_pages_hist[32], 33);
  assert_int_equal(r.bios, 123);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
}

static void binary_and_missing_files_are_refused(void **state) {
  g_autofree char *path = test_tempfile("bin.ini", "x");
  assert_true(g_file_set_contents(path, "\x7f" "ELF\x01\x00\x00garbage", 12, NULL));
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  assert_false(pcs_params_load(&p, path, &error));
  assert_non_null(strstr(error->message, "binary"));
  g_clear_error(&error);
  assert_false(pcs_params_load(&p, "/nonexistent/x.ini", &error));
  assert_non_null(strstr(error->message, "/nonexistent/x.ini"));
  g_clear_error(&error);
  assert_false(pcs_params_load(&p, "/tmp", &error));
  assert_non_null(strstr(error->message, "directory"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

static void set_overrides_and_checks_keys(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_true(pcs_params_set_assignment(&p, "workload.threads=8", NULL));
  assert_int_equal(p.workload_threads, 8);
  assert_true(pcs_params_set_assignment(&p, "device.bandwidth=250M", NULL));
  assert_int_equal(p.device_bandwidth, 250ull << 20);
  GError *error = NULL;
  assert_false(pcs_params_set_assignment(&p, "device.latncy=5us", &error));
  assert_non_null(strstr(error->message, "did you mean 'device.latency'"));
  g_clear_error(&error);
  assert_false(pcs_params_set_assignment(&p, "threads", &error));
  assert_non_null(strstr(error->message, "SECTION.KEY=VALUE"));
  g_clear_error(&error);
  pcs_params_clear(&p);
}

/* Window in pages of a scenario with these readahead settings. */
static uint64_t window_pages(const char *read_ahead_kb, const char *fadvise_hint) {
  PcsParams p;
  pcs_params_init(&p);
  g_autofree char *kb = g_strdup_printf("readahead.read_ahead_kb=%s", read_ahead_kb);
  g_autofree char *hint = g_strdup_printf("readahead.fadvise_hint=%s", fadvise_hint);
  test_set(&p, kb, hint, NULL);
  GError *error = NULL;
  if (!pcs_params_validate(&p, &error)) fail_msg("%s", error->message);
  uint64_t pages = pcs_params_window_bytes(&p) / PCS_PAGE_SIZE;
  pcs_params_clear(&p);
  return pages;
}

/* The window is the bdi's, doubled by a sequential advice (mm/fadvise.c). */
static void the_window_follows_read_ahead_kb_and_fadvise(void **state) {
  assert_int_equal(window_pages("128", "0"), 32);
  assert_int_equal(window_pages("4096", "1"), 2048);
  assert_int_equal(window_pages("4096", "sequential"), 2048);
  assert_int_equal(window_pages("128", "1"), 64);
  assert_int_equal(window_pages("256", "noreuse"), 64);
  PcsParams def;
  pcs_params_init(&def);
  assert_int_equal(pcs_params_window_bytes(&def), 128 * 1024); /* the window the defaults always had */
  pcs_params_clear(&def);
  /* the old key is refused with the settings that give the same window */
  g_autofree char *old = load_error("[readahead]\nmax_window = 256k\n");
  assert_non_null(old);
  assert_non_null(strstr(old, "s.ini:2: readahead.max_window is no longer a key"));
  assert_non_null(strstr(old, "read_ahead_kb = 256, fadvise_hint = 0, or read_ahead_kb = 128, fadvise_hint = 1"));
  expect_error("[readahead]\nread_ahead_kb = 0\n", "s.ini:2:", "out of range");
  assert_null(load_error("[readahead]\nfadvise_hint = random\n")); /* FMODE_RANDOM is modelled */
  expect_error("[workload]\nrw = write\n", "s.ini:2:", "workload.rw = 'write': expected read or randread");
  expect_error("[workload]\nrw = randread\nblock_size = 6k\n", "s.ini:2", "a multiple of the 4096-byte page");
  expect_error("[workload]\nrandom_seed = abc\n", "s.ini:2", "expected fio (fio's randrepeat=1)");
  expect_error("[workload]\nrandom_generator = lfsr\n", "s.ini:2", "expected tausworthe or tausworthe64");
  expect_error("[readahead]\nfadvise_hint = 2\n", "s.ini:2:", "expected 0, 1, sequential, random or noreuse");
}

static char *value_by_key(const PcsParams *p, const char *key) {
  const PcsParamInfo *info = pcs_params_find_dotted(key);
  assert_non_null(info);
  return pcs_params_format(p, info);
}

static void assert_value(const PcsParams *p, const char *key, const char *want) {
  g_autofree char *got = value_by_key(p, key);
  if (strcmp(got, want) != 0) fail_msg("%s = %s, expected %s", key, got, want);
}

/* [scenario] kernel sets its kernel's defaults; a value the scenario gives
 * wins whichever comes first, and --set of another kernel moves only what
 * the scenario left to the kernel. */
static void the_kernel_sets_defaults_and_the_scenario_wins(void **state) {
  PcsParams p;
  pcs_params_init(&p);
  assert_int_equal(pcs_params_kernel(&p), PCS_KERNEL_V3_5); /* today's behaviour by default */
  assert_value(&p, "block.plug_max", "16");
  assert_value(&p, "bio.queue_limited", "1");
  pcs_params_clear(&p);

  g_autofree char *path = test_tempfile("k.ini", "[block]\nplug_max = 8\n[scenario]\nkernel = v6.18\n");
  pcs_params_init(&p);
  GError *error = NULL;
  if (!pcs_params_load(&p, path, &error) || !pcs_params_validate(&p, &error)) fail_msg("%s", error->message);
  assert_int_equal(pcs_params_kernel(&p), PCS_KERNEL_V6_18);
  assert_string_equal(pcs_params_kernel_name(pcs_params_kernel(&p)), "v6.18");
  assert_value(&p, "block.plug_max", "8"); /* the scenario's, set before the kernel line */
  assert_value(&p, "bio.queue_limited", "0");
  assert_value(&p, "bio.max_size", "16777216");
  assert_value(&p, "memory.contiguous", "1");
  assert_true(pcs_params_set_assignment(&p, "scenario.kernel=v3.5", NULL));
  assert_value(&p, "block.plug_max", "8");
  assert_value(&p, "bio.queue_limited", "1");
  assert_value(&p, "bio.max_size", "524288");
  assert_value(&p, "memory.contiguous", "0");
  pcs_params_clear(&p);
}

/* The kernel key's documentation names every default a kernel sets, with
 * the v6.18 value: found as the keys whose value the kernel changes. */
static void the_kernel_doc_lists_what_it_sets(void **state) {
  const PcsParamInfo *kinfo = pcs_params_find("scenario", "kernel");
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  PcsParams def, v35, v618;
  pcs_params_init(&def);
  pcs_params_init(&v35);
  pcs_params_init(&v618);
  assert_true(pcs_params_set_assignment(&v618, "scenario.kernel=v6.18", NULL));
  assert_true(pcs_params_set_assignment(&v35, "scenario.kernel=v6.18", NULL));
  assert_true(pcs_params_set_assignment(&v35, "scenario.kernel=v3.5", NULL));
  size_t differ = 0;
  for (size_t i = 0; i < n; i++) {
    g_autofree char *d = pcs_params_format(&def, &t[i]), *c = pcs_params_format(&v35, &t[i]);
    if (strcmp(d, c)) fail_msg("%s.%s: v3.5 sets %s, the default is %s", t[i].section, t[i].key, c, d);
    if (&t[i] == kinfo) continue;
    g_autofree char *a = pcs_params_format(&v35, &t[i]), *b = pcs_params_format(&v618, &t[i]);
    if (!strcmp(a, b)) continue;
    g_autofree char *mention = g_strdup_printf("%s.%s = ", t[i].section, t[i].key);
    if (!strstr(kinfo->doc, mention)) fail_msg("scenario.kernel's doc does not say it sets %s", mention);
    differ++;
  }
  assert_true(differ >= 4);
  assert_non_null(strstr(kinfo->doc, "block.plug_max = 32"));
  for (PcsKernel k = 0; k < PCS_KERNEL_COUNT; k++) assert_non_null(strstr(kinfo->doc, pcs_params_kernel_name(k)));
  pcs_params_clear(&def);
  pcs_params_clear(&v35);
  pcs_params_clear(&v618);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(sizes_and_times_take_units),
    cmocka_unit_test(every_value_reads_back_as_printed),
    cmocka_unit_test(ranges_are_enforced_at_their_bounds),
    cmocka_unit_test(bad_scenarios_name_file_line_and_key),
    cmocka_unit_test(a_bio_takes_the_largest_folio_whole),
    cmocka_unit_test(binary_and_missing_files_are_refused),
    cmocka_unit_test(set_overrides_and_checks_keys),
    cmocka_unit_test(the_window_follows_read_ahead_kb_and_fadvise),
    cmocka_unit_test(the_kernel_sets_defaults_and_the_scenario_wins),
    cmocka_unit_test(the_kernel_doc_lists_what_it_sets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
