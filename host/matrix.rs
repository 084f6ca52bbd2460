//! Host matrices: row-major storage and the random inputs every check uses.

use rand::Rng;
use rand_distr::StandardNormal;

/// A row-major `rows × cols` matrix on the host.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f32>,
}

impl Matrix {
    /// Entries drawn from N(0, 1): never zeros, so unwritten outputs and
    /// wrong indexing cannot hide.
    pub fn random(rows: usize, cols: usize, rng: &mut impl Rng) -> Self {
        let data = (0..rows * cols).map(|_| rng.sample(StandardNormal)).collect();
        Matrix { rows, cols, data }
    }

    pub fn from_vec(rows: usize, cols: usize, data: Vec<f32>) -> Self {
        assert_eq!(data.len(), rows * cols, "data length must be rows × cols");
        Matrix { rows, cols, data }
    }

    pub fn to_f64(&self) -> Vec<f64> {
        self.data.iter().map(|&x| x as f64).collect()
    }
}
