//! The API-sequence fuzzer's calls of the fluid render outputs (src/ffi/fluid_render.rs).

use super::*;
use sinew::ffi::fluid_render::{
    sinew_anisotropy_desc_default, sinew_anisotropy_desc_init, sinew_diffuse_desc_default,
    sinew_diffuse_desc_init, sinew_fluid_build_surface, sinew_fluid_get_diffuse,
    sinew_fluid_read_anisotropy, sinew_fluid_read_diffuse, sinew_fluid_read_surface,
    sinew_fluid_set_diffuse, sinew_surface_desc_default, sinew_surface_desc_init,
    SinewAnisotropyDesc, SinewDiffuseDesc, SinewSurfaceCounts, SinewSurfaceDesc,
};
use sinew::ffi::render_normals::{sinew_body_render_normals, sinew_render_normals};

/// After a successful render-normals call: the first `count` elements of `floats`
/// floats every `stride` bytes in `b` are finite, their xyz a unit vector (and w ±1
/// for a tangent).
fn check_render_vectors(b: &[u8], stride: u32, count: u32, floats: usize, what: &str) {
    for k in 0..count as usize {
        let at = k * stride as usize;
        let f: Vec<f32> = (0..floats)
            .map(|c| f32::from_ne_bytes(b[at + 4 * c..at + 4 * c + 4].try_into().unwrap()))
            .collect();
        let len = (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt();
        assert!(
            f.iter().all(|x| x.is_finite()) && (len - 1.0).abs() < 1e-3,
            "{what} {k}: {f:?} is not a finite unit vector"
        );
        assert!(floats == 3 || f[3].abs() == 1.0, "{what} {k}: w {}", f[3]);
    }
}

impl Session<'_> {
    /// Calls `name` on world `w` with generated arguments; `None` when `name` is not
    /// one of this file's functions.
    pub(crate) fn call_render(
        &mut self,
        name: &'static str,
        w: SinewWorld,
        s: &WorldState,
    ) -> Option<Outcome> {
        // SAFETY (every call below): each pointer is NULL, a misaligned copy the call
        // must refuse, or points to as many elements as the call is told (see `Input`,
        // `Output` and `readback_buffer`).
        unsafe {
            Some(match name {
                "sinew_render_normals" | "sinew_body_render_normals" => {
                    let body_call = name == "sinew_body_render_normals";
                    let b = if body_call {
                        self.body(s)
                    } else {
                        SinewBody::default()
                    };
                    let mut v = self.g.below(40) as u32;
                    let mut vertex_particles = Vec::new();
                    if body_call && self.g.pct(50) {
                        let (mut first, mut count) = (0u32, 0u32);
                        if sinew_body_particle_range(w, b, &mut first, &mut count) == SINEW_OK
                            && !self.g.pct(5)
                        {
                            v = count.min(MAX_BUF as u32);
                        }
                    } else if body_call {
                        let mut n = 0u32;
                        let _ = sinew_world_particle_count(w, &mut n);
                        vertex_particles = (0..v).map(|_| self.g.index(n)).collect();
                    }
                    let vp = Input::new(&mut self.g, vertex_particles);
                    let positions: Vec<SinewVec3> = (0..v).map(|_| self.g.vec3(10.0)).collect();
                    let positions = Input::new(&mut self.g, positions);
                    let tris: Vec<u32> =
                        (0..3 * self.g.below(60)).map(|_| self.g.index(v)).collect();
                    let tri_count = tris.len() as u32 / 3;
                    let tris = Input::new(&mut self.g, tris);
                    let uvs: Vec<f32> = (0..2 * v).map(|_| self.g.float(-2.0, 2.0)).collect();
                    let uvs = Input::new(&mut self.g, uvs);
                    let uv_ptr = if self.g.pct(40) {
                        std::ptr::null()
                    } else {
                        uvs.ptr()
                    };
                    let alpha = self.render_alpha();
                    let (mut nb, nstride, nnull) = self.readback_buffer(v, 12);
                    let (mut tb, tstride, tnull) = self.readback_buffer(v, 16);
                    let np: *mut c_void = if nnull && self.g.pct(20) {
                        std::ptr::null_mut()
                    } else {
                        nb.as_mut_ptr().cast()
                    };
                    let tp: *mut c_void = if tnull {
                        std::ptr::null_mut()
                    } else {
                        tb.as_mut_ptr().cast()
                    };
                    let st = if body_call {
                        let vp_ptr = if vp.values.is_empty() {
                            std::ptr::null()
                        } else {
                            vp.ptr()
                        };
                        sinew_body_render_normals(
                            w,
                            b,
                            alpha,
                            vp_ptr,
                            v,
                            tris.ptr(),
                            tri_count,
                            uv_ptr,
                            np,
                            nstride,
                            tp,
                            tstride,
                        )
                    } else {
                        sinew_render_normals(
                            positions.ptr(),
                            v,
                            tris.ptr(),
                            tri_count,
                            uv_ptr,
                            np,
                            nstride,
                            tp,
                            tstride,
                        )
                    };
                    if st == SINEW_OK {
                        check_render_vectors(&nb, nstride, v, 3, "normal");
                        if !tp.is_null() {
                            check_render_vectors(&tb, tstride, v, 4, "tangent");
                        }
                    }
                    let untouched = nb.iter().chain(&tb).all(|&x| x == SENTINEL);
                    ok_or(st, untouched)
                }
                "sinew_anisotropy_desc_default" => {
                    let _ = sinew_anisotropy_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_anisotropy_desc_init" => {
                    let mut o = self.out1::<SinewAnisotropyDesc>();
                    ok_or(sinew_anisotropy_desc_init(o.ptr()), o.untouched())
                }
                "sinew_fluid_read_anisotropy" => {
                    let f = self.fluid(s);
                    let capacity = self.render_capacity(w, f);
                    let alpha = self.render_alpha();
                    let mut d = sinew_anisotropy_desc_default();
                    let g = &mut self.g;
                    if g.pct(30) {
                        d.radius = g.float(-0.01, 0.1);
                        d.smoothing = g.float(-0.2, 1.2);
                        d.max_ratio = g.float(0.0, 20.0);
                        d.scale = g.float(-0.5, 3.0);
                        d.isolated_scale = g.float(-0.5, 3.0);
                        d.min_neighbours = g.below(60) as u32;
                    }
                    if g.pct(3) {
                        d.internal_cookie ^= 1;
                    }
                    let d = Input::new(&mut self.g, vec![d]);
                    let (mut b, stride, null) = self.readback_buffer(capacity, 48);
                    let p: *mut c_void = if null {
                        std::ptr::null_mut()
                    } else {
                        b.as_mut_ptr().cast()
                    };
                    let mut o = self.out1::<u32>();
                    let st = sinew_fluid_read_anisotropy(
                        w,
                        f,
                        d.ptr(),
                        alpha,
                        capacity,
                        p,
                        stride,
                        o.ptr(),
                    );
                    if st == SINEW_OK && !o.null && !null {
                        let live = o.get(0);
                        if live > capacity {
                            self.violation(
                                Check::ReadbackCount,
                                format!("fluid {}: {live} ellipsoids, capacity {capacity}", f.id),
                            );
                        }
                        for k in 0..live.min(capacity) as usize {
                            let at = k * stride as usize;
                            let bad = (0..12).any(|c| {
                                let x = at + 4 * c;
                                !f32::from_ne_bytes(b[x..x + 4].try_into().unwrap()).is_finite()
                            });
                            if bad {
                                self.violation(
                                    Check::FluidRender,
                                    format!("fluid {}: ellipsoid {k} not finite", f.id),
                                );
                                break;
                            }
                        }
                    }
                    ok_or(st, b.iter().all(|&x| x == SENTINEL) && o.untouched())
                }
                "sinew_diffuse_desc_default" => {
                    let _ = sinew_diffuse_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_diffuse_desc_init" => {
                    let mut o = self.out1::<SinewDiffuseDesc>();
                    ok_or(sinew_diffuse_desc_init(o.ptr()), o.untouched())
                }
                "sinew_fluid_set_diffuse" => {
                    let f = self.fluid(s);
                    let mut d = sinew_diffuse_desc_default();
                    let g = &mut self.g;
                    d.capacity = if g.pct(20) { 0 } else { g.below(600) as u32 };
                    d.lifetime = g.float(-0.1, 3.0);
                    d.trapped_air_rate = g.float(0.0, 200.0);
                    d.wave_crest_rate = g.float(0.0, 200.0);
                    d.energy_min = g.float(0.0, 10.0);
                    d.drag = g.float(-0.1, 1.1);
                    d.seed = g.below(1000) as u32;
                    if g.pct(3) {
                        d.internal_cookie ^= 1;
                    }
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_fluid_set_diffuse(w, f, d.ptr()), true)
                }
                "sinew_fluid_get_diffuse" => {
                    let f = self.fluid(s);
                    let mut o = self.out1::<SinewDiffuseDesc>();
                    ok_or(sinew_fluid_get_diffuse(w, f, o.ptr()), o.untouched())
                }
                "sinew_fluid_read_diffuse" => {
                    let f = self.fluid(s);
                    let capacity = self.g.below(MAX_BUF as u64 / 8) as u32;
                    let (mut b, stride, null) = self.readback_buffer(capacity, 32);
                    let p: *mut c_void = if null {
                        std::ptr::null_mut()
                    } else {
                        b.as_mut_ptr().cast()
                    };
                    let mut o = self.out1::<u32>();
                    let st = sinew_fluid_read_diffuse(w, f, capacity, p, stride, o.ptr());
                    if st == SINEW_OK && !o.null && !null {
                        let live = o.get(0);
                        for k in 0..live.min(capacity) as usize {
                            let at = k * stride as usize;
                            let bad = (0..7).any(|c| {
                                let x = at + 4 * c;
                                !f32::from_ne_bytes(b[x..x + 4].try_into().unwrap()).is_finite()
                            });
                            if bad {
                                self.violation(
                                    Check::FluidRender,
                                    format!("fluid {}: diffuse particle {k} not finite", f.id),
                                );
                                break;
                            }
                        }
                    }
                    ok_or(st, b.iter().all(|&x| x == SENTINEL) && o.untouched())
                }
                "sinew_surface_desc_default" => {
                    let _ = sinew_surface_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_surface_desc_init" => {
                    let mut o = self.out1::<SinewSurfaceDesc>();
                    ok_or(sinew_surface_desc_init(o.ptr()), o.untouched())
                }
                "sinew_fluid_build_surface" => {
                    let f = self.fluid(s);
                    let alpha = self.render_alpha();
                    let mut d = sinew_surface_desc_default();
                    let g = &mut self.g;
                    if g.pct(30) {
                        d.cell_size = g.float(-0.01, 0.12);
                        d.radius = g.float(-0.01, 0.25);
                        d.threshold = g.float(-0.1, 1.1);
                    }
                    if g.pct(3) {
                        d.internal_cookie ^= 1;
                    }
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = self.out1::<SinewSurfaceCounts>();
                    let st = sinew_fluid_build_surface(w, f, d.ptr(), alpha, o.ptr());
                    if st == SINEW_OK && !o.null && o.get(0).indices % 3 != 0 {
                        self.violation(
                            Check::FluidRender,
                            format!("fluid {}: {} surface indices", f.id, o.get(0).indices),
                        );
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_read_surface" => self.read_surface(w, s),
                _ => return None,
            })
        }
    }

    /// Reads the last surface mesh into generated buffers (each sometimes NULL, too
    /// small or badly strided) and checks what comes back: finite vertices, unit
    /// normals, indices below the vertex count; nothing written on a failure.
    ///
    /// # Safety
    /// As every call of [`Self::call_render`].
    unsafe fn read_surface(&mut self, w: SinewWorld, s: &WorldState) -> Outcome {
        let f = self.fluid(s);
        let mut counts = SinewSurfaceCounts::default();
        let null = std::ptr::null_mut();
        // SAFETY: NULL buffers (skipped) and a live local.
        let _ = unsafe {
            sinew_fluid_read_surface(w, f, 0, null, 12, null, 12, 0, null.cast(), &mut counts)
        };
        let capacity = |n: u32, g: &mut Gen| {
            match g.below(100) {
                0..=79 => n + g.below(3) as u32,
                80..=89 => n.saturating_sub(1),
                _ => g.below(MAX_BUF as u64) as u32,
            }
            .min(MAX_BUF as u32)
        };
        let vcap = capacity(counts.vertices, &mut self.g);
        let icap = capacity(counts.indices, &mut self.g);
        let (mut pb, ps, pnull) = self.readback_buffer(vcap, 12);
        let (mut nb, ns, nnull) = self.readback_buffer(vcap, 12);
        let inull = self.g.pct(25);
        let mut ib = vec![SENTINEL; 4 * (icap as usize).max(1)];
        let ptr = |b: &mut Vec<u8>, null: bool| -> *mut c_void {
            if null {
                std::ptr::null_mut()
            } else {
                b.as_mut_ptr().cast()
            }
        };
        let (pp, np, ip) = (
            ptr(&mut pb, pnull),
            ptr(&mut nb, nnull),
            ptr(&mut ib, inull),
        );
        let mut o = self.out1::<SinewSurfaceCounts>();
        // SAFETY: each buffer is NULL or holds `capacity` elements `stride` apart
        // (`readback_buffer`), the indices `icap` uint32_t.
        let st = unsafe {
            sinew_fluid_read_surface(w, f, vcap, pp, ps, np, ns, icap, ip.cast(), o.ptr())
        };
        if st == SINEW_OK && !o.null {
            let c = o.get(0);
            let float = |b: &[u8], at: usize| f32::from_ne_bytes(b[at..at + 4].try_into().unwrap());
            for k in 0..c.vertices.min(vcap) as usize {
                let p_bad =
                    !pnull && (0..3).any(|a| !float(&pb, k * ps as usize + 4 * a).is_finite());
                let n = (!nnull).then(|| (0..3).map(|a| float(&nb, k * ns as usize + 4 * a)));
                let n_bad = n.is_some_and(|mut n| {
                    let v: Vec<f32> = n.by_ref().collect();
                    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                    !len.is_finite() || (len - 1.0).abs() > 1e-3
                });
                if p_bad || n_bad {
                    self.violation(
                        Check::FluidRender,
                        format!("fluid {}: surface vertex {k} not finite or not unit", f.id),
                    );
                    break;
                }
            }
            if !inull {
                for k in 0..c.indices.min(icap) as usize {
                    let i = u32::from_ne_bytes(ib[4 * k..4 * k + 4].try_into().unwrap());
                    if i >= c.vertices {
                        self.violation(
                            Check::FluidRender,
                            format!(
                                "fluid {}: surface index {i} of {} vertices",
                                f.id, c.vertices
                            ),
                        );
                        break;
                    }
                }
            }
        }
        let untouched = [&pb, &nb, &ib]
            .iter()
            .all(|b| b.iter().all(|&x| x == SENTINEL));
        ok_or(st, untouched && o.untouched())
    }

    /// A render readback's capacity: mostly the live count or a little more, sometimes
    /// one short or anything.
    fn render_capacity(&mut self, w: SinewWorld, f: SinewFluid) -> u32 {
        let live = Self::fluid_live(w, f);
        match self.g.below(100) {
            0..=79 => live + self.g.below(3) as u32,
            80..=89 => live.saturating_sub(1),
            _ => self.g.below(MAX_BUF as u64) as u32,
        }
        .min(MAX_BUF as u32)
    }

    /// An interpolation weight: mostly in [0, 1], sometimes outside.
    fn render_alpha(&mut self) -> f32 {
        if self.g.pct(90) {
            self.g.unit()
        } else {
            self.g.float(-1.0, 2.0)
        }
    }
}
