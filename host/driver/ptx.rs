//! The kernels' PTX, built from `kernels-gpu/` by `build.rs` and embedded at
//! compile time. The driver JIT-compiles it for the GPU at module load.

use gemm_launch::Arch;

/// PTX for `sm_80` and newer (Ampere, Hopper): steps 1–8.
pub const PTX_SM80: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels_sm_80.ptx"));

/// PTX for `sm_90a` (Hopper only: `wgmma`): step 9.
pub const PTX_SM90A: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels_sm_90a.ptx"));

/// The module that holds kernels of `arch`.
pub const fn ptx(arch: Arch) -> &'static str {
    match arch {
        Arch::Sm80 => PTX_SM80,
        Arch::Sm90a => PTX_SM90A,
    }
}
