//! Runs a scene frame by frame: drives it, steps the world (timed), records the
//! summary numbers and renders each picture frame.

use std::time::Instant;

use sinew::Vec3;

use super::raster::{Camera, Canvas, Light, Painter, Rgb};
use super::scenes::{self, fixed, Metric, Scene, Shape, SIM_HZ};

/// How pictures are made.
#[derive(Clone, Copy, Debug)]
pub struct Render {
    /// Output size in pixels.
    pub width: u32,
    pub height: u32,
    /// Supersampling factor per axis (anti-aliasing): 2 renders 4 samples a pixel.
    pub supersample: u32,
    /// Picture frames per second (one is rendered every SIM_HZ / fps steps).
    pub fps: f32,
}

/// A scene's result as numbers: what the pictures show, checked by tests/physics/showcase.rs.
#[derive(Clone, Debug)]
pub struct Summary {
    pub name: &'static str,
    pub frames: u32,
    pub steps: u32,
    /// Largest relative stretch of any distance constraint over the whole run (`None`
    /// for a scene without distance constraints).
    pub max_stretch: Option<f32>,
    /// Lowest height (m) of any particle over the whole run.
    pub min_height: f32,
    /// Energy (J) of the freely moving particles: at the start, at `free_after`, the
    /// largest after `free_after`, and at the end.
    pub energy_start: f64,
    pub energy_free: f64,
    pub energy_max_free: f64,
    pub energy_end: f64,
    /// Largest rise of the energy (J) from one step to the next after `free_after`
    /// (`None` when the scene runs free for its last state only).
    pub energy_max_rise: Option<f64>,
    /// Per rope: label, rest length (m), length at the end (m, sum of links), tip.
    pub ropes: Vec<(&'static str, f32, f32, Vec3)>,
    /// The scene's own metrics at the end (see `Sim::metrics`).
    pub metrics: Vec<Metric>,
    /// Mean and largest wall time of one `World::step` (ms); not asserted.
    pub step_ms_mean: f64,
    pub step_ms_max: f64,
    /// The world's own stage times (`World::stage_times`, profiling on), summed over
    /// the run (ns per stage, by stage value); not asserted.
    pub stage_ns: [u64; sinew::PROFILE_STAGE_COUNT],
}

/// How many of the costliest stages a summary prints.
const STAGES_SHOWN: usize = 5;

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Only what applies to the scene: no stretch without distance constraints, no
        // step-to-step rise without two free states.
        let mut line = format!("{:13} {} steps:", self.name, self.steps);
        if let Some(stretch) = self.max_stretch {
            line += &format!(" max stretch {}%,", fixed(100.0 * stretch as f64, 3));
        }
        line += &format!(
            " min height {} m, energy {} J at start, {} J when free, max {} J after",
            fixed(self.min_height as f64, 3),
            fixed(self.energy_start, 4),
            fixed(self.energy_free, 4),
            fixed(self.energy_max_free, 4)
        );
        if let Some(rise) = self.energy_max_rise {
            line += &format!(" (largest rise {rise:.2e} J/step)");
        }
        writeln!(
            f,
            "{line}, {} J at end; step {:.3} ms mean, {:.3} ms max",
            fixed(self.energy_end, 4),
            self.step_ms_mean,
            self.step_ms_max
        )?;
        // Where the steps went: the costliest leaf stages, mean ms per step.
        let mut leaves: Vec<(sinew::ProfileStage, u64)> = sinew::ProfileStage::ALL
            .iter()
            .filter(|s| !s.is_group())
            .map(|&s| (s, self.stage_ns[s as usize]))
            .filter(|&(_, ns)| ns > 0)
            .collect();
        leaves.sort_by_key(|&(_, ns)| std::cmp::Reverse(ns));
        if !leaves.is_empty() {
            let per_step = |ns: u64| ns as f64 * 1e-6 / self.steps.max(1) as f64;
            let shown: Vec<String> = leaves
                .iter()
                .take(STAGES_SHOWN)
                .map(|&(s, ns)| format!("{} {:.3}", s.name(), per_step(ns)))
                .collect();
            writeln!(
                f,
                "{:13}   stages (ms/step, of {:.3}): {}",
                "",
                per_step(self.stage_ns[sinew::ProfileStage::Step as usize]),
                shown.join(", ")
            )?;
        }
        for metric in &self.metrics {
            writeln!(f, "{:13}   {metric}", "")?;
        }
        for (label, rest, len, tip) in &self.ropes {
            writeln!(
                f,
                "{:13}   {label}: length {len:.4} m (rest {rest:.4} m, {:+.2}%), tip at ({}, {}, {}) m",
                "",
                100.0 * (len - rest) / rest,
                fixed(tip.x as f64, 3),
                fixed(tip.y as f64, 3),
                fixed(tip.z as f64, 3)
            )?;
        }
        Ok(())
    }
}

/// The frames (8-bit RGB) of a rendered run and the index of the still.
pub struct Frames {
    pub rgb: Vec<Vec<u8>>,
    pub delays_cs: Vec<u16>,
    pub still: usize,
}

const SKY_TOP: Rgb = Rgb::hex(0x1c2330);
const SKY_BOTTOM: Rgb = Rgb::hex(0x3a4658);
const FLOOR_A: Rgb = Rgb::hex(0x6c7480);
const FLOOR_B: Rgb = Rgb::hex(0x59606b);
const TEXT: Rgb = Rgb::hex(0xf0f0f0);
const TEXT_DIM: Rgb = Rgb::hex(0xa8b0bc);

/// Renders one picture of the scene's current state with its corner text.
pub fn render_frame(scene: &mut Scene, r: &Render, lines: &[String]) -> Vec<u8> {
    let ss = r.supersample.max(1);
    let (w, h) = (r.width * ss, r.height * ss);
    let mut big = Canvas::new(w, h, SKY_TOP);
    big.clear_gradient(SKY_TOP, SKY_BOTTOM);
    let camera = Camera::look_at(scene.eye, scene.target, scene.fov_deg, w, h);
    let mut painter = Painter {
        canvas: &mut big,
        camera,
        light: Light::default(),
    };
    painter.floor(0.0, (scene.target.x, 0.0), 40, 0.25, (FLOOR_A, FLOOR_B));
    scenes::draw(&mut scene.sim, &mut painter);
    let mut out = big.downsample(ss);
    // Labels under the ropes' anchors.
    let small_cam = Camera::look_at(scene.eye, scene.target, scene.fov_deg, r.width, r.height);
    let pos = scene.sim.positions();
    // Ropes: the first particle; cloths: the middle of the first row's ends; meshes
    // and rings: above the middle of the highest point.
    let anchors = scene.sim.shapes.iter().filter_map(|s| match *s {
        Shape::Rope { first, .. } => Some(pos[first as usize]),
        Shape::Cloth { first, nx, .. } => {
            Some(0.5 * (pos[first as usize] + pos[(first + nx - 1) as usize]))
        }
        Shape::Ring { first, count, .. } => {
            let pts = &pos[first as usize..(first + count) as usize];
            let mid = pts.iter().sum::<Vec3>() / count as f32;
            let top = pts.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
            Some(Vec3::new(mid.x, top, mid.z))
        }
        Shape::Mesh { ref tris, .. } => {
            let pts = || tris.iter().flatten().map(|&k| pos[k as usize]);
            let n = 3.0 * tris.len() as f32;
            let mid = pts().sum::<Vec3>() / n;
            let top = pts().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
            Some(Vec3::new(mid.x, top, mid.z))
        }
        _ => None,
    });
    for (label, anchor) in scene.labels.iter().zip(anchors) {
        if let Some((x, y, _)) = small_cam.project(anchor + Vec3::new(0.0, 0.08, 0.0)) {
            let width = 6.0 * label.len() as f32;
            let x0 = (x - 0.5 * width).max(0.0) as u32;
            out.text(x0, (y - 8.0).max(0.0) as u32, label, 1, TEXT);
        }
    }
    let line_h = 10;
    let box_w = lines
        .iter()
        .map(|l| l.len() as u32 * 6 + 8)
        .max()
        .unwrap_or(0);
    out.shade_rect(
        0,
        0,
        box_w.min(r.width),
        lines.len() as u32 * line_h + 6,
        0.55,
    );
    for (k, l) in lines.iter().enumerate() {
        let c = if k == 0 { TEXT } else { TEXT_DIM };
        out.text(4, 4 + k as u32 * line_h, l, 1, c);
    }
    out.to_rgb8()
}

/// Runs `scene` for its length at SIM_HZ, rendering frames when `render` is given.
pub fn run(scene: &mut Scene, render: Option<&Render>) -> (Summary, Frames) {
    let dt = 1.0 / SIM_HZ;
    let steps = (scene.seconds * SIM_HZ).round() as u32;
    let desc = *scene.sim.world.desc();
    let solver = match desc.solver {
        sinew::Solver::GaussSeidel => "Gauss-Seidel",
        sinew::Solver::Jacobi => "Jacobi",
    };
    let mut summary = Summary {
        name: scene.name,
        frames: 0,
        steps,
        max_stretch: None,
        min_height: f32::INFINITY,
        energy_start: scene.sim.energy(),
        energy_free: f64::NAN,
        energy_max_free: f64::NEG_INFINITY,
        energy_end: 0.0,
        energy_max_rise: None,
        ropes: Vec::new(),
        metrics: Vec::new(),
        step_ms_mean: 0.0,
        step_ms_max: 0.0,
        stage_ns: [0; sinew::PROFILE_STAGE_COUNT],
    };
    // The world times its own stages (the same bits as without).
    scene.sim.world.set_profiling(true);
    let mut frames = Frames {
        rgb: Vec::new(),
        delays_cs: Vec::new(),
        still: 0,
    };
    let links = scene.sim.links.clone();
    let mut total_ms = 0.0;
    let mut last_ms = 0.0;
    let mut next_frame_time = 0.0f32;
    let mut shown_cs = 0u32;
    let mut last_energy = 0.0f64;
    for k in 0..=steps {
        let t = k as f32 * dt;
        // Record the state at time t.
        let stretch = scene.sim.max_stretch(&links);
        summary.max_stretch = match (summary.max_stretch, stretch) {
            (Some(worst), Some(now)) => Some(worst.max(now)),
            (worst, now) => worst.or(now),
        };
        let pos = scene.sim.positions();
        for p in &pos {
            summary.min_height = summary.min_height.min(p.y);
        }
        if t + 0.5 * dt >= scene.free_after {
            let e = scene.sim.energy();
            if summary.energy_free.is_nan() {
                summary.energy_free = e;
            } else {
                let rise = e - last_energy;
                summary.energy_max_rise =
                    Some(summary.energy_max_rise.map_or(rise, |r| r.max(rise)));
            }
            last_energy = e;
            summary.energy_max_free = summary.energy_max_free.max(e);
        }
        if let Some(observe) = scene.observe.as_mut() {
            observe(&mut scene.sim, t);
        }
        if let Some(r) = render {
            if t + 1e-4 >= next_frame_time {
                let frame_no = frames.rgb.len() as u32;
                let lines = vec![
                    format!("SINEW - {}", scene.title),
                    format!(
                        "t {:5.2} s  frame {:3}/{}  {} Hz x {} substeps x {} iter, {}",
                        t,
                        frame_no + 1,
                        (scene.seconds * r.fps + 1e-3).floor() as u32 + 1,
                        SIM_HZ as u32,
                        desc.substeps,
                        desc.iterations,
                        solver
                    ),
                    format!(
                        "step {:.3} ms (mean {:.3})  {} particles{}",
                        last_ms,
                        if k > 0 { total_ms / k as f64 } else { 0.0 },
                        scene.sim.world.particle_count(),
                        match scenes::constraint_count(&scene.sim.world) {
                            0 => String::new(),
                            n => format!("  {n} constraints"),
                        }
                    ),
                    match stretch {
                        Some(s) => format!(
                            "max stretch {:.2}%  {}",
                            100.0 * s.max(0.0),
                            scene.sim.status
                        ),
                        None => scene.sim.status.clone(),
                    },
                ];
                frames.rgb.push(render_frame(scene, r, &lines));
                // GIF delays are whole hundredths: keep the running total exact.
                let frame_no = frames.rgb.len() as u32;
                let until = (100.0 * frame_no as f32 / r.fps).round() as u32;
                frames.delays_cs.push((until - shown_cs) as u16);
                shown_cs = until;
                if (t - scene.still_at).abs() < 0.5 / r.fps {
                    frames.still = frames.rgb.len() - 1;
                }
                next_frame_time += 1.0 / r.fps;
            }
        }
        if k == steps {
            break;
        }
        if let Some(drive) = scene.drive.as_mut() {
            drive(&mut scene.sim, t);
        }
        let start = Instant::now();
        scene.sim.world.step(dt).expect("step");
        last_ms = start.elapsed().as_secs_f64() * 1e3;
        total_ms += last_ms;
        summary.step_ms_max = summary.step_ms_max.max(last_ms);
        for t in scene.sim.world.stage_times() {
            summary.stage_ns[t.stage as usize] += t.nanoseconds;
        }
    }
    summary.frames = frames.rgb.len() as u32;
    summary.metrics = scene.sim.metrics.clone();
    summary.energy_end = scene.sim.energy();
    summary.step_ms_mean = total_ms / steps.max(1) as f64;
    let pos = scene.sim.positions();
    for shape in &scene.sim.shapes {
        if let Shape::Rope {
            label,
            first,
            count,
            ..
        } = *shape
        {
            let ids = first as usize..(first + count) as usize;
            let rest: f32 = links
                .iter()
                .filter(|l| ids.contains(&(l.a as usize)))
                .map(|l| l.rest)
                .sum();
            let len: f32 = pos[ids.clone()]
                .windows(2)
                .map(|w| w[0].distance(w[1]))
                .sum();
            summary.ropes.push((label, rest, len, pos[ids.end - 1]));
        }
    }
    (summary, frames)
}
