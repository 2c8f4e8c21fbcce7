#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and/or valgrind memcheck.
#
#   scripts/sanitizers.sh            # both
#   scripts/sanitizers.sh asan       # AddressSanitizer only
#   scripts/sanitizers.sh valgrind   # valgrind memcheck only
#
# Both run the unit tests of the workspace libraries and every integration
# test binary except `compiletest` (trybuild runs rustc on the compile-fail
# cases; that is rustc's memory, not ours). Doctests are not run: each one is
# a separate rustc + binary, which sanitizers would only slow down.
#
# ASan needs `-Zsanitizer`, a nightly flag; RUSTC_BOOTSTRAP=1 lets the stable
# toolchain accept it. `--target` keeps RUSTFLAGS off build scripts and proc
# macros (they run inside rustc, which is not instrumented). Only our crates
# and their dependencies are instrumented, not std (that needs -Zbuild-std).
# Builds go to target/sanitizers/ so the normal build cache is untouched.
#
# MODEL_CASES sets the property-test cases of tests/model.rs: 256 under ASan
# (as in a plain `cargo test`), 32 under valgrind (about 40x slower there).
#
# valgrind counts definite and indirect leaks as errors, not "possibly lost"
# blocks: those are the process-wide type registries (static hash maps whose
# only pointer aims inside the allocation), alive until exit by design.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

mode="${1:-all}"
case "$mode" in
asan | valgrind | all) ;;
*)
    echo "usage: $0 [asan|valgrind|all]" >&2
    exit 2
    ;;
esac

target="$(rustc -vV | sed -n 's/^host: //p')"

# `--test NAME` for every integration test but the trybuild suite.
test_args=()
for file in tests/*.rs; do
    name="$(basename "$file" .rs)"
    [ "$name" = compiletest ] && continue
    test_args+=(--test "$name")
done

run_asan() {
    echo "== AddressSanitizer ($target)"
    local start=$SECONDS
    RUSTC_BOOTSTRAP=1 \
        RUSTFLAGS="-Zsanitizer=address ${RUSTFLAGS:-}" \
        RUSTDOCFLAGS="-Zsanitizer=address" \
        ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:abort_on_error=0" \
        CARGO_TARGET_DIR=target/sanitizers/asan \
        MODEL_CASES="${MODEL_CASES:-256}" \
        cargo test --workspace --target "$target" --lib "${test_args[@]}"
    echo "== AddressSanitizer: clean ($((SECONDS - start)) s)"
}

run_valgrind() {
    if ! command -v valgrind >/dev/null; then
        echo "valgrind is not installed (apt-get install valgrind)" >&2
        exit 1
    fi
    echo "== valgrind memcheck"
    local start=$SECONDS
    local binaries
    # The test executables cargo built, as listed in its JSON messages.
    binaries="$(CARGO_TARGET_DIR=target/sanitizers/valgrind \
        cargo test --workspace --lib "${test_args[@]}" --no-run --message-format=json |
        grep '"profile"' | grep -o '"executable":"[^"]*"' | cut -d'"' -f4)"
    # Proc-macro crates link std dynamically; cargo test would set this.
    local sysroot_lib
    sysroot_lib="$(rustc --print target-libdir)"
    local failed=0
    for bin in $binaries; do
        echo "-- $bin"
        if ! LD_LIBRARY_PATH="$sysroot_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            MODEL_CASES="${MODEL_CASES:-32}" \
            valgrind --quiet --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --show-possibly-lost=no \
            "$bin" --test-threads=2 -q; then
            echo "!! valgrind reported errors in $bin" >&2
            failed=1
        fi
    done
    [ "$failed" = 0 ] || exit 1
    echo "== valgrind memcheck: clean ($((SECONDS - start)) s)"
}

case "$mode" in
asan) run_asan ;;
valgrind) run_valgrind ;;
all)
    run_asan
    run_valgrind
    ;;
esac
