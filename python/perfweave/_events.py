"""_events.py — records in Pipit's event layout, so that Pipit's analyses
(and code written for them) run on any format perfweave reads.

Pipit (hpcgroup/pipit, pipit/readers/*.py) keeps a trace as one DataFrame
of events with "Timestamp (ns)", "Event Type" (Enter, Leave or Instant),
"Name", "Process" and "Thread"; attributes follow here as one column per
field (Pipit's OTF2 reader gathers them in a dict column instead).

Mapping: a record that begins a span is an Enter, one that ends it a Leave;
a span whose end the format knows (an MPI call of DUMPI) gives an Enter at
its begin and a Leave at its end; every other record is an Instant.
Process is the number of the location's process (rank) and Thread the
location's own number when it is a thread, else 0.  Events are sorted by
time (stable: records at the same time keep the merge's order)."""
import json

import numpy as np
import pandas as pd

# pw_record_kind and pw_location_kind values (include/perfweave.h).
_SPAN, _BEGIN, _END = 1, 2, 3
_LOC_PROCESS, _LOC_THREAD = 2, 3


def _process_thread(ds):
    """Per location index, its Process and Thread numbers."""
    locs = ds._location_list()
    process = np.zeros(len(locs), np.int64)
    thread = np.zeros(len(locs), np.int64)
    for i, loc in enumerate(locs):
        j, top = i, i
        while j >= 0 and locs[j].kind != _LOC_PROCESS:
            top = j
            j = locs[j].parent
        owner = locs[j] if j >= 0 else locs[top]
        process[i] = owner.id if owner.id >= 0 else owner.index
        thread[i] = loc.id if loc.kind == _LOC_THREAD and loc.id >= 0 else 0
    return process, thread


def pipit_events(ds, cols):
    """The DataFrame of events of a dataset's records (cols: BatchColumns)."""
    base = cols.base
    records = ds._frame(cols)
    virtual = base["clock"] == 2
    if virtual.any():
        time, end = np.where(virtual, base["vt"], base["t"]), np.where(virtual, base["vt_end"],
                                                                         base["t_end"])
    else:
        time, end = base["t"], base["t_end"]
    kind = base["kind"]
    closed = (kind == _SPAN) & (base["has_end"] != 0)
    event = np.full(cols.n, "Instant", object)
    event[(kind == _BEGIN) | closed] = "Enter"
    event[kind == _END] = "Leave"
    process, thread = _process_thread(ds)
    loc = base["location"]
    out = pd.DataFrame({"Timestamp (ns)": time, "Event Type": event,
                        "Name": records["type"].astype(str).to_numpy(object),
                        "Process": process[loc], "Thread": thread[loc]})
    for name in records.columns[3:]:
        out[name] = records[name].array
    if closed.any():
        leaves = out[closed].copy()
        leaves["Timestamp (ns)"] = end[closed]
        leaves["Event Type"] = "Leave"
        out = pd.concat([out, leaves], ignore_index=True)
    # Pipit keeps events in time order (ROSS records come in real-time
    # order, their virtual times are not sorted).
    out = out.iloc[np.argsort(out["Timestamp (ns)"].to_numpy(), kind="stable")]
    out["Event Type"] = pd.Categorical(out["Event Type"], ["Enter", "Leave", "Instant"])
    out["Name"] = out["Name"].astype("category")
    return out.reset_index(drop=True)


def state_intervals(jsonl, origin, columns):
    """The intervals of the state changes pw_dump_states writes (one JSON
    object a line, times in ns from the first event, `origin` on the
    clock): a value holds from its change to the next change of the same
    channel of the same row, the last ones to the last change."""
    open_at, rows, last = {}, [], 0
    for line in jsonl.splitlines():
        c = json.loads(line)
        key = (c["loc"], c["view"], c["type"])
        last = max(last, c["t"])
        held = open_at.pop(key, None)
        if held is not None and held[1]["value"]:
            rows.append(_interval(held, c["t"], origin))
        open_at[key] = (c["t"], c)
    for held in open_at.values():
        if held[1]["value"] and last > held[0]:
            rows.append(_interval(held, last, origin))
    rows.sort(key=lambda r: (r[6], r[0], r[2]))
    return pd.DataFrame(rows, columns=columns)


def _interval(held, end, origin):
    t, c = held
    return (c["loc"], c["view"], c["type"], c["channel"], c["value"], c["label"], origin + t, origin + end)


def state_events(ds, events, states, start, end):
    """events with an Enter and a Leave per labelled thread state (Pipit's
    layout, Name = the state's label, Channel = its channel), in time
    order; start <= t < end as for the records."""
    threads = states[(states["view"] == "thread") & states["label"].notna()]
    if start is not None:
        threads = threads[threads["end_ns"] > start]
    if end is not None:
        threads = threads[threads["start_ns"] < end]
    if threads.empty:
        return events
    process, thread = _process_thread(ds)
    index = {loc.path.decode(): loc.index for loc in ds._location_list()}
    at = threads["loc"].map(index).fillna(0).astype(np.int64).to_numpy()
    one = {"Name": threads["label"].to_numpy(object), "Process": process[at], "Thread": thread[at],
           "Channel": threads["channel"].to_numpy(object)}
    enters = pd.DataFrame(dict(one, **{"Timestamp (ns)": threads["start_ns"].to_numpy(), "Event Type": "Enter"}))
    leaves = pd.DataFrame(dict(one, **{"Timestamp (ns)": threads["end_ns"].to_numpy(), "Event Type": "Leave"}))
    out = pd.concat([events.astype({"Event Type": object, "Name": object}), enters, leaves], ignore_index=True)
    out = out.iloc[np.argsort(out["Timestamp (ns)"].to_numpy(), kind="stable")]
    out["Event Type"] = pd.Categorical(out["Event Type"], ["Enter", "Leave", "Instant"])
    out["Name"] = out["Name"].astype("category")
    return out.reset_index(drop=True)
