"""ftrace_lines - what the analysis scripts in scripts/ share: reading ftrace text and their
command line.

A kernel capture (scripts/capture-kernel-trace) and `pcsim run ... --ftrace FILE` write
the same text: one event a line, "TASK-PID [CPU] FLAGS TIME: EVENT: FIELDS".  Each
script imports this module from its own folder (python puts a script's folder first on
its path); it is not a script itself.
"""
import gzip
import re
import sys

# TASK-PID [CPU] FLAGS TIME: EVENT: REST
LINE = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
# block_rq_issue / block_rq_complete of a read: MAJ,MIN RWBS [BYTES] () SECTOR + SECTORS
RQ = re.compile(r'^\d+,\d+ (R[A-Z]*) (?:\d+ )?\(\) (\d+) \+ (\d+)')


def open_trace(path):
    """The trace at PATH as text lines, gzipped (.gz) or plain."""
    return gzip.open(path, 'rt') if path.endswith('.gz') else open(path)


def fields(rest):
    """The key=value fields of an event's REST (sched_switch's ' ==> ' taken as a space)."""
    return dict(kv.split('=', 1) for kv in rest.replace(' ==> ', ' ').split() if '=' in kv)


def paths_from_argv(doc, argv, lo=1, hi=None):
    """The trace paths of a script's command line ARGV (sys.argv), LO to HI of them.
    -h or --help prints DOC and exits 0; a wrong count prints DOC's usage line (its
    third) and exits 2, as does a path that cannot be opened, named."""
    args = argv[1:]
    if len(args) == 1 and args[0] in ('-h', '--help'):
        print(doc.strip())
        sys.exit(0)
    if len(args) < lo or (hi is not None and len(args) > hi):
        print(doc.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    name = argv[0].rsplit('/', 1)[-1]
    for path in args:
        try:
            open(path, 'rb').close()
        except OSError as e:
            print('%s: %s: %s' % (name, path, e.strerror), file=sys.stderr)
            sys.exit(2)
    return args


def quantiles(v, *fractions):
    """The FRACTIONS (0 <= f < 1) quantiles of the values V, by rank: the value at
    index int(n * f) of the sorted values; NaN for each when V is empty."""
    v = sorted(v)
    if not v:
        return tuple(float('nan') for _ in fractions)
    return tuple(v[min(int(len(v) * f), len(v) - 1)] for f in fractions)
