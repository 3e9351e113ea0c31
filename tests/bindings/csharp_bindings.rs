//! The raw C# P/Invoke layer, `bindings/csharp/Native/SinewNative.g.cs`, is generated
//! from include/sinew.h (itself generated from src/ffi by cbindgen) by
//! tests/bindgen/csharp.rs, and committed so that Unity and Mono need no build step.
//! This test regenerates it and fails when the committed file differs.
//!
//! To refresh after a change to src/ffi:
//!   `SINEW_UPDATE_HEADER=1 cargo test --test ffi header::`
//!   `SINEW_UPDATE_BINDINGS=1 cargo test --test bindings csharp_bindings::`
//! then adapt the hand-written idiomatic layer (bindings/csharp/*.cs) if needed.

#[path = "../bindgen/csharp.rs"]
mod generator;

use generator::{csharp_variant, emit_csharp, parse_header, Header, REFRESH};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const GENERATED: &str = "bindings/csharp/Native/SinewNative.g.cs";

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

fn header() -> Header {
    parse_header(&read("include/sinew.h"))
}

#[test]
fn committed_raw_layer_matches_the_header() {
    let generated = emit_csharp(&header());
    let path = Path::new(ROOT).join(GENERATED);
    if std::env::var_os("SINEW_UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &generated).expect("write the generated C# layer");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(generated.lines().count()));
        panic!(
            "{GENERATED} is stale against include/sinew.h (first difference at line {}): run `{REFRESH}`",
            first + 1
        );
    }
}

#[test]
fn header_parses_into_the_expected_shape() {
    let h = header();
    let names: Vec<&str> = h.functions.iter().map(|f| f.name.as_str()).collect();
    // Every `sinew_` function in the header text is in the model (none silently dropped).
    let text = read("include/sinew.h");
    let declared = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with('*') && !l.starts_with("/*") && l.contains("sinew_") && l.contains('(')
        })
        .count();
    assert_eq!(names.len(), declared, "parsed functions: {names:?}");
    assert!(names.len() >= 60, "parsed functions: {names:?}");
    let rp = h
        .functions
        .iter()
        .find(|f| f.name == "sinew_world_read_positions")
        .unwrap();
    assert_eq!(rp.ret, "SinewStatus");
    assert_eq!(h.csharp_type(&rp.ret), "int");
    assert_eq!(rp.params[0], ("struct SinewWorld".into(), "world".into()));
    assert_eq!(rp.params[3], ("void *".into(), "out".into()));
    assert!(
        rp.doc.iter().any(|l| l.contains("stride_bytes")),
        "{:?}",
        rp.doc
    );
    let wd = h.struct_named("SinewWorldDesc").unwrap();
    assert_eq!(wd.fields.len(), 12);
    assert_eq!(h.csharp_type("const struct SinewVec3 *"), "SinewVec3*");
    assert_eq!(h.csharp_type("const char *"), "byte*");
    assert_eq!(h.enum_named("SinewStatus").unwrap().underlying, "int32_t");
    assert_eq!(h.enum_named("SinewFamily").unwrap().variants.len(), 15);
    let member = |e: &str, m: &str| {
        let members: Vec<&str> = h
            .enum_named(e)
            .unwrap()
            .variants
            .iter()
            .map(|(n, _, _)| n.as_str())
            .collect();
        csharp_variant(e, &members, m)
    };
    assert_eq!(
        member("SinewStatus", "SINEW_ERROR_NULL_POINTER"),
        "ErrorNullPointer"
    );
    assert_eq!(
        member("SinewSolver", "SINEW_SOLVER_GAUSS_SEIDEL"),
        "GaussSeidel"
    );
    // The type's name never twice: SinewBendingModel.Dihedral, SinewEmitterShape.Nozzle,
    // SinewProfileStage.Integrate, SinewSimMode.Reduced.
    assert_eq!(
        member("SinewBendingModel", "SINEW_BENDING_DIHEDRAL"),
        "Dihedral"
    );
    assert_eq!(
        member("SinewEmitterShape", "SINEW_EMITTER_NOZZLE"),
        "Nozzle"
    );
    assert_eq!(
        member("SinewProfileStage", "SINEW_PROFILE_STAGE_INTEGRATE"),
        "Integrate"
    );
    assert_eq!(member("SinewSimMode", "SINEW_SIM_REDUCED"), "Reduced");
    assert_eq!(member("SinewShape", "SINEW_SHAPE_BOX"), "Box");
    assert!(h.consts.iter().any(|c| c.name == "SINEW_ABI_VERSION"));
    assert!(
        h.consts
            .iter()
            .filter(|c| c.name.starts_with("SINEW_MATERIAL_"))
            .count()
            >= 7
    );
}

#[test]
fn declarations_are_burst_compatible() {
    // Burst's DllImport takes integers, floats, pointers and one-integer handle structs.
    let h = header();
    let by_value: Vec<&str> = h
        .by_value_returns()
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        by_value,
        [
            "sinew_rope_desc_default",
            "sinew_cloth_desc_default",
            "sinew_cloth_grid_desc_default",
            "sinew_tet_body_desc_default",
            "sinew_pressure_body_desc_default",
            "sinew_collider_desc_default",
            "sinew_collision_filter_default",
            "sinew_anisotropy_desc_default",
            "sinew_diffuse_desc_default",
            "sinew_surface_desc_default",
            "sinew_fluid_desc_default",
            "sinew_emitter_desc_default",
            "sinew_kill_volume_desc_default",
            "sinew_particle_material_default",
            "sinew_grain_emitter_desc_default",
            "sinew_wind_desc_default",
            "sinew_wind_zone_desc_default",
            "sinew_world_desc_default",
        ],
        "functions returning a desc by value (each has a *_init twin)"
    );
    const SCALARS: &[&str] = &[
        "void", "byte", "sbyte", "short", "ushort", "int", "uint", "long", "ulong", "float",
        "double",
    ];
    let mut errors = Vec::new();
    for f in h
        .functions
        .iter()
        .filter(|f| !by_value.contains(&f.name.as_str()))
    {
        for c in std::iter::once(&f.ret).chain(f.params.iter().map(|(t, _)| t)) {
            let t = h.csharp_type(c);
            let ok = t.ends_with('*')
                || SCALARS.contains(&t.as_str())
                || h.is_handle(c.trim().trim_start_matches("struct ").trim());
            if !ok {
                errors.push(format!("{}: `{c}` crosses as `{t}`", f.name));
            }
        }
    }
    assert!(
        errors.is_empty(),
        "not Burst-compatible:\n  {}",
        errors.join("\n  ")
    );
    let cs = read(GENERATED);
    assert!(
        !cs.contains("MarshalAs") && !cs.contains(" bool "),
        "blittable types only"
    );
}

#[test]
fn library_name_is_internal_on_statically_linked_players() {
    let cs = read(GENERATED);
    let lib = "#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR\n        public const string Lib = \"__Internal\";\n#else\n        public const string Lib = \"sinew\";\n#endif";
    assert!(
        cs.contains(lib),
        "library name: `sinew`, `__Internal` on iOS and WebGL players"
    );
}

/// The hand-written C# (the idiomatic layer and the helpers beside the generated file)
/// declares no P/Invoke, enum or constant of the header: those come from one place.
#[test]
fn hand_written_csharp_does_not_copy_the_header() {
    let h = header();
    let base = Path::new(ROOT).join("bindings/csharp");
    let mut files = Vec::new();
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cs") && !p.ends_with("SinewNative.g.cs") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 10, "{files:?}");
    let mut errors = Vec::new();
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let rel = p.strip_prefix(&base).unwrap().display().to_string();
        if text.contains("DllImport") {
            errors.push(format!("{rel}: declares a DllImport"));
        }
        for e in &h.enums {
            if text.contains(&format!("enum {} ", e.name))
                || text.contains(&format!("enum {}\n", e.name))
            {
                errors.push(format!("{rel}: redeclares enum {}", e.name));
            }
        }
        for c in &h.consts {
            if text.contains(&format!("const uint {} ", c.name))
                || text.contains(&format!("const float {} ", c.name))
            {
                errors.push(format!("{rel}: redeclares constant {}", c.name));
            }
        }
        for s in &h.structs {
            for line in text.lines() {
                let l = line.trim();
                if l.ends_with(&format!("struct {}", s.name)) && !l.contains("partial") {
                    errors.push(format!("{rel}: redeclares struct {}", s.name));
                }
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
