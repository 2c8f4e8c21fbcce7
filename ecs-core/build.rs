//! Sets the `linked_catalog` cfg where the link-time catalog (the `catalog`
//! feature) is built as one linker section bounded by `__start_`/`__stop_`
//! symbols: the ELF targets whose linkers define them. Elsewhere the
//! catalog is built by the `inventory` crate's static constructors, and so
//! it is anywhere with `--cfg ecs_core_constructor_catalog` in RUSTFLAGS
//! (how CI tests that path on Linux).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(linked_catalog, ecs_core_constructor_catalog)");
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let catalog = std::env::var_os("CARGO_FEATURE_CATALOG").is_some();
    let constructors = std::env::var_os("CARGO_CFG_ECS_CORE_CONSTRUCTOR_CATALOG").is_some();
    if catalog && !constructors && matches!(os.as_str(), "linux" | "android" | "freebsd") {
        println!("cargo::rustc-cfg=linked_catalog");
    }
}
