#!/usr/bin/python3
"""Writes an OTF2 archive for timing energy_by_region: one node, THREADS
CPU threads each entering and leaving two nested regions PAIRS times, and
one power metric in W sampled every 10 us.  Needs python3-otf2 (Debian's
module, /usr/bin/python3).
Usage: energy_archive.py DIR [THREADS] [PAIRS] [UNIT]  (UNIT "#": not power, the baseline)"""
import sys

import otf2
from otf2.enums import LocationType, MetricScope

S = 1_000_000_000


def main():
    path = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    unit = sys.argv[4] if len(sys.argv) > 4 else "W"
    with otf2.writer.open(path, timer_resolution=S) as trace:
        d = trace.definitions
        node = d.system_tree_node("node", class_name="node", parent=d.system_tree_node("machine"))
        group = d.location_group("process", system_tree_parent=node)
        outer, inner = d.region("outer"), d.region("inner")
        for k in range(threads):
            w = trace.event_writer("thread %d" % k, group=group)
            t = S + 37 * k
            for _ in range(pairs):  # 1 us per pair, the inner half of it
                w.enter(t, outer)
                w.enter(t + 250, inner)
                w.leave(t + 750, inner)
                w.leave(t + 1000, outer)
                t += 1000
        cls = d.metric_class([d.metric_member("power", unit=unit)])
        meter = d.location("meter", type=LocationType.METRIC, group=group)
        inst = d.metric_instance(cls, meter, MetricScope.SYSTEM_TREE_NODE, node)
        w = trace.event_writer_from_location(meter)
        for i in range(pairs // 10 + 2):
            w.metric(S + i * 10_000, inst, [100.0 + (i % 7) * 10])


if __name__ == "__main__":
    main()
