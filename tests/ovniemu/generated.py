#!/usr/bin/env python3
"""ovni emulation of generated traces (ovnigen.py) for what the fixtures
lack: pauses, cooling and warming, migrations, the virtual CPU, marks of
every kind, nOS-V bodies (paused, nested over a paused task, parallel, run
again) and counters, Nanos6 tasks nested over running ones, MPI, TAMPI,
OpenMP, NODES and kernel context switches, every subsystem, thread type
and function state of the nOS-V, Nanos6, OpenMP, TAMPI, MPI and NODES
models, and tasks running or paused on threads that migrate or leave the
CPU.

golden/<scenario>/ holds what ovniemu 1.14.0 (bsc-pm/ovni cf025e2, built
from source) wrote for the same trace; perfweave's thread/cpu .prv must
hold the same (time, value) sequences per row and type, with the same
labels and rows (paraver_oracle.compare).  The scenario "forbidden" holds
transitions the models refuse: `check` must report each with its clock.
`stats --json` "states" must hold the time each labelled value lasted on
each row, as computed here from ovniemu's own .prv and .pcf, `dump
--states` one line per line of ovniemu's .prv files, `convert -o
X.states.json` one Chrome slice per value each row held, and `convert -o
X.states.pftrace` the same slices on Perfetto tracks (and counter tracks
for the hardware counters), read with tests/convert/pftrace_walk.py's
decoder after its checks (declared tracks, nesting, interning).

usage: generated.py PERFWEAVE [--regen OVNIEMU]   (regen needs
OVNI_CONFIG_DIR set to ovni's cfg/ directory)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "convert"))
import ovnigen  # noqa: E402
import paraver_oracle  # noqa: E402
import pftrace_walk  # noqa: E402

# (clock, code, words) of each finding ovniemu's model refuses.
FORBIDDEN = [(120, "ovniemu.bad-transition", "task body does not exist"),
             (130, "ovniemu.bad-transition", "cannot resume"),
             (150, "ovniemu.bad-transition", "pop of a value")]


# The same for "ended-tasks": references to tasks after they ended are
# refused as ovni src/emu/body.c and task.c refuse them for tasks it kept.
ENDED_FINDINGS = [(580, "ovniemu.bad-transition", "not allowed to run again"),
                  (590, "ovniemu.bad-transition", "body is not running"),
                  (600, "ovniemu.bad-transition", "body is not running"),
                  (610, "ovniemu.bad-transition", "body is not paused"),
                  (620, "ovniemu.bad-transition", "id already exists"),
                  (680, "ovniemu.bad-transition", "not allowed to run again"),
                  (690, "ovniemu.bad-transition", "id already exists"),
                  (700, "ovniemu.bad-transition", "task was not created"),
                  (1270, "ovniemu.bad-transition", "id already exists"),
                  (1280, "ovniemu.bad-transition", "body is not running"),
                  (1290, "ovniemu.bad-transition", "body is not running"),
                  (1300, "ovniemu.bad-transition", "body is not paused"),
                  (1380, "ovniemu.bad-transition", "not allowed to run again"),
                  (1410, "ovniemu.bad-transition", "parallel task needs a body id"),
                  (1420, "ovniemu.bad-transition", "not parallel has body id 0"),
                  (1730, "ovniemu.bad-transition", "id already exists"),
                  (1740, "ovniemu.bad-transition", "task was not created"),
                  (1750, "ovniemu.bad-transition", "without a task id")]


# The same for "parallel-bodies": what ovni src/emu/body.c refuses for the
# bodies of parallel tasks, whether the emulator still holds them or only
# counts them as ended (emu_body.c, emu_task.h).
PARALLEL_FINDINGS = [(260, "ovniemu.bad-transition", "body is not running"),
                     (290, "ovniemu.bad-transition", "body is not running"),
                     (300, "ovniemu.bad-transition", "not allowed to pause"),
                     (310, "ovniemu.bad-transition", "body is not paused"),
                     (320, "ovniemu.bad-transition", "not allowed to run again"),
                     (350, "ovniemu.bad-transition", "parallel task needs a body id"),
                     (400, "ovniemu.bad-transition", "body is not running"),
                     (410, "ovniemu.bad-transition", "body does not exist"),
                     (440, "ovniemu.bad-transition", "not allowed to run again"),
                     (450, "ovniemu.bad-transition", "body is not paused"),
                     (470, "ovniemu.bad-transition", "cannot nest a task body"),
                     (530, "ovniemu.bad-transition", "not allowed to run again"),
                     (560, "ovniemu.bad-transition", "body is not running"),
                     (570, "ovniemu.bad-transition", "task was not created")]


def regen(ovniemu, name, tmp):
    ovnigen.write(tmp, name)
    subprocess.run([ovniemu, "ovni"], cwd=tmp, check=True, capture_output=True)
    out = os.path.join(HERE, "golden", name)
    os.makedirs(out, exist_ok=True)
    for view in ("thread", "cpu"):
        for ext in ("prv", "pcf", "row"):
            shutil.copy(os.path.join(tmp, "ovni", f"{view}.{ext}"), out)


def check_forbidden(exe, tmp, fails, name="forbidden", expected=FORBIDDEN):
    ovnigen.write(tmp, name)
    r = subprocess.run([exe, "check", tmp], capture_output=True, text=True)
    lines = [l for l in r.stderr.splitlines() if "[ovniemu." in l]
    if len(lines) != len(expected) or r.returncode != 1:
        fails.append(f"{name}: exit {r.returncode}, findings {lines}")
        return
    for line, (clock, code, words) in zip(lines, expected):
        if f"clock {clock}:" not in line or f"[{code}]" not in line or words not in line:
            fails.append(f"{name}: {line!r} lacks clock {clock}, {code}, {words!r}")


def check_damage_listed(exe, tmp, fails):
    """A trace with more forbidden transitions than check lists findings
    (PW_MAX_DIAGS, 1000) and a damaged stream whose damage comes later in
    time: the damage is listed with its offset, not counted away behind
    the emulator's findings, which are listed EMU_FINDINGS_PER_KIND (64)
    of a kind and then counted."""
    a = ovnigen.Stream("n0", 60, 60, cpus=[0, 1])
    b = ovnigen.Stream("n0", 60, 61)
    ovnigen.execute(a, 100, 0)
    ovnigen.execute(b, 101, 1)
    for i in range(1500):
        a.ev("OHr", 200 + i)              # resumed while running: forbidden
    b.ev("OF[", 5000)
    flags_at = len(b.buf)
    b.ev("OF]", 5001)
    b.buf[flags_at] |= 0x20               # a reserved flag bit
    b.ev("OHe", 5002)
    a.ev("OHe", 5003)
    b.buf += bytes([0]) + b"OH"           # an event cut short
    for s in (a, b):
        s.write(tmp)
    r = subprocess.run([exe, "check", tmp], capture_output=True, text=True)
    lines = r.stderr.splitlines()
    bad = [l for l in lines if "[ovniemu.bad-transition]" in l]
    for code in ("ovni.reserved-flags", "ovni.truncated-event"):
        if not any(f"[{code}]" in l and "offset" in l for l in lines):
            fails.append(f"damage-listed: no {code} finding with its offset: {lines[-3:]}")
    if r.returncode != 1 or len(bad) != 65 or "1500 events make a transition" not in bad[-1]:
        fails.append(f"damage-listed: exit {r.returncode}, {len(bad)} bad transitions: {bad[-1:]}")
    if any("more findings not shown" in l for l in lines):
        fails.append("damage-listed: findings were counted away")


LONG_LABELS = {1: 'a "quoted" task type, longer than a cache slot ' + "x" * 60,
               2: "another\\long type \u00e9, escaped " + "y" * 70}


def check_long_labels(exe, tmp, fails):
    """Task type labels whose JSON text is longer than the Chrome writer
    caches (62 bytes), with characters JSON escapes, each used by several
    slices: every slice carries its label whole, in .states.json as in
    .states.pftrace."""
    a = ovnigen.Stream("n0", 70, 70, cpus=[0], require={"nosv": "2.7.0"})
    ovnigen.execute(a, 100, 0)
    for typeid, label in LONG_LABELS.items():
        ovnigen.type_event(a, "VYc", 100 + typeid, typeid, label)
    for task in range(1, 5):
        t = 100 + 10 * task
        a.ev("VTc", t, ovnigen.u32(task, 1 + task % 2))
        a.ev("VTx", t + 1, ovnigen.u32(task, 0))
        a.ev("VTe", t + 5, ovnigen.u32(task, 0))
    a.ev("OHe", 200)
    a.write(tmp)
    json_out, pf_out = os.path.join(tmp, "x.states.json"), os.path.join(tmp, "x.states.pftrace")
    for out in (json_out, pf_out):
        subprocess.run([exe, "convert", tmp, "-o", out, "-q"], check=True)
    chrome = chrome_slices(json_out)
    named = [name for spans in chrome.values() for _, _, name in spans]
    # two tasks of each type, each a slice in the thread's row and the CPU's
    if any(named.count(label) != 4 for label in LONG_LABELS.values()):
        fails.append(f"long-labels: .states.json slices named {sorted(set(named))}")
    if perfetto_slices(pf_out)[0] != chrome:
        fails.append("long-labels: .states.pftrace slices differ from .states.json's")


def golden_times(gold):
    """{(view, row name, type, value): ns} from ovniemu's files: each value
    lasts until the next change of its row and type, or the trace's end."""
    out = {}
    for view in ("thread", "cpu"):
        header, rows = paraver_oracle.read_prv(os.path.join(gold, view + ".prv"))
        end = int(header.split("):")[1].split("_")[0])
        pcf = paraver_oracle.read_pcf(os.path.join(gold, view + ".pcf"))
        with open(os.path.join(gold, view + ".row")) as f:
            names = f.read().split("\n")[4:]
        for (row, typ), seq in rows.items():
            labels = pcf.get(typ, {}).get("values", {})
            name = names[row - 1]
            if view == "thread":
                name = "thread." + name.split(".")[-1]
            for k, (t, v) in enumerate(seq):
                t_next = seq[k + 1][0] if k + 1 < len(seq) else end
                if v in labels and t_next > t:
                    key = (view, name, typ, v)
                    out[key] = out.get(key, 0) + t_next - t
    return out


def row_names(gold, view):
    """Row names as perfweave's reports give them, by Paraver row."""
    with open(os.path.join(gold, view + ".row")) as f:
        names = f.read().split("\n")[4:]
    if view == "thread":
        return ["thread." + n.split(".")[-1] for n in names]
    return names


def check_dump_states(exe, name, tmp, fails):
    r = subprocess.run([exe, "dump", "--states", tmp, "-q"], capture_output=True, text=True)
    ours = []
    for line in r.stdout.splitlines():
        d = json.loads(line)
        ours.append((d["view"], d["loc"].split("/")[-1], d["t"], d["type"], d["value"]))
    want = []
    gold = os.path.join(HERE, "golden", name)
    for view in ("thread", "cpu"):
        names = row_names(gold, view)
        _, rows = paraver_oracle.read_prv(os.path.join(gold, view + ".prv"))
        for (row, typ), seq in rows.items():
            loc = names[row - 1]
            if view == "cpu":
                loc = "vcpu" if loc.startswith("vCPU") else "cpu." + loc.split(".")[-1]
            want += [(view, loc, t, typ, v) for t, v in seq]
    if sorted(ours) != sorted(want):
        fails.append(f"{name}: dump --states differs from ovniemu's rows: "
                     f"{sorted(set(ours) ^ set(want))[:6]}")


def golden_spans(gold):
    """{(view, row name, type): [(t0, t1, value)]} from ovniemu's rows:
    nonzero values, each until the next change or the trace's end."""
    out = {}
    for view in ("thread", "cpu"):
        header, rows = paraver_oracle.read_prv(os.path.join(gold, view + ".prv"))
        end = int(header.split("):")[1].split("_")[0])
        names = row_names(gold, view)
        for (row, typ), seq in rows.items():
            for k, (t, v) in enumerate(seq):
                t_next = seq[k + 1][0] if k + 1 < len(seq) else end
                if v and t_next > t:
                    out.setdefault((view, names[row - 1], typ), []).append((t, t_next, v))
    return out


def check_chrome_states(exe, name, tmp, fails):
    """convert -o X.states.json: a slice per span of ovniemu's rows, named
    by the value's .pcf label (Chrome JSON: ts and dur in µs)."""
    out = os.path.join(tmp, "x.states.json")
    subprocess.run([exe, "convert", tmp, "-o", out, "-q"], check=True)
    with open(out) as f:
        events = json.load(f)["traceEvents"]
    procs = {e["pid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "process_name"}
    ours = {}
    for e in events:
        if e["ph"] != "X":
            continue
        view = "cpu" if e["pid"] >= 1000000 else "thread"
        row = procs[e["pid"]] if view == "cpu" else "thread." + procs[e["pid"]].split(".")[-1]
        t0 = round(e["ts"] * 1000)
        ours.setdefault((view, row, e["tid"]), []).append((t0, t0 + round(e["dur"] * 1000),
                                                           e["args"]["value"]))
    want = golden_spans(os.path.join(HERE, "golden", name))
    if {k: sorted(v) for k, v in ours.items()} != want:
        fails.append(f"{name}: Chrome state slices differ from ovniemu's rows")


def chrome_slices(path):
    """{(pid, track name): sorted [(t0 ns, t1 ns, slice name)]} of a states .json."""
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["ph"] == "M" and e["name"] == "thread_name"}
    out = {}
    for e in events:
        if e["ph"] == "X":
            t0 = round(e["ts"] * 1000)
            out.setdefault((e["pid"], tracks[(e["pid"], e["tid"])]), []).append(
                (t0, t0 + round(e["dur"] * 1000), e["name"]))
    return {k: sorted(v) for k, v in out.items()}


def perfetto_slices(path):
    """The same from a states .pftrace (slices of zero length left out, as
    Chrome's spans leave them out), and the names of its counter tracks."""
    M = pftrace_walk.msg
    pids, tracks, counters, names, clock = {}, {}, set(), {}, 0
    out, open_at = {}, {}
    for _, _, pkt in pftrace_walk.fields(open(path, "rb").read()):
        p = M(pkt)
        if p[60]:
            td = M(p[60][0])
            if td[3]:
                pids[td[1][0]] = M(td[3][0])[1][0]
            else:
                tracks[td[1][0]] = (pids[td[5][0]], td[2][0].decode())
                if td[8]:
                    counters.add(tracks[td[1][0]])
            continue
        for idata in p[12]:
            for en in M(idata)[2]:
                e = M(en)
                names[e[1][0]] = e[2][0].decode()
        if not p[11]:
            continue
        clock += p[8][0] if p[8] else 0
        ev = M(p[11][0])
        key = tracks[ev[11][0]]
        if ev[9][0] == 1:
            open_at[key] = (clock, names[ev[10][0]] if ev[10] else ev[23][0].decode())
        elif ev[9][0] == 2:
            t0, name = open_at.pop(key)
            if clock > t0:
                out.setdefault(key, []).append((t0, clock, name))
    return {k: sorted(v) for k, v in out.items()}, counters


def check_perfetto_states(exe, name, tmp, fails):
    """convert -o X.states.pftrace: the slices of X.states.json (checked
    against ovniemu above) on tracks of the same names, counters apart."""
    out = os.path.join(tmp, "x.states.pftrace")
    subprocess.run([exe, "convert", tmp, "-o", out, "-q"], check=True)
    try:
        counts, _ = pftrace_walk.walk(out)
    except pftrace_walk.Problem as e:
        fails.append(f"{name}: Perfetto states: {e}")
        return
    if counts["open_at_end"] or counts["counters_without_unit"]:
        fails.append(f"{name}: Perfetto states: slices left open or counters without a unit")
    ours, counters = perfetto_slices(out)
    want = {k: v for k, v in chrome_slices(os.path.join(tmp, "x.states.json")).items()
            if k not in counters}
    if ours != want:
        diff = sorted(set(ours) ^ set(want))[:4] or [k for k in ours if ours[k] != want.get(k)][:4]
        fails.append(f"{name}: Perfetto state slices differ from Chrome's: {diff}")


def check_stats(exe, name, tmp, fails):
    r = subprocess.run([exe, "stats", tmp, "--json", "-q"], capture_output=True, text=True)
    ours = {}
    for s in json.loads(r.stdout).get("states", []):
        row = s["row"] if s["view"] == "cpu" else s["row"].split("/")[-1]
        ours[(s["view"], row, s["type"], s["value"])] = round(s["time_s"] * 1e9)
    want = golden_times(os.path.join(HERE, "golden", name))
    if ours != want:
        diff = sorted(set(ours.items()) ^ set(want.items()))[:6]
        fails.append(f"{name}: stats states differ from ovniemu's rows: {diff}")


def main():
    exe = sys.argv[1]
    fails = []
    for name in sorted(ovnigen.SCENARIOS):
        with tempfile.TemporaryDirectory() as tmp:
            if name == "forbidden":
                check_forbidden(exe, tmp, fails)
                continue
            if name == "ended-tasks":
                check_forbidden(exe, tmp, fails, name, ENDED_FINDINGS)
                continue
            if name == "parallel-bodies":
                check_forbidden(exe, tmp, fails, name, PARALLEL_FINDINGS)
                continue
            if len(sys.argv) > 3 and sys.argv[2] == "--regen":
                regen(sys.argv[3], name, tmp)
                continue
            ovnigen.write(tmp, name)
            out = os.path.join(tmp, "pv")
            r = subprocess.run([exe, "convert", tmp, "--to", "paraver", "-o", out, "-q"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fails.append(f"{name}: convert exit {r.returncode}: {r.stderr[-300:]}")
                continue
            paraver_oracle.compare(name, out, os.path.join(HERE, "golden", name), fails)
            check_stats(exe, name, tmp, fails)
            check_dump_states(exe, name, tmp, fails)
            check_chrome_states(exe, name, tmp, fails)
            check_perfetto_states(exe, name, tmp, fails)
    with tempfile.TemporaryDirectory() as tmp:
        check_damage_listed(exe, tmp, fails)
    with tempfile.TemporaryDirectory() as tmp:
        check_long_labels(exe, tmp, fails)
    for f in fails:
        print("FAIL:", f)
    print(f"{len(ovnigen.SCENARIOS)} scenarios, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
