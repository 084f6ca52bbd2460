//! Checking a call and reducing it to a [`Plan`], the launch the driver
//! takes. Pure: no GPU needed, so every rule is tested on the CPU.

use crate::api::views::{Batch, Layout, MatrixDesc};
use crate::driver::error::{GemmError, Result};
use crate::driver::launch::Plan;
use gemm_launch::OperandLayout;

pub use crate::driver::kernels::MAX_DIM;
/// Largest batch: the launch grid's z dimension.
pub const MAX_BATCH: usize = 65_535;

/// Checks a call (`a`, `b`, `c` with their buffers' lengths) and plans its
/// launch. Pure: no GPU needed, so every rule is tested on the CPU.
pub fn plan(a: (&MatrixDesc, usize), b: (&MatrixDesc, usize), c: (&MatrixDesc, usize), batch: &Batch) -> Result<Plan> {
    let ((a, a_len), (b, b_len), (c, c_len)) = (a, b, c);
    let (m, k, n) = (a.rows, a.cols, b.cols);
    if b.rows != k {
        return Err(GemmError::Shape(format!("A is {m}×{k} but B is {}×{n}: A's columns must equal B's rows", b.rows)));
    }
    if (c.rows, c.cols) != (m, n) {
        return Err(GemmError::Shape(format!("A·B is {m}×{n} but C is {}×{}", c.rows, c.cols)));
    }
    for (what, value, max) in
        [("M", m, MAX_DIM), ("N", n, MAX_DIM), ("K", k, MAX_DIM), ("batch count", batch.count, MAX_BATCH)]
    {
        if value == 0 {
            return Err(GemmError::ZeroDimension { what });
        }
        if value > max {
            return Err(GemmError::DimensionTooLarge { what, value: value as u64, max: max as u64 });
        }
    }
    for (operand, desc, len, stride) in
        [("A", a, a_len, batch.stride_a), ("B", b, b_len, batch.stride_b), ("C", c, c_len, batch.stride_c)]
    {
        let (run, _) = desc.run_and_count();
        if desc.ld < run {
            return Err(GemmError::BadLeadingDimension { operand, ld: desc.ld, min: run });
        }
        if desc.ld > u32::MAX as usize {
            return Err(GemmError::DimensionTooLarge {
                what: "leading dimension",
                value: desc.ld as u64,
                max: u32::MAX as u64,
            });
        }
        let too_large =
            || GemmError::DimensionTooLarge { what: "batch extent", value: u64::MAX, max: usize::MAX as u64 };
        let extent = desc.extent().ok_or_else(too_large)?;
        let needed = (batch.count as u64 - 1)
            .checked_mul(stride as u64)
            .and_then(|s| s.checked_add(extent))
            .ok_or_else(too_large)?;
        if needed > len as u64 {
            return Err(GemmError::BufferTooSmall { operand, needed, len });
        }
    }
    if batch.count > 1 && (batch.stride_c as u64) < c.extent().unwrap_or(u64::MAX) {
        return Err(GemmError::Shape(format!(
            "C matrices of the batch overlap: stride {} is less than one C's extent",
            batch.stride_c
        )));
    }
    // The kernel's A and B, each with its batch stride and whether the
    // kernel reads it column-major. A column-major C is computed as
    // Cᵀ (n×m, row-major) = Bᵀ·Aᵀ, where Bᵀ is B's memory in the other
    // layout: A and B swap, and both flip.
    let swapped = c.layout == Layout::ColMajor;
    let operand =
        |d: &MatrixDesc, stride: usize| (d.ld as u32, stride as u64, (d.layout == Layout::ColMajor) != swapped);
    let ((lda, stride_a, a_col_major), (ldb, stride_b, b_col_major), (m, n)) = if swapped {
        (operand(b, batch.stride_b), operand(a, batch.stride_a), (n, m))
    } else {
        (operand(a, batch.stride_a), operand(b, batch.stride_b), (m, n))
    };
    Ok(Plan {
        m: m as u32,
        n: n as u32,
        k: k as u32,
        layout: OperandLayout { a_col_major, b_col_major },
        lda,
        ldb,
        ldc: c.ld as u32,
        stride_a,
        stride_b,
        stride_c: batch.stride_c as u64,
        batch: batch.count as u32,
        swapped,
        k_last: None,
    })
}

/// Fails with [`GemmError::Misaligned`] unless `address` is a multiple of
/// `align` (the element size).
pub fn check_alignment(operand: &'static str, address: u64, align: usize) -> Result<()> {
    if address.is_multiple_of(align as u64) { Ok(()) } else { Err(GemmError::Misaligned { operand, address, align }) }
}
