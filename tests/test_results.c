/* test_results.c - a result file is self-contained: `pcsim run
 * --scenario-from RESULTS --format F` of a file `pcsim run` wrote as F
 * prints that file again, byte for byte, with the job file gone.
 *
 * A fio job's run records what its outputs name (fio_model, fio_accepted,
 * the job's [global] options and sections) in the provenance of every
 * format (results.c reads it back, report.c writes it); a --seeds file
 * records its seeds.  Older files without the sections are refused for
 * fio-json rather than reprinted differently. */
#include "support.h"

#include <glib/gstdio.h>
#include <string.h>

/* One section (numjobs=2), as the user's review ran it. */
static const char one_section[] = "[seq]\nthread\nrw=read\nbs=32k\nsize=16M\nnumjobs=2\nfilename=foo\n";

/* Two sections on one file, as docs/fio.md shows them. */
static const char two_sections[] = "[global]\nthread\nioengine=sync\nrw=read\ninvalidate=1\nfilename=big\n"
                                   "size=16M\n\n[small]\nbs=4k\nnumjobs=2\n\n[large]\nbs=1M\nnumjobs=2\n";

/* Names and values a line of provenance must escape (blanks, '=', '%',
 * quotes), a name= option, a stonewall (a second group), group_reporting. */
static const char odd_names[] = "[global]\nthread\ngroup_reporting\n"
                                "description=a job, with \"quotes\" = and 100% blanks\n"
                                "directory=/tmp/some dir\nfilename=big file\nsize=8M\n\n"
                                "[my reader]\nname=first one\nbs=32k\nnumjobs=2\n\n"
                                "[second]\nstonewall\nbs=1M\nnumjobs=1\n";

static char *run_ok(const char *const *argv) {
  char *out = NULL;
  g_autofree char *err = NULL;
  int rc = test_pcsim_argv(&out, &err, FALSE, argv);
  if (rc != 0) fail_msg("pcsim %s %s: exit %d: %s", argv[0], argv[1], rc, err);
  return out;
}

/* `pcsim run JOB --format FORMAT [MORE...]` written to a file, the job file
 * removed, then `--scenario-from` that file in the same format: the same
 * bytes.  Returns the first output. */
static char *rerun_is_identical(const char *job_text, const char *format, const char *const *more) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL);
  g_autofree char *saved = g_build_filename(dir, "result", NULL);
  assert_true(g_file_set_contents(job, job_text, -1, NULL));
  const char *argv[16] = {"run", job, "--format", format};
  size_t n = 4;
  for (; more && *more; more++) argv[n++] = *more;
  char *first = run_ok(argv);
  assert_true(g_file_set_contents(saved, first, -1, NULL));
  assert_int_equal(g_unlink(job), 0); /* the result alone: no job file to read again */
  const char *again_argv[] = {"run", "--scenario-from", saved, "--format", format, NULL};
  g_autofree char *again = run_ok(again_argv);
  if (strcmp(again, first) != 0) fail_msg("--scenario-from (%s) printed other bytes:\n%s\n--- was:\n%s", format, again, first);
  return first;
}

static void one_section_job_reruns_to_the_byte(void **state) {
  const char *formats[] = {"json", "csv", "fio-json"};
  for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
    g_autofree char *out = rerun_is_identical(one_section, formats[f], NULL);
    if (f == 2) { /* what the review saw lost: the section's name and options */
      assert_non_null(strstr(out, "\"jobname\" : \"seq\""));
      assert_non_null(strstr(out, "\"filename\" : \"foo\""));
    } else {
      assert_non_null(strstr(out, f ? "# fio model linux-6.18-btrfs.ini\n" : "\"fio_model\": \"linux-6.18-btrfs.ini\""));
      assert_non_null(strstr(out, f ? "# fio accepted thread filename=foo\n" : "\"fio_accepted\": [\"thread\", \"filename=foo\"]"));
    }
  }
}

static void two_section_job_reruns_to_the_byte(void **state) {
  const char *formats[] = {"json", "csv", "fio-json"};
  const char *const two_policies[] = {"--policy", "immediate,window", NULL};
  for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
    g_autofree char *out = rerun_is_identical(two_sections, formats[f], two_policies);
    if (f == 1) {
      assert_non_null(strstr(out, "\n# fio global ioengine=sync rw=read invalidate=1 filename=big size=16M\n"));
      assert_non_null(strstr(out, "\n# fio section small numjobs=2 group=0 options bs=4k numjobs=2\n"));
      assert_non_null(strstr(out, "\n# fio section large numjobs=2 group=0 options bs=1M numjobs=2\n"));
    }
    if (f == 2) { /* no group_reporting: one entry per clone, named by its section, under each policy */
      assert_non_null(strstr(out, "\"jobname\" : \"small\""));
      assert_non_null(strstr(out, "\"jobname\" : \"large\""));
      assert_non_null(strstr(out, "\"name\" : \"pcsim:window\""));
    }
  }
  for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
    g_autofree char *out = rerun_is_identical(odd_names, formats[f], NULL);
    if (f == 1) assert_non_null(strstr(out, "\n# fio section first%20one numjobs=2 group=0 options name=first%20one "));
    if (f == 2) assert_non_null(strstr(out, "\"description\" : \"a job, with \\\"quotes\\\" = and 100% blanks\""));
  }
}

/* A --seeds file reruns its seeds (from its first, --seed 4 here). */
static void seeds_result_reruns_to_the_byte(void **state) {
  const char *const seeds[] = {"--seeds", "3", "--seed", "4", NULL};
  const char *formats[] = {"json", "csv"};
  for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
    g_autofree char *one = rerun_is_identical(one_section, formats[f], seeds);
    assert_non_null(strstr(one, f ? "\n# seeds 4..6\n" : "\"seeds\": [4, 5, 6]"));
    g_autofree char *two = rerun_is_identical(two_sections, formats[f], seeds);
  }
}

/* A fio job's result from before the sections were recorded: json and csv
 * still rerun to the byte; fio-json, which would name the jobs otherwise,
 * is refused (exit 2, nothing on stdout). */
static void a_result_without_sections_is_refused_for_fio_json(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL), *old = g_build_filename(dir, "old.csv", NULL);
  assert_true(g_file_set_contents(job, one_section, -1, NULL));
  const char *argv[] = {"run", job, "--format", "csv", NULL};
  g_autofree char *csv = run_ok(argv);
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new();
  for (char **l = lines; *l; l++)
    if (!g_str_has_prefix(*l, "# fio global") && !g_str_has_prefix(*l, "# fio section ")) g_ptr_array_add(kept, *l);
  g_ptr_array_add(kept, NULL);
  g_autofree char *older = g_strjoinv("\n", (char **)kept->pdata);
  assert_true(g_file_set_contents(old, older, -1, NULL));
  const char *again_argv[] = {"run", "--scenario-from", old, "--format", "csv", NULL};
  g_autofree char *again = run_ok(again_argv);
  assert_string_equal(again, older);
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "--scenario-from", old, "--format", "fio-json", NULL), 2);
  assert_string_equal(out, "");
  if (!strstr(err, "old.csv: a fio job's result without its job sections") || !strstr(err, "--format json or csv"))
    fail_msg("unclear: %s", err);
}

/* A damaged "# fio section" line is bad input naming its line. */
static void a_bad_section_line_names_its_line(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL), *bad = g_build_filename(dir, "bad.csv", NULL);
  assert_true(g_file_set_contents(job, one_section, -1, NULL));
  const char *argv[] = {"run", job, "--format", "csv", NULL};
  g_autofree char *csv = run_ok(argv);
  char *at = strstr(csv, " group=0 options ");
  assert_non_null(at);
  memcpy(at, " group=x", 8);
  assert_true(g_file_set_contents(bad, csv, -1, NULL));
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "--scenario-from", bad, NULL), 2);
  assert_string_equal(out, "");
  if (!strstr(err, "bad.csv:6: ") || !strstr(err, "group=G")) fail_msg("unclear: %s", err);
}

/* TEXT with FROM replaced by TO (once; FROM must be there). */
static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  if (!at) fail_msg("'%s' not in:\n%s", from, text);
  return g_strdup_printf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* A JSON result whose fio keys or seeds were damaged, and a --seeds file
 * whose seeds no longer start at its scenario.seed: each is bad input, exit
 * 2 and one line naming the file, nothing on stdout. */
static void a_damaged_json_result_or_seeds_line_is_refused(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL), *bad = g_build_filename(dir, "bad.json", NULL);
  assert_true(g_file_set_contents(job, one_section, -1, NULL));
  const char *argv[] = {"run", job, "--format", "json", "--seeds", "3", "--seed", "4", NULL};
  g_autofree char *json = run_ok(argv);
  const struct {
    const char *from, *to, *says;
  } cases[] = {
      {"\"fio_sections\": [", "\"fio_sections\": 7, \"x\": [", "fio_sections: expected"},
      {"\"name\": \"seq\", \"numjobs\": 2", "\"numjobs\": 2", "fio_sections: expected"},
      {"\"numjobs\": 2,", "\"numjobs\": \"two\",", "fio_sections: expected"},
      {"\"seeds\": [4, 5, 6]", "\"seeds\": [4, 6, 7]", "\"seeds\": expected consecutive seeds"},
      {"\"seeds\": [4, 5, 6]", "\"seeds\": [5, 6, 7]", "its seeds start at 5 but its scenario.seed is 4"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = replaced(json, cases[i].from, cases[i].to);
    assert_true(g_file_set_contents(bad, text, -1, NULL));
    g_autofree char *out = NULL, *err = NULL;
    int rc = test_pcsim(&out, &err, "run", "--scenario-from", bad, "--format", "json", NULL);
    if (rc != 2 || *out || !strstr(err, "bad.json") || !strstr(err, cases[i].says) || strchr(err, '\n') != strrchr(err, '\n'))
      fail_msg("case %zu: exit %d, stdout %zu bytes, stderr '%s', expected exit 2 and '%s'", i, rc, strlen(out), err,
               cases[i].says);
  }
}

/* An accepted option whose value holds blanks and a '%' (description=)
 * comes back from a CSV result as one entry: the CSV rerun as JSON lists
 * fio_accepted as the job's own JSON does. */
static void accepted_values_with_blanks_survive_csv(void **state) {
  g_autofree char *dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL), *csv = g_build_filename(dir, "r.csv", NULL);
  assert_true(g_file_set_contents(job, odd_names, -1, NULL));
  const char *as_json[] = {"run", job, "--format", "json", NULL}, *as_csv[] = {"run", job, "--format", "csv", NULL};
  g_autofree char *json = run_ok(as_json), *text = run_ok(as_csv);
  assert_non_null(strstr(text, "\n# fio accepted thread group_reporting "
                               "description=a%20job,%20with%20\"quotes\"%20=%20and%20100%25%20blanks "));
  assert_true(g_file_set_contents(csv, text, -1, NULL));
  const char *again[] = {"run", "--scenario-from", csv, "--format", "json", NULL};
  g_autofree char *back = run_ok(again);
  const char *key = "\"fio_accepted\": ";
  const char *a = strstr(json, key), *b = strstr(back, key);
  assert_non_null(a);
  assert_non_null(b);
  g_autofree char *la = g_strndup(a, strcspn(a, "\n")), *lb = g_strndup(b, strcspn(b, "\n"));
  assert_string_equal(lb, la);
  assert_non_null(strstr(la, "\"description=a job, with \\\"quotes\\\" = and 100% blanks\""));
}

/* The provenance line of a section reads back to the same section. */
static void section_lines_read_back(void **state) {
  char *options[] = {"name", "a b", "description", "x=y 100% \"q\" \xc3\xa9", "directory", "/tmp/d:e,f", "empty", "",
                     NULL};
  PcsFioSection s = {"my job", 3, options, 2}, back;
  g_autofree char *text = pcs_params_fio_section_text(&s);
  assert_null(strchr(text, '\n'));
  g_autofree char *why = NULL;
  assert_true(pcs_params_fio_section_parse(text, &back, &why));
  assert_string_equal(back.name, "my job");
  assert_int_equal(back.numjobs, 3);
  assert_int_equal(back.group, 2);
  assert_int_equal(g_strv_length(back.options), 8);
  for (int i = 0; i < 8; i++) assert_string_equal(back.options[i], options[i]);
  g_autofree char *again = pcs_params_fio_section_text(&back);
  assert_string_equal(again, text);
  pcs_params_fio_sections_free(g_memdup2(&back, sizeof back), 1);
  assert_false(pcs_params_fio_section_parse("x numjobs=1 group=0 options bs", &back, &why));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(section_lines_read_back),
    cmocka_unit_test(one_section_job_reruns_to_the_byte),
    cmocka_unit_test(two_section_job_reruns_to_the_byte),
    cmocka_unit_test(seeds_result_reruns_to_the_byte),
    cmocka_unit_test(a_result_without_sections_is_refused_for_fio_json),
    cmocka_unit_test(a_bad_section_line_names_its_line),
    cmocka_unit_test(a_damaged_json_result_or_seeds_line_is_refused),
    cmocka_unit_test(accepted_values_with_blanks_survive_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
