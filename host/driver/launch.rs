//! The launch of one planned GEMM kernel: a [`Plan`] (the call reduced to
//! what a kernel takes, made and checked by the public API) becomes the
//! kernel's 18 parameters, its grid and its block, enqueued on the GPU's
//! stream.

use crate::driver::cluster;
use crate::driver::error::{During, GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::kernels::entry_name;
use crate::driver::operand_copies::{b_rows_twin_for, operand_copies, rows_on_multiple_of};
use crate::driver::tensor_map::{TensorMap, packed_plan, tensor_maps, tma_refusal};
use cust::function::GridSize;
use gemm_launch::{
    Algorithm, KernelSpec, OperandLayout, c_rows_twin, group_rows, persistent_grid, stream_k, tiles as tiles_of,
};
use std::ffi::c_void;

/// Why `spec` cannot run this planned call, for a reason of its operands
/// (`None`: it can): [`tma_refusal`] for the TMA kernels, and for step 86's
/// tensor-core memory-bound kernels a large operand that is not contiguous
/// along K ([`gemm_launch::memory_bound::mma_refusal`]). A named kernel is
/// refused with this reason; `auto` passes such kernels over.
pub fn call_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<String> {
    let layout = plan.layout;
    gemm_launch::memory_bound::mma_refusal(spec, plan.m, plan.n, layout.a_col_major, layout.b_col_major)
        .map(String::from)
        .or_else(|| tma_refusal(spec, plan, pointers))
}

/// [`call_refusal`] for an `m × n × k` call on packed row-major operands
/// (`tensor_map::packed_plan`: the CLI's, the tuner's).
pub fn packed_call_refusal(spec: &KernelSpec, m: usize, n: usize, k: usize) -> Option<String> {
    call_refusal(spec, &packed_plan(m, n, k), [0; 3])
        .map(|reason| format!("{reason} (packed row-major operands: {m}×{n}×{k})"))
}

/// A checked call, reduced to what a kernel launch takes: the problem as
/// the kernel sees it (row-major C; A and B swapped when C is column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub layout: OperandLayout,
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
    pub stride_a: u64,
    pub stride_b: u64,
    pub stride_c: u64,
    pub batch: u32,
    /// The kernel's A is the caller's B and vice versa (`Cᵀ = Bᵀ·Aᵀ`).
    pub swapped: bool,
    /// K of the batch's last matrix where it differs from `k`: a split's
    /// shorter last chunk, run in the launch of the other chunks
    /// (`api::split_k::partial_launches`). `None` for every other plan.
    pub k_last: Option<u32>,
}

impl Plan {
    /// The call's work, 2·M·N·K·batch flops (saturating).
    pub fn flop(&self) -> u64 {
        [self.n, self.k, self.batch].iter().fold(2 * self.m as u64, |f, &d| f.saturating_mul(d as u64))
    }
}

impl Gpu {
    /// Whether this GPU can place `spec`'s thread-block clusters (for its
    /// `layout` entry) at all: not where an MPS or MIG share leaves too few
    /// multiprocessors in a GPC. Kernels without clusters: true.
    pub fn clusters_fit(&self, spec: &KernelSpec, layout: OperandLayout) -> bool {
        spec.cluster_blocks() == 1
            || self.launchable(spec, layout).is_ok_and(|module| {
                module.get_function(entry_name(spec, layout)).is_ok_and(|f| self.active_clusters(spec, &f).is_ok())
            })
    }

    /// The grid of a stream-K launch of `spec` for `plan` (every SM, per
    /// matrix of the batch) where it shares tiles out
    /// (`stream_k::shared_tiles`); `None`: it runs data-parallel.
    pub(crate) fn stream_k_grid(&self, spec: &KernelSpec, plan: &Plan) -> Option<u32> {
        if !spec.features.stream_k {
            return None;
        }
        let grid = persistent_grid(u64::MAX, plan.batch, self.info.multiprocessors as u32);
        let tiles = u32::try_from(spec.grid(plan.m, plan.n)).ok()?;
        let shares = stream_k::shared_tiles(tiles, plan.k.div_ceil(spec.tile.bk), grid) > 0;
        shares.then_some(grid)
    }

    /// Enqueues one launch of `spec` for a checked [`Plan`] (the public
    /// API's `Gpu::gemm` makes the plan): `pointers` are the device
    /// addresses of the kernel's A, B and C. `group_m` overrides the spec's
    /// grouped tile order.
    pub(crate) fn launch(
        &self,
        spec: &KernelSpec,
        plan: &Plan,
        pointers: [u64; 3],
        alpha: f32,
        beta: f32,
        group_m: Option<u32>,
    ) -> Result<()> {
        // B's rows off 16 bytes: the twin that reads them in place, where
        // the kernel has one and it pays (step 10h).
        let spec = b_rows_twin_for(spec, plan, pointers).unwrap_or(spec);
        let copies = operand_copies(spec, plan, pointers);
        if let Some(k_last) = plan.k_last {
            // Only some kernels read `k_last`; and where the copies copy `k`
            // of each matrix, the shorter last matrix is a launch of its own.
            if !spec.takes_k_last() || copies.is_some() {
                return self.launch_unragged(spec, plan, k_last, pointers, alpha, beta, group_m);
            }
        }
        if let Some(call) = copies {
            // Refuse before copying anything.
            self.launchable(spec, call.plan.layout)?;
            if let Some(reason) = tma_refusal(spec, plan, pointers) {
                return Err(GemmError::Unsupported { kernel: spec.name.into(), reason });
            }
            return self.with_operand_copies(plan, &call, pointers, |plan, pointers| {
                self.launch(spec, plan, pointers, alpha, beta, group_m)
            });
        }
        // C's rows off what the kernel's lanes store at once: the twin entry
        // whose epilogue writes them whole, where the kernel has one (same
        // tile and grid) and it pays at this K.
        let bytes = spec.dtype.element_bytes() as u64;
        let c_rows_off = |alignment: u32| {
            !rows_on_multiple_of(pointers[2], plan.ldc, plan.stride_c, plan.batch, bytes, alignment as u64)
        };
        let twin = c_rows_twin(spec, plan.k).filter(|record| c_rows_off(record.alignment));
        let entry_spec = twin.map_or(spec, |record| &record.twin);
        let entry = entry_name(entry_spec, plan.layout);
        let module = self.launchable(entry_spec, plan.layout)?;
        let tiles = spec.grid(plan.m, plan.n);
        if tiles > i32::MAX as u64 {
            return Err(GemmError::DimensionTooLarge { what: "number of C tiles", value: tiles, max: i32::MAX as u64 });
        }
        let f = module.get_function(&entry).during("kernel lookup")?;
        // At most the grid's tile rows, whatever the caller or a tune cache
        // asked: larger groups are the same order, and would wrap the
        // kernels' tile map (`gemm_launch::group_rows`).
        let group_m = group_rows(group_m.unwrap_or(spec.default_group_m), tiles_of(plan.m, spec.tile.bm.max(1)));
        let [mut pa, mut pb, mut pc] = pointers;
        let (mut m, mut n, mut k, mut k_last) = (plan.m, plan.n, plan.k, plan.k_last.unwrap_or(plan.k));
        let (mut lda, mut ldb, mut ldc) = (plan.lda, plan.ldb, plan.ldc);
        let (mut alpha, mut beta) = (alpha, beta);
        let (mut sa, mut sb, mut sc) = (plan.stride_a, plan.stride_b, plan.stride_c);
        let mut group_m = group_m;
        if let Some(reason) = call_refusal(spec, plan, pointers) {
            return Err(GemmError::Unsupported { kernel: spec.name.into(), reason });
        }
        let maps =
            if spec.algorithm == Algorithm::WarpSpecialized { Some(tensor_maps(spec, plan, pointers)?) } else { None };
        let cluster = spec.cluster_blocks();
        let sms = self.info.multiprocessors as u32;
        let stream_k_grid = self.stream_k_grid(spec, plan);
        self.with_stream_k(stream_k_grid.is_some(), |workspace| {
            let blocks = if let (Some(grid), Some(_)) = (stream_k_grid, workspace) {
                grid
            } else if spec.is_persistent() && cluster > 1 {
                // Whole clusters, as many as run at once.
                let clusters = self.active_clusters(entry_spec, &f)?;
                cluster * persistent_grid(spec.cluster_units(plan.m, plan.n), plan.batch, clusters)
            } else if spec.is_persistent() {
                persistent_grid(tiles, plan.batch, sms * spec.min_blocks_per_sm)
            } else {
                tiles as u32
            };
            let maps = maps.map(|maps| maps.slots(TensorMap::stream_k_addresses(workspace)));
            let grid = GridSize::xyz(blocks, 1, plan.batch);
            self.with_tensor_maps(maps, |mut maps_address, reused| {
                let mut maps_reused = reused as u32;
                // In the order of the entry's parameters (`kernel_entries!` in kernels-gpu).
                let args: [*mut c_void; 18] = [
                    &mut pa as *mut _ as *mut c_void,
                    &mut pb as *mut _ as *mut c_void,
                    &mut pc as *mut _ as *mut c_void,
                    &mut m as *mut _ as *mut c_void,
                    &mut n as *mut _ as *mut c_void,
                    &mut k as *mut _ as *mut c_void,
                    &mut lda as *mut _ as *mut c_void,
                    &mut ldb as *mut _ as *mut c_void,
                    &mut ldc as *mut _ as *mut c_void,
                    &mut alpha as *mut _ as *mut c_void,
                    &mut beta as *mut _ as *mut c_void,
                    &mut sa as *mut _ as *mut c_void,
                    &mut sb as *mut _ as *mut c_void,
                    &mut sc as *mut _ as *mut c_void,
                    &mut group_m as *mut _ as *mut c_void,
                    &mut maps_address as *mut _ as *mut c_void,
                    &mut maps_reused as *mut _ as *mut c_void,
                    &mut k_last as *mut _ as *mut c_void,
                ];
                if cluster > 1 {
                    unsafe {
                        cluster::launch(
                            &f,
                            self.stream(),
                            grid,
                            spec.threads(),
                            entry_spec.smem_bytes(),
                            cluster,
                            &args,
                        )
                    }
                } else {
                    unsafe { self.stream().launch(&f, grid, spec.threads(), entry_spec.smem_bytes(), &args) }
                        .during("kernel launch")
                }
            })
        })
    }
    /// A plan whose last matrix is `k_last` deep as two launches: the
    /// other matrices, then the last one alone.
    #[allow(clippy::too_many_arguments)]
    fn launch_unragged(
        &self,
        spec: &KernelSpec,
        plan: &Plan,
        k_last: u32,
        [a, b, c]: [u64; 3],
        alpha: f32,
        beta: f32,
        group_m: Option<u32>,
    ) -> Result<()> {
        let last = plan.batch as u64 - 1;
        if last > 0 {
            let head = Plan { batch: plan.batch - 1, k_last: None, ..*plan };
            self.launch(spec, &head, [a, b, c], alpha, beta, group_m)?;
        }
        let (in_bytes, out_bytes) = (spec.dtype.element_bytes() as u64, c_element_bytes(spec));
        let tail = Plan { k: k_last, batch: 1, k_last: None, ..*plan };
        let pointers = [
            a + last * plan.stride_a * in_bytes,
            b + last * plan.stride_b * in_bytes,
            c + last * plan.stride_c * out_bytes,
        ];
        self.launch(spec, &tail, pointers, alpha, beta, group_m)
    }
}

/// Bytes of one element of `spec`'s C: f32 for the f32 and TF32 kernels and
/// the f32-output twins, else the dtype's own.
fn c_element_bytes(spec: &KernelSpec) -> u64 {
    if gemm_launch::split_k::writes_f32(spec) { 4 } else { spec.dtype.element_bytes() as u64 }
}
