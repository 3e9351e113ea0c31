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

/// The size in C of a field of a twin (every field is 4-byte aligned: no padding).
fn c_size(f: &Field) -> usize {
    match f.kind {
        Kind::Vec3 => 12,
        Kind::Quat => 16,
        _ => 4,
    }
}

/// The checks of the Mono tests that the raw C# layer lays each twin out as declared:
/// every field's offset, the cookie's, and the size (managed and marshalled).
pub(super) fn cs_layout_checks() -> String {
    let mut o = String::new();
    for d in descs() {
        let mut offset = 0;
        for f in d.fields.iter().map(|f| f.name).chain(["internal_cookie"]) {
            writeln!(
                o,
                "Check.Equal({offset}, (int)Marshal.OffsetOf(typeof({c}), \"{f}\"), \"{c}.{f}\");",
                c = d.c
            )
            .unwrap();
            offset += d.fields.iter().find(|g| g.name == f).map_or(4, c_size);
        }
        writeln!(
            o,
            "Check.Equal({offset}, Marshal.SizeOf(typeof({c})), \"marshalled sizeof({c})\");\n\
             Check.Equal({offset}, sizeof({c}), \"sizeof({c})\");",
            c = d.c
        )
        .unwrap();
    }
    o
}
