//! The link-time catalog on ELF targets (Linux, Android, FreeBSD): every
//! non-generic derived component puts one [`LinkedEntry`] in one linker
//! section, and the linker's `__start_`/`__stop_` symbols bound the array
//! the entries form.
//!
//! Why not a crate that collects statics (`inventory`, `linkme`): their
//! entry per type is a node, a constructor function and a pointer to it, or
//! a static plus a type-check function, and each item costs rustc a trip
//! through MIR, const evaluation and LLVM. Here the entry is the `static`
//! the derive emits anyway (the cache of the type's process-wide number),
//! grown by one reference to the type's table: about 1.2M of rustc's
//! instructions per component (its table's evaluation included) instead
//! of 4.7M.
//!
//! The section's name carries the crate's major and minor version, so two
//! semver-incompatible copies of this crate in one program (whose entries
//! could differ in layout) never share one.

use std::any::Any;

use crate::storage::numbers::TypeNumberCell;

/// One component type's entry in the section: the cache of its
/// process-wide number, and its table.
#[doc(hidden)]
pub struct LinkedEntry {
    /// What the type's `Component::__RUNTIME.number` points at.
    pub number: TypeNumberCell,
    /// The type's table, erased: storage knows memory, not what a
    /// component is, so the component layer reads it back by downcasting.
    /// `None` only in this crate's own entry, which keeps the section and
    /// its bounds defined in a program that derives no component.
    pub table: Option<&'static (dyn Any + Send + Sync)>,
}

/// The section's name, as the derive's entries and the bounds below spell
/// it (an attribute takes a literal, not a constant).
#[cfg(test)]
const SECTION: &str = "ecs_core_catalog_0_1";

/// The derive's number cache for the non-generic type `$ty` with the
/// link-time catalog: its number cache, placed in the catalog's section
/// next to its table. (Without the catalog, the same macro in the crate
/// root is a plain `static`.)
#[doc(hidden)]
#[macro_export]
macro_rules! __number_cell {
    ($ty:ty) => {{
        // The section's name is this crate's alone (it carries the
        // version); every static placed there is this macro's or `OWN`.
        // SAFETY: a `LinkedEntry`, the only type in the section, so
        // `linked_entries` reads an array of them.
        #[used]
        #[unsafe(link_section = "ecs_core_catalog_0_1")]
        static ENTRY: $crate::__private::LinkedEntry = $crate::__private::linked_entry::<$ty>();
        ::core::option::Option::Some(&ENTRY.number)
    }};
}

// SAFETY: a `LinkedEntry`, like every other static in the section (see
// `__number_cell`).
#[used]
#[unsafe(link_section = "ecs_core_catalog_0_1")]
static OWN: LinkedEntry = LinkedEntry {
    number: TypeNumberCell::new(),
    table: None,
};

// SAFETY: the linker defines both symbols as the bounds of the section
// (it does so for every section whose name is a C identifier), and they
// are declared zero-sized, so naming them asserts nothing about the bytes
// there: only their addresses are used.
unsafe extern "Rust" {
    #[link_name = "__start_ecs_core_catalog_0_1"]
    static START: [LinkedEntry; 0];
    #[link_name = "__stop_ecs_core_catalog_0_1"]
    static STOP: [LinkedEntry; 0];
}

/// Every entry linked into the program (this crate's own included: its
/// `table` is `None`).
pub(crate) fn linked_entries() -> &'static [LinkedEntry] {
    // Referenced here so the object file holding `OWN` is linked whenever
    // this function is, whichever codegen unit each lands in.
    let own: *const LinkedEntry = &raw const OWN;
    let start = (&raw const START).cast::<LinkedEntry>();
    let stop = (&raw const STOP).cast::<LinkedEntry>();
    let bytes = (stop as usize).wrapping_sub(start as usize);
    let size = size_of::<LinkedEntry>();
    // The linker concatenates the entries, each aligned to
    // `align_of::<LinkedEntry>()`, which divides `size`: no gaps, so the
    // span is a whole number of entries and holds `OWN`. Checked, not
    // assumed, because it is the linker's promise rather than Rust's.
    assert!(
        start <= stop && bytes.is_multiple_of(size) && (start..stop).contains(&own),
        "ecs_core: the link-time catalog's section is malformed"
    );
    // The section holds only the `LinkedEntry` statics of `__number_cell`
    // and `OWN`, each initialised and alive for the whole program, and they
    // are only read through shared references (their `number` is atomic).
    // SAFETY: `start..stop` spans whole, initialised `LinkedEntry` values
    // laid end to end (checked above; see the comment before), never
    // written through anything but their atomics.
    unsafe { std::slice::from_raw_parts(start, bytes / size) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table for the probe entry below: any `Send + Sync` value will do,
    /// since storage only carries it.
    static PROBE_TABLE: u32 = 7;

    // SAFETY: a `LinkedEntry`, like every other static in the section.
    #[used]
    #[unsafe(link_section = "ecs_core_catalog_0_1")]
    static PROBE: LinkedEntry = LinkedEntry {
        number: TypeNumberCell::EMPTY,
        table: Some(&PROBE_TABLE),
    };

    /// The section holds this crate's own entry and every static placed
    /// there, each once, readable as it was written.
    #[test]
    fn the_section_holds_every_entry_once() {
        let entries = linked_entries();
        assert_eq!(entries.iter().filter(|e| e.table.is_none()).count(), 1);
        let probes: Vec<&LinkedEntry> = entries
            .iter()
            .filter(|e| std::ptr::eq(*e, &PROBE))
            .collect();
        assert_eq!(probes.len(), 1);
        let table = probes[0].table.unwrap().downcast_ref::<u32>();
        assert_eq!(table, Some(&7));
    }

    /// The section's name carries the version that decides whether two
    /// copies of this crate may share it, and every attribute and bound in
    /// this file spells that one name (attributes take literals, so the
    /// name is written out several times).
    #[test]
    fn the_section_name_carries_the_crate_version() {
        let version = env!("CARGO_PKG_VERSION");
        let mut parts = version.split('.');
        let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
        assert_eq!(SECTION, format!("ecs_core_catalog_{major}_{minor}"));
        let source = include_str!("linked.rs");
        let named: Vec<&str> = source
            .split("ecs_core_catalog_")
            .skip(1)
            .map(|rest| {
                rest.split(|c: char| !c.is_ascii_digit() && c != '_')
                    .next()
                    .unwrap()
            })
            // This test's own pattern and format string name no version.
            .filter(|version| !version.is_empty())
            .collect();
        assert!(named.len() >= 5, "{named:?}");
        let own = SECTION.trim_start_matches("ecs_core_catalog_");
        assert!(named.iter().all(|n| *n == own), "{named:?} against {own}");
    }
}
