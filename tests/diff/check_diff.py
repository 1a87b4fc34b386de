#!/usr/bin/env python3
"""perfweave diff, checked against the stats it compares: for every fixture
`diff A A --json` has no table, and neither has `diff A COPY` with a copy of
A at another path; for neighbouring fixtures of one format, `diff A B
--json` equals the differences of `stats --json` of A and of B, computed
here by the rules include/perfweave.h gives for pw_diff_reports:
tables are the root's arrays of objects, its objects (one row) and its
numbers ("summary"); rows are flattened ("outer.inner"; the objects of an
array inside a row as "array.<its first text>.inner"); text columns and
numbering columns are keys, identifiers of one run and absolute clocks are
left out, an indented text column (levels of two spaces) is a tree keyed by
the path from its root; text keys hold across runs (process and thread ids
by their order, paths relative to the dataset's root); rows are matched by
key (the n-th repeat with the n-th); unchanged rows are left out; the
others sorted by largest relative change, then largest absolute change.
Among the deltas no identifier or clock appears, and the CSV carries
every number of the JSON deltas, the text every changed column.

usage: check_diff.py PERFWEAVE SHARED_DATA GEN_GPUPOWER WORK"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "filters"))
from check_filters import fixtures  # noqa: E402  (the same fixture list)

KEY_NAMES = {"rank", "source", "dest", "min_bytes", "max_bytes", "pe", "kp", "lp", "gpu", "comm_size",
             "peid", "kpid", "lpid", "thread", "vt_from", "vt_to", "from", "below", "type"}
LEFT_OUT = {"pid", "tid", "min_rank", "max_rank", "first_clock", "last_clock", "t0_s", "first (ns)",
            "last (ns)", "time_first_ns", "time_last_ns"}
FAILED = []


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def flatten(row, prefix=""):
    out = {}
    for k, v in row.items():
        name = prefix + "." + k if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, name))
        elif isinstance(v, list):
            for i, el in enumerate(v):
                if not isinstance(el, dict):
                    continue
                texts = [(ek, ev) for ek, ev in el.items() if isinstance(ev, str)]
                inner = dict(el)
                if texts:
                    del inner[texts[0][0]]
                out.update(flatten(inner, "%s.%s" % (name, texts[0][1] if texts else i)))
        else:
            out[name] = v
    return out


def role_of_name(col, has_text):
    last = col.rsplit(".", 1)[-1]
    if col.startswith("settings."):
        return 1
    if last in LEFT_OUT:
        return 3
    if last in ("id", "index"):
        return 3 if has_text else 1
    return 1 if last in KEY_NAMES else 0


def is_tree(rows, col):
    depths = [len(r[col]) - len(r[col].lstrip(" ")) for r in rows if isinstance(r.get(col), str)]
    return any(depths) and all(d % 2 == 0 for d in depths)


class Names:
    """Text keys as they hold across runs."""

    ID_SEG = re.compile(r"^(proc|thread)\.(\d+)$")

    def __init__(self, stats, path):
        self.ids = {}
        self.roots = [p.rstrip("/") or "/" for p in (path, os.path.realpath(path))]
        self.collect(stats)
        for k in self.ids:
            self.ids[k] = sorted(self.ids[k])

    def collect(self, node):
        if isinstance(node, str):
            at = 0
            for seg in node.split("/"):
                m = self.ID_SEG.match(seg)
                if m:
                    self.ids.setdefault(node[:at] + m.group(1) + ".", set()).add(int(m.group(2)))
                at += len(seg) + 1
        elif isinstance(node, dict):
            for v in node.values():
                self.collect(v)
        elif isinstance(node, list):
            for v in node:
                self.collect(v)

    def key(self, text):
        for root in self.roots:
            if text == root:
                text = "."
                break
            if text.startswith(root + "/"):
                text = text[len(root) + 1:]
                break
        out, at = [], 0
        for seg in text.split("/"):
            m = self.ID_SEG.match(seg)
            if m:
                order = self.ids[text[:at] + m.group(1) + "."].index(int(m.group(2)))
                out.append("%s#%d" % (m.group(1), order))
            else:
                out.append(seg)
            at += len(seg) + 1
        return "/".join(out)


def table(rows, names):
    rows = [flatten(r) for r in rows]
    text_cols = {k for r in rows for k, v in r.items() if isinstance(v, str)}
    kind = {}
    for r in rows:
        for k, v in r.items():
            if k in kind:
                continue
            role = role_of_name(k, bool(text_cols))
            if k in text_cols:
                role = 2 if is_tree(rows, k) else 1
            elif role == 0 and "label" in text_cols and k == "value" and isinstance(v, int):
                role = 1
            kind[k] = role
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
                keys[k] = names.key(v) if isinstance(v, str) else v
            elif c == 0 and is_num(v):
                values[k] = v
        m = json.dumps(keys, sort_keys=True)
        seen[m] = seen.get(m, 0) + 1
        out.append(((m, seen[m]), keys, values))
    return out


def tables(stats, path):
    names = Names(stats, path)
    ts, summary = {}, {}
    for k, v in stats.items():
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
            ts[k] = table(v, names)
        elif isinstance(v, dict):
            ts[k] = table([v], names)
        elif is_num(v):
            summary[k] = v
    if summary:
        ts["summary"] = table([summary], names)
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


def expected(sa, sb, a, b):
    ta, tb = tables(sa, a), tables(sb, b)
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


def run_text(pw, args):
    p = subprocess.run([pw] + args + ["-q", "--top", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.stdout.decode() if p.returncode in (0, 1) else ""


def csv_sections(text):
    """'# name' sections of a CSV report: name -> list of dict rows."""
    out, name, lines = {}, None, []
    for line in text.splitlines() + ["# end"]:
        if line.startswith("# "):
            if name is not None:
                out[name] = list(csv.DictReader(io.StringIO("\n".join(lines))))
            name, lines = line[2:], []
        else:
            lines.append(line)
    return out


NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w.])")


def text_rows(text, name):
    """The data lines of the text table `name (n)`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(name + " ("):
            rows = []
            for row in lines[i + 2:]:
                if not row.strip():
                    break
                rows.append(row)
            return rows
    return []


def check_columns(pw, a, b, got):
    """No identifier or clock among the deltas; the CSV holds every number
    of the JSON deltas, the text as many numbers per row as the CSV."""
    where = "diff %s %s" % (a, b)
    csv_t = csv_sections(run_text(pw, ["diff", a, b, "--csv"]))
    text = run_text(pw, ["diff", a, b])
    for name, rows in got.get("tables", {}).items():
        for r in rows:
            for k in r["delta"]:
                last = k.rsplit(".", 1)[-1]
                if last in LEFT_OUT or last in KEY_NAMES or last in ("id", "index"):
                    FAILED.append("%s: %s: an identifier or clock subtracted: %s" % (where, name, k))
        crows = csv_t.get(name, [])
        if len(crows) != len(rows):
            FAILED.append("%s: %s: %d CSV rows, %d JSON rows" % (where, name, len(crows), len(rows)))
            continue
        trows = text_rows(text, name)
        for i, (r, c) in enumerate(zip(rows, crows)):
            for k, d in r["delta"].items():
                cell = c.get(k + " B-A")
                if d != 0 and (cell in (None, "") or abs(float(cell) - d) > 1e-9 * max(1.0, abs(d))):
                    FAILED.append("%s: %s row %d: %s B-A is %r in CSV, %r in JSON" % (where, name, i, k, cell, d))
            filled = sum(1 for v in c.values() if v not in (None, "") and NUMBER.fullmatch(v.strip()))
            if i < len(trows) and len(NUMBER.findall(trows[i])) < filled:
                FAILED.append("%s: %s row %d: text shows %d numbers, CSV %d: %s"
                              % (where, name, i, len(NUMBER.findall(trows[i])), filled, trows[i][:200]))


def copy_of(path, work, i):
    """A copy of the dataset at another path (another directory name too)."""
    dest = os.path.join(work, "copies", str(i), os.path.basename(path.rstrip("/")) + "-moved")
    shutil.rmtree(os.path.dirname(dest), ignore_errors=True)
    os.makedirs(os.path.dirname(dest))
    if os.path.isdir(path):
        shutil.copytree(path, dest, symlinks=True)
    else:
        shutil.copy2(path, dest)
    return dest


def main():
    pw, data, gen, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    by_format = {}
    for fmt, path in fixtures(data, gen, work):
        by_format.setdefault(fmt, []).append(path)
        got = run_json(pw, ["diff", path, path])
        if got is not None and got.get("tables") != {}:
            FAILED.append("diff A A of %s found differences: %s" % (path, list(got["tables"])))
        moved = copy_of(path, work, len(sum(by_format.values(), [])))
        got = run_json(pw, ["diff", path, moved])
        if got is not None and got.get("tables") != {}:
            FAILED.append("diff A COPY of %s found differences: %s" % (path, got["tables"]))
        shutil.rmtree(os.path.dirname(moved), ignore_errors=True)
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
            want = expected(sa, sb, a, b)
            pairs += 1
            check_columns(pw, a, b, got)
            if got.get("tables") != want or got.get("a") != a or got.get("b") != b:
                diff_tables = [n for n in set(want) | set(got.get("tables", {}))
                               if want.get(n) != got.get("tables", {}).get(n)]
                FAILED.append("diff %s %s: tables differ from the stats: %s" % (a, b, diff_tables))
    print("%d pairs compared" % pairs)
    for f in FAILED:
        print("FAIL " + f)
    sys.exit(1 if FAILED else 0)


main()
