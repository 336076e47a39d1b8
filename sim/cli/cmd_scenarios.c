/* cmd_scenarios.c - `pcsim scenarios`: the scenarios compiled into pcsim.
 *
 * Lists each shipped file (workloads/ at build time, scenario.h) by the
 * name a user types, with one line about it, and where the installed
 * copies are (share/pcsim beside the binary's prefix, or the configured
 * one); `--show NAME` prints one byte for byte, to copy and edit.
 */
#include "cli.h"

#include "pcsim/scenario.h"

#include <string.h>

#ifndef PCSIM_DATADIR_REL
#define PCSIM_DATADIR_REL "share" /* CMAKE_INSTALL_DATADIR */
#endif
#ifndef PCSIM_DATADIR
#define PCSIM_DATADIR "/usr/local/share" /* CMAKE_INSTALL_FULL_DATADIR */
#endif

#define DESCRIPTION_MAX 55 /* with the name column, 80 columns */

/* The folder holding installed copies: PREFIX/share/pcsim for the prefix
 * the binary runs from (cmake --install --prefix P), else the configured
 * one; NULL when neither holds them. */
static char *installed_dir(void) {
  g_auto(GStrv) files = pcs_scenario_files(PCS_SCENARIO_ANY);
  g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
  g_autofree char *bin = exe ? g_path_get_dirname(exe) : NULL;
  g_autofree char *prefix = bin ? g_path_get_dirname(bin) : NULL;
  char *dirs[] = {prefix ? g_build_filename(prefix, PCSIM_DATADIR_REL, "pcsim", NULL) : NULL,
                  g_build_filename(PCSIM_DATADIR, "pcsim", NULL)};
  char *found = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
    g_autofree char *probe = dirs[i] && files[0] ? g_build_filename(dirs[i], files[0], NULL) : NULL;
    if (!found && probe && g_file_test(probe, G_FILE_TEST_IS_REGULAR))
      found = g_strdup(dirs[i]);
    g_free(dirs[i]);
  }
  return found;
}

static void list(GString *s) {
  g_auto(GStrv) files = pcs_scenario_files(PCS_SCENARIO_ANY);
  g_string_append(s, "Scenarios compiled into this pcsim (a file of the same name wins):\n\n");
  for (char **f = files; *f; f++) {
    g_autofree char *name = pcs_scenario_name(*f, PCS_SCENARIO_ANY);
    g_autofree char *about = pcs_scenario_describe(*f, DESCRIPTION_MAX);
    g_string_append_printf(s, "  %-22s %s\n", name, about);
  }
  g_autofree char *dir = installed_dir();
  g_string_append(s, "\nNAME: a scenario, for pcsim run|sweep|compare NAME and --model NAME;\n"
                     "NAME.fio: a fio job, for pcsim run NAME.fio; a .sched name: pcsim replay NAME.\n");
  if (dir)
    g_string_append_printf(s, "Installed copies: %s/\n", dir);
  else
    g_string_append_printf(s, "Installed copies: none (cmake --install puts them in PREFIX/%s/pcsim/)\n",
                           PCSIM_DATADIR_REL);
  g_string_append(s, "To copy and edit one: pcsim scenarios --show NAME > my.ini\n");
}

int pcs_cmd_scenarios(int argc, char **argv) {
  g_autofree char *show = NULL;
  GOptionEntry entries[] = {
    {"show", 0, 0, G_OPTION_ARG_STRING, &show,
     "Print the shipped scenario NAME (or file NAME.fio, NAME.sched) as it is, to copy and edit", "NAME"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context(
      "- list the scenarios compiled into pcsim, or print one",
      "Every pcsim binary carries the files of the source tree's workloads/ folder:\n"
      "scenarios (.ini), fio jobs (.fio) and step-model schedules (.sched).\n"
      "Wherever a command reads a scenario, job or schedule, a name without '/'\n"
      "that is not an existing file is looked up among them: NAME.ini, then\n"
      "NAME.fio (NAME.sched for replay).  `cmake --install` also puts copies in\n"
      "PREFIX/" PCSIM_DATADIR_REL "/pcsim/.",
      entries);
  GError *error = NULL;
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) return pcs_cli_fail(error);
  if (argc != 1) return pcs_cli_usage_error("takes no arguments, got '%s' (--show NAME prints one)", argv[1]);
  g_autoptr(GString) s = g_string_new(NULL);
  if (show) {
    g_autofree char *name = NULL, *text = NULL;
    gsize len = 0;
    if (!pcs_scenario_read(show, PCS_SCENARIO_ANY | PCS_SCENARIO_SHIPPED_ONLY, &name, &text, &len, &error))
      return pcs_cli_fail(error);
    g_string_append_len(s, text, (gssize)len);
  } else {
    list(s);
  }
  return pcs_cli_write_stdout(s) ? PCS_EXIT_OK : PCS_EXIT_IO;
}
