//! The derive's compile-fail suite: each file under `tests/ui/fail/` is one
//! mistake, and its `.stderr` pins where the error points and what it says.
//! The `tests/ui/pass/` files must compile and run (hygiene, deep chains).
//!
//! Regenerate the snapshots with `TRYBUILD=overwrite cargo test --test compiletest`,
//! then read every changed `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
