/* params_alone.c - links against pcsim_params only: scenario parsing and
 * policies must not need the model or anything above it. */
#include "pcsim/params.h"
#include "pcsim/policy.h"

#include <stdio.h>

int main(void) {
  PcsParams p;
  PcsPolicy policy;
  GError *error = NULL;
  pcs_params_init(&p);
  if (!pcs_params_set_assignment(&p, "workload.threads=8", &error) || !pcs_policy_parse("window", &policy, &error)) {
    fprintf(stderr, "params_alone: %s\n", error->message);
    return 1;
  }
  printf("threads %" G_GUINT64_FORMAT " policy %s\n", p.workload_threads, policy.name);
  pcs_params_clear(&p);
  return 0;
}
