/* calibrate.h - `pcsim calibrate`: scenario values estimated from real
 * kernel traces, each from the events that show it.
 *
 * Traces are loaded with PCS_KTRACE_KEEP_EVENTS and added one at a time
 * (pcs_calibrate_add_trace() keeps only the samples it needs, so the events
 * of one trace can be freed before the next is read); the machine file adds
 * the queue limits; pcs_calibrate_finish() computes every estimate from the
 * pooled samples (and per trace, for the spread); pcs_calibrate_scenario()
 * writes the scenario INI.  Nothing here runs the simulator.
 */
#ifndef PCSIM_CALIBRATE_H
#define PCSIM_CALIBRATE_H

#include "pcsim/ktrace.h"
#include "pcsim/params.h"

/* X(ID, section, key): the scenario keys calibrate sets, in output order. */
#define PCS_CALIBRATE_ESTIMATES(X)           \
  X(FILESYSTEM, scenario, filesystem)        \
  X(READ_AHEAD_KB, readahead, read_ahead_kb) \
  X(MAX_FOLIO_ORDER, readahead, max_folio_order) \
  X(MAX_SECTORS, block, max_sectors)         \
  X(MAX_SEGMENTS, block, max_segments)       \
  X(MAX_SEGMENT_SIZE, block, max_segment_size) \
  X(CSUM_LEAF_SIZE, bio, csum_leaf_size)     \
  X(CONTIGUOUS, memory, contiguous)          \
  X(SCATTERED, memory, scattered)            \
  X(CONTIGUOUS_SHARE, memory, contiguous_share) \
  X(PCP_FREED, memory, pcp_freed)            \
  X(BUDDYINFO, memory, buddyinfo)            \
  X(REPORTED_ORDER, memory, reported_order)  \
  X(LATENCY, device, latency)                \
  X(BANDWIDTH, device, bandwidth)            \
  X(QUEUE_DEPTH, device, queue_depth)        \
  X(CHANNELS, device, channels)              \
  X(JITTER, device, jitter)                  \
  X(SHARING, device, sharing)                \
  X(CPUS, cpu, count)                        \
  X(INSERT_WON, cost, insert_won)            \
  X(INSERT_PAGE, cost, insert_page)          \
  X(INSERT_ALLOC, cost, insert_alloc)        \
  X(LRU_DRAIN, cost, lru_drain)              \
  X(READ_SETUP, cost, read_setup)            \
  X(BIO_SUBMIT, cost, bio_submit)           \
  X(COPY, cost, copy)                        \
  X(COPY_COLD, cost, copy_cold)              \
  X(TOUCH_REPORTED, cost, touch_reported)    \
  X(FIO_USER, cost, fio_user)              \
  X(LOOP_WORKER, cost, loop_worker)        \
  X(LOOP_REQUEST, cost, loop_request)

typedef enum {
#define X(id, sec, key) PCS_CAL_##id,
  PCS_CALIBRATE_ESTIMATES(X)
#undef X
  PCS_CAL_N
} PcsCalibrateId;

/* One estimate.  Not measured: the base scenario's value is kept and the
 * comment says why. */
typedef struct {
  gboolean measured;
  double value;  /* in the key's base unit: ns, bytes, bytes/s, a count or a fraction */
  char *text;    /* a text key's value (memory.buddyinfo), else NULL */
  char *comment; /* the estimate, its events, its spread and its traces */
  char *warning; /* why the estimate is weak (few samples, a wide spread), or NULL */
} PcsCalEstimate;

typedef struct PcsCalibration PcsCalibration;

PcsCalibration *pcs_calibrate_new(void);
void pcs_calibrate_free(PcsCalibration *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PcsCalibration, pcs_calibrate_free)

/* Samples of T (loaded with PCS_KTRACE_KEEP_EVENTS).  An input error naming
 * T's file when it lacks what calibrate needs: page-insert events with pfn
 * (a blkparse trace has none) or read requests paired issue -> complete. */
gboolean pcs_calibrate_add_trace(PcsCalibration *c, const PcsKtrace *t, GError **error);
/* The fio run of the trace added last, as scripts/capture-kernel-trace
 * writes it beside the trace: its job file JOB (bs, numjobs, fadvise_hint:
 * whether the per-file window is the bdi's read_ahead_kb doubled) and
 * fio's JSON output JSON (jobs[0].read.bw, clat_ns p50: cost.copy and
 * cost.copy_cold, and the check `pcsim calibrate` prints).  Either may be
 * NULL.  An input error naming the file when it does not parse. */
gboolean pcs_calibrate_add_run(PcsCalibration *c, const char *job, const char *json, GError **error);
/* What the trace number I's run showed (FALSE: no JSON, or no such trace):
 * fio's MiB/s over all threads, the clat p50 in ns, bs in bytes, the
 * threads. */
gboolean pcs_calibrate_run_info(const PcsCalibration *c, guint i, double *mib_s, double *clat_ns, uint64_t *bs,
                                uint64_t *threads);
/* The bdi read_ahead_kb of trace I (ra_pages * 4, halved when its job's
 * fadvise_hint, else BASE's, doubles the window), or 0 when it showed no
 * readahead line; its file name. */
uint64_t pcs_calibrate_trace_read_ahead_kb(const PcsCalibration *c, guint i, const PcsParams *base);
const char *pcs_calibrate_trace_name(const PcsCalibration *c, guint i);
guint pcs_calibrate_n_traces(const PcsCalibration *c);
/* Queue limits and CPUs from a machine file ("key=value" words, as
 * scripts/capture-kernel-trace writes it). */
gboolean pcs_calibrate_add_machine(PcsCalibration *c, const char *path, GError **error);
/* After the traces and the machine file (if any): the traces' folios agree
 * with the file system the machine file names (none named: btrfs).  Large
 * folios under btrfs (an ext4 or xfs capture whose machine file lacks
 * fstype=) are bad input: calibrating them as btrfs would fit btrfs's insert
 * path to another file system's events. */
gboolean pcs_calibrate_check_filesystem(const PcsCalibration *c, GError **error);
/* Every estimate from the samples; BASE supplies the values an estimate
 * needs but cannot see (cost.tree_lock_hold). */
void pcs_calibrate_finish(PcsCalibration *c, const PcsParams *base);
const PcsCalEstimate *pcs_calibrate_estimate(const PcsCalibration *c, PcsCalibrateId id);
/* The scenario section and key estimate ID sets ("device", "latency"). */
const char *pcs_calibrate_section(PcsCalibrateId id);
const char *pcs_calibrate_key(PcsCalibrateId id);
/* After pcs_calibrate_finish(): keep only the estimates of KEYS
 * ("section.key", NULL-terminated); every other one becomes not measured,
 * so the scenario keeps the base's value for it (a user who wants a
 * machine's insert path but the model's device).  cost.insert_alloc and
 * cost.lru_drain go with cost.insert_won (asking for one asks for the
 * three): they are estimated only when the insert spacing is too short for
 * the base's split of it (a machine faster than the base's), split in the
 * base's proportions; otherwise the scenario keeps the base's values
 * without a comment.  cost.insert_page goes with them too, and for an ext4
 * or xfs capture cost.read_setup (insert_page carries the read's per-page
 * part); that capture's scenario.filesystem, readahead.max_folio_order and
 * bio.csum_leaf_size are always kept (facts of the machine file, not
 * estimates).  An input error naming
 * the key when one is not a key calibrate estimates. */
gboolean pcs_calibrate_keep_only(PcsCalibration *c, const char *const *keys, GError **error);

/* The scenario: BASE's keys (those its file set) with the estimates over
 * them, in PCS_PARAMS order by section, each estimate's comment above it
 * and each key copied from BASE under the comment BASE_TEXT (the base's INI
 * text; NULL: none) has right above it (its source, whether it is fitted).
 * BASE_NAME names the base in the header (NULL: the defaults).  The text is
 * parsed back and validated before it is returned. */
gboolean pcs_calibrate_scenario(const PcsCalibration *c, const PcsParams *base, const char *base_name,
                                const char *base_text, GString *out, GError **error);

#endif
