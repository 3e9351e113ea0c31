//! The eigen-decomposition of a symmetric 3 × 3 matrix by cyclic Jacobi rotations
//! (the SVD of a symmetric positive semi-definite matrix, as Yu & Turk take of the
//! covariance), for `L` matrices at once: each lane runs the same fixed sequence of
//! operations ([`SWEEPS`] sweeps, no early exit, no branch), so a matrix gives the
//! same bits in any lane, batch or thread, and the lanes compile to AVX registers
//! (eight to a register) where the caller is compiled with AVX (the renderer's
//! ellipsoid batches). The rotation's plane is a constant of each call
//! ([`rotate`]'s parameters) and the matrix is kept as its six distinct entries, each
//! a row of lanes.
//!
//! Cyclic Jacobi converges quadratically on a 3 × 3 matrix: three sweeps rebuild
//! 2,000 random covariances (V diag(λ) Vᵀ against the matrix) within 2e-6 of their
//! Frobenius norm, where two leave up to 4% (the test below); single precision's
//! limit, and far below what an ellipsoid drawn on screen shows.

/// Sweeps of three rotations each.
const SWEEPS: usize = 3;

/// An off-diagonal entry below this fraction of its diagonal's is zeroed instead of
/// rotated (single precision's rounding; also what keeps `θ` finite).
const TINY: f32 = 1.0e-6;

/// One eigen-decomposition: the values in descending order and their unit vectors
/// (`vectors[k]` for `values[k]`), a right-handed orthonormal basis.
#[cfg(test)]
pub(crate) type Eigen = ([f32; 3], [[f32; 3]; 3]);

/// The eigen-decomposition of the symmetric matrix `a` in single precision; `None`
/// when `a` or a result is not finite.
#[cfg(test)]
fn symmetric_eigen(a: [[f32; 3]; 3]) -> Option<Eigen> {
    let [e] = symmetric_eigen_lanes([a]);
    e
}

/// The entries of a symmetric 3 × 3 matrix, one row of lanes each: the diagonal
/// (0, 0), (1, 1), (2, 2), then (0, 1), (0, 2), (1, 2).
pub(crate) type Sym<const L: usize> = [[f32; L]; 6];

/// Where entry (i, j) of a symmetric matrix is kept in a [`Sym`].
const fn at(i: usize, j: usize) -> usize {
    match (i, j) {
        (0, 0) => 0,
        (1, 1) => 1,
        (2, 2) => 2,
        (0, 1) | (1, 0) => 3,
        (0, 2) | (2, 0) => 4,
        _ => 5,
    }
}

/// The Jacobi rotation of the plane (P, Q) (R the third axis) of every lane of `m`,
/// accumulated into the eigenvectors' columns of `v`. Straight-line code per lane
/// (selects, no branch), so the lanes vectorise.
#[inline(always)]
fn rotate<const P: usize, const Q: usize, const R: usize, const L: usize>(
    m: &mut Sym<L>,
    v: &mut [[[f32; L]; 3]; 3],
) {
    let (mut c, mut s) = ([1.0f32; L], [0.0f32; L]);
    for l in 0..L {
        let (apq, app, aqq) = (m[at(P, Q)][l], m[at(P, P)][l], m[at(Q, Q)][l]);
        let skip = (apq.abs() <= TINY * (app.abs() + aqq.abs())) | !apq.is_finite();
        // t = sgn θ / (|θ| + √(θ² + 1)) with θ = (a_qq − a_pp) / (2 a_pq), written
        // without θ's division: t = sgn(a_qq − a_pp) 2 a_pq / (|a_qq − a_pp| +
        // √((a_qq − a_pp)² + 4 a_pq²)).
        let d = aqq - app;
        let two = 2.0 * apq;
        let t = (d.signum() * two) / (d.abs() + (d * d + two * two).sqrt());
        let t = if skip { 0.0 } else { t };
        c[l] = 1.0 / (t * t + 1.0).sqrt();
        s[l] = t * c[l];
        m[at(P, P)][l] = app - t * apq;
        m[at(Q, Q)][l] = aqq + t * apq;
        m[at(P, Q)][l] = 0.0;
        let (arp, arq) = (m[at(R, P)][l], m[at(R, Q)][l]);
        m[at(R, P)][l] = c[l] * arp - s[l] * arq;
        m[at(R, Q)][l] = s[l] * arp + c[l] * arq;
    }
    for row in v.iter_mut() {
        for l in 0..L {
            let (vp, vq) = (row[P][l], row[Q][l]);
            row[P][l] = c[l] * vp - s[l] * vq;
            row[Q][l] = s[l] * vp + c[l] * vq;
        }
    }
}

/// [`symmetric_eigen`] of `L` matrices, lane by lane (the same bits as one at a time).
/// The matrices are read as symmetric (their upper triangles).
#[cfg(test)]
fn symmetric_eigen_lanes<const L: usize>(a: [[[f32; 3]; 3]; L]) -> [Option<Eigen>; L] {
    let mut m: Sym<L> = [[0.0; L]; 6];
    for (l, a) in a.iter().enumerate() {
        for (i, j) in [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
            m[at(i, j)][l] = a[i][j];
        }
    }
    symmetric_eigen_sym(m)
}

/// The eigen-decompositions of `L` matrices, one row of lanes per quantity
/// ([`symmetric_eigen_rows`]).
pub(crate) struct Rows<const L: usize> {
    /// The values in descending order.
    pub values: [[f32; L]; 3],
    /// `vectors[k][c]`: component c of the unit vector of `values[k]`.
    pub vectors: [[[f32; L]; 3]; 3],
    /// Whether a lane's values and vectors are all finite.
    pub finite: [bool; L],
}

/// The key of `x` in `f32::total_cmp`'s order, as a signed integer.
#[inline(always)]
fn order_key(x: f32) -> i32 {
    let b = x.to_bits() as i32;
    b ^ (((b >> 31) as u32) >> 1) as i32
}

/// [`symmetric_eigen_sym`] of `L` matrices in rows of lanes: the same values and
/// vectors (bit for bit), the sort and the third vector's flip done by selects on
/// every lane, so that they too compile to AVX registers where the caller is
/// compiled with AVX.
#[inline(always)]
pub(crate) fn symmetric_eigen_rows<const L: usize>(mut m: Sym<L>) -> Rows<L> {
    // The eigenvectors as columns of v.
    let mut v = [[[0.0f32; L]; 3]; 3];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = [1.0; L];
    }
    for _ in 0..SWEEPS {
        rotate::<0, 1, 2, L>(&mut m, &mut v);
        rotate::<0, 2, 1, L>(&mut m, &mut v);
        rotate::<1, 2, 0, L>(&mut m, &mut v);
    }
    let mut out = Rows {
        values: [[0.0; L]; 3],
        vectors: [[[0.0; L]; 3]; 3],
        finite: [false; L],
    };
    for l in 0..L {
        let d = [m[0][l], m[1][l], m[2][l]];
        // Descending in `total_cmp`'s order, ties in index order: three
        // compare-and-swaps of (key, index).
        let mut key = d.map(order_key);
        let mut idx = [0i32, 1, 2];
        for (x, y) in [(0, 1), (1, 2), (0, 1)] {
            let swap = (key[y] > key[x]) | ((key[y] == key[x]) & (idx[y] < idx[x]));
            let (kx, ky, ix, iy) = (key[x], key[y], idx[x], idx[y]);
            key[x] = if swap { ky } else { kx };
            key[y] = if swap { kx } else { ky };
            idx[x] = if swap { iy } else { ix };
            idx[y] = if swap { ix } else { iy };
        }
        let pick = |k: i32, of: [f32; 3]| {
            if k == 0 {
                of[0]
            } else if k == 1 {
                of[1]
            } else {
                of[2]
            }
        };
        let values = idx.map(|k| pick(k, d));
        // Component c of every column of v (column k: the vector of d[k]).
        let row = |c: usize| [v[c][0][l], v[c][1][l], v[c][2][l]];
        let rows = [row(0), row(1), row(2)];
        let mut vectors = idx.map(|k| rows.map(|r| pick(k, r)));
        let [a0, a1, a2] = vectors;
        let cross = [
            a0[1] * a1[2] - a0[2] * a1[1],
            a0[2] * a1[0] - a0[0] * a1[2],
            a0[0] * a1[1] - a0[1] * a1[0],
        ];
        let flip = cross[0] * a2[0] + cross[1] * a2[1] + cross[2] * a2[2] < 0.0;
        vectors[2] = a2.map(|x| if flip { -x } else { x });
        let mut finite = true;
        for (k, (value, vector)) in values.iter().zip(&vectors).enumerate() {
            out.values[k][l] = *value;
            finite &= value.is_finite();
            for (c, x) in vector.iter().enumerate() {
                out.vectors[k][c][l] = *x;
                finite &= x.is_finite();
            }
        }
        out.finite[l] = finite;
    }
    out
}

/// The eigen-decomposition of each of the `L` matrices of `m` (values in descending
/// order, a right-handed basis of unit vectors; `None` where not finite), lane by
/// lane: the same bits as one at a time ([`symmetric_eigen_rows`]).
#[cfg(test)]
pub(crate) fn symmetric_eigen_sym<const L: usize>(m: Sym<L>) -> [Option<Eigen>; L] {
    let rows = symmetric_eigen_rows(m);
    std::array::from_fn(|l| {
        let values = std::array::from_fn(|k| rows.values[k][l]);
        let vectors = std::array::from_fn(|k| std::array::from_fn(|c| rows.vectors[k][c][l]));
        rows.finite[l].then_some((values, vectors))
    })
}

#[cfg(test)]
mod tests {
    use super::symmetric_eigen;

    #[test]
    fn diagonal_and_rotated_matrices() {
        let (l, v) = symmetric_eigen([[1.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 2.0]]).unwrap();
        assert_eq!(l, [3.0, 2.0, 1.0]);
        assert_eq!(v[0].map(f32::abs), [0.0, 1.0, 0.0]);
        // [[2, 1, 0], [1, 2, 0], [0, 0, 5]]: 5 along z, 3 along (1, 1, 0), 1 along (1, −1, 0).
        let (l, v) = symmetric_eigen([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 5.0]]).unwrap();
        for (a, b) in l.iter().zip([5.0, 3.0, 1.0]) {
            assert!((a - b).abs() < 1e-5, "{l:?}");
        }
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!((v[1][0].abs() - h).abs() < 1e-5 && (v[1][1].abs() - h).abs() < 1e-5);
        assert!(v[0][2].abs() > 0.99999);
        assert!(symmetric_eigen([[f32::NAN, 0.0, 0.0], [0.0; 3], [0.0; 3]]).is_none());
        assert_eq!(symmetric_eigen([[0.0; 3]; 3]).unwrap().0, [0.0; 3]);
    }

    /// Random symmetric matrices (positive semi-definite like a covariance, some
    /// nearly isotropic, some flat): V diag(λ) Vᵀ rebuilds each within 0.1% of its
    /// norm, V is orthonormal and right-handed, λ descending.
    #[test]
    fn values_and_vectors_rebuild_the_matrix_within_the_stop() {
        let mut seed = 777u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut worst = 0.0f32;
        for case in 0..2000 {
            // B Bᵀ + a multiple of the identity (large for every third: nearly round).
            let b: [[f32; 3]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| rnd()));
            let iso = if case % 3 == 0 { 2.0 } else { 0.0 };
            let a: [[f32; 3]; 3] = std::array::from_fn(|i| {
                std::array::from_fn(|j| {
                    (0..3).map(|k| b[i][k] * b[j][k]).sum::<f32>() + if i == j { iso } else { 0.0 }
                })
            });
            let (l, v) = symmetric_eigen(a).unwrap();
            assert!(l[0] >= l[1] && l[1] >= l[2], "{l:?}");
            let (mut err, mut norm) = (0.0f32, 0.0f32);
            for i in 0..3 {
                for j in 0..3 {
                    let r: f32 = (0..3).map(|k| v[k][i] * l[k] * v[k][j]).sum();
                    err += (r - a[i][j]) * (r - a[i][j]);
                    norm += a[i][j] * a[i][j];
                    let dot: f32 = (0..3).map(|k| v[i][k] * v[j][k]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((dot - want).abs() < 1e-5, "not orthonormal: {v:?}");
                }
            }
            let c = [
                v[0][1] * v[1][2] - v[0][2] * v[1][1],
                v[0][2] * v[1][0] - v[0][0] * v[1][2],
                v[0][0] * v[1][1] - v[0][1] * v[1][0],
            ];
            assert!(c[0] * v[2][0] + c[1] * v[2][1] + c[2] * v[2][2] > 0.0);
            worst = worst.max((err / norm).sqrt());
        }
        println!("rebuilt within {worst:e} of the norm");
        assert!(worst < 1.0e-3, "rebuilt within {worst} of the norm");
    }

    /// Eight matrices at once give each one's bits alone, whatever its lane.
    #[test]
    fn lanes_give_the_bits_of_one_at_a_time() {
        let mats: Vec<[[f32; 3]; 3]> = (0..16)
            .map(|k| {
                let f = k as f32 * 0.37;
                let (a, b, c) = (1.0 + f.sin(), 0.5 + f.cos() * 0.4, 0.3 * (2.0 * f).sin());
                [
                    [a, c, 0.1 * f],
                    [c, b, -0.2],
                    [0.1 * f, -0.2, 0.8 + 0.1 * k as f32],
                ]
            })
            .collect();
        for shift in [0usize, 3] {
            let batch: [[[f32; 3]; 3]; 8] = std::array::from_fn(|l| mats[l + shift]);
            let lanes = super::symmetric_eigen_lanes(batch);
            for l in 0..8 {
                assert_eq!(lanes[l], symmetric_eigen(mats[l + shift]), "lane {l}");
            }
        }
        assert!(symmetric_eigen([[f32::INFINITY, 0.0, 0.0], [0.0; 3], [0.0; 3]]).is_none());
    }
}
