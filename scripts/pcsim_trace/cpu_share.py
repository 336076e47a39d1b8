"""cpu-share - on which CPU the readers, the workers and the completions run.

For each trace (.gz or plain; a capture or pcsim's --ftrace), each group's count and
its share on each CPU:
  readers      the fio threads' readahead, insert and block events (scheduler events
               left out, so that a capture with them, one without and pcsim's --ftrace
               count the same things);
  workers      the runs of the kworker/u threads (unbound workqueues: btrfs's end-io
               workers, the loop device's), one per sched_switch out of one: only in a
               capture with scheduler events (--extra-events) or pcsim's --ftrace;
  completions  block_rq_complete, whoever runs it (pcsim's --ftrace writes every
               completion on CPU 0, in softirq context: its share there says nothing).
The kernel picks the woken reader's CPU in select_task_rq_fair(); the shares
say whether the readers share one CPU while the completions and workers take the other
(docs/notebook/2026-12-07-pelt-wake.md).  Then, in a capture with scheduler events, the
kworker/u wake-ups a reader made (sched_waking on a fio line: the loop device's worker
woken by a request the reader issued): how many went to the reader's own CPU, and of those
how many while the other CPU idled (its last sched_switch was to swapper), the choice
select_task_rq_fair() makes for the loop worker (pcsim's --ftrace writes no such waker).
Exit status 2 on a trace without fio events.
"""
import collections
import sys

from .ftrace import each_trace, events, fields

NAME = 'cpu-share'
HELP = 'on which CPU the readers, the workers and the completions run'
PATHS = ('traces',)
GROUPS = (('readers (fio)', lambda e: e.task.startswith('fio') and not e.name.startswith('sched_')),
          ('workers (kworker/u runs)', lambda e: e.task.startswith('kworker/u') and e.name == 'sched_switch'),
          ('completions (block_rq_complete)', lambda e: e.name == 'block_rq_complete'))


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def one(path):
    count = {g: collections.Counter() for g, _ in GROUPS}
    running = {}  # CPU -> the task its last sched_switch switched to
    woken = collections.Counter()
    for e in events(path):
        for g, member in GROUPS:
            if member(e):
                count[g][e.cpu] += 1
        if e.name == 'sched_switch':
            running[e.cpu] = fields(e.rest).get('next_comm', '')
        elif e.name == 'sched_waking' and e.task.startswith('fio'):
            f = fields(e.rest)
            if f.get('comm', '').startswith('kworker/u'):
                own = int(f.get('target_cpu', -1)) == e.cpu
                others_idle = all(running.get(c, '').startswith('swapper') for c in running if c != e.cpu)
                woken['all'] += 1
                woken['own'] += own
                woken['own, other idle'] += own and others_idle and len(running) > 1
    if not count[GROUPS[0][0]]:
        sys.stderr.write(f'pcsim-trace cpu-share: {path}: no fio event\n')
        return 2
    print(path)
    for g, _ in GROUPS:
        c = count[g]
        n = sum(c.values())
        shares = ', '.join(f'CPU {cpu} {100.0 * c[cpu] / n:.0f}%' for cpu in sorted(c)) if n else '-'
        print(f'  {g}: {n} events; {shares}')
    if woken['all']:
        print(f"  workers woken by a reader: {woken['all']}; onto the reader's CPU {woken['own']} "
              f"({100.0 * woken['own'] / woken['all']:.0f}%), {woken['own, other idle']} of them with the other CPU idle")
    return 0


def run(args):
    return each_trace(args.traces, one)
