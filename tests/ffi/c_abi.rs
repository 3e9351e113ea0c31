//! The C ABI as a C or C++ program sees it.
//!
//! * `rope_from_c`: compiles `tests/c/rope_test.c` with
//!   `gcc -std=c11 -Wall -Wextra -Werror -pedantic` against `include/sinew.h`, links it
//!   to the shared library built by this same `cargo test` (`libsinew.so` in
//!   `target/<profile>/deps/`, next to this test binary; `-L <dir> -lsinew
//!   -Wl,-rpath,<dir>`), runs it and requires exit status 0; `rope_from_c_static`
//!   links the same program against `libsinew.a`.
//! * `bodies_from_c`: `tests/c/bodies_test.c`, the families, bodies and attachments.
//! * `collisions_from_c`: `tests/c/collision_test.c` the same way (colliders, contact
//!   readback, pick and grab, handles of another world refused for every kind).
//! * `fluid_render_from_c`: `tests/c/fluid_render_test.c` (the fluid render outputs).
//! * `fluids_from_c`: `tests/c/fluid_test.c` (fluids, emitters, kill volumes, the
//!   strided readback).
//! * `readme_c_example_compiles_and_runs`: the README's C example.
//! * `header_compiles_as_c99` / `_c11` / `_cpp17`: the header alone is valid,
//!   warning-free (`-Wall -Wextra -Werror -pedantic`) C99, C11 and C++17.
//!
//! Needs gcc and g++ (CI has both); without them the tests fail with a clear message.

use std::path::PathBuf;
use std::process::{Command, Output};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding the library built for this very `cargo test` run: the one
/// this test binary lives in, `target/<profile>/deps/`.
///
/// The lib target is compiled once for all its crate types (cdylib, staticlib, rlib);
/// this test links the rlib of that compilation, and rustc writes `libsinew.so` (no
/// hash in its name) next to it in `deps/`. `target/<profile>/libsinew.so` is NOT used:
/// cargo copies ("uplifts") artifacts there only for `cargo build`, never for a library
/// that `cargo test` builds as a dependency of a test, so that copy is missing after a
/// clean `cargo test` and stale after an edit (checked empirically with cargo 1.95).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .unwrap_or_else(|| panic!("{} has no parent directory", exe.display()))
        .to_path_buf()
}

/// `target/<profile>`, the parent of [`lib_dir`].
fn profile_dir() -> PathBuf {
    let deps = lib_dir();
    deps.parent()
        .unwrap_or_else(|| panic!("{} has no parent directory", deps.display()))
        .to_path_buf()
}

/// A scratch directory for compiled C programs: `target/<profile>/c-tests/<name>`.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = profile_dir().join("c-tests").join(name);
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

/// Runs `cmd`; a missing program (gcc / g++ not installed) fails with a clear message.
fn run(mut cmd: Command) -> Output {
    let line = describe(&cmd);
    match cmd.output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{}` is not installed (needed to test the C ABI; install gcc and g++): {line}",
            cmd.get_program().to_string_lossy()
        ),
        Err(e) => panic!("could not run `{line}`: {e}"),
    }
}

/// Runs `cmd` and fails the test, showing its output, unless it exits with status 0.
fn run_ok(cmd: Command, what: &str) -> Output {
    let line = describe(&cmd);
    let out = run(cmd);
    if !out.status.success() {
        panic!(
            "{what} failed ({})\ncommand: {line}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// Compiles the C11 program `src` with gcc against include/sinew.h, links it to the
/// shared library of this `cargo test`, runs it and returns its stdout (exit 0 required).
/// How a C program links the library.
#[derive(Clone, Copy, PartialEq)]
enum Link {
    /// libsinew.so, found through an rpath (what engines load at run time).
    Shared,
    /// libsinew.a (iOS, consoles, engines that link statically).
    Static,
}

fn compile_and_run_c(src: &std::path::Path, name: &str, link: Link) -> String {
    let root = manifest_dir();
    let lib_dir = lib_dir();
    let lib_file = lib_dir.join(match link {
        Link::Shared => "libsinew.so",
        Link::Static => "libsinew.a",
    });
    assert!(
        lib_file.is_file(),
        "{} not found: `cargo test` should build the library (crate-type \
         \"cdylib\" and \"staticlib\" in Cargo.toml) next to this test binary; libsinew* there: {:?}",
        lib_file.display(),
        std::fs::read_dir(&lib_dir)
            .map(|d| d
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("libsinew"))
                .collect::<Vec<_>>())
            .unwrap_or_default()
    );

    let exe = scratch_dir(name).join(name);
    let _ = std::fs::remove_file(&exe);
    let mut cc = Command::new("gcc");
    cc.args([
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-O1",
        "-g",
    ])
    .arg("-I")
    .arg(root.join("include"))
    .arg(src)
    .arg("-o")
    .arg(&exe);
    match link {
        Link::Shared => cc
            .arg("-L")
            .arg(&lib_dir)
            .arg("-lsinew")
            .arg(format!("-Wl,-rpath,{}", lib_dir.display())),
        Link::Static => cc
            .arg(lib_dir.join("libsinew.a"))
            .args(["-lpthread", "-ldl"]),
    };
    cc.arg("-lm");
    run_ok(cc, &format!("compiling {}", src.display()));

    // A shared build must resolve libsinew.so from this build's directory, not some
    // other copy on the system: no LD_LIBRARY_PATH, rpath only.
    let mut cmd = Command::new(&exe);
    cmd.env_remove("LD_LIBRARY_PATH").env_remove("LD_PRELOAD");
    let out = run_ok(cmd, &src.display().to_string());
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    stdout
}

/// Builds and runs tests/c/rope_test.c, which prints "N checks, 0 failed" when all pass.
fn run_rope_test(name: &str, link: Link) {
    let src = manifest_dir().join("tests/c/rope_test.c");
    let stdout = compile_and_run_c(&src, name, link);
    assert!(
        stdout.contains(", 0 failed"),
        "{name} exited 0 but did not report its summary:\n{stdout}"
    );
}

#[test]
fn rope_from_c() {
    run_rope_test("rope_test", Link::Shared);
}

/// The same program linked against the static library.
#[test]
fn rope_from_c_static() {
    run_rope_test("rope_test_static", Link::Static);
}

/// Builds and runs tests/c/bodies_test.c (families, bodies, attachments from C).
#[test]
fn bodies_from_c() {
    let src = manifest_dir().join("tests/c/bodies_test.c");
    let stdout = compile_and_run_c(&src, "bodies_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "bodies_test exited 0 but did not report its summary:\n{stdout}"
    );
}

/// tests/c/collision_test.c: a 20 m/s particle against a 1 cm box collider, contact
/// readback, picking and dragging a rope end, bad collision input.
#[test]
fn collisions_from_c() {
    let src = manifest_dir().join("tests/c/collision_test.c");
    let stdout = compile_and_run_c(&src, "collision_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "collision_test exited 0 but did not report its summary:\n{stdout}"
    );
}

/// tests/c/fluid_test.c: fluid descs, emission and the interleaved readback, free fall
/// of a lone fluid particle against its closed form, an emitter's rate, a kill plane,
/// bad fluid input.
#[test]
fn fluids_from_c() {
    let src = manifest_dir().join("tests/c/fluid_test.c");
    let stdout = compile_and_run_c(&src, "fluid_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "fluid_test exited 0 but did not report its summary:\n{stdout}"
    );
}

/// tests/c/fluid_render_test.c: the fluid render outputs from C (ellipsoids of a flat
/// sheet into an instance buffer, counting, bad input).
#[test]
fn fluid_render_from_c() {
    let src = manifest_dir().join("tests/c/fluid_render_test.c");
    let stdout = compile_and_run_c(&src, "fluid_render_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "fluid_render_test exited 0 but did not report its summary:\n{stdout}"
    );
}

/// The C example in README.md ("A rope from C") compiles warning-free and runs: the
/// 1 m rope of 10 rigid links pinned at (0, 2, 0) starts horizontal and swings down: its
/// end stays within 1 m (+1%) of the anchor and is below it after 2 s.
#[test]
fn readme_c_example_compiles_and_runs() {
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md");
    let section = readme
        .split("## A rope from C")
        .nth(1)
        .expect("README.md has a section \"A rope from C\"");
    let code = section
        .split("```c\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the section has a ```c block");
    let src = scratch_dir("readme").join("readme_rope.c");
    std::fs::write(&src, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", src.display()));
    let stdout = compile_and_run_c(&src, "readme_rope", Link::Shared);
    let nums: Vec<f32> = stdout
        .trim()
        .trim_start_matches("rope end at (")
        .trim_end_matches(") m")
        .split(", ")
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("unexpected output: {stdout}"))
        })
        .collect();
    assert_eq!(nums.len(), 3, "unexpected output: {stdout}");
    let dist = ((nums[0]).powi(2) + (nums[1] - 2.0).powi(2) + nums[2].powi(2)).sqrt();
    assert!(
        dist <= 1.0 + 1e-2,
        "rope end {dist} m from the anchor, longer than the 1 m rope"
    );
    assert!(nums[1] < 2.0, "rope end did not swing down: {stdout}");
}

/// Compiles a one-line source that includes the header, syntax only.
fn header_check(compiler: &str, std: &str, file_name: &str, extra: &[&str]) {
    let dir = scratch_dir("header");
    let src = dir.join(file_name);
    std::fs::write(
        &src,
        "#include \"sinew.h\"\n\
         /* Use a few declarations so that the test is not vacuous. */\n\
         int sinew_header_check(void);\n\
         int sinew_header_check(void) {\n\
             SinewWorldDesc d = sinew_world_desc_default();\n\
             SinewStatus s = sinew_world_create(&d, 0);\n\
             return (int)s + (int)SINEW_ABI_VERSION + (int)SINEW_SOLVER_JACOBI \
                    + (int)SINEW_ERROR_INTERNAL;\n\
         }\n",
    )
    .unwrap_or_else(|e| panic!("cannot write {}: {e}", src.display()));
    let mut cc = Command::new(compiler);
    cc.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"])
        .args(extra)
        .arg("-I")
        .arg(manifest_dir().join("include"))
        .arg(&src);
    run_ok(cc, &format!("compiling include/sinew.h as {std}"));
}

#[test]
fn header_compiles_as_c99() {
    header_check("gcc", "c99", "header_c99.c", &[]);
}

#[test]
fn header_compiles_as_c11() {
    header_check("gcc", "c11", "header_c11.c", &[]);
}

#[test]
fn header_compiles_as_cpp17() {
    header_check("g++", "c++17", "header_cpp17.cpp", &[]);
}

/// tests/c/tasks_test.c: a hand-written pthread pool (and an inline host) runs the
/// passes through sinew_world_set_task_system; the state hashes equal the built-in
/// pool's on 1 and 2 threads; bad task systems are refused.
#[test]
fn tasks_from_c() {
    let src = manifest_dir().join("tests/c/tasks_test.c");
    let stdout = compile_and_run_c(&src, "tasks_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "tasks_test exited 0 but did not report its summary:\n{stdout}"
    );
}

/// tests/c/profile_test.c: stage times into a caller array, stage names, counts, a
/// profiler callback whose pairs nest, the same state hashes with profiling on.
#[test]
fn profiling_from_c() {
    let src = manifest_dir().join("tests/c/profile_test.c");
    let stdout = compile_and_run_c(&src, "profile_test", Link::Shared);
    assert!(
        stdout.contains(", 0 failed"),
        "profile_test exited 0 but did not report its summary:\n{stdout}"
    );
}
