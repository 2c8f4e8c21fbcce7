//! Sets the `linked_catalog` cfg where the link-time catalog (the `catalog`
//! feature) is built as one linker section bounded by `__start_`/`__stop_`
//! symbols: the ELF targets whose linkers define them. Elsewhere the
//! catalog is built by the `inventory` crate's static constructors.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(linked_catalog)");
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let catalog = std::env::var_os("CARGO_FEATURE_CATALOG").is_some();
    if catalog && matches!(os.as_str(), "linux" | "android" | "freebsd") {
        println!("cargo::rustc-cfg=linked_catalog");
    }
}
