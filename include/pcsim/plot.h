/* plot.h - gnuplot scripts from result files (results.h).
 *
 * A line plot draws column Y against column X, one line per value of the
 * --by column (rows sorted by X within a line).  A histogram draws the bio
 * size distribution (bio_pages_hist of a JSON `pcsim run` file) per policy
 * in power-of-two size classes.  A timeline draws a `pcsim run --trace`
 * file as the seed's diagram.
 */
#ifndef PCSIM_PLOT_H
#define PCSIM_PLOT_H

#include "pcsim/results.h"

#define PCS_PLOT_TERMINALS(X) X(PNG, "png") X(SVG, "svg") X(DUMB, "dumb")

typedef enum {
#define X(name, text) PCS_PLOT_##name,
  PCS_PLOT_TERMINALS(X)
#undef X
} PcsPlotTerminal;

typedef struct {
  const char *x, *y, *by; /* columns; by may be NULL */
  char **where;           /* "KEY=VALUE" filters on rows, NULL-terminated or NULL */
  gboolean logx, logy;
  gboolean histogram;
  const char *title;      /* NULL: from the scenario name */
  PcsPlotTerminal terminal;
  const char *output;     /* file gnuplot writes; NULL for stdout (dumb) */
  /* --timeline: the pages shown (without PAGES_GIVEN: the 32 after the
   * first readahead window, as `pcsim run --timeline` shows) and the
   * policy (NULL: the trace's only one) */
  uint64_t first_page, last_page;
  gboolean pages_given;
  const char *policy;
  gboolean quiet;         /* no notes on stderr (a second script of the same plot) */
} PcsPlotSpec;

gboolean pcs_plot_terminal_parse(const char *text, PcsPlotTerminal *out, GError **error);
/* The whole gnuplot script, data inline. */
gboolean pcs_plot_script(const PcsResults *r, const PcsPlotSpec *spec, GString *out, GError **error);
/* Runs gnuplot on SCRIPT; its stdout is appended to OUT.  Without gnuplot:
 * an input error saying how to install it. */
/* The seed's diagram as a picture, from a `pcsim run --trace FILE` file:
 * one column per thread, add/read events down the page, each bio a bracket,
 * for pages SPEC->first_page..last_page of SPEC->policy. */
/* A timeline draws one row per event, at most this many (16 pixels each):
 * a wider --pages is refused with the widest range that fits. */
#define PCS_PLOT_TIMELINE_MAX_ROWS 500u
gboolean pcs_plot_timeline_script(const char *trace, const PcsPlotSpec *spec, GString *out, GError **error);
gboolean pcs_plot_gnuplot(const char *script, GString *out, GError **error);

#endif
