/* fiojson.h - results in fio's --output-format=json layout (fio 3.33).
 *
 * A drop-in for scripts that read fio's JSON: every key fio writes for a
 * buffered sync read job, with fio's names, units and types, filled from the
 * simulation; the few pcsim cannot know are left out and listed in
 * docs/fio.md ("not modelled"), never faked.
 */
#ifndef PCSIM_FIOJSON_H
#define PCSIM_FIOJSON_H

#include "pcsim/fio.h"
#include "pcsim/params.h"
#include "pcsim/sim.h"

/* What the job file said, for fio's "jobname", "global options" and "job
 * options" (key, value, ..., NULL as the file wrote them; see fio.h).  All
 * NULL for an INI scenario: the scenario's name, and options derived from it. */
typedef struct {
  const char *jobname;
  char *const *global_options;
  char *const *job_options;
  const GArray *sections; /* PcsFioSection: per-thread entries take their section's jobname and options */
} PcsFioJsonJob;

/* jobs[]: one entry per policy when the job reports as a group
 * (group_reporting, or an INI scenario), else one per thread (each
 * policy its own groupid); disk_util[]: one entry per policy; pcsim's
 * provenance under "pcsim".  Per-thread entries need RESULTS run with
 * PcsRunOptions.thread_latency. */
void pcs_fio_json(GString *out, const PcsParams *p, const PcsFioJsonJob *job, const PcsResult *results, size_t n);

#endif
