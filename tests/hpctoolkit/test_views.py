"""test_views.py CLI SHARED_DATA — the stats views of small.d against
figures derived here from the hpctesttool YAML dump (not from our output):
top-down inclusive/exclusive per context (summary "execution" and
"function" sums), the flat view per procedure, time per procedure from
the trace samples; text's --top N on the tree (whole subtrees, the hot path
kept); then --depth, --threshold and bad option values."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml_subset  # noqa: E402
from checks import check, finish  # noqa: E402

INCL, EXCL = "CPUTIME (sec) (I)", "CPUTIME (sec) (E)"


def stats(cli, db, *opts):
    p = subprocess.run([cli, "stats", "--json", db, *opts], capture_output=True, text=True)
    check(p.returncode == 0, "stats %s: exit %d %s" % (opts, p.returncode, p.stderr))
    return json.loads(p.stdout) if p.returncode == 0 else {}


def tree(meta):
    """ctx id -> (parent, function name or None, depth)."""
    out = {}

    def walk(node, parent, depth):
        fn = node.get("function")
        out[node["ctx_id"]] = (parent, fn["name"] if fn else None, depth)
        for c in node.get("children") or []:
            walk(c, node["ctx_id"], depth + 1)

    for e in meta["context"]["entry_points"]:
        out[e["ctx_id"]] = (0, e["pretty_name"], 1)
        for c in e.get("children") or []:
            walk(c, e["ctx_id"], 2)
    return out


def procedure_of(t, ctx):
    while ctx in t:
        parent, name, _ = t[ctx]
        if name:
            return name
        ctx = parent
    return "<not running>"


def check_sibling_order(rows, t, incl):
    """hpcviewer's order: depth first, the children of a context by their
    inclusive value (the oracle's summary "execution" values: the YAML
    leaves out the instruction-level contexts that hold the point values,
    so they cannot be summed here), largest first, ties by id; every row
    names its parent and depth as the oracle's tree does."""
    children = {}
    for c, (parent, _, _) in t.items():
        children.setdefault(parent, []).append(c)
    order = lambda ids: sorted(ids, key=lambda c: (-incl.get(c, 0.0), c))
    want, stack = [0], list(reversed(order(children.get(0, []))))
    while stack:
        c = stack.pop()
        want.append(c)
        stack += reversed(order(children.get(c, [])))
    check([r["id"] for r in rows] == want, "top-down order %s != %s" % ([r["id"] for r in rows], want))
    for r in rows[1:]:
        check(r["parent"] == t[r["id"]][0] and r["depth"] == t[r["id"]][2], "top-down row %r" % r)
    return want, children, order


def top_kept(want, children, order, incl, n):
    """The contexts text's --top N keeps: the N of largest inclusive value
    taken from the root down (a context only after its parent; ties in
    hpcviewer's order), then the hot path (each context's first child in
    that order), shown in the tree's order."""
    pos = {c: i for i, c in enumerate(want)}
    kept, frontier = set(), [0]
    while len(kept) < n and frontier:
        best = min(frontier, key=lambda c: (-incl.get(c, float("inf") if c == 0 else 0.0), pos[c]))
        frontier.remove(best)
        kept.add(best)
        frontier += children.get(best, [])
    c = 0
    while c is not None:
        kept.add(c)
        kids = order(children.get(c, []))
        c = kids[0] if kids else None
    return [c for c in want if c in kept]


def check_top(cli, db, want, children, order, incl):
    """--top N on the top-down tree in text trims whole subtrees: every
    shown context comes with its parent, the hot path always shows, and
    the rest are the costliest (computed here from the oracle)."""
    for n in (1, 3, 5, 10, 12, len(want) - 1):
        p = subprocess.run([cli, "stats", db, "--threshold", "0", "--table", "top_down", "--top", str(n)],
                           capture_output=True, text=True)
        lines = p.stdout.splitlines()
        shown = [int(line.split()[0]) for line in lines[2:] if line.strip() and line.split()[0].isdigit()]
        expect = top_kept(want, children, order, incl, n)
        check(p.returncode == 0 and shown == expect, "--top %d shows %s, want %s" % (n, shown, expect))
        more = "%d more" % (len(want) - len(expect))
        check(any(more in line for line in lines), "--top %d: no '%s' line" % (n, more))


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    base = os.path.join(shared, "hpctoolkit", "hpctoolkit", "tests-data-dbase@f9abaf11f")
    db, oracle = os.path.join(base, "small.d"), os.path.join(base, "small.yaml")
    if not os.path.isdir(db) or not os.path.isfile(oracle):
        print("FAIL: missing fixture %s" % db)
        return 1
    data = yaml_subset.load(oracle)
    t = tree(data["meta"])
    summary = data["profile"]["profile_infos"]["profiles"][0]["values"]
    incl = {c: v.get(3, 0.0) for c, v in summary.items()}
    excl = {c: v.get(1, 0.0) for c, v in summary.items()}

    got = stats(cli, db, "--threshold", "0")
    rows = {r["id"]: r for r in got.get("top_down", [])}
    check(set(rows) == set(t) | {0}, "top-down ids %s" % sorted(rows))
    for c in rows:
        check(rows[c][INCL] == incl.get(c, 0.0) and rows[c][EXCL] == excl.get(c, 0.0),
              "top-down ctx %d: %r" % (c, rows[c]))
    want, children, order = check_sibling_order(got.get("top_down", []), t, incl)
    check_top(cli, db, want, children, order, incl)
    flat_want = {}
    for c, (_, name, _) in t.items():
        if name:
            i, e = flat_want.get(name, (0.0, 0.0))
            flat_want[name] = (i + incl.get(c, 0.0), e + excl.get(c, 0.0))
    flat_got = {r["procedure"]: (r[INCL], r[EXCL]) for r in got.get("flat", [])}
    for name, (i, e) in flat_want.items():
        g = flat_got.get(name, (0.0, 0.0))
        check(abs(g[0] - i) < 1e-12 and abs(g[1] - e) < 1e-12, "flat %s: %r != %r" % (name, g, (i, e)))
    line = data["trace"]["ctx_traces"]["traces"][0]["line"]
    want_ns = {}
    for a, b in zip(line, line[1:]):
        p = procedure_of(t, a["ctx_id"])
        want_ns[p] = want_ns.get(p, 0) + b["timestamp"] - a["timestamp"]
    got_ns = {r["procedure"]: r["time_s"] for r in got.get("trace_time", [])}
    check({k: round(v * 1e9) for k, v in got_ns.items()} == want_ns, "trace time %s != %s" % (got_ns, want_ns))
    samples = {r["profile"]: r["samples"] for r in got.get("trace_lines", [])}
    check(list(samples.values()) == [len(line)], "trace samples %s" % samples)

    shallow = stats(cli, db, "--threshold", "0", "--depth", "2")
    depths = [r["depth"] for r in shallow.get("top_down", [])]
    check(depths and max(depths) == 2 and len(depths) == 1 + sum(1 for v in t.values() if v[2] <= 2),
          "--depth 2: depths %s" % depths)
    half = stats(cli, db, "--threshold", "60")
    check([r["id"] for r in half.get("top_down", [])] == [0, 1, 4, 15],
          "--threshold 60: %s" % [r["id"] for r in half.get("top_down", [])])
    for bad in (("--depth", "x"), ("--threshold", "200"), ("--lookup", "a"), ("--views", "some")):
        p = subprocess.run([cli, "stats", db, *bad], capture_output=True, text=True)
        check(p.returncode == 2, "%s: exit %d" % (bad, p.returncode))
    look = stats(cli, db, "--lookup", "16:1")
    check({r["metric"]: r["value"] for r in look.get("lookup", [])} ==
          data["profile"]["profile_infos"]["profiles"][1]["values"][16], "--lookup 16:1 %s" % look)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
