#!/usr/bin/env bash
# Runs the peer comparison end to end: criterion benches, the memory probe,
# and the report (results.md + ratios.svg beside this script). One profile
# takes about 8 min of benches on 2 cores plus its build: 10-14 min the
# first time (bevy_ecs included), about 9 min after an ecs-core change with
# thin LTO (measured on a loaded machine). `--frame` runs only the frame
# rows (about 1.5 min of benches).
#
#   benches-peers/run.sh                   # everything, profile cgu1 (as before PROFILE)
#   PROFILE=thin benches-peers/run.sh      # everything under one build profile
#   PROFILE=all benches-peers/run.sh       # default, cgu1, thin, fat in turn, one report
#   benches-peers/run.sh --frame           # only the frame rows' ids (report.py --frame-filter)
#   PROFILE=all benches-peers/run.sh --frame
#   ALIGN=64 benches-peers/run.sh --frame  # diagnostic: every loop aligned to 64 bytes
#   benches-peers/run.sh simple_iter       # other args go to criterion (a filter regex,
#                                          # --warm-up-time 0.5 --measurement-time 1, ...)
#
# PROFILE (default cgu1) picks the cargo profile (Cargo.toml):
#   default  --profile bench-default  cargo's release defaults: codegen-units = 16, no LTO
#   cgu1     --profile bench          codegen-units = 1, no LTO (what run.sh always ran)
#   thin     --profile bench-thin     codegen-units = 1, thin LTO
#   fat      --profile bench-fat      codegen-units = 1, fat LTO
# Each profile's criterion results go to <target>/criterion-<profile>
# (CRITERION_HOME), so profiles never overwrite each other's; report.py
# reads them all. Every profile compiles everything (bevy_ecs included)
# once, into its own target/<dir> (cgu1: target/release).
#
# ALIGN=N builds everything (the peers too) with every loop aligned to N
# bytes, into its own target directory (target-alignN), and writes the
# report there rather than beside this script: a diagnostic, not one of the
# profiles the tables count. Where a build happens to put a hot loop (across
# a 64-byte line or not) moved a probe's loop by 1.8x; aligned, that part of
# the noise is gone (see README.md, "Reading the figures").
#
# The derive compile-cost probe is slow and separate: run compile_cost.sh
# first and the report includes its table.
set -euo pipefail
cd "$(dirname "$0")"
out=()
if [ -n "${ALIGN:-}" ]; then
    case "$ALIGN" in
        '' | *[!0-9]*)
            echo "run.sh: ALIGN=$ALIGN: expected a number of bytes (64)" >&2
            exit 2
            ;;
    esac
    export RUSTFLAGS="${RUSTFLAGS:-} -C llvm-args=-align-loops=$ALIGN"
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target-align$ALIGN}"
    out=(--out "$CARGO_TARGET_DIR")
fi
target="${CARGO_TARGET_DIR:-$PWD/target}"
# glibc returns a freed large block to the kernel or keeps it depending on
# what was freed before (its mmap threshold adapts at run time), so whether a
# scenario that builds fresh worlds pays page faults would depend on the
# scenarios that ran first. Fixed thresholds, the same for all three
# libraries, keep freed blocks for reuse; see README.md, "Reading the figures".
export MALLOC_MMAP_THRESHOLD_=16777216 MALLOC_TRIM_THRESHOLD_=268435456

cargo_profile() {
    case "$1" in
        default) echo bench-default ;;
        cgu1) echo bench ;;
        thin) echo bench-thin ;;
        fat) echo bench-fat ;;
    esac
}

PROFILE="${PROFILE:-cgu1}"
case "$PROFILE" in
    all) profiles=(default cgu1 thin fat) ;;
    default | cgu1 | thin | fat) profiles=("$PROFILE") ;;
    *)
        echo "run.sh: PROFILE=$PROFILE: expected default, cgu1, thin, fat or all" >&2
        exit 2
        ;;
esac

frame=0
args=()
for a in "$@"; do
    if [ "$a" = --frame ]; then frame=1; else args+=("$a"); fi
done
if [ "$frame" = 1 ]; then
    args+=("$(python3 report.py --frame-filter)")
fi

for p in "${profiles[@]}"; do
    cp="$(cargo_profile "$p")"
    start=$SECONDS
    cargo bench --profile "$cp" --bench peers --no-run
    built=$SECONDS
    CRITERION_HOME="$target/criterion-$p" cargo bench --profile "$cp" --bench peers -- "${args[@]}"
    echo "run.sh: profile $p (--profile $cp): build $((built - start)) s," \
        "benches $((SECONDS - built)) s" >&2
done

# The memory probe counts bytes, which no profile changes: once, with a
# profile just built (cgu1 when it ran), and not for a frame-rows run.
report_profile="${profiles[0]}"
for p in "${profiles[@]}"; do [ "$p" = cgu1 ] && report_profile=cgu1; done
if [ "$frame" = 0 ]; then
    cargo run --profile "$(cargo_profile "$report_profile")" --quiet --bin memory -- \
        "$target/peers-memory.json"
fi
python3 report.py --target "$target" --profile "$report_profile" ${out[@]+"${out[@]}"}
