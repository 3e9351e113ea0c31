//! The documented ranges of what accepted calls hand back: the API-sequence fuzzer
//! checks every output it reads against the range `include/sinew.h` promises for it
//! (an impulse >= 0, a length >= 0, an index below the count it indexes, a count
//! within its capacity), not only that it is finite.
//!
//! Two places check: the generator of a read call checks its own outputs
//! ([`Session::violation`] collects what is out of range, `record` files it when the
//! call succeeded), and after every accepted call that changes state the harness
//! reads the world back as a host would ([`Session::sweep`]: every contact, every
//! tracked body's range, winch and cloth topology, every tracked fluid's range and
//! counters).

use super::*;

/// A documented range an accepted call's output must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// `SinewContact.impulse`: finite and >= 0 (N·s).
    ContactImpulse,
    /// `SinewContact.particle` below the world's particle count.
    ContactParticle,
    /// `SinewContact.normal` a unit vector.
    ContactNormal,
    /// Contacts written: `min(capacity, sinew_world_contact_count)`.
    ContactCount,
    /// A winch's length: finite and >= 0 (m).
    WinchLength,
    /// A winch's speed: finite, within ±SINEW_MAX_WINCH_SPEED.
    WinchSpeed,
    /// A winch's paying link: an index into the rope's SINEW_BODY_STRETCH group.
    WinchLink,
    /// A cloth triangle's render-vertex index below the vertex count.
    TopologyTriangle,
    /// A render vertex's world particle: below the particle count, and particle
    /// `first + i` for vertex i below the cloth's own particle count.
    TopologyParticle,
    /// A render vertex's source: a vertex of the built cloth (itself below its count).
    TopologySource,
    /// Render vertices at least the cloth's particles; the tear status's version is
    /// the topology version.
    TopologyCounts,
    /// A body's particles `first..first+count` inside the world; a known kind; radius
    /// and damping finite and >= 0; `sinew_body_particle_range` agrees with
    /// `sinew_body_info`.
    BodyRange,
    /// A fluid's reserved particles inside the world, its live count within its
    /// capacity, and `sinew_fluid_particle_range` agreeing with `sinew_fluid_stats`.
    FluidRange,
    /// A fluid's counters: live = emitted − removed.
    FluidCounters,
    /// Density ratios finite and >= 0, the mean at most the largest.
    FluidDensity,
    /// A readback's count within the capacity it was given.
    ReadbackCount,
    /// A fluid render output (ellipsoids, diffuse particles): every number finite.
    FluidRender,
    /// A force readback (|λ|/h²): finite and >= 0.
    Force,
    /// A break event: a known family, a force finite and >= 0, a finite position, at
    /// most `capacity` written and at most SINEW_MAX_BREAK_EVENTS waiting.
    BreakEvent,
    /// A pick: a particle below the count at t >= 0, or 0xFFFFFFFF and -1.
    Pick,
    /// A measured volume or area: a number, not NaN.
    Measure,
}

/// The calls after which the world is read back whole ([`Session::sweep`]).
const SWEEP_AFTER: &[&str] = &[
    "sinew_world_step",
    "sinew_world_advance",
    "sinew_world_restore_snapshot",
    "sinew_world_remove_body",
    "sinew_body_cut_rope",
    "sinew_body_cut_rope_along",
    "sinew_body_add_winch",
    "sinew_body_set_winch_speed",
    "sinew_body_set_winch_target",
    "sinew_body_set_tear_threshold",
    "sinew_fluid_emit",
    "sinew_fluid_clear",
    "sinew_fluid_set_desc",
];

/// SINEW_BODY_STRETCH, the group a winch's link indexes.
const BODY_STRETCH: u32 = 0;
/// SINEW_BODY_PRESSURE_SOFT_BODY, the last SinewBodyKind.
const LAST_BODY_KIND: u32 = 3;
/// SINEW_FAMILY_GRAB, the last SinewFamily.
const LAST_FAMILY: u32 = 14;

/// A body info to be overwritten.
pub(crate) fn zero_info() -> SinewBodyInfo {
    SinewBodyInfo {
        kind: 0,
        first_particle: 0,
        particle_count: 0,
        radius: 0.0,
        damping: 0.0,
    }
}

fn finite_non_negative(x: f32) -> bool {
    x.is_finite() && x >= 0.0
}

/// Whether every component of every vector is finite.
pub(crate) fn all_finite(v: &[SinewVec3]) -> bool {
    v.iter()
        .all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite())
}

impl Session<'_> {
    /// Notes an output out of its documented range; `record` files it as a finding
    /// when the call succeeded.
    pub(crate) fn violation(&mut self, check: Check, detail: String) {
        self.pending.push((check, detail));
    }

    /// Whether `name`, accepted, is followed by a read-back of the whole world.
    pub(crate) fn sweeps_after(name: &str) -> bool {
        SWEEP_AFTER.contains(&name)
    }

    /// Reads world `i` back as a host would and files what is out of range as
    /// findings of `name` (the call just accepted).
    pub(crate) fn sweep(&mut self, i: usize, name: &'static str) {
        let w = self.live[i].handle;
        let n = Self::particle_count(w);
        self.check_all_contacts(w, n);
        for b in self.live[i].bodies.clone() {
            self.check_body(w, b, n);
        }
        for f in self.live[i].fluids.clone() {
            self.check_fluid(w, f, n);
        }
        for c in self.live[i].colliders.clone() {
            self.check_collider(w, c);
        }
        let found = std::mem::take(&mut self.pending);
        self.file(found, name, Some(i));
        let Some(bytes) = self.check_snapshot_loads(i, name) else {
            return;
        };
        if matches!(name, "sinew_world_step" | "sinew_world_advance") {
            self.check_thread_counts(&bytes, i, name);
        }
    }

    /// World `i`'s snapshot, saved now, loads into a new world with the same state
    /// hash (the header: "every snapshot the library saves loads"). Returns the
    /// snapshot when it loaded.
    fn check_snapshot_loads(&mut self, i: usize, name: &'static str) -> Option<Vec<u8>> {
        let w = self.live[i].handle;
        let bytes = self.snapshot_of(w)?;
        let (mut copy, mut hash, mut again) = (SinewWorld { id: 0 }, 0u64, 0u64);
        // SAFETY: `bytes` holds the snapshot; the outputs are live locals.
        let st = unsafe {
            sinew_world_create_from_snapshot(bytes.as_ptr(), bytes.len() as u64, 1, &mut copy)
        };
        if st != SINEW_OK {
            let m = format!(
                "status {}: {} (its snapshot after the call)",
                st as i32,
                last_error()
            );
            self.find(Kind::OwnSnapshotRefused, name, m, Some(i));
            return None;
        }
        // SAFETY: two live worlds; `copy` is destroyed once.
        unsafe {
            assert_eq!(sinew_world_state_hash(w, &mut hash), SINEW_OK);
            assert_eq!(sinew_world_state_hash(copy, &mut again), SINEW_OK);
            assert_eq!(sinew_world_destroy(copy), SINEW_OK);
        }
        if hash != again {
            let m =
                format!("state hash {hash:#x}, loaded {again:#x} (its snapshot after the call)");
            self.find(Kind::OwnSnapshotChanged, name, m, Some(i));
        }
        Some(bytes)
    }

    /// The snapshot `bytes` of world `i` (after the step `name`), loaded into a world
    /// of 1 thread and one of 3 and stepped by 1/60 s in each, gives one status and
    /// one state hash (the header: results never depend on the thread count). Three
    /// threads split every pass's items differently from one and two.
    fn check_thread_counts(&mut self, bytes: &[u8], i: usize, name: &'static str) {
        let mut out = [(0i32, 0u64); 2];
        for (o, threads) in out.iter_mut().zip([1u32, 3]) {
            let mut copy = SinewWorld { id: 0 };
            // SAFETY: `bytes` holds the snapshot; the outputs are live locals; `copy` is
            // destroyed once.
            unsafe {
                let size = bytes.len() as u64;
                if sinew_world_create_from_snapshot(bytes.as_ptr(), size, threads, &mut copy)
                    != SINEW_OK
                {
                    return;
                }
                o.0 = sinew_world_step(copy, 1.0 / 60.0) as i32;
                assert_eq!(sinew_world_state_hash(copy, &mut o.1), SINEW_OK);
                assert_eq!(sinew_world_destroy(copy), SINEW_OK);
            }
        }
        let [(s1, h1), (s3, h3)] = out;
        if (s1, h1) != (s3, h3) {
            let m = format!(
                "its snapshot stepped 1/60 s: status {s1}, state hash {h1:#x} on 1 thread; \
                 status {s3}, state hash {h3:#x} on 3"
            );
            self.find(Kind::ThreadCountChanged, name, m, Some(i));
        }
    }

    /// Files range violations of `name` on world `wi` (a world restored from a forged
    /// snapshot files them under their own kind).
    pub(crate) fn file(
        &mut self,
        found: Vec<(Check, String)>,
        name: &'static str,
        wi: Option<usize>,
    ) {
        let forged = wi.and_then(|i| self.live.get(i)).is_some_and(|s| s.forged);
        for (check, detail) in found {
            let kind = if forged {
                Kind::OutOfRangeAfterForgedSnapshot(check)
            } else {
                Kind::OutOfRange(check)
            };
            self.find(kind, name, detail, wi);
        }
    }

    fn check_all_contacts(&mut self, w: SinewWorld, n: u32) {
        let mut count = 0u32;
        // SAFETY: a live local.
        if unsafe { sinew_world_contact_count(w, &mut count) } != SINEW_OK {
            return;
        }
        let cap = count.min(MAX_BUF as u32);
        let mut out = vec![SinewContact::default(); cap as usize];
        let mut written = 0u32;
        // SAFETY: `out` holds `cap` contacts.
        let st = unsafe { sinew_world_read_contacts(w, out.as_mut_ptr(), cap, &mut written) };
        if st == SINEW_OK {
            self.check_contacts(&out, cap, count, written, n);
        }
    }

    /// Contacts read with `capacity` when the world reported `count` of them.
    pub(crate) fn check_contacts(
        &mut self,
        out: &[SinewContact],
        capacity: u32,
        count: u32,
        written: u32,
        n: u32,
    ) {
        if written != capacity.min(count) {
            self.violation(
                Check::ContactCount,
                format!("{written} contacts written, capacity {capacity}, count {count}"),
            );
            return;
        }
        for (k, c) in out.iter().take(written as usize).enumerate() {
            if !finite_non_negative(c.impulse) {
                self.violation(
                    Check::ContactImpulse,
                    format!(
                        "contact {k} (particle {}): impulse {}",
                        c.particle, c.impulse
                    ),
                );
            }
            if c.particle >= n {
                self.violation(
                    Check::ContactParticle,
                    format!("contact {k}: particle {} of {n}", c.particle),
                );
            }
            let len = (c.normal.x * c.normal.x + c.normal.y * c.normal.y + c.normal.z * c.normal.z)
                .sqrt();
            if (len - 1.0).abs() > 1e-3 || len.is_nan() {
                self.violation(
                    Check::ContactNormal,
                    format!("contact {k}: |normal| = {len}"),
                );
            }
        }
    }

    /// The size of a body's SINEW_BODY_STRETCH group (None when the call fails).
    fn stretch_count(w: SinewWorld, b: SinewBody) -> Option<u32> {
        let mut count = 0u32;
        // SAFETY: NULL with capacity 0 asks for the size only.
        let st = unsafe {
            sinew_body_read_forces(w, b, BODY_STRETCH, std::ptr::null_mut(), 0, &mut count)
        };
        (st == SINEW_OK).then_some(count)
    }

    /// A winch state read from rope `b`.
    pub(crate) fn check_winch(
        &mut self,
        w: SinewWorld,
        b: SinewBody,
        length: f32,
        speed: f32,
        link: u32,
    ) {
        if !finite_non_negative(length) {
            self.violation(
                Check::WinchLength,
                format!("body {}: winch length {length}", b.id),
            );
        }
        if !(speed.is_finite() && speed.abs() <= SINEW_MAX_WINCH_SPEED) {
            self.violation(
                Check::WinchSpeed,
                format!("body {}: winch speed {speed}", b.id),
            );
        }
        if let Some(links) = Self::stretch_count(w, b) {
            if link >= links {
                self.violation(
                    Check::WinchLink,
                    format!("body {}: winch link {link} of {links}", b.id),
                );
            }
        }
    }

    /// Everything a host reads of body `b` (silently nothing when `b` is not live).
    fn check_body(&mut self, w: SinewWorld, b: SinewBody, n: u32) {
        let mut info = zero_info();
        // SAFETY: a live local.
        if unsafe { sinew_body_info(w, b, &mut info) } != SINEW_OK {
            return;
        }
        let (mut first, mut count) = (0u32, 0u32);
        // SAFETY: live locals.
        unsafe { sinew_body_particle_range(w, b, &mut first, &mut count) };
        self.check_body_info(b, &info, first, count, n);
        let (mut len, mut speed, mut link) = (0f32, 0f32, 0u32);
        // SAFETY: live locals.
        if unsafe { sinew_body_winch_state(w, b, &mut len, &mut speed, &mut link) } == SINEW_OK {
            self.check_winch(w, b, len, speed, link);
        }
        self.check_topology(w, b, &info, n);
    }

    pub(crate) fn check_body_info(
        &mut self,
        b: SinewBody,
        info: &SinewBodyInfo,
        first: u32,
        count: u32,
        n: u32,
    ) {
        let end = info.first_particle as u64 + info.particle_count as u64;
        if info.kind > LAST_BODY_KIND
            || end > n as u64
            || (first, count) != (info.first_particle, info.particle_count)
            || !finite_non_negative(info.radius)
            || !finite_non_negative(info.damping)
        {
            self.violation(
                Check::BodyRange,
                format!(
                    "body {}: kind {}, particles {}+{} (range {first}+{count}) of {n}, \
                     radius {}, damping {}",
                    b.id,
                    info.kind,
                    info.first_particle,
                    info.particle_count,
                    info.radius,
                    info.damping
                ),
            );
        }
    }

    /// A cloth's render topology (nothing for a body that is not a cloth).
    fn check_topology(&mut self, w: SinewWorld, b: SinewBody, info: &SinewBodyInfo, n: u32) {
        let (mut nv, mut nt) = (0u32, 0u32);
        // SAFETY: live locals.
        if unsafe { sinew_cloth_topology_counts(w, b, &mut nv, &mut nt) } != SINEW_OK {
            return;
        }
        if nv as usize > MAX_BUF || nt as usize > MAX_BUF {
            self.violation(
                Check::TopologyCounts,
                format!("body {}: {nv} vertices, {nt} triangles", b.id),
            );
            return;
        }
        let mut tris = vec![0u32; 3 * nt as usize];
        let mut particles = vec![0u32; nv as usize];
        let mut sources = vec![0u32; nv as usize];
        // SAFETY: each buffer holds what the counts ask for.
        let st = unsafe {
            sinew_cloth_read_topology(
                w,
                b,
                tris.as_mut_ptr(),
                nt,
                particles.as_mut_ptr(),
                sources.as_mut_ptr(),
                nv,
            )
        };
        if st != SINEW_OK {
            return;
        }
        let (mut status, mut version) = (SinewTearStatus::default(), 0u64);
        // SAFETY: live locals.
        unsafe {
            sinew_cloth_tear_status(w, b, &mut status);
            sinew_cloth_topology_version(w, b, &mut version);
        }
        self.check_read_topology(b, info, &tris, &particles, Some(&sources), n);
        if nv < info.particle_count || status.version != version {
            self.violation(
                Check::TopologyCounts,
                format!(
                    "body {}: {nv} render vertices for {} particles; tear status version {}, \
                     topology version {version}",
                    b.id, info.particle_count, status.version
                ),
            );
        }
    }

    /// What sinew_cloth_read_topology wrote for cloth `b`.
    pub(crate) fn check_read_topology(
        &mut self,
        b: SinewBody,
        info: &SinewBodyInfo,
        tris: &[u32],
        particles: &[u32],
        sources: Option<&[u32]>,
        n: u32,
    ) {
        let nv = particles.len() as u32;
        if let Some(k) = tris.iter().position(|&t| t >= nv) {
            self.violation(
                Check::TopologyTriangle,
                format!(
                    "body {}: triangle {} names vertex {} of {nv}",
                    b.id,
                    k / 3,
                    tris[k]
                ),
            );
        }
        let own = |i: usize| (i as u32) < info.particle_count;
        if let Some(i) = (0..particles.len()).find(|&i| {
            particles[i] >= n || (own(i) && particles[i] != info.first_particle + i as u32)
        }) {
            self.violation(
                Check::TopologyParticle,
                format!(
                    "body {}: vertex {i} is particle {} (body {}+{}, world {n})",
                    b.id, particles[i], info.first_particle, info.particle_count
                ),
            );
        }
        if let Some(s) = sources {
            if let Some(i) =
                (0..s.len()).find(|&i| s[i] >= info.particle_count || (own(i) && s[i] != i as u32))
            {
                self.violation(
                    Check::TopologySource,
                    format!(
                        "body {}: vertex {i} descends from {} of {}",
                        b.id, s[i], info.particle_count
                    ),
                );
            }
        }
    }

    /// A fluid's ranges and counters (nothing when `f` is not live).
    /// A collider's contact wrench and, for a dynamic one, its motion: finite.
    fn check_collider(&mut self, w: SinewWorld, c: SinewCollider) {
        let (mut f, mut t) = (SinewVec3::default(), SinewVec3::default());
        // SAFETY: live locals; NULL `about`.
        let st = unsafe { sinew_collider_contact_wrench(w, c, std::ptr::null(), &mut f, &mut t) };
        if st == SINEW_OK && !all_finite(&[f, t]) {
            self.violation(Check::ContactImpulse, format!("wrench {f:?} {t:?}"));
        }
        let mut m = SinewColliderMotion::default();
        // SAFETY: a live local.
        let st = unsafe { sinew_collider_read_motion(w, c, &mut m) };
        let v = [
            m.velocity,
            m.angular_velocity,
            m.velocity_change,
            m.angular_velocity_change,
        ];
        if st == SINEW_OK && !all_finite(&v) {
            self.violation(Check::ContactImpulse, format!("motion {m:?}"));
        }
    }

    fn check_fluid(&mut self, w: SinewWorld, f: SinewFluid, n: u32) {
        let mut stats = SinewFluidStats::default();
        let (mut first, mut cap) = (0u32, 0u32);
        // SAFETY: live locals.
        unsafe {
            if sinew_fluid_stats(w, f, &mut stats) != SINEW_OK
                || sinew_fluid_particle_range(w, f, &mut first, &mut cap) != SINEW_OK
            {
                return;
            }
        }
        self.check_fluid_stats(f, &stats, first, cap, n);
    }

    pub(crate) fn check_fluid_stats(
        &mut self,
        f: SinewFluid,
        s: &SinewFluidStats,
        first: u32,
        cap: u32,
        n: u32,
    ) {
        if first as u64 + cap as u64 > n as u64 || s.count > s.capacity || s.capacity != cap {
            self.violation(
                Check::FluidRange,
                format!(
                    "fluid {}: {} live of capacity {} (range {first}+{cap}, world {n})",
                    f.id, s.count, s.capacity
                ),
            );
        }
        if s.emitted.wrapping_sub(s.removed) != s.count as u64 {
            self.violation(
                Check::FluidCounters,
                format!(
                    "fluid {}: {} live, {} emitted, {} removed",
                    f.id, s.count, s.emitted, s.removed
                ),
            );
        }
        let (mean, max) = (s.mean_density_ratio, s.max_density_ratio);
        if !finite_non_negative(mean) || !finite_non_negative(max) || mean > max * (1.0 + 1e-5) {
            self.violation(
                Check::FluidDensity,
                format!("fluid {}: density ratio mean {mean}, max {max}", f.id),
            );
        }
    }

    /// Particles `first..first+count` of `what` inside a world of `n`.
    pub(crate) fn check_inside(
        &mut self,
        check: Check,
        what: &str,
        first: u32,
        count: u32,
        n: u32,
    ) {
        if first as u64 + count as u64 > n as u64 {
            self.violation(check, format!("{what}: particles {first}+{count} of {n}"));
        }
    }

    /// Force readbacks (|λ|/h²) of `what`.
    pub(crate) fn check_forces(&mut self, what: &str, forces: &[f32]) {
        if let Some(k) = forces.iter().position(|&x| !finite_non_negative(x)) {
            self.violation(Check::Force, format!("{what} {k}: force {}", forces[k]));
        }
    }

    pub(crate) fn check_break_events(
        &mut self,
        events: &[SinewBreakEvent],
        capacity: u32,
        written: u32,
    ) {
        if written > capacity {
            self.violation(
                Check::BreakEvent,
                format!("{written} events written, capacity {capacity}"),
            );
            return;
        }
        for (k, e) in events.iter().take(written as usize).enumerate() {
            let p = e.position;
            let placed = p.x.is_finite() && p.y.is_finite() && p.z.is_finite();
            if e.family > LAST_FAMILY || !finite_non_negative(e.force) || !placed {
                self.violation(
                    Check::BreakEvent,
                    format!(
                        "event {k}: family {}, id {}, force {}, at {:?}",
                        e.family, e.id, e.force, e.position
                    ),
                );
            }
        }
    }

    pub(crate) fn check_pick(&mut self, particle: u32, t: f32, n: u32) {
        let miss = particle == u32::MAX && t == -1.0;
        if !(miss || (particle < n && finite_non_negative(t))) {
            self.violation(
                Check::Pick,
                format!("picked particle {particle} of {n} at t = {t}"),
            );
        }
    }

    /// A volume or area: a number (infinite only where the true value overflows f32).
    pub(crate) fn check_measure(&mut self, what: &str, value: f32) {
        if value.is_nan() {
            self.violation(Check::Measure, format!("{what} {value}"));
        }
    }
}

/// The checks that synthetic outputs, each outside its documented range in one way,
/// trip (and nothing for the same outputs in range): proof that the checks are live.
pub fn range_checks_self_test() -> (Vec<Check>, Vec<(Check, String)>) {
    let mut src = SplitMix(0);
    let mut s = Session::new(&mut src);
    let v = |x, y, z| SinewVec3 { x, y, z };
    let b = SinewBody { id: 1 };
    let info = SinewBodyInfo {
        kind: 1,
        first_particle: 2,
        particle_count: 3,
        radius: 0.0,
        damping: 0.0,
    };
    let stats = |count, emitted, mean| SinewFluidStats {
        count,
        capacity: 4,
        emitted,
        removed: 1,
        refused: 0,
        mean_density_ratio: mean,
        max_density_ratio: 1.0,
    };
    let contact = |particle, impulse, normal| SinewContact {
        collider: SinewCollider { id: 1 },
        particle,
        impulse,
        normal,
        ..SinewContact::default()
    };
    let event = |family, force| SinewBreakEvent {
        family,
        force,
        ..SinewBreakEvent::default()
    };
    let dead = SinewWorld { id: 0 };
    // In range: nothing may be flagged.
    s.check_contacts(&[contact(4, 0.0, v(0.0, 1.0, 0.0))], 4, 1, 1, 5);
    s.check_winch(dead, b, 0.0, -2.0, 0);
    s.check_read_topology(
        b,
        &info,
        &[0, 1, 2, 2, 1, 3],
        &[2, 3, 4, 9],
        Some(&[0, 1, 2, 1]),
        10,
    );
    s.check_body_info(b, &info, 2, 3, 5);
    s.check_fluid_stats(SinewFluid { id: 1 }, &stats(4, 5, 0.5), 1, 4, 5);
    s.check_forces("force", &[0.0, 1e30]);
    s.check_break_events(&[event(14, 0.0)], 1, 1);
    s.check_pick(4, 0.0, 5);
    s.check_pick(u32::MAX, -1.0, 5);
    s.check_measure("volume", f32::INFINITY);
    let false_alarms = std::mem::take(&mut s.pending);
    // Out of range, one way each.
    s.check_contacts(&[contact(0, 1.0, v(1.0, 0.0, 0.0))], 4, 2, 1, 5);
    s.check_contacts(&[contact(5, -1e-7, v(0.0, 0.9, 0.0))], 4, 1, 1, 5);
    s.check_winch(dead, b, -6e-8, f32::NAN, 0);
    s.check_read_topology(
        b,
        &info,
        &[0, 1, 4],
        &[2, 3, 5, 10],
        Some(&[0, 1, 2, 3]),
        10,
    );
    s.check_body_info(b, &info, 2, 3, 4);
    s.check_fluid_stats(SinewFluid { id: 1 }, &stats(5, 9, 2.0), 1, 4, 5);
    s.check_forces("force", &[-0.0, f32::NAN]);
    s.check_break_events(&[event(15, 0.0)], 1, 1);
    let nowhere = SinewBreakEvent {
        position: v(f32::NAN, 0.0, 0.0),
        ..event(0, 1.0)
    };
    let before = s.pending.len();
    s.check_break_events(&[nowhere], 1, 1);
    assert_eq!(s.pending.len(), before + 1, "a NaN break position passed");
    s.check_pick(5, 0.0, 5);
    s.check_measure("volume", f32::NAN);
    let mut seen: Vec<Check> = s.pending.drain(..).map(|(c, _)| c).collect();
    seen.sort();
    seen.dedup();
    drop(s);
    (seen, false_alarms)
}
