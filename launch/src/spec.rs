//! What a kernel is: its element type, algorithm, tile, optional features,
//! operand layouts and target architecture ([`KernelSpec`]). Plain data; the
//! numbers a launch derives from it are in [`crate::geometry`], and the
//! kernels themselves in [`crate::kernels`].

/// Shape of the work one thread block does, and of the part of it each
/// thread owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Rows of C per block.
    pub bm: u32,
    /// Columns of C per block.
    pub bn: u32,
    /// Depth of the K slice staged in shared memory per step.
    pub bk: u32,
    /// Rows of C per thread.
    pub tm: u32,
    /// Columns of C per thread.
    pub tn: u32,
}

/// Element type of A, B and C. Accumulation is f32 for every type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    /// IEEE f32, computed exactly on CUDA cores.
    F32,
    /// f32 in memory, multiplied on tensor cores with operands rounded to
    /// TF32 (10-bit mantissa), as PyTorch's `allow_tf32`.
    Tf32,
    F16,
    Bf16,
}

impl Dtype {
    pub const ALL: [Dtype; 4] = [Dtype::F32, Dtype::Tf32, Dtype::F16, Dtype::Bf16];

    pub const fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::Tf32 => "tf32",
            Dtype::F16 => "f16",
            Dtype::Bf16 => "bf16",
        }
    }

    /// Bytes per element in memory.
    pub const fn element_bytes(self) -> u32 {
        match self {
            Dtype::F32 | Dtype::Tf32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
        }
    }
}

/// Which algorithm a kernel implements; each is one step of the ladder and
/// one kernel in `kernels-gpu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One thread per element of C, operands straight from global memory.
    Naive,
    /// Square tiles of A and B staged in shared memory (the seeds' kernel).
    Tiled,
    /// Each thread computes a column of `tm` outputs.
    RegisterBlocked1d,
    /// Each thread computes a `tm × tn` block of outputs.
    RegisterBlocked2d,
    /// 2-D blocking with 128-bit global loads, A transposed in shared memory
    /// and conflict-free 128-bit shared reads.
    Vectorized,
    /// `Vectorized` with two shared-memory stages: the next K slice is loaded
    /// while the current one is multiplied.
    DoubleBuffered,
    /// A multi-stage pipeline of `cp.async` copies (global → shared without
    /// registers), several K slices in flight.
    AsyncPipeline,
    /// `DoubleBuffered` with warp tiling: `tm × tn` is the warp tile, its
    /// 32 lanes a [`crate::WARP_LANES_M`] × [`crate::WARP_LANES_N`] grid of
    /// threads, each owning 4×4 sub-tiles repeated across the warp tile; the
    /// A/B fragments of the next k are loaded while the current ones multiply.
    WarpTiled,
    /// Tensor cores: `mma.sync` on warp tiles fed by `ldmatrix` from swizzled
    /// shared memory, filled by a `cp.async` pipeline. `tm × tn` is the warp
    /// tile; each warp is 32 threads.
    TensorCore,
    /// Hopper warpgroup MMA (`wgmma.mma_async`, operands read from swizzled
    /// shared memory through descriptors). `tm × tn` is the warpgroup tile;
    /// each warpgroup is 128 threads.
    Wgmma,
    /// Hopper, warp-specialized and persistent: one producer warp loads
    /// tiles with the TMA into a ring of shared-memory stages guarded by
    /// `mbarrier`s, while consumer warpgroups (`tm × tn` each) multiply with
    /// `wgmma`; one block per SM walks the tiles of C. See [`crate::tma`].
    WarpSpecialized,
    /// M or N ≤ 16: the large operand streamed once at memory speed, the
    /// small one in registers and shared memory; see [`crate::memory_bound`].
    MemoryBound,
}

/// The GPU architecture a kernel's PTX module is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// Ampere and newer (`sm_80` PTX, JIT-compiled by the driver for the GPU).
    Sm80,
    /// Hopper only (`sm_90a`: `wgmma` has no portable form).
    Sm90a,
}

impl Arch {
    pub const ALL: [Arch; 2] = [Arch::Sm80, Arch::Sm90a];

    /// The name `-Ctarget-cpu` and `.target` use.
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm80 => "sm_80",
            Arch::Sm90a => "sm_90a",
        }
    }
}

/// Optional parts of the tensor-core kernels, switched off one at a time by
/// the ablation configurations (`ABLATE_*`) to measure what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Operand fragments loaded with `ldmatrix` (else gathered with 32- and
    /// 16-bit shared loads in the `mma` register layout).
    pub ldmatrix: bool,
    /// XOR-swizzled shared-memory tiles (else plain rows, with bank conflicts).
    pub swizzle: bool,
    /// f16/bf16 epilogue staged through shared memory for 16-byte stores
    /// (else 4-byte stores straight from registers). A tuning choice, not an
    /// ablation: it helps 64×64 warp tiles and costs 32×64 ones (PERF.md).
    pub staged_epilogue: bool,
    /// An f16/bf16 kernel whose C is f32: the f32 accumulators written as
    /// they are, unrounded. It computes the partial sums of a split-K call
    /// (`crate::split_k::F32_OUTPUT_TWINS`, `TMA_F32_OUTPUT_TWINS`,
    /// `SAME_TILE_TWINS`, and the memory-bound kernels' own,
    /// `MEMORY_BOUND_F32_OUTPUT_TWINS`) and nothing else: the host never
    /// offers it for a 16-bit C (not chosen, tuned, listed or accepted).
    pub f32_output: bool,
    /// A persistent grid (`Algorithm::WarpSpecialized`): one block per SM
    /// looping over the tiles, so a block's next tile loads while it stores
    /// C. Off: one block per tile (the ablation that measures it).
    pub persistent: bool,
    /// An ablation whose other flags do not show what it leaves out (step
    /// 10's C stored from registers, against its TMA store): never tuned or
    /// chosen.
    pub ablation: bool,
    /// Step 7b (f32 on CUDA cores): a lane's FMAs walk its outputs row by
    /// row with the column direction reversed on every other row (CUTLASS's
    /// serpentine order), so consecutive FFMAs share an operand register at
    /// each row turn too. Else every row left to right. A tuning choice, not
    /// an ablation: +2.7% on 16×8 outputs per lane, −2% on 8×8 under the
    /// 128-register cap (PERF step 42).
    pub serpentine_fma: bool,
    /// Blocks per thread-block cluster along M (`Algorithm::WarpSpecialized`;
    /// 1: no clusters). With 2, the blocks of a cluster compute two
    /// vertically adjacent tiles of C, which read the same B tile: each
    /// block has the TMA load half of it and multicast that half into both
    /// blocks' shared memory, so B comes out of L2 once per pair. The host
    /// launches such a kernel with cluster dimensions (`cuLaunchKernelEx`).
    pub cluster_m: u32,
    /// Stream-K (`Algorithm::WarpSpecialized`, no clusters): where the
    /// tiles leave the persistent grid's last wave part-empty, the blocks
    /// share out some tiles' K slices evenly and add the partial sums in a
    /// workspace ([`crate::stream_k`]). The grid is then every SM.
    pub stream_k: bool,
    /// Boxes of C ([`crate::tma::c_box`]) each consumer warpgroup of a
    /// warp-specialized kernel stages at once for its TMA stores. 0: its
    /// whole share of the tile, one store group per tile. n > 0: n box
    /// buffers taken in turn, one store group per box, so a box is staged
    /// while the last one's store reads its buffer; what this saves can go
    /// to the stage ring (128×256: 4 stages where the whole share leaves 3,
    /// measured slower: `ABLATE_F16_WS_4_STAGES`).
    pub c_staging_boxes: u32,
    /// An entry for C's rows off 16 bytes: its epilogue passes C through
    /// shared memory so that a warp's stores write 128 consecutive bytes of
    /// a row. Step 7b's 256×128 (f32), where 4-byte stores of a lane's
    /// 4-wide chunks would cover every sector of each row 4 times; step
    /// 10f's swapped TF32 tiles, whose lanes store pairs of columns spread
    /// over 4 rows ([`crate::tma::F32_ROUND_ROWS`] rows of C at a time, in
    /// one staged box per consumer). The host launches it in place of its
    /// twin where a launch's C's rows are off what the twin's lanes store
    /// at once and K is where it pays ([`crate::CRowsTwin`]).
    pub c_rows_off_16_bytes: bool,
    /// An entry for a row-major B whose rows are off 16 bytes (a TF32 N
    /// that is no multiple of 4, or an operand view at an odd offset),
    /// which the other TMA kernels read through a realigned copy: the TMA
    /// reads it in place, rows `k ≡ r (mod 4)` through map `r` of four
    /// ([`crate::tma::B_ROW_RESIDUES`]). The host launches it in place of
    /// its base where B's copy would cost more than the reading saves
    /// ([`crate::BRowsTwin`]).
    pub b_rows_by_residue: bool,
}

impl Features {
    pub const ALL: Features = Features {
        ldmatrix: true,
        swizzle: true,
        staged_epilogue: true,
        f32_output: false,
        persistent: true,
        ablation: false,
        serpentine_fma: true,
        cluster_m: 1,
        stream_k: false,
        c_staging_boxes: 0,
        c_rows_off_16_bytes: false,
        b_rows_by_residue: false,
    };
    /// Everything except the staged epilogue.
    pub const DIRECT_EPILOGUE: Features = Features { staged_epilogue: false, ..Features::ALL };
    /// The direct epilogue writing f32 C (split-K partial sums only).
    pub const F32_OUTPUT: Features = Features { f32_output: true, ..Features::DIRECT_EPILOGUE };

    /// Whether this set leaves out an optimization on purpose (an ablation).
    pub const fn is_ablation(&self) -> bool {
        self.ablation || !self.ldmatrix || !self.swizzle || !self.persistent
    }
}

/// How A and B lie in memory. `C = A·B` is written for row-major operands
/// (`N`); a column-major operand (`T`: its transpose is what is stored
/// row-major) is read in place, without a copy, by kernels compiled for it.
/// A column-major C needs no kernel of its own: the host computes
/// `Cᵀ = Bᵀ·Aᵀ` instead, which swaps A and B and flips both layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandLayout {
    pub a_col_major: bool,
    pub b_col_major: bool,
}

impl OperandLayout {
    /// Both row-major: the layout every kernel supports.
    pub const NN: OperandLayout = OperandLayout { a_col_major: false, b_col_major: false };
    /// Row-major A, column-major B: both K-major.
    pub const NT: OperandLayout = OperandLayout { a_col_major: false, b_col_major: true };
    pub const ALL: [OperandLayout; 4] = [
        OperandLayout::NN,
        OperandLayout { a_col_major: false, b_col_major: true },
        OperandLayout { a_col_major: true, b_col_major: false },
        OperandLayout { a_col_major: true, b_col_major: true },
    ];

    /// What the kernel's PTX entry name carries after the spec's name
    /// (BLAS's letters for A then B; none for NN).
    pub const fn suffix(self) -> &'static str {
        match (self.a_col_major, self.b_col_major) {
            (false, false) => "",
            (false, true) => "_nt",
            (true, false) => "_tn",
            (true, true) => "_tt",
        }
    }
}

/// Which operand layouts a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layouts {
    /// Row-major A and B only (the teaching ladder, the ablations).
    RowMajor,
    /// All four: one PTX entry per [`OperandLayout`].
    Any,
    /// One entry, NT: both operands K-major (row-major A, column-major B),
    /// the only layout TF32 `wgmma` reads and the TMA can bring in without
    /// a transpose. The host takes every layout to it by copying the
    /// MN-major operands transposed first (`host/driver/operand_copies.rs`).
    KMajor,
    /// One entry, NN: row-major A (K-major) and B (N-major), the layout
    /// step 10f's swapped TF32 kernels read in place ([`crate::tma::swapped`]:
    /// B through registers). The host copies a column-major operand
    /// transposed first, as for [`Layouts::KMajor`].
    NMajorB,
    /// Three entries, NN, NT and TT: the layouts in which the large operand
    /// of an M or N ≤ 16 call can be contiguous along K (step 86's
    /// tensor-core memory-bound kernels; which side is small decides it at
    /// run time, `crate::memory_bound::mma_refusal`). TN (column-major A,
    /// row-major B) has it along the long side whichever side is small.
    AlongK,
    /// Three entries, NN, TN and TT: the layouts in which the large operand
    /// of an M or N ≤ 16 call can be contiguous along its long side (step
    /// 104's tensor-core memory-bound kernels,
    /// `crate::memory_bound::mma_refusal`). NT (row-major A, column-major B)
    /// has it along K whichever side is small.
    AlongL,
}

impl Layouts {
    /// The layouts with entries, for messages ("row-major A and B only").
    pub const fn description(self) -> &'static str {
        match self {
            Layouts::RowMajor => "row-major A and B only",
            Layouts::Any => "every layout",
            Layouts::KMajor => "every layout (the nt entry; other layouts copied to it transposed)",
            Layouts::NMajorB => "every layout (the nn entry; other layouts copied to it transposed)",
            Layouts::AlongK => "every layout but column-major A with row-major B",
            Layouts::AlongL => "every layout but row-major A with column-major B",
        }
    }
}

/// Everything the host needs to launch a kernel, and the kernel needs to be
/// compiled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelSpec {
    /// The PTX entry point (`.entry` name). A CPU test checks that every spec
    /// has its entry in the embedded PTX.
    pub name: &'static str,
    pub dtype: Dtype,
    pub algorithm: Algorithm,
    pub tile: Tile,
    /// Shared-memory stages (0 for kernels that use none).
    pub stages: u32,
    /// Grouped tile order used unless the caller overrides it (1 = row-major
    /// order of tiles, i.e. grouping off).
    pub default_group_m: u32,
    /// Which optimizations a tensor-core kernel uses (all, except in the
    /// ablations that measure each one's worth).
    pub features: Features,
    /// Blocks that must fit on one multiprocessor at once (0: no demand).
    /// `build.rs` writes it into the PTX as `.maxntid threads` and
    /// `.minnctapersm` (CUDA C++'s `__launch_bounds__`), so ptxas caps the
    /// registers per thread at `65536 / (threads × blocks)`.
    pub min_blocks_per_sm: u32,
    /// The operand layouts compiled in (each one a PTX entry).
    pub layouts: Layouts,
    /// Which PTX module holds the kernel.
    pub arch: Arch,
}

impl KernelSpec {
    /// Whether the kernel's entry for `layout` has not been timed on a GPU:
    /// the column-major entries of the warp-tiled f32 kernels (step 7b),
    /// which pass the GPU tests but were timed with row-major operands
    /// only. The built-in choice, the tuner and `gemm --kernel all` skip
    /// such entries (step 6's tiles take those layouts); named, they run.
    /// The run that times an entry removes it from this test (step 10 went
    /// through it: PERF step 28).
    pub const fn is_unmeasured_in(&self, layout: OperandLayout) -> bool {
        let col_major = layout.a_col_major || layout.b_col_major;
        matches!(self.algorithm, Algorithm::WarpTiled) && col_major
    }

    /// Whether this is one of step 70's skinny `mma.sync` tiles (16 rows or
    /// columns, for M or N ≤ 16), which stream the large operand. Since
    /// step 92 their partial sums run on their own f32-output twins
    /// (`split_k::SAME_TILE_TWINS`; before, on 128×128 tiles, 7/8 of them
    /// padding: H100, PERF.md step 70, f16 16384×16×4096 57% of cuBLAS
    /// split in 4, 99.6% unsplit), and `SplitK::Auto` splits them only
    /// where their blocks fill under half a wave, for one wave of one
    /// block per multiprocessor (`split_k::SKINNY_TILES_WAVES`).
    pub const fn is_skinny_tile(&self) -> bool {
        matches!(self.algorithm, Algorithm::TensorCore) && (self.tile.bm <= 16 || self.tile.bn <= 16)
    }

    /// Whether the kernel's entries read `k_last`, the K of the last matrix
    /// of a strided batch, so that a split's shorter last chunk runs in the
    /// launch of the other chunks: the warp-tiled kernels of steps 7b and
    /// 7c, on which the f32 split runs its partial sums
    /// (`split_k::f32_split`), the memory-bound kernels, whose deep-K
    /// splits rarely divide K (PERF.md step 80: f16 7×5×300001 ran its last
    /// chunk as one block of its own), and step 10's f32-output twins, the
    /// 16-bit TMA partial sums, which read that matrix through maps of A and
    /// B whose K ends at `k_last` (`tma::LAST_CHUNK_MAPS_OFFSET`; PERF.md
    /// step 105). The other entries take the parameter and ignore it:
    /// reading it costs a register for the whole kernel, and three kernels
    /// at their register caps spilled (`tgemm_mma_128x128x32`,
    /// `sgemm_db_128x128x8`, `sgemm_db_256x128x8_tn`); the host runs their
    /// last chunk as a launch of its own.
    pub const fn takes_k_last(&self) -> bool {
        matches!(self.algorithm, Algorithm::WarpTiled | Algorithm::MemoryBound)
            || (matches!(self.algorithm, Algorithm::WarpSpecialized) && self.features.f32_output)
    }

    /// Whether the kernel's main loop has step 7b's unchecked variant: the
    /// register-staged warp tiles without a 128-register cap (one block per
    /// multiprocessor). While a slice lies wholly inside A and B and their
    /// rows lie on 16 bytes, its loads take no bounds test; with either
    /// operand's rows off 16 bytes, every slice takes the checked loop and
    /// its element-by-element loads (H100, PERF.md step 77's run 2:
    /// `wt_256x128x8` at 777×1000×2764 split in 4, 0.141 ms; with K = 2761,
    /// 0.286).
    pub const fn has_unchecked_loop(&self) -> bool {
        matches!(self.algorithm, Algorithm::WarpTiled) && self.stages == 2 && self.min_blocks_per_sm < 2
    }

    /// Whether an f32 call realigns this kernel's operands where their rows
    /// lie off 16 bytes (`operand_copies::f32_realign_pays`): steps 6–7b's
    /// register-staged tiles, whose 16-byte loads need rows on 16 bytes and
    /// which otherwise load every tile element by element. Step 7c's
    /// `cp.async` rings (more than two stages) copy such rows 4 bytes at a
    /// time, asynchronously, and read them in place.
    pub const fn realigns_f32_rows(&self) -> bool {
        matches!(self.dtype, Dtype::F32)
            && (matches!(self.algorithm, Algorithm::DoubleBuffered)
                || (matches!(self.algorithm, Algorithm::WarpTiled) && self.stages == 2))
    }

    /// Whether a call whose operands lie as `layout` can run on the kernel
    /// (through the entry [`KernelSpec::entry_layout`] names).
    pub const fn supports(&self, layout: OperandLayout) -> bool {
        match self.layouts {
            Layouts::Any | Layouts::KMajor | Layouts::NMajorB => true,
            Layouts::RowMajor => !layout.a_col_major && !layout.b_col_major,
            Layouts::AlongK => !layout.a_col_major || layout.b_col_major,
            Layouts::AlongL => layout.a_col_major || !layout.b_col_major,
        }
    }

    /// The layout of the entry that runs a call in `layout`: itself, or NT
    /// for a K-major kernel, NN for a swapped one (after the host's
    /// transposed copies).
    pub const fn entry_layout(&self, layout: OperandLayout) -> OperandLayout {
        match self.layouts {
            Layouts::KMajor => OperandLayout::NT,
            Layouts::NMajorB => OperandLayout::NN,
            _ => layout,
        }
    }

    /// Whether the kernel multiplies with its operands swapped, B through
    /// registers (step 10f, [`Layouts::NMajorB`]; `crate::tma::swapped`).
    pub const fn is_swapped(&self) -> bool {
        matches!(self.layouts, Layouts::NMajorB)
    }

    /// Whether the kernel has a PTX entry of its own for `layout`.
    pub const fn has_entry(&self, layout: OperandLayout) -> bool {
        let entry = self.entry_layout(layout);
        self.supports(layout) && entry.a_col_major == layout.a_col_major && entry.b_col_major == layout.b_col_major
    }
}
