"""worker-pool - which kworker runs the loop device's and btrfs's end-io work, and where the reader it wakes runs.

Linux 6.x runs the loop device's work (loop_rootcg_workfn, workqueue "loop%d") and btrfs's
read end-io work (simple_end_io_work, "btrfs-endio") on unbound workqueues; unbound
workqueues with the same attributes share one worker_pool (get_unbound_pool()), a worker
that runs out of work goes to the head of the pool's idle list (worker_enter_idle()) and
new work wakes the head (kick_pool(), first_idle_worker()).  So the work queued next is
run by the kworker that went idle last, if it is idle, and select_task_rq_fair() sends that
kworker to the CPU it went idle on when that CPU is idle.

For each trace (.gz or plain) with the workqueue events (scripts/capture-kernel-trace
--extra-events sched/sched_switch,sched/sched_waking,sched/sched_wakeup,
workqueue/workqueue_execute_start,workqueue/workqueue_execute_end):
  work items   each loop or end-io work item's start, against the work item that ended
               last before it (any function): run by the same kworker or another, on the
               same CPU or the other; counted by the two functions;
  reader wake-ups by an end-io work item (sched_waking of fio from a simple_end_io_work
               kworker): onto the kworker's own CPU or another, and of those onto its own,
               how many with another CPU idle (its last sched_switch was to swapper).
pcsim's --ftrace writes no workqueue events: only the reader wake-ups by a kworker count
there (any kworker/u, its CPU from the wake-up line).
Exit status 2 on a trace with neither.
"""
import collections
import sys

from .ftrace import each_trace, events, fields

NAME = 'worker-pool'
HELP = "which kworker runs the loop and end-io work; where the reader it wakes runs"
PATHS = ('traces',)
WORK = {'loop_rootcg_workfn': 'loop', 'simple_end_io_work': 'end-io'}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def one(path):
    items = collections.Counter()
    wakes = collections.Counter()
    last_end = None      # (pid, cpu, kind) of the work item that ended last
    in_work = {}         # kworker pid -> the kind of work it runs now
    running = {}         # CPU -> the task its last sched_switch switched to
    has_wq = False
    woken = []           # (by an end-io item, onto the kworker's own CPU, and another CPU idle)
    for e in events(path):
        if e.name == 'sched_switch':
            running[e.cpu] = fields(e.rest).get('next_comm', '')
        elif e.name in ('workqueue_execute_start', 'workqueue_execute_end'):
            has_wq = True
            kind = WORK.get(e.rest.rsplit(' ', 1)[-1], 'other')
            if e.name == 'workqueue_execute_start':
                in_work[e.pid] = kind
                if kind != 'other' and last_end:
                    who = 'same kworker' if last_end[0] == e.pid else 'another kworker'
                    where = 'same CPU' if last_end[1] == e.cpu else 'other CPU'
                    items[(kind, last_end[2], who, where)] += 1
            else:
                in_work.pop(e.pid, None)
                last_end = (e.pid, e.cpu, kind)
        elif e.name == 'sched_waking' and e.task.startswith('kworker/u'):
            f = fields(e.rest)
            if not f.get('comm', '').startswith('fio'):
                continue
            own = int(f.get('target_cpu', -1)) == e.cpu
            idle_other = any(running.get(c, '').startswith('swapper') for c in running if c != e.cpu)
            woken.append((in_work.get(e.pid) == 'end-io', own, own and idle_other))
    for by_endio, own, own_idle in woken:  # with workqueue events only an end-io item's count, from the first line
        if by_endio or not has_wq:
            wakes['all'] += 1
            wakes['own'] += own
            wakes['own, another idle'] += own_idle
    if not items and not wakes['all']:
        sys.stderr.write(f'pcsim-trace worker-pool: {path}: no workqueue events and no reader woken by a kworker\n')
        return 2
    print(path)
    if items:
        n = sum(items.values())
        print(f'  work items (loop, end-io) against the item that ended last: {n}')
        for (kind, after, who, where), c in sorted(items.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f'    {kind:6} after {after:6}  {who:15} {where:9} {c:6} ({100.0 * c / n:.0f}%)')
        for kind in ('loop', 'end-io'):
            k = {key: c for key, c in items.items() if key[0] == kind}
            tot = sum(k.values())
            if tot:
                same = sum(c for key, c in k.items() if key[2] == 'same kworker')
                cpu = sum(c for key, c in k.items() if key[3] == 'same CPU')
                print(f'  {kind}: {tot} items; by the kworker that went idle last {100.0 * same / tot:.0f}%, '
                      f'on the CPU where the last item ended {100.0 * cpu / tot:.0f}%')
    if wakes['all']:
        w = wakes['all']
        print(f"  readers woken by {'an end-io work item' if has_wq else 'a kworker'}: {w}; onto the kworker's own CPU "
              f"{wakes['own']} ({100.0 * wakes['own'] / w:.0f}%), {wakes['own, another idle']} of them with another CPU idle")
    return 0


def run(args):
    return each_trace(args.traces, one)
