#!/usr/bin/env python3
"""Checks the MPI wait analyses of `perfweave stats --json` on every DUMPI
fixture against numbers computed here, independently, from the
`dumpi2ascii -a` texts beside the traces:

  * wait states per rank and per function, with Scalasca's definitions
    (the issue's text): messages matched per (communicator, source, dest,
    tag) in MPI's non-overtaking order, wildcards resolved by the status;
    collective instances matched per communicator in call order;
  * the critical path: back from the last MPI_Finalize exit, at each rank's
    latest wait over to the rank that caused it, per rank and function;
  * rank x function calls and time, idle time, load imbalance, the time
    profile and communication over time, with Pipit's definitions
    (hpcgroup/pipit, pipit/trace.py: flat_profile with per_process,
    idle_time with mpi_events, load_imbalance, time_profile, and
    comm_over_time's numpy.histogram of send entries, bytes = count x the
    trace's datatype size).

usage: waits_fixtures.py PERFWEAVE SHARED_DATA
"""
import json
import os
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dumpi"))
from dumpi_ascii import oracle_files, parse_oracle  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nested import nested  # noqa: E402

FIXTURES = ["pingpong4", "nonblock4", "collectives4", "collectives4-notime-nostatus",
            "nonblock4-cputime", "threads4", "collectives4-papi"]
# upstream-v1.0.0 has the oracle text of rank 0 only: its waits depend on ranks we cannot read here.
WORLD, SELF = 2, 3
NXN = {"MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
       "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan"}
KIND = {**{f: "wait_nxn" for f in NXN}, "MPI_Barrier": "wait_barrier",
        "MPI_Bcast": "late_broadcast", "MPI_Scatter": "late_broadcast", "MPI_Scatterv": "late_broadcast",
        "MPI_Reduce": "early_reduce", "MPI_Gather": "early_reduce", "MPI_Gatherv": "early_reduce"}
KINDS = ["late_sender", "late_receiver", "wait_nxn", "wait_barrier", "late_broadcast", "early_reduce"]
IDLE = {"MPI_Wait", "MPI_Waitall", "MPI_Recv"}  # pipit/trace.py idle_time, mpi_events=True
BINS = 50  # pipit/trace.py time_profile's default
failures = []
checked = defaultdict(int)


def ns(text):
    return int(Decimal(text) * 1000000000)


def times(call):
    """Entry and exit: the wall clock when recorded, else the CPU clock."""
    for clock in ("wall", "cpu"):
        a, b = ns(call[clock][0]), ns(call[clock][1])
        if a or b:
            return a, b
    return None


def args_of(call):
    return {name: value[1] for _t, name, value in call["args"]}


def statuses(a):
    st = a.get("status", a.get("statuses"))
    return st if isinstance(st, list) else []


class Comms:
    """Communicators from MPI_Comm_dup/split: a handle of a rank names a
    communicator id; ids of one communicator agree on all members."""

    def __init__(self, ranks):
        self.members = {("world",): sorted(ranks)}
        self.handles = {r: {WORLD: ("world",), SELF: ("self", r)} for r in ranks}
        self.members.update({("self", r): [r] for r in ranks})
        creations = defaultdict(list)  # (rank, parent id) -> creation calls in order
        for r, calls in ranks.items():
            for c in calls:
                if c["type"] in ("MPI_Comm_split", "MPI_Comm_dup"):
                    creations[r].append(c)
        # Replay rank by rank in call order; ids are (parent, n-th creation on it, color).
        for r, calls in ranks.items():
            count = defaultdict(int)
            for c in creations[r]:
                a = args_of(c)
                parent = self.handles[r].get(a.get("oldcomm", a.get("comm")))
                if parent is None:
                    continue
                k = count[parent]
                count[parent] += 1
                if c["type"] == "MPI_Comm_dup":
                    cid = (parent, k)
                elif a["color"] < 0:
                    continue
                else:
                    cid = (parent, k, a["color"])
                self.handles[r][a["newcomm"]] = cid
        for r, calls in ranks.items():
            count = defaultdict(int)
            for c in creations[r]:
                a = args_of(c)
                cid = self.handles[r].get(a["newcomm"])
                if cid is None or cid in self.members:
                    continue
                parent = cid[0]
                if len(cid) == 2:
                    self.members[cid] = list(self.members[parent])
                    continue
                pm = self.members[parent]
                keyed = []
                for q in pm:  # members with this color at the same creation
                    qk = 0
                    for qc in creations[q]:
                        qa = args_of(qc)
                        if self.handles[q].get(qa.get("oldcomm", qa.get("comm"))) != parent:
                            continue
                        if qk == cid[1]:
                            if qc["type"] == "MPI_Comm_split" and qa["color"] == cid[2]:
                                keyed.append((qa["key"], pm.index(q), q))
                            break
                        qk += 1
                self.members[cid] = [q for _k, _i, q in sorted(keyed)]

    def world(self, rank, handle, comm_rank):
        cid = self.handles[rank].get(handle)
        if cid is None or comm_rank < 0 or comm_rank >= len(self.members[cid]):
            return None, None
        return cid, self.members[cid][comm_rank]


def clip(a, b, window):
    """The part of [a, b) inside the window [start, end) (None: all)."""
    if window is None:
        return b - a
    return max(0, min(b, window[1]) - max(a, window[0]))


def expected(fixture_dir, window=None):
    """window (start, end) in ns: the sums of what lies inside it, of the
    whole run's waits and calls (calls count where they enter)."""
    ranks, sizes = {}, {}
    for rank, txt, _bin in oracle_files(fixture_dir):
        _header, ranks[rank], trailer = parse_oracle(txt)
        sizes[rank] = trailer["sizes"]
    comms = Comms(ranks)
    # Pass 1: send entries and receive posts per world message key, in order.
    sends, posts = defaultdict(list), defaultdict(dict)
    recv_done = {r: [] for r in ranks}  # per rank: (call index, key, seq) of receives completed
    ssends = {r: [] for r in ranks}     # per rank: (call index, key, seq) of synchronous sends completed
    for r, calls in ranks.items():
        pending = {}      # request -> (handle, source, tag, post time, is receive)
        counts = defaultdict(int)
        issend = {}

        def recv(i, cid, src, tag, post):
            key = (cid, src, r, tag)
            seq = counts[key]
            counts[key] += 1
            posts[key][seq] = post
            recv_done[r].append((i, key, seq))

        def receive_at(i, handle, source, tag, post, st):
            if source < 0 or tag < 0:
                if not st:
                    return
                source = st["source"] if source < 0 else source
                tag = st["tag"] if tag < 0 else tag
            cid, src = comms.world(r, handle, source)
            if cid is not None:
                recv(i, cid, src, tag, post)

        for i, c in enumerate(calls):
            t = times(c)
            enter = t[0] if t else None
            a = args_of(c)
            f = c["type"]
            if "dest" in a and a["dest"] >= 0:
                cid, dst = comms.world(r, a["comm"], a["dest"])
                if cid is not None:
                    key = (cid, r, dst, a.get("sendtag", a.get("tag")))
                    sends[key].append(enter)
                    if f == "MPI_Ssend":
                        ssends[r].append((i, key, len(sends[key]) - 1))
                    if f == "MPI_Issend":
                        issend[a["request"][0] if isinstance(a["request"], list) else a["request"]] = (key, len(sends[key]) - 1)
            if "source" in a:
                tag = a.get("recvtag", a.get("tag"))
                if "request" in a and "dest" not in a:
                    req = a["request"][0] if isinstance(a["request"], list) else a["request"]
                    if a["source"] >= 0 and tag >= 0:
                        cid, src = comms.world(r, a["comm"], a["source"])
                        key = (cid, src, r, tag)
                        seq = counts[key]
                        counts[key] += 1
                        posts[key][seq] = enter
                        pending[req] = ("numbered", key, seq)
                    else:
                        pending[req] = ("wild", a["comm"], a["source"], tag, enter)
                else:
                    st = statuses(a)
                    receive_at(i, a["comm"], a["source"], tag, enter, st[0] if st else None)
            elif ("request" in a or "requests" in a) and "dest" not in a:
                if a.get("flag", 1) == 0:
                    continue
                reqs = a.get("requests", a.get("request"))
                reqs = reqs if isinstance(reqs, list) else [reqs]
                st = statuses(a)
                if "indices" in a:
                    done = [(reqs[j], st[n] if n < len(st) else None)
                            for n, j in enumerate(a["indices"][:a["outcount"]])]
                elif "index" in a:
                    done = [(reqs[a["index"]], st[0] if st else None)] if a["index"] >= 0 else []
                else:
                    done = [(q, st[n] if n < len(st) else None) for n, q in enumerate(reqs)]
                for req, s in done:
                    p = pending.pop(req, None)
                    if p is None:
                        if req in issend:
                            ssends[r].append((i,) + issend.pop(req))
                        continue
                    if p[0] == "numbered":
                        recv_done[r].append((i, p[1], p[2]))
                    else:
                        receive_at(i, p[1], p[2], p[3], p[4], s)
    waits = {k: defaultdict(int) for k in KINDS}
    by_fn = {k: defaultdict(int) for k in KINDS}
    waits_at = defaultdict(list)  # rank -> (enter, resume, cause)

    def charge(kind, r, call, other, cause):
        t = times(call)
        if t is None or other is None or other <= t[0]:
            return 0
        w = min(other, t[1]) - t[0]
        waits[kind][r] += clip(t[0], t[0] + w, window)
        by_fn[kind][call["type"]] += clip(t[0], t[0] + w, window)
        waits_at[r].append((t[0], t[0] + w, cause))
        return w

    # Late Sender: each completing call waits once, for its latest send.
    for r in ranks:
        latest = {}  # call -> (latest send entry, its sender), the first of equals
        for i, key, seq in recv_done[r]:
            s = sends[key][seq] if seq < len(sends[key]) else None
            if s is not None and (i not in latest or s > latest[i][0]):
                latest[i] = (s, key[1])
        late_sender_calls = set()
        for i, (s, sender) in latest.items():
            if charge("late_sender", r, ranks[r][i], s, sender):
                late_sender_calls.add(i)
        post_latest = {}
        for i, key, seq in ssends[r]:
            p = posts[key].get(seq)
            if p is not None and (i not in post_latest or p > post_latest[i][0]):
                post_latest[i] = (p, key[2])
        for i, (p, receiver) in post_latest.items():
            if i not in late_sender_calls:
                charge("late_receiver", r, ranks[r][i], p, receiver)
    # Collectives: the n-th call on a communicator at each member.
    inst = defaultdict(lambda: defaultdict(list))  # cid -> seq -> (rank, call)
    for r, calls in ranks.items():
        n = defaultdict(int)
        for c in calls:
            if c["type"] in KIND:
                cid = comms.handles[r].get(args_of(c)["comm"])
                if cid is None:
                    continue
                inst[cid][n[cid]].append((r, c))
                n[cid] += 1
    for cid, seqs in inst.items():
        members = comms.members[cid]
        for seq, calls in seqs.items():
            if len(calls) != len(members) or any(times(c) is None for _r, c in calls):
                continue
            enter = {r: times(c)[0] for r, c in calls}
            last = max(members, key=lambda q: enter[q])  # the first of equals, in comm order
            for r, c in calls:
                kind = KIND[c["type"]]
                a = args_of(c)
                root = members[a["root"]] if "root" in a and a["root"] is not None else None
                if kind in ("wait_nxn", "wait_barrier"):
                    charge(kind, r, c, enter[last], last)
                elif kind == "late_broadcast" and root is not None and r != root:
                    charge(kind, r, c, enter[root], root)
                elif kind == "early_reduce" and r == root:
                    q = max((q for q in members if q != root), key=lambda q: enter[q])
                    charge(kind, r, c, enter[q], q)
    # Pipit's profile, idle time and time profile.
    prof = defaultdict(lambda: [0, 0])
    idle = defaultdict(int)
    spans = []
    for r, calls in ranks.items():
        for c in calls:
            p = prof[(r, c["type"])]
            t = times(c)
            p[0] += t is None or window is None or window[0] <= t[0] < window[1]
            if t is None:
                continue
            p[1] += clip(t[0], t[1], window)
            spans.append((c["type"], t[0], t[1]))
            if c["type"] in IDLE:
                idle[r] += clip(t[0], t[1], window)
    profile = None
    if spans:
        t0 = min(s[1] for s in spans)
        t1 = max(s[2] for s in spans)
        step = (t1 - t0) / BINS
        edges = [i * step + t0 for i in range(BINS)] + [t1]
        profile = defaultdict(lambda: [0.0] * BINS)
        for name, a, b in spans:
            row = profile[name]
            for i in range(BINS):
                if b > edges[i] and a < edges[i + 1]:
                    row[i] += min(b, edges[i + 1]) - max(a, edges[i])
        comm = [[0] * BINS, [0] * BINS]  # messages, bytes
        for r, calls in ranks.items():
            for c in calls:
                a = args_of(c)
                if "dest" in a and a["dest"] >= 0 and times(c):
                    i = min(BINS - 1, next(k for k in range(BINS, -1, -1) if times(c)[0] >= edges[k]))
                    comm[0][i] += 1
                    comm[1][i] += a.get("count", a.get("sendcount")) * sizes[r][a.get("datatype", a.get("sendtype"))]
        profile = (t0, step, profile, comm)
    return ranks, waits, by_fn, prof, idle, profile, critical_path(ranks, waits_at, window)


def critical_path(ranks, waits_at, window=None):
    """Per rank the time on the path, per function its time there."""
    timed = {r: [times(c) for c in calls if times(c)] for r, calls in ranks.items()}
    if not any(timed.values()):
        return None
    fin = {r: max(times(c)[1] for c in calls if c["type"] == "MPI_Finalize" and times(c))
           for r, calls in ranks.items() if any(c["type"] == "MPI_Finalize" and times(c) for c in calls)}
    ends = fin or {r: max(max(t) for t in ts) for r, ts in timed.items() if ts}
    r = max(sorted(ends), key=lambda q: ends[q])
    t = ends[r]
    waits = {q: sorted(w, key=lambda x: (x[1], x[0], x[2])) for q, w in waits_at.items()}
    bound = {q: len(w) for q, w in waits.items()}
    spans = defaultdict(list)
    while True:
        cand = [i for i in range(bound.get(r, 0)) if waits[r][i][1] <= t]
        if not cand:
            spans[r].append((min(min(x) for x in timed[r]), t))
            break
        i = cand[-1]
        _enter, resume, cause = waits[r][i]
        spans[r].append((resume, t))
        bound[r] = i
        t, r = resume, cause
    if window is not None:  # the whole run's path, clipped
        spans = defaultdict(list, {q: [(max(a, window[0]), min(b, window[1])) for a, b in s
                                       if min(b, window[1]) > max(a, window[0])] for q, s in spans.items()})
    by_fn = defaultdict(int)
    for q, calls in ranks.items():
        for thread in {c["thread"] for c in calls}:
            prev = None
            for c in calls:
                tc = times(c)
                if c["thread"] != thread or tc is None:
                    continue
                if prev is not None and tc[0] > prev:
                    by_fn["(compute)"] += overlap(spans[q], prev, tc[0])
                by_fn[c["type"]] += overlap(spans[q], tc[0], tc[1])
                prev = tc[1] if prev is None else max(prev, tc[1])
    return {q: sum(b - a for a, b in s) for q, s in spans.items()}, by_fn


def overlap(spans, a, b):
    return sum(max(0, min(b, y) - max(a, x)) for x, y in spans)


def close(ours, want_ns, tol=1e-9):
    return abs(ours - want_ns / 1e9) <= tol + 1e-9 * abs(want_ns / 1e9)


def check(cli, data, fixture):
    d = os.path.join(data, "dumpi", fixture)
    if not os.path.isdir(d):
        failures.append(f"{fixture}: fixture missing")
        return
    out = subprocess.run([cli, "stats", "--json", d], capture_output=True, text=True)
    if out.returncode != 0:
        failures.append(f"{fixture}: stats exit {out.returncode}: {out.stderr[:300]}")
        return
    got = nested(json.loads(out.stdout))
    ranks, waits, by_fn, prof, idle, profile, cpath = expected(d)
    if cpath:
        on_rank, on_fn = cpath
        cp = got["critical_path"]
        for r in ranks:
            checked["critical path rank"] += 1
            if not close(cp["by_rank"][str(r)], on_rank.get(r, 0)):
                failures.append(f"{fixture}: critical path rank {r}: ours {cp['by_rank'][str(r)]} != {on_rank.get(r, 0) / 1e9}")
        for f in set(cp["by_function"]) | {f for f, v in on_fn.items() if v}:
            checked["critical path function"] += 1
            if not close(cp["by_function"].get(f, 0), on_fn.get(f, 0)):
                failures.append(f"{fixture}: critical path {f}: ours {cp['by_function'].get(f)} != {on_fn.get(f, 0) / 1e9}")
    for kind in KINDS:
        g = got["wait_states"][kind]
        for r in ranks:
            checked["wait by rank"] += 1
            if not close(g["by_rank"][str(r)], waits[kind][r]):
                failures.append(f"{fixture}: {kind} rank {r}: ours {g['by_rank'][str(r)]} "
                                f"!= {waits[kind][r] / 1e9}")
        for f in set(g["by_function"]) | {f for f, v in by_fn[kind].items() if v}:
            checked["wait by function"] += 1
            if not close(g["by_function"].get(f, 0), by_fn[kind][f]):
                failures.append(f"{fixture}: {kind} {f}: ours {g['by_function'].get(f)} != {by_fn[kind][f] / 1e9}")
    rows = {(x["rank"], x["function"]): x for x in got["rank_functions"]}
    if set(rows) != set(prof):
        failures.append(f"{fixture}: rank x function rows differ: {sorted(set(rows) ^ set(prof))[:5]}")
    for key, (calls, t) in prof.items():
        x = rows.get(key)
        checked["rank x function"] += 1
        if x and (x["calls"] != calls or not close(x["time_s"], t)):
            failures.append(f"{fixture}: {key}: ours {x['calls']} {x['time_s']} != {calls} {t / 1e9}")
    for x in got["load_imbalance"]:  # max over the mean of the ranks that call it
        per = {r: t for (r, f), (_n, t) in prof.items() if f == x["function"]}
        mean = sum(per.values()) / len(per)
        top = max(sorted(per), key=lambda r: per[r])
        checked["load imbalance"] += 1
        if (x["max_rank"] != top or not close(x["max_s"], per[top]) or not close(x["mean_s"], mean)
                or abs(x["imbalance"] - (per[top] / mean if mean else 0)) > 1e-9):
            failures.append(f"{fixture}: load imbalance {x}: expected rank {top} {per[top]} mean {mean}")
    if {x["function"] for x in got["load_imbalance"]} != {f for _r, f in prof}:
        failures.append(f"{fixture}: load imbalance functions differ")
    for x in got["idle_time"]:
        checked["idle"] += 1
        if not close(x["idle_s"], idle[x["rank"]]):
            failures.append(f"{fixture}: idle rank {x['rank']}: ours {x['idle_s']} != {idle[x['rank']] / 1e9}")
    if profile:
        t0, step, rows, comm = profile
        if got["comm_over_time"]["messages"] != comm[0] or got["comm_over_time"]["bytes"] != comm[1]:
            failures.append(f"{fixture}: comm over time: ours {got['comm_over_time']} != {comm}")
        checked["comm over time"] += 1
        tp = got["time_profile"]
        # bins start at the first call: start_s counts from it (t0 here)
        if tp["bins"] != BINS or tp["starts_s"][0] != 0 or abs(tp["bin_s"] - step / 1e9) > 1e-12:
            failures.append(f"{fixture}: time profile frame {tp['bins']} {tp['starts_s'][:2]} {tp['bin_s']} (t0 {t0})")
        if set(tp["functions"]) != set(rows):
            failures.append(f"{fixture}: time profile functions differ")
        for name, row in rows.items():
            for i, v in enumerate(row):
                checked["time profile bin"] += 1
                ours = tp["functions"].get(name, [0] * BINS)[i]
                if abs(ours - v / 1e9) > 1e-12 + 1e-9 * abs(v / 1e9):
                    failures.append(f"{fixture}: time profile {name} bin {i}: ours {ours} != {v / 1e9}")


def main():
    cli, data = sys.argv[1], sys.argv[2]
    for fixture in FIXTURES:
        check(cli, data, fixture)
    print(", ".join(f"{n} {k}" for k, n in sorted(checked.items())))
    for f in failures[:40]:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
