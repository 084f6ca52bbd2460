//! Host matrices: row-major storage and the random inputs every check uses.

use crate::driver::element::Element;
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

    /// Each entry rounded to the nearest value of `T` (so that the host copy
    /// holds exactly what the device will read).
    pub fn rounded<T: Element>(mut self) -> Self {
        for x in &mut self.data {
            *x = T::from_f32(*x).to_f32();
        }
        self
    }

    /// The entries as `T` (exact after [`Matrix::rounded`]).
    pub fn to_elements<T: Element>(&self) -> Vec<T> {
        self.data.iter().map(|&x| T::from_f32(x)).collect()
    }

    pub fn to_f64(&self) -> Vec<f64> {
        self.data.iter().map(|&x| x as f64).collect()
    }
}
