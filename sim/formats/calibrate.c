/* calibrate.c - scenario values estimated from real kernel traces.
 *
 * Each estimate comes from the events that show it, never from running the
 * simulator and fitting its output:
 *
 *   device.latency, device.bandwidth   block_rq_issue -> block_rq_complete of
 *       read requests (data and metadata: the device serves both), paired by
 *       device, sector and size.  Service time = latency + bytes / bandwidth,
 *       fitted by weighted least squares over the median service time of
 *       each request size seen at least MIN_GROUP times (weight: how many).
 *       Requests issued with no other in flight are preferred (their time is
 *       the device's, not a queue's); when they do not show two sizes at
 *       least 2x apart, every paired request is used, and the comment says so.
 *       When neither set shows two sizes (a one-thread capture of ext4 or
 *       xfs: its 256 KiB windows go one request at a time, its 8 MiB ones as
 *       seven requests issued together that complete together), the busy
 *       periods are fitted instead: each period whose requests were all in
 *       flight at once (a lone request is one), its bytes against its time,
 *       over the traces pooled (one intercept): a device whose requests
 *       share its rate, device.sharing = 1 on one channel (device_shared()).
 *       Only then the overlapping requests' own times (queueing in them).
 *   device.jitter   the spread of those requests' service time over the fit's
 *       time for their size: ln(q3 / q1) / 1.349, a lognormal's sigma.
 *   device.channels, device.sharing = 0   the device's parallelism: for each
 *       request that overlapped another, the mean number in flight over its
 *       service n times how fast its transfer ran against alone,
 *       (bytes / bandwidth) / (service - latency): how many transfers the
 *       device moved at the alone rate meanwhile (n with parallel channels,
 *       1 with one shared channel); the median, rounded.  The FIFO channels
 *       of device.c are the model it is measured in.
 *   device.queue_depth   nr_requests of the machine file (the queue's
 *       limit); without one, the most read requests in flight at once: a
 *       lower bound on what the device overlaps (it never had more to take).
 *   cost.insert_won      mm_filemap_add_to_page_cache lines of one thread on
 *       consecutive file pages with no other event between them (no other
 *       thread interleaves, no bio, no readahead): the mean spacing of each
 *       such run of at least MIN_RUN_PAIRS pairs (the trace clock ticks in
 *       us; a run's mean resolves less), then the median over runs.  The
 *       spacing holds the folio allocation, the memcg charge, the insert
 *       under the i_pages lock and the tracepoint; the base's
 *       cost.tree_lock_hold is subtracted, as the model charges both, and
 *       its cost.lru_drain / 31 (a run's mean holds one LRU batch drain per
 *       31 inserts, which the model charges on its own).  When what is left
 *       is less than the base's cost.insert_alloc (a part of insert_won), the
 *       machine is faster on this path than the base's: the spacing less
 *       tree_lock_hold is split in the base's proportions, cost.insert_alloc
 *       and cost.lru_drain scaled with insert_won (insert_split_scaled()).
 *   cost.read_setup, cost.bio_submit   the gap before each data bio of a
 *       thread from its previous event in the same readahead batch (its last
 *       insert or its previous data bio; a readahead entry, a metadata bio
 *       or a completion run on that thread's CPU breaks the batch), against
 *       the bio's pages: gap = bio_submit + pages * read_setup, fitted as the
 *       device.  Only a trace whose bios differ in size separates the two.
 *   memory.pcp_freed   pages freed before the run still on a per-CPU list
 *       are handed out last freed first: descending frames.  The pages of
 *       each thread's runs of inserts whose pfn is the previous one's minus
 *       one (two or more pages), per trace, times 4096; the mean over traces.
 *   memory.buddyinfo   every other inserted frame came from a buddy block
 *       split in ascending order (by whichever CPU's refill): the union of
 *       those frames over all threads, cut into maximal ranges of adjacent
 *       frames, each range into the largest aligned power-of-two blocks
 *       (order 10 at most), counted per order: the free blocks the run
 *       consumed, which the model hands out smallest first as
 *       __rmqueue_smallest() does; the mean over traces.  A block the run
 *       consumed only in part counts as the smaller blocks it used.  Folios
 *       of order 9 take blocks of their own and are left out; with large
 *       folios (ext4, xfs) the trace with the most pages in its cut (the
 *       small window's) stands for a run instead of the mean.
 *   memory.contiguous = 1, memory.scattered = 0, memory.contiguous_share = 1
 *       go with them: the lists decide the frames.  The comment gives the
 *       trace's own share of one thread's consecutive inserts with adjacent
 *       frames (pfn == previous pfn + pages) and its runs, to compare with
 *       the simulated contiguous_frames.  memory.pcp_batch is not
 *       measurable from inserts alone and stays the base's.
 *   readahead.read_ahead_kb   ra_pages of the page_cache_*_ra lines (the most
 *       frequent value) * 4096: the bdi's read_ahead_kb, doubled when fio's
 *       fadvise hint (POSIX_FADV_SEQUENTIAL) applies: the job's beside the
 *       trace, else the base's.
 *   bio.csum_leaf_size   the most frequent size of the read bios with rwbs M:
 *       btrfs reads a tree block whole, so that is the file system's
 *       nodesize, the size of the checksum leaves btrfs_lookup_bio_sums()
 *       reads (the metadata reads may include other trees' blocks, of the
 *       same size).  Measured only when it is a nodesize btrfs makes (a power
 *       of two from 4 KiB to 64 KiB).
 *   block.*, cpu.count   the machine file (max_sectors_kb * 2, max_segments,
 *       max_segment_size, cpus).  Its fstype= names the captured file system
 *       (btrfs when absent, as in every machine file written before the key).
 *
 * ext4 and xfs (fstype=ext4|xfs, issue 37) read ahead in large folios
 * (page_cache_ra_order()): the window's folios are all inserted, then
 * read_pages() builds one bio of them (one bio_vec per folio) and submits
 * it.  What differs from btrfs above:
 *
 *   scenario.filesystem   fstype= itself; readahead.max_folio_order = 9, the
 *       largest folio the mapping takes with 4 KiB pages on x86-64
 *       (MAX_PAGECACHE_ORDER), not measured (the comment gives the traces'
 *       largest order=); bio.csum_leaf_size = 0 (no data checksums: the
 *       metadata bios are the file system's own).
 *   cost.insert_page, cost.insert_won   each insert line of a thread after its
 *       previous insert or its page_cache_ra_order line with no other event
 *       between (one ractl_alloc_folio() + filemap_add_folio()), against the
 *       folio's pages (2^order): time = a + (pages - 1) * b, fitted as the
 *       device (median per size per trace, weighted, slope within each
 *       trace).  b is the insert's part of cost.insert_page; a less the
 *       base's tree_lock_hold and lru_drain / 31 is insert_won (per folio),
 *       split with insert_alloc and lru_drain as above when short.
 *   cost.read_setup, cost.bio_submit   the gap from a thread's last insert of
 *       a readahead to its block_bio_queue.  Against the window's folios
 *       (gap = bio_submit + folios * read_setup) the one-thread captures give
 *       a negative intercept: the read grows with the folios' pages (the
 *       per-block walk of ext4_mpage_readpages() and iomap_readahead()), 1
 *       us for one 64-page folio, 14 us for four 512-page ones on ext4.  So
 *       against the window's pages: gap = bio_submit + pages * r, the traces
 *       pooled (each shows one window size).  The model reads per folio:
 *       read_setup = r (a folio's first page) and r is added to
 *       cost.insert_page for every other page, which the same thread pays
 *       for the same folio before the same bio, so one thread's time to each
 *       bio is the trace's.
 *   readahead.read_ahead_kb   as above: for ext4 and xfs it is the block
 *       device's bdi (/sys/class/bdi/MAJ:MIN/read_ahead_kb).
 *   cost.copy, cost.copy_cold   not in the trace: fio's JSON beside it
 *       (pcs_calibrate_add_run()), the clat p50 of a cached read() call less
 *       the base's cost.syscall, over the job's bs in pages; copy from the
 *       smallest window's run, copy_cold from the largest's when its window
 *       exceeds cpu.cache_size.  ext4 and xfs: the clat p10 instead (on a
 *       guest with free page reporting their one-thread calls copy out of
 *       folios whose memory the host took back, about 7 us a page, in some
 *       or all of them: fio's clat bimodal, and the p50 may be such a cold
 *       copy; docs/notebook/2026-12-06-reported-memory.md), and copy_cold
 *       0 (the cache-cold copy is btrfs's end-io's).  The job's
 *       fadvise_hint also decides whether ra_pages is read_ahead_kb doubled.
 *   memory.reported_order, cost.touch_reported   free page reporting: the
 *       machine file's page_reporting_order= (none: 0), and the first touch
 *       of a page of a folio of that order or more: the largest window's
 *       clat p50 less the smallest's warm call (p10) over the call's pages,
 *       0 when it is under twice that (the capture ran warm); that run's
 *       requests then stay out of the device fit (reported_estimates()).
 *       4 KiB folios (btrfs): the slope of the largest window's readahead
 *       windows' time against their pages from free blocks of that order
 *       or more (touch_frames_estimate()).
 *   cost.fio_user   not in the trace: fio's user time between calls, its
 *       JSON's usr_cpu x job_runtime over read.total_ios, pooled over the
 *       one-thread runs.
 *
 * Several traces pool their samples; each estimate is also made per trace
 * for the spread.  An estimate on few samples or with a wide spread carries
 * a warning (WEAK in its comment).  An estimate the events cannot identify keeps the base
 * value, marked "not measurable" with the reason.
 */
#include "pcsim/calibrate.h"
#include "pcsim/fio.h"
#include "pcsim/json.h"
#include "pcsim/text.h"
#include "pcsim/units.h"

#include <math.h>
#include <string.h>

#define MIN_GROUP 3        /* samples of one size before its median is used */
#define MIN_FIT_SAMPLES 10 /* samples in the groups of a fit */
#define LOAD_MIN 3 /* requests all in flight at once in a busy period that reads the loaded rate (load_rate()):
                    * with 3, 342 of 550 predicted rows over 96 sessions hold; the parallelism estimate before
                    * it 322; a median over the periods instead of the sum 330, and that with 2 requests 317
                    * (docs/notebook/2026-12-07-loaded-rate.md) */
#define MIN_RUN_PAIRS 4    /* insert pairs in a run before its spacing is used */
#define PCS_CAL_MAX_FOLIO_ORDER_X86 9 /* MAX_PAGECACHE_ORDER with 4 KiB pages on x86-64 (PMD order) */
#define PCS_CAL_LRU_BATCH PCS_PAGEVEC_SIZE /* folios in a per-CPU LRU batch (cost.lru_drain) */
#define MIN_RUNS 10        /* runs before an insert spacing is given */
#define MIN_PAIRS 100      /* thread-consecutive inserts before a frame share is given */
#define RUN_BUCKETS 13     /* runs of adjacent frames: 1, 2-3, ..., 4096 pages and more */

/* One observation: X (bytes or pages) against Y (ns), from trace TRACE. */
typedef struct {
  double x, y;
  guint trace;
} Sample;

/* One readahead window of a trace: the time from the launch after it to
 * the one after that (the reader going through it), and its pages by the
 * order of the free block their frames came from (cut_blocks()'s cut;
 * freed pages, on a per-CPU list, counted in none). */
typedef struct {
  double ns;
  uint32_t pages[PCS_BUDDY_ORDERS];
} ColdWindow;

/* What one trace showed beyond its samples. */
typedef struct {
  char *name;                  /* the file's base name */
  uint64_t paired, isolated;   /* read requests timed; of them, issued alone */
  uint64_t solo;               /* of them, alone until completed */
  uint64_t max_in_flight;
  uint64_t pairs, contiguous;  /* thread-consecutive inserts; with adjacent frames */
  uint64_t insert_pairs;       /* insert pairs in the runs used */
  uint64_t ra_lines, ra_pages; /* readahead lines with ra_pages; the most frequent value */
  uint64_t meta_bios, meta_sectors; /* metadata read bios; their most frequent size */
  uint64_t data_sectors;       /* data read bios' sectors */
  uint64_t descending;         /* pages in descending runs of frames (memory.pcp_freed) */
  uint64_t max_pages;          /* the largest folio inserted, in pages (2^order) */
  uint64_t blocks[PCS_BUDDY_ORDERS]; /* the other frames as aligned buddy blocks (memory.buddyinfo) */
  GArray *windows;             /* ColdWindow: its readahead windows, the frames' blocks (cost.touch_reported) */
  /* its fio run (pcs_calibrate_add_run()) */
  char *job, *json;            /* the files' base names, or NULL */
  PcsFadvise fadvise;          /* with job: its fadvise_hint */
  uint64_t bs, numjobs;        /* with job */
  double mib_s, clat_ns;       /* with json: jobs[0].read.bw in MiB/s, clat_ns p50 */
  double clat10_ns;            /* clat_ns p10, -1 when absent */
  double usr_ms, ios;          /* with json: fio's user time (usr_cpu x job_runtime), read() calls (total_ios) */
} TraceTally;

/* A read request that overlapped another: its size, its service time and
 * the mean number of requests in flight over it (itself included). */
typedef struct {
  double bytes, ns, inflight;
  guint trace;
} Overlap;

struct PcsCalibration {
  GArray *traces;   /* TraceTally */
  GArray *dev_all;  /* Sample: request bytes, service ns */
  GArray *dev_iso;  /* the same, issued with no other request in flight */
  GArray *dev_solo; /* the same, with no other request in flight until it completed */
  GArray *dev_busy; /* Sample: busy periods whose requests were all in flight at once (a lone request is one):
                     * x = their bytes, y = issue of the first -> completion of the last (fitted pooled, one
                     * intercept over the traces: device_set()) */
  GArray *inflight; /* Sample: x = requests in flight at an issue, this one included */
  GArray *runs;     /* Sample: x = pairs in the run, y = mean spacing ns */
  GArray *gaps;     /* Sample: x = bio pages, y = gap before the bio ns */
  GArray *folios;   /* Sample: x = a folio's pages, y = its insert line's time after the thread's previous
                     * insert or page_cache_ra_order line, nothing between (ext4, xfs) */
  GArray *windows;  /* Sample: x = folios inserted since page_cache_ra_order, y = the last insert -> block_bio_queue */
  GArray *window_pages; /* the same windows, x = their pages */
  GArray *overlap;  /* Overlap: requests with another in flight at some point of their service */
  GArray *batches;  /* Sample: busy periods of 3+ requests all in flight at once: x = requests, y = the
                     * spread of their completions over the period (0: all at once) */
  GArray *dev_load; /* Sample: the same busy periods, x = their bytes, y = issue of the first -> completion
                     * of the last (the one channel's rate under load: load_rate()) */
  uint64_t run_hist[RUN_BUCKETS];
  char *machine;    /* base name of the machine file, or NULL */
  char *fstype;     /* its fstype= (btrfs, ext4 or xfs), or NULL: btrfs */
  char *device;     /* its loop=, device= or dev= word (the traced device), or NULL */
  int loop;         /* that device is a loop device: 1, another: 0, not known: -1 */
  char *dropped;    /* why a trace's requests are left out of the device fit (reported_estimates()), or NULL */
  uint64_t mach[PCS_CAL_N];
  gboolean mach_set[PCS_CAL_N];
  PcsCalEstimate est[PCS_CAL_N];
};

/* ---- small statistics ---- */

static int cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Quantile Q of V[0..N) (sorted), linear between neighbours. */
static double quantile(const double *v, guint n, double q) {
  if (!n) return 0.0;
  double at = q * (n - 1);
  guint i = (guint)at;
  return i + 1 < n ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[n - 1];
}

typedef struct {
  double median, q1, q3;
  guint n;
} Spread;

/* Median and quartiles of the Y of samples from TRACE (G_MAXUINT: all). */
static Spread spread_of(const GArray *s, guint trace) {
  g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < s->len; i++) {
    const Sample *p = &g_array_index(s, Sample, i);
    if (trace == G_MAXUINT || p->trace == trace) g_array_append_val(v, p->y);
  }
  g_array_sort(v, cmp_double);
  const double *d = (const double *)(void *)v->data;
  return (Spread){quantile(d, v->len, 0.5), quantile(d, v->len, 0.25), quantile(d, v->len, 0.75), v->len};
}

/* Samples by size alone. */
static int cmp_sample_size(gconstpointer a, gconstpointer b) {
  const Sample *x = a, *y = b;
  return x->x < y->x ? -1 : x->x > y->x;
}

static int cmp_sample(gconstpointer a, gconstpointer b) {
  const Sample *x = a, *y = b;
  if (x->trace != y->trace) return x->trace < y->trace ? -1 : 1;
  if (x->x != y->x) return x->x < y->x ? -1 : 1;
  return x->y < y->y ? -1 : x->y > y->y;
}

/* y = a + b x by weighted least squares over the median Y of each X seen at
 * least MIN_GROUP times in one trace (weight: how many).  Traces share the
 * slope but not their baselines: the slope comes from the variation within
 * each trace (a fixed effect per trace), the intercept is the weighted mean
 * of the traces'.  Not ok (WHY says why) unless some trace shows two sizes
 * at least 2x apart and a positive slope and intercept come out. */
typedef struct {
  gboolean ok;
  double a, b;
  guint n, groups;   /* samples in the groups used, groups */
  double xlo, xhi;   /* smallest and largest X used */
  double r_q1, r_q3; /* residual quartiles over the samples used */
  char why[160];
} Fit;

typedef struct {
  guint trace, n;
  double x, med;
} Group;

/* Groups of samples of TRACE (G_MAXUINT: all) with equal trace and X. */
static GArray *fit_groups(const GArray *s, guint trace, GArray *used) {
  g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(Sample));
  for (guint i = 0; i < s->len; i++)
    if (trace == G_MAXUINT || g_array_index(s, Sample, i).trace == trace) g_array_append_val(v, g_array_index(s, Sample, i));
  g_array_sort(v, cmp_sample);
  GArray *groups = g_array_new(FALSE, FALSE, sizeof(Group));
  for (guint i = 0, j; i < v->len; i = j) {
    const Sample *g = &g_array_index(v, Sample, i);
    for (j = i; j < v->len && g_array_index(v, Sample, j).x == g->x && g_array_index(v, Sample, j).trace == g->trace;)
      j++;
    guint n = j - i;
    if (n < MIN_GROUP || g->x <= 0) continue;
    Group gr = {g->trace, n, g->x, (n % 2) ? g[n / 2].y : (g[n / 2 - 1].y + g[n / 2].y) / 2};
    g_array_append_val(groups, gr);
    g_array_append_vals(used, g, n);
  }
  return groups;
}

static Fit fit_line(const GArray *s, guint trace) {
  Fit f = {0};
  g_autoptr(GArray) used = g_array_new(FALSE, FALSE, sizeof(Sample));
  g_autoptr(GArray) g = fit_groups(s, trace, used);
  double sw = 0, sy = 0, sx = 0, sxx = 0, sxy = 0, spread = 0;
  for (guint i = 0, j; i < g->len; i = j) { /* one trace at a time: centred on its own means */
    double w = 0, mx = 0, my = 0, lo = g_array_index(g, Group, i).x, hi = lo;
    for (j = i; j < g->len && g_array_index(g, Group, j).trace == g_array_index(g, Group, i).trace; j++) {
      const Group *p = &g_array_index(g, Group, j);
      w += p->n, mx += p->n * p->x, my += p->n * p->med, lo = MIN(lo, p->x), hi = MAX(hi, p->x);
    }
    mx /= w, my /= w;
    for (guint k = i; k < j; k++) {
      const Group *p = &g_array_index(g, Group, k);
      sxx += p->n * (p->x - mx) * (p->x - mx), sxy += p->n * (p->x - mx) * (p->med - my);
    }
    sw += w, sx += w * mx, sy += w * my, spread = MAX(spread, hi / lo);
    f.xlo = i ? MIN(f.xlo, lo) : lo, f.xhi = MAX(f.xhi, hi);
  }
  f.groups = g->len, f.n = used->len;
  if (f.n < MIN_FIT_SAMPLES || spread <= 1) {
    g_snprintf(f.why, sizeof f.why, "%u samples in %u sizes seen %d times or more in one trace: two sizes are needed",
               f.n, f.groups, MIN_GROUP);
    return f;
  }
  if (spread < 2) {
    g_snprintf(f.why, sizeof f.why, "the sizes seen in one trace span less than 2x (%.0f..%.0f)", f.xlo, f.xhi);
    return f;
  }
  f.b = sxy / sxx;
  f.a = (sy - f.b * sx) / sw;
  if (!(f.b > 0)) {
    g_snprintf(f.why, sizeof f.why, "the time does not grow with the size (slope %.3g)", f.b);
    return f;
  }
  if (f.a < 0) {
    g_snprintf(f.why, sizeof f.why, "the fit's intercept is negative (%.3g us)", f.a / PCS_NS_PER_US);
    return f;
  }
  g_autoptr(GArray) r = g_array_sized_new(FALSE, FALSE, sizeof(double), used->len);
  for (guint i = 0; i < used->len; i++) {
    const Sample *p = &g_array_index(used, Sample, i);
    double res = p->y - (f.a + f.b * p->x);
    g_array_append_val(r, res);
  }
  g_array_sort(r, cmp_double);
  f.r_q1 = quantile((const double *)(void *)r->data, r->len, 0.25);
  f.r_q3 = quantile((const double *)(void *)r->data, r->len, 0.75);
  f.ok = TRUE;
  return f;
}

/* ---- collecting samples from one trace ---- */

typedef struct {
  uint64_t sector, issued;
  uint32_t dev, size;
  guint ahead;    /* requests in flight when it was issued */
  gboolean alone; /* no other request in flight from its issue on */
  double area;    /* requests in flight integrated over time (ns) at its issue */
} Pending;

static void not_alone(gpointer key, gpointer value, gpointer user) {
  (void)value, (void)user;
  ((Pending *)key)->alone = FALSE;
}

static guint pending_hash(gconstpointer p) {
  const Pending *r = p;
  return (guint)(r->sector * 2654435761u) ^ r->size ^ (r->dev * 31u);
}

static gboolean pending_equal(gconstpointer a, gconstpointer b) {
  const Pending *x = a, *y = b;
  return x->sector == y->sector && x->size == y->size && x->dev == y->dev;
}

static void add_sample(GArray *a, double x, double y, guint trace) {
  Sample s = {x, y, trace};
  g_array_append_val(a, s);
}

/* Read requests issue -> complete (a requeue times the later issue). */
static void collect_requests(PcsCalibration *c, const PcsKtrace *t, guint trace, TraceTally *tally) {
  g_autoptr(GHashTable) pending = g_hash_table_new_full(pending_hash, pending_equal, g_free, NULL);
  double area = 0; /* requests in flight integrated over time, ns */
  uint64_t last = 0, p_start = 0, p_first = 0; /* the busy period: its start, its first completion */
  double p_bytes = 0;                          /* its requests' bytes */
  guint p_count = 0, p_most = 0;               /* its requests, the most in flight in it */
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind != PCS_KEV_RQ_ISSUE && e->kind != PCS_KEV_RQ_COMPLETE) continue;
    if (e->time_ns > last) area += (double)g_hash_table_size(pending) * (double)(e->time_ns - last), last = e->time_ns;
    Pending key = {e->where, e->time_ns, e->dev, e->size, 0, FALSE, area};
    Pending *r = g_hash_table_lookup(pending, &key);
    if (e->kind == PCS_KEV_RQ_ISSUE) {
      g_hash_table_foreach(pending, not_alone, NULL);
      if (!r) {
        r = g_memdup2(&key, sizeof key);
        r->ahead = g_hash_table_size(pending);
        r->alone = !r->ahead;
        g_hash_table_add(pending, r);
      }
      r->issued = e->time_ns, r->area = area;
      if (g_hash_table_size(pending) == 1) p_start = e->time_ns, p_first = 0, p_count = 0, p_most = 0, p_bytes = 0;
      p_count++, p_most = MAX(p_most, g_hash_table_size(pending));
      p_bytes += (double)e->size * PCS_SECTOR_SIZE;
      add_sample(c->inflight, g_hash_table_size(pending), 0, trace);
      tally->max_in_flight = MAX(tally->max_in_flight, g_hash_table_size(pending));
      continue;
    }
    if (!r) continue;
    /* the trace clock is per CPU: a complete read before its issue is not timed */
    if (e->time_ns >= r->issued) {
      double bytes = (double)r->size * PCS_SECTOR_SIZE, ns = (double)(e->time_ns - r->issued);
      add_sample(c->dev_all, bytes, ns, trace);
      if (!r->ahead) add_sample(c->dev_iso, bytes, ns, trace), tally->isolated++;
      if (r->alone) add_sample(c->dev_solo, bytes, ns, trace), tally->solo++;
      if (!r->alone && ns > 0) {
        Overlap o = {bytes, ns, (area - r->area) / ns, trace};
        g_array_append_val(c->overlap, o);
      }
      tally->paired++;
    }
    g_hash_table_remove(pending, r);
    if (!p_first) p_first = e->time_ns;
    /* a busy period ends, its requests all in flight at once at some point */
    if (g_hash_table_size(pending) || p_most != p_count || e->time_ns <= p_start) continue;
    double span = (double)(e->time_ns - p_start);
    if (p_count >= 3) add_sample(c->batches, p_count, (double)(e->time_ns - p_first) / span, trace);
    if (p_count >= LOAD_MIN) add_sample(c->dev_load, p_bytes, span, trace);
    add_sample(c->dev_busy, p_bytes, span, trace);
  }
}

static void run_done(uint64_t *hist, uint64_t len) {
  if (len) hist[MIN(g_bit_storage(len) - 1, RUN_BUCKETS - 1)]++;
}

static int cmp_u64(gconstpointer a, gconstpointer b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* PFNS sorted, each frame once (a frame seen twice counts once); returns
 * how many. */
static guint unique_frames(GArray *pfns) {
  g_array_sort(pfns, cmp_u64);
  uint64_t *f = (uint64_t *)(void *)pfns->data;
  guint n = 0;
  for (guint i = 0; i < pfns->len; i++)
    if (!n || f[i] != f[n - 1]) f[n++] = f[i];
  g_array_set_size(pfns, n);
  return n;
}

/* The frames F (sorted, unique) as maximal ranges of adjacent frames, each
 * cut into the largest aligned blocks (order 10 at most): the order of the
 * block each frame lies in, in ORDER, and the free blocks per order in
 * BLOCKS (a block of order o holds 2^o of the frames). */
static void cut_blocks(const uint64_t *f, guint n, uint8_t *order, uint64_t *blocks) {
  for (guint i = 0; i < n;) {
    guint j = i + 1;
    while (j < n && f[j] == f[j - 1] + 1) j++;
    uint64_t a = f[i], b = f[j - 1] + 1;
    for (guint k = i; a < b;) {
      guint o = 0;
      while (o + 1 < PCS_BUDDY_ORDERS && a % (UINT64_C(2) << o) == 0 && a + (UINT64_C(2) << o) <= b) o++;
      blocks[o]++;
      for (uint64_t e = a + (UINT64_C(1) << o); a < e; a++) order[k++] = (uint8_t)o;
    }
    i = j;
  }
}

/* The trace's readahead windows (page_cache_sync_ra / async_ra lines, one
 * reader's: used for one-thread runs) and the blocks their frames came
 * from: F the frames of cut_blocks() (N of them, sorted, unique) and the
 * ORDER of each one's block, DOWN per insert. */
static void collect_cold_windows(const PcsKtrace *t, const uint64_t *f, guint n, const uint8_t *order, const GArray *down,
                                 TraceTally *tally) {
  g_autoptr(GArray) launch = g_array_new(FALSE, FALSE, sizeof(double));
  tally->windows = g_array_new(FALSE, TRUE, sizeof(ColdWindow));
  for (guint i = 0, k = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind == PCS_KEV_RA_SYNC || e->kind == PCS_KEV_RA_ASYNC) {
      double at = (double)e->time_ns;
      g_array_append_val(launch, at);
      g_array_set_size(tally->windows, launch->len);
    }
    if (e->kind != PCS_KEV_INSERT) continue;
    if (g_array_index(down, gboolean, k++) || !launch->len) continue;
    ColdWindow *w = &g_array_index(tally->windows, ColdWindow, launch->len - 1);
    for (uint64_t p = 0; p < e->size; p++) {
      uint64_t pfn = e->pfn + p;
      const uint64_t *at = bsearch(&pfn, f, n, sizeof *f, cmp_u64);
      if (at) w->pages[order[at - f]]++;
    }
  }
  guint m = launch->len >= 2 ? launch->len - 2 : 0; /* window k: launch k+1 -> k+2 */
  for (guint k = 0; k < m; k++)
    g_array_index(tally->windows, ColdWindow, k).ns =
        g_array_index(launch, double, k + 2) - g_array_index(launch, double, k + 1);
  g_array_set_size(tally->windows, m);
}

/* Folios this large (order 9, pageblock_order and page_reporting_order's
 * default) take a free block whole; pcsim gives them frames of their own
 * (alloc.c), so their blocks are no part of the sequence the per-CPU lists
 * and smaller folios walk (memory.buddyinfo). */
#define OWN_BLOCK_PAGES 512

/* The frames of the inserts: descending runs (freed pages on a per-CPU
 * list) and the buddy blocks the others came from (folios of
 * OWN_BLOCK_PAGES or more left out). */
static void collect_frames(const PcsKtrace *t, TraceTally *tally) {
  guint ntask = t->event_tasks->len;
  g_autofree uint64_t *last = g_new0(uint64_t, ntask), *run = g_new0(uint64_t, ntask);
  g_autofree guint *last_at = g_new0(guint, ntask);
  g_autoptr(GArray) frames = g_array_new(FALSE, FALSE, sizeof(uint64_t)); /* first frame of each insert */
  g_autoptr(GArray) down = g_array_new(FALSE, TRUE, sizeof(gboolean));    /* in a descending run */
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind != PCS_KEV_INSERT) continue;
    guint at = frames->len;
    gboolean no = FALSE;
    g_array_append_val(frames, e->pfn);
    g_array_append_val(down, no);
    if (e->size == 1 && run[e->task] && e->pfn + 1 == last[e->task]) {
      tally->descending += run[e->task] == 1 ? 2 : 1; /* the run's first page too */
      g_array_index(down, gboolean, last_at[e->task]) = TRUE;
      g_array_index(down, gboolean, at) = TRUE;
      run[e->task]++;
    } else {
      run[e->task] = 1;
    }
    last[e->task] = e->pfn, last_at[e->task] = at;
  }
  g_autoptr(GArray) up = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  guint k = 0;
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind != PCS_KEV_INSERT) continue;
    if (!g_array_index(down, gboolean, k++) && e->size < OWN_BLOCK_PAGES)
      for (uint64_t p = 0; p < e->size; p++) {
        uint64_t f = e->pfn + p;
        g_array_append_val(up, f);
      }
  }
  guint n = unique_frames(up);
  g_autofree uint8_t *order = g_new(uint8_t, MAX(n, 1));
  cut_blocks((const uint64_t *)(void *)up->data, n, order, tally->blocks);
  collect_cold_windows(t, (const uint64_t *)(void *)up->data, n, order, down, tally);
}

/* Insert spacing (runs of one thread's consecutive pages, nothing between)
 * and frame adjacency of each thread's consecutive inserts. */
static void collect_inserts(PcsCalibration *c, const PcsKtrace *t, guint trace, TraceTally *tally) {
  guint ntask = t->event_tasks->len;
  g_autofree uint64_t *next_pfn = g_new0(uint64_t, ntask), *run_len = g_new0(uint64_t, ntask);
  const PcsKtraceEvent *prev = NULL;
  uint64_t run_from = 0, run_to = 0, run_pairs = 0;
  for (guint i = 0; i <= t->events->len; i++) {
    const PcsKtraceEvent *e = i < t->events->len ? &g_array_index(t->events, PcsKtraceEvent, i) : NULL;
    if (e && e->kind == PCS_KEV_RA_ORDER) continue; /* read for the folio fits only */
    gboolean pair = e && prev && e->kind == PCS_KEV_INSERT && prev->kind == PCS_KEV_INSERT &&
                    e->task == prev->task && e->where == prev->where + prev->size && e->time_ns >= prev->time_ns;
    if (pair) {
      if (!run_pairs) run_from = prev->time_ns;
      run_pairs++, run_to = e->time_ns;
    } else {
      if (run_pairs >= MIN_RUN_PAIRS)
        add_sample(c->runs, (double)run_pairs, (double)(run_to - run_from) / (double)run_pairs, trace),
          tally->insert_pairs += run_pairs;
      run_pairs = 0;
    }
    prev = e;
    if (!e || e->kind != PCS_KEV_INSERT) continue;
    if (run_len[e->task]) { /* this thread's previous allocation ended at next_pfn */
      tally->pairs++;
      if (e->pfn == next_pfn[e->task]) {
        tally->contiguous++;
      } else {
        run_done(c->run_hist, run_len[e->task]);
        run_len[e->task] = 0;
      }
    }
    tally->pairs += e->size - 1, tally->contiguous += e->size - 1; /* inside a folio */
    run_len[e->task] += e->size;
    next_pfn[e->task] = e->pfn + e->size;
  }
  for (guint k = 0; k < ntask; k++) run_done(c->run_hist, run_len[k]);
}

/* The gap before each data bio of a thread from its previous event in the
 * same readahead batch. */
static void collect_bio_gaps(PcsCalibration *c, const PcsKtrace *t, guint trace) {
  guint ntask = t->event_tasks->len;
  g_autofree uint64_t *last = g_new0(uint64_t, ntask);
  g_autofree gboolean *armed = g_new0(gboolean, ntask);
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind == PCS_KEV_RQ_ISSUE) continue; /* the plug flush: part of the bio's cost */
    if (e->kind == PCS_KEV_RA_ORDER) continue; /* read for the folio fits only */
    if (e->kind == PCS_KEV_BIO && !e->meta && armed[e->task] && e->time_ns >= last[e->task])
      add_sample(c->gaps, (double)((e->size + PCS_SECTORS_PER_PAGE - 1) / PCS_SECTORS_PER_PAGE),
                 (double)(e->time_ns - last[e->task]), trace);
    armed[e->task] = e->kind == PCS_KEV_INSERT || (e->kind == PCS_KEV_BIO && !e->meta);
    last[e->task] = e->time_ns;
  }
}

/* Large folios (ext4, xfs): each insert line's time after the same
 * thread's previous insert or page_cache_ra_order line when no other event
 * lies between (page_cache_ra_order()'s loop: ractl_alloc_folio(), then
 * filemap_add_folio()), against the folio's pages; and the largest folio. */
static void collect_folios(PcsCalibration *c, const PcsKtrace *t, guint trace, TraceTally *tally) {
  const PcsKtraceEvent *prev = NULL;
  for (guint i = 0; i < t->events->len; prev = &g_array_index(t->events, PcsKtraceEvent, i), i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind != PCS_KEV_INSERT) continue;
    tally->max_pages = MAX(tally->max_pages, e->size);
    if (prev && prev->task == e->task && (prev->kind == PCS_KEV_INSERT || prev->kind == PCS_KEV_RA_ORDER) &&
        e->time_ns >= prev->time_ns)
      add_sample(c->folios, e->size, (double)(e->time_ns - prev->time_ns), trace);
  }
}

/* Large folios (ext4, xfs): read_pages() builds the window's bio after all
 * its folios are inserted, so the time from a thread's last insert of a
 * readahead to its block_bio_queue, against the folios inserted since that
 * readahead's page_cache_ra_order line.  Another event of the thread's own
 * between (a readahead line, a completion run on its CPU, a metadata bio)
 * drops the window; only the window's first bio is timed. */
static void collect_windows(PcsCalibration *c, const PcsKtrace *t, guint trace) {
  guint ntask = t->event_tasks->len;
  g_autofree uint64_t *last = g_new0(uint64_t, ntask), *folios = g_new0(uint64_t, ntask), *pages = g_new0(uint64_t, ntask);
  g_autofree gboolean *armed = g_new0(gboolean, ntask), *open = g_new0(gboolean, ntask);
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    guint k = e->task;
    if (e->kind == PCS_KEV_RQ_ISSUE) continue; /* the plug flush after the bio */
    gboolean data_bio = e->kind == PCS_KEV_BIO && !e->meta;
    if (data_bio && armed[k] && e->time_ns >= last[k]) {
      add_sample(c->windows, (double)folios[k], (double)(e->time_ns - last[k]), trace);
      add_sample(c->window_pages, (double)pages[k], (double)(e->time_ns - last[k]), trace);
    }
    if (e->kind == PCS_KEV_RA_ORDER) open[k] = TRUE, folios[k] = pages[k] = 0;
    if (data_bio) open[k] = FALSE; /* inserts after it (do_page_cache_ra()'s rest) start no window */
    if (e->kind == PCS_KEV_INSERT && open[k]) folios[k]++, pages[k] += e->size, last[k] = e->time_ns;
    armed[k] = e->kind == PCS_KEV_INSERT && open[k];
  }
}

/* The most frequent ra_pages of the readahead lines (the smallest on a tie). */
static void collect_readahead(const PcsKtrace *t, TraceTally *tally) {
  g_autoptr(GHashTable) counts = g_hash_table_new(g_direct_hash, g_direct_equal);
  uint64_t best = 0;
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if ((e->kind != PCS_KEV_RA_SYNC && e->kind != PCS_KEV_RA_ASYNC) || !e->size) continue;
    gpointer key = GUINT_TO_POINTER(e->size);
    uint64_t n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, key)) + 1u;
    g_hash_table_insert(counts, key, GUINT_TO_POINTER((guint)MIN(n, G_MAXUINT)));
    tally->ra_lines++;
    if (n > best || (n == best && e->size < tally->ra_pages)) best = n, tally->ra_pages = e->size;
  }
}

/* The metadata read bios (rwbs with M) and their most frequent size. */
static void collect_meta(const PcsKtrace *t, TraceTally *tally) {
  g_autoptr(GHashTable) counts = g_hash_table_new(g_direct_hash, g_direct_equal);
  uint64_t best = 0;
  for (guint i = 0; i < t->events->len; i++) {
    const PcsKtraceEvent *e = &g_array_index(t->events, PcsKtraceEvent, i);
    if (e->kind != PCS_KEV_BIO) continue;
    if (!e->meta) {
      tally->data_sectors += e->size;
      continue;
    }
    gpointer key = GUINT_TO_POINTER(e->size);
    uint64_t n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, key)) + 1u;
    g_hash_table_insert(counts, key, GUINT_TO_POINTER((guint)MIN(n, G_MAXUINT)));
    tally->meta_bios++;
    if (n > best || (n == best && e->size < tally->meta_sectors)) best = n, tally->meta_sectors = e->size;
  }
}

static void truncate_to(PcsCalibration *c, const guint *len) {
  GArray *a[] = {c->dev_all, c->dev_iso, c->dev_solo, c->inflight, c->runs,         c->gaps,     c->overlap,
                 c->batches, c->folios,  c->windows,  c->window_pages, c->dev_busy, c->dev_load};
  for (guint i = 0; i < G_N_ELEMENTS(a); i++) g_array_set_size(a[i], len[i]);
}

gboolean pcs_calibrate_add_trace(PcsCalibration *c, const PcsKtrace *t, GError **error) {
  g_return_val_if_fail(t->events && t->event_tasks, FALSE);
  gboolean blkparse = t->format && !strcmp(t->format, "blkparse");
  if (!t->mech.present)
    return pcs_input_error(error, t->path, 0,
                           "no mm_filemap_add_to_page_cache events (page inserts with pfn)%s: calibrate needs the "
                           "mechanism events that scripts/capture-kernel-trace records",
                           blkparse ? "; a blkparse trace has none" : "");
  guint trace = c->traces->len, len[] = {c->dev_all->len, c->dev_iso->len, c->dev_solo->len, c->inflight->len,
                                         c->runs->len,    c->gaps->len,    c->overlap->len,  c->batches->len,
                                         c->folios->len,  c->windows->len, c->window_pages->len, c->dev_busy->len,
                                         c->dev_load->len};
  uint64_t hist[RUN_BUCKETS];
  memcpy(hist, c->run_hist, sizeof hist);
  TraceTally tally = {.name = g_path_get_basename(t->path)};
  collect_requests(c, t, trace, &tally);
  if (!tally.paired) {
    truncate_to(c, len);
    g_free(tally.name);
    return pcs_input_error(error, t->path, 0,
                           "no read request paired from block_rq_issue to block_rq_complete: calibrate needs both "
                           "events to time the device");
  }
  collect_inserts(c, t, trace, &tally);
  collect_frames(t, &tally);
  collect_bio_gaps(c, t, trace);
  collect_folios(c, t, trace, &tally);
  collect_windows(c, t, trace);
  collect_readahead(t, &tally);
  collect_meta(t, &tally);
  g_array_append_val(c->traces, tally);
  return TRUE;
}

/* ---- the machine file ---- */

static const struct {
  const char *word;
  PcsCalibrateId id;
  uint64_t scale; /* value * scale in the key's unit */
} machine_keys[] = {
  {"max_sectors_kb", PCS_CAL_MAX_SECTORS, PCS_KIB / PCS_SECTOR_SIZE},
  {"max_segments", PCS_CAL_MAX_SEGMENTS, 1},
  {"max_segment_size", PCS_CAL_MAX_SEGMENT_SIZE, 1},
  {"cpus", PCS_CAL_CPUS, 1},
  {"nr_requests", PCS_CAL_QUEUE_DEPTH, 1},
  {"page_reporting_order", PCS_CAL_REPORTED_ORDER, 1}, /* "none": no free page reporting, 0 */
};

static const char *const est_section[] = {
#define X(id, sec, key) #sec,
  PCS_CALIBRATE_ESTIMATES(X)
#undef X
};
static const char *const est_key[] = {
#define X(id, sec, key) #key,
  PCS_CALIBRATE_ESTIMATES(X)
#undef X
};

/* fstype=FS of a machine file: btrfs, ext4 or xfs, the file systems the
 * model reads through ([scenario] filesystem); anything else is not a file
 * system a capture makes. */
static gboolean machine_fstype(PcsCalibration *c, const char *path, guint no, const char *value, GError **error) {
  static const char *const known[] = {"btrfs", "ext4", "xfs"};
  gboolean ok = FALSE;
  for (size_t k = 0; k < G_N_ELEMENTS(known); k++) ok |= g_str_equal(value, known[k]);
  if (!ok)
    return pcs_input_error(error, path, no, "fstype=%s: expected btrfs, ext4 or xfs (the file system the capture read "
                           "from; scripts/capture-kernel-trace writes fstype=? when none was mounted from the device)",
                           value);
  g_free(c->fstype);
  c->fstype = g_strdup(value);
  return TRUE;
}

/* The traced device: loop=DEV (a loop device the capture script made),
 * device=DEV (one it was given, named as the user typed it: a loop device
 * when its name is loopN) and dev=MAJ:MIN (major 7, LOOP_MAJOR: a loop
 * device).  Any word that says loop makes it a loop device, whatever the
 * order (device=/dev/block/7:0 with dev=7:0 is one); a word that says
 * another device makes it one only when none says loop.  A loop= or device=
 * word names it in the comments, else the dev= word. */
static void machine_device(PcsCalibration *c, const char *word) {
  const char *value = strchr(word, '=') + 1;
  gboolean loop;
  if (g_str_has_prefix(word, "dev=")) {
    char *end;
    guint64 major = g_ascii_strtoull(value, &end, 10);
    if (end == value || *end != ':') return; /* not MAJ:MIN */
    loop = major == 7;
    if (!c->device) c->device = g_strdup(word);
  } else {
    g_autofree char *name = g_path_get_basename(value);
    loop = g_str_has_prefix(word, "loop=") || (g_str_has_prefix(name, "loop") && g_ascii_isdigit(name[4]));
    if (!c->device || g_str_has_prefix(c->device, "dev=")) g_free(c->device), c->device = g_strdup(word);
  }
  if (loop) c->loop = 1;
  else if (c->loop < 0) c->loop = 0;
}

static gboolean machine_word(PcsCalibration *c, const char *path, guint no, const char *word, GError **error) {
  if (g_str_has_prefix(word, "fstype=")) return machine_fstype(c, path, no, word + strlen("fstype="), error);
  if (g_str_has_prefix(word, "loop=") || g_str_has_prefix(word, "device=") || g_str_has_prefix(word, "dev=")) {
    machine_device(c, word);
    return TRUE;
  }
  if (g_str_equal(word, "page_reporting_order=none")) { /* the capture script's word for no reporting */
    c->mach[PCS_CAL_REPORTED_ORDER] = 0, c->mach_set[PCS_CAL_REPORTED_ORDER] = TRUE;
    return TRUE;
  }
  for (size_t k = 0; k < G_N_ELEMENTS(machine_keys); k++) {
    size_t n = strlen(machine_keys[k].word);
    if (strncmp(word, machine_keys[k].word, n) || word[n] != '=') continue;
    PcsCalibrateId id = machine_keys[k].id;
    const PcsParamInfo *info = pcs_params_find(est_section[id], est_key[id]);
    uint64_t v;
    if (!pcs_parse_u64(word + n + 1, &v) || v > info->hi / machine_keys[k].scale ||
        v * machine_keys[k].scale < info->lo)
      return pcs_input_error(error, path, no, "%s: expected an unsigned integer in %" G_GUINT64_FORMAT "..%"
                             G_GUINT64_FORMAT " (%s.%s)", word, (info->lo + machine_keys[k].scale - 1) / machine_keys[k].scale,
                             info->hi / machine_keys[k].scale, info->section, info->key); /* the word's own unit */
    c->mach[id] = v * machine_keys[k].scale;
    c->mach_set[id] = TRUE;
  }
  return TRUE;
}

gboolean pcs_calibrate_add_machine(PcsCalibration *c, const char *path, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    g_auto(GStrv) words = g_strsplit_set(lines[i], " \t", -1);
    for (guint w = 0; words[w]; w++)
      if (!machine_word(c, path, i + 1, words[w], error)) return FALSE;
  }
  gboolean any = FALSE;
  for (size_t k = 0; k < G_N_ELEMENTS(machine_keys); k++) any |= c->mach_set[machine_keys[k].id];
  if (!any)
    return pcs_input_error(error, path, 0, "not a machine file: no cpus=, max_sectors_kb=, max_segments= or "
                           "max_segment_size= (scripts/capture-kernel-trace writes one)");
  g_free(c->machine);
  c->machine = g_path_get_basename(path);
  if (!c->fstype) c->fstype = g_strdup("btrfs"); /* a machine file from before fstype= */
  return TRUE;
}

/* ---- the fio run beside a trace ---- */

/* MEMBER of O as a number (fio writes integers and doubles), or -1. */
static double json_number(JsonObject *o, const char *member) {
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) != G_TYPE_STRING ? json_node_get_double(n) : -1;
}

static JsonObject *json_object_at(JsonObject *o, const char *member) {
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* jobs[0].read.bw (KiB/s over the group's threads) and clat_ns's p50 of
 * fio's JSON at PATH (fio may write lines before it: from the first '{'),
 * and the group's user time in ms (usr_cpu is a percentage of job_runtime)
 * and read() calls (read.total_ios), -1 each when absent. */
static gboolean read_fio_json(const char *path, double *mib_s, double *clat_ns, double *clat10_ns, double *usr_ms,
                              double *ios, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  const char *start = strchr(text, '{');
  if (!start) return pcs_input_error(error, path, 0, "not fio's JSON output: no '{'");
  g_autoptr(JsonParser) parser = pcs_json_parse(path, start, -1, error);
  if (!parser) return FALSE;
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *top = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *jobs = top ? json_object_get_member(top, "jobs") : NULL;
  JsonArray *a = jobs && JSON_NODE_HOLDS_ARRAY(jobs) ? json_node_get_array(jobs) : NULL;
  JsonNode *j0 = a && json_array_get_length(a) ? json_array_get_element(a, 0) : NULL;
  JsonObject *read = json_object_at(j0 && JSON_NODE_HOLDS_OBJECT(j0) ? json_node_get_object(j0) : NULL, "read");
  double bw = json_number(read, "bw");
  double p50 = json_number(json_object_at(json_object_at(read, "clat_ns"), "percentile"), "50.000000");
  if (bw < 0 || p50 < 0)
    return pcs_input_error(error, path, 0, "not fio's JSON output: no jobs[0].read.bw and read.clat_ns.percentile "
                           "\"50.000000\" (fio --output-format=json)");
  *mib_s = bw / 1024.0, *clat_ns = p50;
  *clat10_ns = json_number(json_object_at(json_object_at(read, "clat_ns"), "percentile"), "10.000000");
  JsonObject *job0 = j0 && JSON_NODE_HOLDS_OBJECT(j0) ? json_node_get_object(j0) : NULL;
  double usr = json_number(job0, "usr_cpu"), runtime = json_number(job0, "job_runtime");
  *usr_ms = usr >= 0 && runtime >= 0 ? usr * runtime / 100.0 : -1;
  *ios = json_number(read, "total_ios");
  return TRUE;
}

gboolean pcs_calibrate_add_run(PcsCalibration *c, const char *job, const char *json, GError **error) {
  g_return_val_if_fail(c->traces->len > 0, FALSE);
  TraceTally *t = &g_array_index(c->traces, TraceTally, c->traces->len - 1);
  if (job) {
    PcsFioJob j;
    if (!pcs_fio_load(&j, job, error)) return FALSE;
    t->fadvise = j.fadvise, t->bs = j.bs, t->numjobs = j.numjobs;
    pcs_fio_clear(&j);
    g_free(t->job);
    t->job = g_path_get_basename(job);
  }
  if (json) {
    if (!read_fio_json(json, &t->mib_s, &t->clat_ns, &t->clat10_ns, &t->usr_ms, &t->ios, error)) return FALSE;
    g_free(t->json);
    t->json = g_path_get_basename(json);
  }
  return TRUE;
}

guint pcs_calibrate_n_traces(const PcsCalibration *c) { return c->traces->len; }

const char *pcs_calibrate_trace_name(const PcsCalibration *c, guint i) {
  return i < c->traces->len ? g_array_index(c->traces, TraceTally, i).name : NULL;
}

gboolean pcs_calibrate_run_info(const PcsCalibration *c, guint i, double *mib_s, double *clat_ns, uint64_t *bs,
                                uint64_t *threads) {
  if (i >= c->traces->len) return FALSE;
  const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
  *mib_s = t->mib_s, *clat_ns = t->clat_ns, *bs = t->bs, *threads = t->numjobs;
  return t->json != NULL;
}

/* The factor fadvise_hint F puts on the bdi's read_ahead_kb (2 for
 * POSIX_FADV_SEQUENTIAL), as the scenario computes it. */
static uint64_t fadvise_factor(PcsFadvise f) {
  PcsParams p;
  pcs_params_init(&p);
  p.readahead_read_ahead_kb = PCS_PAGE_SIZE / PCS_KIB;
  uint64_t k = 1;
  if (pcs_params_set(&p, pcs_params_find("readahead", "fadvise_hint"), pcs_params_fadvise_name(f), "job", NULL))
    k = pcs_params_window_bytes(&p) / PCS_PAGE_SIZE;
  pcs_params_clear(&p);
  return MAX(k, (uint64_t)1);
}

/* The factor on trace T's window: its job's fadvise_hint, else the base's. */
static uint64_t trace_doubling(const TraceTally *t, const PcsParams *base) {
  if (t->job) return fadvise_factor(t->fadvise);
  return MAX(pcs_params_window_bytes(base) / (MAX(base->readahead_read_ahead_kb, (uint64_t)1) * PCS_KIB), (uint64_t)1);
}

uint64_t pcs_calibrate_trace_read_ahead_kb(const PcsCalibration *c, guint i, const PcsParams *base) {
  if (i >= c->traces->len) return 0;
  const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
  return t->ra_pages * (PCS_PAGE_SIZE / PCS_KIB) / trace_doubling(t, base);
}

/* ---- estimates ---- */

/* An ext4 or xfs capture: large folios, read through the block device's bdi. */
static gboolean large_folios(const PcsCalibration *c) { return c->fstype && !g_str_equal(c->fstype, "btrfs"); }


static void set_est(PcsCalibration *c, PcsCalibrateId id, gboolean measured, double value, char *comment) {
  PcsCalEstimate *e = &c->est[id];
  g_free(e->comment);
  g_clear_pointer(&e->warning, g_free);
  e->measured = measured, e->value = value, e->comment = comment;
}

/* A weak estimate: WARNING (owned) says why. */
static void warn_est(PcsCalibration *c, PcsCalibrateId id, char *warning) {
  g_free(c->est[id].warning);
  c->est[id].warning = warning;
}

static int estimate_of(const char *section, const char *key) {
  for (int i = 0; i < PCS_CAL_N; i++)
    if (!strcmp(est_section[i], section) && !strcmp(est_key[i], key)) return i;
  return -1;
}

gboolean pcs_calibrate_keep_only(PcsCalibration *c, const char *const *keys, GError **error) {
  gboolean keep[PCS_CAL_N] = {FALSE};
  if (!keys[0]) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--keys '': expected the keys to estimate (section.key, comma-separated)");
    return FALSE;
  }
  for (const char *const *k = keys; *k; k++) {
    g_auto(GStrv) parts = g_strsplit(*k, ".", 2);
    int id = parts[0] && parts[1] ? estimate_of(parts[0], parts[1]) : -1;
    if (id < 0) {
      g_autoptr(GString) known = g_string_new(NULL);
      for (int i = 0; i < PCS_CAL_N; i++) g_string_append_printf(known, "%s%s.%s", i ? ", " : "", est_section[i], est_key[i]);
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--keys: '%s' is not a key calibrate estimates (%s)", *k, known->str);
      return FALSE;
    }
    keep[id] = TRUE;
  }
  /* insert_alloc, lru_drain (and insert_page) split insert_won's spacing: asking for one asks for all */
  keep[PCS_CAL_INSERT_WON] |= keep[PCS_CAL_INSERT_ALLOC] || keep[PCS_CAL_LRU_DRAIN] || keep[PCS_CAL_INSERT_PAGE];
  if (large_folios(c)) /* ext4, xfs: insert_page carries the read's per-page part, read_setup its first page */
    keep[PCS_CAL_INSERT_WON] = keep[PCS_CAL_READ_SETUP] = keep[PCS_CAL_INSERT_WON] || keep[PCS_CAL_READ_SETUP];
  keep[PCS_CAL_INSERT_ALLOC] = keep[PCS_CAL_LRU_DRAIN] = keep[PCS_CAL_INSERT_PAGE] = keep[PCS_CAL_INSERT_WON];
  /* an ext4 or xfs capture's file system is not an estimate: its folios and checksums stay */
  keep[PCS_CAL_FILESYSTEM] = keep[PCS_CAL_MAX_FOLIO_ORDER] = TRUE;
  keep[PCS_CAL_CSUM_LEAF_SIZE] |= large_folios(c);
  for (int id = 0; id < PCS_CAL_N; id++)
    /* keys never estimated (btrfs: insert_alloc, lru_drain, insert_page) stay without a comment, as when not
     * asked for */
    if (!keep[id] && (c->est[id].comment || (id != PCS_CAL_INSERT_ALLOC && id != PCS_CAL_LRU_DRAIN &&
                                             id != PCS_CAL_INSERT_PAGE)))
      set_est(c, (PcsCalibrateId)id, FALSE, 0,
              g_strdup_printf("%s.%s: not asked for (--keys); kept from the base", est_section[id], est_key[id]));
  return TRUE;
}

/* "a, b and c" of the trace names, or "the N traces". */
static char *trace_names(const PcsCalibration *c) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < c->traces->len; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", g_array_index(c->traces, TraceTally, i).name);
  return g_string_free(s, FALSE);
}

static char *fmt_bytes(double b) {
  if (b >= PCS_MIB) return g_strdup_printf("%.4gM", b / PCS_MIB);
  if (b >= PCS_KIB) return g_strdup_printf("%.4gK", b / PCS_KIB);
  return g_strdup_printf("%.0f", b);
}

/* Per-trace values of a fit, e.g. "a 48.2us 1.9G/s, b not identifiable". */
typedef void (*FitText)(GString *s, const Fit *f);

static void per_trace_fits(const PcsCalibration *c, const GArray *samples, GString *s, FitText text) {
  if (c->traces->len < 2) return;
  g_string_append(s, "; per trace:");
  for (guint i = 0; i < c->traces->len; i++) {
    Fit f = fit_line(samples, i);
    g_string_append_printf(s, "%s %s ", i ? "," : "", g_array_index(c->traces, TraceTally, i).name);
    if (f.ok) text(s, &f);
    else g_string_append(s, "not identifiable");
  }
}

/* S with every sample in trace 0: a fit with one intercept over the traces. */
static GArray *pooled(const GArray *s) {
  GArray *p = g_array_sized_new(FALSE, FALSE, sizeof(Sample), s->len);
  for (guint i = 0; i < s->len; i++) {
    Sample one = g_array_index(s, Sample, i);
    one.trace = 0;
    g_array_append_val(p, one);
  }
  return p;
}

static void device_text(GString *s, const Fit *f) {
  g_string_append_printf(s, "%.1fus %.3gG/s", f->a / PCS_NS_PER_US, PCS_NS_PER_S / f->b / (1024.0 * PCS_MIB));
}

/* The requests a device fit uses, most telling first. */
static const struct {
  size_t offset;
  const char *what;
} device_sets[] = {
  {G_STRUCT_OFFSET(PcsCalibration, dev_solo), "with no other request in flight from issue to completion"},
  {G_STRUCT_OFFSET(PcsCalibration, dev_iso), "issued with no other request in flight"},
  {G_STRUCT_OFFSET(PcsCalibration, dev_busy), "as busy periods (requests all in flight at once, a lone one "
                                              "among them), their bytes against the period's time"},
  {G_STRUCT_OFFSET(PcsCalibration, dev_all), "paired (overlapping ones included: their time holds queueing)"},
};
enum { DEVICE_SET_BUSY = 2 }; /* device_sets[]: the shared-rate fit */

/* device.jitter: the spread of the fitted requests' service time over the
 * fit's prediction for their size (a lognormal's sigma from the quartiles,
 * ln(q3 / q1) / 1.349), one factor for latency and transfer as the model
 * draws it. */
static void device_jitter(PcsCalibration *c, const GArray *set, double a, double b, const char *what) {
  g_autoptr(GArray) r = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < set->len; i++) {
    const Sample *p = &g_array_index(set, Sample, i);
    double ratio = p->y / (a + b * p->x);
    if (ratio > 0) g_array_append_val(r, ratio);
  }
  g_array_sort(r, cmp_double);
  const double *d = (const double *)(void *)r->data;
  double q1 = quantile(d, r->len, 0.25), q3 = quantile(d, r->len, 0.75);
  if (r->len < MIN_FIT_SAMPLES || !(q1 > 0)) {
    set_est(c, PCS_CAL_JITTER, FALSE, 0,
            g_strdup_printf("jitter: not measurable from this trace: %u requests %s; kept from the base", r->len, what));
    return;
  }
  double sigma = log(q3 / q1) / 1.349, measured = sigma;
  sigma = MIN(sigma, 0.99); /* a fraction below 1 */
  set_est(c, PCS_CAL_JITTER, TRUE, sigma,
          g_strdup_printf("jitter: the spread of the service time of the %u requests %s over latency + bytes / "
                          "bandwidth as set above: quartiles %.2f..%.2f, median %.2f; a lognormal of sigma "
                          "ln(q3 / q1) / 1.349 = %.3f",
                          r->len, what, q1, q3, quantile(d, r->len, 0.5), sigma));
  if (r->len < 50) warn_est(c, PCS_CAL_JITTER, g_strdup_printf("the spread rests on %u requests", r->len));
  if (measured > sigma)
    warn_est(c, PCS_CAL_JITTER, g_strdup_printf("the spread, %.3f, is cut to 0.99 (device.jitter is below 1)", measured));
}

/* In-flight classes of the parallelism table (mean requests in flight over
 * a request's service, itself included). */
static const double inflight_edges[] = {1.0, 1.5, 2.5, 4.5, 8.5, 1e9};

/* Each overlapping request's parallelism against latency A and ns per
 * byte B: the mean number in flight over its service n times its transfer
 * alone against its transfer here, n (bytes B) / (service - A), at most n
 * (sorted). */
static GArray *parallelism(const PcsCalibration *c, double a, double b, double *most) {
  GArray *par = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < c->overlap->len; i++) {
    const Overlap *o = &g_array_index(c->overlap, Overlap, i);
    if (o->inflight < inflight_edges[1] || o->ns <= a) continue;
    double p = MIN(o->inflight * (b * o->bytes) / (o->ns - a), o->inflight);
    g_array_append_val(par, p);
    if (most) *most = MAX(*most, o->inflight);
  }
  g_array_sort(par, cmp_double);
  return par;
}

/* "1.0..1.5: N requests, 1.14x; ...": service over A + B bytes by requests in flight. */
static char *stretch_table(const PcsCalibration *c, double a, double b) {
  guint nclass = G_N_ELEMENTS(inflight_edges) - 1;
  GString *table = g_string_new(NULL);
  for (guint k = 0; k < nclass; k++) {
    g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < c->overlap->len; i++) {
      const Overlap *o = &g_array_index(c->overlap, Overlap, i);
      if (o->inflight < inflight_edges[k] || o->inflight >= inflight_edges[k + 1]) continue;
      double st = o->ns / (a + b * o->bytes);
      g_array_append_val(v, st);
    }
    if (!v->len) continue;
    g_array_sort(v, cmp_double);
    g_string_append_printf(table, "%s%.1f..", table->len ? "; " : "", inflight_edges[k]);
    if (k + 1 < nclass) g_string_append_printf(table, "%.1f", inflight_edges[k + 1]);
    g_string_append_printf(table, ": %u requests, %.2fx", v->len, quantile((const double *)(void *)v->data, v->len, 0.5));
  }
  return g_string_free(table, FALSE);
}

/* device.sharing from the batches' spread SP (SHARED: they complete together). */
static void sharing_estimate(PcsCalibration *c, const Spread *sp, gboolean shared) {
  set_est(c, PCS_CAL_SHARING, TRUE, shared ? 1 : 0,
          sp->n < 10 ? g_strdup_printf("sharing: 0, FIFO: %u batches of 3 or more requests issued together (10 needed "
                                       "to tell whether they complete together)", sp->n)
                     : g_strdup_printf("sharing: %d: of %u batches of 3 or more requests issued together (all in "
                                       "flight at once), the spread of their completions over the batch's time is %.2f "
                                       "(median; IQR %.2f..%.2f): %s", shared, sp->n, sp->median, sp->q1, sp->q3,
                                       shared ? "they complete together, as transfers sharing the rate do"
                                              : "they complete one after another, as FIFO transfers do"));
}

/* The median of Y - B X over SAMPLES (at least 0): the latency that with
 * B ns a byte serves them in their median time. */
static double median_residual(const GArray *samples, double b) {
  g_autoptr(GArray) rest = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < samples->len; i++) {
    const Sample *s = &g_array_index(samples, Sample, i);
    double r = s->y - b * s->x;
    g_array_append_val(rest, r);
  }
  g_array_sort(rest, cmp_double);
  return MAX(0.0, quantile((const double *)(void *)rest->data, rest->len, 0.5));
}

/* device.latency of one channel: A, the median of the ALONE requests'
 * service less bytes / bandwidth; MORE says how the rate was read. */
static void one_channel_latency(PcsCalibration *c, const Fit *f, const GArray *alone, const char *what,
                                const char *names, double a, const char *more) {
  set_est(c, PCS_CAL_LATENCY, TRUE, a,
          g_strdup_printf("latency: %.1f us, with bandwidth below the one channel that serves the %u requests %s in "
                          "their median time (the median of service - bytes / bandwidth)%s; the alone fit's intercept "
                          "was %.1f us (%s); from %s",
                          a / PCS_NS_PER_US, alone->len, what, more, f->a / PCS_NS_PER_US,
                          c->est[PCS_CAL_LATENCY].comment, names));
}

/* The ns a byte of the loaded busy periods (c->dev_load) after latency A:
 * their time less A, summed, over their bytes, summed (the rate the
 * device moved them at as a whole, its slow periods included); the
 * quartiles of each period's own (time - A) / bytes in Q1, Q3. */
static double load_rate(const PcsCalibration *c, double a, double *q1, double *q3) {
  g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
  double bytes = 0, ns = 0;
  for (guint i = 0; i < c->dev_load->len; i++) {
    const Sample *s = &g_array_index(c->dev_load, Sample, i);
    if (s->y <= a || s->x <= 0) continue;
    double r = (s->y - a) / s->x;
    g_array_append_val(v, r);
    bytes += s->x, ns += s->y - a;
  }
  if (!v->len) return 0;
  g_array_sort(v, cmp_double);
  const double *d = (const double *)(void *)v->data;
  *q1 = quantile(d, v->len, 0.25), *q3 = quantile(d, v->len, 0.75);
  return ns / bytes;
}

/* A one-channel device of rate B (ns a byte): device.bandwidth with WHY (taken), device.channels 1,
 * and device.sharing from the batches' spread SP (SHARED). */
static void one_channel_rate(PcsCalibration *c, double b, const char *head, const char *names, const Spread *sp,
                             gboolean shared, char *why) {
  set_est(c, PCS_CAL_BANDWIDTH, TRUE, PCS_NS_PER_S / b, why);
  set_est(c, PCS_CAL_CHANNELS, TRUE, 1, g_strdup_printf("channels: 1, %s; from %s", head, names));
  sharing_estimate(c, sp, shared);
}

/* One channel whose transfers share its rate (device.sharing = 1): the
 * rate is read off the busy periods that load it, c->dev_load (LOAD_MIN or
 * more requests all in flight at once; in the one-thread captures the
 * readahead windows' requests at the larger read_ahead_kb).  On such a
 * device a period takes latency + its bytes / bandwidth whatever its
 * requests' sizes and issue times, as long as the transfers never stop,
 * so bandwidth = the periods' bytes over their time less latency, summed
 * over them all (load_rate()); latency the median of the alone requests'
 * service less bytes / bandwidth; the two repeated until they settle.
 * This is the model's own definition of the rate, measured where the
 * device is loaded.  The parallelism of single overlapping requests
 * against the alone fit (device_parallel()) read it indirectly, through
 * the alone fit's line, and gave rates up to 1.5x what the loaded periods
 * show: the one-thread 4 MiB runs then ran that much faster than their own
 * capture (docs/notebook/2026-12-07-loaded-rate.md).  FALSE, nothing set,
 * when no loaded period outlasts the alone fit's latency. */
static gboolean device_loaded(PcsCalibration *c, const Fit *f, const GArray *alone, const char *what,
                              const char *names, const char *head, const Spread *sp, double *a_out, double *b_out) {
  double a = f->a, b = f->b, q1 = 0, q3 = 0;
  if (load_rate(c, a, &q1, &q3) <= 0) return FALSE; /* no loaded period outlasts the latency */
  guint iter = 0;
  for (; iter < 50; iter++) {
    double nb = load_rate(c, a, &q1, &q3);
    if (nb <= 0) break;
    double na = median_residual(alone, nb);
    gboolean settled = fabs(nb - b) <= 1e-3 * b && fabs(na - a) <= 100;
    a = na, b = nb;
    if (settled) break;
  }
  g_autofree char *after = stretch_table(c, a, b);
  one_channel_latency(c, f, alone, what, names, a, "");
  one_channel_rate(c, b, head, names, sp, TRUE,
                   g_strdup_printf("bandwidth: %.0f MiB/s, the one channel's rate under load: the bytes of the %u busy "
                                   "periods of %d or more requests all in flight at once over their time less the latency "
                                   "above, summed (each period's own rate: IQR %.0f..%.0f MiB/s), both repeated until they "
                                   "settled (%u rounds; the alone fit's rate was %.0f MiB/s).  Service time over latency + "
                                   "bytes / bandwidth, median by requests in flight: %s",
                                   PCS_NS_PER_S / b / PCS_MIB, c->dev_load->len, LOAD_MIN, PCS_NS_PER_S / q3 / PCS_MIB,
                                   PCS_NS_PER_S / q1 / PCS_MIB, iter + 1, PCS_NS_PER_S / f->b / PCS_MIB, after));
  if (q3 > 2 * MAX(q1, 1e-6))
    warn_est(c, PCS_CAL_BANDWIDTH,
             g_strdup_printf("wide spread: the loaded busy periods' rates run %.0f..%.0f MiB/s (IQR)",
                             PCS_NS_PER_S / q3 / PCS_MIB, PCS_NS_PER_S / q1 / PCS_MIB));
  *a_out = a, *b_out = b;
  return TRUE;
}

/* The device's parallelism and, when it overlaps no transfers, its rate
 * under load.  With the alone fit F: P, the median parallelism of the
 * requests that overlapped another (parallelism()).  P >= 1.5: the device
 * runs that many transfers at the alone rate (device.channels = P rounded,
 * FIFO, the fit's latency and bandwidth).  Below: one channel, and a P
 * other than 1 says the fit's bandwidth is not the rate the device moves
 * overlapping requests at: bandwidth = P times it, latency = the median of
 * the alone requests' service less bytes / bandwidth, repeated until both
 * settle (the one channel then moves the overlapping requests at P = 1 and
 * serves the alone ones in their median time).  device.sharing: 1 when the
 * requests of a batch (3 or more issued together, all in flight at once)
 * complete together (the spread of their completions under a quarter of
 * the batch's time, median), else 0.  Returns the latency and ns per byte
 * the device is set to (for the jitter). */
static void device_parallel(PcsCalibration *c, const Fit *f, const GArray *alone, const char *what, const char *names,
                            double *a_out, double *b_out) {
  double most = 0, a = f->a, b = f->b;
  *a_out = a, *b_out = b;
  g_autoptr(GArray) par = parallelism(c, a, b, &most);
  g_autofree char *table = stretch_table(c, a, b);
  if (par->len < MIN_FIT_SAMPLES) {
    set_est(c, PCS_CAL_CHANNELS, FALSE, 0,
            g_strdup_printf("channels: not measurable from this trace: %u requests overlapped another for most of their "
                            "service (%d needed); kept from the base", par->len, MIN_FIT_SAMPLES));
    set_est(c, PCS_CAL_SHARING, FALSE, 0, g_strdup("sharing: kept from the base (channels not measured)"));
    return;
  }
  const double *d = (const double *)(void *)par->data;
  double med = quantile(d, par->len, 0.5), q1 = quantile(d, par->len, 0.25), q3 = quantile(d, par->len, 0.75);
  g_autofree char *head = g_strdup_printf(
      "the device's parallelism, from block_rq_issue -> block_rq_complete of the %u read requests that overlapped "
      "another: each one's mean number of requests in flight over its service n times (bytes / bandwidth) / (service - "
      "latency), the transfers the device moved at the alone rate meanwhile; median %.2f (IQR %.2f..%.2f) against the "
      "alone fit (latency %.1f us, %.0f MiB/s; at most %.1f in flight on average over one request).  Service time over "
      "the alone time, median by requests in flight: %s",
      par->len, med, q1, q3, a / PCS_NS_PER_US, PCS_NS_PER_S / b / PCS_MIB, most, table);
  if (med >= 1.5) {
    uint64_t ch = (uint64_t)floor(med + 0.5);
    set_est(c, PCS_CAL_CHANNELS, TRUE, (double)ch,
            g_strdup_printf("channels: %" G_GUINT64_FORMAT ", %s; from %s", ch, head, names));
    set_est(c, PCS_CAL_SHARING, TRUE, 0,
            g_strdup("sharing: 0, FIFO transfers on device.channels channels, each at device.bandwidth (the alone "
                     "rate): the model the channels estimate is made in"));
    if (par->len < 50) warn_est(c, PCS_CAL_CHANNELS, g_strdup_printf("rests on %u overlapping requests", par->len));
    return;
  }
  /* batches issued together: completed together (shared) or one after another (FIFO) */
  Spread sp = spread_of(c->batches, G_MAXUINT);
  gboolean shared = sp.n >= 10 && sp.median < 0.25;
  if (shared && c->dev_load->len >= MIN_FIT_SAMPLES && device_loaded(c, f, alone, what, names, head, &sp, a_out, b_out))
    return;
  /* one channel: its rate under load, and the latency that with it gives the alone requests' median time */
  double p = med;
  guint iter = 0;
  for (; iter < 50; iter++) {
    double nb = b / MAX(p, 1e-3);
    double na = median_residual(alone, nb);
    g_autoptr(GArray) again = parallelism(c, na, nb, NULL);
    double np = again->len ? quantile((const double *)(void *)again->data, again->len, 0.5) : 1.0;
    gboolean settled = fabs(nb - b) <= 1e-3 * b && fabs(na - a) <= 100;
    a = na, b = nb, p = np;
    if (settled || again->len < MIN_FIT_SAMPLES) break;
  }
  g_autofree char *after = stretch_table(c, a, b);
  one_channel_latency(c, f, alone, what, names, a, " and moves the overlapping ones at the rate they show");
  one_channel_rate(c, b, head, names, &sp, shared,
                   g_strdup_printf("bandwidth: %.0f MiB/s, the rate the device moves overlapping requests at: the alone fit's "
                                   "%.0f MiB/s times their median parallelism %.2f (below 1.5: the device overlaps no transfers, "
                                   "one channel), repeated with the latency above until both settled (%u rounds; parallelism "
                                   "then %.2f).  Service time over latency + bytes / bandwidth, median by requests in flight: %s",
                                   PCS_NS_PER_S / b / PCS_MIB, PCS_NS_PER_S / f->b / PCS_MIB, med, iter + 1, p, after));
  if (q3 > 2 * MAX(q1, 0.01))
    warn_est(c, PCS_CAL_BANDWIDTH,
             g_strdup_printf("wide spread: the overlapping requests' parallelism runs %.2f..%.2f (IQR) against the alone "
                             "fit: no one rate serves them all",
                             q1, q3));
  if (a < 0.25 * f->a)
    warn_est(c, PCS_CAL_LATENCY,
             g_strdup_printf("%.1f us against the alone fit's %.1f us: a device that serves a lone request faster than "
                             "its loaded rate allows (no latency + size / bandwidth device with one rate fits both)",
                             a / PCS_NS_PER_US, f->a / PCS_NS_PER_US));
  *a_out = a, *b_out = b;
}

/* The busy-period fit (no lone requests of two sizes, as a one-thread
 * capture of ext4 or xfs shows: 256 KiB windows one request at a time, 8
 * MiB ones as seven requests issued together that complete together): a
 * period's time is latency + its bytes / bandwidth, the device's rate
 * shared by the requests in flight (device.sharing = 1, one channel). */
static void device_shared(PcsCalibration *c, const Fit *f) {
  set_est(c, PCS_CAL_CHANNELS, TRUE, 1,
          g_strdup("channels: 1, the rate the busy-period fit gives is the device's whole: its requests share it"));
  set_est(c, PCS_CAL_SHARING, TRUE, 1,
          g_strdup_printf("sharing: 1: the requests of a busy period share the rate (the fit's %u periods, %u sizes "
                          "of %.0f..%.0f KiB, include requests issued together that completed together)",
                          f->n, f->groups, f->xlo / PCS_KIB, f->xhi / PCS_KIB));
}

/* The size most of SET's requests have (at least MIN_GROUP of them), its
 * samples' median service time in *MEDIAN and count in *N; 0: none. */
static double common_size(const GArray *set, double *median, guint *n) {
  g_autoptr(GArray) sorted = g_array_copy((GArray *)set);
  g_array_sort(sorted, cmp_sample_size);
  double size = 0;
  guint first = 0;
  *n = 0;
  for (guint i = 0, run = 0; i < sorted->len; i = run) { /* runs of one size, smallest first */
    double x = g_array_index(sorted, Sample, i).x;
    for (run = i; run < sorted->len && g_array_index(sorted, Sample, run).x == x; run++) {}
    if (run - i > *n) size = x, *n = run - i, first = i;
  }
  if (*n < MIN_GROUP) return 0;
  g_autoptr(GArray) one = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = first; i < first + *n; i++) g_array_append_val(one, g_array_index(sorted, Sample, i).y);
  g_array_sort(one, cmp_double);
  *median = quantile((const double *)(void *)one->data, one->len, 0.5);
  return size;
}

/* No fit over sizes (the traces' requests alone on the device all of one
 * size, and their busy periods not growing with it): that size's median
 * time alone is the one point the traces give, and the base's device is
 * scaled to it, latency and transfer alike (the base's split between
 * them, another host's, kept); channels, sharing and jitter stay the
 * base's.  Better than the base's device unscaled, which may be several
 * times slower or faster at that size; warned. */
static void device_one_size(PcsCalibration *c, const PcsParams *base, const char *names) {
  const GArray *sets[] = {c->dev_solo, c->dev_iso};
  const char *whats[] = {device_sets[0].what, device_sets[1].what};
  for (size_t k = 0; k < G_N_ELEMENTS(sets); k++) {
    double median;
    guint n;
    double size = common_size(sets[k], &median, &n);
    double at_base = (double)base->device_latency + size / (double)base->device_bandwidth * PCS_NS_PER_S;
    if (size == 0 || !(median > 0) || !(at_base > 0)) continue;
    double scale = median / at_base;
    g_autofree char *why = g_strdup_printf("the %u requests of %.0f KiB %s take %.1f us (median), the base's device "
                                           "%.1f us at that size: its latency and bandwidth scaled by %.3f, one size "
                                           "the only size the traces time alone (%s)",
                                           n, size / PCS_KIB, whats[k], median / PCS_NS_PER_US, at_base / PCS_NS_PER_US,
                                           scale, names);
    set_est(c, PCS_CAL_LATENCY, TRUE, (double)base->device_latency * scale,
            g_strdup_printf("latency: %.1f us: %s", (double)base->device_latency * scale / PCS_NS_PER_US, why));
    set_est(c, PCS_CAL_BANDWIDTH, TRUE, (double)base->device_bandwidth / scale,
            g_strdup_printf("bandwidth: %.0f MiB/s, as latency above", (double)base->device_bandwidth / scale / PCS_MIB));
    for (PcsCalibrateId id = PCS_CAL_LATENCY; id <= PCS_CAL_BANDWIDTH; id++)
      warn_est(c, id, g_strdup("one request size only: the base's device scaled to its time (see the comment)"));
    return;
  }
}

/* cost.loop_worker, cost.loop_request: the loop device's worker (loop.c),
 * a platform fact the base measured once with scheduler events, which the
 * traces (no scheduler events) do not show.  Kept from the base when the
 * machine file names a loop device (loop=, device=/dev/loopN or dev=7:N) or
 * names none; 0 when it names another device, whose requests go to its
 * driver with no worker between.  The device fit (device_estimates()) is
 * not reduced by the worker's run, though a trace's block_rq_issue ->
 * block_rq_complete holds it and the scenario runs it apart: taking it out
 * (19 us off the latency) held 289 of 460 calibrated rows against 294
 * (docs/notebook/2026-12-07-loop-double-count.md). */
static void loop_estimates(PcsCalibration *c) {
  const PcsCalibrateId ids[] = {PCS_CAL_LOOP_WORKER, PCS_CAL_LOOP_REQUEST};
  for (size_t k = 0; k < G_N_ELEMENTS(ids); k++) {
    if (c->loop == 0)
      set_est(c, ids[k], TRUE, 0,
              g_strdup_printf("%s: 0, no loop device: %s in %s is the device the traces were read from, whose "
                              "requests go to its driver with no loop worker between", est_key[ids[k]], c->device,
                              c->machine));
    else
      set_est(c, ids[k], FALSE, 0,
              c->loop == 1 ? g_strdup_printf("%s: a loop device (%s in %s): the worker's costs are the base's, "
                                             "measured once with scheduler events, which these traces do not hold "
                                             "(scripts/pcsim-trace loop-worker on tests/data/kernel-6.18-idle/mechanism; "
                                             "docs/notebook/2026-12-05-loop-worker.md); kept from the base",
                                             est_key[ids[k]], c->device, c->machine)
                           : g_strdup_printf("%s: %s; kept from the base", est_key[ids[k]],
                                             c->machine ? "the machine file names no device (loop=, device= or dev=)"
                                                        : "no machine file"));
  }
}

static void device_estimates(PcsCalibration *c, const PcsParams *base, const char *names) {
  uint64_t paired = 0, isolated = 0, solo = 0;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    paired += t->paired, isolated += t->isolated, solo += t->solo;
  }
  Fit f = {0};
  const GArray *set = NULL;
  g_autoptr(GString) tried = g_string_new(NULL);
  g_autoptr(GArray) busy = pooled(c->dev_busy);
  size_t k = 0;
  for (; k < G_N_ELEMENTS(device_sets); k++) {
    set = k == DEVICE_SET_BUSY ? busy : G_STRUCT_MEMBER(GArray *, c, device_sets[k].offset);
    f = fit_line(set, G_MAXUINT);
    if (f.ok) break;
    g_string_append_printf(tried, "%s%s: %s", tried->len ? "; " : "", device_sets[k].what, f.why);
  }
  if (!f.ok) {
    g_autofree char *why = g_strdup_printf("not measurable from this trace: device service time against request size "
                                           "(%" G_GUINT64_FORMAT " read requests paired issue -> complete): %s; kept "
                                           "from the base", paired, tried->str);
    set_est(c, PCS_CAL_LATENCY, FALSE, 0, g_strdup_printf("latency: %s", why));
    set_est(c, PCS_CAL_BANDWIDTH, FALSE, 0, g_strdup_printf("bandwidth: %s", why));
    set_est(c, PCS_CAL_JITTER, FALSE, 0, g_strdup("jitter: kept from the base (no device fit)"));
    set_est(c, PCS_CAL_CHANNELS, FALSE, 0, g_strdup("channels: kept from the base (no device fit)"));
    set_est(c, PCS_CAL_SHARING, FALSE, 0, g_strdup("sharing: kept from the base (no device fit)"));
    device_one_size(c, base, names);
    return;
  }
  g_autofree char *lo = fmt_bytes(f.xlo), *hi = fmt_bytes(f.xhi);
  g_autoptr(GString) s = g_string_new(NULL);
  g_string_append_printf(s, "block_rq_issue -> block_rq_complete of read requests (data and metadata): service = "
                         "latency + bytes / bandwidth, least squares (slope within each trace) over the median time of %u sizes per trace "
                         "(%s..%s) from %u requests %s (of %" G_GUINT64_FORMAT " paired; %" G_GUINT64_FORMAT
                         " issued alone, %" G_GUINT64_FORMAT " alone throughout)%s%s; residual IQR %+.0f..%+.0f us",
                         f.groups, lo, hi, f.n, device_sets[k].what, paired, isolated, solo,
                         tried->len ? "; not usable: " : "", tried->str, f.r_q1 / PCS_NS_PER_US,
                         f.r_q3 / PCS_NS_PER_US);
  per_trace_fits(c, k == DEVICE_SET_BUSY ? c->dev_busy : set, s, device_text);
  if (c->dropped) g_string_append_printf(s, "; left out: %s", c->dropped);
  g_string_append_printf(s, "; from %s", names);
  set_est(c, PCS_CAL_LATENCY, TRUE, f.a, g_strdup_printf("latency: the intercept, %.1f us. %s", f.a / PCS_NS_PER_US,
                                                         s->str));
  double bw = PCS_NS_PER_S / f.b;
  set_est(c, PCS_CAL_BANDWIDTH, TRUE, bw,
          g_strdup_printf("bandwidth: 1 / the slope of the latency fit above, %.0f MiB/s", bw / PCS_MIB));
  double a = f.a, b = f.b;
  if (k == DEVICE_SET_BUSY)
    device_shared(c, &f);
  else
    device_parallel(c, &f, set, device_sets[k].what, names, &a, &b);
  device_jitter(c, set, a, b, device_sets[k].what);
  if (f.n < 50)
    for (PcsCalibrateId id = PCS_CAL_LATENCY; id <= PCS_CAL_BANDWIDTH; id++)
      warn_est(c, id, g_strdup_printf("the device fit rests on %u requests", f.n));
  if (k > 0)
    for (PcsCalibrateId id = PCS_CAL_LATENCY; id <= PCS_CAL_BANDWIDTH; id++)
      warn_est(c, id, g_strdup_printf("too few requests alone on the device: fitted on those %s", device_sets[k].what));
}

static void queue_depth_estimate(PcsCalibration *c, const char *names) {
  g_autoptr(GString) s = g_string_new(NULL);
  uint64_t max = 0;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    max = MAX(max, t->max_in_flight);
    g_string_append_printf(s, "%s%s %" G_GUINT64_FORMAT, i ? ", " : "", t->name, t->max_in_flight);
  }
  g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < c->inflight->len; i++) g_array_append_val(v, g_array_index(c->inflight, Sample, i).x);
  g_array_sort(v, cmp_double);
  const double *d = (const double *)(void *)v->data;
  g_autofree char *seen = g_strdup_printf("the most read requests in flight at once (issued, not completed), %"
                          G_GUINT64_FORMAT "; in flight at each of %u issues: median %.0f, IQR %.0f..%.0f; max per "
                          "trace: %s; from %s",
                          max, v->len, quantile(d, v->len, 0.5), quantile(d, v->len, 0.25), quantile(d, v->len, 0.75),
                          s->str, names);
  if (c->machine && c->mach_set[PCS_CAL_QUEUE_DEPTH]) {
    set_est(c, PCS_CAL_QUEUE_DEPTH, TRUE, (double)c->mach[PCS_CAL_QUEUE_DEPTH],
            g_strdup_printf("queue_depth: nr_requests in %s, %" G_GUINT64_FORMAT ", the queue's limit; the traces "
                            "show %s", c->machine, c->mach[PCS_CAL_QUEUE_DEPTH], seen));
    return;
  }
  set_est(c, PCS_CAL_QUEUE_DEPTH, max > 0, (double)max,
          g_strdup_printf("queue_depth: %s: a lower bound on what the device overlaps (no nr_requests in a machine "
                          "file)", seen));
}

/* The spacing is shorter than the base's split of it allows (what is left
 * for insert_won after the base's tree_lock_hold and lru_drain / 31 is less
 * than the base's insert_alloc, a part of it): a machine faster on this path
 * than the base's.  Split it in the base's proportions instead: insert_won,
 * insert_alloc and lru_drain all scaled by (spacing - tree_lock_hold) / (the
 * base's insert_won + lru_drain / 31).  tree_lock_hold stays the base's: the
 * model needs it for lock contention, and the trace cannot show it. */
/* The factor the base's insert_won, insert_alloc and lru_drain are scaled
 * by when SPACING (one insert's time, tree_lock_hold and lru_drain / 31 in
 * it) is shorter than the base's split of it allows. */
static double insert_split_factor(const PcsParams *base, double spacing) {
  double hold = (double)base->cost_tree_lock_hold, drain31 = (double)base->cost_lru_drain / PCS_CAL_LRU_BATCH;
  return (spacing - hold) / ((double)base->cost_insert_won + drain31);
}

/* insert_won, insert_alloc and lru_drain: the base's times K; WHY (owned)
 * says what was measured. */
static void insert_set_scaled(PcsCalibration *c, const PcsParams *base, double k, char *why) {
  set_est(c, PCS_CAL_INSERT_WON, TRUE, k * (double)base->cost_insert_won,
          g_strdup_printf("insert_won: scaled (the base's times %.3f): %s", k, why));
  set_est(c, PCS_CAL_INSERT_ALLOC, TRUE, k * (double)base->cost_insert_alloc,
          g_strdup_printf("insert_alloc: scaled with insert_won (the base's times %.3f)", k));
  set_est(c, PCS_CAL_LRU_DRAIN, TRUE, k * (double)base->cost_lru_drain,
          g_strdup_printf("lru_drain: scaled with insert_won (the base's times %.3f)", k));
  g_free(why);
}

static void insert_split_scaled(PcsCalibration *c, const PcsParams *base, const Spread *sp, uint64_t pairs,
                                const char *per, const char *names) {
  double hold = (double)base->cost_tree_lock_hold, drain31 = (double)base->cost_lru_drain / PCS_CAL_LRU_BATCH;
  double whole = (double)base->cost_insert_won + hold + drain31;
  double k = insert_split_factor(base, sp->median);
  char *why = g_strdup_printf(
      "the spacing of one thread's mm_filemap_add_to_page_cache lines on consecutive pages with no other event "
      "between, mean per run, median over %u runs (%" G_GUINT64_FORMAT " pairs), is %.0f ns, IQR %.0f..%.0f ns%s: "
      "less than the base's split of it allows (cost.insert_won %" G_GUINT64_FORMAT " ns with cost.insert_alloc %"
      G_GUINT64_FORMAT " ns in it, cost.tree_lock_hold %.0f ns, cost.lru_drain / 31 %.0f ns: %.0f ns), so this "
      "machine's insert path is faster than the base's.  The spacing less tree_lock_hold is split in the base's "
      "proportions: insert_won, insert_alloc and lru_drain are the base's times %.3f; from %s",
      sp->n, pairs, sp->median, sp->q1, sp->q3, per, base->cost_insert_won, base->cost_insert_alloc, hold, drain31,
      whole, k, names);
  insert_set_scaled(c, base, k, why);
}

static void insert_warn(PcsCalibration *c, const Spread *sp) {
  if (sp->n < 30) warn_est(c, PCS_CAL_INSERT_WON, g_strdup_printf("rests on %u runs of inserts", sp->n));
  else if (sp->q3 - sp->q1 > 0.5 * sp->median)
    warn_est(c, PCS_CAL_INSERT_WON, g_strdup_printf("wide spread: IQR %.0f..%.0f ns around %.0f ns", sp->q1, sp->q3,
                                                    sp->median));
}

static void insert_estimate(PcsCalibration *c, const PcsParams *base, const char *names) {
  Spread sp = spread_of(c->runs, G_MAXUINT);
  uint64_t pairs = 0;
  g_autoptr(GString) per = g_string_new(NULL);
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    Spread one = spread_of(c->runs, i);
    pairs += t->insert_pairs;
    if (c->traces->len > 1)
      g_string_append_printf(per, "%s %s %.0f ns", i ? "," : "; per trace:", t->name, one.median);
  }
  double hold = (double)base->cost_tree_lock_hold + (double)base->cost_lru_drain / PCS_CAL_LRU_BATCH;
  if (sp.n < MIN_RUNS || sp.median <= (double)base->cost_tree_lock_hold) {
    set_est(c, PCS_CAL_INSERT_WON, FALSE, 0,
            g_strdup_printf("insert_won: not measurable from this trace: %u runs of one thread's inserts on "
                            "consecutive pages with nothing between (%d needed), median spacing %.0f ns against "
                            "cost.tree_lock_hold %.0f ns; kept from the base", sp.n, MIN_RUNS, sp.median,
                            (double)base->cost_tree_lock_hold));
    return;
  }
  if (sp.median - hold >= (double)base->cost_insert_alloc) {
    set_est(c, PCS_CAL_INSERT_WON, TRUE, sp.median - hold,
            g_strdup_printf("insert_won: spacing of one thread's mm_filemap_add_to_page_cache lines on consecutive "
                            "pages with no other event between, mean per run, median over %u runs (%" G_GUINT64_FORMAT
                            " pairs): %.0f ns, IQR %.0f..%.0f ns%s; minus the base's cost.tree_lock_hold and "
                            "cost.lru_drain / 31, %.0f ns (the model charges them on their own).  The spacing holds the "
                            "folio allocation, the memcg charge, the insert under the i_pages lock, the tracepoint and "
                            "every 31st insert the LRU batch's drain; from %s",
                            sp.n, pairs, sp.median, sp.q1, sp.q3, per->str, hold, names));
    insert_warn(c, &sp);
    return;
  }
  insert_split_scaled(c, base, &sp, pairs, per->str, names);
  insert_warn(c, &sp);
}

static void bio_text(GString *s, const Fit *f) {
  g_string_append_printf(s, "%.2fus/page %.1fus/bio", f->b / PCS_NS_PER_US, f->a / PCS_NS_PER_US);
}

static void bio_estimates(PcsCalibration *c, const char *names) {
  Fit f = fit_line(c->gaps, G_MAXUINT);
  if (!f.ok) {
    g_autofree char *why = g_strdup_printf("not measurable from this trace: the gap before a thread's data bio in "
                                           "one readahead batch against its pages (%u gaps): %s; kept from the base",
                                           c->gaps->len, f.why);
    set_est(c, PCS_CAL_READ_SETUP, FALSE, 0, g_strdup_printf("read_setup: %s", why));
    set_est(c, PCS_CAL_BIO_SUBMIT, FALSE, 0, g_strdup_printf("bio_submit: %s", why));
    return;
  }
  g_autoptr(GString) s = g_string_new(NULL);
  g_string_append_printf(s, "the gap before each data block_bio_queue of a thread from its previous insert or bio in "
                         "the same readahead batch, against the bio's pages: gap = bio_submit + pages * read_setup, "
                         "least squares (slope within each trace) over the median gap of %u sizes per trace (%.0f..%.0f pages) from %u gaps (of %u); "
                         "residual IQR %+.1f..%+.1f us",
                         f.groups, f.xlo, f.xhi, f.n, c->gaps->len, f.r_q1 / PCS_NS_PER_US, f.r_q3 / PCS_NS_PER_US);
  per_trace_fits(c, c->gaps, s, bio_text);
  g_string_append_printf(s, "; from %s", names);
  set_est(c, PCS_CAL_READ_SETUP, TRUE, f.b,
          g_strdup_printf("read_setup: the slope, %.0f ns per page (per-page work in btrfs_readahead: extent map, "
                          "bio_add_folio). %s", f.b, s->str));
  set_est(c, PCS_CAL_BIO_SUBMIT, TRUE, f.a,
          g_strdup_printf("bio_submit: the intercept of the read_setup fit above, %.1f us per bio (btrfs_submit_bio, "
                          "checksum lookup, the block layer; the first bio of a batch also carries the batch's start)",
                          f.a / PCS_NS_PER_US));
  if (f.n < 50)
    for (PcsCalibrateId id = PCS_CAL_READ_SETUP; id <= PCS_CAL_BIO_SUBMIT; id++)
      warn_est(c, id, g_strdup_printf("the fit rests on %u bios", f.n));
  else if (f.r_q3 - f.r_q1 > f.a)
    warn_est(c, PCS_CAL_BIO_SUBMIT, g_strdup_printf("wide spread: residual IQR %+.1f..%+.1f us against %.1f us",
                                                    f.r_q1 / PCS_NS_PER_US, f.r_q3 / PCS_NS_PER_US, f.a / PCS_NS_PER_US));
}

/* ---- large folios: ext4 and xfs ---- */


/* The samples of S as one trace: for a fit across traces when each trace
 * shows one size (the one-thread captures' windows). */

/* "1 (46: 1.0 us), 4 (39: 1.0 us), ...": each X of S pooled over the traces,
 * its samples and median Y. */
static char *size_medians(const GArray *s) {
  g_autoptr(GArray) v = pooled(s);
  g_array_sort(v, cmp_sample);
  GString *out = g_string_new(NULL);
  for (guint i = 0, j; i < v->len; i = j) {
    const Sample *g = &g_array_index(v, Sample, i);
    for (j = i; j < v->len && g_array_index(v, Sample, j).x == g->x;) j++;
    guint n = j - i;
    double med = (n % 2) ? g[n / 2].y : (g[n / 2 - 1].y + g[n / 2].y) / 2;
    g_string_append_printf(out, "%s%.0f (%u: %.1f us)", out->len ? ", " : "", g->x, n, med / PCS_NS_PER_US);
  }
  return g_string_free(out, FALSE);
}

/* The largest folio inserted, in pages, over the traces, and per trace. */
static uint64_t largest_folio(const PcsCalibration *c, GString *per) {
  uint64_t most = 0;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    most = MAX(most, t->max_pages);
    g_string_append_printf(per, "%s%s %u", i ? ", " : "", t->name, t->max_pages ? g_bit_storage(t->max_pages) - 1 : 0);
  }
  return most;
}

gboolean pcs_calibrate_check_filesystem(const PcsCalibration *c, GError **error) {
  g_autoptr(GString) per = g_string_new(NULL);
  uint64_t most = largest_folio(c, per);
  if (large_folios(c) || most <= 1) return TRUE;
  const char *first = c->traces->len ? g_array_index(c->traces, TraceTally, 0).name : "the traces";
  return pcs_input_error(error, first, 0, "inserts folios of up to order %u (%s): large folios, an ext4 or xfs "
                         "capture, where %s (give --machine a machine file with fstype=ext4 or fstype=xfs, as "
                         "pcsim-capture-kernel-trace writes it)", g_bit_storage(most) - 1, per->str,
                         c->fstype ? "the machine file says fstype=btrfs or names none" : "no machine file names its file system");
}

/* scenario.filesystem, readahead.max_folio_order and bio.csum_leaf_size of an
 * ext4 or xfs capture: the machine file's fstype= and the kernel's facts of
 * that file system, not measured from the events (the trace's largest order
 * is given beside the mapping's). */
static void filesystem_estimates(PcsCalibration *c) {
  g_free(c->est[PCS_CAL_FILESYSTEM].text);
  c->est[PCS_CAL_FILESYSTEM].text = g_strdup(c->fstype);
  set_est(c, PCS_CAL_FILESYSTEM, TRUE, 0,
          g_strdup_printf("filesystem: fstype=%s in %s: %s reads through large folios (page_cache_ra_order()) and "
                          "builds one bio_vec per folio (%s)",
                          c->fstype, c->machine, c->fstype,
                          g_str_equal(c->fstype, "xfs") ? "iomap_readahead()" : "ext4_mpage_readpages()"));
  g_autoptr(GString) per = g_string_new(NULL);
  uint64_t most = largest_folio(c, per);
  set_est(c, PCS_CAL_MAX_FOLIO_ORDER, TRUE, PCS_CAL_MAX_FOLIO_ORDER_X86,
          g_strdup_printf("max_folio_order: %d, not measured: the largest folio %s's mapping takes with 4 KiB pages on "
                          "x86-64 (mapping_set_large_folios(): MAX_PAGECACHE_ORDER, the PMD order); the traces' largest "
                          "insert is order %u (%" G_GUINT64_FORMAT " pages); per trace: %s",
                          PCS_CAL_MAX_FOLIO_ORDER_X86, c->fstype, most ? g_bit_storage(most) - 1 : 0, most, per->str));
  uint64_t bios = 0, sectors = 0;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    bios += t->meta_bios;
    if (t->meta_bios && !sectors) sectors = t->meta_sectors;
  }
  g_autofree char *size = sectors ? g_strdup_printf(", most often %" G_GUINT64_FORMAT " bytes",
                                                    sectors * PCS_SECTOR_SIZE)
                                  : g_strdup("");
  set_est(c, PCS_CAL_CSUM_LEAF_SIZE, TRUE, 0,
          g_strdup_printf("csum_leaf_size: 0, not measured: %s keeps no data checksums (checksum leaves are btrfs's); "
                          "the traces' %" G_GUINT64_FORMAT " metadata read bios (rwbs with M%s) are %s's own metadata, "
                          "which the model does not read",
                          c->fstype, bios, size, c->fstype));
}

static double window_bio_estimates(PcsCalibration *c, const char *names);

static void folio_text(GString *s, const Fit *f) {
  g_string_append_printf(s, "%.0f ns + %.1f ns/page", f->a, f->b);
}

/* cost.insert_page and cost.insert_won (ext4, xfs): one folio's insert line
 * after the thread's previous insert or page_cache_ra_order line, against
 * its pages: time = a + (pages - 1) b, fitted as the device (the median of
 * each size per trace, weighted by its samples, the slope within each
 * trace).  cost.insert_page is b plus READ_PAGE, the read's time per page
 * (window_bio_estimates()); a, a one-page folio's time, is split as the
 * btrfs spacing is (insert_estimate()). */
static void folio_insert_estimate(PcsCalibration *c, const PcsParams *base, double read_page, const char *names) {
  Fit f = fit_line(c->folios, G_MAXUINT);
  g_autofree char *sizes = size_medians(c->folios);
  if (!f.ok) {
    g_autofree char *why = g_strdup_printf("not measurable from this trace: a folio's insert line after the thread's "
                                           "previous insert or page_cache_ra_order line against its pages (%u "
                                           "inserts; pages (inserts: median): %s): %s; kept from the base",
                                           c->folios->len, sizes, f.why);
    set_est(c, PCS_CAL_INSERT_WON, FALSE, 0, g_strdup_printf("insert_won: %s", why));
    set_est(c, PCS_CAL_INSERT_PAGE, FALSE, 0, g_strdup_printf("insert_page: %s", why));
    return;
  }
  double a = f.a + f.b; /* time = a + b pages = (a + b) + b (pages - 1) */
  g_autoptr(GString) s = g_string_new(NULL);
  g_string_append_printf(s, "each mm_filemap_add_to_page_cache line of a thread after its previous insert or its "
                         "page_cache_ra_order line with no other event between (ractl_alloc_folio() and "
                         "filemap_add_folio() of one folio), against the folio's pages (2^order): time = a + (pages - 1) "
                         "* insert_page, least squares (slope within each trace) over the median time of %u sizes per "
                         "trace (%.0f..%.0f pages) from %u inserts (of %u); a = %.0f ns; residual IQR %+.0f..%+.0f ns "
                         "(the trace clock ticks in us); pages (inserts: median): %s",
                         f.groups, f.xlo, f.xhi, f.n, c->folios->len, a, f.r_q1, f.r_q3, sizes);
  per_trace_fits(c, c->folios, s, folio_text);
  g_string_append_printf(s, "; from %s", names);
  g_autofree char *read = read_page > 0 ? g_strdup_printf("and the read's, %.1f ns (cost.read_setup's fit: the model "
                                                          "reads per folio, so a folio's other pages are read here, "
                                                          "by the same thread before the same bio)", read_page)
                                        : g_strdup("the read's per-page part not measured (cost.read_setup)");
  set_est(c, PCS_CAL_INSERT_PAGE, TRUE, f.b + read_page,
          g_strdup_printf("insert_page: %.1f ns per page beyond a folio's first: the insert's slope, %.1f ns (the "
                          "larger allocation, the memcg charge and LRU accounting of its pages), %s. %s",
                          f.b + read_page, f.b, read, s->str));
  double hold = (double)base->cost_tree_lock_hold, drain31 = (double)base->cost_lru_drain / PCS_CAL_LRU_BATCH;
  if (a - hold - drain31 >= (double)base->cost_insert_alloc) {
    set_est(c, PCS_CAL_INSERT_WON, TRUE, a - hold - drain31,
            g_strdup_printf("insert_won: a one-page folio's time of the insert_page fit, %.0f ns, less the base's "
                            "cost.tree_lock_hold and cost.lru_drain / 31, %.0f ns (the model charges them on their "
                            "own); per folio, cost.insert_alloc in it", a, hold + drain31));
  } else {
    double k = insert_split_factor(base, a);
    insert_set_scaled(c, base, k,
                      g_strdup_printf("a one-page folio's time of the insert_page fit, %.0f ns, is less than the "
                                      "base's split of it allows (cost.insert_won %" G_GUINT64_FORMAT " ns with "
                                      "cost.insert_alloc %" G_GUINT64_FORMAT " ns in it, cost.tree_lock_hold %.0f ns, "
                                      "cost.lru_drain / 31 %.0f ns): the time less tree_lock_hold is split in the "
                                      "base's proportions", a, base->cost_insert_won, base->cost_insert_alloc, hold,
                                      drain31));
  }
  if (f.n < 50) {
    for (PcsCalibrateId id = PCS_CAL_INSERT_WON; id <= PCS_CAL_INSERT_PAGE; id++)
      warn_est(c, id, g_strdup_printf("the fit rests on %u inserts", f.n));
  } else if (f.r_q3 - f.r_q1 > a) {
    warn_est(c, PCS_CAL_INSERT_WON, g_strdup_printf("wide spread: residual IQR %+.0f..%+.0f ns against %.0f ns",
                                                    f.r_q1, f.r_q3, a));
  }
}

/* cost.read_setup and cost.bio_submit (ext4, xfs): read_pages() runs after
 * a window's folios are all inserted and builds its bio folio by folio
 * (bio_add_folio(): one bio_vec each), then submits it, so the time from
 * the thread's last insert to its block_bio_queue is the window's read.
 * Against the window's folios it fits no line with a positive intercept on
 * the one-thread captures (a 64-page folio takes 1 us, four 512-page ones
 * 14 us on ext4: ext4_mpage_readpages() walks each block of a folio,
 * iomap_readahead() each block's state), so against its pages: gap =
 * bio_submit + pages * r, the traces pooled (one thread's windows are of
 * one size per trace: one 256 KiB folio at read_ahead_kb 128, four 2 MiB
 * ones at 4096).  The model charges read_setup per folio: it is r, a
 * folio's first page, and the returned r of every other page goes into
 * cost.insert_page (folio_insert_estimate()), which the same thread pays
 * for the same folio before the same bio: one thread's time to each bio is
 * what the trace shows.  Returns r, or 0 when not measured. */
static double window_bio_estimates(PcsCalibration *c, const char *names) {
  g_autoptr(GArray) by_folios = pooled(c->windows), by_pages = pooled(c->window_pages);
  Fit ff = fit_line(by_folios, G_MAXUINT), f = fit_line(by_pages, G_MAXUINT);
  g_autofree char *folios = size_medians(c->windows), *pages = size_medians(c->window_pages);
  g_autofree char *against_folios =
      ff.ok ? g_strdup_printf("%.1f us + %.2f us per folio, residual IQR %+.1f..%+.1f us", ff.a / PCS_NS_PER_US,
                              ff.b / PCS_NS_PER_US, ff.r_q1 / PCS_NS_PER_US, ff.r_q3 / PCS_NS_PER_US)
            : g_strdup(ff.why);
  if (!f.ok) {
    g_autofree char *why = g_strdup_printf("not measurable from this trace: the gap from a thread's last insert of a "
                                           "readahead to its block_bio_queue against the window's pages (%u windows; "
                                           "pages (windows: median): %s): %s; against its folios (%s): %s; kept from "
                                           "the base", c->window_pages->len, pages, f.why, folios, against_folios);
    set_est(c, PCS_CAL_READ_SETUP, FALSE, 0, g_strdup_printf("read_setup: %s", why));
    set_est(c, PCS_CAL_BIO_SUBMIT, FALSE, 0, g_strdup_printf("bio_submit: %s", why));
    return 0;
  }
  set_est(c, PCS_CAL_READ_SETUP, TRUE, f.b,
          g_strdup_printf("read_setup: %.1f ns, a folio's first page of the window's read (%s: the block mapping and "
                          "bio_add_folio() of each folio; the model charges read_setup per folio, and the read of a "
                          "folio's other pages, %.1f ns each, is in cost.insert_page).  The gap from a thread's "
                          "last mm_filemap_add_to_page_cache of a readahead to its block_bio_queue (read_pages() after "
                          "the window's inserts), against the pages inserted since the readahead's page_cache_ra_order "
                          "line: gap = bio_submit + pages * %.1f ns, least squares over the median gap of %u sizes "
                          "(%.0f..%.0f pages) from %u windows (of %u), the traces pooled (one thread's windows are of "
                          "one size per trace); residual IQR %+.1f..%+.1f us; pages (windows: median): %s.  Against "
                          "the window's folios (folios (windows: median): %s) the gap fits no per-folio cost: %s; from "
                          "%s",
                          f.b, g_str_equal(c->fstype, "xfs") ? "iomap_readahead()" : "ext4_mpage_readpages()", f.b,
                          f.b, f.groups, f.xlo, f.xhi, f.n, c->window_pages->len, f.r_q1 / PCS_NS_PER_US,
                          f.r_q3 / PCS_NS_PER_US, pages, folios, against_folios, names));
  set_est(c, PCS_CAL_BIO_SUBMIT, TRUE, f.a,
          g_strdup_printf("bio_submit: the intercept of the read_setup fit above, %.1f us per bio (bio allocation, "
                          "submit_bio() to block_bio_queue)", f.a / PCS_NS_PER_US));
  if (f.n < 50)
    for (PcsCalibrateId id = PCS_CAL_READ_SETUP; id <= PCS_CAL_BIO_SUBMIT; id++)
      warn_est(c, id, g_strdup_printf("the fit rests on %u windows", f.n));
  if (f.groups < 3)
    for (PcsCalibrateId id = PCS_CAL_READ_SETUP; id <= PCS_CAL_BIO_SUBMIT; id++)
      warn_est(c, id, g_strdup_printf("%u window sizes seen %d times or more: a line through %u points", f.groups,
                                      MIN_GROUP, f.groups));
  return f.b;
}

static void memory_estimates(PcsCalibration *c, const char *names) {
  uint64_t pairs = 0, cont = 0, runs = 0;
  g_autoptr(GString) per = g_string_new(NULL), hist = g_string_new(NULL);
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    pairs += t->pairs, cont += t->contiguous;
    g_string_append_printf(per, "%s%s %.3f", i ? ", " : "", t->name, pcs_per((double)t->contiguous, (double)t->pairs));
  }
  for (guint k = 0; k < RUN_BUCKETS; k++) runs += c->run_hist[k];
  for (guint k = 0; k < RUN_BUCKETS; k++) {
    if (!c->run_hist[k]) continue;
    uint64_t lo = (uint64_t)1 << k, hi = ((uint64_t)2 << k) - 1;
    char upto[32] = "";
    if (k == RUN_BUCKETS - 1) g_strlcpy(upto, "+", sizeof upto);
    else if (hi > lo) g_snprintf(upto, sizeof upto, "-%" G_GUINT64_FORMAT, hi);
    g_string_append_printf(hist, "%s%" G_GUINT64_FORMAT "%s %.1f%%", hist->len ? ", " : "", lo, upto,
                           100.0 * (double)c->run_hist[k] / (double)runs);
  }
  double share = pcs_per((double)cont, (double)pairs);
  if (pairs < MIN_PAIRS) {
    set_est(c, PCS_CAL_CONTIGUOUS_SHARE, FALSE, 0,
            g_strdup_printf("contiguous_share: not measurable from this trace: %" G_GUINT64_FORMAT " pairs of one "
                            "thread's consecutive inserts (%d needed); kept from the base", pairs, MIN_PAIRS));
    return;
  }
  /* the lists: freed pages, then the blocks, each the mean over traces */
  guint n = c->traces->len;
  uint64_t freed = 0, blocks[PCS_BUDDY_ORDERS] = {0};
  g_autoptr(GString) per_freed = g_string_new(NULL), info = g_string_new(NULL), per_info = g_string_new(NULL);
  for (guint i = 0; i < n; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    freed += t->descending;
    g_string_append_printf(per_freed, "%s%s %.1f MiB", i ? ", " : "", t->name,
                           (double)t->descending * PCS_PAGE_SIZE / PCS_MIB);
    g_string_append_printf(per_info, "%s%s '", i ? "; " : "", t->name);
    for (guint o = 0; o < PCS_BUDDY_ORDERS; o++) {
      blocks[o] += t->blocks[o];
      g_string_append_printf(per_info, "%s%" G_GUINT64_FORMAT, o ? " " : "", t->blocks[o]);
    }
    g_string_append_c(per_info, '\'');
  }
  guint last = 0;
  for (guint o = 0; o < PCS_BUDDY_ORDERS; o++)
    if (blocks[o]) last = o;
  /* large folios: the order-9 ones take blocks of their own (OWN_BLOCK_PAGES), which leaves the large window's
   * cut nearly empty; a mean would halve the small window's.  One run's blocks: the trace with the most pages */
  const TraceTally *most = NULL;
  uint64_t most_pages = 0;
  for (guint i = 0; large_folios(c) && i < n; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    uint64_t pages = 0;
    for (guint o = 0; o < PCS_BUDDY_ORDERS; o++) pages += t->blocks[o] << o;
    if (!most || pages > most_pages) most = t, most_pages = pages;
  }
  if (most) {
    last = 0;
    for (guint o = 0; o < PCS_BUDDY_ORDERS; o++) blocks[o] = most->blocks[o] * n, last = most->blocks[o] ? o : last;
  }
  for (guint o = 0; o <= last; o++)
    g_string_append_printf(info, "%s%" G_GUINT64_FORMAT, o ? " " : "", (blocks[o] + n / 2) / n);
  uint64_t freed_pages = (freed + n / 2) / n;
  set_est(c, PCS_CAL_CONTIGUOUS, TRUE, 1,
          g_strdup_printf("contiguous: 1, frames come from per-CPU lists (pcp_freed, buddyinfo below); from %s", names));
  set_est(c, PCS_CAL_SCATTERED, TRUE, 0,
          g_strdup("scattered: 0, replaced by pcp_freed (the freed pages the trace shows on a per-CPU list)"));
  set_est(c, PCS_CAL_CONTIGUOUS_SHARE, TRUE, 1,
          g_strdup_printf("contiguous_share: 1, every page takes its list's next frame.  For comparison with the "
                          "simulated contiguous_frames: of %" G_GUINT64_FORMAT " pairs of one thread's consecutive "
                          "inserts, the share whose pfn follows the previous one's is %.4f; per trace: %s.  Runs of "
                          "adjacent frames (pages: share of %" G_GUINT64_FORMAT " runs): %s",
                          pairs, share, per->str, runs, hist->str));
  set_est(c, PCS_CAL_PCP_FREED, TRUE, (double)(freed_pages * PCS_PAGE_SIZE),
          g_strdup_printf("pcp_freed: pages in one thread's runs of inserts with descending pfns (each pfn the "
                          "previous one's minus one: a per-CPU list handing out freed pages last freed first), "
                          "times 4096, the mean over traces: %.1f MiB; per trace: %s; from %s",
                          (double)freed_pages * PCS_PAGE_SIZE / PCS_MIB, per_freed->str, names));
  g_free(c->est[PCS_CAL_BUDDYINFO].text);
  c->est[PCS_CAL_BUDDYINFO].text = g_strdup(info->str);
  set_est(c, PCS_CAL_BUDDYINFO, TRUE, 0,
          g_strdup_printf("buddyinfo: the other inserted frames, over all threads, cut into maximal ranges of "
                          "adjacent frames and each range into the largest aligned power-of-two blocks, counted "
                          "per order 0, 1, 2, ... (the free blocks the run consumed, smallest first in the model as "
                          "in __rmqueue_smallest()), %s; per trace: %s; from %s",
                          most ? "the trace with the most pages in it (large folios: order-9 folios, which take "
                                 "blocks of their own, are left out, so the large window's cut is nearly empty)"
                               : "the mean over traces",
                          per_info->str, names));
}

static void readahead_estimate(PcsCalibration *c, const PcsParams *base) {
  g_autoptr(GString) per = g_string_new(NULL);
  const TraceTally *first = NULL;
  uint64_t first_kb = 0, lines = 0;
  gboolean differ = FALSE;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (!t->ra_lines) continue;
    uint64_t k = trace_doubling(t, base), kb = t->ra_pages * (PCS_PAGE_SIZE / PCS_KIB) / k;
    if (!first) first = t, first_kb = kb;
    differ |= kb != first_kb;
    lines += t->ra_lines;
    g_autofree char *hint = t->job ? g_strdup_printf("fadvise_hint=%s in %s", pcs_params_fadvise_name(t->fadvise), t->job)
                                   : g_strdup("no job file beside it: the base's fadvise_hint");
    g_string_append_printf(per, "%s%s %" G_GUINT64_FORMAT " pages / %" G_GUINT64_FORMAT " (%s) = %" G_GUINT64_FORMAT
                           " KiB", per->len ? ", " : "", t->name, t->ra_pages, k, hint, kb);
  }
  if (!first) {
    set_est(c, PCS_CAL_READ_AHEAD_KB, FALSE, 0,
            g_strdup("read_ahead_kb: not measurable from this trace: no page_cache_sync_ra/page_cache_async_ra line "
                     "with ra_pages on the data file; kept from the base"));
    return;
  }
  /* ra_pages is the per-file window: the bdi's read_ahead_kb, doubled when
   * fio's fadvise hint applies (the job's fadvise_hint, else the base's) */
  g_autofree char *bdi = large_folios(c) ? g_strdup_printf(" (%s: the block device's bdi, "
                                                          "/sys/class/bdi/MAJ:MIN/read_ahead_kb)", c->fstype)
                                         : g_strdup("");
  set_est(c, PCS_CAL_READ_AHEAD_KB, TRUE, (double)first_kb,
          g_strdup_printf("read_ahead_kb: ra_pages of the page_cache_sync_ra/async_ra lines (the most frequent, of %"
                          G_GUINT64_FORMAT " lines) * 4 KiB, divided by 2 when fio's fadvise_hint doubles the window "
                          "(POSIX_FADV_SEQUENTIAL): %" G_GUINT64_FORMAT " KiB%s%s; per trace: %s",
                          lines, first_kb, bdi,
                          differ ? " (the first trace's: the traces were run at different read_ahead_kb; run another "
                                   "with --set readahead.read_ahead_kb=K)"
                                 : "",
                          per->str));
}

static void csum_leaf_estimate(PcsCalibration *c) {
  g_autoptr(GString) per = g_string_new(NULL);
  const TraceTally *first = NULL;
  gboolean differ = FALSE;
  uint64_t bios = 0, data = 0;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (!t->meta_bios) continue;
    if (!first) first = t;
    differ |= t->meta_sectors != first->meta_sectors;
    bios += t->meta_bios, data += t->data_sectors;
    g_string_append_printf(per, "%s%s %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " sectors", per->len ? ", " : "",
                           t->name, t->meta_bios, t->meta_sectors);
  }
  if (!first) {
    set_est(c, PCS_CAL_CSUM_LEAF_SIZE, FALSE, 0,
            g_strdup("csum_leaf_size: not measurable from this trace: no metadata read bio (rwbs with M); kept "
                     "from the base"));
    return;
  }
  uint64_t bytes = first->meta_sectors * PCS_SECTOR_SIZE;
  if (bytes < PCS_PAGE_SIZE || bytes > 64 * PCS_KIB || (bytes & (bytes - 1))) {
    set_est(c, PCS_CAL_CSUM_LEAF_SIZE, FALSE, 0,
            g_strdup_printf("csum_leaf_size: not measurable from this trace: its metadata read bios are most often "
                            "%" G_GUINT64_FORMAT " bytes, not a btrfs nodesize (a power of two from 4 KiB to 64 KiB); "
                            "kept from the base",
                            bytes));
    return;
  }
  double mib = (double)data * PCS_SECTOR_SIZE / PCS_MIB;
  set_est(c, PCS_CAL_CSUM_LEAF_SIZE, TRUE, (double)bytes,
          g_strdup_printf("csum_leaf_size: the most frequent size of the metadata read bios (rwbs with M), %"
                          G_GUINT64_FORMAT " bytes%s: btrfs reads a tree block whole, so the nodesize, which the "
                          "checksum leaves have; %" G_GUINT64_FORMAT " metadata reads over %.0f MiB of data bios "
                          "(%.1f per 1000 MiB; a full leaf covers %.1f MiB of file); per trace: %s",
                          bytes, differ ? " (the traces DISAGREE: the first trace's value is used)" : "", bios, mib,
                          mib > 0 ? 1000.0 * (double)bios / mib : 0.0,
                          (double)((bytes - PCS_CSUM_LEAF_OVERHEAD) / PCS_CSUM_SIZE) * PCS_PAGE_SIZE / PCS_MIB,
                          per->str));
}

static void machine_estimates(PcsCalibration *c) {
  for (size_t k = 0; k < G_N_ELEMENTS(machine_keys); k++) {
    PcsCalibrateId id = machine_keys[k].id;
    if (id == PCS_CAL_REPORTED_ORDER) continue; /* reported_estimates() */
    if (!c->machine || !c->mach_set[id]) {
      set_est(c, id, FALSE, 0,
              g_strdup_printf("%s: not measurable from the traces: %s; kept from the base", est_key[id],
                              c->machine ? "not in the machine file"
                                         : "no machine file (--machine, or machine.txt beside the traces or one "
                                           "folder up)"));
      continue;
    }
    set_est(c, id, TRUE, (double)c->mach[id],
            g_strdup_printf("%s: %s%s in %s", est_key[id], machine_keys[k].word,
                            machine_keys[k].scale > 1 ? " * 2 (sectors)" : "", c->machine));
  }
}

/* Sample arrays of the device fit: TRACE's samples removed. */
static void drop_samples(GArray *a, guint trace) {
  guint kept = 0;
  for (guint i = 0; i < a->len; i++)
    if (g_array_index(a, Sample, i).trace != trace) g_array_index(a, Sample, kept++) = g_array_index(a, Sample, i);
  g_array_set_size(a, kept);
}

/* Leaves TRACE's read requests out of the device fit, WHY said in its comment. */
static void drop_device_trace(PcsCalibration *c, guint trace, char *why) {
  GArray *sets[] = {c->dev_all, c->dev_iso, c->dev_solo, c->dev_busy, c->batches, c->dev_load};
  for (size_t k = 0; k < G_N_ELEMENTS(sets); k++) drop_samples(sets[k], trace);
  guint kept = 0;
  for (guint i = 0; i < c->overlap->len; i++)
    if (g_array_index(c->overlap, Overlap, i).trace != trace)
      g_array_index(c->overlap, Overlap, kept++) = g_array_index(c->overlap, Overlap, i);
  g_array_set_size(c->overlap, kept);
  g_free(c->dropped);
  c->dropped = why;
}

/* The one-thread runs with fio's job and JSON beside them: the smallest
 * and the largest readahead window (NULL when none). */
static void window_runs(const PcsCalibration *c, const TraceTally **lo, const TraceTally **hi, guint *hi_index) {
  *lo = *hi = NULL;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (!t->json || !t->job || !t->bs || !t->ra_pages || t->numjobs > 1) continue;
    if (!*lo || t->ra_pages < (*lo)->ra_pages) *lo = t;
    if (!*hi || t->ra_pages > (*hi)->ra_pages) *hi = t, *hi_index = i;
  }
}

/* memory.reported_order, cost.touch_reported: free page reporting
 * (virtio_balloon, mm/page_reporting.c; docs/notebook/2026-12-06-reported-memory.md).
 * The order is the machine file's page_reporting_order= (none: 0).  The
 * cost is the first CPU touch of a page of a folio of that order or more
 * whose memory the host took back: fio's clat p50 of the largest window's
 * one-thread run, whose folios reach the order, less that of the smallest
 * window's, whose folios stay below it, over the call's pages.  A capture
 * made with --settle (a pause over PAGE_REPORTING_DELAY after drop_caches)
 * has every large folio cold; one without may have them warm, and then the
 * p50s agree and the cost is 0, the state that capture ran in.  The cold
 * run's requests are left out of the device fit: the device's writes into
 * the same memory fault on the host too (8 MiB take 3.3 ms cold against
 * 1.6 ms warm on the dec06 host), which the device model does not carry. */
/* memory.reported_order from the machine file; its order (0: none, or not known). */
static uint64_t reported_order_estimate(PcsCalibration *c) {
  const PcsCalibrateId ord = PCS_CAL_REPORTED_ORDER, touch = PCS_CAL_TOUCH_REPORTED;
  if (!c->machine || !c->mach_set[ord]) {
    const char *why = c->machine ? "no page_reporting_order= in the machine file (a capture from before the script wrote it)"
                                 : "no machine file";
    set_est(c, ord, FALSE, 0, g_strdup_printf("reported_order: not measurable: %s; kept from the base", why));
    set_est(c, touch, FALSE, 0, g_strdup_printf("touch_reported: not measurable: %s; kept from the base", why));
    return 0;
  }
  uint64_t order = c->mach[ord];
  set_est(c, ord, TRUE, (double)order,
          order ? g_strdup_printf("reported_order: page_reporting_order=%" G_GUINT64_FORMAT " in %s: free page "
                                  "reporting hands free blocks of that order and more to the host 2 s after they "
                                  "are freed (mm/page_reporting.c); a folio that large takes such a block whole",
                                  order, c->machine)
                : g_strdup_printf("reported_order: 0, page_reporting_order=none in %s: no free page reporting",
                                  c->machine));
  if (!order) set_est(c, touch, TRUE, 0, g_strdup("touch_reported: 0, no free page reporting: no first touch faults"));
  return order;
}

/* cost.touch_reported with reporting order ORDER (see reported_estimates()). */
static void touch_estimate(PcsCalibration *c, uint64_t order) {
  const PcsCalibrateId touch = PCS_CAL_TOUCH_REPORTED;
  const TraceTally *lo, *hi;
  guint hi_index = 0;
  window_runs(c, &lo, &hi, &hi_index);
  const char *why = !large_folios(c) ? "the file system reads 4 KiB folios, which never take a reported block whole"
                    : !lo || lo == hi ? "two one-thread runs with different windows, each with fio's job and JSON beside "
                                        "it, are needed"
                    : hi->max_pages < (UINT64_C(1) << order) ? "the largest window's folios are smaller than the reporting order"
                    : !(lo->clat_ns > 0) || !(hi->clat_ns > 0) ? "a run's JSON has no clat p50"
                                                               : NULL;
  if (why) {
    set_est(c, touch, FALSE, 0, g_strdup_printf("touch_reported: not measurable: %s; kept from the base", why));
    return;
  }
  /* the smaller window's warm call: its p10 (its p50 may be a cold call too: order-6 folios split reported
   * blocks when no smaller free block is left, as in kernel-6.18-ext4b's 128 KiB run) */
  double warm = lo->clat10_ns > 0 ? lo->clat10_ns : lo->clat_ns;
  double pages = (double)((hi->bs + PCS_PAGE_SIZE - 1) / PCS_PAGE_SIZE), per = (hi->clat_ns - warm) / pages;
  g_autofree char *both = g_strdup_printf(
      "fio's clat p50 in %s (%s, %" G_GUINT64_FORMAT " KiB window, folios of up to %" G_GUINT64_FORMAT " pages) "
      "against the p%d in %s (%s, %" G_GUINT64_FORMAT " KiB, up to %" G_GUINT64_FORMAT " pages): %.0f against %.0f ns",
      hi->json, hi->name, hi->ra_pages * PCS_PAGE_SIZE / PCS_KIB, hi->max_pages, lo->clat10_ns > 0 ? 10 : 50, lo->json,
      lo->name, lo->ra_pages * PCS_PAGE_SIZE / PCS_KIB, lo->max_pages, hi->clat_ns, warm);
  if (hi->clat_ns < 2 * warm) {
    set_est(c, touch, TRUE, 0,
            g_strdup_printf("touch_reported: 0, %s: the large folios' calls were no slower, so their memory had not "
                            "been reported when that run read it (a capture without --settle: the previous run's "
                            "folios came back within PAGE_REPORTING_DELAY)", both));
    return;
  }
  set_est(c, touch, TRUE, per,
          g_strdup_printf("touch_reported: %s, the difference over bs = %.0f pages: %.0f ns a page, the "
                          "first touch of memory the host took back (the capture's --settle let every run's large "
                          "folios be reported first)", both, pages, per));
  drop_device_trace(c, hi_index,
                    g_strdup_printf("the requests of %s: its folios' memory was reported, so the device's writes into "
                                    "them fault on the host too, which the device model does not carry",
                                    hi->name));
}

#define MIN_COLD_WINDOWS 4 /* windows mostly from blocks of the reporting order, and as many without */

/* Least squares of a trace's window time against its pages from blocks of
 * ORDER or more: the slope (ns a page, NAN when no window differs); the
 * mean times of the windows without such pages and of those mostly of
 * them, and how many of each. */
static double cold_slope(const GArray *w, uint64_t order, double *warm_ns, double *cold_ns, guint *nwarm, guint *ncold) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, wy = 0, cy = 0;
  *nwarm = *ncold = 0;
  for (guint i = 0; i < w->len; i++) {
    const ColdWindow *cw = &g_array_index(w, ColdWindow, i);
    double x = 0, all = 0;
    for (guint o = 0; o < PCS_BUDDY_ORDERS; o++) x += o >= order ? cw->pages[o] : 0, all += cw->pages[o];
    sx += x, sy += cw->ns, sxx += x * x, sxy += x * cw->ns;
    if (x == 0) wy += cw->ns, (*nwarm)++;
    else if (all > 0 && 2 * x > all) cy += cw->ns, (*ncold)++;
  }
  *warm_ns = *nwarm ? wy / *nwarm : NAN, *cold_ns = *ncold ? cy / *ncold : NAN;
  double n = w->len, vxx = sxx - sx * sx / n;
  return n > 1 && vxx > 0 ? (sxy - sx * sy / n) / vxx : NAN;
}

/* cost.touch_reported with 4 KiB folios (btrfs): each page's frame comes
 * from the block the per-CPU list was refilled from (alloc.c), and on a
 * machine with free blocks of the reporting order or more (a fresh boot:
 * memory no CPU has touched; or blocks reported since they were freed)
 * those pages are the host's to fault in at their first touch, which is
 * btrfs's end-io checksum read.  The largest window's one-thread run: its
 * windows' time (the launch after a window to the next: the reader going
 * through it) against their pages from blocks of ORDER or more, least
 * squares; the slope a page.  No window mostly of such pages: 0, measured
 * (the run's frames came from smaller blocks, as on a machine up long
 * enough to split its memory). */
static void touch_frames_estimate(PcsCalibration *c, uint64_t order) {
  const PcsCalibrateId touch = PCS_CAL_TOUCH_REPORTED;
  const TraceTally *lo, *hi;
  guint hi_index = 0;
  window_runs(c, &lo, &hi, &hi_index);
  if (!hi || !hi->windows || !hi->windows->len) {
    set_est(c, touch, FALSE, 0,
            g_strdup("touch_reported: not measurable: a one-thread run with fio's job and JSON beside it and "
                     "readahead lines is needed; kept from the base"));
    return;
  }
  double warm, cold;
  guint nwarm, ncold;
  double slope = cold_slope(hi->windows, order, &warm, &cold, &nwarm, &ncold);
  g_autofree char *what = g_strdup_printf(
      "%s (%" G_GUINT64_FORMAT " KiB window): %u readahead windows, %u of them mostly of pages whose frames came "
      "from free blocks of order %" G_GUINT64_FORMAT " or more, %u with none",
      hi->name, hi->ra_pages * PCS_PAGE_SIZE / PCS_KIB, hi->windows->len, ncold, order, nwarm);
  if (ncold < MIN_COLD_WINDOWS || nwarm < MIN_COLD_WINDOWS || !(slope > 0)) {
    set_est(c, touch, TRUE, 0,
            g_strdup_printf("touch_reported: 0, %s%s: no first touch faults show (the frames came from smaller "
                            "blocks, as on a machine up long enough to split its free memory)",
                            what, ncold >= MIN_COLD_WINDOWS && nwarm >= MIN_COLD_WINDOWS ? ", and they took no longer" : ""));
    return;
  }
  set_est(c, touch, TRUE, slope,
          g_strdup_printf("touch_reported: %.0f ns a page, the slope of a window's time (the launch after it to "
                          "the next: the reader going through it) against its pages from those blocks, least "
                          "squares; %s; mean %.2f ms against %.2f ms: memory no CPU had touched since the host "
                          "took it back (free page reporting, or never since boot), faulted in at btrfs's "
                          "end-io checksum read, the first touch",
                          slope, what, cold / 1e6, warm / 1e6));
}

static void reported_estimates(PcsCalibration *c) {
  uint64_t order = reported_order_estimate(c);
  if (!order) return;
  if (large_folios(c)) touch_estimate(c, order);
  else touch_frames_estimate(c, order);
}

/* cost.copy, cost.copy_cold: fio's clat p50 of a cached read() call (the
 * median call copies bs bytes already in the page cache) less the base's
 * cost.syscall, over its pages; copy from the trace with the smallest
 * window, copy_cold from the one with the largest when that window exceeds
 * cpu.cache_size (its pages have left the cache when the reader copies
 * them).  fio's latency is what shows these; the trace has no event there. */
static void copy_estimates(PcsCalibration *c, const PcsParams *base) {
  const TraceTally *lo = NULL, *hi = NULL;
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (!t->json || !t->job || !t->bs || !t->ra_pages) continue;
    if (!lo || t->ra_pages < lo->ra_pages) lo = t;
    if (!hi || t->ra_pages > hi->ra_pages) hi = t;
  }
  double syscall = (double)base->cost_syscall;
  const struct {
    PcsCalibrateId id;
    const TraceTally *t;
    const char *what;
  } keys[] = {{PCS_CAL_COPY, lo, "the smallest window's"}, {PCS_CAL_COPY_COLD, hi, "the largest window's"}};
  for (size_t k = 0; k < G_N_ELEMENTS(keys); k++) {
    const TraceTally *t = keys[k].t;
    const char *key = est_key[keys[k].id];
    if (!t) {
      set_est(c, keys[k].id, FALSE, 0,
              g_strdup_printf("%s: not measurable: no trace has its fio job and JSON beside it (NAME.fio, NAME.json); "
                              "kept from the base", key));
      continue;
    }
    uint64_t window = t->ra_pages * PCS_PAGE_SIZE;
    if (keys[k].id == PCS_CAL_COPY_COLD && large_folios(c)) {
      set_est(c, keys[k].id, TRUE, 0,
              g_strdup_printf("%s: 0, off: the cache-cold copy is btrfs's, whose end-io reads the data (endio.c); "
                              "%s's slow calls in a large window are first touches of reported memory "
                              "(cost.touch_reported)", key, c->fstype));
      continue;
    }
    if (keys[k].id == PCS_CAL_COPY_COLD && (t == lo || !base->cpu_cache_size || window <= base->cpu_cache_size)) {
      set_est(c, keys[k].id, FALSE, 0,
              g_strdup_printf("%s: not measurable: no trace's window (%" G_GUINT64_FORMAT " KiB at most) is larger "
                              "than cpu.cache_size (%" G_GUINT64_FORMAT " KiB) and than another trace's; kept from the base",
                              key, window / PCS_KIB, base->cpu_cache_size / PCS_KIB));
      continue;
    }
    /* ext4, xfs: in 20-60% of a one-thread run's calls the copy is cold (fio's clat is bimodal, 3 us warm and
     * about 50 us cold: an order-9 folio's memory reported free to the host, each page's first touch a host
     * fault; the device is idle most of the run), so its p50 may be a cold copy; p10 is a warm one */
    gboolean p10 = large_folios(c) && t->clat10_ns > 0;
    double clat = p10 ? t->clat10_ns : t->clat_ns;
    double pages = (double)((t->bs + PCS_PAGE_SIZE - 1) / PCS_PAGE_SIZE), per = (clat - syscall) / pages;
    g_autofree char *why_p10 = p10 ? g_strdup_printf(" (%s: p10, as 20-60%% of its one-thread calls copy cold memory "
                                                     "the host took back, fio's clat bimodal, and the p50, %.0f ns, may be "
                                                     "such a copy: docs/notebook/2026-12-06-reported-memory.md)",
                                                     c->fstype, t->clat_ns)
                                   : NULL;
    if (!(per > 0)) {
      set_est(c, keys[k].id, FALSE, 0,
              g_strdup_printf("%s: not measurable: fio's clat p50 in %s, %.0f ns, is not above cost.syscall (%.0f ns); "
                              "kept from the base", key, t->json, t->clat_ns, syscall));
      continue;
    }
    set_est(c, keys[k].id, TRUE, per,
            g_strdup_printf("%s: fio's clat %s of a cached read() call in %s (%s, %" G_GUINT64_FORMAT " KiB window): "
                            "%.0f ns, less cost.syscall (%.0f ns, the base's: one bs cannot separate them), over bs = %"
                            G_GUINT64_FORMAT " bytes, %.0f pages (%s): %.0f ns a page%s",
                            key, p10 ? "p10" : "p50", t->json, t->name, window / PCS_KIB, clat, syscall, t->bs, pages,
                            keys[k].what, per, why_p10 ? why_p10 : ""));
    if (t->numjobs > 1)
      warn_est(c, keys[k].id, g_strdup_printf("%s ran %" G_GUINT64_FORMAT " threads: their copies wait for each other",
                                              t->job, t->numjobs));
  }
  PcsCalEstimate *warm = &c->est[PCS_CAL_COPY], *cold = &c->est[PCS_CAL_COPY_COLD];
  if (!large_folios(c) && warm->measured && cold->measured && cold->value < warm->value) { /* no cache effect: one cost */
    double v = warm->value, was = cold->value;
    set_est(c, PCS_CAL_COPY_COLD, TRUE, v,
            g_strdup_printf("copy_cold: cost.copy's %.0f ns: the largest window's copies, %.0f ns a page (%s), are no "
                            "slower than the smallest's, so no cache effect shows (a cold copy cannot be cheaper)",
                            v, was, hi->json));
    warn_est(c, PCS_CAL_COPY_COLD, g_strdup_printf("the large window's copy measured %.0f ns, below cost.copy", was));
  }
}

/* cost.fio_user: fio's own user time per read() call, pooled over the
 * one-thread runs' JSON (sum of usr_cpu x job_runtime over sum of
 * total_ios).  The kernel has no event there; fio's rusage does, sampled at
 * the scheduler tick (a few ms), so a run with little user time is weak. */
static void fio_user_estimate(PcsCalibration *c) {
  double usr = 0, ios = 0;
  g_autoptr(GString) runs = g_string_new(NULL);
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (!t->json || t->usr_ms < 0 || !(t->ios > 0) || t->numjobs > 1) continue;
    usr += t->usr_ms, ios += t->ios;
    g_string_append_printf(runs, "%s%s %.1f ms over %.0f calls (%.0f ns)", runs->len ? ", " : "", t->json, t->usr_ms,
                           t->ios, t->usr_ms * 1e6 / t->ios);
  }
  if (!(ios > 0)) {
    set_est(c, PCS_CAL_FIO_USER, FALSE, 0,
            g_strdup("fio_user: not measurable: no one-thread run has fio's JSON with usr_cpu, job_runtime and "
                     "read.total_ios beside it (NAME.json); kept from the base"));
    return;
  }
  double per = usr * 1e6 / ios;
  set_est(c, PCS_CAL_FIO_USER, TRUE, per,
          g_strdup_printf("fio_user: fio's user time (usr_cpu x job_runtime) over its read() calls (total_ios): %s; "
                          "pooled %.0f ns a call", runs->str, per));
  if (usr < 40.0) /* ten ticks at HZ=250 */
    warn_est(c, PCS_CAL_FIO_USER,
             g_strdup_printf("%.1f ms of user time in all: fio's rusage samples it at the scheduler tick (4 ms at "
                             "HZ=250), so it is good to a tick or two a run", usr));
}

void pcs_calibrate_finish(PcsCalibration *c, const PcsParams *base) {
  g_autofree char *names = trace_names(c);
  machine_estimates(c);
  readahead_estimate(c, base);
  if (large_folios(c)) filesystem_estimates(c);
  else csum_leaf_estimate(c);
  memory_estimates(c, names);
  reported_estimates(c);
  device_estimates(c, base, names);
  loop_estimates(c);
  queue_depth_estimate(c, names);
  if (large_folios(c)) folio_insert_estimate(c, base, window_bio_estimates(c, names), names);
  else insert_estimate(c, base, names), bio_estimates(c, names);
  copy_estimates(c, base);
  fio_user_estimate(c);
}

const PcsCalEstimate *pcs_calibrate_estimate(const PcsCalibration *c, PcsCalibrateId id) {
  g_assert(id < PCS_CAL_N);
  return &c->est[id];
}

const char *pcs_calibrate_section(PcsCalibrateId id) {
  g_assert(id < PCS_CAL_N);
  return est_section[id];
}

const char *pcs_calibrate_key(PcsCalibrateId id) {
  g_assert(id < PCS_CAL_N);
  return est_key[id];
}

/* ---- the scenario ---- */

/* VALUE (in the key's base unit) as a scenario file writes it. */
static char *format_value(PcsParamKind kind, double value) {
  uint64_t u = value <= 0 ? 0 : (uint64_t)llround(value);
  switch (kind) {
  case PCS_KIND_TIME: return g_strdup_printf("%" G_GUINT64_FORMAT "ns", u);
  case PCS_KIND_RATE:
    if (u >= 64 * (uint64_t)PCS_MIB) return g_strdup_printf("%" G_GUINT64_FORMAT "M", (uint64_t)llround(value / PCS_MIB));
    return g_strdup_printf("%" G_GUINT64_FORMAT "k", MAX((uint64_t)1, (uint64_t)llround(value / PCS_KIB)));
  case PCS_KIND_SIZE:
    if (u && u % (1024 * 1024) == 0) return g_strdup_printf("%" G_GUINT64_FORMAT "M", u / (1024 * 1024));
    if (u && u % 1024 == 0) return g_strdup_printf("%" G_GUINT64_FORMAT "k", u / 1024);
    return g_strdup_printf("%" G_GUINT64_FORMAT, u);
  case PCS_KIND_FRAC: return g_strdup_printf("%.4f", value);
  default: return g_strdup_printf("%" G_GUINT64_FORMAT, u);
  }
}

/* A base value in the same style. */
static char *format_base(const PcsParams *p, const PcsParamInfo *info) {
  const void *field = (const char *)p + info->offset;
  switch (info->kind) {
  case PCS_KIND_TEXT: return pcs_params_format(p, info);
  case PCS_KIND_FRAC: return g_strdup_printf("%.6g", *(const double *)field);
  default: return format_value(info->kind, (double)*(const uint64_t *)field);
  }
}

/* "# TEXT" wrapped at 100 columns. */
static void comment(GString *out, const char *text) {
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  gsize start = out->len;
  g_string_append(out, "#");
  for (guint i = 0; words[i]; i++) {
    if (!*words[i]) continue;
    if (out->len - start + 1 + strlen(words[i]) > 100) {
      g_string_append(out, "\n#");
      start = out->len - 1;
    }
    g_string_append_printf(out, " %s", words[i]);
  }
  g_string_append_c(out, '\n');
}

static gboolean comment_line(const char *line) {
  const char *l = line + strspn(line, " \t");
  return *l == '#' || *l == ';';
}

/* The comment lines right above line LINE (1-based: where the base set the
 * key, PcsParams.line) of the base's LINES (its text split at newlines, N
 * of them; NULL: none), as written there (with their "#"), or NULL: a copied
 * key keeps what its base says of it (its source, whether it is fitted). */
static char *base_comment(char **lines, guint n, uint32_t line) {
  if (!lines || line < 2 || line == PCS_LINE_CLI || line > n) return NULL;
  guint first = line - 1; /* the key's index; the comment block ends right above it */
  while (first > 0 && comment_line(lines[first - 1])) first--;
  if (first == line - 1) return NULL;
  g_autoptr(GString) s = g_string_new(NULL);
  for (guint j = first; j < line - 1; j++) { /* a CRLF base's lines without their CR: the output stays LF */
    size_t len = strlen(lines[j]);
    g_string_append_printf(s, "%.*s\n", (int)(len && lines[j][len - 1] == '\r' ? len - 1 : len), lines[j]);
  }
  return g_string_free(g_steal_pointer(&s), FALSE);
}

/* One key: an estimate (or its marked fallback) or the base's own value,
 * under the base's comment. */
static void scenario_key(GString *out, const PcsCalibration *c, const PcsParams *base, char **base_lines,
                         guint nlines, const PcsParamInfo *info, size_t index) {
  int id = estimate_of(info->section, info->key);
  g_autofree char *value = NULL;
  if (id >= 0 && c->est[id].comment) {
    const PcsCalEstimate *e = &c->est[id];
    g_autofree char *note = !e->measured ? g_strdup_printf("NOT MEASURED: %s", e->comment)
                            : e->warning ? g_strdup_printf("%s.  WEAK: %s", e->comment, e->warning)
                                         : g_strdup(e->comment);
    comment(out, note);
    value = !e->measured ? format_base(base, info)
            : e->text    ? g_strdup(e->text)
                         : format_value(info->kind, e->value);
  } else if (base->line[index]) {
    value = format_base(base, info);
    g_autofree char *note = base_comment(base_lines, nlines, base->line[index]);
    if (note) g_string_append(out, note);
  } else {
    return;
  }
  g_string_append_printf(out, "%s = %s\n", info->key, value);
}

gboolean pcs_calibrate_scenario(const PcsCalibration *c, const PcsParams *base, const char *base_name,
                                const char *base_text, GString *out, GError **error) {
  g_autofree char *names = trace_names(c);
  g_autoptr(GString) s = g_string_new(NULL);
  g_autoptr(GString) runs = g_string_new(NULL);
  for (guint i = 0; i < c->traces->len; i++) {
    const TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    if (t->job || t->json)
      g_string_append_printf(runs, "%s%s%s%s", runs->len ? ", " : "; fio runs: ", t->job ? t->job : "",
                             t->job && t->json ? " and " : "", t->json ? t->json : "");
  }
  g_autofree char *head = g_strdup_printf(
    "written by `pcsim calibrate` from %u trace(s): %s%s%s%s.  A complete scenario: it reads no other file.  Each "
    "measured value has above it the estimate, how many events it came from, its spread and the traces (WEAK: a "
    "fit on few samples or with a wide spread); values marked NOT MEASURED, and the other keys (kernel facts "
    "and values these events cannot show), are copied from %s, each under that file's own comment on it.",
    c->traces->len, names, c->machine ? "; machine file: " : "", c->machine ? c->machine : "", runs->str,
    base_name ? base_name : "pcsim's defaults (no --model)");
  size_t n;
  const PcsParamInfo *table = pcs_params_table(&n);
  g_auto(GStrv) base_lines = base_text ? g_strsplit(base_text, "\n", -1) : NULL;
  guint nlines = base_lines ? g_strv_length(base_lines) : 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    g_autoptr(GString) body = g_string_new(NULL);
    for (; j < n && !strcmp(table[j].section, table[i].section); j++) scenario_key(body, c, base, base_lines, nlines, &table[j], j);
    if (body->len) g_string_append_printf(s, "\n[%s]\n%s", table[i].section, body->str);
    i = j;
  }
  PcsParams check;
  pcs_params_init(&check);
  gboolean ok = pcs_params_load_text(&check, "calibrated scenario", s->str, s->len, error) &&
                pcs_params_validate(&check, error);
  if (ok) { /* the first sentence says which host it is (pcsim scenarios lists it) */
    g_autofree char *what = g_strdup_printf("A host: Linux %s on %s, %" G_GUINT64_FORMAT " CPUs, %s", check.scenario_kernel,
                                            check.scenario_filesystem, check.cpu_count, head);
    g_autoptr(GString) top = g_string_new(NULL);
    comment(top, what);
    g_string_append_len(out, top->str, (gssize)top->len);
    g_string_append_len(out, s->str, (gssize)s->len);
  }
  pcs_params_clear(&check);
  return ok;
}

/* ---- lifetime ---- */

PcsCalibration *pcs_calibrate_new(void) {
  PcsCalibration *c = g_new0(PcsCalibration, 1);
  c->traces = g_array_new(FALSE, FALSE, sizeof(TraceTally));
  GArray **a[] = {&c->dev_all, &c->dev_iso,  &c->dev_solo, &c->inflight, &c->runs,     &c->gaps,
                  &c->batches, &c->folios,   &c->window_pages, &c->windows, &c->dev_busy, &c->dev_load};
  for (guint i = 0; i < G_N_ELEMENTS(a); i++) *a[i] = g_array_new(FALSE, FALSE, sizeof(Sample));
  c->overlap = g_array_new(FALSE, FALSE, sizeof(Overlap));
  c->loop = -1;
  return c;
}

void pcs_calibrate_free(PcsCalibration *c) {
  if (!c) return;
  for (guint i = 0; i < c->traces->len; i++) {
    TraceTally *t = &g_array_index(c->traces, TraceTally, i);
    g_free(t->name), g_free(t->job), g_free(t->json);
    if (t->windows) g_array_unref(t->windows);
  }
  g_array_unref(c->traces);
  GArray *a[] = {c->dev_all, c->dev_iso, c->dev_solo, c->inflight, c->runs,         c->gaps,     c->overlap,
                 c->batches, c->folios,  c->windows,  c->window_pages, c->dev_busy, c->dev_load};
  for (guint i = 0; i < G_N_ELEMENTS(a); i++) g_array_unref(a[i]);
  for (int i = 0; i < PCS_CAL_N; i++) g_free(c->est[i].comment), g_free(c->est[i].text), g_free(c->est[i].warning);
  g_free(c->machine);
  g_free(c->fstype);
  g_free(c->device);
  g_free(c->dropped);
  g_free(c);
}
