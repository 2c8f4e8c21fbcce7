//! Entity names: renaming, and the lists behind finding the first entity
//! with a name or all of them (`World::find_by_name` and
//! `World::find_all_by_name`, in scene/api.rs).

use crate::entity::EntityIndex;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::{EntityId, EntityMut};

/// Names by slot, and slots by name in the order they got the name.
///
/// Many entities often share a name (every copy of a blueprint), so each
/// distinct name is stored once with its slots in the order they got it.
/// That order only grows, so a list kept sorted by appending does; removal
/// leaves a tombstone, swept once tombstones outnumber live entries, so
/// naming, renaming and despawning stay cheap with thousands of "crate"s.
///
/// The names' text lives in one string, each name at its span: a load of
/// 10k distinct names makes no allocation per name, and a snapshot copies
/// the text in one piece. A forgotten name's bytes are reclaimed once they
/// are half the string.
#[derive(Default, Debug)]
pub(crate) struct Names {
    /// By slot: the name's index in `names` and the order it was given in.
    /// Grown only when a name is given, so unnamed worlds pay nothing.
    by_slot: Vec<Option<(u32, u64)>>,
    names: Vec<NameSlots>,
    /// Every name's text, one after another.
    text: String,
    /// How many bytes of `text` no name holds.
    dead_text: usize,
    /// Ids by their text's hash; names whose hashes are equal chain
    /// through [`NameSlots::same_hash`].
    index: HashMap<u64, u32, BuildHasherDefault<Fnv>>,
    /// Ids of forgotten names, reused first.
    free: Vec<u32>,
    next: u64,
    /// How many times a name was given or taken: equal counts of one
    /// history mean equal names (a diff skips comparing them).
    edits: u64,
}

/// No name: the end of a chain of names with one hash.
const NO_NAME: u32 = u32::MAX;

#[derive(Debug)]
struct NameSlots {
    /// Where the text is in [`Names::text`]: from, to.
    text: (usize, usize),
    /// The next name whose text hashes alike, or [`NO_NAME`].
    same_hash: u32,
    /// `(order, slot)`, sorted by order; `slot == GONE` marks a removal.
    entries: Carriers,
    /// Every entry before this one is a removal: where a walk starts, so
    /// finding the first carrier after many removals from the front stays
    /// constant time.
    head: usize,
    live: usize,
}

impl Clone for NameSlots {
    fn clone(&self) -> Self {
        NameSlots {
            text: self.text,
            same_hash: self.same_hash,
            entries: self.entries.clone(),
            head: self.head,
            live: self.live,
        }
    }

    /// Keeps this one's list of carriers (see [`Carriers::clone_from`]).
    fn clone_from(&mut self, source: &Self) {
        self.text = source.text;
        self.same_hash = source.same_hash;
        self.entries.clone_from(&source.entries);
        self.head = source.head;
        self.live = source.live;
    }
}

impl Clone for Names {
    fn clone(&self) -> Self {
        Names {
            by_slot: self.by_slot.clone(),
            names: self.names.clone(),
            text: self.text.clone(),
            dead_text: self.dead_text,
            index: self.index.clone(),
            free: self.free.clone(),
            next: self.next,
            edits: self.edits,
        }
    }

    /// Reuses this one's buffers, so restoring a snapshot into the world
    /// it was taken from allocates nothing (a derived `clone_from` would
    /// clone afresh).
    fn clone_from(&mut self, source: &Self) {
        self.by_slot.clone_from(&source.by_slot);
        self.names.clone_from(&source.names);
        self.text.clone_from(&source.text);
        self.dead_text = source.dead_text;
        if self.index.capacity() >= source.index.len() {
            // Refilled in place (the map's own `clone_from` reallocates
            // unless both have the same number of buckets).
            self.index.clear();
            self.index
                .extend(source.index.iter().map(|(&k, &v)| (k, v)));
        } else {
            self.index.clone_from(&source.index);
        }
        self.free.clone_from(&source.free);
        self.next = source.next;
        self.edits = source.edits;
    }
}

const GONE: EntityIndex = EntityIndex(u32::MAX);

/// A name's `(order, slot)` entries. Most names in a world of distinct
/// names have one carrier, kept in line: a load of 10k distinct names
/// would otherwise make 10k lists of one.
#[derive(Debug)]
enum Carriers {
    One((u64, EntityIndex)),
    Many(Vec<(u64, EntityIndex)>),
}

impl Clone for Carriers {
    fn clone(&self) -> Self {
        match self {
            Carriers::One(entry) => Carriers::One(*entry),
            Carriers::Many(entries) => Carriers::Many(entries.clone()),
        }
    }

    /// Keeps this one's list, so restoring a snapshot allocates nothing
    /// (a list of one is still a list).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Carriers::Many(mine), Carriers::Many(theirs)) => mine.clone_from(theirs),
            (Carriers::Many(mine), Carriers::One(entry)) if mine.capacity() > 0 => {
                mine.clear();
                mine.push(*entry);
            }
            (me, source) => *me = source.clone(),
        }
    }
}

impl Default for Carriers {
    fn default() -> Self {
        Carriers::Many(Vec::new())
    }
}

impl Carriers {
    fn as_slice(&self) -> &[(u64, EntityIndex)] {
        match self {
            Carriers::One(entry) => std::slice::from_ref(entry),
            Carriers::Many(entries) => entries,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [(u64, EntityIndex)] {
        match self {
            Carriers::One(entry) => std::slice::from_mut(entry),
            Carriers::Many(entries) => entries,
        }
    }

    /// The entries as a list that can grow (one in line becomes a list).
    fn as_vec(&mut self) -> &mut Vec<(u64, EntityIndex)> {
        if let Carriers::One(entry) = *self {
            *self = Carriers::Many(vec![entry]);
        }
        match self {
            Carriers::Many(entries) => entries,
            Carriers::One(_) => unreachable!("made a list above"),
        }
    }

    #[inline]
    fn push(&mut self, entry: (u64, EntityIndex)) {
        match self {
            Carriers::Many(entries) if entries.len() < entries.capacity() => entries.push(entry),
            Carriers::Many(entries) if entries.capacity() == 0 => *self = Carriers::One(entry),
            _ => self.as_vec().push(entry),
        }
    }

    /// Room for `additional` more entries; none is made for one more
    /// while there is none (it goes in line).
    #[inline]
    fn reserve(&mut self, additional: usize) {
        match self {
            Carriers::Many(entries) if entries.capacity() == 0 && additional <= 1 => {}
            Carriers::Many(entries) if entries.capacity() == 0 => {
                // A list's first room, made at its size without the growth
                // bookkeeping of `reserve` (a load makes thousands).
                *entries = Vec::with_capacity(additional);
            }
            _ => self.as_vec().reserve(additional),
        }
    }
}

impl NameSlots {
    fn remove(&mut self, order: u64) {
        let entries = self.entries.as_mut_slice();
        if let Ok(at) = entries.binary_search_by_key(&order, |&(o, _)| o) {
            entries[at].1 = GONE;
            self.live -= 1;
            while entries
                .get(self.head)
                .is_some_and(|&(_, slot)| slot == GONE)
            {
                self.head += 1;
            }
            if entries.len() > 16 && self.live * 2 < entries.len() {
                self.entries.as_vec().retain(|&(_, slot)| slot != GONE);
                self.head = 0;
            }
        }
    }

    fn slots(&self) -> impl Iterator<Item = EntityIndex> + '_ {
        self.entries.as_slice()[self.head..]
            .iter()
            .map(|&(_, slot)| slot)
            .filter(|&slot| slot != GONE)
    }
}

/// FNV-1a: names are short, and SipHash's DoS resistance buys nothing for
/// names the program itself chose.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

impl Names {
    /// No names: what a world starts with.
    pub const fn new() -> Self {
        Names {
            by_slot: Vec::new(),
            names: Vec::new(),
            text: String::new(),
            dead_text: 0,
            index: HashMap::with_hasher(BuildHasherDefault::new()),
            free: Vec::new(),
            next: 0,
            edits: 0,
        }
    }

    /// How many times a name was given or taken (see `edits`).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// The interned id of slot `index`'s name.
    pub fn id_of(&self, index: EntityIndex) -> Option<u32> {
        let (id, _) = (*self.by_slot.get(index.index())?)?;
        Some(id)
    }

    /// How many distinct names were ever interned (ids are below this).
    pub fn interned(&self) -> usize {
        self.names.len()
    }

    /// When slot `index` got its name: names given earlier sort first.
    pub fn order_of(&self, index: EntityIndex) -> Option<u64> {
        let (_, order) = (*self.by_slot.get(index.index())?)?;
        Some(order)
    }

    pub fn get(&self, index: EntityIndex) -> Option<&str> {
        let (name, _) = (*self.by_slot.get(index.index())?)?;
        Some(self.text_of(name))
    }

    /// The text of the name with id `id`.
    fn text_of(&self, id: u32) -> &str {
        let (from, to) = self.names[id as usize].text;
        &self.text[from..to]
    }

    /// The id of `name` (hashed to `hash`), if interned.
    fn find(&self, name: &str, hash: u64) -> Option<u32> {
        let first = *self.index.get(&hash)?;
        in_chain(&self.names, &self.text, first, name)
    }

    /// Gives slot `index` the name, or none; a renamed entity goes to the
    /// end of its new name's list.
    pub fn set(&mut self, index: EntityIndex, name: Option<&str>) {
        let slot = index.index();
        if let Some(Some((old, order))) = self.by_slot.get_mut(slot).map(Option::take) {
            self.edits += 1;
            let slots = &mut self.names[old as usize];
            slots.remove(order);
            if slots.live == 0 {
                // Only ids of names some slot carries are held anywhere, so
                // the last carrier gone, the id is free.
                slots.entries = Carriers::default();
                slots.head = 0;
                self.forget(old);
            }
        }
        if let Some(name) = name {
            let id = self.intern(name);
            self.give(index, id);
        }
    }

    /// Takes the name `id` out of the index and its text out of use.
    fn forget(&mut self, id: u32) {
        let hash = hash_of(self.text_of(id));
        let next = self.names[id as usize].same_hash;
        match self.index.get(&hash) {
            Some(&first) if first == id => match next {
                NO_NAME => drop(self.index.remove(&hash)),
                next => drop(self.index.insert(hash, next)),
            },
            Some(&first) => {
                let mut at = first;
                while self.names[at as usize].same_hash != id {
                    at = self.names[at as usize].same_hash;
                }
                self.names[at as usize].same_hash = next;
            }
            None => debug_assert!(false, "an interned name is in the index"),
        }
        let (from, to) = std::mem::take(&mut self.names[id as usize].text);
        self.dead_text += to - from;
        self.free.push(id);
        self.pack_text_if_sparse();
    }

    /// Writes the text of the names in use again, one after another, once
    /// the bytes no name holds are half the text (amortised: as many
    /// bytes were written since it was last packed).
    fn pack_text_if_sparse(&mut self) {
        if self.dead_text < 4096 || self.dead_text * 2 < self.text.len() {
            return;
        }
        let mut text = String::with_capacity(self.text.len() - self.dead_text);
        for slots in &mut self.names {
            let (from, to) = slots.text;
            let start = text.len();
            text.push_str(&self.text[from..to]);
            slots.text = (start, text.len());
        }
        self.text = text;
        self.dead_text = 0;
    }

    /// The id of `name`, added if new: one lookup by its hash either way
    /// (a load interns every name its file lists, most of them new).
    pub fn intern(&mut self, name: &str) -> u32 {
        let Names {
            index,
            names,
            free,
            text,
            ..
        } = self;
        match index.entry(hash_of(name)) {
            Entry::Vacant(new) => *new.insert(add_to(names, free, text, name, NO_NAME)),
            Entry::Occupied(mut chain) => {
                if let Some(id) = in_chain(names, text, *chain.get(), name) {
                    return id;
                }
                let id = add_to(names, free, text, name, *chain.get());
                *chain.get_mut() = id;
                id
            }
        }
    }

    /// Makes room for `additional` more distinct names (a load that lists
    /// its names first interns them without growing the index on the way).
    pub fn reserve_names(&mut self, additional: usize) {
        self.index.reserve(additional);
        self.names.reserve(additional);
    }

    /// Makes room for `additional` more slots named `id`.
    pub fn reserve(&mut self, id: u32, additional: usize, top_slot: usize) {
        self.names[id as usize].entries.reserve(additional);
        if self.by_slot.len() < top_slot {
            self.by_slot.reserve(top_slot - self.by_slot.len());
        }
    }

    /// Makes room for naming every slot below `top_slot`, `counts[id]` of
    /// them with name `id`, so that naming a loaded world grows nothing.
    pub fn reserve_all(&mut self, counts: &[usize], top_slot: usize) {
        for (slots, &count) in self.names.iter_mut().zip(counts) {
            slots.entries.reserve(count);
        }
        if self.by_slot.len() < top_slot {
            self.by_slot.resize(top_slot, None);
        }
    }

    /// Names the unnamed slot `index` with the interned name `id`.
    pub fn give(&mut self, index: EntityIndex, id: u32) {
        self.give_each(std::iter::once(index), id);
    }

    /// [`Names::give`] for many unnamed slots at once, in order.
    pub fn give_all(&mut self, ids: &[EntityId], id: u32) {
        self.give_each(ids.iter().map(|e| e.index), id);
    }

    /// Names each of `slots` (unnamed) with `id`, in order; room is made
    /// once, so that naming thousands of copies grows nothing per entity.
    fn give_each(&mut self, slots: impl Iterator<Item = EntityIndex> + Clone, id: u32) {
        self.edits += 1;
        if let Some(top) = slots.clone().map(|i| i.index()).max()
            && self.by_slot.len() <= top
        {
            self.by_slot.resize(top + 1, None);
        }
        let entries = &mut self.names[id as usize];
        let expected = slots.size_hint().0;
        if expected > 1 {
            // One more needs no room made: it goes in line, or in the
            // room a load made for all of them.
            entries.entries.reserve(expected);
        }
        for index in slots {
            debug_assert!(self.by_slot[index.index()].is_none(), "for unnamed slots");
            let order = self.next;
            self.next += 1;
            entries.entries.push((order, index));
            entries.live += 1;
            self.by_slot[index.index()] = Some((id, order));
        }
    }

    /// The slots named `name`, in the order they got the name.
    pub fn slots(&self, name: &str) -> impl Iterator<Item = EntityIndex> + '_ {
        self.find(name, hash_of(name))
            .into_iter()
            .flat_map(|id| self.names[id as usize].slots())
    }
}

/// A new id for the name `name`, no slot carrying it yet, its text added
/// to `text` and chained before `same_hash`; on the store's parts, for a
/// caller holding its index.
fn add_to(
    names: &mut Vec<NameSlots>,
    free: &mut Vec<u32>,
    text: &mut String,
    name: &str,
    same_hash: u32,
) -> u32 {
    let start = text.len();
    text.push_str(name);
    let slots = NameSlots {
        text: (start, text.len()),
        same_hash,
        entries: Carriers::default(),
        head: 0,
        live: 0,
    };
    match free.pop() {
        Some(id) => {
            names[id as usize] = slots;
            id
        }
        None => {
            names.push(slots);
            let id = u32::try_from(names.len() - 1)
                .ok()
                .filter(|&id| id != NO_NAME);
            id.expect("fewer than 2^32 - 1 distinct names")
        }
    }
}

/// The name `name` among the chain of names with one hash that starts at
/// `first`, if it is there.
fn in_chain(names: &[NameSlots], text: &str, first: u32, name: &str) -> Option<u32> {
    let mut id = first;
    loop {
        let (from, to) = names[id as usize].text;
        if &text[from..to] == name {
            return Some(id);
        }
        id = names[id as usize].same_hash;
        if id == NO_NAME {
            return None;
        }
    }
}

/// The hash a name is indexed by.
fn hash_of(name: &str) -> u64 {
    let mut hasher = Fnv::default();
    hasher.write(name.as_bytes());
    let hash = hasher.finish();
    // Tests keep few bits, so that names share hashes and chain.
    #[cfg(test)]
    let hash = hash & tests::HASH_BITS.with(std::cell::Cell::get);
    hash
}

impl EntityMut<'_> {
    /// Renames the entity (`None` removes its name).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.set_name(Some("hero"));
    /// assert_eq!(world.find_by_name("hero"), Some(id));
    /// world.entity_mut(id)?.set_name(None);
    /// assert_eq!(world.entity(id)?.name(), None);
    /// assert_eq!(world.find_by_name("hero"), None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn set_name(&mut self, name: Option<&str>) {
        let index = self.id().index;
        self.world_mut().names_mut().set(index, name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// The bits of a name's hash the index keeps.
        pub(super) static HASH_BITS: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
    }

    #[test]
    fn names_sharing_a_hash_and_text_reclaimed_agree_with_a_plain_map() {
        HASH_BITS.with(|bits| bits.set(0b111));
        const SLOTS: usize = 300;
        let pool: Vec<String> = (0..200)
            .map(|k| format!("name-{k}-{}", "x".repeat(k % 40)))
            .collect();
        let mut names = Names::new();
        // By slot, its name's position in `pool`; by name, its carriers in
        // the order they got it.
        let mut model: Vec<Option<usize>> = vec![None; SLOTS];
        let mut carriers: Vec<Vec<usize>> = vec![Vec::new(); pool.len()];
        let mut next = crate::scene::numbers_below(0x9e37_79b9_7f4a_7c15u64);
        let mut copy = Names::new();
        for step in 0..30_000 {
            let slot = next(SLOTS);
            let name = (next(4) != 0).then(|| next(pool.len()));
            names.set(EntityIndex(slot as u32), name.map(|k| pool[k].as_str()));
            if let Some(old) = model[slot].take() {
                carriers[old].retain(|&s| s != slot);
            }
            if let Some(k) = name {
                carriers[k].push(slot);
            }
            model[slot] = name;
            if step % 499 == 0 {
                copy.clone_from(&names);
                for (k, text) in pool.iter().enumerate() {
                    let found: Vec<usize> = copy.slots(text).map(|s| s.index()).collect();
                    assert_eq!(found, carriers[k], "carriers of {text}");
                }
            }
        }
        for (slot, name) in model.iter().enumerate() {
            let expected = name.map(|k| pool[k].as_str());
            assert_eq!(names.get(EntityIndex(slot as u32)), expected, "slot {slot}");
        }
        assert_eq!(names.slots("name-never-given").count(), 0);
        // Forgotten names' bytes do not pile up.
        let live: usize = (0..pool.len())
            .filter(|&k| !carriers[k].is_empty())
            .map(|k| pool[k].len())
            .sum();
        assert!(
            names.text.len() <= 2 * live + 8192,
            "{} bytes of text for {live} in use",
            names.text.len()
        );
        HASH_BITS.with(|bits| bits.set(u64::MAX));
    }

    #[test]
    fn names_no_entity_carries_are_forgotten_and_their_ids_reused() {
        let mut names = Names::default();
        for i in 0..10_000u32 {
            let slot = EntityIndex(i % 4);
            names.set(slot, Some(&format!("bullet-{i}")));
        }
        // Four slots carry four names; the 9,996 others were forgotten.
        assert_eq!(names.index.len(), 4);
        assert!(names.names.len() <= 5, "{} names kept", names.names.len());
        assert_eq!(names.get(EntityIndex(1)), Some("bullet-9997"));
        names.set(EntityIndex(1), None);
        assert!(names.slots("bullet-9997").next().is_none());
        // A shared name lives while one carrier does.
        names.set(EntityIndex(7), Some("crate"));
        names.set(EntityIndex(8), Some("crate"));
        names.set(EntityIndex(7), None);
        assert_eq!(names.slots("crate").collect::<Vec<_>>(), [EntityIndex(8)]);
    }

    #[test]
    fn names_keep_their_carriers_in_order_from_one_to_many_and_back() {
        let mut names = Names::default();
        let id = names.intern("crate");
        // A file listing a name twice gets one id for it.
        assert_eq!(names.intern("crate"), id);
        assert_eq!(names.intern("crate"), id);
        names.reserve_all(&[1], 40);
        names.give(EntityIndex(5), id);
        assert!(matches!(names.names[id as usize].entries, Carriers::One(_)));
        for slot in 10..40 {
            names.give(EntityIndex(slot), id);
        }
        let all = |names: &Names| names.slots("crate").map(|s| s.0).collect::<Vec<_>>();
        let mut expected: Vec<u32> = std::iter::once(5).chain(10..40).collect();
        assert_eq!(all(&names), expected);
        // Removals from the front and the middle, enough to compact.
        for slot in [
            5, 10, 11, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
        ] {
            names.set(EntityIndex(slot), None);
            expected.retain(|&s| s != slot);
            assert_eq!(all(&names), expected);
        }
        names.set(EntityIndex(5), Some("crate"));
        expected.push(5);
        assert_eq!(all(&names), expected);
        for slot in expected.clone() {
            names.set(EntityIndex(slot), None);
        }
        assert!(names.slots("crate").next().is_none());
        assert!(names.index.is_empty());
    }
}
