/* test_docs.c - the documentation says what the tree holds.
 *
 * docs/params.md is `pcsim params --markdown` under a fixed header; every
 * relative link and every path in backquotes in README.md, docs/NAME.md and
 * docs/notebook/NAME.md names a file that exists (and a #fragment a heading of
 * that file); each page of docs/ and the notebook's index are linked from the
 * README, each notebook page from the index; the README is a front page of at
 * most 300 lines and its seed block is what `pcsim run workloads/liubo-2011.ini`
 * prints and its validation table is docs/validation.md's calibrated summary;
 * every `pcsim run` output block in the README and docs/NAME.md (a ``` block
 * whose first line is "scenario ...") is what the command named just before it
 * prints;
 * the README's model walk names files that are in sim/model/;
 * plots/render refuses to record a version that cannot be checked out.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "support.h"
#include "pcsim/fio.h"

/* Append FOLDER/NAME.md for every NAME.md in FOLDER (relative to the source
 * tree), sorted. */
static void add_md_files(GPtrArray *docs, const char *folder) {
  g_autofree char *dir = test_path(folder);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = g_dir_open(dir, 0, &error);
  if (!d) fail_msg("%s", error->message);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
  for (const char *n; (n = g_dir_read_name(d));)
    if (g_str_has_suffix(n, ".md")) g_ptr_array_add(names, g_strdup(n));
  g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
  for (guint i = 0; i < names->len; i++) g_ptr_array_add(docs, g_build_filename(folder, names->pdata[i], NULL));
}

/* README.md and every docs/NAME.md (the reference), as paths relative to
 * the source tree. */
static GPtrArray *doc_files(void) {
  GPtrArray *docs = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(docs, g_strdup("README.md"));
  add_md_files(docs, "docs");
  return docs;
}

/* Every docs/notebook/NAME.md (the dated notebook and its index README.md). */
static GPtrArray *notebook_files(void) {
  GPtrArray *docs = g_ptr_array_new_with_free_func(g_free);
  add_md_files(docs, "docs/notebook");
  return docs;
}

static char *read_source(const char *relative) {
  g_autofree char *path = test_path(relative);
  char *text = NULL;
  g_autoptr(GError) error = NULL;
  if (!g_file_get_contents(path, &text, NULL, &error)) fail_msg("%s", error->message);
  return text;
}

/* The lines of TEXT outside ``` fences, each with its line number. */
typedef void (*LineFn)(const char *doc, int lineno, const char *line, gpointer data);

static void each_prose_line(const char *doc, const char *text, LineFn fn, gpointer data) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  gboolean fenced = FALSE;
  for (int i = 0; lines[i]; i++) {
    if (g_str_has_prefix(lines[i], "```")) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) fn(doc, i + 1, lines[i], data);
  }
}

/* GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'. */
static char *heading_anchor(const char *heading) {
  GString *a = g_string_new(NULL);
  for (const char *c = heading; *c; c++) {
    if (g_ascii_isalnum(*c) || *c == '-' || *c == '_')
      g_string_append_c(a, g_ascii_tolower(*c));
    else if (*c == ' ')
      g_string_append_c(a, '-');
  }
  return g_string_free(a, FALSE);
}

static gboolean has_heading(const char *relative, const char *anchor) {
  g_autofree char *text = read_source(relative);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  gboolean fenced = FALSE;
  for (int i = 0; lines[i]; i++) {
    if (g_str_has_prefix(lines[i], "```")) fenced = !fenced;
    if (fenced || lines[i][0] != '#') continue;
    g_autofree char *a = heading_anchor(lines[i] + strspn(lines[i], "# "));
    if (strcmp(a, anchor) == 0) return TRUE;
  }
  return FALSE;
}

/* "docs/../plots/x.png" -> "plots/x.png"; NULL when it leaves the tree. */
static char *normalise(const char *relative) {
  g_auto(GStrv) parts = g_strsplit(relative, "/", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new();
  for (int i = 0; parts[i]; i++) {
    if (!*parts[i] || strcmp(parts[i], ".") == 0) continue;
    if (strcmp(parts[i], "..") != 0) {
      g_ptr_array_add(kept, parts[i]);
      continue;
    }
    if (kept->len == 0) return NULL;
    g_ptr_array_set_size(kept, (gint)kept->len - 1);
  }
  g_ptr_array_add(kept, NULL);
  return g_strjoinv("/", (char **)kept->pdata);
}

typedef struct {
  GString *broken; /* one line per bad reference */
  GPtrArray *targets; /* every link target seen, relative to the source tree */
} LinkCheck;

static void check_link(const char *doc, int lineno, const char *target, LinkCheck *lc) {
  if (strstr(target, "://") || g_str_has_prefix(target, "mailto:")) return;
  g_autofree char *file = g_strdup(target);
  char *hash = strchr(file, '#');
  g_autofree char *anchor = hash ? g_strdup(hash + 1) : NULL;
  if (hash) *hash = '\0';
  g_autofree char *docdir = g_path_get_dirname(doc);
  /* "#x" alone points into DOC itself. */
  g_autofree char *joined = *file ? g_build_filename(docdir, file, NULL) : g_strdup(doc);
  g_autofree char *rel = normalise(joined);
  g_autofree char *abs = rel ? test_path(rel) : NULL;
  if (!abs || !g_file_test(abs, G_FILE_TEST_EXISTS)) {
    g_string_append_printf(lc->broken, "%s:%d: link to %s: no such file %s\n", doc, lineno, target,
                           rel ? rel : joined);
    return;
  }
  if (anchor && g_str_has_suffix(rel, ".md") && !has_heading(rel, anchor))
    g_string_append_printf(lc->broken, "%s:%d: link to %s: %s has no heading #%s\n", doc, lineno, target, rel,
                           anchor);
  g_ptr_array_add(lc->targets, g_strdup(rel));
}

/* Markdown links and images, [text](target) and ![alt](target). */
static void check_links_in_line(const char *doc, int lineno, const char *line, gpointer data) {
  for (const char *p = line; (p = strstr(p, "](")); p++) {
    const char *start = p + 2, *end = start + strcspn(start, ") ");
    g_autofree char *target = g_strndup(start, (gsize)(end - start));
    if (*target) check_link(doc, lineno, target, data);
  }
}

/* A path in backquotes under a top-level folder of the tree: `sim/model/alloc.c`. */
static void check_paths_in_line(const char *doc, int lineno, const char *line, gpointer data) {
  static const char *const roots[] = {"sim/", "include/", "tests/", "scripts/", "workloads/", "plots/", "docs/", ".ci/"};
  LinkCheck *lc = data;
  g_auto(GStrv) parts = g_strsplit(line, "`", -1);
  /* Odd-numbered parts are inside backquotes; the last one only if closed. */
  for (guint i = 1, n = g_strv_length(parts); i + 1 < n; i += 2) {
    const char *span = parts[i];
    if (span[strspn(span, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-/")]) continue;
    for (size_t r = 0; r < G_N_ELEMENTS(roots); r++) {
      if (!g_str_has_prefix(span, roots[r])) continue;
      g_autofree char *abs = test_path(span);
      if (!g_file_test(abs, G_FILE_TEST_EXISTS))
        g_string_append_printf(lc->broken, "%s:%d: `%s`: no such file or directory\n", doc, lineno, span);
    }
  }
}

/* docs/fio.md's option table names every option fio.c decides on by name
 * (`name` in its first column), so a user sees what each does in pcsim. */
static void fio_md_lists_every_option_pcsim_decides_on(void **state) {
  g_autofree char *path = test_path("docs/fio.md");
  g_autofree char *text = NULL;
  assert_true(g_file_get_contents(path, &text, NULL, NULL));
  const char *table = strstr(text, "## Every option");
  assert_non_null(table);
  for (size_t i = 0; pcs_fio_rule_name(i); i++) {
    g_autofree char *cell = g_strdup_printf("| `%s`", pcs_fio_rule_name(i));
    if (!strstr(table, cell)) fail_msg("docs/fio.md's option table lacks %s", pcs_fio_rule_name(i));
  }
}

static void params_md_is_what_pcsim_params_prints(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "params", "--markdown", NULL), 0);
  assert_true(g_str_has_prefix(out, "| key |"));
  g_autofree char *doc = read_source("docs/params.md");
  /* A fixed header (written by scripts/update-docs), then the table. */
  const char *table = strstr(doc, "\n| key |");
  const char *why = NULL;
  if (!g_str_has_prefix(doc, "# Scenario parameters\n"))
    why = "it does not start with the header scripts/update-docs writes";
  else if (!table)
    why = "it has no table";
  else if (strcmp(table + 1, out) != 0)
    why = "its table differs from `pcsim params --markdown`";
  if (why) {
    /* Name the first line that differs, so the failure says what changed. */
    g_auto(GStrv) want = g_strsplit(out, "\n", -1);
    g_auto(GStrv) have = g_strsplit(table ? table + 1 : "", "\n", -1);
    int i = 0;
    while (want[i] && have[i] && strcmp(want[i], have[i]) == 0) i++;
    fail_msg("docs/params.md is out of date (%s): run scripts/update-docs\n"
             "  first difference, table line %d:\n  pcsim params: %s\n  docs/params.md: %s",
             why, i + 1, want[i] ? want[i] : "(end)", have[i] ? have[i] : "(end)");
  }
}

static void relative_links_and_paths_point_to_files(void **state) {
  g_autoptr(GPtrArray) docs = doc_files();
  g_autoptr(GPtrArray) notebook = notebook_files();
  assert_true(notebook->len >= 2); /* the index and at least one dated page */
  for (guint i = 0; i < notebook->len; i++) g_ptr_array_add(docs, g_strdup(notebook->pdata[i]));
  LinkCheck lc = {g_string_new(NULL), g_ptr_array_new_with_free_func(g_free)};
  int links = 0;
  for (guint i = 0; i < docs->len; i++) {
    g_autofree char *text = read_source(docs->pdata[i]);
    guint before = lc.targets->len;
    each_prose_line(docs->pdata[i], text, check_links_in_line, &lc);
    each_prose_line(docs->pdata[i], text, check_paths_in_line, &lc);
    links += (int)(lc.targets->len - before);
  }
  g_autofree char *broken = g_string_free(lc.broken, FALSE);
  g_ptr_array_unref(lc.targets);
  if (*broken) fail_msg("broken references in the docs:\n%s", broken);
  assert_true(links >= 10); /* the scan found the README's links to docs/ */
}

/* The link targets of FROM (relative to the source tree). */
static GPtrArray *links_of(const char *from) {
  LinkCheck lc = {g_string_new(NULL), g_ptr_array_new_with_free_func(g_free)};
  g_autofree char *text = read_source(from);
  each_prose_line(from, text, check_links_in_line, &lc);
  g_string_free(lc.broken, TRUE);
  return lc.targets;
}

static gboolean links_to(GPtrArray *targets, const char *doc) {
  for (guint t = 0; t < targets->len; t++)
    if (strcmp(targets->pdata[t], doc) == 0) return TRUE;
  return FALSE;
}

static void every_doc_is_linked_from_the_readme(void **state) {
  g_autoptr(GPtrArray) docs = doc_files();
  g_autoptr(GPtrArray) readme = links_of("README.md");
  assert_true(docs->len > 1);
  for (guint i = 1; i < docs->len; i++)
    if (!links_to(readme, docs->pdata[i]))
      fail_msg("%s is not linked from README.md (add it to the table under \"More\")", (char *)docs->pdata[i]);
  /* the notebook: its index from the README, each dated page from the index */
  if (!links_to(readme, "docs/notebook/README.md")) fail_msg("docs/notebook/README.md is not linked from README.md");
  g_autoptr(GPtrArray) notebook = notebook_files();
  g_autoptr(GPtrArray) index = links_of("docs/notebook/README.md");
  for (guint i = 0; i < notebook->len; i++)
    if (strcmp(notebook->pdata[i], "docs/notebook/README.md") != 0 && !links_to(index, notebook->pdata[i]))
      fail_msg("%s is not linked from the notebook's index, docs/notebook/README.md", (char *)notebook->pdata[i]);
}

/* The README is a front page: reference goes to docs/, dated logs to the notebook. */
static void readme_is_at_most_300_lines(void **state) {
  g_autofree char *readme = read_source("README.md");
  int lines = 0;
  for (const char *c = readme; *c; c++) lines += *c == '\n';
  if (lines > 300)
    fail_msg("README.md has %d lines, more than the front page's 300: move reference to docs/ and dated notes to "
             "docs/notebook/",
             lines);
  assert_true(lines >= 100); /* the count saw the whole file */
}

/* The README's seed block (the first ``` block of "## The seed, reproduced")
 * is what `pcsim run workloads/liubo-2011.ini` prints, byte for byte. */
static void readme_seed_block_is_what_pcsim_prints(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", NULL), 0);
  g_autofree char *readme = read_source("README.md");
  const char *section = strstr(readme, "\n## The seed, reproduced\n");
  assert_non_null(section);
  const char *open = strstr(section, "\n```\n");
  assert_non_null(open);
  open += strlen("\n```\n");
  const char *close = strstr(open, "```\n");
  assert_non_null(close);
  g_autofree char *block = g_strndup(open, (gsize)(close - open));
  if (strcmp(block, out) != 0)
    fail_msg("README.md's seed block differs from `pcsim run workloads/liubo-2011.ini` (scripts/update-docs rewrites "
             "it; check the seed's figures in docs/scenarios.md too):\n--- README\n%s--- pcsim\n%s",
             block, out);
}

/* The command a doc names for the ``` block opening at LINES[FENCE]: the last
 * span in backquotes that starts "build/pcsim run " or "pcsim run " in the
 * paragraph just before the fence (blank lines between allowed), as written
 * ("build/pcsim run workloads/nvme-fast.ini"); NULL without one.
 * scripts/update-docs finds it the same way. */
static char *command_before(char **lines, int fence) {
  int k = fence - 1;
  while (k >= 0 && !*lines[k]) k--;
  GString *para = g_string_new(NULL);
  for (; k >= 0 && *lines[k] && !g_str_has_prefix(lines[k], "```"); k--) {
    g_string_prepend_c(para, ' ');
    g_string_prepend(para, lines[k]);
  }
  g_auto(GStrv) parts = g_strsplit(para->str, "`", -1);
  g_string_free(para, TRUE);
  const char *last = NULL;
  /* Odd-numbered parts are inside backquotes; the last one only if closed. */
  for (guint i = 1, n = g_strv_length(parts); i + 1 < n; i += 2)
    if (g_str_has_prefix(parts[i], "build/pcsim run ") || g_str_has_prefix(parts[i], "pcsim run ")) last = parts[i];
  return g_strdup(last);
}

/* Check DOC's `pcsim run` output blocks (``` blocks whose first line starts
 * "scenario "); append what is wrong to BAD; return how many were checked. */
static int check_run_blocks(const char *doc, GString *bad) {
  g_autofree char *text = read_source(doc);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int checked = 0;
  for (int i = 0; lines[i]; i++) {
    if (!g_str_has_prefix(lines[i], "```")) continue;
    int close = i + 1;
    while (lines[close] && !g_str_has_prefix(lines[close], "```")) close++;
    if (!lines[close]) break; /* an unclosed fence: nothing after it is a block */
    gboolean output = strcmp(lines[i], "```") == 0 && close > i + 1 && g_str_has_prefix(lines[i + 1], "scenario ");
    int open = i;
    i = close;
    if (!output) continue;
    g_autofree char *command = command_before(lines, open);
    if (!command) {
      g_string_append_printf(bad, "%s:%d: a `pcsim run` output block with no `build/pcsim run ...` in backquotes in "
                                  "the paragraph before it\n", doc, open + 1);
      continue;
    }
    g_auto(GStrv) argv = NULL;
    g_autoptr(GError) error = NULL;
    if (strpbrk(command, "|<>;&$") || !g_shell_parse_argv(command, NULL, &argv, &error)) {
      g_string_append_printf(bad, "%s:%d: `%s` is not a plain pcsim command\n", doc, open + 1, command);
      continue;
    }
    g_autofree char *out = NULL, *err = NULL;
    int rc = test_pcsim_argv(&out, &err, FALSE, (const char *const *)argv + 1);
    GString *block = g_string_new(NULL);
    for (int k = open + 1; k < close; k++) g_string_append_printf(block, "%s\n", lines[k]);
    g_autofree char *quoted = g_string_free(block, FALSE);
    checked++;
    if (rc != 0) {
      g_string_append_printf(bad, "%s:%d: `%s` exits %d: %s", doc, open + 1, command, rc, err);
      continue;
    }
    if (strcmp(quoted, out) == 0) continue;
    /* Name the first line that differs, so the failure says what changed. */
    g_auto(GStrv) want = g_strsplit(out, "\n", -1);
    g_auto(GStrv) have = g_strsplit(quoted, "\n", -1);
    int l = 0;
    while (want[l] && have[l] && strcmp(want[l], have[l]) == 0) l++;
    g_string_append_printf(bad, "%s:%d: the block differs from `%s` (scripts/update-docs rewrites it; check the "
                                "prose around it too), first at the block's line %d:\n  pcsim: %s\n  doc:   %s\n",
                           doc, open + 1 + l + 1, command, l + 1, want[l] ? want[l] : "(end)", have[l] ? have[l] : "(end)");
  }
  return checked;
}

/* Every `pcsim run` output block in the README and docs/NAME.md is what the
 * command named just before it prints, byte for byte: the shipped scenarios'
 * tables in docs/scenarios.md, the calibration's, the seeds' table. */
static void run_output_blocks_are_what_pcsim_prints(void **state) {
  g_autoptr(GPtrArray) docs = doc_files();
  g_autoptr(GString) bad = g_string_new(NULL);
  int checked = 0, scenarios_md = 0;
  for (guint i = 0; i < docs->len; i++) {
    int n = check_run_blocks(docs->pdata[i], bad);
    checked += n;
    if (strcmp(docs->pdata[i], "docs/scenarios.md") == 0) scenarios_md = n;
  }
  if (bad->len) fail_msg("`pcsim run` output quoted in the docs is out of date:\n%s", bad->str);
  assert_true(scenarios_md >= 4); /* single-thread, eight-threads, nvme-fast, the calibration */
  assert_true(checked >= scenarios_md + 2); /* the README's seed block, docs/seeds.md's table */
}

/* The text between "<!-- validate-6.18 NAME begin" and "<!-- validate-6.18 NAME
 * end" in TEXT, without the marker lines; NULL without both. */
static char *marked_block(const char *text, const char *name) {
  g_autofree char *begin = g_strdup_printf("<!-- validate-6.18 %s begin", name);
  g_autofree char *end = g_strdup_printf("<!-- validate-6.18 %s end", name);
  const char *b = strstr(text, begin), *e = strstr(text, end);
  if (!b || !e) return NULL;
  b = strchr(b, '\n');
  if (!b || b + 1 > e) return NULL;
  return g_strndup(b + 1, (gsize)(e - (b + 1)));
}

/* The README's validation table is the summary scripts/validate-6.18
 * --calibrated writes at the top of docs/validation.md's calibrated block,
 * byte for byte: the front page quotes no count the command did not give. */
static void readme_validation_table_is_the_calibrated_summary(void **state) {
  g_autofree char *readme = read_source("README.md");
  g_autofree char *validation = read_source("docs/validation.md");
  g_autofree char *summary = marked_block(readme, "summary");
  g_autofree char *calibrated = marked_block(validation, "calibrated");
  if (!summary) fail_msg("README.md has no \"validate-6.18 summary\" markers (scripts/validate-6.18 --calibrated fills them)");
  assert_non_null(calibrated);
  if (!g_str_has_prefix(summary, "| rows | sessions | rows that hold |"))
    fail_msg("README.md's summary block is not the summary table:\n%s", summary);
  if (!strstr(calibrated, summary))
    fail_msg("README.md's validation table is not docs/validation.md's calibrated summary (rerun scripts/validate-6.18 "
             "--calibrated):\n--- README\n%s", summary);
  assert_non_null(strstr(summary, "| all | ")); /* the table's last row was read */
}

/* The README's model section names files as `reader.c`: each is in sim/model/. */
static void model_walk_names_files_in_sim_model(void **state) {
  g_autofree char *readme = read_source("README.md");
  const char *start = strstr(readme, "\n## The model\n");
  assert_non_null(start);
  const char *end = strstr(start + 1, "\n## ");
  g_autofree char *section = end ? g_strndup(start, (gsize)(end - start)) : g_strdup(start);
  g_auto(GStrv) parts = g_strsplit(section, "`", -1);
  int files = 0;
  for (guint i = 1, n = g_strv_length(parts); i + 1 < n; i += 2) {
    const char *span = parts[i];
    if (!(g_str_has_suffix(span, ".c") || g_str_has_suffix(span, ".h")) || strchr(span, '/') || strchr(span, ' '))
      continue;
    g_autofree char *rel = g_build_filename("sim", "model", span, NULL);
    g_autofree char *abs = test_path(rel);
    if (!g_file_test(abs, G_FILE_TEST_EXISTS))
      fail_msg("README.md's model section names `%s`, but %s does not exist", span, rel);
    files++;
  }
  assert_true(files >= 8);
}

/* Run bash -c SCRIPT in DIR with ENV ("K=V", NULL-terminated) added; stdout is dropped. */
static int sh(const char *dir, char **env, char **err, const char *script) {
  g_autofree char *out = NULL;
  char *argv[] = {"bash", "-c", (char *)script, NULL};
  g_auto(GStrv) envp = g_get_environ();
  for (char **e = env; e && *e; e++) {
    g_autofree char *k = g_strndup(*e, (gsize)(strchr(*e, '=') - *e));
    envp = g_environ_setenv(envp, k, strchr(*e, '=') + 1, TRUE);
  }
  int status = 0;
  g_autoptr(GError) error = NULL;
  if (!g_spawn_sync(dir, argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, err, &status, &error))
    fail_msg("spawn bash: %s", error->message);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int make_tempdir(void **state) {
  *state = test_tempdir();
  return 0;
}

static int remove_tempdir(void **state) {
  g_autofree char *rm = g_strdup_printf("rm -rf '%s'", (char *)*state);
  sh("/", NULL, NULL, rm);
  g_free(*state);
  return 0;
}

static void render_refuses_a_dirty_tree_or_a_stale_binary(void **state) {
  g_autofree char *git = g_find_program_in_path("git");
  if (!git) {
    print_message("git not found: plots/render's clean-tree check is not tested (apt-get install git)\n");
    skip();
  }
  const char *tmp = *state;
  g_autofree char *repo = g_build_filename(tmp, "repo", NULL);
  g_autofree char *render = test_path("plots/render");
  g_autofree char *log = g_build_filename(tmp, "pcsim.log", NULL);
  g_autofree char *fake = g_build_filename(tmp, "fake-pcsim", NULL);
  /* A pcsim that reports the tree's version (or FAKE_VERSION) and logs its commands. */
  if (!g_file_set_contents(fake,
                           "#!/bin/sh\n"
                           "if [ \"$1\" = --version ]; then\n"
                           "  echo \"pcsim ${FAKE_VERSION:-$(git describe --always --dirty --tags)}\"; exit 0\n"
                           "fi\n"
                           "echo \"$*\" >> \"$FAKE_LOG\"\n",
                           -1, NULL) ||
      g_chmod(fake, 0755) != 0)
    fail_msg("cannot write %s", fake);
  g_autofree char *setup = g_strdup_printf(
      "set -e; mkdir -p '%s/plots' && cd '%s' && cp '%s' plots/render && git init -q . && git add -A && "
      "git -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false commit -qm init && echo junk > junk.txt",
      repo, repo, render);
  g_autofree char *err = NULL;
  if (sh(tmp, NULL, &err, setup) != 0) fail_msg("setting up a git tree: %s", err);
  g_autofree char *log_env = g_strconcat("FAKE_LOG=", log, NULL);
  g_autofree char *run = g_strdup_printf("bash plots/render '%s'", fake);
  char *env[] = {log_env, NULL};

  g_clear_pointer(&err, g_free);
  assert_int_equal(sh(repo, env, &err, run), 1);
  if (!strstr(err, "refusing to render from a dirty tree") || !strstr(err, "junk.txt"))
    fail_msg("plots/render on a dirty tree said: %s", err);
  assert_false(g_file_test(log, G_FILE_TEST_EXISTS)); /* no sweep ran */

  g_clear_pointer(&err, g_free);
  assert_int_equal(sh(repo, NULL, &err, "rm junk.txt"), 0);
  char *stale_env[] = {log_env, "FAKE_VERSION=0123abc-dirty", NULL};
  g_clear_pointer(&err, g_free);
  assert_int_equal(sh(repo, stale_env, &err, run), 1);
  if (!strstr(err, "configured at version '0123abc-dirty'") || !strstr(err, "cmake -S . -B build"))
    fail_msg("plots/render with a stale binary said: %s", err);
  assert_false(g_file_test(log, G_FILE_TEST_EXISTS));

  g_clear_pointer(&err, g_free);
  if (sh(repo, env, &err, run) != 0) fail_msg("plots/render on a clean tree failed: %s", err);
  g_autofree char *ran = NULL;
  assert_true(g_file_get_contents(log, &ran, NULL, NULL));
  assert_non_null(strstr(ran, "sweep workloads/liubo-2011.ini"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(params_md_is_what_pcsim_params_prints),
    cmocka_unit_test(fio_md_lists_every_option_pcsim_decides_on),
      cmocka_unit_test(relative_links_and_paths_point_to_files),
      cmocka_unit_test(every_doc_is_linked_from_the_readme),
      cmocka_unit_test(readme_is_at_most_300_lines),
      cmocka_unit_test(readme_seed_block_is_what_pcsim_prints),
      cmocka_unit_test(run_output_blocks_are_what_pcsim_prints),
      cmocka_unit_test(readme_validation_table_is_the_calibrated_summary),
      cmocka_unit_test(model_walk_names_files_in_sim_model),
      cmocka_unit_test_setup_teardown(render_refuses_a_dirty_tree_or_a_stale_binary, make_tempdir, remove_tempdir),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
