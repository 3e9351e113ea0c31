//! Unreal: the `UPROPERTY`s (`ClampMin`/`ClampMax`, `Units`, `ToolTip`) and their
//! copy into the C descs.

use super::*;

/// Unreal's unit for a declared unit and the factor from the library's value to it
/// (lengths in cm); `None` where Unreal has no unit of that name.
pub(super) fn unreal_unit(unit: &str) -> (Option<&'static str>, f64) {
    match unit {
        "m" => (Some("cm"), 100.0),
        "kg" => (Some("kg"), 1.0),
        "m/s" => (Some("cm/s"), 100.0),
        "s" => (Some("s"), 1.0),
        _ => (None, 1.0),
    }
}

/// A clamp: a count as an integer (an exclusive bound of a count is the next integer),
/// else [`unreal_number`].
fn unreal_bound(f: &Field, v: f64) -> String {
    if integer(f) {
        let v = v as f32;
        let n = if v.fract() == 0.0 { v } else { v.floor() };
        format!("{}", n as i64)
    } else {
        unreal_number(v)
    }
}

pub(super) fn unreal_number(v: f64) -> String {
    let v = v as f32;
    if v != 0.0 && (v.abs() < 1.0e-3 || v.abs() >= 1.0e7) {
        format!("{v:e}")
    } else if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

pub(super) fn unreal_name(f: &Field) -> String {
    if f.kind == Kind::Bool {
        format!("b{}", ui(f))
    } else {
        ui(f)
    }
}

#[derive(Default)]
pub(super) struct UnrealProps {
    pub(super) category: &'static str,
    /// Extra specifiers of a field (`BlueprintSetter = ...`, `Config`), by name.
    pub(super) extra: &'static [(&'static str, &'static str)],
    /// Fields read only from Blueprints (they apply when the object is created).
    pub(super) read_only: &'static [&'static str],
    /// Fields the component takes elsewhere (the engine's gravity).
    pub(super) skip: &'static [&'static str],
    /// Specifiers every field gets first (`Config`).
    pub(super) common: &'static str,
    /// The component's own choices (a preset): its name for a field, its default (in
    /// the library's unit) and the slider's range (`UIMin`, `UIMax`, in Unreal's unit).
    /// The clamps stay the declaration's.
    pub(super) names: &'static [(&'static str, &'static str)],
    pub(super) defaults: &'static [(&'static str, f64)],
    pub(super) sliders: &'static [(&'static str, f64, f64)],
    /// The doc in the component's words, where the declaration's does not fit it (the
    /// range is still the declaration's).
    pub(super) docs: &'static [(&'static str, &'static str)],
}

pub(super) fn unreal_properties(d: &Desc, p: &UnrealProps) -> String {
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
        let mut f = f.clone();
        if let Some(&(_, doc)) = p.docs.iter().find(|(n, _)| *n == f.name) {
            f.doc = doc;
        }
        let f = &f;
        let tip = summary_numbers_scaled(f, scale, unit);
        let mut meta = Vec::new();
        let negative_auto = matches!(f.range.auto, Some((Auto::Negative, _)));
        if let Some(lo) = f.range.min {
            if !negative_auto {
                meta.push(format!(
                    "ClampMin = \"{}\"",
                    unreal_bound(f, inclusive(&lo, true) as f64 * scale)
                ));
            }
        }
        if let Some(hi) = f.range.max {
            meta.push(format!(
                "ClampMax = \"{}\"",
                unreal_bound(f, inclusive(&hi, false) as f64 * scale)
            ));
        }
        if let Some(&(_, lo, hi)) = p.sliders.iter().find(|(n, ..)| *n == f.name) {
            meta.push(format!("UIMin = \"{}\"", unreal_number(lo)));
            meta.push(format!("UIMax = \"{}\"", unreal_number(hi)));
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
        let name = renamed(p.names, f, || unreal_name(f));
        let default = p
            .defaults
            .iter()
            .find(|(n, _)| *n == f.name)
            .map_or(f.default[0], |&(_, v)| v);
        let (ty, value) = match f.kind {
            Kind::F32 => ("float", format!("{}f", unreal_float(default * scale))),
            Kind::U32 => ("int32", format!("{}", default as i64)),
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
pub(super) fn ascii(s: &str) -> String {
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

pub(super) fn unreal_float(v: f64) -> String {
    let s = format!("{:?}", v as f32);
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// The range in words ("above 0, at most 100000"): Unreal's metadata strings keep their
/// parentheses balanced.
pub(super) fn range_words(f: &Field, scale: f64, unit: &str) -> String {
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
pub(super) fn summary_numbers_scaled(f: &Field, scale: f64, unit: Option<&str>) -> String {
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
pub(super) fn unreal_stepping() -> String {
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
pub(super) fn unreal_copy(d: &Desc, target: &str, source: &str, skip: &[&str]) -> String {
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

/// The properties as a C++ aggregate in declaration order (`Material{StaticFriction,
/// DynamicFriction, Restitution}`), lengths in metres.
pub(super) fn unreal_aggregate(d: &Desc, declaration: &str) -> String {
    let values: Vec<String> = d
        .fields
        .iter()
        .map(|f| {
            let n = unreal_name(f);
            match f.kind {
                Kind::F32 if unreal_unit(f.range.unit).1 != 1.0 => {
                    format!("SinewUE::LengthToSim({n})")
                }
                Kind::F32 | Kind::Bool => n,
                Kind::U32 | Kind::Mask => format!("(uint32){n}"),
                _ => panic!("{}: no aggregate value for {:?}", f.name, f.kind),
            }
        })
        .collect();
    format!("{declaration}{{{}}};\n", values.join(", "))
}
