//! The f64 reference every result is checked against, and the error measure.
//!
//! Small problems are checked on the whole of C. For large ones the reference
//! computes whole rows and whole columns of C (chosen at random, plus the
//! first and last of each, where edge tiles live): a wrong tile, a wrong
//! stride or a race shows up in some row or column, at a small fraction of the
//! cost of the full product.

use crate::bench::matrix::Matrix;
use rand::Rng;
use rand::seq::index::sample;

/// Problems with at most this many multiply-adds are checked in full.
pub const FULL_CHECK_MAX_MACS: usize = 1 << 32;
/// Rows and columns sampled (each) for larger problems.
pub const SAMPLED_LINES: usize = 32;

/// Exact (f64) values of part or all of C, and where they are.
pub struct Reference {
    n: usize,
    /// Rows of C known in full: (row index, n values).
    rows: Vec<(usize, Vec<f64>)>,
    /// Columns of C known in full: (column index, m values).
    cols: Vec<(usize, Vec<f64>)>,
}

/// `C = A · B` in f64 for row-major `m×k` and `k×n` inputs.
pub fn dgemm(a: &[f64], b: &[f64], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    unsafe {
        matrixmultiply::dgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
    c
}

impl Reference {
    /// Exact values of all of `A · B` when it is small, of sampled rows and
    /// columns otherwise.
    pub fn new(a: &Matrix, b: &Matrix, rng: &mut impl Rng) -> Self {
        Self::with_full_limit(a, b, FULL_CHECK_MAX_MACS, rng)
    }

    /// As [`Reference::new`], checking in full up to `full_max_macs`
    /// multiply-adds.
    pub fn with_full_limit(a: &Matrix, b: &Matrix, full_max_macs: usize, rng: &mut impl Rng) -> Self {
        let (m, k, n) = (a.rows, a.cols, b.cols);
        assert_eq!(b.rows, k, "A's columns must equal B's rows");
        let a64 = a.to_f64();
        let b64 = b.to_f64();
        if m.saturating_mul(n).saturating_mul(k) <= full_max_macs {
            let c = dgemm(&a64, &b64, m, n, k);
            let rows = (0..m).map(|i| (i, c[i * n..(i + 1) * n].to_vec())).collect();
            return Reference { n, rows, cols: Vec::new() };
        }
        let row_ids = pick_lines(m, rng);
        let col_ids = pick_lines(n, rng);
        // Rows: A[rows, :] · B.
        let a_rows: Vec<f64> = row_ids.iter().flat_map(|&i| a64[i * k..(i + 1) * k].iter().copied()).collect();
        let c_rows = dgemm(&a_rows, &b64, row_ids.len(), n, k);
        // Columns: A · B[:, cols].
        let nc = col_ids.len();
        let b_cols: Vec<f64> =
            (0..k).flat_map(|p| col_ids.iter().map(move |&j| (p, j))).map(|(p, j)| b64[p * n + j]).collect();
        let c_cols = dgemm(&a64, &b_cols, m, nc, k);
        Reference {
            n,
            rows: row_ids.iter().enumerate().map(|(r, &i)| (i, c_rows[r * n..(r + 1) * n].to_vec())).collect(),
            cols: col_ids.iter().enumerate().map(|(q, &j)| (j, (0..m).map(|i| c_cols[i * nc + q]).collect())).collect(),
        }
    }

    /// Whether the reference covers every element of C.
    pub fn is_full(&self) -> bool {
        self.cols.is_empty()
    }

    /// Relative Frobenius error `‖C − R‖ / ‖R‖` over the elements the
    /// reference knows. NaN (fails every bound) if any element of `c` is not
    /// finite: each checked run starts from C poisoned with NaN, so this also
    /// proves every element was written.
    pub fn relative_error(&self, c: &[f32]) -> f64 {
        if c.iter().any(|x| !x.is_finite()) {
            return f64::NAN;
        }
        let n = self.n;
        let (mut diff, mut norm) = (0.0f64, 0.0f64);
        let mut add = |got: f32, want: f64| {
            diff += (got as f64 - want).powi(2);
            norm += want * want;
        };
        for (i, row) in &self.rows {
            for (j, want) in row.iter().enumerate() {
                add(c[i * n + j], *want);
            }
        }
        for (j, col) in &self.cols {
            for (i, want) in col.iter().enumerate() {
                add(c[i * n + j], *want);
            }
        }
        if norm == 0.0 { diff.sqrt() } else { (diff / norm).sqrt() }
    }
}

/// `SAMPLED_LINES` random indices below `len`, plus 0 and `len − 1`.
fn pick_lines(len: usize, rng: &mut impl Rng) -> Vec<usize> {
    let mut ids = sample(rng, len, SAMPLED_LINES.min(len)).into_vec();
    ids.extend([0, len - 1]);
    ids.sort_unstable();
    ids.dedup();
    ids
}
