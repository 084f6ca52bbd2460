//! The kernel ABI: the one PTX entry signature every kernel has (what the
//! host launches, looked up by name), the [`Gemm`] it is gathered into,
//! element offsets and bounds-checked scalar access for the edges of the
//! matrices, and [`kernel_entries!`], the one macro that writes the
//! `extern "ptx-kernel"` entry points.
//!
//! Rows, columns and dimensions are u32 (the launcher checks they fit); only
//! the element offset `row · ld + col` is 64-bit, formed by one widening
//! multiply-add. Index math and bounds tests in 64 bits would cost twice the
//! instructions and registers, and the registers decide how many blocks fit
//! on a multiprocessor.

use crate::device::fma;

/// Offset of element (row, col) of a row-major matrix with leading dimension
/// `ld`, in 64 bits (`mul.wide.u32` + add), so matrices past 2^32 elements work.
#[inline(always)]
pub fn at(row: u32, ld: u32, col: u32) -> usize {
    row as usize * ld as usize + col as usize
}

/// Whether a matrix at byte address `base` with `ld` elements of `bytes`
/// between rows has every row on a 16-byte boundary.
#[inline(always)]
fn rows_aligned(base: usize, ld: u32, bytes: usize) -> bool {
    base.is_multiple_of(16) && (ld as usize * bytes).is_multiple_of(16)
}

/// The epilogue's arithmetic, `C = α·acc + β·C`.
#[derive(Clone, Copy)]
pub struct Scale {
    pub alpha: f32,
    pub beta: f32,
}

impl Scale {
    /// `α·acc + β·old()`. With β = 0, C is never read: BLAS semantics, so C
    /// may be uninitialized (or NaN) on entry. The test is uniform.
    #[inline(always)]
    pub fn apply(self, acc: f32, old: impl FnOnce() -> f32) -> f32 {
        if self.beta == 0.0 { self.alpha * acc } else { fma(self.beta, old(), self.alpha * acc) }
    }

    /// Whether C must be read.
    #[inline(always)]
    pub fn reads_c(self) -> bool {
        self.beta != 0.0
    }
}

/// One GEMM, `C = α·A·B + β·C`, as every kernel receives it: A is `m × k`,
/// B `k × n`, C `m × n`, each with its leading dimension (elements between
/// consecutive rows, or columns for a column-major operand). `In` is the
/// element type of A and B, `Out` that of C.
#[derive(Clone, Copy)]
pub struct Gemm<In, Out> {
    pub a: *const In,
    pub b: *const In,
    pub c: *mut Out,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
    pub scale: Scale,
    pub group_m: u32,
    /// Device address of the TMA tensor maps of A, B and C (128 bytes each,
    /// built by the host per call) for the kernels that copy with the TMA;
    /// 0 for the others (all of them in the sm_80 module).
    #[cfg_attr(not(rgemm_sm90a), allow(dead_code))]
    pub tensor_maps: u64,
    /// Whether the maps' address held other maps before in this process
    /// (the host knows: `host/driver/gpu.rs`): the TMA's descriptor cache
    /// may then still hold the old ones, and each block fences before its
    /// first copy (`fence_tensormap_acquire`). At a fresh address no fence
    /// is needed, and it costs ~3 µs a launch (PERF step 51).
    #[cfg_attr(not(rgemm_sm90a), allow(dead_code))]
    pub fence_tensor_maps: bool,
}

impl<In, Out> Gemm<In, Out> {
    /// Offset of A(row, p): `row·lda + p`, or `p·lda + row` when A is
    /// column-major (`A_T`).
    #[inline(always)]
    pub fn a_at<const A_T: bool>(&self, row: u32, p: u32) -> usize {
        if A_T { at(p, self.lda, row) } else { at(row, self.lda, p) }
    }

    /// Offset of B(p, col): `p·ldb + col`, or `col·ldb + p` when B is
    /// column-major (`B_T`).
    #[inline(always)]
    pub fn b_at<const B_T: bool>(&self, p: u32, col: u32) -> usize {
        if B_T { at(col, self.ldb, p) } else { at(p, self.ldb, col) }
    }

    /// Offset of C(row, col).
    #[inline(always)]
    pub fn c_at(&self, row: u32, col: u32) -> usize {
        at(row, self.ldc, col)
    }

    /// Whether every row (column, if column-major) of A starts on a 16-byte
    /// boundary, so that it can be moved 16 bytes at a time; else the
    /// kernels move it element by element. Uniform across the block.
    #[inline(always)]
    pub fn a_aligned(&self) -> bool {
        rows_aligned(self.a as usize, self.lda, core::mem::size_of::<In>())
    }

    /// As [`Gemm::a_aligned`], for B.
    #[inline(always)]
    pub fn b_aligned(&self) -> bool {
        rows_aligned(self.b as usize, self.ldb, core::mem::size_of::<In>())
    }

    /// As [`Gemm::a_aligned`], for C.
    #[inline(always)]
    pub fn c_aligned(&self) -> bool {
        rows_aligned(self.c as usize, self.ldc, core::mem::size_of::<Out>())
    }

    /// Whether the TMA may store C: its rows are 16-byte aligned
    /// ([`Gemm::c_aligned`]) and `n` elements are whole 16-byte pieces, so a
    /// row's last piece holds no element of the padding after it (the
    /// TMA's bounds are not known to be finer than that). The host's
    /// `c_map_usable` is the same test.
    #[cfg_attr(not(rgemm_sm90a), allow(dead_code))]
    #[inline(always)]
    pub fn c_tma_storable(&self) -> bool {
        self.c_aligned() && (self.n as usize * core::mem::size_of::<Out>()).is_multiple_of(16)
    }
}

impl Gemm<f32, f32> {
    /// A(row, p), or 0 outside `m × k`.
    ///
    /// # Safety
    /// A must hold the operand the launch describes.
    #[inline(always)]
    pub unsafe fn a_or_zero<const A_T: bool>(&self, row: u32, p: u32) -> f32 {
        if row < self.m && p < self.k { unsafe { *self.a.add(self.a_at::<A_T>(row, p)) } } else { 0.0 }
    }

    /// B(p, col), or 0 outside `k × n`.
    ///
    /// # Safety
    /// B must hold the operand the launch describes.
    #[inline(always)]
    pub unsafe fn b_or_zero<const B_T: bool>(&self, p: u32, col: u32) -> f32 {
        if p < self.k && col < self.n { unsafe { *self.b.add(self.b_at::<B_T>(p, col)) } } else { 0.0 }
    }
}

impl<In> Gemm<In, f32> {
    /// Writes `α·acc + β·C(row, col)` to C(row, col) if it is inside C.
    ///
    /// # Safety
    /// C must hold the operand the launch describes.
    #[inline(always)]
    pub unsafe fn store_c(&self, row: u32, col: u32, acc: f32) {
        if row < self.m && col < self.n {
            let p = unsafe { self.c.add(self.c_at(row, col)) };
            unsafe { *p = self.scale.apply(acc, || *p) };
        }
    }
}

/// Writes the PTX entry points of one `KernelSpec`: `extern "ptx-kernel"`
/// functions with the one signature below, one per operand layout the spec
/// supports (`row_major`: the spec's name; `any`: also `_nt`, `_tn`, `_tt`,
/// see `gemm_launch::OperandLayout`; `k_major`: `_nt` only, both operands
/// K-major, the host transposing the others' first; `n_major_b`: the
/// spec's name only, row-major A and B, the host transposing the others'). Each entry moves A, B and C to matrix
/// `%ctaid.z` of a strided batch, gathers the arguments into a [`Gemm`] and
/// calls the kernel with the const generic parameters its family takes from
/// the spec, `A_T`/`B_T` being the layout (const bools):
///
/// ```text
/// kernel_entries!(simple naive, sgemm_naive, gemm_launch::NAIVE, any);        // steps 1–4
/// kernel_entries!(staged vectorized, sgemm_vec4, gemm_launch::VECTORIZED, row_major); // 5–7
/// kernel_entries!(warp_tiled warp_tiled, sgemm_wt_…, gemm_launch::WT_…, any);         // 7b
/// kernel_entries!(warp_tiled_async warp_tiled_async, sgemm_wt_async_…, …, row_major); // 7c
/// kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_…, gemm_launch::MMA_…, any);  // 8
/// kernel_entries!(mma_tf32 tensor_core_tf32, tgemm_mma_…, …, any);                   // 8b
/// kernel_entries!(wgmma wgmma_kernel<F16>, hgemm_wgmma_…, …, any);                   // 9
/// kernel_entries!(wgmma_tf32 wgmma_tf32<[f32; 128]>, tgemm_wgmma_…, …, row_major);   // 9b
/// kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ws_…, …, any); // 10
/// kernel_entries!(memory_bound skinny<F32, f32>, sgemm_skinny_r1, …, any);          // M or N ≤ 16
/// ```
macro_rules! kernel_entries {
    // Steps 1–4 (f32): the tile.
    (simple $kernel:ident, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, f32 => f32, $layouts, |p, A_T, B_T| {
            const T: gemm_launch::Tile = $spec.tile;
            $kernel::<{ T.bm as usize }, { T.bn as usize }, { T.bk as usize }, { T.tm as usize }, { T.tn as usize }, A_T, B_T>(p)
        });
    };
    // Steps 5–7 (f32): the tile, the thread count, the number of 4-wide A
    // and B chunks each thread moves per K slice, and the number of stages.
    (staged $kernel:ident, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, f32 => f32, $layouts, |p, A_T, B_T| {
            const T: gemm_launch::Tile = $spec.tile;
            $kernel::<
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { T.tm as usize },
                { T.tn as usize },
                { T.threads() as usize },
                { (T.bm * T.bk / 4 / T.threads()) as usize },
                { (T.bk * T.bn / 4 / T.threads()) as usize },
                { $spec.stages as usize },
                A_T,
                B_T,
            >(p)
        });
    };
    // Step 7b (f32, warp-tiled): the block tile, the warp tile (the spec's
    // `tm × tn`), each lane's outputs, the thread count, the 4-wide A and
    // B chunks each thread moves per K slice, whether the registers allow
    // the unchecked main loop (not under a 128-register cap), and the FMA
    // order, and whether the entry is the one for C's rows off 16 bytes.
    // Step 7c (`warp_tiled_async`, a `cp.async` ring) takes the spec's stage
    // count in place of the unchecked-loop switch.
    (warp_tiled $kernel:ident, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@warp_tiled $kernel, $name, $spec, $layouts, {
            assert!(SPEC.stages == 2, "two register-staged stages");
            SPEC.has_unchecked_loop()
        });
    };
    (warp_tiled_async $kernel:ident, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@warp_tiled $kernel, $name, $spec, $layouts, { SPEC.stages as usize });
    };
    (@warp_tiled $kernel:ident, $name:ident, $spec:path, $layouts:ident, $variant:block) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, f32 => f32, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            $kernel::<
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { T.tm as usize },
                { T.tn as usize },
                { (T.tm / gemm_launch::WARP_LANES_M) as usize },
                { (T.tn / gemm_launch::WARP_LANES_N) as usize },
                { SPEC.threads() as usize },
                { (T.bm * T.bk / 4 / SPEC.threads()) as usize },
                { (T.bk * T.bn / 4 / SPEC.threads()) as usize },
                $variant,
                { SPEC.features.serpentine_fma },
                A_T,
                B_T,
                { SPEC.features.c_rows_off_16_bytes },
            >(p)
        });
    };
    // Step 8 (f16/bf16 `mma.sync`): element type, C's type (`u16`, or `f32`
    // for the f32-output twins), block and warp tile, the warp tile in 16×16
    // pieces, stages and the spec's features.
    (mma $kernel:ident<$element:ty, $out:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, u16 => $out, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            const _: () = assert!(
                SPEC.features.f32_output == (core::mem::size_of::<$out>() == 4),
                "C's type is the spec's (Features::f32_output)"
            );
            $kernel::<
                $element,
                $out,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { T.tm as usize },
                { T.tn as usize },
                { SPEC.threads() as usize },
                { T.tm as usize / 16 },
                { T.tn as usize / 16 },
                { SPEC.stages as usize },
                { SPEC.features.ldmatrix },
                { SPEC.features.swizzle },
                { SPEC.features.staged_epilogue },
                A_T,
                B_T,
            >(p)
        });
    };
    // Step 8b (TF32 `mma.sync`): block and warp tile, the warp tile in 16×8
    // pieces, stages.
    (mma_tf32 $kernel:ident, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, u32 => f32, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            $kernel::<
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { T.tm as usize },
                { T.tn as usize },
                { SPEC.threads() as usize },
                { T.tm as usize / 16 },
                { T.tn as usize / 8 },
                { SPEC.stages as usize },
                A_T,
                B_T,
            >(p)
        });
    };
    // Step 9 (f16/bf16 `wgmma`): element type, block tile, threads, stages.
    (wgmma $kernel:ident<$element:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, u16 => u16, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            $kernel::<
                $element,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { SPEC.threads() as usize },
                { SPEC.stages as usize },
                A_T,
                B_T,
            >(p)
        });
    };
    // Step 9b (TF32 `wgmma`, row-major only): accumulator type, block tile,
    // threads, stages, 64-row tiles per warpgroup.
    (wgmma_tf32 $kernel:ident<$acc:ty>, $name:ident, $spec:path, row_major) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, u32 => f32, row_major, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            const { assert!(!A_T && !B_T) };
            $kernel::<
                $acc,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { SPEC.threads() as usize },
                { SPEC.stages as usize },
                { (T.tm / 64) as usize },
            >(p)
        });
    };
    // Steps 10 and 10b (f16/bf16/TF32, warp-specialized): element type
    // (its A/B and C types), accumulator type (the block tile's width),
    // block tile, threads, stages, whether C leaves through the TMA, blocks
    // per cluster, blocks per SM, stream-K, B read by residue, a split's
    // shorter last chunk read through maps of its own.
    (warp_specialized $kernel:ident<$element:ty, $acc:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, <$element as WsElement>::In => <$element as WsElement>::Out, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            const _: () = assert!(
                SPEC.features.f32_output
                    == (core::mem::size_of::<<$element as WsElement>::Out>() == 4 && SPEC.dtype.element_bytes() == 2),
                "C's type is the spec's (Features::f32_output)"
            );
            $kernel::<
                $element,
                $acc,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { SPEC.threads() as usize },
                { SPEC.stages as usize },
                { gemm_launch::tma::c_staged_boxes(&SPEC) as usize },
                { SPEC.cluster_blocks() as usize },
                { SPEC.min_blocks_per_sm as usize },
                { SPEC.features.stream_k },
                { SPEC.features.b_rows_by_residue },
                { SPEC.takes_k_last() },
                A_T,
                B_T,
            >(p)
        });
    };
    // M or N ≤ 16 (memory-bound): element type as computed and as stored
    // (C's too, unless given: f32 for a 16-bit kernel's split-K partials),
    // rows of the small side per block, vector width, lanes along the long
    // side and loads in flight per thread (`gemm_launch::memory_bound`).
    (memory_bound $kernel:ident<$element:ty, $raw:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(memory_bound $kernel<$element, $raw => $raw>, $name, $spec, $layouts);
    };
    (memory_bound $kernel:ident<$element:ty, $raw:ty => $out:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, $raw => $out, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const _: () = assert!(
                SPEC.features.f32_output
                    == (core::mem::size_of::<$out>() == 4 && SPEC.dtype.element_bytes() == 2),
                "C's type is the spec's (Features::f32_output)"
            );
            use gemm_launch::memory_bound as mb;
            $kernel::<
                $element,
                { SPEC.tile.bm as usize },
                { mb::vec(SPEC.dtype) as usize },
                { mb::lanes_along_l(SPEC.dtype) as usize },
                { mb::unroll_along_l(SPEC.dtype, SPEC.tile.bm) as usize },
                A_T,
                B_T,
            >(p)
        });
    };
    // The memory-bound path on tensor cores (step 86): element type as
    // computed and as stored, rows of the small side per block.
    (memory_bound_mma $kernel:ident<$element:ty, $raw:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(memory_bound_mma $kernel<$element, $raw => $raw>, $name, $spec, $layouts);
    };
    (memory_bound_mma $kernel:ident<$element:ty, $raw:ty => $out:ty>, $name:ident, $spec:path, $layouts:ident) => {
        $crate::kernel_abi::kernel_entries!(@layouts $name, $spec, $raw => $out, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const _: () = assert!(gemm_launch::memory_bound::on_tensor_cores(&SPEC));
            // Step 86's K step, four lanes' 16 bytes: the `tile.bk` that marks
            // the memory-bound tensor-core specs (`on_tensor_cores`); step
            // 104's warp step is its own (`ALONG_L_ROWS` per lane quad).
            const _: () = assert!(SPEC.tile.bk as usize == 4 * 16 / core::mem::size_of::<$raw>());
            const _: () = assert!(
                SPEC.features.f32_output
                    == (core::mem::size_of::<$out>() == 4 && SPEC.dtype.element_bytes() == 2),
                "C's type is the spec's (Features::f32_output)"
            );
            $kernel::<$element, { SPEC.tile.bm as usize }, { SPEC.tile.bm as usize / 8 }, A_T, B_T>(p)
        });
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, row_major, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::RowMajor), "the spec says any layout");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "", false, false, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, k_major, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::KMajor), "the spec says otherwise");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_nt", false, true, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, n_major_b, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::NMajorB), "the spec says otherwise");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "", false, false, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, along_k, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::AlongK), "the spec says otherwise");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "", false, false, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_nt", false, true, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_tt", true, true, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, along_l, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::AlongL), "the spec says otherwise");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "", false, false, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_tn", true, false, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_tt", true, true, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@layouts $name:ident, $spec:path, $in:ty => $out:ty, any, |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            const _: () = assert!(matches!($spec.layouts, gemm_launch::Layouts::Any), "the spec says row-major only");
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "", false, false, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_nt", false, true, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_tn", true, false, $in => $out, |$p, $a_t, $b_t| $call);
            $crate::kernel_abi::kernel_entries!(@entry $name, $spec, "_tt", true, true, $in => $out, |$p, $a_t, $b_t| $call);
        }
    };
    (@entry $name:ident, $spec:path, $suffix:literal, $a:literal, $b:literal, $in:ty => $out:ty,
     |$p:ident, $a_t:ident, $b_t:ident| $call:expr) => {
        const _: () = {
            /// PTX entry point; see the generic kernel for the algorithm.
            ///
            /// # Safety
            /// `a`, `b`, `c` must hold `batch` matrices `stride_*` elements
            /// apart, each `m×k`, `k×n`, `m×n` with leading dimensions
            /// `lda`, `ldb`, `ldc`, 16-byte aligned (for a kernel that
            /// `takes_k_last`, the last matrix `k_last` deep instead of `k`:
            /// a split's shorter last chunk in the same launch), and the
            /// launch must use the spec's block, grid (z: the batch) and
            /// shared memory (`gemm_launch::KernelSpec`).
            #[unsafe(export_name = concat!(stringify!($name), $suffix))]
            #[allow(clippy::too_many_arguments)]
            pub unsafe extern "ptx-kernel" fn entry(
                a: *const $in,
                b: *const $in,
                c: *mut $out,
                m: u32,
                n: u32,
                k: u32,
                lda: u32,
                ldb: u32,
                ldc: u32,
                alpha: f32,
                beta: f32,
                stride_a: u64,
                stride_b: u64,
                stride_c: u64,
                group_m: u32,
                tensor_maps: u64,
                tensor_maps_reused: u32,
                k_last: u32,
            ) {
                #[allow(non_upper_case_globals)]
                const $a_t: bool = $a;
                #[allow(non_upper_case_globals)]
                const $b_t: bool = $b;
                let z = $crate::device::block_idx_z() as usize;
                let k = if $spec.takes_k_last() && z + 1 == $crate::device::grid_dim_z() as usize { k_last } else { k };
                let $p = unsafe {
                    $crate::kernel_abi::Gemm {
                        a: a.add(z * stride_a as usize),
                        b: b.add(z * stride_b as usize),
                        c: c.add(z * stride_c as usize),
                        m,
                        n,
                        k,
                        lda,
                        ldb,
                        ldc,
                        scale: $crate::kernel_abi::Scale { alpha, beta },
                        group_m,
                        tensor_maps,
                        fence_tensor_maps: tensor_maps_reused != 0,
                    }
                };
                unsafe { $call }
            }
        };
    };
}
pub(crate) use kernel_entries;
