/* results.h - pcsim result files read back: CSV or JSON, from `pcsim run`
 * or `pcsim sweep`.
 *
 * Used by `pcsim plot` (columns and rows), `pcsim run --scenario-from`
 * (the recorded scenario of a row) and tests.  Every cell is kept as text.
 */
#ifndef PCSIM_RESULTS_H
#define PCSIM_RESULTS_H

#include "pcsim/params.h"
#include "pcsim/report.h"

typedef struct {
  char *path;
  PcsFormat format;
  char *version;        /* pcsim_version that wrote it */
  char *source;         /* scenario file it came from */
  GPtrArray *scenario;  /* "section.key=value" strings, in file order */
  GArray *scenario_line;/* line of each (CSV), 0 for JSON */
  GPtrArray *varied;    /* sweep axes: the leading columns (char *), empty for run files */
  GPtrArray *columns;   /* char * */
  GPtrArray *rows;      /* GStrv per row, one cell per column */
  GPtrArray *hists;     /* per row: GArray of guint64 bio_pages_hist (JSON run files), or NULL */
  GPtrArray *jobs;      /* several jobs: each job's provenance line (pcs_params_job_text()), else empty */
  /* A fio job's run (PcsParams.fio_*): its --model scenario, the options
   * accepted without effect, its [global] options and its sections; NULL,
   * NULL, NULL and an empty array when not recorded */
  char *fio_model;
  char **fio_accepted;
  char **fio_global_options;
  GArray *fio_sections; /* PcsFioSection */
  /* A `run --seeds` file (`# seeds FIRST..LAST` before a "seed" column, JSON
   * "seeds"): its seeds, else 0 */
  uint64_t first_seed;
  guint nseeds;
} PcsResults;

gboolean pcs_results_load(PcsResults *r, const char *path, GError **error);
/* The same from LEN bytes of DATA; PATH names it in messages. */
gboolean pcs_results_load_text(PcsResults *r, const char *path, const char *data, size_t len, GError **error);
void pcs_results_clear(PcsResults *r);
/* Index of COLUMN, or -1. */
int pcs_results_column(const PcsResults *r, const char *column);
/* The scenario of ROW (0-based): recorded parameters (a fio job's fio_*
 * too), then the row's varied columns.  ROW may be G_MAXUINT for the
 * recorded scenario alone. */
gboolean pcs_results_params(const PcsResults *r, guint row, PcsParams *p, GError **error);

#endif
