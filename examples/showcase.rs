//! The main demo: runs every scene with real physics and renders it headlessly (a
//! small software rasteriser, no GPU, no window) to an animated GIF and a PNG still
//! per scene, then prints each scene's summary (max stretch, min height, energy).
//!
//! ```sh
//! cargo run --release --example showcase              # writes docs/img/
//! cargo run --release --example showcase -- OUT_DIR   # writes elsewhere
//! cargo run --release --example showcase -- OUT_DIR --frames   # and every frame as PNG
//! ```
//!
//! With `--frames` each frame is also written as `OUT_DIR/<scene>/frame_NNN.png`;
//! `--only=NAME` runs the scene NAME alone.
//!
//! Scenes live in `examples/showcase/scenes.rs`: a scene is a function that builds a
//! world and says what to draw; add it to `scenes::all()`.

#[path = "showcase/encode.rs"]
mod encode;
#[path = "showcase/font.rs"]
mod font;
#[path = "showcase/raster.rs"]
mod raster;
#[path = "showcase/run.rs"]
mod run;
#[path = "showcase/scenes.rs"]
mod scenes;

use std::path::PathBuf;
use std::time::Instant;

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let all_frames = args.iter().any(|a| a == "--frames");
    let only: Option<String> = args
        .iter()
        .filter_map(|a| a.to_str()?.strip_prefix("--only=").map(String::from))
        .next();
    let out_dir = args
        .iter()
        .find(|a| *a != "--frames" && !a.to_string_lossy().starts_with("--only="))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/img"));
    std::fs::create_dir_all(&out_dir)?;
    let render = run::Render {
        width: 640,
        height: 400,
        supersample: 2,
        fps: 30.0,
    };
    println!(
        "Sinew showcase: {}x{} px, {}x supersampled, {} fps -> {}",
        render.width,
        render.height,
        render.supersample,
        render.fps,
        out_dir.display()
    );
    for mut scene in scenes::all() {
        if only.as_ref().is_some_and(|n| n != scene.name) {
            continue;
        }
        let t0 = Instant::now();
        let (summary, frames) = run::run(&mut scene, Some(&render));
        let t_sim = t0.elapsed();
        // One palette for the whole scene: median cut over every other frame.
        let mut hist = encode::Histogram::default();
        for f in frames.rgb.iter().step_by(2) {
            hist.add(f);
        }
        let quantiser = encode::Quantiser::new(hist.median_cut(encode::MAX_COLOURS));
        let gif = out_dir.join(format!("{}.gif", scene.name));
        encode::write_gif(
            &gif,
            render.width,
            render.height,
            &frames.rgb,
            &frames.delays_cs,
            &quantiser,
        )?;
        let png = out_dir.join(format!("{}.png", scene.name));
        encode::write_png(&png, render.width, render.height, &frames.rgb[frames.still])?;
        if all_frames {
            let dir = out_dir.join(scene.name);
            std::fs::create_dir_all(&dir)?;
            for (k, f) in frames.rgb.iter().enumerate() {
                let path = dir.join(format!("frame_{k:03}.png"));
                encode::write_png(&path, render.width, render.height, f)?;
            }
        }
        print!("{summary}");
        if scene.name == "materials" {
            for (name, alpha, _) in scenes::MATERIALS {
                println!(
                    "{:13}   {name}: closed-form static extension {:.4} m",
                    "",
                    scenes::hanging_extension(alpha)
                );
            }
        }
        println!(
            "{:13}   {} frames, {} colours: {} ({} KiB), {} ({} KiB); {:.2} s simulate+render, {:.2} s total",
            "",
            frames.rgb.len(),
            quantiser.palette.len(),
            gif.display(),
            std::fs::metadata(&gif)?.len() / 1024,
            png.display(),
            std::fs::metadata(&png)?.len() / 1024,
            t_sim.as_secs_f64(),
            t0.elapsed().as_secs_f64()
        );
    }
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
