//! The collider fast paths against the general query they replace or guard: the world
//! space plane contact against the plane's rotated query, and the block cull of
//! bounded shapes and meshes against their exact contacts.

use super::*;
use crate::collision::mesh::TriMesh;
use crate::collision::shape::ColliderDesc;
use crate::scenes::box_mesh;
use glam::Quat;

struct Lcg(u64);

impl Lcg {
    /// Uniform in [−0.5, 0.5).
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }

    fn vec(&mut self) -> Vec3 {
        Vec3::new(self.next(), self.next(), self.next())
    }

    fn rotation(&mut self) -> Quat {
        Quat::from_xyzw(self.next(), self.next(), self.next(), self.next() + 0.7).normalize()
    }
}

/// A collider placed at `pos`/`rot` for the current substep, moving at `lin`/`ang`.
fn placed(desc: ColliderDesc, mesh: Option<Box<TriMesh>>, lin: Vec3, ang: Vec3) -> Collider {
    let mut c = Collider::new(desc, mesh, None);
    c.pos = desc.position;
    c.rot = desc.rotation;
    c.inv_rot = desc.rotation.inverse();
    c.normal = desc.rotation * Vec3::Y;
    c.lin_vel = lin;
    c.ang_vel = ang;
    c
}

/// Tilted, moving and spinning planes, particles above, at and below them (some
/// crossing in one substep at 30 m/s), far from the origin too: where the rotated query
/// of the plane finds a contact, the one dot product finds it (and the reverse, but for
/// end points within rounding of the reach), with the same normal, the same
/// constraint, and the same surface motion to rounding.
#[test]
fn plane_contact_equals_the_rotated_query() {
    let mut rng = Lcg(3);
    let (h, inv_h) = (1.0 / 600.0, 600.0);
    let (mut both, mut neither) = (0, 0);
    for k in 0..200 {
        let far = if k % 4 == 0 { 900.0 } else { 0.0 };
        let desc = ColliderDesc {
            position: rng.vec() + Vec3::splat(far),
            rotation: rng.rotation(),
            static_friction: 0.3,
            dynamic_friction: 0.2,
            ..ColliderDesc::default()
        };
        let c = placed(desc, None, rng.vec() * 4.0, rng.vec() * 6.0);
        for _ in 0..50 {
            let r = 0.005 + 0.05 * (rng.next() + 0.5);
            // A base near the plane, a step of up to a few radii, sometimes 30 m/s.
            let b = c.pos + c.normal * (rng.next() * 0.2) + rng.vec() * 0.5;
            let speed = if rng.next() > 0.3 { 30.0 } else { 1.0 };
            let u = rng.vec() * speed;
            let d = rng.vec() * (speed * h) + c.normal * (rng.next() * 4.0 * r);
            let rel = c.pos - b;
            let fast = plane_cull::touches(c.normal, rel, d, r);
            let slow = c.shape_contact(b, u, d, r, r, h, inv_h);
            let edge = (c.normal.dot(d - rel) - r - r.max(1.0e-4)).abs();
            let Some(slow) = slow else {
                assert!(
                    !fast || edge < 1.0e-4,
                    "plane {k}: a contact the query misses"
                );
                neither += 1;
                continue;
            };
            assert!(fast || edge < 1.0e-4, "plane {k}: a contact missed");
            if !fast {
                continue;
            }
            both += 1;
            let got = c.plane_contact(b, u, d, r, h, inv_h);
            let scale = 1.0 + rel.length() + d.length();
            assert_eq!(got.normal, slow.normal);
            assert!(
                (got.offset - slow.offset).abs() < 1.0e-6 * scale,
                "plane {k}: offset {} vs {}",
                got.offset,
                slow.offset
            );
            // The rotated query's lever arm passes through world coordinates: rounding
            // of |pos| (900 m) there.
            let lever = scale + 1.0e-1 * c.pos.length();
            let v_scale = 1.0 + c.lin_vel.length() + c.ang_vel.length() * lever;
            assert!(
                (got.surface_disp - slow.surface_disp).length() < 1.0e-5 * v_scale * h,
                "plane {k}: surface motion {} vs {}",
                got.surface_disp,
                slow.surface_disp
            );
            assert!(
                (got.vn_pre - slow.vn_pre).abs() < 1.0e-5 * (v_scale + speed),
                "plane {k}: approach {} vs {}",
                got.vn_pre,
                slow.vn_pre
            );
            assert_eq!(
                (got.static_friction, got.dynamic_friction),
                (slow.static_friction, slow.dynamic_friction)
            );
        }
    }
    assert!(
        both > 2000 && neither > 2000,
        "{both} contacts, {neither} none"
    );
}

/// Blocks of eight particles scattered around spheres, capsules, boxes and a mesh
/// (rotated, near the origin and 900 m from it), some paths 30 m/s long: the block
/// cull never drops a block with a particle the exact query gives a contact, and
/// it does drop the blocks far away. Two blocks make a region: a shape the region's
/// cull drops, each of its blocks' culls drops too (so culling regions first finds
/// the same contacts).
#[test]
fn block_cull_keeps_every_contact() {
    let mut rng = Lcg(11);
    let (h, inv_h) = (1.0 / 600.0, 600.0);
    let (vertices, triangles) = box_mesh(Vec3::new(0.3, 0.05, 0.2));
    let shapes = [
        Shape::Sphere { radius: 0.2 },
        Shape::Capsule {
            radius: 0.1,
            half_height: 0.3,
        },
        Shape::Box {
            half_extents: Vec3::new(0.4, 0.01, 0.25),
        },
        Shape::Mesh,
    ];
    let (mut kept, mut culled, mut touching, mut regions) = (0, 0, 0, 0);
    for k in 0..160 {
        let shape = shapes[k % 4];
        let far = if k % 3 == 0 { 900.0 } else { 0.0 };
        let desc = ColliderDesc {
            shape,
            position: rng.vec() + Vec3::splat(far),
            rotation: rng.rotation(),
            ..ColliderDesc::default()
        };
        let mesh = (shape == Shape::Mesh)
            .then(|| Box::new(TriMesh::new(&vertices, &triangles).expect("a box mesh")));
        let c = placed(desc, mesh, rng.vec(), rng.vec());
        let mut slots = vec![None; 3];
        slots[2] = Some(c);
        let c = slots[2].as_ref().expect("placed");
        for _ in 0..40 {
            // Two blocks: each a centre from on the shape to 1.5 m away, particles
            // around it.
            let (mut base, mut vel, mut hot, mut radius) = (vec![], vec![], vec![], vec![]);
            for _ in 0..2 {
                let centre = c.pos + rng.vec() * (3.0 * (rng.next() + 0.5));
                let spread = if rng.next() > 0.0 { 0.05 } else { 0.4 };
                let speed = if rng.next() > 0.2 { 30.0 } else { 1.0 };
                for _ in 0..8 {
                    base.push(Vec3A::from(centre + rng.vec() * spread));
                    let u = rng.vec() * speed;
                    vel.push(u);
                    hot.push((u * h + rng.vec() * 0.01).extend(1.0));
                    radius.push(0.01 + 0.04 * (rng.next() + 0.5));
                }
            }
            let paths = Paths {
                base: &base,
                hot: &hot,
                vel: &vel,
                radius: &radius,
                h,
            };
            let mut both = 0;
            for first in [0, 8] {
                let mut masks = [0u8; 32];
                let any = shape_masks(&slots, 0, 1 << 2, &paths, first, 8, &mut masks);
                assert_eq!(any, masks[2] as u32);
                both |= any;
                if any == 0 {
                    culled += 1;
                } else {
                    kept += 1;
                }
                for l in 0..8 {
                    let i = first + l;
                    let (b, u, d) = (Vec3::from(base[i]), vel[i], hot[i].truncate());
                    if c.shape_contact(b, u, d, radius[i], radius[i], h, inv_h)
                        .is_some()
                    {
                        touching += 1;
                        assert!((masks[2] >> l) & 1 != 0, "collider {k}: a contact culled");
                    }
                }
            }
            if PathBox::of(&paths, 0, 16).culls(c) {
                regions += 1;
                assert_eq!(both, 0, "collider {k}: a region culled a block's shape");
            }
        }
    }
    assert!(
        kept > 1000 && culled > 1000 && touching > 1000 && regions > 500,
        "{kept} kept, {culled} culled, {touching} touching, {regions} regions culled"
    );
}

/// A thin wall (a tank's side, 10 cm thick) moved this substep, and a fluid particle
/// that started beside it and ends just above its top, near the corner, where the lid
/// of the tank rests on the wall: its contact is the side face it started in front of
/// (which the end point satisfies, so nothing pushes it), not the corner's plane,
/// which would push it up through the lid. A wall at rest keeps the corner's plane.
#[test]
fn a_moved_box_keeps_a_particle_on_the_side_it_started() {
    let wall = Shape::Box {
        half_extents: Vec3::new(0.05, 0.3, 1.0),
    };
    let (r, rd) = (0.0, 0.02);
    let (l0, l1) = (
        Vec3::new(0.0554, 0.187, 0.0),
        Vec3::new(0.0557, 0.3127, 0.0),
    );
    let (n, surface) = convex_contact(&wall, l0, l1, r, rd, true).expect("a near contact");
    assert_eq!(n, Vec3::X);
    assert!(
        n.dot(l1 - surface) >= r && n.dot(l0 - surface) >= r,
        "{surface}"
    );
    let (n, surface) = convex_contact(&wall, l0, l1, r, rd, false).expect("a near contact");
    assert!(n.x > 0.0 && n.y > 0.0, "the corner's normal: {n}");
    assert!(n.dot(l0 - surface) < r, "the start lies behind it");
}
