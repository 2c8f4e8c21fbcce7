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

const STACK_LEN: usize = <PlayerMoving<u8, ()> as Component>::__CHAIN.keys().len();

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
    assert_eq!(STACK_LEN, 3);
    assert_eq!(P::NAME, "Player");
    assert!(P::is_derived_from(ComponentKey::of::<Moving>()));
    assert!(P::is_derived_from(ComponentKey::of::<Axis<u8>>()));
    assert!(!P::is_derived_from(ComponentKey::of::<Axis<u16>>()));
    assert!(!Moving::is_derived_from(ComponentKey::of::<P>()));

    let mut p: P = PlayerMoving {
        base: Axis { base: Moving { speed: 2.0 }, axis: 1 },
        extra: String::from("x"),
    };
    let moving = p.__upcast_ref(std::any::TypeId::of::<Moving>()).unwrap();
    assert_eq!(moving.downcast_ref::<Moving>(), Some(&Moving { speed: 2.0 }));
    let axis = p.__upcast_mut(std::any::TypeId::of::<Axis<u8>>()).unwrap();
    axis.downcast_mut::<Axis<u8>>().unwrap().axis = 7;
    assert_eq!(p.base.axis, 7);
    assert!(p.__upcast_ref(std::any::TypeId::of::<u8>()).is_none());

    assert_eq!(Boxed::<P>::key_stack().len(), 4);
    assert_eq!(Boxed::<P>::key_stack()[3], ComponentKey::of::<Moving>());
    assert!(ByPath::is_derived_from(ComponentKey::of::<Moving>()));
}
