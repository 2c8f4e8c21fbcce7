use ecs_core::prelude::*;

#[derive(Component)]
#[component(parent = Self)]
struct Health(u32);

#[derive(Component)]
#[component(parent = Mana)]
struct Mana(u32);

fn main() {}
