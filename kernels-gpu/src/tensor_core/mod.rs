//! The library's tensor-core kernels, in two families:
//!
//! - `mma.sync` (sm_80 module, any GPU from Ampere on): [`mma`] (step 8,
//!   f16/bf16) and [`mma_tf32`] (step 8b, f32 data as TF32). Warp-wide
//!   instructions; operands reach registers through `ldmatrix`.
//! - `wgmma` (sm_90a module, Hopper only): [`wgmma`] (step 9) and
//!   [`wgmma_tf32`] (step 9b). Warpgroup instructions reading both operands
//!   from shared memory through descriptors; both run [`wgmma_mainloop`].
//!
//! The pieces they share are named for what they do, in CUTLASS's words:
//! [`global_to_shared`] (the `cp.async` copy of a K slice into a stage),
//! `cp_async_mainloop` (the `mma.sync` pipeline), [`wgmma_mainloop`] (the
//! `wgmma` pipeline) and [`epilogue`] (α/β store of C). Which tile of C a
//! block computes is `crate::tile_scheduler`. Step 10
//! (`warp_specialized`, Hopper) has its own TMA pipeline.

#[cfg(not(rgemm_sm90a))]
mod cp_async_mainloop;
pub(crate) mod epilogue;
pub(crate) mod global_to_shared;
#[cfg(not(rgemm_sm90a))]
mod mma;
#[cfg(not(rgemm_sm90a))]
mod mma_tf32;
#[cfg(rgemm_sm90a)]
mod warp_specialized;
#[cfg(rgemm_sm90a)]
mod wgmma;
#[cfg(rgemm_sm90a)]
mod wgmma_mainloop;
#[cfg(rgemm_sm90a)]
mod wgmma_tf32;

use crate::device::sm80::{mma_m16n8k16_bf16, mma_m16n8k16_f16, pack_bf16x2, pack_f16x2, unpack_bf16x2, unpack_f16x2};

/// A 16-bit input type with its tensor-core instruction and output rounding.
pub trait MmaElement {
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4];
    /// Rounds two f32 to this type, packed low-then-high.
    fn pack(lo: f32, hi: f32) -> u32;
    /// The two values packed in `v` (low half first), exactly as f32.
    fn unpack(v: u32) -> [f32; 2];
}

pub struct F16;
pub struct Bf16;

impl MmaElement for F16 {
    #[inline(always)]
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        mma_m16n8k16_f16(a, b, c)
    }
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        pack_f16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack(v: u32) -> [f32; 2] {
        unpack_f16x2(v)
    }
}

impl MmaElement for Bf16 {
    #[inline(always)]
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        mma_m16n8k16_bf16(a, b, c)
    }
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        pack_bf16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack(v: u32) -> [f32; 2] {
        unpack_bf16x2(v)
    }
}
