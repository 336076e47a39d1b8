/* fuzz_results.c - libFuzzer target: result files read back (CSV or JSON),
 * as by `pcsim run --scenario-from` and `pcsim plot`.
 *
 * Loads the input, rebuilds the recorded scenario of its first row and
 * builds a plot script of its first two columns and a histogram.
 */
#include "pcsim/plot.h"
#include "pcsim/results.h"

static void check(gboolean ok, GError *error) {
  if (ok) return;
  g_assert(error && error->domain == PCS_ERROR);
  g_error_free(error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsResults r;
  GError *error = NULL;
  if (pcs_results_load_text(&r, "fuzz.csv", (const char *)data, size, &error)) {
    PcsParams p;
    pcs_params_init(&p);
    error = NULL;
    check(pcs_results_params(&r, r.rows->len ? 0 : G_MAXUINT, &p, &error), error);
    pcs_params_clear(&p);
    if (r.columns->len >= 2) {
      PcsPlotSpec spec = {.x = g_ptr_array_index(r.columns, 0), .y = g_ptr_array_index(r.columns, 1),
                          .by = g_ptr_array_index(r.columns, r.columns->len - 1), .terminal = PCS_PLOT_DUMB};
      GString *s = g_string_new(NULL);
      error = NULL;
      check(pcs_plot_script(&r, &spec, s, &error), error);
      spec.histogram = TRUE;
      error = NULL;
      check(pcs_plot_script(&r, &spec, s, &error), error);
      g_string_free(s, TRUE);
    }
  } else {
    check(FALSE, error);
  }
  pcs_results_clear(&r);
  return 0;
}
