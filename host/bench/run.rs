//! Checking and timing kernels on one problem: fresh random inputs, an f64
//! reference, C poisoned with NaN before every checked launch, CUDA-event
//! timing, and cuBLAS on the same buffers and stream for the ratio.

use crate::api::split_k::{split_for, split_with_copies};
use crate::api::{GemmOptions, KernelChoice, MatMut, MatRef, SplitK};
use crate::bench::cublas::Cublas;
use crate::bench::matrix::Matrix;
use crate::bench::reference::Reference;
use crate::bench::timing::{Timing, gbytes_per_s, tflops, time_launches};
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::kernels::{Dtype, DtypeExt, short_name};
use crate::driver::trace;
use cust::memory::DeviceBuffer;
use gemm_launch::KernelSpec;
use gemm_launch::split_k::workspace_bytes;
use rand::Rng;

/// One GEMM problem on the device, with its reference: inputs of element
/// type `T`, computed as `dtype` (f32 buffers serve both F32 and TF32).
pub struct Problem<T: Element> {
    pub dtype: Dtype,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub reference: Reference,
    /// Whether calls may split K (`gemm --split-k`); `Auto` by default.
    pub split_k: SplitK,
    a: DeviceBuffer<T>,
    b: DeviceBuffer<T>,
    c: DeviceBuffer<T>,
}

/// One row of the results table (and one JSON line).
#[derive(Clone, Debug, serde::Serialize)]
pub struct RunResult {
    pub kernel: String,
    pub dtype: &'static str,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub group_m: u32,
    pub median_ms: f64,
    pub tflops: f64,
    pub rel_err: f64,
    pub ok: bool,
    pub device: String,
    /// cuBLAS on the same shape, in the same run (None if libcublas is absent).
    pub cublas_tflops: Option<f64>,
    pub pct_cublas: Option<f64>,
    /// Anything a reader must know about this row (e.g. a reduced shape).
    pub note: String,
    /// Memory-bound shapes (M or N ≤ 16) only: bytes of A, B and C once per
    /// second, and that as a percentage of the device's peak bandwidth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gbytes_per_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pct_bandwidth: Option<f64>,
}

impl RunResult {
    /// Fills [`RunResult::gbytes_per_s`] and [`RunResult::pct_bandwidth`]
    /// when the shape is memory bound (M or N at most
    /// `gemm_launch::memory_bound::MAX_SMALL_SIDE`).
    pub fn with_bandwidth(mut self, element_bytes: usize, peak_gbs: Option<f64>) -> Self {
        if self.m.min(self.n) <= gemm_launch::memory_bound::MAX_SMALL_SIDE as usize {
            let gbs = gbytes_per_s(self.m, self.n, self.k, element_bytes, self.median_ms);
            self.gbytes_per_s = Some(gbs);
            self.pct_bandwidth = peak_gbs.map(|peak| 100.0 * gbs / peak);
        }
        self
    }
}

/// cuBLAS's time and error on a problem.
#[derive(Clone, Debug)]
pub struct Baseline {
    pub timing: Timing,
    pub tflops: f64,
    pub rel_err: f64,
}

impl<T: Element> Problem<T> {
    /// Fresh N(0,1) inputs of the given shape on the device, rounded to `T`,
    /// and the reference computed from exactly those rounded values. Checks
    /// that A, B and C fit in free device memory first.
    pub fn new(gpu: &Gpu, dtype: Dtype, m: usize, n: usize, k: usize, rng: &mut impl Rng) -> Result<Self> {
        if !T::holds(dtype) {
            return Err(GemmError::DtypeMismatch {
                kernel: "problem",
                dtype: dtype.name(),
                element: std::any::type_name::<T>(),
            });
        }
        let elements = [m.checked_mul(k), k.checked_mul(n), m.checked_mul(n)];
        let total = elements.iter().try_fold(0usize, |acc, e| e.and_then(|e| acc.checked_add(e)));
        let total = total.ok_or_else(|| GemmError::Shape(format!("{m}×{n}×{k}: element count overflows")))?;
        crate::driver::kernels::check_shape(m, n, k, m * k, k * n, m * n)?;
        // Before drawing gigabytes of host inputs for a problem that cannot fit.
        gpu.ensure_free((total as u64).saturating_mul(std::mem::size_of::<T>() as u64))?;
        let (a_host, b_host) = trace::phase(
            || "random inputs".into(),
            || (Matrix::random(m, k, rng).rounded::<T>(), Matrix::random(k, n, rng).rounded::<T>()),
        );
        let (a, b, c) = trace::phase(
            || "upload A, B; poison C".into(),
            || -> Result<_> {
                let a = gpu.upload(&a_host.to_elements::<T>())?;
                let b = gpu.upload(&b_host.to_elements::<T>())?;
                Ok((a, b, gpu.alloc_poisoned(m * n)?))
            },
        )?;
        let reference = trace::phase(|| "f64 reference".into(), || Reference::new(&a_host, &b_host, rng));
        Ok(Problem { dtype, m, n, k, reference, split_k: SplitK::Auto, a, b, c })
    }

    /// C, copied back and widened to f32.
    fn result(&self, gpu: &Gpu) -> Result<Vec<f32>> {
        Ok(gpu.download(&self.c)?.into_iter().map(T::to_f32).collect())
    }

    /// Runs `spec` once on NaN-poisoned C and returns its relative error
    /// (NaN if any element of C was left unwritten or is not finite).
    pub fn check(&mut self, gpu: &Gpu, spec: &'static KernelSpec, group_m: Option<u32>) -> Result<f64> {
        gpu.poison(&mut self.c)?;
        self.launch(gpu, spec, group_m)?;
        Ok(self.reference.relative_error(&self.result(gpu)?))
    }

    /// Enqueues one launch of `spec` on the problem's buffers (no check).
    pub fn launch(&mut self, gpu: &Gpu, spec: &'static KernelSpec, group_m: Option<u32>) -> Result<()> {
        if spec.dtype != self.dtype {
            return Err(GemmError::DtypeMismatch {
                kernel: spec.name,
                dtype: spec.dtype.name(),
                element: self.dtype.name(),
            });
        }
        let options = self.options(spec, group_m);
        let (a, b) = (MatRef::row_major(&self.a, self.m, self.k), MatRef::row_major(&self.b, self.k, self.n));
        gpu.gemm(&options, a, b, MatMut::row_major(&mut self.c, self.m, self.n)).map(|_| ())
    }

    /// The options every call of `spec` on this problem uses.
    fn options(&self, spec: &'static KernelSpec, group_m: Option<u32>) -> GemmOptions {
        GemmOptions { kernel: KernelChoice::Kernel(spec), group_m, split_k: self.split_k, ..GemmOptions::default() }
    }

    /// Median time of `iters` back-to-back launches of `spec`.
    pub fn time(&mut self, gpu: &Gpu, spec: &'static KernelSpec, group_m: Option<u32>, iters: usize) -> Result<Timing> {
        time_launches(gpu.stream(), iters, || self.launch(gpu, spec, group_m))
    }

    /// Enqueues one cuBLAS GEMM on the problem's buffers (no check), for
    /// callers that time it themselves, as the criterion bench does.
    pub fn launch_cublas(&mut self, cublas: &Cublas) -> Result<()> {
        cublas.gemm(self.dtype, &self.a, &self.b, &mut self.c, self.m, self.n, self.k)
    }

    /// Checks and times cuBLAS on this problem.
    pub fn baseline(&mut self, gpu: &Gpu, cublas: &Cublas, iters: usize) -> Result<Baseline> {
        let (dtype, m, n, k) = (self.dtype, self.m, self.n, self.k);
        gpu.poison(&mut self.c)?;
        cublas.gemm(dtype, &self.a, &self.b, &mut self.c, m, n, k)?;
        let rel_err = self.reference.relative_error(&self.result(gpu)?);
        let (a, b, c) = (&self.a, &self.b, &mut self.c);
        let timing = time_launches(gpu.stream(), iters, || cublas.gemm(dtype, a, b, c, m, n, k))?;
        Ok(Baseline { tflops: tflops(m, n, k, timing.median_ms), timing, rel_err })
    }

    /// Checks, then times, one kernel; the row for the table.
    pub fn run(
        &mut self,
        gpu: &Gpu,
        spec: &'static KernelSpec,
        group_m: Option<u32>,
        iters: usize,
        baseline: Option<&Baseline>,
    ) -> Result<RunResult> {
        let dtype = self.dtype;
        let rel_err = self.check(gpu, spec, group_m)?;
        let timing = self.time(gpu, spec, group_m, iters)?;
        let tf = tflops(self.m, self.n, self.k, timing.median_ms);
        // The split the timed call ran (the packed operands' plan), as
        // `Gpu::gemm_workspace_bytes` would size it.
        let plan = crate::driver::tensor_map::packed_plan(self.m, self.n, self.k);
        let resident = |s| gpu.resident_blocks(s, plan.layout);
        let options = self.options(spec, group_m);
        let split = split_for(&options, &plan, spec, gpu.info.multiprocessors as u32, resident)?;
        // As it runs: evened out where both operands are copied (`split_with_copies`).
        let even_out = options.split_k == SplitK::Auto;
        let split =
            split.map(|(split, partials)| (split_with_copies(&plan, split, partials, [0; 3], even_out).0, partials));
        let note = match split {
            Some((split, partials)) => format!(
                "split-K: {} chunks of {} on {}, {:.1} MiB workspace",
                split.splits,
                split.chunk,
                short_name(partials),
                workspace_bytes(split, plan.m, plan.n, plan.batch) as f64 / (1 << 20) as f64
            ),
            None => String::new(),
        };
        Ok(RunResult {
            kernel: short_name(spec).to_string(),
            dtype: dtype.name(),
            m: self.m,
            n: self.n,
            k: self.k,
            group_m: group_m.unwrap_or(spec.default_group_m),
            median_ms: timing.median_ms,
            tflops: tf,
            rel_err,
            ok: dtype.accepts(rel_err, self.k),
            device: gpu.info.name.clone(),
            cublas_tflops: baseline.map(|b| b.tflops),
            pct_cublas: baseline.map(|b| 100.0 * tf / b.tflops),
            note,
            gbytes_per_s: None,
            pct_bandwidth: None,
        }
        .with_bandwidth(std::mem::size_of::<T>(), gpu.info.peak_bandwidth_gbs))
    }
}
