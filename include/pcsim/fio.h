/* fio.h - fio job files as pcsim scenarios.
 *
 * Follows fio's own job file parser (init.c parse_jobs_ini()): [sections],
 * any section whose name starts with "global" applying to the jobs after
 * it, bare keys for flags, ';' and '#' comments, `include FILE` (options
 * only, relative to the including file), ${VAR} from the environment, and
 * sizes with fio's kb_base rules (parse.c get_mult_bytes()).
 *
 * What pcsim models is mapped onto the scenario (numjobs, bs, size, fadvise_hint, loops,
 * runtime, time_based, rw=read or randread with norandommap, randrepeat, randseed and
 * random_generator, ioengine=sync/psync/vsync/pvsync/pvsync2, ioengine=libaio/io_uring with
 * direct=0 and iodepth, iodepth_batch*, iodepth_low, invalidate=1,
 * offset=0, several job sections at once with their own bs, numjobs, rw,
 * ioengine and iodepth, stonewall and wait_for as barriers, ...); an option that would change
 * the result but is not modelled is refused with
 * `FILE:LINE: fio option 'X' is not modelled by pcsim`; options that cannot
 * change the result (name, directory, group_reporting, ...) are accepted and
 * listed in the output's provenance.
 */
#ifndef PCSIM_FIO_H
#define PCSIM_FIO_H

#include "pcsim/params.h"

typedef struct {
  char *path;
  char *name;              /* first job section's jobname */
  uint64_t numjobs;        /* summed over job sections */
  uint64_t bs, size;
  PcsFadvise fadvise;      /* fadvise_hint, fio's default 1 when the job names none */
  guint numjobs_line, bs_line, size_line, fadvise_line; /* where the job file set them (0: default or an include) */
  uint64_t offset;         /* offset: each clone reads size bytes from it (a multiple of the page) */
  guint offset_line;
  uint64_t loops;          /* loops, 1 when the job names none (loops=0 runs once too) */
  uint64_t runtime_ns;     /* runtime (0: none), read with fio's time units */
  gboolean time_based;     /* time_based with a runtime (fio ignores it without one: see notes) */
  guint loops_line, runtime_line, time_based_line;
  /* rw=randread (else rw=read) and fio's random options: norandommap,
   * tausworthe64 (random_generator), the seeds as workload.random_seed
   * takes them ("fio" for randrepeat=1, "scenario" for randrepeat=0, or
   * randseed's number) */
  gboolean randread, norandommap, tausworthe64;
  char *random_seed;
  guint rw_line;
  /* ioengine=libaio or io_uring (workload.ioengine; NULL: a sync engine),
   * and iodepth, iodepth_batch, iodepth_batch_complete_min,
   * iodepth_batch_complete_max, iodepth_low as the job sets them */
  const char *ioengine;
  guint ioengine_line;
  uint64_t depth[5];
  GPtrArray *notes;        /* "FILE:LINE: ..." what fio would say on stderr and run anyway */
  gboolean group_reporting;
  gboolean per_thread_files; /* no job names its file: each clone reads its own (fio's jobname.N.0) */
  /* several files (workload.nrfiles): nrfiles per clone (its own, fio's
   * jobname.N.F, or filename=a:b's shared ones), each of size bytes read;
   * file_service_type as fio writes it ("roundrobin", "random:4"),
   * openfiles (0: nrfiles) */
  uint64_t nrfiles, openfiles;
  char *file_service_type;
  guint nrfiles_line;
  GPtrArray *accepted;     /* "option=value" accepted without effect, for provenance */
  /* Options with a value as the job file wrote them ("bs", "32k"), key and
   * value alternating, NULL-terminated, of the [global] sections before the
   * first job (fio's JSON "global options"; each section's own are in
   * SECTIONS); bare flags are left out, as fio leaves them out. */
  char **global_options;
  GArray *sections;        /* PcsFioSection (params.h) of every job section, in file order */
  /* Job sections that read with their own bs, rw, ioengine, ... or wait
   * (stonewall, wait_for) or start a group (new_group): one PcsJobSpec
   * each, run at once (PcsParams.jobs); NULL and 0 when every section
   * reads the same way (their numjobs add up: one job) */
  PcsJobSpec *jobs;
  uint32_t njobs;
} PcsFioJob;

gboolean pcs_fio_load(PcsFioJob *job, const char *path, GError **error);
gboolean pcs_fio_load_text(PcsFioJob *job, const char *path, const char *data, size_t len, GError **error);
void pcs_fio_clear(PcsFioJob *job);
/* Sets workload.threads, block_size, file_size, offset, loops, runtime, time_based,
 * readahead.fadvise_hint (fio's default 1 when the job names none) and
 * scenario.name on P: the job decides how long it runs, whatever the
 * --model scenario says.  Also P's jobs, fio_accepted, fio_global_options
 * and fio_sections (what the outputs report of the job). */
gboolean pcs_fio_apply(const PcsFioJob *job, PcsParams *p, GError **error);
/* A fio size ("32k", "1KiB", "2000M") under KB_BASE (1024 or 1000). */
gboolean pcs_fio_size(const char *text, unsigned kb_base, uint64_t *out);
/* The I-th option fio.c decides on by name (modelled, accepted at any
 * value or at a neutral one, or refused with its reason), NULL past the
 * last: docs/fio.md's option table lists each (tests/test_docs.c).  Every
 * other option fio knows is refused as not modelled. */
const char *pcs_fio_rule_name(size_t i);
/* TRUE for a path pcsim reads as a fio job file (*.fio, *.job). */
gboolean pcs_fio_is_job_file(const char *path);

#endif
