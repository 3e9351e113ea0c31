//! Criterion benchmarks of the shared scenes (`sinew::scenes`).
//!
//! `cargo bench --bench scenes` — each measured iteration is one 1/60 s frame of the
//! scene (10 substeps × 1 iteration, Gauss-Seidel unless named), started from the state
//! the warm-up left; building the scene is never measured. For the one-line JSON
//! figures the issue notes quote, use `cargo run --release --example bench`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sinew::scenes::{self, Scene, FRAME_DT};
use sinew::{Solver, WorldDesc};

fn desc(threads: u32, solver: Solver) -> WorldDesc {
    WorldDesc {
        threads,
        solver,
        ..scenes::default_desc()
    }
}

fn bench_scene(c: &mut Criterion, group: &str, id: String, mut scene: Scene) {
    let substeps = scene.world.desc().substeps as u64;
    let projections = scene.constraints * substeps;
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    g.throughput(Throughput::Elements(projections));
    g.bench_function(BenchmarkId::from_parameter(id), |b| {
        b.iter(|| scene.world.step(FRAME_DT).expect("step"))
    });
    g.finish();
}

fn cloth(c: &mut Criterion) {
    for n in [64u32, 128, 256] {
        for threads in [1u32, 2] {
            for (solver, name) in [(Solver::GaussSeidel, "gs"), (Solver::Jacobi, "jacobi")] {
                let scene = scenes::cloth(n, desc(threads, solver)).expect("cloth scene");
                bench_scene(c, "cloth", format!("n{n}_t{threads}_{name}"), scene);
            }
        }
    }
}

fn ropes(c: &mut Criterion) {
    for threads in [1u32, 2] {
        let scene = scenes::ropes(1000, desc(threads, Solver::GaussSeidel)).expect("ropes scene");
        bench_scene(c, "ropes", format!("1000x32_t{threads}"), scene);
    }
}

/// The cloth and ropes built through the body builders, as a game builds them.
fn bodies(c: &mut Criterion) {
    for threads in [1u32, 2] {
        let desc = desc(threads, Solver::GaussSeidel);
        let scene = scenes::cloth_body(128, desc).expect("cloth body scene");
        bench_scene(c, "cloth_body", format!("n128_t{threads}"), scene);
        let scene = scenes::ropes_body(1000, desc).expect("ropes body scene");
        bench_scene(c, "ropes_body", format!("1000x32_t{threads}"), scene);
    }
}

/// The Position Based Fluids dam break, n = 16 (4096 particles, 2 substeps × 2
/// density iterations): throughput in fluid particles × substeps per frame.
fn dam_break(c: &mut Criterion) {
    for threads in [1u32, 2] {
        let (scene, _) =
            scenes::dam_break(16, scenes::dam_break_desc(threads)).expect("dam break scene");
        bench_scene(c, "dam_break", format!("n16_t{threads}"), scene);
    }
}

/// Soft rings floating in water in a planar world (fluids coupled two-way with bodies):
/// throughput in fluid particles × substeps per frame.
fn rings_2d(c: &mut Criterion) {
    for threads in [1u32, 2] {
        let rings = scenes::rings_2d(100, desc(threads, Solver::GaussSeidel)).expect("rings scene");
        bench_scene(c, "rings_2d", format!("n100_t{threads}"), rings.scene);
    }
}

criterion_group!(benches, cloth, ropes, bodies, dam_break, rings_2d);
criterion_main!(benches);
