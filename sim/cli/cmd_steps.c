/* cmd_steps.c - `pcsim replay` and `pcsim explore`: the step model.
 *
 * The step model (steps.c) reduces the seed's race to atomic INSERT and
 * READ steps with no timing.  `replay` runs one schedule from a file and
 * prints its bios; `explore` enumerates every schedule and reports the
 * distribution of total bios per policy.
 */
#include "cli.h"

#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/scenario.h"
#include "pcsim/steps.h"

#include <string.h>

#define STEP_FORMATS (PCS_FORMAT_BIT(PCS_FORMAT_TABLE) | PCS_FORMAT_BIT(PCS_FORMAT_JSON))

static const char default_step_policies[] = "immediate,pool:16,pool-contig:16,window";


static void replay_json(PcsJson *w, const PcsPolicy *pol, const GArray *bios, const GArray *idle) {
  pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
  pcs_json_string(w, "policy", pol->name);
  pcs_json_uint(w, "total_bios", bios->len);
  pcs_json_begin_array(w, "idle_steps", PCS_JSON_INLINE);
  for (guint i = 0; i < idle->len; i++) pcs_json_uint(w, NULL, g_array_index(idle, guint, i));
  pcs_json_end(w);
  pcs_json_begin_array(w, "bios", PCS_JSON_INLINE);
  for (guint b = 0; b < bios->len; b++) {
    const PcsStepBio *x = &g_array_index(bios, PcsStepBio, b);
    pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
    pcs_json_uint(w, "thread", x->thread);
    pcs_json_uint(w, "first_page", x->first_page);
    pcs_json_uint(w, "pages", x->pages);
    pcs_json_end(w);
  }
  pcs_json_end(w);
  pcs_json_end(w);
}

/* ARG: a schedule file, or a shipped one by name (liubo-diagram). */
static gboolean load_schedule(PcsSchedule *s, const char *arg, GError **error) {
  g_autofree char *name = NULL, *text = NULL;
  memset(s, 0, sizeof *s);
  return pcs_scenario_read(arg, PCS_SCENARIO_SCHED, &name, &text, NULL, error) &&
         pcs_schedule_load_text(s, name, text, strlen(text), error);
}

int pcs_cmd_replay(int argc, char **argv) {
  char **policies = NULL, *format = NULL;
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &policies,
     "Policy to replay under (repeatable; default: immediate). The schedule is turns: under a policy that takes "
     "fewer steps, a turn of a thread that has finished passes idle (listed after total_bios)", "P"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default) or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("SCHEDULE - replay one interleaving of INSERT/READ steps",
      "SCHEDULE is a text file ('#' starts a comment):\n"
      "  threads 4\n  pages 4\n  steps 1 1 2 2 2 3 3 3 3 4 4 4 4 4\n"
      "Each step lets that thread (1-based) take its next atomic step (INSERT p or READ p);\n"
      "a step naming a thread that has finished passes idle (the same turns replay under\n"
      "every policy, though pool:N takes fewer steps than immediate).\n"
      "When the steps run out, unfinished threads run to completion, thread 1 first.\n"
      "Prints every bio in submission order (thread, first_page, pages) and total_bios.", entries);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  PcsSchedule sched = {0};
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g_autoptr(GString) out = g_string_new(NULL);
  int rc = 0;
  if (!pcs_cli_parse(ctx, &argc, &argv, &error) || !pcs_format_parse(format, STEP_FORMATS, &fmt, &error) ||
      !pcs_policy_parse_given(policies, "immediate", "default", pols, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 2) {
    rc = pcs_cli_usage_error("expected one SCHEDULE file");
  } else if (!load_schedule(&sched, argv[1], &error)) {
    rc = pcs_cli_fail(error);
  } else {
    PcsJson w;
    pcs_json_init(&w, out);
    if (fmt == PCS_FORMAT_JSON) {
      pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
      pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
    }
    for (guint i = 0; i < pols->len && !rc; i++) {
      const PcsPolicy *pol = &g_array_index(pols, PcsPolicy, i);
      g_autoptr(GArray) bios = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
      g_autoptr(GArray) idle = g_array_new(FALSE, FALSE, sizeof(guint));
      if (!pcs_steps_replay_turns(&sched, pol, bios, idle, argv[1], &error)) {
        rc = pcs_cli_fail(error);
        break;
      }
      if (fmt == PCS_FORMAT_JSON) {
        replay_json(&w, pol, bios, idle);
      } else {
        g_string_append_printf(out, "%spolicy %s: total_bios %u", i ? "\n" : "", pol->name, bios->len);
        for (guint k = 0; k < idle->len; k++) /* "; steps 13, 14 passed idle (...)" */
          g_string_append_printf(out, "%s%u", k ? ", " : idle->len == 1 ? "; step " : "; steps ",
                                 g_array_index(idle, guint, k));
        if (idle->len)
          g_string_append_printf(out, " passed idle (%s thread had finished under %s)", idle->len == 1 ? "its" : "each one's",
                                 pol->name);
        g_string_append_printf(out, "\n  %-8s %-11s %s\n", "thread", "first_page", "pages");
        for (guint b = 0; b < bios->len; b++) {
          PcsStepBio *x = &g_array_index(bios, PcsStepBio, b);
          g_string_append_printf(out, "  %-8u %-11u %u\n", x->thread, x->first_page, x->pages);
        }
      }
    }
    if (fmt == PCS_FORMAT_JSON && !rc) {
      pcs_json_end(&w);
      pcs_json_end_document(&w);
    }
    if (!rc && !pcs_cli_write_stdout(out)) rc = 1;
  }
  pcs_schedule_clear(&sched);
  g_strfreev(policies);
  g_free(format);
  return rc;
}

static void explore_json(PcsJson *w, const PcsPolicy *pol, uint32_t threads, uint32_t pages, const PcsExplore *e) {
  pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
  pcs_json_string(w, "policy", pol->name);
  pcs_json_uint(w, "threads", threads);
  pcs_json_uint(w, "pages", pages);
  pcs_json_uint(w, "schedules", e->schedules);
  pcs_json_uint(w, "min_bios", e->min_bios);
  pcs_json_uint(w, "max_bios", e->max_bios);
  pcs_json_double(w, "mean_bios", "%.15g", e->mean_bios);
  pcs_json_hist(w, "histogram", e->histogram, e->hist_len);
  pcs_json_double(w, "random_expected_bios", "%.15g", e->random_expected_bios);
  pcs_json_end(w);
}

static void explore_table(GString *out, const PcsPolicy *pol, const PcsExplore *e) {
  g_autoptr(GString) hist = g_string_new(NULL);
  for (uint32_t k = 0; k < e->hist_len; k++)
    if (e->histogram[k]) g_string_append_printf(hist, "%s%u:%" G_GUINT64_FORMAT, hist->len ? " " : "", k, e->histogram[k]);
  g_string_append_printf(out, "%-16s %20" G_GUINT64_FORMAT " %8u %8u %18.15g %18.15g  %s\n", pol->name, e->schedules,
                         e->min_bios, e->max_bios, e->mean_bios, e->random_expected_bios, hist->str);
}

int pcs_cmd_explore(int argc, char **argv) {
  char **policies = NULL, *format = NULL;
  gint threads = 0, pages = 0;
  g_autofree char *threads_doc = g_strdup_printf("Threads, each handed the page list 0..P-1 (1 to %u)",
                                                 PCS_EXPLORE_MAX_THREADS);
  g_autofree char *pages_doc = g_strdup_printf("Pages in the list (1 to %u)", PCS_EXPLORE_MAX_PAGES);
  GOptionEntry entries[] = {
    {"threads", 't', 0, G_OPTION_ARG_INT, &threads, threads_doc, "T"},
    {"pages", 'n', 0, G_OPTION_ARG_INT, &pages, pages_doc, "P"},
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &policies,
     "Policy (repeatable; default: immediate, pool:16, pool-contig:16, window)", "P"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default) or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autofree char *about = g_strdup_printf(
      "Enumerates every complete schedule (memoised on state) and reports per policy:\n"
      "schedules, min_bios, max_bios, mean_bios (each schedule counted once), the\n"
      "histogram (total bios -> schedules) and random_expected_bios (a scheduler that\n"
      "picks uniformly among unfinished threads at every step).  Sizes up to\n"
      "threads*pages = %u are accepted; 2x8, 3x6 and 4x4 finish within a second,\n"
      "the largest accepted sizes take minutes.", PCS_EXPLORE_MAX_CELLS);
  g_autoptr(GOptionContext) ctx =
      pcs_cli_context("- count the bios of every schedule of the step model", about, entries);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g_autoptr(GString) out = g_string_new(NULL);
  int rc = 0;
  if (!pcs_cli_parse(ctx, &argc, &argv, &error) || !pcs_format_parse(format, STEP_FORMATS, &fmt, &error) ||
      !pcs_policy_parse_given(policies, default_step_policies, "default", pols, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 1 || threads < 1 || pages < 1) {
    rc = pcs_cli_usage_error("expected --threads T >= 1 and --pages P >= 1");
  } else {
    PcsJson w;
    pcs_json_init(&w, out);
    if (fmt == PCS_FORMAT_JSON) {
      pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
      pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
    } else {
      g_string_append_printf(out, "threads %d, pages %d\n%-16s %20s %8s %8s %18s %18s  %s\n", threads, pages, "policy",
                             "schedules", "min_bios", "max_bios", "mean_bios", "random_expected", "histogram");
    }
    for (guint i = 0; i < pols->len && !rc; i++) {
      PcsExplore e;
      const PcsPolicy *pol = &g_array_index(pols, PcsPolicy, i);
      if (!pcs_steps_explore((uint32_t)threads, (uint32_t)pages, pol, &e, &error)) {
        rc = pcs_cli_fail(error);
        break;
      }
      if (fmt == PCS_FORMAT_JSON)
        explore_json(&w, pol, (uint32_t)threads, (uint32_t)pages, &e);
      else
        explore_table(out, pol, &e);
      pcs_explore_clear(&e);
    }
    if (fmt == PCS_FORMAT_JSON && !rc) {
      pcs_json_end(&w);
      pcs_json_end_document(&w);
    }
    if (!rc && !pcs_cli_write_stdout(out)) rc = 1;
  }
  g_strfreev(policies);
  g_free(format);
  return rc;
}

