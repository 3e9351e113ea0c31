//! The C++ wrapper (bindings/cpp) and the Unreal Engine 5 plugin (unreal-sample/).
//!
//! * `cpp_wrapper` / `cpp_wrapper_asan_ubsan`: compile `tests/cpp/wrapper_test.cpp`
//!   with `g++ -std=c++17 -Wall -Wextra -Werror -pedantic` (the second time with
//!   `-fsanitize=address,undefined -fno-sanitize-recover=all`, leak detection on),
//!   link it to the `libsinew.so` built by this same `cargo test` (in
//!   `target/<profile>/deps/`, as tests/ffi/c_abi.rs explains), run it and require
//!   "N checks, 0 failed". The Rust side is not instrumented; the C++ side is.
//! * `cpp_colliders` / `cpp_colliders_asan_ubsan`: the same for
//!   `tests/cpp/colliders_test.cpp` (UE collider shapes, Scene colliders, pick, grab).
//! * `cpp_interpolation` / `cpp_interpolation_asan_ubsan`: the same for
//!   `tests/cpp/interpolation_test.cpp` (World::advance, interpolated reads).
//! * `cpp_soft` / `cpp_soft_asan_ubsan`: `tests/cpp/soft_test.cpp` (soft-body meshes).
//! * `cpp_render` / `cpp_render_asan_ubsan`: `tests/cpp/render_test.cpp`
//!   (sinew_render.hpp: the Unreal scene proxy's engine-neutral render data).
//! * `cpp_fluids` / `cpp_fluids_asan_ubsan`: `tests/cpp/fluid_test.cpp` (sinew_fluid.hpp:
//!   fluids, emitters, kill volumes, the strided readback, body coupling).
//! * `cpp_headers_are_self_contained_without_exceptions_or_rtti`: every header of
//!   bindings/cpp compiles on its own with `-fno-exceptions -fno-rtti` (how Unreal
//!   builds modules by default).
//! * `cpp_templates_compile_strictly_as_cpp17_and_cpp20`: every template instantiated
//!   with -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast, no exceptions/RTTI.
//! * `double_vector_is_rejected_at_compile_time`: reading positions into a 24-byte
//!   vector (UE5's FVector) must fail to compile with the static_assert naming FVector3f.
//! * `readme_cpp_example_compiles_and_runs`: the C++ snippet of the README section
//!   "Unreal Engine 5 / C++".
//! * `unreal_plugin_static_checks` (see tests/cpp/unreal_checks.rs): the .uplugin is
//!   valid JSON, every module it names has a Build.cs, every UCLASS/USTRUCT header
//!   includes its .generated.h last and has one GENERATED_BODY per reflected type, and
//!   the engine-neutral headers the plugin includes are the ones in bindings/cpp.
//! * `unreal_plugin_edits_in_place`: Blueprint setters and events of the live edits are
//!   declared as UHT requires, editor-only overrides sit in `#if WITH_EDITOR`, and no
//!   code path but BeginPlay/EndPlay adds or removes a body (nothing rebuilds the world).
//! * `unreal_components_on_a_stub_engine` (and `_asan_ubsan`): the plugin's rope and
//!   cloth components, scene proxy, editor preview and subsystem sources compiled
//!   against `tests/cpp/ue_stub` (a minimal stand-in for the UE types they use) and
//!   run: Blueprint edits apply in place, OnRopeBroken fires, the proxy draws a tube
//!   per piece and the cloth's vertices from the buffers it uploads, another rope
//!   continues bit for bit, an editor world previews a rope.
//! * `unreal_plugin_sources_compile_against_the_stub`: every .cpp of the plugin
//!   compiles on its own as C++20 against `tests/cpp/ue_stub`.
//! * `unreal_motion_vectors_on_a_stub_engine` (and `_asan_ubsan`): the scene proxy's
//!   opt-in motion vectors (tests/cpp/unreal_motion_test.cpp).
//! * `unreal_fluid_on_a_stub_engine` (and `_asan_ubsan`): the plugin's fluid component
//!   on the stub engine: Blueprint emission in cm and cm/s falls as a damped fall does,
//!   one mesh instance per live particle where it is drawn, kill volumes, emitters,
//!   in-place settings, body coupling switches.
//! * `unreal_niagara_on_a_stub_engine` (and `_asan_ubsan`): the plugin's Niagara data
//!   interface on the stub engine (and the stub's stand-ins for Niagara, the
//!   VectorVM and the render graph): its VM functions give a rope's and a fluid's
//!   particles as drawn, the buffer its GPU path uploads gives the same floats, and its
//!   generated HLSL compiles with glslangValidator's HLSL front end and, run on a CPU
//!   Vulkan driver (lavapipe), returns them (each where installed).
//! * `unreal_sdf_collider_on_a_stub_engine` (and `_asan_ubsan`): the collider
//!   component's static mesh distance field on the stub engine.
//! * `unreal_fixed_step_on_a_stub_engine` (and `_asan_ubsan`): the subsystem's fixed
//!   step, accumulator, MaxStepsPerFrame and GetInterpolationAlpha on the stub engine.
//! * `stage_script_copies_library_and_headers`: `unreal-sample/stage-library.sh` puts
//!   the headers and the library where SinewLibrary.Build.cs looks for them.
//!
//! Needs g++ (tests/run-all.sh installs it); without it the tests fail with a clear message.

#[path = "../cpp/unreal_checks.rs"]
mod unreal_checks;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>/deps/`: where this test binary and the `libsinew.so` of this
/// `cargo test` run live (see tests/ffi/c_abi.rs for why not `target/<profile>/`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .unwrap_or_else(|| panic!("{} has no parent directory", exe.display()))
        .to_path_buf()
}

/// A scratch directory: `target/<profile>/cpp-tests/<name>`.
fn scratch_dir(name: &str) -> PathBuf {
    let deps = lib_dir();
    let dir = deps
        .parent()
        .unwrap_or_else(|| panic!("{} has no parent", deps.display()))
        .join("cpp-tests")
        .join(name);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

fn run(mut cmd: Command) -> Output {
    let line = describe(&cmd);
    match cmd.output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{}` is not installed (needed to test the C++ wrapper; install g++): {line}",
            cmd.get_program().to_string_lossy()
        ),
        Err(e) => panic!("could not run `{line}`: {e}"),
    }
}

fn show(out: &Output) -> String {
    format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run_ok(cmd: Command, what: &str) -> Output {
    let line = describe(&cmd);
    let out = run(cmd);
    if !out.status.success() {
        panic!(
            "{what} failed ({})\ncommand: {line}\n{}",
            out.status,
            show(&out)
        );
    }
    out
}

/// The strict C++17 flags every C++ source here is compiled with.
fn gpp(extra: &[&str]) -> Command {
    let root = manifest_dir();
    let mut cc = Command::new("g++");
    cc.args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .args(extra)
        .arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("bindings/cpp"));
    cc
}

/// Compiles `src` linked to this build's libsinew.so, runs it, returns its stdout.
fn compile_and_run(src: &Path, name: &str, extra: &[&str]) -> String {
    let lib_dir = lib_dir();
    assert!(
        lib_dir.join("libsinew.so").is_file(),
        "{} not found: `cargo test` builds the cdylib next to this test binary",
        lib_dir.join("libsinew.so").display()
    );
    let exe = scratch_dir(name).join(name);
    let _ = std::fs::remove_file(&exe);
    let mut cc = gpp(extra);
    cc.args(["-O1", "-g"])
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib_dir)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()));
    run_ok(cc, &format!("compiling {}", src.display()));
    let sanitized = extra.iter().any(|f| f.starts_with("-fsanitize"));
    let mut cmd = match no_aslr_prefix() {
        // AddressSanitizer of GCC 12 can crash at start-up on kernels with
        // vm.mmap_rnd_bits = 32 (some newer distributions); without address-space
        // randomisation it always works and finds the same bugs.
        Some(arch) if sanitized => {
            let mut c = Command::new("setarch");
            c.args([arch.as_str(), "-R"]).arg(&exe);
            c
        }
        _ => Command::new(&exe),
    };
    cmd.env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD")
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:halt_on_error=1",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    let out = run_ok(cmd, &src.display().to_string());
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("runtime error") && !stderr.contains("Sanitizer"),
        "{name}: sanitizer report\n{}",
        show(&out)
    );
    stdout
}

/// `Some(arch)` when `setarch <arch> -R` works here (it needs the personality
/// syscall, which some containers forbid); None otherwise.
fn no_aslr_prefix() -> Option<String> {
    let arch = String::from_utf8(Command::new("uname").arg("-m").output().ok()?.stdout).ok()?;
    let arch = arch.trim().to_string();
    let ok = Command::new("setarch")
        .args([arch.as_str(), "-R", "true"])
        .output()
        .ok()?
        .status
        .success();
    ok.then_some(arch)
}

/// Flags of the `_asan_ubsan` variants.
const ASAN_UBSAN: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// Compiles `tests/cpp/<file>` as the test binary `name` with `extra` flags, runs it,
/// and checks it reported its `N checks, 0 failed` summary.
fn run_checks(file: &str, name: &str, extra: &[&str]) {
    let src = manifest_dir().join("tests/cpp").join(file);
    let stdout = compile_and_run(&src, name, extra);
    assert!(
        stdout.contains(" checks, 0 failed"),
        "{name} exited 0 but did not report its summary:\n{stdout}"
    );
}

/// [`run_checks`] for a test of the Unreal plugin's sources (included by the test
/// file) on the stand-in engine of tests/cpp/ue_stub. Unreal's own warning set does
/// not include unused parameters (engine overrides ignore many), so neither does this.
fn run_unreal_checks(file: &str, name: &str, extra: &[&str]) {
    let root = manifest_dir();
    let source = root.join("unreal-sample/Plugins/Sinew/Source/Sinew");
    let mut flags: Vec<String> = vec!["-Wno-unused-parameter".into()];
    for dir in [
        root.join("tests/cpp/ue_stub"),
        source.join("Public"),
        source.join("Private"),
    ] {
        flags.push(format!("-I{}", dir.display()));
    }
    flags.extend(extra.iter().map(|s| s.to_string()));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    run_checks(file, name, &flags);
}

#[test]
fn cpp_wrapper() {
    run_checks("wrapper_test.cpp", "wrapper_test", &[]);
}

#[test]
fn cpp_wrapper_asan_ubsan() {
    run_checks("wrapper_test.cpp", "wrapper_test_asan_ubsan", ASAN_UBSAN);
}

/// tests/cpp/soft_test.cpp: bindings/cpp/sinew_soft.hpp (weld, tetrahedralise, embed)
/// and the Scene's soft bodies, which the Unreal soft body component is built on.
#[test]
fn cpp_soft() {
    run_checks("soft_test.cpp", "soft_test", &[]);
}

#[test]
fn cpp_soft_asan_ubsan() {
    run_checks("soft_test.cpp", "soft_test_asan_ubsan", ASAN_UBSAN);
}

/// Every .cpp of the Unreal plugin compiles on its own as C++20 (as UE 5.3+ builds
/// modules) against the stand-in engine of tests/cpp/ue_stub, with the strict flags
/// (and without exceptions, as Unreal builds modules by default). The stub declares
/// only what the plugin uses, so an engine type or call the stub lacks fails here
/// first; whether UE itself has it is what a real UnrealBuildTool build checks.
#[test]
fn unreal_plugin_sources_compile_against_the_stub() {
    let root = manifest_dir();
    let source = root.join("unreal-sample/Plugins/Sinew/Source/Sinew");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(source.join("Private"))
        .unwrap_or_else(|e| panic!("cannot list the plugin's sources: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .collect();
    sources.sort();
    for expected in [
        "SinewClothComponent.cpp",
        "SinewColliderComponent.cpp",
        "SinewEditorPreview.cpp",
        "SinewFluidComponent.cpp",
        "SinewMeshSceneProxy.cpp",
        "SinewModule.cpp",
        "SinewNiagaraDataInterface.cpp",
        "SinewRopeComponent.cpp",
        "SinewSkinnedClothComponent.cpp",
        "SinewSoftBodyComponent.cpp",
        "SinewWorldSubsystem.cpp",
    ] {
        assert!(
            sources.iter().any(|p| p.ends_with(expected)),
            "{expected} not found among {sources:?}"
        );
    }
    let dir = scratch_dir("unreal_sources");
    for src in &sources {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let mut cc = gpp(&["-Wno-unused-parameter", "-fno-exceptions"]);
        cc.arg("-std=c++20")
            .arg("-I")
            .arg(root.join("tests/cpp/ue_stub"))
            .arg("-I")
            .arg(source.join("Public"))
            .arg("-I")
            .arg(source.join("Private"))
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(dir.join(format!("{name}.o")));
        run_ok(cc, &format!("compiling {} against the stub", src.display()));
    }
}

/// tests/cpp/unreal_stub_test.cpp: the Unreal plugin's components, scene proxy, editor
/// preview and world subsystem (their .cpp files as shipped) on the stand-in engine,
/// plain and under ASan/UBSan.
#[test]
fn unreal_components_on_a_stub_engine() {
    run_unreal_checks("unreal_stub_test.cpp", "unreal_stub_test", &[]);
}

#[test]
fn unreal_components_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_stub_test.cpp",
        "unreal_stub_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/unreal_fixed_step_test.cpp: the subsystem's fixed step, accumulator,
/// MaxStepsPerFrame cap and interpolation weight, on the stub engine (same flags as
/// the stub test above), plain and under ASan/UBSan.
/// tests/cpp/unreal_softbody_test.cpp: the plugin's soft body component in its three
/// modes on the stand-in engine (built, drawn, falling, edited in place, removed).
#[test]
fn unreal_soft_body_on_a_stub_engine() {
    run_unreal_checks("unreal_softbody_test.cpp", "unreal_softbody_test", &[]);
}

#[test]
fn unreal_soft_body_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_softbody_test.cpp",
        "unreal_softbody_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

#[test]
fn unreal_fixed_step_on_a_stub_engine() {
    run_unreal_checks("unreal_fixed_step_test.cpp", "unreal_fixed_step_test", &[]);
}

#[test]
fn unreal_fixed_step_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_fixed_step_test.cpp",
        "unreal_fixed_step_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/unreal_motion_test.cpp: the scene proxy's motion vectors (bOutputMotionVectors
/// on a falling soft body, a swinging, winched and cut rope and a tearing cloth): UV1.xy
/// and UV2.x are previous - current positions bit for bit, 0 on the first frame and after
/// a topology change, and nothing of it exists with the option off.
#[test]
fn unreal_motion_vectors_on_a_stub_engine() {
    run_unreal_checks("unreal_motion_test.cpp", "unreal_motion_test", &[]);
}

#[test]
fn unreal_motion_vectors_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_motion_test.cpp",
        "unreal_motion_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/unreal_fluid_test.cpp: the plugin's fluid component (emission in cm and
/// cm/s, free fall, the instanced mesh, kill volumes, emitters, in-place settings, body
/// coupling switches) on the stub engine, plain and under ASan/UBSan.
#[test]
fn unreal_fluid_on_a_stub_engine() {
    run_unreal_checks("unreal_fluid_test.cpp", "unreal_fluid_test", &[]);
}

#[test]
fn unreal_fluid_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_fluid_test.cpp",
        "unreal_fluid_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/unreal_niagara_test.cpp: the plugin's Niagara data interface (type
/// registration, function signatures, its VM functions called as the VectorVM calls
/// them over a rope's and a fluid's particles) on the stub engine, plain and under
/// ASan/UBSan.
#[test]
fn unreal_niagara_on_a_stub_engine() {
    run_unreal_checks("unreal_niagara_test.cpp", "unreal_niagara_test", &[]);
}

#[test]
fn unreal_niagara_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_niagara_test.cpp",
        "unreal_niagara_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/unreal_sdf_test.cpp: the collider component's Shape StaticMesh (the
/// library's distance field of a closed static mesh: baked once, kept, refused with
/// one log line when open) on the stub engine, plain and under ASan/UBSan.
#[test]
fn unreal_sdf_collider_on_a_stub_engine() {
    run_unreal_checks("unreal_sdf_test.cpp", "unreal_sdf_test", &[]);
}

#[test]
fn unreal_sdf_collider_on_a_stub_engine_asan_ubsan() {
    run_unreal_checks(
        "unreal_sdf_test.cpp",
        "unreal_sdf_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/colliders_test.cpp: sinew_colliders.hpp (UE shapes -> collider descs)
/// and the Scene's colliders, radii, picks and grabs, plain and under ASan/UBSan.
#[test]
fn cpp_colliders() {
    run_checks("colliders_test.cpp", "colliders_test", &[]);
}

#[test]
fn cpp_colliders_asan_ubsan() {
    run_checks(
        "colliders_test.cpp",
        "colliders_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/interpolation_test.cpp: World::advance and the interpolated reads of the
/// wrapper (step counts, the cap, jittery frames bit for bit, the lerp into a vertex
/// buffer), plain and under ASan/UBSan.
#[test]
fn cpp_interpolation() {
    run_checks("interpolation_test.cpp", "interpolation_test", &[]);
}

#[test]
fn cpp_interpolation_asan_ubsan() {
    run_checks(
        "interpolation_test.cpp",
        "interpolation_test_asan_ubsan",
        ASAN_UBSAN,
    );
}

/// tests/cpp/render_test.cpp: sinew_render.hpp (the render data of the Unreal scene
/// proxy: transform, bounds, rope tubes per piece, cloth vertices), plain and under
/// ASan/UBSan.
#[test]
fn cpp_render() {
    run_checks("render_test.cpp", "render_test", &[]);
}

#[test]
fn cpp_render_asan_ubsan() {
    run_checks("render_test.cpp", "render_test_asan_ubsan", ASAN_UBSAN);
}

/// tests/cpp/fluid_test.cpp: sinew_fluid.hpp (descs, emission, the readback into vectors
/// and an interleaved vertex buffer, free fall, an emitter's rate, a kill plane, body
/// coupling, bad input), plain and under ASan/UBSan.
#[test]
fn cpp_fluids() {
    run_checks("fluid_test.cpp", "fluid_test", &[]);
}

#[test]
fn cpp_fluids_asan_ubsan() {
    run_checks("fluid_test.cpp", "fluid_test_asan_ubsan", ASAN_UBSAN);
}

/// The headers of bindings/cpp, sorted.
fn cpp_headers() -> Vec<PathBuf> {
    let dir = manifest_dir().join("bindings/cpp");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hpp"))
        .collect();
    v.sort();
    v
}

#[test]
fn cpp_headers_are_self_contained_without_exceptions_or_rtti() {
    let headers = cpp_headers();
    assert!(
        headers.len() >= 6,
        "expected sinew.hpp and the helpers, found {headers:?}"
    );
    let dir = scratch_dir("headers");
    for h in headers {
        let name = h.file_name().unwrap().to_string_lossy().into_owned();
        let src = dir.join(format!("{name}.cpp"));
        // Included twice: the include guard must work too.
        std::fs::write(
            &src,
            format!("#include \"{name}\"\n#include \"{name}\"\nint sinew_self_contained_check;\n"),
        )
        .unwrap();
        let mut cc = gpp(&["-fno-exceptions", "-fno-rtti", "-fsyntax-only"]);
        cc.arg(&src);
        run_ok(cc, &format!("{name} on its own, -fno-exceptions -fno-rtti"));
    }
}

/// Every template instantiated under the warnings Unreal's compilers enforce
/// (-Wshadow, -Wconversion, -Wsign-conversion, -Wold-style-cast), without exceptions
/// and RTTI, as C++17 and as C++20 (UE 5.3+ compiles modules as C++20).
#[test]
fn cpp_templates_compile_strictly_as_cpp17_and_cpp20() {
    let src = manifest_dir().join("tests/cpp/strict_instantiation.cpp");
    for std in ["-std=c++17", "-std=c++20"] {
        let mut cc = gpp(&[
            "-fno-exceptions",
            "-fno-rtti",
            "-Wshadow",
            "-Wconversion",
            "-Wsign-conversion",
            "-Wold-style-cast",
            "-Wdouble-promotion",
            "-fsyntax-only",
        ]);
        // The later -std wins over gpp's -std=c++17.
        cc.arg(std).arg(&src);
        run_ok(cc, &format!("strict instantiation {std}"));
    }
}

#[test]
fn double_vector_is_rejected_at_compile_time() {
    let src = manifest_dir().join("tests/cpp/reject_double_vector.cpp");
    let mut cc = gpp(&["-fsyntax-only"]);
    cc.arg(&src);
    let out = run(cc);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "reading positions into a double vector compiled, but must not"
    );
    assert!(
        stderr.contains("static assertion failed") && stderr.contains("FVector3f"),
        "expected the static_assert naming FVector3f, got:\n{stderr}"
    );
}

#[test]
fn readme_cpp_example_compiles_and_runs() {
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md");
    let section = readme
        .split("## Unreal Engine 5 / C++")
        .nth(1)
        .expect("README.md has a section \"Unreal Engine 5 / C++\"");
    let code = section
        .split("```cpp\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the section has a ```cpp block");
    let src = scratch_dir("readme").join("readme_rope.cpp");
    std::fs::write(&src, code).unwrap();
    let stdout = compile_and_run(&src, "readme_rope_cpp", &[]);
    // The snippet prints the tension of the top link of a 10-link, 1 kg-per-link rope
    // hanging from a pinned end: the weight of the 10 particles below, 98.1 N.
    let tension: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("top tension "))
        .and_then(|l| l.trim_end_matches(" N").parse().ok())
        .unwrap_or_else(|| panic!("unexpected output: {stdout}"));
    assert!(
        (tension - 98.1).abs() < 0.02 * 98.1,
        "top tension {tension} N, expected 98.1 N"
    );
}

#[test]
fn unreal_plugin_static_checks() {
    let plugin = manifest_dir().join("unreal-sample/Plugins/Sinew");
    let report = unreal_checks::check_plugin(&plugin, &manifest_dir().join("bindings/cpp"));
    assert!(
        report.errors.is_empty(),
        "Unreal plugin problems:\n  {}",
        report.errors.join("\n  ")
    );
    assert!(
        report.reflected_types >= 5,
        "expected the subsystem, its tick function, two components and settings; found {}",
        report.reflected_types
    );
}

/// Live edits in the Unreal plugin (tests/cpp/unreal_checks.rs, `check_live_edits`):
/// Blueprint setters name UFUNCTIONs of one parameter, BlueprintAssignable events are
/// declared dynamic multicast delegates, editor-only overrides sit in WITH_EDITOR, and
/// nothing rebuilds the simulation (bodies are added only in BeginPlay, removed only in
/// EndPlay; the Scene is made only in GetScene and destroyed only in Deinitialize).
#[test]
fn unreal_plugin_edits_in_place() {
    let plugin = manifest_dir().join("unreal-sample/Plugins/Sinew");
    let errors = unreal_checks::check_live_edits(&plugin);
    assert!(
        errors.is_empty(),
        "Unreal plugin problems:\n  {}",
        errors.join("\n  ")
    );
    // The rope component exposes the live edits to Blueprint.
    let rope = std::fs::read_to_string(plugin.join("Source/Sinew/Public/SinewRopeComponent.h"))
        .expect("rope header");
    for setter in [
        "BlueprintSetter = SetLength",
        "BlueprintSetter = SetWinchSpeed",
        "BlueprintSetter = SetBreakForce",
        "BlueprintSetter = SetCompliance",
        "BlueprintAssignable",
        "bool Cut(int32 Link);",
        "int32 CutAlong(FVector WorldStart, FVector WorldEnd);",
    ] {
        assert!(rope.contains(setter), "SinewRopeComponent.h lacks {setter}");
    }
}

/// The static checks catch the mistakes they exist for (each broken copy must fail).
#[test]
fn unreal_static_checks_catch_mistakes() {
    for (name, problem) in unreal_checks::self_test()
        .into_iter()
        .chain(unreal_checks::self_test_live_edits())
    {
        println!("{name}: {problem:?}");
        assert!(problem.is_some(), "the check missed: {name}");
    }
}

#[test]
fn stage_script_copies_library_and_headers() {
    let lib = lib_dir().join("libsinew.so");
    let dest = scratch_dir("stage");
    let plugin = dest.join("Sinew");
    let _ = std::fs::remove_dir_all(&plugin);
    // A copy of the plugin, as a user would have it.
    let mut cp = Command::new("cp");
    cp.arg("-r")
        .arg(manifest_dir().join("unreal-sample/Plugins/Sinew"))
        .arg(&plugin);
    run_ok(cp, "copying the plugin");
    let mut sh = Command::new("bash");
    sh.arg(manifest_dir().join("unreal-sample/stage-library.sh"))
        .arg(&plugin)
        .arg(&lib);
    run_ok(sh, "stage-library.sh");
    let third = plugin.join("Source/ThirdParty/SinewLibrary");
    for f in [
        "include/sinew.h",
        "include/sinew.hpp",
        "include/sinew_scene.hpp",
        "include/sinew_tube.hpp",
        "include/sinew_units.hpp",
        "include/sinew_colliders.hpp",
        "lib/Linux/libsinew.so",
    ] {
        assert!(third.join(f).is_file(), "{f} not staged");
    }
    let built = std::fs::read(&lib).unwrap();
    let staged = std::fs::read(third.join("lib/Linux/libsinew.so")).unwrap();
    assert!(built == staged, "staged library differs from the built one");
    // Every file the Build.cs names exists after staging (for Linux).
    let build_cs = std::fs::read_to_string(third.join("SinewLibrary.Build.cs")).unwrap();
    assert!(build_cs.contains("\"libsinew.so\"") && build_cs.contains("\"include\""));
}

/// `unreal-sample/stage-library.sh` places a static library by the cargo target in its
/// path (target/<triple>/release/libsinew.a) where SinewLibrary.Build.cs links it for
/// Android (per ABI) and iOS, refuses a static library of another target, and the
/// plugin allows those platforms. (Stand-in files: the script only copies.)
#[test]
fn stage_script_places_static_libraries_for_android_and_ios() {
    let dest = scratch_dir("stage_static");
    let plugin = dest.join("Sinew");
    let _ = std::fs::remove_dir_all(&plugin);
    let mut cp = Command::new("cp");
    cp.arg("-r")
        .arg(manifest_dir().join("unreal-sample/Plugins/Sinew"))
        .arg(&plugin);
    run_ok(cp, "copying the plugin");
    let third = plugin.join("Source/ThirdParty/SinewLibrary");
    for (triple, staged) in [
        ("aarch64-linux-android", "lib/Android/arm64-v8a/libsinew.a"),
        ("x86_64-linux-android", "lib/Android/x86_64/libsinew.a"),
        ("aarch64-apple-ios", "lib/IOS/libsinew.a"),
    ] {
        let dir = dest.join("target").join(triple).join("release");
        std::fs::create_dir_all(&dir).unwrap();
        let lib = dir.join("libsinew.a");
        std::fs::write(&lib, format!("static library of {triple}")).unwrap();
        let mut sh = Command::new("bash");
        sh.arg(manifest_dir().join("unreal-sample/stage-library.sh"))
            .arg(&plugin)
            .arg(&lib);
        run_ok(sh, "stage-library.sh");
        let got = std::fs::read_to_string(third.join(staged))
            .unwrap_or_else(|e| panic!("{staged} not staged: {e}"));
        assert_eq!(got, format!("static library of {triple}"));
    }
    let stray = dest.join("target/wasm32-unknown-emscripten/release");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("libsinew.a"), "x").unwrap();
    let mut sh = Command::new("bash");
    sh.arg(manifest_dir().join("unreal-sample/stage-library.sh"))
        .arg(&plugin)
        .arg(stray.join("libsinew.a"));
    let out = run(sh);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let build_cs = std::fs::read_to_string(third.join("SinewLibrary.Build.cs")).unwrap();
    for needle in [
        "UnrealTargetPlatform.Android",
        "\"arm64-v8a\", \"libsinew.a\"",
        "\"x86_64\", \"libsinew.a\"",
        "UnrealTargetPlatform.IOS",
    ] {
        assert!(
            build_cs.contains(needle),
            "SinewLibrary.Build.cs lacks {needle}"
        );
    }
    let uplugin = std::fs::read_to_string(plugin.join("Sinew.uplugin")).unwrap();
    assert!(uplugin.contains("\"Android\"") && uplugin.contains("\"IOS\""));
}
