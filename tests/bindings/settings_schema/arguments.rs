//! Engine properties that are arguments of a call rather than fields of a desc (a
//! grab's compliance, a body's drag, the length of a rope the component lays out): each
//! is described here by the declared limit that bounds it, as a [`Field`] that the
//! renderers show like a desc's (`ClampMin`/`ClampMax`, `Units`, `ToolTip`), so that no
//! engine writes the limit's number by hand.

use super::*;
use sinew::schema::Range;

/// A float argument in `[0, <limit>]` (or `(0, <limit>]` when `positive`), in `unit`.
pub(super) fn argument(
    name: &'static str,
    unit: &'static str,
    positive: bool,
    max: &'static str,
    default: f64,
    doc: &'static str,
) -> Field {
    let l = limit(max).unwrap_or_else(|| panic!("{max} is not a declared limit"));
    Field {
        name,
        ui: "",
        kind: Kind::F32,
        range: Range {
            name,
            unit,
            min: Some(Bound {
                value: 0.0,
                exclusive: positive,
                expr: "0.0",
            }),
            max: Some(Bound {
                value: l.value,
                exclusive: false,
                expr: max,
            }),
            auto: None,
        },
        default: vec![default],
        doc,
        variants: &[],
        param: None,
        saved: false,
    }
}

/// A desc of the arguments a component shows (for the renderers that take a desc).
pub(super) fn arguments(fields: Vec<Field>) -> Desc {
    Desc {
        rust: "",
        c: "",
        csharp: "",
        cookie: 0,
        path: "",
        doc: "",
        fields,
    }
}

/// A grab's compliance (m/N): `sinew_world_grab`'s argument.
pub(super) fn grab_compliance() -> Field {
    argument(
        "grab_compliance",
        "",
        false,
        "MAX_GRAB_COMPLIANCE",
        1e-4,
        "Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows \
         SetGrabLocation.",
    )
}

/// A skinned cloth's drag and lift coefficients (`sinew_body_set_aerodynamics`), with
/// the skinned cloth's defaults.
pub(super) fn skinned_aerodynamics() -> Desc {
    arguments(vec![
        argument(
            "drag",
            "",
            false,
            "MAX_AERO_COEFFICIENT",
            1.2,
            "Drag coefficient per triangle (cloth 1-1.2; 0 = no aerodynamics).",
        ),
        argument(
            "lift",
            "",
            false,
            "MAX_AERO_COEFFICIENT",
            0.2,
            "Lift coefficient per triangle (0.1-0.5 makes flags ripple).",
        ),
    ])
}

/// A skinned cloth's skinning distances (m), scaled per vertex into
/// `sinew_body_set_skin_weights`'s weights (each within [0, MAX_LENGTH]), with the skinned
/// cloth's defaults; the docs in Unity's words (Unreal's are in [`UNREAL_SKINNING_DOCS`]).
pub(super) fn skinning_distances() -> Desc {
    arguments(vec![
        argument(
            "max_distance",
            "m",
            false,
            "MAX_LENGTH",
            0.3,
            "Max distance a particle may leave its skinned position where red = 1 (red 0 = \
             fully skinned).",
        ),
        argument(
            "backstop_radius",
            "m",
            false,
            "MAX_LENGTH",
            0.3,
            "Backstop sphere radius where green = 1 (0 = no backstop): the cloth may not \
             pass into the body.",
        ),
        argument(
            "backstop_distance",
            "m",
            false,
            "MAX_LENGTH",
            0.01,
            "Distance from the skinned surface to the backstop sphere, along -normal.",
        ),
    ])
}

/// The skinning distances' docs in the Unreal component's words (colour channels).
const UNREAL_SKINNING_DOCS: &[(&str, &str)] = &[
    (
        "max_distance",
        "Max distance a vertex may leave its skinned position where its channel is 1 (0 = \
         fully skinned).",
    ),
    (
        "backstop_radius",
        "Radius of the backstop sphere behind the skinned surface where its channel is 1 \
         (0 = none).",
    ),
];

/// A body's tether compliance (m/N): `sinew_body_set_tethers`'s argument.
fn tether_compliance(doc: &'static str) -> Field {
    argument(
        "tether_compliance",
        "m/N",
        false,
        "MAX_BODY_COMPLIANCE",
        0.0,
        doc,
    )
}

/// An aerodynamic coefficient (drag or lift, dimensionless, default 0):
/// `sinew_body_set_aerodynamics`'s argument.
fn coefficient(name: &'static str, doc: &'static str) -> Field {
    argument(name, "", false, "MAX_AERO_COEFFICIENT", 0.0, doc)
}

/// The Unity cloth's tethers and aerodynamics.
fn unity_cloth_arguments() -> (Desc, Desc) {
    let tether = tether_compliance(
        "Compliance of the tethers (0 = a vertex never gets further from its pin than at \
         rest).",
    );
    let aero = vec![
        coefficient(
            "drag",
            "Drag coefficient per triangle (cloth 1-1.2; 0 = none). A cloth with drag or \
             lift cannot tear.",
        ),
        coefficient(
            "lift",
            "Lift coefficient per triangle (0.1-0.5 makes flags ripple).",
        ),
    ];
    (arguments(vec![tether]), arguments(aero))
}

/// The Unity rope's tethers and drag, and its winch (length and speed).
fn unity_rope_arguments() -> (Desc, Desc) {
    let tether = tether_compliance(
        "Compliance of the tethers (0 = the rope never stretches past its length).",
    );
    let drag = coefficient(
        "drag",
        "Aerodynamic drag coefficient per link (a cylinder is about 1.2; 0 = none). Needs \
         Radius > 0.",
    );
    let length = argument(
        "length",
        "m",
        false,
        "MAX_LENGTH",
        0.0,
        "Rope length paid out of or reeled into the start (a winch; needs Pin Start). 0 = \
         the length it was built with, which is also the most it pays out.",
    );
    let speed = argument(
        "winch_speed",
        "m/s",
        false,
        "MAX_WINCH_SPEED",
        0.5,
        "Winch speed at which the rope moves towards Length (0 = the winch holds).",
    );
    (
        arguments(vec![tether, drag]),
        arguments(vec![length, speed]),
    )
}

/// A Unity component's arguments: its file, its region's name and the arguments.
type Shown = (&'static str, &'static str, fn() -> Desc);

/// The engines' properties of the arguments: each region's file, tag and what it renders.
pub(super) fn argument_regions() -> Vec<(&'static str, String, Render)> {
    let mut out: Vec<(&'static str, String, Render)> = Vec::new();
    for file in [
        unreal!("Public/SinewClothComponent.h"),
        unreal!("Public/SinewRopeComponent.h"),
    ] {
        out.push((
            file,
            "GrabCompliance property".into(),
            Box::new(|| {
                unreal_properties(
                    &arguments(vec![grab_compliance()]),
                    &UnrealProps {
                        category: "Sinew|Interaction",
                        sliders: &[("grab_compliance", 0.0, 0.01)],
                        ..UnrealProps::default()
                    },
                )
            }),
        ));
    }
    out.push((
        unreal!("Public/SinewSkinnedClothComponent.h"),
        "Aerodynamics properties".into(),
        Box::new(|| {
            unreal_properties(
                &skinned_aerodynamics(),
                &UnrealProps {
                    category: "Sinew|Wind",
                    read_only: &["drag", "lift"],
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    // The Unreal rope's winch (its length and speed; Blueprint setters apply them).
    out.push((
        unreal!("Public/SinewRopeComponent.h"),
        "Winch properties".into(),
        Box::new(|| {
            let length = argument(
                "length",
                "m",
                false,
                "MAX_LENGTH",
                0.0,
                "Length of rope out of the winch at the start (0 = RopeLength, which is also \
                 the most it pays out). The rope starts this long and then moves towards a \
                 new Length at WinchSpeed. Needs bAttachStart.",
            );
            let speed = argument(
                "winch_speed",
                "m/s",
                false,
                "MAX_WINCH_SPEED",
                0.5,
                "Speed at which the winch moves the rope towards Length (0 = the winch holds).",
            );
            unreal_properties(
                &arguments(vec![length, speed]),
                &UnrealProps {
                    category: "Sinew|Winch",
                    extra: &[
                        ("length", "BlueprintSetter = SetLength"),
                        ("winch_speed", "BlueprintSetter = SetWinchSpeed"),
                    ],
                    sliders: &[("length", 0.0, 5000.0), ("winch_speed", 0.0, 1000.0)],
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    // The Unreal bodies' collision radius (read when the body joins the simulation): the
    // range the rope desc declares for it, which the cloth's radius (set by the body's
    // collision call, checked as a length) shares.
    for (file, what) in [
        (unreal!("Public/SinewRopeComponent.h"), "rope"),
        (unreal!("Public/SinewClothComponent.h"), "cloth"),
    ] {
        out.push((
            file,
            "CollisionRadius property".into(),
            Box::new(move || {
                let doc: &'static str = Box::leak(
                    format!(
                        "Collision radius of every particle (the {what}'s thickness); 0 = no \
                         collisions. Particles of one {what} never collide with each other."
                    )
                    .into_boxed_str(),
                );
                let mut d = part("RopeDesc", &["radius"]);
                d.fields[0].doc = doc;
                unreal_properties(
                    &d,
                    &UnrealProps {
                        category: "Sinew|Collision",
                        read_only: &["radius"],
                        names: &[("radius", "CollisionRadius")],
                        sliders: &[("radius", 0.0, 20.0)],
                        ..UnrealProps::default()
                    },
                )
            }),
        ));
    }
    let all = || Group {
        header: "",
        fields: &[],
    };
    const CLOTH: &str = "unity-sample/Runtime/SinewCloth.cs";
    const ROPE: &str = "unity-sample/Runtime/SinewRope.cs";
    const SKINNED: &str = "unity-sample/Runtime/SinewSkinnedCloth.cs";
    // (file, region, the arguments it shows).
    let unity: [Shown; 6] = [
        (CLOTH, "Tether", || unity_cloth_arguments().0),
        (CLOTH, "Aerodynamics", || unity_cloth_arguments().1),
        (ROPE, "Tether and drag", || unity_rope_arguments().0),
        (ROPE, "Winch", || unity_rope_arguments().1),
        (SKINNED, "Aerodynamics", skinned_aerodynamics),
        (SKINNED, "Skinning", skinning_distances),
    ];
    for (file, tag, desc) in unity {
        out.push((
            file,
            format!("{tag} fields"),
            Box::new(move || unity_fields(&desc(), &[all()])),
        ));
        out.push((
            file,
            format!("{tag} clamps"),
            Box::new(move || unity_clamps(&desc())),
        ));
    }
    out.push((
        unreal!("Public/SinewSkinnedClothComponent.h"),
        "Skinning properties".into(),
        Box::new(|| {
            unreal_properties(
                &skinning_distances(),
                &UnrealProps {
                    category: "Sinew|Skinning",
                    sliders: &[("max_distance", 0.0, 100.0)],
                    docs: UNREAL_SKINNING_DOCS,
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    out.push((
        unreal!("Public/SinewRopeComponent.h"),
        "RopeLength property".into(),
        Box::new(|| {
            let length = argument(
                "rope_length",
                "m",
                true,
                "MAX_LENGTH",
                1.0,
                "Rest length of the rope. Read when the rope joins the simulation.",
            );
            unreal_properties(
                &arguments(vec![length]),
                &UnrealProps {
                    category: "Sinew|Rope",
                    read_only: &["rope_length"],
                    sliders: &[("rope_length", 1.0, 5000.0)],
                    ..UnrealProps::default()
                },
            )
        }),
    ));
    // A collider component's own sphere and capsule (when it mirrors no primitive): the
    // collider desc's radius, under the component's names and defaults.
    for (tag, name, default, doc) in [
        (
            "SphereRadius property",
            "SphereRadius",
            0.5,
            "Sphere radius (scaled by the smallest axis of the component scale).",
        ),
        (
            "CapsuleRadius property",
            "CapsuleRadius",
            0.22,
            "Capsule radius.",
        ),
    ] {
        out.push((
            unreal!("Public/SinewColliderComponent.h"),
            tag.into(),
            Box::new(move || {
                let names: &'static [(&'static str, &'static str)] =
                    Box::leak(vec![("radius", name)].into_boxed_slice());
                let defaults: &'static [(&'static str, f64)] =
                    Box::leak(vec![("radius", default)].into_boxed_slice());
                let docs: &'static [(&'static str, &'static str)] =
                    Box::leak(vec![("radius", doc)].into_boxed_slice());
                unreal_properties(
                    &part("ColliderDesc", &["radius"]),
                    &UnrealProps {
                        category: "Sinew|Collider",
                        names,
                        defaults,
                        docs,
                        sliders: &[("radius", 1.0, 500.0)],
                        ..UnrealProps::default()
                    },
                )
            }),
        ));
    }
    out
}
