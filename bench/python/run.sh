#!/bin/sh
# bench/python/run.sh [OVNI_EVENTS] [DUMPI_CALLS_PER_RANK] — the Python
# package reading the ovni and DUMPI bench traces (generated under
# bench/out/, never committed) into pandas; see bench_records.py.
# Default: 8 M ovni events in 8 streams; 4 ranks x 125 k = 500 k DUMPI
# calls, the size of Pipit's published measure.
set -eu
cd "$(dirname "$0")/../.."
EVENTS=${1:-8000000}
CALLS=${2:-125000}
B=${BUILD:-build/release}
PY=${PYTHON:-/usr/bin/python3}
OVNI=bench/out/python-ovni-$EVENTS
DUMPI=bench/out/python-dumpi-$CALLS
[ -x "$B/perfweave" ] || { echo "build first: make build" >&2; exit 2; }
[ -d "$OVNI" ] || "$B/bench/ovni/gen_ovni_trace" "$OVNI" "$EVENTS" 8 >/dev/null
if [ ! -d "$DUMPI" ]; then
    mkdir -p "$DUMPI"
    "$B/bench/dumpi/gen_dumpi_bench" "$DUMPI" 4 "$CALLS" >/dev/null
fi
cat $(find "$OVNI" "$DUMPI" -type f) >/dev/null # warm the cache
echo "python: $($PY --version), numpy $($PY -c 'import numpy; print(numpy.__version__)')," \
     "pandas $($PY -c 'import pandas; print(pandas.__version__)'), $(nproc) cores"
PYTHONPATH=python PERFWEAVE_LIBRARY=$B/libperfweave.so \
    "$PY" bench/python/bench_records.py "$B/perfweave" "$OVNI" "$DUMPI"
