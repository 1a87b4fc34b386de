#!/usr/bin/env python3
"""gen_emu_trace.py DIR EVENTS [THREADS] — a large emulable ovni trace:
THREADS threads (default 8), one per CPU, each repeating a valid sequence
of nOS-V tasks, subsystems, idle states, MPI calls, TAMPI subsystems and
marks until EVENTS events are written in all (layout v3, libovni 1.14)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "ovniemu"))
import ovnigen  # noqa: E402

REQ = {"nosv": "2.7.0", "mpi": "1.0.0", "tampi": "1.0.0"}
MARKS = {"1": {"title": "Iteration", "chan_type": "single"}}


def loop(s, t, task):
    """One iteration: 16 events, returns the next clock."""
    u32 = ovnigen.u32
    for mcv, payload in (("VAs", b""), ("VTc", u32(task, 1)), ("VAS", b""), ("VTx", u32(task, 0)),
                         ("MAr", b""), ("TLi", b""), ("TLI", b""), ("MAR", b""),
                         ("OM=", struct.pack("<qi", task, 1)), ("VTe", u32(task, 0)),
                         ("VSh", b""), ("VPr", b""), ("VPp", b""), ("VSf", b""),
                         ("Ms[", b""), ("Ms]", b"")):
        s.ev(mcv, t, payload)
        t += 37
    return t


def main():
    root, events = sys.argv[1], int(sys.argv[2])
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    per = max(1, events // threads // 16)
    for i in range(threads):
        s = ovnigen.Stream("bench", 1000 + i, 1000 + i, cpus=list(range(threads)) if i == 0 else None,
                           rank=i, nranks=threads, require=REQ,
                           extra={"ovni": {"mark": MARKS}})
        ovnigen.execute(s, 1000 + i, i)
        ovnigen.type_event(s, "VYc", 1001 + i, 1, "work")
        s.ev("VHw", 1002 + i)
        t = 2000 + i
        for k in range(per):
            t = loop(s, t, k + 1)
        s.ev("VHW", t)
        s.ev("OHe", t + 1)
        s.write(root)


if __name__ == "__main__":
    main()
