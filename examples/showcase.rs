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
//! Scenes run side by side, one per core (at most 4), and report in scene order;
//! with `--update-docs` one at a time, so that their step times are their own.
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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use scenes::Scene;

const USAGE: &str = "usage: showcase [OUT_DIR | --update-docs] [--frames] [--only=NAME]";

/// What the command line asks for.
struct Options {
    out_dir: PathBuf,
    update_docs: bool,
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
        update_docs,
        all_frames,
        only,
    })
}

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let Options {
        out_dir,
        update_docs,
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
    // Scenes run side by side, one per core (at most 4: each holds its frames, about
    // 120 MB); their reports print in scene order. For the README's pictures they run
    // one at a time, so that the step times in the corners are not shared.
    let scenes: Vec<Scene> = scenes::all()
        .into_iter()
        .filter(|s| only.as_ref().is_none_or(|n| n == s.name))
        .collect();
    let workers = if update_docs {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    };
    let queue = Mutex::new(scenes.into_iter().enumerate());
    let (reports, received) = mpsc::channel();
    std::thread::scope(|threads| -> std::io::Result<()> {
        for _ in 0..workers {
            let reports = reports.clone();
            let (queue, render, out_dir) = (&queue, &render, &out_dir);
            threads.spawn(move || loop {
                let next = queue.lock().expect("no worker panicked").next();
                let Some((k, scene)) = next else { break };
                let report = run_scene(scene, render, out_dir, all_frames);
                if reports.send((k, report)).is_err() {
                    break;
                }
            });
        }
        drop(reports);
        let mut done = BTreeMap::new();
        let mut next = 0;
        for (k, report) in received {
            done.insert(k, report);
            while let Some(report) = done.remove(&next) {
                print!("{}", report?);
                next += 1;
            }
        }
        Ok(())
    })?;
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Runs, renders and writes one scene; returns its report.
fn run_scene(
    mut scene: Scene,
    render: &run::Render,
    out_dir: &Path,
    all_frames: bool,
) -> std::io::Result<String> {
    use std::fmt::Write;
    let t0 = Instant::now();
    let (summary, frames) = run::run(&mut scene, Some(render));
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
    let mut report = summary.to_string();
    if scene.name == "materials" {
        for (name, alpha, _) in scenes::MATERIALS {
            let _ = writeln!(
                report,
                "{:13}   {name}: closed-form static extension {:.4} m",
                "",
                scenes::hanging_extension(alpha)
            );
        }
    }
    let _ = writeln!(
        report,
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
    Ok(report)
}
