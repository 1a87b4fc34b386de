"""pftrace_content.py - what a Perfetto trace holds, independent of how its
packets interleave and of how its writer numbered interned names: the
track descriptors as a set, and the packets of every trusted packet
sequence in their order, with debug annotation names resolved.  Two traces
with the same content give viewers the same tracks, slices, flows and
events per location: trace_processor keeps each sequence's incremental
state (clock, interned names, defaults) per sequence id and sorts events
by time (trace_sorter), so packets of different sequences may come in any
order.  Field numbers: TracePacket (trace_packet.proto) 10 sequence id, 11
track_event, 12 interned_data, 60 track_descriptor; InternedData
(interned_data.proto) 2 event_names, 3 debug_annotation_names; TrackEvent
(track_event.proto) 4 debug_annotations; DebugAnnotation 1 name_iid."""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "convert"))
import pftrace_walk  # noqa: E402  (the decoder and the viewer's rules)


def event(te, arg_names):
    """A track event's fields, its annotations named instead of numbered."""
    out = []
    for f, _, v in pftrace_walk.fields(te):
        if f == 4:
            out.append((f, tuple((g, arg_names[w] if g == 1 else bytes(w) if isinstance(w, (bytes, bytearray)) else w)
                                 for g, _, w in pftrace_walk.fields(v))))
        else:
            out.append((f, bytes(v) if isinstance(v, (bytes, bytearray)) else v))
    return tuple(out)


def packet_content(packet, arg_names):
    out = []
    for f, _, v in pftrace_walk.fields(packet):
        if f == 12:
            for g, _, w in pftrace_walk.fields(v):
                if g == 3:
                    a = pftrace_walk.msg(w)
                    arg_names[a[1][0]] = bytes(a[2][0])
                else:
                    out.append((f, g, bytes(w)))
    for f, _, v in pftrace_walk.fields(packet):
        if f == 11:
            out.append((f, event(v, arg_names)))
        elif f != 12:
            out.append((f, bytes(v) if isinstance(v, (bytes, bytearray)) else v))
    return tuple(out)


def content(path):
    """(sorted track descriptors, {sequence id: [packet content]}, the
    walker's counts); raises pftrace_walk.Problem if a viewer's rule fails."""
    counts, _ = pftrace_walk.walk(path)
    data = open(path, "rb").read()
    descriptors, sequences = [], collections.defaultdict(list)
    arg_names = collections.defaultdict(dict)
    for _, _, packet in pftrace_walk.fields(data):
        p = pftrace_walk.msg(packet)
        if p[60]:
            descriptors.append(bytes(packet))
            continue
        seq = p[10][0] if p[10] else 0
        sequences[seq].append(packet_content(packet, arg_names[seq]))
    return sorted(descriptors), dict(sequences), counts
