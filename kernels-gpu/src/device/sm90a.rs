//! The Hopper (sm_90a) part of the device layer: warpgroup matrix multiply
//! (`wgmma`) and the fences around it. Compiled only into the sm_90a PTX
//! module (`--cfg rgemm_sm90a`, set by build.rs). Like `device/mod.rs`, this is
//! the only place these instructions appear; each wrapper names its PTX.

use core::arch::asm;

/// A `wgmma` shared-memory matrix descriptor: where an operand tile starts
/// and how its 8×16-byte core matrices are laid out (PTX ISA, "Matrix
/// Descriptor Format"): start address, leading- and stride-dimension byte
/// offsets (all in 16-byte units, 14 bits each) and the swizzle mode, here
/// always 128-byte swizzle (the XOR pattern `swizzled()` in
/// `tensor_core/global_to_shared.rs` writes, on 1024-byte aligned tiles).
#[inline(always)]
pub fn smem_descriptor_sw128(smem_addr: u32, leading_bytes: u32, stride_bytes: u32) -> u64 {
    let field = |bytes: u32| (bytes as u64 >> 4) & 0x3fff;
    field(smem_addr) | (field(leading_bytes) << 16) | (field(stride_bytes) << 32) | (1u64 << 62)
}

/// `wgmma.fence.sync.aligned;`: orders this warpgroup's earlier register
/// writes (the accumulators, and A fragments loaded into registers)
/// before the `wgmma`s that follow.
#[inline(always)]
pub fn wgmma_fence() {
    unsafe { asm!("wgmma.fence.sync.aligned;", options(nostack)) }
}

/// `wgmma.commit_group.sync.aligned;`: closes the group of `wgmma`s issued
/// since the last commit.
#[inline(always)]
pub fn wgmma_commit() {
    unsafe { asm!("wgmma.commit_group.sync.aligned;", options(nostack)) }
}

/// `wgmma.wait_group.sync.aligned N;`: waits until at most `pending` of this
/// warpgroup's committed groups are in flight (their accumulators are then
/// written and their shared-memory reads done). `pending` must fold to a
/// constant.
#[inline(always)]
pub fn wgmma_wait(pending: u32) {
    match pending {
        0 => unsafe { asm!("wgmma.wait_group.sync.aligned 0;", options(nostack)) },
        _ => unsafe { asm!("wgmma.wait_group.sync.aligned 1;", options(nostack)) },
    }
}

/// `wgmma.wait_group.sync.aligned N;` as [`wgmma_wait`] (`pending` 0, or
/// 1 for anything else), naming `held` (the A fragments of a
/// register-sourced `wgmma` in the groups it waits for) as read by it: LLVM
/// keeps their values live until here, so it writes no other value into
/// their PTX registers before (PTX: a `wgmma`'s A registers must not be
/// written until a wait has seen its group complete; ptxas, which maps
/// them to hardware registers, knows that rule). The names go in a PTX
/// comment; the instruction is the same.
#[inline(always)]
pub fn wgmma_wait_holding(pending: u32, held: &[[u32; 4]; 4]) {
    macro_rules! wait {
        ($n:literal) => {
            unsafe {
                asm!(
                    concat!("wgmma.wait_group.sync.aligned ", $n, "; // holds {0} {1} {2} {3} {4} {5} {6} {7} ",
                            "{8} {9} {10} {11} {12} {13} {14} {15}"),
                    in(reg32) held[0][0], in(reg32) held[0][1], in(reg32) held[0][2], in(reg32) held[0][3],
                    in(reg32) held[1][0], in(reg32) held[1][1], in(reg32) held[1][2], in(reg32) held[1][3],
                    in(reg32) held[2][0], in(reg32) held[2][1], in(reg32) held[2][2], in(reg32) held[2][3],
                    in(reg32) held[3][0], in(reg32) held[3][1], in(reg32) held[3][2], in(reg32) held[3][3],
                    options(nostack),
                )
            }
        };
    }
    match pending {
        0 => wait!("0"),
        _ => wait!("1"),
    }
}

/// `fence.proxy.async.shared::cta;`: makes this thread's writes to shared
/// memory (here: landed `cp.async` copies) visible to the async proxy that
/// `wgmma` reads shared memory through. Needed before the barrier that
/// publishes a stage to the other warps' `wgmma`s.
#[inline(always)]
pub fn fence_proxy_async_shared() {
    unsafe { asm!("fence.proxy.async.shared::cta;", options(nostack)) }
}

/// One 16-bit `wgmma.mma_async` (`m64nNk16`, N/2 accumulators), with the
/// shape, input type and the two transpose immediates spelled out (PTX
/// wants literals).
macro_rules! wgmma_k16_asm {
    ($acc:ident, $da:ident, $db:ident, $shape:literal, $ty:literal, $trans_a:literal, $trans_b:literal, [$($i:literal),*], $last:literal) => {
        unsafe {
            asm!(
                concat!(
                    "{{ .reg .pred p; setp.ne.b32 p, 1, 0;\n",
                    "wgmma.mma_async.sync.aligned.", $shape, ".f32.", $ty, ".", $ty, " {{",
                    $("{", $i, "}, ",)*
                    "{", $last, "}}}, {da}, {db}, p, 1, 1, ", $trans_a, ", ", $trans_b, "; }}"
                ),
                $(inout(reg32) $acc[$i],)*
                inout(reg32) $acc[$last],
                da = in(reg64) $da,
                db = in(reg64) $db,
                options(nostack),
            )
        }
    };
}

/// Declares a 16-bit `wgmma.mma_async` wrapper for one shape and input
/// type: `acc += A·B` for a 64×N accumulator tile of the warpgroup (N/2 f32
/// per thread, the `mma.sync` C layout repeated over N/8 column groups of
/// 8), A (64×16) and B (16×N) read from shared memory through descriptors.
/// `trans_a`/`trans_b` (`imm-trans-a`/`-b`) say an operand is MN-major in
/// shared memory (A stored `[k][m]`, B stored `[k][n]`) instead of K-major;
/// they must fold to constants (each pair is a different instruction).
macro_rules! wgmma_k16 {
    ($(#[$doc:meta])* $name:ident, $shape:literal, $len:literal, $ty:literal, [$($i:literal),*], $last:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The descriptors must describe initialized shared memory in the
        /// layout they encode; all 128 threads of the warpgroup must call it.
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $len], desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
            match (trans_a, trans_b) {
                (false, false) => wgmma_k16_asm!(acc, desc_a, desc_b, $shape, $ty, "0", "0", [$($i),*], $last),
                (false, true) => wgmma_k16_asm!(acc, desc_a, desc_b, $shape, $ty, "0", "1", [$($i),*], $last),
                (true, false) => wgmma_k16_asm!(acc, desc_a, desc_b, $shape, $ty, "1", "0", [$($i),*], $last),
                (true, true) => wgmma_k16_asm!(acc, desc_a, desc_b, $shape, $ty, "1", "1", [$($i),*], $last),
            }
        }
    };
}

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16`.
    wgmma_m64n256k16_f16,
    "m64n256k16",
    128,
    "f16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
        111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126
    ],
    127
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`.
    wgmma_m64n256k16_bf16,
    "m64n256k16",
    128,
    "bf16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
        111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126
    ],
    127
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`.
    wgmma_m64n128k16_f16,
    "m64n128k16",
    64,
    "f16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62
    ],
    63
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16`.
    wgmma_m64n128k16_bf16,
    "m64n128k16",
    64,
    "bf16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62
    ],
    63
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16`.
    wgmma_m64n192k16_f16,
    "m64n192k16",
    96,
    "f16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94
    ],
    95
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16`.
    wgmma_m64n192k16_bf16,
    "m64n192k16",
    96,
    "bf16",
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94
    ],
    95
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16`.
    wgmma_m64n64k16_f16,
    "m64n64k16",
    32,
    "f16",
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    31
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16`.
    wgmma_m64n64k16_bf16,
    "m64n64k16",
    32,
    "bf16",
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    31
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16`.
    wgmma_m64n16k16_f16,
    "m64n16k16",
    8,
    "f16",
    [0, 1, 2, 3, 4, 5, 6],
    7
);

wgmma_k16!(
    /// `wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16`.
    wgmma_m64n16k16_bf16,
    "m64n16k16",
    8,
    "bf16",
    [0, 1, 2, 3, 4, 5, 6],
    7
);

/// Declares a TF32 `wgmma.mma_async` wrapper whose A comes from registers
/// (step 10f): `acc += A·B` for a 64×N accumulator tile, A (64×8) as four
/// TF32 per thread in the `mma.sync` m16n8k8 A layout of each warp's 16
/// rows (`a[0]` row lane/4 and column lane%4, `a[1]` 8 rows lower, `a[2]`
/// and `a[3]` 4 columns right of those), B (8×N, K-major) from shared
/// memory through its descriptor. The registers must not be written again
/// before the `wgmma` has completed (`wgmma.wait_group`), and a
/// `wgmma.fence` must come between their loads and the `wgmma`.
macro_rules! wgmma_tf32_rs {
    ($(#[$doc:meta])* $name:ident, $shape:literal, $len:literal, [$($i:literal),*], $last:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As [`wgmma_m64n256k16_f16`] for B's descriptor; `a` as above.
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $len], a: [u32; 4], desc_b: u64) {
            unsafe {
                asm!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, 1, 0;\n",
                        "wgmma.mma_async.sync.aligned.", $shape, ".f32.tf32.tf32 {{",
                        $("{", $i, "}, ",)*
                        "{", $last, "}}}, {{{a0}, {a1}, {a2}, {a3}}}, {db}, p, 1, 1; }}"
                    ),
                    $(inout(reg32) acc[$i],)*
                    inout(reg32) acc[$last],
                    a0 = in(reg32) a[0],
                    a1 = in(reg32) a[1],
                    a2 = in(reg32) a[2],
                    a3 = in(reg32) a[3],
                    db = in(reg64) desc_b,
                    options(nostack),
                );
            }
        }
    };
}

/// Declares a TF32 `wgmma.mma_async` wrapper for a 64×N accumulator tile
/// (N/2 f32 per thread), K = 8 per instruction, f32 data read as TF32 (the
/// low 13 mantissa bits are ignored: truncation, not rounding). TF32 has no
/// transposed form: both A and B must be K-major in shared memory.
macro_rules! wgmma_tf32 {
    // The shared-memory wrapper and, from the same register list, its twin
    // with A from registers (`wgmma_tf32_rs`).
    ($(#[$doc:meta])* $name:ident, rs: $(#[$rs_doc:meta])* $rs:ident, $shape:literal, $len:literal,
     [$($i:literal),*], $last:literal) => {
        wgmma_tf32!($(#[$doc])* $name, $shape, $len, [$($i),*], $last);
        wgmma_tf32_rs!($(#[$rs_doc])* $rs, $shape, $len, [$($i),*], $last);
    };
    ($(#[$doc:meta])* $name:ident, $shape:literal, $len:literal, [$($i:literal),*], $last:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As [`wgmma_m64n256k16_f16`].
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $len], desc_a: u64, desc_b: u64) {
            unsafe {
                asm!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, 1, 0;\n",
                        "wgmma.mma_async.sync.aligned.", $shape, ".f32.tf32.tf32 {{",
                        $("{", $i, "}, ",)*
                        "{", $last, "}}}, {da}, {db}, p, 1, 1; }}"
                    ),
                    $(inout(reg32) acc[$i],)*
                    inout(reg32) acc[$last],
                    da = in(reg64) desc_a,
                    db = in(reg64) desc_b,
                    options(nostack),
                );
            }
        }
    };
}

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32`: 64×256 tile.
    wgmma_m64n256k8_tf32,
    rs:
    /// `wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32`, A from
    /// registers: 64×256 tile.
    wgmma_m64n256k8_tf32_rs,
    "m64n256k8",
    128,
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
        111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126
    ],
    127
);

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n192k8.f32.tf32.tf32`: 64×192 tile.
    wgmma_m64n192k8_tf32,
    "m64n192k8",
    96,
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 90, 91, 92, 93, 94
    ],
    95
);

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32`: 64×128 tile.
    wgmma_m64n128k8_tf32,
    rs:
    /// `wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32`, A from
    /// registers: 64×128 tile.
    wgmma_m64n128k8_tf32_rs,
    "m64n128k8",
    64,
    [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
        58, 59, 60, 61, 62
    ],
    63
);

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32`: 64×64 tile.
    wgmma_m64n64k8_tf32,
    rs:
    /// `wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32`, A from
    /// registers: 64×64 tile.
    wgmma_m64n64k8_tf32_rs,
    "m64n64k8",
    32,
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    31
);

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32`: 64×32 tile.
    wgmma_m64n32k8_tf32,
    rs:
    /// `wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32`, A from
    /// registers: 64×32 tile.
    wgmma_m64n32k8_tf32_rs,
    "m64n32k8",
    16,
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
    15
);

wgmma_tf32!(
    /// `wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32`: 64×16 tile.
    wgmma_m64n16k8_tf32,
    rs:
    /// `wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32`, A from
    /// registers: 64×16 tile.
    wgmma_m64n16k8_tf32_rs,
    "m64n16k8",
    8,
    [0, 1, 2, 3, 4, 5, 6],
    7
);

// ---- The asynchronous pipeline of the warp-specialized kernels (step 10):
// shared-memory barriers that count both arrivals and bytes, the tensor
// memory accelerator (TMA), and per-warpgroup register budgets.

/// `mbarrier.init.shared::cta.b64 [bar], count;` (PTX ISA §9.7.13.15.9):
/// a barrier in shared memory whose phase completes after `count` arrivals
/// (and, once armed with `expect_tx`, the expected bytes).
#[inline(always)]
pub fn mbarrier_init(bar: u32, count: u32) {
    unsafe {
        asm!("mbarrier.init.shared::cta.b64 [{bar}], {count};", bar = in(reg32) bar, count = in(reg32) count, options(nostack))
    }
}

/// `fence.mbarrier_init.release.cluster;` (§9.7.13.4): makes barrier
/// initializations visible to the async proxy (TMA completes on them) and to
/// the cluster, before the block-wide barrier that publishes them.
#[inline(always)]
pub fn fence_mbarrier_init() {
    unsafe { asm!("fence.mbarrier_init.release.cluster;", options(nostack)) }
}

/// `mbarrier.arrive.shared::cta.b64 _, [bar];` (§9.7.13.15.13): one arrival.
#[inline(always)]
pub fn mbarrier_arrive(bar: u32) {
    unsafe { asm!("mbarrier.arrive.shared::cta.b64 _, [{bar}];", bar = in(reg32) bar, options(nostack)) }
}

/// `mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes;`
/// (§9.7.13.15.13): one arrival that also tells the barrier to wait for
/// `bytes` more of asynchronous copies (`complete_tx`) in this phase.
#[inline(always)]
pub fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    unsafe {
        asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [{bar}], {bytes};",
            bar = in(reg32) bar,
            bytes = in(reg32) bytes,
            options(nostack)
        )
    }
}

/// Waits until the phase of parity `parity` (0 or 1) of the barrier has
/// completed: `mbarrier.try_wait.parity.shared::cta.b64` (§9.7.13.15.16) in
/// a loop (each try suspends the thread for a while before it gives up).
#[inline(always)]
pub fn mbarrier_wait(bar: u32, parity: u32) {
    loop {
        let done: u32;
        unsafe {
            asm!(
                "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{bar}], {parity}; selp.u32 {done}, 1, 0, p; }}",
                bar = in(reg32) bar,
                parity = in(reg32) parity,
                done = out(reg32) done,
                options(nostack)
            )
        };
        if done != 0 {
            return;
        }
    }
}

/// `fence.proxy.tensormap::generic.acquire.sys [map], 128;` (PTX ISA
/// §9.7.13.4, PTX 8.3): the TMA reads tensor maps through its own proxy,
/// which a kernel does not acquire at start; this orders the host's write
/// of the 128-byte map at `map` (in global memory, at an address an earlier
/// map used) before this thread's copies through it. In SASS it invalidates
/// the descriptor cache's entry (`UTMACCTL.IV`); measured, ~3 µs per launch
/// (PERF step 51), so kernels fence only where the address held other maps
/// (`Gemm::fence_tensor_maps`).
#[inline(always)]
pub fn fence_tensormap_acquire(map: u64) {
    unsafe { asm!("fence.proxy.tensormap::generic.acquire.sys [{map}], 128;", map = in(reg64) map, options(nostack)) }
}

/// `prefetch.tensormap [map];` (§9.7.9.15): brings a tensor map (TMA
/// descriptor, here in global memory) into the descriptor cache ahead of the
/// first copy that uses it.
#[inline(always)]
pub fn prefetch_tensormap(map: u64) {
    unsafe { asm!("prefetch.tensormap [{map}];", map = in(reg64) map, options(nostack)) }
}

/// `cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
/// [dst], [map, {x, y, z}], [bar];` (§9.7.9.25.5.1): the TMA copies the box
/// of the 3-D tensor `map` (x innermost; z the batch) whose first element is
/// at (x, y, z) into shared memory at `dst`, in the map's swizzle, filling
/// elements outside the tensor with zeros, and counts the box's bytes
/// (including the fill) on barrier `bar`. One thread issues it.
///
/// # Safety
/// `map` must be the device address of a valid tensor map whose box fits at
/// `dst`; `bar` must be armed (`expect_tx`) for the bytes.
#[inline(always)]
pub unsafe fn tma_load_3d(dst: u32, map: u64, bar: u32, x: u32, y: u32, z: u32) {
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{dst}], [{map}, {{{x}, {y}, {z}}}], [{bar}];",
            dst = in(reg32) dst,
            map = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            bar = in(reg32) bar,
            options(nostack)
        )
    }
}

/// `setmaxnreg.dec.sync.aligned.u32 N;` (§9.7.17.1): this warpgroup gives
/// registers back to the multiprocessor's pool, down to `N` per thread (the
/// producer, which only issues copies). Needs a register cap at entry
/// (`.maxntid` with `.minnctapersm 1`).
#[inline(always)]
pub fn setmaxnreg_dec<const N: u32>() {
    unsafe { asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack)) }
}

/// `setmaxnreg.inc.sync.aligned.u32 N;` (§9.7.17.1): this warpgroup takes
/// registers from the pool, up to `N` per thread (the consumers, which hold
/// the accumulators); it waits until the producer has given them back.
#[inline(always)]
pub fn setmaxnreg_inc<const N: u32>() {
    unsafe { asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack)) }
}

/// `elect.sync _|p, 0xffffffff;` (§9.7.12.8): true in exactly one active
/// lane of the warp (the same one for every lane), without a branch on
/// the lane index.
#[inline(always)]
pub fn elect_one() -> bool {
    let elected: u32;
    unsafe {
        asm!(
            "{{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 {e}, 1, 0, p; }}",
            e = out(reg32) elected,
            options(nostack)
        )
    };
    elected != 0
}

/// `stmatrix.sync.aligned.m8n8.x4.shared.b16 [addr], {r0, r1, r2, r3};`
/// (PTX ISA 7.8, sm_90; the "stmatrix" section): the warp stores four 8×8 matrices of
/// 16-bit elements to shared memory. Register `i` of each lane holds its two
/// elements of matrix `i` in the `mma` C layout (row lane/4, columns
/// 2·(lane%4) and +1), packed; lanes `8i..8i+7` give the addresses of the 8
/// rows (16 bytes each) of matrix `i`. Four stores' worth of a warp's C in
/// one instruction, with each row placed wherever the address says (so the
/// rows can follow a swizzle).
#[inline(always)]
pub fn stmatrix_x4(addr: u32, regs: [u32; 4]) {
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x4.shared.b16 [{addr}], {{{r0}, {r1}, {r2}, {r3}}};",
            addr = in(reg32) addr,
            r0 = in(reg32) regs[0],
            r1 = in(reg32) regs[1],
            r2 = in(reg32) regs[2],
            r3 = in(reg32) regs[3],
            options(nostack)
        )
    }
}

/// `cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [map, {x, y, z}], [src];`
/// (PTX ISA 8.0, "cp.async.bulk.tensor"): the TMA stores the box at `src` in shared memory
/// (in the map's swizzle) to the 3-D tensor `map` at (x, y, z), dropping the
/// elements that fall outside the tensor. Asynchronous: the issuing thread
/// tracks it with [`bulk_commit_group`] and [`bulk_wait_group_read`]. The
/// shared-memory writes it reads must be made visible to the async proxy
/// first (`fence.proxy.async.shared::cta`).
///
/// # Safety
/// `map` must be the device address of a valid tensor map whose box is at
/// `src`.
#[inline(always)]
pub unsafe fn tma_store_3d(map: u64, src: u32, x: u32, y: u32, z: u32) {
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [{map}, {{{x}, {y}, {z}}}], [{src}];",
            map = in(reg64) map,
            src = in(reg32) src,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            options(nostack)
        )
    }
}

/// `cp.async.bulk.commit_group;` (PTX ISA 8.0): closes the group of this
/// thread's bulk copies (TMA stores) issued since the last commit.
#[inline(always)]
pub fn bulk_commit_group() {
    unsafe { asm!("cp.async.bulk.commit_group;", options(nostack)) }
}

/// `cp.async.bulk.wait_group.read N;` (PTX ISA 8.0): waits until all but
/// the `N` most recent bulk groups this thread committed have finished
/// reading their shared memory (the writes to global memory may still be
/// under way): those groups' source buffers may then be reused.
#[inline(always)]
pub fn bulk_wait_group_read<const N: u32>() {
    unsafe { asm!("cp.async.bulk.wait_group.read {n};", n = const N, options(nostack)) }
}

/// `cp.async.bulk.wait_group 0;` (PTX ISA 8.0): waits until every bulk group
/// this thread committed has completed, writes included.
#[inline(always)]
pub fn bulk_wait_group() {
    unsafe { asm!("cp.async.bulk.wait_group 0;", options(nostack)) }
}

// Thread-block clusters (sm_90): blocks launched together on one GPC that
// can read, write and signal each other's shared memory (the "distributed
// shared memory"), and the TMA copies that land in several of them at once.

/// `mov.u32 r, %cluster_ctarank;` (PTX ISA, "Special Registers"): this
/// block's rank in its cluster, 0 to the cluster's size − 1.
#[inline(always)]
pub fn cluster_rank() -> u32 {
    let rank: u32;
    unsafe { asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) rank, options(nostack, nomem, pure)) };
    rank
}

/// `mov.u32 r, %cluster_nctarank;` (PTX ISA, "Special Registers"): the
/// blocks in this block's cluster (1 when launched without clusters).
#[inline(always)]
pub fn cluster_size() -> u32 {
    let size: u32;
    unsafe { asm!("mov.u32 {r}, %cluster_nctarank;", r = out(reg32) size, options(nostack, nomem, pure)) };
    size
}

/// `barrier.cluster.arrive.release;` then `barrier.cluster.wait.acquire;`
/// (§9.7.13.3, "barrier.cluster"): every thread of every block of the
/// cluster waits here for all the others; what each wrote before (barrier
/// initializations included) is visible to all after. The forms without
/// `.aligned`, so the threads of a warp may arrive from different branches.
#[inline(always)]
pub fn cluster_sync() {
    unsafe { asm!("barrier.cluster.arrive.release;", "barrier.cluster.wait.acquire;", options(nostack)) }
}

/// `mapa.shared::cluster.u32 d, addr, rank;` (§9.7.9.22, "mapa"): the
/// address in block `rank` of the cluster of what lies at shared-memory
/// address `addr` in this block (every block of a kernel has the same
/// layout), for the `shared::cluster` forms of other instructions.
#[inline(always)]
pub fn cluster_address(addr: u32, rank: u32) -> u32 {
    let mapped: u32;
    unsafe {
        asm!(
            "mapa.shared::cluster.u32 {d}, {a}, {r};",
            d = out(reg32) mapped,
            a = in(reg32) addr,
            r = in(reg32) rank,
            options(nostack, nomem, pure)
        )
    };
    mapped
}

/// `mbarrier.arrive.shared::cluster.b64 _, [bar];` (§9.7.13.15.13): one
/// arrival on a barrier of any block of the cluster (`bar` from
/// [`cluster_address`]), with the default semantics (release at CTA scope,
/// as CUTLASS's cluster barriers; release at cluster scope measured 2.5×
/// slower for the whole kernel, PERF step 45).
#[inline(always)]
pub fn mbarrier_arrive_cluster(bar: u32) {
    unsafe { asm!("mbarrier.arrive.shared::cluster.b64 _, [{bar}];", bar = in(reg32) bar, options(nostack)) }
}

/// [`tma_load_3d`] to every block of the cluster named in `blocks` (bit
/// `r` for rank `r`): `cp.async.bulk.tensor.3d.shared::cluster.global.tile
/// .mbarrier::complete_tx::bytes.multicast::cluster [dst], [map, {x, y, z}],
/// [bar], blocks;` (§9.7.9.25.5.1). The box is read from L2 once and lands
/// at the same offset `dst` in each block's shared memory, its bytes
/// counted on the barrier at offset `bar` in each.
///
/// # Safety
/// As [`tma_load_3d`], in every block named; the blocks' barriers must be
/// armed for the bytes.
#[inline(always)]
pub unsafe fn tma_load_3d_multicast(dst: u32, map: u64, bar: u32, x: u32, y: u32, z: u32, blocks: u16) {
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{dst}], [{map}, {{{x}, {y}, {z}}}], [{bar}], {mask};",
            dst = in(reg32) dst,
            map = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            bar = in(reg32) bar,
            mask = in(reg16) blocks,
            options(nostack)
        )
    }
}
