//! `Context::attempt`: `?` inside behaviours, hooks and receivers, whose
//! trait methods return nothing. A failure is kept for
//! `World::take_command_errors` as `Error::Attempt`, naming the entity and
//! the running type, with the error returned as its `source()`.

use std::error::Error as _;
use std::fmt;

use ecs_core::prelude::*;

/// What the boxed errors of the helpers below are.
type Failure = Box<dyn std::error::Error + Send + Sync>;

#[derive(Component, Debug, PartialEq)]
struct Position(f32);

#[derive(Component, Debug, PartialEq)]
struct Ammo(u32);

/// A turret's own reasons not to fire, beside the lookups that can fail.
#[derive(Debug, PartialEq)]
enum Jam {
    OutOfAmmo,
    OutOfRange { distance: f32 },
}

impl fmt::Display for Jam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jam::OutOfAmmo => f.write_str("out of ammo"),
            Jam::OutOfRange { distance } => write!(f, "target {distance} away, out of range"),
        }
    }
}

impl std::error::Error for Jam {}

/// Fires at its target every update, three helper calls deep, with `?` all
/// the way down and one `ctx.attempt` at the top.
#[derive(Component)]
#[component(behaviour)]
struct Turret {
    target: EntityId,
    range: f32,
    shots: u32,
}

impl Behaviour for Turret {
    fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
        ctx.attempt(|ctx| self.fire(ctx));
    }
}

impl Turret {
    /// Spends a round when the target is in range.
    fn fire(&mut self, ctx: &mut Context<'_>) -> Result<(), Failure> {
        self.check_range(ctx)?;
        let ammo = ctx.try_get_mut::<Ammo>()?;
        if ammo.0 == 0 {
            return Err(Jam::OutOfAmmo.into());
        }
        ammo.0 -= 1;
        self.shots += 1;
        Ok(())
    }

    fn check_range(&self, ctx: &Context<'_>) -> Result<(), Failure> {
        let distance = (position_of(ctx, self.target)? - ctx.try_get::<Position>()?.0).abs();
        if distance > self.range {
            return Err(Jam::OutOfRange { distance }.into());
        }
        Ok(())
    }
}

/// Another entity's position, by id.
fn position_of(ctx: &Context<'_>, id: EntityId) -> Result<f32, Failure> {
    let entity = ctx.world().entity(id)?;
    Ok(entity
        .get::<Position>()
        .ok_or("the target has no position")?
        .0)
}

/// The one error the world kept, checked to be an `Error::Attempt` of
/// `entity`'s `running`; returns the error the code gave up with.
fn only_attempt_error(world: &mut World, entity: EntityId, running: &str) -> Error {
    let errors = world.take_command_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let error = errors.into_iter().next().unwrap();
    match &error {
        Error::Attempt {
            entity: e,
            running: r,
            ..
        } => {
            assert_eq!((*e, *r), (entity, running), "{error}");
        }
        other => panic!("expected Error::Attempt, got {other:?}"),
    }
    error
}

#[test]
fn a_behaviour_uses_question_mark_three_helpers_deep() {
    let mut world = World::new();
    let target = world.spawn_with((Position(5.0),)).unwrap();
    let turret = Turret {
        target,
        range: 10.0,
        shots: 0,
    };
    let id = world.spawn_with((Position(0.0), Ammo(1), turret)).unwrap();
    let shots = |world: &World| world.entity(id).unwrap().get::<Turret>().unwrap().shots;

    world.update(1.0);
    assert_eq!(shots(&world), 1);
    assert!(world.take_command_errors().is_empty());

    // The turret's own error, from the first helper.
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Turret");
    let jam = error.source().unwrap().downcast_ref::<Jam>();
    assert_eq!(jam, Some(&Jam::OutOfAmmo));

    // Its own error from the second helper, with its data.
    world.entity_mut(id).unwrap().get_mut::<Ammo>().unwrap().0 = 3;
    world
        .entity_mut(target)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 12.0;
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Turret");
    let jam = error.source().unwrap().downcast_ref::<Jam>();
    assert_eq!(jam, Some(&Jam::OutOfRange { distance: 12.0 }));

    // An ecs_core::Error from the third helper, kept as it was.
    world.despawn(target).unwrap();
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Turret");
    let source = error.source().unwrap().downcast_ref::<Error>();
    assert_eq!(source, Some(&Error::NoSuchEntity(target)));

    // A `&str` turned into an error by `?`, from the third helper.
    let target = world.spawn();
    world
        .entity_mut(id)
        .unwrap()
        .get_mut::<Turret>()
        .unwrap()
        .target = target;
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Turret");
    assert_eq!(
        error.source().unwrap().to_string(),
        "the target has no position"
    );

    // A failed `try_get_mut` in the first helper, after the others passed.
    world
        .entity_mut(target)
        .unwrap()
        .add(Position(1.0))
        .unwrap();
    world.entity_mut(id).unwrap().remove::<Ammo>();
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Turret");
    assert!(matches!(
        error.source().unwrap().downcast_ref::<Error>(),
        Some(Error::MissingComponent { entity, wanted: "Ammo", via: ecs_core::Via::Context }) if *entity == id
    ));
    assert_eq!(shots(&world), 1, "no failed attempt fired");
}

#[test]
fn the_error_names_the_entity_and_the_type_and_keeps_the_source() {
    #[derive(Component)]
    #[component(behaviour)]
    struct Radio {
        batteries: u32,
    }
    impl Behaviour for Radio {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            ctx.attempt(|_| match self.batteries {
                0 => Err(Jam::OutOfAmmo),
                _ => Ok(()),
            });
        }
    }
    let mut world = World::new();
    world.spawn_with((Position(0.0),)).unwrap();
    let id = world.spawn_named("radio");
    world
        .entity_mut(id)
        .unwrap()
        .add(Radio { batteries: 0 })
        .unwrap();
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Radio");
    let text = error.to_string();
    assert!(
        text.contains("`Radio`") && text.contains(&format!("{id:?}")),
        "{text}"
    );
    // The message leaves the cause to `source()`, so a report printing the
    // chain does not print it twice.
    assert!(!text.contains("out of ammo"), "{text}");
    assert_eq!(error.source().unwrap().to_string(), "out of ammo");
    assert_eq!(error.clone(), error, "Error stays Clone and Eq");
    assert!(world.take_command_errors().is_empty(), "taken once");
}

#[test]
fn what_ran_before_the_error_stays_and_nothing_after_it_runs() {
    #[derive(Component, Debug, PartialEq)]
    struct Counter(u32);
    #[derive(Component)]
    struct Spark;
    #[derive(Component)]
    struct Absent;
    #[derive(Component)]
    #[component(behaviour)]
    struct Halfway {
        steps: u32,
        answer: Option<Option<u32>>,
    }
    impl Behaviour for Halfway {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            let me = ctx.id();
            let answer = ctx.attempt(|ctx| {
                self.steps += 1;
                ctx.try_get_mut::<Counter>()?.0 += 1;
                ctx.commands().spawn((Spark,));
                ctx.try_get::<Absent>()?; // gives up here
                self.steps += 1;
                ctx.try_get_mut::<Counter>()?.0 += 100;
                ctx.commands().despawn(me);
                Ok::<_, Error>(7)
            });
            self.answer = Some(answer);
        }
    }
    let mut world = World::new();
    let id = world
        .spawn_with((
            Counter(0),
            Halfway {
                steps: 0,
                answer: None,
            },
        ))
        .unwrap();
    world.update(1.0);

    let error = only_attempt_error(&mut world, id, "Halfway");
    assert!(matches!(
        error.source().unwrap().downcast_ref::<Error>(),
        Some(Error::MissingComponent {
            wanted: "Absent",
            ..
        })
    ));
    let entity = world.entity(id).unwrap();
    let halfway = entity.get::<Halfway>().unwrap();
    assert_eq!(halfway.answer, Some(None), "a failed attempt is None");
    assert_eq!(halfway.steps, 1, "self changed once, before the error");
    assert_eq!(entity.get::<Counter>(), Some(&Counter(1)));
    assert_eq!(
        world.len(),
        2,
        "the spark queued before the error is spawned"
    );
    assert!(
        world.contains(id),
        "the despawn after the error was never queued"
    );
}

#[test]
fn a_successful_attempt_hands_back_its_value_and_keeps_nothing() {
    #[derive(Component)]
    #[component(behaviour)]
    struct Reader(Option<f32>);
    impl Behaviour for Reader {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            self.0 = ctx.attempt(|ctx| Ok::<_, Error>(ctx.try_get::<Position>()?.0 * 2.0));
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Position(4.0), Reader(None))).unwrap();
    world.update(1.0);
    assert_eq!(
        world.entity(id).unwrap().get::<Reader>().unwrap().0,
        Some(8.0)
    );
    assert!(world.take_command_errors().is_empty());
}

#[test]
fn the_running_components_own_storage_is_an_in_use_source() {
    #[derive(Component)]
    #[component(behaviour, multiple)]
    struct Twin;
    impl Behaviour for Twin {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            ctx.attempt(|ctx| ctx.try_get::<Twin>().map(|_| ()));
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Twin,)).unwrap();
    world.update(1.0);
    let error = only_attempt_error(&mut world, id, "Twin");
    assert_eq!(
        error.source().unwrap().downcast_ref::<Error>(),
        Some(&Error::InUse {
            wanted: "Twin",
            running: "Twin",
            sibling: false,
            via: ecs_core::Via::Context,
        })
    );
}

/// Hooks and receivers, outside any update: the error is kept at once,
/// with no update or `apply_commands` to wait for.
#[test]
fn hooks_and_receivers_keep_their_errors_too() {
    struct Ping;
    #[derive(Component)]
    #[component(behaviour, receives(Ping))]
    struct Fussy;
    impl Behaviour for Fussy {
        fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
        fn on_attach(&mut self, ctx: &mut Context<'_>) {
            ctx.attempt(|ctx| ctx.try_get::<Ammo>().map(|_| ()));
        }
    }
    impl Receive<Ping> for Fussy {
        fn receive(&mut self, ctx: &mut Context<'_>, _: &Ping) {
            let me = ctx.id();
            ctx.attempt(|_| -> Result<(), _> { Err(format!("{me:?} does not take pings")) });
        }
    }

    let mut world = World::new();
    let id = world.spawn_with((Fussy,)).unwrap();
    let error = only_attempt_error(&mut world, id, "Fussy");
    assert!(matches!(
        error.source().unwrap().downcast_ref::<Error>(),
        Some(Error::MissingComponent { wanted: "Ammo", .. })
    ));

    assert_eq!(world.send(id, &Ping).unwrap(), 1, "delivered, then gave up");
    let error = only_attempt_error(&mut world, id, "Fussy");
    assert_eq!(
        error.source().unwrap().to_string(),
        format!("{id:?} does not take pings")
    );
}

/// A type running its ancestor's inherited behaviour is the one named:
/// it is the component the entity holds.
#[test]
fn an_inherited_behaviour_is_named_by_the_derived_type() {
    #[derive(Component, Default)]
    #[component(behaviour)]
    struct Enemy;
    impl Behaviour for Enemy {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            ctx.attempt(|_| -> Result<(), _> { Err("cornered") });
        }
    }
    #[derive(Component, Default)]
    #[component(parent = Enemy)]
    struct Soldier {
        base: Enemy,
    }
    let mut world = World::new();
    let id = world.spawn_with((Soldier::default(),)).unwrap();
    world.update(1.0);
    only_attempt_error(&mut world, id, "Soldier");
}

/// Errors are kept in the order they happen: an attempt's when it fails,
/// during the update, and a queued change's when the update ends.
#[test]
fn attempt_errors_and_failed_changes_are_kept_in_the_order_they_happen() {
    #[derive(Component)]
    #[component(behaviour)]
    struct Clumsy(EntityId);
    impl Behaviour for Clumsy {
        fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
            ctx.commands().despawn(self.0); // fails when applied: already gone
            ctx.attempt(|_| -> Result<(), _> { Err("tripped") });
        }
    }
    let mut world = World::new();
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    let id = world.spawn_with((Clumsy(gone),)).unwrap();
    world.update(1.0);
    let errors = world.take_command_errors();
    assert!(
        matches!(
            errors[..],
            [Error::Attempt { entity, .. }, Error::NoSuchEntity(dead)] if entity == id && dead == gone
        ),
        "{errors:?}"
    );
}
