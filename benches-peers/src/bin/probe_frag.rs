use benches_peers::*;
#[inline(never)]
pub fn ours_for(w: &mut ecs_core::World) { for (d,) in w.query_mut::<(&mut Data,)>() { d.0 *= 2.0; } }
#[inline(never)]
pub fn bevy_for(w: &mut bevy_ecs::world::World, q: &mut bevy_ecs::query::QueryState<&mut Data>) { for mut d in q.iter_mut(w) { d.0 *= 2.0; } }
#[inline(never)]
pub fn hecs_for(w: &mut hecs::World) { for d in w.query_mut::<&mut Data>() { d.0 *= 2.0; } }
fn main() {
    let mode = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    match mode.as_str() {
        "ours" => { let mut w = frag::ours(); for _ in 0..n { ours_for(std::hint::black_box(&mut w)); } }
        "bevy" => { let mut w = frag::bevy(); let mut q = w.query::<&mut Data>(); for _ in 0..n { bevy_for(std::hint::black_box(&mut w), &mut q); } }
        "hecs" => { let mut w = frag::hecs(); for _ in 0..n { hecs_for(std::hint::black_box(&mut w)); } }
        _ => {}
    }
    println!("{mode}: {:.3} ns/row", t.elapsed().as_nanos() as f64 / (n * 520) as f64);
}
