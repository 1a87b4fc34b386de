#!/usr/bin/env python3
"""perfweave diff, checked against the stats it compares: for every fixture
`diff A A --json` has no table; for neighbouring fixtures of one format,
`diff A B --json` equals the differences of `stats --json` of A and of B,
computed here by the rules include/perfweave.h gives for pw_diff_reports:
tables are the root's arrays of objects, its objects (one row) and its
numbers ("summary"); rows are flattened ("outer.inner"); text columns and
numbering columns are keys, an indented text column is a tree keyed by the
path from its root (node ids then left out); rows are matched by key (the
n-th repeat with the n-th); unchanged rows are left out; the others sorted
by largest relative change, then largest absolute change.

usage: check_diff.py PERFWEAVE SHARED_DATA GEN_GPUPOWER WORK"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "filters"))
from check_filters import fixtures  # noqa: E402  (the same fixture list)

ID_NAMES = {"rank", "source", "dest", "min_bytes", "max_bytes", "id", "index", "pe", "kp", "lp",
            "gpu", "comm_size", "peid", "kpid", "lpid", "thread", "tid", "pid", "vt_from", "vt_to"}
FAILED = []


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def flatten(row, prefix=""):
    out = {}
    for k, v in row.items():
        name = prefix + "." + k if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, name))
        elif not isinstance(v, list):
            out[name] = v
    return out


def table(rows):
    rows = [flatten(r) for r in rows]
    kind = {}
    for r in rows:
        for k, v in r.items():
            if isinstance(v, str) and v.startswith(" "):
                kind[k] = 2
            elif (isinstance(v, str) or k in ID_NAMES) and k not in kind:
                kind[k] = 1
    if 2 in kind.values():
        kind = {k: (3 if c == 1 and k in ID_NAMES else c) for k, c in kind.items()}
    out, seen, stack = [], {}, []
    for r in rows:
        keys, values = {}, {}
        for k, v in r.items():
            c = kind.get(k, 0)
            if c == 2:
                depth = len(v) - len(v.lstrip(" "))
                while stack and stack[-1][0] >= depth:
                    stack.pop()
                stack.append((depth, v[depth:]))
                keys[k] = " > ".join(n for _, n in stack)
            elif c == 1:
                keys[k] = v
            elif c == 0 and is_num(v):
                values[k] = v
        m = json.dumps(keys, sort_keys=True)
        seen[m] = seen.get(m, 0) + 1
        out.append(((m, seen[m]), keys, values))
    return out


def tables(stats):
    ts, summary = {}, {}
    for k, v in stats.items():
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
            ts[k] = table(v)
        elif isinstance(v, dict):
            ts[k] = table([v])
        elif is_num(v):
            summary[k] = v
    if summary:
        ts["summary"] = table([summary])
    return ts


def deltas(va, vb):
    d, rel, big, changed = {}, 0.0, 0.0, va is None or vb is None
    for side in (va or {}, vb or {}):
        for k in side:
            if k in d:
                continue
            x, y = (va or {}).get(k), (vb or {}).get(k)
            if (x is None or isinstance(x, int)) and (y is None or isinstance(y, int)):
                d[k] = (y or 0) - (x or 0)
            else:
                d[k] = float(y or 0) - float(x or 0)
            dx = float(y or 0) - float(x or 0)
            m = max(abs(float(x or 0)), abs(float(y or 0)))
            if dx != 0:
                changed = True
                rel = max(rel, abs(dx) / m if m > 0 else 0)
                big = max(big, abs(dx))
    if va is None or vb is None:
        rel = 1.0
    return d, rel, big, changed


def expected(sa, sb):
    ta, tb = tables(sa), tables(sb)
    out = {}
    for name in list(ta) + [n for n in tb if n not in ta]:
        ra, rb = ta.get(name, []), tb.get(name, [])
        index_b = {m: i for i, (m, _, _) in enumerate(rb)}
        index_a = {m: i for i, (m, _, _) in enumerate(ra)}
        rows = []
        for m, keys, va in ra:
            j = index_b.get(m)
            vb = rb[j][2] if j is not None else None
            rows.append((keys, va, vb))
        rows += [(keys, None, vb) for m, keys, vb in rb if m not in index_a]
        changed = []
        for order, (keys, va, vb) in enumerate(rows):
            d, rel, big, ch = deltas(va, vb)
            if ch:
                changed.append((-rel, -big, order, {"key": keys, "a": va, "b": vb, "delta": d}))
        changed.sort(key=lambda c: c[:3])
        if changed:
            out[name] = [c[3] for c in changed]
    return out


def run_json(pw, args):
    p = subprocess.run([pw] + args + ["--json", "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        FAILED.append("%s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr.decode()[-400:]))
        return None
    return json.loads(p.stdout)


def main():
    pw, data, gen, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    by_format = {}
    for fmt, path in fixtures(data, gen, work):
        by_format.setdefault(fmt, []).append(path)
        got = run_json(pw, ["diff", path, path])
        if got is not None and got.get("tables") != {}:
            FAILED.append("diff A A of %s found differences: %s" % (path, list(got["tables"])))
    # a second gpupower tree, of other energies
    gp2 = os.path.join(work, "gpupower2")
    shutil.rmtree(gp2, ignore_errors=True)
    subprocess.run([sys.executable, gen, gp2, "--seed", "4"], check=True, stdout=subprocess.DEVNULL)
    by_format["gpupower"].append(os.path.join(gp2, "tree"))
    pairs = 0
    for fmt, paths in sorted(by_format.items()):
        for a, b in zip(paths, paths[1:]):
            got = run_json(pw, ["diff", a, b])
            sa, sb = run_json(pw, ["stats", a]), run_json(pw, ["stats", b])
            if got is None or sa is None or sb is None:
                continue
            want = expected(sa, sb)
            pairs += 1
            if got.get("tables") != want or got.get("a") != a or got.get("b") != b:
                diff_tables = [n for n in set(want) | set(got.get("tables", {}))
                               if want.get(n) != got.get("tables", {}).get(n)]
                FAILED.append("diff %s %s: tables differ from the stats: %s" % (a, b, diff_tables))
    print("%d pairs compared" % pairs)
    for f in FAILED:
        print("FAIL " + f)
    sys.exit(1 if FAILED else 0)


main()
