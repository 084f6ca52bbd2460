//! The public entry points on [`Gpu`]: one GEMM, or a strided batch of
//! them, from views to one kernel launch.

use crate::api::choice::{placeable, select};
use crate::api::options::{GemmOptions, KernelChoice};
use crate::api::plan::{check_alignment, plan};
use crate::api::views::{Batch, MatMut, MatRef};
use crate::driver::element::Element;
use crate::driver::error::Result;
use crate::driver::gpu::Gpu;
use gemm_launch::KernelSpec;

impl Gpu {
    /// `C = α·A·B + β·C`, enqueued on this GPU's stream; returns the kernel
    /// that runs it. [`Gpu::download`] (or a stream sync) waits for it.
    pub fn gemm<T: Element>(
        &self,
        options: &GemmOptions,
        a: MatRef<'_, T>,
        b: MatRef<'_, T>,
        c: MatMut<'_, T>,
    ) -> Result<&'static KernelSpec> {
        self.gemm_strided_batched(options, a, b, c, &Batch::single())
    }

    /// `batch.count` independent GEMMs, `C_i = α·A_i·B_i + β·C_i`, with
    /// `X_i` starting `i · batch.stride_x` elements after `X_0`: one launch
    /// (a few more when K is split, see [`GemmOptions::split_k`]; with α = 0
    /// only the scaling of C runs).
    pub fn gemm_strided_batched<T: Element>(
        &self,
        options: &GemmOptions,
        a: MatRef<'_, T>,
        b: MatRef<'_, T>,
        c: MatMut<'_, T>,
        batch: &Batch,
    ) -> Result<&'static KernelSpec> {
        let plan = plan((&a.desc, a.data.len()), (&b.desc, b.data.len()), (&c.desc, c.data.len()), batch)?;
        for (operand, address) in [
            ("A", a.data.as_device_ptr().as_raw()),
            ("B", b.data.as_device_ptr().as_raw()),
            ("C", c.data.as_device_ptr().as_raw()),
        ] {
            check_alignment(operand, address, std::mem::size_of::<T>())?;
        }
        let (a_ptr, b_ptr) = if plan.swapped { (b.data, a.data) } else { (a.data, b.data) };
        let pointers =
            [a_ptr.as_device_ptr().as_raw(), b_ptr.as_device_ptr().as_raw(), c.data.as_device_ptr().as_raw()];
        let (mut spec, group_m) = select::<T>(options, &plan, pointers, &self.info)?;
        if matches!(options.kernel, KernelChoice::Auto) {
            spec = placeable(self, spec, plan.layout);
        }
        // The chosen tile order (a tuned one, with `KernelChoice::Auto`) for
        // every launch of the call, the split-K partials' included.
        let options = &GemmOptions { group_m, ..*options };
        if !self.gemm_special::<T>(options, &plan, spec, pointers)? {
            self.launch(spec, &plan, pointers, options.alpha, options.beta, options.group_m)?;
        }
        Ok(spec)
    }
}
