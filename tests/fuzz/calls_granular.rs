//! The API-sequence fuzzer's calls of the granular materials (src/ffi/granular.rs).

use super::*;
use sinew::ffi::granular::{
    sinew_grain_emitter_desc_default, sinew_grain_emitter_desc_init, sinew_grain_emitter_remove,
    sinew_grain_emitter_set, sinew_grain_emitter_stats, sinew_particle_material_default,
    sinew_particle_material_init, sinew_world_add_grain_emitter, sinew_world_particle_material,
    sinew_world_set_particle_material, SinewGrainEmitter, SinewGrainEmitterDesc,
    SinewGrainEmitterStats, SinewParticleMaterial,
};

impl Session<'_> {
    /// A grain emitter desc of small budgets and grains, sometimes malformed.
    fn desc_grains(&mut self) -> SinewGrainEmitterDesc {
        let g = &mut self.g;
        let mut d = sinew_grain_emitter_desc_default();
        // Small budgets (a world past 3000 particles is replaced), or ones refused.
        d.budget = if g.pct(95) {
            g.below(200) as u32
        } else {
            [0, sinew::MAX_GRAIN_BUDGET + 1, u32::MAX][g.below(3) as usize]
        };
        d.grain_radius = g.float(-0.01, 0.1);
        d.grain_density = g.float(-10.0, 5000.0);
        d.layers = if g.pct(80) { 1 } else { g.u64() as u32 };
        d.mask = if g.pct(80) { u32::MAX } else { g.u64() as u32 };
        d.self_collision = if g.pct(97) {
            g.below(2) as u32
        } else {
            2 + g.below(5) as u32
        };
        if g.pct(3) {
            d.internal_cookie ^= 1;
        }
        d
    }

    /// A live grain emitter of `s`, mostly; sometimes a stale or made-up handle.
    fn grain_emitter(&mut self, s: &WorldState) -> SinewGrainEmitter {
        if !s.grain_emitters.is_empty() && self.g.pct(90) {
            s.grain_emitters[self.g.below(s.grain_emitters.len() as u64) as usize]
        } else {
            SinewGrainEmitter {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    /// Calls `name` on world `w` (the harness's world `wi`, its objects `s`, holding `n`
    /// particles) with generated arguments; `None` when `name` is not one of this
    /// file's functions.
    pub(crate) fn call_granular(
        &mut self,
        name: &'static str,
        w: SinewWorld,
        wi: Option<usize>,
        s: &WorldState,
        n: u32,
    ) -> Option<Outcome> {
        // SAFETY (every call below): each pointer is NULL, a misaligned copy the call
        // must refuse, or points to one element (see `Input` and `Output`).
        unsafe {
            Some(match name {
                "sinew_particle_material_default" => {
                    let _ = sinew_particle_material_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_particle_material_init" => {
                    let mut o = self.out1::<SinewParticleMaterial>();
                    ok_or(sinew_particle_material_init(o.ptr()), o.untouched())
                }
                "sinew_world_set_particle_material" => {
                    let first = self.g.index(n);
                    let count = self.g.count(n);
                    let mut m = sinew_particle_material_default();
                    let g = &mut self.g;
                    // Mostly valid coefficients; sometimes dynamic above static, negative
                    // or absurd values the call must refuse.
                    m.static_friction = g.float(-0.1, 1.5);
                    m.dynamic_friction = g.float(-0.1, 1.5);
                    m.rolling_friction = g.float(-0.1, 1.5);
                    m.cohesion = if g.pct(50) {
                        0.0
                    } else {
                        g.float(-10.0, 2000.0)
                    };
                    if g.pct(3) {
                        m.internal_cookie ^= 1;
                    }
                    let m = Input::new(&mut self.g, vec![m]);
                    Outcome::new(
                        sinew_world_set_particle_material(w, first, count, m.ptr()),
                        true,
                    )
                }
                "sinew_world_particle_material" => {
                    let index = self.g.index(n);
                    let mut o = self.out1::<SinewParticleMaterial>();
                    let st = sinew_world_particle_material(w, index, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let m = o.get(0);
                        let values = [
                            m.static_friction,
                            m.dynamic_friction,
                            m.rolling_friction,
                            m.cohesion,
                        ];
                        if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
                            self.violation(
                                Check::Measure,
                                format!(
                                    "particle {index}: material not finite and >= 0: {values:?}"
                                ),
                            );
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_grain_emitter_desc_default" => {
                    let _ = sinew_grain_emitter_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_grain_emitter_desc_init" => {
                    let mut o = self.out1::<SinewGrainEmitterDesc>();
                    ok_or(sinew_grain_emitter_desc_init(o.ptr()), o.untouched())
                }
                "sinew_world_add_grain_emitter" => {
                    let grains = self.desc_grains();
                    let grains = Input::new(&mut self.g, vec![grains]);
                    let stream = self.desc_emitter();
                    let stream = Input::new(&mut self.g, vec![stream]);
                    let mut m = sinew_particle_material_default();
                    m.static_friction = self.g.float(0.0, 1.0);
                    let m = Input::new(&mut self.g, vec![m]);
                    let mut o = self.out1::<SinewGrainEmitter>();
                    let st = sinew_world_add_grain_emitter(
                        w,
                        grains.ptr(),
                        stream.ptr(),
                        m.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let e = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].grain_emitters.push(e);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_grain_emitter_set" => {
                    let e = self.grain_emitter(s);
                    let d = self.desc_emitter();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_grain_emitter_set(w, e, d.ptr()), true)
                }
                "sinew_grain_emitter_remove" => {
                    let e = self.grain_emitter(s);
                    Outcome::new(sinew_grain_emitter_remove(w, e), true)
                }
                "sinew_grain_emitter_stats" => {
                    let e = self.grain_emitter(s);
                    let mut o = self.out1::<SinewGrainEmitterStats>();
                    let st = sinew_grain_emitter_stats(w, e, o.ptr());
                    if st == SINEW_OK && !o.null {
                        let t = o.get(0);
                        if t.emitted > t.budget || t.first as u64 + t.budget as u64 > n as u64 {
                            self.violation(
                                Check::Measure,
                                format!("grain emitter stats out of range: {t:?} of {n}"),
                            );
                        }
                    }
                    ok_or(st, o.untouched())
                }
                _ => return None,
            })
        }
    }
}
