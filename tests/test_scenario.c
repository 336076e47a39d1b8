/* test_scenario.c - the shipped scenarios (sim/params/scenario.c): every
 * file of workloads/ is compiled in byte for byte, a name resolves by the
 * rule of scenario.h (a file wins, then NAME.ini, NAME.fio, NAME.sched),
 * an unknown name lists the shipped ones, and the commands run a shipped
 * scenario as they run its file, from any directory.  Also what the
 * install needs: help usage lines and the man page written from them. */
#include "support.h"

#include "pcsim/scenario.h"
#include "pcsim/text.h"

#include <string.h>

/* The .ini, .fio and .sched files of workloads/ in the source tree. */
static GPtrArray *workload_files(void) {
  g_autofree char *dir = test_path("workloads");
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  assert_non_null(d);
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  for (const char *f; (f = g_dir_read_name(d));)
    if (g_str_has_suffix(f, ".ini") || g_str_has_suffix(f, ".fio") || g_str_has_suffix(f, ".sched"))
      g_ptr_array_add(a, g_strdup(f));
  assert_true(a->len >= 8);
  return a;
}

static char *workload_text(const char *file) {
  g_autofree char *path = g_build_filename(PCSIM_SOURCE_DIR, "workloads", file, NULL);
  char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  return text;
}

static void every_workload_file_is_compiled_in_byte_for_byte(void **state) {
  g_autoptr(GPtrArray) files = workload_files();
  g_auto(GStrv) shipped = pcs_scenario_files(PCS_SCENARIO_ANY);
  assert_int_equal(g_strv_length(shipped), files->len);
  for (guint i = 0; i < files->len; i++) {
    const char *f = g_ptr_array_index(files, i);
    if (!g_strv_contains((const char *const *)shipped, f)) fail_msg("workloads/%s is not compiled in", f);
    g_autofree char *want = workload_text(f), *name = NULL, *text = NULL;
    GError *error = NULL;
    assert_true(pcs_scenario_read(f, PCS_SCENARIO_ANY | PCS_SCENARIO_SHIPPED_ONLY, &name, &text, NULL, &error));
    assert_string_equal(name, f);
    assert_string_equal(text, want);
  }
}

static void a_bare_name_is_the_shipped_ini_then_fio_then_sched(void **state) {
  struct {
    const char *arg;
    guint kinds;
    const char *file;
  } cases[] = {
    {"liubo-2011", PCS_SCENARIO_INI | PCS_SCENARIO_FIO, "liubo-2011.ini"},
    {"liubo-2011", PCS_SCENARIO_FIO, "liubo-2011.fio"},
    {"liubo-2011.fio", PCS_SCENARIO_INI | PCS_SCENARIO_FIO, "liubo-2011.fio"},
    {"linux-6.18-btrfs", PCS_SCENARIO_INI, "linux-6.18-btrfs.ini"},
    {"liubo-diagram", PCS_SCENARIO_ANY, "liubo-diagram.sched"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *name = NULL, *text = NULL, *want = workload_text(cases[i].file);
    GError *error = NULL;
    if (!pcs_scenario_read(cases[i].arg, cases[i].kinds, &name, &text, NULL, &error))
      fail_msg("%s: %s", cases[i].arg, error->message);
    assert_string_equal(name, cases[i].file);
    assert_string_equal(text, want);
  }
}

/* A file of the name wins over the shipped scenario, as before names. */
static void an_existing_file_wins_over_a_shipped_name(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *path = g_build_filename(dir, "liubo-2011", NULL);
  const char *local = "[scenario]\nname = local-copy\n[workload]\nthreads = 2\nfile_size = 16M\n";
  assert_true(g_file_set_contents(path, local, -1, NULL));
  g_autofree char *name = NULL, *text = NULL;
  GError *error = NULL;
  assert_true(pcs_scenario_read(path, PCS_SCENARIO_INI, &name, &text, NULL, &error));
  assert_string_equal(name, path);
  assert_string_equal(text, local);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim_env(&out, &err, NULL, dir, "run", "liubo-2011", NULL), 0);
  assert_true(g_str_has_prefix(out, "scenario local-copy: 2 thread(s), 16 MiB file"));
}

/* Neither a file nor a shipped name: exit 2, the shipped names listed. */
static void an_unknown_name_lists_the_shipped_ones(void **state) {
  GError *error = NULL;
  g_autofree char *name = NULL, *text = NULL;
  assert_false(pcs_scenario_read("liubo-2012", PCS_SCENARIO_INI, &name, &text, NULL, &error));
  assert_int_equal(error->code, PCS_ERROR_INPUT);
  g_autofree char *want = g_strdup("liubo-2012: no such file and no shipped scenario of that name; shipped: ");
  assert_true(g_str_has_prefix(error->message, want));
  g_autoptr(GPtrArray) files = workload_files();
  g_auto(GStrv) listed = g_strsplit(error->message + strlen(want), ", ", -1);
  guint ini = 0;
  for (guint i = 0; i < files->len; i++) {
    const char *f = g_ptr_array_index(files, i);
    if (!g_str_has_suffix(f, ".ini")) continue;
    g_autofree char *stem = g_strndup(f, strlen(f) - 4);
    if (!g_strv_contains((const char *const *)listed, stem)) fail_msg("'%s' not in: %s", stem, error->message);
    ini++;
  }
  assert_int_equal(g_strv_length(listed), ini); /* scenarios only: no .fio, no .sched */
  g_clear_error(&error);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "liubo-2012", NULL), 2);
  assert_string_equal(out, "");
  assert_true(g_str_has_prefix(err, "pcsim run: liubo-2012: no such file and no shipped scenario of that name; "
                                    "shipped: eight-threads, linux-6.18-btrfs, linux-6.18-btrfs-base, linux-6.18-ext4, linux-6.18-xfs, liubo-2011, "
                                    "liubo-2011.fio, "));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "replay", "liubo-2011", NULL), 2);
  assert_non_null(strstr(err, "shipped: liubo-diagram\n"));
}

/* `pcsim run NAME` prints what `pcsim run workloads/NAME.ini` prints. */
static void a_shipped_scenario_runs_as_its_file(void **state) {
  g_autofree char *a = NULL, *ea = NULL, *b = NULL, *eb = NULL;
  assert_int_equal(test_pcsim(&a, &ea, "run", "liubo-2011", "--set", "workload.file_size=64M", NULL), 0);
  assert_int_equal(test_pcsim(&b, &eb, "run", "workloads/liubo-2011.ini", "--set", "workload.file_size=64M", NULL), 0);
  assert_string_equal(a, b);
  assert_true(g_str_has_prefix(a, "scenario liubo-2011: 4 thread(s), 64 MiB file"));
  g_free(a), g_free(b), g_free(ea), g_free(eb);
  /* the provenance names the shipped file */
  assert_int_equal(test_pcsim(&a, &ea, "run", "single-thread", "--set", "workload.file_size=16M", "--format", "csv",
                              NULL), 0);
  assert_non_null(strstr(a, "# source single-thread.ini\n"));
  g_free(a), g_free(ea);
  assert_int_equal(test_pcsim(&a, &ea, "replay", "liubo-diagram", NULL), 0);
  assert_int_equal(test_pcsim(&b, &eb, "replay", "workloads/liubo-diagram.sched", NULL), 0);
  assert_string_equal(a, b);
  assert_non_null(strstr(a, "total_bios 4"));
}

/* A fio job, from /, without --model and with --model NAME. */
static void a_fio_job_runs_on_the_compiled_in_model_from_anywhere(void **state) {
  g_autofree char *job = test_tempfile("small.fio", "[r]\nrw=read\nbs=32k\nsize=64M\nnumjobs=2\nfilename=f\n");
  g_autofree char *a = NULL, *ea = NULL, *b = NULL, *eb = NULL;
  assert_int_equal(test_pcsim_env(&a, &ea, NULL, "/", "run", job, "--format", "csv", NULL), 0);
  assert_non_null(strstr(ea, "no --model given; using the shipped scenario linux-6.18-btrfs"));
  assert_non_null(strstr(a, "# fio model linux-6.18-btrfs.ini\n"));
  assert_int_equal(test_pcsim_env(&b, &eb, NULL, "/", "run", job, "--model", "linux-6.18-btrfs", "--format", "csv",
                                  NULL), 0);
  assert_string_equal(a, b);
  g_free(b), g_free(eb);
  g_autofree char *model = test_path("workloads/linux-6.18-btrfs.ini");
  assert_int_equal(test_pcsim(&b, &eb, "run", job, "--model", model, NULL), 0);
  g_free(a), g_free(ea);
  assert_int_equal(test_pcsim(&a, &ea, "run", job, "--model", "linux-6.18-btrfs", NULL), 0);
  assert_string_equal(a, b); /* the table: byte-identical to the file's */
  g_free(a), g_free(ea);
  assert_int_equal(test_pcsim(&a, &ea, "run", job, "--model", "linux-6.18", NULL), 2);
  assert_non_null(strstr(ea, "pcsim run: linux-6.18: no such file and no shipped scenario of that name; shipped: "));
}

/* The name a user types for each file of workloads/. */
static char *typed_name(const char *file, GPtrArray *files) {
  const char *dot = strrchr(file, '.');
  g_autofree char *stem = g_strndup(file, (gsize)(dot - file));
  g_autofree char *ini = g_strconcat(stem, ".ini", NULL), *fio = g_strconcat(stem, ".fio", NULL);
  gboolean earlier = FALSE; /* an .ini (or, for a .sched, a .fio) of the same stem takes the bare name */
  for (guint i = 0; i < files->len; i++) {
    const char *f = g_ptr_array_index(files, i);
    earlier = earlier || (strcmp(f, file) && (!strcmp(f, ini) || (g_str_has_suffix(file, ".sched") && !strcmp(f, fio))));
  }
  return g_strdup(earlier ? file : stem);
}

static void scenarios_lists_every_workload_and_shows_one(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim_env(&out, &err, NULL, "/", "scenarios", NULL), 0);
  g_autoptr(GPtrArray) files = workload_files();
  for (guint i = 0; i < files->len; i++) {
    g_autofree char *name = typed_name(g_ptr_array_index(files, i), files);
    g_autofree char *row = g_strdup_printf("\n  %-22s ", name);
    if (!strstr(out, row)) fail_msg("pcsim scenarios lacks '%s':\n%s", name, out);
  }
  assert_non_null(strstr(out, "\n  eight-threads          The seed's machine with twice the readers: 8 threads...\n"));
  assert_non_null(strstr(out, "\n  liubo-diagram          The seed's picture: four threads handed the same...\n"));
  assert_non_null(strstr(out, "Installed copies: "));
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "scenarios", "--show", "linux-6.18-btrfs", NULL), 0);
  g_autofree char *want = workload_text("linux-6.18-btrfs.ini");
  assert_string_equal(out, want);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "scenarios", "--show", "workloads/liubo-2011.ini", NULL), 2);
  assert_string_equal(out, "");
  assert_true(g_str_has_prefix(err, "pcsim scenarios: workloads/liubo-2011.ini: no shipped scenario of that name; "
                                    "shipped: eight-threads, "));
}

/* Every command's usage line is a synopsis, options last, in ASCII. */
static void help_usage_lines_are_synopses(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "--help", NULL), 0);
  const char *list = strstr(out, "Commands:\n");
  assert_non_null(list);
  g_auto(GStrv) lines = g_strsplit(list, "\n", -1);
  guint n = 0;
  for (char **l = lines + 1; *l && **l; l++, n++) {
    g_autofree char *cmd = g_strndup(*l + 2, strcspn(*l + 2, " "));
    g_autofree char *o = NULL, *e = NULL;
    assert_int_equal(test_pcsim(&o, &e, cmd, "--help", NULL), 0);
    g_autofree char *head = g_strdup_printf("Usage:\n  pcsim %s ", cmd);
    if (!g_str_has_prefix(o, head)) fail_msg("pcsim %s --help starts:\n%.80s", cmd, o);
    const char *eol = strchr(o + strlen(head), '\n');
    assert_non_null(eol);
    assert_memory_equal(eol - 12, " [OPTION...]", 12);
    assert_null(strstr(o, "[OPTION?]"));
    assert_true(eol[1] == '\n' && g_ascii_isupper(eol[2])); /* then "Summary." */
  }
  assert_true(n >= 11);
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "--help", NULL), 0);
  assert_true(g_str_has_prefix(out, "Usage:\n  pcsim run SCENARIO|JOB.fio [OPTION...]\n\n"
                                    "Simulate one scenario or fio job under each policy.\n"));
}

/* build/pcsim.1: every command and every long option of `pcsim run --help`,
 * and groff has nothing to warn about. */
static void the_man_page_documents_every_command_and_run_option(void **state) {
  g_autofree char *man = NULL;
  if (!g_file_get_contents(PCSIM_MAN_PAGE, &man, NULL, NULL)) fail_msg("%s: not built", PCSIM_MAN_PAGE);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "--help", NULL), 0);
  g_auto(GStrv) lines = g_strsplit(strstr(out, "Commands:\n"), "\n", -1);
  for (char **l = lines + 1; *l && **l; l++) {
    g_autofree char *cmd = g_strndup(*l + 2, strcspn(*l + 2, " "));
    g_auto(GStrv) parts = g_strsplit(cmd, "-", -1);
    g_autofree char *troff = g_strjoinv("\\-", parts);
    g_autofree char *section = g_strdup_printf("\n.SS \"pcsim %s ", troff);
    if (!strstr(man, section)) fail_msg("pcsim.1 has no section for %s", cmd);
  }
  g_free(out), g_free(err);
  assert_int_equal(test_pcsim(&out, &err, "run", "--help", NULL), 0);
  g_auto(GStrv) help = g_strsplit(out, "\n", -1);
  guint options = 0;
  for (char **l = help; *l; l++) {
    const char *o = strstr(*l, "--");
    if (!o || (*l)[2] != '-' || g_str_has_prefix(o, "--help")) continue; /* "  -p, --policy=P" or "  --seed=N" */
    g_autofree char *name = g_strndup(o + 2, strcspn(o + 2, "= "));
    g_auto(GStrv) parts = g_strsplit(name, "-", -1);
    g_autofree char *joined = g_strjoinv("\\-", parts);
    g_autofree char *troff = g_strdup_printf("\\fB\\-\\-%s\\fR", joined);
    if (!strstr(man, troff)) fail_msg("pcsim.1 lacks --%s (%s)", name, troff);
    options++;
  }
  assert_true(options >= 15);
  assert_non_null(strstr(man, "\n.SH FILES\n"));
  assert_non_null(strstr(man, "\n.SH \"EXIT STATUS\"\n"));
  assert_non_null(strstr(man, "\n.SH EXAMPLES\n"));
  g_autofree char *groff = g_find_program_in_path("groff");
  if (!groff) {
    print_message("groff check skipped: groff is not installed (apt-get install groff-base)\n");
    return;
  }
  g_autofree char *gout = NULL, *gerr = NULL;
  int status = 0;
  char *argv[] = {groff, "-man", "-ww", "-z", PCSIM_MAN_PAGE, NULL};
  assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &gout, &gerr, &status, NULL));
  assert_true(g_spawn_check_wait_status(status, NULL));
  assert_string_equal(gerr, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_workload_file_is_compiled_in_byte_for_byte),
    cmocka_unit_test(a_bare_name_is_the_shipped_ini_then_fio_then_sched),
    cmocka_unit_test(an_existing_file_wins_over_a_shipped_name),
    cmocka_unit_test(an_unknown_name_lists_the_shipped_ones),
    cmocka_unit_test(a_shipped_scenario_runs_as_its_file),
    cmocka_unit_test(a_fio_job_runs_on_the_compiled_in_model_from_anywhere),
    cmocka_unit_test(scenarios_lists_every_workload_and_shows_one),
    cmocka_unit_test(help_usage_lines_are_synopses),
    cmocka_unit_test(the_man_page_documents_every_command_and_run_option),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
