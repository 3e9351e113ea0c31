//! Generator of the raw C# P/Invoke layer (`bindings/csharp/Native/SinewNative.g.cs`)
//! from `include/sinew.h`, which cbindgen generates from src/ffi: the header is the one
//! source of every name, layout, enum value, constant and doc comment the bindings use.
//!
//! Two steps: [`parse_header`] reads the header into a [`Header`] model (constants,
//! enums, structs, functions, each with its doc comment), and [`emit_csharp`] writes the
//! C# file from the model. Mapping rules (Burst's DllImport rules included):
//!
//! * `uint32_t` → `uint`, `int32_t` → `int`, `uint64_t` → `ulong`, `float` → `float`,
//!   `char *` → `byte *` (NUL-terminated UTF-8), `void *` → `void *`, `T *` → `T *`
//!   (`const` dropped: C# has no const pointers).
//! * A C enum type in a signature or field crosses as its fixed underlying integer (Burst
//!   takes no enums, and `typedef int32_t SinewStatus` is what C sees); the enum itself
//!   becomes a C# enum of that underlying type whose members drop `SINEW_` and the
//!   enum's own prefix, the leading words of its name that every member shares
//!   (`SINEW_ERROR_NULL_POINTER` → `ErrorNullPointer`, `SINEW_SOLVER_JACOBI` in
//!   `SinewSolver` → `Jacobi`, `SINEW_BENDING_DIHEDRAL` in `SinewBendingModel` →
//!   `Dihedral`: see [`csharp_variant`]).
//! * Handles (`SinewWorld`, `SinewBody`, `SinewCollider`, ...: one integer field) are named
//!   with the suffix `Handle` in C# (`SinewColliderHandle`), so no raw type shares a name
//!   with the Unity components (`SinewCollider`, `SinewFluid`) or the wrappers.
//! * Structs become `[StructLayout(LayoutKind.Sequential)] public partial struct` with the
//!   same fields in the same order (partial: hand-written helpers such as `SinewVec3`'s
//!   operators live in `Native/SinewNative.Helpers.cs`).
//! * Functions returning a struct larger than a one-integer handle by value are not
//!   declared (Burst refuses them, and by-value struct returns marshal differently across
//!   platforms); each has a `*_init(out)` twin that is.
//! * Function pointer typedefs (`typedef void (*SinewTaskFn)(...)`, the host task system's
//!   callbacks) cross as `System.IntPtr` in fields and parameters (what
//!   `Marshal.GetFunctionPointerForDelegate` gives, and what Burst and IL2CPP take),
//!   and each becomes a Cdecl `[UnmanagedFunctionPointer]` delegate of the same name
//!   (its own function pointer parameters as `System.IntPtr`), for the host's static
//!   callbacks and for calling a function pointer Sinew passes
//!   (`Marshal.GetDelegateForFunctionPointer`).
//! * `#define` constants: integers → `const uint`, decimals → `const float` (`f` suffix).
//! * Doc comments: `/** ... */` → `/// <summary>`, the `# Safety` section →
//!   `/// <remarks>`, XML-escaped, `` `code` `` → `<c>code</c>`.

use std::fmt::Write as _;

/// A C enum: name, fixed underlying C type, members (C name, value, doc).
#[derive(Debug, Clone)]
pub struct CEnum {
    pub name: String,
    pub doc: Vec<String>,
    pub underlying: String,
    pub variants: Vec<(String, i64, Vec<String>)>,
}

/// A C struct: fields are (normalised C type, name, doc).
#[derive(Debug, Clone)]
pub struct CStruct {
    pub name: String,
    pub doc: Vec<String>,
    pub fields: Vec<(String, String, Vec<String>)>,
}

/// A C function: return type and parameters (normalised C type, name).
#[derive(Debug, Clone)]
pub struct CFunction {
    pub name: String,
    pub doc: Vec<String>,
    pub ret: String,
    pub params: Vec<(String, String)>,
}

/// A `#define NAME VALUE` constant.
#[derive(Debug, Clone)]
pub struct CConst {
    pub name: String,
    pub doc: Vec<String>,
    pub value: String,
}

/// Everything the header declares, in header order.
#[derive(Debug, Clone, Default)]
pub struct Header {
    pub consts: Vec<CConst>,
    pub enums: Vec<CEnum>,
    pub structs: Vec<CStruct>,
    pub functions: Vec<CFunction>,
    /// Function pointer typedefs: name, return type and parameters.
    pub fn_pointers: Vec<CFunction>,
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The declaration starting at line `*i`, joined up to its `;` (which is dropped),
/// whitespace squashed; `*i` moves past it.
fn statement(lines: &[&str], i: &mut usize) -> String {
    let mut sig = String::new();
    loop {
        sig.push(' ');
        sig.push_str(lines[*i].trim());
        *i += 1;
        if sig.trim_end().ends_with(';') {
            break;
        }
    }
    squash(sig.trim().trim_end_matches(';'))
}

/// A parameter list (between the parentheses) as (type, name) pairs; `void` or
/// nothing is none.
fn parameters(list: &str) -> Vec<(String, String)> {
    let inner = squash(list);
    if inner.is_empty() || inner == "void" {
        Vec::new()
    } else {
        inner.split(',').map(split_decl).collect()
    }
}

/// Splits "TYPE NAME" into a normalised type ("const struct SinewVec3 *") and the name.
pub fn split_decl(decl: &str) -> (String, String) {
    let d = squash(&decl.replace('*', " * "));
    let (ty, name) = d
        .rsplit_once(' ')
        .unwrap_or_else(|| panic!("C declaration without a name: {decl:?}"));
    (squash(ty), name.to_string())
}

/// Reads include/sinew.h. Panics naming the line on anything it does not understand, so
/// a new kind of declaration in the header fails the test instead of being dropped.
pub fn parse_header(h: &str) -> Header {
    let lines: Vec<&str> = h.lines().collect();
    let mut out = Header::default();
    let mut doc: Vec<String> = Vec::new();
    let mut i = 0;
    let mut seen_banner = false;
    while i < lines.len() {
        let t = lines[i].trim();
        if t.starts_with("/*") {
            let mut block = Vec::new();
            loop {
                let l = lines[i].trim();
                let end = l.ends_with("*/");
                let body = l
                    .trim_start_matches("/**")
                    .trim_start_matches("/*")
                    .trim_end_matches("*/")
                    .trim_start_matches('*');
                let body = body.strip_prefix(' ').unwrap_or(body).trim_end();
                // The `/**` and `*/` lines open and close the block; they carry no text.
                let delimiter = body.is_empty() && (l.starts_with("/*") || end);
                if !delimiter {
                    block.push(body.to_string());
                }
                i += 1;
                if end {
                    break;
                }
            }
            if !seen_banner {
                // The file's opening comment is about the header, not a declaration.
                seen_banner = true;
            } else {
                doc = block;
            }
            continue;
        }
        if t.is_empty()
            || t.starts_with("#if")
            || t.starts_with("#endif")
            || t.starts_with("#else")
            || t.starts_with("#include")
            || t.starts_with("typedef enum ")
            || t.starts_with("typedef int32_t ")
            || t.starts_with("typedef uint32_t ")
            || t.starts_with("extern \"C\"")
            || t.starts_with('}') && !t.starts_with("} Sinew")
            || t.starts_with(": ")
        {
            i += 1;
            continue;
        }
        if let Some(rest) = t.strip_prefix("#define ") {
            let mut parts = rest.splitn(2, ' ');
            let name = parts.next().unwrap().to_string();
            if let Some(value) = parts.next() {
                out.consts.push(CConst {
                    name,
                    doc: std::mem::take(&mut doc),
                    value: value.trim().to_string(),
                });
            }
            i += 1;
            continue;
        }
        if let Some(name) = t.strip_prefix("enum ") {
            let name = name.trim().to_string();
            let mut underlying = None;
            i += 1;
            while !lines[i].trim().starts_with('{') {
                if let Some(u) = lines[i].trim().strip_prefix(": ") {
                    underlying = Some(u.trim().to_string());
                }
                i += 1;
            }
            i += 1;
            let mut variants = Vec::new();
            let mut vdoc: Vec<String> = Vec::new();
            loop {
                let l = lines[i].trim();
                if l.starts_with("};") {
                    i += 1;
                    break;
                }
                if l.starts_with("/**") {
                    vdoc.clear();
                    i += 1;
                    while !lines[i].trim().starts_with("*/") {
                        let b = lines[i].trim().trim_start_matches('*');
                        vdoc.push(b.strip_prefix(' ').unwrap_or(b).trim_end().to_string());
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                let (n, v) = l
                    .trim_end_matches(',')
                    .split_once('=')
                    .unwrap_or_else(|| panic!("enum {name}: member without a value: {l:?}"));
                let value: i64 = v.trim().parse().unwrap_or_else(|_| {
                    panic!("enum {name}: value of {n} is not an integer: {l:?}")
                });
                variants.push((n.trim().to_string(), value, std::mem::take(&mut vdoc)));
                i += 1;
            }
            out.enums.push(CEnum {
                underlying: underlying
                    .unwrap_or_else(|| panic!("enum {name} has no fixed underlying type")),
                name,
                doc: std::mem::take(&mut doc),
                variants,
            });
            continue;
        }
        if t.starts_with("typedef ") && t.contains("(*") {
            // typedef RET (*NAME)(PARAMS); possibly over several lines.
            let sig = statement(&lines, &mut i);
            let sig = squash(sig.trim_start_matches("typedef "));
            let star = sig.find("(*").unwrap();
            let name_end = star + sig[star..].find(')').unwrap();
            let ret = squash(&sig[..star].replace('*', " * "));
            let name = sig[star + 2..name_end].trim().to_string();
            let rest = &sig[name_end + 1..];
            let open = rest.find('(').unwrap();
            let close = rest.rfind(')').unwrap();
            let params = parameters(&rest[open + 1..close]);
            out.fn_pointers.push(CFunction {
                name,
                doc: std::mem::take(&mut doc),
                ret,
                params,
            });
            continue;
        }
        if let Some(rest) = t.strip_prefix("typedef struct ") {
            let name = rest.trim_end_matches('{').trim().to_string();
            i += 1;
            let mut fields = Vec::new();
            let mut fdoc: Vec<String> = Vec::new();
            loop {
                let l = lines[i].trim();
                if l.starts_with('}') {
                    i += 1;
                    break;
                }
                if l.starts_with("/**") {
                    fdoc.clear();
                    i += 1;
                    while !lines[i].trim().starts_with("*/") {
                        let b = lines[i].trim().trim_start_matches('*');
                        fdoc.push(b.strip_prefix(' ').unwrap_or(b).trim_end().to_string());
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                let (ty, n) = split_decl(l.trim_end_matches(';'));
                fields.push((ty, n, std::mem::take(&mut fdoc)));
                i += 1;
            }
            out.structs.push(CStruct {
                name,
                doc: std::mem::take(&mut doc),
                fields,
            });
            continue;
        }
        if t.contains('(') {
            let sig = statement(&lines, &mut i);

            let open = sig.find('(').unwrap();
            let close = sig.rfind(')').unwrap();
            let (ret, name) = split_decl(&sig[..open]);
            let params = parameters(&sig[open + 1..close]);
            out.functions.push(CFunction {
                name,
                doc: std::mem::take(&mut doc),
                ret,
                params,
            });
            continue;
        }
        panic!("include/sinew.h line {}: not understood: {t:?}", i + 1);
    }
    out
}

impl Header {
    pub fn enum_named(&self, name: &str) -> Option<&CEnum> {
        self.enums.iter().find(|e| e.name == name)
    }

    pub fn fn_pointer_named(&self, name: &str) -> Option<&CFunction> {
        self.fn_pointers.iter().find(|f| f.name == name)
    }

    pub fn struct_named(&self, name: &str) -> Option<&CStruct> {
        self.structs.iter().find(|s| s.name == name)
    }

    /// A struct Burst passes by value: one integer field (the handles).
    pub fn is_handle(&self, name: &str) -> bool {
        self.struct_named(name).is_some_and(|s| {
            s.fields.len() == 1
                && ["uint32_t", "uint64_t", "int32_t", "int64_t"].contains(&s.fields[0].0.as_str())
        })
    }

    /// The C# name of a C struct: a handle (`SinewWorld`, `SinewCollider`, ...) gets the
    /// suffix `Handle` (`SinewColliderHandle`), so the raw layer's value types never share a
    /// name with the objects built on them (the Unity package's `SinewCollider` and
    /// `SinewFluid` components live beside `using Sinew.Native;`); other structs keep
    /// their C name.
    pub fn csharp_struct_name(&self, c_name: &str) -> String {
        if self.is_handle(c_name) {
            format!("{c_name}Handle")
        } else {
            c_name.to_string()
        }
    }

    /// Functions returning a struct larger than a handle by value: not declared in C#.
    pub fn by_value_returns(&self) -> Vec<&CFunction> {
        self.functions
            .iter()
            .filter(|f| {
                let r = f.ret.trim_start_matches("struct ");
                !f.ret.ends_with('*') && self.struct_named(r).is_some() && !self.is_handle(r)
            })
            .collect()
    }

    /// C type (normalised) → C# type, for parameters, returns and fields.
    pub fn csharp_type(&self, c: &str) -> String {
        let c = c.trim();
        if let Some(inner) = c.strip_suffix('*') {
            let inner = inner.trim().trim_start_matches("const ").trim();
            return match inner {
                "char" => "byte*".to_string(),
                "void" => "void*".to_string(),
                other => format!("{}*", self.csharp_type(other)),
            };
        }
        let c = c.trim_start_matches("const ").trim_start_matches("struct ");
        match c {
            "void" => "void".into(),
            "uint32_t" => "uint".into(),
            "int32_t" => "int".into(),
            "uint64_t" => "ulong".into(),
            "int64_t" => "long".into(),
            "uint16_t" => "ushort".into(),
            "int16_t" => "short".into(),
            "uint8_t" => "byte".into(),
            "int8_t" => "sbyte".into(),
            "float" => "float".into(),
            "double" => "double".into(),
            s if self.enum_named(s).is_some() => {
                self.csharp_type(&self.enum_named(s).unwrap().underlying)
            }
            s if self.struct_named(s).is_some() => self.csharp_struct_name(s),
            s if self.fn_pointer_named(s).is_some() => "System.IntPtr".into(),
            other => panic!("no C# mapping for the C type `{other}`: extend csharp_type"),
        }
    }
}

/// Pascal-case C# member of a C enum member: drops `SINEW_` and the enum's own prefix,
/// that is the longest run of the enum name's leading words (`SinewBendingModel` →
/// `BENDING_`, `BENDING_MODEL_`) that every member of the enum (`members`, C names)
/// starts with and none consists of: `SINEW_BENDING_DIHEDRAL` in `SinewBendingModel` →
/// `Dihedral`, `SINEW_SOLVER_GAUSS_SEIDEL` in `SinewSolver` → `GaussSeidel`; in
/// `SinewStatus`, whose members are `SINEW_OK` and `SINEW_ERROR_*`, nothing is shared:
/// `SINEW_ERROR_NULL_POINTER` → `ErrorNullPointer`. The C# name then reads
/// `SinewBendingModel.Dihedral`, never the type's name twice.
pub fn csharp_variant(enum_name: &str, members: &[&str], variant: &str) -> String {
    let words = pascal_words(enum_name.trim_start_matches("Sinew"));
    let bare = |m: &str| m.trim_start_matches("SINEW_").to_string();
    let mut own = String::new();
    for w in &words {
        let candidate = format!("{own}{}_", w.to_uppercase());
        if members.iter().all(|m| {
            let m = bare(m);
            m.starts_with(&candidate) && m.len() > candidate.len()
        }) {
            own = candidate;
        } else {
            break;
        }
    }
    let v = bare(variant);
    let v = v.strip_prefix(own.as_str()).unwrap_or(&v);
    v.split('_')
        .map(|w| {
            let mut c = w.chars();
            let first = c.next().unwrap().to_ascii_uppercase();
            first.to_string() + &c.as_str().to_ascii_lowercase()
        })
        .collect()
}

/// `BendingModel` → `["Bending", "Model"]`.
fn pascal_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(w) if !c.is_ascii_uppercase() => w.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words
}

/// C# keywords a C parameter may be named after; emitted with `@`.
const KEYWORDS: &[&str] = &[
    "base",
    "checked",
    "delegate",
    "event",
    "fixed",
    "in",
    "internal",
    "is",
    "lock",
    "namespace",
    "object",
    "operator",
    "out",
    "params",
    "ref",
    "string",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("@{name}")
    } else {
        name.to_string()
    }
}

/// XML-escapes a doc line and turns `code` into <c>code</c>.
fn doc_line(line: &str) -> String {
    let escaped = line
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut out = String::new();
    for (k, part) in escaped.split('`').enumerate() {
        if k % 2 == 1 {
            let _ = write!(out, "<c>{part}</c>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Writes a doc comment at `indent`: summary, then the `# Safety` section as remarks.
fn emit_doc(out: &mut String, indent: &str, doc: &[String]) {
    let doc: Vec<&String> = doc.iter().collect();
    if doc.is_empty() {
        return;
    }
    let split = doc.iter().position(|l| l.trim() == "# Safety");
    let (summary, remarks) = match split {
        Some(k) => (&doc[..k], Some(&doc[k + 1..])),
        None => (&doc[..], None),
    };
    let trim = |part: &[&String]| -> Vec<String> {
        let mut v: Vec<String> = part.iter().map(|l| doc_line(l)).collect();
        while v.first().is_some_and(|l| l.trim().is_empty()) {
            v.remove(0);
        }
        while v.last().is_some_and(|l| l.trim().is_empty()) {
            v.pop();
        }
        v
    };
    for (tag, part) in [("summary", Some(summary)), ("remarks", remarks)] {
        let Some(part) = part else { continue };
        let lines = trim(part);
        if lines.is_empty() {
            continue;
        }
        if lines.len() == 1 {
            let _ = writeln!(out, "{indent}/// <{tag}>{}</{tag}>", lines[0]);
        } else {
            let _ = writeln!(out, "{indent}/// <{tag}>");
            for l in &lines {
                if l.is_empty() {
                    let _ = writeln!(out, "{indent}///");
                } else {
                    let _ = writeln!(out, "{indent}/// {l}");
                }
            }
            let _ = writeln!(out, "{indent}/// </{tag}>");
        }
    }
}

/// The command that rewrites the generated file; printed by the test when it is stale.
pub const REFRESH: &str = "SINEW_UPDATE_BINDINGS=1 cargo test --test bindings csharp_bindings::";

/// The C# file for `header`.
pub fn emit_csharp(header: &Header) -> String {
    let mut o = String::new();
    o.push_str(
        "// <auto-generated>\n\
         // Generated from include/sinew.h by tests/bindgen/csharp.rs: do not edit by hand.\n\
         // Refresh: ",
    );
    o.push_str(REFRESH);
    o.push_str(
        "\n// </auto-generated>\n\
         //\n\
         // The raw P/Invoke layer: one C function, one declaration, same name and parameter\n\
         // names, and only the types Burst's DllImport accepts (integers, floats, pointers,\n\
         // one-integer handle structs): no bool, no enum, no struct larger than a handle by\n\
         // value. Fallible functions return the SinewStatus value as `int` (C: `typedef\n\
         // int32_t SinewStatus`); compare with `(int)SinewStatus.Ok`. C# 7.2: compiles with\n\
         // Mono's mcs and with Unity.\n",
    );
    let skipped = header.by_value_returns();
    if !skipped.is_empty() {
        o.push_str(
            "//\n// Not declared (they return a struct larger than a handle by value); use the\n\
             // pointer twin instead:\n",
        );
        for f in &skipped {
            let twin = f.name.replace("_default", "_init");
            assert!(
                header.functions.iter().any(|g| g.name == twin),
                "{} returns a struct by value and has no {twin} twin taking a pointer",
                f.name
            );
            let _ = writeln!(o, "//   {} -> {twin}", f.name);
        }
    }
    o.push_str("\nusing System.Runtime.InteropServices;\n\nnamespace Sinew.Native\n{\n");
    for e in &header.enums {
        emit_doc(&mut o, "    ", &e.doc);
        let _ = writeln!(
            o,
            "    public enum {} : {}\n    {{",
            e.name,
            header.csharp_type(&e.underlying)
        );
        let members: Vec<&str> = e.variants.iter().map(|(n, _, _)| n.as_str()).collect();
        for (n, v, d) in &e.variants {
            emit_doc(&mut o, "        ", d);
            let _ = writeln!(o, "        {} = {v},", csharp_variant(&e.name, &members, n));
        }
        o.push_str("    }\n\n");
    }
    for f in &header.fn_pointers {
        emit_doc(&mut o, "    ", &f.doc);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|(t, n)| format!("{} {}", header.csharp_type(t), ident(n)))
            .collect();
        let _ = writeln!(
            o,
            "    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]\n    public unsafe delegate {} {}({});\n",
            header.csharp_type(&f.ret),
            f.name,
            params.join(", ")
        );
    }
    for s in &header.structs {
        emit_doc(&mut o, "    ", &s.doc);
        // A pointer field (the task system's `user_context`) needs an unsafe struct.
        let unsafe_ = if s.fields.iter().any(|(t, _, _)| t.ends_with('*')) {
            "unsafe "
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "    [StructLayout(LayoutKind.Sequential)]\n    public {unsafe_}partial struct {}\n    {{",
            header.csharp_struct_name(&s.name)
        );
        for (t, n, d) in &s.fields {
            emit_doc(&mut o, "        ", d);
            let _ = writeln!(o, "        public {} {};", header.csharp_type(t), ident(n));
        }
        o.push_str("    }\n\n");
    }
    o.push_str("    /// <summary>The C functions and constants of include/sinew.h.</summary>\n");
    o.push_str("    public static unsafe partial class SinewNative\n    {\n");
    o.push_str(
        "        /// <summary>\n\
         \x20       /// The native library: <c>libsinew.so</c> / <c>sinew.dll</c> / <c>libsinew.dylib</c>;\n\
         \x20       /// linked statically into iOS and WebGL players (<c>__Internal</c>).\n\
         \x20       /// </summary>\n\
         #if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR\n\
         \x20       public const string Lib = \"__Internal\";\n\
         #else\n\
         \x20       public const string Lib = \"sinew\";\n\
         #endif\n",
    );
    for c in &header.consts {
        o.push('\n');
        emit_doc(&mut o, "        ", &c.doc);
        let is_float = c.value.contains('.') || c.value.contains('e');
        if is_float {
            let _ = writeln!(o, "        public const float {} = {}f;", c.name, c.value);
        } else {
            let _ = writeln!(o, "        public const uint {} = {};", c.name, c.value);
        }
    }
    for f in &header.functions {
        if skipped.iter().any(|s| s.name == f.name) {
            continue;
        }
        o.push('\n');
        emit_doc(&mut o, "        ", &f.doc);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|(t, n)| format!("{} {}", header.csharp_type(t), ident(n)))
            .collect();
        let _ = writeln!(
            o,
            "        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]\n        public static extern {} {}({});",
            header.csharp_type(&f.ret),
            f.name,
            params.join(", ")
        );
    }
    o.push_str("    }\n}\n");
    o
}
