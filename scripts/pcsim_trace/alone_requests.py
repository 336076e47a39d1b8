"""alone-requests - the device's spread on requests served alone (device.jitter).

For each TRACE (ftrace text with block_rq_issue and block_rq_complete, as
scripts/capture-kernel-trace records; .gz or plain): the read requests of K
KiB (--kib, default 256) that were alone on the device from issue to completion
(no other request in flight when issued, none issued before it completed), their
count and p25 / median / p75 service time, and ln(p75 / p25) / 1.349: the
lognormal sigma that device.jitter takes (workloads/linux-6.18-btrfs.ini,
docs/notebook/hosts/dec06-handmade.ini).  Requests that overlap another are left out: their
slow-down is the channels', not the spread.

--by-idle splits them by how long the device had been idle before their issue
(from the last completion that left nothing in flight): one line per range of
idle time (under 20 us, 20-50, 50-100, 100-300, 300-1000 us, over 1 ms) with the
requests' count and median service time.  The one-thread 4 KiB random reads of
fiojobs-dec07s and -dec07t (the boot of 17:31) take 56-59 us after under 20 us
of idling and 131-140 us after 300-1000 us; fiojobs-dec07h's (another boot) 42
and 51 us after up to 300 us (docs/notebook/2026-12-07-dec07t-session.md).
calibrate does not model it.
"""
import argparse
import math

from .ftrace import block, events
from .quantile import quantiles

NAME = 'alone-requests'
HELP = "the device's spread on requests alone (device.jitter)"
PATHS = ('traces',)


def positive_int(text):
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return int(text)


def add_arguments(p):
    p.add_argument('--kib', type=positive_int, default=256, metavar='K', help='request size in KiB (default 256)')
    p.add_argument('--by-idle', action='store_true',
                   help="split the requests by the device's idle time before their issue")
    p.add_argument('traces', nargs='+', metavar='TRACE')


IDLE_RANGES = ((0, 20, 'under 20 us'), (20, 50, '20-50 us'), (50, 100, '50-100 us'), (100, 300, '100-300 us'),
               (300, 1000, '300-1000 us'), (1000, math.inf, 'over 1 ms'))


def alone_idle(path, sectors):
    """(service us, idle us before the issue) of the SECTORS-sized read requests alone
    throughout; idle is None for the first request of the trace."""
    issued, served, in_flight, idle_since = {}, [], 0, None
    for e in events(path, {'block_rq_issue', 'block_rq_complete'}):
        b = block(e.rest)
        if not b or 'R' not in b.rwbs:
            continue
        if e.name == 'block_rq_issue':
            idle = 1e6 * (e.time - idle_since) if in_flight == 0 and idle_since is not None else None
            issued[b.sector] = (e.time, b.sectors, in_flight, idle)
            in_flight += 1
        elif b.sector in issued:
            in_flight -= 1
            t0, n0, before, idle = issued.pop(b.sector)
            served.append((t0, e.time, n0, before, idle))
            if in_flight == 0:
                idle_since = e.time
    served.sort(key=lambda s: s[:4])
    return [(1e6 * (t1 - t0), idle) for i, (t0, t1, n, before, idle) in enumerate(served)
            if n == sectors and before == 0 and not (i + 1 < len(served) and served[i + 1][0] < t1)]


def alone(path, sectors):
    """Service times (us) of the SECTORS-sized read requests alone throughout."""
    return [svc for svc, _ in alone_idle(path, sectors)]


def print_by_idle(path, kib):
    v = alone_idle(path, kib * 2)
    print(f'{path}: {len(v)} requests of {kib} KiB alone throughout, by the device\'s idle time before their issue:')
    for lo, hi, name in IDLE_RANGES:
        s = [svc for svc, idle in v if idle is not None and lo <= idle < hi]
        if s:
            print(f'  idle {name:<12} {len(s):6d} requests, median {quantiles(s, 0.5)[0]:.0f} us')


def run(args):
    for path in args.traces:
        if args.by_idle:
            print_by_idle(path, args.kib)
            continue
        v = alone(path, args.kib * 2)
        if len(v) < 4:
            print(f'{path}: {len(v)} requests of {args.kib} KiB alone throughout: too few')
            continue
        p25, p50, p75 = quantiles(v, 0.25, 0.5, 0.75)
        print(f'{path}: {len(v)} requests of {args.kib} KiB alone throughout: p25 {p25:.0f} us, median {p50:.0f} us, '
              f'p75 {p75:.0f} us; ln(p75/p25)/1.349 = {math.log(p75 / p25) / 1.349:.2f}')
    return 0
