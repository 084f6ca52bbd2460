//! The device layer: every special register, barrier, shared-memory access and
//! instruction the kernels use, each wrapped once. This folder is the only
//! place with inline PTX; each wrapper is `#[inline(always)]` and names the
//! instruction it emits. This file holds what every kernel uses (indices,
//! barriers, shared and global memory, FMA); `sm80` the Ampere instructions
//! (`cp.async`, `ldmatrix`, `mma.sync`), `sm90a` the Hopper ones (`wgmma`),
//! compiled only into the sm_90a module. Memory accesses are wrapped as
//! 32-bit-word (`.b32`) instructions on raw addresses; the f32 forms
//! (`SharedF32`, `load_global_x4`, …) are typed views over them.

use core::arch::{asm, global_asm, nvptx};

pub mod sm80;
#[cfg(rgemm_sm90a)]
pub mod sm90a;

// One dynamic shared-memory array for the whole module. Its size is set per
// launch by the host (`KernelSpec::smem_bytes`); kernels carve it into tiles
// with `SharedF32::at`.
global_asm!(".extern .shared .align 1024 .b8 dynamic_smem[];");

/// `%tid.x`: this thread's index in its (1-D) block.
#[inline(always)]
pub fn thread_idx() -> usize {
    unsafe { nvptx::_thread_idx_x() as usize }
}

/// `selp.b32 d, a, b, p;` (`setp` sets `p` from `pick_a`): `a` if
/// `pick_a`, else `b`. LLVM cannot see into it, so a choice between two
/// elements of a register array stays a choice between registers: its own
/// `select` of two loads becomes a load from a chosen index, which puts the
/// whole array in local memory.
#[inline(always)]
pub fn select_f32(pick_a: bool, a: f32, b: f32) -> f32 {
    let d: u32;
    unsafe {
        asm!("{{ .reg .pred p; setp.ne.u32 p, {c}, 0; selp.b32 {d}, {a}, {b}, p; }}",
             c = in(reg32) pick_a as u32, a = in(reg32) a.to_bits(), b = in(reg32) b.to_bits(), d = out(reg32) d,
             options(pure, nomem, nostack));
    }
    f32::from_bits(d)
}

/// `%ctaid.x`: this block's index in its (1-D) grid.
#[inline(always)]
pub fn block_idx() -> u32 {
    unsafe { nvptx::_block_idx_x() as u32 }
}

/// `%nctaid.x`: blocks in the grid's x dimension (a persistent kernel's
/// stride through the tiles).
#[inline(always)]
pub fn grid_dim() -> u32 {
    unsafe { nvptx::_grid_dim_x() as u32 }
}

/// `%ctaid.y`: the block's index in the grid's y dimension.
#[inline(always)]
pub fn block_idx_y() -> u32 {
    unsafe { nvptx::_block_idx_y() as u32 }
}

/// `%ctaid.z`: which matrix of a strided batch this block works on.
#[inline(always)]
pub fn block_idx_z() -> u32 {
    unsafe { nvptx::_block_idx_z() as u32 }
}

/// `%nctaid.z`: matrices in the launch's strided batch.
#[inline(always)]
pub fn grid_dim_z() -> u32 {
    unsafe { nvptx::_grid_dim_z() as u32 }
}

/// `bar.sync 0`: block-wide barrier; also orders shared-memory accesses.
#[inline(always)]
pub fn sync_threads() {
    unsafe { nvptx::_syncthreads() }
}

/// `bar.sync id, threads;`: a barrier for `threads` threads (whole warps)
/// on hardware barrier `id` (1–15; 0 is [`sync_threads`]'s), so one
/// warpgroup can wait for its own warps while the rest of the block runs.
#[inline(always)]
pub fn named_barrier_sync(id: u32, threads: u32) {
    unsafe { asm!("bar.sync {id}, {n};", id = in(reg32) id, n = in(reg32) threads, options(nostack)) }
}

/// `bar.warp.sync 0xffffffff;`: the warp's lanes meet (and their memory
/// accesses before it are ordered before those after it, for each other).
#[inline(always)]
pub fn sync_warp() {
    unsafe { asm!("bar.warp.sync 0xffffffff;", options(nostack)) }
}

/// `fence.acq_rel.gpu;`: this thread's memory accesses before it are seen
/// by the whole GPU before its accesses after it (CUDA's
/// `__threadfence()`): what a block's partial sums need before the flag
/// that hands them to another block.
#[inline(always)]
pub fn fence_gpu() {
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) }
}

/// `ld.acquire.gpu.global.b32`: reads a flag another block sets; the
/// reads after it see everything that block wrote before setting it (with
/// [`fence_gpu`] on its side). Not `pure`: a spin on it re-reads.
///
/// # Safety
/// `p` must point to a readable, 4-byte aligned word of global memory.
#[inline(always)]
pub unsafe fn load_acquire_gpu(p: *const u32) -> u32 {
    let v: u32;
    unsafe { asm!("ld.acquire.gpu.global.b32 {v}, [{p}];", v = out(reg32) v, p = in(reg64) p, options(nostack)) }
    v
}

/// `st.relaxed.gpu.global.b32`: writes a flag other blocks read.
///
/// # Safety
/// `p` must point to a writable, 4-byte aligned word of global memory.
#[inline(always)]
pub unsafe fn store_relaxed_gpu(p: *mut u32, v: u32) {
    unsafe { asm!("st.relaxed.gpu.global.b32 [{p}], {v};", p = in(reg64) p, v = in(reg32) v, options(nostack)) }
}

/// `trap;`: aborts the kernel (the launch then reports an error).
#[inline(always)]
pub fn trap() -> ! {
    unsafe { nvptx::trap() }
}

/// `fma.rn.f32 d, a, b, c;`: `a · b + c` with one rounding. Rust does not
/// contract `a * b + c` on its own, and separate `mul.rn`/`add.rn` would
/// halve the arithmetic rate.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    let d: f32;
    unsafe {
        asm!("fma.rn.f32 {d}, {a}, {b}, {c};",
             d = out(reg32) d, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c,
             options(pure, nomem, nostack));
    }
    d
}

/// `shfl.sync.bfly.b32 d, v, mask, 0x1f, 0xffffffff;`: `v` of lane
/// `lane ^ mask`, the whole warp taking part: one step of a butterfly
/// reduction, whose fixed order makes every lane's sum identical.
#[inline(always)]
pub fn shfl_xor(v: f32, mask: u32) -> f32 {
    let d: u32;
    unsafe {
        asm!("shfl.sync.bfly.b32 {d}, {v}, {m}, 0x1f, 0xffffffff;",
             d = out(reg32) d, v = in(reg32) v.to_bits(), m = in(reg32) mask,
             options(nomem, nostack));
    }
    f32::from_bits(d)
}

/// `shfl.sync.down.b32 d, v, delta, 0x1f, 0xffffffff;`: `v` of lane
/// `lane + delta` (the lane's own `v` past the warp's last lane), the whole
/// warp taking part.
#[inline(always)]
pub fn shfl_down_b32(v: u32, delta: u32) -> u32 {
    let d: u32;
    unsafe {
        asm!("shfl.sync.down.b32 {d}, {v}, {delta}, 0x1f, 0xffffffff;",
             d = out(reg32) d, v = in(reg32) v, delta = in(reg32) delta,
             options(nomem, nostack));
    }
    d
}

/// `shfl.sync.idx.b32 d, v, src, 0x1f, 0xffffffff;`: `v` of lane `src`,
/// the whole warp taking part.
#[inline(always)]
pub fn shfl_idx_b32(v: u32, src: u32) -> u32 {
    let d: u32;
    unsafe {
        asm!("shfl.sync.idx.b32 {d}, {v}, {src}, 0x1f, 0xffffffff;",
             d = out(reg32) d, v = in(reg32) v, src = in(reg32) src,
             options(nomem, nostack));
    }
    d
}

/// `shf.r.wrap.b32 d, lo, hi, bits;`: the 32 bits of `hi:lo` from bit
/// `bits` (0 to 31) up: `lo` shifted right, its top filled from `hi`, in one
/// instruction.
#[inline(always)]
pub fn funnel_shift_right(lo: u32, hi: u32, bits: u32) -> u32 {
    let d: u32;
    unsafe {
        asm!("shf.r.wrap.b32 {d}, {lo}, {hi}, {bits};",
             d = out(reg32) d, lo = in(reg32) lo, hi = in(reg32) hi, bits = in(reg32) bits,
             options(pure, nomem, nostack));
    }
    d
}

/// 16 bytes of f32 at `p` (`ld.global.v4.b32`, see [`load_global_x4_b32`]).
///
/// # Safety
/// `p` must point to 4 readable f32 in global memory, 16-byte aligned.
#[inline(always)]
pub unsafe fn load_global_x4(p: *const f32) -> [f32; 4] {
    unsafe { load_global_x4_b32(p as *const u32) }.map(f32::from_bits)
}

/// 16 bytes of f32 to `p` (`st.global.v4.b32`, see [`store_global_x4_b32`]).
///
/// # Safety
/// `p` must point to 4 writable f32 in global memory, 16-byte aligned.
#[inline(always)]
pub unsafe fn store_global_x4(p: *mut f32, v: [f32; 4]) {
    unsafe { store_global_x4_b32(p as *mut u32, v.map(f32::to_bits)) }
}

/// A window of f32 in the module's dynamic shared memory, addressed with
/// 32-bit `.shared` addresses (Rust has no shared address space of its own on
/// this backend, so accesses go through `ld.shared`/`st.shared`).
#[derive(Clone, Copy)]
pub struct SharedF32 {
    base: u32,
}

impl SharedF32 {
    /// The window that starts `byte_offset` bytes into dynamic shared memory
    /// (`mov.u32 r, dynamic_smem;` gives the base).
    #[inline(always)]
    pub fn at(byte_offset: usize) -> Self {
        let base: u32;
        unsafe {
            asm!("mov.u32 {r}, dynamic_smem;", r = out(reg32) base,
                 options(pure, nomem, nostack));
        }
        SharedF32 { base: base + byte_offset as u32 }
    }

    /// The 32-bit `.shared` address of element `index` (for `cp.async`).
    #[inline(always)]
    pub fn addr(self, index: usize) -> u32 {
        self.base + (index as u32) * 4
    }

    /// Element `index` (`ld.shared.b32`).
    #[inline(always)]
    pub fn load(self, index: usize) -> f32 {
        f32::from_bits(load_shared_b32(self.addr(index)))
    }

    /// Element `index` (`st.shared.b32`).
    #[inline(always)]
    pub fn store(self, index: usize, v: f32) {
        store_shared_b32(self.addr(index), v.to_bits())
    }

    /// Elements `index..index + 4` (`ld.shared.v4.b32`); `index` must be a
    /// multiple of 4 (16-byte aligned).
    #[inline(always)]
    pub fn load_x4(self, index: usize) -> [f32; 4] {
        load_shared_x4_b32(self.addr(index)).map(f32::from_bits)
    }

    /// Elements `index..index + 4` (`st.shared.v4.b32`); `index` must be a
    /// multiple of 4.
    #[inline(always)]
    pub fn store_x4(self, index: usize, v: [f32; 4]) {
        store_shared_x4_b32(self.addr(index), v.map(f32::to_bits))
    }
}

/// `st.shared.v4.b32 [addr], {x, y, z, w};`: 16 bytes to a shared address.
#[inline(always)]
pub fn store_shared_x4_b32(addr: u32, v: [u32; 4]) {
    unsafe {
        asm!("st.shared.v4.b32 [{a}], {{{x}, {y}, {z}, {w}}};",
             a = in(reg32) addr, x = in(reg32) v[0], y = in(reg32) v[1], z = in(reg32) v[2], w = in(reg32) v[3],
             options(nostack));
    }
}

/// The 32-bit `.shared` address of dynamic shared memory at `byte_offset`
/// (for operands addressed in bytes: 16-bit tiles, `ldmatrix`, `cp.async`).
#[inline(always)]
pub fn smem_addr(byte_offset: usize) -> u32 {
    SharedF32::at(byte_offset).addr(0)
}

/// `ld.shared.b32`: 4 bytes at a shared address.
#[inline(always)]
pub fn load_shared_b32(addr: u32) -> u32 {
    let v: u32;
    unsafe {
        asm!("ld.shared.b32 {v}, [{a}];", v = out(reg32) v, a = in(reg32) addr, options(pure, readonly, nostack));
    }
    v
}

/// `st.shared.b32`: 4 bytes to a shared address.
#[inline(always)]
pub fn store_shared_b32(addr: u32, v: u32) {
    unsafe { asm!("st.shared.b32 [{a}], {v};", a = in(reg32) addr, v = in(reg32) v, options(nostack)) }
}

/// `st.shared.v2.b32 [addr], {x, y};`: 8 bytes to a shared address
/// (8-byte aligned).
#[inline(always)]
pub fn store_shared_x2_b32(addr: u32, v: [u32; 2]) {
    unsafe {
        asm!("st.shared.v2.b32 [{a}], {{{x}, {y}}};", a = in(reg32) addr, x = in(reg32) v[0], y = in(reg32) v[1],
             options(nostack));
    }
}

/// `ld.shared.v2.b32`: 8 bytes at a shared address (8-byte aligned).
#[inline(always)]
pub fn load_shared_x2_b32(addr: u32) -> [u32; 2] {
    let (x, y): (u32, u32);
    unsafe {
        asm!("ld.shared.v2.b32 {{{x}, {y}}}, [{a}];",
             x = out(reg32) x, y = out(reg32) y, a = in(reg32) addr, options(pure, readonly, nostack));
    }
    [x, y]
}

/// `ld.shared.v4.b32`: 16 bytes at a shared address (16-byte aligned).
#[inline(always)]
pub fn load_shared_x4_b32(addr: u32) -> [u32; 4] {
    let (x, y, z, w): (u32, u32, u32, u32);
    unsafe {
        asm!("ld.shared.v4.b32 {{{x}, {y}, {z}, {w}}}, [{a}];",
             x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w, a = in(reg32) addr,
             options(pure, readonly, nostack));
    }
    [x, y, z, w]
}

/// `ld.global.v4.b32`: reads 16 bytes at `p`. (Written out: LLVM may split a
/// 16-byte Rust read into scalar loads.)
///
/// # Safety
/// `p` must point to 16 readable, 16-byte aligned bytes of global memory.
#[inline(always)]
pub unsafe fn load_global_x4_b32(p: *const u32) -> [u32; 4] {
    let (x, y, z, w): (u32, u32, u32, u32);
    unsafe {
        asm!("ld.global.v4.b32 {{{x}, {y}, {z}, {w}}}, [{p}];",
             x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
             p = in(reg64) p,
             options(pure, readonly, nostack));
    }
    [x, y, z, w]
}

/// `ld.global.cs.v4.b32`: reads 16 bytes at `p` as streaming data, read
/// once: its lines are evicted first, so that they need not push out of
/// the caches what is read again (PERF.md step 89: the memory-bound
/// tensor-core kernel's large operand; `ld.global.cg`, which skips L1, was
/// slower).
///
/// # Safety
/// `p` must point to 16 readable, 16-byte aligned bytes of global memory.
#[inline(always)]
pub unsafe fn load_global_x4_b32_once(p: *const u32) -> [u32; 4] {
    let (x, y, z, w): (u32, u32, u32, u32);
    unsafe {
        asm!("ld.global.cs.v4.b32 {{{x}, {y}, {z}, {w}}}, [{p}];",
             x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
             p = in(reg64) p,
             options(pure, readonly, nostack));
    }
    [x, y, z, w]
}

/// `@keep ld.global.u16`: the 2 bytes at `p`, zero-extended, where `keep`,
/// else 0 and `p` is not read. A predicated load: no branch around it, so
/// that loads of several such elements stay in flight together (a Rust
/// `if keep { *p } else { 0 }` compiles to a branch per element).
///
/// # Safety
/// Where `keep`, `p` must point to 2 readable bytes of global memory.
#[inline(always)]
pub unsafe fn load_global_u16_if(p: *const u16, keep: bool) -> u32 {
    let v: u32;
    unsafe {
        asm!("{{ .reg .pred k; setp.ne.u32 k, {keep}, 0; mov.u32 {v}, 0; @k ld.global.u16 {v}, [{p}]; }}",
             v = out(reg32) v, keep = in(reg32) keep as u32, p = in(reg64) p,
             options(pure, readonly, nostack));
    }
    v
}

/// `@keep ld.global.b32`: the 4 bytes at `p` where `keep`, else 0 and `p`
/// is not read; predicated, as [`load_global_u16_if`].
///
/// # Safety
/// Where `keep`, `p` must point to 4 readable, 4-byte aligned bytes of
/// global memory.
#[inline(always)]
pub unsafe fn load_global_b32_if(p: *const u32, keep: bool) -> u32 {
    let v: u32;
    unsafe {
        asm!("{{ .reg .pred k; setp.ne.u32 k, {keep}, 0; mov.u32 {v}, 0; @k ld.global.b32 {v}, [{p}]; }}",
             v = out(reg32) v, keep = in(reg32) keep as u32, p = in(reg64) p,
             options(pure, readonly, nostack));
    }
    v
}

/// `st.global.v4.b32`: writes 16 bytes at `p`.
///
/// # Safety
/// `p` must point to 16 writable, 16-byte aligned bytes of global memory.
#[inline(always)]
pub unsafe fn store_global_x4_b32(p: *mut u32, v: [u32; 4]) {
    unsafe {
        asm!("st.global.v4.b32 [{p}], {{{x}, {y}, {z}, {w}}};",
             p = in(reg64) p,
             x = in(reg32) v[0], y = in(reg32) v[1], z = in(reg32) v[2], w = in(reg32) v[3],
             options(nostack));
    }
}

/// `st.global.v2.f32`: writes 8 bytes of f32 at `p`.
///
/// # Safety
/// `p` must point to 8 writable, 8-byte aligned bytes of global memory.
#[inline(always)]
pub unsafe fn store_global_x2(p: *mut f32, v: [f32; 2]) {
    unsafe {
        asm!("st.global.v2.f32 [{p}], {{{x}, {y}}};",
             p = in(reg64) p, x = in(reg32) v[0].to_bits(), y = in(reg32) v[1].to_bits(),
             options(nostack));
    }
}

/// `ld.shared.u16`: 2 bytes at a shared address, zero-extended.
#[inline(always)]
pub fn load_shared_u16(addr: u32) -> u32 {
    let v: u32;
    unsafe {
        asm!("ld.shared.u16 {v}, [{a}];", v = out(reg32) v, a = in(reg32) addr, options(pure, readonly, nostack));
    }
    v
}
