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
/* Run the pcsim binary with stdout on /dev/full (every write fails with
 * ENOSPC); returns the exit status, fills stderr. */
int test_pcsim_full(char **err, ...) G_GNUC_NULL_TERMINATED;
/* The same with a NULL-terminated ARGV, stdout on /dev/full when FULL
 * (OUT unused then). */
int test_pcsim_argv(char **out, char **err, gboolean full, const char *const *argv);
/* A fresh temporary directory, removed with its content when the test
 * program exits. */
char *test_tempdir(void);
/* Write TEXT to a fresh temporary file and return its path (removed too). */
char *test_tempfile(const char *name, const char *text);
/* Run an external tool (ARGV, searched in PATH) in DIR, so whatever it
 * writes lands there; fails the test unless it exits 0.  Returns stdout. */
char *test_tool(const char *dir, char **argv);

#endif
