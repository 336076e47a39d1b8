/* fiojson.c - results in fio's --output-format=json layout (fio 3.33 stat.c
 * show_thread_status_json(), add_ddir_status_json(), json_add_job_opts(),
 * diskutil.c json_array_add_disk_util()).
 *
 * Models nothing; it maps a PcsResult onto fio's keys, names and units:
 *   - clat_ns and lat_ns: every simulated read() call, from its start to
 *     the end of its last page copy (PcsResult.read_lat), with fio's
 *     percentile list and method (lathist.h).  A sync engine's lat and clat
 *     differ in fio by its own bookkeeping between io_u prep and the
 *     syscall (~30 ns); pcsim models no user space, so both are the call.
 *     slat_ns has N = 0, as fio's for a sync engine.
 *   - job_runtime: fio's total_run_time, each thread's run time summed
 *     over a group_reporting group (a real 4-thread capture: runtime 1956,
 *     job_runtime 7813), where read.runtime is the longest thread's.
 *   - usr_cpu/sys_cpu: fio's usr_time and sys_time * 100 / job_runtime.
 *     The model's CPU work is all kernel work (syscall entry, page
 *     lookups, readahead, inserts, bio setup, the copy to user, lock spins):
 *     sys_cpu is the readers' simulated CPU time but fio's own user-space
 *     part of each call (cost.fio_user, 0 unless set: then usr_cpu).
 *   - ctx: fio's count of the job's threads' context switches (getrusage()
 *     ru_nvcsw + ru_nivcsw, summed over the group): the times the readers
 *     left their CPU (asleep on a page or for a request, a used-up
 *     cpu.slice, done).  A reader that finds its page locked again before it
 *     got a CPU back sleeps again without a switch (its re-check costs no
 *     CPU time in the model), where the kernel's runs and switches twice.
 *   - disk_util: util is the device's busy time (at least one request in
 *     service, diskstats io_ticks) / the run time; read_ios the requests;
 *     read_ticks the summed request times in ms (diskstats read_ticks).
 *     read_ios and read_ticks count data requests only, as trace-stats
 *     does; the kernel's diskstats also count the checksum leaves' reads
 *     (bio.csum_leaf_size: pcsim's csum_reads), which util includes.
 *   - bw_* and iops_*: fio samples each thread every 500 ms (bw_avg_time);
 *     pcsim has each thread's whole-run figure only, so the samples are one
 *     per thread (bw_samples = threads): min, max, mean and stddev over the
 *     threads.  A run shorter than 500 ms gets no samples in fio at all.
 *   - iodepth_*: a sync engine has one I/O in flight; fio's maps for it.
 *   - several jobs (PcsParams.jobs): without group_reporting one entry per
 *     clone, named by its section, its run from its own start (a barrier
 *     may start it late); with it one entry per group (fio's groupid: one
 *     more at each stonewall or new_group), named by the group's first job.
 *     groupid is the policy's index times the groups plus the group.
 * Differs from fio: timestamps are 0 and "time" is "simulated" (output is
 * deterministic); eta is 0 (the job is over); majf, minf, in_queue and
 * the merge counts are not modelled and left out (docs/fio.md).
 */
#include "pcsim/fiojson.h"

#include "pcsim/json.h"
#include "pcsim/report.h"

#include <math.h>
#include <string.h>

/* fio's own JSON puts " : " between a key and its value. */
#define FIO_COLON " : "
#define FIO_BW_AVG_MS 500 /* fio's bw_avg_time and iops_avg_time default */

/* fio's default percentile_list (options.c). */
static const double fio_percentiles[] = {1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0,
                                         80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99};

static gboolean group_reporting(const PcsParams *p) {
  if (!p->fio_accepted) return TRUE; /* INI scenarios report like the seed's job */
  for (char **a = p->fio_accepted; *a; a++)
    if (!strcmp(*a, "group_reporting")) return TRUE;
  return FALSE;
}

/* One direction's figures: a whole group (one policy) or one thread. */
typedef struct {
  uint64_t bytes, ns;         /* bytes returned; run time */
  const PcsLatHist *lat;      /* read() calls; NULL: none (write, trim) */
  double bw_min, bw_max, bw_mean, bw_dev, bw_agg; /* KiB/s over the per-thread figures */
  double iops_min, iops_max, iops_mean, iops_dev;
  uint64_t samples;
} Dir;

static uint64_t ms_of(uint64_t ns) { return (ns + 500000) / 1000000; }

static void lat_block(PcsJson *w, const char *key, const PcsLatHist *h, gboolean percentiles) {
  static const PcsLatHist none;
  if (!h) h = &none;
  pcs_json_begin_object(w, key, PCS_JSON_LINES);
  pcs_json_uint(w, "min", h->min);
  pcs_json_uint(w, "max", h->max);
  pcs_json_double(w, "mean", "%f", h->n ? h->mean : 0.0);
  pcs_json_double(w, "stddev", "%f", pcs_lathist_stddev(h));
  pcs_json_uint(w, "N", h->n);
  if (percentiles && h->n) {
    uint64_t v[G_N_ELEMENTS(fio_percentiles)];
    pcs_lathist_percentiles(h, fio_percentiles, G_N_ELEMENTS(fio_percentiles), v);
    pcs_json_begin_object(w, "percentile", PCS_JSON_LINES);
    for (size_t i = 0; i < G_N_ELEMENTS(fio_percentiles); i++) {
      char pkey[32];
      g_snprintf(pkey, sizeof pkey, "%f", fio_percentiles[i]);
      pcs_json_uint(w, pkey, v[i]);
    }
    pcs_json_end(w);
  }
  pcs_json_end(w);
}

static void fio_dir(PcsJson *w, const char *name, const Dir *d) {
  uint64_t ios = d->lat ? d->lat->n : 0;
  uint64_t bw_bytes = d->ns ? (uint64_t)((double)d->bytes * 1e9 / (double)d->ns) : 0;
  pcs_json_begin_object(w, name, PCS_JSON_LINES);
  pcs_json_uint(w, "io_bytes", d->bytes);
  pcs_json_uint(w, "io_kbytes", d->bytes / PCS_KIB);
  pcs_json_uint(w, "bw_bytes", bw_bytes);
  pcs_json_uint(w, "bw", bw_bytes / PCS_KIB);
  pcs_json_double(w, "iops", "%f", d->ns ? (double)ios * 1e9 / (double)d->ns : 0.0);
  pcs_json_uint(w, "runtime", d->bytes ? ms_of(d->ns) : 0);
  pcs_json_uint(w, "total_ios", ios);
  pcs_json_uint(w, "short_ios", 0);
  pcs_json_uint(w, "drop_ios", 0);
  lat_block(w, "slat_ns", NULL, FALSE); /* a sync engine has no submission latency */
  lat_block(w, "clat_ns", d->lat, TRUE);
  lat_block(w, "lat_ns", d->lat, FALSE);
  pcs_json_uint(w, "bw_min", (uint64_t)d->bw_min);
  pcs_json_uint(w, "bw_max", (uint64_t)d->bw_max);
  pcs_json_double(w, "bw_agg", "%f", d->bw_agg);
  pcs_json_double(w, "bw_mean", "%f", d->bw_mean);
  pcs_json_double(w, "bw_dev", "%f", d->bw_dev);
  pcs_json_uint(w, "bw_samples", d->samples);
  pcs_json_uint(w, "iops_min", (uint64_t)d->iops_min);
  pcs_json_uint(w, "iops_max", (uint64_t)d->iops_max);
  pcs_json_double(w, "iops_mean", "%f", d->iops_mean);
  pcs_json_double(w, "iops_stddev", "%f", d->iops_dev);
  pcs_json_uint(w, "iops_samples", d->samples);
  pcs_json_end(w);
}

/* Per-thread figures of threads [FIRST, FIRST+COUNT) of R as D's samples:
 * KiB/s and read() calls per second over each thread's own run time. */
static void thread_samples(Dir *d, const PcsResult *r, uint64_t bs, uint32_t first, uint32_t count) {
  double sum = 0, sq = 0, isum = 0, isq = 0;
  d->bw_min = d->iops_min = INFINITY;
  for (uint32_t t = first; t < first + count; t++) {
    double secs = (double)(r->thread_done_ns[t] - r->thread_start_ns[t]) / PCS_NS_PER_S; /* from its start (barriers) */
    uint64_t calls = r->thread_read_lat ? r->thread_read_lat[t].n /* else whole blocks, the last maybe short */
                                        : (r->thread_bytes[t] + bs - 1) / bs;
    double bw = secs > 0 ? (double)r->thread_bytes[t] / PCS_KIB / secs : 0;
    double iops = secs > 0 ? (double)calls / secs : 0;
    d->bw_min = MIN(d->bw_min, bw), d->bw_max = MAX(d->bw_max, bw);
    d->iops_min = MIN(d->iops_min, iops), d->iops_max = MAX(d->iops_max, iops);
    sum += bw, sq += bw * bw, isum += iops, isq += iops * iops;
  }
  double n = count;
  d->samples = count;
  d->bw_mean = sum / n, d->iops_mean = isum / n;
  d->bw_dev = count > 1 ? sqrt(MAX(0.0, (sq - sum * sum / n) / (n - 1))) : 0;
  d->iops_dev = count > 1 ? sqrt(MAX(0.0, (isq - isum * isum / n) / (n - 1))) : 0;
  /* convert_agg_kbytes_percent(): the mean's share of the group's aggregate bandwidth */
  double agg = r->sim_time_ns ? (double)r->bytes_returned / PCS_KIB / pcs_result_secs(r) : 0;
  d->bw_agg = agg > 1 ? MIN(100.0, d->bw_mean * 100.0 / agg) : 100.0;
}

/* fio's %-of-I/Os maps: each share of TOTAL, at least 0.01 (0.1 for depths) when not 0. */
static void pct_map(PcsJson *w, const char *key, const char *const *names, const uint64_t *counts, size_t len,
                    uint64_t total, double floor_pct) {
  pcs_json_begin_object(w, key, PCS_JSON_LINES);
  for (size_t i = 0; i < len; i++) {
    double v = total ? 100.0 * (double)counts[i] / (double)total : 0.0;
    if (counts[i] && v < floor_pct) v = floor_pct;
    pcs_json_double(w, names[i], "%f", v);
  }
  pcs_json_end(w);
}

/* A size as a fio job would write it ("32k", "4m", or bytes). */
static char *fio_size_text(uint64_t v) {
  static const char units[] = "kmgtp";
  int u = -1;
  while (u < 4 && v && v % PCS_KIB == 0) v /= PCS_KIB, u++;
  return u < 0 ? g_strdup_printf("%" G_GUINT64_FORMAT, v) : g_strdup_printf("%" G_GUINT64_FORMAT "%c", v, units[u]);
}

/* Thread T's job section, as fio numbers clones: section by section, in file
 * order.  NULL for a grouped report or when --set changed the thread count
 * (then the first section's name and options stand for all). */
static const PcsFioSection *thread_section(const PcsParams *p, uint32_t t) {
  if (!p->fio_sections || t == G_MAXUINT32) return NULL;
  uint64_t total = 0;
  for (uint32_t i = 0; i < p->fio_nsections; i++) total += p->fio_sections[i].numjobs;
  if (total != p->workload_threads) return NULL;
  for (uint32_t i = 0; i < p->fio_nsections; i++) {
    const PcsFioSection *s = &p->fio_sections[i];
    if (t < s->numjobs) return s;
    t -= (uint32_t)s->numjobs;
  }
  return NULL;
}

static void fio_job(PcsJson *w, const PcsParams *p, uint32_t thread, guint group, const Dir *rd,
                    const PcsLatHist *lat, uint64_t cpu_ns, uint64_t run_ns, uint64_t ctx) {
  static const char *const depth_names[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  static const char *const submit_names[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  static const char *const n_names[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"};
  static const char *const m_names[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"};
  pcs_json_begin_object(w, NULL, PCS_JSON_LINES);
  const PcsFioSection *first = p->fio_nsections ? &p->fio_sections[0] : NULL; /* NULL: an INI scenario */
  const PcsFioSection *sec = thread_section(p, thread);
  if (!sec) sec = first;
  char *const *options = sec ? sec->options : NULL;
  pcs_json_string(w, "jobname", sec ? sec->name : p->scenario_name);
  pcs_json_uint(w, "groupid", group);
  pcs_json_uint(w, "error", 0);
  pcs_json_uint(w, "eta", 0);
  pcs_json_uint(w, "elapsed", (rd->ns + 999999999) / 1000000000); /* whole seconds, rounded up */
  if (options && *options) pcs_json_string_pairs(w, "job options", options, PCS_JSON_LINES);
  fio_dir(w, "read", rd);
  Dir none = {0};
  fio_dir(w, "write", &none);
  fio_dir(w, "trim", &none);
  pcs_json_begin_object(w, "sync", PCS_JSON_LINES); /* no fsync: nothing is written */
  pcs_json_uint(w, "total_ios", 0);
  lat_block(w, "lat_ns", NULL, FALSE);
  pcs_json_end(w);
  pcs_json_uint(w, "job_runtime", ms_of(run_ns)); /* fio's total_run_time: summed over a group's threads */
  /* cost.fio_user per read() call is user time, the rest of the readers' CPU system time */
  uint64_t usr_ns = lat->n && p->cost_fio_user > cpu_ns / lat->n ? cpu_ns : lat->n * p->cost_fio_user; /* no wrap */
  pcs_json_double(w, "usr_cpu", "%f", run_ns ? 100.0 * (double)usr_ns / (double)run_ns : 0.0);
  pcs_json_double(w, "sys_cpu", "%f", run_ns ? 100.0 * (double)(cpu_ns - usr_ns) / (double)run_ns : 0.0);
  pcs_json_uint(w, "ctx", ctx);
  uint64_t ios = lat->n, one[7] = {ios, 0, 0, 0, 0, 0, 0}, zero[7] = {0};
  pct_map(w, "iodepth_level", depth_names, one, 7, ios, 0.1); /* a sync engine: depth 1 */
  uint64_t submit[7] = {0, ios, 0, 0, 0, 0, 0};
  pct_map(w, "iodepth_submit", submit_names, ios ? submit : zero, 7, ios, 0.1);
  pct_map(w, "iodepth_complete", submit_names, ios ? submit : zero, 7, ios, 0.1);
  pct_map(w, "latency_ns", n_names, lat->lat_n, PCS_LAT_NR_N, ios, 0.01);
  pct_map(w, "latency_us", n_names, lat->lat_u, PCS_LAT_NR_U, ios, 0.01);
  pct_map(w, "latency_ms", m_names, lat->lat_m, PCS_LAT_NR_M, ios, 0.01);
  pcs_json_uint(w, "latency_depth", 1);
  pcs_json_uint(w, "latency_target", 0);
  pcs_json_double(w, "latency_percentile", "%f", 100.0);
  pcs_json_uint(w, "latency_window", 0);
  pcs_json_end(w);
}

/* Thread T's group (fio's groupid within a policy's run): its job's. */
static uint32_t thread_group(const PcsResult *r, uint32_t t) {
  for (uint32_t j = 0; j < r->njobs; j++)
    if (t < r->jobs[j].first + r->jobs[j].clones) return r->jobs[j].group;
  return 0;
}

/* One group_reporting entry: group G of R (all threads with one group),
 * as GROUPID.  fio sums a group's bytes, run times (total_run_time), CPU
 * and switches, and takes its run from the first start to the last end;
 * its jobname and options are its first job's (NAMED: several groups,
 * else the first section's as before). */
static void fio_group(PcsJson *w, const PcsParams *p, const PcsResult *r, uint32_t g, guint groupid,
                      gboolean named) {
  uint32_t first = 0, end = r->threads;
  PcsLatHist *merged = NULL;
  if (r->njobs) { /* a group's jobs are consecutive: groupid only grows */
    first = UINT32_MAX, end = 0;
    merged = g_new0(PcsLatHist, 1);
    for (uint32_t j = 0; j < r->njobs; j++) {
      if (r->jobs[j].group != g) continue;
      first = MIN(first, r->jobs[j].first), end = MAX(end, r->jobs[j].first + r->jobs[j].clones);
      pcs_lathist_merge(merged, &r->job_read_lat[j]);
    }
  }
  uint64_t bytes = 0, run_ns = 0, cpu_ns = 0, ctx = 0, start = UINT64_MAX, done = 0;
  for (uint32_t t = first; t < end; t++) {
    bytes += r->thread_bytes[t];
    run_ns += r->thread_done_ns[t] - r->thread_start_ns[t]; /* fio's total_run_time: the threads' run times summed */
    cpu_ns += r->thread_cpu_ns[t], ctx += r->thread_switches[t];
    start = MIN(start, r->thread_start_ns[t]), done = MAX(done, r->thread_done_ns[t]);
  }
  const PcsLatHist *lat = merged ? merged : &r->read_lat;
  Dir d = {.bytes = bytes, .ns = done - start, .lat = lat};
  thread_samples(&d, r, p->workload_block_size, first, end - first);
  fio_job(w, p, named ? first : G_MAXUINT32, groupid, &d, lat, cpu_ns, run_ns, ctx);
  g_free(merged);
}

void pcs_fio_json(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_json_set_colon(&w, FIO_COLON);
  g_autofree char *version = g_strdup_printf("pcsim-%s", pcs_version());
  pcs_json_string(&w, "fio version", version);
  pcs_json_uint(&w, "timestamp", 0);
  pcs_json_uint(&w, "timestamp_ms", 0);
  pcs_json_string(&w, "time", "simulated");
  if (p->fio_global_options) {
    if (*p->fio_global_options) pcs_json_string_pairs(&w, "global options", p->fio_global_options, PCS_JSON_LINES);
  } else { /* an INI scenario: what a job file for it would say */
    g_autofree char *bs = fio_size_text(p->workload_block_size), *size = fio_size_text(p->workload_file_size);
    g_autofree char *numjobs = g_strdup_printf("%" G_GUINT64_FORMAT, p->workload_threads);
    char *kv[] = {"ioengine", "sync", "rw", "read", "bs", bs, "numjobs", numjobs, "size", size, NULL};
    pcs_json_string_pairs(&w, "global options", kv, PCS_JSON_LINES);
  }
  pcs_json_begin_array(&w, "jobs", PCS_JSON_LINES);
  gboolean grouped = group_reporting(p);
  for (size_t i = 0; i < n; i++) {
    const PcsResult *r = &res[i];
    uint32_t ngroups = r->njobs ? r->jobs[r->njobs - 1].group + 1 : 1;
    if (grouped || !r->thread_read_lat) {
      for (uint32_t g = 0; g < ngroups; g++) fio_group(&w, p, r, g, (guint)(i * ngroups + g), ngroups > 1);
      continue;
    }
    for (uint32_t t = 0; t < r->threads; t++) {
      uint64_t run_ns = r->thread_done_ns[t] - r->thread_start_ns[t]; /* from its start (barriers) */
      Dir d = {.bytes = r->thread_bytes[t], .ns = run_ns, .lat = &r->thread_read_lat[t]};
      thread_samples(&d, r, p->workload_block_size, t, 1);
      fio_job(&w, p, t, (guint)(i * ngroups + thread_group(r, t)), &d, &r->thread_read_lat[t],
              r->thread_cpu_ns[t], run_ns, r->thread_switches[t]);
    }
  }
  pcs_json_end(&w);
  pcs_json_begin_array(&w, "disk_util", PCS_JSON_LINES); /* the simulated device, once per policy's run */
  for (size_t i = 0; i < n; i++) {
    const PcsResult *r = &res[i];
    g_autofree char *name = g_strdup_printf("pcsim:%s", r->policy.name);
    pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
    pcs_json_string(&w, "name", name);
    pcs_json_uint(&w, "read_ios", r->requests);
    pcs_json_uint(&w, "write_ios", 0);
    pcs_json_uint(&w, "read_ticks", ms_of(r->device_ns));
    pcs_json_uint(&w, "write_ticks", 0);
    pcs_json_double(&w, "util", "%f",
                    r->sim_time_ns ? MIN(100.0, 100.0 * (double)r->device_busy_ns / (double)r->sim_time_ns) : 0.0);
    pcs_json_end(&w);
  }
  pcs_json_end(&w);
  pcs_json_begin_object(&w, "pcsim", PCS_JSON_LINES);
  pcs_json_set_colon(&w, ": "); /* pcsim's provenance, as in every other output */
  pcs_report_json_provenance(&w, p);
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}
