//! Text helpers shared by the renderers: names (PascalCase, camelCase), docs as
//! paragraphs and wrapped comments, numbers and ranges as each layer writes them.

use super::*;

pub(super) fn pascal(snake: &str) -> String {
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
pub(super) fn ui(f: &Field) -> String {
    if f.ui.is_empty() {
        pascal(f.name)
    } else {
        f.ui.to_string()
    }
}

pub(super) fn camel(f: &Field) -> String {
    let p = ui(f);
    let mut c = p.chars();
    c.next().unwrap().to_lowercase().collect::<String>() + c.as_str()
}

/// The declaration's doc as one paragraph.
pub(super) fn paragraph(doc: &str) -> String {
    doc.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Wraps `text` into lines of at most `width` characters after `prefix`.
pub(super) fn wrap(text: &str, prefix: &str, width: usize) -> String {
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

pub(super) fn limit(name: &str) -> Option<&'static Limit> {
    LIMITS.iter().find(|l| l.name == name)
}

/// A float as the shortest decimal that reads back as the same `f32`.
pub(super) fn float(v: f64) -> String {
    number(v, false)
}

/// A bound as the C header names it (`SINEW_MAX_X`, `-SINEW_MAX_X`), or its number.
pub(super) fn bound_c(b: &Bound, integer: bool) -> String {
    let e = b.expr.trim();
    let (sign, name) = e.strip_prefix('-').map_or(("", e), |n| ("-", n.trim()));
    if limit(name).is_some() {
        return format!("{sign}SINEW_{name}");
    }
    number(b.value, integer)
}

pub(super) fn number(v: f64, integer: bool) -> String {
    let f = v as f32;
    if integer {
        format!("{}", v as i64)
    } else if f != 0.0 && (f.abs() < 1.0e-3 || f.abs() >= 1.0e7) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

pub(super) fn integer(f: &Field) -> bool {
    matches!(f.kind, Kind::U32 | Kind::Mask)
}

/// "in (0, SINEW_MAX_REST_DENSITY] kg/m³; 0 = 2·spacing" (constants by `name`).
pub(super) fn range_sentence(f: &Field, name: &dyn Fn(&Bound) -> String) -> String {
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
pub(super) fn default_c(f: &Field) -> String {
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
pub(super) fn summary_c(f: &Field) -> String {
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
pub(super) fn param_prefix(f: &Field) -> String {
    match &f.param {
        Some((_, variants)) => format!("{}: ", variants.join(", ")),
        None => String::new(),
    }
}

/// The doc of a field with its range in numbers (the engines' tooltips).
pub(super) fn summary_numbers(f: &Field) -> String {
    let int = integer(f);
    let range = range_sentence(f, &|b| number(b.value, int));
    let mut s = param_prefix(f) + &paragraph(f.doc);
    if !range.is_empty() {
        write!(s, " {}.", upper_first(&range)).unwrap();
    }
    s
}

pub(super) fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

pub(super) fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub(super) fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The smallest `f32` above (below) an exclusive lower (upper) bound.
pub(super) fn inclusive(b: &Bound, lower: bool) -> f32 {
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

/// The name a layer gives `f`: its entry in `names` (a component's own name for it),
/// else `default()`.
pub(super) fn renamed(
    names: &[(&str, &str)],
    f: &Field,
    default: impl FnOnce() -> String,
) -> String {
    names
        .iter()
        .find(|(n, _)| *n == f.name)
        .map_or_else(default, |(_, u)| u.to_string())
}
