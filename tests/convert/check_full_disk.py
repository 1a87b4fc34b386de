#!/usr/bin/env python3
"""check_full_disk.py CLI GEN OUTDIR — convert into a full disk: a DUMPI
trace too large for a 1 MiB file system, converted to every target there,
on an empty disk and on disks already filled to leave 0 and 200 KiB, must
end with exit 3 (an I/O fault) and a message naming the output and the
system's reason ("No space left on device", SQLite's too), leave no temporary behind,
and never crash, report a sanitizer error or succeed.  (OTF2 closed its
event writers a second time after a failed flush: a use after free.)

The small file system is a tmpfs mounted in a private mount namespace
(unshare -rm: no root needed where user namespaces are allowed), else a
loop-back ext2 image; when neither can be mounted the test says why and
is skipped (exit 77)."""
import os
import shutil
import subprocess
import sys

CLI, GEN, OUT = sys.argv[1:4]
SKIP = 77
TARGETS = ("otf2", "pftrace", "json", "prv", "sqlite", "csv.d")
FREE_KIB = (1024, 0, 200)  # 1024: the disk is empty
# The system's reason, as strerror(ENOSPC) says it, for every target (SQLite's
# own words, "database or disk is full", come before it).
REASON = "No space left on device"


def mount_commands(mnt):
    """Shell commands that mount a 1 MiB file system at mnt, most private first."""
    image = os.path.join(OUT, "fs.img")
    yield "mount -t tmpfs -o size=1m tmpfs %s" % mnt
    yield ("dd if=/dev/zero of=%s bs=1k count=1024 2>/dev/null && mkfs.ext2 -q -F %s && mount -o loop %s %s"
           % (image, image, image, mnt))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    trace, mnt = os.path.join(OUT, "trace"), os.path.join(OUT, "mnt")
    os.makedirs(trace)
    os.makedirs(mnt)
    subprocess.run([GEN, trace, "4", "30000"], check=True, capture_output=True)
    fill = "dd if=/dev/zero of=%s/fill bs=1k count=%d 2>/dev/null"
    runs = " ; ".join("rm -rf %s/* %s/.[!.]* ; %s ; %s convert %s -o %s/out.%s -q ; echo \"rc=$? %s %d\" ;"
                      " echo \"left: $(ls -A %s | grep -v '^fill$' | tr '\\n' ' ')\""
                      % (mnt, mnt, fill % (mnt, 1024 - free) if free < 1024 else "true", CLI, trace, mnt, t, t,
                         free, mnt)
                      for free in FREE_KIB for t in TARGETS)
    for mount in mount_commands(mnt):
        for wrap in (["unshare", "-rm", "sh", "-c"], ["sh", "-c"]):
            if not shutil.which(wrap[0]):
                continue
            script = "%s || exit %d; %s; umount %s" % (mount, SKIP, runs, mnt)
            r = subprocess.run(wrap + [script], capture_output=True, text=True)
            if r.returncode == SKIP:
                continue
            return judge(r)
    print("SKIP: cannot mount a small file system here (no tmpfs or loop-back mount allowed)")
    return SKIP


def judge(r):
    failures = []
    if "Sanitizer" in r.stderr or "runtime error" in r.stderr:
        failures.append("sanitizer report: " + r.stderr[:2000])
    results = [line.split() for line in r.stdout.splitlines() if line.startswith("rc=")]
    if len(results) != len(TARGETS) * len(FREE_KIB):
        failures.append("ran %d of %d conversions: %s %s" % (len(results), len(TARGETS) * len(FREE_KIB),
                                                              r.stdout, r.stderr[-500:]))
    for rc, target, free in results:
        if rc != "rc=3":
            failures.append("%s into a full disk (%s KiB free): %s (want rc=3)" % (target, free, rc))
    for line in r.stdout.splitlines():
        if line.startswith("left:") and line.split()[1:]:
            failures.append("a failed conversion left files behind: " + line)
    for line in r.stderr.splitlines():
        if line.startswith("perfweave: error:") and "/out." not in line:
            failures.append("an error that names no output: " + line)
        if line.startswith("perfweave: error:") and REASON not in line:
            failures.append("an error without the system's reason: " + line)
    for f in failures:
        print("FAIL", f)
    print("%d conversions into a full disk, %d failures" % (len(results), len(failures)))
    return 1 if failures else 0


sys.exit(main())
