//! Unity: the components' fields (`[Tooltip]`, `[Range]`/`[Min]`), their copy into
//! the C# settings and their `OnValidate` clamps with the raw layer's constants.

use super::*;

/// A C# float literal.
pub(super) fn cs_float(v: f32) -> String {
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
pub(super) fn unity_bound(f: &Field, b: &Bound, _lower: bool) -> String {
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
pub(super) fn unity_clamp_bound(f: &Field, b: &Bound, lower: bool) -> String {
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

pub(super) struct Group {
    pub(super) header: &'static str,
    pub(super) fields: &'static [&'static str],
}

/// How a component shows a desc it holds only in part (the body components): `skip`
/// names the fields it takes elsewhere (a rope's ends from its transforms), `names`
/// the fields it keeps under an older name (serialized scenes and its editor use it).
#[derive(Default)]
pub(super) struct UnityProps {
    pub(super) skip: &'static [&'static str],
    pub(super) names: &'static [(&'static str, &'static str)],
    /// The component's own defaults (a preset), in the library's units.
    pub(super) defaults: &'static [(&'static str, f64)],
    /// The doc in the component's words, where the declaration's does not fit it (a
    /// preset that fixes the model; the range is still the declaration's).
    pub(super) docs: &'static [(&'static str, &'static str)],
}

impl UnityProps {
    fn name(&self, f: &Field) -> String {
        renamed(self.names, f, || camel(f))
    }
}

pub(super) fn unity_fields(d: &Desc, groups: &[Group]) -> String {
    unity_fields_with(d, groups, &UnityProps::default())
}

pub(super) fn unity_fields_with(d: &Desc, groups: &[Group], p: &UnityProps) -> String {
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
            let mut f = f.clone();
            if let Some(&(_, doc)) = p.docs.iter().find(|(n, _)| *n == f.name) {
                f.doc = doc;
            }
            let f = &f;
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
            let default = p
                .defaults
                .iter()
                .find(|(n, _)| *n == f.name)
                .map_or(f.default[0], |&(_, v)| v);
            let (ty, value) = match f.kind {
                Kind::F32 => ("float".to_string(), cs_float(default as f32)),
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

/// [`unity_fields`] for a serializable struct (a list entry of a component): the same
/// attributes, no initializers (a C# 7.2 struct takes none).
pub(super) fn unity_struct_fields(d: &Desc) -> String {
    let mut o = String::new();
    for l in unity_fields(
        d,
        &[Group {
            header: "",
            fields: &[],
        }],
    )
    .lines()
    {
        match l.split_once(" = ") {
            Some((field, _)) if l.starts_with("public ") => writeln!(o, "{field};").unwrap(),
            _ => writeln!(o, "{l}").unwrap(),
        }
    }
    o
}

pub(super) fn unity_copy(d: &Desc, target: &str) -> String {
    let mut o = String::new();
    for f in &d.fields {
        writeln!(
            o,
            "{target}.{} = {};",
            pascal(f.name),
            unity_value(f, &camel(f))
        )
        .unwrap();
    }
    o
}

pub(super) fn unity_clamps(d: &Desc) -> String {
    unity_clamps_with(d, &UnityProps::default())
}

pub(super) fn unity_clamps_with(d: &Desc, p: &UnityProps) -> String {
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

/// How an options value of the authoring code (SinewAuthoring.cs: `RopeOptions`,
/// `ClothOptions`) holds a desc: the fields read when the body is built (their docs
/// say "Rebuild."; the others are edited in place) and the fields it keeps under
/// another name.
pub(super) struct Options {
    pub(super) rebuild: &'static [&'static str],
    pub(super) names: &'static [(&'static str, &'static str)],
}

impl Options {
    fn name(&self, f: &Field) -> String {
        renamed(self.names, f, || pascal(f.name))
    }
}

/// The options' fields, each with its doc, range and whether it needs a rebuild.
pub(super) fn options_fields(d: &Desc, o: &Options) -> String {
    let mut out = String::new();
    for f in &d.fields {
        let when = if o.rebuild.contains(&f.name) {
            "Rebuild."
        } else {
            "In place."
        };
        out.push_str(&wrap(
            &format!("<summary>{when} {}</summary>", xml(&summary_numbers(f))),
            "/// ",
            88,
        ));
        writeln!(out, "public {} {};", cs_type(f), o.name(f)).unwrap();
    }
    out
}

/// `ToSettings()`: the options into the library's settings (`s`).
pub(super) fn options_to_settings(d: &Desc, o: &Options) -> String {
    let mut out = String::new();
    for f in &d.fields {
        writeln!(out, "s.{} = {};", pascal(f.name), o.name(f)).unwrap();
    }
    out
}

/// `Options()` of a component: its fields into the options (an object initializer),
/// but those it takes elsewhere (`p.skip`: a rope's ends from its transforms).
pub(super) fn options_from_fields(d: &Desc, o: &Options, p: &UnityProps) -> String {
    let mut out = String::new();
    for f in d.fields.iter().filter(|f| !p.skip.contains(&f.name)) {
        writeln!(out, "{} = {},", o.name(f), unity_value(f, &p.name(f))).unwrap();
    }
    out
}

/// The rebuild fields compared, the first that differs named as the inspector shows it
/// (`PinStart` -> "Pin Start"); `skip` names those not compared.
pub(super) fn options_rebuild_reason(d: &Desc, o: &Options, skip: &[&str]) -> String {
    let mut out = String::new();
    for f in &d.fields {
        if !o.rebuild.contains(&f.name) || skip.contains(&f.name) {
            continue;
        }
        let n = o.name(f);
        let label = pascal(f.name)
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let space = (i > 0 && c.is_uppercase()).then_some(' ');
                space.into_iter().chain([c])
            })
            .collect::<String>();
        writeln!(
            out,
            "if (built.{n} != wanted.{n}) return \"{}\";",
            quoted(&label)
        )
        .unwrap();
    }
    out
}

/// A Unity field's value as the C# settings take it: a layer mask as `uint`, a vector as
/// `SinewVec3`.
fn unity_value(f: &Field, name: &str) -> String {
    match f.kind {
        Kind::Mask => format!("unchecked((uint){name})"),
        Kind::Vec3 => format!("{name}.ToSinew()"),
        _ => name.to_string(),
    }
}
