#!/bin/sh
# bench/mpi/run.sh — strong scaling of perfweave-mpi on the DUMPI and ovni
# bench traces (generated here, never committed): stats, check and convert
# --to otf2, --to perfetto and (rank 0 alone) --to chrome with P = 1, 2 processes (one thread each),
# and stats of a ROSS run and an HPCToolkit database: the best wall time
# of REPEAT runs (with mpirun's start, see the "start" rows), the CPU
# seconds the busiest process spent on its own work and those of all
# processes (as perfweave-mpi counts them: without MPI's busy waiting; a
# shared host stretches wall time, CPU seconds show how the work splits),
# the largest peak RSS of one process, and the most bytes one process sent.
# "counts" rows run stats and check with --set analyses=0: the format's own
# summary and read-through without the registered analyses (the ovni
# emulator), which run on rank 0 over every location.  ROWS="ovni-counts
# ross" runs only the rows of those names.
#   OVNI_EVENTS=16000000 OVNI_STREAMS=8 RANKS=8 CALLS=800000 ROSS_MB=64 \
#   HPC_PROFILES=200 sh bench/mpi/run.sh
set -eu
cd "$(dirname "$0")/../.."
B=${BUILD:-build/release}
PROCS=${PROCS:-1 2}
OVNI_EVENTS=${OVNI_EVENTS:-16000000}
OVNI_STREAMS=${OVNI_STREAMS:-8}
RANKS=${RANKS:-8}
CALLS=${CALLS:-800000}
ROSS_MB=${ROSS_MB:-64}
HPC_PROFILES=${HPC_PROFILES:-200}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PERFWEAVE_MPI_TRAFFIC=1
[ -x "$B/perfweave-mpi" ] || { echo "bench/mpi: skipped, perfweave-mpi was not built (MPI not found)"; exit 0; }
OUT=bench/out/mpi
mkdir -p "$OUT/dumpi"
OVNI="$OUT/ovni-$OVNI_EVENTS-$OVNI_STREAMS"
[ -d "$OVNI" ] || "$B/bench/ovni/gen_ovni_trace" "$OVNI" "$OVNI_EVENTS" "$OVNI_STREAMS" >/dev/null
rm -f "$OUT"/dumpi/*
"$B/bench/dumpi/gen_dumpi_bench" "$OUT/dumpi" "$RANKS" "$CALLS" >/dev/null
ROSS="$OUT/ross-$ROSS_MB"
[ -d "$ROSS" ] || { mkdir -p "$ROSS" && "$B/bench/ross/gen_ross" "$ROSS" bench "$ROSS_MB" "$ROSS_MB" >/dev/null; }
HPC="$OUT/hpctoolkit-$HPC_PROFILES"
[ -d "$HPC" ] || "$B/gen_hpctoolkit_db" "$HPC" "$HPC_PROFILES" 20000 1000 20000 >/dev/null

# run TRACE_NAME P COMMAND...: one row, the best of REPEAT runs; every
# process runs under /usr/bin/time (its peak RSS); the traffic line comes
# from perfweave-mpi itself.
run() {
    name=$1 np=$2
    shift 2
    case " ${ROWS:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    log=$OUT/run.log
    rm -f "$log"*
    : > "$log"
    i=0
    while [ "$i" -lt "${REPEAT:-3}" ]; do
        rm -rf "$OUT/out.otf2" "$OUT/out.pftrace" "$OUT/out.json"
        start=$(date +%s.%N)
        # each process appends its own time file (their lines would interleave in one)
        mpirun --oversubscribe -np "$np" sh -c 'exec /usr/bin/time -a -o "$0.$OMPI_COMM_WORLD_RANK" -f "rss %M" "$@"' \
            "$log" "$B/perfweave-mpi" "$@" >/dev/null 2>>"$log" || true
        end=$(date +%s.%N)
        echo "wall $start $end" >> "$log"
        i=$((i + 1))
    done
    awk -v n="$name $1" -v p="$np" '
        /^wall/ { t = $3 - $2; if (best == 0 || t < best) best = t; runs++ }
        /^rss/ { if ($2 > r) r = $2 }
        /sent [0-9]+ bytes/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "sent" && $(i + 1) > s) s = $(i + 1)
                if ($i == "worked") { c = $(i + 1); all += c; if (c > busiest) busiest = c }
            }
        }
        END { printf "%-22s %3d %8.2f %10.2f %9.2f %8.1f %12d\n", n, p, best, busiest, all / runs, r / 1024, s }' "$log"*
}

echo "ovni: $(du -sb "$OVNI" | cut -f1) bytes in $OVNI_STREAMS streams; dumpi: $(du -sb "$OUT/dumpi" | cut -f1) bytes in $RANKS ranks; ross: $(du -sb "$ROSS" | cut -f1) bytes; hpctoolkit: $(du -sb "$HPC" | cut -f1) bytes in $HPC_PROFILES profiles ($(nproc) cores)"
printf '%-22s %3s %8s %10s %9s %8s %12s\n' what P "wall s" "work max s" "work all s" "RSS MB" "sent B/proc"
for np in $PROCS; do
    run start "$np" --help
    run ovni "$np" stats "$OVNI" -q -j 1
    run ovni "$np" check "$OVNI" -q -j 1
    run ovni-counts "$np" stats "$OVNI" -q -j 1 --set analyses=0
    run ovni-counts "$np" check "$OVNI" -q -j 1 --set analyses=0
    run ovni/otf2 "$np" convert "$OVNI" -q -j 1 --to otf2 -o "$OUT/out.otf2"
    run dumpi "$np" stats "$OUT/dumpi" -q -j 1
    run dumpi "$np" check "$OUT/dumpi" -q -j 1
    run dumpi/otf2 "$np" convert "$OUT/dumpi" -q -j 1 --to otf2 -o "$OUT/out.otf2"
    run ovni/perfetto "$np" convert "$OVNI" -q -j 1 --to perfetto -o "$OUT/out.pftrace"
    run dumpi/perfetto "$np" convert "$OUT/dumpi" -q -j 1 --to perfetto -o "$OUT/out.pftrace"
    # written by rank 0 alone (docs/scaling.md "Why the other convert targets stay on rank 0")
    run dumpi/chrome "$np" convert "$OUT/dumpi" -q -j 1 --to chrome -o "$OUT/out.json"
    run ross "$np" stats "$ROSS" -q -j 1
    run hpctoolkit "$np" stats "$HPC" -q -j 1
done
