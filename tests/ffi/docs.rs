//! The user documentation in `docs/` stays true:
//!
//! * `c_api_reference_is_fresh` (in `docs/reference.rs`): `docs/c-api.md` is
//!   generated from the doc comments of `include/sinew.h`; the test fails when it is
//!   stale. Regenerate with
//!   `SINEW_UPDATE_DOCS=1 cargo test --test ffi docs::`.
//! * `c_snippets_compile_and_run`: every ```` ```c ```` block in `docs/**/*.md` is
//!   compiled by gcc (`-std=c11 -Wall -Wextra -Werror -pedantic`) against
//!   `include/sinew.h`. A block with `main` is linked to the `libsinew.so` built by this
//!   `cargo test` (in `target/<profile>/deps/`, rpath) and run: it must exit 0. A
//!   block without `main` (the prototypes of the reference) is compiled after
//!   `#include "sinew.h"`, so it must agree with the header.
//! * `rust_snippets_compile_and_run`: every ```` ```rust ```` block is compiled by
//!   rustc (`-D warnings`) against the `sinew` rlib of this build and run: exit 0.
//!
//! * `csharp_snippets_compile_and_run`: every ```` ```csharp ```` block is compiled by
//!   Mono's mcs (C# 7.2, `-unsafe -warnaserror`) against `bindings/csharp`, or, when it
//!   uses `UnityEngine`, against the Unity package's scripts and the UnityEngine
//!   compile-check stub of `tests/csharp/UnityStubs`. A block with `Main` runs on Mono
//!   against this build's `libsinew.so`: it must exit 0.
//! * `cpp_snippets_compile_and_run`: every ```` ```cpp ```` block is compiled by g++
//!   (`-std=c++17 -Wall -Wextra -Werror -pedantic`) against `include/` and
//!   `bindings/cpp/`; a block with `main` is linked to `libsinew.so` and run: exit 0.
//! * `unreal_snippets_name_only_what_the_plugin_declares`: ```` ```cpp-unreal ````
//!   blocks (UObject code, which needs Unreal) are checked statically against the
//!   plugin's headers.
//!
//! * `as_typed::*` (in `docs/as_typed.rs`): the C# and C++ examples a newcomer builds
//!   outside an engine, saved and built in a clean folder by the documented command
//!   lines exactly as written.
//!
//! Needs gcc, g++, mcs and mono (`tests/run-all.sh` installs them); a missing tool
//! fails its test with a clear message.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The C API reference: `c_api_reference_is_fresh` and the header parser.
mod as_typed;
mod reference;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>/deps/`: where this test binary, `libsinew.so` and the rlib are.
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .expect("test binary has a directory")
        .to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = deps_dir()
        .parent()
        .expect("deps has a parent")
        .join("doc-snippets")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

// ---------------------------------------------------------------- snippets

/// (file, line, language, code) of every fenced block in docs/**/*.md.
fn snippets() -> Vec<(PathBuf, usize, String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("docs"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut lang: Option<(usize, String)> = None;
        let mut code = String::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            match (&lang, t.strip_prefix("```")) {
                (None, Some(l)) => {
                    lang = Some((n + 1, l.trim().to_string()));
                    code.clear();
                }
                (Some((start, l)), Some(_)) => {
                    out.push((f.clone(), *start, l.clone(), std::mem::take(&mut code)));
                    lang = None;
                }
                (Some(_), None) => {
                    code.push_str(line);
                    code.push('\n');
                }
                (None, None) => {}
            }
        }
        assert!(lang.is_none(), "{}: unclosed code block", f.display());
    }
    out
}

fn run_checked(mut cmd: Command, what: &str) -> String {
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{}` is not installed (needed to compile the docs' snippets): {what}",
            cmd.get_program().to_string_lossy()
        ),
        Err(e) => panic!("{what}: {e}"),
    };
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        panic!(
            "{what} failed ({})\n--- stdout ---\n{stdout}\n--- stderr ---\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    stdout
}

fn label(file: &Path, line: usize) -> String {
    format!(
        "{}:{line}",
        file.strip_prefix(root()).unwrap_or(file).display()
    )
}

/// Languages of the docs blocks that a test compiles (and runs, where they have a `main`).
const COMPILED: [&str; 4] = ["c", "rust", "csharp", "cpp"];

/// Languages a docs block may use without being compiled: shell lines, plain text, and
/// ```` ```cpp-unreal ```` (UObject code, which needs Unreal to compile; it is checked
/// statically by `unreal_snippets_name_only_what_the_plugin_declares`).
const UNCOMPILED: [&str; 4] = ["sh", "text", "", "cpp-unreal"];

#[test]
fn docs_use_only_known_snippet_languages() {
    for (file, line, lang, _) in snippets() {
        assert!(
            COMPILED.contains(&lang.as_str()) || UNCOMPILED.contains(&lang.as_str()),
            "{}: ```{lang} blocks are not compiled by any test; use c, rust, csharp, cpp, \
             cpp-unreal (Unreal-only C++), sh or text",
            label(&file, line)
        );
    }
}

#[test]
fn c_snippets_compile_and_run() {
    let deps = deps_dir();
    assert!(
        deps.join("libsinew.so").is_file(),
        "libsinew.so not found in {}",
        deps.display()
    );
    let dir = scratch("c");
    let mut ran = 0;
    let mut compiled = 0;
    for (k, (file, line, lang, code)) in snippets().into_iter().enumerate() {
        if lang != "c" {
            continue;
        }
        let what = label(&file, line);
        let has_main = code.contains("int main(");
        let src = dir.join(format!("snippet_{k}.c"));
        let body = if code.contains("#include \"sinew.h\"") {
            code.clone()
        } else {
            format!("#include \"sinew.h\"\n{code}")
        };
        std::fs::write(&src, format!("/* {what} */\n{body}")).unwrap();
        let mut cc = Command::new("gcc");
        cc.args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        .arg("-I")
        .arg(root().join("include"))
        .arg(&src);
        if has_main {
            let exe = dir.join(format!("snippet_{k}"));
            cc.arg("-o")
                .arg(&exe)
                .arg("-L")
                .arg(&deps)
                .arg("-lsinew")
                .arg(format!("-Wl,-rpath,{}", deps.display()))
                .arg("-lm");
            run_checked(cc, &format!("compiling {what}"));
            let mut run = Command::new(&exe);
            run.env_remove("LD_LIBRARY_PATH");
            let out = run_checked(run, &format!("running {what}"));
            println!("{what}:\n{out}");
            ran += 1;
        } else {
            cc.arg("-c")
                .arg("-o")
                .arg(dir.join(format!("snippet_{k}.o")));
            run_checked(cc, &format!("compiling {what}"));
            compiled += 1;
        }
    }
    assert!(
        ran >= 2,
        "expected runnable C examples in docs/, found {ran}"
    );
    assert!(
        compiled >= 1,
        "expected the reference's prototypes, found {compiled}"
    );
}

/// The rlib of this build in the deps directory: `libsinew.rlib` (rustc names it
/// without a hash when the lib has several crate types), else the newest
/// `libsinew-*.rlib`.
fn sinew_rlib() -> PathBuf {
    let deps = deps_dir();
    let plain = deps.join("libsinew.rlib");
    if plain.is_file() {
        return plain;
    }
    std::fs::read_dir(&deps)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("libsinew-") && n.ends_with(".rlib")
        })
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .unwrap_or_else(|| panic!("no libsinew-*.rlib in {}", deps.display()))
}

#[test]
fn rust_snippets_compile_and_run() {
    let deps = deps_dir();
    let rlib = sinew_rlib();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let dir = scratch("rust");
    let mut ran = 0;
    for (k, (file, line, lang, code)) in snippets().into_iter().enumerate() {
        if lang != "rust" {
            continue;
        }
        let what = label(&file, line);
        let src = dir.join(format!("snippet_{k}.rs"));
        std::fs::write(&src, format!("// {what}\n{code}")).unwrap();
        let exe = dir.join(format!("snippet_{k}"));
        let mut cmd = Command::new(&rustc);
        cmd.args(["--edition", "2021", "--crate-type", "bin", "-D", "warnings"])
            .arg("--extern")
            .arg(format!("sinew={}", rlib.display()))
            .arg("-L")
            .arg(format!("dependency={}", deps.display()))
            .arg("-o")
            .arg(&exe)
            .arg(&src);
        run_checked(cmd, &format!("compiling {what}"));
        let out = run_checked(Command::new(&exe), &format!("running {what}"));
        println!("{what}:\n{out}");
        ran += 1;
    }
    assert!(ran >= 2, "expected Rust examples in docs/, found {ran}");
}

/// Every relative link and image in README.md and docs/**/*.md points to a file that
/// exists (the README's pictures are committed under docs/img/).
#[test]
fn local_links_resolve() {
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    let mut checked = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut targets = Vec::new();
        for (open, close) in [("](", ')'), ("src=\"", '"')] {
            let mut rest = text.as_str();
            while let Some(k) = rest.find(open) {
                rest = &rest[k + open.len()..];
                if let Some(end) = rest.find(close) {
                    targets.push(rest[..end].to_string());
                }
            }
        }
        for t in targets {
            if t.starts_with("http://") || t.starts_with("https://") || t.starts_with('#') {
                continue;
            }
            let path = t.split('#').next().unwrap();
            let full = f.parent().unwrap().join(path);
            assert!(
                full.exists(),
                "{}: link to {t} but {} does not exist",
                label(&f, 0),
                full.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} local links found");
}

// ---------------------------------------------------------------- C# and C++ guides

/// Mono's C# compiler with the flags of `tests/csharp/run.sh` (C# 7.2, as Unity's Mono
/// profile accepts), run from the repository root so that `-recurse:` globs resolve.
fn mcs() -> Command {
    let mut cmd = Command::new("mcs");
    cmd.current_dir(root())
        .args(["-langversion:7.2", "-unsafe", "-warnaserror", "-nologo"]);
    cmd
}

/// Whether a C# snippet is a program (it then runs on Mono).
fn csharp_has_main(code: &str) -> bool {
    code.contains("static void Main(") || code.contains("static int Main(")
}

/// Every ```` ```csharp ```` block: a block that uses `UnityEngine` is compiled against
/// the Unity package's scripts (`unity-sample/Runtime`, built on the core package
/// `bindings/csharp` as Unity builds them) and the compile-check stub of UnityEngine in `tests/csharp/UnityStubs`;
/// any other block against `bindings/csharp`. A block with `Main` is run on Mono
/// against the `libsinew.so` of this build and must exit 0 (the snippets throw when a
/// checked result is wrong). Needs mcs and mono (`tests/run-all.sh` installs them).
#[test]
fn csharp_snippets_compile_and_run() {
    let deps = deps_dir();
    assert!(
        deps.join("libsinew.so").is_file(),
        "libsinew.so not found in {}",
        deps.display()
    );
    let dir = scratch("csharp");
    let bindings = dir.join("Sinew.Core.dll");
    let mut cmd = mcs();
    cmd.arg("-target:library")
        .arg(format!("-out:{}", bindings.display()))
        .arg("-recurse:bindings/csharp/*.cs");
    run_checked(cmd, "compiling bindings/csharp with mcs");

    // The Unity side, built on first use: the stub, then the package's scripts.
    let stub = dir.join("UnityEngineStub.dll");
    let runtime = dir.join("Sinew.Runtime.dll");
    let defines = "-define:UNITY_EDITOR;UNITY_2021_3_OR_NEWER";
    let mut unity_ready = false;

    let (mut ran, mut compiled, mut unity) = (0, 0, 0);
    for (k, (file, line, lang, code)) in snippets().into_iter().enumerate() {
        if lang != "csharp" {
            continue;
        }
        let what = label(&file, line);
        let src = dir.join(format!("snippet_{k}.cs"));
        std::fs::write(&src, format!("// {what}\n{code}")).unwrap();
        let has_main = csharp_has_main(&code);
        if code.contains("using UnityEngine") {
            assert!(
                !has_main,
                "{what}: a Unity snippet cannot run outside Unity; give it no Main"
            );
            if !unity_ready {
                let mut cmd = mcs();
                cmd.args(["-target:library", "-nowarn:67,649", defines])
                    .arg(format!("-out:{}", stub.display()))
                    .arg("-recurse:tests/csharp/UnityStubs/*.cs");
                run_checked(cmd, "compiling tests/csharp/UnityStubs");
                let mut cmd = mcs();
                cmd.args(["-target:library", defines])
                    .arg(format!("-r:{}", stub.display()))
                    .arg(format!("-r:{}", bindings.display()))
                    .arg(format!("-out:{}", runtime.display()))
                    .arg("-recurse:unity-sample/Runtime/*.cs");
                run_checked(cmd, "compiling unity-sample/Runtime");
                unity_ready = true;
            }
            let mut cmd = mcs();
            cmd.args(["-target:library", defines])
                .arg(format!("-r:{}", stub.display()))
                .arg(format!("-r:{}", bindings.display()))
                .arg(format!("-r:{}", runtime.display()))
                .arg(format!(
                    "-out:{}",
                    dir.join(format!("snippet_{k}.dll")).display()
                ))
                .arg(&src);
            run_checked(cmd, &format!("compiling {what} (Unity)"));
            unity += 1;
        } else if has_main {
            // Next to Sinew.Core.dll, where Mono looks for the referenced assembly.
            let exe = dir.join(format!("snippet_{k}.exe"));
            let mut cmd = mcs();
            cmd.arg("-target:exe")
                .arg(format!("-r:{}", bindings.display()))
                .arg(format!("-out:{}", exe.display()))
                .arg(&src);
            run_checked(cmd, &format!("compiling {what}"));
            let mut run = Command::new("mono");
            run.arg("--debug").arg(&exe).env("LD_LIBRARY_PATH", &deps);
            let out = run_checked(run, &format!("running {what} on Mono"));
            println!("{what}:\n{out}");
            ran += 1;
        } else {
            let mut cmd = mcs();
            cmd.arg("-target:library")
                .arg(format!("-r:{}", bindings.display()))
                .arg(format!(
                    "-out:{}",
                    dir.join(format!("snippet_{k}.dll")).display()
                ))
                .arg(&src);
            run_checked(cmd, &format!("compiling {what}"));
            compiled += 1;
        }
    }
    println!("C# snippets: {ran} run, {compiled} compiled, {unity} Unity compiled");
    assert!(
        ran >= 2,
        "expected runnable C# examples in docs/, found {ran}"
    );
    assert!(
        unity >= 2,
        "expected Unity examples in docs/, found {unity}"
    );
}

/// Every ```` ```cpp ```` block is compiled by g++ (`-std=c++17 -Wall -Wextra -Werror
/// -pedantic`) against `include/` and `bindings/cpp/`. A block with `main` is linked to
/// the `libsinew.so` of this build and run: it must exit 0 (the snippets return 1 when
/// a checked result is wrong). A block without `main` is compiled only.
#[test]
fn cpp_snippets_compile_and_run() {
    let deps = deps_dir();
    let dir = scratch("cpp");
    let mut ran = 0;
    for (k, (file, line, lang, code)) in snippets().into_iter().enumerate() {
        if lang != "cpp" {
            continue;
        }
        let what = label(&file, line);
        let src = dir.join(format!("snippet_{k}.cpp"));
        std::fs::write(&src, format!("// {what}\n{code}")).unwrap();
        let mut cc = Command::new("g++");
        cc.args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        .arg("-I")
        .arg(root().join("include"))
        .arg("-I")
        .arg(root().join("bindings/cpp"))
        .arg(&src);
        if code.contains("int main(") {
            let exe = dir.join(format!("snippet_{k}"));
            cc.arg("-o")
                .arg(&exe)
                .arg("-L")
                .arg(&deps)
                .arg("-lsinew")
                .arg(format!("-Wl,-rpath,{}", deps.display()));
            run_checked(cc, &format!("compiling {what}"));
            let mut run = Command::new(&exe);
            run.env_remove("LD_LIBRARY_PATH");
            let out = run_checked(run, &format!("running {what}"));
            println!("{what}:\n{out}");
            ran += 1;
        } else {
            cc.arg("-c")
                .arg("-o")
                .arg(dir.join(format!("snippet_{k}.o")));
            run_checked(cc, &format!("compiling {what}"));
        }
    }
    assert!(
        ran >= 2,
        "expected runnable C++ examples in docs/, found {ran}"
    );
}

/// Unreal engine members the `cpp-unreal` snippets may call besides the plugin's own
/// (they need Unreal to compile, so each name here is one checked by hand against the
/// UE 5.3 API: `USceneComponent::SetupAttachment`, `UActorComponent::RegisterComponent`).
const UNREAL_ENGINE_MEMBERS: [&str; 2] = ["SetupAttachment", "RegisterComponent"];

/// The text without string literals and `//` comments (for bracket and name checks).
fn strip_strings_and_comments(code: &str) -> String {
    let mut out = String::new();
    for line in code.lines() {
        let mut in_str = false;
        let mut prev = ' ';
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_str && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                out.push(c);
            }
            prev = c;
            i += 1;
        }
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `word` occurs in `text` as a whole identifier.
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Identifiers of `code` that follow `->` (members used on plugin objects), and
/// identifiers starting with a plugin prefix (`USinew`, `FSinew`, `ISinew`).
fn unreal_names(code: &str) -> (Vec<String>, Vec<String>) {
    let (mut members, mut types) = (Vec::new(), Vec::new());
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if is_ident(chars[i]) && (i == 0 || !is_ident(chars[i - 1])) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let arrow = start >= 2 && chars[start - 2] == '-' && chars[start - 1] == '>';
            if arrow {
                members.push(word);
            } else if ["USinew", "FSinew", "ISinew"]
                .iter()
                .any(|p| word.starts_with(p))
            {
                types.push(word);
            }
        } else {
            i += 1;
        }
    }
    (members, types)
}

/// Every ```` ```cpp-unreal ```` block (UObject code: it needs Unreal to compile) is
/// checked statically: balanced brackets, every plugin type it names declared in the
/// plugin's headers, and every member it uses through `->` declared there too (or one
/// of the few engine members in `UNREAL_ENGINE_MEMBERS`).
#[test]
fn unreal_snippets_name_only_what_the_plugin_declares() {
    let source = root().join("unreal-sample/Plugins/Sinew/Source/Sinew");
    let mut headers = String::new();
    for sub in ["Public", "Private"] {
        for e in std::fs::read_dir(source.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "h") {
                headers.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    assert!(contains_word(&headers, "USinewRopeComponent"));
    let mut checked = 0;
    for (file, line, lang, code) in snippets() {
        if lang != "cpp-unreal" {
            continue;
        }
        let what = label(&file, line);
        let bare = strip_strings_and_comments(&code);
        for (open, close) in [('(', ')'), ('{', '}'), ('[', ']')] {
            let mut depth = 0i32;
            for c in bare.chars() {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                }
                assert!(depth >= 0, "{what}: unbalanced {open}{close}");
            }
            assert_eq!(depth, 0, "{what}: unbalanced {open}{close}");
        }
        let (members, types) = unreal_names(&bare);
        assert!(
            !members.is_empty(),
            "{what}: uses no plugin member: is it an Unreal snippet?"
        );
        for t in &types {
            assert!(
                contains_word(&headers, &format!("class SINEW_API {t}"))
                    || contains_word(&headers, &format!("struct {t}")),
                "{what}: {t} is not declared in the plugin's headers"
            );
        }
        for m in &members {
            assert!(
                UNREAL_ENGINE_MEMBERS.contains(&m.as_str()) || contains_word(&headers, m),
                "{what}: ->{m} is not declared in the plugin's headers (nor a listed engine member)"
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 2,
        "expected Unreal C++ examples in docs/, found {checked}"
    );
}

#[test]
fn unreal_name_checker_catches_a_wrong_member() {
    let code = strip_strings_and_comments(
        "Rope->SetLength(3.0f); // ->Ignored\nauto* C = NewObject<USinewRopeComponent>(this);\nLog(\"->NotCode\");\n",
    );
    let (members, types) = unreal_names(&code);
    assert_eq!(members, ["SetLength"]);
    assert_eq!(types, ["USinewRopeComponent"]);
    assert!(contains_word(
        "float GetTension(int32 Segment) const;",
        "GetTension"
    ));
    assert!(!contains_word("float GetTensionMax() const;", "GetTension"));
}
