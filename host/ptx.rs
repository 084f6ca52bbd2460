//! The kernels' PTX, built from `kernels-gpu/` by `build.rs` and embedded at
//! compile time. The driver JIT-compiles it for the GPU at module load.

/// PTX for `sm_80` and newer (Ampere, Hopper): every kernel of the crate.
pub const PTX_SM80: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels_sm_80.ptx"));
