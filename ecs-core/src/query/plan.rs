//! Which tables a query visits, and where each term reads in each.

use std::any::TypeId;

use crate::entity::{SegId, TableId, TypeIdx};
use crate::query::term::TermInfo;
use crate::table::{ChangeKind, Storage, Tick};

/// A change filter as a walk reads it: its kind and the reader's tick.
pub(crate) type Watch = (ChangeKind, Tick);

/// A query's `with`/`without` filters and whether it sees inactive rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Filters {
    pub with: Vec<TypeId>,
    pub without: Vec<TypeId>,
    /// Also visit disabled components and disabled or killed entities.
    pub inactive: bool,
    /// The change filters' types and kinds (their ticks change from call
    /// to call, so they are kept beside the plan's key, not in it): each
    /// also requires the type, as `with` does.
    pub changes: Vec<(TypeId, ChangeKind)>,
}

/// What a table must hold to match, resolved to type indices.
struct Wanted<'a> {
    terms: &'a [TermInfo],
    resolved: &'a [Option<TypeIdx>],
    with: &'a [TypeIdx],
    without: &'a [TypeIdx],
    watched: &'a [TypeIdx],
}

/// Where a term reads in one table: its segment and chain level.
pub(crate) type Place = Option<(SegId, usize)>;

/// The tables a query visits, in table order, each with one place per term.
///
/// A table's layout never changes while its id names it, so a plan made
/// once is brought up to date by matching the tables made since
/// ([`Plan::update`]); empty tables stay in the plan and are skipped when
/// walked, since they may fill up later. Only when the storage reclaims
/// empty tables (which changes its table epoch) is the plan made afresh.
#[derive(Clone, Default)]
pub(crate) struct Plan {
    pub tables: Vec<TableId>,
    /// `tables.len() * terms` places, table by table.
    pub places: Vec<Place>,
    /// For terms that read every match ([`All`](crate::All)), every place,
    /// laid out as `places`; empty when the query has no such term.
    pub many: Vec<Vec<(SegId, usize)>>,
    pub terms: usize,
    /// How many of the world's table slots have been matched.
    seen: usize,
    /// The storage's table epoch when they were: a table id may name
    /// another table since (see [`Storage::table_epoch`]).
    epoch: u64,
    /// Every segment the plan reads, sorted, each once.
    segments: Vec<SegId>,
    /// Per table and change filter, the segments whose components are-a
    /// the filter's type (`tables.len() * changes` lists, table by table).
    watch: Vec<Vec<SegId>>,
    changes: usize,
    /// Per term (empty but for [`Up`](crate::Up) terms): by table id, over
    /// every table, where the first component that is-a the term's type
    /// sits.
    ups: Vec<Vec<Place>>,
}

impl Plan {
    /// A plan that has matched no table yet, for `terms` terms.
    pub fn empty(terms: usize) -> Plan {
        Plan {
            terms,
            ..Plan::default()
        }
    }

    /// Whether tables were made since the plan was last brought up to date.
    pub fn is_stale(&self, storage: &Storage) -> bool {
        self.seen != storage.table_slots() || self.epoch != storage.table_epoch()
    }

    /// Matches the tables made since the plan was last brought up to date.
    pub fn update(&mut self, storage: &Storage, terms: &[TermInfo], filters: &Filters) {
        if self.epoch != storage.table_epoch() {
            // Tables were reclaimed or their slots reused: match afresh.
            *self = Plan {
                epoch: storage.table_epoch(),
                ..Plan::empty(self.terms)
            };
        }
        let (from, to) = (self.seen, storage.table_slots());
        self.seen = to;
        if from == to {
            return;
        }
        let index = |id: TypeId| storage.types().index_of_id(id);
        let resolved: Vec<Option<TypeIdx>> = terms
            .iter()
            .map(|t| t.key.and_then(|k| index(k.type_id())))
            .collect();
        // A required type or a `with` type no table has: nothing matches
        // (a type registered later only appears in tables made later).
        let required_missing = terms
            .iter()
            .zip(&resolved)
            .any(|(t, r)| t.required && r.is_none());
        self.changes = filters.changes.len();
        let watched: Option<Vec<TypeIdx>> =
            filters.changes.iter().map(|&(id, _)| index(id)).collect();
        let with: Option<Vec<TypeIdx>> = filters
            .with
            .iter()
            .map(|&id| index(id))
            .chain(watched.iter().flatten().map(|&t| Some(t)))
            .collect();
        let (Some(watched), Some(with)) = (watched, with) else {
            return;
        };
        if required_missing {
            return;
        }
        let without: Vec<TypeIdx> = filters.without.iter().filter_map(|&id| index(id)).collect();
        let wanted = Wanted {
            terms,
            resolved: &resolved,
            with: &with,
            without: &without,
            watched: &watched,
        };
        for table in (from..to).map(TableId::from_index) {
            self.match_table(storage, &wanted, table);
        }
        self.ups = up_places(storage, terms);
        let mut all = Vec::with_capacity(self.places.len());
        all.extend(self.places.iter().flatten().map(|&(seg, _)| seg));
        all.extend(self.many.iter().flatten().map(|&(seg, _)| seg));
        all.extend(self.watch.iter().flatten().copied());
        all.extend(self.ups.iter().flatten().flatten().map(|&(seg, _)| seg));
        all.sort_unstable();
        all.dedup();
        self.segments = all;
    }

    /// Adds `table` to the plan when it matches.
    fn match_table(&mut self, storage: &Storage, wanted: &Wanted<'_>, table: TableId) {
        let has = |t: TypeIdx| storage.position_of(table, t).is_some();
        if !wanted.with.iter().all(|&t| has(t)) || wanted.without.iter().any(|&t| has(t)) {
            return;
        }
        let start = self.places.len();
        for (term, ty) in wanted.terms.iter().zip(wanted.resolved) {
            let place = ty.and_then(|t| storage.first_isa_level(table, t));
            if term.required && place.is_none() {
                self.places.truncate(start);
                return;
            }
            self.places.push(place.map(|(p, level)| (p.seg, level)));
        }
        self.tables.push(table);
        self.watch.extend(wanted.watched.iter().map(|&t| {
            every_match(storage, table, Some(t))
                .into_iter()
                .map(|(seg, _)| seg)
                .collect::<Vec<_>>()
        }));
        if wanted.terms.iter().any(|t| t.all) {
            let terms = wanted.terms.iter().zip(wanted.resolved);
            self.many.extend(
                terms.map(|(term, ty)| {
                    every_match(storage, table, term.all.then_some(*ty).flatten())
                }),
            );
        }
    }

    /// Every segment the plan reads, sorted, each once.
    pub fn segments(&self) -> &[SegId] {
        &self.segments
    }

    /// Where each term reads in `table` alone; `Err(i)` when the table
    /// holds nothing that is-a required term `i`'s type.
    pub fn places_in(
        storage: &Storage,
        terms: &[TermInfo],
        table: TableId,
    ) -> Result<Vec<Place>, usize> {
        terms
            .iter()
            .enumerate()
            .map(|(i, term)| {
                let place = term
                    .key
                    .and_then(|k| storage.types().index_of_id(k.type_id()))
                    .and_then(|t| storage.first_isa_level(table, t))
                    .map(|(p, level)| (p.seg, level));
                match place {
                    None if term.required => Err(i),
                    place => Ok(place),
                }
            })
            .collect()
    }

    /// The places of the `i`-th table of the plan, whose query has `terms`
    /// terms: the caller's `Q::TERMS.len()`, a constant, so finding them
    /// takes no multiply by the count the plan stores.
    #[inline]
    pub fn places_of(&self, i: usize, terms: usize) -> &[Place] {
        debug_assert_eq!(terms, self.terms, "the plan's own query");
        &self.places[i * terms..(i + 1) * terms]
    }

    /// Per term, where [`Up`](crate::Up) terms find their type by table.
    #[inline]
    pub fn ups(&self) -> &[Vec<Place>] {
        &self.ups
    }

    /// The segments each change filter watches in the `i`-th table.
    #[inline]
    pub fn watch_of(&self, i: usize) -> &[Vec<SegId>] {
        &self.watch[i * self.changes..(i + 1) * self.changes]
    }

    /// The every-match places of the `i`-th table (empty without
    /// [`All`](crate::All) terms).
    #[inline]
    pub fn many_of(&self, i: usize) -> &[Vec<(SegId, usize)>] {
        self.many
            .get(i * self.terms..(i + 1) * self.terms)
            .unwrap_or(&[])
    }
}

/// Per term, for [`Up`](crate::Up) terms (empty for the others): by table
/// id, over every table, where the first component that is-a the term's
/// type sits.
pub(crate) fn up_places(storage: &Storage, terms: &[TermInfo]) -> Vec<Vec<Place>> {
    let tables = storage.table_slots();
    terms
        .iter()
        .map(|term| {
            let ty = term
                .key
                .filter(|_| term.up)
                .and_then(|k| storage.types().index_of_id(k.type_id()));
            let Some(t) = ty else {
                return Vec::new();
            };
            (0..tables)
                .map(|table| {
                    let found = storage.first_isa_level(TableId::from_index(table), t);
                    found.map(|(p, level)| (p.seg, level))
                })
                .collect()
        })
        .collect()
}

/// Every component of `table` that is-a `ty`, as places.
pub(crate) fn every_match(
    storage: &Storage,
    table: TableId,
    ty: Option<TypeIdx>,
) -> Vec<(SegId, usize)> {
    ty.map(|t| {
        storage
            .all_isa(table, t)
            .iter()
            .map(|&(place, level)| (place.seg, level as usize))
            .collect()
    })
    .unwrap_or_default()
}

impl Plan {
    /// [`every_match`] for each term of a one-table query.
    pub fn many_in(
        storage: &Storage,
        terms: &[TermInfo],
        table: TableId,
    ) -> Vec<Vec<(SegId, usize)>> {
        if !terms.iter().any(|t| t.all) {
            return Vec::new();
        }
        terms
            .iter()
            .map(|term| {
                let ty = term
                    .key
                    .and_then(|k| storage.types().index_of_id(k.type_id()));
                every_match(storage, table, term.all.then_some(ty).flatten())
            })
            .collect()
    }
}
