/* fiojson.h - results in fio's --output-format=json layout (fio 3.33).
 *
 * A drop-in for scripts that read fio's JSON: every key fio writes for a
 * buffered sync read job, with fio's names, units and types, filled from the
 * simulation; the few pcsim cannot know are left out and listed in
 * docs/fio.md ("not modelled"), never faked.
 */
#ifndef PCSIM_FIOJSON_H
#define PCSIM_FIOJSON_H

#include "pcsim/params.h"
#include "pcsim/sim.h"

/* jobs[]: one entry per policy when the job reports as a group
 * (group_reporting, or an INI scenario), else one per thread (each
 * policy its own groupid); disk_util[]: one entry per policy; pcsim's
 * provenance under "pcsim".  "jobname", "global options" and "job options"
 * are the job file's as P records them (PcsParams.fio_global_options and
 * fio_sections: per-thread entries take their section's); for an INI
 * scenario, the scenario's name and options derived from it.  Per-thread
 * entries need RESULTS run with PcsRunOptions.thread_latency. */
void pcs_fio_json(GString *out, const PcsParams *p, const PcsResult *results, size_t n);

#endif
