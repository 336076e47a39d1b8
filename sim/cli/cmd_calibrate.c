/* cmd_calibrate.c - `pcsim calibrate TRACE... [--model BASE.ini]
 * [--machine machine.txt] [--keys KEY,..] [--out NEW.ini]`: a scenario estimated from real
 * kernel traces (sim/formats/calibrate.c says what each value comes from).
 *
 * Traces are read one at a time with their events kept, their samples taken
 * and their events freed before the next, so memory follows one trace.
 * Nothing is written until every trace has been read and the scenario
 * parses back; the output goes through the atomic writer.
 */
#include "cli.h"

#include "pcsim/calibrate.h"
#include "pcsim/ktrace.h"

/* The kernel= word of a machine file ("kernel=6.18.44-fc-v1045"): its
 * major version, or 0. */
static guint machine_kernel(const char *path) {
  g_autofree char *text = NULL;
  if (!path || !g_file_get_contents(path, &text, NULL, NULL)) return 0;
  g_auto(GStrv) words = g_strsplit_set(text, " \t\n", -1);
  for (char **w = words; *w; w++)
    if (g_str_has_prefix(*w, "kernel=")) return (guint)g_ascii_strtoull(*w + strlen("kernel="), NULL, 10);
  return 0;
}

/* The traces' kernel, major version: kernel= of --machine, else of the
 * machine.txt scripts/capture-kernel-trace writes beside the trace or one
 * directory up; else 6 when the trace has readahead tracepoint lines with
 * ra_pages (page_cache_sync_ra, which the v3.5 kernels pcsim models lack);
 * 0 when nothing tells. */
static guint traces_kernel(const char *machine, const char *trace, gboolean ra_events) {
  guint k = machine_kernel(machine);
  g_autofree char *dir = g_path_get_dirname(trace), *up = g_path_get_dirname(dir);
  const char *dirs[] = {dir, up};
  for (size_t i = 0; !k && i < G_N_ELEMENTS(dirs); i++) {
    g_autofree char *beside = g_build_filename(dirs[i], "machine.txt", NULL);
    k = machine_kernel(beside);
  }
  return k ? k : ra_events ? 6 : 0;
}

/* Without --model: the shipped scenario of the traces' kernel (a 6.x
 * trace: Linux 6.18 on btrfs; else the defaults), named after OUTFILE or
 * the first trace (NAME.ini, NAME.ftrace.txt.gz -> NAME). */
static gboolean default_base(PcsParams *base, guint kernel, const char *outfile, const char *trace, char **base_name,
                             GError **error) {
  g_autofree char *model = kernel >= 6 ? pcs_cli_default_model() : NULL;
  if (model && !pcs_cli_load_scenario(model, NULL, NULL, base, error)) return FALSE;
  if (model) {
    g_autofree char *file = g_path_get_basename(model);
    *base_name = g_strdup_printf("%s (no --model: the shipped scenario of the traces' kernel, %u.x)", file, kernel);
  }
  g_autofree char *name = g_path_get_basename(outfile && strcmp(outfile, "-") ? outfile : trace);
  name[strcspn(name, ".")] = 0;
  if (!*name) return TRUE;
  if (!pcs_params_set(base, pcs_params_find("scenario", "name"), name, "calibrate", error)) return FALSE;
  pcs_params_mark(base, "scenario.name", PCS_LINE_CLI); /* written out like a key the base's file set */
  return TRUE;
}

static gboolean calibrate(char **traces, const char *model, const char *machine, const char *keys,
                          const char *outfile, GString *out, GError **error) {
  PcsParams base;
  pcs_params_init(&base);
  g_autoptr(PcsCalibration) c = pcs_calibrate_new();
  gboolean ok = TRUE, ra_events = FALSE;
  for (char **t = traces; ok && *t; t++) {
    PcsKtrace k;
    ok = pcs_ktrace_load_flags(&k, *t, PCS_KTRACE_KEEP_EVENTS, error) && pcs_calibrate_add_trace(c, &k, error);
    if (ok && t == traces) ra_events = k.mech.ra_pages > 0;
    pcs_ktrace_clear(&k);
    if (pcs_cli_signal) ok = FALSE, g_set_error(error, PCS_ERROR, PCS_ERROR_CANCELLED, "interrupted");
  }
  if (ok && machine) ok = pcs_calibrate_add_machine(c, machine, error);
  g_autofree char *name = model ? g_path_get_basename(model) : NULL;
  if (ok && model) ok = pcs_cli_load_scenario(model, NULL, NULL, &base, error);
  if (ok && !model)
    ok = default_base(&base, traces_kernel(machine, traces[0], ra_events), outfile, traces[0], &name, error);
  if (ok) pcs_calibrate_finish(c, &base);
  if (ok && keys) {
    g_auto(GStrv) list = g_strsplit(keys, ",", -1);
    ok = pcs_calibrate_keep_only(c, (const char *const *)list, error);
  }
  if (ok) ok = pcs_calibrate_scenario(c, &base, name, out, error);
  pcs_params_clear(&base);
  return ok;
}

int pcs_cmd_calibrate(int argc, char **argv) {
  char *model = NULL, *machine = NULL, *outfile = NULL, *keys = NULL;
  GOptionEntry entries[] = {
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &model,
     "base scenario: its other keys are carried over (default: the shipped scenario of the traces' kernel, "
     "linux-6.18-btrfs for a 6.x trace)", "BASE.ini"},
    {"machine", 0, 0, G_OPTION_ARG_FILENAME, &machine, "the capture's machine file (queue limits, CPUs)",
     "machine.txt"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &outfile, "write the scenario here (default: standard output)", "NEW.ini"},
    {"keys", 0, 0, G_OPTION_ARG_STRING, &keys,
     "estimate only these keys (section.key, comma-separated, e.g. cost.insert_won,cost.read_setup,cost.bio_submit: "
     "a machine's insert path with the base's device); the others keep the base's value",
     "KEY,..."},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context(
    "TRACE... - estimate a scenario's device, costs and memory from real kernel traces",
    "Estimates a scenario from real kernel traces (ftrace text with the mechanism\n"
    "events scripts/capture-kernel-trace records, plain or gzip), each value from\n"
    "the events that show it, without running the simulator:\n"
    "  device.latency, device.bandwidth  block_rq_issue -> block_rq_complete,\n"
    "      service time against request size (least squares), requests issued\n"
    "      with no other in flight preferred; device.queue_depth: most in flight\n"
    "  cost.insert_won  spacing of one thread's uninterrupted page inserts, less\n"
    "      the base's tree_lock_hold and lru_drain / 31; on a machine faster than\n"
    "      that split allows, split in the base's proportions, cost.insert_alloc\n"
    "      and cost.lru_drain scaled with it\n"
    "  cost.read_setup, cost.bio_submit  gap before each bio of a readahead batch\n"
    "      against its pages: gap = bio_submit + pages * read_setup\n"
    "  memory.contiguous_share  share of a thread's consecutive inserts whose\n"
    "      frame (pfn) follows the previous one's\n"
    "  readahead.read_ahead_kb  ra_pages of the readahead events * 4 KiB, halved\n"
    "      when the base's fadvise_hint doubles the window\n"
    "  block.max_sectors, max_segments, max_segment_size, cpu.count  --machine\n"
    "Several traces pool their events; each comment gives the per-trace spread.\n"
    "A value the events cannot show keeps the base's, marked NOT MEASURED; so does\n"
    "one --keys leaves out.\n"
    "A trace without page inserts (pfn) or paired requests is refused (exit 2).",
    entries);
  GError *error = NULL;
  int rc = 0;
  g_autoptr(GString) out = g_string_new(NULL);
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc < 2) {
    rc = pcs_cli_usage_error("expected one or more TRACE files");
  } else if (!pcs_cli_output_check("--out", outfile, FALSE, &error) ||
             !calibrate(argv + 1, model, machine, keys, outfile, out, &error) || !pcs_cli_write_file(outfile, out, &error)) {
    rc = pcs_cli_fail(error);
  }
  g_free(model), g_free(machine), g_free(outfile), g_free(keys);
  return rc;
}
