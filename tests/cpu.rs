//! Tests that need no GPU: the f64 reference and error measure, shape
//! checks, launch geometry, the embedded PTX, dtype/kernel lookup and the
//! tuning cache.

use gemm_launch::{Algorithm, KERNELS, OperandLayout, tile_coords, tiles};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rgemm::GemmError;
use rgemm::api::choice::{F32_SPLIT_TILES_MAX_QUARTERS, F32_SPLIT_TILES_MIN_K};
use rgemm::api::{Batch, MatrixDesc, check_alignment, plan};
use rgemm::kernels::{
    Dtype, DtypeExt, MAX_DIM, check_shape, entries, entry_name, find_kernel, parse_dtype, short_name,
};
use rgemm::matrix::Matrix;
use rgemm::ptx::{PTX_SM80, PTX_SM90A, SPILLS_ON_SM8X, entry_refusal, module_runs_on, ptx};
use rgemm::reference::{Reference, dgemm};
use rgemm::sweep::parse_shapes;
use rgemm::tune::{Choice, TuneCache, cache_key, choose_kernel, default_choice, load_or_warn, tuned_choices};

fn rng() -> StdRng {
    StdRng::seed_from_u64(0x5eed)
}

/// The textbook triple loop, in f64.
fn triple_loop(a: &Matrix, b: &Matrix) -> Vec<f64> {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|p| a.data[i * k + p] as f64 * b.data[p * n + j] as f64).sum();
        }
    }
    c
}

fn to_f32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

#[test]
fn dgemm_matches_triple_loop() {
    let mut rng = rng();
    for (m, n, k) in [(1, 1, 1), (7, 5, 3), (33, 17, 65)] {
        let (a, b) = (Matrix::random(m, k, &mut rng), Matrix::random(k, n, &mut rng));
        let got = dgemm(&a.to_f64(), &b.to_f64(), m, n, k);
        let want = triple_loop(&a, &b);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-12 * (1.0 + w.abs()), "{g} vs {w}");
        }
    }
}

#[test]
fn random_inputs_are_not_zero() {
    let a = Matrix::random(64, 64, &mut rng());
    assert!(a.data.iter().all(|&x| x != 0.0 && x.is_finite()));
    assert!(a.data.iter().any(|&x| x < 0.0) && a.data.iter().any(|&x| x > 0.0));
}

#[test]
fn full_reference_accepts_exact_and_rejects_wrong_or_unwritten() {
    let mut rng = rng();
    let (a, b) = (Matrix::random(19, 23, &mut rng), Matrix::random(23, 29, &mut rng));
    let exact = triple_loop(&a, &b);
    let reference = Reference::new(&a, &b, &mut rng);
    assert!(reference.is_full());
    let mut c = to_f32(&exact);
    assert!(reference.relative_error(&c) < 1e-7);
    // One wrong element anywhere is seen.
    c[19 * 29 - 1] += 1.0;
    assert!(reference.relative_error(&c) > Dtype::F32.tolerance(23));
    // One element left as the NaN poison fails every bound.
    let mut c = to_f32(&exact);
    c[100] = f32::NAN;
    let err = reference.relative_error(&c);
    assert!(err.is_nan() && !Dtype::F32.accepts(err, 23));
}

#[test]
fn sampled_reference_checks_whole_rows_and_columns() {
    let mut rng = rng();
    let (m, n, k) = (300, 200, 40);
    let (a, b) = (Matrix::random(m, k, &mut rng), Matrix::random(k, n, &mut rng));
    let exact = triple_loop(&a, &b);
    let reference = Reference::with_full_limit(&a, &b, 0, &mut rng);
    assert!(!reference.is_full());
    let c = to_f32(&exact);
    assert!(reference.relative_error(&c) < 1e-7);
    // The first and last rows and columns are always sampled (edge tiles).
    for (i, j) in [(0, 57), (m - 1, 3), (123, 0), (45, n - 1)] {
        let mut bad = c.clone();
        bad[i * n + j] *= 1.5;
        assert!(reference.relative_error(&bad) > Dtype::F32.tolerance(k), "corruption at ({i},{j}) not seen");
    }
    // Unwritten (NaN) elements anywhere fail, sampled or not.
    let mut bad = c.clone();
    bad[n + 1] = f32::NAN;
    assert!(reference.relative_error(&bad).is_nan());
}

#[test]
fn shape_checks() {
    assert!(check_shape(2, 3, 4, 8, 12, 6).is_ok());
    for (m, n, k) in [(0, 3, 4), (2, 0, 4), (2, 3, 0)] {
        let e = check_shape(m, n, k, 100, 100, 100).unwrap_err();
        assert!(matches!(e, GemmError::Shape(_)) && e.to_string().contains("non-zero"), "{e}");
    }
    // Buffers too small for A, B or C.
    for (a, b, c, name) in [(7, 12, 6, "A"), (8, 11, 6, "B"), (8, 12, 5, "C")] {
        let e = check_shape(2, 3, 4, a, b, c).unwrap_err();
        assert!(e.to_string().contains(name), "{e}");
    }
    // Dimensions beyond the kernels' 32-bit arguments.
    let e = check_shape(1 << 33, 1, 1, usize::MAX, usize::MAX, usize::MAX).unwrap_err();
    assert!(e.to_string().contains("exceeds"), "{e}");
    // Element counts that overflow.
    let e = check_shape(u32::MAX as usize, u32::MAX as usize, u32::MAX as usize, 1, 1, 1).unwrap_err();
    assert!(matches!(e, GemmError::Shape(_)));
}

#[test]
fn grouped_tile_order_is_a_bijection() {
    for (tm, tn) in [(1, 1), (1, 7), (7, 1), (5, 3), (64, 32), (13, 17)] {
        for group in [0, 1, 2, 3, 4, 8, 16, 100] {
            let mut seen = vec![false; (tm * tn) as usize];
            for block in 0..tm * tn {
                let (r, c) = tile_coords(block, tm, tn, group);
                assert!(r < tm && c < tn, "block {block} → ({r},{c}) outside {tm}×{tn}");
                let slot = &mut seen[(r * tn + c) as usize];
                assert!(!*slot, "tile ({r},{c}) visited twice (group {group})");
                *slot = true;
            }
        }
    }
}

/// Whatever group a caller or a tune cache gives (up to `u32::MAX`), the
/// launch passes `group_rows` of it: the order of one group of all rows,
/// with `group_m × tiles_n` inside the grid (2³¹ + 1 on a 2×2 grid once
/// mapped two blocks to one tile and left two unwritten; 64 on 2²⁶ tile
/// columns divided by zero).
#[test]
fn any_group_size_keeps_the_order_a_bijection() {
    use gemm_launch::group_rows;
    assert_eq!([group_rows(0, 5), group_rows(3, 5), group_rows(5, 5), group_rows(u32::MAX, 5)], [1, 3, 5, 5]);
    assert_eq!(group_rows(7, 0), 1);
    for (tm, tn) in [(2, 2), (5, 3), (13, 17)] {
        for group in [tm, tm + 1, 1 << 31, (1 << 31) + 1, u32::MAX] {
            let order: Vec<_> = (0..tm * tn).map(|b| tile_coords(b, tm, tn, group_rows(group, tm))).collect();
            let whole: Vec<_> = (0..tm * tn).map(|b| tile_coords(b, tm, tn, tm)).collect();
            assert_eq!(order, whole, "{tm}×{tn}, group {group}");
        }
    }
    assert_eq!(tile_coords(5, 1, 1 << 26, group_rows(64, 1)), (0, 5));
    assert_eq!(tile_coords((1 << 26) + 3, 2, 1 << 26, group_rows(1 << 10, 2)), (1, (1 << 25) + 1));
}

/// A named kernel must be one of this build's: a hand-made spec (here a
/// zero-high tile, which would divide by zero planning its split) is
/// refused with a reason, before anything reads its tile.
#[test]
fn a_kernel_spec_not_in_the_build_is_refused() {
    use rgemm::api::{GemmOptions, KernelChoice, select};
    let made: &'static gemm_launch::KernelSpec = Box::leak(Box::new(gemm_launch::KernelSpec {
        tile: gemm_launch::Tile { bm: 0, ..gemm_launch::TILED.tile },
        ..gemm_launch::TILED
    }));
    let options = GemmOptions { kernel: KernelChoice::Kernel(made), ..GemmOptions::default() };
    let p = plan(
        (&MatrixDesc::row_major(64, 64), usize::MAX),
        (&MatrixDesc::row_major(64, 64), usize::MAX),
        (&MatrixDesc::row_major(64, 64), usize::MAX),
        &Batch::single(),
    )
    .unwrap();
    match select::<f32>(&options, &p, [0; 3], &h100()) {
        Err(GemmError::Unsupported { reason, .. }) => assert!(reason.contains("not one of this build's"), "{reason}"),
        other => panic!("a hand-made spec must be refused, got {other:?}"),
    }
    // The build's own spec passes that test.
    let own = GemmOptions { kernel: KernelChoice::Kernel(&gemm_launch::TILED), ..GemmOptions::default() };
    assert!(select::<f32>(&own, &p, [0; 3], &h100()).is_ok());
}

#[test]
fn grouped_order_walks_down_columns_within_a_group() {
    // 8 tile rows, group 4: blocks 0..3 are column 0 of rows 0..3.
    let order: Vec<_> = (0..5).map(|b| tile_coords(b, 8, 8, 4)).collect();
    assert_eq!(order, vec![(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]);
    // Group 1 is row-major.
    assert_eq!(tile_coords(9, 8, 8, 1), (1, 1));
}

#[test]
fn persistent_grids_fill_the_gpu_once() {
    use gemm_launch::persistent_grid;
    assert_eq!(persistent_grid(1024, 1, 132), 132);
    assert_eq!(persistent_grid(20, 1, 132), 20, "no idle blocks when tiles are few");
    assert_eq!(persistent_grid(1024, 4, 132), 33, "a batch shares the SMs");
    assert_eq!(persistent_grid(1024, 500, 132), 1, "at least one block per matrix");
    assert_eq!(persistent_grid(1, 0, 132), 1);
}

#[test]
fn persistent_blocks_visit_every_tile_once() {
    use gemm_launch::persistent_grid;
    // The walk of `tensor_core/warp_specialized.rs`: block b takes tiles b,
    // b + grid, … in grouped order; producer and consumers walk the same.
    for (tiles_m, tiles_n, batch, group_m) in
        [(64, 16, 1, 8), (3, 5, 1, 8), (1, 1, 1, 1), (17, 33, 4, 8), (40, 40, 1, 1)]
    {
        let total = tiles_m * tiles_n;
        let grid = persistent_grid(total as u64, batch, 132);
        let mut seen = vec![0u32; total as usize];
        for block in 0..grid {
            let mut tile = block;
            while tile < total {
                let (tm, tn) = tile_coords(tile, tiles_m, tiles_n, group_m);
                seen[(tm * tiles_n + tn) as usize] += 1;
                tile += grid;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{tiles_m}×{tiles_n} tiles, {grid} blocks: {seen:?}");
    }
}

#[test]
fn tma_refuses_shared_operands_and_split_c_paths_only() {
    use rgemm::driver::launch::Plan;
    use rgemm::tensor_map::{c_map_usable, packed_tma_refusal, tma_refusal};
    let ws = &gemm_launch::WS_BF16_128X256X64;
    let plan = Plan {
        m: 100,
        n: 64,
        k: 24,
        layout: OperandLayout::NN,
        lda: 24,
        ldb: 64,
        ldc: 64,
        stride_a: 0,
        stride_b: 0,
        stride_c: 0,
        batch: 1,
        swapped: false,
        k_last: None,
    };
    assert_eq!(tma_refusal(ws, &plan, [256, 512, 3]), None, "an unaligned C is stored from registers");
    assert!(
        !c_map_usable(ws, &plan, 3)
            && c_map_usable(ws, &plan, 1024)
            && !c_map_usable(ws, &Plan { ldc: 63, ..plan }, 0)
            && !c_map_usable(ws, &Plan { n: 61, ..plan }, 1024)
    );
    assert!(!c_map_usable(&gemm_launch::ABLATE_F16_WS_DIRECT_EPILOGUE, &plan, 1024), "no TMA store");
    // A batch whose C matrices would not all be 16-byte aligned (C rows are).
    let batched = Plan { stride_a: 2400, stride_b: 24 * 64, batch: 2, ..plan };
    assert!(tma_refusal(ws, &Plan { stride_c: 6401, ..batched }, [0; 3]).unwrap().contains("C's rows"));
    assert_eq!(tma_refusal(ws, &Plan { stride_c: 6408, ..batched }, [0; 3]), None);
    assert_eq!(tma_refusal(ws, &Plan { stride_c: 6401, ldc: 63, ..batched }, [0; 3]), None, "C from registers");
    // Operands off 16 bytes are copied into aligned rows first
    // (`operand_copies`): not refused.
    assert_eq!(tma_refusal(ws, &plan, [258, 512, 0]), None);
    assert_eq!(tma_refusal(ws, &Plan { ldb: 60, ..plan }, [0; 3]), None);
    // A batch stride only matters when there is a batch: 0 (one matrix for
    // all) is refused.
    assert_eq!(tma_refusal(ws, &Plan { stride_a: 0, ..plan }, [0; 3]), None);
    assert!(
        tma_refusal(ws, &Plan { stride_a: 0, stride_b: 64, batch: 2, ..plan }, [0; 3]).unwrap().contains("A's batch")
    );
    assert_eq!(tma_refusal(ws, &Plan { stride_a: 2400, stride_b: 24 * 64, batch: 2, ..plan }, [0; 3]), None);
    assert!(
        tma_refusal(ws, &Plan { stride_a: 2400, stride_b: 0, batch: 2, ..plan }, [0; 3]).unwrap().contains("B's batch")
    );
    // Overlapping matrices are read as they are: split-K's partial GEMMs,
    // K chunks of one A (A is 100 rows of 24: chunks of 8, 8 elements apart).
    assert_eq!(tma_refusal(ws, &Plan { k: 8, stride_a: 8, stride_b: 8 * 64, batch: 3, ..plan }, [0; 3]), None);
    // A batch stride off 16 bytes is copied first, not refused.
    assert_eq!(tma_refusal(ws, &Plan { stride_a: 2392 + 3, stride_b: 24 * 64, batch: 2, ..plan }, [0; 3]), None);
    assert_eq!(packed_tma_refusal(ws, 64, 24), None);
    assert_eq!(packed_tma_refusal(ws, 64, 25), None, "copied");
    assert_eq!(packed_tma_refusal(&gemm_launch::WGMMA_BF16_128X256X64, 64, 25), None, "not a TMA kernel");
}

#[test]
fn launch_geometry_is_consistent() {
    assert_eq!(tiles(1, 128), 1);
    assert_eq!(tiles(128, 128), 1);
    assert_eq!(tiles(129, 128), 2);
    for spec in KERNELS {
        let t = spec.tile;
        assert!(spec.threads() >= 32 && spec.threads() <= 1024, "{}", spec.name);
        assert_eq!(spec.threads() % 32, 0, "{}: whole warps", spec.name);
        assert!(spec.smem_bytes() <= 227 * 1024, "{}", spec.name);
        assert_eq!(spec.grid(1, 1), 1);
        assert_eq!(spec.grid(t.bm + 1, 2 * t.bn), 4, "{}", spec.name);
        let element = spec.dtype.element_bytes();
        if spec.algorithm == Algorithm::Wgmma {
            assert_eq!(spec.threads(), (t.bm / t.tm) * (t.bn / t.tn) * 128, "{}: one warpgroup per tile", spec.name);
            let (a_tile, b_tile) = gemm_launch::wgmma_tile_bytes(spec.dtype, t.bm, t.bn, t.bk);
            assert_eq!(spec.smem_bytes(), spec.stages * (a_tile + b_tile), "{}", spec.name);
            assert_eq!(t.bk * element, 128, "{}: one 128-byte swizzle row per K slice", spec.name);
            // Stages stay on 1024-byte boundaries, as the 128-byte swizzle needs.
            assert!(a_tile.is_multiple_of(1024) && b_tile.is_multiple_of(1024), "{}", spec.name);
            assert_eq!(spec.arch, gemm_launch::Arch::Sm90a);
            continue;
        }
        if spec.algorithm == Algorithm::WarpSpecialized {
            use gemm_launch::tma;
            // One consumer warpgroup per 64 rows, then the producer: a
            // warpgroup, or one warp with two blocks per SM (step 10d).
            let producer = if spec.min_blocks_per_sm == 1 { 128 } else { 32 };
            assert_eq!(spec.threads(), (t.bm / t.tm) * (t.bn / t.tn) * 128 + producer, "{}", spec.name);
            // (Step 10h's B tiles are a box wider: `tma::b_tile_columns`.)
            let b_columns = tma::b_tile_columns(spec.dtype, t.bn, spec.features.b_rows_by_residue);
            let stage = tma::stage_bytes(spec.dtype, t.bm, b_columns, t.bk);
            assert!(stage.is_multiple_of(1024), "{}: stages on 1024-byte swizzle atoms", spec.name);
            // The stages, C's staging boxes (TMA store: boxes of 64 rows ×
            // 128 bytes, one per 64 columns of a consumer warpgroup's share,
            // or the fewer `c_staging_boxes` buffers it takes in turn), the
            // barriers; all within the 227 KiB a Hopper block may have.
            let c_staging = if spec.features.staged_epilogue {
                let [cols, rows] = tma::c_box(spec.dtype);
                assert_eq!(cols * element, tma::SWIZZLE_ROW_BYTES, "{}", spec.name);
                let boxes = match spec.features.c_staging_boxes {
                    0 => t.bn / cols,
                    buffers => {
                        assert!((1..=3).contains(&buffers) && buffers < t.bn / cols, "{}", spec.name);
                        buffers
                    }
                };
                assert_eq!(tma::c_staged_boxes(spec), boxes, "{}", spec.name);
                (t.bm / rows) * boxes * rows * tma::SWIZZLE_ROW_BYTES
            } else if spec.features.c_rows_off_16_bytes {
                // TF32's swapped tiles' entries for C's rows off 8 bytes: one
                // box per consumer warpgroup (64 columns each), which holds
                // F32_ROUND_ROWS rows of its f32 C.
                assert!(spec.is_swapped() && spec.dtype == gemm_launch::Dtype::Tf32, "{}", spec.name);
                assert_eq!(tma::c_staged_boxes(spec), 1, "{}", spec.name);
                assert_eq!(tma::F32_ROUND_ROWS * 64 * 4, tma::C_BOX_BYTES);
                (t.bn / 64) * tma::C_BOX_BYTES
            } else {
                assert_eq!(tma::c_staged_boxes(spec), 0, "{}", spec.name);
                0
            };
            assert_eq!(spec.smem_bytes(), spec.stages * stage + c_staging + 16 * spec.stages, "{}", spec.name);
            assert!(spec.smem_bytes() <= 227 * 1024, "{}", spec.name);
            // Each slice's boxes add up to the bytes the barrier is armed for,
            // in either orientation; no box is wider than a swizzled row or
            // longer than the TMA's 256.
            // (A swapped kernel's one entry reads A K-major and B N-major;
            // the others, each operand as their entries' layouts have it.)
            let mut orientations = vec![];
            for layout in OperandLayout::ALL.into_iter().filter(|l| spec.has_entry(*l)) {
                let (a, b) = if spec.is_swapped() {
                    ((t.bm, true), (t.bn, false))
                } else {
                    ((t.bm, !layout.a_col_major), (t.bn, layout.b_col_major))
                };
                orientations.extend([a, b]);
            }
            assert!(!orientations.is_empty(), "{}: no entry", spec.name);
            for (rows, k_major) in orientations {
                let [inner, outer] = tma::tma_box(spec.dtype, rows, t.bk, k_major);
                assert!(inner * element <= tma::SWIZZLE_ROW_BYTES && outer <= 256, "{}", spec.name);
                let boxes = if k_major { 1 } else { rows / tma::row_elements(spec.dtype) };
                assert_eq!(boxes * inner * outer, rows * t.bk, "{}: the box covers the tile", spec.name);
                if !k_major {
                    assert_eq!(inner * outer * element, tma::mn_block_bytes(t.bk), "{}", spec.name);
                }
            }
            assert_eq!(spec.is_persistent(), spec.features.persistent, "{}", spec.name);
            // One block per SM (setmaxnreg needs the register cap), or two
            // whose shared memory and registers fit one SM together.
            assert!(matches!(spec.min_blocks_per_sm, 1 | 2), "{}", spec.name);
            if spec.min_blocks_per_sm == 2 {
                assert!(2 * (spec.smem_bytes() + 1024) <= 228 * 1024, "{}: two blocks' shared memory", spec.name);
            }
            continue;
        }
        if spec.algorithm == Algorithm::TensorCore {
            assert_eq!(spec.threads(), (t.bm / t.tm) * (t.bn / t.tn) * 32, "{}: one warp per warp tile", spec.name);
            let (a_tile, b_tile) = gemm_launch::mma_tile_bytes(spec.dtype, t.bm, t.bn, t.bk);
            let pipeline = spec.stages * (a_tile + b_tile);
            let c_tile = t.bm * gemm_launch::c_smem_ld(t.bn) * element;
            if spec.is_skinny_tile() {
                // Step 72's granules of an operand off 16 bytes, and two
                // realigned tiles, where they outgrow the plain pipeline;
                // two blocks must still fit an SM.
                let realigning = gemm_launch::SkinnyRealign::of(t.bm, t.bn, t.bk);
                assert_eq!(spec.smem_bytes(), pipeline.max(realigning.bytes(spec.stages)), "{}", spec.name);
                assert!(realigning.granule_bytes >= t.bm.max(t.bn) * (t.bk + 8) * element, "{}", spec.name);
                assert!(2 * (spec.smem_bytes() + 1024) <= 228 * 1024, "{}: two blocks' shared memory", spec.name);
            } else if spec.dtype == Dtype::Tf32 || !spec.features.staged_epilogue {
                assert_eq!(spec.smem_bytes(), pipeline, "{}", spec.name);
            } else {
                // The epilogue stages C in the same shared memory.
                assert_eq!(spec.smem_bytes(), pipeline.max(c_tile), "{}", spec.name);
            }
            assert!(a_tile.is_multiple_of(16) && b_tile.is_multiple_of(16), "{}", spec.name);
            // Whole 16-byte chunks per thread for each operand.
            assert_eq!((t.bm * t.bk * element / 16) % spec.threads(), 0, "{}", spec.name);
            assert_eq!((t.bk * t.bn * element / 16) % spec.threads(), 0, "{}", spec.name);
            continue;
        }
        if gemm_launch::memory_bound::on_tensor_cores(spec) {
            use gemm_launch::memory_bound as mb;
            // Steps 86, 88: one thread per accumulator of a warp (and n8
            // tile) in the reduction; 16-bit or TF32 `mma.sync`.
            assert_eq!(spec.threads(), mb::THREADS, "{}", spec.name);
            // Step 104's ring holds the cross-warp sum once it is free.
            let along_l = spec.layouts == gemm_launch::Layouts::AlongL;
            let smem = if along_l { mb::along_l_smem_bytes(t.bm) } else { mb::mma_smem_bytes(t.bm) };
            assert_eq!(spec.smem_bytes(), smem, "{}", spec.name);
            assert!(smem >= mb::mma_smem_bytes(t.bm) && smem <= 99 * 1024, "{}: fits an sm_86 block", spec.name);
            assert!([mb::MMA_ROWS, mb::MMA_ROWS_WIDE].contains(&t.bm), "{}", spec.name);
            let long_tile =
                if spec.layouts == gemm_launch::Layouts::AlongL { mb::ALONG_L_LONG_TILE } else { mb::LONG_TILE };
            assert_eq!((t.bn, t.bk), (long_tile, mb::mma_k_step(spec.dtype)), "{}", spec.name);
            assert!(matches!(spec.dtype, Dtype::F16 | Dtype::Bf16 | Dtype::Tf32), "{}: mma.sync", spec.name);
            // Step 86's read X along K, step 104's (16-bit) along L: each
            // has the three layouts that allow it, and not the fourth.
            let (along, never) = match spec.layouts {
                gemm_launch::Layouts::AlongK => (true, OperandLayout { a_col_major: true, b_col_major: false }),
                gemm_launch::Layouts::AlongL => (false, OperandLayout { a_col_major: false, b_col_major: true }),
                other => panic!("{}: {other:?}", spec.name),
            };
            assert!(along || spec.dtype.element_bytes() == 2, "{}", spec.name);
            assert!(!spec.supports(never), "{}", spec.name);
            assert_eq!(OperandLayout::ALL.iter().filter(|l| spec.has_entry(**l)).count(), 3, "{}", spec.name);
            continue;
        }
        if spec.algorithm == Algorithm::MemoryBound {
            use gemm_launch::memory_bound as mb;
            assert_eq!(spec.threads(), mb::THREADS, "{}", spec.name);
            assert_eq!(spec.smem_bytes(), mb::smem_bytes(spec.dtype, t.bm), "{}", spec.name);
            // Both access patterns cover LONG_TILE columns with whole 16-byte loads.
            assert_eq!(mb::lanes_along_l(spec.dtype) * mb::vec(spec.dtype), mb::LONG_TILE, "{}", spec.name);
            assert_eq!(mb::ROWS_PER_WARP * spec.threads() / 32, mb::LONG_TILE, "{}", spec.name);
            // The staged S chunk is moved by whole passes of the block.
            assert_eq!((t.bm * mb::k_chunk(spec.dtype)) % spec.threads(), 0, "{}", spec.name);
            assert_eq!(spec.layouts, gemm_launch::Layouts::Any, "{}", spec.name);
            continue;
        }
        assert_eq!(spec.smem_bytes(), spec.stages * ((t.bm + gemm_launch::A_SMEM_PAD) * t.bk + t.bk * t.bn) * 4);
        assert_eq!(t.a_smem_bytes() % 16, 0, "{}: B slice 16-byte aligned", spec.name);
        if matches!(
            spec.algorithm,
            Algorithm::Vectorized | Algorithm::DoubleBuffered | Algorithm::AsyncPipeline | Algorithm::WarpTiled
        ) {
            // Every thread moves whole 16-byte chunks of each slice.
            assert_eq!((t.bm * t.bk / 4) % spec.threads(), 0, "{}", spec.name);
            assert_eq!((t.bk * t.bn / 4) % spec.threads(), 0, "{}", spec.name);
        }
    }
}

/// The body of one kernel's `.entry` in the PTX module of its spec.
fn entry_body(name: &str) -> &'static str {
    let spec = entries().find(|(_, _, n)| n == name).map(|(s, _, _)| s).unwrap_or_else(|| panic!("no spec for {name}"));
    let module = ptx(spec.arch);
    let start = module.find(&format!(".entry {name}(")).unwrap_or_else(|| panic!("no .entry {name}"));
    let rest = &module[start..];
    let end = rest[1..].find(".entry ").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn every_kernel_is_in_the_embedded_ptx() {
    assert!(PTX_SM80.contains(".target sm_80"));
    assert!(PTX_SM90A.contains(".target sm_90a"));
    for (spec, _, name) in entries() {
        assert!(ptx(spec.arch).contains(&format!(".visible .entry {name}(")), "{name} missing");
    }
    // The split-K reductions and the operand copies (not GEMMs) live in the sm_80 module.
    let helpers: Vec<&str> = gemm_launch::split_k::REDUCE_KERNELS
        .iter()
        .map(|r| r.name)
        .chain(gemm_launch::operand_copies::ENTRIES)
        .collect();
    for name in &helpers {
        assert!(PTX_SM80.contains(&format!(".visible .entry {name}(")), "{name} missing");
    }
    let in_modules = PTX_SM80.matches(".visible .entry ").count() + PTX_SM90A.matches(".visible .entry ").count();
    assert_eq!(in_modules, entries().count() + helpers.len(), "entries without a spec");
}

#[test]
fn tiled_kernel_uses_shared_memory_and_a_barrier() {
    let body = entry_body("sgemm_tiled");
    assert!(body.contains("st.shared.b32"), "tiled kernel stores no tile to shared memory");
    assert!(body.contains("ld.shared.b32"), "tiled kernel reads nothing from shared memory");
    assert!(body.contains("bar.sync"), "tiled kernel has no barrier");
    assert!(!entry_body("sgemm_naive").contains(".shared"), "naive kernel should not use shared memory");
}

#[test]
fn warp_specialized_kernels_copy_with_the_tma_behind_barriers() {
    for (spec, _, name) in entries().filter(|(s, _, _)| s.algorithm == Algorithm::WarpSpecialized) {
        let body = entry_body(&name);
        for instruction in [
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
            "mbarrier.arrive.expect_tx.shared::cta.b64",
            "mbarrier.try_wait.parity.shared::cta.b64",
            "fence.proxy.tensormap::generic.acquire",
            "wgmma.wait_group.sync.aligned 1",
        ] {
            assert!(body.contains(instruction), "{name}: no {instruction}");
        }
        // The producer warpgroup hands its registers to the consumers (step
        // 10h's keeps 56 for its 16 copies of B per slice); with two blocks
        // per SM there is one producer warp and no trade.
        let (producer, consumer) = if spec.features.b_rows_by_residue { (56, 224) } else { (40, 232) };
        for instruction in [
            format!("setmaxnreg.dec.sync.aligned.u32 {producer}"),
            format!("setmaxnreg.inc.sync.aligned.u32 {consumer}"),
        ] {
            assert_eq!(body.contains(&instruction), spec.min_blocks_per_sm == 1, "{name}: {instruction}");
        }
        // Step 10h: each slice's B box as four, one per residue map, and a
        // box more of columns (the rows' shifts); A's box besides.
        let copies = body.matches("cp.async.bulk.tensor.3d.shared::cluster.global").count();
        let b_boxes = spec.tile.bn / gemm_launch::tma::row_elements(spec.dtype) + 1;
        if spec.features.b_rows_by_residue {
            assert!(copies > (b_boxes * gemm_launch::tma::B_ROW_RESIDUES) as usize, "{name}: {copies} TMA copies");
            assert!(body.contains("fence.proxy.tensormap::generic.acquire"), "{name}");
        }
        // C through the TMA (`stmatrix` into the staging tile, then TMA
        // stores), where the spec says so.
        for instruction in
            ["stmatrix.sync.aligned.m8n8.x4.shared.b16", "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group"]
        {
            assert_eq!(body.contains(instruction), spec.features.staged_epilogue, "{name}: {instruction}");
        }
        // No copies from every thread, no block-wide barrier after the roles
        // split (only the consumer warpgroups' own, around the staging tile).
        assert!(!body.contains("cp.async.ca") && !body.contains("cp.async.cg"), "{name}: cp.async from threads");
        if spec.cluster_blocks() == 1 {
            assert_eq!(body.matches("bar.sync 0;").count(), 1, "{name}: one block barrier, after the mbarrier init");
            assert!(!body.contains("multicast") && !body.contains("barrier.cluster"), "{name}: cluster code");
        } else {
            // In clusters: B multicast, each stage released in every block
            // of the cluster, and cluster barriers (after the mbarrier init
            // and before the exit) in place of the block barrier.
            for instruction in [
                ".multicast::cluster",
                "mapa.shared::cluster.u32",
                "mbarrier.arrive.shared::cluster.b64",
                "%cluster_nctarank",
            ] {
                assert!(body.contains(instruction), "{name}: no {instruction}");
            }
            // Release at cluster scope on every stage's release made the
            // kernel 2.5× slower (PERF step 45).
            assert!(!body.contains("mbarrier.arrive.release.cluster"), "{name}: cluster-scope release");
            assert_eq!(body.matches("bar.sync 0;").count(), 0, "{name}: a block barrier");
            assert_eq!(body.matches("barrier.cluster.arrive.release;").count(), 2, "{name}: cluster barriers");
        }
        // The register cap setmaxnreg needs, or two blocks' share.
        let bounds = format!(".maxntid {}, 1, 1", spec.threads());
        assert!(body.contains(&bounds) && body.contains(&format!(".minnctapersm {}", spec.min_blocks_per_sm)));
    }
}

#[test]
fn kernels_keep_accumulators_in_registers_and_use_wide_loads() {
    for (_, _, name) in entries() {
        assert!(!entry_body(&name).contains("__local_depot"), "{name} has a local-memory stack frame");
    }
    for spec in KERNELS
        .iter()
        .filter(|s| matches!(s.algorithm, Algorithm::Vectorized | Algorithm::DoubleBuffered | Algorithm::WarpTiled))
    {
        let body = entry_body(spec.name);
        // Step 7c moves its slices with `cp.async`, not through registers.
        let wide_copy = if spec.stages > 2 { "cp.async.cg.shared.global" } else { "ld.global.v4" };
        assert!(body.contains(wide_copy), "{}: no 128-bit global loads", spec.name);
        assert!(body.contains("ld.shared.v4.b32"), "{}: no 128-bit shared loads", spec.name);
        // The entry for C's rows off 16 bytes stores C 4 bytes at a time,
        // through shared memory (PERF step 99), and nothing 16 bytes wide.
        let c_rows = spec.features.c_rows_off_16_bytes;
        assert_eq!(body.contains("st.global.v4"), !c_rows, "{}: 128-bit stores of C", spec.name);
        if c_rows {
            assert!(body.contains("st.shared.v4.b32") && body.contains("st.global.b32"), "{}", spec.name);
            assert!(body.contains("bar.warp.sync"), "{}: no warp barrier around the rows", spec.name);
        }
    }
}

#[test]
fn launch_bounds_from_the_spec_are_in_the_ptx() {
    for (spec, _, name) in entries() {
        let body = entry_body(&name);
        let header = &body[..body.find('{').unwrap()];
        if spec.min_blocks_per_sm > 0 {
            assert!(header.contains(&format!(".maxntid {}, 1, 1", spec.threads())), "{name}: {header}");
            assert!(header.contains(&format!(".minnctapersm {}", spec.min_blocks_per_sm)), "{name}");
        } else {
            assert!(!header.contains(".minnctapersm"), "{name}");
        }
    }
}

/// The 16-bit memory-bound kernels round C to their type and store it 2
/// bytes at a time; their `_f32out` twins (the split-K partial sums,
/// PERF.md step 75) store the f32 sums as they are, in every layout's entry.
#[test]
fn memory_bound_twins_store_unrounded_f32_sums() {
    for (base, twin) in gemm_launch::split_k::MEMORY_BOUND_F32_OUTPUT_TWINS {
        let round = format!("cvt.rn.{}x2.f32", base.dtype.name());
        for (spec, _, name) in entries().filter(|(s, _, _)| s.name == base.name || s.name == twin.name) {
            let body = entry_body(&name);
            let f32_out = spec.features.f32_output;
            assert_eq!(body.contains("st.global.b16"), !f32_out, "{name}: 16-bit stores of C");
            assert_eq!(body.contains("st.global.b32"), f32_out, "{name}: f32 stores of C");
            assert_eq!(body.contains(&round), !f32_out, "{name}: C rounded");
        }
    }
}

#[test]
fn tensor_core_kernels_use_mma_ldmatrix_and_cp_async() {
    for spec in KERNELS.iter().filter(|s| s.algorithm == Algorithm::TensorCore) {
        let body = entry_body(spec.name);
        let ty = spec.dtype.name();
        assert_eq!(body.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16"), spec.features.ldmatrix, "{}", spec.name);
        assert!(body.contains("cp.async.cg.shared.global") && body.contains("cp.async.wait_group"), "{}", spec.name);
        if spec.dtype == Dtype::Tf32 {
            assert!(body.contains("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), "{}", spec.name);
            assert!(body.contains("cvt.rna.tf32.f32"), "{}: operands rounded to TF32", spec.name);
        } else {
            assert!(body.contains(&format!("mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32")), "{}", spec.name);
            assert_eq!(
                body.contains("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"),
                spec.features.ldmatrix,
                "{}",
                spec.name
            );
            // A 16-bit C gets rounded pairs (2-byte stores at its edges); an
            // f32 one (the split-K partials) the accumulators as they are.
            let f32_out = spec.features.f32_output;
            assert_eq!(body.contains(&format!("cvt.rn.{ty}x2.f32")), !f32_out, "{}: epilogue rounds pairs", spec.name);
            assert_eq!(body.contains("st.global.b16"), !f32_out, "{}: 16-bit stores of C", spec.name);
            assert_eq!(
                body.contains("st.global.v4.b32"),
                spec.features.staged_epilogue,
                "{}: 16-byte C stores",
                spec.name
            );
        }
    }
}

#[test]
fn the_tuner_never_picks_an_ablation() {
    for dtype in Dtype::ALL {
        assert!(rgemm::tune::tunable(dtype).all(|s| !s.features.is_ablation()));
    }
    assert!(KERNELS.iter().any(|s| s.features.is_ablation()), "the ladder's ablations exist");
}

#[test]
fn dtype_and_kernel_names() {
    assert_eq!(parse_dtype("f32").unwrap(), Dtype::F32);
    assert_eq!(parse_dtype("BF16").unwrap(), Dtype::Bf16);
    assert!(matches!(parse_dtype("f8"), Err(GemmError::UnsupportedDtype { .. })));
    assert_eq!(find_kernel(Dtype::F32, "tiled").unwrap().name, "sgemm_tiled");
    assert_eq!(find_kernel(Dtype::F32, "sgemm_naive").unwrap().name, "sgemm_naive");
    assert_eq!(find_kernel(Dtype::Bf16, "mma_128x256x32").unwrap().name, "bgemm_mma_128x256x32");
    assert!(find_kernel(Dtype::F32, "mma_128x256x32").is_err(), "kernels are per dtype");
    let e = find_kernel(Dtype::F32, "fastest").unwrap_err();
    assert!(e.to_string().contains("tiled"), "the error lists the kernels: {e}");
    // The f32-output twins have entries (every layout) but no name a caller
    // can ask for: they write split-K partial sums, not a 16-bit C.
    let twins: Vec<_> = KERNELS.iter().filter(|s| s.features.f32_output).collect();
    assert_eq!(twins.len(), 24);
    for twin in twins {
        // Every layout's entry, but steps 86, 88 and 104's three (their large
        // operand along K, or along L).
        let three = matches!(twin.layouts, gemm_launch::Layouts::AlongK | gemm_launch::Layouts::AlongL);
        let layouts = if three { 3 } else { 4 };
        assert_eq!(entries().filter(|(s, _, _)| s.name == twin.name).count(), layouts, "{}", twin.name);
        assert!(!twin.dtype.kernels().contains(&twin), "{}", twin.name);
        assert!(find_kernel(twin.dtype, twin.name).is_err() && find_kernel(twin.dtype, short_name(twin)).is_err());
        assert!(!rgemm::tune::tunable(twin.dtype).any(|s| s.name == twin.name));
    }
    // Every kernel's short name is unique within its dtype.
    for d in Dtype::ALL {
        let names: Vec<_> = d.kernels().iter().map(|s| short_name(s)).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(names.len(), unique.len(), "{names:?}");
    }
}

#[test]
fn rounding_inputs_to_the_element_type_is_exact_on_upload() {
    let m = Matrix::random(16, 16, &mut rng()).rounded::<half::bf16>();
    let back: Vec<f32> = m.to_elements::<half::bf16>().iter().map(|x| x.to_f32()).collect();
    assert_eq!(back, m.data, "the reference must see exactly what the device reads");
}

#[test]
fn tuning_cache_round_trips_and_default_is_sensible() {
    let dir = std::env::temp_dir().join(format!("rgemm-test-{}", std::process::id()));
    let path = dir.join("tune.json");
    let mut cache = TuneCache::load(&path).unwrap();
    assert!(cache.entries.is_empty(), "a missing file is an empty cache");
    let choice = Choice { kernel: "db_128x64x16".into(), group_m: 4, tflops: Some(12.5) };
    cache.entries.insert(cache_key("GPU", Dtype::F32, 1, 2, 3), choice.clone());
    cache.save(&path).unwrap();
    let loaded = TuneCache::load(&path).unwrap();
    assert_eq!(loaded.entries.get("GPU|f32|1x2x3"), Some(&choice));
    std::fs::write(&path, "not json").unwrap();
    assert!(matches!(TuneCache::load(&path), Err(GemmError::TuneCache { .. })));
    assert!(load_or_warn(&path).is_none(), "a corrupt cache is ignored (with a warning), not an error");
    std::fs::remove_dir_all(&dir).unwrap();

    // Every dtype's built-in choice exists and computes that dtype.
    for (dtype, cc) in Dtype::ALL.into_iter().flat_map(|d| [(d, (8, 0)), (d, (9, 0))]) {
        for (m, n) in [(8192, 4096), (256, 256)] {
            let choice = default_choice(dtype, (m, n, 4096), 132, OperandLayout::NN, cc, |_| true);
            assert_eq!(choice.spec(dtype).unwrap().dtype, dtype, "{choice:?}");
        }
    }
    // f32: big problems get the big tile, small ones the small tile (below
    // F32_SPLIT_TILES_MIN_K, from which few tiles are split instead).
    assert_ne!(
        default_choice(Dtype::F32, (8192, 4096, 2048), 132, OperandLayout::NN, (9, 0), |_| true).kernel,
        default_choice(Dtype::F32, (256, 256, 2048), 132, OperandLayout::NN, (9, 0), |_| true).kernel
    );
    // A larger tile that makes no fewer tiles is passed over: N ≤ 128
    // takes step 10's 128×128 tiles, as many as its 128×256 ones (and N of
    // 17 to 64 then its 128×64 ones, `mid_columns_tiles`).
    let f16 = |m, n| default_choice(Dtype::F16, (m, n, 4096), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!([f16(16384, 64), f16(16384, 65), f16(16384, 128)], ["ws_128x64x64", "ws_128x128x64", "ws_128x128x64"]);
    // N ≤ 16 (or M) with operands in place: step 70's skinny tiles; with
    // N of 2 to 7 too (PERF.md step 85) below K = 4096 (from it, step 86's
    // kernel, PERF.md step 89), but N = 1 on the memory-bound kernel, and
    // short K (under SKINNY_TILES_MIN_K) on step 86's.
    assert_eq!([f16(16384, 16), f16(16, 16384)], ["mma_64x16x64", "mma_16x64x64"]);
    assert_eq!([f16(16384, 4), f16(100_000, 2), f16(16384, 7)], ["skinny_mma"; 3]);
    let f16_k2048 = |m, n| default_choice(Dtype::F16, (m, n, 2048), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!([f16_k2048(16384, 4), f16_k2048(100_000, 2), f16_k2048(16384, 7)], ["mma_64x16x64"; 3]);
    let short_k = default_choice(Dtype::Bf16, (100_000, 4, 256), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!([f16(16384, 1).as_str(), short_k.as_str()], ["skinny_r1", "skinny_mma"]);
    // Off Hopper, and with B column-major, the tiles were not measured:
    // step 86's kernel, which reads A along K in both; with A column-major
    // it cannot (A along M), and step 104's, which reads it along M, takes
    // the call.
    let sm80 = default_choice(Dtype::F16, (16384, 4, 4096), 132, OperandLayout::NN, (8, 0), |_| true).kernel;
    assert_eq!(sm80, "skinny_mma", "the tiles were measured on Hopper only");
    let nt = OperandLayout { a_col_major: false, b_col_major: true };
    let tn = OperandLayout { a_col_major: true, b_col_major: false };
    let layout = |layout| default_choice(Dtype::F16, (16384, 4, 4096), 132, layout, (9, 0), |_| true).kernel;
    assert_eq!(
        [layout(nt), layout(tn), layout(OperandLayout { a_col_major: true, b_col_major: true })],
        ["skinny_mma", "skinny_mma_l", "skinny_mma_l"]
    );
    // Step 104's kernel where M is small and B's packed rows are off 16
    // bytes (N not a multiple of 8), 2 to 16 rows; B's rows on 16 bytes stay
    // on the TMA tiles, and one row on `skinny_r1`; from K = 2048 step 70's
    // tiles keep the calls they take.
    let nn = |m, n, k| default_choice(Dtype::Bf16, (m, n, k), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!(
        [nn(8, 42212, 501), nn(2, 50257, 1000), nn(16, 16383, 2047)],
        ["skinny_mma_l", "skinny_mma_l", "skinny_mma_l_r16"]
    );
    assert_eq!([nn(16, 16383, 4096), nn(2, 50257, 4096)], ["mma_16x64x64"; 2]);
    assert_ne!(nn(8, 42216, 504), "skinny_mma_l");
    assert_eq!(nn(1, 42212, 501), "skinny_r1");
    assert!(!nn(17, 42212, 501).starts_with("skinny_mma_l"), "17 rows: past the memory-bound path");
    // `auto`'s choice for packed f16 operands, with the real TMA refusals.
    let at = |m: usize, n: usize, k: usize| {
        let plan = rgemm::driver::tensor_map::packed_plan(m, n, k);
        let takes = |s: &gemm_launch::KernelSpec| rgemm::api::choice::auto_tma_refusal(s, &plan, [0; 3], 132).is_none();
        default_choice(Dtype::F16, (m, n, k), 132, OperandLayout::NN, (9, 0), takes).kernel
    };
    // Step 86's kernel reads the large operand along K: N small needs A
    // row-major (NN, NT; TT refused, TN has no entry), M small B
    // column-major (NT, TT; NN refused). No other kernel refuses so.
    use gemm_launch::memory_bound::{SKINNY_F16_R4, SKINNY_MMA_BF16, mma_refusal};
    use gemm_launch::memory_bound::{SKINNY_MMA_BF16_R16, SKINNY_MMA_F16_R16, SKINNY_MMA_TF32_R16};
    let mma_kernels = [&gemm_launch::memory_bound::SKINNY_MMA_F16, &SKINNY_MMA_BF16];
    for spec in mma_kernels.into_iter().chain([&SKINNY_MMA_F16_R16, &SKINNY_MMA_BF16_R16, &SKINNY_MMA_TF32_R16]) {
        let refused = |m, n, a_col, b_col| mma_refusal(spec, m, n, a_col, b_col).is_some();
        assert_eq!(
            [refused(1000, 4, false, false), refused(1000, 4, false, true), refused(1000, 4, true, true)],
            [false, false, true]
        );
        assert_eq!(
            [refused(4, 1000, false, false), refused(4, 1000, false, true), refused(4, 1000, true, true)],
            [true, false, false]
        );
        assert!(!spec.supports(tn) && spec.supports(nt) && spec.supports(OperandLayout::NN));
        let plan = |m, n| rgemm::driver::tensor_map::packed_plan(m, n, 64);
        let reason = rgemm::driver::launch::call_refusal(spec, &plan(4, 1000), [0; 3]).unwrap();
        assert!(reason.contains("along K"), "{reason}");
        assert_eq!(rgemm::driver::launch::call_refusal(spec, &plan(1000, 4), [0; 3]), None);
    }
    // Step 104's read it along L: the other way round (NN where M is
    // small, TN always, TT where N is small; NT has no entry).
    use gemm_launch::memory_bound::{SKINNY_MMA_L_BF16, SKINNY_MMA_L_BF16_R16, SKINNY_MMA_L_F16, SKINNY_MMA_L_F16_R16};
    for spec in [&SKINNY_MMA_L_F16, &SKINNY_MMA_L_BF16, &SKINNY_MMA_L_F16_R16, &SKINNY_MMA_L_BF16_R16] {
        let refused = |m, n, a_col, b_col| mma_refusal(spec, m, n, a_col, b_col).is_some();
        assert_eq!(
            [refused(1000, 4, false, false), refused(1000, 4, true, false), refused(1000, 4, true, true)],
            [true, false, false]
        );
        assert_eq!(
            [refused(4, 1000, false, false), refused(4, 1000, true, false), refused(4, 1000, true, true)],
            [false, false, true]
        );
        assert!(spec.supports(tn) && !spec.supports(nt) && spec.supports(OperandLayout::NN));
        let plan = |m, n| rgemm::driver::tensor_map::packed_plan(m, n, 64);
        let reason = rgemm::driver::launch::call_refusal(spec, &plan(1000, 4), [0; 3]).unwrap();
        assert!(reason.contains("along its long side"), "{reason}");
        assert_eq!(rgemm::driver::launch::call_refusal(spec, &plan(4, 1000), [0; 3]), None);
    }
    assert_eq!(mma_refusal(&SKINNY_F16_R4, 4, 1000, false, false), None);
    // A's rows off 16 bytes (K not a multiple of 8): step 10's tiles refuse
    // the call, and so step 86's kernel takes it (`few_columns_on_tiles`),
    // as it does 128 blocks of 64×16 tiles at K odd.
    assert_eq!([at(100_000, 4, 777), at(100_000, 4, 776)], ["skinny_mma", "mma_64x16x64"]);
    // From K = 4096 rows stream faster on step 86's kernel (step 89's
    // evict-first loads) even where the tiles take the call.
    use rgemm::api::choice::FEW_COLUMNS_STREAM_MIN_K;
    assert_eq!(at(16_384, 4, FEW_COLUMNS_STREAM_MIN_K - 8), "mma_64x16x64");
    assert_eq!([at(16_384, 4, FEW_COLUMNS_STREAM_MIN_K), at(8192, 3, 8192)], ["skinny_mma", "skinny_mma"]);
    // Deep K (from STREAM_MMA_MAX_K, not measured here) keeps the tiles.
    use rgemm::api::choice::{STREAM_MMA_MAX_K, STREAM_TF32_MAX_K};
    assert_eq!(at(16_384, 4, STREAM_MMA_MAX_K), "mma_64x16x64");
    // TF32, N of 9 to 16 over rows of at most STREAM_TF32_MAX_K (or few
    // long rows, below): step 88's TF32 `mma.sync` where it reads A along
    // K; else exact f32 on CUDA cores.
    let tf32 = |n: usize, k: usize, layout: OperandLayout| {
        let (a_col, b_col) = (layout.a_col_major, layout.b_col_major);
        // (The 128×16 and 64×16 tiles refused, as where A's rows are off
        // 16 bytes: the memory-bound routes' own bounds; those tiles' rule
        // is `tf32_n_of_8_to_16_runs_on_128x16_tiles`.)
        let takes = |s: &gemm_launch::KernelSpec| {
            mma_refusal(s, 100_000, n as u32, a_col, b_col).is_none() && !s.name.ends_with("x16x32")
        };
        default_choice(Dtype::Tf32, (100_000, n, k), 132, layout, (9, 0), takes).kernel
    };
    let nn = OperandLayout::NN;
    assert_eq!([tf32(16, 777, nn), tf32(9, STREAM_TF32_MAX_K, nn)], ["skinny_mma_r16"; 2]);
    assert_eq!([tf32(16, STREAM_TF32_MAX_K + 1, nn), tf32(8, 777, nn)], ["skinny_r16_2cta"; 2]);
    // Few long rows (PERF.md step 93): TF32 `mma.sync` from 700 to 4095
    // rows, N of 8 to 16, K to TF32_ROWS_STREAM_MAX_K; exact f32 outside.
    use rgemm::api::choice::{TF32_ROWS_STREAM_MAX_K, TF32_STREAM_ROWS};
    // (The 128×16 and 64×16 tiles refused, as above.)
    let tf32_rows = |m: usize, n: usize, k: usize| {
        let takes = |s: &gemm_launch::KernelSpec| {
            mma_refusal(s, m as u32, n as u32, false, false).is_none() && !s.name.ends_with("x16x32")
        };
        default_choice(Dtype::Tf32, (m, n, k), 132, nn, (9, 0), takes).kernel
    };
    let (fewest, most) = (TF32_STREAM_ROWS.start, TF32_STREAM_ROWS.end - 1);
    let inside = [tf32_rows(fewest, 16, 20_000), tf32_rows(most, 8, 9000), tf32_rows(1000, 12, TF32_ROWS_STREAM_MAX_K)];
    assert_eq!(inside, ["skinny_mma_r16"; 3]);
    let outside = [tf32_rows(fewest - 1, 16, 20_000), tf32_rows(most + 1, 16, 9000), tf32_rows(1000, 7, 20_000)];
    assert_eq!(outside, ["skinny_r16_2cta"; 3]);
    assert_eq!(tf32_rows(1000, 16, TF32_ROWS_STREAM_MAX_K + 4), "skinny_r16_2cta");
    // K ≤ DEEP_K (step 94): TF32 `mma.sync` where the rule splits the
    // call, from FEW_TILES_MIN_K with blocks under three quarters of a
    // wave; unsplit rows stay exact f32.
    use gemm_launch::split_k::{DEEP_K, FEW_TILES_MIN_K};
    let (deep, least) = (DEEP_K as usize, FEW_TILES_MIN_K as usize);
    let split_rows = [tf32_rows(2000, 16, deep), tf32_rows(1000, 8, least), tf32_rows(3000, 16, 4096)];
    assert_eq!(split_rows, ["skinny_mma_r16"; 3]);
    let unsplit = [tf32_rows(1000, 8, least - 1), tf32_rows(most, 16, deep), tf32_rows(3200, 16, 4096)];
    assert_eq!(unsplit, ["skinny_r16_2cta"; 3], "unsplit rows stay exact f32");
    // The route sees one matrix under SplitK::Auto: a call of those rows
    // that does not split (a batch of 128 blocks, SplitK::Off, a chunk of
    // all K) runs exact f32; short rows (N ≥ 9, K ≤ STREAM_TF32_MAX_K)
    // stay on tensor cores unsplit.
    use rgemm::api::choice::rows_kernel_for_split;
    use rgemm::{GemmOptions, SplitK};
    let for_split = |(m, n, k): (usize, usize, usize), count: usize, split_k: SplitK, cc: (i32, i32)| {
        let (a, b, c) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
        let batch = Batch { count, stride_a: m * k, stride_b: k * n, stride_c: m * n };
        let call = plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let options = GemmOptions { split_k, allow_tf32: true, ..GemmOptions::default() };
        rows_kernel_for_split(&gemm_launch::memory_bound::SKINNY_MMA_TF32_R16, &options, &call, 132, cc).name
    };
    let (rows, hopper) = ((1000, 16, 4096), (9, 0));
    assert_eq!(for_split(rows, 1, SplitK::Auto, hopper), "tgemm_skinny_mma_r16");
    assert_eq!(for_split(rows, 4, SplitK::Chunk(1024), hopper), "tgemm_skinny_mma_r16");
    let unsplit = [(4, SplitK::Auto), (1, SplitK::Off), (1, SplitK::Chunk(4096))];
    for (count, split_k) in unsplit {
        assert_eq!(for_split(rows, count, split_k, hopper), "tgemm_skinny_r16_2cta", "{count} {split_k:?}");
    }
    assert_eq!(for_split(rows, 1, SplitK::Off, (8, 0)), "tgemm_skinny_r16");
    assert_eq!(for_split((1000, 16, STREAM_TF32_MAX_K), 4, SplitK::Off, hopper), "tgemm_skinny_mma_r16");
    assert_eq!(tf32(16, 777, OperandLayout { a_col_major: true, b_col_major: true }), "skinny_r16_2cta");
    assert_eq!(at(8192, 5, 8191), "skinny_mma");
    // Short K (under SKINNY_TILES_MIN_K): N = 16 stays on the 64×16 tiles,
    // N = 8 streams on step 86's kernel (PERF.md step 90); M = 16 takes
    // step 10g's swapped tiles (PERF.md step 102), up to
    // SWAPPED_SKINNY_MAX_K, in place of step 10's tiles and step 70's.
    use rgemm::api::choice::{SKINNY_TILES_MIN_K, SWAPPED_SKINNY_MAX_K};
    let short = SKINNY_TILES_MIN_K / 2;
    assert_eq!([at(100_000, 16, short), at(100_000, 16, 64), at(50_000, 16, short)], ["mma_64x16x64"; 3]);
    assert_eq!([at(100_000, 8, short), at(16, 200_000, short)], ["skinny_mma", "ws_16x128x64_rs"]);
    let swapped = [at(8, 42_216, 504), at(4, 80_000, 320), at(16, 16_384, SWAPPED_SKINNY_MAX_K - 8)];
    assert_eq!(swapped, ["ws_16x128x64_rs"; 3]);
    assert_eq!(at(16, 16_384, SWAPPED_SKINNY_MAX_K), "mma_16x64x64");
    // Where step 10g does not run, M the small side and K under
    // SKINNY_TILES_MIN_K (PERF.md step 101): the 16×64 tiles from
    // SHORT_ROWS_TILES_MIN_K with at most 8 waves of blocks, at any number
    // from SHORT_ROWS_ANY_WAVES_MIN_K.
    use rgemm::api::choice::{SHORT_ROWS_ANY_WAVES_MIN_K, SHORT_ROWS_TILES_MAX_WAVES, SHORT_ROWS_TILES_MIN_K};
    let rows_win = |m: usize, n: usize, k: usize| {
        let spec = &gemm_launch::MMA_F16_16X64X64;
        rgemm::api::choice::skinny_tiles_win(spec, (m, n, k), 132, OperandLayout::NN)
    };
    let most = (SHORT_ROWS_TILES_MAX_WAVES * 132 * 64) as usize;
    assert!(rows_win(12, 30_000, SHORT_ROWS_TILES_MIN_K) && rows_win(16, most, 256));
    assert!(!rows_win(12, 30_000, SHORT_ROWS_TILES_MIN_K - 1) && !rows_win(16, most + 64, 256));
    assert!(rows_win(16, 200_000, SHORT_ROWS_ANY_WAVES_MIN_K) && rows_win(8, 42_216, 504));
    use rgemm::api::choice::WIDE_COLUMNS_TILES_MIN_K;
    assert_eq!(at(100_000, 16, WIDE_COLUMNS_TILES_MIN_K), "mma_64x16x64");
    assert_eq!(at(100_000, 16, 4), "skinny_mma_r16", "A's rows under 16 bytes");
    let tiles_win = |k| {
        rgemm::api::choice::skinny_tiles_win(&gemm_launch::MMA_F16_64X16X64, (100_000, 16, k), 132, OperandLayout::NN)
    };
    assert_eq!([tiles_win(WIDE_COLUMNS_TILES_MIN_K), tiles_win(WIDE_COLUMNS_TILES_MIN_K - 1)], [true, false]);
    // A few long rows (tiles for under half a wave, K from FEW_TILES_MIN_K):
    // the skinny tiles, split onto their own twins, where M is the small side
    // or N is 9 to 16 with A's rows on 16 bytes (PERF.md step 92); N of 2 to
    // 7 and A's rows off 16 bytes stream on step 86/88's kernel as before;
    // so do other layouts and both sides small (not measured split).
    assert_eq!([at(1000, 16, 20_000), at(700, 16, 60_000), at(3000, 16, 30_000)], ["mma_64x16x64"; 3]);
    assert_eq!([at(2000, 8, 10_000), at(1000, 8, 50_000)], ["mma_64x16x64"; 2]);
    assert_eq!([at(16, 1000, 20_000), at(8, 2000, 16_384)], ["mma_16x64x64"; 2]);
    assert_eq!(at(1000, 4, 100_000), "skinny_mma");
    assert_ne!(at(8, 16, 65_536), "mma_16x64x64", "both sides small");
    let nt = OperandLayout { a_col_major: false, b_col_major: true };
    let nt_1000 = default_choice(Dtype::F16, (1000, 16, 20_000), 132, nt, (9, 0), |_| true).kernel;
    assert_eq!(nt_1000, "skinny_mma_r16", "measured split with A and B row-major only");
    assert_eq!([at(4096, 16, 16_383), at(3000, 12, 30_000)], ["skinny_mma_r16"; 2], "A's or B's rows off 16 bytes");
    // Under 2²⁷ flop step 10's tiles would not copy B, and so the 64×16
    // tiles are not taken either; `library`'s memory-bound test runs N = 6
    // above it.
    assert_eq!(
        [at(8200, 6, 1024), at(16500, 6, 1024), at(100_000, 6, 778)],
        ["skinny_mma", "mma_64x16x64", "skinny_mma"]
    );
    // N = 129 fills 67% of a 128×192 tile's columns and 50% of a 128×256
    // one's, as many tiles: the padding decides.
    assert_eq!([f16(16384, 129), f16(8192, 4096)], ["ws_128x192x64", "ws_128x256x64"]);
    // Not across families, nor to a tile of the same size.
    // (K = 2048: below F32_SPLIT_TILES_MIN_K, from which few tiles take the
    // deep-K list's tile and are split.)
    let f32 = |m, n| default_choice(Dtype::F32, (m, n, 2048), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!(f32(8192, 4096), "wt_256x128x8");
    // f32 mid sizes, as measured on an H100 (PERF steps 44, 54): the
    // 256×128 tile from half a wave, unless a smaller one fills the last
    // wave enough better (1536³: 2.2 waves of 64×128 against 0.55 of
    // 256×128; 3072³: 8.7 of 64×128 against 4.4 of 128×128 and 2.2 of
    // 256×128); 1280³ takes 128×128 (1.4 waves of 64×128 fill 73%).
    let mid: Vec<_> = [1024, 1280, 1536, 1792, 2048, 2560, 3072, 4096].map(|s| f32(s, s)).into();
    assert_eq!(
        mid,
        [
            "db_128x64x16",
            "wt_128x128x8",
            "wt_64x128x8",
            "wt_64x128x8",
            "wt_256x128x8",
            "wt_256x128x8",
            "wt_64x128x8",
            "wt_256x128x8"
        ]
    );
    assert_eq!([f32(4000, 3000), f32(2048, 8192)], ["wt_256x128x8", "wt_256x128x8"]);
    // Step 10's three tiles by the same rule, as measured on an H100 (PERF
    // step 46): 128×192 where 128×256 leaves much of its last wave empty.
    let squares = [1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144];
    for (dtype, d) in [(Dtype::F16, 64), (Dtype::Bf16, 64), (Dtype::Tf32, 32)] {
        let tiles: Vec<_> = squares
            .map(|s| default_choice(dtype, (s, s, 4096), 132, OperandLayout::NT, (9, 0), |_| true).kernel)
            .into();
        let [wide, mid] = [format!("ws_128x256x{d}"), format!("ws_128x192x{d}")];
        assert_eq!(tiles, [&mid, &wide, &wide, &mid, &wide, &wide, &mid, &wide].map(String::clone), "{dtype:?}");
        let odd = default_choice(dtype, (4000, 3000, 4096), 132, OperandLayout::NT, (9, 0), |_| true).kernel;
        assert_eq!(odd, wide, "{dtype:?}");
    }
    // A row-major B whose rows start off the 32-byte sectors (N = 3000
    // f16: 6000 bytes) takes step 10c's clusters; rows on them, a K-major
    // B, or TF32 do not (PERF step 45). TF32 with a row-major B takes step
    // 10f's swapped twin, which reads B in place (PERF step 62).
    let nn = |dtype, m, n| default_choice(dtype, (m, n, 4096), 132, OperandLayout::NN, (9, 0), |_| true).kernel;
    assert_eq!([nn(Dtype::F16, 4000, 3000), nn(Dtype::Bf16, 5000, 5000)], ["ws_128x256x64_c2", "ws_128x256x64_c2"]);
    assert_eq!([nn(Dtype::F16, 4096, 3072), nn(Dtype::F16, 3000, 4000)], ["ws_128x256x64", "ws_128x256x64"]);
    assert_eq!(nn(Dtype::Tf32, 4000, 3000), "ws_256x128x32_rs");
    let nt = |dtype, m, n| default_choice(dtype, (m, n, 4096), 132, OperandLayout::NT, (9, 0), |_| true).kernel;
    assert_eq!(nt(Dtype::Tf32, 4000, 3000), "ws_128x256x32");
    assert_eq!([nn(Dtype::Tf32, 1024, 1024), nt(Dtype::Tf32, 1024, 1024)], ["ws_128x128x32_rs", "ws_128x128x32"]);
    assert!(rgemm::api::choice::b_rows_off_sectors(Dtype::F16, 2003), "its realigned copy's rows: 4016 bytes");
    assert!(!rgemm::api::choice::b_rows_off_sectors(Dtype::F16, 4000));
    assert!((rgemm::tune::wave_fill(128, 132) - 128.0 / 132.0).abs() < 1e-12);
    assert!((rgemm::tune::wave_fill(288, 132) - 288.0 / 396.0).abs() < 1e-12);
    // With fewer than four rows of tiles, a pair's second tile often lies
    // past M: step 10 (PERF step 48).
    assert!(!nn(Dtype::F16, 64, 20008).ends_with("_c2"));
    assert_eq!(nn(Dtype::F16, 640, 5000), "ws_128x256x64_c2");
}

#[test]
fn shallow_k_keeps_the_one_block_tiles() {
    // 16-bit K of one slice: the wave fill's one-block tiles, not step
    // 10d's two blocks per SM (H200, PERF step 105: 8192²×16 0.060 → 0.045
    // ms), in every layout their TMA takes.
    let pick = |dtype, m, n, k, layout| default_choice(dtype, (m, n, k), 132, layout, (9, 0), |_| true).kernel;
    for layout in OperandLayout::ALL {
        for (dtype, m, n, k) in
            [(Dtype::F16, 8192, 8192, 16), (Dtype::Bf16, 16384, 4096, 48), (Dtype::F16, 8192, 8192, 65)]
        {
            assert_eq!(pick(dtype, m, n, k, layout), "ws_128x256x64", "{dtype:?} {m}x{n}x{k} {layout:?}");
        }
        let off_sectors = pick(Dtype::Bf16, 6000, 5000, 64, layout);
        assert!(!off_sectors.ends_with("_2cta") && off_sectors.starts_with("ws_128x"), "{off_sectors} {layout:?}");
    }
    // TF32 with a row-major B, K of two slices: step 10f's 128×128 tiles
    // (PERF step 101); a column-major B keeps step 10b's, deeper K the
    // 256×128 swapped tiles.
    use rgemm::api::choice::SHALLOW_MAX_K;
    assert_eq!(pick(Dtype::Tf32, 8192, 8192, 16, OperandLayout::NN), "ws_128x128x32_rs");
    assert_eq!(pick(Dtype::Tf32, 6000, 5000, SHALLOW_MAX_K, OperandLayout::NN), "ws_128x128x32_rs");
    assert_eq!(pick(Dtype::Tf32, 8192, 8192, 16, OperandLayout::NT), "ws_128x256x32");
    assert_eq!(pick(Dtype::Tf32, 8192, 8192, SHALLOW_MAX_K + 1, OperandLayout::NN), "ws_256x128x32_rs");
    // With the real refusals: C's rows on or off 16 bytes, a one-block
    // tile either way (off 16 bytes it stages C's rows, PERF step 99).
    let at = |m: usize, n: usize, k: usize| {
        let plan = rgemm::driver::tensor_map::packed_plan(m, n, k);
        let takes = |s: &gemm_launch::KernelSpec| rgemm::api::choice::auto_tma_refusal(s, &plan, [0; 3], 132).is_none();
        default_choice(Dtype::F16, (m, n, k), 132, OperandLayout::NN, (9, 0), takes).kernel
    };
    assert_eq!(at(6492, 5008, 24), "ws_128x256x64");
    assert!(at(6492, 5009, 24).starts_with("ws_128x2"));
    // A tune cache's two-block tile is still refused where C's rows are off
    // 16 bytes (it would store them from registers).
    let two_blocks = &gemm_launch::WS_F16_128X128X64_2CTA;
    let refusal = |n| {
        rgemm::api::choice::staged_c_refusal(two_blocks, &rgemm::driver::tensor_map::packed_plan(6492, n, 24), [0; 3])
    };
    assert!(refusal(5009).is_some() && refusal(5008).is_none());
}

#[test]
fn f32_shallow_k_runs_on_the_64x64_tiles() {
    // K up to SHALLOW_MAX_K, whatever the wave fill picks: step 7b's 64×64
    // tiles, five blocks per SM (H200, PERF step 106: 8192²×16 0.126 →
    // 0.094 ms, 1000×999×16 0.010 → 0.007); deeper K keeps the wave fill's.
    use rgemm::api::choice::SHALLOW_MAX_K;
    let pick = |m, n, k, layout| default_choice(Dtype::F32, (m, n, k), 132, layout, (9, 0), |_| true).kernel;
    let nn = OperandLayout::NN;
    for (m, n, k) in [(8192, 8192, 16), (6492, 5009, 24), (6000, 5000, SHALLOW_MAX_K), (1000, 999, 16), (100, 100, 1)] {
        assert_eq!(pick(m, n, k, nn), "wt_64x64x8", "{m}x{n}x{k}");
    }
    assert_eq!(pick(8192, 8192, SHALLOW_MAX_K + 1, nn), "wt_256x128x8");
    assert_eq!(pick(1000, 999, SHALLOW_MAX_K + 1, nn), "db_128x64x16");
    // The layouts the warp tiles were not timed in keep step 6's tiles.
    for layout in OperandLayout::ALL.into_iter().filter(|&layout| layout != nn) {
        assert_eq!(pick(8192, 8192, 16, layout), pick(8192, 8192, SHALLOW_MAX_K + 1, layout), "{layout:?}");
    }
    // Where C's rows are off 16 bytes the host launches the twin that
    // writes them whole, at these depths.
    let twin = gemm_launch::c_rows_twin(&gemm_launch::WT_64X64X8, SHALLOW_MAX_K as u32);
    assert_eq!(twin.map(|record| record.twin.name), Some("sgemm_wt_64x64x8_cu"));
}

#[test]
fn tf32_of_17_to_64_rows_runs_on_tiles_of_32_or_64_rows() {
    // A and B row-major, M the small side, K past SHALLOW_MAX_K: 32-row
    // tiles to M = 32, 64-row ones to 64, split or not (H200, PERF step
    // 107; the measurements are in `mid_rows_tf32_tiles`'s doc).
    use rgemm::api::choice::SHALLOW_MAX_K;
    let pick = |m, n, k, layout| default_choice(Dtype::Tf32, (m, n, k), 132, layout, (9, 0), |_| true).kernel;
    let nn = OperandLayout::NN;
    for (m, n, k) in [(17, 100001, 1023), (24, 65536, 129), (32, 16384, 4096), (24, 8192, 8192), (22, 56, 171379)] {
        assert_eq!(pick(m, n, k, nn), "ws_32x128x32_rs", "{m}x{n}x{k}");
    }
    for (m, n, k) in [(33, 30000, 999), (48, 8191, 4095), (64, 8192, 4096), (64, 192, 300000), (47, 307, 53605)] {
        assert_eq!(pick(m, n, k, nn), "ws_64x128x32_rs", "{m}x{n}x{k}");
    }
    // Few tiles keep the 16×128 ones; M ≤ 16 the skinny routes; more
    // rows, shallow K, N the small side and other layouts what they had.
    assert_eq!(pick(64, 1000, 999, nn), "ws_16x128x32_rs");
    for (m, n, k) in [(16, 100001, 1023), (65, 30000, 999), (32, 100000, SHALLOW_MAX_K), (3000, 48, 4095)] {
        assert!(!pick(m, n, k, nn).starts_with("ws_32x") && !pick(m, n, k, nn).starts_with("ws_64x"), "{m}x{n}x{k}");
    }
    for layout in OperandLayout::ALL.into_iter().filter(|&layout| layout != nn) {
        assert!(!pick(33, 30000, 999, layout).starts_with("ws_64x"), "{layout:?}");
    }
    // Where their TMA cannot read the operands: the tiles of before.
    let refused = default_choice(Dtype::Tf32, (33, 30000, 999), 132, nn, (9, 0), |s| s.tile.bm > 64).kernel;
    assert_eq!(refused, "ws_256x128x32_rs");
    // The rule's own bounds, apart from the rules after it.
    use rgemm::api::choice::mid_rows_tf32_tiles;
    let rows = |m, n, k| mid_rows_tf32_tiles(Dtype::Tf32, (m, n, k), nn).map(|s| s.name);
    assert_eq!(rows(48, 40, 4095), None, "M the larger side");
    assert_eq!((rows(16, 4096, 4096), rows(65, 4096, 4096)), (None, None));
    assert_eq!((rows(17, 4096, 65), rows(32, 32, 65)), (Some("tgemm_ws_32x128x32_rs"), Some("tgemm_ws_32x128x32_rs")));
    assert_eq!((rows(33, 4096, 65), rows(64, 64, 65)), (Some("tgemm_ws_64x128x32_rs"), Some("tgemm_ws_64x128x32_rs")));
    assert_eq!(rows(32, 4096, SHALLOW_MAX_K), None);
    assert!(mid_rows_tf32_tiles(Dtype::F16, (32, 4096, 4096), nn).is_none());
    assert!(mid_rows_tf32_tiles(Dtype::Tf32, (32, 4096, 4096), OperandLayout::NT).is_none());
}

#[test]
fn n_of_17_to_64_runs_on_128x64_tiles() {
    // A and B row-major, N the small side from 17 to 64, K past
    // SHALLOW_MAX_K: the 128×64 tiles of each tensor-core type (PERF step
    // 108); N ≤ 16 the memory-bound routes, wider N, shallow K, M the
    // small side and other layouts what they had; f32 unchanged.
    use rgemm::api::choice::SHALLOW_MAX_K;
    let pick = |dtype, m, n, k, layout| default_choice(dtype, (m, n, k), 132, layout, (9, 0), |_| true).kernel;
    let nn = OperandLayout::NN;
    for (dtype, tiles) in [(Dtype::F16, "ws_128x64x64"), (Dtype::Bf16, "ws_128x64x64"), (Dtype::Tf32, "ws_128x64x32")] {
        for (m, n, k) in [(100000, 24, 777), (16384, 17, 4096), (50000, 48, 512), (20000, 64, 4096), (30000, 33, 501)] {
            assert_eq!(pick(dtype, m, n, k, nn), tiles, "{dtype:?} {m}x{n}x{k}");
        }
        for (m, n, k) in [(100000, 16, 777), (20000, 65, 4096), (100000, 24, SHALLOW_MAX_K), (24, 100000, 777)] {
            assert_ne!(pick(dtype, m, n, k, nn), tiles, "{dtype:?} {m}x{n}x{k}");
        }
        for layout in OperandLayout::ALL.into_iter().filter(|&layout| layout != nn) {
            assert_ne!(pick(dtype, 100000, 24, 777, layout), tiles, "{dtype:?} {layout:?}");
        }
        // Where their TMA cannot read the operands: the tiles of before.
        let refused = default_choice(dtype, (50000, 48, 512), 132, nn, (9, 0), |s| s.tile.bn > 64).kernel;
        assert_eq!(refused, pick(dtype, 50000, 65, 512, nn), "{dtype:?}");
        // Few tiles that a split would take (K from 2048, under three
        // quarters of a wave: 99 blocks on 132 SMs) keep the tiles of
        // before, whose partial sums the split runs; so do the few-tiles
        // rule's 16×128 tiles. TF32's K-major tiles are not split from 33
        // blocks (`slower_partials_fill_gpu`), so they take 64 (8192 rows).
        assert_ne!(pick(dtype, 4096, 40, 4096, nn), tiles, "{dtype:?}");
        assert_eq!(pick(dtype, 8192, 48, 8192, nn) == tiles, dtype == Dtype::Tf32, "{dtype:?}");
        assert_eq!(pick(dtype, 98 * 128, 48, 4096, nn) == tiles, dtype == Dtype::Tf32, "{dtype:?}");
        assert_eq!(pick(dtype, 99 * 128, 48, 4096, nn), tiles, "{dtype:?}");
        assert_eq!(pick(dtype, 8191, 40, 2047, nn), tiles, "{dtype:?}");
        // A batch counts every matrix's blocks: 2 × 64 tiles make 128.
        use rgemm::api::choice::default_choice_for_batch;
        let batched = |batch| default_choice_for_batch(dtype, (64 * 128, 48, 4096), batch, 132, nn, (9, 0), |_| true);
        assert_eq!(batched(2).kernel, tiles, "{dtype:?}");
        assert_eq!(batched(1).kernel == tiles, dtype == Dtype::Tf32, "{dtype:?}");
    }
    assert_eq!(pick(Dtype::Tf32, 1000, 33, 501, nn), "ws_16x128x32_rs");
    // The rule's own bounds, apart from the rules after it.
    use rgemm::api::choice::mid_columns_tiles;
    let columns = |dtype, m, n, k| mid_columns_tiles(dtype, (m, n, k), nn).map(|s| s.name);
    assert_eq!(columns(Dtype::F16, 24, 48, 4096), None, "N the larger side");
    assert_eq!((columns(Dtype::F16, 4096, 16, 4096), columns(Dtype::F16, 4096, 65, 4096)), (None, None));
    assert_eq!(columns(Dtype::Bf16, 4096, 17, 65), Some("bgemm_ws_128x64x64"));
    assert_eq!(columns(Dtype::Bf16, 65, 64, 65), Some("bgemm_ws_128x64x64"));
    // TF32 from MID_COLUMNS_TF32_MIN_FLOP, 2²⁹ (its copy of B is a launch
    // of its own): 4096×64×1024 is exactly that.
    assert_eq!(columns(Dtype::Tf32, 3000, 64, 333), None);
    assert_eq!(columns(Dtype::Tf32, 4095, 64, 1024), None);
    assert_eq!(columns(Dtype::Tf32, 4096, 64, 1024), Some("tgemm_ws_128x64x32"));
    assert_eq!(columns(Dtype::F16, 3000, 64, 333), Some("hgemm_ws_128x64x64"));
    assert_eq!(columns(Dtype::F16, 4096, 24, SHALLOW_MAX_K), None);
    assert_eq!(columns(Dtype::F32, 100000, 24, 777), None);
    assert!(mid_columns_tiles(Dtype::F16, (4096, 24, 4096), OperandLayout::NT).is_none());
}

#[test]
fn tf32_n_of_8_to_16_runs_on_128x16_tiles() {
    // TF32, A and B row-major, N of 8 to 16, K from 65 to DEEP_K, 2²⁹ flop
    // a matrix or more: the 128×16 tiles (PERF step 109), where the TMA
    // reads A in place; under half a wave of their blocks, the 64×16 tiles
    // from 2²⁸ flop (step 110) while their own blocks fill 34% of a wave
    // (steps 111–112); the memory-bound routes elsewhere. `auto`'s choice with the real TMA refusals, for
    // packed operands at 16-byte aligned addresses.
    use gemm_launch::split_k::DEEP_K;
    use rgemm::api::choice::{SHALLOW_MAX_K, auto_tma_refusal, narrow_columns_tf32_tiles};
    let nn = OperandLayout::NN;
    let pick = |m: usize, n: usize, k: usize| {
        let plan = rgemm::driver::tensor_map::packed_plan(m, n, k);
        let takes = |s: &gemm_launch::KernelSpec| auto_tma_refusal(s, &plan, [0; 3], 132).is_none();
        default_choice(Dtype::Tf32, (m, n, k), 132, nn, (9, 0), takes).kernel
    };
    let narrow = |kernel: String| kernel.ends_with("x16x32");
    for (m, n, k) in [(16384, 16, 4096), (65536, 16, 1024), (100000, 16, 768), (16384, 8, 4096), (16384, 12, 4096)] {
        assert_eq!(pick(m, n, k), "ws_128x16x32", "{m}x{n}x{k}");
    }
    // Under half a wave of 128×16 blocks (66 on 132 SMs): 64×16.
    for (m, n, k) in [(8192, 16, 8192), (4000, 16, 4096), (6000, 16, 2048), (8192, 12, 4096)] {
        assert_eq!(pick(m, n, k), "ws_64x16x32", "{m}x{n}x{k}");
    }
    assert_eq!([pick(65 * 128, 16, 4096), pick(66 * 128, 16, 4096)], ["ws_64x16x32", "ws_128x16x32"]);
    // Each bound alone: N of 7 and 17; K of DEEP_K + 4 and of SHALLOW_MAX_K
    // (2²⁹ flop or more at each); under 2²⁹ flop on the 128×16 tiles
    // (16384×16×1020, 128 blocks) and under 2²⁸ on the 64×16 ones
    // (8192×16×1020, 128 blocks of 64 rows), A's rows on 16 bytes.
    let (deep, shallow) = (DEEP_K as usize, SHALLOW_MAX_K);
    for (m, n, k) in [(16384, 7, 4096), (16384, 17, 4096), (16384, 16, deep + 4), (1 << 20, 16, shallow)] {
        assert!(!narrow(pick(m, n, k)), "{m}x{n}x{k}");
    }
    assert!(!narrow(pick(16384, 16, 1020)), "under 2²⁹ flop");
    assert_eq!(pick(16384, 16, 1024), "ws_128x16x32", "2²⁹ flop");
    assert!(!narrow(pick(8192, 16, 1020)), "under 2²⁸ flop");
    // (At 64 blocks of 128×16, the 64×16 tiles' side; their shallow-K
    // bound lies under their flop floor there.)
    for (m, n, k) in [(8192, 7, 4096), (8192, 17, 4096), (8192, 16, deep + 4)] {
        assert!(!narrow(pick(m, n, k)), "{m}x{n}x{k}: the 64×16 tiles' bounds");
    }
    assert_eq!(pick(8192, 16, 1024), "ws_64x16x32", "2²⁸ flop");
    // From 34% of a wave of 64×16 blocks (45 on 132 SMs), at any K up to
    // DEEP_K (steps 111–112): 44 blocks (2816 rows) go to the memory-bound
    // route; 45 take the tiles, as do 65 and 66 past K = 4096, which step
    // 110's K bound had sent away.
    use rgemm::api::choice::NARROW_64_ROWS_MIN_WAVE_PERCENT;
    assert_eq!(NARROW_64_ROWS_MIN_WAVE_PERCENT, 34);
    for k in [4096, deep] {
        assert!(!narrow(pick(44 * 64, 16, k)), "44 blocks, K = {k}");
        assert_eq!(pick(44 * 64 + 1, 16, k), "ws_64x16x32", "45 blocks, K = {k}");
    }
    assert!(!narrow(pick(2048, 16, 4096)), "32 blocks");
    assert!(!narrow(pick(2500, 16, 4096)), "40 blocks");
    assert!(!narrow(pick(2752, 16, 4096)), "43 blocks");
    assert_eq!(pick(3000, 16, 4096), "ws_64x16x32", "47 blocks");
    assert_eq!(pick(4160, 16, 8192), "ws_64x16x32", "65 blocks past K = 4096");
    assert_eq!(pick(4224, 16, 8192), "ws_64x16x32", "66 blocks");
    // At the rule's lower bounds no few-tiles split takes the call, so
    // `auto` runs the tiles unsplit: 45 blocks of 64×16, 66 of 128×16.
    use rgemm::api::choice::few_tiles_split_takes;
    assert!(!few_tiles_split_takes(&gemm_launch::WS_TF32_64X16X32, (44 * 64 + 1, 16, 4096), 1, 132));
    assert!(!few_tiles_split_takes(&gemm_launch::WS_TF32_128X16X32, (66 * 128, 16, 4096), 1, 132));
    assert!(few_tiles_split_takes(&gemm_launch::WS_TF32_64X16X32, (1000, 16, 4096), 1, 132), "16 blocks");
    // The refusal: A's rows off 16 bytes (K = 777 or 2047, or a batch
    // stride off 16 bytes) would be copied realigned; the memory-bound
    // kernels take those calls.
    assert_eq!([pick(100000, 16, 777), pick(6000, 16, 2047)], ["skinny_mma_r16"; 2]);
    for tiles in [&gemm_launch::WS_TF32_128X16X32, &gemm_launch::WS_TF32_64X16X32] {
        let plan = rgemm::driver::tensor_map::packed_plan(16384, 16, 4096);
        assert!(auto_tma_refusal(tiles, &plan, [0; 3], 132).is_none());
        let (stride_a, stride_c) = (16384 * 4096 + 1, 16384 * 16);
        let odd_stride = rgemm::driver::launch::Plan { batch: 2, stride_a, stride_b: 0, stride_c, ..plan };
        assert!(auto_tma_refusal(tiles, &odd_stride, [0; 3], 132).is_some());
        let odd_k = rgemm::driver::tensor_map::packed_plan(100000, 16, 777);
        assert!(auto_tma_refusal(tiles, &odd_k, [0; 3], 132).is_some());
    }
    // The rule weighs one matrix's flop and the whole batch's blocks: two
    // matrices of 32 blocks of 64×16 (64, 48% of a wave) pass its 34%; two of 33
    // blocks of 128×16 make half a wave.
    let rule = |dtype, (m, n, k), batch, layout| narrow_columns_tf32_tiles(dtype, (m, n, k), batch, 132, layout);
    let name = |(m, n, k), batch| rule(Dtype::Tf32, (m, n, k), batch, nn).map(|s| s.name);
    assert_eq!(name((2048, 16, 4096), 1), None);
    assert_eq!(name((2048, 16, 4096), 2), Some("tgemm_ws_64x16x32"));
    assert_eq!(name((4224, 16, 4096), 2), Some("tgemm_ws_128x16x32"));
    assert_eq!(name((2048, 16, 4096), 512), None, "under 2²⁹ flop a matrix, on 128×16 tiles");
    assert!(
        rule(Dtype::F16, (16384, 16, 4096), 1, nn).is_none() && rule(Dtype::F32, (16384, 16, 4096), 1, nn).is_none()
    );
    for layout in OperandLayout::ALL.into_iter().filter(|&layout| layout != nn) {
        assert!(rule(Dtype::Tf32, (16384, 16, 4096), 1, layout).is_none(), "{layout:?}");
    }
}

#[test]
fn tf32_few_tiles_run_on_the_16x128_tiles() {
    // A and B row-major, K short of the few-tiles split, at most one block
    // of 16×128 per SM: step 10f's 16×128 tiles (H200, PERF step 106: 512³
    // 0.012 → 0.008 ms); more blocks, deeper K or other layouts keep the
    // tiles they had.
    let pick = |m, n, k, layout| default_choice(Dtype::Tf32, (m, n, k), 132, layout, (9, 0), |_| true).kernel;
    let nn = OperandLayout::NN;
    for (m, n, k) in [(512, 512, 512), (256, 256, 256), (1024, 256, 1024), (200, 300, 2047), (512, 512, 16)] {
        assert_eq!(pick(m, n, k, nn), "ws_16x128x32_rs", "{m}x{n}x{k}");
    }
    let few_k = gemm_launch::split_k::FEW_TILES_MIN_K as usize;
    assert_eq!(pick(768, 768, 768, nn), "ws_128x128x32_rs");
    assert_eq!(pick(512, 512, few_k, nn), "ws_128x128x32_rs");
    assert_ne!(pick(512, 512, 512, OperandLayout::NT), "ws_16x128x32_rs");
    // A batch counts all its matrices' blocks: 2 × 512² makes 256.
    use rgemm::api::choice::default_choice_for_batch;
    let batched = |batch| default_choice_for_batch(Dtype::Tf32, (512, 512, 512), batch, 132, nn, (9, 0), |_| true);
    assert_eq!(batched(1).kernel, "ws_16x128x32_rs");
    assert_eq!(batched(2).kernel, "ws_128x128x32_rs");
    assert_eq!(
        default_choice_for_batch(Dtype::Tf32, (256, 256, 256), 4, 132, nn, (9, 0), |_| true).kernel,
        "ws_16x128x32_rs"
    );
    // The library's choice passes the batch on (`select` →
    // `choose_kernel_for_batch`); the CLI's calls are single matrices.
    use rgemm::api::choose_kernel_for_batch;
    let library = |batch| choose_kernel_for_batch(None, &h100(), Dtype::Tf32, (512, 512, 512), batch, nn, aligned);
    assert_eq!((library(1).kernel.as_str(), library(64).kernel.as_str()), ("ws_16x128x32_rs", "ws_128x128x32_rs"));
    assert_eq!(choose_kernel(None, &h100(), Dtype::Tf32, (512, 512, 512), nn, aligned), library(1));
    // Where the 16×128 tiles' TMA cannot read the operands: the tiles of before.
    let refused = default_choice(Dtype::Tf32, (512, 512, 512), 132, nn, (9, 0), |s| s.tile.bm > 16).kernel;
    assert_eq!(refused, "ws_128x128x32_rs");
}

#[test]
fn deep_k_takes_the_tile_that_wastes_least() {
    // As measured on an H100 (PERF step 48): where the split fills the GPU,
    // the least padding at the best rate.
    let pick = |dtype, m, n, k, layout, cc| default_choice(dtype, (m, n, k), 132, layout, cc, |_| true).kernel;
    let nn = OperandLayout::NN;
    let f32: Vec<_> = [(256, 256, 131072), (128, 128, 65536), (64, 192, 300000), (384, 384, 100000)]
        .map(|(m, n, k)| pick(Dtype::F32, m, n, k, nn, (9, 0)))
        .into();
    // 64×64 on step 7b's warp tiles (PERF step 99); step 6's where they
    // do not run (column-major operands).
    assert_eq!(f32, ["wt_256x128x8", "wt_128x128x8", "wt_64x64x8", "wt_128x128x8"]);
    let tt = OperandLayout { a_col_major: true, b_col_major: true };
    assert_eq!(pick(Dtype::F32, 64, 192, 300000, tt, (9, 0)), "db_64x64x16");
    let tf32: Vec<_> = [(1024, 1024, 16384), (128, 128, 65536), (64, 192, 300000), (100, 3000, 20000)]
        .map(|(m, n, k)| pick(Dtype::Tf32, m, n, k, nn, (9, 0)))
        .into();
    // A row-major B: step 10f's swapped 128×128 tiles, which read it in
    // place (PERF step 62); a column-major one: `mma.sync` 64×128, the one
    // of the others compiled for it (step 9b and `mma.sync` 64×192 are
    // row-major only). M of 17 to 64 then takes the 32- or 64-row tiles
    // (`mid_rows_tf32_tiles`, PERF step 107: 64×192×300000 0.113 → 0.093 ms).
    assert_eq!(tf32, ["ws_128x128x32_rs", "ws_128x128x32_rs", "ws_64x128x32_rs", "ws_128x128x32_rs"]);
    // The deep-K list's own pick there, where the 64-row tiles cannot run.
    let listed = default_choice(Dtype::Tf32, (64, 192, 300000), 132, nn, (9, 0), |s| s.tile.bm > 64).kernel;
    assert_eq!(listed, "ws_128x128x32_rs");
    let tf32_nt: Vec<_> = [(1024, 1024, 16384), (128, 128, 65536), (64, 192, 300000)]
        .map(|(m, n, k)| pick(Dtype::Tf32, m, n, k, OperandLayout::NT, (9, 0)))
        .into();
    assert_eq!(tf32_nt, ["mma_64x128x32"; 3]);
    assert_eq!(pick(Dtype::Tf32, 1024, 1024, 16384, nn, (8, 0)), "mma_64x128x32");
    // f32 from F32_SPLIT_TILES_MIN_K where `wt_256x128x8` fills under half a
    // wave (it is split), not below that K nor past that fill.
    assert_eq!((F32_SPLIT_TILES_MIN_K, F32_SPLIT_TILES_MAX_QUARTERS), (4096, 2));
    assert_eq!(pick(Dtype::F32, 256, 256, 8192, nn, (9, 0)), "wt_256x128x8");
    assert_eq!(pick(Dtype::F32, 768, 768, 4096, nn, (9, 0)), "wt_256x128x8");
    assert_eq!(pick(Dtype::F32, 640, 640, 6000, nn, (9, 0)), "wt_128x128x8", "pads less");
    assert_eq!(pick(Dtype::F32, 768, 768, 4095, nn, (9, 0)), "db_64x64x16");
    assert_eq!(pick(Dtype::F32, 256, 256, 4095, nn, (9, 0)), "db_64x64x16");
    assert_eq!(pick(Dtype::F32, 1280, 1280, 4096, nn, (9, 0)), "wt_256x128x8", "50 tiles");
    assert_eq!(pick(Dtype::F32, 1280, 1280, 4095, nn, (9, 0)), "wt_128x128x8");
    assert_eq!(pick(Dtype::F32, 1536, 1536, 4096, nn, (9, 0)), "wt_64x128x8", "72 tiles");
    assert_eq!(pick(Dtype::F32, 1536, 1536, 4096, nn, (9, 0)), pick(Dtype::F32, 1536, 1536, 4095, nn, (9, 0)));
    // Nor TF32 below DEEP_K with tiles enough to fill the GPU.
    assert_eq!(pick(Dtype::Tf32, 4096, 4096, 16384, nn, (9, 0)), "ws_256x128x32_rs");
    // 16-bit: step 10's 128×128 tiles, or 128×192 where they pad N less;
    // ties to 128×128. Off Hopper the general choice stands.
    for dtype in [Dtype::F16, Dtype::Bf16] {
        let picks: Vec<_> =
            [(256, 256, 131072), (128, 128, 65536), (64, 192, 300000), (100, 3000, 20000), (64, 576, 65536)]
                .map(|(m, n, k)| pick(dtype, m, n, k, nn, (9, 0)))
                .into();
        assert_eq!(picks, ["ws_128x128x64", "ws_128x128x64", "ws_128x192x64", "ws_128x128x64", "ws_128x192x64"]);
        assert_eq!(pick(dtype, 64, 192, 300000, nn, (8, 0)), "mma_128x128x32_w32x64");
    }
    // Not below DEEP_K.
    assert_eq!(pick(Dtype::F16, 64, 192, 8192, nn, (9, 0)), "ws_128x128x64");
}

/// An H100 as the driver describes it (the tune cache's key is `name`).
fn h100() -> rgemm::DeviceInfo {
    rgemm::DeviceInfo {
        name: "NVIDIA H100 80GB HBM3".into(),
        compute_capability: (9, 0),
        multiprocessors: 132,
        total_memory_bytes: 80 << 30,
        peak_bandwidth_gbs: Some(3352.0),
    }
}

/// A cache with one f16 4096³ entry tuned on `h100()`.
fn cache_with(kernel: &gemm_launch::KernelSpec, group_m: u32) -> TuneCache {
    let mut cache = TuneCache::default();
    let choice = Choice { kernel: short_name(kernel).into(), group_m, tflops: Some(400.0) };
    cache.entries.insert(cache_key(&h100().name, Dtype::F16, 4096, 4096, 4096), choice);
    cache
}

const F16_4096: (usize, usize, usize) = (4096, 4096, 4096);
const TN: OperandLayout = OperandLayout { a_col_major: true, b_col_major: false };
/// Operands the TMA can take, or not.
fn aligned(_: &gemm_launch::KernelSpec) -> Option<String> {
    None
}
fn unaligned(spec: &gemm_launch::KernelSpec) -> Option<String> {
    (spec.algorithm == Algorithm::WarpSpecialized).then(|| "unaligned".to_string())
}

#[test]
fn a_tuned_entry_overrides_the_default_on_its_own_gpu_only() {
    let gpu = h100();
    let builtin = |layout, gpu: &rgemm::DeviceInfo| {
        let tma = aligned(&gemm_launch::WS_F16_128X256X64).is_none();
        default_choice(Dtype::F16, (4096, 4096, 4096), gpu.multiprocessors, layout, gpu.compute_capability, |_| tma)
    };
    let tuned = &gemm_launch::MMA_F16_128X128X32; // every layout, sm_80: runs on the H100
    let cache = cache_with(tuned, 16);
    assert_ne!(builtin(OperandLayout::NN, &gpu).kernel, short_name(tuned), "the test needs a non-default entry");
    for layout in [OperandLayout::NN, TN] {
        let choice = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, layout, aligned);
        assert_eq!((choice.kernel.as_str(), choice.group_m), (short_name(tuned), 16), "{layout:?}");
        // Not another shape, dtype or GPU: the key holds the GPU's name.
        let other_shape = choose_kernel(Some(&cache), &gpu, Dtype::F16, (4096, 4096, 4095), layout, aligned);
        assert_eq!(other_shape, default_choice(Dtype::F16, (4096, 4096, 4096), 132, layout, (9, 0), |_| true));
        let bf16 = choose_kernel(Some(&cache), &gpu, Dtype::Bf16, F16_4096, layout, aligned);
        assert_eq!(bf16, default_choice(Dtype::Bf16, (4096, 4096, 4096), 132, layout, (9, 0), |_| true));
        for name in ["NVIDIA H200", "NVIDIA H100 PCIe", "NVIDIA A100-SXM4-80GB", ""] {
            let other = rgemm::DeviceInfo { name: name.into(), ..gpu.clone() };
            let choice = choose_kernel(Some(&cache), &other, Dtype::F16, F16_4096, layout, aligned);
            assert_eq!(choice, builtin(layout, &other), "an entry tuned on {} used on {name:?}", gpu.name);
        }
        // No cache, or an empty one: the default.
        for none in [None, Some(&TuneCache::default())] {
            assert_eq!(choose_kernel(none, &gpu, Dtype::F16, F16_4096, layout, aligned), builtin(layout, &gpu));
        }
    }
    assert!(cache.entries.keys().all(|k| k.starts_with("NVIDIA H100 80GB HBM3|f16|")), "{:?}", cache.entries);
}

#[test]
fn a_tuned_entry_that_cannot_run_the_call_falls_back_to_the_default() {
    let gpu = h100();
    let ampere = rgemm::DeviceInfo { compute_capability: (8, 0), multiprocessors: 108, ..gpu.clone() };
    let default = |gpu: &rgemm::DeviceInfo, layout, tma| {
        default_choice(Dtype::F16, (4096, 4096, 4096), gpu.multiprocessors, layout, gpu.compute_capability, |_| tma)
    };
    // Row-major only: used for nn, not for tn.
    let row_major = &gemm_launch::MMA_F16_128X256X32;
    assert!(!row_major.supports(TN));
    let cache = cache_with(row_major, 4);
    let nn = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
    assert_eq!(nn.kernel, short_name(row_major));
    let tn = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, TN, aligned);
    assert_eq!(tn, default(&gpu, TN, true));
    assert!(find_kernel(Dtype::F16, &tn.kernel).unwrap().supports(TN));
    // `wgmma` tuned on Hopper, read on a GPU of the same name but 8.x (as
    // the filter would see it): not run there.
    let cache = cache_with(&gemm_launch::WGMMA_F16_128X256X64, 8);
    let choice = choose_kernel(Some(&cache), &ampere, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
    assert_eq!(choice, default(&ampere, OperandLayout::NN, true));
    let choice = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
    assert_eq!(choice.kernel, short_name(&gemm_launch::WGMMA_F16_128X256X64));
    // A TMA kernel: never for operands its TMA cannot take.
    let ws = &gemm_launch::WS_F16_128X256X64;
    let cache = cache_with(ws, 8);
    let choice = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, unaligned);
    assert_eq!(choice, default(&gpu, OperandLayout::NN, false));
    assert_ne!(choice.kernel, short_name(ws));
    let choice = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
    assert_eq!(choice.kernel, short_name(ws), "{choice:?}");
    // Step 86's kernel tuned for a call whose large operand lies along L
    // (M small, B row-major): refused there (`call_refusal`), so the default.
    let mma = &gemm_launch::memory_bound::SKINNY_MMA_F16;
    let mut cache = TuneCache::default();
    let choice = Choice { kernel: short_name(mma).into(), group_m: 1, tflops: Some(1.0) };
    for (m, n) in [(4, 100_000), (100_000, 4)] {
        cache.entries.insert(cache_key(&gpu.name, Dtype::F16, m, n, 512), choice.clone());
    }
    let refusal = |m, n| {
        let plan = rgemm::driver::tensor_map::packed_plan(m, n, 512);
        move |s: &gemm_launch::KernelSpec| rgemm::driver::launch::call_refusal(s, &plan, [0; 3])
    };
    let along_l =
        choose_kernel(Some(&cache), &gpu, Dtype::F16, (4, 100_000, 512), OperandLayout::NN, refusal(4, 100_000));
    assert_ne!(along_l.kernel, short_name(mma), "{along_l:?}");
    let along_k =
        choose_kernel(Some(&cache), &gpu, Dtype::F16, (100_000, 4, 512), OperandLayout::NN, refusal(100_000, 4));
    assert_eq!(along_k.kernel, short_name(mma));
    // A name no f16 kernel has, an f32 kernel, a split-K partials kernel.
    for name in [
        "no_such_kernel",
        short_name(&gemm_launch::DB_128X64X16),
        short_name(&gemm_launch::MMA_F16_128X128X32_W32X64_F32OUT),
    ] {
        let mut cache = cache_with(row_major, 4);
        cache.entries.values_mut().for_each(|c| c.kernel = name.into());
        let choice = choose_kernel(Some(&cache), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
        assert_eq!(choice, default(&gpu, OperandLayout::NN, true), "{name}");
    }
}

/// Set in the child process that [`the_process_cache_is_read_once_and_a_corrupt_one_warns_once`]
/// runs: which cache file it was given (`corrupt`, `off`, `tuned`).
const CHILD: &str = "RGEMM_CPU_TEST_TUNE_CACHE_CHILD";

/// Runs only as that child: reads this process's cache through
/// `tuned_choices` (the library's path, `RGEMM_TUNE_CACHE` included) twice.
#[test]
fn tune_cache_child() {
    let Ok(case) = std::env::var(CHILD) else { return };
    let gpu = h100();
    let builtin = default_choice(Dtype::F16, (4096, 4096, 4096), 132, OperandLayout::NN, (9, 0), |_| true);
    for _ in 0..2 {
        let choice = choose_kernel(tuned_choices(), &gpu, Dtype::F16, F16_4096, OperandLayout::NN, aligned);
        match case.as_str() {
            "corrupt" | "off" => {
                assert!(tuned_choices().is_none(), "{case}");
                assert_eq!(choice, builtin, "{case}");
            }
            "tuned" => assert_eq!(choice.kernel, short_name(&gemm_launch::MMA_F16_128X128X32)),
            other => panic!("unknown case {other}"),
        }
    }
}

#[test]
fn the_process_cache_is_read_once_and_a_corrupt_one_warns_once() {
    let dir = std::env::temp_dir().join(format!("rgemm-test-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.json");
    std::fs::write(&corrupt, "{ not json").unwrap();
    let tuned = dir.join("tune.json");
    cache_with(&gemm_launch::MMA_F16_128X128X32, 16).save(&tuned).unwrap();
    let cases = [("corrupt", corrupt.as_os_str(), 1), ("off", "off".as_ref(), 0), ("tuned", tuned.as_os_str(), 0)];
    for (case, path, warnings) in cases {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "tune_cache_child", "--nocapture", "--test-threads=1"])
            .env(CHILD, case)
            .env("RGEMM_TUNE_CACHE", path)
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{case}: {stdout}\n{stderr}");
        assert!(stdout.contains("1 passed"), "{case}: the child ran no test: {stdout}");
        let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
        assert_eq!(lines.len(), warnings, "{case}: {stderr}");
        if warnings > 0 {
            assert!(lines[0].contains("corrupt.json") && lines[0].contains("ignored"), "{stderr}");
        }
    }
    assert_eq!(std::fs::read_to_string(&corrupt).unwrap(), "{ not json", "reading must not rewrite the cache");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Compute capabilities the built-in choice must serve: A100, A10/3090,
/// L4/4090, H100/H200, and two later GPUs that run the sm_80 PTX only.
const CAPABILITIES: [(i32, i32); 6] = [(8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0)];

#[test]
fn default_choice_never_picks_an_entry_the_gpu_refuses() {
    let sizes = [1, 64, 255, 256, 1000, 2048, 4096, 8192, 20000];
    for cc in CAPABILITIES {
        for dtype in Dtype::ALL {
            for layout in OperandLayout::ALL {
                for (m, n) in sizes.into_iter().flat_map(|m| sizes.map(|n| (m, n))) {
                    for (sms, k) in [(46, 4096), (108, 65536), (132, 16), (132, 4096), (132, 65536)] {
                        for tma in [true, false] {
                            let choice = default_choice(dtype, (m, n, k), sms, layout, cc, |_| tma);
                            let spec = choice.spec(dtype).unwrap();
                            assert_eq!(spec.dtype, dtype, "{choice:?}");
                            assert_eq!(
                                entry_refusal(spec, layout, cc),
                                None,
                                "cc {cc:?}, {dtype:?} {layout:?} {m}x{n} on {sms} SMs: {choice:?}"
                            );
                            assert!(
                                tma || spec.algorithm != Algorithm::WarpSpecialized,
                                "TMA chosen for unaligned operands"
                            );
                            assert!(!spec.is_unmeasured_in(layout), "{} has not run on a GPU", spec.name);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn default_choice_falls_back_where_the_best_tile_cannot_run() {
    let big = |dtype, layout, cc| default_choice(dtype, (8192, 8192, 4096), 108, layout, cc, |_| true).kernel;
    let tn = OperandLayout { a_col_major: true, b_col_major: false };
    assert_eq!(entry_name(&gemm_launch::DB_256X128X8, tn), "sgemm_db_256x128x8_tn");
    for cc in [(8, 0), (8, 6)] {
        // The TF32 128x128 tile spills on 8.x: the next best tile runs.
        assert_eq!(big(Dtype::Tf32, OperandLayout::NN, cc), short_name(&gemm_launch::MMA_TF32_64X128X32));
        // Step 7b's column-major entries have not run on a GPU, and step 6's
        // 256x128 `_tn` entry spills on 8.x: the 128x64 tile.
        assert_eq!(big(Dtype::F32, tn, cc), short_name(&gemm_launch::DB_128X64X16));
        assert_eq!(big(Dtype::F32, OperandLayout::NN, cc), short_name(&gemm_launch::WT_256X128X8));
        // No `wgmma` off Hopper.
        assert_eq!(big(Dtype::F16, OperandLayout::NN, cc), short_name(&gemm_launch::MMA_F16_128X128X32_W32X64));
    }
    // Hopper TF32: step 10f for a row-major B, 10b (its copies bring the
    // other layouts to its NT entry) for a column-major one, else 9b.
    assert_eq!(big(Dtype::Tf32, OperandLayout::NN, (9, 0)), short_name(&gemm_launch::WS_TF32_256X128X32_RS));
    assert_eq!(big(Dtype::Tf32, OperandLayout::NT, (9, 0)), short_name(&gemm_launch::WS_TF32_128X256X32));
    let tf32_unaligned =
        default_choice(Dtype::Tf32, (8192, 8192, 4096), 132, OperandLayout::NN, (9, 0), |_| false).kernel;
    assert_eq!(tf32_unaligned, short_name(&gemm_launch::WGMMA_TF32_256X128X32));
    assert_eq!(big(Dtype::Tf32, OperandLayout::NN, (10, 0)), short_name(&gemm_launch::MMA_TF32_128X128X32));
    let wt = &gemm_launch::WT_256X128X8;
    let expected = if wt.is_unmeasured_in(tn) { &gemm_launch::DB_256X128X8 } else { wt };
    assert_eq!(big(Dtype::F32, tn, (9, 0)), short_name(expected));
    // Hopper: the TMA kernel, and never for operands that are not 16-byte
    // aligned.
    assert_eq!(big(Dtype::F16, tn, (9, 0)), short_name(&gemm_launch::WS_F16_128X256X64));
    let unaligned = default_choice(Dtype::Bf16, (8192, 8192, 4096), 132, tn, (9, 0), |_| false).kernel;
    assert_eq!(unaligned, short_name(&gemm_launch::WGMMA_BF16_128X256X64));
}

#[test]
fn entry_refusals_follow_the_architecture_and_the_8x_spills() {
    let nn = OperandLayout::NN;
    for cc in CAPABILITIES {
        for (spec, layout, name) in entries() {
            let refused = entry_refusal(spec, layout, cc);
            let expected = match spec.arch {
                gemm_launch::Arch::Sm90a => cc != (9, 0),
                gemm_launch::Arch::Sm80 => cc.0 == 8 && SPILLS_ON_SM8X.iter().any(|(n, _)| *n == name),
            };
            assert_eq!(refused.is_some(), expected, "{name} on {cc:?}: {refused:?}");
            assert_eq!(module_runs_on(spec.arch, cc), spec.arch == gemm_launch::Arch::Sm80 || cc == (9, 0));
        }
    }
    // An entry the build does not have is refused, not looked up.
    let tt = OperandLayout { a_col_major: true, b_col_major: true };
    let row_major_only = gemm_launch::DB_128X128X8;
    assert!(!row_major_only.supports(tt));
    assert!(entry_refusal(&row_major_only, tt, (9, 0)).is_some());
    assert_eq!(entry_refusal(&row_major_only, nn, (9, 0)), None);
    // Nothing runs below sm_80.
    assert!(!module_runs_on(gemm_launch::Arch::Sm80, (7, 5)));
}

#[test]
fn plans_read_transposes_in_place_and_swap_for_a_column_major_c() {
    let (m, n, k) = (5, 7, 3);
    let one = Batch::single();
    let big = usize::MAX;
    // Row-major everything: the kernel sees the call as it is.
    let p = plan(
        (&MatrixDesc::row_major(m, k), big),
        (&MatrixDesc::row_major(k, n), big),
        (&MatrixDesc::row_major(m, n), big),
        &one,
    )
    .unwrap();
    assert_eq!((p.m, p.n, p.k, p.layout, p.swapped), (5, 7, 3, OperandLayout::NN, false));
    assert_eq!((p.lda, p.ldb, p.ldc), (3, 7, 7));
    // Aᵀ's memory read as A: column-major A, same ld, no copy.
    let a_t = MatrixDesc::row_major(k, m).t();
    let p = plan((&a_t, big), (&MatrixDesc::row_major(k, n), big), (&MatrixDesc::row_major(m, n), big), &one).unwrap();
    assert!(p.layout.a_col_major && !p.layout.b_col_major && p.lda == m as u32);
    // Column-major C: Cᵀ = Bᵀ·Aᵀ, so A and B swap and flip.
    let p = plan(
        (&MatrixDesc::row_major(m, k), big),
        (&MatrixDesc::col_major(k, n), big),
        (&MatrixDesc::col_major(m, n), big),
        &one,
    )
    .unwrap();
    assert_eq!((p.m, p.n, p.k, p.swapped), (7, 5, 3, true));
    assert_eq!(p.layout, OperandLayout { a_col_major: false, b_col_major: true });
    assert_eq!((p.lda, p.ldb, p.ldc), (k as u32, k as u32, m as u32));
}

#[test]
fn plans_reject_every_bad_call_with_its_own_error() {
    let big = usize::MAX;
    let one = Batch::single();
    let rm = MatrixDesc::row_major;
    let check = |a: MatrixDesc, b: MatrixDesc, c: MatrixDesc, batch: Batch, lens: [usize; 3]| {
        plan((&a, lens[0]), (&b, lens[1]), (&c, lens[2]), &batch)
    };
    let e = check(rm(2, 3), rm(4, 2), rm(2, 2), one, [big; 3]).unwrap_err();
    assert!(matches!(e, GemmError::Shape(_)) && e.to_string().contains("A's columns"), "{e}");
    let e = check(rm(2, 3), rm(3, 2), rm(2, 3), one, [big; 3]).unwrap_err();
    assert!(matches!(e, GemmError::Shape(_)), "{e}");
    let e = check(rm(0, 3), rm(3, 2), rm(0, 2), one, [big; 3]).unwrap_err();
    assert!(matches!(e, GemmError::ZeroDimension { what: "M" }), "{e}");
    let zero_batch = Batch { count: 0, ..one };
    assert!(matches!(check(rm(2, 3), rm(3, 2), rm(2, 2), zero_batch, [big; 3]), Err(GemmError::ZeroDimension { .. })));
    let huge = 1usize << 31;
    let e = check(rm(huge, 1), rm(1, 1), rm(huge, 1), one, [big; 3]).unwrap_err();
    assert!(matches!(e, GemmError::DimensionTooLarge { what: "M", .. }), "{e}");
    let too_many = Batch { count: 70_000, stride_a: 6, stride_b: 6, stride_c: 4 };
    assert!(matches!(
        check(rm(2, 3), rm(3, 2), rm(2, 2), too_many, [big; 3]),
        Err(GemmError::DimensionTooLarge { .. })
    ));
    let narrow = MatrixDesc { ld: 2, ..rm(2, 3) };
    let e = check(narrow, rm(3, 2), rm(2, 2), one, [big; 3]).unwrap_err();
    assert!(matches!(e, GemmError::BadLeadingDimension { operand: "A", ld: 2, min: 3 }), "{e}");
    let e = check(rm(2, 3), rm(3, 2), rm(2, 2), one, [6, 5, 4]).unwrap_err();
    assert!(matches!(e, GemmError::BufferTooSmall { operand: "B", needed: 6, len: 5 }), "{e}");
    // Padded rows need (rows - 1)·ld + cols elements, batches count·stride more.
    let padded = MatrixDesc { ld: 10, ..rm(2, 3) };
    assert!(check(padded, rm(3, 2), rm(2, 2), one, [13, 6, 4]).is_ok());
    let two = Batch { count: 2, stride_a: 13, stride_b: 0, stride_c: 4 };
    assert!(check(padded, rm(3, 2), rm(2, 2), two, [26, 6, 8]).is_ok());
    let e = check(padded, rm(3, 2), rm(2, 2), two, [25, 6, 8]).unwrap_err();
    assert!(matches!(e, GemmError::BufferTooSmall { operand: "A", needed: 26, .. }), "{e}");
    // Pointers must be aligned to their elements (16 bytes is never required).
    assert!(check_alignment("A", 0x7f00_0000_0004, 4).is_ok());
    let e = check_alignment("B", 0x7f00_0000_0002, 4).unwrap_err();
    assert!(matches!(e, GemmError::Misaligned { operand: "B", align: 4, .. }), "{e}");
    // Batched C matrices that overlap would race.
    let overlap = Batch { stride_c: 3, ..two };
    assert!(matches!(check(padded, rm(3, 2), rm(2, 2), overlap, [big; 3]), Err(GemmError::Shape(_))));
}

#[test]
fn sweep_shapes_parse_within_the_kernels_limit() {
    let shapes = parse_shapes(&format!("64x64x64, 1X2×3,{MAX_DIM}x1x1")).unwrap();
    let dims: Vec<_> = shapes.iter().map(|s| (s.m, s.n, s.k)).collect();
    assert_eq!(dims, [(64, 64, 64), (1, 2, 3), (MAX_DIM, 1, 1)]);
    for bad in ["", "64x64", "64x64x64x1", "0x1x1", "axbxc", "-1x1x1", &format!("1x{}x1", MAX_DIM + 1), "64x64x64,"] {
        assert!(matches!(parse_shapes(bad), Err(GemmError::Shape(_))), "{bad:?} was accepted");
    }
}

#[test]
fn memory_bound_shapes_choose_the_skinny_kernels() {
    use gemm_launch::memory_bound::{MAX_SMALL_SIDE, mma_refusal, skinny_for, tiles_beat_skinny, x_along_l};
    use rgemm::api::choice::{skinny_mma_tiles, skinny_tiles_win, streams_on_tensor_cores};
    for (dtype, hopper) in Dtype::ALL.into_iter().flat_map(|d| [(d, false), (d, true)]) {
        for layout in OperandLayout::ALL {
            for (m, n) in
                [(1, 4096), (4096, 1), (16, 5000), (5000, 16), (3, 3), (4, 100), (100, 4), (100, 8), (1, 1), (2, 9000)]
            {
                // Every kernel takes the operands but where step 86/88's
                // tensor-core kernels refuse the layout (X along L).
                let (a_col, b_col) = (layout.a_col_major, layout.b_col_major);
                let takes = |s: &gemm_launch::KernelSpec| mma_refusal(s, m as u32, n as u32, a_col, b_col).is_none();
                let cc = if hopper { (9, 0) } else { (8, 0) };
                let spec = default_choice(dtype, (m, n, 4096), 132, layout, cc, takes).spec(dtype).unwrap();
                // On Hopper, 16-bit: step 10's tiles from M = 2 or N = 8;
                // TF32 (row-major operands) from 8 rows or columns: step
                // 10f's 16×128 tiles where M is the small side, step 9b's
                // 256×128 where N is.
                let sixteen_bit = matches!(dtype, Dtype::F16 | Dtype::Bf16);
                let beats = match dtype {
                    Dtype::F16 | Dtype::Bf16 => {
                        matches!((m, n), (16, 5000) | (5000, 16) | (3, 3) | (4, 100) | (100, 8) | (2, 9000))
                    }
                    Dtype::Tf32 => matches!((m, n), (16, 5000)),
                    Dtype::F32 => false,
                };
                assert_eq!(tiles_beat_skinny(dtype, m as u32, n as u32), beats, "{dtype:?} {m}×{n}");
                // N of 8 to 16 (16-bit) with A row-major: step 88's
                // tensor-core kernel, where step 70's 64×16 tiles do not win.
                let tiles_first = sixteen_bit
                    && hopper
                    && skinny_mma_tiles(dtype, m, n)
                        .is_some_and(|s| s.supports(layout) && skinny_tiles_win(s, (m, n, 4096), 132, layout));
                let along_k = !x_along_l(m as u32, n as u32, a_col, b_col);
                // TF32 N of 8 to 16 under a larger M, A and B row-major, on
                // Hopper: steps 109–110's tiles (of these shapes, 5000×16,
                // under half a wave of 128×16 blocks: 64×16).
                if dtype == Dtype::Tf32 && hopper && layout == OperandLayout::NN && (m, n) == (5000, 16) {
                    assert_eq!(spec.name, "tgemm_ws_64x16x32");
                    continue;
                }
                if streams_on_tensor_cores(dtype, (m, n, 4096), 132) && along_k && !tiles_first {
                    assert!(
                        gemm_launch::memory_bound::on_tensor_cores(spec),
                        "{dtype:?} {m}×{n} {layout:?}: {}",
                        spec.name
                    );
                    continue;
                }
                // Step 104's kernel where X is along L and its packed rows
                // are off 16 bytes, or N is the small side.
                // From K = 2048 (this test's is 4096) step 70's tiles keep
                // the calls they take.
                if rgemm::api::choice::along_l_streams(dtype, (m, n), layout) {
                    let along_l = spec.layouts == gemm_launch::Layouts::AlongL;
                    assert!(
                        along_l || (spec.is_skinny_tile() && hopper),
                        "{dtype:?} {m}×{n} {layout:?}: {}",
                        spec.name
                    );
                    assert!(spec.supports(layout) && m.min(n) >= 2, "{}", spec.name);
                    continue;
                }
                if beats && hopper && (sixteen_bit || layout == OperandLayout::NN) {
                    assert_ne!(spec.algorithm, Algorithm::MemoryBound, "{dtype:?} {m}×{n} {layout:?}: {}", spec.name);
                    if dtype == Dtype::Tf32 {
                        assert_eq!(spec.name, "tgemm_ws_16x128x32_rs", "{m}×{n}");
                    }
                    continue;
                }
                assert_eq!(spec.algorithm, Algorithm::MemoryBound, "{dtype:?} {m}×{n}: {}", spec.name);
                assert!(spec.supports(layout), "{}", spec.name);
                // X is read along L where it is contiguous along the long side.
                let x_along_l = if m <= n { !layout.b_col_major } else { layout.a_col_major };
                assert_eq!(
                    gemm_launch::memory_bound::x_along_l(m as u32, n as u32, layout.a_col_major, layout.b_col_major),
                    x_along_l
                );
                // f32/TF32 16-row calls on Hopper take the rings at two
                // blocks per SM, either way X is read.
                let sixteen_rows = matches!(
                    skinny_for(dtype, m as u32, n as u32).map(|s| s.name),
                    Some("sgemm_skinny_r16" | "tgemm_skinny_r16")
                );
                let two_blocks = sixteen_rows && hopper;
                assert_eq!(spec.name.ends_with("_r16_2cta"), two_blocks, "{dtype:?} {m}×{n} {layout:?}");
                // One block per 32 columns of the long side (64 for step 104) and per row group.
                let (small, long) = (m.min(n) as u32, m.max(n) as u32);
                let expected = tiles(long, spec.tile.bn) as u64 * tiles(small, spec.tile.bm) as u64;
                assert_eq!(spec.grid(m as u32, n as u32), expected, "{} {m}×{n}", spec.name);
            }
            for (m, n) in [(17, 4096), (4096, 17), (8192, 4096)] {
                let spec =
                    default_choice(dtype, (m, n, 4096), 132, layout, if hopper { (9, 0) } else { (8, 0) }, |_| true)
                        .spec(dtype)
                        .unwrap();
                assert_ne!(spec.algorithm, Algorithm::MemoryBound, "{dtype:?} {m}×{n}");
            }
        }
        // Where step 10 cannot take the call, 16-bit skinny calls stay on
        // the memory-bound kernels.
        // (TF32's tiles have no TMA.)
        let no_tma =
            default_choice(dtype, (16, 5000, 4096), 132, OperandLayout::NN, (9, 0), |_| false).spec(dtype).unwrap();
        if dtype == Dtype::Tf32 {
            assert_eq!(no_tma.name, "tgemm_wgmma_128x256x32");
        } else {
            assert_eq!(no_tma.algorithm, Algorithm::MemoryBound, "{dtype:?}: {}", no_tma.name);
        }
        // The fewest rows per block that cover the small side.
        let rows = |m, n| skinny_for(dtype, m, n).map(|s| s.tile.bm);
        assert_eq!(rows(1, 100), Some(1));
        assert_eq!(rows(100, 2), Some(4));
        assert_eq!(rows(4, 4), Some(4));
        if matches!(dtype, Dtype::F32 | Dtype::Tf32) {
            assert_eq!([rows(100, 5), rows(100, 8)], [Some(16); 2]);
            assert_eq!([rows(5, 100), rows(16, 100), rows(100, 9), rows(100, 16)], [Some(16); 4]);
        } else {
            assert!(rows(5, 100).unwrap() >= 8);
        }
        assert_eq!(rows(MAX_SMALL_SIDE + 1, 100), None);
        // TF32 requests compute in exact f32 here, on their own entries.
        assert_eq!(skinny_for(dtype, 1, 100).unwrap().dtype, dtype);
    }
}

/// Step 70's skinny tiles are refused by `auto` where their small operand
/// is off 16 bytes (element by element) or their large one is and their
/// blocks are fewer than the SMs (step 72's realigning, which needs more
/// than one block per SM); otherwise they take the call.
#[test]
fn skinny_tiles_refuse_a_small_operand_off_16_bytes() {
    use rgemm::api::choice::skinny_tiles_refusal;
    use rgemm::driver::launch::Plan;
    let n16 = &gemm_launch::MMA_F16_64X16X64;
    let plan = |m: u32, k: u32, ldb: u32, layout: OperandLayout| Plan {
        m,
        n: 16,
        k,
        layout,
        lda: if layout.a_col_major { m } else { k },
        ldb,
        ldc: 16,
        stride_a: 0,
        stride_b: 0,
        stride_c: 0,
        batch: 1,
        swapped: false,
        k_last: None,
    };
    let at = [256, 512, 1024];
    let nn = OperandLayout::NN;
    assert_eq!(skinny_tiles_refusal(n16, &plan(100_000, 512, 16, nn), at, 132), None, "aligned");
    // A off 16 bytes in 1563 blocks: realigned in shared memory where K
    // is deep (from `STREAM_MMA_MAX_K`), else left to step 88's kernel.
    assert_eq!(skinny_tiles_refusal(n16, &plan(100_000, 40_001, 16, nn), at, 132), None, "A realigned, K deep");
    let streams = skinny_tiles_refusal(n16, &plan(100_000, 777, 16, nn), at, 132);
    assert!(streams.as_ref().is_some_and(|r| r.contains("streams it faster")), "{streams:?}");
    let few = skinny_tiles_refusal(n16, &plan(8192, 8191, 16, nn), at, 132);
    assert!(few.as_ref().is_some_and(|r| r.contains("large operand")), "A off 16 bytes in 128 blocks: {few:?}");
    // A column-major B of K = 777: B (the small operand) is off 16 bytes.
    let small = skinny_tiles_refusal(n16, &plan(100_000, 777, 777, OperandLayout::NT), at, 132);
    assert!(small.as_ref().is_some_and(|r| r.contains("small operand")), "{small:?}");
    assert!(skinny_tiles_refusal(n16, &plan(100_000, 512, 16, nn), [256, 514, 1024], 132).is_some());
    assert_eq!(skinny_tiles_refusal(&gemm_launch::WS_F16_128X128X64, &plan(8192, 8191, 16, nn), at, 132), None);
    // A row-major B of 2 to 7 columns (rows under 16 bytes) is read element
    // by element, and taken (PERF.md step 85); 9 columns stay refused.
    let narrow = |n: u32, k: u32| Plan { n, ldb: n, ..plan(100_000, k, n, nn) };
    for n in [2, 4, 7] {
        assert_eq!(skinny_tiles_refusal(n16, &narrow(n, 777), at, 132), None, "N = {n}");
    }
    assert!(skinny_tiles_refusal(n16, &narrow(9, 777), at, 132).is_some_and(|r| r.contains("small operand")));
}

#[test]
fn tma_kernels_take_every_call_through_operand_copies() {
    use gemm_launch::operand_copies::{
        F32_REALIGN_MIN_FLOP, F32_REALIGN_MIN_FLOP_PER_BYTE, F32_REALIGN_UNCHECKED_MIN_FLOP,
    };
    use rgemm::api::choice::auto_tma_refusal;
    use rgemm::driver::launch::Plan;
    use rgemm::driver::operand_copies::{OperandCopy, operand_copies, padded_operand_copies, realign_refusal};
    use rgemm::tensor_map::tma_refusal;
    let tf32 = &gemm_launch::WS_TF32_128X256X32;
    let f16 = &gemm_launch::WS_F16_128X256X64;
    let nt = OperandLayout::NT;
    let plan = Plan {
        m: 100,
        n: 60,
        k: 24,
        layout: OperandLayout::NN,
        lda: 24,
        ldb: 61,
        ldc: 64,
        stride_a: 0,
        stride_b: 0,
        stride_c: 0,
        batch: 1,
        swapped: false,
        k_last: None,
    };
    let at = [256, 512, 0];
    // NN on the K-major TF32 kernel: B (row-major, MN-major) is copied
    // transposed to [n][k]; A is read in place.
    let call = operand_copies(tf32, &plan, at).unwrap();
    assert_eq!((call.plan.layout, call.plan.lda, call.plan.ldb), (nt, 24, 24));
    let b_copy = OperandCopy { offset: 0, transpose: true, lines: 24, len: 60, ld: 24, stride: 0, padded: (24, 60) };
    assert_eq!(call.copies, [None, Some(b_copy)]);
    assert_eq!(call.scratch_bytes, (60 * 24 * 4u64).next_multiple_of(256));
    assert!(!call.realigns());
    // TN with a batch: both transposed, packed, one after the other.
    let tn = Plan { layout: OperandLayout { a_col_major: true, b_col_major: false }, lda: 100, batch: 3, ..plan };
    let call = operand_copies(tf32, &tn, at).unwrap();
    assert_eq!((call.plan.stride_a, call.plan.stride_b), (100 * 24, 60 * 24));
    let a_bytes = (100 * 24 * 3 * 4u64).next_multiple_of(256);
    assert_eq!(call.copies.map(|c| c.unwrap().offset), [0, a_bytes]);
    // NT with K·4 a multiple of 16, aligned: read in place.
    assert_eq!(operand_copies(tf32, &Plan { layout: nt, ldb: 24, ..plan }, at), None);
    // K = 23: rows of 92 bytes. Both operands copied as they are, into rows
    // padded to 24 elements, and the TMA takes the copies.
    let odd_k = Plan { layout: nt, k: 23, lda: 23, ldb: 23, ..plan };
    let call = operand_copies(tf32, &odd_k, at).unwrap();
    assert!(call.copies.iter().all(|c| c.is_some_and(|c| !c.transpose && c.ld == 24)), "{call:?}");
    assert_eq!((call.plan.lda, call.plan.ldb), (24, 24));
    assert!(call.realigns());
    assert_eq!(tma_refusal(tf32, &odd_k, at), None);
    // f16 takes every layout: only B, whose rows of 61 are off 16 bytes,
    // is copied, into rows of 64; a misaligned start is copied too.
    let call = operand_copies(f16, &plan, at).unwrap();
    assert_eq!(call.copies[0], None);
    assert_eq!(
        call.copies[1],
        Some(OperandCopy { offset: 0, transpose: false, lines: 24, len: 60, ld: 64, stride: 0, padded: (24, 60) })
    );
    assert_eq!(call.plan.layout, plan.layout);
    // K padded with zeros (a split's whole chunks): only where both
    // operands are copied as they are; the copies and their plan as deep.
    assert_eq!(padded_operand_copies(f16, &plan, at, 32), None, "A is read in place");
    let both = Plan { k: 23, lda: 23, ..plan };
    assert!(operand_copies(tf32, &both, at).is_some_and(|c| c.copies.iter().all(Option::is_some)));
    assert_eq!(padded_operand_copies(tf32, &both, at, 28), None, "B is transposed");
    assert!(padded_operand_copies(tf32, &odd_k, at, 28).is_some(), "NT: both copied as they are");
    let call = padded_operand_copies(f16, &both, at, 40).unwrap();
    let [a, b] = call.copies.map(Option::unwrap);
    assert_eq!((a.lines, a.len, a.padded, a.ld), (100, 23, (100, 40), 40));
    assert_eq!((b.lines, b.len, b.padded, b.ld), (23, 60, (40, 60), 64));
    assert_eq!((call.plan.k, call.plan.lda, call.plan.ldb), (40, 40, 64));
    assert_eq!(b.offset, (100 * 40 * 2u64).next_multiple_of(256));
    assert_eq!(call.scratch_bytes, b.offset + (40 * 64 * 2u64).next_multiple_of(256));
    assert_eq!(padded_operand_copies(f16, &both, at, 22), None, "shallower than K");
    assert_eq!(padded_operand_copies(f16, &both, at, 23), operand_copies(f16, &both, at));
    assert_eq!(operand_copies(f16, &Plan { ldb: 64, ..plan }, at), None);
    let call = operand_copies(f16, &Plan { ldb: 64, ..plan }, [258, 512, 0]).unwrap();
    assert!(call.copies[0].is_some() && call.copies[1].is_none());
    // No other kernel copies anything, but the f32 kernels of steps 6–7b
    // (16-byte loads), whose operands off 16 bytes are realigned from
    // F32_REALIGN_MIN_FLOP and F32_REALIGN_MIN_FLOP_PER_BYTE on.
    assert_eq!(operand_copies(&gemm_launch::WGMMA_F16_128X256X64, &plan, at), None);
    let db = &gemm_launch::DB_128X64X16;
    let odd = Plan { m: 1999, n: 2003, k: 997, lda: 997, ldb: 2003, ldc: 2003, ..plan };
    let call = operand_copies(db, &odd, at).unwrap();
    assert!(call.realigns() && call.copies.iter().all(|c| c.is_some_and(|c| !c.transpose)), "{call:?}");
    assert_eq!((call.plan.layout, call.plan.lda, call.plan.ldb), (plan.layout, 1000, 2004));
    assert_eq!(realign_refusal(db, &odd, at), None);
    assert_eq!(operand_copies(&gemm_launch::WT_256X128X8, &odd, at).map(|c| c.plan), Some(call.plan));
    let aligned = Plan { m: 2000, n: 2004, k: 1000, lda: 1000, ldb: 2004, ldc: 2004, ..plan };
    assert_eq!(operand_copies(db, &aligned, at), None);
    let small = Plan { m: 520, n: 501, k: 768, lda: 768, ldb: 501, ldc: 501, ..plan };
    assert_eq!(operand_copies(db, &small, at), None, "below F32_REALIGN_MIN_FLOP");
    assert_eq!((F32_REALIGN_MIN_FLOP, F32_REALIGN_MIN_FLOP_PER_BYTE), (3 << 30, 128));
    let cube = Plan { m: 1031, n: 1029, k: 1027, lda: 1027, ldb: 1029, ldc: 1029, ..plan };
    assert_eq!(operand_copies(db, &cube, at), None, "1031×1029×1027: below F32_REALIGN_MIN_FLOP");
    assert_eq!(operand_copies(&gemm_launch::WT_128X128X8, &cube, at), None, "checked loop only");
    // The unchecked main loop's kernels realign from 2³⁰ flop on.
    let wt256 = &gemm_launch::WT_256X128X8;
    assert!(wt256.has_unchecked_loop() && !gemm_launch::WT_128X128X8.has_unchecked_loop() && !db.has_unchecked_loop());
    assert_eq!(F32_REALIGN_UNCHECKED_MIN_FLOP, 1 << 30);
    assert!(operand_copies(wt256, &cube, at).is_some_and(|c| c.realigns()), "1031×1029×1027 on wt_256x128x8");
    let under = Plan { m: 767, n: 769, k: 771, lda: 771, ldb: 769, ldc: 769, ..plan };
    assert_eq!(operand_copies(wt256, &under, at), None, "767×769×771: 9.1·10⁸ flop");
    // The rule at its bounds, and which kernels it applies to: the
    // register-staged tiles, not step 7c's `cp.async` rings (PERF.md step
    // 113), which read rows off 16 bytes in place.
    use gemm_launch::operand_copies::f32_realign_pays;
    assert!(!f32_realign_pays((3 << 30) - 1, 1, false) && f32_realign_pays(3 << 30, 1, false));
    assert!(!f32_realign_pays((1 << 30) - 1, 1, true) && f32_realign_pays(1 << 30, 1, true));
    assert!(!f32_realign_pays(3 << 30, (3 << 30) / 127, false), "under 128 flop per byte copied");
    for spec in [db, wt256, &gemm_launch::WT_64X64X8, &gemm_launch::WT_128X128X8] {
        assert!(spec.realigns_f32_rows(), "{}", spec.name);
        assert!(operand_copies(spec, &odd, at).is_some_and(|c| c.realigns()), "{}", spec.name);
    }
    for spec in [&gemm_launch::WT_ASYNC_64X128X8, &gemm_launch::WT_ASYNC_128X64X8, &gemm_launch::ASYNC_128X128X8] {
        assert!(!spec.realigns_f32_rows(), "{}", spec.name);
        assert_eq!(operand_copies(spec, &odd, at), None, "{}", spec.name);
    }
    assert!(!gemm_launch::WS_TF32_128X128X32.realigns_f32_rows());
    assert_eq!(operand_copies(&gemm_launch::VECTORIZED, &odd, at), None, "not the ladder's earlier steps");
    let shared = Plan { batch: 2, stride_a: 1999 * 997, stride_b: 0, ..odd };
    assert_eq!(operand_copies(db, &shared, at), None, "one B for the batch is read in place");
    assert!(operand_copies(db, &Plan { stride_b: 997 * 2003, ..shared }, at).is_some());
    assert!(OperandLayout::ALL.iter().all(|l| tf32.supports(*l) && tf32.has_entry(*l) == (*l == nt)));
    // Realigning pays only from REALIGN_MIN_FLOP: `auto` takes another kernel
    // below, a named kernel still runs; transposing alone is no realigning.
    assert!(realign_refusal(f16, &plan, at).is_some());
    assert!(auto_tma_refusal(f16, &plan, at, 132).is_some() && tma_refusal(f16, &plan, at).is_none());
    let big = Plan { m: 2000, n: 2000, k: 2001, lda: 2001, ldb: 2000, ldc: 2000, ..plan };
    assert_eq!(realign_refusal(f16, &big, at), None);
    assert!(operand_copies(f16, &big, at).unwrap().realigns());
    assert_eq!(realign_refusal(tf32, &plan, at), None, "NN TF32 with K = 24 only transposes");
    // M and N both over 16: from REALIGN_MIN_FLOP (2²²) and 8 flop per
    // byte copied (PERF step 106: TF32 200×201×203, 49 per byte, 0.031 ms
    // in place, 0.012 on copies); not under 2²².
    use gemm_launch::operand_copies::{
        REALIGN_MIN_FLOP, REALIGN_MIN_FLOP_PER_BYTE, REALIGN_SKINNY_MIN_FLOP, REALIGN_TILES_MIN_FLOP_PER_BYTE,
    };
    let square = |n: u32| Plan { m: n, n: n + 1, k: n + 3, lda: n + 3, ldb: n + 1, ldc: n + 1, ..plan };
    let tf32_rs = &gemm_launch::WS_TF32_16X128X32_RS;
    for (spec, n) in [(f16, 129), (f16, 400), (tf32_rs, 200), (tf32_rs, 331)] {
        let call = operand_copies(spec, &square(n), at).unwrap_or_else(|| panic!("{} {n}: no copies", spec.name));
        assert!(call.realigns(), "{} {n}", spec.name);
        assert_eq!(realign_refusal(spec, &square(n), at), None, "{} {n}", spec.name);
    }
    assert!(square(129).flop() >= REALIGN_MIN_FLOP && square(101).flop() < REALIGN_MIN_FLOP);
    assert!(realign_refusal(f16, &square(101), at).is_some());
    assert!(realign_refusal(tf32_rs, &square(99), at).is_some());
    // 17 rows over 5001 columns: about 17 flop per byte of B's copy, enough;
    // 17 over 5001 with K = 3 (5.1·10⁵ flop): too little work.
    let wide = Plan { m: 17, n: 5001, k: 777, lda: 777, ldb: 5001, ldc: 5001, ..plan };
    let per_byte = wide.flop() / operand_copies(f16, &wide, at).unwrap().scratch_bytes;
    assert!((REALIGN_TILES_MIN_FLOP_PER_BYTE..REALIGN_MIN_FLOP_PER_BYTE).contains(&per_byte), "{per_byte}");
    assert_eq!(realign_refusal(f16, &wide, at), None);
    assert!(realign_refusal(f16, &Plan { k: 3, lda: 3, ..wide }, at).is_some());
    assert_eq!(REALIGN_SKINNY_MIN_FLOP, 1 << 27);
    // 16-bit skinny calls that step 10's tiles take are realigned at any
    // flop per byte (their memory-bound fallback is slower), not under
    // REALIGN_MIN_FLOP, and not where the memory-bound kernel wins (N < 8).
    let skinny = Plan { m: 100_000, n: 16, k: 777, lda: 777, ldb: 16, ldc: 16, ..plan };
    assert!(operand_copies(f16, &skinny, at).unwrap().realigns());
    assert_eq!(realign_refusal(f16, &skinny, at), None);
    assert!(realign_refusal(f16, &Plan { m: 2000, ..skinny }, at).is_some(), "under REALIGN_SKINNY_MIN_FLOP");
    assert!(realign_refusal(f16, &Plan { n: 4, ldb: 4, ldc: 4, ..skinny }, at).is_some(), "4 columns: memory-bound");
    // One B for the whole batch (stride 0) stays with the kernels that read
    // it in place, rather than one copy per matrix.
    let shared_b = Plan { batch: 4, stride_a: 2400, stride_b: 0, ..plan };
    assert!(tma_refusal(tf32, &shared_b, at).unwrap().contains("B's batch stride"));
    assert_eq!(tma_refusal(tf32, &Plan { stride_b: 24 * 61, ..shared_b }, at), None);
}

/// H100 runs of step 10's and 10b's tiles side by side (embedded: the test
/// binaries also run away from the source tree).
const COMMITTED_TILE_RUNS: [(&str, &str); 2] = [
    ("2026-11-23-ws-tiles", include_str!("../docs/runs/2026-11-23-ws-tiles/console.txt")),
    ("2026-11-23-copies tf32mid", include_str!("../docs/runs/2026-11-23-copies/4-tf32-tiles/tf32mid/tiles.txt")),
];

/// `gemm rules` on the committed runs of step 10's and 10b's tiles gives
/// the thresholds `choice_list` holds, and its parser takes only passed,
/// non-cuBLAS lines.
#[test]
fn the_choice_thresholds_are_the_ones_the_committed_runs_give() {
    use rgemm::rules::{TOLERANCE, derive_rules, parse_gemm_output};
    let mut measurements = Vec::new();
    for (run, text) in COMMITTED_TILE_RUNS {
        let (sms, found) = parse_gemm_output(text);
        assert_eq!(sms, Some(132), "{run}");
        measurements.extend(found);
    }
    let rules = derive_rules(&measurements, 132);
    let tma_pairs: Vec<_> = rules
        .iter()
        .filter(|r| r.next.algorithm == Algorithm::WarpSpecialized)
        .map(|r| (r.dtype, short_name(r.kernel)))
        .collect();
    assert_eq!(
        tma_pairs,
        [(Dtype::Tf32, "ws_128x256x32"), (Dtype::F16, "ws_128x256x64"), (Dtype::Bf16, "ws_128x256x64")]
    );
    for rule in &rules {
        assert!(rule.agrees(), "{rule}");
    }
    // The parser: cuBLAS's lines, failed checks and other text are left out.
    let text = "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)\n\
        kernel dtype M×N×K group ms TFLOP/s % err check note\n\
        cublas                 f16      1024×1024×1024     -      0.020   106.27     100.0   2.94e-4  pass  reference\n\
        ws_128x128x64          f16      1024×1024×1024    16      0.024    89.60      84.3   7.72e-4  pass\n\
        ws_128x256x64          f16      1024×1024×1024    16      0.024    99.00      94.3   7.72e-4  FAIL\n";
    let (sms, found) = parse_gemm_output(text);
    assert_eq!(sms, Some(132));
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].kernel.as_str(), found[0].mnk, found[0].tflops), ("ws_128x128x64", (1024, 1024, 1024), 89.6));
    // Within the tolerance is no loss; beyond it is.
    let at = |kernel: &str, tflops| rgemm::rules::Measurement {
        kernel: kernel.into(),
        dtype: Dtype::F16,
        mnk: (2048, 2048, 2048),
        tflops,
    };
    let close = derive_rules(&[at("ws_128x256x64", 100.0), at("ws_128x128x64", 100.0 / (1.0 - TOLERANCE / 2.0))], 132);
    assert_eq!(close[0].lost_up_to, None);
    let far = derive_rules(&[at("ws_128x256x64", 100.0), at("ws_128x128x64", 110.0)], 132);
    assert_eq!(far[0].won_from, None);
    assert!(!far[0].agrees());
}

/// Step 10h: the entries that read a row-major B's rows off 16 bytes in
/// place stand in for their twins (the same launch apart from B's maps)
/// where B's rows are off 16 bytes but on 4, the launch has at most the
/// twin's rows of C and K ≥ 4; there only A is copied, and the maps of the
/// four residues cover B's rows exactly.
#[test]
fn b_rows_twin_reads_b_in_place_where_its_rows_are_off_16_bytes() {
    use gemm_launch::{B_ROWS_TWIN_MAX_M, B_ROWS_TWINS, Features, WS_TF32_128X128X32_RS, WS_TF32_256X128X32_RS, tma};
    use rgemm::driver::operand_copies::{b_rows_twin_for, operand_copies};
    use rgemm::driver::tensor_map::{packed_plan, tma_refusal};
    for record in B_ROWS_TWINS {
        let (base, twin) = (&record.base, &record.twin);
        assert!(!base.features.b_rows_by_residue && twin.features.b_rows_by_residue);
        assert_eq!(Features { b_rows_by_residue: false, ..twin.features }, base.features);
        assert_eq!((twin.tile, twin.min_blocks_per_sm), (base.tile, base.min_blocks_per_sm));
        // A box of B's columns more per stage (the rows' shifts), in a block's shared memory.
        let stage = |spec: &gemm_launch::KernelSpec, columns| {
            (tma::stage_bytes(spec.dtype, spec.tile.bm, columns, spec.tile.bk) + 16) * spec.stages
        };
        let wider = tma::b_tile_columns(twin.dtype, twin.tile.bn, true);
        assert_eq!(wider, twin.tile.bn + tma::row_elements(twin.dtype));
        assert_eq!(twin.smem_bytes() - stage(twin, wider), base.smem_bytes() - stage(base, base.tile.bn));
        assert!(twin.smem_bytes() <= 227 * 1024, "{} fits an H100's block", twin.name);
        assert_eq!((twin.layouts, twin.dtype, twin.algorithm), (base.layouts, base.dtype, base.algorithm));
        assert!(gemm_launch::KERNELS.iter().any(|k| k.name == twin.name), "{} is built", twin.name);
        assert_eq!(twin.tile.bk % (8 * tma::B_ROW_RESIDUES), 0, "{}: whole 8-row boxes per residue", twin.name);
    }
    let spec = &WS_TF32_128X128X32_RS;
    let twin_of = |m: u32, n: u32, k: u32, b: u64| {
        b_rows_twin_for(spec, &packed_plan(m as usize, n as usize, k as usize), [0, b, 0]).map(|s| s.name)
    };
    // N odd: B's rows off 16 bytes; A (K = 53605) off too, and copied.
    assert_eq!(twin_of(47, 307, 53605, 0), Some("tgemm_ws_128x128x32_rs_bu"));
    let plan = packed_plan(47, 307, 53605);
    let call = operand_copies(spec, &plan, [0; 3]).expect("A is copied");
    assert!(call.copies[0].is_some() && call.copies[1].is_none(), "B is read in place: {call:?}");
    assert_eq!(tma_refusal(spec, &plan, [0; 3]), None);
    // B at an odd f32 offset with N a multiple of 4.
    assert_eq!(twin_of(64, 1024, 4096, 4), Some("tgemm_ws_128x128x32_rs_bu"));
    // Not: B's rows on 16 bytes, too many rows of C, K < 4, another kernel,
    // B off its elements' own 4 bytes, a column-major B (copied transposed).
    assert_eq!(twin_of(64, 1024, 4096, 0), None);
    assert_eq!(twin_of(B_ROWS_TWIN_MAX_M + 1, 307, 4096, 0), None);
    assert_eq!(twin_of(B_ROWS_TWIN_MAX_M, 307, 4096, 0), Some("tgemm_ws_128x128x32_rs_bu"));
    assert_eq!(twin_of(47, 307, 3, 0), None);
    assert_eq!(twin_of(47, 307, 4, 0), Some("tgemm_ws_128x128x32_rs_bu"));
    assert_eq!(twin_of(47, 307, 4096, 2), None);
    let plan = packed_plan(47, 307, 4096);
    assert!(b_rows_twin_for(&WS_TF32_256X128X32_RS, &plan, [0; 3]).is_none());
    let col_major_b = rgemm::driver::launch::Plan { layout: OperandLayout::NT, ldb: 4096, ..plan };
    assert!(b_rows_twin_for(spec, &col_major_b, [0; 3]).is_none());
    // A batch whose matrices' rows lie off 16 bytes unlike each other
    // (stride 307·4093 f32) keeps the copy; a stride on 16 bytes does not.
    let batch = |stride_b| rgemm::driver::launch::Plan { batch: 3, stride_b, stride_a: 47 * 4096, ..plan };
    assert!(b_rows_twin_for(spec, &batch(307 * 4093), [0; 3]).is_none());
    assert!(b_rows_twin_for(spec, &batch(307 * 4096), [0; 3]).is_some());
    // A split whose last chunk would be under 4 deep copies B with A for
    // the whole call (that chunk's launch could not copy B itself inside
    // the lock the whole call's copies hold): both, padded, evened out. A
    // deeper last chunk: B in place where B is large enough to pay for
    // that chunk's launch of its own, else padded copies of both.
    let split_of = |k: u32, chunk: u32, split_k| {
        let split = gemm_launch::split_k::Split { chunk, splits: k.div_ceil(chunk) };
        let (even, call) =
            rgemm::split_k::split_with_copies(&packed_plan(47, 307, k as usize), split, spec, [0; 3], split_k);
        let call = call.expect("copies");
        assert!(call.copies[0].is_some(), "A is copied");
        (even, call.plan.k, call.copies[1].is_some())
    };
    const {
        let least = gemm_launch::B_ROWS_TWIN_MIN_RAGGED_B_BYTES;
        assert!(4097 * 307 * 4 < least && 40961 * 307 * 4 >= least)
    };
    let (even, k_padded, b_copied) = split_of(40961, 1024, true);
    assert!(b_copied && even.chunk * even.splits == k_padded, "last chunk of 1: B copied, padded");
    assert!(!split_of(40961, 1020, true).2, "last chunk of 161, 50 MB of B: B in place");
    assert!(split_of(4097, 1020, true).2, "last chunk of 17, 5 MB of B: padded copies");
    assert!(!split_of(4097, 1020, false).2, "a caller's chunks: B in place");
    // Under 4 deep (a split's last chunk, or named so), the twin gives way
    // to its base, which copies B.
    let shallow = packed_plan(47, 307, 3);
    let twin = &gemm_launch::WS_TF32_128X128X32_RS_BU;
    assert_eq!(b_rows_twin_for(twin, &shallow, [0; 3]).map(|s| s.name), Some(spec.name));
    assert_eq!(tma_refusal(twin, &shallow, [0; 3]), None);
    assert!(b_rows_twin_for(twin, &plan, [0; 3]).is_none(), "4096 deep: the twin runs");
    // The residues' rows and shifts: row k of a 32-deep slice, and map r's
    // start aligned down to 16 bytes.
    let rows: Vec<u32> = (0..32).map(|k| tma::b_residue_row(k, 32)).collect();
    let mut sorted = rows.clone();
    sorted.sort();
    assert_eq!(sorted, (0..32).collect::<Vec<_>>(), "a permutation");
    assert_eq!(&rows[..6], &[0, 8, 16, 24, 1, 9]);
    for (b, ldb) in [(0u64, 307u32), (4, 1024), (8, 5), (12, 7)] {
        for r in 0..tma::B_ROW_RESIDUES {
            let start = b + r as u64 * ldb as u64 * 4;
            let shift = tma::b_residue_shift(b, ldb, r);
            assert!(shift < 4 && (start - 4 * shift as u64).is_multiple_of(16), "b {b} ldb {ldb} r {r}");
        }
    }
}

/// The entries for C's rows off 16 bytes (step 7b's, PERF step 99; step
/// 10f's, step 100) stand in for their twins where they pay (f32 at
/// shallow K, TF32 at every K), and are the same launch apart from the
/// epilogue: tile, stages, blocks per SM, layouts, architecture, and the
/// features but the one that names them; the TF32 ones take one staged
/// box of C per consumer more shared memory.
#[test]
fn c_rows_twin_is_the_same_launch_where_it_pays() {
    use gemm_launch::{
        C_ROWS_TWIN_MAX_K, C_ROWS_TWINS, Features, WS_TF32_16X128X32_RS, WS_TF32_256X128X32_RS, WT_128X128X8,
        WT_256X128X8, c_rows_twin, tma,
    };
    let twin_name = |spec, k| c_rows_twin(spec, k).map(|record| record.twin.name);
    assert_eq!(twin_name(&WT_256X128X8, 24), Some("sgemm_wt_256x128x8_cu"));
    assert_eq!(twin_name(&WT_256X128X8, C_ROWS_TWIN_MAX_K), Some("sgemm_wt_256x128x8_cu"));
    assert!(c_rows_twin(&WT_256X128X8, C_ROWS_TWIN_MAX_K + 1).is_none());
    assert!(c_rows_twin(&WT_128X128X8, 24).is_none());
    assert_eq!(twin_name(&gemm_launch::WT_64X64X8, 24), Some("sgemm_wt_64x64x8_cu"));
    assert_eq!(twin_name(&WS_TF32_256X128X32_RS, 1 << 20), Some("tgemm_ws_256x128x32_rs_cu"));
    assert!(c_rows_twin(&WS_TF32_16X128X32_RS, 24).is_none());
    for record in C_ROWS_TWINS {
        let (base, twin) = (&record.base, &record.twin);
        assert!(!base.features.c_rows_off_16_bytes && twin.features.c_rows_off_16_bytes);
        assert!(record.alignment == 8 || record.alignment == 16);
        assert_eq!(Features { c_rows_off_16_bytes: false, ..twin.features }, base.features);
        assert_eq!((twin.tile, twin.stages, twin.min_blocks_per_sm), (base.tile, base.stages, base.min_blocks_per_sm));
        assert_eq!(
            (twin.layouts, twin.arch, twin.dtype, twin.algorithm),
            (base.layouts, base.arch, base.dtype, base.algorithm)
        );
        assert!(gemm_launch::KERNELS.iter().any(|k| k.name == twin.name), "{} is built", twin.name);
        if twin.dtype == Dtype::Tf32 {
            assert_eq!(tma::c_staged_boxes(twin), 1, "{}: one box per consumer", twin.name);
            let boxes = tma::consumer_warps(twin) / 4 * tma::C_BOX_BYTES;
            assert_eq!(twin.smem_bytes(), base.smem_bytes() + boxes, "{}", twin.name);
            assert!(twin.smem_bytes() <= 227 * 1024, "{} fits an H100's block", twin.name);
        } else {
            assert_eq!(twin.smem_bytes(), base.smem_bytes());
        }
    }
}
