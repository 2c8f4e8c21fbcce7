//! The evidence behind the binary snapshot's format (README, "Saving and
//! loading"): the save_load scenario's values (10k rows of five component
//! structs and a name) written and read by serde_json, postcard,
//! rmp-serde (structs as arrays, and as maps) and ciborium, with sizes,
//! times (best of 20) and whether bytes written before a field was added
//! (with `#[serde(default)]`, at the end) still read, and whether an
//! untagged enum (which needs a self-describing format) reads back.
//!
//! `cargo run --release --bin formats`

use std::hint::black_box;
use std::time::Instant;

use benches_peers::save_load::{rows, Row, SlHealth};
use serde::{Deserialize, Serialize};

/// `SlHealth` after a release added a field.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct HealthV2 {
    hp: u32,
    max: u32,
    #[serde(default)]
    armor: u32,
}

/// Needs a self-describing format (`deserialize_any`).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Loose {
    Number(u32),
    Text(String),
}

fn best<R>(mut f: impl FnMut() -> R) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let start = Instant::now();
        black_box(f());
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    best
}

fn main() {
    let rows = rows(benches_peers::N_ENTITIES);
    let old = SlHealth { hp: 3, max: 9 };
    let reads = |ok: bool| if ok { "reads" } else { "fails" };
    let loose = vec![Loose::Number(1), Loose::Text("a".into())];
    println!(
        "| format | bytes | write | read | old bytes after a field is added | untagged enum |"
    );
    println!("|---|---:|---:|---:|---|---|");
    let json = serde_json::to_vec(&rows).unwrap();
    println!(
        "| JSON (serde_json) | {} | {:.2} ms | {:.2} ms | {} | {} |",
        json.len(),
        best(|| serde_json::to_vec(&rows).unwrap()),
        best(|| serde_json::from_slice::<Vec<Row>>(&json).unwrap()),
        reads(serde_json::from_slice::<HealthV2>(&serde_json::to_vec(&old).unwrap()).is_ok()),
        reads(
            serde_json::from_slice::<Vec<Loose>>(&serde_json::to_vec(&loose).unwrap())
                .is_ok_and(|l| l == loose)
        )
    );
    let pc = postcard::to_allocvec(&rows).unwrap();
    println!(
        "| postcard | {} | {:.2} ms | {:.2} ms | {} | {} |",
        pc.len(),
        best(|| postcard::to_allocvec(&rows).unwrap()),
        best(|| postcard::from_bytes::<Vec<Row>>(&pc).unwrap()),
        reads(
            postcard::from_bytes::<HealthV2>(&postcard::to_allocvec(&old).unwrap())
                .is_ok_and(|h| h.max == 9)
        ),
        reads(
            postcard::from_bytes::<Vec<Loose>>(&postcard::to_allocvec(&loose).unwrap())
                .is_ok_and(|l| l == loose)
        )
    );
    let rm = rmp_serde::to_vec(&rows).unwrap();
    println!(
        "| MessagePack (rmp-serde, structs as arrays) | {} | {:.2} ms | {:.2} ms | {} | {} |",
        rm.len(),
        best(|| rmp_serde::to_vec(&rows).unwrap()),
        best(|| rmp_serde::from_slice::<Vec<Row>>(&rm).unwrap()),
        reads(rmp_serde::from_slice::<HealthV2>(&rmp_serde::to_vec(&old).unwrap()).is_ok()),
        reads(
            rmp_serde::from_slice::<Vec<Loose>>(&rmp_serde::to_vec(&loose).unwrap())
                .is_ok_and(|l| l == loose)
        )
    );
    let rn = rmp_serde::to_vec_named(&rows).unwrap();
    println!(
        "| MessagePack (rmp-serde, structs as maps) | {} | {:.2} ms | {:.2} ms | {} | {} |",
        rn.len(),
        best(|| rmp_serde::to_vec_named(&rows).unwrap()),
        best(|| rmp_serde::from_slice::<Vec<Row>>(&rn).unwrap()),
        reads(rmp_serde::from_slice::<HealthV2>(&rmp_serde::to_vec_named(&old).unwrap()).is_ok()),
        reads(
            rmp_serde::from_slice::<Vec<Loose>>(&rmp_serde::to_vec_named(&loose).unwrap())
                .is_ok_and(|l| l == loose)
        )
    );
    let cbor = |v: &dyn erased::Ser| v.cbor();
    let cb = cbor(&rows);
    let mut old_cb = Vec::new();
    ciborium::into_writer(&old, &mut old_cb).unwrap();
    println!(
        "| CBOR (ciborium) | {} | {:.2} ms | {:.2} ms | {} | {} |",
        cb.len(),
        best(|| cbor(&rows)),
        best(|| ciborium::from_reader::<Vec<Row>, _>(&cb[..]).unwrap()),
        reads(ciborium::from_reader::<HealthV2, _>(&old_cb[..]).is_ok()),
        reads(ciborium::from_reader::<Vec<Loose>, _>(&cbor(&loose)[..]).is_ok_and(|l| l == loose))
    );
}

mod erased {
    pub trait Ser {
        fn cbor(&self) -> Vec<u8>;
    }
    impl<T: serde::Serialize> Ser for T {
        fn cbor(&self) -> Vec<u8> {
            let mut out = Vec::new();
            ciborium::into_writer(self, &mut out).unwrap();
            out
        }
    }
}
