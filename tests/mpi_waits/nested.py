"""nested.py - the MPI analyses' flat tables of `stats --json` (issue 28:
the same tables in every style) regrouped in the nested shape these tests
compare with their oracles: wait_states[kind] = {total_s, by_rank,
by_function}; critical_path = {length_s, imbalance_s, by_rank,
by_function}; time_profile = {bins, bin_s, functions: {name: [s per
bin]}, idle}; comm_over_time = {messages: [...], bytes: [...]}."""

WAITS = ["late_sender", "late_receiver", "wait_nxn", "wait_barrier", "late_broadcast", "early_reduce"]


def nested(report):
    out = dict(report)
    if isinstance(report.get("wait_states"), list):
        ws = {}
        for kind in WAITS:
            col = kind + "_s"
            by_rank = {str(r["rank"]): r[col] for r in report["wait_states"]}
            by_fn = {r["function"]: r[col] for r in report.get("wait_states_by_function", []) if r[col]}
            ws[kind] = {"total_s": sum(by_rank.values()), "by_rank": by_rank, "by_function": by_fn}
        out["wait_states"] = ws
    if "critical_path_ranks" in report:
        cp = dict(report.get("critical_path", {}))
        cp["by_rank"] = {str(r["rank"]): r["time_s"] for r in report["critical_path_ranks"]}
        cp["by_function"] = {r["function"]: r["time_s"] for r in report.get("critical_path_functions", [])}
        out["critical_path"] = cp
    if isinstance(report.get("time_profile"), list):
        rows = report["time_profile"]
        fixed = {"bin", "start_s", "idle"}
        names = [k for k in (rows[0] if rows else {}) if k not in fixed]
        out["time_profile"] = {
            "bins": len(rows),
            "bin_s": rows[1]["start_s"] - rows[0]["start_s"] if len(rows) > 1 else 0,
            "starts_s": [r["start_s"] for r in rows],
            "functions": {n: [r[n] for r in rows] for n in names},
            "idle": [r["idle"] for r in rows]}
    if isinstance(report.get("comm_over_time"), list):
        rows = report["comm_over_time"]
        out["comm_over_time"] = {"messages": [r["messages"] for r in rows], "bytes": [r["bytes"] for r in rows]}
    return out
