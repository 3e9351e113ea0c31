//! C#: the settings fields of the bindings' settings types and their exchange with
//! the native desc.

use super::*;

pub(super) fn cs_type(f: &Field) -> &'static str {
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

pub(super) fn cs_fields(d: &Desc) -> String {
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

pub(super) fn cs_exchange(d: &Desc) -> String {
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
