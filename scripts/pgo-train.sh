#!/bin/sh
# pgo-train.sh BUILD PROFILE — runs the instrumented perfweave in BUILD
# (configured with PW_PGO_GENERATE=PROFILE) over traces that the bench
# generators write, the commands users run most, so that PROFILE says
# which way the per-record paths go (cmake/pgo.cmake).  A few seconds.
# Ends by writing PROFILE/trained.stamp, which the optimised build
# depends on; a failed run, or a compiler that wrote no profile, leaves
# no stamp.
set -eu
build=$1
profile=$2
pw="$build/perfweave"
# A profile newer than the instrumented program is its own: training
# again would only rebuild every optimised object for nothing.
if [ -f "$profile/trained.stamp" ] && [ "$profile/trained.stamp" -nt "$pw" ]; then
    exit 0
fi
rm -rf "$profile"
mkdir -p "$profile"
work=$(mktemp -d "${TMPDIR:-/tmp}/pw-pgo.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Inputs of different shapes: ovni with several runtime models (valid
# for the emulator), DUMPI ranks, ROSS files.
mkdir -p "$work/dumpi" "$work/ross"
"$build/bench/ovni/gen_emu_trace" "$work/emu" 300000 8 >/dev/null
"$build/bench/dumpi/gen_dumpi_bench" "$work/dumpi" 8 20000 >/dev/null
"$build/bench/ross/gen_ross" "$work/ross" run 2 2 >/dev/null

run() { "$pw" "$@" >/dev/null 2>&1 || true; } # a finding's exit status is not a failure here
for t in emu dumpi ross; do
    run info "$work/$t"
    run check "$work/$t"
    run stats -j 1 "$work/$t"
    run stats -j 1 "$work/$t" --json
    run convert "$work/$t" --to perfetto -o "$work/$t.pftrace"
    run convert "$work/$t" --to chrome -o "$work/$t.json"
done
run convert "$work/emu" --to paraver -o "$work/emu-prv"
run convert "$work/emu" -o "$work/emu.states.pftrace"
run convert "$work/emu" -o "$work/emu.states.json"
run dump --jsonl --states "$work/emu"
run convert "$work/dumpi" --to otf2 -o "$work/dumpi.otf2"
run convert "$work/dumpi" --to paraver -o "$work/dumpi.prv"
run stats -j 2 "$work/dumpi"
n=$(find "$profile" -name '*.gcda' | wc -l)
if [ "$n" -eq 0 ]; then # not GCC, or not Release: the build goes on without a profile
    echo "pgo-train: no profile was written to $profile (GCC Release builds only)" >&2
    exit 0
fi
touch "$profile/trained.stamp"
