//! No limit written by hand in the engines and bindings (issue 27: "Unity and Unreal
//! clamp with the generated constants"). This test reads every C#, C++ and header file
//! under bindings/, unity-sample/ and unreal-sample/ and fails on a number written in
//! a clamp outside the regions that tests/bindings/settings_schema/ generates
//! (`BEGIN GENERATED` ... `END GENERATED`):
//!
//! * a clamp call (`SinewAuthoring.Clamp`, `Mathf.Clamp`, `FMath::Clamp`, `std::clamp`)
//!   or a bound call (`Max`/`Min` of `Math`, `Mathf`, `FMath`, `std::max`/`std::min`),
//!   one of whose arguments is a number;
//! * Unreal metadata `ClampMin = "<number>"` / `ClampMax = "<number>"`;
//! * Unity attributes `[Range(<number>, ...)]` / `[Min(<number>)]`.
//!
//! 0 and 1 are allowed (the ends of a natural domain: a quantity that is not negative,
//! a fraction, a count of at least one); any other number must come from a generated
//! constant (`SinewNative.SINEW_MAX_*`, `SINEW_MAX_*` in C++) or generated metadata.
//! What must stay (presentation: gizmo sizes, slider ranges, render batch sizes; or a
//! guard that is not a setting's limit) is listed in [`ALLOWED`] with the reason.

use std::path::Path;

use crate::unity_package::walk;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DIRS: [&str; 3] = ["bindings", "unity-sample", "unreal-sample"];

/// (file relative to the root, a piece of the line, why its number is no limit).
const ALLOWED: &[(&str, &str, &str)] = &[
    // Drawing only: the particles' size and colour ramp, the emitter gizmo.
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "[Min(0.001f)]",
        "the speed drawn in the fast colour (a divisor of the colour ramp), m/s",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "particleScale = SinewAuthoring.Clamp(particleScale, 0f, 100f);",
        "the drawn sphere's diameter as a multiple of the spacing",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "[Min(0.0001f)]",
        "the radius of the drawn mesh (a divisor of the instance scale), m",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "particleMeshRadius = SinewAuthoring.Clamp(particleMeshRadius, 0.0001f, float.MaxValue);",
        "the radius of the drawn mesh (a divisor of the instance scale), m",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "[Range(0.1f, SinewNative.SINEW_MAX_ELLIPSOID_SCALE)]",
        "the slider's lower end; the value is clamped to (0, SINEW_MAX_ELLIPSOID_SCALE]",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "[Range(0.01f, 60f)]",
        "the diffuse lifetime slider (s); the value is clamped to (0, SINEW_MAX_FLUID_LIFETIME]",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "diffuseSize = SinewAuthoring.Clamp(diffuseSize, 0f, 100f);",
        "the drawn diffuse quad's size as a multiple of the spacing",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewFluidInstances.h",
        "FMath::Max(MeshDiameter, 0.001)",
        "the drawn mesh's diameter (a divisor of the instance scale), cm",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "fastSpeed = SinewAuthoring.Clamp(fastSpeed, 0.001f, float.MaxValue);",
        "the speed drawn in the fast colour (a divisor of the colour ramp)",
    ),
    (
        "unity-sample/Runtime/SinewFluid.cs",
        "Math.Max(speed, 0.1f) * 0.25f",
        "the length of the emitter gizmo's arrow",
    ),
    (
        "unity-sample/Runtime/SinewGranular.cs",
        "Math.Max(speed, 0.1f) * 0.25f",
        "the length of the emitter gizmo's arrow",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewGranularComponent.cpp",
        "FMath::Max(MeshDiameter, 0.001f)",
        "the drawn mesh's diameter (a divisor of the instance scale), cm",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Public/SinewGranularComponent.h",
        "Category = \"Sinew|Rendering\", meta = (ClampMin = \"0.001\"",
        "the drawn mesh's diameter (a divisor of the instance scale)",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewFluidComponent.cpp",
        "FMath::Max(MeshDiameter, 0.001f)",
        "the drawn mesh's diameter (a divisor of the instance scale), cm",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewFluidComponent.cpp",
        "FMath::Max(FastSpeed, 0.001f)",
        "the speed drawn in the fast colour (a divisor of the colour ramp)",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Public/SinewFluidComponent.h",
        "Category = \"Sinew|Rendering\", meta = (ClampMin = \"0.001\"",
        "the drawn mesh's diameter and the fast colour's speed (divisors)",
    ),
    // The rope's tube mesh (drawing only).
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp",
        "FMath::Clamp(NumSides, 3, 64)",
        "vertices around the drawn tube",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp",
        "TileMaterial / FMath::Max(RopeLength, 0.1f)",
        "the texture's repeat along the drawn tube (a divisor)",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Public/SinewRopeComponent.h",
        "ClampMin = \"3\", ClampMax = \"64\"",
        "vertices around the drawn tube",
    ),
    (
        "unreal-sample/Plugins/Sinew/Source/Sinew/Public/SinewRopeComponent.h",
        "ClampMin = \"0.01\", UIMin = \"0.1\", UIMax = \"50\"",
        "the drawn tube's diameter",
    ),
    // Unity's input: Input.GetMouseButton takes 0 (left), 1 (right), 2 (middle).
    (
        "unity-sample/Runtime/SinewGrabber.cs",
        "[Range(0, 2)]",
        "a Unity mouse button",
    ),
    (
        "unity-sample/Runtime/SinewGrabber.cs",
        "SinewAuthoring.Clamp(mouseButton, 0, 2)",
        "a Unity mouse button",
    ),
];

/// Whether `arg` is a numeric literal other than 0 and 1 (`100f`, `0.001f`, `1e-4f`,
/// `-2`, `4194304u`); a name, an expression or `float.MaxValue` is not.
fn hand_number(arg: &str) -> bool {
    let a = arg.trim().trim_start_matches(['-', '+', '(']).trim();
    let a = a.strip_prefix("(float)").unwrap_or(a).trim();
    if !a.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let digits = a.trim_end_matches(['f', 'F', 'u', 'U', 'd', 'D', 'l', 'L']);
    if !digits
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
    {
        return false;
    }
    match digits.parse::<f64>() {
        Ok(v) => v != 0.0 && v != 1.0,
        Err(_) => false,
    }
}

/// The top-level arguments of the call whose `(` is at `open` in `line` (a call that
/// does not close on its line is read up to the end of the line).
fn arguments(line: &str, open: usize) -> Vec<String> {
    let mut args = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in line[open + 1..].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    args.push(cur);
    args
}

/// The calls whose arguments are checked: clamps and bounds.
const CALLS: [&str; 12] = [
    "Clamp(",
    "FMath::Max(",
    "FMath::Min(",
    "Mathf.Max(",
    "Mathf.Min(",
    "Math.Max(",
    "Math.Min(",
    "std::max(",
    "std::min(",
    "std::clamp(",
    "[Range(",
    "[Min(",
];

/// The hand-written limits of one line: what each finding says.
fn findings(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for call in CALLS {
        let mut from = 0;
        while let Some(at) = line[from..].find(call) {
            let open = from + at + call.len() - 1;
            // `Clamp(` also ends `SinewAuthoring.Clamp(`, `FMath::Clamp(`; not `Clamp01(`.
            let args = arguments(line, open);
            if let Some(a) = args.iter().find(|a| hand_number(a)) {
                out.push(format!("{} with {}", call.trim_end_matches('('), a.trim()));
            }
            from = open + 1;
        }
    }
    for meta in ["ClampMin", "ClampMax"] {
        let mut from = 0;
        while let Some(at) = line[from..].find(meta) {
            let rest = &line[from + at + meta.len()..];
            let value = rest
                .trim_start()
                .strip_prefix('=')
                .and_then(|r| r.trim_start().strip_prefix('"'))
                .and_then(|r| r.split('"').next());
            if let Some(v) = value.filter(|v| hand_number(v)) {
                out.push(format!("{meta} = \"{v}\""));
            }
            from += at + meta.len();
        }
    }
    out
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
}

#[test]
fn engines_and_bindings_clamp_with_generated_limits() {
    let root = Path::new(ROOT);
    let mut files = Vec::new();
    for d in DIRS {
        walk(&root.join(d), &mut |p| {
            if p.extension()
                .is_some_and(|e| e == "cs" || e == "h" || e == "hpp" || e == "cpp")
            {
                files.push(p.to_path_buf());
            }
        });
    }
    files.sort();
    assert!(files.len() > 20, "found only {} sources", files.len());
    let mut bad = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for path in &files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {rel}: {e}"));
        let mut generated = false;
        for (n, line) in text.lines().enumerate() {
            if line.contains("BEGIN GENERATED") {
                generated = true;
                continue;
            }
            if line.contains("END GENERATED") {
                generated = false;
                continue;
            }
            if generated || is_comment(line) {
                continue;
            }
            for f in findings(line) {
                let allowed = ALLOWED
                    .iter()
                    .position(|(file, piece, _)| *file == rel && line.contains(piece));
                match allowed {
                    Some(i) => used[i] = true,
                    None => bad.push(format!("{rel}:{}: {f}: {}", n + 1, line.trim())),
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "limits written by hand (use the generated constant or metadata, or list it in \
         ALLOWED with the reason):\n{}",
        bad.join("\n")
    );
    let stale: Vec<_> = ALLOWED
        .iter()
        .zip(&used)
        .filter(|(_, &u)| !u)
        .map(|((f, p, _), _)| format!("{f}: {p}"))
        .collect();
    assert!(
        stale.is_empty(),
        "ALLOWED entries that match nothing: {stale:?}"
    );
}

#[test]
fn the_scan_finds_what_it_must() {
    assert_eq!(
        findings("capacity = SinewAuthoring.Clamp(capacity, 1, 4194304);").len(),
        1
    );
    assert_eq!(findings("x = Mathf.Clamp(x, 0f, 1e12f);").len(), 1);
    assert_eq!(
        findings("const float W = (float)N / FMath::Max(Mass, 0.001f);").len(),
        1
    );
    assert_eq!(
        findings(r#"UPROPERTY(meta = (ClampMin = "0.01", ClampMax = "1"))"#).len(),
        1
    );
    assert_eq!(findings("[Range(0f, 20f)]").len(), 1);
    assert_eq!(findings("[Min(0.001f)]").len(), 1);
    assert!(findings("x = SinewAuthoring.Clamp(x, 0f, SinewNative.SINEW_MAX_LENGTH);").is_empty());
    assert!(findings("v = FMath::Max(V, 0.0f); i = Math.Min(a, b);").is_empty());
    assert!(findings("x = SinewAuthoring.Clamp(x, 1, int.MaxValue);").is_empty());
}
