"""ftrace - ftrace text as events: the one read loop of every analysis.

A kernel capture (scripts/capture-kernel-trace) and `pcsim run ... --ftrace FILE` write
one event a line, "TASK-PID [CPU] FLAGS TIME: EVENT: FIELDS", gzipped (.gz) or plain;
lines that are not events (the "# tracer" header) are skipped.  TASK may hold spaces
and dashes (the last "-PID" before " [CPU]" ends it).  The block events' FIELDS
("MAJ,MIN RWBS [BYTES] [()] SECTOR + SECTORS [COMM]") parse with block(), the
scheduler's key=value FIELDS with fields().
"""
import collections
import gzip
import io
import re

Event = collections.namedtuple('Event', 'task pid cpu time name rest')
Event.__doc__ = 'One trace line: TASK (str), PID and CPU (int), TIME (s, float), NAME, REST (its fields, str).'
Block = collections.namedtuple('Block', 'rwbs sector sectors')
Block.__doc__ = 'block_bio_queue, block_rq_issue or block_rq_complete: RWBS (str), SECTOR, SECTORS (int).'

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
BLOCK = re.compile(r'^\d+,\d+ (\S+) (?:\d+ )?(?:\(\) )?(\d+) \+ (\d+)')


class NotFtrace(ValueError):
    """A file with no event line: not ftrace text (an empty file, fio's JSON, blkparse text)."""

    def __init__(self, path):
        super().__init__('no ftrace event lines ("TASK-PID [CPU] FLAGS TIME: EVENT: FIELDS"): not ftrace text')
        self.filename = path


def open_trace(path):
    """The trace at PATH as text lines, gzipped (by its first bytes, whatever its name) or plain;
    opened once, so a pipe (/dev/stdin, a shell's <(...)) reads whole."""
    f = open(path, 'rb')
    try:
        gzipped = f.peek(2)[:2] == b'\x1f\x8b'
        return io.TextIOWrapper(gzip.GzipFile(fileobj=f) if gzipped else f)
    except BaseException:
        f.close()
        raise


def events(path, names=None):
    """The events of the trace at PATH in file order; only those NAMES (a set) when given.
    NotFtrace when the file, read to its end, has no event line at all."""
    seen = False
    with open_trace(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            seen = True
            if names is not None and m.group(5) not in names:
                continue
            yield Event(m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5), m.group(6))
    if not seen:
        raise NotFtrace(path)


def each_trace(paths, one):
    """Runs ONE on each of PATHS in turn: exit status 2 at the first that returns non-zero (it
    has said why on stderr), else 0."""
    for path in paths:
        if one(path):
            return 2
    return 0


def block(rest):
    """A block event's FIELDS as a Block, or None when they are not a block event's."""
    m = BLOCK.match(rest)
    return Block(m.group(1), int(m.group(2)), int(m.group(3))) if m else None


INSERT = re.compile(r'ino ([0-9a-f]+) pfn=\S+ ofs=(\d+)(?: order=(\d+))?')
Insert = collections.namedtuple('Insert', 'ino page order')
Insert.__doc__ = 'mm_filemap_add_to_page_cache: INO (int), the folio\'s first PAGE and its ORDER (int).'


def insert(rest):
    """mm_filemap_add_to_page_cache's FIELDS as an Insert, or None.  The kernel prints the inode
    in hex ("ino %lx"), as the readahead events do (ino=%lx: inode()); no order= is order 0."""
    m = INSERT.search(rest)
    return Insert(int(m.group(1), 16), int(m.group(2)) // 4096, int(m.group(3) or 0)) if m else None


def inode(value):
    """A readahead event's ino= field (hex, as the kernel prints it) as an int; -1 when absent."""
    try:
        return int(value, 16)
    except (TypeError, ValueError):
        return -1


def data_file_events(path, names):
    """The events NAMES (mm_filemap_add_to_page_cache among them) of the data file, the inode
    with the most inserts, in file order, each as (Event, its Insert or its key=value fields);
    and that inode (None, with no event, when the trace has no insert)."""
    raw, count = [], collections.Counter()
    for e in events(path, names):
        if e.name == 'mm_filemap_add_to_page_cache':
            f = insert(e.rest)
            if not f:
                continue
            ino = f.ino
            count[ino] += 1
        else:
            f = fields(e.rest)
            ino = inode(f.get('ino'))
        raw.append((e, ino, f))
    if not count:
        return [], None
    data = count.most_common(1)[0][0]
    return [(e, f) for e, ino, f in raw if ino == data], data


def fields(rest):
    """The key=value fields of an event's FIELDS (sched_switch's ' ==> ' taken as a space)."""
    return dict(kv.split('=', 1) for kv in rest.replace(' ==> ', ' ').split() if '=' in kv)
