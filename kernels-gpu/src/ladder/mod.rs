//! The teaching ladder: single-precision GEMM in eight steps, each a kernel
//! that fixes the previous step's bottleneck, each file opening with its idea,
//! tile, cost (ptxas registers, shared memory) and measured TFLOP/s. Read them
//! in order:
//!
//! 1. [`naive`]: one thread per output, straight from global memory.
//! 2. [`tiled`]: a block stages 32×32 tiles of A and B in shared memory.
//! 3. [`reg1d`]: each thread computes a column of 8 outputs.
//! 4. [`reg2d`]: each thread computes an 8×8 block (outer products).
//! 5. [`vectorized`]: 128-bit loads, A transposed in shared memory.
//! 6. [`double_buffered`]: two stages, the next slice's loads in flight.
//! 7. [`async_pipeline`]: `cp.async` straight into a 3-stage ring.
//! 8. [`warp_tiled`] (step 7b in the README and docs/PERF.md): step 6 with
//!    each warp owning a sub-tile of C, and the next k's fragments loaded
//!    from shared memory while the current ones multiply.
//! 9. [`warp_tiled_async`] (step 7c): step 7b's warp tiles fed by step 7's
//!    `cp.async` ring instead of register staging, the comparison issue 15
//!    asks for.
//!
//! Steps 2–7b share the shared-memory stage layout; steps 5–7b also share the
//! register staging, the slice multiply and the epilogue ([`staging`]).
//! Only the sm_80 module compiles the ladder.

mod async_pipeline;
mod double_buffered;
mod naive;
mod reg1d;
mod reg2d;
mod staging;
mod tiled;
mod vectorized;
mod warp_tiled;
mod warp_tiled_async;
