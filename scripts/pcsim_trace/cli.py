"""cli - the command line of scripts/pcsim-trace: one argparse parser, a subcommand each.

`pcsim-trace --help` lists the subcommands with one line each; `pcsim-trace NAME --help`
prints NAME's own text (its module's docstring).  Before an analysis runs, every path
it reads is opened once: one that cannot be is reported as "pcsim-trace NAME: PATH:
REASON" with exit status 2 and no traceback, as is a trace that stops reading midway
(a truncated .gz) and a file with no ftrace event line (an empty file, fio's JSON).  Bad usage (an unknown subcommand, a missing argument) exits 2
through argparse.
"""
import argparse
import signal
import sys

from .ftrace import NotFtrace

from . import (alone_requests, async_start, async_ties, bio_gaps, call_spans, colaunch, cpu_share, csum_leaf_reads, device_busy, fio_cpu, first_run, host_freeze, idle_wake,
               insert_stalls, loop_worker, lru_batch, marker_hits, preemptions, reader_time_split, reduce_capture, sched_compare, sched_race_timing,
               sync_ra, wake_wait_burst, window_chain, window_order, worker_pool)

COMMANDS = (alone_requests, async_start, async_ties, bio_gaps, call_spans, colaunch, cpu_share, csum_leaf_reads, device_busy, fio_cpu, first_run,
            host_freeze, idle_wake, insert_stalls, loop_worker,
            lru_batch,
            marker_hits, preemptions, reader_time_split, reduce_capture, sched_compare, sched_race_timing, sync_ra,
            wake_wait_burst, window_chain, window_order, worker_pool)

PROG = 'pcsim-trace'
DESCRIPTION = '''\
Analyses of ftrace text: a kernel capture (scripts/capture-kernel-trace) or the file
`pcsim run ... --ftrace FILE` writes (.gz or plain).  Medians and pNN follow one rule:
the value at index floor(n * f) of the n sorted values (scripts/pcsim_trace/quantile.py),
but for first-run's median of a first run's repeats (validate-6.18's: see first-run --help).
`pcsim-trace NAME --help` describes NAME.'''


def parser():
    listing = '\n'.join(f'  {mod.NAME:<19} {mod.HELP}' for mod in COMMANDS)
    p = argparse.ArgumentParser(prog=PROG, usage=f'{PROG} SUBCOMMAND [ARGS]', description=DESCRIPTION,
                                epilog='subcommands:\n' + listing, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='command', metavar='SUBCOMMAND', prog=PROG, help=argparse.SUPPRESS)
    sub.required = True
    for mod in COMMANDS:
        s = sub.add_parser(mod.NAME, description=mod.__doc__.strip(),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(s)
        s.set_defaults(module=mod)
    return p


def fail(name, what, reason):
    sys.stderr.write(f'{PROG} {name}: {what}: {reason}\n')
    return 2


def inputs(args):
    """The input paths of ARGS, as its module's PATHS name them."""
    for key in args.module.PATHS:
        v = getattr(args, key, None)
        yield from ([] if v is None else v if isinstance(v, list) else [v])


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    args = parser().parse_args(argv)
    name = args.module.NAME
    if hasattr(args.module, 'prepare'):
        args.module.prepare(args)
    for path in inputs(args):
        try:
            open(path, 'rb').close()
        except OSError as e:
            return fail(name, path, e.strerror or e)
    try:
        return args.module.run(args) or 0
    except (OSError, EOFError, UnicodeDecodeError, NotFtrace) as e:
        where = getattr(e, 'filename', None) or ', '.join(inputs(args))
        return fail(name, where, getattr(e, 'strerror', None) or e)
