/* fuzz_ini.c - libFuzzer target: scenario files, --set values and --vary lists.
 *
 * The input is loaded as an INI scenario (pcs_params_load_text), validated,
 * estimated and dumped as provenance; each of its lines is also tried as a
 * `--set SECTION.KEY=VALUE` and as a `--vary KEY=LIST`.  Any input must end
 * in success or a PCS_ERROR with a message, never a crash or a leak.
 */
#include "pcsim/grid.h"
#include "pcsim/params.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/sim.h"

#include <string.h>

static void expect_input_error(GError *error) {
  if (!error) return;
  g_assert(error->domain == PCS_ERROR && error->message && *error->message);
  g_error_free(error);
}

static void lines_as_options(const char *data, size_t len) {
  if (memchr(data, 0, len) || !g_utf8_validate(data, (gssize)len, NULL)) return;
  g_autofree char *text = g_strndup(data, len);
  g_auto(GStrv) lines = g_strsplit(text, "\n", 16);
  for (char **l = lines; *l; l++) {
    PcsParams p;
    pcs_params_init(&p);
    GError *error = NULL;
    pcs_params_set_assignment(&p, *l, &error);
    expect_input_error(error);
    error = NULL;
    PcsGrid g;
    pcs_grid_init(&g);
    if (pcs_grid_add(&g, *l, &error)) pcs_grid_finish(&g, &p, NULL, &error);
    expect_input_error(error);
    pcs_grid_clear(&g);
    pcs_params_clear(&p);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsParams p;
  pcs_params_init(&p);
  GError *error = NULL;
  if (pcs_params_load_text(&p, "fuzz.ini", (const char *)data, size, &error) && pcs_params_validate(&p, &error)) {
    GArray *pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
    if (pcs_policy_parse_list(p.scenario_policies, pols, &error))
      for (guint i = 0; i < pols->len; i++) {
        pcs_sim_estimate(&p, &g_array_index(pols, PcsPolicy, i));
        pcs_sim_check_limits(&p, &g_array_index(pols, PcsPolicy, i), &error);
        expect_input_error(error);
        error = NULL;
      }
    g_array_free(pols, TRUE);
    GString *s = g_string_new(NULL);
    pcs_report_csv_provenance(s, &p);
    g_string_truncate(s, 0);
    PcsJson w;
    pcs_json_init(&w, s);
    pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
    pcs_report_json_provenance(&w, &p);
    pcs_json_end_document(&w);
    JsonParser *parsed = pcs_json_parse("provenance", s->str, -1, NULL); /* any name, any bytes: valid JSON */
    g_assert(parsed);
    g_object_unref(parsed);
    g_string_free(s, TRUE);
  }
  expect_input_error(error);
  pcs_params_clear(&p);
  lines_as_options((const char *)data, size);
  return 0;
}
