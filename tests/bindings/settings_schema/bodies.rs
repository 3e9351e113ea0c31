//! The body descs' part of the settings generator (tests/bindings/settings_schema/):
//! their C# settings (bindings/csharp/BodySettings.cs), C++ descs (bindings/cpp/sinew.hpp),
//! and the fields, clamps and properties of the Unity and Unreal rope and cloth
//! components; and the checks of the body builders.

use super::*;

/// The body descs: their C# settings live in bindings/csharp/BodySettings.cs and their
/// C++ descs in bindings/cpp/sinew.hpp.
const BODY_DESCS: &[&str] = &[
    "RopeDesc",
    "ClothDesc",
    "ClothGridDesc",
    "TetBodyDesc",
    "PressureBodyDesc",
];

/// The stretch compliance's doc where a component's cloth is always of the edges model
/// (the skinned cloths): the declaration's names the strain model's too.
const EDGES_STRETCH_DOC: &str = "Compliance of the edges (m/N; 0 = inextensible).";

/// The C# fields and exchange and the C++ setters of each body desc.
pub(super) fn body_regions() -> Vec<(&'static str, String, Render)> {
    let mut out: Vec<(&'static str, String, Render)> = Vec::new();
    for &name in BODY_DESCS {
        out.push((
            "bindings/csharp/BodySettings.cs",
            format!("{name} fields"),
            Box::new(move || cs_fields(&desc(name))),
        ));
        out.push((
            "bindings/csharp/BodySettings.cs",
            format!("{name} exchange"),
            Box::new(move || cs_exchange(&desc(name))),
        ));
        out.push((
            "bindings/cpp/sinew.hpp",
            format!("{name} setters"),
            Box::new(move || cpp_setters(&desc(name), name)),
        ));
    }
    const ROPE: UnityProps = UnityProps {
        skip: &["start", "end"],
        names: &[("total_mass", "massKg")],
        defaults: &[],
        docs: &[],
    };
    const CLOTH: UnityProps = UnityProps {
        skip: &[],
        names: &[("stretch_compliance", "compliance")],
        defaults: &[],
        docs: &[],
    };
    let rope = || desc("RopeDesc");
    let cloth = || desc("ClothDesc");
    // The Unreal rope is built along a polyline of its own (its ends, segments and pins
    // come from the attachments; its collision radius is edited with the collision
    // settings); the cloth takes the edges model with distance bending.
    const UNREAL_ROPE_SKIP: &[&str] =
        &["start", "end", "segments", "pin_start", "pin_end", "radius"];
    const UNREAL_CLOTH_SKIP: &[&str] = &[
        "model",
        "weft_compliance",
        "shear_compliance",
        "warp",
        "bend_compliance",
        "bending",
    ];
    out.push((
        unreal!("Public/SinewRopeComponent.h"),
        "RopeDesc properties".into(),
        Box::new(move || {
            unreal_properties(
                &rope(),
                &UnrealProps {
                    category: "Sinew|Rope",
                    extra: &[
                        ("stretch_compliance", "BlueprintSetter = SetCompliance"),
                        ("bend_compliance", "BlueprintSetter = SetBendCompliance"),
                    ],
                    read_only: &["total_mass", "tethers", "damping"],
                    skip: UNREAL_ROPE_SKIP,
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    out.push((
        unreal!("Private/SinewRopeComponent.cpp"),
        "RopeDesc copy".into(),
        Box::new(move || unreal_copy(&rope(), "Desc", "", UNREAL_ROPE_SKIP)),
    ));
    out.push((
        unreal!("Public/SinewClothComponent.h"),
        "ClothDesc properties".into(),
        Box::new(move || {
            unreal_properties(
                &cloth(),
                &UnrealProps {
                    category: "Sinew|Cloth",
                    read_only: &["stretch_compliance", "tethers", "damping"],
                    skip: UNREAL_CLOTH_SKIP,
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    out.push((
        unreal!("Private/SinewClothComponent.cpp"),
        "ClothDesc copy".into(),
        Box::new(move || unreal_copy(&cloth(), "Desc", "", UNREAL_CLOTH_SKIP)),
    ));
    // A mesh cloth's total mass is an argument of its builder: the grid's declaration of
    // the same quantity gives its range. The skinned cloth shows a preset of the cloth
    // desc (its own defaults and sliders; the edges model with distance bending).
    let mass = |default: f64, ui_max: f64| {
        let sliders: &'static [(&'static str, f64, f64)] =
            Box::leak(vec![("total_mass", 0.01, ui_max)].into_boxed_slice());
        let defaults: &'static [(&'static str, f64)] =
            Box::leak(vec![("total_mass", default)].into_boxed_slice());
        unreal_properties(
            &part("ClothGridDesc", &["total_mass"]),
            &UnrealProps {
                category: "Sinew|Cloth",
                read_only: &["total_mass"],
                names: &[("total_mass", "Mass")],
                defaults,
                sliders,
                ..UnrealProps::default()
            },
        )
    };
    // The Unreal rope's links along its own polyline: the rope's segment count, its
    // range declared, its default and slider the component's.
    out.push((
        unreal!("Public/SinewRopeComponent.h"),
        "RopeDesc segments".into(),
        Box::new(move || {
            unreal_properties(
                &part("RopeDesc", &["segments"]),
                &UnrealProps {
                    category: "Sinew|Rope",
                    read_only: &["segments"],
                    names: &[("segments", "NumSegments")],
                    defaults: &[("segments", 10.0)],
                    sliders: &[("segments", 1.0, 200.0)],
                    docs: &[(
                        "segments",
                        "Number of links along the rope (particles = links + 1). More links \
                         bend more smoothly and cost more.",
                    )],
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    out.push((
        unreal!("Public/SinewClothComponent.h"),
        "ClothGridDesc mass".into(),
        Box::new(move || mass(1.0, 50.0)),
    ));
    out.push((
        unreal!("Public/SinewSkinnedClothComponent.h"),
        "ClothGridDesc mass".into(),
        Box::new(move || mass(0.4, 10.0)),
    ));
    out.push((
        unreal!("Public/SinewSkinnedClothComponent.h"),
        "ClothDesc preset".into(),
        Box::new(move || {
            const PRESET: &[&str] = &["stretch_compliance", "bend_compliance", "damping"];
            unreal_properties(
                &part("ClothDesc", PRESET),
                &UnrealProps {
                    category: "Sinew|Cloth",
                    read_only: PRESET,
                    defaults: &[
                        ("stretch_compliance", 1e-6),
                        ("bend_compliance", 0.001),
                        ("damping", 0.2),
                    ],
                    sliders: &[
                        ("stretch_compliance", 0.0, 0.01),
                        ("bend_compliance", 0.0, 1.0),
                        ("damping", 0.0, 20.0),
                    ],
                    docs: &[
                        ("stretch_compliance", EDGES_STRETCH_DOC),
                        (
                            "bend_compliance",
                            "Compliance of the distance bend links across interior edges \
                             (m/N).",
                        ),
                    ],
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    out.push((
        "unity-sample/Runtime/SinewRope.cs",
        "RopeDesc fields".into(),
        Box::new(move || {
            let groups = [
                Group {
                    header: "Shape (rebuilds the rope)",
                    fields: &["segments", "pin_start", "pin_end", "tethers", "radius"],
                },
                Group {
                    header: "Material (edited in place)",
                    fields: &[],
                },
            ];
            unity_fields_with(&rope(), &groups, &ROPE)
        }),
    ));
    out.push((
        "unity-sample/Runtime/SinewRope.cs",
        "RopeDesc clamps".into(),
        Box::new(move || unity_clamps_with(&rope(), &ROPE)),
    ));
    out.push((
        "unity-sample/Runtime/SinewCloth.cs",
        "ClothDesc fields".into(),
        Box::new(move || {
            let groups = [
                Group {
                    header: "Model (rebuilds the cloth)",
                    fields: &["model", "bending", "tethers", "warp"],
                },
                Group {
                    header: "Material (edited in place)",
                    fields: &[],
                },
            ];
            unity_fields_with(&cloth(), &groups, &CLOTH)
        }),
    ));
    out.push((
        "unity-sample/Runtime/SinewCloth.cs",
        "ClothDesc clamps".into(),
        Box::new(move || unity_clamps_with(&cloth(), &CLOTH)),
    ));
    // The Unity skinned cloth shows a preset of the cloth desc (its own defaults; the
    // edges model with the bending model its own field) and the grid's mass range.
    const SKINNED: &str = "unity-sample/Runtime/SinewSkinnedCloth.cs";
    let all = || Group {
        header: "",
        fields: &[],
    };
    const SKINNED_PRESET: &[&str] = &["stretch_compliance", "bend_compliance", "damping"];
    const SKINNED_CLOTH: UnityProps = UnityProps {
        skip: &[],
        names: &[("stretch_compliance", "compliance")],
        defaults: &[
            ("stretch_compliance", 1e-6),
            ("bend_compliance", 0.5),
            ("damping", 0.2),
        ],
        docs: &[("stretch_compliance", EDGES_STRETCH_DOC)],
    };
    const SKINNED_MASS: UnityProps = UnityProps {
        skip: &[],
        names: &[("total_mass", "massKg")],
        defaults: &[("total_mass", 0.4)],
        docs: &[],
    };
    const CLOTH_MASS: UnityProps = UnityProps {
        skip: &[],
        names: &[("total_mass", "massKg")],
        defaults: &[("total_mass", 0.5)],
        docs: &[],
    };
    const CLOTH_FILE: &str = "unity-sample/Runtime/SinewCloth.cs";
    // The Unity cloths' mass: the grid desc's, under each component's default.
    for (file, props) in [(CLOTH_FILE, &CLOTH_MASS), (SKINNED, &SKINNED_MASS)] {
        let mass = || part("ClothGridDesc", &["total_mass"]);
        out.push((
            file,
            "ClothGridDesc mass".into(),
            Box::new(move || unity_fields_with(&mass(), &[all()], props)),
        ));
        out.push((
            file,
            "ClothGridDesc mass clamps".into(),
            Box::new(move || unity_clamps_with(&mass(), props)),
        ));
    }
    out.push((
        SKINNED,
        "ClothDesc preset".into(),
        Box::new(move || {
            unity_fields_with(&part("ClothDesc", SKINNED_PRESET), &[all()], &SKINNED_CLOTH)
        }),
    ));
    out.push((
        SKINNED,
        "ClothDesc preset clamps".into(),
        Box::new(move || unity_clamps_with(&part("ClothDesc", SKINNED_PRESET), &SKINNED_CLOTH)),
    ));
    // The authoring code's options (SinewAuthoring.cs) and the components' copy into them.
    const ROPE_OPTIONS: Options = Options {
        rebuild: &[
            "start",
            "end",
            "segments",
            "tethers",
            "pin_start",
            "pin_end",
            "radius",
        ],
        names: &[("total_mass", "MassKg")],
    };
    const CLOTH_OPTIONS: Options = Options {
        rebuild: &["model", "bending", "tethers", "warp"],
        names: &[],
    };
    const AUTHORING: &str = "unity-sample/Runtime/SinewAuthoring.cs";
    out.push((
        AUTHORING,
        "RopeDesc options".into(),
        Box::new(move || options_fields(&rope(), &ROPE_OPTIONS)),
    ));
    out.push((
        AUTHORING,
        "RopeDesc to settings".into(),
        Box::new(move || options_to_settings(&rope(), &ROPE_OPTIONS)),
    ));
    out.push((
        AUTHORING,
        "RopeDesc rebuild reason".into(),
        Box::new(move || options_rebuild_reason(&rope(), &ROPE_OPTIONS, &["start", "end"])),
    ));
    out.push((
        AUTHORING,
        "ClothDesc options".into(),
        Box::new(move || options_fields(&cloth(), &CLOTH_OPTIONS)),
    ));
    out.push((
        AUTHORING,
        "ClothDesc to settings".into(),
        Box::new(move || options_to_settings(&cloth(), &CLOTH_OPTIONS)),
    ));
    out.push((
        "unity-sample/Runtime/SinewRope.cs",
        "RopeDesc options copy".into(),
        Box::new(move || options_from_fields(&rope(), &ROPE_OPTIONS, &ROPE)),
    ));
    out.push((
        "unity-sample/Runtime/SinewCloth.cs",
        "ClothDesc options copy".into(),
        Box::new(move || options_from_fields(&cloth(), &CLOTH_OPTIONS, &CLOTH)),
    ));
    out
}

/// The body descs: a builder checks only the fields it reads (a polyline rope its
/// material, not its ends or segments; a soft body given inverse masses not its total
/// mass), and a message names the field, range and unit.
#[test]
fn body_builders_check_the_fields_they_read() {
    use sinew::{RopeDesc, TetBodyDesc, Vec3, World, WorldDesc};
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let ignored = RopeDesc {
        segments: 0,
        start: Vec3::splat(f32::NAN),
        ..RopeDesc::default()
    };
    w.add_rope_polyline(&ignored, &[Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)])
        .unwrap();
    let e = w.add_rope(&ignored).unwrap_err();
    assert!(e.message.contains("start"), "{e}");
    let e = w
        .add_rope(&RopeDesc {
            segments: 0,
            ..RopeDesc::default()
        })
        .unwrap_err();
    assert_eq!(e.message, "segments 0 must be in 1..16777216", "{e}");
    let e = w
        .add_rope(&RopeDesc {
            total_mass: 0.0,
            ..RopeDesc::default()
        })
        .unwrap_err();
    assert!(
        e.message.contains("total_mass 0") && e.message.contains("kg"),
        "{e}"
    );
    let tet = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let massless = TetBodyDesc {
        total_mass: 0.0,
        ..TetBodyDesc::default()
    };
    assert!(w
        .add_tet_body(&massless, &tet, &[[0, 1, 2, 3]], None)
        .is_err());
    w.add_tet_body(&massless, &tet, &[[0, 1, 2, 3]], Some(&[1.0; 4]))
        .unwrap();
    let e = sinew::PressureBodyDesc {
        pressure: 101.0,
        ..sinew::PressureBodyDesc::default()
    }
    .validate()
    .unwrap_err();
    assert!(
        e.message.contains("pressure 101") && e.message.contains("(0, 100]"),
        "{e}"
    );
}
