//! cuBLAS, loaded at run time (no link-time dependency: builds and CI need no
//! CUDA toolkit), driven on the same context, stream and buffers as our
//! kernels so that both are timed the same way.
//!
//! Row-major `C = A · B` is column-major `Cᵀ = Bᵀ · Aᵀ`: cuBLAS is called
//! with the operands swapped and no transposition.
//!
//! Loading is two steps so that the slow one can overlap the CUDA driver's
//! start: [`CublasLibrary::open`] (the shared libraries, ~0.6 GB with
//! cuBLASLt; needs no GPU) and [`CublasLibrary::create`] (the handle, on
//! the current context). [`Cublas::load`] does both.

use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::kernels::Dtype;
use crate::driver::trace;
use cust::memory::DeviceSlice;
use cust::stream::Stream;
use libloading::{Library, Symbol};
use std::ffi::c_void;

type Handle = *mut c_void;
type Status = i32;
const CUBLAS_OP_N: i32 = 0;
const CUBLAS_DEFAULT_MATH: i32 = 0;
// cudaDataType_t, cublasComputeType_t, cublasGemmAlgo_t values (cuBLAS headers).
const CUDA_R_32F: i32 = 0;
const CUDA_R_16F: i32 = 2;
const CUDA_R_16BF: i32 = 14;
const CUBLAS_COMPUTE_32F: i32 = 68;
const CUBLAS_COMPUTE_32F_FAST_TF32: i32 = 77;
const CUBLAS_GEMM_DEFAULT: i32 = -1;

/// Library names tried in order; `RGEMM_CUBLAS` (a path) goes first.
const CANDIDATES: &[&str] =
    &["libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so"];

type CreateFn = unsafe extern "C" fn(*mut Handle) -> Status;
type DestroyFn = unsafe extern "C" fn(Handle) -> Status;
type SetStreamFn = unsafe extern "C" fn(Handle, *mut c_void) -> Status;
type SetMathModeFn = unsafe extern "C" fn(Handle, i32) -> Status;
#[allow(clippy::upper_case_acronyms)]
type SgemmFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const f32,
    u64,
    i32,
    u64,
    i32,
    *const f32,
    u64,
    i32,
) -> Status;
/// `cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B,
/// Btype, ldb, beta, C, Ctype, ldc, computeType, algo)`.
type GemmExFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const c_void,
    u64,
    i32,
    i32,
    u64,
    i32,
    i32,
    *const c_void,
    u64,
    i32,
    i32,
    i32,
    i32,
) -> Status;

/// libcublas, opened, with the entry points this module calls; no handle
/// yet, no CUDA call made.
pub struct CublasLibrary {
    create: CreateFn,
    set_stream: SetStreamFn,
    set_math: SetMathModeFn,
    sgemm: SgemmFn,
    gemm_ex: GemmExFn,
    destroy: DestroyFn,
    // Keeps the symbols above valid; dropped last.
    lib: Library,
}

/// A cuBLAS handle bound to one stream.
pub struct Cublas {
    handle: Handle,
    sgemm: SgemmFn,
    gemm_ex: GemmExFn,
    destroy: DestroyFn,
    // Keeps the symbols above valid; dropped last.
    _lib: Library,
}

// A cuBLAS handle may move to another thread (cuBLAS: a handle is bound to
// a context, not a thread; the caller makes that context current there). It
// is not `Sync`: calls on one handle from several threads at once would race.
unsafe impl Send for Cublas {}

fn check(status: Status, what: &str) -> Result<()> {
    if status == 0 { Ok(()) } else { Err(GemmError::Cublas(format!("{what} returned status {status}"))) }
}

impl CublasLibrary {
    /// Opens libcublas (`RGEMM_CUBLAS`, a path, first; then the usual
    /// names) and looks up its entry points. Needs no GPU or context, so it
    /// can run while the driver starts.
    pub fn open() -> Result<Self> {
        trace::phase(|| "open libcublas (dlopen, symbols)".into(), Self::open_now)
    }

    fn open_now() -> Result<Self> {
        let env = std::env::var("RGEMM_CUBLAS").ok();
        let names = env.iter().map(String::as_str).chain(CANDIDATES.iter().copied());
        let lib = names
            .filter_map(|name| unsafe { Library::new(name) }.ok())
            .next()
            .ok_or_else(|| GemmError::Cublas("libcublas not found (set RGEMM_CUBLAS to its path)".into()))?;
        unsafe {
            let sym = |name: &[u8]| -> Result<*const c_void> {
                let s: Symbol<*const c_void> = lib
                    .get(name)
                    .map_err(|e| GemmError::Cublas(format!("missing symbol {}: {e}", String::from_utf8_lossy(name))))?;
                Ok(*s)
            };
            Ok(CublasLibrary {
                create: std::mem::transmute::<*const c_void, CreateFn>(sym(b"cublasCreate_v2\0")?),
                destroy: std::mem::transmute::<*const c_void, DestroyFn>(sym(b"cublasDestroy_v2\0")?),
                set_stream: std::mem::transmute::<*const c_void, SetStreamFn>(sym(b"cublasSetStream_v2\0")?),
                set_math: std::mem::transmute::<*const c_void, SetMathModeFn>(sym(b"cublasSetMathMode\0")?),
                sgemm: std::mem::transmute::<*const c_void, SgemmFn>(sym(b"cublasSgemm_v2\0")?),
                gemm_ex: std::mem::transmute::<*const c_void, GemmExFn>(sym(b"cublasGemmEx\0")?),
                lib,
            })
        }
    }

    /// Creates a handle on the calling thread's current context, bound to
    /// `stream`, in default math mode (no TF32 for f32).
    pub fn create(self, stream: &Stream) -> Result<Cublas> {
        trace::phase(
            || "cublasCreate (handle on our context and stream)".into(),
            || unsafe {
                let mut handle: Handle = std::ptr::null_mut();
                check((self.create)(&mut handle), "cublasCreate")?;
                let cublas =
                    Cublas { handle, sgemm: self.sgemm, gemm_ex: self.gemm_ex, destroy: self.destroy, _lib: self.lib };
                check((self.set_stream)(handle, stream.as_inner() as *mut c_void), "cublasSetStream")?;
                check((self.set_math)(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode")?;
                Ok(cublas)
            },
        )
    }
}

impl Cublas {
    /// Loads libcublas and creates a handle on the current context, bound to
    /// `stream`, in default math mode (no TF32 for f32).
    pub fn load(stream: &Stream) -> Result<Self> {
        CublasLibrary::open()?.create(stream)
    }

    /// Enqueues row-major `C = A · B` (`A: m×k`, `B: k×n`) computed as
    /// `dtype` says: f32 exactly (`cublasSgemm`), TF32 (`cublasGemmEx` with
    /// the fast-TF32 compute type), f16 or bf16 with f32 accumulation.
    #[allow(clippy::too_many_arguments)]
    pub fn gemm<T: Element>(
        &self,
        dtype: Dtype,
        a: &DeviceSlice<T>,
        b: &DeviceSlice<T>,
        c: &mut DeviceSlice<T>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        crate::driver::kernels::check_shape(m, n, k, a.len(), b.len(), c.len())?;
        if !T::holds(dtype) {
            return Err(GemmError::Cublas(format!(
                "{} buffers cannot hold {}",
                std::any::type_name::<T>(),
                dtype.name()
            )));
        }
        let dim =
            |d: usize| i32::try_from(d).map_err(|_| GemmError::Cublas(format!("dimension {d} exceeds cuBLAS's int")));
        let (m, n, k) = (dim(m)?, dim(n)?, dim(k)?);
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pa, pb, pc) = (a.as_device_ptr().as_raw(), b.as_device_ptr().as_raw(), c.as_device_ptr().as_raw());
        // Swapped operands: column-major Cᵀ (n×m) = Bᵀ (n×k) · Aᵀ (k×m).
        let status = unsafe {
            match dtype {
                Dtype::F32 => {
                    (self.sgemm)(self.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, pb, n, pa, k, &beta, pc, n)
                }
                _ => {
                    let (ty, compute) = match dtype {
                        Dtype::Tf32 => (CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32),
                        Dtype::F16 => (CUDA_R_16F, CUBLAS_COMPUTE_32F),
                        _ => (CUDA_R_16BF, CUBLAS_COMPUTE_32F),
                    };
                    let (alpha, beta) = (&alpha as *const f32 as *const c_void, &beta as *const f32 as *const c_void);
                    (self.gemm_ex)(
                        self.handle,
                        CUBLAS_OP_N,
                        CUBLAS_OP_N,
                        n,
                        m,
                        k,
                        alpha,
                        pb,
                        ty,
                        n,
                        pa,
                        ty,
                        k,
                        beta,
                        pc,
                        ty,
                        n,
                        compute,
                        CUBLAS_GEMM_DEFAULT,
                    )
                }
            }
        };
        check(status, if dtype == Dtype::F32 { "cublasSgemm" } else { "cublasGemmEx" })
    }
}

impl Drop for Cublas {
    fn drop(&mut self) {
        unsafe { (self.destroy)(self.handle) };
    }
}
