// Every feature of the derive, compiled without the prelude: the generated
// code must name everything by absolute path.
#![no_implicit_prelude]

use ::ecs_core::{Component, ComponentKey};

#[derive(Component)]
#[component(multiple)]
struct Moving {
    speed: f32,
}

// Parent found by type.
#[derive(Component)]
#[component(parent = Moving, multiple, name = "Axis")]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

// Tuple struct, parent found by type.
#[derive(Component)]
#[component(parent = Moving)]
#[component(multiple)]
struct Fast(Moving, f32);

// Parent marked on the field, no `parent = P` on the type.
#[derive(Component)]
#[component(multiple)]
struct Marked {
    other: u8,
    #[component(parent)]
    inner: AxisMoving,
}

// Generic, with the user's own bounds and a const parameter.
#[derive(Component)]
struct Tagged<T: ::core::clone::Clone, const N: usize>
where
    T: ::core::fmt::Debug,
{
    values: [T; N],
}

// Generic parent.
#[derive(Component)]
#[component(parent = Tagged<T, 2>)]
struct Wrapper<T: ::core::clone::Clone + ::core::fmt::Debug> {
    base: Tagged<T, 2>,
}

#[derive(Component)]
enum State {
    Idle,
    Running { since: u64 },
}

#[derive(Component)]
struct Marker;

#[derive(Component)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {
    let axis = AxisMoving {
        base: Moving { speed: 2.0 },
        vertical: true,
    };
    ::std::assert_eq!(AxisMoving::NAME, "Axis");
    ::std::assert_eq!(Moving::NAME, "Moving");
    ::std::assert!(AxisMoving::MULTIPLE);
    ::std::assert!(AxisMoving::is_derived_from(ComponentKey::of::<Moving>()));
    ::std::assert!(Marked::is_derived_from(ComponentKey::of::<Moving>()));
    ::std::assert_eq!(Marked::key_stack().len(), 3);
    ::std::assert_eq!(Fast::key_stack().len(), 2);
    ::std::assert!(axis.vertical);
    let fast = Fast(Moving { speed: 1.0 }, 0.5);
    ::std::assert_eq!(fast.0.speed + fast.1, 1.5);
    let _ = Marked { other: 0, inner: axis };
    let _ = Tagged::<u8, 1> { values: [1] };
    ::std::assert_eq!(Wrapper::<u8>::key_stack().len(), 2);
    ::std::assert!(!Tagged::<u8, 2>::is_derived_from(ComponentKey::of::<Wrapper<u8>>()));
    ::std::assert_eq!(Tagged::<u8, 1>::NAME, "Tagged");
    let _ = (State::Idle, State::Running { since: 0 }, Marker, Bits { int: 1 });
    ::std::assert_eq!(State::key_stack(), &[ComponentKey::of::<State>()]);
    ::std::assert_eq!(Marker::NAME, "Marker");
    ::std::assert_eq!(Bits::key_stack().len(), 1);
}
