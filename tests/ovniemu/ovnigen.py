#!/usr/bin/env python3
"""Writers of emulable ovni traces (layout v3, libovni 1.14): stream
headers, events and stream.json as ovni-facts.md §2-3 describe them, and
scenarios with valid state sequences of every emulator model.

    python3 ovnigen.py DIR SCENARIO   writes DIR/ovni/... (scenarios below)
"""
import json
import os
import struct
import sys


class Stream:
    """One thread's stream: events appended in clock order."""

    def __init__(self, loom, pid, tid, cpus=None, rank=None, nranks=None, require=None,
                 extra=None):
        self.loom, self.pid, self.tid = loom, pid, tid
        self.cpus, self.rank, self.nranks = cpus, rank, nranks
        self.require = {"ovni": "1.1.0", **(require or {})}
        self.extra = extra or {}
        self.buf = bytearray(b"ovni" + struct.pack("<I", 1))
        self.clock = 0

    def ev(self, mcv, clock, payload=b""):
        assert len(payload) != 1 and len(payload) <= 16
        self.clock = clock
        code = len(payload) - 1 if payload else 0
        self.buf += bytes([code]) + mcv.encode() + struct.pack("<Q", clock) + payload

    def jumbo(self, mcv, clock, data):
        self.clock = clock
        self.buf += bytes([0x13]) + mcv.encode() + struct.pack("<QI", clock, len(data)) + data

    def write(self, root):
        d = os.path.join(root, "ovni", f"loom.{self.loom}", f"proc.{self.pid}",
                         f"thread.{self.tid}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "stream.obs"), "wb") as f:
            f.write(self.buf)
        meta = {"lib": {"version": "1.14.0", "commit": "cf025e2"}, "part": "thread",
                "tid": self.tid, "pid": self.pid, "loom": self.loom, "app_id": 1,
                "require": self.require}
        if self.rank is not None:
            meta["rank"], meta["nranks"] = self.rank, self.nranks
        if self.cpus:
            meta["loom_cpus"] = [{"index": i, "phyid": p} for i, p in enumerate(self.cpus)]
        meta.update(self.extra.pop("ovni", {}))
        meta["finished"] = 1
        doc = {"version": 3, "ovni": meta, **self.extra}
        with open(os.path.join(d, "stream.json"), "w") as f:
            json.dump(doc, f, indent=4)


def i32(*v):
    return struct.pack("<" + "i" * len(v), *v)


def u32(*v):
    return struct.pack("<" + "I" * len(v), *v)


def execute(s, t, cpu):
    s.ev("OHx", t, i32(cpu, -1) + struct.pack("<Q", 0))


def type_event(s, mcv, t, typeid, label):
    s.jumbo(mcv, t, u32(typeid) + label.encode() + b"\0")


def ovni_threads(root):
    """Pauses, cooling, warming, migration (own and remote), the virtual
    CPU with two threads, flushes and marks of every kind."""
    marks = {"ovni": {"mark": {
        "1": {"title": "Progress", "chan_type": "single"},
        "2": {"title": "Colors", "chan_type": "stack", "labels": {"1": "Blue", "2": "Red"}}}}}
    a = Stream("n0", 10, 10, cpus=[0, 2, 4], extra=marks)
    b = Stream("n0", 10, 11)
    c = Stream("n0", 10, 12)
    execute(a, 100, 0)
    execute(b, 110, 1)
    execute(c, 115, -1)
    a.ev("OM[", 120, struct.pack("<qi", 1, 2))
    a.ev("OM=", 125, struct.pack("<qi", 7, 1))
    a.ev("OHc", 130)
    a.ev("OHp", 140)
    b.ev("OF[", 150)
    b.ev("OAr", 155, i32(1, 10))        # moves the paused thread a next to b
    b.ev("OF]", 160)
    b.ev("OAs", 170, i32(2))             # b migrates to CPU index 2
    a.ev("OHw", 180)
    a.ev("OHr", 190)
    a.ev("OM[", 200, struct.pack("<qi", 2, 2))
    a.ev("OM=", 205, struct.pack("<qi", 7, 1))
    a.ev("OM]", 210, struct.pack("<qi", 2, 2))
    a.ev("OAs", 220, i32(-1))            # a joins c on the virtual CPU
    b.ev("OAr", 230, i32(1, 12))         # b moves c to CPU index 1
    a.ev("OM]", 240, struct.pack("<qi", 1, 2))
    a.ev("OAs", 255, i32(0))
    c.ev("OHe", 260)
    b.ev("OHe", 270)
    a.ev("OHe", 280)
    return [a, b, c]


def nosv_tasks(root):
    """nOS-V: pause and resume, a task over a paused one, a parallel task
    with two bodies, a task run again, subsystems, idle states, counters."""
    hwc = {"nosv": {"hwc": {"0": {"name": "PAPI_TOT_INS"}}}}
    a = Stream("n0", 20, 20, cpus=[0, 1], rank=0, nranks=1, require={"nosv": "2.7.0"}, extra=hwc)
    b = Stream("n0", 20, 21, require={"nosv": "2.7.0"})
    execute(a, 100, 0)
    execute(b, 101, 1)
    a.ev("VHw", 105)
    type_event(a, "VYc", 110, 1, "alpha")
    type_event(a, "VYc", 111, 2, "beta")
    a.ev("VAs", 115)
    a.ev("VTc", 120, u32(1, 1))
    a.ev("VTc", 121, u32(2, 2))
    a.ev("VTC", 122, u32(3, 1))
    a.ev("VAS", 125)
    a.ev("VTx", 130, u32(1, 0))
    a.jumbo("VWC", 135, struct.pack("<q", 0))
    a.ev("VAp", 140)
    a.ev("VTp", 145, u32(1, 0))
    a.ev("VTx", 150, u32(2, 0))
    a.jumbo("VWC", 155, struct.pack("<q", 42))
    a.ev("VTe", 160, u32(2, 0))
    a.ev("VTr", 165, u32(1, 0))
    a.ev("VAP", 170)
    a.ev("VTe", 175, u32(1, 0))
    a.ev("VPr", 180)
    a.ev("VPp", 185)
    b.ev("VHw", 190)
    b.ev("VTx", 200, u32(3, 1))
    a.ev("VTx", 205, u32(3, 2))
    b.ev("VTe", 210, u32(3, 1))
    a.ev("VTe", 215, u32(3, 2))
    a.ev("VTx", 220, u32(2, 0))      # runs again
    a.ev("VSh", 225)
    a.ev("VSf", 230)
    a.ev("VTe", 235, u32(2, 0))
    a.ev("VHW", 240)
    b.ev("VHW", 245)
    b.ev("VPa", 250)
    b.ev("OHe", 260)
    a.ev("OHe", 270)
    return [a, b]


def nanos6_tasks(root):
    """Nanos6: a task started over a running one (the runtime's inline
    tasks), ended back to the outer one, pauses, subsystems, thread types."""
    a = Stream("n0", 30, 30, cpus=[0], rank=1, nranks=2, require={"nanos6": "1.1.0"})
    execute(a, 100, 0)
    a.ev("6Hw", 105)
    a.ev("6W[", 106)
    type_event(a, "6Yc", 110, 1, "outer")
    type_event(a, "6Yc", 111, 2, "inner")
    a.ev("6C[", 115)
    a.ev("6Tc", 116, u32(1, 1))
    a.ev("6Tc", 117, u32(2, 2))
    a.ev("6Tc", 118, u32(3, 1))
    a.ev("6C]", 119)
    a.ev("6Tx", 120, u32(1))
    a.ev("6U[", 125)
    a.ev("6Tx", 130, u32(2))         # nested over a running task
    a.ev("6Te", 140, u32(2))         # back to task 1
    a.ev("6U]", 145)
    a.ev("6Tp", 150, u32(1))
    a.ev("6Bb", 155)
    a.ev("6BB", 160)
    a.ev("6Tr", 165, u32(1))
    a.ev("6F[", 168)
    a.ev("6Tx", 170, u32(3))         # same type, nested
    a.ev("6Te", 175, u32(3))
    a.ev("6F]", 178)
    a.ev("6Te", 180, u32(1))
    a.ev("6Pr", 185)
    a.ev("6Pp", 190)
    a.ev("6W]", 195)
    a.ev("6HW", 200)
    a.ev("OHe", 210)
    return [a]


def runtimes(root):
    """MPI, TAMPI, OpenMP (nested tasks, worksharing), NODES and kernel
    context switches."""
    req = {"mpi": "1.0.0", "tampi": "1.0.0", "openmp": "1.2.1", "nodes": "1.0.0",
           "kernel": "1.0.0"}
    a = Stream("n0", 40, 40, cpus=[0, 1], rank=0, nranks=1, require=req)
    execute(a, 100, 0)
    a.ev("MUi", 105)
    a.ev("MUI", 110)
    a.ev("TLi", 115)
    a.ev("MAr", 116)
    a.ev("MAR", 118)
    a.ev("TLI", 120)
    a.ev("Ms[", 121)
    a.ev("Ms]", 122)
    a.ev("PH[", 125)
    type_event(a, "POc", 126, 1, "taskA")
    type_event(a, "POc", 127, 2, "loop")
    a.ev("PPc", 128, u32(1, 1))
    a.ev("PPc", 129, u32(2, 1))
    a.ev("PT[", 130)
    a.ev("PPx", 131, u32(1))
    a.ev("PPx", 132, u32(2))
    a.ev("PPe", 133, u32(2))
    a.ev("PPe", 134, u32(1))
    a.ev("PT]", 135)
    a.ev("PWs", 136)
    a.ev("PQx", 137, u32(2))
    a.ev("PQe", 138, u32(2))
    a.ev("PWS", 139)
    a.ev("PH]", 140)
    a.ev("DC[", 145)
    a.ev("DC]", 146)
    a.ev("KCO", 150)
    a.ev("KCI", 160)
    a.ev("OHe", 170)
    return [a]


def forbidden(root):
    """Transitions the models forbid: a task ending that never began, a
    thread resumed while running, a pop of what was not pushed."""
    a = Stream("n0", 50, 50, cpus=[0], require={"nanos6": "1.1.0", "mpi": "1.0.0"})
    execute(a, 100, 0)
    type_event(a, "6Yc", 105, 1, "t")
    a.ev("6Tc", 110, u32(1, 1))
    a.ev("6Te", 120, u32(1))
    a.ev("OHr", 130)
    a.ev("MUi", 140)
    a.ev("MUF", 150)
    a.ev("OHe", 160)
    return [a]


def ended_tasks(root):
    """Tasks referenced after they ended (the emulator keeps only their
    kind in an id map, emu_task_map.h): Nanos6 tasks of interleaved types ended out
    of order and then run, ended, paused and resumed again, ids created
    twice; nOS-V tasks run again several times, a parallel task's bodies;
    OpenMP tasks run twice.  Each refusal is a finding (ENDED_FINDINGS in
    generated.py); the rest emulates."""
    a = Stream("n0", 60, 60, cpus=[0, 1],
               require={"nanos6": "1.1.0", "nosv": "2.7.0", "openmp": "1.2.1"})
    execute(a, 100, 0)
    for k, (mcv, typeid, label) in enumerate([("6Yc", 1, "t1"), ("6Yc", 2, "t2"), ("VYc", 1, "v1"),
                                               ("VYc", 2, "v2"), ("POc", 1, "o1"),
                                               ("POc", 2, "o2")]):
        type_event(a, mcv, 105 + k, typeid, label)
    events = [("6Hw", b""), ("VHw", b"")]
    events += [("6Tc", u32(i, 1 + i % 2)) for i in range(1, 13)]
    for i in [3, 1, 2, 5, 4, 7, 9, 8, 6, 12, 10, 11]:
        events += [("6Tx", u32(i)), ("6Te", u32(i))]
    events += [("6Tx", u32(5)), ("6Te", u32(5)), ("6Tp", u32(6)), ("6Tr", u32(7)),
               ("6Tc", u32(4, 1)), ("6Tc", u32(13, 2)), ("6Tx", u32(13)), ("6Tp", u32(13)),
               ("6Tr", u32(13)), ("6Te", u32(13)), ("6Tx", u32(13)), ("6Tc", u32(13, 1)),
               ("6Tx", u32(99))]
    events += [("VTc", u32(i, 1 + (i // 3) % 2)) for i in range(1, 9)]
    for _ in range(3):
        for i in [2, 1, 4, 3, 8, 5, 7, 6]:
            events += [("VTx", u32(i, 0)), ("VTe", u32(i, 0))]
    events += [("VTc", u32(3, 1)), ("VTe", u32(3, 0)), ("VTp", u32(4, 0)), ("VTr", u32(5, 0)),
               ("VTx", u32(6, 0)), ("VTp", u32(6, 0)), ("VTr", u32(6, 0)), ("VTe", u32(6, 0)),
               ("VTC", u32(20, 1)), ("VTx", u32(20, 1)), ("VTe", u32(20, 1)),
               ("VTx", u32(20, 1)), ("VTx", u32(20, 2)), ("VTe", u32(20, 2)),
               ("VTx", u32(20, 0)), ("VTx", u32(2, 1))]
    events += [("PPc", u32(i, 1 + i % 2)) for i in range(1, 7)]
    for _ in range(2):
        for i in [1, 3, 2, 6, 5, 4]:
            events += [("PPx", u32(i)), ("PPe", u32(i))]
    events += [("PPc", u32(2, 1)), ("PPx", u32(77)), ("PPx", u32(0)), ("VHW", b""), ("6HW", b"")]
    for k, (mcv, payload) in enumerate(events):
        a.ev(mcv, 200 + 10 * k, payload)
    a.ev("OHe", 200 + 10 * len(events))
    return [a]


def parallel_bodies(root):
    """nOS-V parallel tasks (VTC) whose bodies end out of order, skip an
    id, run nested over a paused task, and are referenced after they
    ended: in the ended prefix the emulator keeps as a count (emu_body.c),
    above it, and after the task left the table with its bodies ended.
    Each refusal is a finding (PARALLEL_FINDINGS in generated.py)."""
    a = Stream("n0", 70, 70, cpus=[0], require={"nosv": "2.7.0"})
    execute(a, 100, 0)
    type_event(a, "VYc", 105, 1, "p1")
    type_event(a, "VYc", 106, 2, "p2")
    events = [("VHw", b""), ("VTC", u32(1, 1)), ("VTC", u32(2, 2)), ("VTc", u32(3, 1))]
    events += [("VTx", u32(1, 2)), ("VTe", u32(1, 2)), ("VTe", u32(1, 2)),
               ("VTx", u32(1, 1)), ("VTe", u32(1, 1)), ("VTe", u32(1, 1)), ("VTp", u32(1, 2)),
               ("VTr", u32(1, 1)), ("VTx", u32(1, 2)), ("VTx", u32(1, 3)), ("VTe", u32(1, 3)),
               ("VTx", u32(1, 0))]
    events += [("VTx", u32(2, 1)), ("VTe", u32(2, 1)), ("VTx", u32(2, 3)), ("VTe", u32(2, 3)),
               ("VTe", u32(2, 3)), ("VTe", u32(2, 2)), ("VTx", u32(2, 2)), ("VTe", u32(2, 2)),
               ("VTx", u32(2, 3)), ("VTr", u32(2, 2))]
    events += [("VTx", u32(3, 0)), ("VTx", u32(1, 4)), ("VTp", u32(3, 0)), ("VTx", u32(1, 4)),
               ("VTe", u32(1, 4)), ("VTr", u32(3, 0)), ("VTe", u32(3, 0)), ("VTx", u32(1, 4)),
               ("VTx", u32(1, 5)), ("VTe", u32(1, 5)), ("VTe", u32(1, 5)), ("VTx", u32(9, 1)),
               ("VHW", b"")]
    for k, (mcv, payload) in enumerate(events):
        a.ev(mcv, 200 + 10 * k, payload)
    a.ev("OHe", 200 + 10 * len(events))
    return [a]


# Every begin/end pair of each model's subsystem, thread type and function
# channels (ovni-events.tsv order), and the events of them that set or
# are ignored.
SUBSYSTEM_EVENTS = {
    ("V", "nosv", "2.7.0"): ("Sh Sf S[ S] SN Sn U[ U] Ma MA Mf MF Ar AR Ad AD As AS Ap AP Ay AY "
                             "Aw AW Ac AC Aa AA Ae AE Al AL At AT Au AU Ab AB Ao AO Ag AG Ak AK "
                             "Aj AJ Am AM Ai AI An AN Ha HA Hw HW Hd HD", "Sr Ss S@ Pr Pa Pp"),
    ("6", "nanos6", "1.1.0"): ("W[ W] Wt WT Ww WW Wm WM Ws WS Wr WR Wg WG C[ C] U[ U] F[ F] t[ t] "
                               "O[ O] Ma MA Mf MF Dr DR Du DU S[ S] Sa SA Sp SP Bb BB Bu BU Bw BW "
                               "Bf BF He HE Hw HW Hl HL Hm HM", "W* S@ Sr Ss Pr Pa Pp"),
    ("P", "openmp", "1.2.1"): ("Bb BB Bj BJ Bf BF Bt BT Bs BS Ia IA Ir IR I[ I] Wd WD Wy WY Wc WC "
                               "Ws WS We WE Wi WI Ta TA Tc TC Td TD Tr TR T[ T] Ti TI Ts TS Tg TG "
                               "Tt TT Tw TW Ty TY A[ A] Mi MI Mu MU H[ H] Cf CF Ci CI", ""),
    ("T", "tampi", "1.0.0"): ("Ci CI Gc GC Li LI Lp LP Qa QA Qt QT Rc RC Rt RT Ra RA Rs RS Tc TC "
                              "Tw TW", ""),
    ("M", "mpi", "1.0.0"): ("Uf UF Ui UI Ut UT W[ W] Wa WA Ws WS Wy WY T[ T] Ta TA Ty TY Ts TS S[ S] "
                            "Sb SB Sr SR Ss SS R[ R] Rs RS Ro RO Ag AG Ar AR Aa AA Cb CB Ce CE Cs "
                            "CS Db DB Dg DG Ds DS E[ E] Es ES Eb EB s[ s] sb sB sr sR ss sS r[ r] "
                            "rs rS ro rO ag aG ar aR aa aA cb cB ce cE cs cS db dB dg dG ds dS "
                            "e[ e] es eS eb eB", ""),
    ("D", "nodes", "1.0.0"): ("R[ R] U[ U] W[ W] I[ I] T[ T] C[ C] S[ S] P[ P]", ""),
}


def subsystems(root):
    """Each model's every subsystem state (and thread type, MPI and TAMPI
    function), a thread per model: the pairs two by two, the second
    nested in the first, then the events that set a state or are
    ignored."""
    streams = []
    for k, ((letter, model, version), (pairs, singles)) in enumerate(SUBSYSTEM_EVENTS.items()):
        tid = 80 + k
        s = Stream("n0", tid, tid, cpus=list(range(len(SUBSYSTEM_EVENTS))) if k == 0 else None,
                   rank=0, nranks=1, require={model: version})
        execute(s, 100 + k, k)
        t = 200
        codes = pairs.split()
        for i in range(0, len(codes), 4):
            group = codes[i:i + 4]
            order = group[0::2] + group[1::2][::-1] if len(group) == 4 else group
            for c in order:
                s.ev(letter + c, t)
                t += 10
        for c in singles.split():
            s.ev(letter + c, t)
            t += 10
        s.ev("OHe", t)
        streams.append(s)
    return streams


def migrating_tasks(root):
    """Threads that migrate while running or pausing a task: a nOS-V
    thread moves itself (OAs) with a task in its body and again with it
    paused, and leaves the CPU for the kernel (KCO/KCI) with it running;
    a Nanos6 thread paused with a task paused (OHp) is moved by the other
    one (OAr) and resumes there.  Also the ovni events that change no
    state (OHC, OCn, OB., OU[ and OU])."""
    a = Stream("n0", 90, 90, cpus=[0, 1, 2, 3], require={"nosv": "2.7.0", "kernel": "1.0.0"})
    b = Stream("n0", 91, 91, require={"nanos6": "1.1.0"})
    execute(a, 100, 0)
    execute(b, 101, 3)
    a.ev("VHw", 105)
    type_event(a, "VYc", 106, 1, "moving")
    type_event(b, "6Yc", 107, 1, "moved")
    a.ev("VTc", 110, u32(1, 1))
    b.ev("6Tc", 111, u32(1, 1))
    a.ev("VTx", 120, u32(1, 0))
    b.ev("6Tx", 121, u32(1))
    a.ev("OAs", 130, i32(1))             # to CPU 1 in the task body
    a.ev("KCO", 140)
    b.ev("6Tp", 145, u32(1))
    b.ev("OHp", 150)
    a.ev("KCI", 155)
    a.ev("OAr", 160, i32(0, 91))         # b, paused, to the CPU a left
    a.ev("VTp", 165, u32(1, 0))
    a.ev("OAs", 170, i32(2))
    a.ev("OHC", 175, i32(3) + struct.pack("<Q", 7))
    a.ev("OCn", 176, i32(4))
    a.ev("OB.", 177)
    a.ev("OU[", 178)
    a.ev("OU]", 179)
    b.ev("OHr", 180)
    b.ev("6Tr", 185, u32(1))
    a.ev("VTr", 190, u32(1, 0))
    b.ev("6Te", 195, u32(1))
    a.ev("VTe", 200, u32(1, 0))
    a.ev("VHW", 205)
    b.ev("OHe", 210)
    a.ev("OHe", 220)
    return [a, b]


def parallel_tasks(root):
    """nOS-V parallel tasks (VTC) of alternating types whose bodies run on
    two threads at once and end out of order, tasks ended out of id
    order, a task given a new body after all its bodies ended (it left
    the emulator's table, emu_task.h), and a body run over a paused
    task."""
    a = Stream("n0", 95, 95, cpus=[0, 1], require={"nosv": "2.7.0"})
    b = Stream("n0", 95, 96, require={"nosv": "2.7.0"})
    execute(a, 100, 0)
    execute(b, 101, 1)
    type_event(a, "VYc", 105, 1, "even")
    type_event(a, "VYc", 106, 2, "odd")
    t = 110
    for task in range(1, 7):
        a.ev("VTC", t, u32(task, 1 + task % 2))
        t += 1
    a.ev("VTc", t, u32(7, 1))
    t = 200
    # Bodies 2 on a and 1 on b at once; the later tasks end first.
    for task in (3, 1, 2, 6, 4, 5):
        a.ev("VTx", t, u32(task, 2))
        b.ev("VTx", t + 2, u32(task, 1))
        b.ev("VTe", t + 5, u32(task, 1))
        a.ev("VTe", t + 7, u32(task, 2))
        t += 10
    a.ev("VTx", t, u32(2, 3))            # task 2 again, a third body
    a.ev("VTe", t + 5, u32(2, 3))
    a.ev("VTx", t + 10, u32(7, 0))
    a.ev("VTp", t + 15, u32(7, 0))
    a.ev("VTx", t + 20, u32(4, 3))       # over the paused task 7
    b.ev("VTx", t + 22, u32(4, 4))
    a.ev("VTe", t + 25, u32(4, 3))
    a.ev("VTr", t + 30, u32(7, 0))
    b.ev("VTe", t + 32, u32(4, 4))
    a.ev("VTe", t + 35, u32(7, 0))
    b.ev("OHe", t + 40)
    a.ev("OHe", t + 45)
    return [a, b]


SCENARIOS = {"forbidden": forbidden, "ovni-threads": ovni_threads, "nosv-tasks": nosv_tasks,
             "nanos6-tasks": nanos6_tasks, "runtimes": runtimes, "ended-tasks": ended_tasks,
             "parallel-bodies": parallel_bodies, "subsystems": subsystems,
             "migrating-tasks": migrating_tasks, "parallel-tasks": parallel_tasks}


def write(root, name):
    for s in SCENARIOS[name](root):
        s.write(root)


if __name__ == "__main__":
    write(sys.argv[1], sys.argv[2])
