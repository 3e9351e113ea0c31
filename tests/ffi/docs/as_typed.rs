//! The two "outside an engine" examples built exactly as the docs tell a newcomer to,
//! in a clean folder that holds only what a checkout and `cargo build --release` give
//! (`include/`, `bindings/` and `target/release/libsinew.so`, linked to this build's):
//!
//! * `csharp_first_simulation_as_typed`: docs/unity.md "A first simulation without
//!   Unity": the program saved as `HangingRope.cs`, then the page's two command lines
//!   (`mcs ...`, `LD_LIBRARY_PATH=target/release mono rope.exe`) run through `sh` as
//!   written; the program checks its rope's tension and exits 0.
//! * `cpp_readme_example_as_typed`: the README's C++ program saved as `rope.cpp`, built
//!   by the README's `Build:` line as written (`g++ ... -Wl,-rpath,target/release`,
//!   output `a.out`) and run: it prints the top link's tension, the weight below it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{deps_dir, root, run_checked, scratch};

/// A fresh folder with `include`, `bindings` and `target/release/libsinew.so` linked
/// to the checkout's and this build's.
fn clean_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    let link = |from: &Path, to: &Path| {
        std::os::unix::fs::symlink(from, to)
            .unwrap_or_else(|e| panic!("{} -> {}: {e}", to.display(), from.display()))
    };
    link(&root().join("include"), &dir.join("include"));
    link(&root().join("bindings"), &dir.join("bindings"));
    let lib = deps_dir().join("libsinew.so");
    assert!(
        lib.is_file(),
        "libsinew.so not found in {}",
        deps_dir().display()
    );
    link(&lib, &dir.join("target/release/libsinew.so"));
    dir
}

/// Runs one documented command line through `sh` in `dir`, as typed.
fn shell(dir: &Path, line: &str) -> String {
    let mut cmd = Command::new("sh");
    cmd.current_dir(dir).args(["-c", line]);
    run_checked(cmd, &format!("`{line}` (as documented)"))
}

/// The fenced block of `lang` that ends last before `marker` in `text`.
fn block_before(text: &str, marker: &str, lang: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("the docs no longer say {marker:?}"));
    let open = format!("```{lang}\n");
    let start = text[..at]
        .rfind(&open)
        .unwrap_or_else(|| panic!("no ```{lang} block before {marker:?}"))
        + open.len();
    let len = text[start..].find("```").expect("the block is closed");
    text[start..start + len].to_string()
}

#[test]
fn csharp_first_simulation_as_typed() {
    let page = std::fs::read_to_string(root().join("docs/unity.md")).unwrap();
    let marker = "To build and run it outside Unity";
    let program = block_before(&page, marker, "csharp");
    assert!(
        program.contains("class HangingRope"),
        "the program is HangingRope.cs"
    );
    // The indented command lines of the paragraph after the marker.
    let after = &page[page.find(marker).unwrap()..];
    let lines: Vec<&str> = after
        .lines()
        .skip_while(|l| !l.starts_with("    "))
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    assert_eq!(lines.len(), 2, "a compile line and a run line: {lines:?}");
    assert!(lines[0].starts_with("mcs ") && lines[1].contains("mono "));
    let dir = clean_folder("as-typed-csharp");
    std::fs::write(dir.join("HangingRope.cs"), program).unwrap();
    for line in &lines {
        shell(&dir, line);
    }
}

#[test]
fn cpp_readme_example_as_typed() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let marker = "Build: `g++";
    let program = block_before(&readme, marker, "cpp");
    let at = readme.find(marker).unwrap() + "Build: `".len();
    let line = readme[at..at + readme[at..].find('`').unwrap()].replace('\n', " ");
    assert!(
        line.contains("rope.cpp"),
        "the build line names rope.cpp: {line}"
    );
    let dir = clean_folder("as-typed-cpp");
    std::fs::write(dir.join("rope.cpp"), program).unwrap();
    shell(&dir, &line);
    let out = shell(&dir, "./a.out");
    let tension: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("top tension "))
        .and_then(|l| l.trim_end_matches(" N").parse().ok())
        .unwrap_or_else(|| panic!("unexpected output: {out}"));
    // Ten 1 kg particles below the top link: 98.1 N.
    assert!(
        (tension - 98.1).abs() < 0.02 * 98.1,
        "top tension {tension} N"
    );
}
