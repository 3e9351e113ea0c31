//! `unsafe` lives in at most three places (issue 27; ARCHITECTURE.md, "Kernels and
//! `unsafe`"): the C boundary (`src/ffi/`), the kernels (`src/kernels/`) and the
//! parallel executor's disjoint-slice type (`src/solver/disjoint/`). This test reads
//! every Rust file under `src/` and fails on the keyword `unsafe` anywhere else (in
//! code: comments, doc comments and string literals may name it).

use std::path::Path;

use crate::unity_package::walk;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The three places, relative to `src/`: a folder (ending in `/`) or one file.
const PLACES: [&str; 3] = ["ffi/", "kernels/", "solver/disjoint/"];

/// The code of a Rust source: comments and the contents of string, byte-string, raw
/// string and character literals blanked out (lifetimes kept, and every line break, so
/// that line numbers stay those of the file).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    // The line breaks of b[from..to], which a blanked span keeps.
    let breaks = |out: &mut Vec<u8>, from: usize, to: usize| {
        let n = b[from..to.min(b.len())]
            .iter()
            .filter(|&&c| c == b'\n')
            .count();
        out.extend(std::iter::repeat_n(b'\n', n));
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            // Block comments nest in Rust.
            let from = i;
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(b' ');
            breaks(&mut out, from, i);
        } else if let Some(hashes) = raw_string_start(rest) {
            // r"...", r#"..."#, br#"..."#: ends at a quote and as many hashes.
            let from = i;
            let open = rest.iter().position(|&c| c == b'"').unwrap() + 1;
            i += open;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.extend_from_slice(b"\"\"");
            breaks(&mut out, from, i);
        } else if b[i] == b'"' {
            let from = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
            breaks(&mut out, from, i);
        } else if b[i] == b'\'' && is_char_literal(rest) {
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"' '");
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The number of `#` of a raw string literal starting here (`r"`, `r#"`, `br"`, ...).
fn raw_string_start(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s);
    let s = s.strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|&&c| c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// Whether the `'` starting `s` opens a character literal (`'a'`, `'\n'`, `'"'`)
/// rather than a lifetime or a loop label (`'a`).
fn is_char_literal(s: &[u8]) -> bool {
    match s.get(1) {
        Some(b'\\') => true,
        // One character (1 to 4 UTF-8 bytes), then the closing quote.
        Some(_) => (2..=5).any(|n| {
            let one = s
                .get(1..n)
                .and_then(|t| std::str::from_utf8(t).ok())
                .is_some_and(|t| t.chars().count() == 1);
            one && s.get(n) == Some(&b'\'')
        }),
        None => false,
    }
}

/// The lines of `code` where the keyword `unsafe` appears as a whole word.
fn unsafe_lines(code: &str) -> Vec<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut lines = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let found = line.match_indices("unsafe").any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let after = line[at + "unsafe".len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        });
        if found {
            lines.push(n + 1);
        }
    }
    lines
}

#[test]
fn the_scanner_sees_code_only() {
    let src = "// unsafe\n/* unsafe /* nested */ unsafe */ let s = \"unsafe\";\n\
               let r = r#\"unsafe \"# ; let c = '\"'; fn f<'a>(x: &'a u8) {}\n\
               #![deny(clippy::undocumented_unsafe_blocks)]\nunsafe { g() }\n";
    assert_eq!(unsafe_lines(&code_only(src)), vec![5]);
}

#[test]
fn unsafe_lives_in_three_places_only() {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    walk(&src, &mut |p| {
        if p.extension().is_some_and(|e| e == "rs") {
            files.push(p.to_path_buf());
        }
    });
    files.sort();
    assert!(files.len() > 50, "src/ has {} Rust files", files.len());
    let allowed = |rel: &str| {
        PLACES.iter().any(|p| {
            if p.ends_with('/') {
                rel.starts_with(p)
            } else {
                rel == *p
            }
        })
    };
    let mut bad = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).expect("read a source file");
        let lines = unsafe_lines(&code_only(&text));
        if !lines.is_empty() && !allowed(&rel) {
            bad.push(format!("src/{rel}: lines {lines:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "`unsafe` outside src/ffi/, src/kernels/ and src/solver/disjoint/ (put it \
         behind a safe interface there):\n{}",
        bad.join("\n")
    );
}
