#!/usr/bin/env python3
"""compare.py - side by side: pcsim against the SimPy model (model.py), results and wall time.

Called by ./run with, per policy, four files:
  POLICY PCSIM_SEEDS_CSV PCSIM_STATS SIMPY_JSONL
PCSIM_SEEDS_CSV  `pcsim run --policy POLICY --seeds N -f csv`: one row per seed, then median/min/max rows
PCSIM_STATS      the 'stats: wall_s=...' lines of one `pcsim run --policy POLICY --seed S --stats` per seed
SIMPY_JSONL      one model.py line per seed (run right after pcsim's run of the same seed)
Results agree when SimPy's mean over the seeds is within TOLERANCE of pcsim's median (both are
centres of the seed-to-seed spread; the two cannot match run by run, see README.md).
Exit status 1 when a result disagrees.
"""
import csv
import json
import statistics
import sys

TOLERANCE = 0.01
METRICS = [('bios', 'bios', '%.0f'), ('requests', 'requests', '%.0f'), ('aggregate_mib_s', 'aggr MiB/s', '%.1f'),
           ('eexist', 'eexist', '%.0f'), ('waits', 'waits', '%.0f'), ('ra_async', 'ra_async', '%.0f')]
CHECKED = ('bios', 'requests', 'aggregate_mib_s')  # the "within 1%"; the rest for information


def read_pcsim(path):
    rows = {}
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith('#')):
            rows[row['seed']] = row
    return rows


def read_stats(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith('stats:'):
                kv = dict(w.split('=') for w in line.split()[1:])
                out.append((float(kv['wall_s']), int(kv['events'])))
    return out


def main(argv):
    if len(argv) < 4 or len(argv) % 4:
        sys.exit('usage: compare.py POLICY PCSIM_SEEDS_CSV PCSIM_STATS SIMPY_JSONL [...]')
    ok = True
    timing = []
    print('%-10s %-11s %26s %26s %8s' % ('policy', 'metric', 'pcsim median (min..max)', 'SimPy mean (min..max)',
                                        'diff'))
    for i in range(0, len(argv), 4):
        policy, pcsim_csv, stats_path, simpy_path = argv[i:i + 4]
        pc = read_pcsim(pcsim_csv)
        sp = [json.loads(line) for line in open(simpy_path) if line.strip()]
        for key, label, fmt in METRICS:
            vals = [float(r[key]) for r in sp]
            mean = statistics.mean(vals)
            med = float(pc['median'][key])
            diff = mean / med - 1.0 if med else 0.0
            flag = ''
            if key in CHECKED:
                flag = ' ok' if abs(diff) <= TOLERANCE else ' OVER 1%'
                ok = ok and abs(diff) <= TOLERANCE
            pcs = (fmt + ' (' + fmt + '..' + fmt + ')') % (med, float(pc['min'][key]), float(pc['max'][key]))
            sps = (fmt + ' (' + fmt + '..' + fmt + ')') % (mean, min(vals), max(vals))
            print('%-10s %-11s %26s %26s %+7.2f%%%s' % (policy, label, pcs, sps, 100 * diff, flag))
        st = read_stats(stats_path)
        timing.append((policy, st, sp))
    print()
    print('wall time of one run, median over seeds (pcsim: --stats wall_s; SimPy: model.run() alone)')
    print('%-10s %8s %12s %12s %9s %12s %12s %8s' % ('policy', 'runs', 'pcsim s', 'pcsim ev/s', 'SimPy s',
                                                     'SimPy ev/s', 'SimPy ev', 'ratio'))
    tot_pc = tot_sp = 0.0
    for policy, st, sp in timing:
        pc_wall = statistics.median(w for w, _ in st)
        pc_ev = statistics.median(e for _, e in st)
        sp_wall = statistics.median(r['wall_s'] for r in sp)
        sp_ev = statistics.median(r['events'] for r in sp)
        tot_pc += sum(w for w, _ in st)
        tot_sp += sum(r['wall_s'] for r in sp)
        print('%-10s %8d %12.3f %12.0f %9.2f %12.0f %12.0f %7.0fx' % (policy, len(sp), pc_wall, pc_ev / pc_wall,
                                                                      sp_wall, sp_ev / sp_wall, sp_ev,
                                                                      sp_wall / pc_wall))
    print('%-10s %8s %12.3f %12s %9.2f %12s %12s %7.0fx' % ('all', '', tot_pc, '', tot_sp, '', '', tot_sp / tot_pc))
    print()
    print('results: %s' % ('agree within 1% (bios, requests, aggr MiB/s)' if ok else 'DISAGREE (see OVER 1%)'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
