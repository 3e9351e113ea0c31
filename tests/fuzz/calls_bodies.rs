//! The API-sequence fuzzer's calls: bodies and in-place edits (breaking, winches, cuts, tearing).

use super::*;

impl Session<'_> {
    /// Calls `name` on world `w` with generated arguments; `None` when `name` is not
    /// one of this file's functions.
    pub(crate) fn call_bodies(
        &mut self,
        name: &'static str,
        w: SinewWorld,
        wi: Option<usize>,
        s: &WorldState,
        n: u32,
    ) -> Option<Outcome> {
        // SAFETY (every call below): each pointer is NULL, a misaligned copy the call
        // must refuse, or points to as many elements as the call is told (see `Input`,
        // `Output`, `array_count` and `strided_len`).
        unsafe {
            Some(match name {
                // ---- bodies -------------------------------------------------------
                "sinew_world_add_rope" | "sinew_world_add_rope_polyline" => {
                    let d = self.desc_rope();
                    let mut o = self.out1::<SinewBody>();
                    let dp: *const SinewRopeDesc =
                        if self.g.pct(2) { std::ptr::null() } else { &d };
                    let st = if name == "sinew_world_add_rope" {
                        sinew_world_add_rope(w, dp, o.ptr())
                    } else {
                        let c = self.array_count(12);
                        let pts: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                            .map(|_| self.g.vec3(2.0))
                            .collect();
                        let pts = Input::new(&mut self.g, pts);
                        sinew_world_add_rope_polyline(w, dp, pts.ptr(), c, o.ptr())
                    };
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_cloth_grid" => {
                    let d = self.desc_cloth();
                    let mut gd = sinew_cloth_grid_desc_default();
                    gd.origin = self.g.vec3(2.0);
                    gd.segments_u = if self.g.pct(95) {
                        1 + self.g.below(8) as u32
                    } else {
                        [0, 4097][self.g.below(2) as usize]
                    };
                    gd.segments_v = if self.g.pct(95) {
                        1 + self.g.below(8) as u32
                    } else {
                        [0, 4097][self.g.below(2) as usize]
                    };
                    gd.pin_corners = self.g.below(16) as u32;
                    if self.g.pct(20) {
                        match self.g.below(4) {
                            0 => gd.u = self.g.vec3(2.0),
                            1 => gd.v = self.g.vec3(2.0),
                            2 => gd.total_mass = self.g.float(0.0, 5.0),
                            _ => gd.internal_cookie ^= 1,
                        }
                    }
                    let mut o = self.out1::<SinewBody>();
                    let st = sinew_world_add_cloth_grid(w, &d, &gd, o.ptr());
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_cloth_mesh" => {
                    let d = self.desc_cloth();
                    let (verts, tris) = self.small_sheet();
                    let vc = verts.len() as u32;
                    let tc = (tris.len() / 3) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tris = Input::new(&mut self.g, tris);
                    let inv = self.opt_floats(vc, 0.0, 4.0);
                    let mut o = self.out1::<SinewBody>();
                    let st = sinew_world_add_cloth_mesh(
                        w,
                        &d,
                        verts.ptr(),
                        vc,
                        tris.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_tet_body" => {
                    let mut d = sinew_tet_body_desc_default();
                    d.model = if self.g.pct(95) {
                        self.g.below(2) as u32
                    } else {
                        5
                    };
                    if self.g.pct(30) {
                        match self.g.below(5) {
                            0 => d.total_mass = self.g.float(0.0, 5.0),
                            1 => d.stretch_compliance = self.g.compliance(),
                            2 => d.shear_compliance = self.g.compliance(),
                            3 => d.volume_compliance = self.g.compliance(),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let at = self.g.vec3(2.0);
                    let s = 0.05 + self.g.unit() * 0.3;
                    // A cube of 5 tets (and sometimes a mangled index).
                    let mut verts = Vec::new();
                    for k in 0..8u32 {
                        verts.push(SinewVec3 {
                            x: at.x + s * (k & 1) as f32,
                            y: at.y + s * ((k >> 1) & 1) as f32,
                            z: at.z + s * ((k >> 2) & 1) as f32,
                        });
                    }
                    let mut tets = vec![
                        0u32, 1, 2, 4, 1, 3, 2, 7, 1, 4, 5, 7, 2, 4, 7, 6, 1, 2, 4, 7,
                    ];
                    if self.g.pct(10) {
                        let k = self.g.below(tets.len() as u64) as usize;
                        tets[k] = self.g.index(8);
                    }
                    let tc = (tets.len() / 4) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tets = Input::new(&mut self.g, tets);
                    let inv = self.opt_floats(8, 0.0, 4.0);
                    let mut o = self.out1::<SinewBody>();
                    let st = sinew_world_add_tet_body(
                        w,
                        &d,
                        verts.ptr(),
                        8,
                        tets.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_pressure_body" => {
                    let mut d = sinew_pressure_body_desc_default();
                    if self.g.pct(30) {
                        match self.g.below(5) {
                            0 => d.total_mass = self.g.float(0.0, 5.0),
                            1 => d.stretch_compliance = self.g.compliance(),
                            2 => d.pressure = self.g.float(0.0, 100.0),
                            3 => d.volume_compliance = self.g.compliance(),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let at = self.g.vec3(2.0);
                    let verts = octa(0.1 + self.g.unit() * 0.3, at);
                    let mut tris = OCTA_TRIS.to_vec();
                    if self.g.pct(10) {
                        tris.truncate(21); // open surface: refused
                    }
                    let tc = (tris.len() / 3) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tris = Input::new(&mut self.g, tris);
                    let inv = self.opt_floats(6, 0.0, 4.0);
                    let mut o = self.out1::<SinewBody>();
                    let st = sinew_world_add_pressure_body(
                        w,
                        &d,
                        verts.ptr(),
                        6,
                        tris.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_remove_body" => {
                    let b = self.body(s);
                    Outcome::new(sinew_world_remove_body(w, b), true)
                }
                "sinew_world_body_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(sinew_world_body_count(w, o.ptr()), o.untouched())
                }
                "sinew_body_particle_range" => {
                    let b = self.body(s);
                    let mut o1 = self.out1::<u32>();
                    let mut o2 = self.out1::<u32>();
                    let st = sinew_body_particle_range(w, b, o1.ptr(), o2.ptr());
                    if st == SINEW_OK && !o1.null && !o2.null {
                        let (first, count) = (o1.get(0), o2.get(0));
                        let what = format!("body {}", b.id);
                        self.check_inside(Check::BodyRange, &what, first, count, n);
                    }
                    ok_or(st, o1.untouched() && o2.untouched())
                }
                "sinew_body_info" => {
                    let b = self.body(s);
                    let mut o = self.out1::<SinewBodyInfo>();
                    let st = sinew_body_info(w, b, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let info = o.get(0);
                        let (mut first, mut count) = (0u32, 0u32);
                        sinew_body_particle_range(w, b, &mut first, &mut count);
                        self.check_body_info(b, &info, first, count, n);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_body_read_positions" => {
                    let b = self.body(s);
                    let cap = if self.g.pct(85) {
                        self.g.below(200) as u32
                    } else {
                        self.g.count(8)
                    };
                    let cap = if cap as usize > MAX_BUF {
                        MAX_BUF as u32
                    } else {
                        cap
                    };
                    let stride = stride_for(&mut self.g, cap);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(cap, stride));
                    let st = sinew_body_read_positions(w, b, o.ptr().cast(), cap, stride);
                    ok_or(st, o.untouched())
                }
                "sinew_body_set_compliance" => {
                    let b = self.body(s);
                    let which = if self.g.pct(95) {
                        self.g.below(5) as u32
                    } else {
                        5 + self.g.below(100) as u32
                    };
                    let c = self.g.compliance();
                    Outcome::new(sinew_body_set_compliance(w, b, which, c), true)
                }
                "sinew_body_is_asleep" => {
                    let b = self.body(s);
                    let mut o = self.out1::<u32>();
                    let st = sinew_body_is_asleep(w, b, o.ptr());
                    if st == SINEW_OK && o.get(0) > 1 {
                        self.violation(
                            Check::ReadbackCount,
                            format!("body {} asleep flag {}", b.id, o.get(0)),
                        );
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_body_wake" => {
                    let b = self.body(s);
                    Outcome::new(sinew_body_wake(w, b), true)
                }
                "sinew_body_sleep" => {
                    let b = self.body(s);
                    Outcome::new(sinew_body_sleep(w, b), true)
                }
                "sinew_body_set_damping" => {
                    let b = self.body(s);
                    let d = self.g.float(0.0, 5.0);
                    Outcome::new(sinew_body_set_damping(w, b, d), true)
                }
                "sinew_body_set_sim_mode" => {
                    let b = self.body(s);
                    let mode = if self.g.pct(95) {
                        self.g.below(3) as u32
                    } else {
                        3 + self.g.below(100) as u32
                    };
                    let every = self.g.below(12) as u32;
                    Outcome::new(sinew_body_set_sim_mode(w, b, mode, every), true)
                }
                "sinew_body_get_sim_mode" => {
                    let b = self.body(s);
                    let mut m = self.out1::<u32>();
                    let mut e = self.out1::<u32>();
                    let st = sinew_body_get_sim_mode(w, b, m.ptr(), e.ptr());
                    if st == SINEW_OK && !m.null && !e.null {
                        let (mode, every) = (m.get(0), e.get(0));
                        // A known SinewSimMode, a rate within 1..=SINEW_MAX_SUBSTEPS.
                        self.check_inside(Check::BodyRange, "sim mode", mode, 1, 3);
                        let rate = every.wrapping_sub(1);
                        self.check_inside(
                            Check::BodyRange,
                            "sim rate",
                            rate,
                            1,
                            sinew::MAX_SUBSTEPS,
                        );
                    }
                    ok_or(st, m.untouched() && e.untouched())
                }
                "sinew_body_set_pressure" => {
                    let b = self.body(s);
                    let p = self.g.float(0.0, 100.0);
                    Outcome::new(sinew_body_set_pressure(w, b, p), true)
                }
                "sinew_body_read_forces" => {
                    let b = self.body(s);
                    let which = if self.g.pct(95) {
                        self.g.below(4) as u32
                    } else {
                        4 + self.g.below(100) as u32
                    };
                    // The buffer always holds as many floats as the call is told.
                    let cap = self.g.count(64).min(MAX_BUF as u32);
                    let mut o = Output::<f32>::new(&mut self.g, cap as usize);
                    let mut size = self.out1::<u32>();
                    let st = sinew_body_read_forces(w, b, which, o.ptr(), cap, size.ptr());
                    if st == SINEW_OK && !size.null && !o.null && size.get(0) <= cap {
                        let f: Vec<f32> = (0..size.get(0) as usize).map(|k| o.get(k)).collect();
                        self.check_forces(&format!("body {} group {which} constraint", b.id), &f);
                    }
                    ok_or(st, o.untouched() && size.untouched())
                }
                // ---- in-place edits ----------------------------------------------
                "sinew_constraints_remove"
                | "sinew_constraints_set_compliance"
                | "sinew_constraints_set_stiffness" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = if self.g.pct(90) {
                        m.saturating_sub(first).min(self.g.count(8))
                    } else {
                        self.g.count(8)
                    };
                    let st = match name {
                        "sinew_constraints_remove" => sinew_constraints_remove(w, f, first, c),
                        "sinew_constraints_set_compliance" => {
                            let k = self.g.compliance();
                            sinew_constraints_set_compliance(w, f, first, c, k)
                        }
                        _ => {
                            let k = self.g.float(0.0, 1.0);
                            sinew_constraints_set_stiffness(w, f, first, c, k)
                        }
                    };
                    Outcome::new(st, true)
                }
                "sinew_constraints_is_removed" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let id = self.g.index(m);
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_constraints_is_removed(w, f, id, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_constraints_set_rest" | "sinew_constraints_read_rest" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    // Never more than the buffer holds: the call may accept the count.
                    let c = m
                        .saturating_sub(first)
                        .min(self.g.count(8))
                        .min(MAX_BUF as u32);
                    if name == "sinew_constraints_set_rest" {
                        let v = self.floats(c, 0.0, 2.0);
                        Outcome::new(sinew_constraints_set_rest(w, f, first, c, v.ptr()), true)
                    } else {
                        let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                        ok_or(
                            sinew_constraints_read_rest(w, f, first, c, o.ptr()),
                            o.untouched(),
                        )
                    }
                }
                "sinew_body_set_rest_scale" => {
                    let b = self.body(s);
                    let k = self.g.float(0.5, 1.5);
                    Outcome::new(sinew_body_set_rest_scale(w, b, k), true)
                }
                "sinew_body_set_mass" => {
                    let b = self.body(s);
                    let k = self.g.float(0.1, 10.0);
                    Outcome::new(sinew_body_set_mass(w, b, k), true)
                }
                "sinew_constraints_set_break_force" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(8));
                    let k = self.g.float(0.0, 50.0);
                    Outcome::new(sinew_constraints_set_break_force(w, f, first, c, k), true)
                }
                "sinew_body_set_break_force" => {
                    let b = self.body(s);
                    let k = self.g.float(0.0, 50.0);
                    Outcome::new(sinew_body_set_break_force(w, b, k), true)
                }
                "sinew_world_break_event_count" => {
                    let mut o = self.out1::<u32>();
                    let st = sinew_world_break_event_count(w, o.ptr());
                    if st == SINEW_OK && !o.null && o.get(0) > SINEW_MAX_BREAK_EVENTS {
                        let c = o.get(0);
                        self.violation(Check::BreakEvent, format!("{c} events waiting"));
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_take_break_events" => {
                    let cap = self.g.count(8).min(MAX_BUF as u32);
                    let mut o = Output::<SinewBreakEvent>::new(&mut self.g, cap as usize);
                    let mut taken = self.out1::<u32>();
                    let mut lost = self.out1::<u64>();
                    let st =
                        sinew_world_take_break_events(w, o.ptr(), cap, taken.ptr(), lost.ptr());
                    if st == SINEW_OK && !taken.null && !o.null {
                        let k = taken.get(0);
                        let got: Vec<SinewBreakEvent> =
                            (0..k.min(cap) as usize).map(|j| o.get(j)).collect();
                        self.check_break_events(&got, cap, k);
                    }
                    ok_or(st, o.untouched() && taken.untouched() && lost.untouched())
                }
                "sinew_body_add_winch" => {
                    let b = self.body(s);
                    let end = if self.g.pct(90) {
                        self.g.below(2) as u32
                    } else {
                        self.g.index(4)
                    };
                    let l = self.g.float(0.0, 2.0);
                    Outcome::new(sinew_body_add_winch(w, b, end, l), true)
                }
                "sinew_body_set_winch_speed" => {
                    let b = self.body(s);
                    let v = self.g.float(-2.0, 2.0);
                    Outcome::new(sinew_body_set_winch_speed(w, b, v), true)
                }
                "sinew_body_set_winch_target" => {
                    let b = self.body(s);
                    // Fully reeled in a fifth of the time (the edge of the range).
                    let l = if self.g.pct(20) {
                        0.0
                    } else {
                        self.g.float(0.0, 2.0)
                    };
                    let v = self.g.float(0.0, 2.0);
                    Outcome::new(sinew_body_set_winch_target(w, b, l, v), true)
                }
                "sinew_body_winch_state" => {
                    let b = self.body(s);
                    let (mut l, mut v, mut k) =
                        (self.out1::<f32>(), self.out1::<f32>(), self.out1::<u32>());
                    let st = sinew_body_winch_state(w, b, l.ptr(), v.ptr(), k.ptr());
                    if st == SINEW_OK && !l.null && !v.null && !k.null {
                        let (len, speed, link) = (l.get(0), v.get(0), k.get(0));
                        self.check_winch(w, b, len, speed, link);
                    }
                    ok_or(st, l.untouched() && v.untouched() && k.untouched())
                }
                "sinew_body_cut_rope" => {
                    let b = self.body(s);
                    let mut link = self.g.index(32);
                    let (mut l, mut v, mut at) = (0f32, 0f32, 0u32);
                    if self.g.pct(50)
                        && sinew_body_winch_state(w, b, &mut l, &mut v, &mut at) == SINEW_OK
                    {
                        // Edge-valid: at the winch's paying link or a link beside it,
                        // on the drum or just paid out.
                        let d = self.g.below(3) as u32;
                        link = if self.g.pct(50) {
                            at.saturating_sub(d)
                        } else {
                            at + d
                        };
                    }
                    Outcome::new(sinew_body_cut_rope(w, b, link), true)
                }
                "sinew_body_cut_rope_along" => {
                    let b = self.body(s);
                    let (a, c) = (self.g.vec3(3.0), self.g.vec3(3.0));
                    let ap: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &a };
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_body_cut_rope_along(w, b, ap, &c, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_body_set_tear_threshold" => {
                    let b = self.body(s);
                    let t = [0.0, 1.0, 1.2, 1.5, 3.0, f32::INFINITY, f32::NAN, -1.0]
                        [self.g.below(8) as usize];
                    let reserve =
                        [0, 0, 4, 16, SINEW_MAX_TEAR_RESERVE + 1][self.g.below(5) as usize];
                    Outcome::new(sinew_body_set_tear_threshold(w, b, t, reserve), true)
                }
                "sinew_cloth_tear_status" => {
                    let b = self.body(s);
                    let mut o = self.out1::<SinewTearStatus>();
                    ok_or(sinew_cloth_tear_status(w, b, o.ptr()), o.untouched())
                }
                "sinew_cloth_topology_version" => {
                    let b = self.body(s);
                    let mut o = self.out1::<u64>();
                    ok_or(sinew_cloth_topology_version(w, b, o.ptr()), o.untouched())
                }
                "sinew_cloth_topology_counts" => {
                    let b = self.body(s);
                    let (mut v, mut t) = (self.out1::<u32>(), self.out1::<u32>());
                    let st = sinew_cloth_topology_counts(w, b, v.ptr(), t.ptr());
                    ok_or(st, v.untouched() && t.untouched())
                }
                "sinew_cloth_read_topology" => {
                    let b = self.body(s);
                    let (mut nv, mut nt) = (0u32, 0u32);
                    sinew_cloth_topology_counts(w, b, &mut nv, &mut nt);
                    // Sometimes one short; never more than the buffers hold.
                    let short = self.g.pct(10) as u32;
                    let tc = nt.saturating_sub(short).min(MAX_BUF as u32 / 3);
                    let vc = nv.saturating_sub(short).min(MAX_BUF as u32);
                    let mut t = Output::<u32>::new(&mut self.g, 3 * tc as usize);
                    let mut v = Output::<u32>::new(&mut self.g, vc as usize);
                    let mut src = Output::<u32>::new(&mut self.g, vc as usize);
                    let sp = if self.g.pct(50) {
                        src.ptr()
                    } else {
                        std::ptr::null_mut()
                    };
                    let st = sinew_cloth_read_topology(w, b, t.ptr(), tc, v.ptr(), sp, vc);
                    if st == SINEW_OK && !t.null && !v.null && tc >= nt && vc >= nv {
                        let tris: Vec<u32> = (0..3 * nt as usize).map(|k| t.get(k)).collect();
                        let parts: Vec<u32> = (0..nv as usize).map(|k| v.get(k)).collect();
                        let srcs: Option<Vec<u32>> =
                            (!sp.is_null()).then(|| (0..nv as usize).map(|k| src.get(k)).collect());
                        let mut info = zero_info();
                        sinew_body_info(w, b, &mut info);
                        self.check_read_topology(b, &info, &tris, &parts, srcs.as_deref(), n);
                    }
                    ok_or(st, t.untouched() && v.untouched() && src.untouched())
                }
                "sinew_body_volume" => {
                    let b = self.body(s);
                    let mut o = self.out1::<f32>();
                    let st = sinew_body_volume(w, b, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let v = o.get(0);
                        let far = digest(w).map_or(0.0, |d| d.farthest());
                        self.check_measure(
                            &format!("body volume (farthest particle {far:e} m)"),
                            v,
                        );
                    }
                    ok_or(st, o.untouched())
                }
                _ => return None,
            })
        }
    }
}
