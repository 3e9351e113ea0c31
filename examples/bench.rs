//! Runs one benchmark scene (`sinew::scenes`) and prints ONE JSON line of figures.
//!
//! ```text
//! cargo run --release --example bench -- cloth --n 128 --threads 2
//! cargo run --release --example bench -- cloth --n 256 --threads 1 --solver jacobi
//! cargo run --release --example bench -- ropes --n 1000 --threads 2
//! cargo run --release --example bench -- cloth_body --n 128 --threads 2
//! cargo run --release --example bench -- ropes_body --n 1000 --threads 2
//! cargo run --release --example bench -- particles --n 100000 --threads 2
//! cargo run --release --example bench -- cloth --n 256 --frames 60 --snapshot 50
//! cargo run --release --example bench -- dam_break --n 32 --threads 2
//! cargo run --release --example bench -- rings_2d --n 100 --threads 1
//! cargo run --release --example bench -- stream --threads 2
//! cargo run --release --example bench -- crowd --n 16000 --threads 2 --frames 5
//! ```
//!
//! `stream` is no scene but the machine's yardstick for the README's roofline: STREAM's
//! copy (`c = a`, 16 bytes per element) and triad (`a = b + s·c`, 24 bytes per
//! element) over `f64` arrays, on 1 to `--threads` threads (each its own contiguous
//! part, started together at a barrier; the best of several timed passes, as STREAM
//! reports), for arrays of 8 KiB, 256 KiB, 4 MiB and 256 MiB each (three arrays in
//! all: sizes that stay in L1, L2, L3 and main memory on common x86-64 parts; `--n MIB`:
//! one size instead). Bytes count what the kernel reads and writes, not the write-allocate
//! reads. Prints `{"scene":"stream","results":[{"array_kib","threads","copy_gb_s",
//! "triad_gb_s"}, ...]}`.
//!
//! `dam_break` (Macklin & Müller 2013 PBF, the README's performance scene: 2 substeps × 2 iterations unless given, n = 16, 24 or
//! 32, default 32) prints `ms_per_frame`, `mpi_per_s` (million particle-iterations per
//! second: N × substeps × iterations × frames / seconds), `mean_density_ratio` and
//! `max_density_ratio` after the last frame, and `front_0_25s`, `front_0_5s`,
//! `front_1s` (m: the 99th percentile of the particles' x at those times; null when
//! the run is shorter). Only the steps are timed.
//!
//! `crowd` (no reference: a robustness yardstick) adds `--n` particles (default 16,000)
//! of radius 5 cm at one point, weightless, in the default world (8 substeps × 1) on
//! `--threads`, or with `--fluid 1` emits as many water particles of the default fluid
//! at one point, and times each of `--frames` frames (default 5 here): `frame_ms` (the
//! first is the crowd's, every particle within reach of every other; the memory the
//! process holds is the operating system's to read, `/usr/bin/time -f %M`).
//!
//! `cloth_body` and `ropes_body` are the same cloth and ropes built through the body
//! builders (`World::add_cloth_grid`, `World::add_rope`), as a game builds them.
//!
//! Options: `--n` (cloth side, default 128; ropes: rope count, default 1000;
//! particles: particle count, default 100000),
//! `--threads` (default 2; 0 = all cores), `--solver gs|jacobi` (default gs),
//! `--substeps` (default 10), `--iterations` (default 1), `--frames` (default 300),
//! `--friction MU` (particles only: static and dynamic friction between the particles,
//! `ParticleMaterial`; default 0, frictionless),
//! `--boulder R` (particles only: one more particle, of radius R m, 1 kg, dropped
//! from 1 m above the pile's top at the box's centre: a particle far larger than the
//! rest; default none),
//! `--colliders N` (particles only: N more box colliders, 0.2 m half-extents, 1 m
//! apart in rows of 64 beyond the box's +x wall, never touched: a level's other
//! shapes; default none),
//! `--profiling 1` (the world times its stages, and the JSON gains `stages_ms_per_frame`:
//! each stage that ran, ms per frame, the groups `step` and `substep` included; every
//! scene but rings_2d and stream; default 0),
//! `--sleep 1` (not dam_break: sleeping on, `WorldDesc::sleeping`, and every body put to sleep before
//! the timed frames with `World::sleep_all`, as a level loaded at rest: the frames
//! time what sleeping bodies cost; the JSON then ends with `asleep_particles`, the
//! particles still asleep after the frames; default 0).
//! `--lod K` (cloth_body and ropes_body: level of detail, every body at one substep in
//! K, `SimMode::Reduced`; 0 = paused; default 1, full; `--lod-share S` puts only one
//! rope in S at that rate, the others at full rate).
//! Set-up (including the colouring) is not timed; the frames are, from rest.
//!
//! Fields: `ms_per_frame`; `mproj_per_s` = constraints × substeps × iterations × frames
//! / seconds / 1e6 (for `particles`, "constraints" = one contact pass per particle);
//! `min_y` and `median_stretch` (sanity: the same physics as the reference
//! implementations; 0 stretch for `particles`); `bytes_per_particle` (what the solver
//! streams every substep), `cold_bytes_per_particle` (collision data, read by the
//! collision passes only) and `bytes_per_constraint` (a distance constraint; Jacobi-only
//! buffers excluded); for `particles`, the neighbour search's figures:
//! `neighbour_builds_per_frame` (full builds, one at the start of every step),
//! `partial_updates_per_frame` (refreshes that re-anchored only the particles that left
//! their skins), `mean_neighbours` and `max_neighbours` (at the last full build),
//! `fast_particles` and `contact_bytes_per_particle` (heap bytes of the search and the
//! contact pass per particle in the search; `null` when no particle has a radius, as in
//! the cloth scenes).
//!
//! `--schedule 1` (scenes with distance constraints or body links) adds how a
//! Gauss-Seidel sweep of the larger of the two sets is cut for the threads
//! (`DistanceConstraints::sweep_stage_work`, the scene's alone): `stage_items` (items
//! per stage; the threads wait for a whole stage before the next),
//! `critical_path_share` (the sum over the stages of the largest item, over all the
//! constraints: the share of a sweep no number of threads can shorten) and
//! `sweep_speedup_4`, `_8`, `_16` (a sweep's constraints over the sum of the stages'
//! longest worker when that many workers take the items in order, each to the least
//! loaded: the speed-up the cut allows, before any serial work or memory limit);
//! empty and `null` for a world without a Gauss-Seidel sweep (Jacobi).
//!
//! `--anisotropy 1` (dam_break) also reads the fluid's ellipsoids after every frame
//! (`World::read_fluid_anisotropy`, default settings), timed with the step;
//! `--diffuse C` gives the fluid diffuse particles of capacity C (default settings
//! otherwise; stepped with the fluid); `--surface 1` builds the fluid's surface mesh
//! after every frame (`World::build_fluid_surface`, default settings) and copies it
//! into buffers of the caller, timed with the step. With either, the outputs are also
//! timed alone in the same frames: `render_ms_per_frame` and `render_per_step`, their
//! time over the step's (the frame's less theirs), the cost of the outputs measured
//! against the step it is compared with under the same load.
//!
//! `--snapshot R` (default 0 = off) also times snapshots of the world after its frames,
//! the median of R runs each: `snapshot_bytes`, `save_ms` (into a buffer sized once),
//! `restore_ms` (into the same world), `from_snapshot_ms` (a new world), `hash_ms`
//! (the state hash), and `memcpy_ms`, a plain copy of as many bytes between two buffers
//! (the memory-bandwidth yardstick for the save), with `save_gb_s` and `memcpy_gb_s`.

use std::process::ExitCode;
use std::time::Instant;

use sinew::scenes::{self, FRAME_DT};
use sinew::{DistanceConstraints, Particles, Solver};

struct Options {
    scene: String,
    n: Option<u32>,
    threads: u32,
    solver: Solver,
    substeps: u32,
    iterations: u32,
    frames: u32,
    snapshot: u32,
    /// Friction coefficient (static and dynamic) between the particles of the
    /// `particles` scene (0 = frictionless, the scene's own).
    friction: f32,
    /// `--boulder R`: radius (m) of one more particle dropped on the `particles` pile
    /// (0 = none).
    boulder: f32,
    /// `--colliders N`: box colliders added away from the `particles` pile.
    colliders: u32,
    /// `--profiling 1`: the world times its stages (`WorldDesc::profiling`).
    profiling: bool,
    /// `--sleep 1`: sleeping on and everything put to sleep before the frames.
    sleep: bool,
    /// `--lod K`: the bodies' rate (1 = full, 0 = paused).
    lod: u32,
    /// `--lod-share S`: one rope in S at the `--lod` rate.
    lod_share: u32,
    /// dam_break: read the fluid's ellipsoids after every frame (`--anisotropy 1`),
    /// timed with the step.
    anisotropy: bool,
    /// `--schedule 1`: also print how the Gauss-Seidel sweep is cut for the threads.
    schedule: bool,
    /// dam_break: diffuse particles of this capacity (`--diffuse C`, 0 = off).
    diffuse: u32,
    /// dam_break: build and copy the surface mesh after every frame (`--surface 1`).
    surface: bool,
    /// crowd: water instead of particles (`--fluid 1`).
    fluid: bool,
    /// Whether --substeps / --iterations / --frames were given (dam_break and crowd
    /// have their own defaults).
    substeps_set: bool,
    iterations_set: bool,
    frames_set: bool,
}

fn parse() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let scene = args
        .next()
        .ok_or("usage: bench <cloth|ropes|cloth_body|ropes_body|particles|dam_break|rings_2d|stream|crowd> [--n N] [--threads T] [--solver gs|jacobi] [--substeps S] [--iterations I] [--frames F] [--snapshot R] [--friction MU] [--boulder R] [--colliders N] [--profiling 0|1] [--lod K] [--lod-share S] [--sleep 0|1] [--anisotropy 0|1] [--schedule 0|1] [--diffuse C] [--surface 0|1] [--fluid 0|1]")?;
    let mut o = Options {
        scene,
        n: None,
        threads: 2,
        solver: Solver::GaussSeidel,
        substeps: 10,
        iterations: 1,
        frames: 300,
        snapshot: 0,
        friction: 0.0,
        boulder: 0.0,
        colliders: 0,
        profiling: false,
        sleep: false,
        lod: 1,
        lod_share: 1,
        anisotropy: false,
        schedule: false,
        diffuse: 0,
        surface: false,
        fluid: false,
        substeps_set: false,
        iterations_set: false,
        frames_set: false,
    };
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--n" => o.n = Some(number()?),
            "--threads" => o.threads = number()?,
            "--substeps" => {
                o.substeps = number()?;
                o.substeps_set = true;
            }
            "--iterations" => {
                o.iterations = number()?;
                o.iterations_set = true;
            }
            "--frames" => {
                o.frames = number()?;
                o.frames_set = true;
            }
            "--snapshot" => o.snapshot = number()?,
            "--friction" => {
                o.friction = value
                    .parse::<f32>()
                    .map_err(|e| format!("{flag} {value}: {e}"))?;
                if o.scene != "particles" {
                    return Err("--friction applies to the particles scene only".into());
                }
            }
            "--boulder" => {
                o.boulder = value
                    .parse::<f32>()
                    .map_err(|e| format!("{flag} {value}: {e}"))?;
                if o.scene != "particles" || !(o.boulder > 0.0 && o.boulder < 0.6) {
                    return Err(
                        "--boulder applies to the particles scene, radius in (0, 0.6) m".into(),
                    );
                }
            }
            "--colliders" => {
                o.colliders = number()?;
                if o.scene != "particles" || o.colliders > 100_000 {
                    return Err("--colliders applies to the particles scene, at most 100000".into());
                }
            }
            "--profiling" => o.profiling = number()? == 1,
            "--sleep" => o.sleep = number()? == 1,
            "--lod" => o.lod = number()?,
            "--lod-share" => o.lod_share = number()?.max(1),
            "--anisotropy" => o.anisotropy = number()? != 0,
            "--schedule" => o.schedule = number()? != 0,
            "--diffuse" => o.diffuse = number()?,
            "--surface" => o.surface = number()? != 0,
            "--fluid" => o.fluid = number()? != 0,
            "--solver" => {
                o.solver = match value.as_str() {
                    "gs" | "gauss-seidel" => Solver::GaussSeidel,
                    "jacobi" => Solver::Jacobi,
                    _ => return Err(format!("--solver {value}: expected gs or jacobi")),
                }
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

/// The simulation mode of `--lod K`.
fn lod_mode(k: u32) -> sinew::SimMode {
    match k {
        0 => sinew::SimMode::Paused,
        1 => sinew::SimMode::Full,
        every => sinew::SimMode::Reduced { every },
    }
}

fn run(o: &Options) -> Result<String, String> {
    if o.scene == "dam_break" {
        return run_dam_break(o);
    }
    let desc = sinew::WorldDesc {
        threads: o.threads,
        solver: o.solver,
        substeps: o.substeps,
        iterations: o.iterations,
        profiling: o.profiling,
        sleeping: o.sleep,
        ..scenes::default_desc()
    };
    let (n, built) = match o.scene.as_str() {
        "cloth" => {
            let n = o.n.unwrap_or(128);
            if !(3..=4096).contains(&n) {
                return Err(format!("--n {n}: cloth side must be in 3..=4096"));
            }
            (n, scenes::cloth(n, desc))
        }
        "ropes" => {
            let n = o.n.unwrap_or(1000);
            if !(1..=1_000_000).contains(&n) {
                return Err(format!("--n {n}: rope count must be in 1..=1000000"));
            }
            (n, scenes::ropes(n, desc))
        }
        "cloth_body" => {
            let n = o.n.unwrap_or(128);
            if !(3..=4096).contains(&n) {
                return Err(format!("--n {n}: cloth side must be in 3..=4096"));
            }
            (n, scenes::cloth_body_with(n, desc, lod_mode(o.lod)))
        }
        "ropes_body" => {
            let n = o.n.unwrap_or(1000);
            if !(1..=1_000_000).contains(&n) {
                return Err(format!("--n {n}: rope count must be in 1..=1000000"));
            }
            let share = o.lod_share;
            let mode = |r: u32| {
                if r % share == 0 {
                    lod_mode(o.lod)
                } else {
                    sinew::SimMode::Full
                }
            };
            (n, scenes::ropes_body_with(n, desc, mode))
        }
        "particles" => {
            let n = o.n.unwrap_or(100_000);
            if !(1..=1_000_000).contains(&n) {
                return Err(format!("--n {n}: particle count must be in 1..=1000000"));
            }
            (n, scenes::particles(n, desc))
        }
        other => {
            return Err(format!(
                "unknown scene {other}: expected cloth, ropes, cloth_body, ropes_body, particles, dam_break or rings_2d"
            ))
        }
    };
    let mut scene = built.map_err(|e| e.to_string())?;
    if o.friction > 0.0 {
        let sand = sinew::ParticleMaterial {
            static_friction: o.friction,
            dynamic_friction: o.friction,
            ..sinew::ParticleMaterial::default()
        };
        let count = scene.world.particles().len() as u32;
        scene
            .world
            .set_particle_material(0, count, &sand)
            .map_err(|e| e.to_string())?;
    }
    if o.boulder > 0.0 {
        let world = &mut scene.world;
        let p = world.particles();
        let top = (0..p.len()).map(|i| p.position(i).y).fold(0.0f32, f32::max);
        let at = sinew::Vec3::new(0.0, top + 1.0 + o.boulder, 0.0);
        let boulder = world
            .add_particles(&[at], None)
            .map_err(|e| e.to_string())?;
        world
            .set_particle_radii(boulder, &[o.boulder])
            .map_err(|e| e.to_string())?;
    }
    for k in 0..o.colliders {
        let (a, b) = ((k % 64) as f32, (k / 64) as f32);
        let desc = sinew::ColliderDesc {
            shape: sinew::Shape::Box {
                half_extents: sinew::Vec3::splat(0.2),
            },
            position: sinew::Vec3::new(2.0 + b, 0.2, a - 32.0),
            ..sinew::ColliderDesc::default()
        };
        scene.world.add_collider(&desc).map_err(|e| e.to_string())?;
    }
    if o.sleep {
        scene.world.sleep_all().map_err(|e| e.to_string())?;
    }
    let constraints = scene.constraints;
    let mut stage_ns = [0u64; sinew::PROFILE_STAGE_COUNT];
    let start = Instant::now();
    for _ in 0..o.frames {
        scene.world.step(FRAME_DT).map_err(|e| e.to_string())?;
        if o.profiling {
            add_stage_times(&mut stage_ns, &scene.world);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let stats = scene.world.neighbour_stats();
    let f = scenes::figures(&scene);
    let projections = constraints * (o.substeps * o.iterations * o.frames) as u64;
    let solver = match o.solver {
        Solver::GaussSeidel => "gs",
        Solver::Jacobi => "jacobi",
    };
    let mut snapshot = if o.snapshot > 0 {
        snapshot_figures(&mut scene.world, o.snapshot)?
    } else {
        String::new()
    };
    if o.schedule {
        snapshot += &schedule_figures(&scene.world);
    }
    if o.profiling {
        snapshot += &stage_figures(&stage_ns, o.frames);
    }
    if o.sleep {
        snapshot += &format!(
            ",\"asleep_particles\":{}",
            scene.world.asleep_particle_count()
        );
    }
    Ok(format!(
        concat!(
            "{{\"scene\":\"{}\",\"n\":{},\"threads\":{},\"solver\":\"{}\",",
            "\"substeps\":{},\"iterations\":{},\"frames\":{},\"constraints\":{},",
            "\"ms_per_frame\":{:.3},\"mproj_per_s\":{:.1},\"min_y\":{:.4},",
            "\"median_stretch\":{:.6},\"bytes_per_particle\":{},\"cold_bytes_per_particle\":{},",
            "\"bytes_per_constraint\":{},\"neighbour_builds_per_frame\":{:.2},\"partial_updates_per_frame\":{:.2},",
            "\"mean_neighbours\":{:.2},\"max_neighbours\":{},\"fast_particles\":{},",
            "\"contact_bytes_per_particle\":{}{}}}"
        ),
        o.scene,
        n,
        scene.world.threads(),
        solver,
        o.substeps,
        o.iterations,
        o.frames,
        constraints,
        seconds * 1e3 / o.frames.max(1) as f64,
        projections as f64 / seconds / 1e6,
        f.min_y,
        f.median_stretch,
        Particles::SOLVER_BYTES_PER_PARTICLE,
        Particles::COLD_BYTES_PER_PARTICLE,
        DistanceConstraints::BYTES_PER_CONSTRAINT,
        stats.builds as f64 / o.frames.max(1) as f64,
        stats.partial_updates as f64 / o.frames.max(1) as f64,
        stats.pairs as f64 / stats.particles.max(1) as f64,
        stats.max_neighbours,
        stats.fast,
        stats
            .bytes_per_particle()
            .map_or_else(|| "null".to_string(), |b| b.to_string()),
        snapshot,
    ))
}

/// The `dam_break` scene (see the module doc).
fn run_dam_break(o: &Options) -> Result<String, String> {
    let n = o.n.unwrap_or(32);
    if !(1..=128).contains(&n) {
        return Err(format!("--n {n}: dam_break side must be in 1..=128"));
    }
    let desc = sinew::WorldDesc {
        substeps: if o.substeps_set { o.substeps } else { 2 },
        iterations: if o.iterations_set { o.iterations } else { 2 },
        solver: o.solver,
        profiling: o.profiling,
        ..scenes::dam_break_desc(o.threads)
    };
    let (mut scene, fluid) = scenes::dam_break(n, desc).map_err(|e| e.to_string())?;
    let count = n * n * n;
    let mut xs = vec![0.0f32; count as usize];
    let mut fronts = [None::<f32>; 3];
    let marks = [15u32, 30, 60];
    let mut seconds = 0.0f64;
    let aniso = sinew::AnisotropyDesc::default();
    let mut ellipsoids = vec![sinew::FluidEllipsoid::default(); count as usize];
    if o.diffuse > 0 {
        let d = sinew::DiffuseDesc {
            capacity: o.diffuse,
            ..sinew::DiffuseDesc::default()
        };
        scene
            .world
            .set_fluid_diffuse(fluid, &d)
            .map_err(|e| e.to_string())?;
    }
    let surface = sinew::SurfaceDesc::default();
    let (mut vertices, mut normals, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    let mut stage_ns = [0u64; sinew::PROFILE_STAGE_COUNT];
    // The seconds of the rendering outputs alone (the ellipsoids' reads, the mesh's
    // builds and copies; within `seconds`).
    let mut render_seconds = 0.0f64;
    for frame in 1..=o.frames {
        let start = Instant::now();
        scene.world.step(FRAME_DT).map_err(|e| e.to_string())?;
        if o.profiling {
            add_stage_times(&mut stage_ns, &scene.world);
        }
        let rendered = Instant::now();
        if o.anisotropy {
            scene
                .world
                .read_fluid_anisotropy(fluid, &aniso, 1.0, |k, e| ellipsoids[k] = *e)
                .map_err(|e| e.to_string())?;
        }
        if o.surface {
            let w = &mut scene.world;
            w.build_fluid_surface(fluid, &surface, 1.0)
                .map_err(|e| e.to_string())?;
            let m = w.fluid_surface(fluid).map_err(|e| e.to_string())?;
            vertices.clear();
            vertices.extend_from_slice(m.positions);
            normals.clear();
            normals.extend_from_slice(m.normals);
            indices.clear();
            indices.extend_from_slice(m.indices);
        }
        render_seconds += rendered.elapsed().as_secs_f64();
        seconds += start.elapsed().as_secs_f64();
        if let Some(m) = marks.iter().position(|&f| f == frame) {
            scene
                .world
                .read_fluid_particles(fluid, 1.0, |k, p| xs[k] = p.position.x)
                .map_err(|e| e.to_string())?;
            xs.sort_by(f32::total_cmp);
            fronts[m] = Some(xs[((xs.len() - 1) as f64 * 0.99).round() as usize]);
        }
    }
    let stats = scene.world.fluid_stats(fluid).map_err(|e| e.to_string())?;
    let front = |f: Option<f32>| f.map_or("null".to_string(), |x| format!("{x:.4}"));
    let iterations = count as u64 * (desc.substeps * desc.iterations * o.frames) as u64;
    Ok(format!(
        concat!(
            "{{\"scene\":\"dam_break\",\"n\":{},\"particles\":{},\"threads\":{},",
            "\"substeps\":{},\"iterations\":{},\"frames\":{},\"ms_per_frame\":{:.3},",
            "\"mpi_per_s\":{:.2},\"mean_density_ratio\":{:.4},\"max_density_ratio\":{:.4},",
            "\"front_0_25s\":{},\"front_0_5s\":{},\"front_1s\":{}{}{}}}"
        ),
        n,
        count,
        scene.world.threads(),
        desc.substeps,
        desc.iterations,
        o.frames,
        seconds * 1e3 / o.frames.max(1) as f64,
        iterations as f64 / seconds / 1e6,
        stats.mean_density_ratio,
        stats.max_density_ratio,
        front(fronts[0]),
        front(fronts[1]),
        front(fronts[2]),
        if o.anisotropy || o.surface {
            // The rendering outputs' share: their milliseconds per frame and their
            // ratio to the step's (the frame less them), measured in the same frames.
            let step = seconds - render_seconds;
            format!(
                ",\"render_ms_per_frame\":{:.3},\"render_per_step\":{:.4}",
                render_seconds * 1e3 / o.frames.max(1) as f64,
                render_seconds / step.max(1e-12)
            )
        } else {
            String::new()
        },
        if o.profiling {
            stage_figures(&stage_ns, o.frames)
        } else {
            String::new()
        },
    ))
}

/// Median milliseconds of `runs` calls of `f`.
fn median_ms(runs: u32, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let mut t = Vec::with_capacity(runs as usize);
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        t.push(start.elapsed().as_secs_f64() * 1e3);
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

/// The snapshot fields of the JSON line (see the module doc), interleaving the timed
/// operations run by run so that machine noise hits them alike.
fn snapshot_figures(world: &mut sinew::World, runs: u32) -> Result<String, String> {
    let size = world.snapshot_size();
    let mut buf = vec![0u8; size];
    let mut copy = vec![0u8; size];
    world.save_snapshot(&mut buf).map_err(|e| e.to_string())?;
    let threads = world.threads() as u32;
    let mut times = [Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..runs {
        times[0].push(median_ms(1, || {
            world
                .save_snapshot(&mut buf)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })?);
        times[1].push(median_ms(1, || {
            world.restore_snapshot(&buf).map_err(|e| e.to_string())
        })?);
        times[2].push(median_ms(1, || {
            sinew::World::from_snapshot(&buf, threads)
                .map(drop)
                .map_err(|e| e.to_string())
        })?);
        times[3].push(median_ms(1, || {
            std::hint::black_box(world.state_hash());
            Ok(())
        })?);
        times[4].push(median_ms(1, || {
            copy.copy_from_slice(std::hint::black_box(&buf));
            std::hint::black_box(&copy);
            Ok(())
        })?);
    }
    let [save, restore, from, hash, memcpy] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    });
    let gb_s = |ms: f64| size as f64 / (ms * 1e-3) / 1e9;
    Ok(format!(
        concat!(
            ",\"snapshot_bytes\":{},\"save_ms\":{:.3},\"restore_ms\":{:.3},",
            "\"from_snapshot_ms\":{:.3},\"hash_ms\":{:.3},\"memcpy_ms\":{:.3},",
            "\"save_gb_s\":{:.2},\"memcpy_gb_s\":{:.2}"
        ),
        size,
        save,
        restore,
        from,
        hash,
        memcpy,
        gb_s(save),
        gb_s(memcpy)
    ))
}

fn main() -> ExitCode {
    let bench = |o: Options| match o.scene.as_str() {
        "rings_2d" => rings_2d(&o),
        "stream" => stream(&o),
        "crowd" => crowd(&o),
        _ => run(&o),
    };
    match parse().and_then(bench) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::from(2)
        }
    }
}

/// `rings_2d` (`sinew::scenes::rings_2d`): soft rings floating and sinking in water in a
/// planar world; `--n` is the tank's width in fluid columns (default 100: 3,000 fluid
/// particles and four rings). Fields: `ms_per_frame`; `fluid_particles`;
/// `mpi_per_s` = fluid particles × substeps × iterations × frames / seconds /
/// 1e6; `mean_density_ratio` and `max_density_ratio` (ρ/ρ₀ over the water after the
/// last frame); `ring_heights` (each ring's centre above the still water level, m,
/// light to heavy: the light ones ride near 0, the heavy one lies on the floor).
fn rings_2d(o: &Options) -> Result<String, String> {
    let n = o.n.unwrap_or(100);
    if !(10..=2000).contains(&n) {
        return Err(format!(
            "--n {n}: the tank's width in columns must be in 10..=2000"
        ));
    }
    let desc = sinew::WorldDesc {
        threads: o.threads,
        solver: o.solver,
        substeps: o.substeps,
        iterations: o.iterations,
        profiling: o.profiling,
        ..scenes::default_desc()
    };
    let mut rings = scenes::rings_2d(n, desc).map_err(|e| e.to_string())?;
    let start = Instant::now();
    for _ in 0..o.frames {
        rings
            .scene
            .world
            .step(FRAME_DT)
            .map_err(|e| e.to_string())?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let stats = rings
        .scene
        .world
        .fluid_stats(rings.fluid)
        .map_err(|e| e.to_string())?;
    let heights: Vec<String> = scenes::ring_heights(&rings)
        .iter()
        .map(|h| format!("{h:.4}"))
        .collect();
    let iterations = stats.count as u64 * (o.substeps * o.iterations * o.frames) as u64;
    Ok(format!(
        concat!(
            "{{\"scene\":\"rings_2d\",\"n\":{},\"threads\":{},\"substeps\":{},",
            "\"iterations\":{},\"frames\":{},\"fluid_particles\":{},\"ms_per_frame\":{:.3},",
            "\"mpi_per_s\":{:.2},\"mean_density_ratio\":{:.4},",
            "\"max_density_ratio\":{:.4},\"ring_heights\":[{}]}}"
        ),
        n,
        rings.scene.world.threads(),
        o.substeps,
        o.iterations,
        o.frames,
        stats.count,
        seconds * 1e3 / o.frames.max(1) as f64,
        iterations as f64 / seconds / 1e6,
        stats.mean_density_ratio,
        stats.max_density_ratio,
        heights.join(","),
    ))
}

/// `crowd`: particles (or, with `--fluid 1`, water) added at one point; each frame
/// timed. Fields: `frame_ms` (one figure per frame).
fn crowd(o: &Options) -> Result<String, String> {
    let n = o.n.unwrap_or(16_000);
    if !(1..=1_000_000).contains(&n) {
        return Err(format!(
            "--n {n}: the particle count must be in 1..=1000000"
        ));
    }
    let mut w = sinew::World::new(sinew::WorldDesc {
        threads: o.threads,
        gravity: sinew::Vec3::ZERO,
        ..sinew::WorldDesc::default()
    })
    .map_err(|e| e.to_string())?;
    let at = vec![sinew::Vec3::new(0.0, 1.0, 0.0); n as usize];
    if o.fluid {
        let f = w
            .add_fluid(&sinew::FluidDesc {
                capacity: n,
                ..sinew::FluidDesc::default()
            })
            .map_err(|e| e.to_string())?;
        w.emit_fluid(f, &at, None).map_err(|e| e.to_string())?;
    } else {
        let first = w.add_particles(&at, None).map_err(|e| e.to_string())?;
        w.set_particle_radii(first, &vec![0.05; n as usize])
            .map_err(|e| e.to_string())?;
    }
    let mut frames = Vec::new();
    let count = if o.frames_set { o.frames.min(1000) } else { 5 };
    for _ in 0..count {
        let start = Instant::now();
        w.step(FRAME_DT).map_err(|e| e.to_string())?;
        frames.push(format!("{:.1}", start.elapsed().as_secs_f64() * 1e3));
    }
    Ok(format!(
        "{{\"scene\":\"crowd\",\"n\":{n},\"fluid\":{},\"threads\":{},\"frame_ms\":[{}]}}",
        o.fluid,
        w.threads(),
        frames.join(",")
    ))
}

/// `stream`: the STREAM copy and triad bandwidths of this machine (see the module doc).
fn stream(o: &Options) -> Result<String, String> {
    let sizes_kib: Vec<usize> = match o.n {
        Some(mib) if (1..=4096).contains(&mib) => vec![mib as usize * 1024],
        Some(mib) => return Err(format!("--n {mib}: array size in MiB must be in 1..=4096")),
        None => vec![8, 256, 4 * 1024, 256 * 1024],
    };
    let most = if o.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        o.threads as usize
    };
    let mut rows = Vec::new();
    for &kib in &sizes_kib {
        let len = kib * 1024 / std::mem::size_of::<f64>();
        for threads in 1..=most {
            let (copy, triad) = stream_bandwidth(len, threads);
            rows.push(format!(
                "{{\"array_kib\":{kib},\"threads\":{threads},\"copy_gb_s\":{copy:.1},\"triad_gb_s\":{triad:.1}}}"
            ));
        }
    }
    Ok(format!(
        "{{\"scene\":\"stream\",\"results\":[{}]}}",
        rows.join(",")
    ))
}

/// Copy and triad GB/s over three arrays of `len` `f64`s split between `threads`
/// threads: each timed pass repeats the kernel over the thread's part until about
/// 256 MiB have moved, between two barriers; the best of 10 passes.
fn stream_bandwidth(len: usize, threads: usize) -> (f64, f64) {
    use std::sync::Barrier;
    const PASSES: usize = 10;
    let part = len.div_ceil(threads);
    let repeats = ((256usize << 20) / (len * 24)).max(1);
    let barrier = Barrier::new(threads);
    let (mut a, mut b, mut c) = (vec![0f64; len], vec![0f64; len], vec![0f64; len]);
    let best = std::sync::Mutex::new([f64::INFINITY; 2]);
    std::thread::scope(|scope| {
        let parts = a
            .chunks_mut(part)
            .zip(b.chunks_mut(part))
            .zip(c.chunks_mut(part))
            .enumerate();
        for (t, ((a, b), c)) in parts {
            let (barrier, best) = (&barrier, &best);
            scope.spawn(move || {
                // Each thread touches its own part first (its pages, its caches).
                a.fill(1.0);
                b.fill(2.0);
                c.fill(0.0);
                let scalar = std::hint::black_box(3.0f64);
                for kernel in 0..2 {
                    for _ in 0..PASSES {
                        barrier.wait();
                        let start = Instant::now();
                        for _ in 0..repeats {
                            if kernel == 0 {
                                c.copy_from_slice(std::hint::black_box(&*a));
                            } else {
                                for ((a, b), c) in a.iter_mut().zip(&*b).zip(&*c) {
                                    *a = b + scalar * c;
                                }
                            }
                            std::hint::black_box(&mut *a);
                            std::hint::black_box(&mut *c);
                        }
                        barrier.wait();
                        if t == 0 {
                            let s = start.elapsed().as_secs_f64();
                            let mut best = best.lock().expect("no thread panics holding it");
                            best[kernel] = best[kernel].min(s);
                        }
                    }
                }
            });
        }
    });
    let best = best.into_inner().expect("no thread panicked");
    let bytes = |per_element: usize| (len * per_element * repeats) as f64;
    (bytes(16) / best[0] / 1e9, bytes(24) / best[1] / 1e9)
}

/// Adds the last step's stage times (`World::stage_times`, ns) to `stage_ns`.
fn add_stage_times(stage_ns: &mut [u64; sinew::PROFILE_STAGE_COUNT], world: &sinew::World) {
    for (sum, t) in stage_ns.iter_mut().zip(world.stage_times()) {
        *sum += t.nanoseconds;
    }
}

/// The `--profiling 1` field `stages_ms_per_frame`: the wall-clock time of each stage
/// that ran, ms per frame (summed over the frames' steps, `World::stage_times`; the
/// groups included).
fn stage_figures(stage_ns: &[u64; sinew::PROFILE_STAGE_COUNT], frames: u32) -> String {
    let per_frame = |ns: u64| ns as f64 / 1e6 / frames.max(1) as f64;
    let stages: Vec<String> = sinew::ProfileStage::ALL
        .iter()
        .zip(stage_ns)
        .filter(|(_, &ns)| ns > 0)
        .map(|(stage, &ns)| format!("\"{}\":{:.3}", stage.name(), per_frame(ns)))
        .collect();
    format!(",\"stages_ms_per_frame\":{{{}}}", stages.join(","))
}

/// The `--schedule 1` fields (see the module doc).
fn schedule_figures(world: &sinew::World) -> String {
    let sets = world.constraint_sets();
    let set = [world.distance_constraints(), &sets.link]
        .into_iter()
        .max_by_key(|s| s.len())
        .expect("two sets");
    let stages = set.sweep_stage_work();
    let total: usize = stages.iter().flatten().sum();
    if total == 0 {
        // No Gauss-Seidel sweep (a Jacobi world, or no constraints).
        return concat!(
            ",\"stage_items\":[],\"critical_path_share\":null,",
            "\"sweep_speedup_4\":null,\"sweep_speedup_8\":null,\"sweep_speedup_16\":null"
        )
        .to_string();
    }
    let critical: usize = stages.iter().filter_map(|s| s.iter().max()).sum();
    let speedup = |workers: usize| {
        let span: usize = stages
            .iter()
            .map(|items| {
                let mut load = vec![0usize; workers];
                for &w in items {
                    let least = (0..workers).min_by_key(|&k| (load[k], k)).unwrap_or(0);
                    load[least] += w;
                }
                load.into_iter().max().unwrap_or(0)
            })
            .sum();
        total as f64 / span.max(1) as f64
    };
    let items: Vec<String> = stages.iter().map(|s| s.len().to_string()).collect();
    format!(
        concat!(
            ",\"stage_items\":[{}],\"critical_path_share\":{:.4},",
            "\"sweep_speedup_4\":{:.2},\"sweep_speedup_8\":{:.2},\"sweep_speedup_16\":{:.2}"
        ),
        items.join(","),
        critical as f64 / total.max(1) as f64,
        speedup(4),
        speedup(8),
        speedup(16),
    )
}
