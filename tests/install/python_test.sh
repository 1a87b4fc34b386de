#!/bin/sh
# python_test.sh BUILD_DIR SOURCE_DIR PYTHON — `cmake --install` into a
# scratch prefix, then import the installed Python package with Debian's
# python3 from outside the source tree: it must load the installed library
# (found through its _where.py) and read the bundled ovni example.
set -eu
build=$1
src=$2
python=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pydir=$(find "$prefix" -type d -name perfweave -path '*dist-packages*' | head -n 1)
test -f "$pydir/_where.py"
cd "$prefix"
out=$(env -u PERFWEAVE_LIBRARY PYTHONPATH="$(dirname "$pydir")" "$python" -c '
import sys, perfweave
lib = perfweave._lib.lib._name
assert lib.startswith(sys.argv[1]), lib
with perfweave.open(sys.argv[2]) as ds:
    print(ds.format, len(ds.records()))
' "$prefix" "$src/examples/ovni/mpi-func")
test "$out" = "ovni 2456"
echo "1 passed, 0 failed"
