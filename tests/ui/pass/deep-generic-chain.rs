// A three-deep chain through generic types: the key stack and the upcasts
// are generated at compile time.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Moving {
    speed: f32,
}

#[derive(Component, Debug, PartialEq)]
#[component(parent = Moving)]
struct Axis<T> {
    base: Moving,
    axis: T,
}

#[derive(Component, Debug, PartialEq)]
#[component(name = "Player")]
struct PlayerMoving<T: Copy, U> {
    #[component(parent)]
    base: Axis<T>,
    extra: U,
}

// The parent is a type parameter: the derive adds `T: Component`.
#[derive(Component)]
struct Boxed<T> {
    #[component(parent)]
    inner: T,
}

// `parent = self::Moving` finds `base: Moving` by its last path segment.
#[derive(Component)]
#[component(parent = self::Moving)]
struct ByPath {
    base: Moving,
}

fn main() {
    type P = PlayerMoving<u8, String>;
    assert_eq!(
        P::key_stack(),
        &[
            ComponentKey::of::<P>(),
            ComponentKey::of::<Axis<u8>>(),
            ComponentKey::of::<Moving>(),
        ]
    );
    assert_eq!(P::NAME, "Player");
    assert!(P::is_derived_from(ComponentKey::of::<Moving>()));
    assert!(P::is_derived_from(ComponentKey::of::<Axis<u8>>()));
    assert!(!P::is_derived_from(ComponentKey::of::<Axis<u16>>()));
    assert!(!Moving::is_derived_from(ComponentKey::of::<P>()));

    // A base-type view of a generic derived component, two levels up.
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(PlayerMoving::<u8, String> {
        base: Axis { base: Moving { speed: 2.0 }, axis: 1 },
        extra: String::from("x"),
    })
    .unwrap();
    assert_eq!(e.get::<Moving>(), Some(&Moving { speed: 2.0 }));
    e.get_mut::<Axis<u8>>().unwrap().axis = 7;
    assert_eq!(e.get::<P>().unwrap().base.axis, 7);
    assert!(e.get::<Axis<u16>>().is_none());

    assert_eq!(Boxed::<P>::key_stack().len(), 4);
    assert_eq!(Boxed::<P>::key_stack()[3], ComponentKey::of::<Moving>());
    assert!(ByPath::is_derived_from(ComponentKey::of::<Moving>()));
}
