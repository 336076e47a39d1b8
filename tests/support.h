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
/* The non-empty lines of the source tree's file RELATIVE (a fixture), NULL-terminated; fails the test when unreadable. */
GStrv test_fixture_lines(const char *relative);
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
/* Cell COL (0 = the first; -1 = the last) of the CSV row whose first cell
 * is FIRST, as a double; fails the test when there is no such row or cell. */
double test_csv_cell(const char *csv, const char *first, int col);
/* Run an external tool (ARGV, searched in PATH) in DIR, so whatever it
 * writes lands there; fails the test unless it exits 0.  Returns stdout. */
char *test_tool(const char *dir, char **argv);

/* Set each "section.key=value" of the NULL-terminated list (aborts the test on error). */
void test_set(PcsParams *p, ...) G_GNUC_NULL_TERMINATED;

/* One trace event, as PcsTraceFn sees it. */
typedef struct {
  PcsTime t;
  uint32_t thread;
  PcsTraceKind kind;
  uint64_t a, b;
} TestEvent;

#define TEST_ANY_THREAD 0u        /* matches every thread (threads are 1-based) */
#define TEST_ANY UINT64_MAX       /* matches every A */
/* Run POLICY (page reads counted) and return every trace event in order
 * (a GArray of TestEvent; g_array_unref it).  Aborts the test on error. */
GArray *test_run_traced(const PcsParams *p, const char *policy, PcsResult *out);
/* The first event at or after index *FROM of KIND, THREAD (or TEST_ANY_THREAD)
 * and A (or TEST_ANY); fails the test when there is none.  *FROM (may be NULL)
 * is set to the index after it. */
const TestEvent *test_find(GArray *events, size_t *from, uint32_t thread, PcsTraceKind kind, uint64_t a);
/* How many events of KIND (and THREAD, or TEST_ANY_THREAD). */
size_t test_count(GArray *events, uint32_t thread, PcsTraceKind kind);
/* PcsTraceFn appending "time thread kind a b\n" to the GString USER. */
void test_trace_text(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b);

#endif
