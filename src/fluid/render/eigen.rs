//! The eigen-decomposition of a symmetric 3 × 3 matrix by cyclic Jacobi rotations
//! (the SVD of a symmetric positive semi-definite matrix, as Yu & Turk take of the
//! covariance): a fixed sequence of operations, so the same input gives the same bits
//! on every thread.

/// Sweeps at most (a 3 × 3 matrix converges in 4 to 6 in double precision).
const SWEEPS: usize = 12;

/// The eigenvalues of the symmetric matrix `a` in descending order and their unit
/// eigenvectors (`vectors[k]` for `values[k]`), forming a right-handed orthonormal
/// basis. Computed in double precision; `None` when `a` is not finite.
pub(crate) fn symmetric_eigen(a: [[f32; 3]; 3]) -> Option<([f32; 3], [[f32; 3]; 3])> {
    let mut m = a.map(|r| r.map(f64::from));
    if m.iter().flatten().any(|x| !x.is_finite()) {
        return None;
    }
    // Columns of v are the eigenvectors.
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0f64]];
    let scale: f64 = m.iter().flatten().map(|x| x * x).sum();
    for _ in 0..SWEEPS {
        let off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
        if off <= 1.0e-24 * scale {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = m[p][q];
            if apq == 0.0 {
                continue;
            }
            let theta = (m[q][q] - m[p][p]) / (2.0 * apq);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            m[p][p] -= t * apq;
            m[q][q] += t * apq;
            m[p][q] = 0.0;
            m[q][p] = 0.0;
            let r = 3 - p - q;
            let (arp, arq) = (m[r][p], m[r][q]);
            m[r][p] = c * arp - s * arq;
            m[p][r] = m[r][p];
            m[r][q] = s * arp + c * arq;
            m[q][r] = m[r][q];
            for row in &mut v {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let mut idx = [0usize, 1, 2];
    // Descending, ties in index order (a fixed order for equal values).
    idx.sort_by(|&x, &y| m[y][y].total_cmp(&m[x][x]).then(x.cmp(&y)));
    let values = idx.map(|k| m[k][k] as f32);
    let mut vectors = idx.map(|k| [v[0][k], v[1][k], v[2][k]]);
    let [a0, a1, a2] = vectors;
    let cross = [
        a0[1] * a1[2] - a0[2] * a1[1],
        a0[2] * a1[0] - a0[0] * a1[2],
        a0[0] * a1[1] - a0[1] * a1[0],
    ];
    if cross[0] * a2[0] + cross[1] * a2[1] + cross[2] * a2[2] < 0.0 {
        vectors[2] = a2.map(|x| -x);
    }
    if values.iter().any(|x| !x.is_finite()) {
        return None;
    }
    Some((values, vectors.map(|r| r.map(|x| x as f32))))
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
}
