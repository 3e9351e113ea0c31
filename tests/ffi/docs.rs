//! The user documentation in `docs/` stays true:
//!
//! * `c_api_reference_is_fresh`: `docs/c-api.md` is generated from the doc comments of
//!   `include/sinew.h`; the test fails when it is stale. Regenerate with
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
//! Needs gcc, g++, mcs and mono (`tests/run-all.sh` installs them); a missing tool
//! fails its test with a clear message.

use std::path::{Path, PathBuf};
use std::process::Command;

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

// ---------------------------------------------------------------- header -> markdown

/// One documented item of the header.
#[derive(Debug)]
enum Item {
    Define {
        name: String,
        value: String,
        doc: String,
    },
    Enum {
        name: String,
        repr: String,
        doc: String,
        variants: Vec<(String, String, String)>,
    },
    Struct {
        name: String,
        doc: String,
        fields: Vec<(String, String, String)>,
    },
    Function {
        name: String,
        prototype: String,
        doc: String,
    },
    /// A function pointer typedef (the host task system's callbacks).
    Callback {
        name: String,
        prototype: String,
        doc: String,
    },
}

/// The text of a `/** ... */` comment starting at `lines[*i]`, with the ` * `
/// prefixes removed; advances `*i` past it.
fn take_doc(lines: &[&str], i: &mut usize) -> String {
    let mut out = Vec::new();
    while *i < lines.len() {
        let l = lines[*i].trim();
        *i += 1;
        if l == "/**" {
            continue;
        }
        if l == "*/" || l.ends_with("*/") {
            break;
        }
        let text = l.strip_prefix('*').unwrap_or(l);
        out.push(text.strip_prefix(' ').unwrap_or(text).to_string());
    }
    out.join("\n").trim().to_string()
}

/// Parses the declarations cbindgen writes into `include/sinew.h`.
fn parse_header(header: &str) -> (String, Vec<Item>) {
    let lines: Vec<&str> = header.lines().collect();
    let mut i = 0;
    // The leading block comment: the conventions.
    let mut preamble = String::new();
    if lines.first().is_some_and(|l| l.trim() == "/*") {
        i = 1;
        while i < lines.len() && lines[i].trim() != "*/" {
            let t = lines[i].trim().trim_start_matches('*').trim();
            preamble.push_str(t);
            preamble.push('\n');
            i += 1;
        }
        i += 1;
    }
    let mut items = Vec::new();
    let mut doc = String::new();
    while i < lines.len() {
        let l = lines[i].trim();
        if l == "/**" {
            doc = take_doc(&lines, &mut i);
            continue;
        }
        i += 1;
        if let Some(rest) = l.strip_prefix("#define ") {
            let mut parts = rest.splitn(2, ' ');
            let name = parts.next().unwrap_or("").to_string();
            if name != "SINEW_H" {
                let value = parts.next().unwrap_or("").trim().to_string();
                items.push(Item::Define {
                    name,
                    value,
                    doc: std::mem::take(&mut doc),
                });
            }
        } else if let Some(name) = l.strip_prefix("enum ") {
            let name = name.trim().to_string();
            let mut repr = String::new();
            let mut variants = Vec::new();
            let mut vdoc = String::new();
            while i < lines.len() {
                let v = lines[i].trim();
                if v == "/**" {
                    vdoc = take_doc(&lines, &mut i);
                    continue;
                }
                i += 1;
                if let Some(r) = v.strip_prefix(": ") {
                    repr = r.to_string();
                } else if v == "};" {
                    break;
                } else if let Some((n, val)) = v.trim_end_matches(',').split_once(" = ") {
                    variants.push((n.to_string(), val.to_string(), std::mem::take(&mut vdoc)));
                }
            }
            items.push(Item::Enum {
                name,
                repr,
                doc: std::mem::take(&mut doc),
                variants,
            });
        } else if let Some(decl) = l.strip_prefix("typedef struct ") {
            if !decl.ends_with('{') {
                // An opaque type: `typedef struct SinewX SinewX;`.
                let name = decl.split_whitespace().next().unwrap_or("").to_string();
                items.push(Item::Struct {
                    name,
                    doc: std::mem::take(&mut doc),
                    fields: Vec::new(),
                });
                continue;
            }
            let name = decl.trim_end_matches('{').trim().to_string();
            let mut fields = Vec::new();
            let mut fdoc = String::new();
            while i < lines.len() {
                let f = lines[i].trim();
                if f == "/**" {
                    fdoc = take_doc(&lines, &mut i);
                    continue;
                }
                i += 1;
                if f.starts_with('}') {
                    break;
                }
                if let Some(decl) = f.strip_suffix(';') {
                    let (ty, field) = decl.rsplit_once(' ').unwrap_or(("", decl));
                    // `void *user_context`: the stars belong to the type.
                    let stars = field.len() - field.trim_start_matches('*').len();
                    let ty = format!("{ty}{}", if stars > 0 { " " } else { "" }) + &field[..stars];
                    let field = &field[stars..];
                    fields.push((field.to_string(), ty, std::mem::take(&mut fdoc)));
                }
            }
            items.push(Item::Struct {
                name,
                doc: std::mem::take(&mut doc),
                fields,
            });
        } else if l.starts_with("typedef ") && l.contains("(*") {
            // `typedef RET (*Name)(PARAMS);`, possibly over several lines.
            let mut proto = l.to_string();
            while !proto.ends_with(';') && i < lines.len() {
                proto.push(' ');
                proto.push_str(lines[i].trim());
                i += 1;
            }
            let after = &proto[proto.find("(*").unwrap_or(0) + 2..];
            let name = after.split(')').next().unwrap_or("").trim().to_string();
            items.push(Item::Callback {
                name,
                prototype: proto,
                doc: std::mem::take(&mut doc),
            });
        } else if l.contains("sinew_") && l.contains('(') && !l.starts_with('#') {
            let mut proto = l.to_string();
            while !proto.ends_with(';') && i < lines.len() {
                proto.push(' ');
                proto.push_str(lines[i].trim());
                i += 1;
            }
            let name = proto
                .split('(')
                .next()
                .and_then(|s| s.split_whitespace().last())
                .unwrap_or("")
                .trim_start_matches('*')
                .to_string();
            items.push(Item::Function {
                name,
                prototype: proto,
                doc: std::mem::take(&mut doc),
            });
        }
    }
    (preamble.trim().to_string(), items)
}

/// Doc text for a Markdown paragraph: `# Safety` becomes a bold lead-in.
fn doc_markdown(doc: &str) -> String {
    doc.replace("# Safety\n", "**Safety.** ")
}

/// Doc text for a table cell: one line, `|` escaped.
fn cell(doc: &str) -> String {
    doc.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// Breaks a one-line prototype after each comma of its parameter list.
fn format_prototype(proto: &str) -> String {
    let Some(open) = proto.find('(') else {
        return proto.to_string();
    };
    let indent = " ".repeat(open + 1);
    let params: Vec<&str> = proto[open + 1..].split(", ").collect();
    format!(
        "{}{}",
        &proto[..open + 1],
        params.join(&format!(",\n{indent}"))
    )
}

/// The Markdown of docs/c-api.md.
fn c_api_markdown(header: &str) -> String {
    let (preamble, items) = parse_header(header);
    let mut md = String::new();
    md.push_str(
        "# C API reference\n\n\
         <!-- Generated from include/sinew.h by tests/ffi/docs.rs: do not edit. Regenerate with\n     \
         SINEW_UPDATE_DOCS=1 cargo test --test ffi docs:: -->\n\n\
         Generated from the doc comments of [`include/sinew.h`](../include/sinew.h). \
         For the ideas behind the numbers see [concepts](concepts.md); for what to change \
         when a simulation misbehaves, the [tuning guide](tuning.md).\n\n",
    );
    // The header's conventions paragraph, less its "generated" notice.
    let conventions: Vec<&str> = preamble
        .lines()
        .filter(|l| !l.contains("Generated by") && !l.starts_with("Sinew:"))
        .collect();
    md.push_str(&cell(&conventions.join(" ")).replace("\\|", "|"));
    md.push('\n');
    md.push_str("\n## Functions\n\n");
    for item in &items {
        if let Item::Function { name, doc, .. } = item {
            // The first paragraph, before any `# Safety`.
            let first = doc.split("\n\n").next().unwrap_or("");
            let first = first.split("# Safety").next().unwrap_or("");
            md.push_str(&format!("- [`{name}`](#{name}): {}\n", cell(first)));
        }
    }
    md.push_str("\n## Constants\n\n");
    for item in &items {
        if let Item::Define { name, value, doc } = item {
            md.push_str(&format!(
                "### `{name}` = {value}\n\n{}\n\n",
                doc_markdown(doc)
            ));
        }
    }
    md.push_str("## Enumerations\n\n");
    for item in &items {
        if let Item::Enum {
            name,
            repr,
            doc,
            variants,
        } = item
        {
            md.push_str(&format!(
                "### `{name}`\n\n{}\n\nCrosses the boundary as `{repr}`.\n\n| value | name | meaning |\n|---|---|---|\n",
                doc_markdown(doc)
            ));
            for (n, v, d) in variants {
                md.push_str(&format!("| {v} | `{n}` | {} |\n", cell(d)));
            }
            md.push('\n');
        }
    }
    md.push_str("## Types\n\n");
    for item in &items {
        if let Item::Callback {
            name,
            prototype,
            doc,
        } = item
        {
            md.push_str(&format!(
                "### `{name}`\n\n```c\n{prototype}\n```\n\n{}\n\n",
                doc_markdown(doc)
            ));
        }
        if let Item::Struct { name, doc, fields } = item {
            md.push_str(&format!("### `{name}`\n\n{}\n\n", doc_markdown(doc)));
            if fields.is_empty() {
                md.push_str("Opaque: used through pointers only.\n\n");
                continue;
            }
            md.push_str("| field | type | meaning |\n|---|---|---|\n");
            for (n, t, d) in fields {
                md.push_str(&format!("| `{n}` | `{t}` | {} |\n", cell(d)));
            }
            md.push('\n');
        }
    }
    md.push_str("## Function reference\n\n");
    for item in &items {
        if let Item::Function {
            name,
            prototype,
            doc,
        } = item
        {
            md.push_str(&format!(
                "### {name}\n\n```c\n{}\n```\n\n{}\n\n",
                format_prototype(prototype),
                doc_markdown(doc)
            ));
        }
    }
    md.trim_end().to_string() + "\n"
}

#[test]
fn c_api_reference_is_fresh() {
    let header = std::fs::read_to_string(root().join("include/sinew.h")).expect("include/sinew.h");
    let generated = c_api_markdown(&header);
    let path = root().join("docs/c-api.md");
    if std::env::var_os("SINEW_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/c-api.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/c-api.md is stale against include/sinew.h: run `SINEW_UPDATE_DOCS=1 cargo test --test ffi docs::`"
    );
}

/// Every function, type and enum of the header has a section in the reference, and
/// every function is documented.
#[test]
fn c_api_reference_covers_the_whole_header() {
    let header = std::fs::read_to_string(root().join("include/sinew.h")).unwrap();
    let (_, items) = parse_header(&header);
    let md = c_api_markdown(&header);
    let mut functions = 0;
    for item in &items {
        let (name, doc) = match item {
            Item::Define { name, doc, .. }
            | Item::Enum { name, doc, .. }
            | Item::Struct { name, doc, .. }
            | Item::Function { name, doc, .. }
            | Item::Callback { name, doc, .. } => (name, doc),
        };
        if let Item::Callback { .. } = item {
            assert!(md.contains(&format!("### `{name}`\n")), "{name} missing");
            assert!(!doc.is_empty(), "{name} has no doc comment in the header");
        }
        if let Item::Function { .. } = item {
            functions += 1;
            assert!(md.contains(&format!("### {name}\n")), "{name} missing");
            assert!(!doc.is_empty(), "{name} has no doc comment in the header");
        }
        assert!(md.contains(name.as_str()), "{name} missing");
    }
    let declared = header
        .lines()
        .map(str::trim_start)
        .filter(|l| l.contains("sinew_") && l.contains('('))
        .filter(|l| !l.starts_with('*') && !l.starts_with('/') && !l.starts_with('#'))
        .count();
    assert_eq!(functions, declared, "every declared function is parsed");
    for name in [
        "SinewWorldDesc",
        "SinewVec3",
        "SinewStatus",
        "SinewSolver",
        "SINEW_ABI_VERSION",
    ] {
        assert!(md.contains(&format!("`{name}`")), "{name} missing");
    }
}

/// The parser on the shapes cbindgen writes: an opaque type, a struct, an enum with
/// its C23/C++ underlying type, a pointer-returning and a multi-line function.
#[test]
fn header_parser_reads_every_declaration_shape() {
    let header = "/*\n * Title.\n * Conventions here.\n */\n\n#ifndef SINEW_H\n#define SINEW_H\n\
        /**\n * Max things.\n */\n#define SINEW_MAX 4\n\
        /**\n * Kinds.\n */\nenum SinewKind\n#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L\n  : uint32_t\n#endif\n {\n  /**\n   * First.\n   */\n  SINEW_KIND_A = 0,\n  SINEW_KIND_B = 1,\n};\n\
        /**\n * Opaque.\n */\ntypedef struct SinewThing SinewThing;\n\
        /**\n * A pair.\n */\ntypedef struct SinewPair {\n  /**\n   * m\n   */\n  float a;\n  uint32_t b[2];\n} SinewPair;\n\
        /**\n * A callback.\n */\ntypedef void *(*SinewCb)(uint32_t a,\n                        void *b);\n\
        /**\n * Name.\n */\nconst char *sinew_name(void);\n\
        /**\n * Adds.\n *\n * # Safety\n * Pointers valid.\n */\nSinewStatus sinew_add(struct SinewWorld world,\n                      const float *x,\n                      uint32_t n);\n";
    let (preamble, items) = parse_header(header);
    assert!(preamble.contains("Conventions here."));
    let names: Vec<String> = items
        .iter()
        .map(|i| match i {
            Item::Define { name, .. }
            | Item::Enum { name, .. }
            | Item::Struct { name, .. }
            | Item::Function { name, .. }
            | Item::Callback { name, .. } => name.clone(),
        })
        .collect();
    assert_eq!(
        names,
        [
            "SINEW_MAX",
            "SinewKind",
            "SinewThing",
            "SinewPair",
            "SinewCb",
            "sinew_name",
            "sinew_add"
        ]
    );
    match &items[1] {
        Item::Enum { repr, variants, .. } => {
            assert_eq!(repr, "uint32_t");
            assert_eq!(
                variants[0],
                ("SINEW_KIND_A".into(), "0".into(), "First.".into())
            );
            assert_eq!(variants.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    match &items[3] {
        Item::Struct { fields, .. } => {
            assert_eq!(fields[0], ("a".into(), "float".into(), "m".into()));
            assert_eq!(fields[1].0, "b[2]");
        }
        other => panic!("{other:?}"),
    }
    match &items[4] {
        Item::Callback { prototype, doc, .. } => {
            assert_eq!(prototype, "typedef void *(*SinewCb)(uint32_t a, void *b);");
            assert_eq!(doc, "A callback.");
        }
        other => panic!("{other:?}"),
    }
    match &items[6] {
        Item::Function { prototype, doc, .. } => {
            assert_eq!(
                prototype,
                "SinewStatus sinew_add(struct SinewWorld world, const float *x, uint32_t n);"
            );
            assert!(doc.contains("# Safety"));
        }
        other => panic!("{other:?}"),
    }
    let md = c_api_markdown(header);
    assert!(md.contains("**Safety.** Pointers valid."));
    assert!(md.contains("Opaque: used through pointers only."));
    assert!(md.contains("| 0 | `SINEW_KIND_A` | First. |"));
    assert!(
        md.contains("### `SinewCb`\n\n```c\ntypedef void *(*SinewCb)(uint32_t a, void *b);\n```")
    );
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
