#!/bin/sh
# bench/mpi/run.sh — strong scaling of perfweave-mpi on the DUMPI and ovni
# bench traces (generated here, never committed): stats, check and convert
# --to otf2 with P = 1, 2 processes (one thread each): the best wall time
# of REPEAT runs, the largest peak RSS of one process, and the bytes each
# process other than rank 0 sent over MPI.
#   OVNI_EVENTS=8000000 OVNI_STREAMS=8 RANKS=8 CALLS=400000 sh bench/mpi/run.sh
set -eu
cd "$(dirname "$0")/../.."
B=${BUILD:-build/release}
PROCS=${PROCS:-1 2}
OVNI_EVENTS=${OVNI_EVENTS:-8000000}
OVNI_STREAMS=${OVNI_STREAMS:-8}
RANKS=${RANKS:-8}
CALLS=${CALLS:-400000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PERFWEAVE_MPI_TRAFFIC=1
[ -x "$B/perfweave-mpi" ] || { echo "build first (MPI found): make build" >&2; exit 2; }
OUT=bench/out/mpi
mkdir -p "$OUT/dumpi"
OVNI="$OUT/ovni-$OVNI_EVENTS-$OVNI_STREAMS"
[ -d "$OVNI" ] || "$B/bench/ovni/gen_ovni_trace" "$OVNI" "$OVNI_EVENTS" "$OVNI_STREAMS" >/dev/null
rm -f "$OUT"/dumpi/*
"$B/bench/dumpi/gen_dumpi_bench" "$OUT/dumpi" "$RANKS" "$CALLS" >/dev/null

# run TRACE_NAME PATH P COMMAND...: one row, the best of REPEAT runs; every
# process runs under /usr/bin/time (its peak RSS); the traffic line comes
# from perfweave-mpi itself.
run() {
    name=$1 path=$2 np=$3
    shift 3
    log=$OUT/run.log
    rm -f "$log"*
    : > "$log"
    i=0
    while [ "$i" -lt "${REPEAT:-3}" ]; do
        rm -rf "$OUT/out.otf2"
        start=$(date +%s.%N)
        # each process appends its own time file (their lines would interleave in one)
        mpirun --oversubscribe -np "$np" sh -c 'exec /usr/bin/time -a -o "$0.$OMPI_COMM_WORLD_RANK" -f "rss %M" "$@"' \
            "$log" "$B/perfweave-mpi" "$@" >/dev/null 2>>"$log" || true
        end=$(date +%s.%N)
        echo "wall $start $end" >> "$log"
        i=$((i + 1))
    done
    bytes=$(du -sb "$path" | cut -f1)
    awk -v n="$name $1" -v p="$np" -v b="$bytes" '
        /^wall/ { t = $3 - $2; if (best == 0 || t < best) best = t }
        /^rss/ { if ($2 > r) r = $2 }
        /sent [0-9]+ bytes/ { for (i = 1; i <= NF; i++) if ($i == "sent") s = $(i + 1) > s ? $(i + 1) : s }
        END { printf "%-22s %3d %8.2f %9.0f %8.1f %12d\n", n, p, best, b / best / 1e6, r / 1024, s }' "$log"*
}

echo "ovni: $(du -sb "$OVNI" | cut -f1) bytes in $OVNI_STREAMS streams; dumpi: $(du -sb "$OUT/dumpi" | cut -f1) bytes in $RANKS ranks ($(nproc) cores)"
printf '%-22s %3s %8s %9s %8s %12s\n' what P "wall s" "MB/s" "RSS MB" "sent B/proc"
for np in $PROCS; do
    run ovni "$OVNI" "$np" stats "$OVNI" -q -j 1
    run ovni "$OVNI" "$np" check "$OVNI" -q -j 1
    run ovni "$OVNI" "$np" convert "$OVNI" -q -j 1 --to otf2 -o "$OUT/out.otf2"
    run dumpi "$OUT/dumpi" "$np" stats "$OUT/dumpi" -q -j 1
    run dumpi "$OUT/dumpi" "$np" check "$OUT/dumpi" -q -j 1
    run dumpi "$OUT/dumpi" "$np" convert "$OUT/dumpi" -q -j 1 --to otf2 -o "$OUT/out.otf2"
done
