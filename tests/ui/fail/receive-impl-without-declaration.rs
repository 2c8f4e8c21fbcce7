use ecs_core::prelude::*;

struct Heal(u32);

#[derive(Component)]
struct Health(u32);

impl Receive<Heal> for Health {
    fn receive(&mut self, _ctx: &mut Context<'_>, heal: &Heal) {
        self.0 += heal.0;
    }
}

fn main() {}
