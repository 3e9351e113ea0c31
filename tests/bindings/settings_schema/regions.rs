//! The generated regions of the hand-written files (`BEGIN GENERATED <tag>` ...
//! `END GENERATED <tag>`) and what renders each.

use super::*;

/// Replaces the lines between `BEGIN GENERATED <tag>` and `END GENERATED <tag>` with
/// `body`, indented as the BEGIN line.
pub(super) fn replace_region(text: &str, tag: &str, body: &str, file: &str) -> String {
    let begin = format!("BEGIN GENERATED {tag}");
    let end = format!("END GENERATED {tag}");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let b = lines
        .iter()
        .position(|l| l.trim_end().ends_with(&begin))
        .unwrap_or_else(|| panic!("{file} lacks a `{begin}` line"));
    let e = lines
        .iter()
        .position(|l| l.trim_end().ends_with(&end))
        .unwrap_or_else(|| panic!("{file} lacks an `{end}` line"));
    assert!(b < e, "{file}: `{begin}` after its end");
    let indent: String = lines[b].chars().take_while(|c| c.is_whitespace()).collect();
    let mut out: String = lines[..=b].concat();
    for l in body.lines() {
        if l.is_empty() {
            out.push('\n');
        } else {
            writeln!(out, "{indent}{l}").unwrap();
        }
    }
    out.push_str(&lines[e..].concat());
    out
}

pub(super) type Render = Box<dyn Fn() -> String>;

pub(super) fn regions() -> Vec<(&'static str, String, Render)> {
    let world = || desc("WorldDesc");
    let fluid = || desc("FluidDesc");
    let mut v: Vec<(&'static str, &'static str, Render)> = Vec::new();
    for (file, name) in [
        ("bindings/csharp/ColliderSettings.cs", "ColliderDesc"),
        ("bindings/csharp/WindSettings.cs", "WindDesc"),
        ("bindings/csharp/WindSettings.cs", "WindZoneDesc"),
        ("bindings/csharp/FluidSettings.cs", "EmitterDesc"),
        ("bindings/csharp/FluidSettings.cs", "KillVolumeDesc"),
        ("bindings/csharp/FluidSettings.cs", "AnisotropyDesc"),
        ("bindings/csharp/FluidSettings.cs", "DiffuseDesc"),
        ("bindings/csharp/FluidSettings.cs", "SurfaceDesc"),
        (
            "bindings/csharp/ParticleMaterialSettings.cs",
            "ParticleMaterial",
        ),
        (
            "bindings/csharp/ParticleMaterialSettings.cs",
            "GrainEmitterDesc",
        ),
    ] {
        let tag: &'static str = Box::leak(format!("{name} fields").into_boxed_str());
        v.push((file, tag, Box::new(move || cs_fields(&desc(name)))));
        let tag: &'static str = Box::leak(format!("{name} exchange").into_boxed_str());
        v.push((file, tag, Box::new(move || cs_exchange(&desc(name)))));
    }
    // A collider component takes its shape and pose from the engine's collider; the rest
    // of the desc (its material, ...) are its own properties.
    let collider = || {
        part_except(
            "ColliderDesc",
            &[
                "shape",
                "position",
                "rotation",
                "radius",
                "half_height",
                "half_extents",
            ],
        )
    };
    const EMITTER: &[&str] = &["radius", "half_extents", "speed", "rate"];
    // A kill volume entry of an engine component: its shape is the engine's enum and its
    // box rotation the engine's (Euler angles, a transform); the sizes are the desc's.
    const KILL_UNITY: &[&str] = &["center", "half_extents", "radius", "normal"];
    const KILL_UNREAL: &[&str] = &["radius"];
    let all = || Group {
        header: "",
        fields: &[],
    };
    v.extend::<Vec<(&'static str, &'static str, Render)>>(vec![
        (
            unreal!("Public/SinewSettings.h"),
            "Stepping properties",
            Box::new(unreal_stepping),
        ),
        (
            "unity-sample/Runtime/SinewCollider.cs",
            "ColliderDesc describe",
            Box::new(move || unity_copy(&collider(), "desc")),
        ),
        (
            "bindings/cpp/sinew_colliders.hpp",
            "ColliderDesc material fields",
            Box::new(move || cpp_fields(&collider())),
        ),
        (
            "bindings/cpp/sinew_colliders.hpp",
            "ColliderDesc material copy",
            Box::new(move || cpp_copy(&collider(), "d", "material.")),
        ),
        (
            unreal!("Private/SinewColliderComponent.cpp"),
            "ColliderDesc material",
            Box::new(move || {
                unreal_aggregate(&collider(), "const sinew::colliders::Material Material")
            }),
        ),
        (
            "tests/csharp/RawTests.cs",
            "desc layouts",
            Box::new(cs_layout_checks),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "EmitterDesc setters",
            Box::new(move || cpp_setters(&desc("EmitterDesc"), "EmitterDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "KillVolumeDesc setters",
            Box::new(move || cpp_setters(&desc("KillVolumeDesc"), "KillVolumeDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "AnisotropyDesc setters",
            Box::new(move || cpp_setters(&desc("AnisotropyDesc"), "AnisotropyDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "DiffuseDesc setters",
            Box::new(move || cpp_setters(&desc("DiffuseDesc"), "DiffuseDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "SurfaceDesc setters",
            Box::new(move || cpp_setters(&desc("SurfaceDesc"), "SurfaceDesc")),
        ),
        (
            "unity-sample/Runtime/SinewCollider.cs",
            "ColliderDesc fields",
            Box::new(move || unity_fields(&collider(), &[all()])),
        ),
        (
            "unity-sample/Runtime/SinewCollider.cs",
            "ColliderDesc clamps",
            Box::new(move || unity_clamps(&collider())),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "EmitterDesc fields",
            Box::new(move || unity_fields(&part("EmitterDesc", EMITTER), &[all()])),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "KillVolumeDesc fields",
            Box::new(move || unity_struct_fields(&part("KillVolumeDesc", KILL_UNITY))),
        ),
        (
            unreal!("Public/SinewFluidComponent.h"),
            "KillVolumeDesc properties",
            Box::new(move || {
                unreal_properties(
                    &part("KillVolumeDesc", KILL_UNREAL),
                    &UnrealProps {
                        category: "Sinew|Fluid",
                        ..UnrealProps::default()
                    },
                )
            }),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "EmitterDesc clamps",
            Box::new(move || unity_clamps(&part("EmitterDesc", EMITTER))),
        ),
        (
            unreal!("Public/SinewColliderComponent.h"),
            "ColliderDesc properties",
            Box::new(move || {
                unreal_properties(
                    &collider(),
                    &UnrealProps {
                        category: "Sinew|Material",
                        ..UnrealProps::default()
                    },
                )
            }),
        ),
        (
            unreal!("Public/SinewFluidComponent.h"),
            "EmitterDesc properties",
            Box::new(move || {
                unreal_properties(
                    &part("EmitterDesc", EMITTER),
                    &UnrealProps {
                        category: "Sinew|Fluid",
                        ..UnrealProps::default()
                    },
                )
            }),
        ),
        (
            "bindings/csharp/WorldSettings.cs",
            "WorldDesc fields",
            Box::new(move || cs_fields(&world())),
        ),
        (
            "bindings/csharp/WorldSettings.cs",
            "WorldDesc exchange",
            Box::new(move || cs_exchange(&world())),
        ),
        (
            "bindings/csharp/FluidSettings.cs",
            "FluidDesc fields",
            Box::new(move || cs_fields(&fluid())),
        ),
        (
            "bindings/csharp/FluidSettings.cs",
            "FluidDesc exchange",
            Box::new(move || cs_exchange(&fluid())),
        ),
        (
            "bindings/cpp/sinew.hpp",
            "WorldDesc setters",
            Box::new(move || cpp_setters(&world(), "WorldDesc")),
        ),
        (
            "bindings/cpp/sinew.hpp",
            "ParticleMaterial setters",
            Box::new(move || cpp_setters(&desc("ParticleMaterial"), "ParticleMaterial")),
        ),
        (
            "bindings/cpp/sinew.hpp",
            "GrainEmitterDesc setters",
            Box::new(move || cpp_setters(&desc("GrainEmitterDesc"), "GrainEmitterDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "FluidDesc setters",
            Box::new(move || cpp_setters(&fluid(), "FluidDesc")),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc fields",
            Box::new(move || {
                unity_fields(
                    &world(),
                    &[Group {
                        header: "",
                        fields: &[],
                    }],
                )
            }),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc settings",
            Box::new(move || unity_copy(&world(), "s")),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc clamps",
            Box::new(move || unity_clamps(&world())),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc fields",
            Box::new(move || {
                unity_fields(
                    &fluid(),
                    &[
                        Group {
                            header:
                                "Particles (read when the fluid is created; Rebuild applies them)",
                            fields: &["spacing", "capacity"],
                        },
                        Group {
                            header: "Fluid (edited in place)",
                            fields: &[],
                        },
                    ],
                )
            }),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc settings",
            Box::new(move || unity_copy(&fluid(), "s")),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc clamps",
            Box::new(move || unity_clamps(&fluid())),
        ),
        (
            unreal!("Public/SinewSettings.h"),
            "WorldDesc properties",
            Box::new(move || {
                unreal_properties(
                    &world(),
                    &UnrealProps {
                        category: "Solver",
                        common: "Config, ",
                        ..UnrealProps::default()
                    },
                )
            }),
        ),
        (
            unreal!("Private/SinewWorldSubsystem.cpp"),
            "WorldDesc copy",
            Box::new(move || unreal_copy(&world(), "Desc", "Settings->", &[])),
        ),
        (
            unreal!("Public/SinewFluidComponent.h"),
            "FluidDesc properties",
            Box::new(move || {
                unreal_properties(
                    &fluid(),
                    &UnrealProps {
                        category: "Sinew|Fluid",
                        extra: &[
                            ("rest_density", "BlueprintSetter = SetRestDensity"),
                            ("viscosity", "BlueprintSetter = SetViscosity"),
                        ],
                        read_only: &["spacing", "capacity"],
                        ..UnrealProps::default()
                    },
                )
            }),
        ),
        (
            unreal!("Private/SinewFluidComponent.cpp"),
            "FluidDesc copy",
            Box::new(move || unreal_copy(&fluid(), "D", "", &[])),
        ),
    ]);
    let mut all: Vec<(&'static str, String, Render)> = v
        .into_iter()
        .map(|(file, tag, render)| (file, tag.to_string(), render))
        .collect();
    all.extend(body_regions());
    all.extend(argument_regions());
    all
}
