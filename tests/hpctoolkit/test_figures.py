"""test_figures.py CLI SHARED_DATA — the figures the issue names, from the
facts file and from Pipit's own tests:
  * prototype ping-pong: 3 profiles (0 = summary), metrics 256/512 =
    CPUTIME (sec) exclusive/inclusive, summary context 0 = 0.262069 s, two
    trace lines of 24 samples, cct.db all zero = a warning, not an error;
  * released ping-pong: frames replayed from the trace give 117 function
    entries on rank 0 and 88 on rank 1, enter = leave, 7 PMPI_Send and 7
    PMPI_Recv per rank (Pipit counts entry points as functions);
  * every other database reads and passes check (the old XML one too, named
    as the pre-4.0 format; its values are compared in test_oldxml.py)."""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import FAILURES, check, finish  # noqa: E402


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True)


def jsonl(cli, *args):
    p = run(cli, *args)
    check(p.returncode == 0, "%s: exit %d: %s" % (args, p.returncode, p.stderr[:300]))
    return [json.loads(line) for line in p.stdout.splitlines()]


def prototype(cli, db):
    recs = jsonl(cli, "dump", "--jsonl", db)
    profiles = {r["profile"] for r in recs if r["type"] == "value"}
    check(profiles == {0, 1, 2}, "prototype: profiles %s" % sorted(profiles))
    summary0 = {r["metric"]: r["value"] for r in recs
                if r["type"] == "value" and r["profile"] == 0 and r["context"] == 0}
    check(summary0.get(512) == 0.262069, "prototype: summary ctx 0 metric 512 = %r" % summary0.get(512))
    samples = collections.Counter(r["loc"] for r in recs if r["type"] == "sample")
    check(sorted(samples.values()) == [24, 24], "prototype: trace lines %s" % dict(samples))
    per_profile = collections.Counter(r["profile"] for r in recs if r["type"] == "value")
    check([per_profile[i] for i in range(3)] == [113, 65, 53], "prototype: values %s" % per_profile)
    stats = json.loads(run(cli, "stats", "--json", db).stdout)
    metrics = {(m["id"], m["in"]): (m["name"], m["scope"]) for m in stats["metrics"]}
    check(metrics.get((512, "summary")) == ("CPUTIME (sec)", "inclusive"), "prototype: metric 512")
    check(metrics.get((256, "summary")) == ("CPUTIME (sec)", "exclusive"), "prototype: metric 256")
    check(stats["database"]["total"] == 0.262069, "prototype: top-down total %r" % stats["database"]["total"])
    p = run(cli, "check", db)
    check(p.returncode == 0, "prototype: check exit %d" % p.returncode)
    check("hpctoolkit.cct-zero-values" in p.stderr and "0 errors, 1 warning" in p.stdout,
          "prototype: cct.db zero warning: %s %s" % (p.stdout, p.stderr))


def released_pingpong(cli, db):
    recs = jsonl(cli, "dump", "--jsonl", "--frames", db)
    enters, leaves, mpi = collections.Counter(), collections.Counter(), collections.Counter()
    for r in recs:
        if r["type"] not in ("enter", "leave") or r["kind"] == "loop":
            continue
        rank = [p for p in r["loc"].split("/") if p.startswith("RANK.")][0]
        (enters if r["type"] == "enter" else leaves)[rank] += 1
        if r["type"] == "enter":
            mpi[(rank, r["name"].split(" ")[0])] += 1
    check(enters["RANK.0"] == 117 and enters["RANK.1"] == 88, "ping-pong: entries %s" % dict(enters))
    check(enters == leaves, "ping-pong: enter %s != leave %s" % (dict(enters), dict(leaves)))
    for rank in ("RANK.0", "RANK.1"):
        for fn in ("PMPI_Send", "PMPI_Recv"):
            check(mpi[(rank, fn)] == 7, "ping-pong: %s %s = %d" % (rank, fn, mpi[(rank, fn)]))


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    root = os.path.join(shared, "hpctoolkit")
    proto = os.path.join(root, "pipit", "ping-pong-hpctoolkit@7283ee4-prototype")
    pingpong = os.path.join(root, "pipit", "ping-pong-hpctoolkit@05d9563-v4")
    others = [os.path.join(root, "hpctoolkit", "small_v4.0@5c1005fbe"), pingpong] + [
        os.path.join(root, "hpctoolkit", "tests-data-dbase@f9abaf11f", d)
        for d in ("small.d", "small.nostruct.d", "loops-cputime-t.d", "loops-cuda-nvidia-t.d")]
    old = os.path.join(root, "hatchet", "hpctoolkit-cpi-database@79c009b")
    for d in [proto, old] + others:
        check(os.path.isdir(d), "missing fixture %s" % d)
    if not FAILURES:
        prototype(cli, proto)
        released_pingpong(cli, pingpong)
        for d in others:
            for cmd in ("check", "stats"):
                p = run(cli, cmd, d)
                check(p.returncode == 0 and not p.stderr, "%s %s: exit %d %s" % (cmd, d, p.returncode, p.stderr[:300]))
        p = run(cli, "check", old)
        check(p.returncode == 0 and not p.stderr and "old XML 2.0 (pre-4.0" in p.stdout,
              "old XML: %d %s %s" % (p.returncode, p.stdout, p.stderr))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
