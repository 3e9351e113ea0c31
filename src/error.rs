//! Errors of the safe Rust API. The C ABI maps each kind to a `SinewStatus`.

use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An index, range or count lies outside what the world holds or allows.
    OutOfRange,
    /// A value is not acceptable (NaN, negative mass, stiffness outside \[0, 1\], ...).
    InvalidArgument,
    /// Memory (or a worker thread) could not be obtained.
    OutOfMemory,
    /// An id of an object inside a world (a body, a collider) is removed or was never
    /// issued.
    InvalidHandle,
    /// The step ran but met a non-finite value (NaN or infinity) in some particles,
    /// or carried some past the coordinate limit (a position component beyond
    /// ±`MAX_COORDINATE`); those bodies' particles (or the lone particles) were put
    /// back where they were before the step, at rest. Every particle is finite and
    /// within the limit afterwards. The message names the bodies.
    NonFinite,
}

/// A failure with a human-readable reason. A failed call changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }
    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::OutOfRange, message)
    }
    pub fn out_of_memory(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::OutOfMemory, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result of the safe API.
pub type Result<T> = std::result::Result<T, Error>;

/// Fails with INVALID_ARGUMENT when `count` is 0: an empty batch is almost always a
/// wrong length in a binding layer, so it is reported, not ignored.
pub(crate) fn check_nonzero(count: usize, what: &str) -> Result<()> {
    if count == 0 {
        return Err(Error::invalid(format!(
            "count is 0: pass at least one {what}"
        )));
    }
    Ok(())
}

/// Checks that `first..first+count` is a non-empty range within `len` items named
/// `what` (plural) and returns it; `first + count` may not overflow.
pub(crate) fn check_range(
    first: u32,
    count: usize,
    len: usize,
    what: &str,
) -> Result<std::ops::Range<usize>> {
    check_nonzero(count, "element")?;
    let end = first as u64 + count as u64;
    if end > len as u64 {
        return Err(Error::out_of_range(format!(
            "{what} {first}..{end} are out of range (the world has {len} {what})"
        )));
    }
    Ok(first as usize..end as usize)
}

/// Allocates an empty vector with room for `n` elements, or reports OUT_OF_MEMORY.
pub(crate) fn try_with_capacity<T>(n: usize, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::out_of_memory(format!(
            "could not allocate {n} elements ({} bytes each) for {what}",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(v)
}

/// Grows `v` so that `additional` more elements fit without reallocating, or reports
/// OUT_OF_MEMORY and leaves `v` as it was.
pub(crate) fn try_reserve<T>(v: &mut Vec<T>, additional: usize, what: &str) -> Result<()> {
    v.try_reserve(additional).map_err(|_| {
        Error::out_of_memory(format!(
            "could not allocate {additional} more elements ({} bytes each) for {what}",
            std::mem::size_of::<T>()
        ))
    })
}
