"""check_dumpi_otf2.py CLI DATA OUT — the MPI events of the OTF2 archives
of the DUMPI fixtures, against the dumpi2ascii oracle texts
(*.bin.ascii.txt): per rank, every collective call is one
MpiCollectiveBegin/End pair with its operation, communicator, root and
buffer bytes, and every send one MpiSend with its length (count x datatype
size); and the Paraver file holds one communication record per send,
from the sender's task to the receiver's (task = rank + 1) with its size
and tag.  Each collective's communicator is defined over the world
ranks that MPI_Comm_split gives (same color, ordered by key then rank).
Expected values come from the oracle text alone: datatype sizes
from the MPI type names (LP64), bytes by the rule of docs/converting.md."""
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import target_checks  # noqa: E402

CLI, DATA, OUT = sys.argv[1:4]
FIXTURES = ["collectives4", "collectives4-notime-nostatus", "collectives4-papi", "pingpong4", "nonblock4",
            "nonblock4-cputime", "threads4"]
TYPE_BYTES = {"MPI_CHAR": 1, "MPI_SIGNED_CHAR": 1, "MPI_UNSIGNED_CHAR": 1, "MPI_BYTE": 1, "MPI_SHORT": 2,
              "MPI_UNSIGNED_SHORT": 2, "MPI_INT": 4, "MPI_UNSIGNED": 4, "MPI_FLOAT": 4, "MPI_LONG": 8,
              "MPI_UNSIGNED_LONG": 8, "MPI_LONG_LONG_INT": 8, "MPI_DOUBLE": 8, "MPI_DATATYPE_ERROR": 0,
              "MPI_DATATYPE_NULL": 0}
OPS = {"MPI_Barrier": "BARRIER", "MPI_Bcast": "BCAST", "MPI_Gather": "GATHER", "MPI_Gatherv": "GATHERV",
       "MPI_Scatter": "SCATTER", "MPI_Scatterv": "SCATTERV", "MPI_Allgather": "ALLGATHER",
       "MPI_Allgatherv": "ALLGATHERV", "MPI_Alltoall": "ALLTOALL", "MPI_Alltoallv": "ALLTOALLV",
       "MPI_Allreduce": "ALLREDUCE", "MPI_Reduce": "REDUCE", "MPI_Reduce_scatter": "REDUCE_SCATTER",
       "MPI_Scan": "SCAN", "MPI_Exscan": "EXSCAN"}
PER_PEER = {"MPI_Gather", "MPI_Allgather", "MPI_Alltoall"}
SENDS = {"MPI_Send", "MPI_Isend", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Issend", "MPI_Sendrecv"}
failures = []


def fail(fx, msg):
    failures.append("%s: %s" % (fx, msg))


def calls(path):
    """(name, {arg: value}) of every call in an oracle text; a value is an
    int, a list of ints, (id, type name) for handles, or None (IGNORED)."""
    name, args = None, None
    for line in open(path, errors="replace"):
        m = re.match(r"^(\w+) (entering|returning) at ", line)
        if m:
            if m.group(2) == "entering":
                name, args = m.group(1), {}
            elif name:
                yield name, args
                name = None
            continue
        m = re.match(r"^\S+ (\w+)(?:\[\d+\])?=(.*)$", line.rstrip("\n"))
        if not m or args is None:
            continue
        key, val = m.groups()
        if val == "<IGNORED>":
            args[key] = None
        elif val.startswith("["):
            args[key] = [int(x) for x in val.strip("[]").split(",") if x.strip().lstrip("-").isdigit()]
        else:
            h = re.match(r"^(-?\d+) \((.+)\)$", val)
            args[key] = (int(h.group(1)), h.group(2)) if h else (int(val) if re.match(r"^-?\d+$", val) else val)


def count_of(v):
    return 0 if v is None else sum(v) if isinstance(v, list) else v


def type_bytes(fx, v):
    if v is None:
        return 0
    if v[1] not in TYPE_BYTES:
        fail(fx, "no size known for %s" % v[1])
        return 0
    return TYPE_BYTES[v[1]]


def buffer_bytes(fx, name, a):
    """(sent, received) bytes of a call's buffer arguments."""
    one = count_of(a.get("count")) if "count" in a else 0
    one_type = a.get("datatype")
    sc = a["sendcounts"] if "sendcounts" in a else a.get("sendcount", one if "sendcount" not in a else None)
    if "sendcounts" not in a and "sendcount" not in a:
        sc = one
    rc = a["recvcounts"] if "recvcounts" in a else a["recvcount"] if "recvcount" in a else one
    if name == "MPI_Reduce_scatter":
        sc = rc
    sent = count_of(sc) * type_bytes(fx, a["sendtype"] if "sendtype" in a else one_type)
    recv = count_of(rc)
    if name in PER_PEER and "commsize" in a:
        recv *= a["commsize"]
    recv *= type_bytes(fx, a["recvtype"] if "recvtype" in a else one_type)
    return sent, recv


def split_members(fx, texts):
    """Per rank, the members (world ranks) of the communicator each
    collective call is made on, in call order: world, or the k-th split of
    world (ranks of the same color in their k-th split, by key then rank)."""
    splits, seqs = {}, {}
    for path in texts:
        rank = int(re.search(r"-(\d+)\.bin\.ascii\.txt$", path).group(1))
        splits[rank], seqs[rank] = [], []
        for name, a in calls(path):
            if name == "MPI_Comm_split":
                if a["oldcomm"][1] != "MPI_COMM_WORLD":
                    fail(fx, "this test knows splits of MPI_COMM_WORLD only")
                splits[rank].append((a["color"], a["key"], a["newcomm"][0]))
            elif name in ("MPI_Comm_dup", "MPI_Comm_create"):
                fail(fx, "this test does not replay %s" % name)
            elif name in OPS:
                seqs[rank].append((a["comm"], len(splits[rank])))
    world = sorted(splits)
    out = {}
    for rank, seq in seqs.items():
        out["rank%d" % rank] = []
        for (handle, name), n_splits in seq:
            if name == "MPI_COMM_WORLD":
                out["rank%d" % rank].append(world)
                continue
            k = max(i for i in range(n_splits) if splits[rank][i][2] == handle)
            color = splits[rank][k][0]
            peers = [(splits[r][k][1], r) for r in world if splits[r][k][0] == color]
            out["rank%d" % rank].append([r for _, r in sorted(peers)])
    return out


def produced_members(archive):
    """Per rank, the members of the communicator of each MPI_COLLECTIVE_END,
    in event order, from otf2-print's definitions."""
    anchor = os.path.join(archive, "traces.otf2")
    g = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True).stdout
    group_of = {m.group(1): m.group(2) for m in re.finditer(r'^LOCATION\s+(\d+)\s+Name: .*Group: "([^"]*)"', g, re.M)}
    members = {m.group(1): [int(x) for x in re.findall(r"(\d+) \(", m.group(2))]
               for m in re.finditer(r"^GROUP\s+(\d+)\s+.*Type: COMM_GROUP.*Members: (.*)$", g, re.M)}
    comm_group = {m.group(1): m.group(2) for m in re.finditer(r'^COMM\s+(\d+)\s+.*Group: "[^"]*" <(\d+)>', g, re.M)}
    out = collections.defaultdict(list)
    for line in subprocess.run(["otf2-print", anchor], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r'^MPI_COLLECTIVE_END\s+(\d+)\s+\d+\s+.*Communicator: "[^"]*" <(\d+)>', line)
        if m:
            out[group_of.get(m.group(1), "?")].append(members.get(comm_group.get(m.group(2)), None))
    return out


def expected(fx, d):
    colls, sends = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    texts = sorted(glob.glob(os.path.join(d, "*.bin.ascii.txt")))
    if not texts:
        fail(fx, "no oracle texts")
    for path in texts:
        rank = "rank%d" % int(re.search(r"-(\d+)\.bin\.ascii\.txt$", path).group(1))
        if not re.search(r"entering at walltime (?!0\.000000000, cputime 0\.000000000 )", open(path, errors="replace").read()):
            continue  # no times (a -notime trace): nothing is drawn, as documented
        for name, a in calls(path):
            if name in OPS:
                root = a.get("root")
                colls[rank][(OPS[name], a["comm"][0] if "comm" in a else 0,
                             "NONE" if root is None else str(root)) + buffer_bytes(fx, name, a)] += 1
            elif name in SENDS and isinstance(a.get("dest"), int) and a["dest"] >= 0:
                tag = a["sendtag"] if "sendtag" in a else a.get("tag", 0)
                sends[rank][(a["dest"], tag, buffer_bytes(fx, name, a)[0])] += 1
    return colls, sends


def produced(fx, archive):
    anchor = os.path.join(archive, "traces.otf2")
    g = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True).stdout
    group_of = {}
    for m in re.finditer(r'^LOCATION\s+(\d+)\s+Name: .*Group: "([^"]*)"', g, re.M):
        group_of[m.group(1)] = m.group(2)
    r = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    if r.returncode != 0 or "warning" in r.stderr:
        fail(fx, "otf2-print: " + r.stderr[:300])
    colls, sends = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    begins = collections.Counter()
    for line in r.stdout.splitlines():
        m = re.match(r"^(MPI_COLLECTIVE_BEGIN|MPI_COLLECTIVE_END|MPI_I?SEND)\s+(\d+)\s+\d+\s*(.*)$", line)
        if not m:
            continue
        kind, loc, rest = m.groups()
        rank = group_of.get(loc, "?")
        if kind == "MPI_COLLECTIVE_BEGIN":
            begins[rank] += 1
        elif kind == "MPI_COLLECTIVE_END":
            e = re.match(r'Operation: (\w+), Communicator: "communicator (-?\d+)" <\d+>, Root: (\w+).*'
                         r'Sent: (\d+), Received: (\d+)', rest)
            colls[rank][(e.group(1), int(e.group(2)), e.group(3), int(e.group(4)), int(e.group(5)))] += 1
        else:
            e = re.match(r"Receiver: (\d+) .*Tag: (\d+), Length: (\d+)", rest)
            sends[rank][tuple(int(x) for x in e.groups())] += 1
    return colls, sends, begins


def check_paraver(fx, d, prv, want_sends):
    """Paraver communication records = the oracle's sends (sorted and
    labelled as target_checks.paraver_check wants), but the messages the
    summary says were received before sent (unsynchronised clocks)."""
    r = subprocess.run([CLI, "convert", "--force", "--allow-loss", d, "-o", prv], capture_output=True, text=True)
    if r.returncode != 0:
        fail(fx, "convert to paraver: " + r.stderr[:300])
        return
    problem, _ = target_checks.paraver_check(prv)
    if problem:
        fail(fx, "paraver: " + problem)
    want = collections.Counter()
    for rank, sends in want_sends.items():
        for (dest, tag, size), n in sends.items():
            want[(int(rank[4:]) + 1, dest + 1, size, tag)] += n
    got = collections.Counter((c[0], c[2], c[4], c[5]) for c in target_checks.paraver_comms(prv))
    m = re.search(r"(\d+) messages received before they were sent", r.stderr)
    backwards = int(m.group(1)) if m else 0
    if got - want or sum(want.values()) - sum(got.values()) != backwards:
        fail(fx, "paraver communications: oracle %s, prv %s" % (dict(want), dict(got)))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    checked = 0
    for fx in FIXTURES:
        d = os.path.join(DATA, "dumpi", fx)
        archive = os.path.join(OUT, fx + ".otf2")
        r = subprocess.run([CLI, "convert", "--force", "--allow-loss", d, "-o", archive, "-q"], capture_output=True, text=True)
        if not any(re.search(r"entering at walltime (?!0\.000000000, cputime 0\.000000000 )", open(p).read())
                   for p in glob.glob(os.path.join(d, "*.bin.ascii.txt"))):
            # no call has a time (a -notime trace): refused before any output exists
            if r.returncode != 2 or os.path.exists(archive):
                fail(fx, "a trace without clocks: exit %d, output %s" % (r.returncode, os.path.exists(archive)))
            continue
        if r.returncode != 0:
            fail(fx, "convert: " + r.stderr[:300])
            continue
        want_c, want_s = expected(fx, d)
        got_c, got_s, begins = produced(fx, archive)
        timed = [p for p in sorted(glob.glob(os.path.join(d, "*.bin.ascii.txt")))
                 if re.search(r"entering at walltime (?!0\.000000000, cputime 0\.000000000 )", open(p).read())]
        want_m, got_m = split_members(fx, timed), produced_members(archive)
        for rank in set(want_m) | set(got_m):
            if want_m.get(rank, []) != got_m.get(rank, []):
                fail(fx, "%s communicator members: oracle %s, otf2 %s" % (rank, want_m.get(rank), got_m.get(rank)))
        for rank in set(want_c) | set(got_c):
            if want_c[rank] != got_c[rank]:
                fail(fx, "%s collectives: oracle %s, otf2 %s" % (rank, dict(want_c[rank]), dict(got_c[rank])))
            if begins[rank] != sum(want_c[rank].values()):
                fail(fx, "%s: %d collective begins for %d calls" % (rank, begins[rank], sum(want_c[rank].values())))
        for rank in set(want_s) | set(got_s):
            if want_s[rank] != got_s[rank]:
                fail(fx, "%s sends: oracle %s, otf2 %s" % (rank, dict(want_s[rank]), dict(got_s[rank])))
        check_paraver(fx, d, os.path.join(OUT, fx + ".prv"), want_s)
        checked += sum(sum(c.values()) for c in want_c.values()) + sum(sum(c.values()) for c in want_s.values())
    if checked == 0:
        fail("all", "no collective or send checked")
    for f in failures:
        print("FAIL", f)
    print("%d collective calls and sends checked, %d failures" % (checked, len(failures)))
    return 1 if failures else 0


sys.exit(main())
