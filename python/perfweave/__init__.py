"""perfweave — any trace perfweave reads (ovni, SST DUMPI, HPCToolkit, ROSS,
GPU power trees), as pandas DataFrames, at C speed.

    import perfweave
    with perfweave.open("trace/") as ds:
        print(ds.format, ds.version)
        df = ds.records()              # loc, t, type, one column per field
        summary = ds.stats()           # the dict of `perfweave stats --json`

The package calls libperfweave through ctypes (see _lib.py for where it
looks: $PERFWEAVE_LIBRARY, the installed tree, build/release).  Records come
in columnar batches (pw_batch_next), so Python does no work per record for
numeric fields.  Errors raise PerfweaveError carrying the library's message
(file, byte offset, what was expected)."""
import ctypes
import json
import threading

import numpy as np
import pandas as pd

from . import _columns, _lib
from ._events import pipit_events, state_events, state_intervals

__all__ = ["open", "Dataset", "PerfweaveError", "DataError", "formats", "__version__"]
__version__ = "0.1.0"


class PerfweaveError(Exception):
    """A failure the library reported.  status: "data", "format", "usage",
    "io" or "nomem"; file and offset (None when not about a byte) as the
    library named them; str(e) is the library's complete message.  When a
    read fails part way, `partial` holds what it read before (else None)."""
    partial = None

    def __init__(self, status, message, file=None, offset=None, code=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.file = file or None
        self.offset = offset
        self.code = code


class DataError(PerfweaveError):
    """The input is damaged.  `partial` holds what could be read before the
    damage when the call returns data (a DataFrame or a dict), else None."""


def _raise(err):
    """The library's error as an exception: DataError for damaged input."""
    status = _lib.lib.pw_status_name(err.status).decode()
    cls = DataError if status == "data" else PerfweaveError
    raise cls(status, err.message.decode(errors="replace"), err.file.decode(errors="replace"),
              err.offset if err.has_offset else None)


def _check(status, err):
    """Raises for a failed call (negative status); PW_OK and PW_END pass."""
    if status < 0:
        _raise(err)
    return status


def formats():
    """The names of the formats this library reads, in probe order."""
    return [_lib.lib.pw_format_name(i).decode() for i in range(_lib.lib.pw_format_count())]


def _format_flags():
    """kwarg name -> "<format>.<key>" for every format option: the CLI's
    flag with '_' for '-' (ross_lp_layout=36 is --ross-lp-layout 36)."""
    flags = {}
    for i in range(_lib.lib.pw_format_count()):
        fmt = _lib.lib.pw_format_name(i).decode()
        opts = _lib.lib.pw_format_options(i)
        j = 0
        while opts and opts[j].key:
            flags[opts[j].flag.decode().replace("-", "_")] = "%s.%s" % (fmt, opts[j].key.decode())
            j += 1
    return flags


def _options_text(value):
    """An option's value as the CLI would pass it (a switch: "1")."""
    if value is True:
        return "1"
    return str(value)


# Options every format reads (include/perfweave.h, pw_options): "analyses"
# ("0": stats and check without the registered analyses, the format's own
# summary at full speed).
_COMMON_OPTIONS = ("analyses",)

# What a program will ask of the dataset it opens (pw_options.wants, the
# PW_WANT_* bits of include/perfweave.h), by name.
_WANTS = {"stats": 1 << 0, "records": 1 << 1, "timeline": 1 << 2}


def _wants_bits(wants, timeline):
    """pw_options.wants from open()'s wants= (names of _WANTS) and its
    older timeline=True (records shaped for timeline viewers, anything
    else still asked as when nothing is said)."""
    if isinstance(wants, str):
        wants = (wants,)
    bits = 0
    for name in wants or ():
        if name not in _WANTS:
            raise TypeError("perfweave.open: unknown want %r (wants: %s)" % (name, ", ".join(_WANTS)))
        bits |= _WANTS[name]
    if timeline:
        bits = (bits or _WANTS["stats"] | _WANTS["records"]) | _WANTS["timeline"]
    return bits


class _Options:
    """A pw_options and the C strings it points to (kept alive with it)."""

    def __init__(self, format=None, **options):
        self.kwargs = dict(options, format=format)
        flags = _format_flags()
        threads = options.pop("threads", 0)
        wants = _wants_bits(options.pop("wants", None), options.pop("timeline", False))
        pairs = []
        for name, value in options.items():
            if value is None or value is False:
                continue
            if "." in name or name in _COMMON_OPTIONS:
                key = name
            elif name in flags:
                key = flags[name]
            else:
                raise TypeError("perfweave.open: unknown option %r (format options: %s)"
                                % (name, ", ".join(sorted(flags)) or "none"))
            pairs.append((key.encode(), _options_text(value).encode()))
        self.kv = (_lib.OptionKV * max(1, len(pairs)))(*[_lib.OptionKV(k, v) for k, v in pairs])
        self.c = _lib.Options(format.encode() if format else None, int(threads or 0),
                              len(pairs), self.kv, wants)


def open(path, format=None, **options):
    """Open what `path` holds (a file or a directory).  format forces a
    format (else it is detected); threads=N sets the worker threads of
    stats/check/convert; format options are the CLI's flags with '_' for '-'
    (ross_lp_layout="36") or their "<format>.<key>" names; analyses="0"
    leaves the analyses (MPI wait states, the ovni emulator) out of
    stats(); wants= names what you will ask ("stats", "records",
    "timeline": records shaped for timeline viewers), so that formats skip
    the rest at open (default: stats and records); timeline=True adds
    "timeline" to it."""
    return Dataset(path, format, **options)


class _Prefetch:
    """Calls pw_batch_next on a thread of its own, so that the library
    decodes the next batch while Python converts the last one (ctypes
    lets go of the GIL during the call)."""

    def __init__(self, reader):
        self.reader = reader
        self.err = _lib.Error()
        self.batch = ctypes.POINTER(_lib.Batch)()
        self.status = None
        self.stopping = False
        self.go = threading.Semaphore(0)
        self.done = threading.Semaphore(0)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while True:
            self.go.acquire()
            if self.stopping:
                return
            self.status = _lib.lib.pw_batch_next(self.reader, ctypes.byref(self.batch),
                                                 ctypes.byref(self.err))
            self.done.release()

    def request(self):
        self.go.release()

    def wait(self):
        self.done.acquire()
        return self.status

    def close(self):
        """Stops the thread (after the call under way, if any)."""
        self.stopping = True
        self.go.release()
        self.thread.join()


def _flat_row(row, prefix=""):
    """A report row with its nested objects' scalars as dotted keys; nested
    arrays are not columns (the text and CSV tables leave them out too)."""
    out = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(_flat_row(v, prefix + k + "."))
        elif not isinstance(v, list):
            out[prefix + k] = v
    return out


class Dataset:
    """An opened dataset: metadata, locations, records, reports.  Use it as
    a context manager, or call close()."""

    def __init__(self, path, format=None, **options):
        self._ds = None
        self._readers = 0      # batch readers under way (iter_batches not finished)
        self._closing = False  # close() waits for them
        self._path = str(path)
        self._opt = _Options(format, **options)
        err = _lib.Error()
        ds = ctypes.c_void_p()
        _check(_lib.lib.pw_open(self._path.encode(), ctypes.byref(self._opt.c), ctypes.byref(ds),
                                ctypes.byref(err)), err)
        self._ds = ds
        self._schemas = None
        self._type_names = None

    # -- lifetime --------------------------------------------------------
    def close(self):
        """Releases the dataset.  An iter_batches() under way raises
        ValueError at its next step, and the library's dataset is released
        when it has let go of its reader (never under it)."""
        self._closing = True
        if self._ds and not self._readers:
            _lib.lib.pw_close(self._ds)
            self._ds = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if not self._ds or self._closing:
            raise ValueError("perfweave: the dataset is closed")
        return self._ds

    # -- metadata --------------------------------------------------------
    @property
    def path(self):
        return _lib.lib.pw_dataset_path(self._handle()).decode()

    @property
    def format(self):
        return _lib.lib.pw_dataset_format(self._handle()).decode()

    @property
    def version(self):
        return _lib.lib.pw_dataset_version(self._handle()).decode()

    def properties(self):
        """The dataset's properties (key -> value strings), in their order."""
        ds = self._handle()
        out = {}
        k, v = ctypes.c_char_p(), ctypes.c_char_p()
        for i in range(_lib.lib.pw_dataset_prop_count(ds)):
            _lib.lib.pw_dataset_prop(ds, i, ctypes.byref(k), ctypes.byref(v))
            out[k.value.decode()] = v.value.decode()
        return out

    def _location_list(self):
        ds = self._handle()
        return [_lib.lib.pw_location_get(ds, i).contents
                for i in range(_lib.lib.pw_location_count(ds))]

    def _kind_name(self, kind):
        return _lib.lib.pw_location_kind_name(kind).decode()

    def info(self, locations=False):
        """The dict `perfweave info --json` prints (with locations=True,
        that of `info --json --locations`).  Reads every record once."""
        ds = self._handle()
        return json.loads(self._report_json(
            lambda report, err: _lib.lib.pw_info(ds, report, 1 if locations else 0, err)))

    def locations(self):
        """The location tree as a DataFrame indexed by location number:
        path, kind, name, id (the tool's own number or -1), parent (the
        parent's index, -1 at the top), file, has_records."""
        rows = [(loc.path.decode(), self._kind_name(loc.kind), loc.name.decode(), loc.id,
                 loc.parent, loc.file.decode() if loc.file else None, bool(loc.has_records))
                for loc in self._location_list()]
        return pd.DataFrame(rows, columns=["path", "kind", "name", "id", "parent", "file",
                                           "has_records"])

    def schemas(self):
        """The record types: per schema index, (name, kind, [(field, type, unit)])."""
        ds = self._handle()
        out = []
        for i in range(_lib.lib.pw_schema_count(ds)):
            sc = _lib.lib.pw_schema_get(ds, i).contents
            fields = [(sc.fields[j].name.decode(), sc.fields[j].type,
                       sc.fields[j].unit.decode() if sc.fields[j].unit else None)
                      for j in range(sc.n_fields)]
            out.append((sc.name.decode(), sc.kind, fields))
        return out

    def diagnostics(self):
        """Findings met so far: dicts of severity, code, file, offset, message."""
        ds = self._handle()
        out = []
        for i in range(_lib.lib.pw_dataset_diag_count(ds)):
            d = _lib.lib.pw_dataset_diag(ds, i).contents
            out.append({"severity": ("note", "warning", "error")[d.severity],
                        "code": d.code.decode(), "file": d.file.decode() if d.file else None,
                        "offset": d.offset if d.has_offset else None,
                        "message": d.message.decode(errors="replace")})
        return out

    def _raise_if_damaged(self, partial=None):
        """DataError for the first error-level diagnostic (what the CLI
        reports and exits 1 for), with what was read as e.partial."""
        if _lib.lib.pw_dataset_worst_severity(self._handle()) < _lib.SEV_ERROR:
            return
        d = next(d for d in self.diagnostics() if d["severity"] == "error")
        e = DataError("data", d["message"], d["file"], d["offset"], d["code"])
        e.partial = partial
        raise e

    # -- records ---------------------------------------------------------
    def _schema_fields(self):
        if self._schemas is None:
            self._schemas = self.schemas()
        return [[f[0] for f in sc[2]] for sc in self._schemas]

    def _field_order(self):
        order = {}
        for names in self._schema_fields():
            for name in names:
                order.setdefault(name, None)
        return list(order)

    def _location_indices(self, locations, descendants=True):
        """Location numbers of paths or numbers (with their descendants)."""
        if locations is None:
            return None
        if isinstance(locations, (str, int, np.integer)):
            locations = [locations]
        all_locs = self._location_list()
        paths = {loc.path.decode(): loc.index for loc in all_locs}
        chosen = set()
        for loc in locations:
            if isinstance(loc, str) and loc not in paths:
                raise PerfweaveError("usage", "%s: no location %r" % (self.path, loc))
            chosen.add(paths[loc] if isinstance(loc, str) else int(loc))
        if descendants:
            for loc in all_locs:  # parents come before their children
                if loc.parent in chosen:
                    chosen.add(loc.index)
        return sorted(chosen)

    def _filter(self, types, locs, start, end):
        """A function giving the mask of rows to keep, or None."""
        if types is None and locs is None and start is None and end is None:
            return None
        if isinstance(types, str):
            types = [types]

        def keep(base):
            mask = np.ones(len(base["t"]), bool)
            if locs is not None:
                mask &= np.isin(base["location"], locs)
            if types is not None:
                wanted = [i for i, name in enumerate(self._type_names) if name in types]
                mask &= np.isin(base["type"], wanted)
            if start is not None or end is not None:
                t = np.where(base["clock"] == _lib.CLOCK_VIRTUAL, base["vt"], base["t"]) \
                    if "vt" in base else base["t"]
                timed = base["clock"] != _lib.CLOCK_NONE
                if start is not None:
                    mask &= timed & (t >= start)
                if end is not None:
                    mask &= timed & (t < end)
            return mask
        return keep

    def _batch_columns(self, types, locations, start, end, fields, batch_size, stream=None,
                       spans=False):
        """BatchColumns per batch, read through pw_batch_next."""
        ds = self._handle()
        locs = self._location_indices(locations)
        one = -1 if stream is None else self._location_indices(stream, descendants=False)[0]
        wanted = set([fields] if isinstance(fields, str) else fields) if fields is not None else None
        self._schema_fields()
        row_filter = self._filter(types, locs, start, end)
        self._type_names = None  # type ids beyond the schemas are per reader
        err = _lib.Error()
        reader = ctypes.c_void_p()
        _check(_lib.lib.pw_batch_open(ds, one, batch_size, ctypes.byref(reader), ctypes.byref(err)),
               err)
        ahead = _Prefetch(reader)
        self._readers += 1
        try:
            columns = []
            ahead.request()
            s = ahead.wait()
            while s != _lib.END:
                _check(s, ahead.err)
                b = ahead.batch.contents
                types = _columns.type_codes(b, len(self._schemas))
                self._type_names = self._types_of(reader, types)
                while len(columns) < b.n_columns:
                    columns.append(_lib.lib.pw_batch_column_name(reader, len(columns)).decode())
                snap = _columns.Snapshot(b, types, columns, wanted, spans)
                # The next batch is decoded while this one is converted; the
                # library is idle again before the caller gets control (the
                # dataset is single-threaded for everything else).
                ahead.request()
                cols = _columns.read_batch(snap, row_filter)
                s = ahead.wait()
                yield cols
        finally:
            ahead.close()
            _lib.lib.pw_batch_close(reader)
            self._readers -= 1
            if self._closing:
                self.close()

    def _types_of(self, reader, ids):
        """Type names for every id given so far: the schemas', then the
        other types' (ids with OTHER_TYPE set, renumbered after them)."""
        names = self._type_names or [sc[0] for sc in self._schemas]
        top = int(ids.max())
        while len(names) <= top:
            other = len(names) - len(self._schemas)
            names = names + [_lib.lib.pw_batch_type_name(reader, _lib.OTHER_TYPE | other).decode()]
        return names

    def _frame(self, cols, fields=None):
        order = self._field_order() if fields is None else \
            ([fields] if isinstance(fields, str) else list(fields))
        paths = [loc.path.decode() for loc in self._location_list()]
        if self._type_names is None:
            self._type_names = [sc[0] for sc in self._schemas]
        return _columns.frame(cols, paths, self._type_names,
                              order, keep_empty=fields is not None)

    def iter_batches(self, types=None, locations=None, start=None, end=None, fields=None,
                     batch_size=1 << 16, strict=True, stream=None):
        """records() in DataFrames of at most batch_size records each, for
        traces larger than memory (a batch's columns are the fields its
        records carry)."""
        for cols in self._batch_columns(types, locations, start, end, fields, batch_size, stream):
            if cols.n:
                yield self._frame(cols, fields)
        if strict:
            self._raise_if_damaged()

    def records(self, types=None, locations=None, start=None, end=None, fields=None,
                batch_size=1 << 16, strict=True, stream=None, ends=False):
        """The records as a DataFrame: loc (location path), t (ns, or virtual
        time for ROSS), type, then one column per field: the rows and values
        of `perfweave dump --jsonl` (time order; one location: file order).
        Filters: types (names), locations (paths or indices: records of
        these locations and their descendants), start <= t < end, fields
        (the field columns to keep).  stream (a location with records)
        reads only what that location's own file holds, in file order,
        without merging (a stream may carry records of other locations:
        ROSS PE streams hold their LPs' records).  ends=True adds a column
        "t_end" after "t": the end of spans whose end the format knows (an
        MPI call's exit), <NA> for other records; dump --jsonl has no such key.  Integer fields are Int64
        or UInt64, reals Float64, booleans boolean (absent: <NA>); strings,
        byte strings (":hh:hh..." as dump writes them) and lists are Python
        objects.  Damage raises DataError (strict=False: what could be read
        is returned, see diagnostics())."""
        cols, failure = self._read(types, locations, start, end, fields, batch_size, stream, ends)
        df = self._frame(cols, fields)
        if ends:
            df.insert(2, "t_end", _columns.end_array(cols.base))
        return self._finish(df, failure, strict)

    def _finish(self, df, failure, strict):
        """The frame of a read, or the exception for its failure (what was
        read as e.partial): an error that ended it, or damage met on the
        way when strict."""
        if failure is not None and (strict or not isinstance(failure, DataError)):
            failure.partial = df
            raise failure
        if strict:
            self._raise_if_damaged(df)
        return df

    def _read(self, types, locations, start, end, fields, batch_size, stream, spans):
        """The BatchColumns of a whole read, and the error that ended it
        early (a stream's cursor meeting damage), or None."""
        total = None
        if types is None and locations is None and start is None and end is None and \
                stream is None:
            summary, err = _lib.Summary(), _lib.Error()
            if _lib.lib.pw_summarize(self._handle(), ctypes.byref(summary),
                                     ctypes.byref(err)) == _lib.OK:
                total = summary.records
        joined = _columns.Joiner(total)
        try:
            for c in self._batch_columns(types, locations, start, end, fields, batch_size, stream,
                                         spans):
                joined.add(c)
        except PerfweaveError as e:
            return joined.result(), e
        return joined.result(), None

    def events(self, types=None, locations=None, start=None, end=None, strict=True, states=True):
        """The records in Pipit's event layout (see _events.py).  For a
        trace an emulator replays (ovni), states=True adds an Enter and a
        Leave per state a thread held (its labelled channels: thread state,
        subsystem, task type...), named by the state's label, with its
        channel in the column "Channel"."""
        cols, failure = self._read(types, locations, start, end, None, 1 << 16, None, True)
        out = pipit_events(self, cols)
        if states and types is None and locations is None and "emulation" in self.properties():
            out = state_events(self, out, self.states(), start, end)
        return self._finish(out, failure, strict)

    def states(self):
        """The intervals of the states an emulator derives from the records
        (ovni: ovniemu's, what Paraver shows): loc (the thread or CPU),
        view ("thread" or "cpu"), type, channel, value, label, start_ns and
        end_ns (the clock's time, as records()' t), one row per value held
        (value 0, no state, is left out).  Empty for a format without
        emulation."""
        ds = self._handle()
        buf, size = ctypes.c_void_p(), ctypes.c_size_t()
        stream = _lib.libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
        if not stream:
            raise MemoryError("perfweave: no memory for the states")
        err = _lib.Error()
        try:
            s = _lib.lib.pw_dump_states(ds, stream, 1, ctypes.byref(err))
        finally:
            _lib.libc.fclose(stream)
            text = ctypes.string_at(buf, size.value)
            _lib.libc.free(buf)
        columns = ["loc", "view", "type", "channel", "value", "label", "start_ns", "end_ns"]
        if s != _lib.OK:
            return pd.DataFrame(columns=columns)
        summary, serr = _lib.Summary(), _lib.Error()
        _check(_lib.lib.pw_summarize(ds, ctypes.byref(summary), ctypes.byref(serr)), serr)
        return state_intervals(text, summary.t_min if summary.has_ns else 0, columns)

    # -- reports ---------------------------------------------------------
    def stats(self, strict=True, **options):
        """The dict `perfweave stats --json` prints.  Options (threads=N,
        format options) reopen the dataset with them for this report."""
        if options:
            with Dataset(self._path, **dict(self._opt.kwargs, **options)) as other:
                return other.stats(strict=strict)
        ds = self._handle()
        text = self._report_json(lambda report, err: _lib.lib.pw_stats(ds, report, err))
        out = json.loads(text)
        if strict:
            self._raise_if_damaged(out)
        return out

    @staticmethod
    def _report_json(build):
        """The JSON text of the report that build(report, err) fills, as the
        CLI's --json writes it; raises the library's error."""
        buf, size = ctypes.c_void_p(), ctypes.c_size_t()
        stream = _lib.libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
        if not stream:
            raise MemoryError("perfweave: no memory for a report")
        report = _lib.lib.pw_report_open(stream, _lib.REPORT_JSON)
        err = _lib.Error()
        try:
            s = build(report, ctypes.byref(err)) if report else -5
            if s == _lib.OK:
                s = _lib.lib.pw_report_finish(report, ctypes.byref(err))
        finally:
            _lib.lib.pw_report_free(report)
            _lib.libc.fclose(stream)
            text = ctypes.string_at(buf, size.value)
            _lib.libc.free(buf)
        if not report:
            raise MemoryError("perfweave: no memory for a report")
        _check(s, err)
        return text

    def tables(self, **options):
        """The tables stats() holds, as `perfweave stats --tables --json`
        lists them: a DataFrame of name, title, description, rows and
        columns (a list of {"name", "unit", "key"})."""
        if options:
            with Dataset(self._path, **dict(self._opt.kwargs, **options)) as other:
                return other.tables()
        ds = self._handle()
        buf, size = ctypes.c_void_p(), ctypes.c_size_t()
        stream = _lib.libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
        report = _lib.lib.pw_report_new() if stream else None
        err = _lib.Error()
        try:
            s = _lib.lib.pw_stats(ds, report, ctypes.byref(err)) if report else -5
            if s == _lib.OK:
                s = _lib.lib.pw_report_write_tables(report, stream, 1, ctypes.byref(err))
        finally:
            _lib.lib.pw_report_free(report)
            if stream:
                _lib.libc.fclose(stream)
                text = ctypes.string_at(buf, size.value)
                _lib.libc.free(buf)
        if not report:
            raise MemoryError("perfweave: no memory for a report")
        _check(s, err)
        return pd.DataFrame(json.loads(text), columns=["name", "title", "description", "rows", "columns"])

    def table(self, name, **options):
        """One table of stats() as a flat DataFrame: `name` is one of the
        names tables() lists (a top-level key of the report).  A row's
        nested objects become dotted columns ("energy_j.gpu"), as the text
        and CSV renderings show them; a one-row table (an object) is one
        row."""
        node = self.stats(**options).get(name)
        if not isinstance(node, (list, dict)):
            raise KeyError("perfweave: the %s report has no table %r" % (self.format, name))
        rows = node if isinstance(node, list) else [node]
        return pd.DataFrame([_flat_row(r) for r in rows if isinstance(r, dict)])

    def convert(self, out, to=None, **options):
        """Write every record to `out` as target `to` ("perfetto", "chrome",
        "otf2", "paraver", "csv", "sqlite"; None: from out's extension).
        Returns the conversion's account: records_in, records_out,
        bytes_out and the items written in another form or lost."""
        if options:
            with Dataset(self._path, **dict(self._opt.kwargs, **options)) as other:
                return other.convert(out, to)
        rep = _lib.ConvertReport()
        err = _lib.Error()
        _check(_lib.lib.pw_convert(self._handle(), str(out).encode(), to.encode() if to else None,
                                   ctypes.byref(rep), ctypes.byref(err)), err)
        account = {"target": rep.target.decode() if rep.target else to,
                   "records_in": rep.records_in, "records_out": rep.records_out,
                   "bytes_out": rep.bytes_out,
                   "items": [{"what": rep.items[i].what.decode(), "count": rep.items[i].count,
                              "lost": bool(rep.items[i].lost)} for i in range(rep.n_items)]}
        self._raise_if_damaged(account)
        return account
