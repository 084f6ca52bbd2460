//! Calls whose operands a TMA kernel cannot read in place (or an f32 kernel
//! not at full speed), made readable by copying them first into a scratch
//! buffer the [`Gpu`] owns
//! (`gemm_launch::operand_copies`: the kernels and their geometry):
//!
//! - **transposed**: a K-major kernel (`Layouts::KMajor`: TF32 step 10b,
//!   whose `wgmma` reads only K-major operands and whose TMA cannot
//!   transpose 4-byte elements) on an MN-major operand (a row-major B, a
//!   column-major A); the kernel's NT entry runs on the copies; and a
//!   swapped one (`Layouts::NMajorB`: TF32 step 10f) on a column-major A
//!   or B, whose NN entry runs on the copies;
//! - **realigned**: an operand whose start, leading dimension or batch
//!   stride is no multiple of the TMA's 16 bytes (an odd K or N in
//!   16-bit), copied as it is into rows padded to 16 bytes (but a
//!   row-major TF32 B that step 10h's twins read in place by residue of
//!   its rows, [`b_rows_twin_for`]); and the same
//!   for the 16-byte loads of the f32 kernels of steps 6–7b, where the call
//!   is large enough to gain ([`f32_realigned`]).
//!
//! Copies are packed (rows padded to 16 bytes, batch matrices back to
//! back) and start 256-byte aligned, so the TMA always takes them. Each
//! costs 2 × its bytes of memory traffic, on the same stream before the
//! GEMM: at 5003×4001×3001 f16, 108 MB moved (~0.04 ms) against a GEMM of
//! ~0.2 ms that the `cp.async` kernels, reading the odd rows in place,
//! take 2 ms over.

use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::launch::Plan;
use cust::function::GridSize;
use gemm_launch::operand_copies::{
    self as geometry, COPY_ROWS_B16, COPY_ROWS_B32, REALIGN_MIN_FLOP, REALIGN_MIN_FLOP_PER_BYTE,
    REALIGN_SKINNY_MIN_FLOP, REALIGN_TILES_MIN_FLOP_PER_BYTE, TRANSPOSE_F32, f32_realign_pays,
};
use gemm_launch::{Algorithm, KernelSpec, memory_bound};
use std::ffi::c_void;

/// One operand's copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandCopy {
    /// Byte offset of the copy in the scratch buffer (a multiple of 256).
    pub offset: u64,
    /// Transposed (an MN-major operand made K-major), else copied as it is.
    pub transpose: bool,
    /// The source as a row-major matrix of `lines × len` (rows of a
    /// row-major operand, columns of a column-major one).
    pub lines: u32,
    pub len: u32,
    /// Leading dimension and batch stride of the copy, in elements.
    pub ld: u32,
    pub stride: u64,
    /// The `lines × len` the copy writes: the source's (always, for a
    /// transposed copy), or, for a straight one, more, zeros past it (K
    /// padded to whole chunks of a split, [`padded_operand_copies`]).
    pub padded: (u32, u32),
}

/// How a TMA kernel runs a call through copies: the plan of its launch on
/// them, and the copy of each of A and B that needs one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopiedCall {
    pub plan: Plan,
    pub copies: [Option<OperandCopy>; 2],
    /// Bytes of scratch the copies take.
    pub scratch_bytes: u64,
    /// Bytes per element (the straight copy's entry).
    pub element_bytes: u32,
}

impl CopiedCall {
    /// Whether some copy is there only to realign an operand (not to
    /// transpose it).
    pub fn realigns(&self) -> bool {
        self.copies.iter().flatten().any(|copy| !copy.transpose)
    }
}

/// How `spec` runs `plan` with its A, B and C at `pointers`: `None` when it
/// reads the operands in place (a TMA kernel whose entry takes the layout
/// and whose operands are 16-byte aligned, an f32 kernel of steps 6–7b
/// unless [`f32_realigned`], every other kernel).
pub fn operand_copies(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<CopiedCall> {
    operand_copies_with(spec, plan, pointers, true)
}

/// [`operand_copies`], or with `b_in_place` off, the copies of the entry
/// that copies a B whose rows are off 16 bytes (step 10h's twin's base):
/// what a split takes for the whole call where its last chunk is under 4
/// deep, which the twin cannot read and whose launch could not copy B
/// itself inside the lock the whole call's copies hold, or where padded
/// copies of both operands pay more (`split_k::split_with_copies`).
pub fn operand_copies_with(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3], b_in_place: bool) -> Option<CopiedCall> {
    match spec.algorithm {
        Algorithm::WarpSpecialized => copies(b_rows_entry(spec, plan, pointers, b_in_place), plan, pointers, plan.k),
        _ => f32_realigned(spec, plan, pointers),
    }
}

/// The entry whose copies a call of `spec` takes: step 10h's twin where it
/// reads B in place (`b_in_place`, [`b_rows_twin_for`]), else a twin's
/// base, which copies B.
fn b_rows_entry<'a>(spec: &'a KernelSpec, plan: &Plan, pointers: [u64; 3], b_in_place: bool) -> &'a KernelSpec {
    if b_in_place {
        b_rows_twin_for(spec, plan, pointers).unwrap_or(spec)
    } else {
        gemm_launch::b_rows_base(spec).unwrap_or(spec)
    }
}

/// The entry that `Gpu::launch` runs in `spec`'s place for this call
/// because of B's rows (step 10h, `gemm_launch::B_ROWS_TWINS`): the twin
/// that reads them in place, where they are off 16 bytes but on 4, B is
/// row-major as the entry reads it, and the launch has no more than the
/// twin's rows of C and is at least 4 deep (a map per residue of its row
/// index mod 4); and for a launch under 4 deep (a split's last chunk, or
/// a caller's), a twin named gives way to its base, which copies B.
/// `None`: `spec` runs as it is.
pub fn b_rows_twin_for(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<&'static KernelSpec> {
    let residues = gemm_launch::tma::B_ROW_RESIDUES;
    if spec.features.b_rows_by_residue {
        return gemm_launch::b_rows_base(spec).filter(|_| plan.k < residues);
    }
    let record = gemm_launch::b_rows_twin(spec, plan.m)?;
    let (b, ldb, stride, batch) = (pointers[1], plan.ldb, plan.stride_b, plan.batch);
    (!plan.layout.b_col_major
        && plan.k >= residues
        && b_readable_by_residue(b, stride, batch)
        && !rows_on_16_bytes(b, ldb, stride, batch, 4))
    .then_some(&record.twin)
}

/// Whether a row-major f32 B at `address` (bytes) with batch stride
/// `stride` (elements) in a batch of `batch` can be read by residue of its
/// rows (`Features::b_rows_by_residue`): its start on 4 bytes, and every
/// matrix's rows shifted off 16 bytes alike (a batch stride of whole 16
/// bytes), so that one set of maps serves the batch.
pub fn b_readable_by_residue(address: u64, stride: u64, batch: u32) -> bool {
    address.is_multiple_of(4) && (batch == 1 || (stride * 4).is_multiple_of(16))
}

/// [`operand_copies`] of a TMA kernel's call whose A and B are both
/// copied as they are (realigned, not transposed), with K padded to
/// `k_padded` (at least the call's K) by zeros in both copies; the copies'
/// plan is `k_padded` deep. `None` where the call has no such copies.
/// A split-K call cut into chunks that end past K reads whole chunks of
/// these, in one launch of the partial sums (`host/api/split_k.rs`).
pub fn padded_operand_copies(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3], k_padded: u32) -> Option<CopiedCall> {
    padded_operand_copies_with(spec, plan, pointers, k_padded, true)
}

/// [`padded_operand_copies`], B copied where its rows are off 16 bytes
/// unless `b_in_place` ([`operand_copies_with`]).
pub fn padded_operand_copies_with(
    spec: &KernelSpec,
    plan: &Plan,
    pointers: [u64; 3],
    k_padded: u32,
    b_in_place: bool,
) -> Option<CopiedCall> {
    // A transposed copy is never padded: no call with one takes this path.
    if spec.algorithm != Algorithm::WarpSpecialized
        || k_padded < plan.k
        || spec.entry_layout(plan.layout) != plan.layout
    {
        return None;
    }
    // (Where step 10h reads B in place, only A is copied: no such copies.)
    let call = copies(b_rows_entry(spec, plan, pointers, b_in_place), plan, pointers, k_padded)?;
    call.copies.iter().all(|copy| copy.is_some_and(|copy| !copy.transpose)).then_some(call)
}

/// The realigned copies an f32 call on CUDA cores gets (steps 6–7b, whose
/// 16-byte loads need rows on 16-byte boundaries; off them, every tile is
/// loaded element by element: `KernelSpec::realigns_f32_rows`) where A's or
/// B's rows are off 16 bytes and the call does at least
/// [`F32_REALIGN_MIN_FLOP`](geometry::F32_REALIGN_MIN_FLOP) (on a kernel
/// with an unchecked main loop,
/// [`F32_REALIGN_UNCHECKED_MIN_FLOP`](geometry::F32_REALIGN_UNCHECKED_MIN_FLOP))
/// and [`F32_REALIGN_MIN_FLOP_PER_BYTE`](geometry::F32_REALIGN_MIN_FLOP_PER_BYTE)
/// per byte copied ([`f32_realign_pays`]); `None` otherwise. As
/// for the TMA kernels, whether `auto` chose the kernel or the caller named
/// it: the copies are part of the call's time.
pub fn f32_realigned(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<CopiedCall> {
    // One A or B for a whole batch (stride 0) would be copied once per matrix.
    let shared_operand = plan.batch > 1 && (plan.stride_a == 0 || plan.stride_b == 0);
    if !spec.realigns_f32_rows() || shared_operand {
        return None;
    }
    let call = copies(spec, plan, pointers, plan.k)?;
    f32_realign_pays(plan.flop(), call.scratch_bytes, spec.has_unchecked_loop()).then_some(call)
}

/// The copies `spec`'s entry for the call's layout needs: transposed where
/// the entry reads an operand the other way round, realigned where its rows
/// or start are off 16 bytes; `k_padded` deep (zeros past the call's K:
/// only for straight copies of both operands, [`padded_operand_copies`]).
fn copies(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3], k_padded: u32) -> Option<CopiedCall> {
    let entry = spec.entry_layout(plan.layout);
    let bytes = spec.dtype.element_bytes() as u64;
    let batch = plan.batch as u64;
    let aligned = |address: u64, ld: u32, stride: u64| rows_on_16_bytes(address, ld, stride, plan.batch, bytes);
    let mut new = Plan { layout: entry, k: k_padded, ..*plan };
    let mut scratch = 0u64;
    // Operand `rows × cols` (A: m×k, B: k×n), column-major in the call or
    // not, as the entry reads it, padded to `padded_rows × padded_cols`;
    // returns its copy and the copy's ld, stride.
    let mut copy = |(rows, cols): (u32, u32),
                    (padded_rows, padded_cols): (u32, u32),
                    col_major: bool,
                    entry_col_major: bool,
                    at: (u64, u32, u64),
                    by_residue: bool| {
        let (address, ld, stride) = at;
        let transpose = col_major != entry_col_major;
        let readable =
            if by_residue { b_readable_by_residue(address, stride, plan.batch) } else { aligned(address, ld, stride) };
        if !transpose && readable {
            return None;
        }
        debug_assert!(!transpose || bytes == 4, "only the f32 copy transposes");
        let (lines, len) = if col_major { (cols, rows) } else { (rows, cols) };
        let padded = match (transpose, col_major) {
            (true, _) => (lines, len),
            (false, true) => (padded_cols, padded_rows),
            (false, false) => (padded_rows, padded_cols),
        };
        let (out_lines, out_len) = if transpose { (len, lines) } else { padded };
        let out_ld = geometry::padded_ld(out_len, bytes as u32);
        let out_stride = if batch > 1 { out_ld as u64 * out_lines as u64 } else { 0 };
        let offset = scratch;
        let copy_bytes = (out_ld as u64 * out_lines as u64).saturating_mul(batch * bytes);
        scratch = scratch.saturating_add(copy_bytes).next_multiple_of(256);
        Some(OperandCopy { offset, transpose, lines, len, ld: out_ld, stride: out_stride, padded })
    };
    let (a_at, b_at) = ((pointers[0], plan.lda, plan.stride_a), (pointers[1], plan.ldb, plan.stride_b));
    let a = copy((plan.m, plan.k), (plan.m, k_padded), plan.layout.a_col_major, entry.a_col_major, a_at, false);
    // Step 10h reads a row-major B's rows off 16 bytes in place.
    let by_residue = spec.features.b_rows_by_residue;
    let b = copy((plan.k, plan.n), (k_padded, plan.n), plan.layout.b_col_major, entry.b_col_major, b_at, by_residue);
    if let Some(a) = a {
        (new.lda, new.stride_a) = (a.ld, a.stride);
    }
    if let Some(b) = b {
        (new.ldb, new.stride_b) = (b.ld, b.stride);
    }
    debug_assert_eq!(entry == plan.layout, !a.is_some_and(|c| c.transpose) && !b.is_some_and(|c| c.transpose));
    (a.is_some() || b.is_some()).then_some(CopiedCall {
        plan: new,
        copies: [a, b],
        scratch_bytes: scratch,
        element_bytes: bytes as u32,
    })
}

/// Whether every row (column, if column-major) of an operand at `address`
/// with leading dimension `ld` and, in a batch of `batch`, batch stride
/// `stride` (both in elements of `element_bytes`) starts on a 16-byte
/// boundary: what the TMA and 16-byte copies need.
pub fn rows_on_16_bytes(address: u64, ld: u32, stride: u64, batch: u32, element_bytes: u64) -> bool {
    rows_on_multiple_of(address, ld, stride, batch, element_bytes, 16)
}

/// Whether every row of every matrix of a batch starts on a multiple of
/// `alignment` bytes ([`rows_on_16_bytes`] for any alignment).
pub fn rows_on_multiple_of(address: u64, ld: u32, stride: u64, batch: u32, element_bytes: u64, alignment: u64) -> bool {
    address.is_multiple_of(alignment)
        && (ld as u64 * element_bytes).is_multiple_of(alignment)
        && (batch == 1 || (stride * element_bytes).is_multiple_of(alignment))
}

/// Why `--kernel auto` should not run `spec` on this call though it could:
/// its operands would be realigned for less work than the copies save:
/// 2·M·N·K·batch below [`REALIGN_MIN_FLOP`] ([`REALIGN_SKINNY_MIN_FLOP`]
/// where M or N is at most `memory_bound::MAX_SMALL_SIDE`), or below
/// [`REALIGN_MIN_FLOP_PER_BYTE`] per byte copied where M or N is that
/// small (a skinny call, bound by reading the operand it would copy, which
/// the memory-bound kernels read in place at memory speed), else below
/// [`REALIGN_TILES_MIN_FLOP_PER_BYTE`] (in place, `mma.sync` gathers the
/// operands element by element). `None`: no realignment, or enough work.
///
/// The per-byte floor is waived for the 16-bit skinny calls that
/// `tiles_beat_skinny` gives to step 10's tiles: refused, they fall back
/// to the memory-bound kernels, which at 8 to 16 rows run at half the
/// speed of the copies and the tiles together (H100, PERF.md step 68, %
/// of cuBLAS, memory-bound → realigned tiles: f16 100000×16×777 20 → 48,
/// bf16 16384×16×1023 27 → 54, f16 16×50001×1024 24 → 51).
pub fn realign_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<String> {
    let call = operand_copies(spec, plan, pointers)?;
    let flop = plan.flop();
    let per_byte = flop / call.scratch_bytes.max(1);
    let small_side = plan.m.min(plan.n) <= memory_bound::MAX_SMALL_SIDE;
    let skinny_tiles =
        spec.dtype.element_bytes() == 2 && small_side && memory_bound::tiles_beat_skinny(spec.dtype, plan.m, plan.n);
    let (min_flop, floor) = if small_side {
        (REALIGN_SKINNY_MIN_FLOP, REALIGN_MIN_FLOP_PER_BYTE)
    } else {
        (REALIGN_MIN_FLOP, REALIGN_TILES_MIN_FLOP_PER_BYTE)
    };
    let too_little_per_byte = per_byte < floor && !skinny_tiles;
    (call.realigns() && (flop < min_flop || too_little_per_byte)).then(|| {
        format!(
            "its operands are off the TMA's 16 bytes, and copying them costs more than it saves below {min_flop} \
             flop or {floor} flop per byte copied (this call: {flop}, {per_byte} per byte)"
        )
    })
}

impl Gpu {
    /// Makes the copies of `call` from the kernel's operands at `pointers`
    /// (`plan`: the call as given) into the scratch buffer, on the stream,
    /// and runs `launch` with the copies' plan and addresses while the
    /// buffer is held (another call's copies cannot overwrite it before this
    /// call's kernel has read it: they queue behind it on the same stream).
    pub(crate) fn with_operand_copies<R>(
        &self,
        plan: &Plan,
        call: &CopiedCall,
        pointers: [u64; 3],
        launch: impl FnOnce(&Plan, [u64; 3]) -> Result<R>,
    ) -> Result<R> {
        let mut scratch = self.copy_scratch.lock().unwrap_or_else(|e| e.into_inner());
        let base = self.grow_buffer(&mut scratch, call.scratch_bytes)?;
        let mut addresses = pointers;
        let sources = [(plan.lda, plan.stride_a), (plan.ldb, plan.stride_b)];
        for (operand, (copy, (src_ld, src_stride))) in call.copies.iter().zip(sources).enumerate() {
            let Some(copy) = copy else { continue };
            let (mut src, mut dst) = (pointers[operand], base + copy.offset);
            // A straight copy writes `padded` (zeros past the source); a
            // transposed one's `padded` is the source's extent.
            let (mut rows, mut cols) = copy.padded;
            let (mut src_ld, mut dst_ld) = (src_ld, copy.ld);
            let (mut src_stride, mut dst_stride) = (src_stride, copy.stride);
            let (mut src_rows, mut src_cols) = (copy.lines, copy.len);
            // In the order of the copy entries' parameters (the transpose
            // takes the first eight).
            let args: [*mut c_void; 10] = [
                &mut src as *mut _ as *mut c_void,
                &mut dst as *mut _ as *mut c_void,
                &mut rows as *mut _ as *mut c_void,
                &mut cols as *mut _ as *mut c_void,
                &mut src_ld as *mut _ as *mut c_void,
                &mut dst_ld as *mut _ as *mut c_void,
                &mut src_stride as *mut _ as *mut c_void,
                &mut dst_stride as *mut _ as *mut c_void,
                &mut src_rows as *mut _ as *mut c_void,
                &mut src_cols as *mut _ as *mut c_void,
            ];
            if !copy.transpose {
                let chunks = geometry::copy_chunks(rows, cols, call.element_bytes);
                if chunks > u32::MAX as u64 {
                    return Err(GemmError::DimensionTooLarge {
                        what: "16-byte chunks of a realigned operand",
                        value: chunks,
                        max: u32::MAX as u64,
                    });
                }
            }
            // Blocks per matrix, in u64: at most ~2^29 for any buffer a GPU holds.
            let blocks = if copy.transpose {
                geometry::blocks(rows, cols)
            } else {
                geometry::copy_blocks(rows, cols, call.element_bytes)
            };
            if blocks > i32::MAX as u64 {
                return Err(GemmError::DimensionTooLarge { what: "copy blocks", value: blocks, max: i32::MAX as u64 });
            }
            let blocks = blocks as u32;
            if copy.transpose {
                let grid = GridSize::xyz(blocks, 1, plan.batch);
                self.launch_sm80(TRANSPOSE_F32, grid, geometry::THREADS, geometry::SMEM_BYTES, &args[..8])?;
            } else {
                let entry = if call.element_bytes == 2 { COPY_ROWS_B16 } else { COPY_ROWS_B32 };
                let grid = GridSize::xyz(blocks, 1, plan.batch);
                self.launch_sm80(entry, grid, geometry::COPY_THREADS, 0, &args)?;
            }
            addresses[operand] = dst;
        }
        launch(&call.plan, addresses)
    }
}
