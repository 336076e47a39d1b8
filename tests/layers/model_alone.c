/* model_alone.c - links against pcsim_model (and so pcsim_params) only.
 *
 * Built with the tests: if the model ever calls into formats, batch or the
 * command line, this program stops linking, so "the model depends on
 * nothing but params" is checked by the build, not by review.  Running it
 * simulates the default scenario once and prints its bio count.
 */
#include "pcsim/sim.h"

#include <stdio.h>

int main(void) {
  PcsParams p;
  PcsPolicy policy;
  PcsResult r;
  GError *error = NULL;
  pcs_params_init(&p);
  if (!pcs_params_set_assignment(&p, "workload.file_size=4M", &error) ||
      !pcs_policy_parse("pool:16", &policy, &error) || !pcs_sim_run(&p, &policy, NULL, &r, &error)) {
    fprintf(stderr, "model_alone: %s\n", error->message);
    return 1;
  }
  printf("bios %" G_GUINT64_FORMAT "\n", r.bios);
  pcs_result_clear(&r);
  pcs_params_clear(&p);
  return 0;
}
