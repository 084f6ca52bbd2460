//! GEMM kernels for NVIDIA GPUs, written in Rust and compiled to PTX by
//! rustc's NVPTX backend. Notation: `C[M×N] = A[M×K] · B[K×N]`, all row-major.
//!
//! The folders are the layers, bottom up:
//!
//! - [`device`]: the only inline PTX, one `#[inline(always)]` wrapper per
//!   instruction, named in its doc comment: `device/mod.rs` what every kernel
//!   uses (indices, barriers, shared/global memory, FMA), `device/sm80.rs`
//!   Ampere's (`cp.async`, `ldmatrix`, `mma.sync`), `device/sm90a.rs`
//!   Hopper's (`wgmma` and its fences, `mbarrier`, the TMA, `setmaxnreg`).
//! - `kernel_abi`: the one PTX entry signature, the `Gemm` it is gathered
//!   into, and `kernel_entries!`, the one macro writing every entry point
//!   (the host looks kernels up by these names). `tile_scheduler`: which tile
//!   of C a block computes (grouped order for L2).
//! - `ladder/`: the teaching ladder, f32 steps 1–7b, one file a step, read in
//!   order (`ladder/mod.rs` lists them).
//! - `tensor_core/`: the library's tensor-core kernels, `mma.sync` (steps 8,
//!   8b), `wgmma` (9, 9b) and the warp-specialized TMA kernel (10), and
//!   the pieces they share, named as in CUTLASS: `global_to_shared` (the
//!   `cp.async` copy of a K slice), `cp_async_mainloop`, `wgmma_mainloop`,
//!   `epilogue`.
//! - `memory_bound`: the path for M or N ≤ 16, which streams the large
//!   operand once at memory speed (GEMV-like; CUDA cores, deterministic),
//!   and `memory_bound_mma`, its 16-bit twin on `mma.sync` (step 86), which
//!   reads the large operand along K; `memory_bound_mma_along_l` reads it
//!   along the long side (step 104).
//! - `split_k`: the reduction of split-K partial sums (a fixed tree, so
//!   bitwise reproducible) and the α = 0 path `C = β·C`.
//! - `operand_copies`: the copies (transposed, or realigned to 16-byte
//!   rows) that bring any call to a TMA kernel.
//!
//! Each kernel file opens with its idea, tiles, cost (ptxas registers,
//! shared memory) and measured speed, also in `docs/PERF.md`. Tile shapes
//! come from the `gemm-launch` crate, which the host launcher reads too.
//!
//! Two PTX modules are built (build.rs): sm_80 with steps 1–8, which every
//! GPU from Ampere on runs, and sm_90a (`--cfg rgemm_sm90a`, PTX 8.3)
//! with steps 9, 9b and 10, which only Hopper runs.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch, stmt_expr_attributes)]
// The sm_90a module compiles only steps 9, 9b, 10 and the pieces they use.
#![cfg_attr(rgemm_sm90a, allow(unused_macros, unused_imports, dead_code))]

pub mod device;
mod kernel_abi;
#[cfg(not(rgemm_sm90a))]
mod ladder;
#[cfg(not(rgemm_sm90a))]
mod memory_bound;
#[cfg(not(rgemm_sm90a))]
mod memory_bound_mma;
#[cfg(not(rgemm_sm90a))]
mod memory_bound_mma_along_l;
#[cfg(not(rgemm_sm90a))]
mod operand_copies;
#[cfg(not(rgemm_sm90a))]
mod realign;
#[cfg(not(rgemm_sm90a))]
mod split_k;
mod tensor_core;
mod tile_scheduler;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::trap()
}
