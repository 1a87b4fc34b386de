"""What the inputs tests share: the fixture list of every format, the
generated gpupower tree (no real gpupower data exists), the closing report."""
import os
import subprocess
import sys


def fixtures(data):
    """(name, dataset root to copy, path inside the copy to read, extra args),
    sorted by name; a format with no fixture is a failure, not a skip."""
    found = []
    for fmt in ("dumpi", "ross", "ovni", "hpctoolkit"):
        root = os.path.join(data, fmt)
        dirs = []
        for top, subdirs, files in os.walk(root):
            subdirs.sort()
            if fmt == "hpctoolkit":
                hit = "meta.db" in files or "experiment.xml" in files
            elif fmt == "ovni":
                hit = "ovni" in subdirs
            else:
                hit = top != root and any(f.endswith(".bin") for f in files)
            if hit:
                dirs.append(top)
                subdirs[:] = []
        if not dirs:
            raise SystemExit("FAIL: no %s fixtures under %s" % (fmt, root))
        found += [(fmt + "/" + os.path.relpath(d, root), d) for d in sorted(dirs)]
    return found


def gpupower_tree(gen, out):
    """A generated gpupower tree (tools/gen_gpupower_tree.py); its naive
    times are in +01:00, so it is read with --tz +01:00."""
    subprocess.run([sys.executable, gen, out, "--seconds", "10"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(out, "tree")


def report(failures, summary):
    """Prints the failures and the closing line; returns the exit code."""
    for f in failures:
        print("FAIL", f)
    print(summary)
    return 1 if failures else 0
