#!/usr/bin/env python3
"""check_contract_pftrace.py DIR — the Perfetto states that
test_states_contract wrote into DIR, read with pftrace_walk (declared
tracks, nesting, interning, trace_processor's rules): the hand-made
producer's 4 state slices and 2 counter values, on one counter track with
its unit, a process per row."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "convert"))
import pftrace_walk  # noqa: E402

counts, names = pftrace_walk.walk(os.path.join(sys.argv[1], "x.states.pftrace"))
want = {"begin": 4, "end": 4, "counter": 2, "counter_tracks": 1, "process_tracks": 3,
        "open_at_end": 0, "counters_without_unit": 0}
got = {k: counts[k] for k in want}
# Labels are interned; the counter's values are not slices.
if got != want or names != {"Running": 3, "Paused": 1}:
    print("FAIL", got, dict(names))
    sys.exit(1)
print("Perfetto states of the hand-made producer: as described")
