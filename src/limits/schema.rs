//! One declaration per public setting. [`settings!`](crate::settings) declares a desc
//! (a struct of settings) once, each field with its doc, unit, range and default, and
//! expands to the Rust struct, its `Default`, its `validate()`, its [`Desc`] (the
//! schema table) and its snapshot record (`save_settings`/`load_settings`, every field
//! in declaration order, and `LAYOUT`, the [`LayoutHash`] of the declaration that the
//! snapshot header carries). [`limits!`](crate::limits) declares the `MAX_*`/`MIN_*`
//! constants once and lists them in [`LIMITS`](super::LIMITS).
//!
//! Everything else is rendered from these tables and checked fresh by
//! tests/bindings/settings_schema/ (`SINEW_UPDATE_SETTINGS=1` rewrites the files): the
//! `#[repr(C)]` twins, their conversions and the `SINEW_MAX_*`/`SINEW_MIN_*` constants
//! (src/ffi/settings/, which cbindgen reads into include/sinew.h), the C# settings
//! fields and limits, the C++ setters, and the Unity and Unreal property metadata.

use crate::error::{Error, Result};
use crate::math::Vec3;
use glam::Quat;

mod record;
pub use record::LayoutHash;

/// How a setting crosses the C boundary and appears in the bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `f32` everywhere (`float`).
    F32,
    /// A count or index: `u32` in Rust and C, `int` in C# and the engines.
    U32,
    /// A bit set (a `u32` declared without a range): `uint` in C#.
    Mask,
    /// `bool` in Rust, C# and the engines; a `uint32_t` 0/1 flag in C.
    Bool,
    /// Three `f32` (`SinewVec3`); the range applies to each component.
    Vec3,
    /// A rotation, four `f32` (`SinewQuat`: x, y, z, w); declared without a range, its
    /// desc's `check` says what it accepts (unit length within a tolerance).
    Quat,
    /// A Rust enum that crosses as `uint32_t`; the C enum type is named.
    Enum(&'static str),
    /// The tag of a tagged union: a Rust enum whose variants carry data ([`SettingUnion`]),
    /// crossing as a `uint32_t` tag (the C enum type named) and flat parameter fields,
    /// each declared `of <tag field>: <enum> [<variants that read it>]`. `rust` is the
    /// enum's name in the desc's module.
    Union { c: &'static str, rust: &'static str },
}

/// A variant of a tagged union: its Rust name and its C value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: &'static str,
    pub value: u32,
}

/// One end of a field's accepted range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The bound's value (exact: an `f32` or a `u32` widened).
    pub value: f64,
    /// Whether the bound itself is refused (`> 0`, `< 2`).
    pub exclusive: bool,
    /// The expression it was declared with (a limit's name, or a literal).
    pub expr: &'static str,
}

/// A value of the field that means "derive it" instead of a quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auto {
    /// 0 asks for the derived value (0 lies in the range).
    Zero,
    /// Any finite negative value asks for the derived value (the range is not checked).
    Negative,
}

/// A field's accepted range, as the checks use it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub name: &'static str,
    pub unit: &'static str,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    /// The "derive it" value and what it derives.
    pub auto: Option<(Auto, &'static str)>,
}

/// One setting of a desc.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The Rust and C name (snake_case).
    pub name: &'static str,
    /// The name in C#, Unity and Unreal (PascalCase).
    pub ui: &'static str,
    pub kind: Kind,
    pub range: Range,
    /// The default: one number, three for a [`Kind::Vec3`] (an enum's C value, 0/1).
    pub default: Vec<f64>,
    /// The declaration's doc, without unit, range or default (rendered from the rest).
    pub doc: &'static str,
    /// A [`Kind::Union`] tag's variants, in C value order (empty for other kinds).
    pub variants: &'static [Variant],
    /// A union's parameter: the tag field it belongs to and the variants that read it.
    /// Not a field of the Rust struct (the variant carries it); in C and the bindings a
    /// flat field, whose default is the declared one when the variant does not read it.
    pub param: Option<(&'static str, Vec<&'static str>)>,
    /// Whether snapshots store it: false for a machine's choice that is no simulation
    /// state (declared `not saved`: a world's thread count), which a loaded desc takes
    /// from its loader.
    pub saved: bool,
}

/// A desc: its names in each layer, its doc and its fields in declaration (ABI) order.
#[derive(Clone, Debug, PartialEq)]
pub struct Desc {
    /// The Rust struct, e.g. `FluidDesc`.
    pub rust: &'static str,
    /// The `#[repr(C)]` twin, e.g. `SinewFluidDesc`.
    pub c: &'static str,
    /// The C# settings struct, e.g. `FluidSettings`.
    pub csharp: &'static str,
    /// The value of the twin's `internal_cookie`, written by its `sinew_*_desc_default`.
    pub cookie: u32,
    /// The Rust path the C layer names the desc by, e.g. `crate::fluid::FluidDesc`.
    pub path: &'static str,
    pub doc: &'static str,
    pub fields: Vec<Field>,
}

/// A Rust type a setting may have: how it is checked and described.
pub trait Setting: Copy {
    /// The type of its bounds (`f32` for `f32` and `Vec3`).
    type Scalar: Copy;
    /// The kind a field of this type has (a `u32` without a range is a [`Kind::Mask`]).
    const KIND: Kind;
    /// A bound as `f64`.
    fn bound(v: Self::Scalar) -> f64;
    /// Checks the value against `range`; the message names the field, range and unit.
    fn check(self, range: &Range) -> Result<()>;
    /// The value as numbers (one, or three for a vector).
    fn numbers(self) -> Vec<f64>;
    /// The value of [`Setting::numbers`] `v` (None for a wrong count or an enum's
    /// unknown value): the tests build descs from the schema with it.
    fn from_numbers(v: &[f64]) -> Option<Self>;
    /// The value as a snapshot stores it: a number or vector as itself, a flag as a
    /// 0/1 byte, an enum as its C value.
    type Stored: Copy;
    fn stored(self) -> Self::Stored;
    /// The value a snapshot stored; fails (naming `field`) where the type has none (an
    /// enum's unknown C value, a flag other than 0 or 1).
    fn from_stored(v: Self::Stored, field: &str) -> Result<Self>;
}

/// A Rust enum that crosses the C boundary as `uint32_t`.
pub trait SettingEnum: Copy {
    /// The C enum type (`SinewSolver`).
    const C_TYPE: &'static str;
    /// The C value.
    fn to_c(self) -> u32;
    /// The Rust value of a C value; the message lists the accepted values.
    fn from_c(v: u32, field: &str) -> Result<Self>;
}

/// A Rust enum whose variants carry data (a collider's [`Shape`](crate::collision::Shape)),
/// declared in a desc as a tagged union: `shape: Shape = Shape::Plane => union "SinewShape",
/// unit "";`. Its data crosses as flat parameter fields of the desc, each declared
/// with the variants that read it (`radius: f32 = 0.5 => of shape: Shape [Sphere, Capsule],
/// ...`): the generated C twin writes the tag and the active variant's parameters
/// (the declared defaults for the others) and builds the variant back from them.
pub trait SettingUnion: Copy {
    /// The variants, in C value order.
    const VARIANTS: &'static [Variant];
    /// The C value of the variant.
    fn tag(self) -> u32;
    /// The variant of C value `tag` (None for an unknown one), its data placeholders:
    /// the desc's generated loader then reads each parameter that the variant reads
    /// into it.
    fn from_tag(tag: u32) -> Option<Self>;
}

/// Implements [`SettingUnion`] for an enum from one list of its variants, each with its
/// C value and the placeholder data [`SettingUnion::from_tag`] gives it (`Plane = 0,
/// Sphere { radius: 0.0 } = 1`), in C value order: the variant names, the tags and the
/// variants rebuilt from them are written once.
#[macro_export]
#[doc(hidden)]
macro_rules! setting_union {
    ($ty:ident { $($variant:ident $({ $($f:ident : $v:expr),+ $(,)? })? = $value:literal),+ $(,)? }) => {
        impl $crate::limits::schema::SettingUnion for $ty {
            const VARIANTS: &'static [$crate::limits::schema::Variant] = &[
                $($crate::limits::schema::Variant {
                    name: stringify!($variant),
                    value: $value,
                }),+
            ];
            fn tag(self) -> u32 {
                match self {
                    $($ty::$variant { .. } => $value,)+
                }
            }
            fn from_tag(tag: u32) -> Option<$ty> {
                match tag {
                    $($value => Some($ty::$variant $({ $($f: $v),+ })?),)+
                    _ => None,
                }
            }
        }
    };
}

/// A 0/1 flag read from C; `field` names it in the message.
pub fn flag_from_c(v: u32, field: &str) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::invalid(format!("{field} is {v}: must be 0 or 1"))),
    }
}

impl Range {
    fn contains(&self, v: f64) -> bool {
        let lo = self.min.is_none_or(|b| {
            if b.exclusive {
                v > b.value
            } else {
                v >= b.value
            }
        });
        let hi = self.max.is_none_or(|b| {
            if b.exclusive {
                v < b.value
            } else {
                v <= b.value
            }
        });
        lo && hi
    }

    /// The range as text: `(0, 100000]`, `1..=1024`; `float` bounds print as `f32`.
    pub fn text(&self, integer: bool) -> String {
        let num = |b: &Bound| {
            if integer {
                format!("{}", b.value as u64)
            } else {
                format!("{}", b.value as f32)
            }
        };
        if integer {
            let lo = self.min.map_or("0".to_string(), |b| num(&b));
            return match self.max {
                Some(b) if b.exclusive => format!("{lo}..{}", num(&b)),
                Some(b) => format!("{lo}..={}", num(&b)),
                None => format!("at least {lo}"),
            };
        }
        let lo = self.min.map_or(("(".to_string(), "-inf".to_string()), |b| {
            (if b.exclusive { "(" } else { "[" }.to_string(), num(&b))
        });
        let hi = self.max.map_or((")".to_string(), "inf".to_string()), |b| {
            (if b.exclusive { ")" } else { "]" }.to_string(), num(&b))
        });
        format!("{}{}, {}{}", lo.0, lo.1, hi.1, hi.0)
    }

    fn suffix(&self) -> String {
        let mut s = String::new();
        if !self.unit.is_empty() {
            s.push(' ');
            s.push_str(self.unit);
        }
        if let Some((auto, what)) = self.auto {
            let v = match auto {
                Auto::Zero => "0",
                Auto::Negative => "negative",
            };
            s.push_str(&format!(" ({v} = {what})"));
        }
        s
    }
}

/// The stored form of a number or vector: itself.
macro_rules! stored_as_itself {
    () => {
        type Stored = Self;
        fn stored(self) -> Self {
            self
        }
        fn from_stored(v: Self, _: &str) -> Result<Self> {
            Ok(v)
        }
    };
}

/// `N` numbers as `f32` (None for another count).
fn floats<const N: usize>(v: &[f64]) -> Option<[f32; N]> {
    <[f64; N]>::try_from(v).ok().map(|a| a.map(|x| x as f32))
}

impl Setting for f32 {
    type Scalar = f32;
    const KIND: Kind = Kind::F32;
    fn bound(v: f32) -> f64 {
        v as f64
    }
    fn check(self, r: &Range) -> Result<()> {
        if matches!(r.auto, Some((Auto::Negative, _))) && self.is_finite() && self < 0.0 {
            return Ok(());
        }
        if self.is_finite() && r.contains(self as f64) {
            return Ok(());
        }
        Err(Error::invalid(format!(
            "{} {self} must be finite and in {}{}",
            r.name,
            r.text(false),
            r.suffix()
        )))
    }
    fn numbers(self) -> Vec<f64> {
        vec![self as f64]
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        floats(v).map(|[x]| x)
    }
    stored_as_itself!();
}

impl Setting for u32 {
    type Scalar = u32;
    const KIND: Kind = Kind::U32;
    fn bound(v: u32) -> f64 {
        v as f64
    }
    fn check(self, r: &Range) -> Result<()> {
        if r.contains(self as f64) {
            return Ok(());
        }
        Err(Error::invalid(format!(
            "{} {self} must be in {}{}",
            r.name,
            r.text(true),
            r.suffix()
        )))
    }
    fn numbers(self) -> Vec<f64> {
        vec![self as f64]
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        <[f64; 1]>::try_from(v).ok().map(|[x]| x as u32)
    }
    stored_as_itself!();
}

impl Setting for bool {
    type Scalar = bool;
    const KIND: Kind = Kind::Bool;
    fn bound(v: bool) -> f64 {
        v as u32 as f64
    }
    fn check(self, _: &Range) -> Result<()> {
        Ok(())
    }
    fn numbers(self) -> Vec<f64> {
        vec![self as u32 as f64]
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        <[f64; 1]>::try_from(v).ok().map(|[x]| x != 0.0)
    }
    type Stored = u8;
    fn stored(self) -> u8 {
        self as u8
    }
    fn from_stored(v: u8, field: &str) -> Result<Self> {
        flag_from_c(v as u32, field)
    }
}

impl Setting for Vec3 {
    type Scalar = f32;
    const KIND: Kind = Kind::Vec3;
    fn bound(v: f32) -> f64 {
        v as f64
    }
    /// The message names the first component out of range (`half_extents.y`).
    fn check(self, r: &Range) -> Result<()> {
        let bad = self
            .to_array()
            .into_iter()
            .zip(["x", "y", "z"])
            .find(|&(c, _)| !(c.is_finite() && r.contains(c as f64)));
        let Some((c, axis)) = bad else {
            return Ok(());
        };
        Err(Error::invalid(format!(
            "{}.{axis} {c} (of {self}) must be finite and in {}{}",
            r.name,
            r.text(false),
            r.suffix()
        )))
    }
    fn numbers(self) -> Vec<f64> {
        self.to_array().iter().map(|&c| c as f64).collect()
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        floats(v).map(Vec3::from_array)
    }
    stored_as_itself!();
}

impl Setting for Quat {
    type Scalar = f32;
    const KIND: Kind = Kind::Quat;
    fn bound(v: f32) -> f64 {
        v as f64
    }
    /// No range: the desc's `check` tests the length (each desc has its tolerance).
    fn check(self, _: &Range) -> Result<()> {
        Ok(())
    }
    fn numbers(self) -> Vec<f64> {
        self.to_array().iter().map(|&c| c as f64).collect()
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        floats(v).map(Quat::from_array)
    }
    stored_as_itself!();
}

impl<T: SettingEnum> Setting for T {
    type Scalar = u32;
    const KIND: Kind = Kind::Enum(T::C_TYPE);
    fn bound(v: u32) -> f64 {
        v as f64
    }
    fn check(self, _: &Range) -> Result<()> {
        Ok(())
    }
    fn numbers(self) -> Vec<f64> {
        vec![self.to_c() as f64]
    }
    fn from_numbers(v: &[f64]) -> Option<Self> {
        <[f64; 1]>::try_from(v)
            .ok()
            .and_then(|[x]| T::from_c(x as u32, "").ok())
    }
    type Stored = u32;
    fn stored(self) -> u32 {
        self.to_c()
    }
    fn from_stored(v: u32, field: &str) -> Result<Self> {
        T::from_c(v, field)
    }
}

/// The kind of a field of type `T` declared with or without a range.
pub const fn kind_of<T: Setting>(has_range: bool) -> Kind {
    match T::KIND {
        Kind::U32 if !has_range => Kind::Mask,
        k => k,
    }
}

/// Declares a desc once: the struct (with docs), `Default`, `validate()` and
/// `schema()`. Each field reads
///
/// ```text
/// /// doc (what it is and does; unit, range and default are rendered from the rest)
/// name: Type = default => unit "kg/m³", min > 0.0, max <= MAX_REST_DENSITY, auto zero "2·spacing", ui "Name";
/// ```
///
/// `min` (`>` or `>=`), `max` (`<` or `<=`), `auto` (`zero` or `negative`: the value
/// that asks for a derived one), `ui` (the PascalCase name in C#, Unity and Unreal,
/// when not the field's) and `not saved` (a machine's choice, not simulation state:
/// snapshots leave it out) are optional, in that order. Enum fields implement
/// [`SettingEnum`].
///
/// The snapshot record comes from the same declaration: `save_settings(w)` writes
/// every saved field in declaration order through the snapshot codec and
/// `load_settings(r)` reads it back and validates it (a failure is a corrupt snapshot);
/// `LAYOUT` hashes the declaration ([`LayoutHash`]) for the snapshot header, which
/// refuses a snapshot of another layout. Adding a field to a stored desc changes
/// nothing by hand in the snapshot.
///
/// A tagged union (a Rust enum with data, [`SettingUnion`]) is declared as its tag
/// and its parameters, each at its place in the C layout:
///
/// ```text
/// shape: Shape = Shape::Plane => union "SinewShape", unit "";
/// radius: f32 = 0.5 => of shape: Shape [Sphere, Capsule], unit "m", min > 0.0, max <= MAX_LENGTH;
/// ```
///
/// A parameter is no field of the Rust struct: `validate()` checks it in the variants
/// that read it (by the variant field of the same name), and its default is the C
/// twin's when the active variant does not read it. A snapshot stores the tag and the
/// parameters of the active variant (the tag is declared before its parameters;
/// [`SettingUnion::from_tag`] rebuilds the variant). A desc-level `check path` names a `fn(&Self) -> Result<()>` run
/// after the field checks (ranges relative to another field).
#[macro_export]
#[doc(hidden)]
macro_rules! settings {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident => $cname:ident, $csname:ident, cookie $cookie:literal,
            path $path:literal $(, check $check:path)? {
            $(
                $(#[doc = $fdoc:literal])*
                $field:ident : $ty:ty = $default:expr =>
                    $(union $uc:literal ,)?
                    $(of $u:ident : $uty:ident [$($uv:ident),+] ,)?
                    unit $unit:literal
                    $(, min $minop:tt $min:expr)?
                    $(, max $maxop:tt $max:expr)?
                    $(, auto $auto:ident $autodoc:literal)?
                    $(, ui $ui:literal)?
                    $(, not $saved:ident)?
                ;
            )*
        }
    ) => {
        $crate::settings!(@struct {
            $(#[doc = $sdoc])*
            ///
            /// Declared once with `settings!` (src/limits/schema.rs): the C twin, the bindings
            /// and the engines' metadata are rendered from [`Self::schema`].
            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct $name
        } [] $(
            {
                $(#[doc = $fdoc])*
                #[doc = ""]
                #[doc = concat!(
                    "Unit: ", $unit, "; default `", stringify!($default), "`"
                    $(, "; min ", stringify!($minop), " `", stringify!($min), "`")?
                    $(, "; max ", stringify!($maxop), " `", stringify!($max), "`")?
                    $(, "; ", $crate::settings!(@autotext $auto), " = ", $autodoc)?
                    $(, "; a parameter of `", stringify!($u), "`, read by ",
                        stringify!($($uv),+))?
                    , "."
                )]
            } $field : $ty, [$(param $u)?];
        )*);

        $crate::settings!(@default $name [] $($field = $default, [$(param $u)?];)*);

        impl $name {
            /// Checks every field; the message names the field, its range and unit.
            pub fn validate(&self) -> $crate::Result<()> {
                self.validate_except(&[])
            }

            /// [`Self::validate`] without the fields named in `ignored` (those a builder
            /// does not read, e.g. a rope's ends when it follows a polyline).
            pub fn validate_except(&self, ignored: &[&str]) -> $crate::Result<()> {
                debug_assert!(
                    ignored.iter().all(|n| [$(stringify!($field)),*].contains(n)),
                    "{ignored:?} names a field {} lacks", stringify!($name)
                );
                $(
                    if !ignored.contains(&stringify!($field)) {
                        $crate::settings!(@check self, $field, $ty,
                            $crate::settings!(@range $field, $unit, $ty,
                                [$($minop $min)?], [$($maxop $max)?], [$($auto $autodoc)?]),
                            [$(union $uc)? $(param $u $uty [$($uv)+])?]);
                    }
                )*
                $( $check(self)?; )?
                Ok(())
            }

            /// The declaration as a table (names, kinds, ranges, defaults, docs).
            pub fn schema() -> $crate::limits::schema::Desc {
                use $crate::limits::schema::{Desc, Field, Setting};
                let d = Self::default();
                Desc {
                    rust: stringify!($name),
                    c: stringify!($cname),
                    csharp: stringify!($csname),
                    cookie: $cookie,
                    path: $path,
                    doc: concat!($($sdoc, "\n",)*),
                    fields: vec![$(
                        Field {
                            name: stringify!($field),
                            ui: $crate::settings!(@ui $($ui)?),
                            kind: $crate::settings!(@kind $ty,
                                [$($min)? $($max)?], [$($uc)?]),
                            range: $crate::settings!(@range $field, $unit, $ty,
                                [$($minop $min)?], [$($maxop $max)?], [$($auto $autodoc)?]),
                            default: $crate::settings!(@numbers d, $field, $ty, $default,
                                [$(union $uc)? $(param $u)?]),
                            doc: concat!($($fdoc, "\n",)*),
                            variants: $crate::settings!(@variants $ty, [$($uc)?]),
                            param: $crate::settings!(@param [$($u [$($uv)+])?]),
                            saved: $crate::settings!(@saved $($saved)?),
                        },
                    )*],
                }
            }
        }

        $crate::settings_record!($name {
            $(
                $field : $ty, kind [$($min)? $($max)?] [$($uc)?],
                    layout [$($u)?] [$($($uv)+)?] [$($saved)?],
                    [$(union $uc)? $(param $u $uty [$($uv)+])? $(not $saved)?];
            )*
        });
    };
    // The struct, without the union parameters (the variants carry them).
    (@struct { $($head:tt)* } [$($done:tt)*]) => {
        $($head)* { $($done)* }
    };
    (@struct $head:tt [$($done:tt)*] { $($attr:tt)* } $field:ident : $ty:ty, [param $u:ident];
        $($rest:tt)*) => {
        $crate::settings!(@struct $head [$($done)*] $($rest)*);
    };
    (@struct $head:tt [$($done:tt)*] { $($attr:tt)* } $field:ident : $ty:ty, [];
        $($rest:tt)*) => {
        $crate::settings!(@struct $head [$($done)* $($attr)* pub $field: $ty,] $($rest)*);
    };
    // `Default`, likewise.
    (@default $name:ident [$($done:tt)*]) => {
        impl Default for $name {
            fn default() -> Self {
                $name { $($done)* }
            }
        }
    };
    (@default $name:ident [$($done:tt)*] $field:ident = $d:expr, [param $u:ident];
        $($rest:tt)*) => {
        $crate::settings!(@default $name [$($done)*] $($rest)*);
    };
    (@default $name:ident [$($done:tt)*] $field:ident = $d:expr, []; $($rest:tt)*) => {
        $crate::settings!(@default $name [$($done)* $field: $d,] $($rest)*);
    };
    // A field's check: a plain field; a union's tag (any variant is valid); a union's
    // parameter, checked in the variants that read it.
    (@check $s:ident, $field:ident, $ty:ty, $range:expr, []) => {
        <$ty as $crate::limits::schema::Setting>::check($s.$field, &$range)?
    };
    (@check $s:ident, $field:ident, $ty:ty, $range:expr, [union $uc:literal]) => {};
    (@check $s:ident, $field:ident, $ty:ty, $range:expr,
        [param $u:ident $uty:ident [$($uv:ident)+]]) => {
        #[allow(clippy::single_match, unreachable_patterns)]
        match $s.$u {
            $($uty::$uv { $field, .. })|+ => {
                <$ty as $crate::limits::schema::Setting>::check($field, &$range)?
            }
            _ => {}
        }
    };
    (@kind $ty:ty, [$($b:tt)*], []) => {
        $crate::limits::schema::kind_of::<$ty>($crate::settings!(@has $($b)*))
    };
    (@kind $ty:ty, [$($b:tt)*], [$uc:literal]) => {
        $crate::limits::schema::Kind::Union {
            c: $uc,
            rust: stringify!($ty),
        }
    };
    (@numbers $d:ident, $field:ident, $ty:ty, $default:expr, []) => {
        <$ty as Setting>::numbers($d.$field)
    };
    (@numbers $d:ident, $field:ident, $ty:ty, $default:expr, [union $uc:literal]) => {
        vec![<$ty as $crate::limits::schema::SettingUnion>::tag($d.$field) as f64]
    };
    (@numbers $d:ident, $field:ident, $ty:ty, $default:expr, [param $u:ident]) => {
        <$ty as Setting>::numbers($default)
    };
    (@variants $ty:ty, []) => { &[] };
    (@variants $ty:ty, [$uc:literal]) => {
        <$ty as $crate::limits::schema::SettingUnion>::VARIANTS
    };
    (@saved) => { true };
    (@saved saved) => { false };
    (@param []) => { None };
    (@param [$u:ident [$($uv:ident)+]]) => {
        Some((stringify!($u), vec![$(stringify!($uv)),+]))
    };
    (@autotext zero) => { "0" };
    (@autotext negative) => { "negative" };
    (@ui) => { "" };
    (@ui $ui:literal) => { $ui };
    (@has) => { false };
    (@has $($b:tt)+) => { true };
    (@range $field:ident, $unit:literal, $ty:ty,
        [$($minop:tt $min:expr)?], [$($maxop:tt $max:expr)?], [$($auto:ident $autodoc:literal)?]) => {
        $crate::limits::schema::Range {
            name: stringify!($field),
            unit: $unit,
            min: $crate::settings!(@bound $ty, $($minop $min)?),
            max: $crate::settings!(@bound $ty, $($maxop $max)?),
            auto: $crate::settings!(@auto $($auto $autodoc)?),
        }
    };
    (@bound $ty:ty, ) => { None };
    (@bound $ty:ty, $op:tt $b:expr) => {
        Some($crate::limits::schema::Bound {
            value: <$ty as $crate::limits::schema::Setting>::bound($b),
            exclusive: $crate::settings!(@exclusive $op),
            expr: stringify!($b),
        })
    };
    (@exclusive >) => { true };
    (@exclusive <) => { true };
    (@exclusive >=) => { false };
    (@exclusive <=) => { false };
    (@auto) => { None };
    (@auto zero $doc:literal) => { Some(($crate::limits::schema::Auto::Zero, $doc)) };
    (@auto negative $doc:literal) => { Some(($crate::limits::schema::Auto::Negative, $doc)) };
}
