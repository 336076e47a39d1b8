"""csum-leaf-reads - btrfs's checksum leaf reads in a block trace (bio.csum_leaf_size).

For each trace with block events (.gz or plain; a kernel capture or pcsim's
--ftrace), the metadata reads (rwbs with R and M: in these runs btrfs's
checksum tree leaves, which btrfs_lookup_bio_sums() reads when a data bio
needs one that is not in memory) and what they cost the task that sent them:
  reads, their sizes (sectors), and the file distance between two of them
      (MiB between the data bios that waited for them, sorted by sector:
      median and p10..p90): one leaf's worth of checksums;
  queued -> issued, issued -> completed (split by whether data requests were
      in flight at its issue: a read behind data waits for it), completed ->
      the sender's next data bio queued: median, mean and sum in ms;
  stall: from the read's bio queued (the first, when a bio needs several
      leaves) to the sender's next data bio queued,
      the time that task's readahead could not go to the device: median,
      mean, sum, and the sum as a share of the trace's span;
  device busy: the time any read request was in flight (issued, not
      completed), as a share of the span (the rest the device idled).
Used for workloads/linux-6.18-btrfs.ini's bio.csum_leaf_size and
docs/validation.md, "Checksum leaves".
"""
import statistics

from .ftrace import block, events
from .quantile import quantile

NAME = 'csum-leaf-reads'
HELP = 'checksum leaf reads, their stalls (bio.csum_leaf_size)'
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def ms(v):
    if not v:
        return 'none'
    return '%.2f / %.2f / %.0f' % (quantile(v, 0.5) * 1e3, statistics.mean(v) * 1e3, sum(v) * 1e3)


def one(path):
    first = last = None
    queued, issued, sender = {}, {}, {}
    waiting = {}  # pid -> (read queued, read completed or None)
    in_flight = {}  # sector -> is meta
    alone, behind, to_data, stall, sizes, data_at = [], [], [], [], {}, []
    after_issue = {}
    busy, busy_from, completes = 0.0, None, 0
    for e in events(path, {'block_bio_queue', 'block_rq_issue', 'block_rq_complete'}):
        b = block(e.rest)
        if not b or 'R' not in b.rwbs:
            continue
        pid, t, sector = e.pid, e.time, b.sector
        first = t if first is None else first
        last = t
        meta = 'M' in b.rwbs
        if e.name == 'block_bio_queue':
            if meta:
                queued[sector] = t
                sender[sector] = pid
                if pid not in waiting:  # a bio needing several leaves reads them one after another
                    waiting[pid] = [t, None]
                sizes[b.sectors] = sizes.get(b.sectors, 0) + 1
            elif pid in waiting:
                w = waiting.pop(pid)
                stall.append(t - w[0])
                if w[1] is not None:
                    to_data.append(t - w[1])
                data_at.append(sector)
        elif e.name == 'block_rq_issue':
            if not in_flight:
                busy_from = t
            if meta and sector in queued:
                issued[sector] = t
                after_issue[sector] = any(not v for v in in_flight.values())
            in_flight[sector] = meta
        else:
            completes += 1
            if sector in in_flight:
                in_flight.pop(sector)
                if not in_flight:
                    busy += t - busy_from
            if meta and sector in issued:
                (behind if after_issue[sector] else alone).append(t - issued[sector])
                w = waiting.get(sender[sector])
                if w is not None:
                    w[1] = t
    span = (last - first) if first is not None else 0
    data_at.sort()
    apart = [(b - a) / 2048 for a, b in zip(data_at, data_at[1:])]
    print(path)
    print('  metadata reads %d, sizes (sectors: reads) %s' % (len(queued), sizes))
    if apart:
        print('  file between two reads: median %.1f MiB (p10..p90 %.1f..%.1f)' %
              (quantile(apart, 0.5), quantile(apart, 0.1), quantile(apart, 0.9)))
    print('  queued -> issued (median / mean / sum ms): %s' %
          ms([issued[s] - queued[s] for s in issued]))
    print('  issued -> completed, none in flight: %s (%d); behind data: %s (%d)' %
          (ms(alone), len(alone), ms(behind), len(behind)))
    print('  completed -> next data bio: %s' % ms(to_data))
    print('  stall (read queued -> next data bio): %s, %.0f%% of the %.0f ms span' %
          (ms(stall), 100 * sum(stall) / span if span else 0, span * 1e3))
    if completes:
        print('  device busy (a read request in flight): %.0f ms, %.0f%% of the span' %
              (busy * 1e3, 100 * busy / span if span else 0))
    else:
        print('  device busy: not measured (no block_rq_complete events)')


def run(args):
    for path in args.traces:
        one(path)
    return 0
