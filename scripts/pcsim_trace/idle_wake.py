"""idle-wake - how fast a reader woken onto an idle CPU runs, by how long that CPU had idled.

TRACE: a capture's ftrace text (.gz or plain) with sched_switch and sched_waking
(scripts/capture-kernel-trace --extra-events sched/sched_switch,sched/sched_waking,...),
or pcsim's --ftrace.  A reader is a task named fio.  For each sched_waking of a reader
raised on another CPU than the one the reader last ran on (its prev CPU: a remote
wake-up, an IPI), while that prev CPU ran its idle task, and followed by the reader's
switch-in on that CPU: the time from the waking to the switch-in, binned by how long
the prev CPU had been idle at the waking (from its last switch to the idle task).  It
prints, per bin, the count and p10 / p25 / median / p75 / p90 us.

A virtual machine's idle vCPU halts; a host that polls a halted vCPU for a while
(KVM's halt_poll_ns, 200 us by default) resumes it at once when the IPI comes within
that time, and has to schedule the vCPU's thread again after it.  Used for
docs/validation.md, "Windows launched twice" (the dec06 host's two wake-up speeds).
"""
import collections

from .ftrace import events, fields
from .quantile import quantiles

NAME = 'idle-wake'
HELP = 'wake-up latency onto an idle CPU, by how long it idled'
PATHS = ('traces',)
BINS = (0, 20, 50, 100, 200, 400, 1000, 5000)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def remote_idle_wakes(path):
    """(idle us, latency us) of every remote wake-up of a reader onto its idle prev CPU."""
    running, idle_since, prev_cpu, pending, out = {}, {}, {}, {}, []
    for e in events(path, {'sched_switch', 'sched_waking'}):
        cpu, t, f_ = e.cpu, e.time * 1e6, fields(e.rest)
        if e.name == 'sched_switch':
            running[cpu] = f_['next_pid']
            if f_['next_pid'] == '0':
                idle_since[cpu] = t
            if f_.get('prev_comm') == 'fio':
                prev_cpu[f_['prev_pid']] = cpu
            woken = pending.pop(f_['next_pid'], None)
            if woken and woken[0] == cpu:
                out.append((woken[2], t - woken[1]))
        elif f_.get('comm') == 'fio':
            pc = prev_cpu.get(f_['pid'])
            if pc is not None and pc != cpu and running.get(pc) == '0' and pc in idle_since:
                pending[f_['pid']] = (pc, t, t - idle_since[pc])
            else:
                pending.pop(f_['pid'], None)
    return out


def run(args):
    for path in args.traces:
        rows = remote_idle_wakes(path)
        print('%s: %d remote wake-ups of a reader onto its idle prev CPU' % (path, len(rows)))
        by = collections.defaultdict(list)
        for idle, lat in rows:
            by[sum(1 for b in BINS[1:] if idle >= b)].append(lat)
        for i, lo in enumerate(BINS):
            if by[i]:
                hi = '%d' % BINS[i + 1] if i + 1 < len(BINS) else 'inf'
                print('  idle %5d..%-5s us: %5d, woken -> on CPU p10 / p25 / median / p75 / p90: %s us'
                      % (lo, hi, len(by[i]), ' / '.join('%.0f' % q for q in quantiles(by[i], .1, .25, .5, .75, .9))))
    return 0
