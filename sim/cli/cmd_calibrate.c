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

static gboolean calibrate(char **traces, const char *model, const char *machine, const char *keys, GString *out,
                          GError **error) {
  PcsParams base;
  pcs_params_init(&base);
  g_autoptr(PcsCalibration) c = pcs_calibrate_new();
  gboolean ok = pcs_cli_load_scenario(model, NULL, NULL, &base, error);
  for (char **t = traces; ok && *t; t++) {
    PcsKtrace k;
    ok = pcs_ktrace_load_flags(&k, *t, PCS_KTRACE_KEEP_EVENTS, error) && pcs_calibrate_add_trace(c, &k, error);
    pcs_ktrace_clear(&k);
    if (pcs_cli_signal) ok = FALSE, g_set_error(error, PCS_ERROR, PCS_ERROR_CANCELLED, "interrupted");
  }
  if (ok && machine) ok = pcs_calibrate_add_machine(c, machine, error);
  if (ok) pcs_calibrate_finish(c, &base);
  if (ok && keys) {
    g_auto(GStrv) list = g_strsplit(keys, ",", -1);
    ok = pcs_calibrate_keep_only(c, (const char *const *)list, error);
  }
  if (ok) {
    g_autofree char *name = model ? g_path_get_basename(model) : NULL;
    ok = pcs_calibrate_scenario(c, &base, name, out, error);
  }
  pcs_params_clear(&base);
  return ok;
}

int pcs_cmd_calibrate(int argc, char **argv) {
  char *model = NULL, *machine = NULL, *outfile = NULL, *keys = NULL;
  GOptionEntry entries[] = {
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &model, "base scenario: its other keys are carried over", "BASE.ini"},
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
    "  readahead.max_window  ra_pages of the readahead events * 4096\n"
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
  } else if (!calibrate(argv + 1, model, machine, keys, out, &error) || !pcs_cli_write_file(outfile, out, &error)) {
    rc = pcs_cli_fail(error);
  }
  g_free(model), g_free(machine), g_free(outfile), g_free(keys);
  return rc;
}
