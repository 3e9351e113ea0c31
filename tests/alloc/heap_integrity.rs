//! Regression test for a heap-corruption signal: AddressSanitizer once found a corrupted
//! chunk header inside the `realloc` of `Particles::reserve`, reached from
//! `sinew_world_add_rope_polyline`, in a long-lived process that also read positions
//! into strided buffers. Rust code is not instrumented in such a C host, so a write
//! past a buffer by the library would only show later, at the next reallocation.
//!
//! `add_rope_polyline_growth_with_strided_reads_keeps_the_heap_intact` grows one world
//! rope by rope (every add reallocates the particle arrays, and past 4096 particles the
//! passes run on worker threads through the disjoint-write helpers) while reading
//! positions and velocities into strided buffers of exactly the documented size
//! `(count - 1) * stride + 12`, fenced by canary bytes, and checks after every call that
//! no canary and no gap byte between elements was written, and that the strided values
//! equal the packed ones. Under `tests/sanitizers.sh` (ASan on the Rust side) any
//! out-of-bounds access in the library fails the run at the access itself.

use sinew::ffi::bodies::{
    sinew_body_read_positions, sinew_rope_desc_default, sinew_world_add_rope_polyline, SinewBody,
};
use sinew::ffi::particles::{
    sinew_world_particle_count, sinew_world_read_positions, sinew_world_read_velocities,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step, SinewVec3,
    SinewWorld,
};
use sinew::ffi::SinewStatus::SINEW_OK;

const CANARY: u8 = 0xC3;
const FENCE: usize = 64;

/// A buffer of `span` bytes fenced by FENCE canary bytes on both sides.
struct Fenced {
    bytes: Vec<u8>,
}

impl Fenced {
    fn new(span: usize) -> Self {
        Fenced {
            bytes: vec![CANARY; span + 2 * FENCE],
        }
    }
    fn ptr(&mut self) -> *mut std::ffi::c_void {
        self.bytes[FENCE..].as_mut_ptr().cast()
    }
    fn span(&self) -> &[u8] {
        &self.bytes[FENCE..self.bytes.len() - FENCE]
    }
    fn fences_intact(&self) -> bool {
        let n = self.bytes.len();
        self.bytes[..FENCE]
            .iter()
            .chain(&self.bytes[n - FENCE..])
            .all(|&b| b == CANARY)
    }
    /// Element k of a strided buffer, and whether the gap after it is untouched.
    fn element(&self, k: usize, stride: usize) -> ([f32; 3], bool) {
        let s = &self.span()[k * stride..];
        let f = |i: usize| f32::from_ne_bytes(s[4 * i..4 * i + 4].try_into().unwrap());
        let gap_end = stride.min(self.span().len() - k * stride);
        let gap_ok = s[12..gap_end].iter().all(|&b| b == CANARY);
        ([f(0), f(1), f(2)], gap_ok)
    }
}

fn packed(w: SinewWorld, n: u32, velocities: bool) -> Vec<[f32; 3]> {
    let mut v = vec![[0f32; 3]; n as usize];
    // SAFETY: `v` holds n packed vec3.
    let st = unsafe {
        if velocities {
            sinew_world_read_velocities(w, 0, n, v.as_mut_ptr().cast(), 12)
        } else {
            sinew_world_read_positions(w, 0, n, v.as_mut_ptr().cast(), 12)
        }
    };
    assert_eq!(st, SINEW_OK);
    v
}

#[test]
fn add_rope_polyline_growth_with_strided_reads_keeps_the_heap_intact() {
    let mut desc = sinew_world_desc_default();
    desc.threads = 2;
    desc.substeps = 2;
    let mut w = SinewWorld::default();
    // SAFETY: live locals.
    assert_eq!(unsafe { sinew_world_create(&desc, &mut w) }, SINEW_OK);
    let rope = sinew_rope_desc_default();
    let strides = [12usize, 13, 16, 20, 24, 64];
    let mut bodies = Vec::new();
    for round in 0..160usize {
        // A rope of 20..52 points along a line, each offset so ropes do not overlap.
        let k = 20 + (round * 7) % 33;
        let points: Vec<SinewVec3> = (0..k)
            .map(|i| SinewVec3 {
                x: 0.02 * i as f32,
                y: 0.0,
                z: 0.05 * round as f32,
            })
            .collect();
        let mut body = SinewBody::default();
        // SAFETY: `points` holds k vec3; `body` is a live local.
        let st = unsafe {
            sinew_world_add_rope_polyline(w, &rope, points.as_ptr(), k as u32, &mut body)
        };
        assert_eq!(st, SINEW_OK, "round {round}");
        bodies.push((body, k as u32));
        assert_eq!(sinew_world_step(w, 1.0 / 60.0), SINEW_OK);

        let mut n = 0;
        // SAFETY: live local.
        assert_eq!(unsafe { sinew_world_particle_count(w, &mut n) }, SINEW_OK);
        let stride = strides[round % strides.len()];
        for velocities in [false, true] {
            let expect = packed(w, n, velocities);
            let mut buf = Fenced::new((n as usize - 1) * stride + 12);
            // SAFETY: the buffer holds exactly (n-1)*stride + 12 bytes.
            let st = unsafe {
                if velocities {
                    sinew_world_read_velocities(w, 0, n, buf.ptr(), stride as u32)
                } else {
                    sinew_world_read_positions(w, 0, n, buf.ptr(), stride as u32)
                }
            };
            assert_eq!(st, SINEW_OK);
            assert!(
                buf.fences_intact(),
                "round {round}: write outside the buffer"
            );
            for (k, e) in expect.iter().enumerate() {
                let (got, gap_ok) = buf.element(k, stride);
                assert_eq!(got.map(f32::to_bits), e.map(f32::to_bits), "element {k}");
                assert!(
                    gap_ok,
                    "round {round}: element {k} wrote into its stride gap"
                );
            }
        }
        // The newest body through its own readback, capacity exactly its size.
        let (body, count) = *bodies.last().unwrap();
        let mut buf = Fenced::new((count as usize - 1) * stride + 12);
        // SAFETY: the buffer holds (count-1)*stride + 12 bytes.
        let st = unsafe { sinew_body_read_positions(w, body, buf.ptr(), count, stride as u32) };
        assert_eq!(st, SINEW_OK);
        assert!(
            buf.fences_intact(),
            "round {round}: body readback outside the buffer"
        );
    }
    let mut n = 0;
    // SAFETY: live local.
    unsafe { sinew_world_particle_count(w, &mut n) };
    assert!(
        n > 4096,
        "{n} particles: the parallel passes were not reached"
    );
    assert!(packed(w, n, false).iter().flatten().all(|x| x.is_finite()));
    assert_eq!(sinew_world_destroy(w), SINEW_OK);
}
