//! The API-sequence fuzzer's calls: collision, picking and grabbing, constraint families.

use super::*;
use sinew::ffi::sdf::sinew_world_add_sdf_collider;

impl Session<'_> {
    /// Calls `name` on world `w` with generated arguments; `None` when `name` is not
    /// one of this file's functions.
    pub(crate) fn call_collision(
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
                // ---- collision ----------------------------------------------------
                "sinew_world_add_collider"
                | "sinew_world_add_mesh_collider"
                | "sinew_world_add_heightfield_collider"
                | "sinew_world_add_sdf_collider" => {
                    let mut d = Output::<SinewColliderDesc>::sized(1, false);
                    assert_eq!(sinew_collider_desc_init(d.ptr()), SINEW_OK);
                    let mut d = d.get(0);
                    d.shape = if self.g.pct(95) {
                        self.g.below(5) as u32
                    } else {
                        5 + self.g.below(9) as u32
                    };
                    d.position = self.g.vec3(3.0);
                    d.rotation = self.g.quat();
                    if self.g.pct(40) {
                        match self.g.below(7) {
                            0 => d.radius = self.g.float(0.0, 1.0),
                            1 => d.half_height = self.g.float(0.0, 1.0),
                            2 => d.half_extents = self.g.vec3(1.0),
                            3 => d.static_friction = self.g.float(0.0, 1.0),
                            4 => d.dynamic_friction = self.g.float(0.0, 1.0),
                            5 => d.restitution = self.g.float(0.0, 1.0),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let mut o = self.out1::<SinewCollider>();
                    let st = if name == "sinew_world_add_collider" {
                        sinew_world_add_collider(w, &d, o.ptr())
                    } else if name == "sinew_world_add_sdf_collider" {
                        // Mostly valid small grids of random distances; now and then
                        // one node along X (refused; the buffer still holds what the
                        // call may read) or a non-finite distance or cell.
                        let dims = [0; 3].map(|_| 2 + self.g.below(3) as u32);
                        let nodes = (dims[0] * dims[1] * dims[2]) as usize;
                        let mut dist: Vec<f32> =
                            (0..nodes).map(|_| self.g.float(-0.5, 0.5)).collect();
                        if self.g.pct(5) {
                            dist[0] = f32::NAN;
                        }
                        let nx = if self.g.pct(5) { 1 } else { dims[0] };
                        let cell = if self.g.pct(5) {
                            f32::INFINITY
                        } else {
                            self.g.float(0.0, 0.5)
                        };
                        let origin = self.g.vec3(1.0);
                        let dist = Input::new(&mut self.g, dist);
                        sinew_world_add_sdf_collider(
                            w,
                            &d,
                            nx,
                            dims[1],
                            dims[2],
                            cell,
                            &origin,
                            dist.ptr(),
                            o.ptr(),
                        )
                    } else if name == "sinew_world_add_heightfield_collider" {
                        // Mostly valid grids; now and then a grid one column wide
                        // (the call must refuse it; the buffers still hold what it
                        // may read: a size larger than the buffers would be the
                        // caller breaking the contract, which no call can detect) or a
                        // flag other than 0 / 1.
                        let (cols, rows) = (2 + self.g.below(4) as u32, 2 + self.g.below(4) as u32);
                        let heights: Vec<f32> =
                            (0..cols * rows).map(|_| self.g.float(-0.5, 0.5)).collect();
                        let mut holes: Vec<u8> = (0..(cols - 1) * (rows - 1))
                            .map(|_| self.g.pct(20) as u8)
                            .collect();
                        if self.g.pct(5) {
                            holes[0] = 2;
                        }
                        let asked = if self.g.pct(5) { 1 } else { cols };
                        let cell = self.g.float(0.0, 1.0);
                        let heights = Input::new(&mut self.g, heights);
                        let holes = Input::new(&mut self.g, holes);
                        let holes_ptr = if self.g.pct(50) {
                            std::ptr::null()
                        } else {
                            holes.ptr()
                        };
                        sinew_world_add_heightfield_collider(
                            w,
                            &d,
                            asked,
                            rows,
                            cell,
                            cell,
                            heights.ptr(),
                            holes_ptr,
                            o.ptr(),
                        )
                    } else {
                        let verts = octa(0.5 + self.g.unit(), SinewVec3::default());
                        let mut tris = OCTA_TRIS.to_vec();
                        if self.g.pct(10) {
                            let k = self.g.below(tris.len() as u64) as usize;
                            tris[k] = self.g.index(6);
                        }
                        let tc = (tris.len() / 3) as u32;
                        let verts = Input::new(&mut self.g, verts);
                        let tris = Input::new(&mut self.g, tris);
                        sinew_world_add_mesh_collider(
                            w,
                            &d,
                            verts.ptr(),
                            6,
                            tris.ptr(),
                            tc,
                            o.ptr(),
                        )
                    };
                    if st == SINEW_OK {
                        let c = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].colliders.push(c);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_collider_remove" => {
                    let c = self.collider(s);
                    Outcome::new(sinew_collider_remove(w, c), true)
                }
                "sinew_collider_set_transform" => {
                    let c = self.collider(s);
                    let p = self.g.vec3(3.0);
                    let q = self.g.quat();
                    let pp: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &p };
                    let qp: *const SinewQuat = if self.g.pct(3) { std::ptr::null() } else { &q };
                    let teleport = self.g.below(3) as u32;
                    Outcome::new(sinew_collider_set_transform(w, c, pp, qp, teleport), true)
                }
                "sinew_collider_set_material" => {
                    let c = self.collider(s);
                    let (a, b, r) = (
                        self.g.float(0.0, 1.0),
                        self.g.float(0.0, 1.0),
                        self.g.float(0.0, 1.0),
                    );
                    Outcome::new(sinew_collider_set_material(w, c, a, b, r), true)
                }
                "sinew_world_collider_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(sinew_world_collider_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_set_particle_radii" | "sinew_world_set_unyielding" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let v = self.floats(c, 0.0, 0.1);
                    let st = if name == "sinew_world_set_particle_radii" {
                        sinew_world_set_particle_radii(w, first, c, v.ptr())
                    } else {
                        sinew_world_set_unyielding(w, first, c, v.ptr())
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_set_collision_filters" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let f: Vec<SinewCollisionFilter> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| SinewCollisionFilter {
                            group: self.g.below(4) as u32,
                            layers: self.g.u64() as u32,
                            mask: self.g.u64() as u32,
                            self_collision: self.g.below(3) as u32,
                        })
                        .collect();
                    let f = Input::new(&mut self.g, f);
                    Outcome::new(
                        sinew_world_set_collision_filters(w, first, c, f.ptr()),
                        true,
                    )
                }
                "sinew_world_set_max_speed" => {
                    let v = self.g.float(0.0, 100.0);
                    Outcome::new(sinew_world_set_max_speed(w, v), true)
                }
                "sinew_world_contact_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(sinew_world_contact_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_read_contacts" => {
                    let cap = self.g.below(64) as u32;
                    let mut o = Output::<SinewContact>::new(&mut self.g, cap as usize);
                    let mut oc = self.out1::<u32>();
                    let mut count = 0u32;
                    sinew_world_contact_count(w, &mut count);
                    let st = sinew_world_read_contacts(w, o.ptr(), cap, oc.ptr());
                    if st == SINEW_OK && !o.null && !oc.null {
                        let written = oc.get(0);
                        let got: Vec<SinewContact> =
                            (0..written.min(cap) as usize).map(|k| o.get(k)).collect();
                        self.check_contacts(&got, cap, count, written, n);
                    }
                    ok_or(st, o.untouched() && oc.untouched())
                }
                "sinew_collider_contact_wrench" => {
                    let c = self.collider(s);
                    let about = self.g.vec3(3.0);
                    let about_ptr = if self.g.pct(50) {
                        std::ptr::null()
                    } else {
                        &about as *const SinewVec3
                    };
                    let mut f = self.out1::<SinewVec3>();
                    let mut t = self.out1::<SinewVec3>();
                    let st = sinew_collider_contact_wrench(w, c, about_ptr, f.ptr(), t.ptr());
                    if st == SINEW_OK && !f.null && !t.null {
                        let (f, t) = (f.get(0), t.get(0));
                        if !super::ranges::all_finite(&[f, t]) {
                            self.violation(Check::ContactImpulse, format!("wrench {f:?} {t:?}"));
                        }
                    }
                    ok_or(st, f.untouched() && t.untouched())
                }
                "sinew_collider_set_dynamics" => {
                    let c = self.collider(s);
                    let m = if self.g.pct(90) {
                        self.g.float(0.05, 50.0)
                    } else {
                        self.g.float(-1.0, 1.0)
                    };
                    let i = self.g.float(0.01, 5.0);
                    let mut d = SinewColliderDynamics {
                        mass: m,
                        inertia: SinewVec3 { x: i, y: i, z: i },
                        inertia_rotation: self.g.quat(),
                        center_of_mass: self.g.vec3(0.2),
                        velocity: self.g.vec3(2.0),
                        angular_velocity: self.g.vec3(2.0),
                        gravity: self.g.below(2) as u32,
                    };
                    if self.g.pct(10) {
                        match self.g.below(3) {
                            0 => d.inertia.y = self.g.float(-1.0, 0.0),
                            1 => d.gravity = 2 + self.g.below(9) as u32,
                            _ => d.velocity.x = f32::NAN,
                        }
                    }
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_collider_set_dynamics(w, c, d.ptr()), true)
                }
                "sinew_collider_clear_dynamics" => {
                    let c = self.collider(s);
                    Outcome::new(sinew_collider_clear_dynamics(w, c), true)
                }
                "sinew_collider_read_motion" => {
                    let c = self.collider(s);
                    let mut o = self.out1::<SinewColliderMotion>();
                    let st = sinew_collider_read_motion(w, c, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let m = o.get(0);
                        let v = [
                            m.velocity,
                            m.angular_velocity,
                            m.velocity_change,
                            m.angular_velocity_change,
                        ];
                        if !super::ranges::all_finite(&v) {
                            self.violation(Check::ContactImpulse, format!("motion {m:?}"));
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_collider_pin_particles" => {
                    let c = self.collider(s);
                    let count = self.array_count(3);
                    let p = self.tuples(n, 1, count);
                    let offsets: Vec<SinewVec3> = (0..(count as usize).min(MAX_BUF))
                        .map(|_| self.g.vec3(0.5))
                        .collect();
                    let offsets = Input::new(&mut self.g, offsets);
                    let compliance = if self.g.pct(90) {
                        self.g.float(0.0, 1e-3)
                    } else {
                        -1.0
                    };
                    let mut o = self.out1::<u32>();
                    let st = sinew_collider_pin_particles(
                        w,
                        c,
                        p.ptr(),
                        offsets.ptr(),
                        count,
                        compliance,
                        o.ptr(),
                    );
                    ok_or(st, o.untouched())
                }
                "sinew_world_remove_pins" => {
                    let first = self.g.index(8);
                    let count = self.g.count(4);
                    Outcome::new(sinew_world_remove_pins(w, first, count), true)
                }
                "sinew_world_read_pin_forces" => {
                    let first = self.g.index(8);
                    let c = self.g.count(4).min(MAX_BUF as u32);
                    let mut o = Output::<SinewVec3>::new(&mut self.g, c as usize);
                    let st = sinew_world_read_pin_forces(w, first, c, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let f: Vec<f32> = (0..c as usize).map(|k| o.get(k).x.abs()).collect();
                        self.check_forces("pin", &f);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_contact_events" => {
                    let on = if self.g.pct(95) {
                        self.g.below(2) as u32
                    } else {
                        2 + self.g.below(9) as u32
                    };
                    Outcome::new(sinew_world_set_contact_events(w, on), true)
                }
                "sinew_world_contact_event_count" => {
                    let mut o = self.out1::<u32>();
                    let st = sinew_world_contact_event_count(w, o.ptr());
                    if st == SINEW_OK && !o.null && o.get(0) > SINEW_MAX_CONTACT_EVENTS {
                        let c = o.get(0);
                        self.violation(Check::ContactCount, format!("{c} contact events waiting"));
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_take_contact_events" => {
                    let cap = self.g.count(8).min(MAX_BUF as u32);
                    let mut o = Output::<SinewContactEvent>::new(&mut self.g, cap as usize);
                    let mut taken = self.out1::<u32>();
                    let mut lost = self.out1::<u64>();
                    let st =
                        sinew_world_take_contact_events(w, o.ptr(), cap, taken.ptr(), lost.ptr());
                    if st == SINEW_OK && !taken.null && !o.null {
                        let k = taken.get(0);
                        for j in 0..k.min(cap) as usize {
                            let e = o.get(j);
                            if e.kind > 2 || e.impulse.is_nan() || e.impulse < 0.0 {
                                self.violation(Check::ContactImpulse, format!("event {j}: {e:?}"));
                            }
                        }
                        if k > cap {
                            self.violation(Check::ContactCount, format!("{k} events of {cap}"));
                        }
                    }
                    ok_or(st, o.untouched() && taken.untouched() && lost.untouched())
                }
                "sinew_world_pick_particle" => {
                    let origin = self.g.vec3(3.0);
                    let dir = self.g.vec3(1.0);
                    let r = self.g.float(0.0, 0.5);
                    let mut o1 = self.out1::<u32>();
                    let mut o2 = self.out1::<f32>();
                    let st = sinew_world_pick_particle(w, &origin, &dir, r, o1.ptr(), o2.ptr());
                    if st == SINEW_OK && !o1.null && !o2.null && !o1.untouched() {
                        let (p, t) = (o1.get(0), o2.get(0));
                        self.check_pick(p, t, n);
                    }
                    // Not found is OK with the outputs untouched (documented).
                    ok_or(st, o1.untouched() && o2.untouched())
                }
                "sinew_world_grab_particle" | "sinew_world_move_grab" => {
                    let p = self.g.index(n);
                    let t = self.g.vec3(3.0);
                    let tp: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &t };
                    let st = if name == "sinew_world_grab_particle" {
                        let c = self.g.compliance();
                        sinew_world_grab_particle(w, p, tp, c)
                    } else {
                        sinew_world_move_grab(w, p, tp)
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_release_particle" => {
                    let p = self.g.index(n);
                    Outcome::new(sinew_world_release_particle(w, p), true)
                }
                // ---- constraints --------------------------------------------------
                "sinew_world_add_distance_constraints"
                | "sinew_world_add_pbd_distance_constraints"
                | "sinew_world_add_tethers" => {
                    let c = self.array_count(8);
                    let pairs = self.tuples(n, 2, c);
                    let rest = if name == "sinew_world_add_tethers" {
                        self.floats(c, 0.0, 2.0)
                    } else {
                        self.opt_floats(c, 0.0, 2.0)
                    };
                    let k = if name == "sinew_world_add_pbd_distance_constraints" {
                        self.g.float(0.0, 1.0)
                    } else {
                        self.g.compliance()
                    };
                    let mut o = self.out1::<u32>();
                    let st = match name {
                        "sinew_world_add_distance_constraints" => {
                            sinew_world_add_distance_constraints(
                                w,
                                pairs.ptr(),
                                rest.ptr(),
                                c,
                                k,
                                o.ptr(),
                            )
                        }
                        "sinew_world_add_pbd_distance_constraints" => {
                            sinew_world_add_pbd_distance_constraints(
                                w,
                                pairs.ptr(),
                                rest.ptr(),
                                c,
                                k,
                                o.ptr(),
                            )
                        }
                        _ => sinew_world_add_tethers(w, pairs.ptr(), rest.ptr(), c, k, o.ptr()),
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_distance_constraint_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_distance_constraint_count(w, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_read_constraint_forces" => {
                    let mut m = 0;
                    sinew_world_distance_constraint_count(w, &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(16));
                    let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    let st = sinew_world_read_constraint_forces(w, first, c, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let f: Vec<f32> = (0..c as usize).map(|k| o.get(k)).collect();
                        self.check_forces("distance constraint", &f);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_family_constraint_count" => {
                    let f = self.g.index(15);
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_family_constraint_count(w, f, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_read_family_forces" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(16));
                    let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    let st = sinew_world_read_family_forces(w, f, first, c, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let v: Vec<f32> = (0..c as usize).map(|k| o.get(k)).collect();
                        self.check_forces(&format!("family {f} constraint"), &v);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_dihedral_bending" | "sinew_world_add_isometric_bending" => {
                    let c = self.array_count(4);
                    let h = self.tuples(n, 4, c);
                    let k = self.g.compliance();
                    let mut o = self.out1::<u32>();
                    let st = if name == "sinew_world_add_dihedral_bending" {
                        let rest = self.opt_floats(c, -3.0, 3.0);
                        sinew_world_add_dihedral_bending(w, h.ptr(), rest.ptr(), c, k, o.ptr())
                    } else {
                        sinew_world_add_isometric_bending(w, h.ptr(), c, k, o.ptr())
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_tet_volume_constraints" | "sinew_world_add_unilateral_volumes" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 4, c);
                    let rest = self.opt_floats(c, 0.0, 0.1);
                    let k = self.g.compliance();
                    let mut o = self.out1::<u32>();
                    let st = if name == "sinew_world_add_tet_volume_constraints" {
                        sinew_world_add_tet_volume_constraints(
                            w,
                            t.ptr(),
                            rest.ptr(),
                            c,
                            k,
                            o.ptr(),
                        )
                    } else {
                        sinew_world_add_unilateral_volumes(w, t.ptr(), rest.ptr(), c, k, o.ptr())
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_unilateral_areas" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 3, c);
                    let rest = self.opt_floats(c, 0.0, 0.1);
                    let k = self.g.compliance();
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_add_unilateral_areas(w, t.ptr(), rest.ptr(), c, k, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_add_pressure_volume" => {
                    // Usually the closed surface of a fresh octahedron of particles.
                    let tris: Vec<u32> = if n >= 6 && self.g.pct(70) {
                        let base = self.g.below(n as u64 - 5) as u32;
                        OCTA_TRIS.iter().map(|&i| i + base).collect()
                    } else {
                        let c = self.g.below(8) as u32 + 1;
                        self.tuples(n, 3, c).values
                    };
                    let tc = (tris.len() / 3) as u32;
                    let tris = Input::new(&mut self.g, tris);
                    let p = self.g.float(0.0, 100.0);
                    let k = self.g.compliance();
                    let mut o = self.out1::<u32>();
                    let st = sinew_world_add_pressure_volume(w, tris.ptr(), tc, p, k, o.ptr());
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            self.live[i].pressure_ids += 1;
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_pressure_volume" => {
                    let id = self.g.index(s.pressure_ids);
                    let mut o = self.out1::<f32>();
                    let st = sinew_world_pressure_volume(w, id, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let v = o.get(0);
                        self.check_measure("pressure volume", v);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_triangle_strain" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 3, c);
                    let (a, b, sh) = (
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                    );
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_add_triangle_strain(w, t.ptr(), c, a, b, sh, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_add_tet_strain" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 4, c);
                    let (a, b, z, sh) = (
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                    );
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_add_tet_strain(w, t.ptr(), c, a, b, z, sh, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_set_planar" => {
                    let e = self.g.below(3) as u32;
                    let z = self.g.float(-1.0, 1.0);
                    Outcome::new(sinew_world_set_planar(w, e, z), true)
                }
                "sinew_world_add_ring_area" | "sinew_world_add_shape_cluster" => {
                    let c = self.array_count(8);
                    let p = self.tuples(n, 1, c);
                    let mut o = self.out1::<u32>();
                    let st = if name == "sinew_world_add_ring_area" {
                        let (pr, k) = (self.g.float(0.0, 10.0), self.g.compliance());
                        sinew_world_add_ring_area(w, p.ptr(), c, pr, k, o.ptr())
                    } else {
                        let (k, y, cr) = (
                            self.g.float(0.0, 1.0),
                            self.g.float(0.0, 1.0),
                            self.g.float(0.0, 1.0),
                        );
                        sinew_world_add_shape_cluster(w, p.ptr(), c, k, y, cr, o.ptr())
                    };
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            if name == "sinew_world_add_ring_area" {
                                self.live[i].ring_ids += 1;
                            } else {
                                self.live[i].cluster_ids += 1;
                            }
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_ring_area" => {
                    let id = self.g.index(s.ring_ids);
                    let mut o = self.out1::<f32>();
                    let st = sinew_world_ring_area(w, id, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let v = o.get(0);
                        self.check_measure("ring area", v);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_shape_cluster_stiffness" => {
                    let id = self.g.index(s.cluster_ids);
                    let k = self.g.float(0.0, 1.0);
                    Outcome::new(sinew_world_set_shape_cluster_stiffness(w, id, k), true)
                }
                _ => return None,
            })
        }
    }
}
