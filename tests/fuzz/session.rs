//! The API-sequence fuzzer's session: the live and destroyed worlds, the objects in
//! them, one random call at a time and the checks of its outcome.

use super::*;

// ---------------------------------------------------------------------------------
// The session: worlds and the objects in them
// ---------------------------------------------------------------------------------

/// Largest world the harness keeps (particles): a bigger one is destroyed and replaced,
/// so that digests and steps stay cheap.
pub(crate) const MAX_WORLD_PARTICLES: u32 = 3000;

#[derive(Default)]
pub(crate) struct WorldState {
    pub(crate) handle: SinewWorld,
    pub(crate) bodies: Vec<SinewBody>,
    pub(crate) colliders: Vec<SinewCollider>,
    pub(crate) hosts: u32,
    pub(crate) attachments: u32,
    pub(crate) pressure_ids: u32,
    pub(crate) ring_ids: u32,
    pub(crate) cluster_ids: u32,
    pub(crate) fluids: Vec<SinewFluid>,
    pub(crate) emitters: Vec<SinewEmitter>,
    pub(crate) volumes: Vec<SinewKillVolume>,
    pub(crate) grain_emitters: Vec<sinew::ffi::granular::SinewGrainEmitter>,
    pub(crate) history: Vec<String>,
    /// The world's state came from a snapshot the harness damaged and resealed (or
    /// from a snapshot of such a world): its findings are filed under their own kinds.
    pub(crate) forged: bool,
}

impl WorldState {
    /// Adds another world's handles to those the harness tries on this one (after a
    /// restore of that world's snapshot).
    pub(crate) fn adopt(&mut self, from: &WorldState) {
        self.bodies.extend(&from.bodies);
        self.colliders.extend(&from.colliders);
        self.fluids.extend(&from.fluids);
        self.emitters.extend(&from.emitters);
        self.volumes.extend(&from.volumes);
        self.grain_emitters.extend(&from.grain_emitters);
        self.hosts = self.hosts.max(from.hosts);
        self.attachments = self.attachments.max(from.attachments);
        self.pressure_ids = self.pressure_ids.max(from.pressure_ids);
        self.ring_ids = self.ring_ids.max(from.ring_ids);
        self.cluster_ids = self.cluster_ids.max(from.cluster_ids);
    }
}

pub(crate) struct Session<'a> {
    pub(crate) g: Gen<'a>,
    pub(crate) live: Vec<WorldState>,
    pub(crate) dead: Vec<SinewWorld>,
    pub(crate) report: Report,
    /// Outputs of the current call found out of their documented range.
    pub(crate) pending: Vec<(Check, String)>,
    /// What the current call's history entry adds to its name (how a snapshot was
    /// damaged), for reproductions.
    pub(crate) note: String,
}

impl<'a> Session<'a> {
    /// An output of one T (NULL sometimes).
    pub(crate) fn out1<T: Copy>(&mut self) -> Output<T> {
        Output::new(&mut self.g, 1)
    }

    pub(crate) fn new(src: &'a mut dyn Source) -> Self {
        Session {
            g: Gen { src },
            live: Vec::new(),
            dead: Vec::new(),
            report: Report::default(),
            pending: Vec::new(),
            note: String::new(),
        }
    }

    /// The library refused (`st`) a snapshot it saved, passed back as it was.
    pub(crate) fn own_snapshot_refused(
        &mut self,
        function: &'static str,
        st: SinewStatus,
        w: Option<usize>,
        source: Option<usize>,
    ) {
        let from = source
            .and_then(|k| self.live.get(k))
            .map(|s| s.history.join(", "))
            .unwrap_or_default();
        let m = format!(
            "status {}: {} {}; the saving world's calls: {from}",
            st as i32,
            last_error(),
            self.note
        );
        self.find(Kind::OwnSnapshotRefused, function, m, w);
    }

    pub(crate) fn find(
        &mut self,
        kind: Kind,
        function: &'static str,
        detail: String,
        w: Option<usize>,
    ) {
        *self.report.counts.entry(kind).or_default() += 1;
        if self
            .report
            .findings
            .iter()
            .filter(|f| f.kind == kind)
            .count()
            < 3
        {
            let history = w
                .and_then(|i| self.live.get(i))
                .map(|s| s.history.clone())
                .unwrap_or_default();
            self.report.findings.push(Finding {
                kind,
                function,
                detail,
                history,
            });
        }
    }

    /// A world handle for the next call: usually a live one (its index returned),
    /// sometimes null, destroyed or forged.
    pub(crate) fn pick_world(&mut self) -> (SinewWorld, Option<usize>) {
        let r = self.g.below(100);
        if !self.live.is_empty() && r < 90 {
            let i = self.g.below(self.live.len() as u64) as usize;
            return (self.live[i].handle, Some(i));
        }
        let w = match r % 3 {
            0 => SinewWorld { id: 0 },
            1 if !self.dead.is_empty() => self.dead[self.g.below(self.dead.len() as u64) as usize],
            _ => SinewWorld { id: self.g.u64() },
        };
        // A forged id may match a live world by chance: then it is that world.
        let idx = self.live.iter().position(|s| s.handle == w);
        (w, idx)
    }

    pub(crate) fn particle_count(w: SinewWorld) -> u32 {
        let mut n = 0;
        // SAFETY: a live local.
        unsafe { sinew_world_particle_count(w, &mut n) };
        n
    }

    pub(crate) fn create_world(&mut self) -> Outcome {
        let mut desc = sinew_world_desc_default();
        let g = &mut self.g;
        desc.threads = [1, 1, 2, 0][g.below(4) as usize];
        desc.substeps = [1, 2, 4, 8][g.below(4) as usize];
        desc.solver = g.below(2) as u32;
        if g.pct(10) {
            desc.gravity = g.vec3(20.0);
        }
        if g.pct(8) {
            match g.below(7) {
                0 => desc.substeps = [0, 1025, u32::MAX][g.below(3) as usize],
                1 => desc.iterations = [0, 1025, 1024, 3][g.below(4) as usize],
                2 => desc.solver = 2 + g.below(10) as u32,
                3 => desc.jacobi_relaxation = g.float(0.0, 2.0),
                4 => desc.damping = g.float(0.0, 10.0),
                5 => desc.internal_cookie ^= 1 + g.below(1000) as u32,
                _ => desc.threads = [3, 64, u32::MAX][g.below(3) as usize],
            }
        }
        if desc.threads > 2 || desc.iterations > 8 || desc.substeps > 8 {
            // Keep the run bounded: only the refusal of these is interesting.
            if desc.substeps <= 1024 && desc.iterations <= 1024 && desc.threads <= 64 {
                desc.iterations = desc.iterations.min(8);
                desc.substeps = desc.substeps.min(8);
                desc.threads = desc.threads.min(2);
            }
        }
        let via_init = self.g.pct(30);
        if via_init {
            let mut d2 = Output::<SinewWorldDesc>::sized(1, false);
            // SAFETY: one writable desc.
            let st = unsafe { sinew_world_desc_init(d2.ptr()) };
            self.report.called.insert("sinew_world_desc_init");
            if st == SINEW_OK && d2.get(0) != sinew_world_desc_default() {
                self.find(
                    Kind::OutputTouchedOnFailure,
                    "sinew_world_desc_init",
                    "desc_init and desc_default differ".into(),
                    None,
                );
            }
        }
        let null_desc = self.g.pct(2);
        let mut out = Output::<SinewWorld>::new(&mut self.g, 1);
        let dp: *const SinewWorldDesc = if null_desc { std::ptr::null() } else { &desc };
        // SAFETY: NULL or a live desc; NULL or one writable handle.
        let st = unsafe { sinew_world_create(dp, out.ptr()) };
        if st == SINEW_OK {
            let w = out.get(0);
            self.live.push(WorldState {
                handle: w,
                ..Default::default()
            });
        }
        Outcome::new(st, st == SINEW_OK || out.untouched())
    }

    /// Runs one random call and checks it.
    pub(crate) fn one(&mut self) {
        if self.live.is_empty() || (self.live.len() < 3 && self.g.pct(2)) {
            let o = self.create_world();
            self.record("sinew_world_create", o, None, None);
            return;
        }
        let which = self.g.below(FUNCTIONS.len() as u64 + 12) as usize;
        // Extra weight on stepping and adding particles.
        let name = if which >= FUNCTIONS.len() {
            if which % 2 == 0 {
                "sinew_world_step"
            } else {
                "sinew_world_add_particles"
            }
        } else {
            FUNCTIONS[which]
        };
        if name == "sinew_world_create" {
            let o = self.create_world();
            self.record(name, o, None, None);
            return;
        }
        let (w, wi) = self.pick_world();
        let before = wi.and_then(|_| digest(w));
        let started = Instant::now();
        let o = self.call(name, w, wi);
        if name == "sinew_world_step" && o.status == SINEW_OK {
            self.report.steps += 1;
            let n = before.as_ref().map_or(0, |d| d.counts[0]);
            self.report
                .step_cost
                .push(started.elapsed().as_secs_f64() / (n as f64 + 1.0));
        }
        self.record(name, o, wi, before);
    }

    /// Checks a call's outcome against the contract.
    pub(crate) fn record(
        &mut self,
        name: &'static str,
        o: Outcome,
        wi: Option<usize>,
        before: Option<Digest>,
    ) {
        self.report.calls += 1;
        self.report.called.insert(name);
        let out_of_range = std::mem::take(&mut self.pending);
        let note = std::mem::take(&mut self.note);
        let forged = wi.and_then(|i| self.live.get(i)).is_some_and(|s| s.forged);
        let code = o.status as i32;
        // SINEW_ERROR_NON_FINITE is documented for the step alone: the step ran, some
        // bodies met NaN or infinity and were put back where they were, at rest (the
        // world did change, and every particle must be finite afterwards).
        // sinew_world_advance runs steps and reports theirs.
        let non_finite_step = o.status == SINEW_ERROR_NON_FINITE
            && (name == "sinew_world_step" || name == "sinew_world_advance");
        if !(0..=6).contains(&code) && !non_finite_step {
            self.find(Kind::UndocumentedStatus, name, format!("status {code}"), wi);
            return;
        }
        if o.status == SINEW_ERROR_INTERNAL {
            let at = PANIC_AT.with(|p| std::mem::take(&mut *p.borrow_mut()));
            let m = format!("{} (at {at})", last_error());
            let kind = if forged {
                Kind::InternalAfterForgedSnapshot
            } else if m.contains("overflow") {
                Kind::InternalArithmeticOverflow
            } else {
                Kind::Internal
            };
            self.find(kind, name, m, wi);
            // A panic may stop a call half-way: that is the finding, not what it left.
            return;
        }
        if o.status != SINEW_OK {
            if !o.outputs_untouched {
                self.find(
                    Kind::OutputTouchedOnFailure,
                    name,
                    format!("{:?}", o.status),
                    wi,
                );
            }
            let m = last_error();
            if !m.starts_with(name) || m.len() <= name.len() + 2 {
                self.find(Kind::BadErrorMessage, name, m, wi);
            }
        } else {
            self.report.ok_calls += 1;
        }
        let Some(i) = wi else { return };
        if name == "sinew_world_destroy" && o.status == SINEW_OK {
            let s = self.live.swap_remove(i);
            self.dead.push(s.handle);
            return;
        }
        let w = self.live[i].handle;
        let after = digest(w);
        if o.status != SINEW_OK && !non_finite_step {
            if let (Some(b), Some(a)) = (&before, &after) {
                if a != b {
                    let what = if a.counts != b.counts {
                        format!("counts {:?} -> {:?}", b.counts, a.counts)
                    } else {
                        "positions or velocities changed".into()
                    };
                    self.find(
                        Kind::WorldChangedOnFailure,
                        name,
                        format!("{:?}: {what}", o.status),
                        wi,
                    );
                }
            }
            return;
        }
        let s = &mut self.live[i];
        s.history.push(format!("{name}{note}"));
        if s.history.len() > 12 {
            s.history.remove(0);
        }
        let bad = after.as_ref().and_then(|a| a.first_non_finite());
        let was_bad = before.as_ref().and_then(|b| b.first_non_finite());
        if let (Some((p, what)), None) = (bad, was_bad) {
            let kind = if name == "sinew_world_step" {
                Kind::NonFiniteAfterStep
            } else {
                Kind::NonFiniteAfterAccepted
            };
            self.find(kind, name, format!("particle {p}: non-finite {what}"), wi);
        }
        if o.status == SINEW_OK {
            self.file(out_of_range, name, wi);
            if Self::sweeps_after(name) {
                self.sweep(i, name);
            }
        }
        if bad.is_some() || after.is_some_and(|a| a.counts[0] > MAX_WORLD_PARTICLES) {
            // Start afresh: a broken or oversized world says nothing more.
            let s = self.live.swap_remove(i);
            assert_eq!(sinew_world_destroy(s.handle), SINEW_OK);
            self.dead.push(s.handle);
        }
    }

    pub(crate) fn state(&mut self, wi: Option<usize>) -> WorldState {
        wi.map(|i| WorldState {
            handle: self.live[i].handle,
            bodies: self.live[i].bodies.clone(),
            colliders: self.live[i].colliders.clone(),
            hosts: self.live[i].hosts,
            attachments: self.live[i].attachments,
            pressure_ids: self.live[i].pressure_ids,
            ring_ids: self.live[i].ring_ids,
            cluster_ids: self.live[i].cluster_ids,
            fluids: self.live[i].fluids.clone(),
            emitters: self.live[i].emitters.clone(),
            volumes: self.live[i].volumes.clone(),
            grain_emitters: self.live[i].grain_emitters.clone(),
            history: Vec::new(),
            forged: self.live[i].forged,
        })
        .unwrap_or_default()
    }

    pub(crate) fn body(&mut self, s: &WorldState) -> SinewBody {
        if !s.bodies.is_empty() && self.g.pct(90) {
            s.bodies[self.g.below(s.bodies.len() as u64) as usize]
        } else {
            SinewBody {
                id: [0, self.g.u64(), 1, 1 << 32 | 1][self.g.below(4) as usize],
            }
        }
    }

    pub(crate) fn collider(&mut self, s: &WorldState) -> SinewCollider {
        if !s.colliders.is_empty() && self.g.pct(90) {
            s.colliders[self.g.below(s.colliders.len() as u64) as usize]
        } else {
            SinewCollider {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    /// `k`-tuples of particle indices (`count` of them) below `n`, sometimes not.
    pub(crate) fn tuples(&mut self, n: u32, k: usize, count: u32) -> Input<u32> {
        let len = (count as usize).min(MAX_BUF) * k;
        let mut v = Vec::with_capacity(len);
        let distinct = self.g.pct(85);
        for _ in 0..(count as usize).min(MAX_BUF) {
            if distinct && n as usize >= k {
                let start = self.g.below(n as u64) as u32;
                let step = 1 + self.g.below((n as u64 / k as u64).max(1)) as u32;
                for j in 0..k as u32 {
                    v.push((start + j * step) % n);
                }
            } else {
                for _ in 0..k {
                    v.push(self.g.index(n));
                }
            }
        }
        Input::new(&mut self.g, v)
    }

    pub(crate) fn floats(&mut self, count: u32, lo: f32, hi: f32) -> Input<f32> {
        let v = (0..(count as usize).min(MAX_BUF))
            .map(|_| self.g.float(lo, hi))
            .collect();
        Input::new(&mut self.g, v)
    }

    /// An optional float array: NULL (meaning "default") a third of the time.
    pub(crate) fn opt_floats(&mut self, count: u32, lo: f32, hi: f32) -> Input<f32> {
        if self.g.pct(33) {
            Input::with_mode(Vec::new(), 1)
        } else {
            self.floats(count, lo, hi)
        }
    }

    /// Count for an array argument whose buffer holds `min(count, MAX_BUF)` elements:
    /// a count above MAX_BUF is only passed where the call must refuse it before
    /// reading (above the largest batch, or above what the world holds).
    pub(crate) fn array_count(&mut self, typical: u32) -> u32 {
        let c = self.g.count(typical);
        if c as usize > MAX_BUF && c <= 1 << 28 {
            // Between MAX_BUF and the batch limit the call could accept it and read: a
            // lie about the buffer. Use the refused limit instead.
            (1 << 28) + 1
        } else {
            c
        }
    }

    pub(crate) fn call(&mut self, name: &'static str, w: SinewWorld, wi: Option<usize>) -> Outcome {
        let s = self.state(wi);
        let n = Self::particle_count(w);
        if let Some(o) = self.call_world(name, w, wi, &s, n) {
            return o;
        }
        if let Some(o) = self.call_bodies(name, w, wi, &s, n) {
            return o;
        }
        if let Some(o) = self.call_collision(name, w, wi, &s, n) {
            return o;
        }
        if let Some(o) = self.call_render(name, w, &s) {
            return o;
        }
        if let Some(o) = self.call_granular(name, w, wi, &s, n) {
            return o;
        }
        if let Some(o) = self.call_meshes(name) {
            return o;
        }
        match self.call_fluids(name, w, wi, &s, n) {
            Some(o) => o,
            None => panic!("the harness has no generator for {name}"),
        }
    }

    pub(crate) fn push_body(&mut self, wi: Option<usize>, b: SinewBody) {
        if let Some(i) = wi {
            self.live[i].bodies.push(b);
        }
    }

    /// A small triangulated sheet (2..4 x 2..4 vertices), sometimes with a mangled
    /// index.
    pub(crate) fn small_sheet(&mut self) -> (Vec<SinewVec3>, Vec<u32>) {
        let (nu, nv) = (2 + self.g.below(3) as u32, 2 + self.g.below(3) as u32);
        let at = self.g.vec3(2.0);
        let s = 0.05 + 0.2 * self.g.unit();
        let mut verts = Vec::new();
        for j in 0..nv {
            for i in 0..nu {
                verts.push(SinewVec3 {
                    x: at.x + s * i as f32,
                    y: at.y,
                    z: at.z + s * j as f32,
                });
            }
        }
        let mut tris = Vec::new();
        for j in 0..nv - 1 {
            for i in 0..nu - 1 {
                let a = j * nu + i;
                tris.extend([a, a + 1, a + nu, a + 1, a + nu + 1, a + nu]);
            }
        }
        if self.g.pct(10) {
            let k = self.g.below(tris.len() as u64) as usize;
            tris[k] = self.g.index(verts.len() as u32);
        }
        (verts, tris)
    }

    pub(crate) fn finish(mut self) -> Report {
        for s in self.live.drain(..) {
            assert_eq!(sinew_world_destroy(s.handle), SINEW_OK);
        }
        self.report
    }
}
