"""Parser of the `dumpi2ascii -a` text (dumpi-facts.md section 12), shared
by the oracle and stats tests."""
import os
import re

TIME_LINE = re.compile(r"^(\S+) (entering|returning) at walltime (\d+\.\d+), cputime (\d+\.\d+) "
                       r"seconds in thread (\d+)\.$")
ARG_LINE = re.compile(r"^(.+?) (\w+)(\[\d*\])?=(.*)$")
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def parse_value(text):
    """An oracle value: int (with its label), list of ints/strings,
    statuses, or None for <IGNORED>."""
    if text == "<IGNORED>":
        return ("ignored", None, None)
    if text.startswith("[{"):
        items = []
        for body in re.findall(r"\{([^}]*)\}", text):
            items.append({k: int(v) for k, v in (kv.split("=") for kv in body.split(", "))})
        return ("statuses", items, None)
    if text.startswith('["'):
        return ("strings", STRING.findall(text), None)
    if text.startswith("["):
        inner = text[1:-1].strip()
        return ("ints", [int(x) for x in inner.split(", ")] if inner else [], None)
    if text.startswith('"'):
        return ("string", STRING.findall(text)[0], None)
    m = re.match(r"^(-?\d+)(?: \((.*)\))?$", text)
    if m:
        return ("int", int(m.group(1)), m.group(2))
    return ("raw", text, None)


def parse_oracle(path):
    """Header, calls and trailer sections of one dumpi2ascii text."""
    header, calls, trailer = {}, [], {"footer": {}, "perf_labels": [], "sizes": {}}
    cur = None
    in_perf_labels = False
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n") for l in f]
    for line in lines:
        m = TIME_LINE.match(line)
        if m:
            name, phase, wall, cpu, thread = m.groups()
            if phase == "entering":
                cur = {"type": name, "wall": [wall], "cpu": [cpu], "thread": int(thread),
                       "perf": [], "args": [], "phase": "entering"}
                calls.append(cur)
            else:
                cur["wall"].append(wall)
                cur["cpu"].append(cpu)
                cur["exit_thread"] = int(thread)
                cur["phase"] = "returning"
            continue
        if line.startswith("Perfcounters: [") and cur is not None:
            cur["perf"].append([(kv.rsplit("=", 1)[0], int(kv.rsplit("=", 1)[1]))
                                for kv in line[len("Perfcounters: ["):-1].split(", ") if kv])
            continue
        m = re.match(r"^(\S+) called (\d+) times and ignored (\d+) times$", line)
        if m:
            trailer["footer"][m.group(1)] = (int(m.group(2)), int(m.group(3)))
            cur = None
            continue
        m = re.match(r"^Total keyvals: (\d+)$", line)
        if m:
            trailer["keyvals"] = int(m.group(1))
            cur = None
            continue
        m = re.match(r"^Performance counters: (\d+)$", line)
        if m:
            trailer["perf_count"] = int(m.group(1))
            in_perf_labels = True
            continue
        if in_perf_labels and line.startswith("    "):
            trailer["perf_labels"].append(line.strip())
            continue
        m = re.match(r"^Datatype (\d+) \((.*)\) has size (\d+)$", line)
        if m:
            trailer["sizes"][int(m.group(1))] = int(m.group(3))
            in_perf_labels = False
            continue
        if cur is None and not calls:
            key, _, value = line.partition("=")
            header[key] = value
            continue
        if cur is not None and cur["phase"] == "entering":
            m = ARG_LINE.match(line)
            if not m:
                raise ValueError(f"{path}: unparsed line: {line}")
            cur["args"].append((m.group(1), m.group(2), parse_value(m.group(4))))
    return header, calls, trailer



def oracle_files(fixture_dir):
    """(rank, oracle text, rank .bin) for every oracle beside the trace."""
    out = []
    for name in sorted(os.listdir(fixture_dir)):
        m = re.match(r"^(.*-(\d{4})\.bin)\.ascii\.txt$", name) or re.match(r"^((.*-(\d{4}))\.txt)$", name)
        if not m:
            continue
        if name.endswith(".ascii.txt"):
            binfile = m.group(1)
            rank = int(m.group(2))
        else:  # upstream's rendering "<prefix>-NNNN.txt" beside "<prefix>-NNNN.bin"
            binfile = m.group(2) + ".bin"
            rank = int(m.group(3))
        out.append((rank, os.path.join(fixture_dir, name), os.path.join(fixture_dir, binfile)))
    return out
