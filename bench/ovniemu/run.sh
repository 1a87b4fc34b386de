#!/bin/sh
# bench/ovniemu/run.sh [EVENTS] [THREADS] — generates an emulable ovni
# trace (default 5 M events, 8 threads running nOS-V, Nanos6 + NODES and
# OpenMP in turn, with MPI, TAMPI and marks; a new task per 16 events:
# bench/ovni/gen_emu_trace.c) under bench/out/, then measures the
# emulator: `convert --to paraver` (thread.* and cpu.*), `convert` to
# Chrome JSON and Perfetto states, `convert --to perfetto` (the records), `stats` and `check`, and,
# when OVNIEMU names an ovniemu binary, ovniemu on a copy of the trace
# (built outside the repository, e.g. bsc-pm/ovni 1.14.0 cloned to
# /tmp/ovni-src, `cmake -S /tmp/ovni-src -B /tmp/ovni-src/build && make -C
# /tmp/ovni-src/build ovniemu`; OVNI_CONFIG_DIR=/tmp/ovni-src/cfg).  Each
# row: the best CPU seconds (user + system) of REPEAT runs (default 3),
# events per CPU second, the best wall seconds and the largest peak RSS.
set -eu
EVENTS=${1:-5000000}
THREADS=${2:-8}
B=${BUILD:-build/release}
OUT=bench/out/ovniemu-$EVENTS-$THREADS

# cpu_measure LABEL COMMAND...
cpu_measure() {
    label=$1; shift
    log=$(mktemp)
    i=0
    while [ "$i" -lt "${REPEAT:-3}" ]; do
        /usr/bin/time -v "$@" >/dev/null 2>>"$log" || true
        i=$((i + 1))
    done
    awk -v label="$label" -v events="$EVENTS" '
        /User time/ { u = $NF } /System time/ { c = u + $NF; if (!cpu || c < cpu) cpu = c }
        /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); s = 0;
                                   for (i = 1; i <= n; i++) s = s * 60 + p[i];
                                   if (!wall || s < wall) wall = s }
        /Maximum resident set size/ { if ($NF > rss) rss = $NF }
        END { if (cpu <= 0) cpu = 0.001;
              printf "%-24s %6.2f s CPU %7.1f M events/CPU-s %6.2f s wall %7.1f MB peak RSS\n",
                     label, cpu, events / cpu / 1e6, wall, rss / 1024 }' "$log"
    rm -f "$log"
}

if [ ! -d "$OUT" ]; then
    echo "generating $OUT ..."
    "$B/bench/ovni/gen_emu_trace" "$OUT" "$EVENTS" "$THREADS"
fi
bytes=$(find -L "$OUT" -name stream.obs -exec cat {} + | wc -c)
echo "ovniemu: $EVENTS events, $((bytes / 1000000)) MB in $THREADS streams ($(nproc) cores)"
cpu_measure "convert --to paraver" sh -c "rm -rf '$OUT.pv'; '$B/perfweave' convert '$OUT' --to paraver -o '$OUT.pv' -q"
rm -rf "$OUT.pv"
cpu_measure "convert (states.json)" "$B/perfweave" convert "$OUT" -o "$OUT.states.json" -q --force
rm -f "$OUT.states.json"
cpu_measure "convert --to perfetto" "$B/perfweave" convert "$OUT" --to perfetto -o "$OUT.pftrace" -q --force
rm -f "$OUT.pftrace"
cpu_measure "convert (states.pftrace)" "$B/perfweave" convert "$OUT" -o "$OUT.states.pftrace" -q --force
rm -f "$OUT.states.pftrace"
cpu_measure "stats" "$B/perfweave" stats "$OUT" -q
cpu_measure "check" "$B/perfweave" check "$OUT" -q
cpu_measure "stats --set analyses=0" "$B/perfweave" stats "$OUT" -q --set analyses=0
if [ -n "${OVNIEMU:-}" ]; then
    rm -rf "$OUT.ovniemu"
    cp -r "$OUT" "$OUT.ovniemu"
    cpu_measure "ovniemu" sh -c "rm -f '$OUT.ovniemu'/ovni/*.prv; '$OVNIEMU' '$OUT.ovniemu/ovni'"
    rm -rf "$OUT.ovniemu"
fi
