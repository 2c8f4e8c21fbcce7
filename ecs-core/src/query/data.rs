//! Query tuples: up to 16 [`Term`]s read together, and the compile-time
//! check that no two of them can hand out the same component while one of
//! them writes it.

use crate::component::str_eq;
use crate::query::term::{Generations, Slot, Term, TermInfo, UpMaps};
use crate::storage::raw::Lanes;
use crate::ComponentKey;

/// A tuple of [`Term`]s, what [`World::query`](crate::World::query) and
/// [`World::query_mut`](crate::World::query_mut) take: `(&Position,)`,
/// `(EntityId, &mut Position, &Velocity)`, up to 16 terms.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query",
    label = "expected a tuple of query terms",
    note = "a query is a tuple of 1 to 16 terms, such as `(&Position,)` or `(EntityId, &mut Position, &Velocity)`; a term is `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `All<&T>`, `All<&mut T>` for a component type `T`, or `EntityId`"
)]
pub trait QueryData {
    /// One entity's items, a tuple in the terms' order.
    type Item<'w>;
    /// The terms' lanes, walked in step.
    #[doc(hidden)]
    type Lanes<'w>: Lanes + Send;
    /// The terms' states.
    #[doc(hidden)]
    type States<'w>: Send;
    #[doc(hidden)]
    const TERMS: &'static [TermInfo];
    /// Evaluated by every mutable query: a compile error when two terms
    /// could hand out the same component and one of them writes it.
    #[doc(hidden)]
    const CHECKED: ();
    #[doc(hidden)]
    fn open<'w>(
        slots: impl FnMut(usize) -> Slot<'w>,
    ) -> Option<(Self::Lanes<'w>, Self::States<'w>)>;
    #[doc(hidden)]
    fn fetch<'w>(
        row: <Self::Lanes<'w> as Lanes>::Item,
        states: &mut Self::States<'w>,
        ups: &UpMaps<'w>,
    ) -> Option<Self::Item<'w>>;
    #[doc(hidden)]
    fn fetch_fast<'w>(
        row: <Self::Lanes<'w> as Lanes>::Item,
        states: &mut Self::States<'w>,
        ups: &UpMaps<'w>,
    ) -> Self::Item<'w>;
    #[doc(hidden)]
    fn split<'w>(states: Self::States<'w>, at: usize) -> (Self::States<'w>, Self::States<'w>);
    #[doc(hidden)]
    fn idle(ids: Generations<'_>) -> Self::States<'_>;
}

macro_rules! query_data {
    ($($name:ident / $var:ident),+) => {
        impl<$($name: Term),+> QueryData for ($($name,)+) {
            type Item<'w> = ($($name::Item<'w>,)+);
            type Lanes<'w> = ($($name::Lane<'w>,)+);
            type States<'w> = ($($name::State<'w>,)+);
            const TERMS: &'static [TermInfo] = &[$($name::INFO),+];
            const CHECKED: () = check(Self::TERMS);

            #[allow(non_snake_case)]
            #[inline]
            fn open<'w>(
                mut slots: impl FnMut(usize) -> Slot<'w>,
            ) -> Option<(Self::Lanes<'w>, Self::States<'w>)> {
                let mut index = 0..;
                $(let $var = $name::open(slots(index.next().expect("an endless range")))?;)+
                Some((($($var.0,)+), ($($var.1,)+)))
            }

            #[inline(always)]
            #[allow(non_snake_case)]
            fn fetch<'w>(
                row: <Self::Lanes<'w> as Lanes>::Item,
                states: &mut Self::States<'w>,
                ups: &UpMaps<'w>,
            ) -> Option<Self::Item<'w>> {
                let ($($var,)+) = row;
                let ($($name,)+) = states;
                // Every term's state advances before any is looked at: the
                // row is left behind whole even when it is skipped.
                $(let $var = $name::fetch($var, $name, ups);)+
                Some(($($var?,)+))
            }

            #[inline(always)]
            #[allow(non_snake_case)]
            fn fetch_fast<'w>(
                row: <Self::Lanes<'w> as Lanes>::Item,
                states: &mut Self::States<'w>,
                ups: &UpMaps<'w>,
            ) -> Self::Item<'w> {
                let ($($var,)+) = row;
                let ($($name,)+) = states;
                ($($name::fetch_fast($var, $name, ups),)+)
            }

            #[allow(non_snake_case)]
            fn split<'w>(states: Self::States<'w>, at: usize) -> (Self::States<'w>, Self::States<'w>) {
                let ($($var,)+) = states;
                $(let $var = $name::split($var, at);)+
                (($($var.0,)+), ($($var.1,)+))
            }

            fn idle(ids: Generations<'_>) -> Self::States<'_> {
                ($($name::idle(ids),)+)
            }
        }
    };
}

for_each_tuple!(query_data);

/// Two terms of one query that could hand out the same component, one of
/// them mutably: `a`'s type is `b`'s or derives from it (or the reverse).
/// `None` when only `TypeId`s can tell (generic instantiations).
const fn conflict(a: &TermInfo, b: &TermInfo) -> Option<bool> {
    let (Some(ka), Some(kb)) = (a.key, b.key) else {
        return Some(false);
    };
    if !a.mutable && !b.mutable {
        return Some(false);
    }
    match (chain_holds(a.chain, kb), chain_holds(b.chain, ka)) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// Whether `key`'s type is in `chain`, as far as a constant can tell.
const fn chain_holds(chain: &[ComponentKey], key: ComponentKey) -> Option<bool> {
    let mut ambiguous = false;
    let mut i = 0;
    while i < chain.len() {
        match chain[i].same_type(key) {
            Some(true) => return Some(true),
            None => ambiguous = true,
            Some(false) => {}
        }
        i += 1;
    }
    if ambiguous {
        None
    } else {
        Some(false)
    }
}

/// Whether some pair can only be told apart at run time (two
/// instantiations of one generic component type). A constant: a query
/// whose terms a constant tells apart pays nothing for it per call.
pub(crate) const fn needs_runtime_check(terms: &[TermInfo]) -> bool {
    let mut i = 0;
    while i < terms.len() {
        let mut j = i + 1;
        while j < terms.len() {
            if conflict(&terms[i], &terms[j]).is_none() {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

/// Whether a term reads up the scene graph ([`Up`](crate::Up)).
pub(crate) const fn reads_up(terms: &[TermInfo]) -> bool {
    let mut i = 0;
    while i < terms.len() {
        if terms[i].up {
            return true;
        }
        i += 1;
    }
    false
}

/// The pair of terms that hands out one component twice, by `TypeId`: the
/// run-time half of the check, for generic component types.
pub(crate) fn runtime_conflict(terms: &[TermInfo]) -> Option<(usize, usize)> {
    let same = |a: &TermInfo, b: &TermInfo| {
        let (Some(ka), Some(kb)) = (a.key, b.key) else {
            return false;
        };
        (a.mutable || b.mutable) && (a.chain.contains(&kb) || b.chain.contains(&ka))
    };
    (0..terms.len())
        .flat_map(|i| (i + 1..terms.len()).map(move |j| (i, j)))
        .find(|&(i, j)| same(&terms[i], &terms[j]))
}

/// Fails compilation when two terms could hand out the same component and
/// one of them writes it, naming both.
const fn check(terms: &[TermInfo]) {
    let mut i = 0;
    while i < terms.len() {
        let mut j = i + 1;
        while j < terms.len() {
            if let Some(true) = conflict(&terms[i], &terms[j]) {
                let mut message = Message::new();
                message.push("this query could hand out one component twice, once mutably: ");
                describe(&mut message, &terms[i]);
                message.push(" and ");
                describe(&mut message, &terms[j]);
                let (a, b) = (terms[i].key, terms[j].key);
                if let (Some(a), Some(b)) = (a, b) {
                    if str_eq(a.path(), b.path()) {
                        message.push(" name the same component type");
                    } else {
                        message.push(" name types where one is-a the other (`");
                        let (derived, base) = if terms[i].chain.len() > terms[j].chain.len() {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        message.push(derived.name());
                        message.push("` derives from `");
                        message.push(base.name());
                        message.push("`)");
                    }
                }
                if terms[i].up || terms[j].up {
                    // The ancestor may be an entity of the same kind.
                    let up = if terms[i].up { &terms[i] } else { &terms[j] };
                    message.push(
                        "; an ancestor may hold the component written: collect the ancestors' \
                         values first (`world.query::<(EntityId, Up<&",
                    );
                    if let Some(key) = up.key {
                        message.push(key.name());
                    }
                    message.push(">)>()` into a `Vec`), then write in a second query");
                } else {
                    message.push(
                        "; make both terms shared (`&`), or read one of them in a second query",
                    );
                }
                panic!("{}", message.as_str());
            }
            j += 1;
        }
        i += 1;
    }
}

const fn describe(message: &mut Message, term: &TermInfo) {
    message.push("`");
    let wrapper = if term.up {
        "Up<"
    } else if term.all {
        "All<"
    } else if !term.required {
        "Option<"
    } else {
        ""
    };
    message.push(wrapper);
    message.push(if term.mutable { "&mut " } else { "&" });
    if let Some(key) = term.key {
        message.push(key.name());
    }
    if !wrapper.is_empty() {
        message.push(">");
    }
    message.push("`");
}

/// A message built in a constant: a fixed buffer, cut at a character
/// boundary when full.
struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl Message {
    const fn new() -> Self {
        Message {
            bytes: [0; 512],
            len: 0,
        }
    }

    const fn push(&mut self, text: &str) {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < self.bytes.len() {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        if i < text.len() {
            // Cut short: never end inside a multi-byte character.
            while self.len > 0 && (self.bytes[self.len - 1] & 0xC0) == 0x80 {
                self.len -= 1;
            }
            if self.len > 0 && self.bytes[self.len - 1] >= 0xC0 {
                self.len -= 1;
            }
        }
    }

    const fn as_str(&self) -> &str {
        let (used, _) = self.bytes.split_at(self.len);
        match std::str::from_utf8(used) {
            Ok(text) => text,
            Err(_) => "this query could hand out one component twice, once mutably",
        }
    }
}
