"""device-busy - how much of a run the device had a data read in flight.

For any capture (scripts/capture-kernel-trace; its default block events are enough; .gz
or plain): from the first data request issued to the last completed, the share of time
with at least one data read request in flight (issued, not completed), and the share
at each number in flight (those of 1% or more).  A one-thread run whose device is idle
most of the time is not waiting on the device: its reader is slow elsewhere (on the
ext4 order-9 folios of docs/notebook/2026-12-06-reported-memory.md, in its copies).
Per trace, one line and the in-flight shares.
"""
import collections

from .ftrace import block, events

NAME = 'device-busy'
HELP = 'the share of a run with a data read in flight, and how many'
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def busy(path):
    """(span s, busy s, Counter in-flight count -> seconds, requests) of the trace at PATH."""
    inflight, share = set(), collections.Counter()
    first = last = prev = None
    requests = 0
    for e in events(path, {'block_rq_issue', 'block_rq_complete'}):
        b = block(e.rest)
        if not b or not b.rwbs.startswith('R') or 'M' in b.rwbs:
            continue
        if prev is not None and (inflight or first is not None):
            share[len(inflight)] += e.time - prev
        prev = e.time
        key = (b.sector, b.sectors)
        if e.name == 'block_rq_issue':
            if first is None:
                first = e.time
            inflight.add(key)
            requests += 1
        elif key in inflight:
            inflight.discard(key)
            last = e.time
    if first is None or last is None or last <= first:
        return None
    span = last - first
    return span, span - share[0], share, requests


def run(args):
    for path in args.traces:
        got = busy(path)
        if got is None:
            print(f'{path}: no completed data read requests')
            continue
        span, on, share, requests = got
        print(f'{path}: {requests} data requests over {span * 1e3:.0f} ms, device busy {on * 1e3:.0f} ms '
              f'({100 * on / span:.0f}%)')
        total = sum(share.values())
        print('  in flight: ' + ' '.join(f'{n}: {100 * t / total:.0f}%' for n, t in sorted(share.items())
                                         if t / total >= 0.01))
    return 0
