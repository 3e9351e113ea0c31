//! What the x86-64 SIMD kernels share (the distance, Jacobi and tether kernels of the
//! constraints; the neighbour, contact and plane-cull kernels of the collisions): which
//! kernel a pass runs, checked once, and the 8 × 4 transposes between eight
//! `(x, y, z, w)` records and four rows of eight lanes. The transposes only move
//! values (no arithmetic), so a kernel that uses them computes the same bits as its
//! scalar loop.

/// Which implementation a SIMD-accelerated pass runs, picked once when its owner is
/// made, so each call only matches on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The portable scalar loop.
    Scalar,
    /// Eight lanes at a time; only chosen where the CPU has AVX.
    #[cfg(target_arch = "x86_64")]
    Avx,
}

impl Kernel {
    /// AVX where the CPU has it, else the scalar loop.
    pub(crate) fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if avx_available() {
                return Kernel::Avx;
            }
        }
        Kernel::Scalar
    }
}

impl Default for Kernel {
    fn default() -> Self {
        Kernel::detect()
    }
}

/// `f()`, compiled with AVX where `kernel` is [`Kernel::Avx`] (the CPU has it), else as
/// it is: for a safe function whose loops over lanes the compiler vectorises once the
/// feature is on (it must be inlined into `f`, `#[inline(always)]`, to be compiled
/// with it). The same operations either way, so the same bits: only the width of the
/// registers differs.
#[inline(always)]
pub(crate) fn with_avx<R>(kernel: Kernel, f: impl FnOnce() -> R) -> R {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx => {
            #[target_feature(enable = "avx")]
            fn avx<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            // SAFETY: `Kernel::Avx` is only chosen where the CPU has AVX
            // (`Kernel::detect`).
            unsafe { avx(f) }
        }
        _ => f(),
    }
}

/// `detect()`, checked once and then read from `flag` (0 = not checked yet, 1 = no,
/// 2 = yes).
#[cfg(target_arch = "x86_64")]
#[inline]
fn cached(flag: &std::sync::atomic::AtomicU8, detect: fn() -> bool) -> bool {
    use std::sync::atomic::Ordering;
    match flag.load(Ordering::Relaxed) {
        0 => {
            let yes = detect();
            flag.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

/// Whether the CPU has AVX (checked once, then cached): false off x86-64, where no
/// kernel asks.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn avx_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
        cached(&AVX, || std::arch::is_x86_feature_detected!("avx"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX-512F and AVX-512VL (checked once, then cached): false off
/// x86-64. Kernels built for AVX2 may be compiled with them as well, for the 32 vector
/// registers their eight-lane code then has (the same operations, so the same bits).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn avx512vl_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX512VL: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
        cached(&AVX512VL, || {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX2 and POPCNT (checked once, then cached): false off
/// x86-64. Kernels that use the 256-bit integer instructions and count mask bits (the
/// fluid build's list compress) ask for it on top of [`Kernel::Avx`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX2: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
        cached(&AVX2, || {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The AVX transposes, inlined into `#[target_feature(enable = "avx")]` kernels.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx {
    use std::arch::x86_64::*;

    /// Eight `(x, y, z, w)` records → `[x, y, z, w]` rows of eight lanes (lane k from
    /// record k).
    #[inline(always)]
    pub(crate) fn to_lanes(r: [__m128; 8]) -> [__m256; 4] {
        // SAFETY: AVX is enabled in every caller (target_feature).
        unsafe {
            let row =
                |lo: __m128, hi: __m128| _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
            let (r0, r1, r2, r3) = (
                row(r[0], r[4]),
                row(r[1], r[5]),
                row(r[2], r[6]),
                row(r[3], r[7]),
            );
            let t0 = _mm256_unpacklo_ps(r0, r1);
            let t1 = _mm256_unpacklo_ps(r2, r3);
            let t2 = _mm256_unpackhi_ps(r0, r1);
            let t3 = _mm256_unpackhi_ps(r2, r3);
            [
                _mm256_shuffle_ps(t0, t1, 0x44),
                _mm256_shuffle_ps(t0, t1, 0xEE),
                _mm256_shuffle_ps(t2, t3, 0x44),
                _mm256_shuffle_ps(t2, t3, 0xEE),
            ]
        }
    }

    /// [`to_lanes`] of eight consecutive 16-byte records at `r`.
    ///
    /// # Safety
    /// AVX is enabled in the caller; `r` points to 32 readable floats.
    #[inline(always)]
    pub(crate) unsafe fn load_lanes(r: *const f32) -> [__m256; 4] {
        // SAFETY: per the contract, r.add(4 * k) for k < 8 reads within the 32 floats.
        to_lanes(std::array::from_fn(|k| unsafe {
            _mm_loadu_ps(r.add(4 * k))
        }))
    }

    /// The inverse of [`to_lanes`].
    #[inline(always)]
    pub(crate) fn to_records(v: [__m256; 4]) -> [__m128; 8] {
        // SAFETY: AVX is enabled in every caller (target_feature).
        unsafe {
            let t0 = _mm256_unpacklo_ps(v[0], v[1]);
            let t1 = _mm256_unpackhi_ps(v[0], v[1]);
            let t2 = _mm256_unpacklo_ps(v[2], v[3]);
            let t3 = _mm256_unpackhi_ps(v[2], v[3]);
            let r0 = _mm256_shuffle_ps(t0, t2, 0x44);
            let r1 = _mm256_shuffle_ps(t0, t2, 0xEE);
            let r2 = _mm256_shuffle_ps(t1, t3, 0x44);
            let r3 = _mm256_shuffle_ps(t1, t3, 0xEE);
            let (lo, hi) = (_mm256_castps256_ps128, |r| _mm256_extractf128_ps(r, 1));
            [
                lo(r0),
                lo(r1),
                lo(r2),
                lo(r3),
                hi(r0),
                hi(r1),
                hi(r2),
                hi(r3),
            ]
        }
    }

    /// The inverse of [`load_lanes`]: four rows of eight lanes stored as eight
    /// consecutive 16-byte records at `r`.
    ///
    /// # Safety
    /// AVX is enabled in the caller; `r` points to 32 writable floats.
    #[inline(always)]
    pub(crate) unsafe fn store_lanes(r: *mut f32, v: [__m256; 4]) {
        for (k, record) in to_records(v).into_iter().enumerate() {
            // SAFETY: per the contract, r.add(4 * k) for k < 8 writes within the 32
            // floats.
            unsafe { _mm_storeu_ps(r.add(4 * k), record) };
        }
    }
}
