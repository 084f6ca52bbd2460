//! Tile configurations and launch geometry, shared by the GPU kernels
//! (`kernels-gpu`, compiled to PTX) and the host launcher (`rgemm`).
//!
//! This crate is the one place where a kernel's block tile, its threads per
//! block, its shared-memory bytes and its grid are decided. The kernels take
//! their const generic parameters from the [`KernelSpec`] constants in
//! [`kernels`] and the host launches with the numbers computed from the same
//! constants, so the two can never disagree.
//!
//! - [`spec`]: the types that describe a kernel ([`KernelSpec`], [`Tile`],
//!   [`Dtype`], [`Algorithm`], [`Arch`], [`Features`], [`OperandLayout`]).
//! - [`geometry`]: what a launch derives from a spec (threads, grid, tile
//!   order, shared-memory layout and bytes).
//! - [`kernels`]: the spec of every kernel and the table [`KERNELS`].
//! - [`tma`]: the TMA boxes and barrier layout of the warp-specialized
//!   kernels, read by the kernels and by the host's tensor maps.
//! - [`stream_k`]: which tiles a stream-K launch shares out by K slices,
//!   each block's slices, and its workspace.
//! - [`operand_copies`]: the copies (transposed, or realigned to 16 bytes)
//!   that bring any call to a TMA kernel.
//!
//! Everything is re-exported at the crate root (`gemm_launch::KERNELS`,
//! `gemm_launch::tile_coords`, …).
#![no_std]

pub mod geometry;
pub mod kernels;
pub mod memory_bound;
pub mod operand_copies;
pub mod spec;
pub mod split_k;
pub mod stream_k;
pub mod tma;

pub use geometry::*;
pub use kernels::*;
pub use spec::*;
