//! The hand-written C# P/Invoke layer (bindings/csharp/Native) is checked against
//! include/sinew.h declaration by declaration: every C function has exactly one
//! `[DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern`
//! with the same name, parameter names and mapped types (or is on the short, justified
//! list of functions that pass a struct larger than a handle by value); every C struct
//! has a `[StructLayout(LayoutKind.Sequential)]` C# struct with the same fields in the
//! same order; every C enum a C# enum with the same underlying type and values;
//! `SINEW_ABI_VERSION` the same value. Burst rules: externs take and return only
//! integers, floats, pointers and one-field handle structs (C enum types cross as their
//! integer type, as `typedef int32_t SinewStatus` does in C).
//!
//! When this fails after a change to src/ffi: regenerate the header
//! (`SINEW_UPDATE_HEADER=1 cargo test --test header`) and update the matching file in
//! bindings/csharp/Native (one per src/ffi area), then the idiomatic layer.

use std::collections::BTreeMap;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// C functions the raw C# layer deliberately does not declare, with the function
/// that replaces each one.
const BY_VALUE_EXCLUDED: &[(&str, &str)] = &[
    ("sinew_world_desc_default", "sinew_world_desc_init"),
    ("sinew_rope_desc_default", "sinew_rope_desc_init"),
    ("sinew_cloth_desc_default", "sinew_cloth_desc_init"),
    (
        "sinew_cloth_grid_desc_default",
        "sinew_cloth_grid_desc_init",
    ),
    ("sinew_tet_body_desc_default", "sinew_tet_body_desc_init"),
    (
        "sinew_pressure_body_desc_default",
        "sinew_pressure_body_desc_init",
    ),
];

#[derive(Debug, Clone, PartialEq)]
struct Func {
    ret: String,
    name: String,
    params: Vec<(String, String)>, // (type, name)
}

#[derive(Debug)]
struct Enum {
    underlying: String,
    variants: Vec<(String, i64)>,
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// Removes `/* ... */` and `// ...` comments.
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits "TYPE NAME" (C) into a normalised type ("const struct SinewVec3 *") and name.
fn split_decl(decl: &str) -> (String, String) {
    let d = squash(&decl.replace('*', " * "));
    let (ty, name) = d
        .rsplit_once(' ')
        .unwrap_or_else(|| panic!("declaration {decl:?}"));
    (
        ty.replace(" *", "*").replace('*', " *").trim().to_string(),
        name.trim_start_matches('@').to_string(),
    )
}

/// `RET NAME(T a, U b)` -> Func.
fn parse_signature(sig: &str) -> Func {
    let open = sig.find('(').unwrap();
    let close = sig.rfind(')').unwrap();
    let (ret, name) = split_decl(&sig[..open]);
    let inner = squash(&sig[open + 1..close]);
    let params = if inner.is_empty() || inner == "void" {
        Vec::new()
    } else {
        inner.split(',').map(split_decl).collect()
    };
    Func { ret, name, params }
}

fn header_functions(h: &str) -> Vec<Func> {
    let mut out = Vec::new();
    for stmt in h.split(';') {
        let s = squash(stmt);
        if s.contains("typedef") || s.contains('{') || s.contains('}') || !s.contains('(') {
            // extern "C" { ... } blocks open with a brace: keep what follows it.
            if let Some(pos) = s.rfind('{') {
                let rest = &s[pos + 1..];
                if rest.contains("sinew_") && rest.contains('(') {
                    out.push(parse_signature(rest));
                }
            }
            continue;
        }
        if s.contains("sinew_") {
            out.push(parse_signature(&s));
        }
    }
    out
}

/// `typedef struct Name { T a; U b; } Name;` -> name -> fields.
fn header_structs(h: &str) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out = BTreeMap::new();
    let mut rest = h;
    while let Some(pos) = rest.find("typedef struct ") {
        let after = &rest[pos + "typedef struct ".len()..];
        let name = after.split_whitespace().next().unwrap().to_string();
        let body_start = after.find('{').unwrap();
        let body_end = after.find('}').unwrap();
        let fields = after[body_start + 1..body_end]
            .split(';')
            .filter(|f| !f.trim().is_empty())
            .map(split_decl)
            .collect();
        out.insert(name, fields);
        rest = &after[body_end..];
    }
    out
}

/// `enum Name ... : int32_t ... { A = 0, B = 1, };` -> Enum.
fn header_enums(h: &str) -> BTreeMap<String, Enum> {
    let mut out = BTreeMap::new();
    let mut rest = h;
    while let Some(pos) = rest.find("\nenum ") {
        let after = &rest[pos + "\nenum ".len()..];
        let name = after.split_whitespace().next().unwrap().to_string();
        let open = after.find('{').unwrap();
        let close = after.find('}').unwrap();
        let head = &after[..open];
        let underlying = head
            .split(':')
            .nth(1)
            .map(|u| u.split_whitespace().next().unwrap().to_string())
            .unwrap_or_else(|| panic!("enum {name} has no fixed underlying type"));
        let variants = after[open + 1..close]
            .split(',')
            .filter(|v| !v.trim().is_empty())
            .map(|v| {
                let (n, val) = v.split_once('=').unwrap();
                (n.trim().to_string(), val.trim().parse().unwrap())
            })
            .collect();
        out.insert(
            name,
            Enum {
                underlying,
                variants,
            },
        );
        rest = &after[close..];
    }
    out
}

fn header_define(h: &str, name: &str) -> String {
    h.lines()
        .find_map(|l| l.strip_prefix(&format!("#define {name} ")))
        .unwrap_or_else(|| panic!("no #define {name}"))
        .trim()
        .to_string()
}

fn csharp_native_sources() -> String {
    let dir = Path::new(ROOT).join("bindings/csharp/Native");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("bindings/csharp/Native")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cs"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
        .iter()
        .map(|f| strip_comments(&std::fs::read_to_string(f).unwrap()))
        .collect::<Vec<_>>()
        .join("\n")
}

const DLLIMPORT: &str = "[DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]";

/// Every `static extern` declaration; panics if one lacks the DllImport attribute.
fn csharp_functions(cs: &str) -> Vec<Func> {
    let mut out = Vec::new();
    let mut rest = cs;
    while let Some(pos) = rest.find("static extern ") {
        let before = squash(&rest[..pos]);
        let attr_ok = before.ends_with(&format!("{DLLIMPORT} public"));
        let after = &rest[pos + "static extern ".len()..];
        let end = after.find(';').unwrap();
        let sig = squash(&after[..end]);
        assert!(attr_ok, "`{sig}` is not preceded by `{DLLIMPORT} public`");
        // C#: "byte*" -> normalise the pointer spelling like C's.
        out.push(parse_signature(&sig.replace('*', " * ")));
        rest = &after[end..];
    }
    out
}

/// Finds `KEYWORD NAME` and returns the text between its braces (balanced).
fn csharp_block(cs: &str, keyword: &str, name: &str) -> Option<(String, String)> {
    let pat = format!("{keyword} {name}");
    let mut from = 0;
    while let Some(p) = cs[from..].find(&pat) {
        let start = from + p;
        let next = cs[start + pat.len()..].chars().next().unwrap_or(' ');
        if next.is_alphanumeric() || next == '_' {
            from = start + pat.len();
            continue;
        }
        let open = start + cs[start..].find('{').unwrap();
        let mut depth = 0;
        for (i, ch) in cs[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        let head = cs[start..open].to_string();
                        let line_start = cs[..start].rfind('\n').unwrap_or(0);
                        let prefix = &cs[..line_start];
                        let attr_line = prefix
                            .lines()
                            .rev()
                            .find(|l| !l.trim().is_empty())
                            .unwrap_or("")
                            .trim()
                            .to_string();
                        return Some((
                            format!("{attr_line}\n{head}"),
                            cs[open + 1..open + i].to_string(),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Fields of a C# struct: lines `public TYPE NAME;` at the top level of its body.
fn csharp_struct_fields(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut depth = 0;
    for line in body.lines() {
        let t = line.trim();
        if depth == 0 {
            if let Some(decl) = t.strip_prefix("public ").and_then(|d| d.strip_suffix(';')) {
                if !decl.contains('(')
                    && !decl.contains('=')
                    && decl.split_whitespace().count() == 2
                {
                    out.push(split_decl(decl));
                }
            }
        }
        depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
    }
    out
}

/// Pascal-case C# name of a C enum variant: SINEW_ERROR_NULL_POINTER -> ErrorNullPointer,
/// SINEW_SOLVER_JACOBI (in SinewSolver) -> Jacobi.
fn csharp_variant(enum_name: &str, variant: &str) -> String {
    let own = enum_name.trim_start_matches("Sinew").to_uppercase() + "_";
    let v = variant.trim_start_matches("SINEW_");
    let v = v.strip_prefix(own.as_str()).unwrap_or(v);
    v.split('_')
        .map(|w| {
            let mut c = w.chars();
            let first = c.next().unwrap().to_ascii_uppercase();
            first.to_string() + &c.as_str().to_ascii_lowercase()
        })
        .collect()
}

/// C type (normalised) -> C# type, for parameters, returns and fields.
fn map_type(
    c: &str,
    structs: &BTreeMap<String, Vec<(String, String)>>,
    enums: &BTreeMap<String, Enum>,
) -> String {
    let c = c.trim();
    if let Some(inner) = c.strip_suffix(" *") {
        let inner = inner.trim_start_matches("const ").trim();
        return match inner {
            "char" => "byte *".to_string(),
            "void" => "void *".to_string(),
            other => format!("{} *", map_type(other, structs, enums)),
        };
    }
    let c = c.trim_start_matches("struct ");
    match c {
        "void" => "void".into(),
        "uint32_t" => "uint".into(),
        "int32_t" => "int".into(),
        "uint64_t" => "ulong".into(),
        "int64_t" => "long".into(),
        "uint8_t" => "byte".into(),
        "float" => "float".into(),
        "double" => "double".into(),
        // A C enum type crosses as its fixed underlying integer (Burst takes no enums).
        s if enums.contains_key(s) => map_type(&enums[s].underlying, structs, enums),
        s if structs.contains_key(s) => s.to_string(),
        other => panic!("no C# mapping for C type `{other}`: extend map_type"),
    }
}

fn c_size(ty: &str, structs: &BTreeMap<String, Vec<(String, String)>>) -> usize {
    let t = ty.trim_start_matches("struct ");
    match t {
        "uint32_t" | "int32_t" | "float" => 4,
        "uint64_t" | "int64_t" | "double" => 8,
        s if s.ends_with('*') => 8,
        s => {
            let fields = structs.get(s).unwrap_or_else(|| panic!("size of `{s}`"));
            // All fields here are 4- or 8-byte scalars or structs of them: size with
            // the largest alignment.
            let sizes: Vec<usize> = fields.iter().map(|(ft, _)| c_size(ft, structs)).collect();
            let align = fields
                .iter()
                .map(|(ft, _)| c_align(ft, structs))
                .max()
                .unwrap();
            let mut off = 0usize;
            for ((ft, _), sz) in fields.iter().zip(&sizes) {
                let a = c_align(ft, structs);
                off = off.div_ceil(a) * a + sz;
            }
            off.div_ceil(align) * align
        }
    }
}

fn c_align(ty: &str, structs: &BTreeMap<String, Vec<(String, String)>>) -> usize {
    let t = ty.trim_start_matches("struct ");
    match structs.get(t) {
        Some(fields) => fields
            .iter()
            .map(|(ft, _)| c_align(ft, structs))
            .max()
            .unwrap(),
        None => c_size(t, structs),
    }
}

struct Parsed {
    c_funcs: Vec<Func>,
    structs: BTreeMap<String, Vec<(String, String)>>,
    enums: BTreeMap<String, Enum>,
    cs: String,
    cs_funcs: Vec<Func>,
}

fn parse() -> Parsed {
    let h = strip_comments(&read("include/sinew.h"));
    let h_no_pp: String = h
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let c_funcs = header_functions(&h_no_pp);
    let structs = header_structs(&h_no_pp);
    let enums = header_enums(&h_no_pp);
    let cs = csharp_native_sources();
    let cs_funcs = csharp_functions(&cs);
    Parsed {
        c_funcs,
        structs,
        enums,
        cs,
        cs_funcs,
    }
}

#[test]
fn header_parses_into_the_expected_shape() {
    let p = parse();
    let names: Vec<_> = p.c_funcs.iter().map(|f| f.name.as_str()).collect();
    assert!(p.c_funcs.len() >= 19, "parsed functions: {names:?}");
    for must in [
        "sinew_abi_version",
        "sinew_world_desc_init",
        "sinew_world_read_positions",
    ] {
        assert!(
            names.contains(&must),
            "{must} not parsed from the header: {names:?}"
        );
    }
    let rp = p
        .c_funcs
        .iter()
        .find(|f| f.name == "sinew_world_read_positions")
        .unwrap();
    assert_eq!(rp.ret, "SinewStatus");
    assert_eq!(map_type(&rp.ret, &p.structs, &p.enums), "int");
    assert_eq!(
        rp.params[0],
        ("struct SinewWorld".to_string(), "world".to_string())
    );
    assert_eq!(rp.params[3], ("void *".to_string(), "out".to_string()));
    assert_eq!(p.structs["SinewWorldDesc"].len(), 8);
    assert_eq!(c_size("struct SinewWorldDesc", &p.structs), 40);
    assert_eq!(p.enums["SinewStatus"].underlying, "int32_t");
    assert_eq!(
        csharp_variant("SinewStatus", "SINEW_ERROR_NULL_POINTER"),
        "ErrorNullPointer"
    );
    assert_eq!(
        csharp_variant("SinewSolver", "SINEW_SOLVER_GAUSS_SEIDEL"),
        "GaussSeidel"
    );
}

#[test]
fn every_c_function_has_a_matching_dllimport() {
    let p = parse();
    let mut errors = Vec::new();
    for f in &p.c_funcs {
        let decls: Vec<_> = p.cs_funcs.iter().filter(|c| c.name == f.name).collect();
        if let Some((_, replacement)) = BY_VALUE_EXCLUDED.iter().find(|(n, _)| *n == f.name) {
            let by_value_big = std::iter::once(&f.ret)
                .chain(f.params.iter().map(|(t, _)| t))
                .any(|t| {
                    t.starts_with("struct ") && !t.ends_with('*') && c_size(t, &p.structs) > 8
                });
            if !by_value_big {
                errors.push(format!(
                    "{} is excluded but passes no struct larger than a handle by value",
                    f.name
                ));
            }
            if !decls.is_empty() {
                errors.push(format!("{} is excluded but declared in C#", f.name));
            }
            if !p.cs_funcs.iter().any(|c| c.name == *replacement) {
                errors.push(format!(
                    "{} is excluded but its replacement {replacement} is not declared",
                    f.name
                ));
            }
            continue;
        }
        if decls.len() != 1 {
            errors.push(format!(
                "{}: {} C# declarations (want 1) in bindings/csharp/Native",
                f.name,
                decls.len()
            ));
            continue;
        }
        let cs = decls[0];
        let want_ret = map_type(&f.ret, &p.structs, &p.enums);
        if cs.ret != want_ret {
            errors.push(format!(
                "{}: returns `{}` in C#, `{}` in C (want `{want_ret}`)",
                f.name, cs.ret, f.ret
            ));
        }
        if cs.params.len() != f.params.len() {
            errors.push(format!(
                "{}: {} parameters in C#, {} in C",
                f.name,
                cs.params.len(),
                f.params.len()
            ));
            continue;
        }
        for (i, ((ct, cn), (st, sn))) in f.params.iter().zip(&cs.params).enumerate() {
            let want = map_type(ct, &p.structs, &p.enums);
            if *st != want || cn != sn {
                errors.push(format!(
                    "{} parameter {i}: C# `{st} {sn}`, C `{ct} {cn}` (want `{want} {cn}`)",
                    f.name
                ));
            }
        }
    }
    for c in &p.cs_funcs {
        if !p.c_funcs.iter().any(|f| f.name == c.name) {
            errors.push(format!("C# declares {} which the header does not", c.name));
        }
    }
    assert!(
        errors.is_empty(),
        "C# raw layer vs include/sinew.h:\n  {}",
        errors.join("\n  ")
    );
}

#[test]
fn externs_are_burst_compatible() {
    let p = parse();
    let mut errors = Vec::new();
    // Burst's DllImport takes integers, floats, pointers and handle structs (one integer
    // or pointer field) as parameters and returns.
    const SCALARS: &[&str] = &[
        "void", "byte", "sbyte", "short", "ushort", "int", "uint", "long", "ulong", "float",
        "double",
    ];
    for f in &p.cs_funcs {
        for t in std::iter::once(&f.ret).chain(f.params.iter().map(|(t, _)| t)) {
            let ok = if let Some(pointee) = t.strip_suffix(" *") {
                let base = pointee.trim_end_matches(" *");
                SCALARS.contains(&base) || p.structs.contains_key(base)
            } else if SCALARS.contains(&t.as_str()) {
                true
            } else if let Some(fields) = p.structs.get(t.as_str()) {
                fields.len() == 1
                    && ["uint32_t", "uint64_t", "int32_t", "int64_t"]
                        .contains(&fields[0].0.as_str())
            } else {
                false
            };
            if !ok {
                errors.push(format!(
                    "{}: type `{t}` (Burst takes integers, floats, pointers and one-field handle structs)",
                    f.name
                ));
            }
        }
    }
    assert!(
        !p.cs.contains("MarshalAs"),
        "no MarshalAs in the raw layer: blittable types only"
    );
    assert!(
        errors.is_empty(),
        "not Burst-compatible:\n  {}",
        errors.join("\n  ")
    );
}

#[test]
fn every_c_struct_has_the_same_csharp_layout() {
    let p = parse();
    let mut errors = Vec::new();
    for (name, fields) in &p.structs {
        let Some((head, body)) = csharp_block(&p.cs, "struct", name) else {
            errors.push(format!("no C# struct {name}"));
            continue;
        };
        if !head.contains("[StructLayout(LayoutKind.Sequential)]") {
            errors.push(format!(
                "C# struct {name} lacks [StructLayout(LayoutKind.Sequential)]: {head}"
            ));
        }
        let cs_fields = csharp_struct_fields(&body);
        let want: Vec<(String, String)> = fields
            .iter()
            .map(|(t, n)| (map_type(t, &p.structs, &p.enums), n.clone()))
            .collect();
        if cs_fields != want {
            errors.push(format!(
                "struct {name}: C# fields {cs_fields:?}, want {want:?}"
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_c_enum_has_the_same_csharp_values() {
    let p = parse();
    let mut errors = Vec::new();
    for (name, e) in &p.enums {
        let Some((head, body)) = csharp_block(&p.cs, "enum", name) else {
            errors.push(format!("no C# enum {name}"));
            continue;
        };
        let want_underlying = map_type(&e.underlying, &p.structs, &p.enums);
        if !head.contains(&format!("enum {name} : {want_underlying}")) {
            errors.push(format!("C# enum {name} is not `: {want_underlying}`"));
        }
        let cs_variants: Vec<(String, i64)> = body
            .split(',')
            .filter(|v| v.contains('='))
            .map(|v| {
                let (n, val) = v.split_once('=').unwrap();
                (n.trim().to_string(), val.trim().parse().unwrap())
            })
            .collect();
        let want: Vec<(String, i64)> = e
            .variants
            .iter()
            .map(|(n, v)| (csharp_variant(name, n), *v))
            .collect();
        if cs_variants != want {
            errors.push(format!("enum {name}: C# {cs_variants:?}, want {want:?}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn abi_version_and_library_names_match() {
    let p = parse();
    let h = read("include/sinew.h");
    let v = header_define(&h, "SINEW_ABI_VERSION");
    assert!(
        p.cs.contains(&format!("public const uint SINEW_ABI_VERSION = {v};")),
        "C# SINEW_ABI_VERSION differs from the header's {v}"
    );
    let ios = "#if UNITY_IOS && !UNITY_EDITOR\n        public const string Lib = \"__Internal\";\n#else\n        public const string Lib = \"sinew\";\n#endif";
    assert!(
        p.cs.contains(ios),
        "library name: `sinew`, `__Internal` on iOS players"
    );
}

#[test]
fn material_presets_are_the_same_csharp_constants() {
    let p = parse();
    let h = read("include/sinew.h");
    let presets: Vec<(&str, &str)> = h
        .lines()
        .filter_map(|l| l.strip_prefix("#define SINEW_MATERIAL_"))
        .map(|rest| rest.split_once(' ').unwrap())
        .collect();
    assert!(
        presets.len() >= 7,
        "material presets in the header: {presets:?}"
    );
    let mut errors = Vec::new();
    for (name, value) in presets {
        let c: f32 = value.trim().parse().unwrap();
        let decl = format!("public const float SINEW_MATERIAL_{name} = ");
        let Some(pos) = p.cs.find(&decl) else {
            errors.push(format!("no `{decl}...f;` in bindings/csharp/Native"));
            continue;
        };
        let rest = &p.cs[pos + decl.len()..];
        let literal = rest[..rest.find(';').unwrap()].trim();
        match literal.strip_suffix('f').map(str::parse::<f32>) {
            Some(Ok(v)) if v == c => {}
            _ => errors.push(format!(
                "SINEW_MATERIAL_{name}: C# `{literal}`, C `{value}` (want the same float with an f suffix)"
            )),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
