// Two types named `Moving`: the parent says one, the field holds the other.
use ecs_core::prelude::*;

mod walking {
    use ecs_core::prelude::*;

    #[derive(Component)]
    pub struct Moving {
        pub speed: f32,
    }
}

mod flying {
    use ecs_core::prelude::*;

    #[derive(Component)]
    pub struct Moving {
        pub speed: f32,
    }
}

#[derive(Component)]
#[component(parent = walking::Moving)]
struct AxisMoving {
    base: flying::Moving,
}

fn main() {}
