"""lru-batch - the per-CPU LRU batch's drains in a kernel capture (cost.lru_drain).

For each capture holding mm_filemap_add_to_page_cache lines (.gz or plain; a
capture or pcsim's --ftrace), over every task's consecutive inserts: the share
of spacings of 3 to 20 us (folio_add_lru() filling the CPU's batch of 31
folios and moving it to the LRU under the lruvec lock), their p25 / median /
p75 and mean, the mean of the other spacings (under 3 us), the extra time of
a drain (the two means' difference), and the inserts between two drains
(median, counted by task and by CPU: 31 when it is the batch).  Used for
workloads/linux-6.18-btrfs.ini's cost.lru_drain and docs/validation.md, "The
per-CPU LRU batch".  Exit status 2 on a trace without insert spacings.
"""
import statistics
import sys

from .ftrace import each_trace, events
from .quantile import quantile

NAME = 'lru-batch'
HELP = "the per-CPU LRU batch's drains (cost.lru_drain)"
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def one(path):
    last, n, big, base = {}, 0, [], []
    by_task, task_last = {}, {}
    by_cpu, cpu_last = {}, {}
    task_gaps, cpu_gaps = [], []
    for e in events(path, {'mm_filemap_add_to_page_cache'}):
        pid, cpu, t = e.pid, e.cpu, e.time
        by_cpu[cpu] = by_cpu.get(cpu, 0) + 1
        if pid in last:
            d = (t - last[pid]) * 1e6
            n += 1
            by_task[pid] = by_task.get(pid, 0) + 1
            if 3 <= d < 20:
                big.append(d)
                task_gaps.append(by_task[pid] - task_last.get(pid, 0))
                task_last[pid] = by_task[pid]
                cpu_gaps.append(by_cpu[cpu] - cpu_last.get(cpu, 0))
                cpu_last[cpu] = by_cpu[cpu]
            elif d < 3:
                base.append(d)
        last[pid] = t
    if not big or not base:
        sys.stderr.write(f'pcsim-trace lru-batch: {path}: no insert spacings to measure\n')
        return 2
    extra = statistics.mean(big) - statistics.mean(base)
    print(f'{path}: {n} spacings; 3..20 us: {len(big)} ({100 * len(big) / n:.1f}%), p25/median/p75 '
          f'{quantile(big, .25):.0f}/{quantile(big, .5):.0f}/{quantile(big, .75):.0f} us, mean {statistics.mean(big):.2f} us; '
          f'the rest mean {statistics.mean(base):.2f} us; extra {extra:.2f} us; inserts between: '
          f'by task {quantile(task_gaps, .5)}, by CPU {quantile(cpu_gaps, .5)} (median)')
    return 0


def run(args):
    return each_trace(args.traces, one)
