//! The picture code runs (the README's files are written by
//! `cargo run --release --example pictures`; here only small ones).

use ecs_showcase::{pictures, Game};

#[test]
fn a_short_gif_and_the_inspector_png_are_written() {
    let gif = pictures::record_gif(20, 7, 2).expect("a gif");
    assert_eq!(&gif[..6], b"GIF89a");
    assert_eq!(gif.last(), Some(&0x3B), "the trailer");
    let screen = pictures::inspector_screen(100, 30, 5, 7).expect("a screen");
    let text: String = (0..screen.area.width)
        .map(|x| screen[(x, 1)].symbol().to_owned())
        .collect();
    assert!(text.contains("inspector"), "{text}");
    let png = pictures::buffer_png(&screen).expect("a png");
    assert_eq!(&png[1..4], b"PNG");
    let still = pictures::still_png(&Game::new(7).unwrap()).expect("a still");
    assert_eq!(&still[1..4], b"PNG");
    if let Ok(dir) = std::env::var("SHOWCASE_STILL_DIR") {
        std::fs::write(format!("{dir}/still.png"), still).unwrap();
    }
}
