"""preemptions - how the fio readers' runs on a CPU end when another task takes it over.

For a trace with sched_switch events (a kernel capture of scripts/capture-kernel-trace
with --extra-events sched/sched_switch, or pcsim's --ftrace; .gz or plain), a run is a
fio task's time on a CPU from its switch-in to its switch-out.  A run that ends with the
task still runnable (prev_state R) was preempted.  Per trace:
  fio runs: all of them, and how many ended preempted;
  preempted by: the task that got the CPU (digits shown as N), most frequent first;
  preempted runs: their length, p25 / p50 / p75 (ms);
  runs of 1.4 ms or more (6.18's EEVDF slice on 2 CPUs, 0.70 ms x (1 + ilog2(2))): how
      many ended preempted, and how many of those ended in the busiest quarter of a
      millisecond of the 4 ms tick period (CONFIG_HZ=250): a slice used up is acted on at
      the tick (update_curr() at the scheduler tick, no HRTICK), so those bunch at the
      tick's phase, where preemptions at a wake-up fall anywhere.
Used for docs/validation.md, "The scheduler tick".
"""
import collections
import re

from .ftrace import events, fields
from .quantile import quantiles

NAME = 'preemptions'
HELP = 'how preempted reader runs end; their tick phase'
PATHS = ('traces',)
SLICE_MS = 1.4
TICK_MS = 4.0
BINS = 16  # quarter milliseconds of the tick period


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def runs(path):
    """Every fio run: (length ms, its end ms, prev_state, the next task's name)."""
    out, on = [], {}
    for e in events(path, {'sched_switch'}):
        cpu, t, kv = e.cpu, e.time * 1e3, fields(e.rest)
        prev = on.get(cpu)
        if prev and prev[0] == kv['prev_pid'] and kv['prev_comm'] == 'fio':
            out.append((t - prev[1], t, kv['prev_state'], re.sub(r'\d+', 'N', kv['next_comm'])))
        on[cpu] = (kv['next_pid'], t)
    return out


def report(path):
    r = runs(path)
    pre = [x for x in r if x[2].startswith('R')]
    print('%s: %d fio runs, %d ended preempted' % (path, len(r), len(pre)))
    if not pre:
        return
    by = collections.Counter(x[3] for x in pre)
    print('  preempted by: ' + ', '.join('%s %d' % kv for kv in by.most_common(6)))
    print('  preempted runs (ms) p25 / p50 / p75: %.2f / %.2f / %.2f' % quantiles([x[0] for x in pre], 0.25, 0.5, 0.75))
    long_ = [x for x in pre if x[0] >= SLICE_MS]
    bins = collections.Counter(int((x[1] % TICK_MS) / TICK_MS * BINS) for x in long_)
    top = max(bins.values()) if bins else 0
    print('  runs of %.1f ms or more ended preempted: %d; in the busiest quarter-millisecond of the'
          ' %.0f ms tick period: %d (%.0f%%; %.0f%% if spread evenly)'
          % (SLICE_MS, len(long_), TICK_MS, top, 100.0 * top / max(len(long_), 1), 100.0 / BINS))
    print('  by quarter-millisecond of the tick period: ' + ' '.join(str(bins.get(i, 0)) for i in range(BINS)))


def run(args):
    for path in args.traces:
        report(path)
    return 0
