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

pub mod device;

mod async_pipeline;
mod common;
mod double_buffered;
mod naive;
mod reg1d;
mod reg2d;
mod staging;
mod tensor_core;
mod tensor_core_tf32;
mod tiled;
mod vectorized;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::trap()
}
