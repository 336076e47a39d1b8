"""host-freeze - spans where the whole guest stood still, and the host period they keep.

For any capture (scripts/capture-kernel-trace; its default events are enough; .gz or
plain): a quiet span is a gap of at least --min-ms (2 ms) between two consecutive trace
events of any kind, any CPU, while at least one data request was in flight (issued,
not completed): the device owed a completion and no CPU traced anything.  A guest whose
host throttles it (a CPU quota per period on the host, CFS bandwidth control's 100 ms
by default) stops as a whole until the period ends, so those spans END at one phase of
the period: the time modulo --period-ms (100 ms).  Per trace:
  quiet spans, their total and share of the trace's span (first to last event);
  the phase (1 ms bins, the bin with most span ends and its two neighbours) and the spans
      that end there, when two or more do: count, length p50 (min..max), total and share
      of the span;
  the periods the trace covers (span / period), so "freezes per period" reads off.
With several traces, a line each, then the spans ending at each trace's own phase
pooled: length p50 (min..max) and the share of all spans.
A reader waiting for a large request also leaves quiet spans of a few ms, at any
phase; only the phase-locked ones are the host's.
Used for docs/notebook/2026-12-06-host-freeze.md.
"""
import collections
import sys

from .ftrace import block, events
from .quantile import quantile

NAME = 'host-freeze'
HELP = 'spans where the guest stood still, locked to a host period'
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('--min-ms', type=float, default=2.0, help='shortest quiet span counted (default 2 ms)')
    p.add_argument('--period-ms', type=float, default=100.0, help='the host period (default 100 ms)')
    p.add_argument('traces', nargs='+', metavar='TRACE')


def prepare(args):
    """Refuses a period under 1 ms or a span length not above 0 (exit 2, as argparse does)."""
    if args.period_ms < 1 or args.min_ms <= 0:
        sys.stderr.write(f'pcsim-trace {NAME}: --period-ms must be 1 or more and --min-ms above 0 '
                         f'(got {args.period_ms:g} and {args.min_ms:g})\n')
        sys.exit(2)


def quiet_spans(path, min_ms):
    """(spans as (start, end) in ms, first event ms, last event ms) of the trace at PATH."""
    spans, inflight = [], set()
    first = last = None
    for e in events(path):
        t = e.time * 1e3
        if first is None:
            first = t
        if last is not None and t - last >= min_ms and inflight:
            spans.append((last, t))
        last = t
        if e.name in ('block_rq_issue', 'block_rq_complete'):
            b = block(e.rest)
            if b and b.rwbs.startswith('R') and 'M' not in b.rwbs:
                key = (b.sector, b.sectors)
                if e.name == 'block_rq_issue':
                    inflight.add(key)
                else:
                    inflight.discard(key)
    return spans, first, last


def phase_of(spans, period):
    """The 1 ms phase bin most span ends fall in, counting its two neighbours."""
    bins = collections.Counter(int(end % period) for _, end in spans)
    n = int(period)
    return max(range(n), key=lambda b: (bins[(b - 1) % n] + bins[b] + bins[(b + 1) % n], bins[b], -b))


def at_phase(spans, phase, period):
    n = int(period)
    return [end - start for start, end in spans if min((int(end % period) - phase) % n,
                                                       (phase - int(end % period)) % n) <= 1]


def fmt(v):
    return f'{quantile(v, 0.5):.1f} ({min(v):.1f}..{max(v):.1f})' if v else '-'


def run(args):
    pooled, total = [], 0
    for path in args.traces:
        spans, first, last = quiet_spans(path, args.min_ms)
        if first is None:
            print(f'{path}: no events')
            continue
        span = last - first
        if span <= 0:
            print(f'{path}: one instant of events: no span')
            continue
        quiet = sum(b - a for a, b in spans)
        print(f'{path}: span {span:.0f} ms, {span / args.period_ms:.1f} periods; quiet spans {len(spans)}, '
              f'{quiet:.0f} ms ({100 * quiet / span:.0f}%)')
        total += len(spans)
        if not spans:
            continue
        phase = phase_of(spans, args.period_ms)
        locked = at_phase(spans, phase, args.period_ms)
        if len(locked) < 2:
            print('  no two spans end at one phase: nothing locked to the period')
            continue
        pooled += locked
        print(f'  ending at phase {phase} ms (+-1): {len(locked)}, length {fmt(locked)} ms, '
              f'{sum(locked):.0f} ms ({100 * sum(locked) / span:.0f}% of the span)')
    if len(args.traces) > 1:
        print(f'pooled, each at its own phase: {len(pooled)} of {total} quiet spans, length {fmt(pooled)} ms')
    return 0
