//! C++: the `with_` setters of the wrapper's descs.

use super::*;

pub(super) fn cpp_setters(d: &Desc, this: &str) -> String {
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

/// The fields of a plain C++ struct holding part of a desc (`sinew::colliders::Material`),
/// with the declared defaults.
pub(super) fn cpp_fields(d: &Desc) -> String {
    let mut o = String::new();
    for f in &d.fields {
        let (ty, value) = match f.kind {
            Kind::F32 => ("float", format!("{}f", cpp_float(f.default[0]))),
            Kind::U32 | Kind::Mask => ("uint32_t", format!("{}u", f.default[0] as u64)),
            Kind::Bool => ("bool", format!("{}", f.default[0] != 0.0)),
            _ => panic!("{}: no plain C++ field for {:?}", f.name, f.kind),
        };
        o.push_str(&wrap(&summary_c(f), "/// ", 92));
        writeln!(o, "{ty} {} = {value};", f.name).unwrap();
    }
    o
}

/// That struct copied into the C desc: `d.field = material.field;`.
pub(super) fn cpp_copy(d: &Desc, target: &str, source: &str) -> String {
    let mut o = String::new();
    for f in &d.fields {
        let v = match f.kind {
            Kind::Bool => format!("{source}{} ? 1u : 0u", f.name),
            _ => format!("{source}{}", f.name),
        };
        writeln!(o, "{target}.{} = {v};", f.name).unwrap();
    }
    o
}

/// A C++ float literal's digits (`0.0`, `1e-6`).
fn cpp_float(v: f64) -> String {
    let s = format!("{:?}", v as f32);
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}
