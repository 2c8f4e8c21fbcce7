//! Reading a binary snapshot.

use crate::data::codec::BinaryPushFn;
use crate::data::format::mp;
use crate::entity::TableId;
use crate::table::tables::Place;
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::{Error, DEFAULT_LAYERS};

use super::bad;
use super::read::*;

pub(super) fn read_binary(world: &mut World, bytes: &[u8]) -> Result<File, Error> {
    let mut r = mp::In::new(bytes);
    let mut file = File::default();
    let len = r
        .array("a saved world (an array)")
        .map_err(|m| bad("(root)", m))?;
    if len != 8 {
        return Err(bad(
            "(root)",
            format!("expected a saved world of 8 parts, found {len}"),
        ));
    }
    file.format = Some(
        r.string("the format name")
            .map_err(|m| bad("format", m))?
            .to_owned(),
    );
    file.version = Some(r.uint("a version number").map_err(|m| bad("version", m))?);
    file.check_header()?;
    let n = r
        .array("the update order")
        .map_err(|m| bad("update_order", m))?;
    for i in 0..n {
        let path = format!("update_order[{i}]");
        let name = r
            .string("a behaviour type name")
            .map_err(|m| bad(&path, m))?;
        update_order_entry(world, name, &path, &mut file.update_order)?;
    }
    let n = r.array("the resources").map_err(|m| bad("resources", m))?;
    for i in 0..n {
        let path = format!("resources[{i}]");
        if r.array("a resource").map_err(|m| bad(&path, m))? != 2 {
            return Err(bad(path, "expected [type, data]"));
        }
        let name = r
            .string("a type name")
            .map_err(|m| bad(format!("{path}.type"), m))?;
        let (ty, _, read) = resource_entry(name, &path)?;
        let data = r
            .bin("the resource's data")
            .map_err(|m| bad(format!("{path}.data"), m))?;
        let before = current_max();
        let value = read(data).map_err(|e| bad(format!("{path}.data"), e.to_string()))?;
        file.note_refs(before, RefAt::Resource(i));
        file.resources.push((ty, value));
    }
    if !r.nil() {
        let n = r
            .array("the naming order")
            .map_err(|m| bad("name_order", m))?;
        let mut order = Vec::with_capacity(n.min(bytes.len()));
        for k in 0..n {
            order.push(
                r.uint("a saved id")
                    .map_err(|m| bad(format!("name_order[{k}]"), m))?,
            );
        }
        file.name_order = Some((order, "name_order".to_owned()));
    }
    let n = r
        .array("the component types")
        .map_err(|m| bad("types", m))?;
    let mut types = Vec::with_capacity(n.min(bytes.len()));
    for t in 0..n {
        let path = format!("types[{t}]");
        let name = r
            .string("a component type name")
            .map_err(|m| bad(&path, m))?;
        types.push(resolve_type(world, name, &path)?);
    }
    let n = r.array("the names").map_err(|m| bad("names", m))?;
    let mut names = Vec::with_capacity(n.min(bytes.len()));
    for k in 0..n {
        let name = r
            .string("a name")
            .map_err(|m| bad(format!("names[{k}]"), m))?;
        names.push(world.names_mut().intern(name));
    }
    let n = r.array("the entities").map_err(|m| bad("entities", m))?;
    world.reserve_entities(n.min(r.rest.len()));
    // Each entity takes at least a byte: a length past the input is a lie.
    file.entities.reserve(n.min(bytes.len()));
    file.children.reserve(n.min(bytes.len()));
    let mut layout = Layout::default();
    let mut rows = Rows::default();
    let entities_at = r.rest.len();
    for i in 0..n {
        let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
        if r.array("an entity").map_err(|m| bad(entity_path(i), m))? != 6 {
            return Err(bad(
                entity_path(i),
                "expected [name, flags, layers, children, types, data]",
            ));
        }
        let mut entity = LoadedEntity::default();
        if !r.nil() {
            let k = r.uint("a name's index or nil").map_err(|m| at("name", m))?;
            let name = usize::try_from(k)
                .ok()
                .and_then(|k| names.get(k))
                .ok_or_else(|| {
                    at(
                        "name",
                        format!("expected an index into the {} names", names.len()),
                    )
                })?;
            entity.name = Some(*name);
        }
        let flags = r.uint("the flags").map_err(|m| at("flags", m))?;
        if flags > 3 {
            return Err(at(
                "flags",
                "expected 0 to 3 (1: disabled, 2: killed)".into(),
            ));
        }
        entity.enabled = flags & 1 == 0;
        entity.killed = flags & 2 != 0;
        let layers = r.uint("a layer mask").map_err(|m| at("layers", m))?;
        let layers = u32::try_from(layers)
            .map_err(|_| at("layers", "expected a 32-bit layer mask".into()))?;
        entity.layers = (layers != DEFAULT_LAYERS).then_some(layers);
        let k = r.array("the children").map_err(|m| at("children", m))?;
        let mut children = Vec::with_capacity(k.min(r.rest.len()));
        for c in 0..k {
            let wrong = |_| {
                at(
                    &format!("children[{c}]"),
                    "expected the id of another entity in this file".into(),
                )
            };
            let child = r.uint("a saved id").map_err(wrong)?;
            children.push(u32::try_from(child).map_err(|_| wrong(String::new()))?);
        }
        // Types first, then data: the entity's table is known before its
        // values are read, so each is read straight into its column.
        layout.read(&mut r, world, &mut file, &types, i)?;
        entity.table = layout.table;
        let read = entities_at - r.rest.len();
        rows.count(world, entity.table, i, n, read, r.rest.len());
        entity.len = layout.columns.len();
        let k = entity.len;
        if r.array("the component data").map_err(|m| at("data", m))? != k {
            return Err(at("data", format!("expected {k} values, one per type")));
        }
        let index = world.spawn_loaded_entity(&entity);
        debug_assert_eq!(index.index(), i);
        for (c, &(push, place)) in layout.columns.iter().enumerate() {
            let here = || format!("entities[{i}].data[{c}]");
            let data = r.bin("the component's data").map_err(|m| bad(here(), m))?;
            let before = current_max();
            push(world, place.ty, place.seg, data).map_err(|e| bad(here(), e.to_string()))?;
            file.note_refs(before, RefAt::Data(i, c));
            if layout.disabled & (1 << c) != 0 {
                world.disable_raw(index, c);
            }
        }
        file.entities.push(entity);
        file.children.push(children);
    }
    if !r.rest.is_empty() {
        return Err(bad(
            "(root)",
            format!("{} bytes after the saved world", r.rest.len()),
        ));
    }
    Ok(file)
}

/// The component types of the entity being read, resolved: its table, and
/// the reader and place of each value in table order.
#[derive(Default)]
struct Layout<'a> {
    /// The encoded type list it was read from: neighbours in a snapshot
    /// mostly share one, and the same bytes always read the same way
    /// (MessagePack is self-delimiting), so they are compared, not read.
    bytes: &'a [u8],
    table: TableId,
    columns: Vec<(BinaryPushFn, Place)>,
    /// Bit `c`: the `c`th component is disabled.
    disabled: u64,
}

impl<'a> Layout<'a> {
    /// Reads entity `i`'s type list, checks it and finds its table.
    fn read(
        &mut self,
        r: &mut mp::In<'a>,
        world: &mut World,
        file: &mut File,
        types: &[Known],
        i: usize,
    ) -> Result<(), Error> {
        if !self.bytes.is_empty() && r.rest.starts_with(self.bytes) {
            r.rest = &r.rest[self.bytes.len()..];
            return Ok(());
        }
        // Forgotten until the new list has passed every check.
        self.bytes = &[];
        let start = r.rest;
        let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
        let k = r.array("the component types").map_err(|m| at("types", m))?;
        let mut disabled = 0u64;
        let mut fns = Vec::with_capacity(k.min(r.rest.len()));
        file.types.clear();
        for c in 0..k {
            let t = r
                .uint("a type index")
                .map_err(|m| at(&format!("types[{c}]"), m))?;
            let kind = *usize::try_from(t >> 1)
                .ok()
                .and_then(|t| types.get(t))
                .ok_or_else(|| {
                    at(
                        &format!("types[{c}]"),
                        format!(
                            "expected an index into the {} types (times two, plus one if disabled)",
                            types.len()
                        ),
                    )
                })?;
            if t & 1 == 1 {
                if c >= 64 {
                    return Err(at(
                        &format!("types[{c}]"),
                        "only the first 64 components may be disabled in a snapshot".into(),
                    ));
                }
                disabled |= 1 << c;
            }
            file.types.push(kind.ty);
            fns.push(kind.fns.binary_push);
        }
        self.table = file.table_of(world, i)?;
        let places = world.storage().table(self.table).layout();
        self.columns.clear();
        self.columns
            .extend(fns.into_iter().zip(places.iter().copied()));
        self.disabled = disabled;
        self.bytes = &start[..start.len() - r.rest.len()];
        Ok(())
    }
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
    fn count(
        &mut self,
        world: &mut World,
        table: TableId,
        i: usize,
        n: usize,
        read: usize,
        left: usize,
    ) {
        let t = table.index();
        if self.0.len() <= t {
            self.0.resize(t + 1, 0);
        }
        self.0[t] += 1;
        let rows = self.0[t];
        if rows < 8 || !rows.is_power_of_two() {
            return;
        }
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
