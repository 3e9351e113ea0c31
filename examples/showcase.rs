//! The main demo: runs every scene with real physics and renders it headlessly (a
//! small software rasteriser, no GPU, no window) to an animated GIF and a PNG still
//! per scene, then prints each scene's summary (stretch, lowest point, energy and the
//! scene's own numbers).
//!
//! ```sh
//! cargo run --release --example showcase                        # writes target/showcase/
//! cargo run --release --example showcase -- OUT_DIR             # writes OUT_DIR/
//! cargo run --release --example showcase -- --frames            # and every frame as PNG
//! cargo run --release --example showcase -- --only=cloth        # one scene
//! cargo run --release --example showcase -- --update-docs       # refreshes docs/img/
//! ```
//!
//! By default the pictures go to `showcase/` in the target directory, so a run never
//! touches the repository; `--update-docs` writes the README's pictures in `docs/img/`
//! instead (their corner text shows the step times of the machine that made them).
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

const USAGE: &str = "usage: showcase [OUT_DIR | --update-docs] [--frames] [--only=NAME]";

/// What the command line asks for.
struct Options {
    out_dir: PathBuf,
    all_frames: bool,
    only: Option<String>,
}

/// `showcase/` next to this binary's profile folder (`target/release/examples/showcase`
/// -> `target/showcase/`), or `target/showcase/` in the source tree when the binary was
/// moved elsewhere.
fn default_out_dir() -> PathBuf {
    let exe = std::env::current_exe().ok();
    let in_examples = exe
        .as_deref()
        .and_then(|e| e.parent())
        .filter(|dir| dir.file_name().is_some_and(|n| n == "examples"));
    match in_examples.and_then(|dir| dir.parent()?.parent()) {
        Some(target) => target.join("showcase"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/showcase"),
    }
}

fn parse_options() -> Result<Options, String> {
    let mut out_dir = None;
    let mut update_docs = false;
    let mut all_frames = false;
    let mut only = None;
    for arg in std::env::args_os().skip(1) {
        let text = arg.to_string_lossy();
        if text == "--frames" {
            all_frames = true;
        } else if text == "--update-docs" {
            update_docs = true;
        } else if let Some(name) = text.strip_prefix("--only=") {
            if !scenes::all().iter().any(|s| s.name == name) {
                let names: Vec<_> = scenes::all().iter().map(|s| s.name).collect();
                return Err(format!("no scene {name:?}; scenes: {}", names.join(", ")));
            }
            only = Some(name.to_string());
        } else if text == "--help" || text == "-h" {
            return Err(String::new());
        } else if text.starts_with('-') {
            return Err(format!("unknown option {text}"));
        } else if out_dir.replace(PathBuf::from(&arg)).is_some() {
            return Err("more than one output directory".into());
        }
    }
    let out_dir = match (out_dir, update_docs) {
        (Some(_), true) => return Err("--update-docs writes docs/img/: give no OUT_DIR".into()),
        (Some(dir), false) => dir,
        (None, true) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/img"),
        (None, false) => default_out_dir(),
    };
    Ok(Options {
        out_dir,
        all_frames,
        only,
    })
}

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let Options {
        out_dir,
        all_frames,
        only,
    } = match parse_options() {
        Ok(options) => options,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return Ok(());
        }
        Err(message) => {
            eprintln!("showcase: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
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
