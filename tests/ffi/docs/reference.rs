//! The C API reference, `docs/c-api.md`, generated from the doc comments of
//! `include/sinew.h`: the header parser, the markdown, and the tests that the committed
//! reference is fresh (`SINEW_UPDATE_DOCS=1` rewrites it) and covers the whole header.

use super::root;

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
