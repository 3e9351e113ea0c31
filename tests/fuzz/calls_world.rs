//! The API-sequence fuzzer's calls: versions, world lifecycle, stepping, interpolation, snapshots, descs, particles.

use super::*;

impl Session<'_> {
    /// Calls `name` on world `w` with generated arguments; `None` when `name` is not
    /// one of this file's functions.
    pub(crate) fn call_world(
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
                "sinew_abi_version" => {
                    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_version" => {
                    let v = CStr::from_ptr(sinew_version()).to_str().unwrap_or("");
                    let parts: Vec<_> = v.split('.').collect();
                    assert!(
                        parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
                        "sinew_version() = {v:?}"
                    );
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_last_error_message" => {
                    assert!(!sinew_last_error_message().is_null());
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_world_desc_default" => {
                    assert_eq!(sinew_world_desc_default(), sinew_world_desc_default());
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_world_desc_init" => {
                    let mut o = self.out1::<SinewWorldDesc>();
                    let st = sinew_world_desc_init(o.ptr());
                    ok_or(st, o.untouched())
                }
                "sinew_world_destroy" => Outcome::new(sinew_world_destroy(w), true),
                "sinew_world_step" => {
                    let dt = match self.g.below(10) {
                        0 => self.g.float(1e-6, 10.0),
                        1 => [1e-6, 0.1, 1.0 / 30.0][self.g.below(3) as usize],
                        _ => 1.0 / 60.0,
                    };
                    Outcome::new(sinew_world_step(w, dt), true)
                }
                // ---- fixed step and interpolation ---------------------------------
                "sinew_world_advance" => {
                    // Mostly a frame of 0..3 fixed steps, sometimes hostile values.
                    let fixed = if self.g.pct(85) {
                        [1.0 / 60.0, 1.0 / 50.0, 0.01][self.g.below(3) as usize]
                    } else {
                        self.g.float(1e-6, 0.1)
                    };
                    let frame = if self.g.pct(85) {
                        fixed * 3.0 * self.g.unit()
                    } else {
                        self.g.float(0.0, 0.1)
                    };
                    let max_steps = match self.g.below(20) {
                        0 => 0,
                        1 => SINEW_MAX_STEPS_PER_ADVANCE + 1,
                        2 => u32::MAX,
                        _ => 1 + self.g.below(4) as u32,
                    };
                    let mut steps = self.out1::<u32>();
                    let mut alpha = self.out1::<f32>();
                    let st =
                        sinew_world_advance(w, frame, fixed, max_steps, steps.ptr(), alpha.ptr());
                    if st == SINEW_OK {
                        let (k, a) = (steps.get(0), alpha.get(0));
                        assert!(k <= max_steps, "advance ran {k} steps, cap {max_steps}");
                        assert!((0.0..1.0).contains(&a), "advance alpha {a}");
                    }
                    Outcome::new(
                        st,
                        st == SINEW_OK || (steps.untouched() && alpha.untouched()),
                    )
                }
                "sinew_world_read_interpolated_positions" => {
                    let first = self.g.index(n);
                    let c = if self.g.pct(80) {
                        n.saturating_sub(first).min(self.g.count(n.max(1)))
                    } else {
                        self.g.count(8)
                    };
                    let alpha = self.g.float(0.0, 1.0);
                    let stride = stride_for(&mut self.g, c);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(c, stride));
                    let st = sinew_world_read_interpolated_positions(
                        w,
                        first,
                        c,
                        alpha,
                        o.ptr().cast(),
                        stride,
                    );
                    ok_or(st, o.untouched())
                }
                "sinew_body_read_interpolated_positions" => {
                    let b = self.body(s);
                    let cap = if self.g.pct(85) {
                        self.g.below(200) as u32
                    } else {
                        self.g.count(8)
                    };
                    let cap = cap.min(MAX_BUF as u32);
                    let alpha = self.g.float(0.0, 1.0);
                    let stride = stride_for(&mut self.g, cap);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(cap, stride));
                    let st = sinew_body_read_interpolated_positions(
                        w,
                        b,
                        alpha,
                        o.ptr().cast(),
                        cap,
                        stride,
                    );
                    ok_or(st, o.untouched())
                }
                // ---- snapshots ----------------------------------------------------
                "sinew_world_snapshot_size" => {
                    let mut o = self.out1::<u64>();
                    ok_or(sinew_world_snapshot_size(w, o.ptr()), o.untouched())
                }
                "sinew_world_state_hash" => {
                    let mut o = self.out1::<u64>();
                    let st = sinew_world_state_hash(w, o.ptr());
                    if st == SINEW_OK && !o.null {
                        // The hash is a function of the state: asked again, the same.
                        let mut again = 0u64;
                        assert_eq!(sinew_world_state_hash(w, &mut again), SINEW_OK);
                        assert_eq!(again, o.get(0), "the state hash changed by itself");
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_task_system" => {
                    let mut t = SinewTaskSystem {
                        worker_count: [1, 2, 4, 256][self.g.below(4) as usize],
                        enqueue: Some(fuzz_enqueue),
                        finish: Some(fuzz_finish),
                        user_context: if self.g.below(2) == 0 {
                            std::ptr::null_mut()
                        } else {
                            8usize as *mut c_void
                        },
                    };
                    match self.g.below(8) {
                        0 => t.worker_count = [0, 257, u32::MAX][self.g.below(3) as usize],
                        1 => t.enqueue = None,
                        2 => t.finish = None,
                        _ => {}
                    }
                    let p: *const SinewTaskSystem = match self.g.below(4) {
                        0 => std::ptr::null(),
                        _ => &t,
                    };
                    Outcome::new(sinew_world_set_task_system(w, p), true)
                }
                // ---- sleeping -------------------------------------------------------
                "sinew_world_set_sleeping" => {
                    let v = [0, 1, 1, 1, 2, u32::MAX][self.g.below(6) as usize];
                    Outcome::new(sinew_world_set_sleeping(w, v), true)
                }
                "sinew_world_set_sleep_threshold" => {
                    let pick = |g: &mut Gen, good: f32| match g.below(8) {
                        0 => -1.0,
                        1 => f32::NAN,
                        2 => f32::INFINITY,
                        3 => 2.0e6,
                        _ => good * g.unit(),
                    };
                    let threshold = pick(&mut self.g, 0.01);
                    let time = pick(&mut self.g, 2.0);
                    Outcome::new(sinew_world_set_sleep_threshold(w, threshold, time), true)
                }
                "sinew_world_wake_all" => Outcome::new(sinew_world_wake_all(w), true),
                // ---- profiling ------------------------------------------------------
                "sinew_world_set_profiling" => {
                    let v = [0, 1, 1, 2, u32::MAX][self.g.below(5) as usize];
                    Outcome::new(sinew_world_set_profiling(w, v), true)
                }
                "sinew_world_read_stage_times" => {
                    let cap = match self.g.below(4) {
                        0 => self.g.below(SINEW_PROFILE_STAGE_COUNT as u64) as u32,
                        1 => SINEW_PROFILE_STAGE_COUNT + self.g.below(4) as u32,
                        _ => SINEW_PROFILE_STAGE_COUNT,
                    };
                    let mut o = Output::<SinewStageTime>::new(&mut self.g, cap as usize);
                    let mut count = self.out1::<u32>();
                    let st = sinew_world_read_stage_times(w, o.ptr(), cap, count.ptr());
                    if st == SINEW_OK {
                        let k = count.get(0);
                        if k != SINEW_PROFILE_STAGE_COUNT || k > cap {
                            self.violation(
                                Check::ReadbackCount,
                                format!("{k} stage times, capacity {cap}"),
                            );
                        }
                        if k == SINEW_PROFILE_STAGE_COUNT {
                            let times: Vec<SinewStageTime> =
                                (0..k as usize).map(|i| o.get(i)).collect();
                            let leaves: u64 = times[2..].iter().map(|t| t.nanoseconds).sum();
                            if times.iter().enumerate().any(|(i, t)| t.stage != i as u32)
                                || leaves != times[0].nanoseconds
                            {
                                self.violation(
                                    Check::ReadbackCount,
                                    format!("stage times out of order or not summing: {times:?}"),
                                );
                            }
                        }
                    }
                    ok_or(st, o.untouched() && count.untouched())
                }
                "sinew_world_profile_counts" => {
                    let mut o = self.out1::<SinewProfileCounts>();
                    let st = sinew_world_profile_counts(w, o.ptr());
                    if st == SINEW_OK && o.get(0).particles != n as u64 {
                        self.violation(
                            Check::ReadbackCount,
                            format!(
                                "profile counts name {} particles of {n}",
                                o.get(0).particles
                            ),
                        );
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_profile_stage_name" => {
                    let stage = match self.g.below(4) {
                        0 => SINEW_PROFILE_STAGE_COUNT + self.g.below(3) as u32,
                        1 => u32::MAX,
                        _ => self.g.below(SINEW_PROFILE_STAGE_COUNT as u64) as u32,
                    };
                    let mut o = self.out1::<*const std::ffi::c_char>();
                    let st = sinew_profile_stage_name(stage, o.ptr());
                    if st == SINEW_OK {
                        let name = CStr::from_ptr(o.get(0)).to_str().unwrap_or("");
                        assert!(!name.is_empty(), "stage {stage} has no name");
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_profile_callback" => {
                    let hook = SinewProfileHook {
                        callback: if self.g.pct(80) {
                            Some(fuzz_marker)
                        } else {
                            None
                        },
                        user_data: std::ptr::null_mut(),
                    };
                    let p: *const SinewProfileHook = match self.g.below(3) {
                        0 => std::ptr::null(),
                        _ => &hook,
                    };
                    Outcome::new(sinew_world_set_profile_callback(w, p), true)
                }
                "sinew_world_save_snapshot" => {
                    let need = self.snapshot_of(w).map_or(64, |b| b.len());
                    let cap = match self.g.below(4) {
                        0 => need.saturating_sub(1 + self.g.below(64) as usize),
                        1 => need + self.g.below(64) as usize,
                        _ => need,
                    };
                    let mut buf = Output::<u8>::new(&mut self.g, cap);
                    let mut o = self.out1::<u64>();
                    let st = sinew_world_save_snapshot(w, buf.ptr(), cap as u64, o.ptr());
                    ok_or(st, o.untouched() && buf.untouched())
                }
                "sinew_world_restore_snapshot" | "sinew_world_create_from_snapshot" => {
                    let snap = self.snapshot_bytes(w);
                    let data = Input::new(&mut self.g, snap.bytes);
                    let size = data.values.len() as u64;
                    // The library's own snapshot, passed as it saved it.
                    let intact = snap.intact && data.mode == 0;
                    if name == "sinew_world_restore_snapshot" {
                        // A world restoring the snapshot it has just saved is unchanged.
                        let own = intact && wi.is_some() && snap.source == wi;
                        let mut before = 0u64;
                        if own {
                            assert_eq!(sinew_world_state_hash(w, &mut before), SINEW_OK);
                        }
                        let st = sinew_world_restore_snapshot(w, data.ptr(), size);
                        if intact && wi.is_some() && st != SINEW_OK {
                            self.own_snapshot_refused(name, st, wi, snap.source);
                        }
                        if own && st == SINEW_OK {
                            let mut after = 0u64;
                            assert_eq!(sinew_world_state_hash(w, &mut after), SINEW_OK);
                            if after != before {
                                self.find(
                                    Kind::OwnSnapshotChanged,
                                    name,
                                    format!("state hash {before:#x} -> {after:#x}"),
                                    wi,
                                );
                            }
                        }
                        if st == SINEW_OK {
                            if let Some(i) = wi {
                                // The host keeps its handles and tries the source's.
                                let from =
                                    snap.source.filter(|&k| k != i).map(|k| self.state(Some(k)));
                                let t = &mut self.live[i];
                                t.forged = snap.forged;
                                if let Some(f) = from {
                                    t.adopt(&f);
                                }
                            }
                        }
                        Outcome::new(st, true)
                    } else {
                        let threads = [0, 1, 2, 4, 300][self.g.below(5) as usize];
                        let mut o = self.out1::<SinewWorld>();
                        let st =
                            sinew_world_create_from_snapshot(data.ptr(), size, threads, o.ptr());
                        if intact && threads <= 256 && !o.null && st != SINEW_OK {
                            self.own_snapshot_refused(name, st, wi, snap.source);
                        }
                        if st == SINEW_OK {
                            let made = o.get(0);
                            let mut t = WorldState {
                                handle: made,
                                forged: snap.forged,
                                history: vec![format!("{name}{}", self.note)],
                                ..Default::default()
                            };
                            if let Some(k) = snap.source {
                                let from = self.state(Some(k));
                                t.adopt(&from);
                            }
                            self.live.push(t);
                            self.sweep(self.live.len() - 1, name);
                        }
                        ok_or(st, o.untouched())
                    }
                }
                // ---- descs --------------------------------------------------------
                "sinew_rope_desc_default" => {
                    let _ = sinew_rope_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_rope_desc_init" => {
                    let mut o = self.out1::<SinewRopeDesc>();
                    ok_or(sinew_rope_desc_init(o.ptr()), o.untouched())
                }
                "sinew_cloth_desc_default" => {
                    let _ = sinew_cloth_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_cloth_desc_init" => {
                    let mut o = self.out1::<SinewClothDesc>();
                    ok_or(sinew_cloth_desc_init(o.ptr()), o.untouched())
                }
                "sinew_cloth_grid_desc_default" => {
                    let _ = sinew_cloth_grid_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_cloth_grid_desc_init" => {
                    let mut o = self.out1::<SinewClothGridDesc>();
                    ok_or(sinew_cloth_grid_desc_init(o.ptr()), o.untouched())
                }
                "sinew_tet_body_desc_default" => {
                    let _ = sinew_tet_body_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_tet_body_desc_init" => {
                    let mut o = self.out1::<SinewTetBodyDesc>();
                    ok_or(sinew_tet_body_desc_init(o.ptr()), o.untouched())
                }
                "sinew_pressure_body_desc_default" => {
                    let _ = sinew_pressure_body_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_pressure_body_desc_init" => {
                    let mut o = self.out1::<SinewPressureBodyDesc>();
                    ok_or(sinew_pressure_body_desc_init(o.ptr()), o.untouched())
                }
                "sinew_collider_desc_default" => {
                    let _ = sinew_collider_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_collider_desc_init" => {
                    let mut o = self.out1::<SinewColliderDesc>();
                    ok_or(sinew_collider_desc_init(o.ptr()), o.untouched())
                }
                "sinew_collision_filter_default" => {
                    let _ = sinew_collision_filter_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_collision_filter_init" => {
                    let mut o = self.out1::<SinewCollisionFilter>();
                    ok_or(sinew_collision_filter_init(o.ptr()), o.untouched())
                }
                // ---- particles ----------------------------------------------------
                "sinew_world_add_particles" => {
                    let c = self.array_count(8);
                    let pos: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| {
                            if self.g.pct(3) {
                                self.g.vec3(1e9)
                            } else {
                                self.g.vec3(2.0)
                            }
                        })
                        .collect();
                    let pos = Input::new(&mut self.g, pos);
                    let inv = self.opt_floats(c, 0.0, 4.0);
                    let mut o = self.out1::<u32>();
                    let st = sinew_world_add_particles(w, pos.ptr(), inv.ptr(), c, o.ptr());
                    ok_or(st, o.untouched())
                }
                "sinew_world_particle_count" => {
                    let mut o = self.out1::<u32>();
                    ok_or(sinew_world_particle_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_read_positions" | "sinew_world_read_velocities" => {
                    let first = self.g.index(n);
                    let c = if self.g.pct(80) {
                        n.saturating_sub(first).min(self.g.count(n.max(1)))
                    } else {
                        self.g.count(8)
                    };
                    let stride = stride_for(&mut self.g, c);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(c, stride));
                    let st = if name == "sinew_world_read_positions" {
                        sinew_world_read_positions(w, first, c, o.ptr().cast(), stride)
                    } else {
                        sinew_world_read_velocities(w, first, c, o.ptr().cast(), stride)
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_write_positions" | "sinew_world_write_velocities" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(16));
                    let stride = stride_for(&mut self.g, c);
                    let len = strided_len(c, stride);
                    let scale = if self.g.pct(5) { 1e5 } else { 2.0 };
                    let mut raw = vec![0u8; len];
                    for k in 0..(c as usize).min(MAX_BUF) {
                        let at = k * stride.max(12) as usize;
                        if at + 12 > len {
                            break;
                        }
                        let v = self.g.vec3(scale);
                        raw[at..at + 4].copy_from_slice(&v.x.to_ne_bytes());
                        raw[at + 4..at + 8].copy_from_slice(&v.y.to_ne_bytes());
                        raw[at + 8..at + 12].copy_from_slice(&v.z.to_ne_bytes());
                    }
                    let p: *const c_void = if self.g.pct(3) {
                        std::ptr::null()
                    } else {
                        raw.as_ptr().cast()
                    };
                    let st = if name == "sinew_world_write_positions" {
                        sinew_world_write_positions(w, first, c, p, stride)
                    } else {
                        sinew_world_write_velocities(w, first, c, p, stride)
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_set_inverse_masses" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let m = self.floats(c, 0.0, 4.0);
                    Outcome::new(sinew_world_set_inverse_masses(w, first, c, m.ptr()), true)
                }
                _ => return None,
            })
        }
    }
}
