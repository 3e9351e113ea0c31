//! The API-sequence fuzzer's calls of the granular materials (src/ffi/granular.rs).

use super::*;
use sinew::ffi::granular::{
    sinew_particle_material_default, sinew_particle_material_init, sinew_world_particle_material,
    sinew_world_set_particle_material, SinewParticleMaterial,
};

impl Session<'_> {
    /// Calls `name` on world `w` (holding `n` particles) with generated arguments;
    /// `None` when `name` is not one of this file's functions.
    pub(crate) fn call_granular(
        &mut self,
        name: &'static str,
        w: SinewWorld,
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
                _ => return None,
            })
        }
    }
}
