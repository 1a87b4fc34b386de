"""test_damage.py CLI GENERATOR WORKDIR — targeted damage in a database
written by the project's generator: each kind of damage the issue names
gives exit 1 and a message with the file, the byte offset and what was
expected, and what can still be read is read."""
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def profile_info(prof, i):
    """(nValues, pValues, nCtxs, pCtxIndices) of profile i (FORMATS.md)."""
    pi = u64(prof, 0x18)
    arr, size = u64(prof, pi), prof[pi + 0xc]
    at = arr + size * i
    return u64(prof, at), u64(prof, at + 8), struct.unpack_from("<I", prof, at + 0x10)[0], u64(prof, at + 0x18), at


def damaged(cli, work, src, name, edit):
    db = os.path.join(work, name)
    shutil.rmtree(db, ignore_errors=True)
    shutil.copytree(src, db)
    path = os.path.join(db, edit[0])
    b = bytearray(open(path, "rb").read())
    edit[1](b)
    open(path, "wb").write(b)
    return subprocess.run([cli, "check", db], capture_output=True, text=True)


def main():
    cli, gen, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "damage-source")
    shutil.rmtree(src, ignore_errors=True)
    subprocess.run([gen, src, "3", "60", "20", "10"], check=True)
    p = subprocess.run([cli, "check", src], capture_output=True, text=True)
    check(p.returncode == 0, "intact: %s" % p.stderr)
    prof = open(os.path.join(src, "profile.db"), "rb").read()
    n_values, p_values, n_ctxs, p_index, info_at = profile_info(prof, 1)

    def swap_index(b):  # two context-index entries out of order
        a, c = p_index, p_index + 12
        b[a:a + 12], b[c:c + 12] = b[c:c + 12], b[a:a + 12]
    p = damaged(cli, work, src, "unsorted", ("profile.db", swap_index))
    check(p.returncode == 1 and "offset %d" % p_index in p.stderr and "in order" in p.stderr,
          "unsorted index: %d %s" % (p.returncode, p.stderr))

    def unknown_ctx(b):  # a value at a context id that exists nowhere
        struct.pack_into("<I", b, p_index, 99999)
    p = damaged(cli, work, src, "unknown-ctx", ("profile.db", unknown_ctx))
    check(p.returncode == 1 and "context id 99999 is neither in the tree" in p.stderr,
          "unknown context: %d %s" % (p.returncode, p.stderr))

    def stray_pointer(b):  # pValues beyond the end of the file
        struct.pack_into("<Q", b, info_at + 8, len(b) + 4096)
    p = damaged(cli, work, src, "stray", ("profile.db", stray_pointer))
    check(p.returncode == 1 and "offset %d" % info_at in p.stderr and "profile values" in p.stderr,
          "stray pointer: %d %s" % (p.returncode, p.stderr))

    trace = open(os.path.join(src, "trace.db"), "rb").read()
    th = u64(trace, u64(trace, 0x18))
    start = u64(trace, th + 8)

    def trace_ctx(b):  # a sample at a context not in the tree
        struct.pack_into("<I", b, start + 12 + 8, 77777)
    p = damaged(cli, work, src, "trace-ctx", ("trace.db", trace_ctx))
    check(p.returncode == 1 and "offset %d" % (start + 20) in p.stderr and "77777 is not in the tree" in p.stderr,
          "trace context: %d %s" % (p.returncode, p.stderr))
    # the profiles still read: values of the other profiles are dumped
    d = subprocess.run([cli, "dump", "--jsonl", os.path.join(work, "trace-ctx")], capture_output=True, text=True)
    check(d.stdout.count('"type":"value"') > 0, "trace damage hides the values")

    def truncate(b):  # the trace file cut inside a sample
        del b[start + 30:]
    p = damaged(cli, work, src, "cut-trace", ("trace.db", truncate))
    check(p.returncode == 1 and "trace line" in p.stderr, "cut trace: %d %s" % (p.returncode, p.stderr))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
