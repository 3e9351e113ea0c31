//! The API-sequence fuzzer's calls of the soft-body mesh tools (src/ffi/bodies/tetrahedralize.rs):
//! welding, tetrahedralising and embedding. They touch no world; the checks are on
//! what they write.

use super::*;
use sinew::ffi::bodies::{sinew_embed_points_in_tets, sinew_tetrahedralize_mesh, sinew_weld_mesh};
use sinew::ffi::sdf::sinew_sdf_from_mesh;

impl Session<'_> {
    /// A small octahedron at a random place, sometimes with a seam (vertex 0 doubled)
    /// or an open surface.
    fn fuzz_surface(&mut self) -> (Vec<SinewVec3>, Vec<u32>) {
        let at = self.g.vec3(2.0);
        let mut verts = octa(0.05 + self.g.unit() * 0.5, at);
        let mut tris = OCTA_TRIS.to_vec();
        if self.g.pct(30) {
            // A seam: the last triangle uses a copy of vertex 0.
            verts.push(verts[0]);
            let k = tris.iter().rposition(|&i| i == 0).unwrap_or(0);
            tris[k] = 6;
        }
        if self.g.pct(10) {
            tris.truncate(21); // open surface: refused by the tetrahedraliser
        }
        if self.g.pct(5) {
            let k = self.g.below(tris.len() as u64) as usize;
            tris[k] = self.g.index(verts.len() as u32);
        }
        (verts, tris)
    }

    /// Calls `name` with generated arguments; `None` when `name` is not one of this
    /// file's functions.
    pub(crate) fn call_meshes(&mut self, name: &'static str) -> Option<Outcome> {
        // SAFETY (every call below): each pointer is NULL, a misaligned copy the call
        // must refuse, or points to as many elements as the call is told (see `Input`
        // and `Output`).
        unsafe {
            Some(match name {
                "sinew_weld_mesh" => {
                    let (verts, tris) = self.fuzz_surface();
                    let (nv, nt) = (verts.len(), tris.len() / 3);
                    let tolerance = match self.g.below(10) {
                        0 => self.g.float(-1.0, 0.0),
                        1 => f32::NAN,
                        2..=5 => 0.0,
                        _ => self.g.float(0.0, 0.2),
                    };
                    let v = Input::new(&mut self.g, verts);
                    let t = Input::new(&mut self.g, tris);
                    let mut map = Output::<u32>::new(&mut self.g, nv);
                    let mut ov = Output::<SinewVec3>::new(&mut self.g, nv);
                    let mut ot = Output::<u32>::new(&mut self.g, 3 * nt);
                    let mut cv = self.out1::<u32>();
                    let mut ct = self.out1::<u32>();
                    let st = sinew_weld_mesh(
                        v.ptr(),
                        nv as u32,
                        t.ptr(),
                        nt as u32,
                        tolerance,
                        map.ptr(),
                        ov.ptr(),
                        ot.ptr(),
                        cv.ptr(),
                        ct.ptr(),
                    );
                    if st == SINEW_OK {
                        let (wv, wt) = (cv.get(0), ct.get(0));
                        assert!(
                            wv as usize <= nv && wt as usize <= nt,
                            "weld counts {wv}, {wt}"
                        );
                        for k in 0..nv {
                            assert!(map.get(k) < wv, "weld map {k} -> {}", map.get(k));
                        }
                        for k in 0..3 * wt as usize {
                            assert!(ot.get(k) < wv, "welded triangle index {}", ot.get(k));
                        }
                    }
                    ok_or(
                        st,
                        map.untouched()
                            && ov.untouched()
                            && ot.untouched()
                            && cv.untouched()
                            && ct.untouched(),
                    )
                }
                "sinew_sdf_from_mesh" => {
                    let (verts, tris) = self.fuzz_surface();
                    let (nv, nt) = (verts.len(), tris.len() / 3);
                    // Cells from a tenth of the octahedron to larger than it; now and
                    // then a bad cell or margin.
                    let cell = match self.g.below(20) {
                        0 => [0.0, -1.0, f32::NAN][self.g.below(3) as usize],
                        _ => self.g.float(0.05, 0.6),
                    };
                    let margin = if self.g.pct(5) {
                        -0.1
                    } else {
                        self.g.float(0.0, 0.2)
                    };
                    let query = self.g.pct(30);
                    // At most (1.2 + 0.4) / 0.05 + 1 = 33 nodes a side.
                    let cap = if self.g.pct(90) {
                        36_000u32
                    } else {
                        self.g.below(64) as u32
                    };
                    let v = Input::new(&mut self.g, verts);
                    let t = Input::new(&mut self.g, tris);
                    let mut od = Output::<f32>::sized(cap as usize, query);
                    let mut dims = Output::<u32>::sized(3, false);
                    let mut origin = self.out1::<SinewVec3>();
                    let st = sinew_sdf_from_mesh(
                        v.ptr(),
                        nv as u32,
                        t.ptr(),
                        nt as u32,
                        cell,
                        margin,
                        dims.ptr(),
                        origin.ptr(),
                        od.ptr(),
                        cap,
                    );
                    if st == SINEW_OK {
                        let n: u32 = (0..3).map(|k| dims.get(k)).product();
                        assert!(n >= 8, "a field of {n} nodes");
                        if query {
                            assert!(od.untouched(), "a count query wrote the field");
                        } else {
                            assert!((0..n as usize).any(|k| od.get(k) < 0.0), "no solid");
                        }
                    }
                    ok_or(st, od.untouched() && dims.untouched() && origin.untouched())
                }
                "sinew_tetrahedralize_mesh" => {
                    let (verts, tris) = self.fuzz_surface();
                    let (nv, nt) = (verts.len(), tris.len() / 3);
                    let resolution = match self.g.below(10) {
                        0 => [0, 129, u32::MAX][self.g.below(3) as usize],
                        _ => 1 + self.g.below(5) as u32,
                    };
                    let query = self.g.pct(30);
                    // 6 cells a side at most: 216 cells, 5 tets and up to 8 nodes each.
                    let (vcap, tcap) = if self.g.pct(90) {
                        (400u32, 1100u32)
                    } else {
                        (self.g.below(20) as u32, self.g.below(20) as u32)
                    };
                    let v = Input::new(&mut self.g, verts);
                    let t = Input::new(&mut self.g, tris);
                    let mut ov = Output::<SinewVec3>::sized(vcap as usize, query);
                    let mut ot = Output::<u32>::sized(4 * tcap as usize, query);
                    let mut cv = self.out1::<u32>();
                    let mut ct = self.out1::<u32>();
                    let st = sinew_tetrahedralize_mesh(
                        v.ptr(),
                        nv as u32,
                        t.ptr(),
                        nt as u32,
                        resolution,
                        ov.ptr(),
                        vcap,
                        ot.ptr(),
                        tcap,
                        cv.ptr(),
                        ct.ptr(),
                    );
                    if st == SINEW_OK {
                        let (mv, mt) = (cv.get(0), ct.get(0));
                        assert!(mv >= 4 && mt >= 5, "tet mesh of {mv} vertices, {mt} tets");
                        if !query {
                            for k in 0..4 * mt as usize {
                                assert!(ot.get(k) < mv, "tet index {}", ot.get(k));
                            }
                        } else {
                            assert!(
                                ov.untouched() && ot.untouched(),
                                "a count query wrote the mesh"
                            );
                        }
                    }
                    ok_or(
                        st,
                        ov.untouched() && ot.untouched() && cv.untouched() && ct.untouched(),
                    )
                }
                "sinew_embed_points_in_tets" => {
                    let s = 0.1 + self.g.unit();
                    let verts: Vec<SinewVec3> = (0..8)
                        .map(|k| SinewVec3 {
                            x: s * (k & 1) as f32,
                            y: s * ((k >> 1) & 1) as f32,
                            z: s * ((k >> 2) & 1) as f32,
                        })
                        .collect();
                    let mut tets = vec![
                        0u32, 1, 2, 4, 1, 3, 2, 7, 1, 4, 5, 7, 2, 4, 7, 6, 1, 2, 4, 7,
                    ];
                    if self.g.pct(10) {
                        let k = self.g.below(tets.len() as u64) as usize;
                        tets[k] = self.g.index(8);
                    }
                    let tc = (tets.len() / 4) as u32;
                    let pc = self.g.below(6) as usize;
                    let pts: Vec<SinewVec3> = (0..pc).map(|_| self.g.vec3(2.0 * s)).collect();
                    let v = Input::new(&mut self.g, verts);
                    let t = Input::new(&mut self.g, tets);
                    let p = Input::new(&mut self.g, pts);
                    let mut ot = Output::<u32>::new(&mut self.g, pc);
                    let mut ow = Output::<f32>::new(&mut self.g, 4 * pc);
                    let st = sinew_embed_points_in_tets(
                        v.ptr(),
                        8,
                        t.ptr(),
                        tc,
                        p.ptr(),
                        pc as u32,
                        ot.ptr(),
                        ow.ptr(),
                    );
                    if st == SINEW_OK {
                        for k in 0..pc {
                            assert!(ot.get(k) < tc, "embedded in tet {}", ot.get(k));
                            let w: Vec<f64> = (0..4).map(|j| ow.get(4 * k + j) as f64).collect();
                            let (sum, size) = (
                                w.iter().sum::<f64>(),
                                w.iter().map(|x| x.abs()).sum::<f64>(),
                            );
                            // Far points have large extrapolated weights: f32 rounding.
                            assert!((sum - 1.0).abs() <= 1e-3 * size.max(1.0), "weights {w:?}");
                        }
                    }
                    ok_or(st, ot.untouched() && ow.untouched())
                }
                _ => return None,
            })
        }
    }
}
