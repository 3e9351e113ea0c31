//! The API-sequence fuzzer (`tests/fuzz/harness.rs`) as a bounded, deterministic test.
//!
//! * `fuzz_api_sequences`: `SINEW_FUZZ_CALLS` calls (default 200 000) split over
//!   eight seeds derived from `SINEW_FUZZ_SEED` (default 1), or as many as fit in
//!   `SINEW_FUZZ_SECONDS` when that is set (a long run: seeds keep coming until the
//!   time is up). Fails on any finding of a kind not in `KNOWN_OPEN`
//!   (`tests/fuzz/harness.rs`: known defects being fixed, each named), printing the
//!   first findings of each kind with the calls that led to them.
//! * `fuzz_replays_the_seeds_that_found_defects`: the seeds of long runs that found a
//!   defect, each replayed to the call that found it (`FOUND`).
//! * `fuzz_range_checks_are_live`: each documented-range check of the harness trips
//!   on a synthetic output outside its range and stays quiet inside it.
//! * `fuzz_covers_every_header_function`: every function declared in
//!   `include/sinew.h` is called by the harness (a new function without a generator
//!   fails here).
//!
//! Long runs: `SINEW_FUZZ_SECONDS=3600 cargo test --release --test ffi fuzz_api:: -- --nocapture`
//! (see docs/testing.md).

#[path = "../fuzz/harness.rs"]
mod harness;

use std::time::{Duration, Instant};

use harness::{
    header_functions, known_open, range_checks_self_test, run, Check, Report, SplitMix, FUNCTIONS,
};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

fn print(report: &Report, elapsed: Duration) {
    eprintln!(
        "fuzz_api: {} calls ({} OK, {} steps) in {:.1} s; {} of {} functions called; \
         slowest step per particle {:.0}x the median",
        report.calls,
        report.ok_calls,
        report.steps,
        elapsed.as_secs_f64(),
        report.called.len(),
        FUNCTIONS.len(),
        report.slowest_step_ratio(),
    );
    for (kind, n) in &report.counts {
        let known = if known_open(kind) {
            " (known open)"
        } else {
            ""
        };
        eprintln!("  {kind:?}: {n}{known}");
    }
    for f in &report.findings {
        eprintln!(
            "  - {:?} in {}: {}\n    after: {}",
            f.kind,
            f.function,
            f.detail,
            f.history.join(", ")
        );
    }
}

#[test]
fn fuzz_api_sequences() {
    let base = env_u64("SINEW_FUZZ_SEED").unwrap_or(1);
    let seconds = env_u64("SINEW_FUZZ_SECONDS");
    let calls = env_u64("SINEW_FUZZ_CALLS").unwrap_or(200_000);
    let start = Instant::now();
    let mut report = Report::default();
    let per_seed = if seconds.is_some() {
        50_000
    } else {
        calls.div_ceil(8)
    };
    let mut seed = base;
    loop {
        let mut src = SplitMix(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
        report.merge(run(&mut src, per_seed));
        seed += 1;
        let done = match seconds {
            Some(s) => start.elapsed() >= Duration::from_secs(s),
            None => report.calls >= calls,
        };
        if done {
            break;
        }
    }
    print(&report, start.elapsed());
    let failing: Vec<_> = report.counts.keys().filter(|k| !known_open(k)).collect();
    assert!(
        failing.is_empty(),
        "the fuzzer found {failing:?} (seeds {base}..{seed}; details above)"
    );
}

/// Seeds of long runs that found a defect (each fixed since), with the number of
/// calls after which the finding showed: replayed to that call, each must now find
/// nothing (a run of the same seed diverges once a fixed call answers differently).
const FOUND: &[(u64, u64, &str)] = &[
    (
        18349,
        18_688,
        "a forged snapshot's last step shorter than MIN_DT: a NaN contact wrench",
    ),
    (
        18394,
        26_201,
        "a fluid 1e9 m out: the surface grid's block keys wrapped (an internal error)",
    ),
    (18445, 30_687, "a pin force past f32's range read NaN"),
    (
        52053,
        19_447,
        "a fluid grid built while a particle was NaN kept a NaN origin: NaN ellipsoids",
    ),
    (
        125049,
        49_427,
        "h little more than the spacing: a wall lent over 1, an edge a negative density",
    ),
    (
        126011,
        38_098,
        "a pin on a proxy without inertia kept a NaN multiplier after a recovered step",
    ),
    (
        125022,
        17_961,
        "a winch reeled in at once moved a stretched rope's far end past the range",
    ),
    (
        128051,
        42_884,
        "a forged attachment host's NaN, read by a paused body's resume",
    ),
    (
        130005,
        26_041,
        "a winch summed a removed link's marker (-1 m) into live bend links and tethers",
    ),
    (
        131001,
        5_570,
        "a forged collider position of -1.8e38 m (finite, loaded) made an infinite velocity",
    ),
    (
        135034,
        31_741,
        "a forged rope body of no particles and 6 links: its breakable rope was refused",
    ),
    (
        146031,
        46_243,
        "two pinned ends, compliance 6e-39 m/N: Δλ = -C/α̃ overflowed, λ -inf refused",
    ),
    (
        146047,
        6_370,
        "two sleeping particles as fast partners: a 0/0 share, NaN past the recovery",
    ),
];

#[test]
fn fuzz_replays_the_seeds_that_found_defects() {
    for &(seed, calls, what) in FOUND {
        let mut src = SplitMix(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let report = run(&mut src, calls);
        let failing: Vec<_> = report
            .findings
            .iter()
            .filter(|f| !known_open(&f.kind))
            .map(|f| format!("{:?} in {}: {}", f.kind, f.function, f.detail))
            .collect();
        assert!(failing.is_empty(), "seed {seed} ({what}): {failing:?}");
    }
}

#[test]
fn fuzz_covers_every_header_function() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h");
    let header = std::fs::read_to_string(path).expect("include/sinew.h");
    let declared = header_functions(&header);
    assert!(declared.len() > 50, "parsed only {declared:?}");
    let listed: std::collections::BTreeSet<String> =
        FUNCTIONS.iter().map(|s| s.to_string()).collect();
    let missing: Vec<_> = declared.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "the fuzzer has no generator for {missing:?}"
    );
    let stale: Vec<_> = listed.difference(&declared).collect();
    assert!(stale.is_empty(), "the fuzzer lists undeclared {stale:?}");
    // And a short run really calls every one of them.
    let mut src = SplitMix(7);
    let report = run(&mut src, 20_000);
    let never: Vec<_> = FUNCTIONS
        .iter()
        .filter(|f| !report.called.contains(*f))
        .collect();
    assert!(never.is_empty(), "never called in 20 000 calls: {never:?}");
}

#[test]
fn fuzz_range_checks_are_live() {
    let (seen, false_alarms) = range_checks_self_test();
    assert!(
        false_alarms.is_empty(),
        "in-range outputs flagged: {false_alarms:?}"
    );
    // WinchLink, TopologyCounts and ReadbackCount need a live world or a call's
    // buffers; every other check must trip on its synthetic out-of-range output.
    let expected = [
        Check::ContactImpulse,
        Check::ContactParticle,
        Check::ContactNormal,
        Check::ContactCount,
        Check::WinchLength,
        Check::WinchSpeed,
        Check::TopologyTriangle,
        Check::TopologyParticle,
        Check::TopologySource,
        Check::BodyRange,
        Check::FluidRange,
        Check::FluidCounters,
        Check::FluidDensity,
        Check::Force,
        Check::BreakEvent,
        Check::Pick,
        Check::Measure,
    ];
    let missed: Vec<_> = expected.iter().filter(|c| !seen.contains(c)).collect();
    assert!(
        missed.is_empty(),
        "range checks that did not trip: {missed:?}"
    );
}
