"""pcsim_trace - the trace analyses behind scripts/pcsim-trace, one module per subcommand.

A kernel capture (scripts/capture-kernel-trace) and `pcsim run ... --ftrace FILE` write
the same ftrace text; every analysis reads it through ftrace.events() and takes its
medians and percentiles from quantile.quantile().  cli.py holds the command line: the
list of subcommands (cli.COMMANDS), the check that each input path can be read, and the
exit statuses (0 done, 2 bad usage or an unreadable input).  An analysis module has
NAME, HELP (its one line in `pcsim-trace --help`), its docstring (its --help text),
add_arguments(parser), PATHS (the arguments that name input files), run(args) (its exit
status) and, where a default or an old spelling needs filling in before the paths are
checked, prepare(args).
"""
