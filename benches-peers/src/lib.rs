//! Shared fixtures for the peer comparison: component types (each derives the
//! component trait of ecs-core *and* of bevy_ecs; hecs needs no derive), a
//! tiny deterministic PRNG, a 4x4 matrix inverse, and the world builders used
//! by both the criterion bench (`benches/peers.rs`) and the memory probe
//! (`src/bin/memory.rs`).

use bevy_ecs::component::Component as BevyComponent;
use ecs_core::Component as OurComponent;

/// Number of entities in the `get`, `get_one`, `get_all`, `base_iter`,
/// `base_term`, `join5`, `par_light` and ecs_bench_suite 10k worlds.
pub const N_ENTITIES: usize = 10_000;

// ---------------------------------------------------------------- xorshift

/// Marsaglia xorshift64: deterministic, no `rand` dependency.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// `0..n` in a fixed shuffled order.
pub fn shuffled_indices(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    XorShift::new(0x9E37_79B9_7F4A_7C15).shuffle(&mut order);
    order
}

// ---------------------------------------------------------------- math

/// Column-major 4x4 matrix, like glam's `Mat4`.
pub type Mat4 = [[f32; 4]; 4];

pub const IDENTITY: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// Rotation about the X axis (what ecs_bench_suite's heavy_compute uses).
pub fn rotation_x(angle: f32) -> Mat4 {
    let (s, c) = angle.sin_cos();
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, c, s, 0.0],
        [0.0, -s, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// General 4x4 inverse by cofactors (the same algorithm glam/cgmath use).
#[inline]
pub fn inverse(m: &Mat4) -> Mat4 {
    let [[m00, m01, m02, m03], [m10, m11, m12, m13], [m20, m21, m22, m23], [m30, m31, m32, m33]] =
        *m;
    let c00 = m22 * m33 - m32 * m23;
    let c02 = m12 * m33 - m32 * m13;
    let c03 = m12 * m23 - m22 * m13;
    let c04 = m21 * m33 - m31 * m23;
    let c06 = m11 * m33 - m31 * m13;
    let c07 = m11 * m23 - m21 * m13;
    let c08 = m21 * m32 - m31 * m22;
    let c10 = m11 * m32 - m31 * m12;
    let c11 = m11 * m22 - m21 * m12;
    let c12 = m20 * m33 - m30 * m23;
    let c14 = m10 * m33 - m30 * m13;
    let c15 = m10 * m23 - m20 * m13;
    let c16 = m20 * m32 - m30 * m22;
    let c18 = m10 * m32 - m30 * m12;
    let c19 = m10 * m22 - m20 * m12;
    let c20 = m20 * m31 - m30 * m21;
    let c22 = m10 * m31 - m30 * m11;
    let c23 = m10 * m21 - m20 * m11;

    let f0 = [c00, c00, c02, c03];
    let f1 = [c04, c04, c06, c07];
    let f2 = [c08, c08, c10, c11];
    let f3 = [c12, c12, c14, c15];
    let f4 = [c16, c16, c18, c19];
    let f5 = [c20, c20, c22, c23];

    let v0 = [m10, m00, m00, m00];
    let v1 = [m11, m01, m01, m01];
    let v2 = [m12, m02, m02, m02];
    let v3 = [m13, m03, m03, m03];

    let mut inv = [[0.0f32; 4]; 4];
    let sign_a = [1.0, -1.0, 1.0, -1.0];
    let sign_b = [-1.0, 1.0, -1.0, 1.0];
    for k in 0..4 {
        inv[0][k] = sign_a[k] * (v1[k] * f0[k] - v2[k] * f1[k] + v3[k] * f2[k]);
        inv[1][k] = sign_b[k] * (v0[k] * f0[k] - v2[k] * f3[k] + v3[k] * f4[k]);
        inv[2][k] = sign_a[k] * (v0[k] * f1[k] - v1[k] * f3[k] + v3[k] * f5[k]);
        inv[3][k] = sign_b[k] * (v0[k] * f2[k] - v1[k] * f4[k] + v2[k] * f5[k]);
    }
    let det = m00 * inv[0][0] + m01 * inv[1][0] + m02 * inv[2][0] + m03 * inv[3][0];
    let rcp = 1.0 / det;
    for col in &mut inv {
        for v in col {
            *v *= rcp;
        }
    }
    inv
}

/// `m * (v, 0)`: transforms a direction (glam's `transform_vector3`).
#[inline]
pub fn transform_vector3(m: &Mat4, v: [f32; 3]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for (r, o) in out.iter_mut().enumerate() {
        *o = m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2];
    }
    out
}

/// The heavy_compute kernel: invert 100 times, then transform the position.
#[inline]
pub fn heavy_kernel(mat: &mut Mat4, pos: &mut [f32; 3]) {
    for _ in 0..100 {
        *mat = inverse(mat);
    }
    *pos = transform_vector3(mat, *pos);
}

// ---------------------------------------------------------------- components

/// ecs_bench_suite's components (Transform(mat4x4), Position/Rotation/Velocity(vec3)).
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Transform(pub Mat4);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Position(pub [f32; 3]);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Rotation(pub [f32; 3]);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Velocity(pub [f32; 3]);

/// Sum of the simple_insert components' sizes, for the memory target.
pub const SIMPLE_COMPONENT_BYTES: usize = std::mem::size_of::<Transform>()
    + std::mem::size_of::<Position>()
    + std::mem::size_of::<Rotation>()
    + std::mem::size_of::<Velocity>();

/// One simple_insert entity.
pub fn simple_bundle() -> (Transform, Position, Rotation, Velocity) {
    (
        Transform(IDENTITY),
        Position([1.0, 0.0, 0.0]),
        Rotation([1.0, 0.0, 0.0]),
        Velocity([1.0, 0.0, 0.0]),
    )
}

/// One heavy_compute entity.
pub fn heavy_bundle() -> (Transform, Position, Rotation, Velocity) {
    (
        Transform(rotation_x(1.2)),
        Position([1.0, 0.0, 0.0]),
        Rotation([1.0, 0.0, 0.0]),
        Velocity([1.0, 0.0, 0.0]),
    )
}

/// Eight distinct small components for `get`.
macro_rules! small_components {
    ($($name:ident),*) => {$(
        #[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
        pub struct $name(pub f32);
    )*};
}
small_components!(C0, C1, C2, C3, C4, C5, C6, C7);

/// The 8 small components of entity `i` (values differ per entity).
pub fn eight_bundle(i: usize) -> (C0, C1, C2, C3, C4, C5, C6, C7) {
    let v = i as f32;
    (
        C0(v),
        C1(v + 1.0),
        C2(v + 2.0),
        C3(v + 3.0),
        C4(v + 4.0),
        C5(v + 5.0),
        C6(v + 6.0),
        C7(v + 7.0),
    )
}

/// The base of the is-a pair behind `get_via_parent`, `base_iter` and
/// `base_term` (ecs-core only: the peers have no component inheritance). No
/// entity holds a bare `Moving`; every one is reached through
/// [`AxisMoving`].
#[derive(OurComponent, Clone, Copy, Debug)]
pub struct Moving {
    pub speed: f32,
}

/// Derived from [`Moving`]: `get::<Moving>()`, `iter::<Moving>()` and a
/// `&Moving` query term find it through the parent chain,
/// `get::<AxisMoving>()`, `iter::<AxisMoving>()` and `&AxisMoving` through
/// its own column.
#[derive(OurComponent, Clone, Copy, Debug)]
#[component(parent = Moving)]
pub struct AxisMoving {
    pub base: Moving,
    pub vertical: bool,
}

/// The `base_iter` and `base_term` world: `n` entities of `(Position,
/// AxisMoving)`, speed `i`. The `Position` keeps the entities in a
/// two-column table, as a real mover would be, rather than in a table
/// holding only the column iterated.
pub fn base_iter_world(n: usize) -> ecs_core::World {
    let mut w = ecs_core::World::new();
    w.spawn_batch((0..n).map(|i| {
        let moving = AxisMoving {
            base: Moving { speed: i as f32 },
            vertical: i % 2 == 0,
        };
        (Position([0.0; 3]), moving)
    }))
    .unwrap();
    w
}

/// A `multiple` component: ecs-core stores several per entity.
#[derive(OurComponent, Clone, Copy, Debug)]
#[component(multiple)]
pub struct Collider {
    pub radius: f32,
}

/// bevy_ecs and hecs allow one component of a type per entity; the idiomatic
/// equivalent of three `Collider`s is one component holding a `Vec`.
#[derive(BevyComponent, Clone, Debug)]
pub struct Colliders(pub Vec<Collider>);

/// frag_iter: `Data` plus one of 26 marker types A..Z.
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Data(pub f32);

/// Declares the 26 frag_iter types and `frag::{ours, bevy, hecs}`, which spawn
/// 20 entities of each type, each also holding `Data(1.0)`.
#[macro_export]
macro_rules! frag_types {
    ($($name:ident),*) => {$(
        #[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
        pub struct $name(pub f32);
    )*
        /// Builds the frag_iter world for each library.
        pub mod frag {
            use super::*;
            pub fn ours() -> ecs_core::World {
                let mut w = ecs_core::World::new();
                $( w.spawn_batch((0..20).map(|_| ($name(0.0), Data(1.0)))).unwrap(); )*
                w
            }
            pub fn bevy() -> bevy_ecs::world::World {
                let mut w = bevy_ecs::world::World::new();
                $( w.spawn_batch((0..20).map(|_| ($name(0.0), Data(1.0)))); )*
                w
            }
            pub fn hecs() -> hecs::World {
                let mut w = hecs::World::new();
                $( w.spawn_batch((0..20).map(|_| ($name(0.0), Data(1.0)))); )*
                w
            }
        }
    };
}
frag_types!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z);

/// add_remove's two components.
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct AddA(pub f32);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct AddB(pub f32);

/// join5's components besides [`Position`] and [`Velocity`]: every entity
/// holds `Health`, `Radius` and `Team`; `Armor`, `Stamina` and `Elite` are
/// the extras that split the entities over four tables.
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Health(pub f32);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Radius(pub f32);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Team(pub u32);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Armor(pub f32);
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Stamina(pub f32);
/// A marker (no data).
#[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
pub struct Elite;

/// join5's work on one entity: reads `Velocity`, `Radius` and `Team`,
/// writes `Position` and `Health`. `Health` converges (to `2 * r * team`,
/// never zero), so however many passes run it neither grows nor decays
/// into denormals.
#[inline(always)]
pub fn join5_kernel(p: &mut Position, h: &mut Health, v: &Velocity, r: &Radius, t: &Team) {
    const DT: f32 = 1.0 / 64.0;
    for k in 0..3 {
        p.0[k] += v.0[k] * DT;
    }
    h.0 = h.0 * 0.5 + r.0 * t.0 as f32;
}

// ---------------------------------------------------------------- builders

/// The simple_insert world, built idiomatically by each library.
pub mod simple {
    use super::*;

    /// ours: `spawn_batch` (reserves every column from the size hint).
    pub fn ours(
        n: usize,
        bundle: fn() -> (Transform, Position, Rotation, Velocity),
    ) -> ecs_core::World {
        let mut w = ecs_core::World::new();
        w.spawn_batch((0..n).map(|_| bundle())).unwrap();
        w
    }

    /// ours without any reservation: `spawn` + four `add`s per entity.
    pub fn ours_unreserved(n: usize) -> ecs_core::World {
        let mut w = ecs_core::World::new();
        for _ in 0..n {
            let id = w.spawn();
            let mut e = w.entity_mut(id).unwrap();
            let (t, p, r, v) = simple_bundle();
            e.add(t).unwrap();
            e.add(p).unwrap();
            e.add(r).unwrap();
            e.add(v).unwrap();
        }
        w
    }

    pub fn bevy(
        n: usize,
        bundle: fn() -> (Transform, Position, Rotation, Velocity),
    ) -> bevy_ecs::world::World {
        let mut w = bevy_ecs::world::World::new();
        w.spawn_batch((0..n).map(|_| bundle()));
        w
    }

    pub fn hecs(
        n: usize,
        bundle: fn() -> (Transform, Position, Rotation, Velocity),
    ) -> hecs::World {
        let mut w = hecs::World::new();
        w.spawn_batch((0..n).map(|_| bundle()));
        w
    }
}

/// The snapshot world: `n` entities each holding ecs_bench_suite's four
/// components and a [`Health`] (5 components, 104 bytes of values per
/// entity), one table; the same values held in five `Vec`s are the
/// baseline a snapshot is measured against.
pub mod snapshot {
    use super::*;

    /// One entity's components.
    pub type Row = (Transform, Position, Rotation, Velocity, Health);

    /// Entity `i`'s components (values differ per entity).
    pub fn row(i: usize) -> Row {
        let v = i as f32;
        (
            Transform(rotation_x(v)),
            Position([v, 0.0, 0.0]),
            Rotation([0.0, v, 0.0]),
            Velocity([0.0, 0.0, v]),
            Health(v),
        )
    }

    /// The same values as the worlds hold, one `Vec` per component type:
    /// what a game would clone to keep a copy of its state by hand.
    #[derive(Clone)]
    pub struct Columns {
        pub transforms: Vec<Transform>,
        pub positions: Vec<Position>,
        pub rotations: Vec<Rotation>,
        pub velocities: Vec<Velocity>,
        pub healths: Vec<Health>,
    }

    /// `n` rows as [`Columns`].
    pub fn columns(n: usize) -> Columns {
        let rows: Vec<Row> = (0..n).map(row).collect();
        Columns {
            transforms: rows.iter().map(|r| r.0).collect(),
            positions: rows.iter().map(|r| r.1).collect(),
            rotations: rows.iter().map(|r| r.2).collect(),
            velocities: rows.iter().map(|r| r.3).collect(),
            healths: rows.iter().map(|r| r.4).collect(),
        }
    }

    /// Bytes of component values in `n` rows.
    pub fn value_bytes(n: usize) -> usize {
        n * std::mem::size_of::<Row>()
    }

    pub fn ours(n: usize) -> ecs_core::World {
        let mut w = ecs_core::World::new();
        w.spawn_batch((0..n).map(row)).unwrap();
        w
    }

    pub fn bevy(n: usize) -> bevy_ecs::world::World {
        let mut w = bevy_ecs::world::World::new();
        w.spawn_batch((0..n).map(row));
        w
    }

    /// One frame of play between a snapshot and its restore: every
    /// position moves, every health changes.
    pub fn play(w: &mut ecs_core::World) {
        for (p, h, v) in w.query_mut::<(&mut Position, &mut Health, &Velocity)>() {
            p.0[2] += v.0[2];
            h.0 -= 1.0;
        }
    }
}

/// The join5 world: [`N_ENTITIES`] entities in four tables of
/// [`join5::PER_TABLE`], all holding `(Position, Velocity, Health, Radius,
/// Team)` (5 components), the second table also `Armor` (6), the third
/// `Armor, Stamina` (7), the fourth `Armor, Stamina, Elite` (8).
pub mod join5 {
    use super::*;

    /// Entities per table.
    pub const PER_TABLE: usize = N_ENTITIES / 4;

    /// The five components every join5 entity holds (values vary with `i`).
    pub fn common(i: usize) -> (Position, Velocity, Health, Radius, Team) {
        let v = (i % 16) as f32;
        (
            Position([v, 0.0, 0.0]),
            Velocity([1.0, v, 0.5]),
            Health(100.0),
            Radius(0.5 + (i % 4) as f32),
            Team(1 + (i % 3) as u32),
        )
    }

    pub fn five(i: usize) -> (Position, Velocity, Health, Radius, Team) {
        common(i)
    }

    pub fn six(i: usize) -> (Position, Velocity, Health, Radius, Team, Armor) {
        let (p, v, h, r, t) = common(i);
        (p, v, h, r, t, Armor(1.0))
    }

    pub fn seven(i: usize) -> (Position, Velocity, Health, Radius, Team, Armor, Stamina) {
        let (p, v, h, r, t) = common(i);
        (p, v, h, r, t, Armor(1.0), Stamina(1.0))
    }

    #[allow(clippy::type_complexity)]
    pub fn eight(
        i: usize,
    ) -> (
        Position,
        Velocity,
        Health,
        Radius,
        Team,
        Armor,
        Stamina,
        Elite,
    ) {
        let (p, v, h, r, t) = common(i);
        (p, v, h, r, t, Armor(1.0), Stamina(1.0), Elite)
    }

    const N: usize = PER_TABLE;

    pub fn ours() -> ecs_core::World {
        let mut w = ecs_core::World::new();
        w.spawn_batch((0..N).map(five)).unwrap();
        w.spawn_batch((N..2 * N).map(six)).unwrap();
        w.spawn_batch((2 * N..3 * N).map(seven)).unwrap();
        w.spawn_batch((3 * N..4 * N).map(eight)).unwrap();
        w
    }

    pub fn bevy() -> bevy_ecs::world::World {
        let mut w = bevy_ecs::world::World::new();
        w.spawn_batch((0..N).map(five));
        w.spawn_batch((N..2 * N).map(six));
        w.spawn_batch((2 * N..3 * N).map(seven));
        w.spawn_batch((3 * N..4 * N).map(eight));
        w
    }

    pub fn hecs() -> hecs::World {
        let mut w = hecs::World::new();
        w.spawn_batch((0..N).map(five));
        w.spawn_batch((N..2 * N).map(six));
        w.spawn_batch((2 * N..3 * N).map(seven));
        w.spawn_batch((3 * N..4 * N).map(eight));
        w
    }
}

/// The par_light world (ours only): [`N_ENTITIES`] entities of `(Position,
/// Velocity)` in four tables of a quarter each, told apart by one frag_iter
/// marker (`A`, `B`, `C` or `D`).
pub fn par_light_world() -> ecs_core::World {
    const P: Position = Position([0.0; 3]);
    const V: Velocity = Velocity([1.0, 0.5, 0.25]);
    let n = N_ENTITIES / 4;
    let mut w = ecs_core::World::new();
    w.spawn_batch((0..n).map(|_| (P, V, A(0.0)))).unwrap();
    w.spawn_batch((0..n).map(|_| (P, V, B(0.0)))).unwrap();
    w.spawn_batch((0..n).map(|_| (P, V, C(0.0)))).unwrap();
    w.spawn_batch((0..n).map(|_| (P, V, D(0.0)))).unwrap();
    w
}

// ---------------------------------------------------------------- changed

/// Declares the `changed` scenario's 100 table markers and the
/// [`changed`] module (its worlds, the write that marks one table changed
/// and the read that asks what changed). The first marker names the table
/// that is written.
macro_rules! changed_tables {
    ($first:ident $(, $name:ident)*) => {
        $(
            /// A `changed` table marker (no data).
            #[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
            pub struct $name;
        )*
        /// The `changed` table marker of the table that is written.
        #[derive(OurComponent, BevyComponent, Clone, Copy, Debug)]
        pub struct $first;

        /// The `changed` scenario: [`changed::ENTITIES`] entities of
        /// `Position` in [`changed::TABLES`] tables of
        /// [`changed::PER_TABLE`] (one marker type each). Each pass hands out
        /// one table's `Position`s mutably (not timed), then asks which
        /// `Position`s changed since just before that write (timed): the
        /// answer is that table's entities.
        pub mod changed {
            use super::*;
            use bevy_ecs::query::{Changed, QueryState, With};

            /// Tables (one per marker type).
            pub const TABLES: usize = 100;
            /// Entities per table.
            pub const PER_TABLE: usize = 1_000;
            /// Entities in the world: the scenario's throughput.
            pub const ENTITIES: usize = TABLES * PER_TABLE;
            /// The marker of the table each pass writes.
            pub type Written = $first;

            fn position(i: usize) -> Position {
                Position([(i % 64) as f32, 1.0, 0.0])
            }

            /// ecs-core's world and the reader's tick.
            pub struct Ours {
                pub world: ecs_core::World,
                since: ecs_core::Tick,
            }

            impl Ours {
                pub fn new() -> Self {
                    let mut world = ecs_core::World::new();
                    world
                        .spawn_batch((0..PER_TABLE).map(|i| (position(i), $first)))
                        .unwrap();
                    $(
                        world
                            .spawn_batch((0..PER_TABLE).map(|i| (position(i), $name)))
                            .unwrap();
                    )*
                    let since = world.change_tick();
                    Ours { world, since }
                }

                /// Takes the reader's tick, then hands out the written
                /// table's `Position`s mutably (negating `x`, so values stay
                /// bounded however many passes run).
                pub fn write(&mut self) {
                    self.since = self.world.change_tick();
                    for (p,) in self.world.query_mut::<(&mut Position,)>().with::<Written>() {
                        p.0[0] = -p.0[0];
                    }
                }

                /// The `Position`s changed since the tick `write` took:
                /// how many, and the sum of their `x`.
                pub fn read(&self) -> (usize, f32) {
                    let mut n = 0;
                    let mut sum = 0.0f32;
                    for (p,) in self
                        .world
                        .query::<(&Position,)>()
                        .changed_since::<Position>(self.since)
                    {
                        n += 1;
                        sum += p.0[0];
                    }
                    (n, sum)
                }
            }

            impl Default for Ours {
                fn default() -> Self {
                    Self::new()
                }
            }

            /// bevy_ecs's world with its two cached `QueryState`s.
            ///
            /// Outside a system, `QueryState::iter`/`iter_mut` run with
            /// `last_run = world.last_change_tick()` and `this_run =
            /// world.change_tick()`; a `Mut` written through `iter_mut`
            /// records `this_run`, and `Changed<T>` keeps the rows whose
            /// tick is newer than `last_run`. [`write`](Bevy::write) first
            /// calls `World::clear_trackers`, which sets `last_change_tick`
            /// to the current tick and moves the clock on one: the rows it
            /// then writes carry the new tick and every earlier write
            /// (earlier passes, the spawn) an older one, so the read sees
            /// exactly this pass's table.
            pub struct Bevy {
                pub world: bevy_ecs::world::World,
                write: QueryState<&'static mut Position, With<Written>>,
                read: QueryState<&'static Position, Changed<Position>>,
            }

            impl Bevy {
                pub fn new() -> Self {
                    let mut world = bevy_ecs::world::World::new();
                    world.spawn_batch((0..PER_TABLE).map(|i| (position(i), $first)));
                    $( world.spawn_batch((0..PER_TABLE).map(|i| (position(i), $name))); )*
                    let write = world.query_filtered::<&mut Position, With<Written>>();
                    let read = world.query_filtered::<&Position, Changed<Position>>();
                    world.clear_trackers();
                    Bevy { world, write, read }
                }

                /// Starts a new change window (`clear_trackers`), then
                /// writes the written table's `Position`s (negating `x`).
                pub fn write(&mut self) {
                    self.world.clear_trackers();
                    for mut p in self.write.iter_mut(&mut self.world) {
                        p.0[0] = -p.0[0];
                    }
                }

                /// The `Position`s changed since `write` cleared the
                /// trackers: how many, and the sum of their `x`.
                pub fn read(&mut self) -> (usize, f32) {
                    let mut n = 0;
                    let mut sum = 0.0f32;
                    for p in self.read.iter(&self.world) {
                        n += 1;
                        sum += p.0[0];
                    }
                    (n, sum)
                }
            }

            impl Default for Bevy {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    };
}
changed_tables!(
    Tab00, Tab01, Tab02, Tab03, Tab04, Tab05, Tab06, Tab07, Tab08, Tab09, Tab10, Tab11, Tab12,
    Tab13, Tab14, Tab15, Tab16, Tab17, Tab18, Tab19, Tab20, Tab21, Tab22, Tab23, Tab24, Tab25,
    Tab26, Tab27, Tab28, Tab29, Tab30, Tab31, Tab32, Tab33, Tab34, Tab35, Tab36, Tab37, Tab38,
    Tab39, Tab40, Tab41, Tab42, Tab43, Tab44, Tab45, Tab46, Tab47, Tab48, Tab49, Tab50, Tab51,
    Tab52, Tab53, Tab54, Tab55, Tab56, Tab57, Tab58, Tab59, Tab60, Tab61, Tab62, Tab63, Tab64,
    Tab65, Tab66, Tab67, Tab68, Tab69, Tab70, Tab71, Tab72, Tab73, Tab74, Tab75, Tab76, Tab77,
    Tab78, Tab79, Tab80, Tab81, Tab82, Tab83, Tab84, Tab85, Tab86, Tab87, Tab88, Tab89, Tab90,
    Tab91, Tab92, Tab93, Tab94, Tab95, Tab96, Tab97, Tab98, Tab99
);

// ---------------------------------------------------------------- observer_add

/// The `observer_add` scenario: add_remove's world ([`N_ENTITIES`]
/// entities of [`AddA`]) and its pass (add [`AddB`] to every entity, then
/// remove it from every entity). The bench runs it on a world with one
/// observer of `AddB` being added and on one without.
pub mod observer_add {
    use super::*;

    pub fn ours() -> (ecs_core::World, Vec<ecs_core::EntityId>) {
        let mut w = ecs_core::World::new();
        let ids = w
            .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
            .unwrap();
        (w, ids)
    }

    pub fn ours_pass(w: &mut ecs_core::World, ids: &[ecs_core::EntityId]) {
        for &id in ids {
            w.entity_mut(id).unwrap().add(AddB(0.0)).unwrap();
        }
        for &id in ids {
            w.entity_mut(id).unwrap().remove::<AddB>().unwrap();
        }
    }

    pub fn bevy() -> (bevy_ecs::world::World, Vec<bevy_ecs::entity::Entity>) {
        let mut w = bevy_ecs::world::World::new();
        let ids = w
            .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
            .collect();
        (w, ids)
    }

    pub fn bevy_pass(w: &mut bevy_ecs::world::World, ids: &[bevy_ecs::entity::Entity]) {
        for &id in ids {
            w.entity_mut(id).insert(AddB(0.0));
        }
        for &id in ids {
            w.entity_mut(id).remove::<AddB>();
        }
    }

    /// Added to every `*_cost` measurement, per element: criterion rejects
    /// a sample of zero time, which a difference of two noisy times can
    /// be when the cost is small. report.py takes it off again.
    pub const COST_OFFSET_NS: u64 = 100;

    /// What `observed` costs beyond `plain` over `iters` runs of each,
    /// timed interleaved (plain then observed, then the other way round,
    /// so that a drift of the machine's speed during the measurement falls
    /// on both alike): the sum of the observed runs' times minus the sum
    /// of the plain ones', plus [`COST_OFFSET_NS`] per element of each
    /// run (`elements` per run). The two closures run equally often.
    pub fn interleaved_cost(
        iters: u64,
        elements: u64,
        mut plain: impl FnMut(),
        mut observed: impl FnMut(),
    ) -> std::time::Duration {
        use std::time::{Duration, Instant};
        let (mut plain_time, mut observed_time) = (Duration::ZERO, Duration::ZERO);
        let time = |f: &mut dyn FnMut(), total: &mut Duration| {
            let start = Instant::now();
            f();
            *total += start.elapsed();
        };
        for i in 0..iters {
            if i % 2 == 0 {
                time(&mut plain, &mut plain_time);
                time(&mut observed, &mut observed_time);
            } else {
                time(&mut observed, &mut observed_time);
                time(&mut plain, &mut plain_time);
            }
        }
        let offset = Duration::from_nanos(COST_OFFSET_NS * elements * iters);
        (observed_time + offset)
            .saturating_sub(plain_time)
            .max(Duration::from_nanos(1))
    }
}

/// More world shapes for save/load, one feature each (the `save_load`
/// world above mixes names, a hierarchy and references): every shape has
/// [`N_ENTITIES`] entities, built by `world` for ecs-core and by `rows` as
/// the same values in a plain `Vec` for serde alone (serde_json for JSON,
/// rmp-serde for the binary baseline). Entity `i` is saved as `i`.
pub mod save_shapes {
    use super::save_load::{SlHealth, SlPosition};
    use super::OurComponent;
    use ecs_core::World;
    use serde::{Deserialize, Serialize};

    /// The shapes, in the order the bench and the report list them: the
    /// criterion group of shape `s` is `save_load_<s>`.
    pub const SHAPES: [&str; 4] = ["named", "inherited", "multiple", "hierarchy"];

    fn position(i: usize) -> SlPosition {
        let f = i as f32 * 0.37;
        SlPosition {
            x: f,
            y: f * 2.0,
            z: -f,
        }
    }

    fn health(i: usize) -> SlHealth {
        SlHealth {
            hp: (i % 100) as u32,
            max: 100,
        }
    }

    // ------------------------------------------------------------- named

    /// `named`: every entity has its own name (`npc-00042`: 10k distinct
    /// names, where `save_load` shares each name between ten entities), a
    /// `SlPosition` and a `SlHealth`; no hierarchy.
    pub mod named {
        use super::*;

        /// The baseline's entity: the name as a `String` field.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            pub name: String,
            pub position: SlPosition,
            pub health: SlHealth,
        }

        fn name(i: usize) -> String {
            format!("npc-{i:05}")
        }

        pub fn world(n: usize) -> World {
            let mut w = World::new();
            for i in 0..n {
                let id = w.spawn_with((position(i), health(i))).unwrap();
                w.entity_mut(id).unwrap().set_name(Some(&name(i)));
            }
            w
        }

        pub fn rows(n: usize) -> Vec<Row> {
            (0..n)
                .map(|i| Row {
                    name: name(i),
                    position: position(i),
                    health: health(i),
                })
                .collect()
        }
    }

    // ------------------------------------------------------------- inherited

    /// The base of the `inherited` shape's is-a tree: `SlWalker` and
    /// `SlFlyer` are-a `SlMover`, `SlRunner` is-a `SlWalker`.
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlMover {
        pub speed: f32,
        pub heading: f32,
    }

    /// Is-a [`SlMover`].
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[component(parent = SlMover)]
    pub struct SlWalker {
        pub base: SlMover,
        pub stride: f32,
    }

    /// Is-a [`SlWalker`] (so a `SlMover` two levels up).
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[component(parent = SlWalker)]
    pub struct SlRunner {
        pub base: SlWalker,
        pub sprint: f32,
        pub stamina: u32,
    }

    /// Is-a [`SlMover`].
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[component(parent = SlMover)]
    pub struct SlFlyer {
        pub base: SlMover,
        pub altitude: f32,
    }

    /// `inherited`: every entity holds a `SlPosition` and one mover, in turn
    /// the base `SlMover`, a `SlWalker`, a `SlRunner` (two levels down) and
    /// a `SlFlyer`: four tables, each component a derived struct embedding
    /// its parent's value.
    pub mod inherited {
        use super::*;

        /// The baseline's mover: which type it is, the way serde says it
        /// (an externally tagged enum), holding the same struct.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum Mover {
            Mover(SlMover),
            Walker(SlWalker),
            Runner(SlRunner),
            Flyer(SlFlyer),
        }

        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            pub position: SlPosition,
            pub mover: Mover,
        }

        fn mover(i: usize) -> Mover {
            let base = SlMover {
                speed: (i % 13) as f32 * 0.5,
                heading: (i % 360) as f32,
            };
            let walker = |base| SlWalker { base, stride: 0.75 };
            match i % 4 {
                0 => Mover::Mover(base),
                1 => Mover::Walker(walker(base)),
                2 => Mover::Runner(SlRunner {
                    base: walker(base),
                    sprint: 2.5,
                    stamina: (i % 50) as u32,
                }),
                _ => Mover::Flyer(SlFlyer {
                    base,
                    altitude: (i % 20) as f32 * 10.0,
                }),
            }
        }

        pub fn world(n: usize) -> World {
            let mut w = World::new();
            for i in 0..n {
                let p = position(i);
                match mover(i) {
                    Mover::Mover(m) => w.spawn_with((p, m)),
                    Mover::Walker(m) => w.spawn_with((p, m)),
                    Mover::Runner(m) => w.spawn_with((p, m)),
                    Mover::Flyer(m) => w.spawn_with((p, m)),
                }
                .unwrap();
            }
            w
        }

        pub fn rows(n: usize) -> Vec<Row> {
            (0..n)
                .map(|i| Row {
                    position: position(i),
                    mover: mover(i),
                })
                .collect()
        }
    }

    // ------------------------------------------------------------- multiple

    /// A `multiple` component: an entity of the `multiple` shape holds one
    /// to four.
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[component(multiple)]
    pub struct SlCollider {
        pub radius: f32,
        pub layer: u32,
    }

    /// `multiple`: every entity holds a `SlPosition` and `1 + i % 4`
    /// `SlCollider`s (four tables, 2.5 colliders per entity on average).
    pub mod multiple {
        use super::*;

        /// The baseline's entity: the colliders in a `Vec`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            pub position: SlPosition,
            pub colliders: Vec<SlCollider>,
        }

        fn collider(i: usize, k: usize) -> SlCollider {
            SlCollider {
                radius: 0.5 + k as f32 + (i % 5) as f32 * 0.25,
                layer: 1 << k,
            }
        }

        pub fn world(n: usize) -> World {
            let mut w = World::new();
            for i in 0..n {
                let (p, c) = (position(i), |k| collider(i, k));
                match i % 4 {
                    0 => w.spawn_with((p, c(0))),
                    1 => w.spawn_with((p, c(0), c(1))),
                    2 => w.spawn_with((p, c(0), c(1), c(2))),
                    _ => w.spawn_with((p, c(0), c(1), c(2), c(3))),
                }
                .unwrap();
            }
            w
        }

        pub fn rows(n: usize) -> Vec<Row> {
            (0..n)
                .map(|i| Row {
                    position: position(i),
                    colliders: (0..=i % 4).map(|k| collider(i, k)).collect(),
                })
                .collect()
        }
    }

    // ------------------------------------------------------------- hierarchy

    /// `hierarchy`: a scene graph of 10 roots, each the root of a tree in
    /// which node `j` (numbered breadth-first) is the child of node
    /// `(j - 1) / 4` (a 4-ary tree, depth 5 below the root for 1,000
    /// nodes), entities unnamed, each a `SlPosition` and a `SlHealth`. The
    /// entities are spawned in the save's depth-first order, so entity `i`
    /// is saved as `i`; the baseline's rows hold each entity's parent as an
    /// index into the `Vec`.
    pub mod hierarchy {
        use super::*;

        pub const ROOTS: usize = 10;
        pub const FANOUT: usize = 4;

        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            pub parent: Option<u32>,
            pub position: SlPosition,
            pub health: SlHealth,
        }

        /// Each entity's parent, by its depth-first (pre-order) position.
        pub fn parents(n: usize) -> Vec<Option<u32>> {
            let mut out = Vec::with_capacity(n);
            let per_tree = n.div_ceil(ROOTS);
            let mut start = 0;
            while start < n {
                let size = per_tree.min(n - start);
                // Pre-order walk of the breadth-first numbered tree: (node, its
                // pre-order parent's position).
                let mut stack = vec![(0usize, None)];
                while let Some((node, parent)) = stack.pop() {
                    let me = out.len() as u32;
                    out.push(parent);
                    let first = node * FANOUT + 1;
                    for child in (first..(first + FANOUT).min(size)).rev() {
                        stack.push((child, Some(me)));
                    }
                }
                start += size;
            }
            out
        }

        pub fn world(n: usize) -> World {
            let mut w = World::new();
            let ids = w
                .spawn_batch((0..n).map(|i| (position(i), health(i))))
                .unwrap();
            for (i, parent) in parents(n).into_iter().enumerate() {
                if let Some(p) = parent {
                    w.set_parent(ids[i], ids[p as usize]).unwrap();
                }
            }
            w
        }

        pub fn rows(n: usize) -> Vec<Row> {
            parents(n)
                .into_iter()
                .enumerate()
                .map(|(i, parent)| Row {
                    parent,
                    position: position(i),
                    health: health(i),
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
        let mut out = [[0.0; 4]; 4];
        for (c, col) in out.iter_mut().enumerate() {
            for (r, v) in col.iter_mut().enumerate() {
                *v = (0..4).map(|k| a[k][r] * b[c][k]).sum();
            }
        }
        out
    }

    #[test]
    fn inverse_times_matrix_is_identity() {
        let mut m = rotation_x(1.2);
        m[3] = [1.0, 2.0, 3.0, 1.0];
        m[0][0] = 2.0;
        let p = mul(&inverse(&m), &m);
        for c in 0..4 {
            for r in 0..4 {
                assert!((p[c][r] - IDENTITY[c][r]).abs() < 1e-5, "{p:?}");
            }
        }
    }

    #[test]
    fn heavy_kernel_round_trips() {
        let mut m = rotation_x(1.2);
        let mut pos = [1.0, 0.0, 0.0];
        heavy_kernel(&mut m, &mut pos);
        assert!(
            (pos[0] - 1.0).abs() < 1e-4 && pos[1].abs() < 1e-4,
            "{pos:?}"
        );
    }

    /// One join5 pass in each library: every entity visited once, and the
    /// same sums of what the kernel wrote.
    #[test]
    fn join5_worlds_agree() {
        type Join<'a> = (
            &'a mut Position,
            &'a mut Health,
            &'a Velocity,
            &'a Radius,
            &'a Team,
        );
        let sums = |it: &mut dyn Iterator<Item = (f32, f32)>| {
            it.fold((0usize, 0.0f64, 0.0f64), |(n, ps, hs), (p, h)| {
                (n + 1, ps + p as f64, hs + h as f64)
            })
        };
        let mut ours = join5::ours();
        let ours = sums(
            &mut ours.query_mut::<Join>().into_iter().map(|(p, h, v, r, t)| {
                join5_kernel(p, h, v, r, t);
                (p.0[0] + p.0[1] + p.0[2], h.0)
            }),
        );
        let mut bevy = join5::bevy();
        let mut q = bevy.query::<Join>();
        let bevy = sums(&mut q.iter_mut(&mut bevy).map(|(mut p, mut h, v, r, t)| {
            join5_kernel(&mut p, &mut h, v, r, t);
            (p.0[0] + p.0[1] + p.0[2], h.0)
        }));
        let mut hecs = join5::hecs();
        let hecs = sums(
            &mut hecs.query_mut::<Join>().into_iter().map(|(p, h, v, r, t)| {
                join5_kernel(p, h, v, r, t);
                (p.0[0] + p.0[1] + p.0[2], h.0)
            }),
        );
        assert_eq!(ours.0, N_ENTITIES);
        assert_eq!(ours, bevy);
        assert_eq!(ours, hecs);
    }

    #[test]
    fn query_worlds_hold_every_entity() {
        let mut w = base_iter_world(N_ENTITIES);
        assert_eq!(w.query::<(&Moving,)>().into_iter().count(), N_ENTITIES);
        assert_eq!(
            w.query_mut::<(&mut AxisMoving,)>().into_iter().count(),
            N_ENTITIES
        );
        let mut w = par_light_world();
        let n = std::sync::atomic::AtomicUsize::new(0);
        w.query_mut::<(&mut Position, &Velocity)>()
            .par_for_each(|_| {
                n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            });
        assert_eq!(n.into_inner(), N_ENTITIES);
    }

    /// Every save/load shape: ours saves and loads back to the same bytes,
    /// saves its entities in spawn order (entity `i` is saved as `i`, as
    /// the baseline's row `i`), and holds what the baseline's rows say.
    #[test]
    fn save_shapes_round_trip() {
        use save_shapes::*;
        const N: usize = 1_000;
        let worlds = [
            named::world(N),
            inherited::world(N),
            multiple::world(N),
            hierarchy::world(N),
        ];
        for (shape, w) in SHAPES.iter().zip(&worlds) {
            assert_eq!(w.len(), N, "{shape}");
            let order = w.save_order();
            assert_eq!(order, w.iter_ids().collect::<Vec<_>>(), "{shape}");
            let json = w.save_json().unwrap();
            let back = ecs_core::World::load(json.as_bytes()).unwrap().world;
            assert_eq!(back.save_json().unwrap(), json, "{shape}");
            let binary = w.save_binary().unwrap();
            let back = ecs_core::World::load(&binary).unwrap().world;
            assert_eq!(back.save_binary().unwrap(), binary, "{shape}");
        }
        let [named, inherited, multiple, hierarchy] = &worlds;
        let ids = named.save_order();
        for (row, &id) in named::rows(N).iter().zip(&ids) {
            assert_eq!(named.entity(id).unwrap().name(), Some(row.name.as_str()));
        }
        let ids = inherited.save_order();
        for (row, &id) in inherited::rows(N).iter().zip(&ids) {
            let e = inherited.entity(id).unwrap();
            let speed = match &row.mover {
                inherited::Mover::Mover(m) => m.speed,
                inherited::Mover::Walker(m) => m.base.speed,
                inherited::Mover::Runner(m) => m.base.base.speed,
                inherited::Mover::Flyer(m) => m.base.speed,
            };
            assert_eq!(e.get::<SlMover>().unwrap().speed, speed);
        }
        let ids = multiple.save_order();
        for (row, &id) in multiple::rows(N).iter().zip(&ids) {
            let e = multiple.entity(id).unwrap();
            assert_eq!(
                e.get_all::<SlCollider>().cloned().collect::<Vec<_>>(),
                row.colliders
            );
        }
        let ids = hierarchy.save_order();
        let rows = hierarchy::rows(N);
        assert_eq!(
            rows.iter().filter(|r| r.parent.is_none()).count(),
            hierarchy::ROOTS
        );
        for (row, &id) in rows.iter().zip(&ids) {
            let parent = hierarchy.entity(id).unwrap().parent();
            assert_eq!(parent, row.parent.map(|p| ids[p as usize]));
        }
    }

    /// `changed`: after each write both libraries report exactly the
    /// written table (1k of the 100k), pass after pass, and the same sum.
    #[test]
    fn changed_worlds_agree() {
        let mut ours = changed::Ours::new();
        let mut bevy = changed::Bevy::new();
        assert_eq!(ours.world.len(), changed::ENTITIES);
        assert_eq!(
            bevy.world.query::<&Position>().iter(&bevy.world).count(),
            changed::ENTITIES
        );
        // Nothing written since the reader's tick: nothing changed.
        assert_eq!(ours.read().0, 0);
        assert_eq!(bevy.read().0, 0);
        for _ in 0..3 {
            ours.write();
            bevy.write();
            let (o, b) = (ours.read(), bevy.read());
            assert_eq!(o.0, changed::PER_TABLE);
            assert_eq!(o, b);
            // Reading again does not change the answer.
            assert_eq!(ours.read(), o);
            assert_eq!(bevy.read(), b);
        }
    }

    /// `observer_add`: the observer hears every add of a pass, in each
    /// library, and nothing else.
    #[test]
    fn observer_add_hears_every_add() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let heard = Arc::new(AtomicUsize::new(0));
        let (mut w, ids) = observer_add::ours();
        let n = Arc::clone(&heard);
        w.observe::<AddB>(ecs_core::ComponentEvent::Added, move |_| {
            n.fetch_add(1, Ordering::Relaxed);
        });
        observer_add::ours_pass(&mut w, &ids);
        observer_add::ours_pass(&mut w, &ids);
        assert_eq!(heard.swap(0, Ordering::Relaxed), 2 * N_ENTITIES);
        assert_eq!(w.query::<(&AddB,)>().count(), 0);

        let (mut w, ids) = observer_add::bevy();
        let n = Arc::clone(&heard);
        w.add_observer(
            move |_: bevy_ecs::observer::On<bevy_ecs::lifecycle::Add<AddB>>| {
                n.fetch_add(1, Ordering::Relaxed);
            },
        );
        observer_add::bevy_pass(&mut w, &ids);
        observer_add::bevy_pass(&mut w, &ids);
        assert_eq!(heard.load(Ordering::Relaxed), 2 * N_ENTITIES);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut o = shuffled_indices(1000);
        assert_ne!(o[..10], (0..10).collect::<Vec<_>>()[..]);
        o.sort_unstable();
        assert_eq!(o, (0..1000).collect::<Vec<_>>());
    }
}

// ---------------------------------------------------------------- behaviour

/// Issue 5's update scenario: a behaviour that reads its sibling `Position`
/// and writes it, declared as its typed sibling (`behaviour(with = ..)`);
/// bevy runs the same work as a system over `(&mut Position, &BevyMover)`
/// (both derives read `#[component]`, so the two libraries get one type
/// each).
#[derive(OurComponent, Clone, Copy, Debug)]
#[component(behaviour(with = Position))]
pub struct Mover(pub [f32; 3]);

/// bevy's twin of [`Mover`].
#[derive(BevyComponent, Clone, Copy, Debug)]
pub struct BevyMover(pub [f32; 3]);

impl ecs_core::Behaviour for Mover {
    fn update(&mut self, _: &mut ecs_core::Context<'_>, _: f32) {}
}

impl ecs_core::UpdateWith<Position> for Mover {
    #[inline]
    fn update_with(&mut self, _: &mut ecs_core::Context<'_>, pos: &mut Position, dt: f32) {
        for k in 0..3 {
            pos.0[k] += self.0[k] * dt;
        }
    }
}

/// The same behaviour looking its sibling up through `ctx` each frame.
#[derive(OurComponent, Clone, Copy, Debug)]
#[component(behaviour)]
pub struct CtxMover(pub [f32; 3]);

impl ecs_core::Behaviour for CtxMover {
    #[inline]
    fn update(&mut self, ctx: &mut ecs_core::Context<'_>, dt: f32) {
        if let Some(pos) = ctx.get_mut::<Position>() {
            for k in 0..3 {
                pos.0[k] += self.0[k] * dt;
            }
        }
    }
}

// ---------------------------------------------------------------- messages

/// Issue 6's broadcast scenario: every entity of a tree counts pings.
pub struct Ping(pub u32);

#[derive(OurComponent, Clone, Copy, Debug, Default)]
#[component(receives(Ping))]
pub struct PingCounter(pub u32);

impl ecs_core::Receive<Ping> for PingCounter {
    #[inline]
    fn receive(&mut self, _: &mut ecs_core::Context<'_>, ping: &Ping) {
        self.0 += ping.0;
    }
}

/// A root with `fanout` children, each with `fanout - 1` children of its
/// own: `fanout * fanout` entities, every one a `PingCounter`.
pub fn ping_tree(fanout: usize) -> (ecs_core::World, ecs_core::EntityId) {
    let mut world = ecs_core::World::new();
    let root = world.spawn_with((PingCounter(0),)).unwrap();
    for _ in 0..fanout {
        let child = world.spawn_with((PingCounter(0),)).unwrap();
        world.set_parent(child, root).unwrap();
        for _ in 1..fanout {
            let leaf = world.spawn_with((PingCounter(0),)).unwrap();
            world.set_parent(leaf, child).unwrap();
        }
    }
    (world, root)
}

// ---------------------------------------------------------------- blueprints

/// Issue 7's blueprint scenario: the seed's Transform + Model pair.
#[derive(OurComponent, Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct BpTransform {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub rx: f32,
    pub ry: f32,
    pub rz: f32,
}

/// See [`BpTransform`].
#[derive(OurComponent, Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BpModel {
    pub mesh: String,
    pub should_render: bool,
}

/// The blueprint both sides read.
pub const HAZMAT_BLUEPRINT: &str = r#"{
  "id": 10, "tag": "Hazmat",
  "components": [
    { "type": "BpTransform", "data": { "x": 1, "y": 2, "z": 3, "rx": 0, "ry": 0, "rz": 0 } },
    { "type": "BpModel", "data": { "mesh": "Assets/Characters/Hazmat/CH_NPC_Hazmat_SK.fbx", "should_render": true } }
  ]
}"#;

// ---------------------------------------------------------------- save_load

/// The save/load scenario: [`N_ENTITIES`] entities of five
/// components each (one holds a reference to another entity), in trees of
/// ten (a root and nine children), every entity named (ten share each
/// name).
pub mod save_load {
    use super::OurComponent;
    use ecs_core::{EntityId, World};
    use serde::{Deserialize, Serialize};

    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlPosition {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }

    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlVelocity {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }

    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlHealth {
        pub hp: u32,
        pub max: u32,
    }

    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlSprite {
        pub texture: String,
        pub visible: bool,
    }

    /// Ours holds an `EntityId` (remapped on load).
    #[derive(OurComponent, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SlTarget {
        pub entity: Option<EntityId>,
    }

    /// The baseline's twin of [`SlTarget`]: the saved id as a number.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct RowTarget {
        pub entity: Option<u32>,
    }

    /// One entity as the baseline writes it: the same component values
    /// plus its name and parent, in a `Vec`.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct Row {
        pub name: String,
        pub parent: Option<u32>,
        pub position: SlPosition,
        pub velocity: SlVelocity,
        pub health: SlHealth,
        pub sprite: SlSprite,
        pub target: RowTarget,
    }

    fn values(i: usize) -> (SlPosition, SlVelocity, SlHealth, SlSprite, Option<u32>) {
        let f = i as f32 * 0.37;
        (
            SlPosition {
                x: f,
                y: f * 2.0,
                z: -f,
            },
            SlVelocity {
                x: 0.1,
                y: f / 3.0,
                z: 1.0,
            },
            SlHealth {
                hp: (i % 100) as u32,
                max: 100,
            },
            SlSprite {
                texture: format!("sprites/unit{}.png", i % 7),
                visible: i.is_multiple_of(2),
            },
            i.is_multiple_of(3)
                .then_some(((i * 7) % super::N_ENTITIES) as u32),
        )
    }

    /// The world (entity `i` is saved as `i`: roots and their subtrees are
    /// spawned in save order).
    pub fn world(n: usize) -> World {
        let mut world = World::new();
        let mut ids: Vec<EntityId> = Vec::with_capacity(n);
        for i in 0..n {
            let id = world.spawn_named(&format!("unit-{}", i % (n / 10).max(1)));
            ids.push(id);
            if i % 10 != 0 {
                world.set_parent(id, ids[i - i % 10]).unwrap();
            }
        }
        for (i, &id) in ids.iter().enumerate() {
            let (p, v, h, s, t) = values(i);
            let target = SlTarget {
                entity: t.map(|t| ids[t as usize % n]),
            };
            let mut e = world.entity_mut(id).unwrap();
            e.add(p).unwrap();
            e.add(v).unwrap();
            e.add(h).unwrap();
            e.add(s).unwrap();
            e.add(target).unwrap();
        }
        world
    }

    /// The world of [`world`] built from values already in memory, through
    /// the public API (one `spawn_batch`, then names and parents): the
    /// floor under a load, which must build the same world.
    pub fn build_from(rows: Vec<Row>) -> World {
        let mut w = World::new();
        let ids = w
            .spawn_batch(rows.iter().map(|r| {
                (
                    r.position.clone(),
                    r.velocity.clone(),
                    r.health.clone(),
                    r.sprite.clone(),
                    SlTarget { entity: None },
                )
            }))
            .unwrap();
        for (r, &id) in rows.iter().zip(&ids) {
            w.entity_mut(id).unwrap().set_name(Some(&r.name));
            if let Some(p) = r.parent {
                w.set_parent(id, ids[p as usize]).unwrap();
            }
        }
        for (r, &id) in rows.iter().zip(&ids) {
            if let Some(t) = r.target.entity {
                w.entity_mut(id)
                    .unwrap()
                    .get_mut::<SlTarget>()
                    .unwrap()
                    .entity = Some(ids[t as usize]);
            }
        }
        w
    }

    /// The same values as [`world`], for serde alone.
    pub fn rows(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| {
                let (position, velocity, health, sprite, t) = values(i);
                Row {
                    name: format!("unit-{}", i % (n / 10).max(1)),
                    parent: (i % 10 != 0).then_some((i - i % 10) as u32),
                    position,
                    velocity,
                    health,
                    sprite,
                    target: RowTarget {
                        entity: t.map(|t| t % n as u32),
                    },
                }
            })
            .collect()
    }
}

// ---------------------------------------------------------------- world_patch

/// Diffs and patches: the [`save_load`] world (10k entities x 5
/// components, named, in trees), a snapshot of it, and the same world one
/// frame on with 1% of its entities changed.
pub mod world_patch {
    use super::save_load::{world, SlHealth, SlPosition};
    use ecs_core::{EntityId, Snapshot, World};

    /// The world of `n` entities one frame after the snapshot returned
    /// beside it: every hundredth entity moved and hurt (two of its five
    /// components written). Before the snapshot a reader takes the change
    /// tick, as every frame's systems do, so what is written after it has
    /// a tick of its own.
    pub fn scenario(n: usize) -> (World, Snapshot) {
        let mut w = world(n);
        let _ = w.change_tick();
        let frame = w.snapshot().unwrap();
        change(&mut w);
        (w, frame)
    }

    /// Writes the position and health of every hundredth entity.
    pub fn change(w: &mut World) {
        let ids: Vec<EntityId> = w.iter_ids().step_by(100).collect();
        for id in ids {
            let mut e = w.entity_mut(id).unwrap();
            e.get_mut::<SlPosition>().unwrap().x += 1.0;
            e.get_mut::<SlHealth>().unwrap().hp += 1;
        }
    }
}
