//! The snapshot record of a desc, generated from its `settings!` declaration by
//! [`settings_record!`](crate::settings_record) (which `settings!` invokes): the
//! desc's `save_settings`/`load_settings` and its `LAYOUT`, the [`LayoutHash`] of the
//! declaration that the snapshot header carries.

use super::{Desc, Kind, Variant};

impl Desc {
    /// The [`LayoutHash`] of the table: the desc's `LAYOUT` constant, computed again
    /// from the schema (a test holds the two equal).
    pub fn layout(&self) -> u64 {
        let mut h = LayoutHash::new().str(self.rust);
        for f in &self.fields {
            let (union, readers) = match &f.param {
                Some((u, v)) => (*u, v.as_slice()),
                None => ("", &[][..]),
            };
            h = h.field(f.name, f.kind, f.variants, union, readers, f.saved);
        }
        h.finish()
    }
}

/// A 64-bit hash (FNV-1a over length-prefixed names) of what a snapshot record of descs
/// depends on: each desc's name and, in declaration order, each field's name, [`Kind`],
/// union variants (names and C values), union parameter (tag and readers) and whether
/// it is saved. Computed at compile time (`const fn`): a desc's `LAYOUT` constant, and
/// the snapshot header's fingerprint of every stored desc (src/world/snapshot.rs), so a
/// snapshot written before a field was added, removed, renamed, reordered or retyped is
/// refused by its header instead of misread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutHash(u64);

impl Default for LayoutHash {
    fn default() -> Self {
        Self::new()
    }
}

impl LayoutHash {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The FNV-1a offset basis.
    pub const fn new() -> Self {
        LayoutHash(0xcbf2_9ce4_8422_2325)
    }

    /// Takes `bytes`.
    const fn bytes(self, bytes: &[u8]) -> Self {
        let mut h = self.0;
        let mut k = 0;
        while k < bytes.len() {
            h = (h ^ bytes[k] as u64).wrapping_mul(Self::PRIME);
            k += 1;
        }
        LayoutHash(h)
    }

    /// Takes a number (8 bytes, little-endian).
    pub const fn u64(self, v: u64) -> Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Takes a name, after its length (so that no two lists of names run together).
    pub const fn str(self, s: &str) -> Self {
        self.u64(s.len() as u64).bytes(s.as_bytes())
    }

    /// Takes a kind (an enum's or union's C type, a union's Rust type, included).
    pub const fn kind(self, k: Kind) -> Self {
        match k {
            Kind::F32 => self.u64(0),
            Kind::U32 => self.u64(1),
            Kind::Mask => self.u64(2),
            Kind::Bool => self.u64(3),
            Kind::Vec3 => self.u64(4),
            Kind::Quat => self.u64(5),
            Kind::Enum(c) => self.u64(6).str(c),
            Kind::Union { c, rust } => self.u64(7).str(c).str(rust),
        }
    }

    /// Takes a field: its name, kind, union variants, the union it is a parameter of
    /// (`""` for none) with the variants that read it, and whether it is saved.
    pub const fn field(
        self,
        name: &str,
        kind: Kind,
        variants: &[Variant],
        union: &str,
        readers: &[&str],
        saved: bool,
    ) -> Self {
        let mut h = self.str(name).kind(kind).u64(variants.len() as u64);
        let mut k = 0;
        while k < variants.len() {
            h = h.str(variants[k].name).u64(variants[k].value as u64);
            k += 1;
        }
        h = h.str(union).u64(readers.len() as u64);
        let mut k = 0;
        while k < readers.len() {
            h = h.str(readers[k]);
            k += 1;
        }
        h.u64(saved as u64)
    }

    /// The hash.
    pub const fn finish(self) -> u64 {
        self.0
    }
}

/// The snapshot part of [`settings!`](crate::settings), invoked by it with each field's
/// type, kind inputs, layout inputs and class (`[]`, `[not saved]`, `[union "C"]`,
/// `[param tag Union [Variants]]`).
#[macro_export]
#[doc(hidden)]
macro_rules! settings_record {
    ($name:ident {
        $(
            $field:ident : $ty:ty, kind [$($bound:tt)*] [$($uc:literal)?],
                layout [$($u:ident)?] [$($uv:ident)*] [$($saved:ident)?],
                $class:tt;
        )*
    }) => {
        // The snapshot record. Not every desc is stored in snapshots (the bodies'
        // builders keep none of theirs), hence the allowance.
        #[allow(dead_code)]
        impl $name {
            /// The [`LayoutHash`](crate::limits::schema::LayoutHash) of the declaration
            /// (names, kinds, union variants and parameters, in order): what the record
            /// of [`Self::save_settings`] depends on.
            pub(crate) const LAYOUT: u64 = {
                let h = $crate::limits::schema::LayoutHash::new().str(stringify!($name));
                $(
                    let h = h.field(
                        stringify!($field),
                        $crate::settings!(@kind $ty, [$($bound)*], [$($uc)?]),
                        $crate::settings!(@variants $ty, [$($uc)?]),
                        $crate::settings_record!(@union [$($u)?]),
                        $crate::settings_record!(@readers [$($uv)*]),
                        $crate::settings!(@saved $($saved)?),
                    );
                )*
                h.finish()
            };

            /// Snapshot: every saved field in declaration order, in its stored form
            /// ([`Setting::stored`](crate::limits::schema::Setting::stored): an enum as
            /// its C value, a flag as a byte), a union as its tag followed, at their
            /// places, by the parameters its variant reads.
            pub(crate) fn save_settings(&self, w: &mut $crate::snapshot::codec::Writer<'_>) {
                $(
                    $crate::settings_record!(@save self, w, $field, $ty, $class);
                )*
            }

            /// Snapshot: the desc [`Self::save_settings`] wrote, refused as corrupt when
            /// an enum value or union tag is unknown or `validate()` fails (the loader
            /// accepts what the API accepts). A field declared `not saved` takes its
            /// default.
            pub(crate) fn load_settings(
                r: &mut $crate::snapshot::codec::Reader<'_>,
            ) -> $crate::Result<Self> {
                let refuse = |e: $crate::Error| {
                    $crate::snapshot::codec::corrupt(format!(
                        "{} {}", stringify!($name), e.message
                    ))
                };
                let mut d = Self::default();
                $(
                    $crate::settings_record!(@load d, r, refuse, $field, $ty, $class);
                )*
                d.validate().map_err(refuse)?;
                Ok(d)
            }

            /// Sets the field `name` (a union's tag or parameter included) to the
            /// numbers of [`Setting::numbers`](crate::limits::schema::Setting::numbers)
            /// (a tag: its C value, the variant's data its placeholders); false when no such field
            /// is set (an unknown name or value, a parameter the variant does not read).
            #[cfg(test)]
            pub(crate) fn set_numbers(&mut self, name: &str, v: &[f64]) -> bool {
                $(
                    if name == stringify!($field) {
                        return $crate::settings_record!(@set self, v, $field, $ty, $class);
                    }
                )*
                false
            }
        }
    };
    // A field's snapshot record (`save_settings`, `load_settings`), as its check.
    (@save $s:ident, $w:ident, $field:ident, $ty:ty, []) => {
        $w.put(<$ty as $crate::limits::schema::Setting>::stored($s.$field))
    };
    (@save $s:ident, $w:ident, $field:ident, $ty:ty, [not saved]) => {};
    (@save $s:ident, $w:ident, $field:ident, $ty:ty, [union $uc:literal]) => {
        $w.put(<$ty as $crate::limits::schema::SettingUnion>::tag($s.$field))
    };
    (@save $s:ident, $w:ident, $field:ident, $ty:ty,
        [param $u:ident $uty:ident [$($uv:ident)+]]) => {
        #[allow(clippy::single_match, unreachable_patterns)]
        match $s.$u {
            $($uty::$uv { $field, .. })|+ => {
                $w.put(<$ty as $crate::limits::schema::Setting>::stored($field))
            }
            _ => {}
        }
    };
    (@load $d:ident, $r:ident, $refuse:ident, $field:ident, $ty:ty, []) => {
        $d.$field = <$ty as $crate::limits::schema::Setting>::from_stored(
            $r.get()?,
            stringify!($field),
        )
        .map_err($refuse)?
    };
    (@load $d:ident, $r:ident, $refuse:ident, $field:ident, $ty:ty, [not saved]) => {};
    (@load $d:ident, $r:ident, $refuse:ident, $field:ident, $ty:ty, [union $uc:literal]) => {
        let tag: u32 = $r.get()?;
        $d.$field = <$ty as $crate::limits::schema::SettingUnion>::from_tag(tag).ok_or_else(
            || $refuse($crate::Error::invalid(format!(
                "{} {tag} is not a {}", stringify!($field), $uc
            ))),
        )?
    };
    (@load $d:ident, $r:ident, $refuse:ident, $field:ident, $ty:ty,
        [param $u:ident $uty:ident [$($uv:ident)+]]) => {
        #[allow(clippy::single_match, unreachable_patterns)]
        match &mut $d.$u {
            $($uty::$uv { $field, .. })|+ => {
                *$field = <$ty as $crate::limits::schema::Setting>::from_stored(
                    $r.get()?,
                    stringify!($field),
                )
                .map_err($refuse)?
            }
            _ => {}
        }
    };
    (@set $s:ident, $v:ident, $field:ident, $ty:ty, []) => {
        match <$ty as $crate::limits::schema::Setting>::from_numbers($v) {
            Some(x) => {
                $s.$field = x;
                true
            }
            None => false,
        }
    };
    (@set $s:ident, $v:ident, $field:ident, $ty:ty, [not saved]) => {
        $crate::settings_record!(@set $s, $v, $field, $ty, [])
    };
    (@set $s:ident, $v:ident, $field:ident, $ty:ty, [union $uc:literal]) => {
        match $v {
            &[t] => match <$ty as $crate::limits::schema::SettingUnion>::from_tag(t as u32) {
                Some(x) => {
                    $s.$field = x;
                    true
                }
                None => false,
            },
            _ => false,
        }
    };
    (@set $s:ident, $v:ident, $field:ident, $ty:ty,
        [param $u:ident $uty:ident [$($uv:ident)+]]) => {
        match (&mut $s.$u, <$ty as $crate::limits::schema::Setting>::from_numbers($v)) {
            ($($uty::$uv { $field, .. })|+, Some(x)) => {
                *$field = x;
                true
            }
            _ => false,
        }
    };
    (@union []) => { "" };
    (@union [$u:ident]) => { stringify!($u) };
    (@readers []) => { &[] };
    (@readers [$($uv:ident)+]) => { &[$(stringify!($uv)),+] };
}
