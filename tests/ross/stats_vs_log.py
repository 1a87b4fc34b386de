#!/usr/bin/env python3
"""stats_vs_log.py CLI DATA — `perfweave stats --json` against ROSS's own
end-of-run statistics (ross-stdout.log beside each fixture):

* the RT run ends with a final sample at finalize, so its totals equal
  ROSS's counters exactly (events processed, rolled back, aborted, net
  events, rollbacks, secondary rollbacks, GVT computations, efficiency);
* GVT sampling stops at the last GVT, but every rollback happens before it
  in the 4-rank "known" run, so its rollback totals are exact too;
* a full-mode event trace has one record per processed event.
A missing fixture fails."""
import json, os, re, subprocess, sys

CLI, DATA = sys.argv[1], os.path.join(sys.argv[2], "ross")
failures = 0
checks = 0


def log_values(run):
    """The first value of each ROSS statistic in the run's log."""
    out = {}
    with open(os.path.join(DATA, run, "ross-stdout.log")) as f:
        for line in f:
            m = re.match(r"\s+([A-Za-z][A-Za-z ()/.-]*?)\s{2,}(-?[0-9.]+)", line)
            if m and m.group(1) not in out:
                out[m.group(1)] = float(m.group(2))
    return out


def stats(run):
    res = subprocess.run([CLI, "stats", "--json", os.path.join(DATA, run)], capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("FAIL: stats %s exit %d: %s" % (run, res.returncode, res.stderr))
    return json.loads(res.stdout)


def expect(what, got, want):
    global failures, checks
    checks += 1
    if got != want:
        failures += 1
        print("FAIL: %s: %r expected (ross-stdout.log), got %r" % (what, want, got))


rt_log = log_values("phold-np2-rt-pekp")
rt = stats("phold-np2-rt-pekp")["totals"][0]
expect("rt mode", rt["mode"], "rt")
for key, label in [("processed", "Total Events Processed"), ("rolled_back", "Events Rolled Back"),
                   ("aborted", "Events Aborted (part of RBs)"), ("net_events", "Net Events Processed"),
                   ("rollbacks", "Total Roll Backs"), ("secondary_rollbacks", "Secondary Roll Backs"),
                   ("gvts", "Total GVT Computations")]:
    expect("rt " + key, rt[key], int(rt_log[label]))
expect("rt efficiency (2 decimals, as ROSS prints it)", round(rt["efficiency"], 2), rt_log["Efficiency"])

np4_log = log_values("known-np4-gvt-model-evtrace")
np4 = stats("known-np4-gvt-model-evtrace")
gvt = np4["totals"][0]
for key, label in [("rolled_back", "Events Rolled Back"), ("rollbacks", "Total Roll Backs"),
                   ("secondary_rollbacks", "Secondary Roll Backs")]:
    expect("np4 gvt " + key, gvt[key], int(np4_log[label]))
expect("np4 event trace", np4["evtrace"]["events"], int(np4_log["Total Events Processed"]))

for run in ["phold-np2-evtrace-full", "known-np1-seq"]:
    expect(run + " event trace", stats(run)["evtrace"]["events"], int(log_values(run)["Total Events Processed"]))

print("%d values compared; %d passed, %d failed" % (checks, checks - failures, failures))
sys.exit(1 if failures else 0)
