//! Every public setting is declared once (`settings!` and `limits!`, src/limits.rs and
//! src/limits/schema.rs); this test renders every other layer from those declarations
//! and fails when a committed file is stale:
//!
//! * src/ffi/settings.rs (whole file): the `SINEW_MAX_*`/`SINEW_MIN_*` constants, the
//!   `#[repr(C)]` twins of the descs and their conversions (cbindgen reads it into
//!   include/sinew.h);
//! * regions between `BEGIN GENERATED <tag>` and `END GENERATED <tag>` lines in the
//!   hand-written files: the C# settings fields and their copy to the native desc, the
//!   C++ setters, the Unity fields (`[Tooltip]`, `[Range]`/`[Min]`), their copy and
//!   their `OnValidate` clamps (with the header's constants), and the Unreal
//!   `UPROPERTY`s (`ClampMin`/`ClampMax`, `Units`, `ToolTip`) and their copy.
//!
//! To refresh after changing a declaration:
//!   `SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::`
//! then `SINEW_UPDATE_HEADER=1 cargo test --test ffi header::`,
//! `SINEW_UPDATE_BINDINGS=1 cargo test --test bindings csharp_bindings::` and
//! `SINEW_UPDATE_DOCS=1 cargo test --test ffi docs::`.

use sinew::schema::{Auto, Bound, Desc, Field, Kind};
use sinew::{Limit, LIMITS};
use std::fmt::Write as _;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const REFRESH: &str = "SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::";

mod bodies;
use bodies::body_regions;

fn descs() -> Vec<Desc> {
    vec![
        sinew::WorldDesc::schema(),
        sinew::FluidDesc::schema(),
        sinew::RopeDesc::schema(),
        sinew::ClothDesc::schema(),
        sinew::ClothGridDesc::schema(),
        sinew::TetBodyDesc::schema(),
        sinew::PressureBodyDesc::schema(),
        sinew::ColliderDesc::schema(),
        sinew::EmitterDesc::schema(),
        sinew::WindDesc::schema(),
        sinew::WindZoneDesc::schema(),
    ]
}

fn desc(name: &str) -> Desc {
    descs().into_iter().find(|d| d.rust == name).unwrap()
}

/// The desc with only the fields named (in declaration order): the part of it an
/// engine component edits (a collider's material; its shape comes from the engine's).
fn part(name: &str, fields: &[&str]) -> Desc {
    let mut d = desc(name);
    d.fields.retain(|f| fields.contains(&f.name));
    assert_eq!(d.fields.len(), fields.len(), "{name}: {fields:?}");
    d
}

// ---------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------

fn pascal(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The PascalCase name of a field in Unity (camelCase of it) and Unreal; C# keeps the
/// C name in PascalCase.
fn ui(f: &Field) -> String {
    if f.ui.is_empty() {
        pascal(f.name)
    } else {
        f.ui.to_string()
    }
}

fn camel(f: &Field) -> String {
    let p = ui(f);
    let mut c = p.chars();
    c.next().unwrap().to_lowercase().collect::<String>() + c.as_str()
}

/// The declaration's doc as one paragraph.
fn paragraph(doc: &str) -> String {
    doc.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Wraps `text` into lines of at most `width` characters after `prefix`.
fn wrap(text: &str, prefix: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty()
            && prefix.chars().count() + line.chars().count() + 1 + word.chars().count() > width
        {
            writeln!(out, "{prefix}{line}").unwrap();
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        writeln!(out, "{prefix}{line}").unwrap();
    }
    out
}

fn limit(name: &str) -> Option<&'static Limit> {
    LIMITS.iter().find(|l| l.name == name)
}

/// A float as the shortest decimal that reads back as the same `f32`.
fn float(v: f64) -> String {
    number(v, false)
}

/// A bound as the C header names it (`SINEW_MAX_X`, `-SINEW_MAX_X`), or its number.
fn bound_c(b: &Bound, integer: bool) -> String {
    let e = b.expr.trim();
    let (sign, name) = e.strip_prefix('-').map_or(("", e), |n| ("-", n.trim()));
    if limit(name).is_some() {
        return format!("{sign}SINEW_{name}");
    }
    number(b.value, integer)
}

fn number(v: f64, integer: bool) -> String {
    let f = v as f32;
    if integer {
        format!("{}", v as i64)
    } else if f != 0.0 && (f.abs() < 1.0e-3 || f.abs() >= 1.0e7) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

fn integer(f: &Field) -> bool {
    matches!(f.kind, Kind::U32 | Kind::Mask)
}

/// "in (0, SINEW_MAX_REST_DENSITY] kg/m³; 0 = 2·spacing" (constants by `name`).
fn range_sentence(f: &Field, name: &dyn Fn(&Bound) -> String) -> String {
    let r = &f.range;
    let int = integer(f);
    let mut s = String::new();
    match (r.min, r.max) {
        (None, None) => {}
        _ if int => {
            let lo = r.min.map_or("0".to_string(), |b| name(&b));
            let hi = r.max.map_or("".to_string(), |b| name(&b));
            let to = if r.max.is_some_and(|b| b.exclusive) {
                ".."
            } else {
                "..="
            };
            write!(s, "in {lo}{to}{hi}").unwrap();
        }
        (lo, hi) => {
            let each = if f.kind == Kind::Vec3 {
                "each component "
            } else {
                ""
            };
            let (lo_b, lo) = lo.map_or(("(", "-inf".to_string()), |b| {
                (if b.exclusive { "(" } else { "[" }, name(&b))
            });
            let (hi_b, hi) = hi.map_or((")", "inf".to_string()), |b| {
                (if b.exclusive { ")" } else { "]" }, name(&b))
            });
            write!(s, "{each}in {lo_b}{lo}, {hi}{hi_b}").unwrap();
        }
    }
    if !r.unit.is_empty() {
        if s.is_empty() {
            write!(s, "in {}", r.unit).unwrap();
        } else {
            write!(s, " {}", r.unit).unwrap();
        }
    }
    if let Some((auto, what)) = r.auto {
        let v = match auto {
            Auto::Zero => "0",
            Auto::Negative => "negative",
        };
        if !s.is_empty() {
            s.push_str("; ");
        }
        write!(s, "{v} = {what}").unwrap();
    }
    s
}

/// The default as text in the C layer's terms.
fn default_c(f: &Field) -> String {
    match f.kind {
        Kind::F32 => float(f.default[0]),
        Kind::U32 | Kind::Enum(_) | Kind::Union { .. } => format!("{}", f.default[0] as u64),
        Kind::Mask => format!("0x{:08X}", f.default[0] as u64),
        Kind::Bool => format!("{}", f.default[0] as u64),
        Kind::Vec3 | Kind::Quat => format!(
            "({})",
            f.default
                .iter()
                .map(|&v| float(v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The doc of a field with its range and default, constants named as in C.
fn summary_c(f: &Field) -> String {
    let int = integer(f);
    let range = range_sentence(f, &|b| bound_c(b, int));
    let kind = match f.kind {
        Kind::Bool => " (0 or 1)".to_string(),
        Kind::Enum(c) | Kind::Union { c, .. } => format!(" (a {c})"),
        Kind::Quat => " (x, y, z, w)".to_string(),
        _ => String::new(),
    };
    let mut s = param_prefix(f) + &paragraph(f.doc);
    if !range.is_empty() {
        write!(s, " {}.", upper_first(&range)).unwrap();
    }
    write!(s, " Default {}{kind}.", default_c(f)).unwrap();
    s
}

/// "Sphere, Capsule: " before the doc of a union's parameter (the variants that read it).
fn param_prefix(f: &Field) -> String {
    match &f.param {
        Some((_, variants)) => format!("{}: ", variants.join(", ")),
        None => String::new(),
    }
}

/// The doc of a field with its range in numbers (the engines' tooltips).
fn summary_numbers(f: &Field) -> String {
    let int = integer(f);
    let range = range_sentence(f, &|b| number(b.value, int));
    let mut s = param_prefix(f) + &paragraph(f.doc);
    if !range.is_empty() {
        write!(s, " {}.", upper_first(&range)).unwrap();
    }
    s
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The smallest `f32` above (below) an exclusive lower (upper) bound.
fn inclusive(b: &Bound, lower: bool) -> f32 {
    let v = b.value as f32;
    if !b.exclusive {
        return v;
    }
    let step = |x: f32, up: bool| {
        if x == 0.0 {
            return if up {
                f32::from_bits(1)
            } else {
                -f32::from_bits(1)
            };
        }
        let bits = x.to_bits();
        f32::from_bits(if (x > 0.0) == up { bits + 1 } else { bits - 1 })
    };
    step(v, lower)
}

// ---------------------------------------------------------------------------------
// src/ffi/settings.rs
// ---------------------------------------------------------------------------------

fn c_type(f: &Field) -> &'static str {
    match f.kind {
        Kind::F32 => "f32",
        Kind::U32 | Kind::Mask | Kind::Bool | Kind::Enum(_) | Kind::Union { .. } => "u32",
        Kind::Vec3 => "SinewVec3",
        Kind::Quat => "SinewQuat",
    }
}

/// A Rust literal of a declared default in the twin's type (a union parameter's value
/// when the active variant does not read it).
fn rust_default(f: &Field) -> String {
    let lit = |v: f64| format!("{:?}", v as f32);
    match f.kind {
        Kind::F32 => lit(f.default[0]),
        Kind::Vec3 => format!(
            "SinewVec3 {{\n                x: {},\n                y: {},\n                z: {},\n            }}",
            lit(f.default[0]),
            lit(f.default[1]),
            lit(f.default[2])
        ),
        _ => format!("{}", f.default[0] as u64),
    }
}

/// The union's enum, by path: the desc's module and the enum's name.
fn union_path(d: &Desc, rust: &str) -> String {
    let module = d.path.rsplit_once("::").unwrap().0;
    format!("{module}::{rust}")
}

/// The parameters of union `tag` that `variant` reads.
fn variant_params<'a>(d: &'a Desc, tag: &str, variant: &str) -> Vec<&'a Field> {
    d.fields
        .iter()
        .filter(|f| {
            f.param
                .as_ref()
                .is_some_and(|(t, vs)| *t == tag && vs.contains(&variant))
        })
        .collect()
}

/// `from_rust` of a desc with a union: the twin with the declared parameter defaults,
/// then the active variant's parameters.
fn union_from_rust(d: &Desc, o: &mut String) {
    for f in &d.fields {
        let Kind::Union { rust, .. } = f.kind else {
            continue;
        };
        let path = union_path(d, rust);
        writeln!(o, "        match d.{} {{", f.name).unwrap();
        for v in f.variants {
            let params = variant_params(d, f.name, v.name);
            if params.is_empty() {
                continue;
            }
            let names: Vec<&str> = params.iter().map(|p| p.name).collect();
            // As rustfmt writes it: on one line while the fields fit in its 18 columns.
            let inner = format!("{}, ..", names.join(", "));
            if inner.len() <= 18 {
                writeln!(o, "            {path}::{} {{ {inner} }} => {{", v.name).unwrap();
            } else {
                writeln!(o, "            {path}::{} {{", v.name).unwrap();
                for n in names {
                    writeln!(o, "                {n},").unwrap();
                }
                o.push_str("                ..\n            } => {\n");
            }
            for p in params {
                let value = match p.kind {
                    Kind::Vec3 => format!("{}.into()", p.name),
                    _ => p.name.to_string(),
                };
                writeln!(o, "                t.{} = {value};", p.name).unwrap();
            }
            o.push_str("            }\n");
        }
        if f.variants
            .iter()
            .any(|v| variant_params(d, f.name, v.name).is_empty())
        {
            o.push_str("            _ => {}\n");
        }
        o.push_str("        }\n");
    }
}

/// A union's tag read back: the variant, built from its parameters.
fn union_to_rust(d: &Desc, f: &Field, rust: &str, c: &str) -> String {
    let path = union_path(d, rust);
    let mut o = format!("match self.{} {{\n", f.name);
    for v in f.variants {
        let params = variant_params(d, f.name, v.name);
        if params.is_empty() {
            writeln!(o, "                {} => {path}::{},", v.value, v.name).unwrap();
            continue;
        }
        writeln!(o, "                {} => {path}::{} {{", v.value, v.name).unwrap();
        for p in params {
            let value = match p.kind {
                Kind::Vec3 => format!("self.{}.into()", p.name),
                _ => format!("self.{}", p.name),
            };
            writeln!(o, "                    {}: {value},", p.name).unwrap();
        }
        o.push_str("                },\n");
    }
    let list: Vec<String> = f
        .variants
        .iter()
        .map(|v| format!("{} = {}", v.value, v.name.to_lowercase()))
        .collect();
    writeln!(
        o,
        "                v => {{\n                    return Err(crate::error::Error::invalid(format!(\n                        \"{} {{v}} is not a {c} ({})\"\n                    )))\n                }}",
        f.name,
        list.join(", ")
    )
    .unwrap();
    o.push_str("            }");
    o
}

fn limit_rust_type(l: &Limit) -> &'static str {
    match l.ty {
        "f32" => "f32",
        _ => "u32",
    }
}

fn limit_literal(l: &Limit) -> String {
    if l.ty == "f32" {
        let v = l.value as f32;
        if v.fract() == 0.0 && v.abs() < 1.0e5 {
            return format!("{v}.0");
        }
        // 1e9 -> 1.0e9, 1.5e-3 stays.
        let s = format!("{v:e}");
        let (m, e) = s.split_once('e').unwrap();
        let m = if m.contains('.') {
            m.to_string()
        } else {
            format!("{m}.0")
        };
        format!("{m}e{e}")
    } else {
        let v = l.value as u64;
        if v >= 1 << 16 && v.is_power_of_two() {
            format!("1 << {}", v.trailing_zeros())
        } else {
            format!("{v}")
        }
    }
}

fn render_ffi() -> String {
    let mut o = String::new();
    o.push_str(
        "//! Generated by tests/settings_schema.rs from the `limits!` and `settings!`\n\
         //! declarations (src/limits.rs, the descs) -- do not edit by hand; refresh with\n\
         //! `SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::`.\n\
         //!\n\
         //! The accepted limits as the C header exports them, and the `#[repr(C)]` twin of\n\
         //! each desc with its conversions: to C (with the cookie that\n\
         //! `sinew_*_desc_default` writes) and back (0/1 flags and enum values checked; the\n\
         //! desc's `validate()` checks the ranges).\n\n\
         use super::world::{SinewQuat, SinewVec3};\n\
         use crate::error::Result;\n\
         use crate::limits::schema::{flag_from_c, SettingEnum};\n\n",
    );
    for l in LIMITS {
        o.push_str(&wrap(&paragraph(l.doc), "/// ", 92));
        writeln!(
            o,
            "pub const SINEW_{}: {} = {};",
            l.name,
            limit_rust_type(l),
            limit_literal(l)
        )
        .unwrap();
    }
    o.push_str("\nconst _: () = {\n    use crate::limits;\n");
    for l in LIMITS {
        let cast = if l.ty == "f32" || l.ty == "u32" {
            ""
        } else {
            " as u32"
        };
        writeln!(o, "    assert!(SINEW_{0} == limits::{0}{cast});", l.name).unwrap();
    }
    o.push_str("};\n");
    for d in descs() {
        let default_fn = format!("sinew_{}_default", snake(d.rust));
        o.push('\n');
        o.push_str(&wrap(
            &format!(
                "{} Start from {default_fn}(); field for field the Rust `{}`.",
                paragraph(d.doc),
                d.rust
            ),
            "/// ",
            92,
        ));
        writeln!(
            o,
            "#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq)]\npub struct {} {{",
            d.c
        )
        .unwrap();
        for f in &d.fields {
            o.push_str(&wrap(&summary_c(f), "    /// ", 92));
            writeln!(o, "    pub {}: {},", f.name, c_type(f)).unwrap();
        }
        writeln!(
            o,
            "    /// Set by {default_fn}(); a desc not made by it is refused.\n    pub internal_cookie: u32,\n}}\n"
        )
        .unwrap();
        let cookie = format!("{}_COOKIE", snake(d.rust).to_uppercase());
        writeln!(
            o,
            "/// Value of `{}::internal_cookie` written by {default_fn}().\npub(super) const {cookie}: u32 = 0x{:04X}_{:04X};\n",
            d.c,
            d.cookie >> 16,
            d.cookie & 0xFFFF
        )
        .unwrap();
        writeln!(o, "impl {} {{", d.c).unwrap();
        let union = d
            .fields
            .iter()
            .any(|f| matches!(f.kind, Kind::Union { .. }));
        let open = if union { "let mut t = " } else { "" };
        writeln!(
            o,
            "    /// The twin of `d`, with the cookie.\n    pub(super) fn from_rust(d: &{}) -> Self {{\n        {open}{} {{",
            d.path, d.c
        )
        .unwrap();
        for f in &d.fields {
            let value = if f.param.is_some() {
                rust_default(f)
            } else {
                conversion(f, true)
            };
            writeln!(o, "            {}: {value},", f.name).unwrap();
        }
        if union {
            o.push_str(&format!(
                "            internal_cookie: {cookie},\n        }};\n"
            ));
            union_from_rust(&d, &mut o);
            o.push_str("        t\n    }\n\n");
        } else {
            writeln!(
                o,
                "            internal_cookie: {cookie},\n        }}\n    }}\n"
            )
            .unwrap();
        }
        writeln!(
            o,
            "    /// The Rust desc (flags and enum values checked here, ranges by its `validate()`).\n    pub(super) fn to_rust(self) -> Result<{}> {{\n        Ok({} {{",
            d.path, d.path
        )
        .unwrap();
        for f in &d.fields {
            match f.kind {
                _ if f.param.is_some() => {}
                Kind::Union { rust, c } => writeln!(
                    o,
                    "            {}: {},",
                    f.name,
                    union_to_rust(&d, f, rust, c)
                )
                .unwrap(),
                _ => writeln!(o, "            {}: {},", f.name, conversion(f, false)).unwrap(),
            }
        }
        o.push_str("        })\n    }\n}\n");
    }
    o
}

/// A field's value converted to the twin (`to_c`, from `d`) or back (from `self`).
fn conversion(f: &Field, to_c: bool) -> String {
    let n = f.name;
    match (f.kind, to_c) {
        (Kind::F32 | Kind::U32 | Kind::Mask, true) => format!("d.{n}"),
        (Kind::F32 | Kind::U32 | Kind::Mask, false) => format!("self.{n}"),
        (Kind::Bool, true) => format!("d.{n} as u32"),
        (Kind::Bool, false) => format!("flag_from_c(self.{n}, \"{n}\")?"),
        (Kind::Vec3 | Kind::Quat, true) => format!("d.{n}.into()"),
        (Kind::Vec3 | Kind::Quat, false) => format!("self.{n}.into()"),
        (Kind::Union { .. }, true) => {
            format!("crate::limits::schema::SettingUnion::tag(d.{n})")
        }
        (Kind::Union { .. }, false) => unreachable!("read back by union_to_rust"),
        (Kind::Enum(_), true) => format!("d.{n}.to_c()"),
        (Kind::Enum(_), false) => format!("SettingEnum::from_c(self.{n}, \"{n}\")?"),
    }
}

/// `FluidDesc` -> `fluid_desc`.
fn snake(camel: &str) -> String {
    let mut s = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.extend(c.to_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

// ---------------------------------------------------------------------------------
// C#
// ---------------------------------------------------------------------------------

fn cs_type(f: &Field) -> &'static str {
    match f.kind {
        Kind::F32 => "float",
        Kind::U32 => "int",
        Kind::Mask => "uint",
        Kind::Bool => "bool",
        Kind::Vec3 => "SinewVec3",
        Kind::Quat => "SinewQuat",
        Kind::Enum(c) | Kind::Union { c, .. } => c,
    }
}

fn cs_fields(d: &Desc) -> String {
    let mut o = String::new();
    for f in &d.fields {
        o.push_str(&wrap(
            &format!("<summary>{}</summary>", xml(&summary_c(f))),
            "/// ",
            88,
        ));
        writeln!(o, "public {} {};", cs_type(f), pascal(f.name)).unwrap();
    }
    o
}

fn cs_exchange(d: &Desc) -> String {
    let mut o = String::new();
    for f in &d.fields {
        let copy = if matches!(f.kind, Kind::Enum(_) | Kind::Union { .. }) {
            "CopyEnum"
        } else {
            "Copy"
        };
        writeln!(
            o,
            "NativeSettings.{copy}(ref d.{}, ref {}, toNative);",
            f.name,
            pascal(f.name)
        )
        .unwrap();
    }
    o
}

// ---------------------------------------------------------------------------------
// C++
// ---------------------------------------------------------------------------------

fn cpp_setters(d: &Desc, this: &str) -> String {
    let mut o = String::new();
    for f in &d.fields {
        let (ty, assign) = match f.kind {
            Kind::F32 => ("float", "value".to_string()),
            Kind::U32 | Kind::Mask => ("uint32_t", "value".to_string()),
            Kind::Bool => ("bool", "value ? 1u : 0u".to_string()),
            Kind::Vec3 => ("const Vec3&", "value".to_string()),
            // Each enum has its C++ enum class, a rotation its quaternion type: their
            // setters are written by hand.
            Kind::Enum(_) | Kind::Union { .. } | Kind::Quat => continue,
        };
        o.push_str(&wrap(&summary_c(f), "/// ", 92));
        writeln!(
            o,
            "{this}& with_{0}({ty} value) noexcept {{\n    this->{0} = {assign};\n    return *this;\n}}",
            f.name
        )
        .unwrap();
    }
    o
}

// ---------------------------------------------------------------------------------
// Unity
// ---------------------------------------------------------------------------------

/// A C# float literal.
fn cs_float(v: f32) -> String {
    if v == f32::MAX {
        return "float.MaxValue".into();
    }
    let s = format!("{v:?}");
    let s = s.replace("e", "E");
    format!("{s}f")
}

/// A bound as a Unity constant expression (attributes such as `[Range]` take only
/// constants): the raw layer's constant when the declaration names a limit, else the
/// number. An exclusive bound is given as is; `OnValidate`'s clamp ([`unity_clamp_bound`])
/// keeps the value strictly inside it.
fn unity_bound(f: &Field, b: &Bound, _lower: bool) -> String {
    let int = integer(f);
    let e = b.expr.trim();
    let (sign, name) = e.strip_prefix('-').map_or(("", e), |n| ("-", n.trim()));
    if limit(name).is_some() {
        let c = format!("{sign}SinewNative.SINEW_{name}");
        return if int { format!("(int){c}") } else { c };
    }
    if int {
        format!("{}", b.value as i64)
    } else {
        cs_float(b.value as f32)
    }
}

/// A bound as the clamp of `OnValidate` uses it: [`unity_bound`], with an exclusive
/// bound moved to the nearest float inside the range (`SinewAuthoring.Above` /
/// `Below`), so no number is written that the declaration does not hold.
fn unity_clamp_bound(f: &Field, b: &Bound, lower: bool) -> String {
    let c = unity_bound(f, b, lower);
    if !b.exclusive {
        return c;
    }
    if integer(f) {
        return format!("{c} {} 1", if lower { "+" } else { "-" });
    }
    if lower {
        format!("SinewAuthoring.Above({c})")
    } else {
        format!("SinewAuthoring.Below({c})")
    }
}

struct Group {
    header: &'static str,
    fields: &'static [&'static str],
}

/// How a component shows a desc it holds only in part (the body components): `skip`
/// names the fields it takes elsewhere (a rope's ends from its transforms), `names`
/// the fields it keeps under an older name (serialized scenes and its editor use it).
#[derive(Default)]
struct UnityProps {
    skip: &'static [&'static str],
    names: &'static [(&'static str, &'static str)],
}

impl UnityProps {
    fn name(&self, f: &Field) -> String {
        self.names
            .iter()
            .find(|(n, _)| *n == f.name)
            .map_or_else(|| camel(f), |(_, u)| u.to_string())
    }
}

fn unity_fields(d: &Desc, groups: &[Group]) -> String {
    unity_fields_with(d, groups, &UnityProps::default())
}

fn unity_fields_with(d: &Desc, groups: &[Group], p: &UnityProps) -> String {
    let mut o = String::new();
    let mut done: Vec<&str> = p.skip.to_vec();
    for g in groups {
        let list: Vec<&Field> = if g.fields.is_empty() {
            d.fields
                .iter()
                .filter(|f| !done.contains(&f.name))
                .collect()
        } else {
            g.fields
                .iter()
                .map(|n| d.fields.iter().find(|f| f.name == *n).unwrap())
                .collect()
        };
        if !g.header.is_empty() {
            writeln!(o, "[Header(\"{}\")]", quoted(g.header)).unwrap();
        }
        for f in list {
            done.push(f.name);
            writeln!(o, "[Tooltip(\"{}\")]", quoted(&summary_numbers(f))).unwrap();
            let r = &f.range;
            let small = match (r.min, r.max) {
                (Some(lo), Some(hi)) => hi.value - lo.value <= 100.0,
                _ => false,
            };
            let negative_auto = matches!(r.auto, Some((Auto::Negative, _)));
            match (f.kind, r.min, r.max) {
                (Kind::F32 | Kind::U32, Some(lo), Some(hi)) if small && !negative_auto => {
                    writeln!(
                        o,
                        "[Range({}, {})]",
                        unity_bound(f, &lo, true),
                        unity_bound(f, &hi, false)
                    )
                    .unwrap();
                }
                (Kind::F32 | Kind::U32, Some(lo), _) if !negative_auto => {
                    writeln!(o, "[Min({})]", unity_bound(f, &lo, true)).unwrap();
                }
                _ => {}
            }
            let name = p.name(f);
            let (ty, value) = match f.kind {
                Kind::F32 => ("float".to_string(), cs_float(f.default[0] as f32)),
                Kind::U32 => ("int".to_string(), format!("{}", f.default[0] as i64)),
                Kind::Mask => ("int".to_string(), format!("{}", f.default[0] as u32 as i32)),
                Kind::Bool => ("bool".to_string(), format!("{}", f.default[0] != 0.0)),
                Kind::Vec3 => (
                    "Vector3".to_string(),
                    format!(
                        "new Vector3({}, {}, {})",
                        cs_float(f.default[0] as f32),
                        cs_float(f.default[1] as f32),
                        cs_float(f.default[2] as f32)
                    ),
                ),
                Kind::Enum(c) | Kind::Union { c, .. } => {
                    (c.to_string(), format!("({c}){}", f.default[0] as u32))
                }
                Kind::Quat => ("Quaternion".to_string(), "Quaternion.identity".to_string()),
            };
            writeln!(o, "public {ty} {name} = {value};").unwrap();
        }
    }
    o
}

fn unity_copy(d: &Desc, target: &str) -> String {
    let mut o = String::new();
    for f in &d.fields {
        let v = match f.kind {
            Kind::Mask => format!("unchecked((uint){})", camel(f)),
            Kind::Vec3 => format!("{}.ToSinew()", camel(f)),
            _ => camel(f),
        };
        writeln!(o, "{target}.{} = {v};", pascal(f.name)).unwrap();
    }
    o
}

fn unity_clamps(d: &Desc) -> String {
    unity_clamps_with(d, &UnityProps::default())
}

fn unity_clamps_with(d: &Desc, p: &UnityProps) -> String {
    let mut o = String::new();
    for f in d.fields.iter().filter(|f| !p.skip.contains(&f.name)) {
        let r = &f.range;
        let (Some(lo), Some(hi)) = (r.min, r.max) else {
            continue;
        };
        if !matches!(f.kind, Kind::F32 | Kind::U32) {
            continue;
        }
        let n = p.name(f);
        let clamp = format!(
            "{n} = SinewAuthoring.Clamp({n}, {}, {});",
            unity_clamp_bound(f, &lo, true),
            unity_clamp_bound(f, &hi, false)
        );
        if matches!(r.auto, Some((Auto::Negative, _))) {
            writeln!(o, "if ({n} >= 0f)\n    {clamp}").unwrap();
        } else {
            writeln!(o, "{clamp}").unwrap();
        }
    }
    o
}

// ---------------------------------------------------------------------------------
// Unreal
// ---------------------------------------------------------------------------------

/// Unreal's unit for a declared unit and the factor from the library's value to it
/// (lengths in cm); `None` where Unreal has no unit of that name.
fn unreal_unit(unit: &str) -> (Option<&'static str>, f64) {
    match unit {
        "m" => (Some("cm"), 100.0),
        "kg" => (Some("kg"), 1.0),
        "m/s" => (Some("cm/s"), 100.0),
        "s" => (Some("s"), 1.0),
        _ => (None, 1.0),
    }
}

fn unreal_number(v: f64) -> String {
    let v = v as f32;
    if v != 0.0 && (v.abs() < 1.0e-3 || v.abs() >= 1.0e7) {
        format!("{v:e}")
    } else if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn unreal_name(f: &Field) -> String {
    if f.kind == Kind::Bool {
        format!("b{}", ui(f))
    } else {
        ui(f)
    }
}

struct UnrealProps {
    category: &'static str,
    /// Extra specifiers of a field (`BlueprintSetter = ...`, `Config`), by name.
    extra: &'static [(&'static str, &'static str)],
    /// Fields read only from Blueprints (they apply when the object is created).
    read_only: &'static [&'static str],
    /// Fields the component takes elsewhere (the engine's gravity).
    skip: &'static [&'static str],
    /// Specifiers every field gets first (`Config`).
    common: &'static str,
}

fn unreal_properties(d: &Desc, p: &UnrealProps) -> String {
    let mut o = String::new();
    for f in &d.fields {
        if p.skip.contains(&f.name)
            || matches!(
                f.kind,
                Kind::Vec3 | Kind::Quat | Kind::Enum(_) | Kind::Union { .. }
            )
        {
            continue;
        }
        let (unit, scale) = unreal_unit(f.range.unit);
        let tip = summary_numbers_scaled(f, scale, unit);
        let mut meta = Vec::new();
        let negative_auto = matches!(f.range.auto, Some((Auto::Negative, _)));
        if let Some(lo) = f.range.min {
            if !negative_auto {
                meta.push(format!(
                    "ClampMin = \"{}\"",
                    unreal_number(inclusive(&lo, true) as f64 * scale)
                ));
            }
        }
        if let Some(hi) = f.range.max {
            meta.push(format!(
                "ClampMax = \"{}\"",
                unreal_number(inclusive(&hi, false) as f64 * scale)
            ));
        }
        if let Some(u) = unit {
            meta.push(format!("Units = \"{u}\""));
        }
        meta.push(format!("ToolTip = \"{}\"", quoted(&ascii(&tip))));
        let access = if p.read_only.contains(&f.name) {
            "BlueprintReadOnly"
        } else {
            "BlueprintReadWrite"
        };
        let extra = p
            .extra
            .iter()
            .filter(|(n, _)| *n == f.name)
            .map(|(_, e)| format!("{e}, "))
            .collect::<String>();
        writeln!(o, "/** {tip} */").unwrap();
        writeln!(
            o,
            "UPROPERTY({}EditAnywhere, {access}, {extra}Category = \"{}\", meta = ({}))",
            p.common,
            p.category,
            meta.join(", ")
        )
        .unwrap();
        let name = unreal_name(f);
        let (ty, value) = match f.kind {
            Kind::F32 => ("float", format!("{}f", unreal_float(f.default[0] * scale))),
            Kind::U32 => ("int32", format!("{}", f.default[0] as i64)),
            Kind::Mask => ("int32", format!("{}", f.default[0] as u32 as i32)),
            Kind::Bool => ("bool", format!("{}", f.default[0] != 0.0)),
            _ => unreachable!(),
        };
        writeln!(o, "{ty} {name} = {value};\n").unwrap();
    }
    // No blank line after the last property.
    while o.ends_with("\n\n") {
        o.pop();
    }
    o
}

/// The text in ASCII (the plugin's metadata strings are ASCII): symbols spelled out.
fn ascii(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        let r = match c {
            'ρ' => "rho",
            '₀' => "0",
            '²' => "^2",
            '³' => "^3",
            '⁻' => "^-",
            'ⁿ' => "^n",
            'ε' => "epsilon",
            'γ' => "gamma",
            'β' => "beta",
            'Δ' => "Delta",
            '·' => "*",
            '×' => "x",
            '−' => "-",
            'ü' => "ue",
            c if c.is_ascii() => {
                o.push(c);
                continue;
            }
            _ => "?",
        };
        o.push_str(r);
    }
    // `^-^2` from `⁻²`.
    o.replace("^-^", "^-")
}

fn unreal_float(v: f64) -> String {
    let s = format!("{:?}", v as f32);
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// The range in words ("above 0, at most 100000"): Unreal's metadata strings keep their
/// parentheses balanced.
fn range_words(f: &Field, scale: f64, unit: &str) -> String {
    let r = &f.range;
    let int = integer(f);
    let mut parts = Vec::new();
    if let Some(b) = r.min {
        let w = if b.exclusive { "above" } else { "at least" };
        parts.push(format!("{w} {}", number(b.value * scale, int)));
    }
    if let Some(b) = r.max {
        let w = if b.exclusive { "below" } else { "at most" };
        parts.push(format!("{w} {}", number(b.value * scale, int)));
    }
    let mut s = parts.join(", ");
    if f.kind == Kind::Vec3 && !s.is_empty() {
        s = format!("each component {s}");
    }
    if !unit.is_empty() && !s.is_empty() {
        write!(s, " {unit}").unwrap();
    }
    if let Some((auto, what)) = r.auto {
        let v = match auto {
            Auto::Zero => "0",
            Auto::Negative => "negative",
        };
        if !s.is_empty() {
            s.push_str("; ");
        }
        write!(s, "{v} = {what}").unwrap();
    }
    s
}

/// The tooltip: the doc and the range in Unreal's units.
fn summary_numbers_scaled(f: &Field, scale: f64, unit: Option<&str>) -> String {
    let range = range_words(f, scale, unit.unwrap_or(f.range.unit));
    let mut s = paragraph(f.doc);
    if !range.is_empty() {
        write!(s, " {}.", upper_first(&range)).unwrap();
    }
    s
}

/// The fixed-step driver's properties (no desc: `World::advance` takes them as
/// arguments), clamped by the limits: the step within [`MIN_DT`, `MAX_DT`], the steps
/// per frame within [1, `MAX_STEPS_PER_ADVANCE`].
fn unreal_stepping() -> String {
    let value = |name: &str| unreal_number(limit(name).unwrap().value);
    format!(
        "/**
 * Length of one simulation step, s. The simulation steps with this fixed dt whatever the
 * frame rate (an accumulator collects the frames' time and runs the whole steps due), so
 * it behaves the same at 30 and 144 fps; components render positions interpolated
 * between the last two steps (GetInterpolationAlpha), so motion stays smooth.
 */
UPROPERTY(Config, EditAnywhere, Category = \"Stepping\", meta = (ClampMin = \"{}\", ClampMax = \"{}\", Units = \"s\"))
float FixedTimeStep = 1.0f / 60.0f;

/**
 * Most fixed steps simulated in one frame. After a hitch the time past this many steps is
 * dropped: the simulation falls behind real time instead of spending ever longer frames
 * catching up (the \"spiral of death\").
 */
UPROPERTY(Config, EditAnywhere, Category = \"Stepping\", meta = (ClampMin = \"1\", ClampMax = \"{}\"))
int32 MaxStepsPerFrame = 4;
",
        value("MIN_DT"),
        value("MAX_DT"),
        value("MAX_STEPS_PER_ADVANCE")
    )
}

/// `D.field = Value;` from the properties to the C desc.
fn unreal_copy(d: &Desc, target: &str, source: &str, skip: &[&str]) -> String {
    let mut o = String::new();
    for f in &d.fields {
        if skip.contains(&f.name)
            || matches!(
                f.kind,
                Kind::Vec3 | Kind::Quat | Kind::Enum(_) | Kind::Union { .. }
            )
        {
            continue;
        }
        let n = format!("{source}{}", unreal_name(f));
        let (_, scale) = unreal_unit(f.range.unit);
        let v = match f.kind {
            Kind::F32 if scale != 1.0 => format!("SinewUE::LengthToSim({n})"),
            Kind::F32 => n,
            Kind::U32 | Kind::Mask => format!("(uint32){n}"),
            Kind::Bool => format!("{n} ? 1u : 0u"),
            _ => unreachable!(),
        };
        writeln!(o, "{target}.{} = {v};", f.name).unwrap();
    }
    o
}

// ---------------------------------------------------------------------------------
// Regions and the check
// ---------------------------------------------------------------------------------

/// Replaces the lines between `BEGIN GENERATED <tag>` and `END GENERATED <tag>` with
/// `body`, indented as the BEGIN line.
fn replace_region(text: &str, tag: &str, body: &str, file: &str) -> String {
    let begin = format!("BEGIN GENERATED {tag}");
    let end = format!("END GENERATED {tag}");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let b = lines
        .iter()
        .position(|l| l.trim_end().ends_with(&begin))
        .unwrap_or_else(|| panic!("{file} lacks a `{begin}` line"));
    let e = lines
        .iter()
        .position(|l| l.trim_end().ends_with(&end))
        .unwrap_or_else(|| panic!("{file} lacks an `{end}` line"));
    assert!(b < e, "{file}: `{begin}` after its end");
    let indent: String = lines[b].chars().take_while(|c| c.is_whitespace()).collect();
    let mut out: String = lines[..=b].concat();
    for l in body.lines() {
        if l.is_empty() {
            out.push('\n');
        } else {
            writeln!(out, "{indent}{l}").unwrap();
        }
    }
    out.push_str(&lines[e..].concat());
    out
}

type Render = Box<dyn Fn() -> String>;

fn regions() -> Vec<(&'static str, String, Render)> {
    let world = || desc("WorldDesc");
    let fluid = || desc("FluidDesc");
    let mut v: Vec<(&'static str, &'static str, Render)> = Vec::new();
    for (file, name) in [
        ("bindings/csharp/WindSettings.cs", "WindDesc"),
        ("bindings/csharp/WindSettings.cs", "WindZoneDesc"),
        ("bindings/csharp/FluidSettings.cs", "EmitterDesc"),
    ] {
        let tag: &'static str = Box::leak(format!("{name} fields").into_boxed_str());
        v.push((file, tag, Box::new(move || cs_fields(&desc(name)))));
        let tag: &'static str = Box::leak(format!("{name} exchange").into_boxed_str());
        v.push((file, tag, Box::new(move || cs_exchange(&desc(name)))));
    }
    const MATERIAL: &[&str] = &["static_friction", "dynamic_friction", "restitution"];
    const EMITTER: &[&str] = &["radius", "half_extents", "speed", "rate"];
    const UE: &str = "unreal-sample/Plugins/Sinew/Source/Sinew";
    let all = || Group {
        header: "",
        fields: &[],
    };
    v.extend::<Vec<(&'static str, &'static str, Render)>>(vec![
        (
            Box::leak(format!("{UE}/Public/SinewSettings.h").into_boxed_str()),
            "Stepping properties",
            Box::new(unreal_stepping),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "EmitterDesc setters",
            Box::new(move || cpp_setters(&desc("EmitterDesc"), "EmitterDesc")),
        ),
        (
            "unity-sample/Runtime/SinewCollider.cs",
            "ColliderDesc fields",
            Box::new(move || unity_fields(&part("ColliderDesc", MATERIAL), &[all()])),
        ),
        (
            "unity-sample/Runtime/SinewCollider.cs",
            "ColliderDesc clamps",
            Box::new(move || unity_clamps(&part("ColliderDesc", MATERIAL))),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "EmitterDesc fields",
            Box::new(move || unity_fields(&part("EmitterDesc", EMITTER), &[all()])),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "EmitterDesc clamps",
            Box::new(move || unity_clamps(&part("EmitterDesc", EMITTER))),
        ),
        (
            Box::leak(format!("{UE}/Public/SinewColliderComponent.h").into_boxed_str()),
            "ColliderDesc properties",
            Box::new(move || {
                unreal_properties(
                    &part("ColliderDesc", MATERIAL),
                    &UnrealProps {
                        category: "Sinew|Material",
                        extra: &[],
                        read_only: &[],
                        skip: &[],
                        common: "",
                    },
                )
            }),
        ),
        (
            Box::leak(format!("{UE}/Public/SinewFluidComponent.h").into_boxed_str()),
            "EmitterDesc properties",
            Box::new(move || {
                unreal_properties(
                    &part("EmitterDesc", EMITTER),
                    &UnrealProps {
                        category: "Sinew|Fluid",
                        extra: &[],
                        read_only: &[],
                        skip: &[],
                        common: "",
                    },
                )
            }),
        ),
        (
            "bindings/csharp/WorldSettings.cs",
            "WorldDesc fields",
            Box::new(move || cs_fields(&world())),
        ),
        (
            "bindings/csharp/WorldSettings.cs",
            "WorldDesc exchange",
            Box::new(move || cs_exchange(&world())),
        ),
        (
            "bindings/csharp/FluidSettings.cs",
            "FluidDesc fields",
            Box::new(move || cs_fields(&fluid())),
        ),
        (
            "bindings/csharp/FluidSettings.cs",
            "FluidDesc exchange",
            Box::new(move || cs_exchange(&fluid())),
        ),
        (
            "bindings/cpp/sinew.hpp",
            "WorldDesc setters",
            Box::new(move || cpp_setters(&world(), "WorldDesc")),
        ),
        (
            "bindings/cpp/sinew_fluid.hpp",
            "FluidDesc setters",
            Box::new(move || cpp_setters(&fluid(), "FluidDesc")),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc fields",
            Box::new(move || {
                unity_fields(
                    &world(),
                    &[Group {
                        header: "",
                        fields: &[],
                    }],
                )
            }),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc settings",
            Box::new(move || unity_copy(&world(), "s")),
        ),
        (
            "unity-sample/Runtime/SinewWorldBehaviour.cs",
            "WorldDesc clamps",
            Box::new(move || unity_clamps(&world())),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc fields",
            Box::new(move || {
                unity_fields(
                    &fluid(),
                    &[
                        Group {
                            header:
                                "Particles (read when the fluid is created; Rebuild applies them)",
                            fields: &["spacing", "capacity"],
                        },
                        Group {
                            header: "Fluid (edited in place)",
                            fields: &[],
                        },
                    ],
                )
            }),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc settings",
            Box::new(move || unity_copy(&fluid(), "s")),
        ),
        (
            "unity-sample/Runtime/SinewFluid.cs",
            "FluidDesc clamps",
            Box::new(move || unity_clamps(&fluid())),
        ),
        (
            concat!(
                "unreal-sample/Plugins/Sinew/Source/Sinew",
                "/Public/SinewSettings.h"
            ),
            "WorldDesc properties",
            Box::new(move || {
                unreal_properties(
                    &world(),
                    &UnrealProps {
                        category: "Solver",
                        extra: &[],
                        read_only: &[],
                        skip: &[],
                        common: "Config, ",
                    },
                )
            }),
        ),
        (
            concat!(
                "unreal-sample/Plugins/Sinew/Source/Sinew",
                "/Private/SinewWorldSubsystem.cpp"
            ),
            "WorldDesc copy",
            Box::new(move || unreal_copy(&world(), "Desc", "Settings->", &[])),
        ),
        (
            concat!(
                "unreal-sample/Plugins/Sinew/Source/Sinew",
                "/Public/SinewFluidComponent.h"
            ),
            "FluidDesc properties",
            Box::new(move || {
                unreal_properties(
                    &fluid(),
                    &UnrealProps {
                        category: "Sinew|Fluid",
                        extra: &[
                            ("rest_density", "BlueprintSetter = SetRestDensity"),
                            ("viscosity", "BlueprintSetter = SetViscosity"),
                        ],
                        read_only: &["spacing", "capacity"],
                        skip: &[],
                        common: "",
                    },
                )
            }),
        ),
        (
            concat!(
                "unreal-sample/Plugins/Sinew/Source/Sinew",
                "/Private/SinewFluidComponent.cpp"
            ),
            "FluidDesc copy",
            Box::new(move || unreal_copy(&fluid(), "D", "", &[])),
        ),
    ]);
    let mut all: Vec<(&'static str, String, Render)> = v
        .into_iter()
        .map(|(file, tag, render)| (file, tag.to_string(), render))
        .collect();
    all.extend(body_regions());
    all
}

/// Every generated file's path and its fresh text.
fn generated() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = vec![("src/ffi/settings.rs".into(), render_ffi())];
    for (file, tag, render) in regions() {
        let current = match files.iter().position(|(f, _)| f == file) {
            Some(i) => files.remove(i).1,
            None => std::fs::read_to_string(Path::new(ROOT).join(file))
                .unwrap_or_else(|e| panic!("read {file}: {e}")),
        };
        let next = replace_region(&current, &tag, &render(), file);
        files.push((file.to_string(), next));
    }
    files
}

#[test]
fn generated_settings_are_fresh() {
    let update = std::env::var_os("SINEW_UPDATE_SETTINGS").is_some();
    let mut stale = Vec::new();
    for (file, text) in generated() {
        let path = Path::new(ROOT).join(&file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != text {
            if update {
                std::fs::write(&path, &text).unwrap_or_else(|e| panic!("write {file}: {e}"));
            } else {
                stale.push(file);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale against the settings declarations: {stale:?}; run `{REFRESH}`"
    );
}

/// The declarations themselves: every field documented, every default accepted by its
/// own check, every named bound a declared limit.
#[test]
fn declarations_are_complete_and_consistent() {
    assert!(sinew::WorldDesc::default().validate().is_ok());
    assert!(sinew::FluidDesc::default().validate().is_ok());
    assert!(sinew::RopeDesc::default().validate().is_ok());
    assert!(sinew::ClothDesc::default().validate().is_ok());
    assert!(sinew::ClothGridDesc::default().validate().is_ok());
    assert!(sinew::TetBodyDesc::default().validate().is_ok());
    assert!(sinew::PressureBodyDesc::default().validate().is_ok());
    assert!(sinew::ColliderDesc::default().validate().is_ok());
    assert!(sinew::EmitterDesc::default().validate().is_ok());
    assert!(sinew::WindDesc::default().validate().is_ok());
    assert!(sinew::WindZoneDesc::default().validate().is_ok());
    // The default variant's parameters are the declared defaults (one default per
    // setting in every layer).
    let emitter = sinew::EmitterDesc::default();
    let sinew::EmitterShape::Nozzle { radius } = emitter.shape else {
        panic!("the default emitter is a nozzle");
    };
    let declared = desc("EmitterDesc");
    let r = declared.fields.iter().find(|f| f.name == "radius").unwrap();
    assert_eq!(r.default, vec![radius as f64]);
    for d in descs() {
        for f in &d.fields {
            assert!(
                !paragraph(f.doc).is_empty(),
                "{}::{} has no doc",
                d.rust,
                f.name
            );
            for b in [f.range.min, f.range.max].into_iter().flatten() {
                let e = b.expr.trim().trim_start_matches('-').trim();
                let named = e
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                    && e.chars().next().is_some_and(|c| c.is_ascii_uppercase());
                if named {
                    assert!(
                        limit(e).is_some(),
                        "{}::{} names {e}, not a declared limit",
                        d.rust,
                        f.name
                    );
                }
            }
        }
    }
    // Limit names are unique and say what they bound.
    for (i, l) in LIMITS.iter().enumerate() {
        assert!(
            l.name.starts_with("MAX_") || l.name.starts_with("MIN_"),
            "{}",
            l.name
        );
        assert!(
            !LIMITS[..i].iter().any(|m| m.name == l.name),
            "{} twice",
            l.name
        );
        assert!(!paragraph(l.doc).is_empty(), "{} has no doc", l.name);
    }
}

/// A field's check refuses each side of its range with a message naming the field.
#[test]
fn checks_follow_the_declared_ranges() {
    let fluid = sinew::FluidDesc::default;
    let e = sinew::FluidDesc {
        rest_density: 0.0,
        ..fluid()
    }
    .validate()
    .unwrap_err();
    assert!(
        e.message.contains("rest_density") && e.message.contains("kg/m³"),
        "{e}"
    );
    let e = sinew::FluidDesc {
        scorr_n: 9,
        ..fluid()
    }
    .validate()
    .unwrap_err();
    assert!(
        e.message.contains("scorr_n 9") && e.message.contains("1..=8"),
        "{e}"
    );
    let d = sinew::FluidDesc {
        collision_radius: -5.0,
        ..fluid()
    };
    assert!(d.validate().is_ok(), "negative = spacing / 2");
    let d = sinew::FluidDesc {
        collision_radius: f32::NEG_INFINITY,
        ..fluid()
    };
    assert!(d.validate().is_err());
    let world = sinew::WorldDesc::default;
    let e = sinew::WorldDesc {
        jacobi_relaxation: 2.0,
        ..world()
    }
    .validate()
    .unwrap_err();
    assert!(e.message.contains("(0, 2)"), "{e}");
    let w = sinew::WorldDesc {
        threads: sinew::MAX_THREADS + 1,
        ..world()
    };
    let e = w.validate().unwrap_err();
    assert!(e.message.contains("0 = all cores"), "{e}");
}
