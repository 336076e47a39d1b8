/* cmd_calibrate.c - `pcsim calibrate TRACE... [--model BASE.ini]
 * [--machine machine.txt] [--keys KEY,..] [--out NEW.ini]`: a scenario estimated from real
 * kernel traces (sim/formats/calibrate.c says what each value comes from).
 *
 * The user's path is one command on the capture script's output
 * (scripts/capture-kernel-trace: OUT/NAME/NAME.ftrace.txt.gz beside
 * NAME.fio and NAME.json, OUT/machine.txt): the machine file is --machine,
 * else machine.txt beside the first trace or one folder up; each trace's
 * job and fio JSON are read from beside it when there; the base is the
 * shipped base of the traces' kernel (workloads/linux-6.18-btrfs-base.ini:
 * the kernel's and the platform's facts).  Every value goes to stderr with
 * its source, and the weak ones as warnings; then each one-thread run with
 * its job and JSON is run on the new scenario (seed 1) and printed beside
 * fio's MiB/s and clat p50: a check, not an input.
 *
 * A machine file with fstype=ext4 or xfs makes an ext4 or xfs host (large
 * folios, issue 37); without fstype=, btrfs.
 *
 * Traces are read one at a time with their events kept, their samples taken
 * and their events freed before the next, so memory follows one trace.
 * Nothing is written until every trace has been read and the scenario
 * parses back; the output goes through the atomic writer.
 */
#include "cli.h"

#include "pcsim/calibrate.h"
#include "pcsim/fio.h"
#include "pcsim/ktrace.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/scenario.h"
#include "pcsim/sim.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* FILE beside TRACE or one folder up, or NULL (g_free it). */
static char *beside_or_up(const char *trace, const char *file) {
  g_autofree char *dir = g_path_get_dirname(trace), *up = g_path_get_dirname(dir);
  const char *dirs[] = {dir, up};
  for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
    char *path = g_build_filename(dirs[i], file, NULL);
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) return path;
    g_free(path);
  }
  return NULL;
}

/* TRACE's run name: its file name less .ftrace.txt.gz (or .txt.gz, .gz). */
static char *run_name(const char *trace) {
  char *name = g_path_get_basename(trace);
  const char *ends[] = {".ftrace.txt.gz", ".ftrace.txt", ".txt.gz", ".txt", ".gz"};
  for (size_t i = 0; i < G_N_ELEMENTS(ends); i++)
    if (g_str_has_suffix(name, ends[i]) && strlen(name) > strlen(ends[i])) {
      name[strlen(name) - strlen(ends[i])] = 0;
      break;
    }
  return name;
}

/* NAME.EXT beside TRACE, or NULL (g_free it). */
static char *run_file(const char *trace, const char *ext) {
  g_autofree char *dir = g_path_get_dirname(trace), *name = run_name(trace);
  g_autofree char *file = g_strconcat(name, ext, NULL);
  char *path = g_build_filename(dir, file, NULL);
  if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) return path;
  g_free(path);
  return NULL;
}

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

/* The traces' kernel, major version: kernel= of the machine file (--machine,
 * else the machine.txt scripts/capture-kernel-trace writes beside the trace
 * or one directory up); else 6 when the trace has readahead tracepoint lines with
 * ra_pages (page_cache_sync_ra, which the v3.5 kernels pcsim models lack);
 * 0 when nothing tells. */
static guint traces_kernel(const char *machine, gboolean ra_events) {
  guint k = machine_kernel(machine);
  return k ? k : ra_events ? 6 : 0;
}

/* calibrate's base for a 6.x trace without --model: the kernel's and the
 * platform's facts (workloads/linux-6.18-btrfs-base.ini). */
#define CALIBRATE_BASE_6X "linux-6.18-btrfs-base"

/* The scenario's name from PATH's file name less its extensions
 * (linux-6.18-ext4.ini -> linux-6.18-ext4, ra128-j1-rep1.ftrace.txt.gz ->
 * ra128-j1-rep1): the dots inside a name are kept. */
static char *scenario_name_of(const char *path) {
  static const char *const ext[] = {".gz", ".txt", ".ftrace", ".ini"};
  char *name = g_path_get_basename(path);
  for (size_t i = 0; i < G_N_ELEMENTS(ext); i++) /* ".ini" alone leaves no name: the base's stays */
    if (g_str_has_suffix(name, ext[i])) name[strlen(name) - strlen(ext[i])] = 0;
  return name;
}

/* Without --model: the shipped base of the traces' kernel (a 6.x trace:
 * Linux 6.18 on btrfs; else the defaults) into BASE, its INI text into
 * *BASE_TEXT (NULL for the defaults) and its name for the header into
 * *BASE_NAME; the scenario named after OUTFILE or the first trace
 * (scenario_name_of()). */
static gboolean default_base(PcsParams *base, guint kernel, const char *outfile, const char *trace, char **base_name,
                             char **base_text, GError **error) {
  g_autofree char *model = kernel >= 6 ? g_strdup(CALIBRATE_BASE_6X) : NULL;
  if (model) { /* the shipped one, never a file of that name in the working directory (as `run` takes it) */
    g_autofree char *shipped = NULL;
    if (!pcs_scenario_read(model, PCS_SCENARIO_INI | PCS_SCENARIO_SHIPPED_ONLY, &shipped, base_text, NULL, error) ||
        !pcs_cli_load_scenario_text(shipped, *base_text, NULL, NULL, base, error))
      return FALSE;
  }
  if (model) {
    g_autofree char *file = g_path_get_basename(model);
    *base_name = g_strdup_printf("%s (no --model: the shipped base of the traces' kernel, %u.x)", file, kernel);
  }
  g_autofree char *name = scenario_name_of(outfile && strcmp(outfile, "-") ? outfile : trace);
  if (!*name) return TRUE;
  if (!pcs_params_set(base, pcs_params_find("scenario", "name"), name, "calibrate", error)) return FALSE;
  pcs_params_mark(base, "scenario.name", PCS_LINE_CLI); /* written out like a key the base's file set */
  return TRUE;
}

/* Every estimate on stderr with its source; then the weak ones and those
 * left NOT MEASURED as warnings.  P: the scenario as written. */
/* KEY's value under [SECTION] of the scenario TEXT as written, or NULL. */
static char *written_value(const char *text, const char *section, const char *key) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autofree char *head = g_strdup_printf("[%s]", section), *prefix = g_strdup_printf("%s = ", key);
  gboolean in = FALSE;
  for (char **l = lines; *l; l++) {
    if (**l == '[') in = !strcmp(*l, head);
    else if (in && g_str_has_prefix(*l, prefix)) return g_strdup(*l + strlen(prefix));
  }
  return NULL;
}

static void print_estimates(const PcsCalibration *c, const char *text) {
  g_autoptr(GString) warn = g_string_new(NULL);
  for (int id = 0; id < PCS_CAL_N; id++) {
    const PcsCalEstimate *e = pcs_calibrate_estimate(c, (PcsCalibrateId)id);
    if (!e->comment) continue;
    const char *section = pcs_calibrate_section((PcsCalibrateId)id), *name = pcs_calibrate_key((PcsCalibrateId)id);
    g_autofree char *v = written_value(text, section, name);
    if (!v) v = g_strdup("(the base's, unset)");
    g_autofree char *key = g_strdup_printf("%s.%s = %s", section, name, v);
    /* the comment starts "KEY: " */
    const char *why = g_str_has_prefix(e->comment, name) && e->comment[strlen(name)] == ':'
                        ? e->comment + strlen(name) + 2
                        : e->comment;
    fprintf(stderr, "calibrate: %s%s\n    %s\n", e->measured ? "" : "NOT MEASURED ", key, why);
    if (!e->measured)
      g_string_append_printf(warn, "calibrate: warning: %s NOT MEASURED (the base's value)\n", key);
    else if (e->warning)
      g_string_append_printf(warn, "calibrate: warning: %s is weak: %s\n", key, e->warning);
  }
  fputs(warn->str, stderr);
}

/* Each trace with its job and JSON beside it, run on the new scenario TEXT
 * (its job, its read_ahead_kb, seed 1, the scenario's first policy):
 * pcsim's MiB/s and clat p50 beside fio's.  A check: nothing is fitted to it. */
static void print_check(const PcsCalibration *c, char **traces, const char *text, const PcsParams *base) {
  for (guint i = 0; traces[i] && i < pcs_calibrate_n_traces(c); i++) {
    double mib_s, clat_ns;
    uint64_t bs, threads;
    g_autofree char *job_path = run_file(traces[i], ".fio");
    if (!job_path || !pcs_calibrate_run_info(c, i, &mib_s, &clat_ns, &bs, &threads)) continue;
    uint64_t kb = pcs_calibrate_trace_read_ahead_kb(c, i, base);
    PcsParams p;
    pcs_params_init(&p);
    PcsFioJob job = {0};
    GError *error = NULL;
    g_autoptr(GArray) policies = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
    g_autofree char *ra = g_strdup_printf("readahead.read_ahead_kb=%" G_GUINT64_FORMAT, kb);
    char *sets[] = {kb ? ra : NULL, NULL};
    PcsResult r;
    gboolean ok = pcs_cli_load_scenario_text("calibrated scenario", text, NULL, NULL, &p, &error) &&
                  pcs_fio_load(&job, job_path, &error) && pcs_fio_apply(&job, &p, &error) &&
                  pcs_cli_load_scenario_text("calibrated scenario", NULL, sets, "1", &p, &error) &&
                  pcs_cli_policies(&p, NULL, policies, &error) && policies->len &&
                  pcs_sim_run(&p, &g_array_index(policies, PcsPolicy, 0), NULL, &r, &error);
    if (ok) {
      double sim_mib = pcs_report_value(&r, "aggregate_mib_s"), sim_clat = pcs_report_value(&r, "read_lat_us_p50");
      fprintf(stderr,
              "calibrate: check (not fitted): %s, %" G_GUINT64_FORMAT " thread(s), bs %" G_GUINT64_FORMAT
              ", read_ahead_kb %" G_GUINT64_FORMAT ": fio %.0f MiB/s, clat p50 %.2f us; pcsim (seed 1) %.0f MiB/s "
              "(%.2fx), clat p50 %.2f us (%.2fx)\n",
              pcs_calibrate_trace_name(c, i), threads, bs, kb, mib_s, clat_ns / 1000.0, sim_mib,
              mib_s > 0 ? sim_mib / mib_s : 0.0, sim_clat, clat_ns > 0 ? sim_clat * 1000.0 / clat_ns : 0.0);
      pcs_result_clear(&r);
    } else {
      fprintf(stderr, "calibrate: check of %s not run: %s\n", pcs_calibrate_trace_name(c, i),
              error ? error->message : "no policy");
    }
    g_clear_error(&error);
    pcs_fio_clear(&job);
    pcs_params_clear(&p);
  }
}

/* A and B name one file (its device and inode). */
static gboolean same_file(const char *a, const char *b) {
  GStatBuf sa, sb;
  return g_stat(a, &sa) == 0 && g_stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean calibrate(char **traces, const char *model, const char *given_machine, const char *keys,
                          const char *outfile, gboolean check, GString *out, GError **error) {
  PcsParams base;
  pcs_params_init(&base);
  g_autoptr(PcsCalibration) c = pcs_calibrate_new();
  gboolean ok = TRUE, ra_events = FALSE;
  for (char **t = traces; *t; t++) { /* a trace that is not there, or given twice: that error alone, before any note */
    if (g_access(*t, R_OK) != 0 || g_file_test(*t, G_FILE_TEST_IS_DIR)) {
      int err = g_file_test(*t, G_FILE_TEST_IS_DIR) ? EISDIR : errno;
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: cannot read: %s", *t, g_strerror(err));
      pcs_params_clear(&base);
      return FALSE;
    }
    for (char **u = traces; u < t; u++)
      if (same_file(*t, *u)) {
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: given twice (as %s too): each run counts once", *t, *u);
        pcs_params_clear(&base);
        return FALSE;
      }
  }
  /* the machine file: --machine, else the capture script's machine.txt */
  g_autofree char *found = given_machine ? NULL : beside_or_up(traces[0], "machine.txt");
  const char *machine = given_machine ? given_machine : found;
  if (found) fprintf(stderr, "calibrate: machine file %s (beside the traces or one folder up; --machine names another)\n", found);
  for (char **t = traces; ok && *t; t++) {
    PcsKtrace k;
    ok = pcs_ktrace_load_flags(&k, *t, PCS_KTRACE_KEEP_EVENTS, error) && pcs_calibrate_add_trace(c, &k, error);
    if (ok && t == traces && !machine) /* after the first trace read: a file that is no trace gets its error alone */
      fprintf(stderr, "calibrate: warning: no machine file (no --machine, no machine.txt beside %s or one folder up): "
                      "queue limits and CPUs are the base's\n", traces[0]);
    if (ok && t == traces) ra_events = k.mech.ra_pages > 0;
    pcs_ktrace_clear(&k);
    if (ok) { /* the run's job and fio JSON, as the capture script writes them beside the trace */
      g_autofree char *job = run_file(*t, ".fio"), *json = run_file(*t, ".json");
      if (!job || !json)
        fprintf(stderr, "calibrate: warning: %s: no %s beside it: %s\n", *t,
                !job && !json ? "job file or fio JSON" : !job ? "job file" : "fio JSON",
                !job ? "the window's fadvise_hint is the base's" : "no copy cost or check from fio's latency");
      /* a job pcsim cannot read, or a JSON that is not fio's: said, and calibrated without it */
      const char *files[] = {job, json};
      for (size_t f = 0; f < G_N_ELEMENTS(files); f++) {
        GError *e = NULL;
        if (files[f] && !pcs_calibrate_add_run(c, f ? NULL : files[f], f ? files[f] : NULL, &e)) {
          fprintf(stderr, "calibrate: warning: %s; calibrated without it\n", e->message);
          g_error_free(e);
        }
      }
    }
    if (pcs_cli_signal) ok = FALSE, g_set_error(error, PCS_ERROR, PCS_ERROR_CANCELLED, "interrupted");
  }
  if (ok && machine) ok = pcs_calibrate_add_machine(c, machine, error);
  if (ok) ok = pcs_calibrate_check_filesystem(c, error);
  g_autofree char *name = model ? g_path_get_basename(model) : NULL, *base_text = NULL, *base_path = NULL;
  if (ok && model) /* read once: its text keeps the comments that go with the keys copied from it */
    ok = pcs_scenario_read(model, PCS_SCENARIO_INI, &base_path, &base_text, NULL, error) &&
         pcs_cli_load_scenario_text(base_path, base_text, NULL, NULL, &base, error);
  if (ok && !model)
    ok = default_base(&base, traces_kernel(machine, ra_events), outfile, traces[0], &name, &base_text, error);
  if (ok) pcs_calibrate_finish(c, &base);
  if (ok && keys) {
    g_auto(GStrv) list = g_strsplit(keys, ",", -1);
    ok = pcs_calibrate_keep_only(c, (const char *const *)list, error);
  }
  if (ok) ok = pcs_calibrate_scenario(c, &base, name, base_text, out, error);
  if (ok) {
    print_estimates(c, out->str);
    if (check) print_check(c, traces, out->str, &base);
  }
  pcs_params_clear(&base);
  return ok;
}

/* --out OUTFILE is none of the inputs (a TRACE, --machine's file): the
 * host file would replace the capture it came from.  --model may be
 * refined in place. */
static gboolean out_is_no_input(const char *outfile, char **traces, const char *machine, GError **error) {
  if (!outfile) return TRUE;
  for (char **t = traces; *t; t++) {
    g_autofree char *job = run_file(*t, ".fio"), *json = run_file(*t, ".json"); /* read beside it */
    const char *beside[] = {job, json};
    for (size_t k = 0; k < G_N_ELEMENTS(beside); k++)
      if (beside[k] && same_file(beside[k], outfile)) {
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--out %s: is %s, an input beside the trace %s (name a new file)",
                    outfile, beside[k], *t);
        return FALSE;
      }
    if (same_file(*t, outfile)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--out %s: is the trace %s, an input (name a new file)", outfile, *t);
      return FALSE;
    }
  }
  g_autofree char *found = machine ? NULL : beside_or_up(traces[0], "machine.txt"); /* calibrate()'s machine file */
  const char *m = machine ? machine : found;
  if (m && same_file(m, outfile)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--out %s: is the machine file %s, an input (name a new file)", outfile, m);
    return FALSE;
  }
  return TRUE;
}

int pcs_cmd_calibrate(int argc, char **argv) {
  char *model = NULL, *machine = NULL, *outfile = NULL, *keys = NULL;
  gboolean no_check = FALSE;
  GOptionEntry entries[] = {
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &model,
     "base scenario: its other keys are carried over (default: the shipped base of the traces' kernel, "
     "linux-6.18-btrfs-base for a 6.x trace: the kernel's and the platform's facts)", "BASE.ini"},
    {"machine", 0, 0, G_OPTION_ARG_FILENAME, &machine, "the capture's machine file (queue limits, CPUs, kernel; default: machine.txt beside the first trace or one "
     "folder up)",
     "machine.txt"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &outfile, "write the scenario here (default: standard output)", "NEW.ini"},
    {"keys", 0, 0, G_OPTION_ARG_STRING, &keys,
     "estimate only these keys (section.key, comma-separated, e.g. cost.insert_won,cost.read_setup,cost.bio_submit: "
     "a machine's insert path with the base's device); the others keep the base's value",
     "KEY,..."},
    {"no-check", 0, 0, G_OPTION_ARG_NONE, &no_check,
     "do not run the new scenario on each trace's job to print it beside fio's MiB/s and clat", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context(
    "TRACE... - estimate a scenario's device, costs and memory from real kernel traces",
    "Estimates a complete scenario from real kernel traces (ftrace text with the\n"
    "mechanism events pcsim-capture-kernel-trace records, plain or gzip), each\n"
    "value from the events that show it, without running the simulator.  On the\n"
    "capture script's output it is one command:\n"
    "  pcsim calibrate OUT/ra128-j1-rep1/ra128-j1-rep1.ftrace.txt.gz \\\n"
    "      OUT/ra4096-j1-rep1/ra4096-j1-rep1.ftrace.txt.gz --out host.ini\n"
    "  pcsim run JOB.fio --model host.ini\n"
    "(machine.txt beside the traces or one folder up is the machine file; each\n"
    "trace's NAME.fio and NAME.json beside it are read; the base is the shipped\n"
    "scenario of the traces' kernel).  Each value goes to stderr with its source,\n"
    "weak fits and values NOT MEASURED as warnings, then each one-thread run on the\n"
    "new scenario beside fio's MiB/s and clat (a check, not fitted).\n"
    "  device.latency, device.bandwidth  block_rq_issue -> block_rq_complete,\n"
    "      service time against request size (least squares), requests alone on\n"
    "      the device preferred; device.jitter: their spread over the fit;\n"
    "      device.channels: each overlapping request's requests in flight times its\n"
    "      speed against alone, the median (device.sharing 0: FIFO channels);\n"
    "      device.queue_depth: nr_requests of the machine file, else most in flight;\n"
    "      no fit over sizes (every request timed alone of one size, busy periods\n"
    "      not growing with it): the base's device scaled to that size's median\n"
    "  cost.insert_won  spacing of one thread's uninterrupted page inserts, less\n"
    "      the base's tree_lock_hold and lru_drain / 31; on a machine faster than\n"
    "      that split allows, split in the base's proportions, cost.insert_alloc\n"
    "      and cost.lru_drain scaled with it\n"
    "  cost.read_setup, cost.bio_submit  gap before each bio of a readahead batch\n"
    "      against its pages: gap = bio_submit + pages * read_setup\n"
    "  memory.contiguous_share  share of a thread's consecutive inserts whose\n"
    "      frame (pfn) follows the previous one's\n"
    "  readahead.read_ahead_kb  ra_pages of the readahead events * 4 KiB, halved\n"
    "      when the job's (else the base's) fadvise_hint doubles the window\n"
    "  cost.copy, cost.copy_cold  fio's clat p50 (NAME.json) less cost.syscall, over\n"
    "      bs's pages (NAME.fio): the smallest window's; the largest's when it\n"
    "      exceeds cpu.cache_size (ext4, xfs: copy from the p10, copy_cold 0)\n"
    "  memory.reported_order, cost.touch_reported  free page reporting: the\n"
    "      machine file's page_reporting_order=, and the first touch of a page of\n"
    "      a folio that large: the largest window's clat p50 less the smallest's\n"
    "      p10, over bs's pages (0 when no slower: the capture ran warm; capture\n"
    "      with --settle 3 to make every run cold); that run's requests then stay\n"
    "      out of the device fit.  4 KiB folios (btrfs): the largest window's\n"
    "      one-thread run's readahead windows, each timed from the launch after\n"
    "      it to the next, against their pages whose frames came from free\n"
    "      blocks of that order or more (memory no CPU had touched: a fresh\n"
    "      boot, or reported since): the least-squares slope a page; 0 when no\n"
    "      window is mostly of such pages (a machine up long enough to split\n"
    "      its free memory)\n"
    "  cost.fio_user  fio's user time (NAME.json: usr_cpu x job_runtime) over its\n"
    "      read() calls (read.total_ios), the one-thread runs pooled\n"
    "  block.max_sectors, max_segments, max_segment_size, cpu.count  the machine file\n"
    "  cost.loop_worker, cost.loop_request  the base's loop worker when the machine\n"
    "      file names a loop device (loop=, device=/dev/loopN or dev=7:N) or none\n"
    "      (NOT MEASURED: the traces hold no scheduler events); 0 for another device\n"
    "  scenario.filesystem  ext4 or xfs, the machine file's fstype= (large\n"
    "      folios; none: btrfs, the base's), with readahead.max_folio_order = 9\n"
    "      (the mapping's largest) and bio.csum_leaf_size = 0; cost.insert_won\n"
    "      and cost.insert_page from each\n"
    "      folio's insert time against its pages; cost.read_setup and\n"
    "      cost.bio_submit from the last insert -> bio gap against the window's\n"
    "      pages (the read's per-page part charged with cost.insert_page)\n"
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
  } else if (!pcs_cli_output_check("--out", outfile, FALSE, &error) || !out_is_no_input(outfile, argv + 1, machine, &error) ||
             !calibrate(argv + 1, model, machine, keys, outfile, !no_check, out, &error) || !pcs_cli_write_file(outfile, out, &error)) {
    rc = pcs_cli_fail(error);
  }
  g_free(model), g_free(machine), g_free(outfile), g_free(keys);
  return rc;
}
