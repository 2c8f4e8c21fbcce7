use ecs_core::prelude::*;
use std::rc::Rc;

#[derive(Component)]
struct Shared {
    count: Rc<u32>,
}

fn main() {}
