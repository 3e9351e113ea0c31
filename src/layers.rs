//! The layers of the Rust core, declared once ([`LAYERS`], lowest first; the table
//! in ARCHITECTURE.md, "Layers", explains each module), and the test that holds the
//! code to them: a module names (`use crate::…` or a `crate::…` path) only modules of
//! lower layers, never one of its own layer or above; a name the crate root re-exports
//! (`crate::World`) counts as the module it comes from. Unit tests (`#[cfg(test)]` modules and the files they include) may
//! build their fixtures from any layer.

/// The top-level modules of `src/`, by layer, lowest first.
const LAYERS: &[&[&str]] = &[
    // Vocabulary: vectors, errors.
    &["math", "error"],
    // The accepted ranges and the settings schema; the snapshot codec.
    &["limits", "snapshot"],
    // Storage and solver infrastructure that knows no family.
    &["particles", "slots", "transform", "solver"],
    // SIMD kernels (intrinsics live here only), then the spatial search over them.
    &["kernels"],
    &["spatial"],
    // Colliders, particle contacts, picking.
    &["collision"],
    // The step's vocabulary (StepContext lends the colliders), the integrator stage.
    &["pipeline"],
    // The constraint families and their registry; the fluids.
    &["constraints", "fluid"],
    // The bodies' builders and registry.
    &["bodies"],
    // What acts on bodies during the step: topology edits, wind, the recovery pass.
    &["topology", "aero", "recovery"],
    &["skinning"],
    // The world: its storage, its API and the pipeline table (world/step.rs).
    &["world"],
    // The C ABI over the world; the benchmark scenes.
    &["ffi", "scenes"],
];

#[cfg(test)]
mod tests {
    use super::LAYERS;
    use std::collections::HashSet;
    use std::path::{Path, PathBuf};

    fn layer_of(module: &str) -> Option<usize> {
        LAYERS.iter().position(|l| l.contains(&module))
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }

    /// The files that `#[cfg(test)] mod name;` (with or without `#[path]`) includes.
    fn test_files(file: &Path, text: &str, out: &mut HashSet<PathBuf>) {
        let dir = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let own_dir = if stem == "mod" || stem == "lib" {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        let mut rest = text;
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let head = rest.trim_start();
            let (path, head) = match head.strip_prefix("#[path = \"") {
                Some(h) => {
                    let end = h.find('"').unwrap();
                    (
                        Some(dir.join(&h[..end])),
                        h[end..].split_once(']').unwrap().1,
                    )
                }
                None => (None, head),
            };
            let head = head.trim_start();
            let head = head.strip_prefix("pub(crate) ").unwrap_or(head);
            let Some(decl) = head.strip_prefix("mod ") else {
                continue;
            };
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !decl[name.len()..].trim_start().starts_with(';') {
                continue;
            }
            out.insert(path.unwrap_or_else(|| own_dir.join(format!("{name}.rs"))));
            out.insert(own_dir.join(&name).join("mod.rs"));
        }
    }

    /// Where the inline test module of `text` starts (`#[cfg(test)] mod name {`,
    /// by convention the file's last item), if any.
    fn inline_tests(text: &str) -> Option<usize> {
        let mut from = 0;
        while let Some(at) = text[from..].find("#[cfg(test)]") {
            let start = from + at;
            from = start + "#[cfg(test)]".len();
            let head = text[from..].trim_start();
            let head = head.strip_prefix("pub(crate) ").unwrap_or(head);
            if let Some(decl) = head.strip_prefix("mod ") {
                let name_end = decl
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(decl.len());
                if decl[name_end..].trim_start().starts_with('{') {
                    return Some(start);
                }
            }
        }
        None
    }

    /// The code of `text` outside comments, string literals and the inline test
    /// module at its end.
    fn code(text: &str) -> String {
        let text = &text[..inline_tests(text).unwrap_or(text.len())];
        let mut out = String::new();
        for line in text.lines() {
            let line = match line.find("//") {
                Some(at) => &line[..at],
                None => line,
            };
            // Drop string literals (paths in messages, `#[path]` values).
            let mut in_str = false;
            let mut prev = ' ';
            for c in line.chars() {
                if c == '"' && prev != '\\' && prev != '\'' {
                    in_str = !in_str;
                } else if !in_str {
                    out.push(c);
                }
                prev = c;
            }
            out.push('\n');
        }
        out
    }

    /// Every `crate::name` of `code` (each name of a brace list `crate::{a, b::c}`),
    /// but macros (`crate::name!`).
    fn crate_paths(code: &str) -> Vec<String> {
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let mut found = Vec::new();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            if let Some(list) = rest.strip_prefix('{') {
                let end = list.find('}').unwrap_or(list.len());
                found.extend(list[..end].split(',').map(ident).filter(|n| !n.is_empty()));
                continue;
            }
            let name = ident(rest);
            if rest[name.len()..].starts_with('!') {
                continue;
            }
            found.push(name);
        }
        found
    }

    /// The module each name the crate root re-exports comes from (`pub use
    /// module::…::{A, B};` in lib.rs).
    fn root_exports(lib: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for stmt in code(lib).split(';') {
            let Some(at) = stmt.find("pub use ") else {
                continue;
            };
            let path = &stmt[at + "pub use ".len()..];
            let module = path.split("::").next().unwrap().trim().to_string();
            let names = path.rsplit("::").next().unwrap();
            for item in names.split([',', '{', '}']) {
                // `a as b` re-exports b.
                let name = item.split_whitespace().last().unwrap_or("");
                if !name.is_empty() {
                    out.push((name.to_string(), module.clone()));
                }
            }
        }
        out
    }

    #[test]
    fn every_module_is_in_one_layer() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut seen = Vec::new();
        for e in std::fs::read_dir(&src).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            if name == "lib" || name == "layers" || p.extension().is_some_and(|e| e != "rs") {
                continue;
            }
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
        for name in &seen {
            assert!(
                layer_of(name).is_some(),
                "src/{name} is in no layer: add it to LAYERS (src/layers.rs) and to \
                 ARCHITECTURE.md's table"
            );
        }
        let declared: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
        for m in &declared {
            assert!(
                seen.iter().any(|s| s == m),
                "LAYERS names {m}, which src/ lacks"
            );
            assert_eq!(declared.iter().filter(|d| *d == m).count(), 1, "{m} twice");
        }
    }

    #[test]
    fn no_module_imports_its_own_layer_or_a_higher_one() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut tests = HashSet::new();
        for f in &files {
            test_files(f, &std::fs::read_to_string(f).unwrap(), &mut tests);
        }
        let exports = root_exports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
        // None: a name re-exported from another crate (glam's `Quat`).
        let module_of = |name: &str| -> Option<String> {
            match exports.iter().find(|(n, _)| n == name) {
                Some((_, m)) if layer_of(m).is_none() && m != "lib" => None,
                Some((_, m)) => Some(m.clone()),
                None => Some(name.to_string()),
            }
        };
        let mut wrong = Vec::new();
        for f in files.iter().filter(|f| !tests.contains(*f)) {
            let rel = f.strip_prefix(&src).unwrap();
            let top = rel.iter().next().unwrap().to_str().unwrap();
            let top = top.strip_suffix(".rs").unwrap_or(top);
            if top == "lib" || top == "layers" {
                continue;
            }
            let own = layer_of(top).unwrap_or_else(|| panic!("src/{top} is in no layer"));
            let text = std::fs::read_to_string(f).unwrap();
            for name in crate_paths(&code(&text)) {
                // A name the root re-exports counts as its module.
                let Some(module) = module_of(&name) else {
                    continue;
                };
                if module == top {
                    continue;
                }
                let bad = match layer_of(&module) {
                    Some(layer) => layer >= own,
                    // Unknown: neither a module nor a name the root re-exports.
                    None => true,
                };
                if bad {
                    wrong.push(format!("src/{}: crate::{name}", rel.display()));
                }
            }
        }
        wrong.sort();
        wrong.dedup();
        assert!(
            wrong.is_empty(),
            "imports from the module's own layer or a higher one, or through the crate \
             root (LAYERS in src/layers.rs):\n{}",
            wrong.join("\n")
        );
    }
}
