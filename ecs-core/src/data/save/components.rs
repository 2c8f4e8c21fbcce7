//! Reading an entity's components straight into their columns, for every
//! format: the types first (each resolved once per load), then the
//! entity's table, then each value into its column. Neighbours in a file
//! are mostly alike, so the previous entity's layout is kept: a decoder
//! may find the types unchanged at a glance, and one whose values come
//! with their types reads them into the previous entity's table while the
//! types match it.

use std::collections::HashSet;

use crate::data::refs;
use crate::entity::{EntityIndex, TableId, TypeIdx};
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::Error;

use super::bad;
use super::decode::{Column, Decode, EntryCx, Head, Known, NameRef, Types};
use super::file::{current_max, resolve_type, File, RefAt};

impl Types {
    /// Resolves the types table's next entry, `name` at `path`.
    pub(super) fn add_to_table(
        &mut self,
        world: &mut World,
        name: &str,
        path: &str,
    ) -> Result<(), Error> {
        let kind = resolve_type(world, name, path)?;
        self.table.push(kind);
        Ok(())
    }

    /// The type named `name` (its bytes as the file spells them) for the
    /// component at `path`, most likely `expect` (the previous entity's
    /// type at its place), resolved on first use.
    pub(super) fn by_name(
        &mut self,
        world: &mut World,
        name: &[u8],
        path: impl Fn() -> String,
        expect: Option<TypeIdx>,
    ) -> Result<Known, Error> {
        if let Some(expect) = expect {
            // The likely answer first: one comparison, not a search.
            if let Some((spelled, kind)) = self.named.iter().find(|(_, k)| k.ty == expect)
                && **spelled == *name
            {
                return Ok(*kind);
            }
        }
        if let Some(&(_, kind)) = self.named.iter().find(|(n, _)| **n == *name) {
            return Ok(kind);
        }
        let text = std::str::from_utf8(name)
            .map_err(|_| bad(format!("{}.type", path()), "expected a UTF-8 type name"))?;
        let kind = resolve_type(world, text, &path())?;
        self.named.push((name.to_vec(), kind));
        Ok(kind)
    }
}

/// The previous entity's components: their types, table and columns,
/// and which are disabled.
#[derive(Default)]
struct Layout {
    /// Whether a layout has been read yet.
    valid: bool,
    types: Vec<TypeIdx>,
    /// The bytes a format that can compare type lists spelled them in
    /// (see [`Decode::types_read`]); empty until an entity's list is read
    /// into this layout.
    encoded: Vec<u8>,
    table: TableId,
    /// The table of the entity that followed one of this layout last
    /// time: files repeat a cycle of tables (every blueprint spawns its
    /// parts in the same order), so it is the guess for the next entity.
    next: Option<TableId>,
    columns: Vec<Column>,
    /// Positions of the disabled components.
    disabled: Vec<usize>,
}

/// How many layouts besides the previous entity's a load keeps.
const RECENT_LAYOUTS: usize = 8;

/// What reading entities keeps from one entity to the next.
#[derive(Default)]
pub(super) struct EntityReader {
    pub(super) types: Types,
    /// The names table of a format that lists names once, interned.
    pub(super) names: Vec<u32>,
    /// Boxed, as the recent ones are: an entity in another table than its
    /// neighbour swaps two pointers rather than two layouts.
    layout: Box<Layout>,
    /// Layouts met before the previous entity's, latest last.
    #[expect(clippy::vec_box, reason = "swapped with `layout` as pointers")]
    recent: Vec<Box<Layout>>,
    /// The components of the entity being read.
    heads: Vec<Head>,
    /// Tables whose type list passed the single rule.
    checked: HashSet<TableId>,
    /// Whether to read values into the guessed table as their types come
    /// (see [`EntityReader::read_heads`]): off after a wrong guess, on
    /// again once an entity lands in the guessed table, so a file whose
    /// neighbours follow no pattern is not read twice over.
    no_guess: bool,
    /// The previous entity's table.
    last_table: Option<TableId>,
    rows: Rows,
    /// How many entities the file declares, and the bytes left when the
    /// first began.
    declared: Option<usize>,
    entities_at: usize,
}

impl EntityReader {
    /// Notes the entities list's declared length and where it starts.
    pub(super) fn start_entities(&mut self, declared: Option<usize>, remaining: usize) {
        self.declared = declared;
        self.entities_at = remaining;
    }

    /// An entity's name, interned. In line: most entities of a save have
    /// no name, and the call cost more than the answer.
    #[inline(always)]
    pub(super) fn name(&self, world: &mut World, name: Option<NameRef<'_>>) -> Option<u32> {
        match name? {
            NameRef::Text(text) => Some(world.names_mut().intern(&text)),
            NameRef::Interned(n) => Some(n),
        }
    }

    /// Reads entity `i`'s components and spawns it with them.
    pub(super) fn read<'a, D: Decode<'a>>(
        &mut self,
        world: &mut World,
        dec: &mut D,
        file: &mut File<'a>,
        i: usize,
        entity: &mut LoadedEntity,
    ) -> Result<(), Error> {
        self.predict();
        let known = dec.same_types_as(&self.layout.encoded);
        if !known {
            if self.read_heads(world, dec, file, i)? {
                // Every value is in the guessed table already.
                let index = self.spawn(world, i, entity);
                self.disable(world, index);
                return Ok(());
            }
            self.no_guess = !self.set_layout(world, i)?;
        }
        if let Some(n) = self.declared {
            let read = self.entities_at - dec.remaining();
            let table = self.layout.table;
            self.rows.count(world, table, i, n, read, dec.remaining());
        }
        dec.begin_values(i, self.layout.columns.len())?;
        if !known {
            let encoded = &mut self.layout.encoded;
            encoded.clear();
            encoded.extend_from_slice(dec.types_read());
        }
        let index = self.spawn(world, i, entity);
        for (k, &column) in self.layout.columns.iter().enumerate() {
            let before = current_max();
            dec.value(world, i, k, column)?;
            let at = RefAt::Component(i, k, column.kind.ty);
            file.note_refs(before, at, || dec.last_value());
        }
        dec.end_values();
        self.disable(world, index);
        Ok(())
    }

    /// Spawns entity `i`, which lists no components.
    pub(super) fn spawn_empty(
        &mut self,
        world: &mut World,
        i: usize,
        entity: &mut LoadedEntity,
    ) -> Result<(), Error> {
        self.heads.clear();
        self.no_guess = !self.set_layout(world, i)?;
        self.spawn(world, i, entity);
        Ok(())
    }

    /// Reads entity `i`'s component types into `heads`. `Ok(true)` when
    /// each value came with its type and went straight into the previous
    /// entity's table, whose types they all are; else any value read
    /// ahead is taken back.
    fn read_heads<'a, D: Decode<'a>>(
        &mut self,
        world: &mut World,
        dec: &mut D,
        file: &mut File<'a>,
        i: usize,
    ) -> Result<bool, Error> {
        let guessing = D::VALUE_WITH_TYPE && self.layout.valid && !self.no_guess;
        let row = match guessing {
            true => world.storage().table(self.layout.table).owners().len(),
            false => 0,
        };
        let mark = refs::load_mark();
        let read = self.read_heads_into(world, dec, file, i, guessing);
        if guessing && !matches!(read, Ok(true)) {
            // Take back the values read ahead of the entity.
            for column in &self.layout.columns {
                let place = column.place;
                world.storage_mut().trash_from(place.ty, place.seg, row);
            }
            world.empty_trash();
            // And the references they held: the values read again count
            // them again, and are noted where they are. (One read ahead,
            // then disowned by a second `type`, was never noted: kept, its
            // id escaped the check.)
            refs::restore_load_max(mark);
        }
        if matches!(read, Ok(true)) {
            self.set_disabled();
        }
        read
    }

    fn read_heads_into<'a, D: Decode<'a>>(
        &mut self,
        world: &mut World,
        dec: &mut D,
        file: &mut File<'a>,
        i: usize,
        guessing: bool,
    ) -> Result<bool, Error> {
        self.heads.clear();
        let mut all_pushed = guessing;
        let mut seq = dec.begin_components(i)?;
        while dec.next_component(i, &mut seq)? {
            let k = self.heads.len();
            let guess = match all_pushed {
                true => self.layout.columns.get(k).copied(),
                false => None,
            };
            let before = guess.and_then(|_| current_max());
            let types = &mut self.types;
            let head = dec.component(
                i,
                k,
                &mut EntryCx {
                    world,
                    types,
                    guess,
                },
            )?;
            if head.pushed {
                let at = RefAt::Component(i, k, head.kind.ty);
                file.note_refs(before, at, || dec.last_value());
            } else {
                all_pushed = false;
            }
            self.heads.push(head);
        }
        Ok(all_pushed && self.heads.len() == self.layout.columns.len())
    }

    /// Makes `heads` the layout: the previous table if the types are the
    /// same, else their table, checked against the single rule once.
    /// `Ok(true)` when it is the previous table.
    fn set_layout(&mut self, world: &mut World, i: usize) -> Result<bool, Error> {
        let heads = &self.heads;
        let fits = |layout: &Layout| {
            layout.valid
                && layout.types.len() == heads.len()
                && (layout.types.iter().zip(heads)).all(|(&ty, head)| ty == head.kind.ty)
        };
        let same = fits(&self.layout);
        if !same {
            // Files often alternate between a few tables: one met lately
            // is taken back as it was, else the new one is worked out.
            match self.recent.iter().position(|layout| fits(layout)) {
                Some(k) => std::mem::swap(&mut self.layout, &mut self.recent[k]),
                None => {
                    let old = std::mem::take(&mut self.layout);
                    if old.valid {
                        if self.recent.len() == RECENT_LAYOUTS {
                            self.recent.remove(0);
                        }
                        self.recent.push(old);
                    }
                    self.new_layout(world, i)?;
                }
            }
        }
        self.set_disabled();
        Ok(same)
    }

    /// Makes `heads` the layout, which has no table yet: their table,
    /// checked against the single rule once.
    fn new_layout(&mut self, world: &mut World, i: usize) -> Result<(), Error> {
        let layout = &mut self.layout;
        layout.valid = false;
        layout.types.clear();
        layout.encoded.clear();
        layout
            .types
            .extend(self.heads.iter().map(|head| head.kind.ty));
        let table = world.table_for(&layout.types);
        if !self.checked.contains(&table) {
            check_single_rule(world, &layout.types, i)?;
            self.checked.insert(table);
        }
        let places = world.storage().table(table).layout();
        layout.columns.clear();
        layout.columns.extend(
            (self.heads.iter().zip(places)).map(|(head, &place)| Column {
                kind: head.kind,
                place,
            }),
        );
        layout.table = table;
        layout.next = None;
        layout.valid = true;
        Ok(())
    }

    fn set_disabled(&mut self) {
        self.layout.disabled.clear();
        let disabled = self.heads.iter().enumerate().filter(|(_, h)| !h.enabled);
        self.layout.disabled.extend(disabled.map(|(k, _)| k));
    }

    /// Makes the layout of the table that followed the previous entity's
    /// last time (if it is still among the recent ones) the guess.
    #[inline]
    fn predict(&mut self) {
        match self.layout.next {
            Some(next) if next != self.layout.table => {
                if let Some(k) = self.recent.iter().position(|l| l.table == next) {
                    std::mem::swap(&mut self.layout, &mut self.recent[k]);
                }
            }
            _ => {}
        }
    }

    /// Notes that the entity being spawned went to the layout's table,
    /// after its neighbour's.
    #[inline]
    fn follow(&mut self) {
        let table = self.layout.table;
        match self.last_table.replace(table) {
            Some(last) if last == table => self.layout.next = Some(table),
            Some(last) => {
                if let Some(before) = self.recent.iter_mut().find(|l| l.table == last) {
                    before.next = Some(table);
                }
            }
            None => {}
        }
    }

    /// Spawns entity `i` in the layout's table; its values follow.
    fn spawn(&mut self, world: &mut World, i: usize, entity: &mut LoadedEntity) -> EntityIndex {
        self.follow();
        entity.table = self.layout.table;
        entity.len = self.layout.columns.len();
        let index = world.spawn_loaded_entity(entity);
        debug_assert_eq!(index.index(), i);
        index
    }

    /// Disables the entity's disabled components, once their values are in.
    fn disable(&self, world: &mut World, index: EntityIndex) {
        for &k in &self.layout.disabled {
            world.disable_raw(index, k);
        }
    }
}

/// The single rule on one loaded entity's components.
fn check_single_rule(world: &World, types: &[TypeIdx], i: usize) -> Result<(), Error> {
    if let Some((second, message)) = world.single_rule_message(types) {
        return Err(bad(format!("entities[{i}].components[{second}]"), message));
    }
    Ok(())
}

/// Rows read so far per table (by table index), for making room ahead.
#[derive(Default)]
struct Rows(Vec<usize>);

impl Rows {
    /// Counts entity `i` of the `n` the file lists into `table`, `read`
    /// bytes into the entities with `left` to go. At 8, 16, 32, ... rows
    /// it makes room for the table's share of the entities left, so that a
    /// column grows once or twice instead of doubling its way up (copying
    /// itself each time). The room is also bounded by what the bytes left
    /// can hold at the size read so far (plus an eighth, so an honest
    /// file's last rows fit), so a file lying about its length gets no more
    /// than it could fill.
    #[inline]
    fn count(
        &mut self,
        world: &mut World,
        table: TableId,
        i: usize,
        n: usize,
        read: usize,
        left: usize,
    ) {
        let rows = match self.0.get_mut(table.index()) {
            Some(rows) => {
                *rows += 1;
                *rows
            }
            None => self.first(table),
        };
        if rows >= 8 && rows.is_power_of_two() {
            Self::make_room(world, table, rows, i, n, read, left);
        }
    }

    /// Counts the first row of a table met for the first time.
    #[cold]
    fn first(&mut self, table: TableId) -> usize {
        self.0.resize(table.index() + 1, 0);
        self.0[table.index()] = 1;
        1
    }

    /// Makes room in `table`, which has `rows` rows read, for its share of
    /// the entities left (see [`Rows::count`]).
    #[cold]
    #[inline(never)]
    fn make_room(
        world: &mut World,
        table: TableId,
        rows: usize,
        i: usize,
        n: usize,
        read: usize,
        left: usize,
    ) {
        // `rows * of / per` without overflow.
        let share = |of: usize, per: usize| {
            usize::try_from(rows as u128 * of as u128 / per.max(1) as u128).unwrap_or(usize::MAX)
        };
        let by_count = share(n - i - 1, i + 1);
        let by_bytes = share(left, read);
        let room = by_count.min(by_bytes.saturating_add(by_bytes / 8));
        // The entity counted is not in its table yet: its row comes on top.
        world.reserve_table(table, room + 1);
    }
}
