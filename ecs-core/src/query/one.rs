//! Several components of one entity at once, as a query reads them.

use crate::entity::Entities;
use crate::entity::SegId;
use crate::query::data::QueryData;
use crate::query::plan::{up_places, Place, Plan};
use crate::query::source::{Reads, Source};
use crate::query::{check_conflicts, ReadOnlyQueryData};
use crate::table::Storage;
use crate::{EntityId, Error, Via};

/// The items of query `Q` for entity `id` alone, some mutable; see
/// [`World::query_one_mut`](crate::World::query_one_mut).
pub(crate) fn one_mut<'w, Q: QueryData>(
    entities: &'w Entities,
    storage: &'w mut Storage,
    id: EntityId,
) -> Result<Q::Item<'w>, Error> {
    check_conflicts::<Q>();
    let slot = entities.get_live(id).ok_or(Error::NoSuchEntity(id))?;
    let (table, row) = (slot.table, slot.row);
    let places = Plan::places_in(storage, Q::TERMS, table).map_err(|i| missing::<Q>(id, i))?;
    let many = Plan::many_in(storage, Q::TERMS, table);
    let ups = up_places(storage, Q::TERMS);
    let mut wanted: Vec<_> = places
        .iter()
        .flatten()
        .chain(many.iter().flatten())
        .chain(ups.iter().flatten().flatten())
        .map(|&(seg, _)| seg)
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut source = Source::new_mut(storage, &wanted).only_row(row.index());
    let rows = source
        .open::<Q>(table, reads(&places, &many, &ups), entities, true, None)
        .ok_or_else(|| missing::<Q>(id, 0))?;
    let (_, mut rest) = rows.split(row.index());
    rest.next(source.up_maps())
        .ok_or_else(|| missing::<Q>(id, 0))
}

/// The items of the read-only query `Q` for entity `id` alone; see
/// [`World::query_one`](crate::World::query_one).
pub(crate) fn one<'w, Q: ReadOnlyQueryData>(
    entities: &'w Entities,
    storage: &'w Storage,
    id: EntityId,
) -> Result<Q::Item<'w>, Error> {
    let slot = entities.get_live(id).ok_or(Error::NoSuchEntity(id))?;
    let (table, row) = (slot.table, slot.row);
    let places = Plan::places_in(storage, Q::TERMS, table).map_err(|i| missing::<Q>(id, i))?;
    let many = Plan::many_in(storage, Q::TERMS, table);
    let ups = up_places(storage, Q::TERMS);
    let mut source = Source::shared(storage);
    let rows = source
        .open::<Q>(table, reads(&places, &many, &ups), entities, true, None)
        .ok_or_else(|| missing::<Q>(id, 0))?;
    let (_, mut rest) = rows.split(row.index());
    rest.next(source.up_maps())
        .ok_or_else(|| missing::<Q>(id, 0))
}

fn reads<'p>(
    places: &'p [Place],
    many: &'p [Vec<(SegId, usize)>],
    ups: &'p [Vec<Place>],
) -> Reads<'p> {
    Reads { places, many, ups }
}

fn missing<Q: QueryData>(entity: EntityId, term: usize) -> Error {
    Error::MissingComponent {
        entity,
        wanted: Q::TERMS[term].key.map_or("EntityId", |k| k.name()),
        via: Via::World,
    }
}
