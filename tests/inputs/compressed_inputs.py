#!/usr/bin/env python3
"""Compressed inputs read as the plain ones (issue #16): every fixture of
every format, copied to a temporary directory, gives the same
`dump --jsonl` (bytes and exit code) when each of its files is compressed
with zstd, and then with gzip, file by file, as when it is plain; a file
perfweave cannot decompress is reported, never skipped.  Memory stays
bounded: the peak RSS of a `check` of a large generated ovni trace stored
as .zst stays within a fixed margin of the plain run's (decompression
goes to a temporary file, not to memory).

usage: compressed_inputs.py PERFWEAVE SHARED_DATA GEN_OVNI_TRACE GEN_GPUPOWER_TREE"""
import os
import shutil
import subprocess
import sys
import tempfile

from inputs_common import fixtures, gpupower_tree, report

# The compressed run may use the decompressor's window (8 MB at zstd -19)
# and its buffers over the plain run's memory, no more.
RSS_MARGIN_KB = 24 * 1024


def dump(pw, path, extra=()):
    p = subprocess.run([pw, "dump", path, "--jsonl", "-q", "-j", "1"] + list(extra),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def compress_all(root, tool):
    """Compresses every regular file under root in place (NAME -> NAME.zst/.gz)."""
    for top, _, files in os.walk(root):
        for f in files:
            path = os.path.join(top, f)
            if tool == "zstd":
                subprocess.run(["zstd", "-q", "--rm", "-3", path], check=True)
            else:
                subprocess.run(["gzip", "-n", path], check=True)


def decompress_all(root):
    for top, _, files in os.walk(root):
        for f in files:
            path = os.path.join(top, f)
            if f.endswith(".zst"):
                subprocess.run(["zstd", "-q", "-d", "--rm", path], check=True)
            elif f.endswith(".gz"):
                subprocess.run(["gzip", "-d", path], check=True)


def same_as_plain(pw, name, src, tmp, extra=()):
    """Plain, .zst and .gz copies of one dataset (same path each time)."""
    work = os.path.join(tmp, "ds")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, work, symlinks=False)
    plain = dump(pw, work, extra)
    if plain[0] not in (0, 1):
        return ["%s: the plain copy gave exit %d" % (name, plain[0])]
    failures = []
    for tool in ("zstd", "gzip"):
        compress_all(work, tool)
        got = dump(pw, work, extra)
        if got[:2] != plain[:2]:
            failures.append("%s (%s): exit %d and %d bytes, plain: exit %d and %d bytes; %s"
                            % (name, tool, got[0], len(got[1]), plain[0], len(plain[1]),
                               got[2].decode(errors="replace")[:300]))
        decompress_all(work)
    return failures


def damaged_compressed_is_reported(pw, data, tmp):
    """A cut .zst stream file is a finding naming the file, not a shorter trace."""
    work = os.path.join(tmp, "cut")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(data, "ovni", "emu-1.4.1"), work)
    victim = None
    for top, dirs, files in os.walk(work):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".obs") and victim is None:
                victim = os.path.join(top, f)
    subprocess.run(["zstd", "-q", "--rm", victim], check=True)
    with open(victim + ".zst", "r+b") as f:
        f.truncate(os.path.getsize(victim + ".zst") - 5)
    p = subprocess.run([pw, "check", work], capture_output=True, text=True)
    if p.returncode == 0 or os.path.basename(victim) not in p.stderr:
        return ["a cut .zst stream: check gave exit %d without naming it: %s"
                % (p.returncode, p.stderr[:300])]
    return []


def peak_rss_kb(cmd):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, int(p.stderr.strip().splitlines()[-1])


def memory_bounded(pw, gen_ovni, tmp):
    trace = os.path.join(tmp, "big")
    subprocess.run([gen_ovni, trace, "2000000", "4"], check=True, stdout=subprocess.DEVNULL)
    rc0, plain = peak_rss_kb([pw, "check", trace, "-q", "-j", "1"])
    size = sum(os.path.getsize(os.path.join(t, f)) for t, _, fs in os.walk(trace) for f in fs)
    compress_all(trace, "zstd")
    rc1, packed = peak_rss_kb([pw, "check", trace, "-q", "-j", "1"])
    print("memory: %d MB of streams; peak RSS plain %d KB, .zst %d KB" % (size >> 20, plain, packed))
    # the generator's events need not form valid runtime states (the
    # emulator may report them: exit 1); plain and compressed must agree
    if rc0 != rc1 or rc0 not in (0, 1):
        return ["generated ovni trace: check exit %d plain, %d compressed" % (rc0, rc1)]
    if packed > plain + RSS_MARGIN_KB:
        return ["compressed ovni trace: peak RSS %d KB, plain %d KB (margin %d KB)"
                % (packed, plain, RSS_MARGIN_KB)]
    return []


def main():
    pw, data, gen_ovni, gen_gp = sys.argv[1:5]
    failures = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in fixtures(data):
            failures += same_as_plain(pw, name, src, tmp)
            checked += 1
        tree = gpupower_tree(gen_gp, os.path.join(tmp, "gp"))
        failures += same_as_plain(pw, "gpupower/generated", tree, tmp, ["--tz", "+01:00"])
        checked += 1
        failures += damaged_compressed_is_reported(pw, data, tmp)
        failures += memory_bounded(pw, gen_ovni, tmp)
    return report(failures, "%d datasets compared, %d failures" % (checked, len(failures)))


if __name__ == "__main__":
    sys.exit(main())
