//! How the Gauss-Seidel sweeps of the benchmark scenes are cut for the threads stays
//! balanced for 16 workers (`DistanceConstraints::sweep_stage_work`): every stage is
//! simulated on 16 workers that take its items in order, each to the least loaded
//! worker (the executor's threads take items from one cursor as they finish), and the
//! stage's longest worker must stay within 15% of the best any split could do (the
//! larger of an even share and the largest item). No block item of stage 0 may exceed
//! the median block by more than 10%, so no block is a straggler (the last block of
//! particles may be smaller: the ropes' fifth block holds 232 particles). The number of items per stage
//! (8 blocks for cloth_256, the parallelism of its interior phase) is what the README's
//! scaling estimates use; this test guards that the items themselves stay even.

use sinew::scenes;
use sinew::DistanceConstraints;

const WORKERS: usize = 16;

/// The longest worker's load when `WORKERS` workers take `items` in order, each item
/// to the least loaded worker (lowest index on ties).
fn makespan(items: &[usize]) -> usize {
    let mut load = [0usize; WORKERS];
    for &w in items {
        let least = (0..WORKERS).min_by_key(|&k| (load[k], k)).unwrap();
        load[least] += w;
    }
    load.into_iter().max().unwrap_or(0)
}

/// Checks every stage of `set`'s sweep (see the module doc); returns the stages.
fn check_balanced(name: &str, set: &DistanceConstraints) -> Vec<Vec<usize>> {
    let stages = set.sweep_stage_work();
    assert!(!stages.is_empty(), "{name}: no stages");
    let total: usize = stages.iter().flatten().sum();
    assert_eq!(
        total,
        set.len(),
        "{name}: the stages cover every constraint once"
    );
    for (s, items) in stages.iter().enumerate() {
        let work: usize = items.iter().sum();
        if work == 0 {
            continue;
        }
        let largest = *items.iter().max().unwrap();
        let bound = largest.max(work.div_ceil(WORKERS));
        let span = makespan(items);
        assert!(
            span * 100 <= bound * 115,
            "{name}: stage {s} ({} items, {work} constraints) takes {span} on {WORKERS} workers, \
             best possible {bound}",
            items.len()
        );
    }
    let mut blocks = stages[0].clone();
    blocks.sort_unstable();
    if let (Some(&median), Some(&largest)) = (blocks.get(blocks.len() / 2), blocks.last()) {
        assert!(
            largest * 100 <= median * 110,
            "{name}: a block has {largest} interior constraints, the median block {median}"
        );
    }
    stages
}

#[test]
fn cloth_256_sweep_is_balanced_for_16_workers() {
    let scene = scenes::cloth(256, scenes::default_desc()).unwrap();
    let stages = check_balanced("cloth_256", scene.world.distance_constraints());
    // 65,536 particles in blocks of 8192: eight equal blocks, then the seams.
    assert_eq!(stages[0].len(), 8);
    let interior: usize = stages[0].iter().sum();
    assert!(
        interior * 100 >= 95 * scene.constraints as usize,
        "cloth_256: {interior} of {} constraints interior",
        scene.constraints
    );
}

#[test]
fn cloth_128_sweep_is_balanced_for_16_workers() {
    let scene = scenes::cloth(128, scenes::default_desc()).unwrap();
    check_balanced("cloth_128", scene.world.distance_constraints());
}

#[test]
fn ropes_sweep_is_balanced_for_16_workers() {
    let scene = scenes::ropes(1000, scenes::default_desc()).unwrap();
    check_balanced("ropes", scene.world.distance_constraints());
}

#[test]
fn cloth_body_links_are_balanced_for_16_workers() {
    let scene = scenes::cloth_body(128, scenes::default_desc()).unwrap();
    check_balanced("cloth_body", &scene.world.constraint_sets().link);
}

#[test]
fn the_cut_does_not_depend_on_the_thread_count() {
    let work = |threads| {
        let desc = sinew::WorldDesc {
            threads,
            ..scenes::default_desc()
        };
        let scene = scenes::cloth(256, desc).unwrap();
        scene.world.distance_constraints().sweep_stage_work()
    };
    assert_eq!(work(1), work(16));
}
