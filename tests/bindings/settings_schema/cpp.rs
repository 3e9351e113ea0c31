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
