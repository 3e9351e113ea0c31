use sinew::*;
fn main() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let b = w
        .add_cloth_grid(
            &ClothDesc {
                bend_compliance: 1e-4,
                tethers: false,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                segments_u: 4,
                segments_v: 4,
                total_mass: 0.05,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let body = w.body(b).unwrap().clone();
    println!("{:?}", body.parts);
    w.set_inverse_masses(0, &[0.0; 5]).unwrap();
    for f in 0..30 {
        w.step(1.0 / 60.0).unwrap();
        let mut out = vec![0.0; 1];
        w.read_family_forces(FamilyKind::DihedralBending, 0, &mut out)
            .unwrap();
        if f % 5 == 0 {
            println!("{:?} {:?}", w.particles().position(24), out);
        }
    }
    for id in 0..body.parts.dihedral.len() {
        println!(
            "{:?} rest {}",
            w.constraint_sets().dihedral.particles_of(id),
            w.constraint_sets().dihedral.rest(id)
        );
    }
}
