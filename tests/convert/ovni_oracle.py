"""ovni_oracle.py — event counts per MCV from an ovnidump oracle output
(any of the layouts of ovnidump 1.0.0, 1.4.1, 1.10.0 and 1.14.0)."""
import collections
import os
import subprocess


def oracle_lines(fixture):
    for name in ("ovnidump.txt", "ovnidump.txt.zst"):
        p = os.path.join(fixture, name)
        if os.path.exists(p):
            if name.endswith(".zst"):
                out = subprocess.run(["zstd", "-dc", p], check=True, capture_output=True).stdout
            else:
                out = open(p, "rb").read()
            return out.decode("utf-8", "replace").splitlines()
    raise FileNotFoundError("no ovnidump oracle in " + fixture)


def mcv_of(tokens):
    if tokens[0].isdigit():                                 # 1.10, 1.14: t MCV path
        return tokens[1]
    if tokens[2][:1] in "+-" and tokens[2][1:].isdigit():   # 1.4.1: path t delta MCV
        return tokens[3]
    return tokens[2]                                        # 1.0.0: loom.pid.tid t MCV


def mcv_counts(fixture):
    c = collections.Counter()
    for line in oracle_lines(fixture):
        tok = line.split()
        if len(tok) >= 3:
            c[mcv_of(tok)] += 1
    return c


def fixtures(data):
    """Every ovni fixture directory (holding ovni/ and an oracle)."""
    root = os.path.join(data, "ovni")
    out = []
    for d in sorted(os.listdir(root)):
        p = os.path.join(root, d)
        if os.path.isdir(os.path.join(p, "ovni")):
            out.append(p)
        else:
            out += [os.path.join(p, t) for t in sorted(os.listdir(p))
                    if os.path.isdir(os.path.join(p, t, "ovni"))]
    return out
