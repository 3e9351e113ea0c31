//! Every public setting is declared once (`settings!` and `limits!`, src/limits.rs and
//! src/limits/schema.rs); this test renders every other layer from those declarations
//! (one renderer per layer: ffi.rs, csharp.rs, cpp.rs, unity.rs, unreal.rs; the regions
//! they fill in regions.rs and bodies.rs) and fails when a committed file is stale:
//!
//! * src/ffi/settings/ (whole files): the `SINEW_MAX_*`/`SINEW_MIN_*` constants, the
//!   `#[repr(C)]` twins of the descs and their conversions, one file per module that
//!   declares descs (cbindgen reads them into include/sinew.h);
//! * regions between `BEGIN GENERATED <tag>` and `END GENERATED <tag>` lines in the
//!   hand-written files: the C# settings fields and their copy to the native desc, the
//!   C++ setters, the Unity fields (`[Tooltip]`, `[Range]`/`[Min]`), their copy and
//!   their `OnValidate` clamps (with the header's constants), and the Unreal
//!   `UPROPERTY`s (`ClampMin`/`ClampMax`, `Units`, `ToolTip`) and their copy.
//!
//! To refresh after changing a declaration:
//!   `SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::`
//! then `SINEW_UPDATE_HEADER=1 cargo test --test ffi header::`,
//! `SINEW_UPDATE_BINDINGS=1 cargo test --test bindings csharp_bindings::` and
//! `SINEW_UPDATE_DOCS=1 cargo test --test ffi docs::`.

use sinew::schema::{Auto, Bound, Desc, Field, Kind};
use sinew::{Limit, LIMITS};
use std::fmt::Write as _;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The generated module of the C twins and constants (whole files).
const FFI_DIR: &str = "src/ffi/settings";
const REFRESH: &str = "SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::";

/// A file of the Unreal plugin's module (`Public/...`, `Private/...`), as a path from
/// the root.
macro_rules! unreal {
    ($file:literal) => {
        concat!("unreal-sample/Plugins/Sinew/Source/Sinew/", $file)
    };
}

mod arguments;
mod bodies;
mod cpp;
mod csharp;
mod ffi;
mod regions;
mod text;
mod unity;
mod unreal;

use arguments::argument_regions;
use bodies::body_regions;
use cpp::*;
use csharp::*;
use ffi::*;
use regions::*;
use text::*;
use unity::*;
use unreal::*;

fn descs() -> Vec<Desc> {
    vec![
        sinew::WorldDesc::schema(),
        sinew::FluidDesc::schema(),
        sinew::RopeDesc::schema(),
        sinew::ClothDesc::schema(),
        sinew::ClothGridDesc::schema(),
        sinew::TetBodyDesc::schema(),
        sinew::PressureBodyDesc::schema(),
        sinew::ColliderDesc::schema(),
        sinew::EmitterDesc::schema(),
        sinew::KillVolumeDesc::schema(),
        sinew::AnisotropyDesc::schema(),
        sinew::DiffuseDesc::schema(),
        sinew::SurfaceDesc::schema(),
        sinew::WindDesc::schema(),
        sinew::WindZoneDesc::schema(),
        sinew::ParticleMaterial::schema(),
        sinew::GrainEmitterDesc::schema(),
    ]
}

fn desc(name: &str) -> Desc {
    descs().into_iter().find(|d| d.rust == name).unwrap()
}

/// The desc with only the fields named (in declaration order): the part of it an
/// engine component edits (a collider's material; its shape comes from the engine's).
fn part(name: &str, fields: &[&str]) -> Desc {
    let mut d = desc(name);
    d.fields.retain(|f| fields.contains(&f.name));
    assert_eq!(d.fields.len(), fields.len(), "{name}: {fields:?}");
    d
}

/// The desc without the fields named: the part an engine component edits when the
/// engine gives the others (a collider's shape and pose come from the engine's collider;
/// a field added to the desc joins the component's properties).
fn part_except(name: &str, skip: &[&str]) -> Desc {
    let mut d = desc(name);
    let n = d.fields.len();
    d.fields.retain(|f| !skip.contains(&f.name));
    assert_eq!(d.fields.len() + skip.len(), n, "{name}: {skip:?}");
    d
}

/// Every generated file's path and its fresh text.
fn generated() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = render_ffi();
    for (file, tag, render) in regions() {
        let current = match files.iter().position(|(f, _)| f == file) {
            Some(i) => files.remove(i).1,
            None => std::fs::read_to_string(Path::new(ROOT).join(file))
                .unwrap_or_else(|e| panic!("read {file}: {e}")),
        };
        let next = replace_region(&current, &tag, &render(), file);
        files.push((file.to_string(), next));
    }
    files
}

#[test]
fn generated_settings_are_fresh() {
    let update = std::env::var_os("SINEW_UPDATE_SETTINGS").is_some();
    let mut stale = Vec::new();
    let files = generated();
    for (file, text) in &files {
        let path = Path::new(ROOT).join(file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != *text {
            if update {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {file}: {e}"));
            } else {
                stale.push(file.clone());
            }
        }
    }
    // A file of the generated module that is no longer rendered (a group gone).
    let dir = Path::new(ROOT).join(FFI_DIR);
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {FFI_DIR}: {e}")) {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let file = format!("{FFI_DIR}/{name}");
        if !files.iter().any(|(f, _)| *f == file) {
            if update {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                stale.push(file);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale against the settings declarations: {stale:?}; run `{REFRESH}`"
    );
}

/// The declarations themselves: every field documented, every default accepted by its
/// own check, every named bound a declared limit.
#[test]
fn declarations_are_complete_and_consistent() {
    assert!(sinew::WorldDesc::default().validate().is_ok());
    assert!(sinew::FluidDesc::default().validate().is_ok());
    assert!(sinew::RopeDesc::default().validate().is_ok());
    assert!(sinew::ClothDesc::default().validate().is_ok());
    assert!(sinew::ClothGridDesc::default().validate().is_ok());
    assert!(sinew::TetBodyDesc::default().validate().is_ok());
    assert!(sinew::PressureBodyDesc::default().validate().is_ok());
    assert!(sinew::ColliderDesc::default().validate().is_ok());
    assert!(sinew::EmitterDesc::default().validate().is_ok());
    assert!(sinew::KillVolumeDesc::default().validate().is_ok());
    assert!(sinew::WindDesc::default().validate().is_ok());
    assert!(sinew::WindZoneDesc::default().validate().is_ok());
    assert!(sinew::ParticleMaterial::default().validate().is_ok());
    // The default variant's parameters are the declared defaults (one default per
    // setting in every layer).
    let emitter = sinew::EmitterDesc::default();
    let sinew::EmitterShape::Nozzle { radius } = emitter.shape else {
        panic!("the default emitter is a nozzle");
    };
    let declared = desc("EmitterDesc");
    let r = declared.fields.iter().find(|f| f.name == "radius").unwrap();
    assert_eq!(r.default, vec![radius as f64]);
    for d in descs() {
        for f in &d.fields {
            assert!(
                !paragraph(f.doc).is_empty(),
                "{}::{} has no doc",
                d.rust,
                f.name
            );
            for b in [f.range.min, f.range.max].into_iter().flatten() {
                let e = b.expr.trim().trim_start_matches('-').trim();
                let named = e
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                    && e.chars().next().is_some_and(|c| c.is_ascii_uppercase());
                if named {
                    assert!(
                        limit(e).is_some(),
                        "{}::{} names {e}, not a declared limit",
                        d.rust,
                        f.name
                    );
                }
            }
        }
    }
    // Limit names are unique and say what they bound.
    for (i, l) in LIMITS.iter().enumerate() {
        assert!(
            l.name.starts_with("MAX_") || l.name.starts_with("MIN_"),
            "{}",
            l.name
        );
        assert!(
            !LIMITS[..i].iter().any(|m| m.name == l.name),
            "{} twice",
            l.name
        );
        assert!(!paragraph(l.doc).is_empty(), "{} has no doc", l.name);
    }
}

/// A field's check refuses each side of its range with a message naming the field.
#[test]
fn checks_follow_the_declared_ranges() {
    let fluid = sinew::FluidDesc::default;
    let e = sinew::FluidDesc {
        rest_density: 0.0,
        ..fluid()
    }
    .validate()
    .unwrap_err();
    assert!(
        e.message.contains("rest_density") && e.message.contains("kg/m³"),
        "{e}"
    );
    let e = sinew::FluidDesc {
        scorr_n: 9,
        ..fluid()
    }
    .validate()
    .unwrap_err();
    assert!(
        e.message.contains("scorr_n 9") && e.message.contains("1..=8"),
        "{e}"
    );
    let d = sinew::FluidDesc {
        collision_radius: -5.0,
        ..fluid()
    };
    assert!(d.validate().is_ok(), "negative = spacing / 2");
    let d = sinew::FluidDesc {
        collision_radius: f32::NEG_INFINITY,
        ..fluid()
    };
    assert!(d.validate().is_err());
    let world = sinew::WorldDesc::default;
    let e = sinew::WorldDesc {
        jacobi_relaxation: 2.0,
        ..world()
    }
    .validate()
    .unwrap_err();
    assert!(e.message.contains("(0, 2)"), "{e}");
    let w = sinew::WorldDesc {
        threads: sinew::MAX_THREADS + 1,
        ..world()
    };
    let e = w.validate().unwrap_err();
    assert!(e.message.contains("0 = all cores"), "{e}");
}
