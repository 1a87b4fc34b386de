#!/bin/sh
# bench/ovniemu/run.sh [EVENTS] [THREADS] — generates an emulable ovni
# trace (default 5 M events, 8 threads: nOS-V tasks, MPI, TAMPI, marks;
# gen_emu_trace.py) under bench/out/, then measures `convert --to paraver`
# (the emulator writing thread.* and cpu.*) and, when OVNIEMU names an
# ovniemu binary (built from bsc-pm/ovni in /tmp, OVNI_CONFIG_DIR set), the
# same emulation by ovniemu on a copy of the trace.
set -eu
EVENTS=${1:-5000000}
THREADS=${2:-8}
B=${BUILD:-build/release}
OUT=bench/out/ovniemu-$EVENTS-$THREADS
. bench/measure.sh

if [ ! -d "$OUT" ]; then
    echo "generating $OUT ..."
    python3 bench/ovniemu/gen_emu_trace.py "$OUT" "$EVENTS" "$THREADS"
fi
bytes=$(find "$OUT" -name stream.obs -exec cat {} + | wc -c)
echo "ovniemu: $EVENTS events, $((bytes / 1000000)) MB in $THREADS streams ($(nproc) cores)"
rm -rf "$OUT.pv"
measure "convert --to paraver" "$EVENTS" "$bytes" sh -c "rm -rf '$OUT.pv'; '$B/perfweave' convert '$OUT' --to paraver -o '$OUT.pv' -q"
measure "check (emulation)" "$EVENTS" "$bytes" "$B/perfweave" check "$OUT" -q
if [ -n "${OVNIEMU:-}" ]; then
    measure "ovniemu" "$EVENTS" "$bytes" sh -c "rm -f '$OUT'/ovni/*.prv; '$OVNIEMU' '$OUT/ovni'"
fi
