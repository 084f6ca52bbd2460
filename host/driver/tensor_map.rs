//! TMA tensor maps for the warp-specialized kernels
//! (`Algorithm::WarpSpecialized`): what the TMA needs to copy tiles of an
//! operand (its address, sizes, strides, the box and the swizzle), encoded
//! by the driver's `cuTensorMapEncodeTiled` into an opaque 128-byte map.
//!
//! `cust` 0.3 predates CUDA 12 and has no binding for the encoder, so it is
//! looked up once with `cuGetProcAddress` and called through a declared
//! signature (CUDA's `cuda.h`).
//!
//! How a kernel receives its maps: a copy in global memory, whose address
//! is the kernel's `tensor_maps` parameter. CUDA C++ passes a map by value
//! as a `__grid_constant__` parameter; rustc's NVPTX backend cannot mark a
//! parameter so, and the TMA cannot read a map that the compiler has copied
//! to local memory (what taking a by-value parameter's address does). The
//! copy is uploaded once per distinct set of maps (A, B, C) and kept (by
//! [`Gpu`](crate::driver::gpu::Gpu)), so
//! repeated calls on the same buffers pay nothing; the kernels prefetch it
//! into the TMA's descriptor cache before their first copy.

use crate::driver::error::{GemmError, Result};
use crate::driver::launch::Plan;
use crate::driver::operand_copies::{b_rows_twin_for, operand_copies};
use gemm_launch::{Algorithm, KernelSpec, tma};
use std::ffi::c_void;
use std::sync::OnceLock;

/// `CUtensorMap`: 128 opaque bytes, 64-byte aligned.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorMap(pub [u64; 16]);

impl TensorMap {
    /// Not a map: the 128 bytes a kernel finds after C's map
    /// (`gemm_launch::stream_k::ADDRESSES_OFFSET`), which hold a stream-K
    /// kernel's workspace and flags addresses (zeros: none, the launch runs
    /// data-parallel). Uploaded with the maps, so a call repeated on the
    /// same buffers uploads nothing.
    pub fn stream_k_addresses(workspace: Option<(u64, u64)>) -> TensorMap {
        let (partials, flags) = workspace.unwrap_or((0, 0));
        let mut words = [0; 16];
        (words[0], words[1]) = (partials, flags);
        TensorMap(words)
    }
}

// Plain bytes: safe to copy to the device.
unsafe impl cust::memory::DeviceCopy for TensorMap {}

/// `cuTensorMapEncodeTiled`'s signature (CUDA 12.0 `cuda.h`).
type EncodeTiled = unsafe extern "C" fn(
    map: *mut TensorMap,
    data_type: u32,
    rank: u32,
    address: *mut c_void,
    dims: *const u64,
    strides: *const u64,
    box_dims: *const u32,
    element_strides: *const u32,
    interleave: u32,
    swizzle: u32,
    l2_promotion: u32,
    oob_fill: u32,
) -> u32;

// `cuda.h` enumerators.
const DATA_TYPE_UINT16: u32 = 1;
const DATA_TYPE_UINT32: u32 = 2;
const INTERLEAVE_NONE: u32 = 0;
const SWIZZLE_128B: u32 = 3;
const L2_PROMOTION_256B: u32 = 3;
const OOB_FILL_ZEROS: u32 = 0;

/// The encoder, looked up once.
fn encoder() -> Result<EncodeTiled> {
    static ENCODER: OnceLock<std::result::Result<usize, String>> = OnceLock::new();
    let found = ENCODER.get_or_init(|| {
        let mut pfn: *mut c_void = std::ptr::null_mut();
        // CUDA 12.0: the first driver API with tensor maps.
        let status = unsafe { cust::sys::cuGetProcAddress(c"cuTensorMapEncodeTiled".as_ptr(), &mut pfn, 12000, 0) };
        if status as u32 != 0 || pfn.is_null() {
            return Err(format!(
                "the driver has no cuTensorMapEncodeTiled (cuGetProcAddress returned {status:?}); TMA needs a CUDA 12 driver"
            ));
        }
        Ok(pfn as usize)
    });
    match found {
        Ok(pfn) => Ok(unsafe { std::mem::transmute::<usize, EncodeTiled>(*pfn) }),
        Err(reason) => Err(GemmError::Unsupported { kernel: "TMA kernels".into(), reason: reason.clone() }),
    }
}

/// One operand as the TMA sees it: `inner × outer` elements (inner
/// contiguous), `ld` elements between the starts of consecutive `outer`
/// lines, a batch of matrices `stride` elements apart.
#[derive(Clone, Copy)]
struct Operand {
    address: u64,
    inner: u32,
    outer: u32,
    ld: u32,
    stride: u64,
    box_dims: [u32; 2],
}

/// Why the TMA kernel `spec` cannot run this call (`None` for every other
/// kernel). Operands its TMA cannot read in place (a start, leading
/// dimension or batch stride off 16 bytes; an MN-major operand of a K-major
/// kernel) are copied first ([`operand_copies`]; a row-major B off 16
/// bytes is read in place by step 10h's twins where they take the call,
/// [`b_rows_twin_for`]), so what is refused is a
/// batch stride of 0 for A or B (one operand for every matrix: the other
/// kernels take it), and a C batch stride that would split the batch
/// between C's two paths. Matrices that overlap with a stride above 0 are
/// read as they are: split-K's partial GEMMs are batches of K chunks of one
/// A and B; a K-major one's (row-major A, column-major B) lie a chunk
/// apart, each chunk's K the map's inner extent, so the TMA's bounds keep
/// each box inside its chunk (taken by the H100's driver 580.159.04,
/// PERF.md step 39; a driver that refused it would make such a call fail
/// with `Unsupported`, not compute a wrong C).
///
/// C is stored through the TMA when its rows are 16-byte aligned (start
/// and leading dimension; [`c_map_usable`]), else from registers: the
/// kernel tells the two apart by the same test on its own matrix of the
/// batch, so a batch stride that would make some of those matrices aligned
/// and others not is refused.
pub fn tma_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<String> {
    if spec.algorithm != Algorithm::WarpSpecialized {
        return None;
    }
    // What `Gpu::launch` runs: step 10h's twin where B's rows are off 16 bytes.
    let spec = b_rows_twin_for(spec, plan, pointers).unwrap_or(spec);
    let bytes = spec.dtype.element_bytes() as u64;
    if plan.batch > 1 {
        for (name, stride) in [("A", plan.stride_a), ("B", plan.stride_b)] {
            if stride == 0 {
                return Some(format!(
                    "{name}'s batch stride is 0 (one matrix for the whole batch): the TMA kernels take a batch of \
                     distinct matrices only"
                ));
            }
        }
    }
    if let Some(call) = operand_copies(spec, plan, pointers) {
        // The kernel reads copies (256-byte aligned, rows padded to 16
        // bytes) instead of the operands that need them: only C can refuse.
        let copied = |operand: usize| call.copies[operand].map_or(pointers[operand], |copy| copy.offset);
        return tma_refusal(spec, &call.plan, [copied(0), copied(1), pointers[2]])
            .map(|reason| format!("{reason} (the kernel reads copies of the operands it cannot take in place)"));
    }
    let c_rows_aligned = (plan.ldc as u64 * bytes).is_multiple_of(16);
    let c_stride_bytes = plan.stride_c * bytes;
    if spec.features.staged_epilogue && plan.batch > 1 && c_rows_aligned && !c_stride_bytes.is_multiple_of(16) {
        return Some(format!(
            "C's rows are 16-byte aligned but its batch stride ({c_stride_bytes} bytes) is no multiple of 16: the \
             TMA store would apply to some matrices of the batch only"
        ));
    }
    // Step 10h's maps of B's rows by residue start on 16 bytes whatever B's
    // rows: B needs its elements' own 4 bytes (its batch stride, 16).
    let b_rows_need = if spec.features.b_rows_by_residue { 4 } else { 16 };
    let checks = [
        ("A's address", pointers[0], 16),
        ("B's address", pointers[1], b_rows_need),
        ("A's leading dimension in bytes", plan.lda as u64 * bytes, 16),
        ("B's leading dimension in bytes", plan.ldb as u64 * bytes, b_rows_need),
        ("A's batch stride in bytes", if plan.batch > 1 { plan.stride_a * bytes } else { 0 }, 16),
        ("B's batch stride in bytes", if plan.batch > 1 { plan.stride_b * bytes } else { 0 }, 16),
    ];
    checks
        .iter()
        .find(|(_, value, multiple)| !value.is_multiple_of(*multiple))
        .map(|(what, value, multiple)| format!("the TMA needs {multiple}-byte multiples; {what} is {value}"))
}

/// The plan of an `m × n × k` call with packed row-major operands in fresh
/// allocations (the CLI's, the tuner's: `lda = K`, `ldb = N`, 256-byte
/// aligned starts).
pub fn packed_plan(m: usize, n: usize, k: usize) -> Plan {
    // Dimensions are at most `MAX_DIM` (checked before any call): u32.
    let (m, n, k) = (m as u32, n as u32, k as u32);
    let layout = gemm_launch::OperandLayout::NN;
    Plan {
        m,
        n,
        k,
        layout,
        lda: k,
        ldb: n,
        ldc: n,
        stride_a: 0,
        stride_b: 0,
        stride_c: 0,
        batch: 1,
        swapped: false,
        k_last: None,
    }
}

/// [`tma_refusal`] for packed operands ([`packed_plan`]), for any kernel:
/// `None` unless `spec` copies with the TMA and cannot.
pub fn packed_tma_refusal(spec: &KernelSpec, n: usize, k: usize) -> Option<String> {
    tma_refusal(spec, &packed_plan(1, n, k), [0; 3])
        .map(|reason| format!("{reason} (packed operands: K = {k}, N = {n})"))
}

/// Whether the kernel stores C through the TMA for this call: it has the
/// TMA-store epilogue (`Features::staged_epilogue`), C's start and rows are
/// 16-byte aligned, and N elements fill whole 16-byte pieces (the kernel's
/// `Gemm::c_tma_storable`, the same test). The last condition keeps the
/// TMA's store of a row's last piece off the padding after N, should its
/// bounds be no finer than 16 bytes. Such C the one-block kernels stage and
/// write out row by row, the two-block ones store from registers.
pub fn c_map_usable(spec: &KernelSpec, plan: &Plan, c: u64) -> bool {
    let bytes = spec.dtype.element_bytes() as u64;
    spec.features.staged_epilogue
        && c.is_multiple_of(16)
        && (plan.ldc as u64 * bytes).is_multiple_of(16)
        && (plan.n as u64 * bytes).is_multiple_of(16)
}

/// A TMA kernel's maps for one launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelMaps {
    /// A's, B's and C's maps; C's all zeros (and never read) when the
    /// kernel does not store C through the TMA ([`c_map_usable`]). Read by
    /// residue (step 10h), B's is the map of its rows `k ≡ 0 (mod 4)`.
    pub operands: [TensorMap; 3],
    /// Step 10h: the maps of B's rows `k ≡ 1, 2, 3 (mod 4)`; zeros for the
    /// other kernels.
    pub b_residues: [TensorMap; tma::B_ROW_RESIDUES as usize - 1],
    /// For a kernel that reads `k_last` (`KernelSpec::takes_k_last`): A's
    /// and B's maps with K ending at `Plan::k_last` (at `k` where there is
    /// none), which the batch's last matrix reads, a split's shorter last
    /// chunk; zeros for the other kernels.
    pub last_chunk: [TensorMap; 2],
}

impl KernelMaps {
    /// The maps in the slots the kernel reads them from (`tensor_maps`:
    /// A, B, C, then `stream_k`, the stream-K addresses, then B's maps of
    /// residues 1 to 3, `tma::B_RESIDUE_MAPS_OFFSET`, then A's and B's for
    /// the last chunk, `tma::LAST_CHUNK_MAPS_OFFSET`).
    pub fn slots(&self, stream_k: TensorMap) -> [TensorMap; tma::MAP_SLOTS] {
        let [a, b, c] = self.operands;
        let [b1, b2, b3] = self.b_residues;
        let [a_last, b_last] = self.last_chunk;
        [a, b, c, stream_k, b1, b2, b3, a_last, b_last]
    }
}

/// The maps of the kernel's A, B and C for `plan`. The caller checks
/// [`tma_refusal`] first.
pub fn tensor_maps(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Result<KernelMaps> {
    let t = spec.tile;
    let a_k_major = !plan.layout.a_col_major;
    let b_k_major = plan.layout.b_col_major;
    let (a_inner, a_outer) = if a_k_major { (plan.k, plan.m) } else { (plan.m, plan.k) };
    let (b_inner, b_outer) = if b_k_major { (plan.k, plan.n) } else { (plan.n, plan.k) };
    let a = Operand {
        address: pointers[0],
        inner: a_inner,
        outer: a_outer,
        ld: plan.lda,
        stride: plan.stride_a,
        box_dims: tma::tma_box(spec.dtype, t.bm, t.bk, a_k_major),
    };
    let b = Operand {
        address: pointers[1],
        inner: b_inner,
        outer: b_outer,
        ld: plan.ldb,
        stride: plan.stride_b,
        box_dims: tma::tma_box(spec.dtype, tma::b_share(t.bn, spec.cluster_blocks()), t.bk, b_k_major),
    };
    let c = Operand {
        address: pointers[2],
        inner: plan.n,
        outer: plan.m,
        ld: plan.ldc,
        stride: plan.stride_c,
        box_dims: tma::c_box(spec.dtype),
    };
    let c_map = if c_map_usable(spec, plan, pointers[2]) { encode(spec, &c, plan.batch)? } else { TensorMap([0; 16]) };
    let none = TensorMap([0; 16]);
    let a_map = encode(spec, &a, plan.batch)?;
    // The last chunk's maps: A's and B's K extent `k_last`, the same
    // addresses and strides, so that the last matrix's slices past it land
    // as zeros; A's and B's own where that matrix is as deep as the others.
    let last_chunk = |b_map: TensorMap| -> Result<[TensorMap; 2]> {
        let ends_at = |op: &Operand, k_inner: bool, k_last: u32| {
            if k_inner { Operand { inner: k_last, ..*op } } else { Operand { outer: k_last, ..*op } }
        };
        Ok(match (spec.takes_k_last(), plan.k_last) {
            (false, _) => [none; 2],
            (true, None) => [a_map, b_map],
            (true, Some(k_last)) => [
                encode(spec, &ends_at(&a, a_k_major, k_last), plan.batch)?,
                encode(spec, &ends_at(&b, b_k_major, k_last), plan.batch)?,
            ],
        })
    };
    if !spec.features.b_rows_by_residue {
        let b_map = encode(spec, &b, plan.batch)?;
        return Ok(KernelMaps {
            operands: [a_map, b_map, c_map],
            b_residues: [none; 3],
            last_chunk: last_chunk(b_map)?,
        });
    }
    // Step 10h: map `r` over B's rows `r, r + 4, …` (4·ldb apart), from
    // row `r`'s start aligned down to 16 bytes, its columns as many wider;
    // each box `bk / 4` of those rows.
    let residues = tma::B_ROW_RESIDUES;
    let residue = |r: u32| {
        let shift = tma::b_residue_shift(pointers[1], plan.ldb, r);
        let start = pointers[1] + r as u64 * plan.ldb as u64 * 4;
        let rows = Operand {
            address: start - shift as u64 * 4,
            inner: plan.n + shift,
            outer: (plan.k - r).div_ceil(residues),
            ld: plan.ldb * residues,
            box_dims: [tma::row_elements(spec.dtype), t.bk / residues],
            ..b
        };
        encode(spec, &rows, plan.batch)
    };
    let b_map = residue(0)?;
    Ok(KernelMaps {
        operands: [a_map, b_map, c_map],
        b_residues: [residue(1)?, residue(2)?, residue(3)?],
        last_chunk: last_chunk(b_map)?,
    })
}

/// Encodes one operand as a 3-D map (inner, outer, batch) with boxes of
/// `box_dims × 1`, 128-byte swizzle, zero fill outside the matrix (for C,
/// stores outside it are dropped).
fn encode(spec: &KernelSpec, op: &Operand, batch: u32) -> Result<TensorMap> {
    let bytes = spec.dtype.element_bytes() as u64;
    let line = op.ld as u64 * bytes;
    // A single matrix's batch stride is never used; any valid value will do.
    let matrix = if batch > 1 { op.stride * bytes } else { (line * op.outer as u64).next_multiple_of(16) };
    let dims = [op.inner as u64, op.outer as u64, batch.max(1) as u64];
    let strides = [line, matrix];
    let box_dims = [op.box_dims[0], op.box_dims[1], 1];
    let element_strides = [1u32; 3];
    let mut map = TensorMap([0; 16]);
    let status = unsafe {
        encoder()?(
            &mut map,
            // The bits as they are: f16/bf16, or f32 that `wgmma` reads as TF32.
            if bytes == 2 { DATA_TYPE_UINT16 } else { DATA_TYPE_UINT32 },
            3,
            op.address as *mut c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            box_dims.as_ptr(),
            element_strides.as_ptr(),
            INTERLEAVE_NONE,
            SWIZZLE_128B,
            L2_PROMOTION_256B,
            OOB_FILL_ZEROS,
        )
    };
    if status != 0 {
        return Err(GemmError::Unsupported {
            kernel: spec.name.into(),
            reason: format!(
                "cuTensorMapEncodeTiled refused the operand (error {status}): dims {dims:?}, strides {strides:?} \
                 bytes, box {box_dims:?}"
            ),
        });
    }
    Ok(map)
}
