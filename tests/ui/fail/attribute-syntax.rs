use ecs_core::prelude::*;

#[derive(Component)]
#[component]
struct A;

#[derive(Component)]
#[component = "multiple"]
struct B;

#[derive(Component)]
#[component(multiple = true)]
struct C;

#[derive(Component)]
#[component(parent)]
struct D;

#[derive(Component)]
#[component(name "E")]
struct E;

fn main() {}
