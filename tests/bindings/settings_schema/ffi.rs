//! src/ffi/settings/ (whole files): the `SINEW_MAX_*`/`SINEW_MIN_*` constants
//! (limits.rs), the `#[repr(C)]` twins of the descs and their conversions (one file per
//! Rust module that declares descs), and the module that gathers them (mod.rs).

use super::*;

pub(super) fn c_type(f: &Field) -> &'static str {
    match f.kind {
        Kind::F32 => "f32",
        Kind::U32 | Kind::Mask | Kind::Bool | Kind::Enum(_) | Kind::Union { .. } => "u32",
        Kind::Vec3 => "SinewVec3",
        Kind::Quat => "SinewQuat",
    }
}

/// A Rust literal of a declared default in the twin's type (a union parameter's value
/// when the active variant does not read it).
pub(super) fn rust_default(f: &Field) -> String {
    let lit = |v: f64| format!("{:?}", v as f32);
    match f.kind {
        Kind::F32 => lit(f.default[0]),
        Kind::Vec3 => format!(
            "SinewVec3 {{\n                x: {},\n                y: {},\n                z: {},\n            }}",
            lit(f.default[0]),
            lit(f.default[1]),
            lit(f.default[2])
        ),
        Kind::Quat => format!(
            "SinewQuat {{\n                x: {},\n                y: {},\n                z: {},\n                w: {},\n            }}",
            lit(f.default[0]),
            lit(f.default[1]),
            lit(f.default[2]),
            lit(f.default[3])
        ),
        _ => format!("{}", f.default[0] as u64),
    }
}

/// The union's enum, by path: the desc's module and the enum's name.
pub(super) fn union_path(d: &Desc, rust: &str) -> String {
    let module = d.path.rsplit_once("::").unwrap().0;
    format!("{module}::{rust}")
}

/// The parameters of union `tag` that `variant` reads.
pub(super) fn variant_params<'a>(d: &'a Desc, tag: &str, variant: &str) -> Vec<&'a Field> {
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
pub(super) fn union_from_rust(d: &Desc, o: &mut String) {
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
                    Kind::Vec3 | Kind::Quat => format!("{}.into()", p.name),
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
pub(super) fn union_to_rust(d: &Desc, f: &Field, rust: &str, c: &str) -> String {
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
                Kind::Vec3 | Kind::Quat => format!("self.{}.into()", p.name),
                _ => format!("self.{}", p.name),
            };
            writeln!(o, "                    {}: {value},", p.name).unwrap();
        }
        o.push_str("                },\n");
    }
    let list: Vec<String> = f
        .variants
        .iter()
        .map(|v| format!("{} = {}", v.value, snake(v.name).replace('_', "-")))
        .collect();
    let message = format!("\"{} {{v}} is not a {c} ({})\"", f.name, list.join(", "));
    // The `return` in a block. For a message of 77 to 80 columns rustfmt (1.9) alternates
    // between this block and the bare arm on each run: the arm is kept as written

    let width = message.chars().count();
    // (rustfmt still puts a comma after the kept arm).
    let skip = width + 24 > 100 && width + 20 <= 100;
    if skip {
        o.push_str("                #[rustfmt::skip]\n");
    }
    writeln!(
        o,
        "                v => {{\n                    return Err(crate::error::Error::invalid(format!(\n                        {message}\n                    )))\n                }}{}",
        if skip { "," } else { "" }
    )
    .unwrap();
    o.push_str("            }");
    o
}

pub(super) fn limit_rust_type(l: &Limit) -> &'static str {
    match l.ty {
        "f32" => "f32",
        _ => "u32",
    }
}

pub(super) fn limit_literal(l: &Limit) -> String {
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

/// The generated module src/ffi/settings/: its `mod.rs` (the submodules and what the
/// rest of `ffi` takes from them), `limits.rs` (the constants) and one file per group of
/// descs, the Rust module that declares them (`crate::fluid::FluidDesc` -> `fluid.rs`),
/// each as (path, text).
pub(super) fn render_ffi() -> Vec<(String, String)> {
    let mut groups: Vec<(String, Vec<Desc>)> = Vec::new();
    for d in descs() {
        let group = ffi_group(&d);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, list)) => list.push(d),
            None => groups.push((group, vec![d])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let mut mods: Vec<String> = groups.iter().map(|(g, _)| g.clone()).collect();
    mods.push("limits".into());
    mods.sort();
    let mut o = String::from(
        "//! Generated by tests/bindings/settings_schema/ from the `limits!` and `settings!`\n\
         //! declarations (src/limits.rs, the descs) -- do not edit by hand; refresh with\n\
         //! `SINEW_UPDATE_SETTINGS=1 cargo test --test bindings settings_schema::`.\n\
         //!\n\
         //! The accepted limits as the C header exports them (`limits.rs`), and the\n\
         //! `#[repr(C)]` twin of each desc with its conversions, one file per module that\n\
         //! declares descs: to C (with the cookie that `sinew_*_desc_default` writes) and\n\
         //! back (0/1 flags and enum values checked; the desc's `validate()` checks the\n\
         //! ranges).\n\n",
    );
    for m in &mods {
        writeln!(o, "pub mod {m};").unwrap();
    }
    o.push('\n');
    // As rustfmt orders them: by path, then as written.
    let mut uses: Vec<(String, String)> =
        vec![("limits".into(), "pub use self::limits::*;\n".into())];
    for (g, list) in &groups {
        let mut twins: Vec<&str> = list.iter().map(|d| d.c).collect();
        let mut cookies: Vec<String> = list.iter().map(cookie_name).collect();
        twins.sort();
        cookies.sort();
        uses.push((g.clone(), use_line("pub", g, &twins)));
        let cookies: Vec<&str> = cookies.iter().map(|c| c.as_str()).collect();
        uses.push((g.clone(), use_line("pub(super)", g, &cookies)));
    }
    uses.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, u) in uses {
        o.push_str(&u);
    }
    let mut files = vec![
        (format!("{FFI_DIR}/mod.rs"), o),
        (format!("{FFI_DIR}/limits.rs"), render_limits()),
    ];
    for (g, list) in groups {
        files.push((format!("{FFI_DIR}/{g}.rs"), render_twins(&g, &list)));
    }
    files
}

/// The group a desc's twin is written in: the top module of its Rust path.
fn ffi_group(d: &Desc) -> String {
    let path = d.path.strip_prefix("crate::").unwrap();
    path.split("::").next().unwrap().to_string()
}

/// `{A, B}` or `A` for one name.
fn use_list(names: &[&str]) -> String {
    match names {
        [one] => one.to_string(),
        _ => format!("{{{}}}", names.join(", ")),
    }
}

/// `<vis> use self::<module>::{...};` as rustfmt writes it: on one line when it fits in
/// 100 columns, else the names packed in lines of at most 100 under the opening brace.
fn use_line(vis: &str, module: &str, names: &[&str]) -> String {
    let one = format!("{vis} use self::{module}::{};\n", use_list(names));
    if one.len() <= 101 {
        return one;
    }
    let mut o = format!("{vis} use self::{module}::{{\n");
    let mut line = String::from("   ");
    for n in names {
        if line.len() + 1 + n.len() + 1 > 100 {
            writeln!(o, "{line}").unwrap();
            line = String::from("   ");
        }
        write!(line, " {n},").unwrap();
    }
    writeln!(o, "{line}\n}};").unwrap();
    o
}

/// `FLUID_DESC_COOKIE`.
fn cookie_name(d: &Desc) -> String {
    format!("{}_COOKIE", snake(d.rust).to_uppercase())
}

/// src/ffi/settings/limits.rs: the `SINEW_MAX_*`/`SINEW_MIN_*` constants, checked equal
/// to the Rust limits at compile time.
fn render_limits() -> String {
    let mut o = String::from(
        "//! Generated by tests/bindings/settings_schema/ from the `limits!` declarations\n\
         //! (src/limits.rs) -- do not edit by hand. The accepted limits as the C header\n\
         //! exports them.\n\n",
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
    o
}

/// src/ffi/settings/<group>.rs: the twins of the descs of one module.
fn render_twins(group: &str, list: &[Desc]) -> String {
    let names: Vec<String> = list.iter().map(|d| format!("`{}`", d.rust)).collect();
    let mut o = String::new();
    o.push_str(&wrap(
        &format!(
            "Generated by tests/bindings/settings_schema/ from the `settings!` declarations \
             of crate::{group} -- do not edit by hand. The `#[repr(C)]` twins of {} and their \
             conversions.",
            names.join(", ")
        ),
        "//! ",
        92,
    ));
    o.push('\n');
    let fields = || list.iter().flat_map(|d| d.fields.iter());
    o.push_str("use crate::error::Result;\n");
    let mut vectors = Vec::new();
    if fields().any(|f| f.kind == Kind::Quat) {
        vectors.push("SinewQuat");
    }
    if fields().any(|f| f.kind == Kind::Vec3) {
        vectors.push("SinewVec3");
    }
    if !vectors.is_empty() {
        writeln!(o, "use crate::ffi::world::{};", use_list(&vectors)).unwrap();
    }
    let mut schema = Vec::new();
    if fields().any(|f| f.kind == Kind::Bool) {
        schema.push("flag_from_c");
    }
    if fields().any(|f| matches!(f.kind, Kind::Enum(_))) {
        schema.push("SettingEnum");
    }
    if !schema.is_empty() {
        writeln!(o, "use crate::limits::schema::{};", use_list(&schema)).unwrap();
    }
    for d in list.iter().cloned() {
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
        let cookie = cookie_name(&d);
        writeln!(
            o,
            "/// Value of `{}::internal_cookie` written by {default_fn}().\npub(in crate::ffi) const {cookie}: u32 = 0x{:04X}_{:04X};\n",
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
            "    /// The twin of `d`, with the cookie.\n    pub(in crate::ffi) fn from_rust(d: &{}) -> Self {{\n        {open}{} {{",
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
            "    /// The Rust desc (flags and enum values checked here, ranges by its `validate()`).\n    /// A field the twin lacks takes its declared default: a twin one field behind its\n    /// declaration still compiles, and the freshness test rewrites it.\n    #[allow(clippy::needless_update)]\n    pub(in crate::ffi) fn to_rust(self) -> Result<{}> {{\n        Ok({} {{",
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
        writeln!(
            o,
            "            ..{}::default()\n        }})\n    }}\n}}",
            d.path
        )
        .unwrap();
    }
    o
}

/// A field's value converted to the twin (`to_c`, from `d`) or back (from `self`).
pub(super) fn conversion(f: &Field, to_c: bool) -> String {
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
pub(super) fn snake(camel: &str) -> String {
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
