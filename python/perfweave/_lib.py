"""_lib.py — finds libperfweave and declares the public pw_ calls the
binding uses (ctypes structures mirror include/perfweave.h)."""
import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    """Where the library may be, most specific first: the environment, the
    installed tree (see _where.py, written by `cmake --install`), the source
    tree's Release build, then the system's search path."""
    env = os.environ.get("PERFWEAVE_LIBRARY")
    if env:
        yield env
        return
    try:
        from . import _where
        yield os.path.normpath(os.path.join(_HERE, _where.LIBDIR_FROM_PACKAGE, "libperfweave.so.0"))
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "build", "release", "libperfweave.so"))
    found = ctypes.util.find_library("perfweave")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        return ctypes.CDLL(path)
    raise ImportError("perfweave: libperfweave not found (tried %s); build it with `make build` "
                      "or set PERFWEAVE_LIBRARY" % ", ".join(tried or ["the system path"]))


class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("has_offset", ctypes.c_int),
                ("offset", ctypes.c_uint64), ("file", ctypes.c_char * 1024),
                ("message", ctypes.c_char * 2048)]


class OptionKV(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class Options(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("threads", ctypes.c_int),
                ("n_kv", ctypes.c_size_t), ("kv", ctypes.POINTER(OptionKV)),
                ("wants", ctypes.c_uint)]


class FormatOption(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("flag", ctypes.c_char_p),
                ("arg", ctypes.c_char_p), ("help", ctypes.c_char_p)]


class Location(ctypes.Structure):
    _fields_ = [("index", ctypes.c_uint32), ("parent", ctypes.c_int32), ("kind", ctypes.c_int),
                ("id", ctypes.c_int64), ("name", ctypes.c_char_p), ("path", ctypes.c_char_p),
                ("file", ctypes.c_char_p), ("has_records", ctypes.c_int)]


class Field(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("unit", ctypes.c_char_p),
                ("label", ctypes.c_void_p)]


class Schema(ctypes.Structure):
    _fields_ = [("index", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("description", ctypes.c_char_p), ("kind", ctypes.c_int),
                ("n_fields", ctypes.c_size_t), ("fields", ctypes.POINTER(Field))]


class Summary(ctypes.Structure):
    _fields_ = [("records", ctypes.c_uint64), ("locations_read", ctypes.c_uint64),
                ("has_ns", ctypes.c_int), ("t_min", ctypes.c_int64), ("t_max", ctypes.c_int64),
                ("has_virtual", ctypes.c_int), ("vt_min", ctypes.c_double),
                ("vt_max", ctypes.c_double), ("record_types", ctypes.c_uint64)]


class Diag(ctypes.Structure):
    _fields_ = [("severity", ctypes.c_int), ("code", ctypes.c_char_p), ("file", ctypes.c_char_p),
                ("has_offset", ctypes.c_int), ("offset", ctypes.c_uint64),
                ("message", ctypes.c_char_p)]


class Batch(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t),
                ("location", ctypes.c_void_p), ("schema", ctypes.c_void_p),
                ("type", ctypes.c_void_p), ("clock", ctypes.c_void_p),
                ("t", ctypes.c_void_p), ("vt", ctypes.c_void_p),
                ("kind", ctypes.c_void_p), ("has_end", ctypes.c_void_p),
                ("t_end", ctypes.c_void_p), ("vt_end", ctypes.c_void_p),
                ("n_columns", ctypes.c_size_t), ("column_used", ctypes.c_void_p),
                ("column_kind", ctypes.POINTER(ctypes.c_void_p)),
                ("column", ctypes.POINTER(ctypes.c_void_p)),
                ("text_len", ctypes.c_size_t), ("text", ctypes.c_void_p)]


class ConvertItem(ctypes.Structure):
    _fields_ = [("what", ctypes.c_char_p), ("count", ctypes.c_uint64), ("lost", ctypes.c_int)]


class ConvertReport(ctypes.Structure):
    _fields_ = [("target", ctypes.c_char_p), ("records_in", ctypes.c_uint64),
                ("records_out", ctypes.c_uint64), ("bytes_out", ctypes.c_uint64),
                ("n_items", ctypes.c_size_t), ("items", ConvertItem * 32)]


# pw_status values and enums used here (include/perfweave.h).
OK, END = 0, 1
CLOCK_NONE, CLOCK_NS, CLOCK_VIRTUAL = 0, 1, 2
CELL_ABSENT, CELL_I64, CELL_U64, CELL_F64, CELL_BOOL, CELL_NULL, CELL_JSON, CELL_TEXT = range(8)
OTHER_TYPE = 0x80000000
REPORT_JSON = 1
SEV_ERROR = 2

P = ctypes.c_void_p
ERR = ctypes.POINTER(Error)
_SIGNATURES = {
    "pw_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "pw_format_count": (ctypes.c_size_t, []),
    "pw_format_name": (ctypes.c_char_p, [ctypes.c_size_t]),
    "pw_format_options": (ctypes.POINTER(FormatOption), [ctypes.c_size_t]),
    "pw_open": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(Options), ctypes.POINTER(P), ERR]),
    "pw_close": (None, [P]),
    "pw_dataset_path": (ctypes.c_char_p, [P]),
    "pw_dataset_format": (ctypes.c_char_p, [P]),
    "pw_dataset_version": (ctypes.c_char_p, [P]),
    "pw_dataset_prop_count": (ctypes.c_size_t, [P]),
    "pw_dataset_prop": (None, [P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p),
                               ctypes.POINTER(ctypes.c_char_p)]),
    "pw_location_kind_name": (ctypes.c_char_p, [ctypes.c_int]),
    "pw_location_count": (ctypes.c_size_t, [P]),
    "pw_location_get": (ctypes.POINTER(Location), [P, ctypes.c_size_t]),
    "pw_schema_count": (ctypes.c_size_t, [P]),
    "pw_schema_get": (ctypes.POINTER(Schema), [P, ctypes.c_size_t]),
    "pw_dataset_diag_count": (ctypes.c_size_t, [P]),
    "pw_dataset_diag": (ctypes.POINTER(Diag), [P, ctypes.c_size_t]),
    "pw_dataset_worst_severity": (ctypes.c_int, [P]),
    "pw_summarize": (ctypes.c_int, [P, ctypes.POINTER(Summary), ERR]),
    "pw_report_open": (P, [P, ctypes.c_int]),
    "pw_report_finish": (ctypes.c_int, [P, ERR]),
    "pw_report_free": (None, [P]),
    "pw_report_new": (P, []),
    "pw_dump_states": (ctypes.c_int, [P, P, ctypes.c_int, ERR]),
    "pw_report_write_tables": (ctypes.c_int, [P, P, ctypes.c_int, ERR]),
    "pw_stats": (ctypes.c_int, [P, P, ERR]),
    "pw_info": (ctypes.c_int, [P, P, ctypes.c_int, ERR]),
    "pw_convert": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.POINTER(ConvertReport), ERR]),
    "pw_batch_open": (ctypes.c_int, [P, ctypes.c_int64, ctypes.c_size_t, ctypes.POINTER(P), ERR]),
    "pw_batch_next": (ctypes.c_int, [P, ctypes.POINTER(ctypes.POINTER(Batch)), ERR]),
    "pw_batch_type_name": (ctypes.c_char_p, [P, ctypes.c_uint32]),
    "pw_batch_column_name": (ctypes.c_char_p, [P, ctypes.c_size_t]),
    "pw_batch_close": (None, [P]),
}

lib = _load()
for _name, (_res, _args) in _SIGNATURES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args

# The C library's in-memory streams, for reports written to a FILE *.
libc = ctypes.CDLL(None)
libc.open_memstream.restype = P
libc.open_memstream.argtypes = [ctypes.POINTER(P), ctypes.POINTER(ctypes.c_size_t)]
libc.fclose.argtypes = [P]
libc.free.argtypes = [P]
