//! The API-sequence fuzzer's descs (valid values up to the limits, sometimes one field
//! out of range) and the pickers of fluid objects.

use super::*;

/// Snapshot bytes for a restore, and where they came from.
pub(crate) struct SnapshotBytes {
    pub(crate) bytes: Vec<u8>,
    /// The live world saved (None: no live world, the bytes are empty).
    pub(crate) source: Option<usize>,
    /// Damaged and resealed with a valid checksum, or saved from such a world.
    pub(crate) forged: bool,
    /// The bytes as the library saved them from a world never restored from a forged
    /// snapshot: the library must load them (the header's "every snapshot the library
    /// saves loads").
    pub(crate) intact: bool,
}

impl Session<'_> {
    /// A real snapshot of `w` (or, a fifth of the time, of another live world), often
    /// damaged: a flipped bit, a truncation or foreign bytes (the checksum refuses
    /// those), or a body forged and resealed with a valid checksum (bit flips, an
    /// aligned u32 or u64 set to a hostile value, a truncation) so that the loader's
    /// own checks are what is tested.
    pub(crate) fn snapshot_bytes(&mut self, w: SinewWorld) -> SnapshotBytes {
        let mut source = self.live.iter().position(|s| s.handle == w);
        if !self.live.is_empty() && self.g.pct(20) {
            source = Some(self.g.below(self.live.len() as u64) as usize);
        }
        let Some(k) = source else {
            return SnapshotBytes {
                bytes: Vec::new(),
                source,
                forged: false,
                intact: false,
            };
        };
        let mut forged = self.live[k].forged;
        let mut b = self.snapshot_of(self.live[k].handle).unwrap_or_default();
        let body_len = b.len().saturating_sub(sinew::SNAPSHOT_HEADER_BYTES);
        let g = &mut self.g;
        let mut note = format!("(world {k}'s snapshot)");
        let mut intact = !forged && !b.is_empty();
        match g.below(100) {
            _ if body_len < 16 => {}
            0..=49 => {}
            50..=64 => {
                let i = g.below(b.len() as u64) as usize;
                match g.below(3) {
                    0 => b[i] ^= 1 << g.below(8),
                    1 => b.truncate(i),
                    _ => b[i..].iter_mut().for_each(|x| *x = 0xA5),
                }
                note = format!("(world {k}'s snapshot damaged at byte {i})");
                intact = false;
            }
            _ => {
                let mut body = b.split_off(sinew::SNAPSHOT_HEADER_BYTES);
                let mut edits = Vec::new();
                for _ in 0..1 + g.below(3) {
                    let at = (g.below(body_len as u64 - 8) as usize) & !3;
                    let old = u32::from_le_bytes(body[at..at + 4].try_into().unwrap());
                    let new = match g.below(6) {
                        0 => old ^ (1 << g.below(32)),
                        1 => old.wrapping_sub(1 + g.below(8) as u32),
                        2 => old.wrapping_add(1 + g.below(8) as u32),
                        3 => u32::MAX,
                        4 => {
                            // A u64 counter or id at its largest.
                            body[at + 4..at + 8].copy_from_slice(&u32::MAX.to_le_bytes());
                            u32::MAX
                        }
                        _ => (-f32::from_bits(old)).to_bits(),
                    };
                    body[at..at + 4].copy_from_slice(&new.to_le_bytes());
                    edits.push(format!("u32 at body offset {at}: {old:#x} -> {new:#x}"));
                }
                if g.pct(10) {
                    let keep = g.below(body_len as u64) as usize;
                    body.truncate(keep);
                    edits.push(format!("body cut to {keep} bytes"));
                }
                b = sinew::seal_snapshot(&body);
                forged = true;
                intact = false;
                note = format!(
                    "(world {k}'s snapshot forged, resealed: {})",
                    edits.join(", ")
                );
            }
        }
        self.note = note;
        SnapshotBytes {
            bytes: b,
            source,
            forged,
            intact,
        }
    }

    pub(crate) fn desc_rope(&mut self) -> SinewRopeDesc {
        let mut d = sinew_rope_desc_default();
        if self.g.pct(20) {
            let mut o = Output::<SinewRopeDesc>::sized(1, self.g.pct(10));
            // SAFETY: NULL or one writable desc.
            let st = unsafe { sinew_rope_desc_init(o.ptr()) };
            self.record(
                "sinew_rope_desc_init",
                Outcome::new(st, st == SINEW_OK || o.untouched()),
                None,
                None,
            );
            if st == SINEW_OK {
                d = o.get(0);
            }
        }
        let g = &mut self.g;
        d.start = g.vec3(2.0);
        d.end = g.vec3(2.0);
        d.segments = match g.below(20) {
            0 => [0, 100_000, u32::MAX][g.below(3) as usize],
            _ => 1 + g.below(30) as u32,
        };
        if g.pct(30) {
            match g.below(8) {
                0 => d.total_mass = g.float(0.0, 10.0),
                1 => d.radius = g.float(0.0, 0.1),
                2 => d.stretch_compliance = g.compliance(),
                3 => d.bend_compliance = g.compliance(),
                4 => d.tethers = g.below(3) as u32,
                5 => d.pin_end = g.below(3) as u32,
                6 => d.damping = g.float(0.0, 5.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    pub(crate) fn desc_cloth(&mut self) -> SinewClothDesc {
        let mut d = sinew_cloth_desc_default();
        if self.g.pct(20) {
            let mut o = Output::<SinewClothDesc>::sized(1, self.g.pct(10));
            // SAFETY: NULL or one writable desc.
            let st = unsafe { sinew_cloth_desc_init(o.ptr()) };
            self.record(
                "sinew_cloth_desc_init",
                Outcome::new(st, st == SINEW_OK || o.untouched()),
                None,
                None,
            );
            if st == SINEW_OK {
                d = o.get(0);
            }
        }
        let g = &mut self.g;
        d.model = if g.pct(95) { g.below(2) as u32 } else { 7 };
        d.bending = if g.pct(95) { g.below(4) as u32 } else { 9 };
        if g.pct(40) {
            match g.below(8) {
                0 => d.stretch_compliance = g.compliance(),
                1 => d.weft_compliance = g.compliance(),
                2 => d.shear_compliance = g.compliance(),
                3 => d.bend_compliance = g.compliance(),
                4 => d.warp = g.vec3(1.0),
                5 => d.tethers = g.below(3) as u32,
                6 => d.damping = g.float(0.0, 5.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// A snapshot of `w` through the C ABI, when `w` is a live world.
    pub(crate) fn snapshot_of(&mut self, w: SinewWorld) -> Option<Vec<u8>> {
        let mut size = 0u64;
        // SAFETY: valid pointers; the buffer holds `size` bytes.
        unsafe {
            if sinew_world_snapshot_size(w, &mut size) != SINEW_OK {
                return None;
            }
            let mut b = vec![0u8; size as usize];
            let mut written = 0u64;
            let st = sinew_world_save_snapshot(w, b.as_mut_ptr(), size, &mut written);
            assert_eq!(st, SINEW_OK, "saving a live world failed: {}", last_error());
            assert_eq!(written, size);
            Some(b)
        }
    }

    /// Calls `name` on world `w` with generated arguments.
    /// A wind desc: valid values up to the limits, sometimes one field out of range.
    pub(crate) fn desc_wind(&mut self) -> SinewWindDesc {
        let g = &mut self.g;
        let mut d = sinew_wind_desc_default();
        d.velocity = g.vec3(20.0);
        if g.pct(30) {
            d.velocity = g.vec3(1e4);
        }
        d.air_density = g.float(0.0, 1e4);
        d.turbulence = g.float(0.0, 10.0);
        d.turbulence_scale = g.float(1e-3, 10.0);
        d.turbulence_frequency = g.float(0.0, 10.0);
        if g.pct(10) {
            match g.below(4) {
                0 => d.air_density = -1.0,
                1 => d.turbulence_scale = 0.0,
                2 => d.turbulence_frequency = 1e4,
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// A wind zone desc around the origin, sometimes malformed.
    pub(crate) fn desc_wind_zone(&mut self) -> SinewWindZoneDesc {
        let g = &mut self.g;
        let mut d = sinew_wind_zone_desc_default();
        d.shape = if g.pct(95) {
            g.below(2) as u32
        } else {
            2 + g.below(5) as u32
        };
        d.position = g.vec3(3.0);
        d.rotation = g.quat();
        d.half_extents = g.vec3(3.0);
        d.radius = g.float(0.0, 5.0);
        d.direction = if g.pct(20) { v3z() } else { g.vec3(1.0) };
        d.strength = g.float(0.0, 50.0);
        d.turbulence = g.float(0.0, 20.0);
        d.falloff = g.float(0.0, 1.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    /// A fluid desc: small capacities (the world stays small), valid values up to
    /// the limits, sometimes one field out of range.
    pub(crate) fn desc_fluid(&mut self) -> SinewFluidDesc {
        let g = &mut self.g;
        let mut d = sinew_fluid_desc_default();
        d.capacity = 1 + g.below(200) as u32;
        d.spacing = [0.02, 0.05, 0.1, 0.5][g.below(4) as usize];
        d.rest_density = [1000.0, 800.0, 1.0, 1e5][g.below(4) as usize];
        if g.pct(30) {
            d.smoothing_radius = d.spacing * (1.0 + 3.0 * g.unit());
        }
        d.viscosity = g.float(0.0, 1.0);
        d.vorticity = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.cohesion = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.adhesion = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.scorr_n = 1 + g.below(8) as u32;
        d.scorr_dq = g.float(0.0, 0.9);
        d.lifetime = if g.pct(70) { 0.0 } else { g.float(0.0, 5.0) };
        d.recycle_oldest = g.below(2) as u32;
        d.coupling_mask = [u32::MAX, 0, 1][g.below(3) as usize];
        if g.pct(10) {
            match g.below(8) {
                0 => d.rest_density = g.float(-1.0, 0.0),
                1 => d.spacing = [0.0, 1e-4, 20.0, f32::NAN][g.below(4) as usize],
                2 => d.capacity = [0, SINEW_MAX_FLUID_CAPACITY + 1, u32::MAX][g.below(3) as usize],
                3 => d.smoothing_radius = d.spacing * 0.5,
                4 => d.recycle_oldest = 2 + g.below(5) as u32,
                5 => d.scorr_n = [0, 9, u32::MAX][g.below(3) as usize],
                6 => d.collision_radius = g.float(1.0, 100.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// An emitter desc near the origin, sometimes malformed.
    pub(crate) fn desc_emitter(&mut self) -> SinewEmitterDesc {
        let g = &mut self.g;
        let mut d = sinew_emitter_desc_default();
        d.shape = if g.pct(95) {
            g.below(2) as u32
        } else {
            2 + g.below(5) as u32
        };
        d.radius = g.float(0.0, 0.3);
        d.half_extents = g.vec3(0.3);
        d.position = g.vec3(2.0);
        d.rotation = g.quat();
        d.speed = g.float(0.0, 10.0);
        d.rate = g.float(0.0, 2000.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    /// A kill-volume desc near the origin, sometimes malformed.
    pub(crate) fn desc_kill_volume(&mut self) -> SinewKillVolumeDesc {
        let g = &mut self.g;
        let mut d = sinew_kill_volume_desc_default();
        d.shape = if g.pct(95) {
            g.below(3) as u32
        } else {
            3 + g.below(5) as u32
        };
        d.center = g.vec3(3.0);
        d.rotation = g.quat();
        d.half_extents = g.vec3(1.0);
        d.radius = g.float(0.0, 1.0);
        d.normal = g.vec3(1.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    pub(crate) fn fluid(&mut self, s: &WorldState) -> SinewFluid {
        if !s.fluids.is_empty() && self.g.pct(90) {
            s.fluids[self.g.below(s.fluids.len() as u64) as usize]
        } else {
            SinewFluid {
                id: [0, self.g.u64(), 1, 1 << 32 | 1][self.g.below(4) as usize],
            }
        }
    }

    pub(crate) fn emitter(&mut self, s: &WorldState) -> SinewEmitter {
        if !s.emitters.is_empty() && self.g.pct(90) {
            s.emitters[self.g.below(s.emitters.len() as u64) as usize]
        } else {
            SinewEmitter {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    pub(crate) fn kill_volume(&mut self, s: &WorldState) -> SinewKillVolume {
        if !s.volumes.is_empty() && self.g.pct(90) {
            s.volumes[self.g.below(s.volumes.len() as u64) as usize]
        } else {
            SinewKillVolume {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    /// The live particle count of `f` (0 when the call fails).
    pub(crate) fn fluid_live(w: SinewWorld, f: SinewFluid) -> u32 {
        let mut st = SinewFluidStats::default();
        // SAFETY: a live local.
        if unsafe { sinew_fluid_stats(w, f, &mut st) } == SINEW_OK {
            st.count
        } else {
            0
        }
    }

    /// A strided buffer for the fluid readback: NULL sometimes (skipped), else
    /// `capacity` elements of `element` bytes every `stride`.
    pub(crate) fn readback_buffer(&mut self, capacity: u32, element: u32) -> (Vec<u8>, u32, bool) {
        let null = self.g.pct(25);
        let stride = match self.g.below(100) {
            0..=59 => element,
            60..=84 => element + 4 * self.g.below(5) as u32,
            85..=94 => [0, element - 1, 1, 3][self.g.below(4) as usize],
            _ if capacity <= 1 => [u32::MAX, 1 << 21, 1 << 20][self.g.below(3) as usize],
            _ => 64,
        };
        let len = if stride < element || stride > 1 << 20 {
            element as usize * (capacity as usize).clamp(1, MAX_BUF)
        } else {
            (capacity.max(1) as usize - 1) * stride as usize + element as usize
        };
        (vec![SENTINEL; len], stride, null)
    }

    /// The particle count of `b` (a skinning array's length), sometimes off by one.
    pub(crate) fn skin_count(&mut self, w: SinewWorld, b: SinewBody) -> u32 {
        let (mut first, mut count) = (0u32, 0u32);
        // SAFETY: valid pointers.
        let st = unsafe { sinew_body_particle_range(w, b, &mut first, &mut count) };
        if st != SINEW_OK || self.g.pct(5) {
            return 1 + self.g.below(10) as u32;
        }
        count
    }
}
