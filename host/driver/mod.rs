//! The driver layer, the bottom of the host: the CUDA context, the embedded
//! PTX modules and a stream ([`gpu`]), device buffers, the kernel table as
//! the host reads it ([`kernels`]), element types ([`element`]), the one
//! error type ([`error`]), the launch of one planned kernel ([`launch`]),
//! the TMA tensor maps some kernels read their operands through
//! ([`tensor_map`]), launches in thread-block clusters ([`cluster`]), the copies that bring any call to those kernels
//! ([`operand_copies`]), stream-K's workspace ([`stream_k`]) and the start-up phase trace ([`trace`], `RGEMM_TRACE=1`).
//!
//! It uses `cust` and `gemm_launch`, and nothing above it in this crate: the
//! public API ([`crate::api`]) plans calls and chooses kernels on top of it.

pub mod cluster;
pub mod element;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod launch;
pub mod operand_copies;
pub mod ptx;
pub mod stream_k;
pub mod tensor_map;
pub mod trace;
