"""test_yaml_oracle.py CLI SHARED_DATA — compares what perfweave reads from
small.d and small.nostruct.d with the hpctesttool YAML dumps beside them:
every context of the tree, every metric value of every profile, the
context-major values of cct.db, the identifier tuples, the metrics, the
general properties and every trace sample.  A missing fixture fails."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml_subset  # noqa: E402
from checks import FAILURES, check, finish  # noqa: E402

COUNTS = {"contexts": 0, "values": 0, "samples": 0}


def run_json_lines(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def run_json(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


LEXICAL = {"function": "function", "loop": "loop", "line": "line", "instruction": "instruction"}


def expected_contexts(meta):
    """id -> the fields a context record must carry."""
    out = {}

    def walk(node, parent):
        kind = LEXICAL[node["lexical_type"]]
        fn = node.get("function")
        out[node["ctx_id"]] = {
            "parent": parent, "kind": kind,
            "relation": {"lexical": "lexical", "call": "call", "inlined_call": "inlined call"}[node["relation"]],
            "name": fn["name"] if fn else None,
            "file": node["file"]["path"] if node.get("file") else None,
            "line": node.get("line"),
            "module": node["module"]["path"] if node.get("module") else None,
            "offset": node.get("offset"),
        }
        for child in node.get("children") or []:
            walk(child, node["ctx_id"])

    for entry in meta["context"]["entry_points"]:
        out[entry["ctx_id"]] = {"parent": 0, "kind": "entry", "name": entry["pretty_name"]}
        for child in entry.get("children") or []:
            walk(child, entry["ctx_id"])
    return out


def compare_contexts(tag, meta, records):
    got = {r["id"]: r for r in records if r["type"] == "context"}
    want = expected_contexts(meta)
    check(set(got) == set(want) | {0}, "%s: context ids %s != %s" % (tag, sorted(got), sorted(want)))
    COUNTS["contexts"] += len(want)
    for cid, w in want.items():
        r = got.get(cid, {})
        for key, value in w.items():
            if key == "name" and value is None:
                continue  # lines and loops: our name is composed, not in the dump
            check(r.get(key) == value, "%s: context %d %s: %r != %r" % (tag, cid, key, r.get(key), value))


def tuple_name(names, id_tuple):
    if not id_tuple:
        return None
    return "/".join("%s.%d" % (names[i["kind"]], i["logical_id"]) for i in id_tuple["ids"])


def compare_values(tag, data, records):
    names = data["meta"]["id_names"]["names"]
    profiles = data["profile"]["profile_infos"]["profiles"]
    want = set()
    for index, prof in enumerate(profiles):
        for ctx, metrics in (prof.get("values") or {}).items():
            for metric, value in metrics.items():
                want.add((index, ctx, metric, value))
    got = {(r["profile"], r["context"], r["metric"], r["value"]) for r in records if r["type"] == "value"}
    check(len(want) > 0, "%s: the oracle lists no values" % tag)
    COUNTS["values"] += len(want)
    check(got == want, "%s: values differ: missing %s, extra %s" %
          (tag, sorted(want - got)[:5], sorted(got - want)[:5]))
    locs = {r["profile"]: r["loc"] for r in records if r["type"] == "value"}
    for index, prof in enumerate(profiles):
        name = tuple_name(names, prof.get("id_tuple"))
        if index == 0:
            check(locs.get(0) == "summary", "%s: profile 0 is not the summary" % tag)
        elif name:
            check(locs.get(index) == name, "%s: profile %d loc %r != %r" % (tag, index, locs.get(index), name))
    # cct.db holds the same non-summary values, context-major
    cct = set()
    for ctx, per in enumerate(data["context"]["ctx_infos"]["contexts"]):
        for metric, by_prof in (per.get("values") or {}).items():
            for prof, value in by_prof.items():
                cct.add((prof, ctx, metric, value))
    nonsummary = {v for v in got if v[0] != 0}
    check(cct == nonsummary, "%s: cct.db oracle values != profile values read" % tag)
    return locs


def compare_traces(tag, data, records, locs):
    traces = data["trace"]["ctx_traces"]
    for tr in traces["traces"]:
        loc = locs.get(tr["prof_index"])
        want = [(e["timestamp"], e["ctx_id"]) for e in tr["line"]]
        got = [(r["t"], r["context"]) for r in records if r["type"] == "sample" and r["loc"] == loc]
        COUNTS["samples"] += len(want)
        check(len(want) > 0 and got == want, "%s: trace of profile %d differs" % (tag, tr["prof_index"]))


def compare_meta(tag, data, cli, db):
    info = run_json(cli, "info", "--json", db)
    props = info["properties"]
    general = data["meta"]["general"]
    check(props.get("title") == general["title"], "%s: title" % tag)
    check(props.get("description") == general["description"], "%s: description" % tag)
    rng = data["trace"]["ctx_traces"]["timestamp_range"]
    check(props.get("trace time range (ns)") == "%d .. %d" % (rng["min"], rng["max"]), "%s: trace range" % tag)
    want = set()
    for m in data["meta"]["metrics"]["metrics"]:
        for inst in m["scope_insts"]:
            want.add((inst["prop_metric_id"], "profiles", m["name"], inst["scope"]["scope_name"], ""))
        for s in m["summaries"]:
            want.add((s["stat_metric_id"], "summary", m["name"], s["scope"]["scope_name"], s["combine"]))
    stats = run_json(cli, "stats", "--json", db)
    got = {(m["id"], m["in"], m["name"], m["scope"], m["combine"]) for m in stats["metrics"]}
    check(got == want, "%s: metrics %s != %s" % (tag, sorted(got), sorted(want)))


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    base = os.path.join(shared, "hpctoolkit", "hpctoolkit", "tests-data-dbase@f9abaf11f")
    for name in ("small", "small.nostruct"):
        db = os.path.join(base, name + ".d")
        oracle = os.path.join(base, name + ".yaml")
        if not os.path.isdir(db) or not os.path.isfile(oracle):
            FAILURES.append("missing fixture %s or %s" % (db, oracle))
            continue
        data = yaml_subset.load(oracle)
        records = run_json_lines(cli, "dump", "--jsonl", db)
        compare_contexts(name, data["meta"], records)
        locs = compare_values(name, data, records)
        compare_traces(name, data, records, locs)
        compare_meta(name, data, cli, db)
    for f in FAILURES:
        print("FAIL:", f)
    print("compared %(contexts)d contexts, %(values)d values, %(samples)d samples" % COUNTS)
    print("%d failed" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
