use ecs_core::prelude::*;

struct Heal(u32);

#[derive(Component)]
#[component(receives(Heal, Heal))]
struct Health(u32);

impl Receive<Heal> for Health {
    fn receive(&mut self, _: &mut Context<'_>, heal: &Heal) {
        self.0 += heal.0;
    }
}

fn main() {}
