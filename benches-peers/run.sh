#!/usr/bin/env bash
# Runs the peer comparison end to end: criterion benches (~3 min on 2 cores,
# plus ~2 min for the first build of bevy_ecs), the memory probe, and the
# report (results.md + ratios.svg beside this script).
#
#   benches-peers/run.sh                 # everything
#   benches-peers/run.sh simple_iter     # extra args go to criterion as a filter
set -euo pipefail
cd "$(dirname "$0")"
target="${CARGO_TARGET_DIR:-$PWD/target}"
cargo bench --bench peers -- "$@"
cargo run --release --quiet --bin memory -- "$target/peers-memory.json"
python3 report.py --target "$target"
