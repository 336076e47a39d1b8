"""alone-requests - the device's spread on requests served alone (device.jitter).

For each TRACE (ftrace text with block_rq_issue and block_rq_complete, as
scripts/capture-kernel-trace records; .gz or plain): the read requests of K
KiB (--kib, default 256) that were alone on the device from issue to completion
(no other request in flight when issued, none issued before it completed), their
count and p25 / median / p75 service time, and ln(p75 / p25) / 1.349: the
lognormal sigma that device.jitter takes (workloads/linux-6.18-btrfs.ini,
docs/notebook/hosts/dec06-handmade.ini).  Requests that overlap another are left out: their
slow-down is the channels', not the spread.
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
    p.add_argument('traces', nargs='+', metavar='TRACE')


def alone(path, sectors):
    """Service times (us) of the SECTORS-sized read requests alone throughout."""
    issued, served, in_flight = {}, [], 0
    for e in events(path, {'block_rq_issue', 'block_rq_complete'}):
        b = block(e.rest)
        if not b or 'R' not in b.rwbs:
            continue
        if e.name == 'block_rq_issue':
            issued[b.sector] = (e.time, b.sectors, in_flight)
            in_flight += 1
        elif b.sector in issued:
            in_flight -= 1
            t0, n0, before = issued.pop(b.sector)
            served.append((t0, e.time, n0, before))
    served.sort()
    return [1e6 * (t1 - t0) for i, (t0, t1, n, before) in enumerate(served)
            if n == sectors and before == 0 and not (i + 1 < len(served) and served[i + 1][0] < t1)]


def run(args):
    for path in args.traces:
        v = alone(path, args.kib * 2)
        if len(v) < 4:
            print(f'{path}: {len(v)} requests of {args.kib} KiB alone throughout: too few')
            continue
        p25, p50, p75 = quantiles(v, 0.25, 0.5, 0.75)
        print(f'{path}: {len(v)} requests of {args.kib} KiB alone throughout: p25 {p25:.0f} us, median {p50:.0f} us, '
              f'p75 {p75:.0f} us; ln(p75/p25)/1.349 = {math.log(p75 / p25) / 1.349:.2f}')
    return 0
