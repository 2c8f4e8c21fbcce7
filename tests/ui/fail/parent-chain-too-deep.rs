// A parent chain one type deeper than ecs_core::MAX_CHAIN_DEPTH (16).
use ecs_core::prelude::*;

#[derive(Component)]
struct L0;

#[derive(Component)]
#[component(parent = L0)]
struct L1(L0);

#[derive(Component)]
#[component(parent = L1)]
struct L2(L1);

#[derive(Component)]
#[component(parent = L2)]
struct L3(L2);

#[derive(Component)]
#[component(parent = L3)]
struct L4(L3);

#[derive(Component)]
#[component(parent = L4)]
struct L5(L4);

#[derive(Component)]
#[component(parent = L5)]
struct L6(L5);

#[derive(Component)]
#[component(parent = L6)]
struct L7(L6);

#[derive(Component)]
#[component(parent = L7)]
struct L8(L7);

#[derive(Component)]
#[component(parent = L8)]
struct L9(L8);

#[derive(Component)]
#[component(parent = L9)]
struct L10(L9);

#[derive(Component)]
#[component(parent = L10)]
struct L11(L10);

#[derive(Component)]
#[component(parent = L11)]
struct L12(L11);

#[derive(Component)]
#[component(parent = L12)]
struct L13(L12);

#[derive(Component)]
#[component(parent = L13)]
struct L14(L13);

#[derive(Component)]
#[component(parent = L14)]
struct L15(L14);

#[derive(Component)]
#[component(parent = L15)]
struct L16(L15);

#[derive(Component)]
#[component(parent = L16)]
struct L17(L16);

fn main() {}
