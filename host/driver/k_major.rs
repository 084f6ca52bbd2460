//! Calls to a K-major kernel (`Layouts::KMajor`: TF32 step 10b, whose
//! `wgmma` reads only K-major operands and whose TMA cannot transpose 4-byte
//! elements) in any layout: the MN-major operands (a row-major B, a
//! column-major A) are copied transposed into a scratch buffer the [`Gpu`]
//! owns, and the kernel's NT entry runs on the copies. The copies are packed
//! (leading dimension K) and start 256-byte aligned, so the TMA takes them
//! whenever K·4 is a multiple of 16.
//!
//! The copy costs 8 bytes of memory traffic per element of the operand, on
//! the same stream, before the GEMM: at 8192×4096×6144 B is 100 MB, about
//! 0.07 ms against ~1.2 ms of TF32 GEMM.

use crate::driver::error::Result;
use crate::driver::gpu::Gpu;
use crate::driver::launch::Plan;
use cust::function::GridSize;
use gemm_launch::k_major::{self, TRANSPOSE_F32};
use gemm_launch::{KernelSpec, OperandLayout};
use std::ffi::c_void;

/// A K-major kernel's view of a call: the plan of the NT launch, and for
/// each of A and B whether it is a transposed copy (then packed `[rows][k]`,
/// at the byte offset given in the scratch buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KMajorCall {
    pub plan: Plan,
    /// Byte offsets in the scratch buffer of the copies of A and B.
    pub copies: [Option<u64>; 2],
    /// Bytes of scratch the copies take.
    pub scratch_bytes: u64,
}

/// How `spec` runs `plan`: `None` when its entry takes the plan's layout as
/// it is (every kernel but the K-major ones, and those on NT calls).
pub fn k_major_call(spec: &KernelSpec, plan: &Plan) -> Option<KMajorCall> {
    let entry = spec.entry_layout(plan.layout);
    if entry == plan.layout {
        return None;
    }
    debug_assert_eq!(entry, OperandLayout::NT);
    let bytes = spec.dtype.element_bytes() as u64;
    let (m, n, k, batch) = (plan.m as u64, plan.n as u64, plan.k as u64, plan.batch as u64);
    let mut new = Plan { layout: OperandLayout::NT, ..*plan };
    let mut scratch = 0u64;
    let mut copy = |rows: u64| {
        let at = scratch;
        scratch = (scratch + rows * k * batch * bytes).next_multiple_of(256);
        at
    };
    let a = plan.layout.a_col_major.then(|| {
        (new.lda, new.stride_a) = (plan.k, if batch > 1 { m * k } else { 0 });
        copy(m)
    });
    let b = (!plan.layout.b_col_major).then(|| {
        (new.ldb, new.stride_b) = (plan.k, if batch > 1 { n * k } else { 0 });
        copy(n)
    });
    Some(KMajorCall { plan: new, copies: [a, b], scratch_bytes: scratch })
}

impl Gpu {
    /// Makes the copies of `call` from the kernel's operands at `pointers`
    /// (`plan`: the call as given) into the scratch buffer, on the stream,
    /// and runs `launch` with the NT plan and the copies' addresses while the
    /// buffer is held (another call's copies cannot overwrite it before this
    /// call's kernel has read it: they queue behind it on the same stream).
    pub(crate) fn with_k_major_copies<R>(
        &self,
        plan: &Plan,
        call: &KMajorCall,
        pointers: [u64; 3],
        launch: impl FnOnce(&Plan, [u64; 3]) -> Result<R>,
    ) -> Result<R> {
        let mut scratch = self.k_major_scratch.lock().unwrap_or_else(|e| e.into_inner());
        let base = self.grow_buffer(&mut scratch, call.scratch_bytes)?;
        let mut addresses = pointers;
        // Source of each copy: rows × cols (row-major view, leading dimension
        // `ld`) = K × M for a column-major A, K × N for a row-major B.
        let sources = [(plan.m, plan.lda, plan.stride_a), (plan.n, plan.ldb, plan.stride_b)];
        for (operand, (copy, (cols, ld, stride))) in call.copies.iter().zip(sources).enumerate() {
            let Some(offset) = copy else { continue };
            let (mut src, mut dst) = (pointers[operand], base + offset);
            let (mut rows, mut cols, mut ld) = (plan.k, cols, ld);
            let (mut src_stride, mut dst_stride) = (stride, cols as u64 * plan.k as u64);
            let args: [*mut c_void; 7] = [
                &mut src as *mut _ as *mut c_void,
                &mut dst as *mut _ as *mut c_void,
                &mut rows as *mut _ as *mut c_void,
                &mut cols as *mut _ as *mut c_void,
                &mut ld as *mut _ as *mut c_void,
                &mut src_stride as *mut _ as *mut c_void,
                &mut dst_stride as *mut _ as *mut c_void,
            ];
            let grid = GridSize::xyz(k_major::blocks(plan.k, cols), 1, plan.batch);
            self.launch_sm80(TRANSPOSE_F32, grid, k_major::THREADS, k_major::SMEM_BYTES, &args)?;
            addresses[operand] = dst;
        }
        launch(&call.plan, addresses)
    }
}
