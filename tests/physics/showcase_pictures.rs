//! The showcase's pictures and outputs: a rendered frame shows each scene's objects
//! where the camera puts them, the GIF decodes back to the quantised frames, the
//! summaries print plain numbers, the committed pictures exist and are small. The
//! scenes' physics is checked in `showcase.rs`.

use crate::raster::Camera;
use crate::run::Render;
use crate::scenes::*;
use crate::{encode, run};
use sinew::Vec3;

/// The rendered picture shows the scene: the middle of the hanging rope (horizontal
/// at the start), the middle of the cloth (its red top side faces up at the start),
/// the orange cube, the red balloon and the orange dropped ball are drawn where the camera projects them,
/// over the blue-grey sky.
#[test]
fn pictures_show_the_objects_where_the_camera_puts_them() {
    for (mut scene, point) in [
        (hanging_rope(), HANGING_ANCHOR + Vec3::new(0.5, 0.0, 0.0)),
        (cloth(), cloth_rest(CLOTH_NX / 2, CLOTH_NY / 2)),
        // The orange (strain) cube and the red balloon: shaded closed surfaces.
        (soft_bodies(), CUBES[1].3),
        (
            balloon_on_a_host(),
            HOST_START - Vec3::Y * (BALLOON_ROPE_LENGTH + 0.02 + BALLOON_RADIUS),
        ),
        // The orange pressure ball before it falls.
        (soft_body_drop(), DROP_BALL_CENTRE),
    ] {
        let r = Render {
            width: 240,
            height: 150,
            supersample: 1,
            fps: 30.0,
        };
        let rgb = run::render_frame(&mut scene, &r, &[]);
        let cam = Camera::look_at(scene.eye, scene.target, scene.fov_deg, r.width, r.height);
        let (x, y, _) = cam.project(point).unwrap();
        let k = 3 * (y as usize * r.width as usize + x as usize);
        let (red, blue) = (rgb[k] as i32, rgb[k + 2] as i32);
        assert!(
            red > blue + 40,
            "{}: pixel ({x}, {y}) is {:?}",
            scene.name,
            &rgb[k..k + 3]
        );
        // A corner of the sky stays sky (bluish).
        let c = 3 * (r.width as usize - 1);
        assert!(rgb[c + 2] > rgb[c], "{}", scene.name);
    }
}

/// The GIF decodes back to exactly the quantised frames: one global palette, the
/// first frame whole, later frames as changed rectangles with unchanged pixels
/// transparent (kept from the frame before), delays as written.
#[test]
fn gif_round_trips_to_the_quantised_frames() {
    let mut scene = rope_swing();
    let r = Render {
        width: 80,
        height: 50,
        supersample: 2,
        fps: 10.0,
    };
    let (_, frames) = run::run(&mut scene, Some(&r));
    let mut hist = encode::Histogram::default();
    for f in &frames.rgb {
        hist.add(f);
    }
    let q = encode::Quantiser::new(hist.median_cut(encode::MAX_COLOURS));
    let dir = std::env::temp_dir().join(format!("sinew-showcase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("swing.gif");
    encode::write_gif(&path, r.width, r.height, &frames.rgb, &frames.delays_cs, &q).unwrap();

    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts.read_info(std::fs::File::open(&path).unwrap()).unwrap();
    assert_eq!(
        (dec.width() as u32, dec.height() as u32),
        (r.width, r.height)
    );
    let palette = dec.global_palette().unwrap().to_vec();
    for (k, c) in q.palette.iter().enumerate() {
        assert_eq!(&palette[3 * k..3 * k + 3], c);
    }
    let w = r.width as usize;
    let mut canvas = vec![0u8; w * r.height as usize];
    let mut n = 0;
    while let Some(f) = dec.read_next_frame().unwrap() {
        for y in 0..f.height as usize {
            for x in 0..f.width as usize {
                let v = f.buffer[y * f.width as usize + x];
                if Some(v) != f.transparent {
                    canvas[(f.top as usize + y) * w + f.left as usize + x] = v;
                }
            }
        }
        assert_eq!(canvas, q.index(&frames.rgb[n]), "frame {n}");
        assert_eq!(f.delay, frames.delays_cs[n]);
        n += 1;
    }
    assert_eq!(n, frames.rgb.len());

    // The PNG still is lossless.
    let png_path = dir.join("swing.png");
    encode::write_png(&png_path, r.width, r.height, &frames.rgb[3]).unwrap();
    let dec = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (r.width, r.height));
    assert_eq!(&buf[..info.buffer_size()], &frames.rgb[3][..]);
    std::fs::remove_dir_all(&dir).ok();
}

/// Numbers are printed without the sign of a value that rounds to zero, "n/a" for
/// one never recorded, and counts as integers.
#[test]
fn summaries_print_numbers_plainly() {
    assert_eq!(fixed(-0.0, 4), "0.0000");
    assert_eq!(fixed(-1e-7, 5), "0.00000");
    assert_eq!(fixed(-2e-5, 4), "0.0000");
    assert_eq!(fixed(-0.00051, 3), "-0.001");
    assert_eq!(fixed(12.5, 2), "12.50");
    assert_eq!(fixed(f64::NAN, 2), "n/a");
    let count = Metric {
        name: "particles",
        value: 2000.0,
        count: true,
    };
    assert_eq!(count.to_string(), "particles: 2000");
    let length = Metric {
        name: "length (m)",
        value: 0.25,
        count: false,
    };
    assert_eq!(length.to_string(), "length (m): 0.25000");
}

/// Every scene's pictures are committed under docs/img/ and small enough for the
/// README (GIF < 3 MB: the shaded water of the fluid scenes changes in every pixel it
/// covers, frame to frame, and takes 2-2.7 MB; PNG < 500 kB). Regenerate them with
/// `cargo run --release --example showcase -- --update-docs` (a plain run writes to
/// `target/showcase/` and leaves docs/img/ alone).
#[test]
fn committed_pictures_exist_and_are_small() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img");
    for scene in all() {
        for (ext, limit) in [("gif", 3_000_000), ("png", 500_000)] {
            let path = dir.join(format!("{}.{ext}", scene.name));
            let len = std::fs::metadata(&path)
                .unwrap_or_else(|e| panic!("{}: {e}; run the showcase", path.display()))
                .len();
            assert!(len < limit, "{} is {len} bytes", path.display());
        }
    }
}
