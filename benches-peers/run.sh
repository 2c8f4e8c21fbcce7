#!/usr/bin/env bash
# Runs the peer comparison end to end: criterion benches (~3 min on 2 cores,
# plus ~2 min for the first build of bevy_ecs), the memory probe, and the
# report (results.md + ratios.svg beside this script).
#
#   benches-peers/run.sh                 # everything
#   benches-peers/run.sh simple_iter     # extra args go to criterion as a filter
#
# The derive compile-cost probe is slow and separate: run compile_cost.sh
# first and the report includes its table.
set -euo pipefail
cd "$(dirname "$0")"
target="${CARGO_TARGET_DIR:-$PWD/target}"
# glibc returns a freed large block to the kernel or keeps it depending on
# what was freed before (its mmap threshold adapts at run time), so whether a
# scenario that builds fresh worlds pays page faults would depend on the
# scenarios that ran first. Fixed thresholds, the same for all three
# libraries, keep freed blocks for reuse; see README.md, "Reading the figures".
export MALLOC_MMAP_THRESHOLD_=16777216 MALLOC_TRIM_THRESHOLD_=268435456
cargo bench --bench peers -- "$@"
cargo run --release --quiet --bin memory -- "$target/peers-memory.json"
python3 report.py --target "$target"
