//! GEMM kernels for NVIDIA GPUs, written in Rust and compiled to PTX by
//! rustc's NVPTX backend. Notation: `C[M×N] = A[M×K] · B[K×N]`, all row-major.
//!
//! `device` is the small device layer (indices, barriers, shared memory, FMA):
//! the only module with inline PTX. Each other module is one kernel, one step
//! of the ladder, with its measured number in its opening comment and in
//! `docs/PERF.md`. Tile shapes come from the `gemm-launch` crate, which the
//! host launcher reads too.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch)]
// The sm_90a module compiles only step 9 and the shared pieces it uses.
#![cfg_attr(rgemm_sm90a, allow(unused_macros, unused_imports, dead_code))]

pub mod device;
#[cfg(rgemm_sm90a)]
pub mod hopper;

// Two PTX modules are built (build.rs): sm_80 with steps 1–8, which every
// GPU from Ampere on runs, and sm_90a with step 9, which only Hopper runs.
#[cfg(not(rgemm_sm90a))]
mod async_pipeline;
mod common;
#[cfg(not(rgemm_sm90a))]
mod double_buffered;
#[cfg(not(rgemm_sm90a))]
mod memory_bound;
#[cfg(not(rgemm_sm90a))]
mod naive;
#[cfg(not(rgemm_sm90a))]
mod reg1d;
#[cfg(not(rgemm_sm90a))]
mod reg2d;
#[cfg(not(rgemm_sm90a))]
mod staging;
mod tensor_core;
#[cfg(not(rgemm_sm90a))]
mod tensor_core_tf32;
#[cfg(not(rgemm_sm90a))]
mod tiled;
#[cfg(not(rgemm_sm90a))]
mod vectorized;
#[cfg(rgemm_sm90a)]
mod wgmma;
#[cfg(rgemm_sm90a)]
mod wgmma_tf32;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::trap()
}
