//! One error type for the library: every failure a caller can meet, with a
//! message that says what to do about it.

use cust::error::CudaError;

/// `Clone`: a module that failed to load reports the same error to each use.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GemmError {
    /// No driver, no device, or the driver refused to start.
    #[error("no usable NVIDIA GPU: {0}")]
    NoGpu(String),
    /// Operand shapes that do not fit together (A's columns ≠ B's rows, C
    /// not M×N), or batched C matrices that overlap.
    #[error("invalid GEMM shape: {0}")]
    Shape(String),
    /// A dimension (or the batch count) that is zero.
    #[error("{what} is zero; every dimension of a GEMM must be at least 1")]
    ZeroDimension { what: &'static str },
    /// A dimension, leading dimension, stride or batch count beyond what the
    /// kernels' index arithmetic or the launch grid can hold.
    #[error("{what} = {value} is too large (at most {max})")]
    DimensionTooLarge { what: &'static str, value: u64, max: u64 },
    /// A leading dimension smaller than the rows (or columns) it must span.
    #[error("leading dimension of {operand} is {ld}; its layout needs at least {min}")]
    BadLeadingDimension { operand: &'static str, ld: usize, min: usize },
    /// A device pointer not aligned to its element type (only possible
    /// through `DeviceSlice::from_raw_parts`); the kernels would fault.
    /// Alignment beyond the element (16 bytes for vector loads) is never
    /// required: kernels move such operands element by element instead.
    #[error("{operand} starts at device address {address:#x}, not aligned to its {align}-byte elements")]
    Misaligned { operand: &'static str, address: u64, align: usize },
    /// A buffer too short for the matrix (or batch) a view describes.
    #[error("{operand} needs {needed} elements, its buffer has {len}")]
    BufferTooSmall { operand: &'static str, needed: u64, len: usize },
    #[error("unknown {dtype} kernel '{name}'; available: {available}")]
    UnknownKernel { name: String, dtype: &'static str, available: String },
    #[error("unsupported dtype '{name}'; this build has kernels for: {supported}")]
    UnsupportedDtype { name: String, supported: String },
    /// A kernel called with buffers of another element type.
    #[error("kernel {kernel} computes {dtype}; the buffers hold {element}")]
    DtypeMismatch { kernel: &'static str, dtype: &'static str, element: &'static str },
    #[error("not enough device memory: {needed} bytes needed, {free} bytes free")]
    OutOfMemory { needed: u64, free: u64 },
    /// The device cannot run a kernel as compiled (too many threads per
    /// block for its register use, too much shared memory).
    #[error("kernel {kernel} cannot run on this device: {reason}")]
    Unsupported { kernel: String, reason: String },
    #[error("CUDA error during {during}: {source}")]
    Cuda {
        during: &'static str,
        #[source]
        source: CudaError,
    },
    /// A driver function that `cust` has no binding for (looked up with
    /// `cuGetProcAddress`) failed; `status` is the driver's `CUresult`.
    #[error("CUDA error during {during}: {status}")]
    Driver { during: &'static str, status: String },
    #[error("cuBLAS: {0}")]
    Cublas(String),
    #[error("tuning cache {path}: {reason}")]
    TuneCache { path: String, reason: String },
    /// A results file (`gemm sweep` CSV, JSON or plot) that could not be written.
    #[error("cannot write {path}: {reason}")]
    Output { path: String, reason: String },
}

pub type Result<T> = std::result::Result<T, GemmError>;

/// Attaches what was being done to a CUDA error: `.during("kernel launch")`.
pub trait During<T> {
    fn during(self, what: &'static str) -> Result<T>;
}

impl<T> During<T> for std::result::Result<T, CudaError> {
    fn during(self, what: &'static str) -> Result<T> {
        self.map_err(|source| GemmError::Cuda { during: what, source })
    }
}
