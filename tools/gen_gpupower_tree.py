#!/usr/bin/env python3
"""gen_gpupower_tree.py - writes realistic gpyjoules GPU power benchmark trees
(gpu-power-data-model.rst with the deviations of gpupower-facts.md) together
with the energies they hold, known in closed form.

Power is piecewise linear in time with knots at every phase boundary
(experiment, train, epochs).  Every power file has a sample exactly at every
knot and samples at irregular times in between, so the trapezoid rule over
the samples equals the closed-form integral of the knot polygon; samples a
reader must skip (malformed rows, gaps) never sit on a knot, so the expected
figures hold for damaged files too.

usage: gen_gpupower_tree.py OUT [--malformed] [--bench REPS] [--seconds S] [--seed N]
  OUT/tree/...           the data root
  OUT/expected.json      closed-form figures per repetition and per baseline
The naive local timestamps are written in UTC+01:00 (--tz-offset): read them
with --tz +01:00.
"""
import argparse
import json
import os
import random
import shutil

TZ_OFFSET_S = 3600  # the local zone of the naive timestamps (+01:00)
EPOCH_2020 = 1584316800  # 2020-03-16 00:00:00 UTC, the facts' example date
GPU_COLUMNS = ["timestamp", "clock-mem", "clock-gpu", "app-clock-mem", "app-clock-gpu",
               "enforced-power-limit", "total-energy", "power-state", "power", "tmp",
               "pci-tx", "pci-rx", "util-gpu", "util-mem"]  # as written (facts §3.2)
SEED_ORDER = ["timestamp", "util-gpu", "util-mem", "clock-mem", "clock-gpu", "app-clock-mem",
              "app-clock-gpu", "enforced-power-limit", "total-energy", "power-state", "power",
              "tmp", "pci-tx", "pci-rx"]  # as the seed document lists them


def civil(us):
    """Local naive wall-clock text of unix microseconds, as str(datetime)."""
    s, frac = divmod(us + TZ_OFFSET_S * 1000000, 1000000)
    days, rem = divmod(s, 86400)
    y, m, d = civil_from_days(days)
    hh, rem = divmod(rem, 3600)
    mm, ss = divmod(rem, 60)
    text = "%04d-%02d-%02d %02d:%02d:%02d" % (y, m, d, hh, mm, ss)
    return text + (".%06d" % frac if frac else "")


def civil_from_days(z):
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


def iso_utc(us, ms_only=False):
    """ISO 8601 with 'T' and a 'Z' zone (the other writer style)."""
    s, frac = divmod(us, 1000000)
    days, rem = divmod(s, 86400)
    y, m, d = civil_from_days(days)
    hh, rem = divmod(rem, 3600)
    mm, ss = divmod(rem, 60)
    f = ".%03d" % (frac // 1000) if ms_only else ".%06d" % frac
    return "%04d-%02d-%02dT%02d:%02d:%02d%sZ" % (y, m, d, hh, mm, ss, f)


class Polygon:
    """Power (W) as a polygon over knots [(t_us, watts)], constant outside."""

    def __init__(self, knots):
        self.knots = knots

    def at(self, t):
        k = self.knots
        if t <= k[0][0]:
            return float(k[0][1])
        for (t0, p0), (t1, p1) in zip(k, k[1:]):
            if t <= t1:
                return p0 + (p1 - p0) * (t - t0) / (t1 - t0)
        return float(k[-1][1])

    def energy(self, a, b):
        """Closed form: the polygon's area over [a, b] (a, b are knots), J."""
        e = 0.0
        for (t0, p0), (t1, p1) in zip(self.knots, self.knots[1:]):
            if t0 >= a and t1 <= b:
                e += (p0 + p1) / 2.0 * (t1 - t0) / 1e6
        return e

    def cumulative(self, t):
        """Energy (J) from the first knot to t (for the NVML counter)."""
        e = 0.0
        for (t0, p0), (t1, p1) in zip(self.knots, self.knots[1:]):
            if t >= t1:
                e += (p0 + p1) / 2.0 * (t1 - t0) / 1e6
            elif t > t0:
                pt = p0 + (p1 - p0) * (t - t0) / (t1 - t0)
                e += (p0 + pt) / 2.0 * (t - t0) / 1e6
        return e

    def peak(self, a, b):
        return max(float(p) for t, p in self.knots if a <= t <= b)


def sample_times(rng, start, end, period_us, knots, gap=None, quantum=1):
    """Irregular times (period +-25 %) plus every knot; `gap` drops an
    interval; times are multiples of `quantum` us (1000 for ms timestamps)."""
    times = set(t for t, _ in knots if start <= t <= end)
    t = start
    while t <= end:
        if not (gap and gap[0] < t < gap[1]):
            times.add(t - t % quantum)
        t += int(period_us * rng.uniform(0.75, 1.25))
    return sorted(times)


def num(variant, x):
    """A value as the file holds it: exact decimal (closed-form tests) or,
    for bench trees, the integer NVML and the meter really report."""
    return str(int(round(x))) if variant.get("ints") else repr(x)


def write_lines(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write(header + "\n")
        f.writelines(r + "\n" for r in rows)


class Repetition:
    """One repetition directory: its phases, power polygon and file variants."""

    def __init__(self, rng, begin_us, epochs, seconds, idle, busy, variant):
        self.variant = variant
        epoch_len = int(seconds * 1e3 / (epochs + 1)) * 1000  # knots on the ms grid
        self.events = [("experiment_begin", begin_us, "")]
        t = begin_us + 1000000
        self.events.append(("train_begin", t, ""))
        knots = [(begin_us - 2000000, idle), (begin_us, idle), (t, idle + 5)]
        for e in range(epochs):
            self.events.append(("epoch_begin", t, str(e)))
            if variant.get("batches"):
                self.events.append(("batch_begin", t + 1000, "0"))
                self.events.append(("batch_end", t + epoch_len // 2, "0"))
            knots.append((t + epoch_len // 3000 * 1000, busy + rng.randint(-20, 20)))
            t += epoch_len
            knots.append((t, busy + rng.randint(-30, 10)))
            self.events.append(("epoch_end", t, str(e)))
        t += 500000
        self.events.append(("train_end", t, ""))
        knots.append((t, idle + 10))
        t += 1000000
        self.events.append(("experiment_end", t, ""))
        knots.append((t, idle))
        knots.append((t + 2000000, idle))
        self.poly = Polygon(sorted(set(knots)))
        self.begin, self.end = begin_us, t
        self.train = (begin_us + 1000000, t - 1000000)
        self.epochs = epochs
        self.epoch_len = epoch_len

    def quantum(self):
        return 1000 if self.variant.get("iso_ms") else 1

    def stamp(self, us):
        return iso_utc(us, self.variant.get("iso_ms")) if self.variant.get("iso") else civil(us)

    def windows(self):
        """(name, index, a, b) for train and each epoch."""
        ev = {(n, d): t for n, t, d in self.events}
        out = [("train", 0, ev[("train_begin", "")], ev[("train_end", "")])]
        for e in range(self.epochs):
            out.append(("epoch", e, ev[("epoch_begin", str(e))], ev[("epoch_end", str(e))]))
        return out


def write_timestamps(rep, d):
    rows = ["%s,%s,%s" % (rep.stamp(t), n, data) for n, t, data in rep.events]
    write_lines(os.path.join(d, "timestamps.csv"), "timestamp,event,data", rows)


def write_gpu_power(rng, rep, d, setting):
    v = rep.variant
    cols = SEED_ORDER if v.get("seed_order") else GPU_COLUMNS
    cols = [c for c in cols if c not in v.get("drop", ())]
    times = sample_times(rng, rep.begin - 1500000, rep.end + 1500000, 150000, rep.poly.knots,
                         v.get("gap"), rep.quantum())
    e0 = 1.0e9 + rng.randint(0, 10**6)  # mJ since the driver loaded
    rows = []
    for i, t in enumerate(times):
        p = rep.poly.at(t)
        cells = {"timestamp": rep.stamp(t), "clock-mem": "877", "clock-gpu": str(1000 + i % 300),
                 "app-clock-mem": str(setting.get("mem", 877)),
                 "app-clock-gpu": str(setting.get("sm", 1312)),
                 "enforced-power-limit": str(setting.get("w", 300) * 1000),
                 "total-energy": num(v, e0 + rep.poly.cumulative(t) * 1000.0),
                 "power-state": "0", "power": num(v, p * 1000.0), "tmp": str(40 + i % 30),
                 "pci-tx": str(1000 * (i % 7)), "pci-rx": str(2000 * (i % 5)),
                 "util-gpu": str(i % 101), "util-mem": str(i % 57)}
        line = ",".join(cells[c] for c in cols)
        rows.append(("%d," % i + line) if v.get("index", True) else line)
    header = ",".join(cols)
    write_lines(os.path.join(d, "gpu-power.csv"), ("," + header) if v.get("index", True) else header, rows)


EXT_SYSTEM_W = 350.0  # the rest of the node, seen by the external meter
EXT_GAIN = 1.1        # PSU losses


def external_power(rep, t):
    return EXT_GAIN * rep.poly.at(t) + EXT_SYSTEM_W


def write_external(rng, rep, d):
    v = rep.variant
    nch = v.get("channels", 4)
    names = ["d%dc%d" % (i // 2, i % 2) for i in range(nch)]
    share = [1.0 / nch] * nch
    times = sample_times(rng, rep.begin - 1000000, rep.end + 1000000, 20000, rep.poly.knots,
                         quantum=rep.quantum())
    rows = []
    for i, t in enumerate(times):
        total_cw = external_power(rep, t) * 100.0  # centiwatts (facts §3.6)
        vals = ",".join(num(v, total_cw * s) for s in share)
        line = "%s,%s" % (rep.stamp(t), vals)
        rows.append(("%d," % i + line) if v.get("ext_index") else line)
    header = "timestamp," + ",".join(names)
    write_lines(os.path.join(d, "power-external.csv"), ("," + header) if v.get("ext_index") else header,
                rows)


def write_samples(rng, rep, d):
    for kind, fn in (("total_power", lambda t: num(rep.variant, rep.poly.at(t) * 1000.0)),
                     ("gpu_utilization", lambda t: str(int(t // 1000) % 101)),
                     ("memory_utilization", lambda t: str(int(t // 7000) % 60))):
        times = sample_times(rng, rep.begin - 1500000, rep.end + 1500000, 20000, rep.poly.knots)
        rows = ["%d,%d,%s" % (i, t, fn(t)) for i, t in enumerate(times)]  # unix µs (facts §3.5)
        write_lines(os.path.join(d, "%s_samples.csv" % kind), ",timestamp,value", rows)


def write_system_info(d, setting):
    info = {"device_name": "Tesla V100-SXM2-32GB", "cuda_capability": [7, 0],
            "driver_version": "440.33.01", "cuda_version": "10.2", "nvml_version": "10.440.33.01",
            "platform": "Linux-4.15.0-x86_64", "os_release": "4.15.0", "os_version": "#1 SMP",
            "machine": "x86_64", "distro": {"id": "Ubuntu", "release": "18.04"},
            "python_version": "3.6.9", "pip_packages": [["pynvml", "8.0.4"], ["numpy", "1.18.1"]],
            "effective_power_limit": setting.get("w", 300) * 1000}
    with open(os.path.join(d, "system_info.json"), "w") as f:
        json.dump(info, f, indent=2)


def expected_of(rep, names, setting_json, files):
    """The closed-form figures of one repetition (SI units)."""
    a, b = rep.begin, rep.end
    dur = (b - a) / 1e6
    gpu = rep.poly.energy(a, b)
    energy = {"gpu": gpu}
    if "total-energy" not in rep.variant.get("drop", ()):
        energy["nvml_counter"] = gpu
    if files.get("external"):
        energy["external"] = EXT_GAIN * gpu + EXT_SYSTEM_W * dur
    if files.get("samples"):
        energy["samples"] = gpu
    phases = []
    for name, idx, pa, pb in rep.windows():
        pe = rep.poly.energy(pa, pb)
        pen = {k: pe for k in energy if k != "external"}
        if "external" in energy:
            pen["external"] = EXT_GAIN * pe + EXT_SYSTEM_W * (pb - pa) / 1e6
        phases.append({"name": name, "index": idx, "start_s": (pa - a) / 1e6,
                       "duration_s": (pb - pa) / 1e6, "energy_j": pen})
    return dict(names, settings=setting_json, duration_s=dur, energy_j=energy,
                mean_power_w=gpu / dur, peak_power_w=rep.poly.peak(a, b), edp_js=gpu * dur,
                ed2p_js2=gpu * dur * dur, phases=phases)


RUNS = {
    "power-limit": ("bert", ["150W", "250W"], 3),
    "clock-limit": ("resnet", ["877MHz,1065MHz", "877MHz,1222MHz", "default"], 2),
}


def parse_setting(run):
    if run.endswith("W") and run[:-1].isdigit():
        return {"w": int(run[:-1])}, {"power_limit_w": int(run[:-1])}
    if "," in run:
        mem, sm = run.split(",")
        return ({"mem": int(mem[:-3]), "sm": int(sm[:-3])},
                {"mem_clock_mhz": int(mem[:-3]), "sm_clock_mhz": int(sm[:-3])})
    return {}, {}


def variant_of(k):
    """The k-th repetition's file variant: cycles through every deviation."""
    variants = [
        {},                                                        # facts' layout
        {"index": False, "seed_order": True, "ext_index": True},   # seed layout
        {"drop": ("pci-tx", "pci-rx", "util-mem"), "samples": True, "batches": True},
        {"iso": True, "channels": 2, "drop": ("total-energy",)},   # T + zone, 2 channels
        {"no_external": True, "gap": True, "samples": True},
        {"iso": True, "iso_ms": True, "drop": ("app-clock-mem", "app-clock-gpu", "tmp")},
        {"channels": 6, "samples": True, "no_sysinfo": True},
    ]
    return dict(variants[k % len(variants)])


KNOT_STAMPS = {}  # repetition directory -> its knots' timestamp texts (for damage())


def write_repetition(rng, d, rep, setting, v):
    os.makedirs(d, exist_ok=True)
    KNOT_STAMPS[d] = [rep.stamp(t) for t, _ in rep.poly.knots]
    write_timestamps(rep, d)
    write_gpu_power(rng, rep, d, setting)
    files = {}
    if not v.get("no_external"):
        write_external(rng, rep, d)
        files["external"] = True
    if v.get("samples"):
        write_samples(rng, rep, d)
        files["samples"] = True
    if not v.get("no_sysinfo"):
        write_system_info(d, setting)
    return files


def make_rep(rng, begin, epochs, seconds, idle, busy, v):
    if v.get("gap"):
        v["gap"] = None  # placed below, inside the first epoch's first piece
    rep = Repetition(rng, begin, epochs, seconds, idle, busy, v)
    if "gap" in v:
        a = rep.train[0] + 100000
        v["gap"] = (a, a + min(rep.epoch_len // 3 - 200000, 2000000))
    return rep


def generate(out, seed, seconds, reps_scale, malformed):
    rng = random.Random(seed)
    root = os.path.join(out, "tree")
    shutil.rmtree(out, ignore_errors=True)
    sign = "-" if TZ_OFFSET_S < 0 else "+"
    tz = "%s%02d:%02d" % (sign, abs(TZ_OFFSET_S) // 3600, abs(TZ_OFFSET_S) % 3600 // 60)
    expected = {"tz": tz, "repetitions": [], "baselines": []}
    begin = EPOCH_2020 * 1000000 + 12 * 3600 * 1000000 + 34 * 60 * 1000000
    k = 0
    for exp, (bench, runs, nrep) in RUNS.items():
        for run in runs:
            setting, sjson = parse_setting(run)
            for r in range(nrep * reps_scale):
                v = variant_of(k)
                if v.get("iso_ms"):
                    begin -= begin % 1000  # millisecond timestamps: knots on the ms grid
                busy = 150 + setting.get("w", 200) // 3 + setting.get("sm", 1100) // 20 + 7 * r
                rep = make_rep(rng, begin, 3, seconds, 55 + r, busy, v)
                d = os.path.join(root, exp, bench, run, str(r))
                files = write_repetition(rng, d, rep, setting, v)
                names = {"experiment": exp, "benchmark": bench, "run": run, "repetition": str(r)}
                expected["repetitions"].append(expected_of(rep, names, sjson, files))
                begin = rep.end + 30 * 1000000 + 123457
                k += 1
        for r in range(2):  # the idle run (facts §2), same files, flat power
            idle = 50.0 + 2 * r
            rep = Repetition(rng, begin, 0, 5, idle, idle, {})
            rep.poly = Polygon([(rep.begin - 2000000, idle), (rep.end + 2000000, idle)])
            rep.poly.knots[1:1] = [(rep.begin, idle), (rep.end, idle)]
            d = os.path.join(root, exp, "_baseline", str(r))
            files = write_repetition(rng, d, rep, {}, {})
            names = {"experiment": exp, "repetition": str(r)}
            expected["baselines"].append(expected_of(rep, names, {}, files))
            begin = rep.end + 10 * 1000000
    os.makedirs(os.path.join(root, "power-limit", "_scratch"), exist_ok=True)  # skipped: starts with _
    if malformed:
        damage(root, expected)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


def rewrite(path, fn):
    with open(path) as f:
        lines = f.read().split("\n")
    lines = fn(lines)
    with open(path, "w") as f:
        f.write("\n".join(lines))


def knot_free_line(lines, rep_stamps, start):
    """Index of a data line (from `start`) whose time is not a knot."""
    for i in range(start, len(lines) - 1):
        if not any(s in lines[i] for s in rep_stamps):
            return i
    raise SystemExit("no knot-free line")


def without_gpu(e, sources):
    """A repetition whose gpu-power.csv cannot give power: no gpu figures."""
    for key in ("mean_power_w", "peak_power_w", "edp_js", "ed2p_js2"):
        del e[key]
    for obj in [e] + e["phases"]:
        for s in sources:
            obj["energy_j"].pop(s, None)
    e["no_gpu"] = True


def damage(root, expected):
    """The malformed inputs of the issue; expected["damage"] lists what a
    reader must say (file, line, words) and which repetitions vanish."""
    dmg = []
    reps = {(e["experiment"], e["run"], e["repetition"]): e for e in expected["repetitions"]}

    def rep_dir(exp, run, r):
        return os.path.join(root, exp, RUNS[exp][0], run, r)

    d = rep_dir("power-limit", "150W", "0")
    stamps = KNOT_STAMPS[d]
    p = os.path.join(d, "gpu-power.csv")

    def bad_time(lines):
        i = knot_free_line(lines, stamps, 5)
        lines[i] = lines[i].replace("2020-03-16 ", "2020-03-16X", 1)
        dmg.append({"file": p, "line": i + 1, "words": "timestamp"})
        j = knot_free_line(lines, stamps, i + 3)
        cells = lines[j].split(",")
        cells[9] = "12.5kW"  # the power column in the facts' order (after the index)
        lines[j] = ",".join(cells)
        dmg.append({"file": p, "line": j + 1, "words": "number"})
        k2 = knot_free_line(lines, stamps, j + 3)
        lines[k2] = ",".join(lines[k2].split(",")[:5])
        dmg.append({"file": p, "line": k2 + 1, "words": "columns"})
        f = knot_free_line(lines, stamps, k2 + 4)  # a valid time, nine years ahead
        lines[f] = lines[f].replace("2020-03-16 ", "2029-03-16 ", 1)
        dmg.append({"file": p, "line": f + 1, "words": "out of place"})
        return lines
    rewrite(p, bad_time)
    ep = os.path.join(d, "power-external.csv")

    def bad_ext(lines):
        i = knot_free_line(lines, stamps, 10)
        cells = lines[i].split(",")
        cells[2] = "NaNa"
        lines[i] = ",".join(cells)
        dmg.append({"file": ep, "line": i + 1, "words": "number"})
        return lines
    rewrite(ep, bad_ext)
    # A repetition without timestamps.csv: reported as an error, left out.
    d = rep_dir("power-limit", "250W", "1")
    os.remove(os.path.join(d, "timestamps.csv"))
    dmg.append({"file": os.path.join(d, "timestamps.csv"), "line": 0, "words": "timestamps.csv"})
    del reps[("power-limit", "250W", "1")]
    # An empty gpu-power.csv: no gpu figures, the other sources remain.
    d = rep_dir("clock-limit", "877MHz,1065MHz", "1")
    open(os.path.join(d, "gpu-power.csv"), "w").close()
    dmg.append({"file": os.path.join(d, "gpu-power.csv"), "line": 0, "words": "empty"})
    without_gpu(reps[("clock-limit", "877MHz,1065MHz", "1")], ("gpu", "nvml_counter"))
    # gpu-power.csv without the power column: the NVML counter remains.
    d = rep_dir("clock-limit", "default", "0")
    p2 = os.path.join(d, "gpu-power.csv")

    def drop_power(lines):
        col = lines[0].split(",").index("power")
        return [",".join(c for i, c in enumerate(line.split(",")) if i != col) if line else line
                for line in lines]
    rewrite(p2, drop_power)
    dmg.append({"file": p2, "line": 1, "words": "power"})
    without_gpu(reps[("clock-limit", "default", "0")], ("gpu",))
    expected["repetitions"] = [e for e in expected["repetitions"]
                               if (e["experiment"], e["run"], e["repetition"]) in reps]
    expected["damage"] = dmg


def bench(out, reps, seconds, seed):
    """A large tree for bench/: `distinct` different repetitions, the rest
    hard links to them (same bytes to parse, little disk)."""
    rng = random.Random(seed)
    root = os.path.join(out, "tree")
    shutil.rmtree(out, ignore_errors=True)
    distinct = min(reps, 20)
    srcs = []
    begin = EPOCH_2020 * 1000000
    for i in range(distinct):
        v = {"samples": True, "ints": True}
        rep = Repetition(rng, begin, 5, seconds, 60, 250 + i, v)
        d = os.path.join(root, "exp", "bench", "%dW" % (100 + 10 * (i % 10)), str(i))
        write_repetition(rng, d, rep, {"w": 100 + 10 * (i % 10)}, v)
        srcs.append(d)
    for i in range(distinct, reps):
        d = os.path.join(root, "exp", "bench", "%dW" % (100 + 10 * (i % 10)), str(i))
        os.makedirs(d)
        src = srcs[i % distinct]
        for name in os.listdir(src):
            os.link(os.path.join(src, name), os.path.join(d, name))


def main():
    global TZ_OFFSET_S
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=12.0, help="training seconds per repetition")
    ap.add_argument("--scale", type=int, default=1, help="repetitions per run multiplier")
    ap.add_argument("--malformed", action="store_true", help="damage some files (see damage())")
    ap.add_argument("--tz-offset", type=int, default=3600,
                    help="seconds east of UTC of the naive local timestamps (default 3600)")
    ap.add_argument("--bench", type=int, default=0, metavar="REPS", help="a large tree of REPS repetitions")
    a = ap.parse_args()
    TZ_OFFSET_S = a.tz_offset
    if a.bench:
        bench(a.out, a.bench, a.seconds, a.seed)
    else:
        generate(a.out, a.seed, a.seconds, a.scale, a.malformed)


if __name__ == "__main__":
    main()
