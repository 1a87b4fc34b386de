"""_columns.py — turns the library's columnar batches (pw_batch, see
include/perfweave.h) into numpy columns and pandas DataFrames.

Numbers never pass through Python objects: the library fills one column
per field name, which is copied whole into numpy.  The texts of a batch
(strings and byte strings as themselves, other values as JSON) are split
into Python strings in one call; each column's JSON texts of a batch are
parsed with one json.loads call."""
import ctypes
import json

import numpy as np
import pandas as pd

from . import _lib

_KINDS = ("absent", "i64", "u64", "f64", "bool", "null", "json", "text")


def _array(addr, dtype, n):
    """A copy of n items at a C address (the batch is reused by the next call)."""
    if n == 0:
        return np.empty(0, dtype)
    size = n * np.dtype(dtype).itemsize
    return np.frombuffer((ctypes.c_char * size).from_address(addr), dtype).copy()


class BatchColumns:
    """Records (of a batch, after filtering, or of a whole read) as arrays:
    the per-record columns in `base`, and per field its raw 8-byte cells,
    their kinds, the text values as Python objects, and the set of kinds
    its present cells have."""

    def __init__(self, n):
        self.n = n
        self.base = {}
        # name -> [bits uint64[n], kinds uint8[n], objects or None, the kinds used]
        self.fields = {}


def type_codes(b, n_schemas):
    """A batch's type ids as dense codes: schema indices, then the other
    types (ids with OTHER_TYPE set) numbered after the schemas."""
    ids = _array(b.type, np.uint32, b.n)
    other = (ids & _lib.OTHER_TYPE) != 0
    if other.any():
        ids[other] = (ids[other] & ~np.uint32(_lib.OTHER_TYPE)) + np.uint32(n_schemas)
    return ids


class Snapshot:
    """What a binding keeps of one pw_batch (copies, as the reader reuses
    its arrays): the per-record arrays, the wanted field columns' cells
    and kinds, and the texts when a wanted column holds any."""

    def __init__(self, b, types, column_names, wanted_fields, spans):
        n = b.n
        self.base = {
            "location": _array(b.location, np.uint32, n),
            "type": types,
            "clock": _array(b.clock, np.uint8, n),
            "t": _array(b.t, np.int64, n),
        }
        if (self.base["clock"] == _lib.CLOCK_VIRTUAL).any():  # most formats have no "vt"
            self.base["vt"] = _array(b.vt, np.float64, n)
        if spans:
            self.base.update(kind=_array(b.kind, np.uint8, n),
                             has_end=_array(b.has_end, np.uint8, n),
                             t_end=_array(b.t_end, np.int64, n),
                             vt_end=_array(b.vt_end, np.float64, n))
        self.columns = {}
        textual = False
        for c in np.flatnonzero(_array(b.column_used, np.uint8, b.n_columns)):
            name = column_names[c]
            if wanted_fields is None or name in wanted_fields:
                kinds = _array(b.column_kind[c], np.uint8, n)
                self.columns[name] = (_array(b.column[c], np.uint64, n), kinds)
                textual = textual or (kinds >= _lib.CELL_JSON).any()
        self.text = ctypes.string_at(b.text, b.text_len) if textual else None


def read_batch(snap, row_filter):
    """BatchColumns of a Snapshot.  row_filter(base) gives a boolean mask
    of the rows to keep, or None to keep all."""
    base = snap.base
    mask = row_filter(base) if row_filter else None
    if mask is not None:
        base = {k: v[mask] for k, v in base.items()}
    out = BatchColumns(len(base["t"]))
    out.base = base
    if out.n == 0:
        return out
    texts = _Texts(snap.text) if snap.text is not None else None
    for name, (bits, kinds) in snap.columns.items():
        objs = texts.values(bits, kinds) if texts and (kinds >= _lib.CELL_JSON).any() else None
        if mask is not None:
            bits, kinds = bits[mask], kinds[mask]
            objs = objs[mask] if objs is not None else None
        used = set(np.flatnonzero(np.bincount(kinds, minlength=len(_KINDS))).tolist())
        out.fields[name] = [bits, kinds, objs, used - {_lib.CELL_ABSENT}]
    return out


class _Texts:
    """The texts of a batch as Python strings (one split for them all)."""

    def __init__(self, raw):
        self.raw = raw
        self.strings = np.array(self.raw[:-1].decode("utf-8", "surrogateescape").split("\n"),
                                object)
        self.starts = None

    def ordinals(self, offsets, where):
        """The numbers of the texts at offsets[where].  When one column
        holds every text of the batch they are 0, 1, 2...: texts are
        written in record order."""
        if len(where) == len(self.strings):
            return np.arange(len(where))
        if self.starts is None:
            ends = np.flatnonzero(np.frombuffer(self.raw, np.uint8) == 10)
            self.starts = np.concatenate(([0], ends[:-1] + 1))
        return np.searchsorted(self.starts, offsets[where])

    def values(self, offsets, kinds):
        """An object array of a column's text values: strings as they are,
        JSON parsed (one json.loads per column); None elsewhere."""
        objs = np.empty(len(kinds), object)
        textual = np.flatnonzero(kinds >= _lib.CELL_JSON)
        objs[textual] = self.strings[self.ordinals(offsets, textual)]
        where = np.flatnonzero(kinds == _lib.CELL_JSON)
        if len(where):
            objs[where] = json.loads("[" + ",".join(objs[where]) + "]")
        return objs


def field_array(bits, kinds, objs, used):
    """A pandas array for one field column (used: the kinds its present
    cells have): nullable integers, floats or booleans when every present
    value has that kind, else Python objects (strings, lists, mixed kinds)
    with None where the field is absent."""
    absent = kinds == _lib.CELL_ABSENT
    if used <= {_lib.CELL_I64} or (used == {_lib.CELL_I64, _lib.CELL_U64} and
                                   not (bits[kinds == _lib.CELL_U64] >> 63).any()):
        return pd.arrays.IntegerArray(bits.view(np.int64), absent)
    if used == {_lib.CELL_U64}:
        return pd.arrays.IntegerArray(bits, absent)
    if used <= {_lib.CELL_F64, _lib.CELL_NULL}:
        return pd.arrays.FloatingArray(bits.view(np.float64), kinds != _lib.CELL_F64)
    if used == {_lib.CELL_BOOL}:
        return pd.arrays.BooleanArray(bits.astype(bool), absent)
    if used <= {_lib.CELL_JSON, _lib.CELL_TEXT}:
        return objs
    return _object_array(bits, kinds, objs)


def _object_array(bits, kinds, objs):
    """A column of mixed kinds (a number in one schema, text in another) as
    Python values, kind by kind."""
    out = objs.copy() if objs is not None else np.empty(len(kinds), object)
    for k, convert in ((_lib.CELL_I64, lambda v: v.view(np.int64)),
                       (_lib.CELL_U64, lambda v: v),
                       (_lib.CELL_F64, lambda v: v.view(np.float64)),
                       (_lib.CELL_BOOL, lambda v: v.astype(bool))):
        where = np.flatnonzero(kinds == k)
        if len(where):
            out[where] = convert(bits[where]).tolist()
    return out


_BASE_TYPES = {"location": np.uint32, "type": np.uint32, "clock": np.uint8, "t": np.int64,
               "vt": np.float64, "kind": np.uint8, "has_end": np.uint8, "t_end": np.int64,
               "vt_end": np.float64}


def concat(parts):
    """The BatchColumns of many batches (maybe none) as one.  The parts are
    emptied column by column as they are joined, so that memory holds them
    and one joined column at most."""
    if not parts:
        out = BatchColumns(0)
        out.base = {k: np.empty(0, t) for k, t in _BASE_TYPES.items()}
        return out
    if len(parts) == 1:
        return parts[0]
    out = BatchColumns(sum(p.n for p in parts))
    keys = {k for p in parts for k in p.base} | {"location", "type", "clock", "t"}
    for k in _BASE_TYPES:
        if k in keys:
            out.base[k] = np.concatenate([p.base.pop(k, None) if k in p.base
                                          else np.zeros(p.n, _BASE_TYPES[k]) for p in parts])
    names = list(dict.fromkeys(name for p in parts for name in p.fields))
    for name in names:
        cols = [p.fields.pop(name, None) or _empty_field(p.n) for p in parts]
        objs = None
        if any(c[2] is not None for c in cols):
            objs = np.concatenate([c[2] if c[2] is not None else np.empty(len(c[1]), object)
                                   for c in cols])
        out.fields[name] = [np.concatenate([c[0] for c in cols]),
                            np.concatenate([c[1] for c in cols]), objs,
                            set().union(*(c[3] for c in cols))]
        del cols
    return out


def _empty_field(n):
    return [np.zeros(n, np.uint64), np.zeros(n, np.uint8), None, set()]


class Joiner:
    """Joins the BatchColumns of a read into one.  When the record count
    is known up front (an unfiltered read), each batch is copied into
    arrays of the final size as it comes, so that memory holds the result
    and a batch, not the batches and their join; else (or when the count
    proves wrong) the batches are kept and joined at the end."""

    def __init__(self, total=None):
        self.total = total
        self.out = None
        self.pos = 0
        self.parts = []

    def add(self, cols):
        if cols.n == 0:
            return
        if self.total is not None and self.pos + cols.n <= self.total:
            self._copy(cols)
            return
        if self.out is not None:
            self.parts.append(self._filled())
            self.out = None
        self.total = None
        self.parts.append(cols)

    def _copy(self, cols):
        if self.out is None:
            self.out = BatchColumns(self.total)
        out, a, z = self.out, self.pos, self.pos + cols.n
        for k, v in cols.base.items():
            if k not in out.base:
                out.base[k] = np.zeros(self.total, v.dtype)
            out.base[k][a:z] = v
        for name, (bits, kinds, objs, used) in cols.fields.items():
            col = out.fields.get(name)
            if col is None:
                col = out.fields[name] = _empty_field(self.total)
            col[0][a:z] = bits
            col[1][a:z] = kinds
            col[3] |= used
            if objs is not None:
                if col[2] is None:
                    col[2] = np.empty(self.total, object)
                col[2][a:z] = objs
        self.pos = z

    def _filled(self):
        """The copied batches, when fewer records came than counted."""
        out = BatchColumns(self.pos)
        out.base = {k: v[:self.pos] for k, v in self.out.base.items()}
        out.fields = {name: [c[0][:self.pos], c[1][:self.pos],
                             c[2][:self.pos] if c[2] is not None else None, c[3]]
                      for name, c in self.out.fields.items()}
        return out

    def result(self):
        if self.out is not None:
            return self.out if self.pos == self.total else self._filled()
        return concat(self.parts)


def time_array(base):
    """The "t" column: int64 nanoseconds, float virtual time, or nullable
    when some records carry no time (as dump --jsonl omits "t")."""
    clock = base["clock"]
    used = set(np.flatnonzero(np.bincount(clock, minlength=3)).tolist())
    if used <= {_lib.CLOCK_NS}:
        return base["t"]
    if used == {_lib.CLOCK_VIRTUAL}:
        return base["vt"]
    if used <= {_lib.CLOCK_NS, _lib.CLOCK_NONE}:
        return pd.arrays.IntegerArray(base["t"], clock == _lib.CLOCK_NONE)
    if used <= {_lib.CLOCK_VIRTUAL, _lib.CLOCK_NONE}:
        return pd.arrays.FloatingArray(base["vt"], clock == _lib.CLOCK_NONE)
    out = np.empty(len(clock), object)
    ns, vt = clock == _lib.CLOCK_NS, clock == _lib.CLOCK_VIRTUAL
    out[ns] = base["t"][ns].tolist()
    out[vt] = base["vt"][vt].tolist()
    return out


def end_array(base):
    """The "t_end" column: span ends in the record's clock, <NA> where none."""
    none = base["has_end"] == 0
    if "vt" in base and (base["clock"] == _lib.CLOCK_VIRTUAL).any():
        return pd.arrays.FloatingArray(np.where(base["clock"] == _lib.CLOCK_VIRTUAL,
                                                base["vt_end"], base["t_end"]).astype(float), none)
    return pd.arrays.IntegerArray(base["t_end"], none)


def categorical(codes, names):
    """Codes into `names` (which may repeat a name) as a pandas Categorical."""
    unique = list(dict.fromkeys(names))
    if len(unique) != len(names):
        where = {name: i for i, name in enumerate(unique)}
        codes = np.array([where[name] for name in names], np.int32)[codes]
    return pd.Categorical.from_codes(codes.astype(np.int32), unique)


def frame(cols, loc_paths, type_names, field_order, keep_empty=False):
    """The DataFrame of records: loc, t, type, then fields in field_order.
    A field no record carries is left out unless keep_empty."""
    data = {
        "loc": categorical(cols.base["location"], loc_paths),
        "t": time_array(cols.base),
        "type": categorical(cols.base["type"], type_names),
    }
    for name in field_order:
        col = cols.fields.get(name)
        if col is None:
            if not keep_empty:
                continue
            col = _empty_field(cols.n)
        elif not keep_empty and not col[3]:
            continue
        data[name] = field_array(*col)
    return pd.DataFrame(data, copy=False)
