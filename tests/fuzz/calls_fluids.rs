//! The API-sequence fuzzer's calls: attachments, fluids, wind and aerodynamics, skinned targets.

use super::*;

impl Session<'_> {
    /// Calls `name` on world `w` with generated arguments; `None` when `name` is not
    /// one of this file's functions.
    pub(crate) fn call_fluids(
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
                // ---- attachments --------------------------------------------------
                "sinew_world_add_attachment_host" | "sinew_world_set_attachment_host_transform" => {
                    let t = SinewTransform {
                        position: self.g.vec3(3.0),
                        rotation: self.g.quat(),
                    };
                    let tp: *const SinewTransform =
                        if self.g.pct(3) { std::ptr::null() } else { &t };
                    if name == "sinew_world_add_attachment_host" {
                        let mut o = self.out1::<u32>();
                        let st = sinew_world_add_attachment_host(w, tp, o.ptr());
                        if st == SINEW_OK {
                            if let Some(i) = wi {
                                self.live[i].hosts += 1;
                            }
                        }
                        ok_or(st, o.untouched())
                    } else {
                        let h = self.g.index(s.hosts);
                        Outcome::new(sinew_world_set_attachment_host_transform(w, h, tp), true)
                    }
                }
                "sinew_world_add_attachments" => {
                    let h = self.g.index(s.hosts);
                    let c = self.array_count(6);
                    let p = self.tuples(n, 1, c);
                    let off: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| self.g.vec3(0.5))
                        .collect();
                    let off = Input::new(&mut self.g, off);
                    let k = self.g.compliance();
                    let mut o = self.out1::<u32>();
                    let st = sinew_world_add_attachments(w, h, p.ptr(), off.ptr(), c, k, o.ptr());
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            self.live[i].attachments += c;
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_attachment_compliance" => {
                    let first = self.g.index(s.attachments);
                    let c = s.attachments.saturating_sub(first).min(self.g.count(8));
                    let k = self.g.compliance();
                    Outcome::new(sinew_world_set_attachment_compliance(w, first, c, k), true)
                }
                "sinew_world_read_attachment_forces" => {
                    let first = self.g.index(s.attachments);
                    let c = s.attachments.saturating_sub(first).min(self.g.count(8));
                    let mut o = Output::<SinewVec3>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    let st = sinew_world_read_attachment_forces(w, first, c, o.ptr());
                    if st == SINEW_OK && !o.null {
                        // Components may be of either sign: their size must be finite.
                        let f: Vec<f32> = (0..c as usize)
                            .map(|k| o.get(k))
                            .map(|v| v.x.abs().max(v.y.abs()).max(v.z.abs()))
                            .collect();
                        self.check_forces("attachment", &f);
                    }
                    ok_or(st, o.untouched())
                }
                // ---- fluids ---------------------------------------------------------
                "sinew_fluid_desc_default" => {
                    let _ = sinew_fluid_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_fluid_desc_init" => {
                    let mut o = self.out1::<SinewFluidDesc>();
                    ok_or(sinew_fluid_desc_init(o.ptr()), o.untouched())
                }
                "sinew_emitter_desc_default" => {
                    let _ = sinew_emitter_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_emitter_desc_init" => {
                    let mut o = self.out1::<SinewEmitterDesc>();
                    ok_or(sinew_emitter_desc_init(o.ptr()), o.untouched())
                }
                "sinew_kill_volume_desc_default" => {
                    let _ = sinew_kill_volume_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_kill_volume_desc_init" => {
                    let mut o = self.out1::<SinewKillVolumeDesc>();
                    ok_or(sinew_kill_volume_desc_init(o.ptr()), o.untouched())
                }
                "sinew_world_add_fluid" => {
                    let d = self.desc_fluid();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = self.out1::<SinewFluid>();
                    let st = sinew_world_add_fluid(w, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let f = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].fluids.push(f);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_remove" => {
                    let f = self.fluid(s);
                    Outcome::new(sinew_fluid_remove(w, f), true)
                }
                "sinew_world_fluid_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(sinew_world_fluid_count(w, o.ptr()), o.untouched())
                }
                "sinew_fluid_get_desc" => {
                    let f = self.fluid(s);
                    let mut o = self.out1::<SinewFluidDesc>();
                    let st = sinew_fluid_get_desc(w, f, o.ptr());
                    if st == SINEW_OK && self.g.pct(50) {
                        // Feed it straight back, sometimes retuned.
                        let mut d = o.get(0);
                        d.viscosity = self.g.float(0.0, 1.0);
                        d.cohesion = if self.g.pct(50) {
                            0.0
                        } else {
                            self.g.float(0.0, 5.0)
                        };
                        let back = sinew_fluid_set_desc(w, f, &d);
                        if back == SINEW_ERROR_INTERNAL {
                            return Some(Outcome::new(back, true));
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_set_desc" => {
                    let f = self.fluid(s);
                    let d = self.desc_fluid();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_fluid_set_desc(w, f, d.ptr()), true)
                }
                "sinew_fluid_particle_range" => {
                    let f = self.fluid(s);
                    let mut a = self.out1::<u32>();
                    let mut b = self.out1::<u32>();
                    let st = sinew_fluid_particle_range(w, f, a.ptr(), b.ptr());
                    if st == SINEW_OK && !a.null && !b.null {
                        let (first, cap) = (a.get(0), b.get(0));
                        let what = format!("fluid {}", f.id);
                        self.check_inside(Check::FluidRange, &what, first, cap, n);
                    }
                    ok_or(st, a.untouched() && b.untouched())
                }
                "sinew_fluid_stats" => {
                    let f = self.fluid(s);
                    let mut o = self.out1::<SinewFluidStats>();
                    let st = sinew_fluid_stats(w, f, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let stats = o.get(0);
                        let (mut first, mut cap) = (0u32, 0u32);
                        sinew_fluid_particle_range(w, f, &mut first, &mut cap);
                        self.check_fluid_stats(f, &stats, first, cap, n);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_emit" => {
                    let f = self.fluid(s);
                    let count = self.g.count(40);
                    let len = (count as usize).min(MAX_BUF);
                    let centre = self.g.vec3(2.0);
                    let spacing = 0.02 + 0.1 * self.g.unit();
                    let mut p: Vec<SinewVec3> = (0..len)
                        .map(|k| SinewVec3 {
                            x: centre.x + spacing * (k % 4) as f32,
                            y: centre.y + spacing * ((k / 4) % 4) as f32,
                            z: centre.z + spacing * (k / 16) as f32,
                        })
                        .collect();
                    if len > 0 && self.g.pct(5) {
                        let k = self.g.below(len as u64) as usize;
                        p[k] = self.g.vec3(3e9);
                    }
                    let v: Vec<SinewVec3> = (0..len).map(|_| self.g.vec3(5.0)).collect();
                    let p = Input::new(&mut self.g, p);
                    let v = if self.g.pct(40) {
                        None
                    } else {
                        Some(Input::new(&mut self.g, v))
                    };
                    let vp = v.as_ref().map_or(std::ptr::null(), |v| v.ptr());
                    // The library reads `count` positions whenever their pointer is
                    // valid (velocities NULL means at rest, not an error), so the count
                    // then stays within the buffers; with a NULL or misaligned positions
                    // pointer any count must be refused before a read.
                    let count = if p.is_valid() {
                        count.min(len as u32)
                    } else {
                        count
                    };
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_fluid_emit(w, f, p.ptr(), vp, count, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_fluid_clear" => {
                    let f = self.fluid(s);
                    Outcome::new(sinew_fluid_clear(w, f), true)
                }
                "sinew_fluid_add_emitter" => {
                    let f = self.fluid(s);
                    let d = self.desc_emitter();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = self.out1::<SinewEmitter>();
                    let st = sinew_fluid_add_emitter(w, f, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let e = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].emitters.push(e);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_emitter_set" => {
                    let e = self.emitter(s);
                    let d = self.desc_emitter();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_emitter_set(w, e, d.ptr()), true)
                }
                "sinew_emitter_remove" => {
                    let e = self.emitter(s);
                    Outcome::new(sinew_emitter_remove(w, e), true)
                }
                "sinew_fluid_add_kill_volume" => {
                    let f = self.fluid(s);
                    let d = self.desc_kill_volume();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = self.out1::<SinewKillVolume>();
                    let st = sinew_fluid_add_kill_volume(w, f, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let k = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].volumes.push(k);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_kill_volume_remove" => {
                    let k = self.kill_volume(s);
                    Outcome::new(sinew_kill_volume_remove(w, k), true)
                }
                "sinew_fluid_read_particles" => {
                    let f = self.fluid(s);
                    let live = Self::fluid_live(w, f);
                    let capacity = match self.g.below(100) {
                        0..=79 => live + self.g.below(3) as u32,
                        80..=89 => live.saturating_sub(1),
                        _ => self.g.below(MAX_BUF as u64) as u32,
                    }
                    .min(MAX_BUF as u32);
                    let alpha = if self.g.pct(90) {
                        self.g.unit()
                    } else {
                        self.g.float(-1.0, 2.0)
                    };
                    let (mut pb, ps, pn) = self.readback_buffer(capacity, 12);
                    let (mut vb, vs, vn) = self.readback_buffer(capacity, 12);
                    let (mut db, ds, dn) = self.readback_buffer(capacity, 4);
                    let ptr = |b: &mut Vec<u8>, null: bool| -> *mut c_void {
                        if null {
                            std::ptr::null_mut()
                        } else {
                            b.as_mut_ptr().cast()
                        }
                    };
                    let (pp, vp, dp) = (ptr(&mut pb, pn), ptr(&mut vb, vn), ptr(&mut db, dn));
                    let mut o = self.out1::<u32>();
                    let st = sinew_fluid_read_particles(
                        w,
                        f,
                        alpha,
                        capacity,
                        pp,
                        ps,
                        vp,
                        vs,
                        dp,
                        ds,
                        o.ptr(),
                    );
                    if st == SINEW_OK && !o.null {
                        let live = o.get(0);
                        if !(pn && vn && dn) && live > capacity {
                            self.violation(
                                Check::ReadbackCount,
                                format!(
                                    "fluid {}: {live} particles read, capacity {capacity}",
                                    f.id
                                ),
                            );
                        }
                        if !dn && (4..=1 << 20).contains(&ds) {
                            let dens: Vec<f32> = (0..live.min(capacity) as usize)
                                .map(|k| {
                                    let at = k * ds as usize;
                                    f32::from_ne_bytes(db[at..at + 4].try_into().unwrap())
                                })
                                .collect();
                            if let Some(k) = dens.iter().position(|&x| !(x.is_finite() && x >= 0.0))
                            {
                                self.violation(
                                    Check::FluidDensity,
                                    format!(
                                        "fluid {}: particle {k} density ratio {}",
                                        f.id, dens[k]
                                    ),
                                );
                            }
                        }
                    }
                    let untouched = [&pb, &vb, &db]
                        .iter()
                        .all(|b| b.iter().all(|&x| x == SENTINEL))
                        && o.untouched();
                    ok_or(st, untouched)
                }
                "sinew_body_set_fluid_coupling" => {
                    let b = self.body(s);
                    let on = if self.g.pct(95) {
                        self.g.below(2) as u32
                    } else {
                        2 + self.g.below(10) as u32
                    };
                    Outcome::new(sinew_body_set_fluid_coupling(w, b, on), true)
                }
                "sinew_body_fluid_force" => {
                    let b = self.body(s);
                    let mut o = self.out1::<SinewVec3>();
                    ok_or(sinew_body_fluid_force(w, b, o.ptr()), o.untouched())
                }
                // ---- wind and aerodynamics ------------------------------------------
                "sinew_wind_desc_default" => {
                    let _ = sinew_wind_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_wind_desc_init" => {
                    let mut o = self.out1::<SinewWindDesc>();
                    ok_or(sinew_wind_desc_init(o.ptr()), o.untouched())
                }
                "sinew_wind_zone_desc_default" => {
                    let _ = sinew_wind_zone_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_wind_zone_desc_init" => {
                    let mut o = self.out1::<SinewWindZoneDesc>();
                    ok_or(sinew_wind_zone_desc_init(o.ptr()), o.untouched())
                }
                "sinew_world_set_wind" => {
                    let d = self.desc_wind();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_world_set_wind(w, d.ptr()), true)
                }
                "sinew_world_add_wind_zone" => {
                    let d = self.desc_wind_zone();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = self.out1::<u32>();
                    ok_or(
                        sinew_world_add_wind_zone(w, d.ptr(), o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_set_wind_zone" => {
                    let zone = self.g.index(4);
                    let d = self.desc_wind_zone();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_world_set_wind_zone(w, zone, d.ptr()), true)
                }
                "sinew_world_remove_wind_zone" => {
                    let zone = self.g.index(4);
                    Outcome::new(sinew_world_remove_wind_zone(w, zone), true)
                }
                "sinew_world_wind_at" => {
                    let p = self.g.vec3(5.0);
                    let p = Input::new(&mut self.g, vec![p]);
                    let mut o = self.out1::<SinewVec3>();
                    ok_or(sinew_world_wind_at(w, p.ptr(), o.ptr()), o.untouched())
                }
                "sinew_body_set_aerodynamics" => {
                    let b = self.body(s);
                    let drag = self.g.float(0.0, 10.0);
                    let lift = if self.g.pct(50) {
                        0.0
                    } else {
                        self.g.float(0.0, 10.0)
                    };
                    Outcome::new(sinew_body_set_aerodynamics(w, b, drag, lift), true)
                }
                // ---- skinned targets ------------------------------------------------
                "sinew_body_set_skin_weights" => {
                    let b = self.body(s);
                    let count = self.skin_count(w, b);
                    let v: Vec<SinewSkinWeights> = (0..count.min(MAX_BUF as u32))
                        .map(|_| SinewSkinWeights {
                            max_distance: self.g.float(-1.0, 1.0),
                            backstop_radius: self.g.float(0.0, 1.0),
                            backstop_distance: self.g.float(0.0, 0.2),
                            drive_compliance: if self.g.pct(50) {
                                -1.0
                            } else {
                                self.g.compliance()
                            },
                        })
                        .collect();
                    let v = Input::new(&mut self.g, v);
                    Outcome::new(sinew_body_set_skin_weights(w, b, v.ptr(), count), true)
                }
                "sinew_body_set_skin_targets" => {
                    let b = self.body(s);
                    let count = self.skin_count(w, b);
                    let (mut first, mut have) = (0u32, 0u32);
                    sinew_body_particle_range(w, b, &mut first, &mut have);
                    let scale = self.g.float(0.0, 2.0);
                    let mut p = vec![self.g.vec3(1.0); count.min(MAX_BUF as u32) as usize];
                    if have == count && count as usize <= MAX_BUF {
                        // Near the current positions, sometimes far away.
                        let mut cur = vec![v3z(); count as usize];
                        sinew_world_read_positions(w, first, count, cur.as_mut_ptr().cast(), 12);
                        for (q, c) in p.iter_mut().zip(&cur) {
                            let d = self.g.vec3(scale);
                            *q = SinewVec3 {
                                x: c.x + d.x,
                                y: c.y + d.y,
                                z: c.z + d.z,
                            };
                        }
                    }
                    let n: Vec<SinewVec3> = (0..p.len()).map(|_| self.g.vec3(1.0)).collect();
                    let stride = stride_for(&mut self.g, count);
                    let mode = if self.g.pct(95) { 0 } else { 1 };
                    let pb = strided_copy(&p, stride);
                    let pn = if self.g.pct(30) {
                        None
                    } else {
                        Some(strided_copy(&n, 12))
                    };
                    let pp = if mode == 1 {
                        std::ptr::null()
                    } else {
                        pb.as_ptr().cast()
                    };
                    let np = pn.as_ref().map_or(std::ptr::null(), |v| v.as_ptr().cast());
                    let st = if strided_len(count, stride) > pb.len() && mode == 0 {
                        // The buffer is shorter than the count promises: pass a count
                        // the call must refuse before reading.
                        sinew_body_set_skin_targets(w, b, pp, stride, np, 12, (1 << 28) + 1)
                    } else {
                        sinew_body_set_skin_targets(w, b, pp, stride, np, 12, count)
                    };
                    Outcome::new(st, true)
                }
                "sinew_body_set_skin_root" => {
                    let b = self.body(s);
                    let t = SinewTransform {
                        position: self.g.vec3(2.0),
                        rotation: self.g.quat(),
                    };
                    let t = Input::new(&mut self.g, vec![t]);
                    let fl = self.g.float(0.0, 1.0);
                    let fa = self.g.float(0.0, 1.0);
                    Outcome::new(sinew_body_set_skin_root(w, b, t.ptr(), fl, fa), true)
                }
                "sinew_body_teleport_to_skin" => {
                    let b = self.body(s);
                    Outcome::new(sinew_body_teleport_to_skin(w, b), true)
                }
                _ => return None,
            })
        }
    }
}
