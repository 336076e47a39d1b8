"""reduce-capture - shrink a capture with scheduler events to what the fixtures keep.

Reads IN, a trace of scripts/capture-kernel-trace taken with --extra-events
sched/sched_switch,sched/sched_wakeup,sched/sched_waking (.gz or plain), and writes
OUT (gzipped) without
  - the mm_filemap_add_to_page_cache lines (one per page inserted: most of the
    bytes; owner changes and frames need them, so take those from the full
    trace first),
  - every sched_switch in which no fio task is prev or next,
  - every sched_waking and sched_wakeup of a task other than fio.
What is left: the block and readahead events in full (pcsim trace-stats gives
the same bios and requests per MiB as the full trace) and the readers'
switches and wake-ups (reader-time-split, sched-compare, window-chain).
As the evening and 2026-12-04 fixture sets were made.
Exit status 2 on a missing or unreadable input; OUT is written whole or not at all.
"""
import gzip
import os
import re
import sys

from .ftrace import open_trace

NAME = 'reduce-capture'
HELP = 'shrink a capture to what the test fixtures keep'
PATHS = ('src',)
SWITCH = re.compile(r'sched_switch: prev_comm=(\S+) .* next_comm=(\S+) ')
WAKE = re.compile(r'sched_wak(?:ing|eup): comm=(\S+) ')


def add_arguments(p):
    p.add_argument('src', metavar='IN.ftrace.txt[.gz]')
    p.add_argument('dst', metavar='OUT.ftrace.txt.gz')


def keep(line):
    if 'mm_filemap_add_to_page_cache' in line:
        return False
    m = SWITCH.search(line)
    if m:
        return 'fio' in (m.group(1), m.group(2))
    m = WAKE.search(line)
    if m:
        return m.group(1) == 'fio'
    return True


def run(args):
    src, dst = args.src, args.dst
    tmp = dst + '.tmp'
    try:
        with open_trace(src) as fin, gzip.open(tmp, 'wt', compresslevel=9) as fout:
            for line in fin:
                if keep(line):
                    fout.write(line)
    except (OSError, EOFError, UnicodeDecodeError) as e:
        # a read error names the input; one opening or writing TMP, the output
        where = dst if isinstance(e, OSError) and e.filename == tmp else src
        sys.stderr.write('pcsim-trace reduce-capture: %s: %s\n' % (where, getattr(e, 'strerror', None) or e))
        if os.path.exists(tmp):
            os.unlink(tmp)
        return 2
    os.replace(tmp, dst)
    return 0
