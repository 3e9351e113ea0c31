//! The search against brute force, after refreshes, and across thread counts.

use super::*;

/// A small linear congruential generator (Knuth's MMIX constants): reproducible
/// clouds without a dependency.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A random cloud: `n` particles in a cube of side `side` (m) around `centre`,
/// radii in [r/2, r], some pinned, some without a radius, a few body groups, slow
/// random velocities and `fast` particles 100× faster.
fn cloud(seed: u64, n: usize, side: f32, centre: Vec3, r: f32, fast: usize) -> Particles {
    let mut rng = Lcg(seed);
    let mut p = Particles::default();
    p.reserve(n).unwrap();
    for i in 0..n {
        let x = centre + Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * side;
        let w = if i % 17 == 0 { 0.0 } else { 1.0 + rng.next() };
        p.push(x, w);
        p.radius[i] = if i % 23 == 0 {
            0.0
        } else {
            r * (0.5 + 0.5 * rng.next())
        };
        let v = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5);
        p.velocity[i] = if i < fast { v * 500.0 } else { v * 0.2 };
        if i % 5 == 0 {
            p.filter[i] = CollisionFilter {
                group: 1 + (i % 3) as u32,
                self_collision: i % 10 == 0,
                ..CollisionFilter::default()
            };
        }
    }
    p
}

/// Every ordered pair (i, j) of particles (user indices) that the lists give i.
fn listed(s: &Neighbours) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in 0..s.len() {
        let i = s.particle(k);
        for &j in s.list(k) {
            out.push((i, s.particle(j as usize)));
        }
        for q in s.fast_partners(k) {
            out.push((i, s.particle(q[1] as usize)));
        }
    }
    out.sort_unstable();
    out
}

/// The same pairs by brute force over all n² pairs: i moves, both have a radius,
/// the filter lets them collide, and they lie within r_i + r_j + s_i + s_j.
fn brute_force(p: &Particles, s: &Neighbours) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let n = p.len();
    for i in 0..n {
        if p.radius[i] <= 0.0 || p.hot[i].w == 0.0 {
            continue;
        }
        for j in 0..n {
            if j == i || p.radius[j] <= 0.0 || !p.filter[i].collides(&p.filter[j]) {
                continue;
            }
            let reach = p.radius[i] + p.radius[j] + s.skin_of[i] + s.skin_of[j];
            let sep = crate::particles::separation(p.base[i], p.base[j], p.hot[i], p.hot[j]);
            if sep.length_squared() < reach * reach {
                out.push((i, j));
            }
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn lists_equal_a_brute_force_search() {
    let h = 1.0 / 600.0;
    let exec = Executor::new(1).unwrap();
    let cases = [
        (1u64, 3000usize, 0.5f32, Vec3::ZERO, 0.02f32, 0usize),
        (2, 3000, 0.3, Vec3::new(1.0e3, -2.0e3, 5.0e2), 0.015, 3),
        (3, 2000, 2.0, Vec3::new(-3.0, 0.0, 7.0), 0.05, 40),
        (4, 5000, 0.4, Vec3::ZERO, 0.01, 200), // too many fast: clamped
        (5, 3000, 0.5, Vec3::ZERO, 0.02, 3),   // wide particles (below)
        (6, 3000, 0.5, Vec3::ZERO, 0.02, 3),   // too many wide: none is wide
    ];
    for (case, (seed, n, side, centre, r, fast)) in cases.into_iter().enumerate() {
        let mut p = cloud(seed, n, side, centre, r, fast);
        if case == 1 {
            // Two clusters 5 km apart: the box of cells is far too large for a
            // dense grid, so this case runs on the hashed rows.
            for i in (0..n).step_by(2) {
                p.base[i].x += 5.0e3;
            }
        }
        // Seed 5: every 97th movable particle ten times the largest radius of the
        // others (wide: the cells stay sized by the others; a pinned one would size
        // them); seed 6: every 7th, more than the wide set's bound, so none is wide.
        let wide_every = [0, 0, 0, 0, 97, 7][case];
        if wide_every > 0 {
            for i in (0..n).step_by(wide_every) {
                if p.radius[i] > 0.0 && p.hot[i].w != 0.0 {
                    p.radius[i] = 10.0 * r;
                }
            }
        }
        let mut s = Neighbours::default();
        s.begin_step(&p, h, &exec).unwrap();
        if wide_every > 0 {
            // Wide, or fast (and movable, with a radius).
            let own = (0..n)
                .filter(|&i| {
                    p.radius[i] == 10.0 * r || (i < fast && p.radius[i] > 0.0 && p.hot[i].w != 0.0)
                })
                .count();
            let slow_reach = 2.0 * (r + s.s_cut);
            if seed == 5 {
                assert!(s.cell <= slow_reach, "seed {seed}: cell {}", s.cell);
                assert_eq!(s.stats().fast as usize, own, "seed {seed}");
            } else {
                assert!(s.cell >= 2.0 * 10.0 * r, "seed {seed}: cell {}", s.cell);
                assert!(
                    s.stats().fast as usize <= fast && own > MAX_FAST,
                    "seed {seed}"
                );
            }
        }
        if case <= 1 {
            assert_eq!(s.dense.is_none(), case == 1, "seed {seed}: layout");
        }
        let got = listed(&s);
        let want = brute_force(&p, &s);
        assert!(!want.is_empty());
        assert_eq!(got.len(), want.len(), "seed {seed}: pair count");
        assert_eq!(got, want, "seed {seed}");
        if wide_every > 0 {
            // The counts are checked above.
        } else if (1..=MAX_FAST).contains(&fast) {
            let movable = (0..fast)
                .filter(|&i| p.radius[i] > 0.0 && p.hot[i].w != 0.0)
                .count();
            assert_eq!(s.stats().fast as usize, movable, "seed {seed}");
        } else {
            assert_eq!(s.stats().fast, 0, "seed {seed}");
        }
    }
}

/// After the particles move (some past their skins), a refresh keeps every
/// overlapping pair in the lists; `for_each` within r_i + r_j yields exactly the
/// overlapping pairs.
///
/// The few slow particles that jumped are re-anchored by partial updates, also
/// beside fast particles (which never roam: each roaming slot is tested against
/// them); a fast particle that leaves its skin (round 2) makes a full rebuild.
#[test]
fn refreshed_lists_hold_every_overlapping_pair() {
    for fast in [5, 0] {
        refreshed_lists_case(fast);
    }
}

fn refreshed_lists_case(fast: usize) {
    let h = 1.0 / 600.0;
    let exec = Executor::new(1).unwrap();
    let r = 0.02;
    let mut p = cloud(7, 4000, 0.5, Vec3::ZERO, r, fast);
    for i in 0..p.len() {
        p.radius[i] = if p.radius[i] > 0.0 { r } else { 0.0 };
    }
    let mut s = Neighbours::default();
    s.begin_step(&p, h, &exec).unwrap();
    let (builds, partial) = (s.stats().builds, s.stats().partial_updates);
    let mut rng = Lcg(99);
    for round in 0..6 {
        // Random motion: most particles stay within their skins, a few jump.
        for i in 0..p.len() {
            if p.hot[i].w == 0.0 {
                continue;
            }
            let scale = if i % 97 == round { 4.0 * r } else { 0.1 * r };
            let d = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * scale;
            p.hot[i] += d.extend(0.0);
        }
        if round == 2 {
            // One particle jumps out of the box of cells of the last build
            // (beyond the dense grid's rows): the lists must still hold every
            // overlapping pair. With fast particles, it is one of them.
            let i = (1..p.len())
                .find(|&i| p.hot[i].w != 0.0 && p.radius[i] > 0.0)
                .unwrap();
            assert_eq!(i < fast, fast > 0);
            p.hot[i].x -= 2.0;
        }
        let before = (s.stats().builds, s.stats().partial_updates);
        s.advance(h);
        s.refresh(&p, h, &exec);
        let path = (
            s.stats().builds - before.0,
            s.stats().partial_updates - before.1,
        );
        if fast > 0 && round < 2 {
            // Partial updates beside the four fast particles (the fifth is pinned).
            assert_eq!(s.stats().fast, 4, "round {round}");
            assert_eq!(path, (0, 1), "round {round}");
            assert!(s.has_roaming(), "round {round}");
        } else if fast > 0 && round == 2 {
            // A build at the fast particle's jump. (It reads every jump as a
            // velocity: too many fast particles, clamped, none fast after it.)
            assert_eq!(path, (1, 0), "round {round}");
        }
        let (want, got) = overlapping(&p, &s, 2.0 * r);
        assert!(!want.is_empty());
        // Positions are compared as base + hot sums in both, to the last bit.
        assert_eq!(got, want, "fast {fast}, round {round}");
    }
    let updates = if fast > 0 { 5 } else { 6 };
    assert!(
        fast == 0 || s.stats().builds > builds,
        "the fast particle's jump rebuilds"
    );
    assert!(
        s.stats().partial_updates >= partial + updates,
        "every round re-anchors the particles that jumped"
    );
}

/// Ordered pairs of particles (user indices).
type PairList = Vec<(usize, usize)>;

/// Every pair of `p` (user indices) closer than `reach` by brute force, and the
/// same pairs as `s.for_each` finds them: (want, got).
fn overlapping(p: &Particles, s: &Neighbours, reach: f32) -> (PairList, PairList) {
    let mut got = Vec::new();
    for k in 0..s.len() {
        if s.hot[k].w != 0.0 {
            let i = s.particle(k);
            s.for_each(k, reach, |j, _, _| got.push((i, s.particle(j))));
        }
    }
    got.sort_unstable();
    let mut want = Vec::new();
    for i in 0..p.len() {
        if p.radius[i] <= 0.0 || p.hot[i].w == 0.0 {
            continue;
        }
        for j in 0..p.len() {
            if j != i
                && p.radius[j] > 0.0
                && p.filter[i].collides(&p.filter[j])
                && (p.position(i) - p.position(j)).length_squared() < reach * reach
            {
                want.push((i, j));
            }
        }
    }
    want.sort_unstable();
    (want, got)
}

/// Partial updates beside fast particles whose reach covers a part of the cloud (60
/// of 4,000 at up to 17 m/s, skins of 2-11 cm against the slow ones' 1 cm): the slow
/// particles that jump roam, are tested against every fast particle, and every
/// overlapping pair is found after each refresh, also those of a roaming particle
/// with a fast one it was not listed with at the build (the build's pairs of a
/// roaming slot are dropped, its new ones found). One and two threads take the same
/// path and make the same pairs.
#[test]
fn partial_updates_keep_fast_particles() {
    let h = 1.0 / 600.0;
    let r = 0.02;
    let fast = 60;
    let mut p = cloud(11, 4000, 0.5, Vec3::ZERO, r, fast);
    for i in 0..p.len() {
        p.radius[i] = if p.radius[i] > 0.0 { r } else { 0.0 };
        if i < fast {
            p.velocity[i] *= 0.04;
        }
    }
    let execs = [Executor::new(1).unwrap(), Executor::new(2).unwrap()];
    let mut searches = [Neighbours::default(), Neighbours::default()];
    for (s, exec) in searches.iter_mut().zip(&execs) {
        s.begin_step(&p, h, exec).unwrap();
    }
    let fast_slots = searches[0].stats().fast;
    assert!(fast_slots >= 40, "{fast_slots} fast");
    let mut rng = Lcg(17);
    let mut new_pairs = 0;
    for round in 0..6 {
        // The fast particles move half a substep along their velocities (6 rounds:
        // within their skins of 4 substeps); every 41st slow one jumps up to 3
        // radii, the rest drift by a tenth.
        for i in 0..p.len() {
            if p.hot[i].w == 0.0 {
                continue;
            }
            let d = if i < fast {
                p.velocity[i] * (0.5 * h)
            } else {
                let scale = if i % 41 == round { 6.0 * r } else { 0.1 * r };
                Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * scale
            };
            p.hot[i] += d.extend(0.0);
        }
        for (s, exec) in searches.iter_mut().zip(&execs) {
            let before = s.stats().partial_updates;
            s.advance(h);
            s.refresh(&p, h, exec);
            assert_eq!(s.stats().partial_updates, before + 1, "round {round}");
            assert_eq!(s.stats().fast, fast_slots, "round {round}");
        }
        let [one, two] = &searches;
        assert_eq!(two.fast_pairs, one.fast_pairs, "round {round}");
        assert_eq!(two.side_pairs, one.side_pairs, "round {round}");
        assert_eq!(two.roam_lists, one.roam_lists, "round {round}");
        // Roaming slots' fast pairs the build did not make.
        new_pairs = one
            .fast_pairs
            .iter()
            .filter(|q| one.is_roaming(q[0] as usize))
            .filter(|q| !one.list(q[1] as usize).contains(&q[0]))
            .count()
            .max(new_pairs);
        let (want, got) = overlapping(&p, one, 2.0 * r);
        assert!(!want.is_empty());
        assert_eq!(got, want, "round {round}");
    }
    assert!(new_pairs > 0, "no roaming slot met a new fast partner");
}

#[test]
fn search_is_bit_identical_for_any_thread_count() {
    let h = 1.0 / 600.0;
    let p = cloud(11, 40_000, 0.8, Vec3::new(0.5, 1.0, -0.5), 0.01, 20);
    let reference = {
        let mut s = Neighbours::default();
        s.begin_step(&p, h, &Executor::new(1).unwrap()).unwrap();
        (s.order.order().to_vec(), listed(&s), s.stats())
    };
    for threads in [2, 4, 8] {
        let mut s = Neighbours::default();
        s.begin_step(&p, h, &Executor::new(threads).unwrap())
            .unwrap();
        assert_eq!(s.order.order(), &reference.0[..], "threads {threads}");
        assert_eq!(listed(&s), reference.1, "threads {threads}");
        assert_eq!(s.stats().pairs, reference.2.pairs, "threads {threads}");
    }
}

/// The dense build that tests each pair of slow slots once gives every slot the list
/// the scan of each slot gives, entry for entry and in the same order (the sums over
/// the lists then add the same terms in the same order): clouds with pinned slots,
/// slots without a radius, body groups, fast particles and uniform ones.
#[test]
fn symmetric_lists_equal_the_scanned_lists() {
    let h = 1.0 / 600.0;
    let exec = Executor::new(1).unwrap();
    let cases = [
        (5u64, 3000usize, 0.5f32, 0.02f32, 0usize, false),
        (6, 3000, 0.3, 0.015, 3, false),
        (7, 2000, 2.0, 0.05, 40, false),
        (8, 4000, 0.4, 0.01, 0, true),
    ];
    for (seed, n, side, r, fast, uniform) in cases {
        let mut p = cloud(seed, n, side, Vec3::new(0.3, -1.0, 2.0), r, fast);
        if uniform {
            for i in 0..n {
                p.filter[i] = CollisionFilter::default();
                p.radius[i] = r;
            }
        }
        let mut s = Neighbours::default();
        s.begin_step(&p, h, &exec).unwrap();
        assert!(s.dense.is_some(), "seed {seed}: layout");
        assert_eq!(s.uniform, uniform, "seed {seed}");
        assert_eq!(s.stats().fast > 0, fast > 0, "seed {seed}");
        let symmetric: Vec<Vec<u32>> = (0..s.len()).map(|k| s.list(k).to_vec()).collect();
        s.build_lists(&exec).unwrap();
        let mut pairs = 0;
        for (k, want) in symmetric.iter().enumerate() {
            assert_eq!(s.list(k), &want[..], "seed {seed}, slot {k}");
            pairs += want.len();
        }
        assert!(pairs > n, "seed {seed}: the clouds must be dense");
    }
}

/// A partial update scans the roaming slots in parallel (parts of `ROAM_PART`) when
/// there are threads: the same lists, side pairs and path (partial or full) as on one
/// thread, entry for entry.
#[test]
fn partial_updates_are_bit_identical_for_any_thread_count() {
    let h = 1.0 / 600.0;
    let r = 0.02;
    let mut p = cloud(5, 4000, 0.5, Vec3::ZERO, r, 0);
    for i in 0..p.len() {
        p.radius[i] = if p.radius[i] > 0.0 { r } else { 0.0 };
    }
    let execs = [Executor::new(1).unwrap(), Executor::new(2).unwrap()];
    let mut searches = [Neighbours::default(), Neighbours::default()];
    for (s, exec) in searches.iter_mut().zip(&execs) {
        s.begin_step(&p, h, exec).unwrap();
    }
    let mut rng = Lcg(3);
    let mut widest = 0;
    for round in 0..5 {
        // About 140 particles leave their skins per round; the roaming slots add up.
        for i in 0..p.len() {
            if p.hot[i].w == 0.0 {
                continue;
            }
            let scale = if i % 29 == round { 4.0 * r } else { 0.1 * r };
            let d = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * scale;
            p.hot[i] += d.extend(0.0);
        }
        for (s, exec) in searches.iter_mut().zip(&execs) {
            s.advance(h);
            s.refresh(&p, h, exec);
        }
        let [one, two] = &searches;
        assert_eq!(
            one.stats().partial_updates,
            round as u64 + 1,
            "round {round}"
        );
        assert_eq!(two.stats().partial_updates, one.stats().partial_updates);
        assert_eq!(two.stats().builds, one.stats().builds);
        assert_eq!(two.roaming, one.roaming, "round {round}");
        assert_eq!(two.roam_end, one.roam_end, "round {round}");
        assert_eq!(two.roam_lists, one.roam_lists, "round {round}");
        assert_eq!(two.side_pairs, one.side_pairs, "round {round}");
        assert_eq!(listed(two), listed(one), "round {round}");
        widest = widest.max(one.roaming.len());
    }
    assert!(
        widest >= 4 * ROAM_PART,
        "the parallel scan ran: {widest} roaming"
    );
}

/// A crowd (particles added at one point, or overlapping hundreds of others) keeps
/// short lists: each slow slot lists the first `listed_cap` partners of its scan, so a
/// build costs about that many tests per particle instead of N² (and N² entries of
/// memory). 3,000 particles at one point and 3,000 in a ball of 1 cm, both radius
/// 2 cm: every list holds at most twice the cap (its own partners above it and those
/// below that listed it, in the dense layout), every listed pair is listed from both
/// sides (so the contacts' pushes stay equal and opposite), the lists of slots far
/// from the ends are exactly that long, and 1 and 2 threads give the same lists. A
/// particle eight times the smallest radius keeps 512 times as many, so in a pile of
/// small particles it keeps all of them (the brute-force cases above, where every
/// seventh particle is ten times larger, check that no pair is lost there).
#[test]
fn a_crowd_keeps_bounded_lists() {
    let h = 1.0 / 600.0;
    for spread in [0.0f32, 0.01] {
        let n = 3000;
        let mut p = Particles::default();
        p.reserve(n).unwrap();
        let mut rng = Lcg(9);
        for i in 0..n {
            let d = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * spread;
            p.push(Vec3::new(1.0, 2.0, 3.0) + d, 1.0);
            p.radius[i] = 0.02;
        }
        let lists = |threads: u32| {
            let exec = Executor::new(threads).unwrap();
            let mut s = Neighbours::default();
            s.begin_step(&p, h, &exec).unwrap();
            listed(&s)
        };
        let pairs = lists(1);
        assert_eq!(pairs, lists(2), "spread {spread}: 1 and 2 threads");
        let mut per = vec![0usize; n];
        for &(i, _) in &pairs {
            per[i] += 1;
        }
        let cap = MAX_LISTED;
        assert!(
            per.iter().all(|&c| c <= 2 * cap),
            "spread {spread}: a list over 2 × {cap}"
        );
        let full = per.iter().filter(|&&c| c == 2 * cap).count();
        assert!(
            full >= n - 2 * cap,
            "spread {spread}: {full} full lists of {n}"
        );
        let set: std::collections::HashSet<_> = pairs.iter().copied().collect();
        assert!(
            pairs.iter().all(|&(i, j)| set.contains(&(j, i))),
            "spread {spread}: a pair listed from one side"
        );
        assert!(
            pairs.len() <= 2 * cap * n,
            "spread {spread}: {} pairs",
            pairs.len()
        );
    }
    assert_eq!(listed_cap(0.02, 0.02), MAX_LISTED);
    assert_eq!(listed_cap(0.16, 0.02), 512 * MAX_LISTED);
    assert_eq!(listed_cap(2.0e3, 1.0e-3), usize::MAX);
}

/// A dense pinned bed (10 × 10 × 10 pinned particles 1 cm apart, radius 2 cm: each
/// within reach of about 500 others) under 100 movable particles of the same radius:
/// the bed's particles are not a crowd to the movable ones, so every movable–pinned
/// pair is listed. A pinned slot lists only movable partners above it (its pinned
/// ones are dropped anyway), so its cap is not spent on the bed; before, the bed's
/// pinned partners filled it and movable particles lost contacts with pinned ones
/// below them (checked by mutation).
#[test]
fn a_dense_pinned_bed_keeps_every_contact_with_movable_particles() {
    let h = 1.0 / 600.0;
    let mut p = Particles::default();
    p.reserve(1100).unwrap();
    for i in 0..1000 {
        let (x, y, z) = (i % 10, (i / 10) % 10, i / 100);
        p.push(Vec3::new(x as f32, y as f32, z as f32) * 0.01, 0.0);
    }
    let mut rng = Lcg(5);
    for _ in 0..100 {
        let x = Vec3::new(rng.next() * 0.09, 0.12, rng.next() * 0.09);
        p.push(x, 1.0);
    }
    for r in &mut p.radius {
        *r = 0.02;
    }
    let exec = Executor::new(1).unwrap();
    let mut s = Neighbours::default();
    s.begin_step(&p, h, &exec).unwrap();
    let movable = |&(i, _): &(usize, usize)| i >= 1000;
    let want: Vec<_> = brute_force(&p, &s).into_iter().filter(movable).collect();
    let got: Vec<_> = listed(&s).into_iter().filter(movable).collect();
    assert!(want.len() > 2000, "{} pairs", want.len());
    let missing = want
        .iter()
        .filter(|q| got.binary_search(q).is_err())
        .count();
    assert!(
        missing == 0 && got.len() == want.len(),
        "{missing} of {} pairs missing",
        want.len()
    );
}
