"""device-busy - how much of a run the device had a data read in flight.

For any capture (scripts/capture-kernel-trace; its default block events are enough; .gz
or plain): from the first data request issued to the last completed, the share of time
with at least one data read request in flight (issued, not completed), and the share
at each number in flight (those of 1% or more).  A one-thread run whose device is idle
most of the time is not waiting on the device: its reader is slow elsewhere (on the
ext4 order-9 folios of docs/notebook/2026-12-06-reported-memory.md, in its copies).
Per trace, one line and the in-flight shares, then the busy periods whose requests
were all in flight at once (a lone request is one; the periods calibrate's busy-period
device fit reads), by their KiB and requests, seen 3 times or more: how many, and the
first issue -> last completion p25 / p50 / p75 in us.  An ext4 8 MiB window into
memory the host took back takes twice what a warm one does (the loop's direct I/O
faults on the host too: docs/notebook/2026-12-06-cold-captures.md).
"""
import collections

from .ftrace import block, events
from .quantile import quantiles

NAME = 'device-busy'
HELP = 'the share of a run with a data read in flight, and how many'
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def busy(path):
    """(span s, busy s, Counter in-flight count -> seconds, requests, periods) of the trace at PATH;
    periods: {(bytes, requests): [seconds]} of the busy periods whose requests were all in flight at once."""
    inflight, share = set(), collections.Counter()
    first = last = prev = None
    requests = 0
    periods = collections.defaultdict(list)
    p_start = p_bytes = p_count = p_most = 0
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
            if not inflight:
                p_start, p_bytes, p_count, p_most = e.time, 0, 0, 0
            inflight.add(key)
            requests += 1
            p_bytes, p_count, p_most = p_bytes + b.sectors * 512, p_count + 1, max(p_most, len(inflight))
        elif key in inflight:
            inflight.discard(key)
            last = e.time
            if not inflight and p_most == p_count and e.time > p_start:
                periods[(p_bytes, p_count)].append(e.time - p_start)
    if first is None or last is None or last <= first:
        return None
    span = last - first
    return span, span - share[0], share, requests, periods


def run(args):
    for path in args.traces:
        got = busy(path)
        if got is None:
            print(f'{path}: no completed data read requests')
            continue
        span, on, share, requests, periods = got
        print(f'{path}: {requests} data requests over {span * 1e3:.0f} ms, device busy {on * 1e3:.0f} ms '
              f'({100 * on / span:.0f}%)')
        total = sum(share.values())
        print('  in flight: ' + ' '.join(f'{n}: {100 * t / total:.0f}%' for n, t in sorted(share.items())
                                         if t / total >= 0.01))
        for (size, n), times in sorted(periods.items()):
            if len(times) >= 3:
                q = quantiles(times, 0.25, 0.5, 0.75)
                print(f'  busy periods of {size // 1024} KiB in {n}: {len(times)}, '
                      + ' / '.join(f'{t * 1e6:.0f}' for t in q) + ' us')
    return 0
