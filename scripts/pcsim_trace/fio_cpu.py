"""fio-cpu - the CPU time fio reports for a read job, per MiB and per read() call.

FIO.json: fio --output-format=json of one job (group_reporting), as the capture
sets keep next to each trace.  For each it prints the job's runtime, its
threads' user and system CPU per MiB read (jobs[0].usr_cpu and sys_cpu are
percentages of job_runtime, fio's total_run_time: with group_reporting each
thread's run time summed; times job_runtime they are the group's CPU time),
and the user time per read() call (total_ios): fio's own work between calls,
pcsim's cost.fio_user (pcsim calibrate reads it from the one-thread runs' JSON).
Exit status 2 on a file that is not fio JSON of a read job.
"""
import json
import sys

NAME = 'fio-cpu'
HELP = "fio's CPU per MiB and per read() call, from its JSON"
PATHS = ('jsons',)


def add_arguments(p):
    p.add_argument('jsons', nargs='+', metavar='FIO.json')


def figures(path):
    with open(path) as f:
        whole = json.load(f)
    job, glob = whole['jobs'][0], whole.get('global options', {})
    read = job['read']
    runtime_ms = read['runtime']
    threads = job.get('job options', {}).get('numjobs') or glob.get('numjobs') or 1
    mib = read['io_bytes'] / 2**20
    # fio's usr_cpu = usr_time * 100 / total_run_time (stat.c), both summed over the group
    usr_ms = job['job_runtime'] * job['usr_cpu'] / 100
    sys_ms = job['job_runtime'] * job['sys_cpu'] / 100
    return runtime_ms, int(threads), usr_ms / mib, sys_ms / mib, 1000 * usr_ms / read['total_ios']


def run(args):
    for path in args.jsons:
        try:
            runtime, threads, usr, sys_, per_call = figures(path)
        except (ValueError, KeyError, IndexError, TypeError, ZeroDivisionError) as e:
            sys.stderr.write(f'pcsim-trace fio-cpu: {path}: not fio JSON of a read job ({e})\n')
            return 2
        print(f'{path}: runtime {runtime} ms, {threads} thread(s): user {usr:.3f} ms/MiB, '
              f'system {sys_:.3f} ms/MiB, user {per_call:.2f} us per read() call')
    return 0
