"""pftrace_walk.py — reads a Perfetto protobuf trace with a small decoder of
its own and checks the rules a viewer relies on: every track is declared
before an event uses it, slices nest per track (an end closes an open
slice, times never go back on a track), flows have both ends, interned
names are defined on their sequence before use and never redefined.
Returns counts for the callers' comparisons.  Standard library only."""
import collections
import struct


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of a message's bytes."""
    i, n = 0, len(b)
    while i < n:
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = b[i:i + 8]
            i += 8
        elif wt == 2:
            ln, i = varint(b, i)
            v = b[i:i + ln]
            i += ln
            if i > n:
                raise ValueError("length past the end")
        elif wt == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def msg(b):
    d = collections.defaultdict(list)
    for f, _, v in fields(b):
        d[f].append(v)
    return d


class Problem(Exception):
    pass


def flows_drawn(flow_events):
    """The flows trace_processor draws.  It parses events in timestamp
    order (trace_sorter); track_event_parser.cc binds flow_ids of an event
    (begin, instant, or end: ParseThreadEndEvent calls MaybeParseFlowEvents
    with the slice that ends) to its slice, and a terminating flow id that
    is not active yet (flow_tracker IsActive) is skipped: only flows whose
    start comes first in time are drawn."""
    active, drawn = set(), 0
    for _, _, outs, ins in sorted(flow_events):
        for i in ins:
            if i in active:
                active.discard(i)
                drawn += 1
        active.update(outs)
    return drawn


def walk(path):
    data = open(path, "rb").read()
    tracks = {}          # uuid -> (kind, parent)
    seqs = {}            # seq id -> dict(clock, default_track, interned)
    open_slices = collections.defaultdict(list)
    last_t = {}
    flows_out, flows_in = collections.Counter(), collections.Counter()
    flow_events = []     # (t, order, out ids, terminating ids)
    counter_units = {}   # counter track uuid -> has a unit
    counts = collections.Counter()
    names = collections.Counter()
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            raise Problem("Trace holds field %d" % f)
        p = msg(pkt)
        seq = p[10][0] if p[10] else 0
        if p[60]:
            td = msg(p[60][0])
            uuid = td[1][0]
            if uuid in tracks:
                raise Problem("track %d declared twice" % uuid)
            parent = td[5][0] if td[5] else 0
            if parent and parent not in tracks:
                raise Problem("track %d's parent %d not declared" % (uuid, parent))
            kind = "process" if td[3] else "thread" if td[4] else "counter" if td[8] else "child"
            tracks[uuid] = (kind, parent)
            if td[8]:
                cd = msg(td[8][0])
                counter_units[uuid] = bool(cd[3] or cd[6])
            counts["tracks"] += 1
            counts[kind + "_tracks"] += 1
            continue
        flags = p[13][0] if p[13] else 0
        if flags & 1:
            st = {"clock": None, "track": 0, "interned": {}, "arg_names": {}}
            defaults = msg(p[59][0]) if p[59] else {}
            if defaults and defaults[11]:
                ted = msg(defaults[11][0])
                st["track"] = ted[11][0] if ted[11] else 0
            if p[6]:
                for c in msg(p[6][0])[1]:
                    cm = msg(c)
                    if cm[1][0] == 64:
                        st["clock"] = cm[2][0]
            seqs[seq] = st
        if not p[11]:
            continue
        if seq not in seqs:
            raise Problem("event on sequence %d before its state was cleared" % seq)
        st = seqs[seq]
        for idata in p[12]:
            for en in msg(idata)[2]:
                e = msg(en)
                iid, name = e[1][0], e[2][0].decode()
                old = st["interned"].get(iid)
                if old is not None and old != name:
                    raise Problem("iid %d redefined on sequence %d" % (iid, seq))
                st["interned"][iid] = name
            for an in msg(idata)[3]:
                a = msg(an)
                st["arg_names"][a[1][0]] = a[2][0].decode()
        clock = p[58][0] if p[58] else 64
        ts = p[8][0] if p[8] else 0
        if clock == 64:
            st["clock"] += ts
            t = st["clock"]
        else:
            t = ts
        ev = msg(p[11][0])
        typ = ev[9][0] if ev[9] else 0
        track = ev[11][0] if ev[11] else st["track"]
        if track not in tracks:
            raise Problem("event on undeclared track %d" % track)
        if ev[10]:
            iid = ev[10][0]
            if iid not in st["interned"]:
                raise Problem("name iid %d used before it was interned" % iid)
            names[st["interned"][iid]] += 1
        for d in ev[4]:  # debug annotations: names interned on the sequence (debug_annotation.proto name_iid)
            a = msg(d)
            if not a[1] or a[1][0] not in st["arg_names"]:
                raise Problem("debug annotation without an interned name on sequence %d" % seq)
            counts["annotations"] += 1
        if typ in (1, 2):  # slices need order; instants may go back (ovni unordered regions)
            if t < last_t.get(track, 0):
                raise Problem("time goes back on track %d" % track)
            last_t[track] = t
        if typ == 1:
            open_slices[track].append(t)
            counts["begin"] += 1
        elif typ == 2:
            if not open_slices[track]:
                raise Problem("slice end with no open slice on track %d" % track)
            open_slices[track].pop()
            counts["end"] += 1
        elif typ == 3:
            counts["instant"] += 1
        elif typ == 4:
            if tracks[track][0] != "counter":
                raise Problem("counter value on a non-counter track")
            counts["counter"] += 1
        else:
            raise Problem("track event type %d" % typ)
        outs = [struct.unpack("<Q", v)[0] for v in ev[47]]
        ins = [struct.unpack("<Q", v)[0] for v in ev[48]]
        for i in outs:
            flows_out[i] += 1
        for i in ins:
            flows_in[i] += 1
        if outs or ins:
            flow_events.append((t, len(flow_events), outs, ins))
    counts["flows_drawn"] = flows_drawn(flow_events)
    counts["counters_without_unit"] = sum(1 for has in counter_units.values() if not has)
    counts["open_at_end"] = sum(len(s) for s in open_slices.values())
    counts["flows"] = len(flows_out)
    counts["flows_one_end"] = len(set(flows_out) ^ set(flows_in))
    return counts, names
