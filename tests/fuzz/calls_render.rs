//! The API-sequence fuzzer's calls of the fluid render outputs (src/ffi/fluid_render.rs).

use super::*;
use sinew::ffi::fluid_render::{
    sinew_anisotropy_desc_default, sinew_anisotropy_desc_init, sinew_fluid_read_anisotropy,
    SinewAnisotropyDesc,
};

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
                _ => return None,
            })
        }
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
