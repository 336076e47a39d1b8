/* support.h - shared helpers for pcsim's cmocka tests. */
#ifndef PCSIM_TEST_SUPPORT_H
#define PCSIM_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pcsim/params.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/sim.h"

/* Absolute path of a file in the source tree. */
char *test_path(const char *relative);
/* Load a shipped workload (aborts the test on error). */
void test_load(PcsParams *p, const char *workload);
/* Run one policy by name; aborts the test on error. */
void test_run(const PcsParams *p, const char *policy, PcsResult *out);
/* Run the pcsim binary; returns exit status, fills stdout/stderr. */
int test_pcsim(char **out, char **err, ...) G_GNUC_NULL_TERMINATED;
/* Same, with ENV (NULL-terminated "K=V" list) added to the environment and
 * DIR as the working directory (NULL: the source tree). */
int test_pcsim_env(char **out, char **err, char **env, const char *dir, ...) G_GNUC_NULL_TERMINATED;
/* A fresh temporary directory. */
char *test_tempdir(void);
/* Write TEXT to a fresh temporary file and return its path. */
char *test_tempfile(const char *name, const char *text);

#endif
