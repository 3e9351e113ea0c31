//! Render normals and tangents (sinew_render_normals, sinew_body_render_normals)
//! against closed forms: a flat grid's normals are the plane's normal and its tangents
//! +U; a welded UV sphere's normals are radial within 1.5 degrees (the bands near the poles are the least symmetric); a UV-mapped sphere's
//! tangents are unit, perpendicular to the normals and along +U (east), with
//! cross(normal, tangent) * w along +V (north); a body's call is the mesh call over its
//! (interpolated) positions, bit for bit; degenerate input never gives NaN.

use std::f32::consts::PI;
use std::ffi::c_void;

use sinew::ffi::bodies::*;
use sinew::ffi::interpolation::sinew_body_read_interpolated_positions;
use sinew::ffi::render_normals::*;
use sinew::ffi::tearing::{sinew_cloth_read_topology, sinew_cloth_topology_counts};
use sinew::ffi::world::*;
use sinew::ffi::{sinew_last_error_message, SinewStatus};

type V3 = [f32; 3];

fn dot(a: V3, b: V3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: V3, s: f32) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn v3(p: V3) -> SinewVec3 {
    SinewVec3 {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// Calls sinew_render_normals over packed arrays; returns (normals, tangents).
fn mesh_normals(p: &[V3], tris: &[[u32; 3]], uvs: Option<&[[f32; 2]]>) -> (Vec<V3>, Vec<[f32; 4]>) {
    let pos: Vec<SinewVec3> = p.iter().map(|&q| v3(q)).collect();
    let mut n = vec![[f32::NAN; 3]; p.len()];
    let mut t = vec![[f32::NAN; 4]; p.len()];
    let uv = uvs.map_or(std::ptr::null(), |u| u.as_ptr() as *const f32);
    // SAFETY: every pointer holds the count passed beside it; the outputs are packed.
    let s = unsafe {
        sinew_render_normals(
            pos.as_ptr(),
            p.len() as u32,
            tris.as_ptr() as *const u32,
            tris.len() as u32,
            uv,
            n.as_mut_ptr() as *mut c_void,
            12,
            t.as_mut_ptr() as *mut c_void,
            16,
        )
    };
    assert_eq!(s, SinewStatus::SINEW_OK);
    (n, t)
}

/// Triangles of a (cols+1) x (rows+1) vertex grid (vertex j*(cols+1)+i), two per cell,
/// wound so that a grid along +X (i) and +Z (j) faces +Y.
fn grid_triangles(cols: u32, rows: u32) -> Vec<[u32; 3]> {
    let mut t = Vec::new();
    for j in 0..rows {
        for i in 0..cols {
            let a = j * (cols + 1) + i;
            let (b, c, d) = (a + 1, a + cols + 1, a + cols + 2);
            t.push([a, c, b]);
            t.push([b, c, d]);
        }
    }
    t
}

#[test]
fn a_flat_grid_faces_its_plane_normal_and_its_tangents_follow_u() {
    let (cols, rows) = (7u32, 5u32);
    let mut p = Vec::new();
    let mut uv = Vec::new();
    for j in 0..=rows {
        for i in 0..=cols {
            p.push([0.3 * i as f32 - 1.0, 2.0, 0.2 * j as f32 + 0.5]);
            uv.push([i as f32 / cols as f32, j as f32 / rows as f32]);
        }
    }
    let tris = grid_triangles(cols, rows);
    let (n, t) = mesh_normals(&p, &tris, Some(&uv));
    for k in 0..p.len() {
        assert!(
            dot(n[k], [0.0, 1.0, 0.0]) > 1.0 - 1e-6,
            "normal {k}: {:?}",
            n[k]
        );
        let tk = [t[k][0], t[k][1], t[k][2]];
        assert!(
            dot(tk, [1.0, 0.0, 0.0]) > 1.0 - 1e-6,
            "tangent {k}: {:?}",
            t[k]
        );
        // The bitangent cross(n, t) * w runs along +V, which is +Z here.
        let b = scale(cross(n[k], tk), t[k][3]);
        assert!(dot(b, [0.0, 0.0, 1.0]) > 1.0 - 1e-6, "bitangent {k}: {b:?}");
    }
    // Mirrored UVs (u decreasing along +X) turn the tangent round and keep +V.
    let mirrored: Vec<[f32; 2]> = uv.iter().map(|&[u, v]| [1.0 - u, v]).collect();
    let (_, t) = mesh_normals(&p, &tris, Some(&mirrored));
    for k in 0..p.len() {
        let tk = [t[k][0], t[k][1], t[k][2]];
        assert!(
            dot(tk, [-1.0, 0.0, 0.0]) > 1.0 - 1e-6,
            "mirrored tangent {k}"
        );
        let b = scale(cross(n[k], tk), t[k][3]);
        assert!(
            dot(b, [0.0, 0.0, 1.0]) > 1.0 - 1e-6,
            "mirrored bitangent {k}"
        );
    }
    // Without UVs: +X made perpendicular to the normal, w = 1.
    let (_, t) = mesh_normals(&p, &tris, None);
    assert!(t.iter().all(|&q| q == [1.0, 0.0, 0.0, 1.0]), "{:?}", t[0]);
}

/// The unit sphere at latitude `lat` and longitude `lon` (y up).
fn sphere_point(lat: f32, lon: f32) -> V3 {
    [lat.cos() * lon.cos(), lat.sin(), lat.cos() * lon.sin()]
}

/// Orders a triangle of a convex shape around the origin so that it faces outwards.
fn outward(p: &[V3], t: [u32; 3]) -> [u32; 3] {
    let [a, b, c] = t.map(|k| p[k as usize]);
    if dot(cross(sub(b, a), sub(c, a)), a) < 0.0 {
        [t[0], t[2], t[1]]
    } else {
        t
    }
}

#[test]
fn a_welded_sphere_has_radial_normals() {
    let (lats, lons) = (24u32, 48u32);
    let mut p = vec![[0.0, 1.0, 0.0]];
    for r in 1..lats {
        let lat = PI / 2.0 - PI * r as f32 / lats as f32;
        for k in 0..lons {
            p.push(sphere_point(lat, 2.0 * PI * k as f32 / lons as f32));
        }
    }
    p.push([0.0, -1.0, 0.0]);
    let ring = |r: u32, k: u32| 1 + (r - 1) * lons + k % lons;
    let south = p.len() as u32 - 1;
    let mut tris = Vec::new();
    for k in 0..lons {
        tris.push(outward(&p, [0, ring(1, k), ring(1, k + 1)]));
        tris.push(outward(
            &p,
            [south, ring(lats - 1, k), ring(lats - 1, k + 1)],
        ));
        for r in 1..lats - 1 {
            let (a, b, c, d) = (
                ring(r, k),
                ring(r, k + 1),
                ring(r + 1, k),
                ring(r + 1, k + 1),
            );
            tris.push(outward(&p, [a, c, b]));
            tris.push(outward(&p, [b, c, d]));
        }
    }
    let (n, _) = mesh_normals(&p, &tris, None);
    let worst = (0..p.len())
        .map(|k| dot(n[k], p[k]).clamp(-1.0, 1.0).acos().to_degrees())
        .fold(0.0f32, f32::max);
    println!("welded UV sphere {lats}x{lons}: worst angle to the radius {worst:.3} degrees");
    assert!(worst < 1.5, "worst angle {worst} degrees");
}

#[test]
fn a_uv_sphere_has_tangents_along_u_perpendicular_to_the_normals() {
    // (lons+1) x (lats+1) vertices: the seam column and the pole rows are duplicated
    // (UV seams); the degenerate triangles at the poles are left out.
    let (lats, lons) = (16u32, 32u32);
    let mut p = Vec::new();
    let mut uv = Vec::new();
    for r in 0..=lats {
        let lat = -PI / 2.0 + PI * r as f32 / lats as f32;
        for k in 0..=lons {
            p.push(sphere_point(lat, 2.0 * PI * k as f32 / lons as f32));
            uv.push([k as f32 / lons as f32, r as f32 / lats as f32]);
        }
    }
    let tris: Vec<[u32; 3]> = grid_triangles(lons, lats)
        .into_iter()
        .filter(|t| {
            let [a, b, c] = t.map(|k| p[k as usize]);
            dot(cross(sub(b, a), sub(c, a)), cross(sub(b, a), sub(c, a))) > 1e-12
        })
        .map(|t| outward(&p, t))
        .collect();
    let (n, t) = mesh_normals(&p, &tris, Some(&uv));
    for r in 1..lats {
        let lat = -PI / 2.0 + PI * r as f32 / lats as f32;
        for k in 0..=lons {
            let v = (r * (lons + 1) + k) as usize;
            let lon = 2.0 * PI * k as f32 / lons as f32;
            let tv = [t[v][0], t[v][1], t[v][2]];
            assert!((dot(tv, tv) - 1.0).abs() < 1e-5, "tangent {v} not unit");
            assert!(dot(tv, n[v]).abs() < 1e-5, "tangent {v} not perpendicular");
            let east = [-lon.sin(), 0.0, lon.cos()];
            let north = [-lat.sin() * lon.cos(), lat.cos(), -lat.sin() * lon.sin()];
            assert!(dot(tv, east) > 0.99, "tangent {v}: {tv:?} vs east {east:?}");
            let b = scale(cross(n[v], tv), t[v][3]);
            assert!(
                dot(b, north) > 0.99,
                "bitangent {v}: {b:?} vs north {north:?}"
            );
        }
    }
}

#[test]
fn degenerate_and_non_finite_input_never_gives_nan() {
    let p = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [f32::NAN, 0.0, 0.0],
        [f32::MAX, -f32::MAX, f32::MAX],
        [0.0, 1.0, 0.0],
    ];
    let tris = [[0, 1, 2], [0, 1, 3], [0, 4, 5], [1, 1, 1]];
    let uv = [[0.0, 0.0]; 6];
    let (n, t) = mesh_normals(&p, &tris, Some(&uv));
    for k in 0..p.len() {
        assert!(
            n[k].iter().chain(&t[k]).all(|x| x.is_finite()),
            "{k}: {:?} {:?}",
            n[k],
            t[k]
        );
        assert!((dot(n[k], n[k]) - 1.0).abs() < 1e-5);
    }
    assert_eq!(
        n[2],
        [0.0, 1.0, 0.0],
        "a vertex of degenerate triangles only: +Y"
    );
}

fn message() -> String {
    // SAFETY: the library's last error string is valid until the next call.
    unsafe { std::ffi::CStr::from_ptr(sinew_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_body_call_is_the_mesh_call_over_its_interpolated_positions() {
    let mut world = SinewWorld { id: 0 };
    let desc = sinew_world_desc_default();
    // SAFETY: valid pointers to locals.
    assert_eq!(
        unsafe { sinew_world_create(&desc, &mut world) },
        SinewStatus::SINEW_OK
    );
    let cloth = sinew_cloth_desc_default();
    let mut grid = sinew_cloth_grid_desc_default();
    grid.segments_u = 12;
    grid.segments_v = 9;
    grid.pin_corners = 3;
    let mut body = SinewBody { id: 0 };
    // SAFETY: valid pointers to locals.
    let s = unsafe { sinew_world_add_cloth_grid(world, &cloth, &grid, &mut body) };
    assert_eq!(s, SinewStatus::SINEW_OK, "{}", message());
    for _ in 0..20 {
        assert_eq!(sinew_world_step(world, 1.0 / 60.0), SinewStatus::SINEW_OK);
    }
    let (mut nv, mut nt) = (0u32, 0u32);
    // SAFETY: valid pointers to locals.
    assert_eq!(
        unsafe { sinew_cloth_topology_counts(world, body, &mut nv, &mut nt) },
        SinewStatus::SINEW_OK
    );
    let mut tris = vec![0u32; 3 * nt as usize];
    let mut vp = vec![0u32; nv as usize];
    // SAFETY: the buffers hold the counts just read.
    let s = unsafe {
        sinew_cloth_read_topology(
            world,
            body,
            tris.as_mut_ptr(),
            nt,
            vp.as_mut_ptr(),
            std::ptr::null_mut(),
            nv,
        )
    };
    assert_eq!(s, SinewStatus::SINEW_OK, "{}", message());
    let tri3: Vec<[u32; 3]> = tris.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let uv: Vec<[f32; 2]> = (0..nv)
        .map(|k| [k as f32 * 0.01, (k % 13) as f32 * 0.07])
        .collect();
    for alpha in [0.0f32, 0.35, 1.0] {
        let mut pos = vec![[0.0f32; 3]; nv as usize];
        // SAFETY: `pos` holds nv packed vec3 (the untorn cloth's vertices are its particles).
        let s = unsafe {
            sinew_body_read_interpolated_positions(
                world,
                body,
                alpha,
                pos.as_mut_ptr().cast(),
                nv,
                12,
            )
        };
        assert_eq!(s, SinewStatus::SINEW_OK, "{}", message());
        let (n, t) = mesh_normals(&pos, &tri3, Some(&uv));
        for particles in [std::ptr::null(), vp.as_ptr()] {
            // Strided: normal at byte 0 and tangent at byte 12 of a 32-byte vertex.
            let mut vb = vec![0u8; 32 * nv as usize];
            let base = vb.as_mut_ptr();
            // SAFETY: `vb` holds nv vertices of 32 bytes; `particles` is NULL or nv indices.
            let s = unsafe {
                sinew_body_render_normals(
                    world,
                    body,
                    alpha,
                    particles,
                    nv,
                    tris.as_ptr(),
                    nt,
                    uv.as_ptr() as *const f32,
                    base.cast(),
                    32,
                    base.add(12).cast(),
                    32,
                )
            };
            assert_eq!(s, SinewStatus::SINEW_OK, "{}", message());
            for k in 0..nv as usize {
                let f =
                    |c: usize| f32::from_ne_bytes(vb[32 * k + 4 * c..][..4].try_into().unwrap());
                assert_eq!([f(0), f(1), f(2)].map(f32::to_bits), n[k].map(f32::to_bits));
                assert_eq!(
                    [f(3), f(4), f(5), f(6)].map(f32::to_bits),
                    t[k].map(f32::to_bits)
                );
            }
        }
    }
    // Without vertex particles the count must be the body's.
    let mut out = vec![[0.0f32; 3]; nv as usize + 1];
    // SAFETY: `out` holds nv + 1 packed vec3.
    let s = unsafe {
        sinew_body_render_normals(
            world,
            body,
            1.0,
            std::ptr::null(),
            nv + 1,
            tris.as_ptr(),
            nt,
            std::ptr::null(),
            out.as_mut_ptr().cast(),
            12,
            std::ptr::null_mut(),
            16,
        )
    };
    assert_eq!(s, SinewStatus::SINEW_ERROR_OUT_OF_RANGE);
    assert_eq!(sinew_world_destroy(world), SinewStatus::SINEW_OK);
}
