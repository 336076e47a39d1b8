/* scenario.h - the shipped scenarios, compiled into every pcsim binary, and
 * the one rule that turns a command-line argument into a scenario's text.
 *
 * The files of workloads/ (*.ini scenarios, *.fio jobs, *.sched schedules)
 * are compiled in as a GResource (sim/params/CMakeLists.txt generates its
 * list from the folder at build time), so a binary copied anywhere, or
 * installed, runs them by name from any directory.
 *
 * Resolution (pcs_scenario_read()), in this order:
 *   1. ARG names an existing file, or holds a '/': that file, as read by
 *      pcs_text_read() (a missing path is "ARG: cannot read: ...");
 *   2. ARG is a shipped file name ("liubo-2011.fio") of a wanted kind;
 *   3. ARG.ini, then ARG.fio, then ARG.sched, of the wanted kinds;
 *   4. else an input error (exit 2): "ARG: no such file and no shipped
 *      scenario of that name; shipped: a, b, c".
 * A shipped file reads byte for byte as the file in workloads/ does, under
 * its file name ("liubo-2011.ini"), which errors and provenance show.
 */
#ifndef PCSIM_SCENARIO_H
#define PCSIM_SCENARIO_H

#include <glib.h>

/* Kinds of shipped file, by extension; a set is their OR. */
typedef enum {
  PCS_SCENARIO_INI = 1 << 0,   /* NAME.ini: a scenario */
  PCS_SCENARIO_FIO = 1 << 1,   /* NAME.fio: a fio job */
  PCS_SCENARIO_SCHED = 1 << 2, /* NAME.sched: a step-model schedule */
  PCS_SCENARIO_ANY = PCS_SCENARIO_INI | PCS_SCENARIO_FIO | PCS_SCENARIO_SCHED,
  PCS_SCENARIO_SHIPPED_ONLY = 1 << 8, /* skip step 1: never a file of that name */
} PcsScenarioKinds;

/* Resolves ARG by the rule above among KINDS and reads it: *NAME is what
 * messages call it (ARG, or the shipped file name), *TEXT its contents,
 * NUL-terminated (*LEN bytes; LEN may be NULL).  Free both with g_free. */
gboolean pcs_scenario_read(const char *arg, guint kinds, char **name, char **text, gsize *len, GError **error);

/* The shipped file names of KINDS ("eight-threads.ini", ...), sorted; a
 * NULL-terminated vector for g_strfreev. */
char **pcs_scenario_files(guint kinds);
/* The name a user types for shipped FILE among KINDS: its stem when the
 * stem resolves to FILE ("liubo-2011" for liubo-2011.ini), else FILE
 * ("liubo-2011.fio").  Free with g_free. */
char *pcs_scenario_name(const char *file, guint kinds);
/* One line about shipped FILE: the first sentence of its first comment
 * (shortened to about MAX bytes at a word), or for a file without one what
 * its first lines set.  Free with g_free. */
char *pcs_scenario_describe(const char *file, gsize max);

#endif
