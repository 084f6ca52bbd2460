//! GPU tests of the library API: layouts, leading dimensions, α/β,
//! strided batches and 64-bit indexing, each against an f64 reference
//! computed with the same strides. Without a GPU each test prints why it
//! skipped and passes.
//!
//! The randomized sweep prints its seed; `RGEMM_SEED=<seed> cargo test
//! --test library sweep` replays a failure.

use cust::memory::DeviceBuffer;
use gemm_launch::memory_bound::mma_refusal;
use gemm_launch::memory_bound::{skinny_mma_for, tiles_beat_skinny};
use gemm_launch::{Algorithm, OperandLayout};
use half::{bf16, f16};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::choice::streams_on_tensor_cores;
use rgemm::api::{Batch, GemmOptions, KernelChoice, Layout, MatMut, MatRef, MatrixDesc};
use rgemm::driver::launch::call_refusal;
use rgemm::kernels::{Dtype, DtypeExt, find_kernel};
use rgemm::{Element, GemmError, Gpu, SplitK};
use std::io::Write;

fn gpu_or_skip(test: &str) -> Option<Gpu> {
    match Gpu::new() {
        Ok(gpu) => Some(gpu),
        Err(GemmError::NoGpu(reason)) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no GPU ({reason})");
            None
        }
        Err(e) => panic!("GPU present but unusable: {e}"),
    }
}

/// Offset of element (r, c) of a matrix described by `d`.
fn offset(d: &MatrixDesc, r: usize, c: usize) -> usize {
    match d.layout {
        Layout::RowMajor => r * d.ld + c,
        Layout::ColMajor => c * d.ld + r,
    }
}

/// A dense `rows × cols` matrix, column-major or row-major.
fn dense(rows: usize, cols: usize, col_major: bool) -> MatrixDesc {
    if col_major { MatrixDesc::col_major(rows, cols) } else { MatrixDesc::row_major(rows, cols) }
}

/// Every (TMA kernel, operand layout it takes) this GPU runs; the others
/// are named on stderr as skipped. Not the f32-output twins, which no call
/// names: they run as the partials of the TMA kernels' splits
/// (`every_layout_kernel_with_alpha_beta_and_batches`).
fn tma_calls(gpu: &Gpu) -> Vec<(&'static gemm_launch::KernelSpec, OperandLayout)> {
    let calls = gemm_launch::KERNELS
        .iter()
        .filter(|s| s.algorithm == Algorithm::WarpSpecialized && !s.features.f32_output)
        .flat_map(|spec| OperandLayout::ALL.into_iter().filter(|l| spec.supports(*l)).map(move |l| (spec, l)));
    calls
        .filter(|&(spec, layout)| match gpu.entry_cannot_run(spec, layout) {
            Some(reason) => {
                let name = rgemm::kernels::entry_name(spec, layout);
                let _ =
                    writeln!(std::io::stderr(), "SKIPPED {name} ({}): {reason}", rgemm::kernels::layout_name(layout));
                false
            }
            None => true,
        })
        .collect()
}

/// Elements one matrix of `d` spans.
fn extent(d: &MatrixDesc) -> usize {
    let (run, runs) = match d.layout {
        Layout::RowMajor => (d.cols, d.rows),
        Layout::ColMajor => (d.rows, d.cols),
    };
    (runs - 1) * d.ld + run
}

/// One GEMM call to check: shapes, layouts, scalars, batch, kernel.
#[derive(Clone, Debug)]
struct Case {
    dtype: Dtype,
    a: MatrixDesc,
    b: MatrixDesc,
    c: MatrixDesc,
    alpha: f32,
    beta: f32,
    batch: Batch,
    kernel: KernelChoice,
    split_k: SplitK,
}

/// Sentinel in the gaps between rows (ld padding) and between batch
/// matrices of C: a kernel that writes outside C's view changes it. Exact in
/// f16 and bf16 (a power of two), so it survives the round trip.
const GAP: f32 = 1024.0;

/// Runs `case` on the GPU and returns (relative Frobenius error over every
/// C of the batch, whether the gaps were left alone).
fn run_case<T: Element>(gpu: &Gpu, case: &Case, rng: &mut StdRng) -> Result<(f64, bool), GemmError> {
    run_case_with_gaps::<T>(gpu, case, rng, None)
}

/// [`run_case`], with the elements of A's and B's buffers outside their
/// views (row padding, the gaps between a batch's matrices) set to
/// `operand_gaps` where given, random otherwise.
fn run_case_with_gaps<T: Element>(
    gpu: &Gpu,
    case: &Case,
    rng: &mut StdRng,
    operand_gaps: Option<f32>,
) -> Result<(f64, bool), GemmError> {
    let Case { a, b, c, batch, .. } = case;
    let len = |d: &MatrixDesc, stride: usize| (batch.count - 1) * stride + extent(d);
    let random = |n: usize, rng: &mut StdRng| -> Vec<T> {
        (0..n).map(|_| T::from_f32(rng.sample::<f32, _>(rand_distr::StandardNormal))).collect()
    };
    let mut a_host = random(len(a, batch.stride_a), rng);
    let mut b_host = random(len(b, batch.stride_b), rng);
    if let Some(gap) = operand_gaps {
        for (host, d, stride) in [(&mut a_host, a, batch.stride_a), (&mut b_host, b, batch.stride_b)] {
            let mut inside = vec![false; host.len()];
            for z in 0..batch.count {
                for r in 0..d.rows {
                    for col in 0..d.cols {
                        inside[z * stride + offset(d, r, col)] = true;
                    }
                }
            }
            for (x, inside) in host.iter_mut().zip(inside) {
                if !inside {
                    *x = T::from_f32(gap);
                }
            }
        }
    }
    let c_len = len(c, batch.stride_c);
    // C: random where the views are (NaN when β = 0: it must not be read),
    // the sentinel everywhere else.
    let mut c_host = vec![T::from_f32(GAP); c_len];
    let mut inside = vec![false; c_len];
    for z in 0..batch.count {
        for r in 0..c.rows {
            for col in 0..c.cols {
                let i = z * batch.stride_c + offset(c, r, col);
                inside[i] = true;
                c_host[i] = if case.beta == 0.0 {
                    T::from_f32(f32::NAN)
                } else {
                    T::from_f32(rng.sample::<f32, _>(rand_distr::StandardNormal))
                };
            }
        }
    }
    let a_dev = gpu.upload(&a_host)?;
    let b_dev = gpu.upload(&b_host)?;
    let mut c_dev = gpu.upload(&c_host)?;
    let options = GemmOptions {
        alpha: case.alpha,
        beta: case.beta,
        allow_tf32: case.dtype == Dtype::Tf32,
        kernel: case.kernel,
        split_k: case.split_k,
        ..GemmOptions::default()
    };
    gpu.gemm_strided_batched(
        &options,
        MatRef::new(&a_dev, *a),
        MatRef::new(&b_dev, *b),
        MatMut::new(&mut c_dev, *c),
        batch,
    )?;
    let out = gpu.download(&c_dev)?;

    let f64s = |v: &[T]| v.iter().map(|x| x.to_f32() as f64).collect::<Vec<_>>();
    let (a64, b64, c64) = (f64s(&a_host), f64s(&b_host), f64s(&c_host));
    let strides = |d: &MatrixDesc| match d.layout {
        Layout::RowMajor => (d.ld as isize, 1),
        Layout::ColMajor => (1, d.ld as isize),
    };
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    // For a C of a few elements, also the norm of the terms each element
    // sums (√(Σ α²·a²·b² + β²·c²)), which is what rounding errors of random
    // sign scale with: a dot product that happens to cancel to near zero
    // would otherwise read as a large relative error (TF32 1×1×128 at
    // 2.25e-3, RGEMM_SEED=7148685252023399051). For random N(0,1) data
    // the two norms agree, so a wrong or missing term still fails; over
    // 64 or more elements, cancellation does not move the norm of C.
    let few = batch.count * c.rows * c.cols < 64;
    let mut terms = 0.0f64;
    for z in 0..batch.count {
        let mut expect = vec![0.0f64; c.rows * c.cols];
        let (rsa, csa) = strides(a);
        let (rsb, csb) = strides(b);
        unsafe {
            matrixmultiply::dgemm(
                c.rows,
                a.cols,
                c.cols,
                case.alpha as f64,
                a64[z * batch.stride_a..].as_ptr(),
                rsa,
                csa,
                b64[z * batch.stride_b..].as_ptr(),
                rsb,
                csb,
                0.0,
                expect.as_mut_ptr(),
                c.cols as isize,
                1,
            );
        }
        for r in 0..c.rows {
            for col in 0..c.cols {
                let i = z * batch.stride_c + offset(c, r, col);
                let mut want = expect[r * c.cols + col];
                if case.beta != 0.0 {
                    want += case.beta as f64 * c64[i];
                }
                let got = out[i].to_f32() as f64;
                diff += (got - want).powi(2);
                norm += want.powi(2);
                if few {
                    let (ia, ib) = (z * batch.stride_a, z * batch.stride_b);
                    let products: f64 =
                        (0..a.cols).map(|p| (a64[ia + offset(a, r, p)] * b64[ib + offset(b, p, col)]).powi(2)).sum();
                    let old = if case.beta != 0.0 { (case.beta as f64 * c64[i]).powi(2) } else { 0.0 };
                    terms += (case.alpha as f64).powi(2) * products + old;
                }
            }
        }
    }
    let norm = norm.max(terms);
    let gaps_kept = out.iter().zip(&inside).all(|(x, &inside)| inside || x.to_f32() == GAP);
    let err = if norm > 0.0 { (diff / norm).sqrt() } else { diff.sqrt() };
    Ok((if err.is_nan() { f64::INFINITY } else { err }, gaps_kept))
}

fn run_any(gpu: &Gpu, case: &Case, rng: &mut StdRng) -> Result<(f64, bool), GemmError> {
    match case.dtype {
        Dtype::F32 | Dtype::Tf32 => run_case::<f32>(gpu, case, rng),
        Dtype::F16 => run_case::<f16>(gpu, case, rng),
        Dtype::Bf16 => run_case::<bf16>(gpu, case, rng),
    }
}

/// A view of a `rows × cols` matrix in a random layout, with a leading
/// dimension that is tight or padded by up to 5 elements.
fn random_desc(rows: usize, cols: usize, rng: &mut StdRng) -> MatrixDesc {
    let d = if rng.random_bool(0.5) { MatrixDesc::row_major(rows, cols) } else { MatrixDesc::col_major(rows, cols) };
    let pad = if rng.random_bool(0.5) { 0 } else { rng.random_range(1..=5) };
    MatrixDesc { ld: d.ld + pad, ..d }
}

fn random_dim(rng: &mut StdRng) -> usize {
    const PRIMES: [usize; 8] = [2, 3, 7, 31, 61, 127, 257, 509];
    match rng.random_range(0..10) {
        0 => 1,
        1..=3 => PRIMES[rng.random_range(0..PRIMES.len())],
        4 => 1 + rng.random_range(0..4) * 64 + rng.random_range(0..2),
        _ => rng.random_range(1..300),
    }
}

fn random_case(gpu: &Gpu, rng: &mut StdRng) -> Case {
    let dtype = Dtype::ALL[rng.random_range(0..4)];
    let (mut m, mut n, mut k) = (random_dim(rng), random_dim(rng), random_dim(rng));
    if rng.random_bool(0.1) {
        k = rng.random_range(2048..12_000); // deep enough for split-K
    }
    match rng.random_range(0..6) {
        0 => (m, n) = (rng.random_range(500..3000), rng.random_range(1..9)), // tall-skinny
        1 => (m, n) = (rng.random_range(1..9), rng.random_range(500..3000)), // short-wide
        _ => {}
    }
    let (a, b, c) = (random_desc(m, k, rng), random_desc(k, n, rng), random_desc(m, n, rng));
    let count = if rng.random_bool(0.3) { rng.random_range(2..5) } else { 1 };
    let spaced = |d: &MatrixDesc, rng: &mut StdRng| extent(d) + rng.random_range(0..3);
    let batch = Batch {
        count,
        stride_a: if rng.random_bool(0.2) { 0 } else { spaced(&a, rng) },
        stride_b: if rng.random_bool(0.2) { 0 } else { spaced(&b, rng) },
        stride_c: spaced(&c, rng),
    };
    let alpha = if rng.random_bool(0.5) { 1.0 } else { rng.random_range(-2.0..2.0) };
    let beta = [0.0, 0.0, 1.0, rng.random_range(-2.0..2.0)][rng.random_range(0..4)];
    // Half the cases let the library choose; the others name a kernel that
    // is compiled for the case's layout, so every shipped kernel is covered.
    let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
    // The TMA kernels take every case but batches sharing one A or B (a
    // stride of 0); misaligned rows and strides they read through realigned
    // copies.
    let fits: Vec<_> = dtype
        .kernels()
        .into_iter()
        .filter(|s| gpu.entry_cannot_run(s, plan.layout).is_none() && call_refusal(s, &plan, [0; 3]).is_none())
        .collect();
    let kernel = if rng.random_bool(0.5) {
        KernelChoice::Auto
    } else {
        KernelChoice::Kernel(fits[rng.random_range(0..fits.len())])
    };
    // Split-K as the library chooses, off, or an explicit chunk (f32 and
    // TF32 only here; f16/bf16 named chunks run their f32-output twins in
    // `every_layout_kernel_with_alpha_beta_and_batches` and
    // `ragged_splits_in_one_launch_and_apart`).
    let split_k = match (dtype, rng.random_range(0..4)) {
        (Dtype::F32 | Dtype::Tf32, 0) => SplitK::Chunk(rng.random_range((k / 64).max(1)..=k) as u32),
        (_, 1) => SplitK::Off,
        _ => SplitK::Auto,
    };
    Case { dtype, a, b, c, alpha, beta, batch, kernel, split_k }
}

#[test]
fn sweep_random_shapes_layouts_scalars_and_batches() {
    let Some(gpu) = gpu_or_skip("sweep_random_shapes_layouts_scalars_and_batches") else { return };
    let seed = std::env::var("RGEMM_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    let cases = 300;
    let _ = writeln!(std::io::stderr(), "sweep: {cases} cases, seed {seed} (replay: RGEMM_SEED={seed})");
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..cases {
        let case = random_case(&gpu, &mut rng);
        let (err, gaps_kept) =
            run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("case {i} (RGEMM_SEED={seed}): {e}\n{case:#?}"));
        assert!(
            case.dtype.accepts(err, case.a.cols),
            "case {i} (RGEMM_SEED={seed}): relative error {err:e}\n{case:#?}"
        );
        assert!(gaps_kept, "case {i} (RGEMM_SEED={seed}): wrote outside C's view\n{case:#?}");
    }
}

#[test]
fn every_layout_kernel_with_alpha_beta_and_batches() {
    let Some(gpu) = gpu_or_skip("every_layout_kernel_with_alpha_beta_and_batches") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let layouts = [Layout::RowMajor, Layout::ColMajor];
    for (spec, layout, name) in rgemm::kernels::entries() {
        // The TMA kernels need 16-byte rows: every dimension a multiple of 8,
        // none a multiple of their 128×256×64 tile.
        let (m, n, k) = if spec.algorithm == Algorithm::WarpSpecialized { (136, 72, 48) } else { (131, 70, 45) };
        if let Some(reason) = gpu.entry_cannot_run(spec, layout) {
            let _ = writeln!(std::io::stderr(), "SKIPPED {name}: {reason}");
            continue;
        }
        if spec.features.f32_output {
            // Refused for a 16-bit C (bad_calls_are_typed_errors); it runs
            // as the partials of every f16/bf16 kernel's split below.
            continue;
        }
        for c_layout in layouts {
            // The kernel's layout is what the call needs after C's transpose
            // identity, so pick A and B to land on it.
            let (a, b, c) = match c_layout {
                Layout::RowMajor => {
                    (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major), MatrixDesc::row_major(m, n))
                }
                Layout::ColMajor => {
                    (dense(m, k, !layout.b_col_major), dense(k, n, !layout.a_col_major), MatrixDesc::col_major(m, n))
                }
            };
            // B shared by the batch (stride 0), and C's matrices off 16-byte
            // boundaries, except for the TMA kernels, which refuse a shared
            // operand, and store C through the TMA only when each
            // matrix of the batch is aligned (the other way is
            // `tma_kernels_loop_over_many_tiles_in_every_layout`'s).
            let tma = spec.algorithm == Algorithm::WarpSpecialized;
            let (stride_b, c_gap) = if tma { (extent(&b) + 8, 8) } else { (0, 1) };
            let batch = Batch { count: 3, stride_a: extent(&a) + 8, stride_b, stride_c: extent(&c) + c_gap };
            let dtype = spec.dtype;
            // Every kernel also with a split K (three chunks, the last
            // shorter): an f32/TF32 kernel computes its own partial sums, an
            // f16/bf16 one has its dtype's f32-output twin compute them, in
            // this layout.
            // Step 86's tensor-core kernels read the large operand along K
            // only: elsewhere a typed refusal (the kernel sees M and N
            // swapped with a column-major C).
            let (kernel_m, kernel_n) = if c_layout == Layout::RowMajor { (m, n) } else { (n, m) };
            let refused =
                mma_refusal(spec, kernel_m as u32, kernel_n as u32, layout.a_col_major, layout.b_col_major).is_some();
            for split_k in [SplitK::Auto, SplitK::Chunk(16)] {
                let kernel = KernelChoice::Kernel(spec);
                let case = Case { dtype, a, b, c, alpha: 1.5, beta: -0.5, batch, kernel, split_k };
                if refused {
                    let result = run_any(&gpu, &case, &mut rng);
                    assert!(matches!(result, Err(GemmError::Unsupported { .. })), "{name}, C {c_layout:?}: {result:?}");
                    continue;
                }
                let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{name}: {e}"));
                let what = format!("{name}, C {c_layout:?}, {split_k:?}");
                assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
                assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
            }
        }
    }
}

/// The warp-tiled kernels' unchecked main loop runs only on tiles wholly
/// inside C with aligned rows, which the small shape above never has: here
/// every layout of every such kernel on a shape with interior and edge
/// tiles, K not a multiple of the slice, a batch, α and β. The batch's
/// second C starts 16 bytes on or 4 bytes on from its first: the 16-byte
/// stores, or the epilogue for C's rows off 16 bytes (`store_c_rows`).
#[test]
fn warp_tiled_interior_tiles_every_layout() {
    let Some(gpu) = gpu_or_skip("warp_tiled_interior_tiles_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let (m, n, k) = (600, 300, 204);
    for (spec, layout, name) in rgemm::kernels::entries() {
        if spec.algorithm != gemm_launch::Algorithm::WarpTiled {
            continue;
        }
        if let Some(reason) = gpu.entry_cannot_run(spec, layout) {
            let _ = writeln!(std::io::stderr(), "SKIPPED {name}: {reason}");
            continue;
        }
        let (a, b, c) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major), MatrixDesc::row_major(m, n));
        for c_gap in [4, 1] {
            let batch = Batch { count: 2, stride_a: extent(&a) + 8, stride_b: 0, stride_c: extent(&c) + c_gap };
            let kernel = KernelChoice::Kernel(spec);
            let case = Case { dtype: spec.dtype, a, b, c, alpha: 1.5, beta: -0.5, batch, kernel, split_k: SplitK::Off };
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(spec.dtype.accepts(err, k), "{name}, C gap {c_gap}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{name}, C gap {c_gap}: wrote outside C (seed {seed})");
        }
    }
}

/// f32 calls of about a wave of small tiles and K under 2048, which `auto`
/// splits to fill the kernel's block slots (`split_k::short_k_split`), and
/// of a few tiles at K ≥ 4096, which it runs on the deep-K list's tile,
/// split (`choice::F32_SPLIT_TILES_MIN_K`): every layout of A, B and C, odd
/// M and N, a batch, α and β. The call must really be split (it asks for a
/// workspace).
#[test]
fn short_k_auto_splits_every_layout() {
    let Some(gpu) = gpu_or_skip("short_k_auto_splits_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let options = GemmOptions { alpha: 1.5, beta: -0.5, ..GemmOptions::default() };
    let layouts = (0..8).map(|bits| (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0));
    for ((m, n, k), (a_col, b_col, c_col)) in [(520, 501, 768), (300, 650, 4100)]
        .into_iter()
        .flat_map(|shape| layouts.clone().map(move |layout| (shape, layout)))
    {
        let c = if c_col { MatrixDesc::col_major(m, n) } else { MatrixDesc::row_major(m, n) };
        let (a, b) = (dense(m, k, a_col), dense(k, n, b_col));
        for count in [1, 2] {
            let batch = Batch { count, stride_a: extent(&a) + 4, stride_b: extent(&b), stride_c: extent(&c) + 1 };
            let what = format!("{m}×{n}×{k}: A col {a_col}, B col {b_col}, C col {c_col}, batch {count}");
            let bytes = gpu.gemm_workspace_bytes::<f32>(&options, &a, &b, &c, &batch).unwrap();
            assert!(bytes > 0, "{what}: not split");
            let case = Case {
                dtype: Dtype::F32,
                a,
                b,
                c,
                alpha: options.alpha,
                beta: options.beta,
                batch,
                kernel: KernelChoice::Auto,
                split_k: SplitK::Auto,
            };
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(Dtype::F32.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
        }
    }
}

/// f32 operands whose rows are off 16 bytes (odd K, odd N), copied into
/// padded rows before the register-staged f32 kernels of steps 6–7b run
/// (`operand_copies::f32_realigned`), and read in place by step 7c's
/// `cp.async` rings (PERF.md step 113), split and unsplit: both staged
/// kernel families, each operand both ways round, both rings with B's
/// rows off 16 bytes and on them (A's alone off), a ragged last chunk,
/// a batch whose matrices start off 16 bytes, α and β. Each call must
/// really be realigned, or really not.
#[test]
fn f32_realigned_copies_in_every_layout() {
    use rgemm::driver::operand_copies::operand_copies;
    let Some(gpu) = gpu_or_skip("f32_realigned_copies_in_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    // 4.35·10⁹ flop, past F32_REALIGN_MIN_FLOP (the f64 reference of each
    // case is most of the test's time, so few cases); N = 2052 puts B's
    // rows on 16 bytes.
    let (m, k) = (1031, 1027);
    let (ring, ring_turned) = (&gemm_launch::WT_ASYNC_64X128X8, &gemm_launch::WT_ASYNC_128X64X8);
    let row_major = (false, false, false);
    let cases = [
        (&gemm_launch::DB_128X64X16, 2053, (false, false, false), 1, SplitK::Off),
        (&gemm_launch::DB_128X64X16, 2053, (true, true, true), 1, SplitK::Chunk(256)),
        (&gemm_launch::WT_256X128X8, 2053, (false, true, false), 1, SplitK::Off),
        (&gemm_launch::WT_256X128X8, 2053, (true, false, true), 2, SplitK::Off),
        (ring, 2053, row_major, 1, SplitK::Off),
        (ring, 2053, row_major, 2, SplitK::Chunk(264)),
        (ring, 2052, row_major, 1, SplitK::Auto),
        (ring_turned, 2053, row_major, 2, SplitK::Chunk(264)),
        (ring_turned, 2053, row_major, 1, SplitK::Auto),
        (ring_turned, 2052, row_major, 1, SplitK::Off),
    ];
    for (spec, n, (a_col, b_col, c_col), count, split_k) in cases {
        let c = if c_col { MatrixDesc::col_major(m, n) } else { MatrixDesc::row_major(m, n) };
        let (a, b) = (dense(m, k, a_col), dense(k, n, b_col));
        let batch = Batch { count, stride_a: extent(&a) + 1, stride_b: extent(&b) + 3, stride_c: extent(&c) + 1 };
        let what = format!("{} N = {n}: A col {a_col}, B col {b_col}, C col {c_col}, batch {count}", spec.name);
        let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let realigned = operand_copies(spec, &plan, [0; 3]).is_some();
        assert_eq!(realigned, spec.realigns_f32_rows(), "{what}: realigned {realigned}");
        let case = Case {
            dtype: Dtype::F32,
            a,
            b,
            c,
            alpha: 0.75,
            beta: -1.25,
            batch,
            kernel: KernelChoice::Kernel(spec),
            split_k,
        };
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(Dtype::F32.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

/// Split-K whose last chunk is shorter than the others, wherever it runs:
/// in the launch of the other chunks on the warp-tiled and memory-bound
/// kernels (`KernelSpec::takes_k_last`; step 10's f32-output twins:
/// `tma_partials_run_a_shorter_last_chunk_in_their_launch`), and as a
/// launch of its own on another kernel and on TMA kernels whose operands
/// are copied (realigned, rows off 16 bytes; transposed, with chunks off
/// 16 bytes); odd sizes, every layout 128×256 takes, α and β, batches
/// whose matrices start off 16 bytes, and the split model's own pick
/// (`auto`).
#[test]
fn ragged_splits_in_one_launch_and_apart() {
    use gemm_launch::memory_bound::{SKINNY_F16_R8, SKINNY_F32_R1};
    use gemm_launch::{
        DB_64X64X16, WS_F16_128X128X64, WS_TF32_64X16X32, WS_TF32_128X16X32, WS_TF32_128X128X32_RS, WT_64X64X8,
        WT_128X128X8, WT_256X128X8,
    };
    let Some(gpu) = gpu_or_skip("ragged_splits_in_one_launch_and_apart") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let (m, n, k) = (333, 257, 1999);
    let named = |spec| KernelChoice::Kernel(spec);
    let cases = [
        (Dtype::F32, named(&WT_128X128X8), (false, false, false), 1, SplitK::Chunk(500)),
        (Dtype::F32, named(&WT_128X128X8), (true, true, true), 2, SplitK::Chunk(252)),
        (Dtype::F32, named(&WT_256X128X8), (true, false, false), 2, SplitK::Chunk(640)),
        (Dtype::F32, named(&WT_256X128X8), (false, true, true), 1, SplitK::Chunk(130)),
        (Dtype::F32, named(&DB_64X64X16), (false, false, true), 2, SplitK::Chunk(500)),
        (Dtype::F32, named(&WT_64X64X8), (false, false, false), 2, SplitK::Chunk(700)),
        (Dtype::F32, named(&WT_64X64X8), (true, true, true), 1, SplitK::Chunk(132)),
        (Dtype::F16, named(&WS_F16_128X128X64), (false, false, false), 1, SplitK::Chunk(512)),
        // Chunks off 16 bytes on realigned operands: each launch copies its
        // own chunks (step 73's first build copied the whole call first, and
        // the chunks' copies then waited on the held scratch buffer: a hang).
        (Dtype::F16, named(&WS_F16_128X128X64), (true, false, false), 2, SplitK::Chunk(500)),
        // A TF32 kernel whose partial sums run on itself, B copied transposed.
        (Dtype::Tf32, named(&WS_TF32_128X128X32_RS), (false, true, false), 1, SplitK::Chunk(501)),
        // The 16-column TF32 tiles, whose partial sums run on themselves
        // (step 111), B copied transposed, the last chunk a launch of its
        // own (N = 13, under a tile): 64×16 at K = 2000, A read in place by
        // the TMA at chunk strides of 600 (on 16 bytes) and copied per
        // launch at 501 (off them); 128×16 at K = 1999, A realigned.
        (Dtype::Tf32, named(&WS_TF32_64X16X32), (false, false, false), 2, SplitK::Chunk(600)),
        (Dtype::Tf32, named(&WS_TF32_64X16X32), (false, false, false), 1, SplitK::Chunk(501)),
        (Dtype::Tf32, named(&WS_TF32_128X16X32), (false, false, false), 1, SplitK::Chunk(640)),
        // The memory-bound kernels (at 7×5: the dot pattern), the 16-bit
        // one's partial sums on its f32-output twin.
        (Dtype::F16, named(&SKINNY_F16_R8), (false, false, false), 2, SplitK::Chunk(504)),
        (Dtype::F32, named(&SKINNY_F32_R1), (true, true, false), 1, SplitK::Chunk(500)),
        (Dtype::F32, KernelChoice::Auto, (false, false, false), 1, SplitK::Auto),
    ];
    for (dtype, kernel, (a_col, b_col, c_col), count, split_k) in cases {
        // Auto's case: 1031×1029×1027, which the model splits 2 ways on 64×64.
        let (m, n, k) = match kernel {
            KernelChoice::Auto => (1031, 1029, 1027),
            KernelChoice::Kernel(spec) if spec.algorithm == gemm_launch::Algorithm::MemoryBound => (7, 5, k),
            KernelChoice::Kernel(spec) if spec.tile.bn == 16 => (1000, 13, if spec.tile.bm == 64 { 2000 } else { k }),
            _ => (m, n, k),
        };
        let c = if c_col { MatrixDesc::col_major(m, n) } else { MatrixDesc::row_major(m, n) };
        let (a, b) = (dense(m, k, a_col), dense(k, n, b_col));
        let batch = Batch { count, stride_a: extent(&a) + 1, stride_b: extent(&b) + 3, stride_c: extent(&c) + 1 };
        let what =
            format!("{dtype:?} {kernel:?} {m}×{n}×{k}: A col {a_col}, B col {b_col}, C col {c_col}, batch {count}");
        let options = GemmOptions { kernel, split_k, ..GemmOptions::default() };
        let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let spec = match kernel {
            KernelChoice::Kernel(spec) => spec,
            KernelChoice::Auto => rgemm::api::select_kernel::<f32>(&options, &plan, [0; 3], &gpu.info).unwrap(),
        };
        if matches!(kernel, KernelChoice::Auto) {
            assert_eq!(spec.name, WT_64X64X8.name, "{what}: not the split model's tile");
        }
        let resident = |s| gpu.resident_blocks(s, plan.layout);
        let split = rgemm::split_k::split_for(&options, &plan, spec, gpu.info.multiprocessors as u32, resident)
            .unwrap()
            .map(|(split, _)| split);
        assert!(split.is_some_and(|s| !k.is_multiple_of(s.chunk as usize)), "{what}: not a ragged split ({split:?})");
        let case = Case { dtype, a, b, c, alpha: 0.75, beta: -1.25, batch, kernel, split_k };
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

/// A split's shorter last chunk on step 10's f32-output twins (the 16-bit
/// TMA partial sums), in the launch of the other chunks: the batch's last
/// matrix reads A and B through maps whose K ends at its K
/// (`KernelSpec::takes_k_last`, `tma::LAST_CHUNK_MAPS_OFFSET`, PERF step
/// 105). Operands on 16 bytes (leading dimensions and batch strides
/// padded, the padding NaN), so that no copy takes the call apart; every
/// layout; last chunks of 487 (under the others by more than a K slice),
/// 7 (under a slice and under 16 bytes) and 1; both tiles; batches; α and
/// β; and `auto`'s own deep-K split at 384×384×100003.
#[test]
fn tma_partials_run_a_shorter_last_chunk_in_their_launch() {
    use gemm_launch::{WS_BF16_128X128X64, WS_F16_128X128X64, WS_F16_128X192X64};
    let Some(gpu) = gpu_or_skip("tma_partials_run_a_shorter_last_chunk_in_their_launch") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let named = |spec| KernelChoice::Kernel(spec);
    let cases = [
        (Dtype::F16, named(&WS_F16_128X128X64), (333, 257, 1999), (false, false, false), 1, SplitK::Chunk(504)),
        (Dtype::Bf16, named(&WS_BF16_128X128X64), (333, 257, 1999), (true, true, false), 2, SplitK::Chunk(504)),
        (Dtype::F16, named(&WS_F16_128X192X64), (333, 257, 1999), (false, true, true), 2, SplitK::Chunk(664)),
        (Dtype::Bf16, named(&WS_BF16_128X128X64), (130, 300, 2401), (true, false, false), 1, SplitK::Chunk(800)),
        (Dtype::F16, KernelChoice::Auto, (384, 384, 100_003), (false, false, false), 1, SplitK::Auto),
    ];
    // Leading dimensions on 16 bytes (8 elements), the padding NaN-filled by the harness.
    let padded = |rows: usize, cols: usize, col_major: bool| {
        let d = dense(rows, cols, col_major);
        MatrixDesc { ld: d.ld.next_multiple_of(8), ..d }
    };
    for (dtype, kernel, (m, n, k), (a_col, b_col, c_col), count, split_k) in cases {
        let (a, b) = (padded(m, k, a_col), padded(k, n, b_col));
        let c = if c_col { MatrixDesc::col_major(m, n) } else { MatrixDesc::row_major(m, n) };
        let stride = |d: &MatrixDesc| extent(d).next_multiple_of(8) + 8;
        let batch = Batch { count, stride_a: stride(&a), stride_b: stride(&b), stride_c: extent(&c) + 1 };
        let what =
            format!("{dtype:?} {kernel:?} {m}×{n}×{k}: A col {a_col}, B col {b_col}, C col {c_col}, batch {count}");
        let options = GemmOptions { kernel, split_k, ..GemmOptions::default() };
        let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let spec = match kernel {
            KernelChoice::Kernel(spec) => spec,
            KernelChoice::Auto => rgemm::api::select_kernel::<f16>(&options, &plan, [0; 3], &gpu.info).unwrap(),
        };
        let resident = |s| gpu.resident_blocks(s, plan.layout);
        let (split, partials) =
            rgemm::split_k::split_for(&options, &plan, spec, gpu.info.multiprocessors as u32, resident)
                .unwrap()
                .unwrap_or_else(|| panic!("{what}: not split"));
        assert!(partials.takes_k_last(), "{what}: {} runs its last chunk apart", partials.name);
        assert!(!k.is_multiple_of(split.chunk as usize), "{what}: not a ragged split ({split:?})");
        let (ran, copies) = rgemm::split_k::split_with_copies(&plan, split, partials, [0; 3], true);
        assert!(ran == split && copies.is_none(), "{what}: copied or evened out ({ran:?})");
        if matches!(kernel, KernelChoice::Auto) {
            // No exact split near the count (K prime): 14 chunks of 7168 (112
            // slices) and a last of 6819, where the last was a launch of its own.
            assert_eq!((spec.name, split.chunk, split.splits), (WS_F16_128X128X64.name, 7168, 14), "{what}");
        }
        let (alpha, beta) = (rng.random_range(0.5..2.0), rng.random_range(-1.0..1.0));
        let case = Case { dtype, a, b, c, alpha, beta, batch, kernel, split_k };
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

/// `auto`'s deep-K splits with a shorter last chunk on TMA partial sums
/// whose A and B are both realigned copies (rows off 16 bytes), in one
/// launch: the 16-bit f32-output twins read the last chunk through maps of
/// their own (`KernelSpec::takes_k_last`, PERF step 105), so the copies
/// are the operands as they are; TF32's kernels do not, so the chunks are
/// evened out and the copies padded with zeros to whole chunks
/// (`split_k::split_with_copies`, PERF step 101). f16, bf16 and TF32 at
/// shapes measured on those paths; α and β. A caller's chunks are kept as
/// asked (`ragged_splits_in_one_launch_and_apart`).
#[test]
fn ragged_deep_k_splits_on_copies_in_one_launch() {
    use rgemm::driver::operand_copies::{operand_copies, padded_operand_copies_with};
    let Some(gpu) = gpu_or_skip("ragged_deep_k_splits_on_copies_in_one_launch") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    // (TF32 reads a B this large in place since step 103:
    // `b_rows_off_16_bytes_read_in_place_by_residue`; 11 MB it copies.)
    let cases = [(Dtype::F16, (47, 307, 9001)), (Dtype::Bf16, (47, 307, 53605)), (Dtype::Tf32, (47, 307, 9001))];
    for (dtype, (m, n, k)) in cases {
        let (a, b, c) = (dense(m, k, false), dense(k, n, false), MatrixDesc::row_major(m, n));
        let batch = Batch::single();
        let what = format!("{dtype:?} {m}×{n}×{k}");
        let options = GemmOptions { allow_tf32: true, ..Default::default() };
        let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let spec = match dtype {
            Dtype::F16 => rgemm::api::select_kernel::<f16>(&options, &plan, [0; 3], &gpu.info),
            Dtype::Bf16 => rgemm::api::select_kernel::<bf16>(&options, &plan, [0; 3], &gpu.info),
            _ => rgemm::api::select_kernel::<f32>(&options, &plan, [0; 3], &gpu.info),
        }
        .unwrap();
        let resident = |s| gpu.resident_blocks(s, plan.layout);
        let (split, partials) =
            rgemm::split_k::split_for(&options, &plan, spec, gpu.info.multiprocessors as u32, resident)
                .unwrap()
                .unwrap_or_else(|| panic!("{what}: not split"));
        assert!(!k.is_multiple_of(split.chunk as usize), "{what}: not a ragged split ({split:?})");
        assert_eq!(partials.algorithm, gemm_launch::Algorithm::WarpSpecialized, "{what}: {}", partials.name);
        let (ran, copies) = rgemm::split_k::split_with_copies(&plan, split, partials, [0; 3], true);
        assert_eq!(ran.splits, split.splits, "{what}");
        if dtype == Dtype::Tf32 {
            assert!(!partials.takes_k_last(), "{what}: {}", partials.name);
            // B too (11 MB: under `B_ROWS_TWIN_MIN_RAGGED_B_BYTES`, step 10h's
            // twin would not read it in place).
            let padded = padded_operand_copies_with(partials, &plan, [0; 3], ran.chunk * ran.splits, false);
            assert!(padded.is_some() && copies == padded, "{what}: both operands should be copied, padded");
        } else {
            assert!(partials.takes_k_last(), "{what}: {}", partials.name);
            assert_eq!(ran, split, "{what}: the chunks as the rule made them");
            let as_they_are = operand_copies(partials, &plan, [0; 3]);
            assert!(as_they_are.is_some() && copies == as_they_are, "{what}: both operands copied as they are");
        }
        let (alpha, beta) = (rng.random_range(0.5..2.0), rng.random_range(-1.0..1.0));
        let case = Case { dtype, a, b, c, alpha, beta, batch, kernel: KernelChoice::Auto, split_k: SplitK::Auto };
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

/// Step 10h: a row-major TF32 B whose rows are off 16 bytes (N no
/// multiple of 4, a view at an odd offset), read in place through four
/// maps, one per residue of its row index mod 4, by the entries launched in step 10f's
/// place (`gemm_launch::B_ROWS_TWINS`): `auto`'s deep-K split (A copied, B
/// not, the shorter last chunk a launch of its own), the 16×128 tiles, K of
/// 4 to 7 (maps of one or two rows), a batch whose B strides keep the
/// shifts alike, α and β; and K = 3, where the twin steps aside.
#[test]
fn b_rows_off_16_bytes_read_in_place_by_residue() {
    use rgemm::driver::operand_copies::{b_rows_twin_for, operand_copies};
    let Some(gpu) = gpu_or_skip("b_rows_off_16_bytes_read_in_place_by_residue") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let options = GemmOptions { allow_tf32: true, ..Default::default() };
    // `auto` at the deep-K shape of the sweep: its partials kernel reads B
    // in place.
    let (m, n, k) = (47, 307, 53605);
    let (a, b, c) = (dense(m, k, false), dense(k, n, false), MatrixDesc::row_major(m, n));
    let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &Batch::single()).unwrap();
    let spec = rgemm::api::select_kernel::<f32>(&options, &plan, [0; 3], &gpu.info).unwrap();
    let resident = |s| gpu.resident_blocks(s, plan.layout);
    let (split, partials) = rgemm::split_k::split_for(&options, &plan, spec, gpu.info.multiprocessors as u32, resident)
        .unwrap()
        .expect("split");
    let (_, copies) = rgemm::split_k::split_with_copies(&plan, split, partials, [0; 3], true);
    let copies = copies.expect("A is copied");
    assert!(copies.copies[0].is_some() && copies.copies[1].is_none(), "B is read in place: {copies:?}");
    assert!(b_rows_twin_for(partials, &plan, [0; 3]).is_some(), "{}: no twin", partials.name);
    let mut cases = vec![(a, b, c, Batch::single(), KernelChoice::Auto, 1.0, 0.0)];
    let named = |spec| KernelChoice::Kernel(spec);
    let rs = &gemm_launch::WS_TF32_128X128X32_RS;
    for (m, n, k, spec) in [
        (16, 4099, 2049, &gemm_launch::WS_TF32_16X128X32_RS),
        (131, 197, 5, rs),
        (131, 197, 7, rs),
        (300, 1001, 3001, rs),
        (5, 9, 3, rs),
    ] {
        let (a, c) = (dense(m, k, false), MatrixDesc::row_major(m, n));
        // B's rows `n + 2` apart, an odd number of f32: off 16 bytes.
        let b = MatrixDesc { ld: n + 2, ..dense(k, n, false) };
        let batch = Batch {
            count: 2,
            stride_a: extent(&a) + 1,
            stride_b: (extent(&b) + 1).next_multiple_of(4),
            stride_c: extent(&c) + 2,
        };
        cases.push((a, b, c, batch, named(spec), 1.5, -0.5));
        cases.push((a, b, c, Batch::single(), named(spec), 0.75, 0.25));
    }
    for (a, b, c, batch, kernel, alpha, beta) in cases {
        let what = format!("{kernel:?} {}×{}×{} B ld {} ×{}", a.rows, b.cols, a.cols, b.ld, batch.count);
        if let KernelChoice::Kernel(spec) = kernel {
            let plan = rgemm::api::plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
            let twin = b_rows_twin_for(spec, &plan, [0; 3]);
            assert_eq!(twin.is_some(), a.cols >= 4, "{what}: twin {twin:?}");
            let b_copied = operand_copies(spec, &plan, [0; 3]).is_some_and(|call| call.copies[1].is_some());
            assert_eq!(b_copied, a.cols < 4, "{what}");
        }
        let case = Case { dtype: Dtype::Tf32, a, b, c, alpha, beta, batch, kernel, split_k: SplitK::Auto };
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(Dtype::Tf32.accepts(err, a.cols), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

/// Step 10f's swapped TF32 kernels as deep-K partial sums (split onto
/// themselves, `split_k::partials_kernel`) in every layout of A, B and C:
/// a row-major B read in place, a column-major one through its transposed
/// copy, odd M and N, a batch, α and β. Each call must really be split.
#[test]
fn swapped_tf32_kernels_split_deep_k_in_every_layout() {
    let Some(gpu) = gpu_or_skip("swapped_tf32_kernels_split_deep_k_in_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let (m, n, k) = (131, 197, 12000);
    let options = GemmOptions { alpha: 1.5, beta: -0.5, allow_tf32: true, ..GemmOptions::default() };
    for spec in [&gemm_launch::WS_TF32_128X128X32_RS, &gemm_launch::WS_TF32_256X128X32_RS] {
        for (a_col, b_col, c_col) in (0..8).map(|bits| (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0)) {
            let c = if c_col { MatrixDesc::col_major(m, n) } else { MatrixDesc::row_major(m, n) };
            let (a, b) = (dense(m, k, a_col), dense(k, n, b_col));
            let count = if a_col == b_col { 2 } else { 1 };
            let batch = Batch { count, stride_a: extent(&a) + 4, stride_b: extent(&b) + 8, stride_c: extent(&c) + 1 };
            let what = format!("{}: A col {a_col}, B col {b_col}, C col {c_col}, batch {count}", spec.name);
            let named = GemmOptions { kernel: KernelChoice::Kernel(spec), ..options };
            let bytes = gpu.gemm_workspace_bytes::<f32>(&named, &a, &b, &c, &batch).unwrap();
            assert!(bytes > 0, "{what}: not split");
            let case = Case {
                dtype: Dtype::Tf32,
                a,
                b,
                c,
                alpha: options.alpha,
                beta: options.beta,
                batch,
                kernel: named.kernel,
                split_k: SplitK::Auto,
            };
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(Dtype::Tf32.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
        }
    }
}

#[test]
fn tma_kernels_loop_over_many_tiles_in_every_layout() {
    let Some(gpu) = gpu_or_skip("tma_kernels_loop_over_many_tiles_in_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    // 17 × 17 tiles of 128×256 per matrix, two matrices: more tiles than
    // SMs, so each persistent block computes several, and 6 K slices, so the
    // stage ring's phase turns over inside a tile.
    let (m, n, k) = (2056, 4104, 328);
    // Every layout each kernel takes: its own entries, and for the K-major
    // TF32 kernel the transposed copies that bring the others to its NT one.
    for (spec, layout) in tma_calls(&gpu) {
        let name = format!("{} ({})", rgemm::kernels::entry_name(spec, layout), rgemm::kernels::layout_name(layout));
        let (a, b) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major));
        // C through the TMA store (rows and batch stride 16-byte multiples;
        // β = 0 on a NaN-filled C, then α and β), and from registers (rows
        // of 4105 elements are not).
        let c_tma = MatrixDesc::row_major(m, n);
        let c_unaligned = MatrixDesc { ld: n + 1, ..c_tma };
        for (c, c_pad, alpha, beta) in [(c_tma, 8, 1.0, 0.0), (c_tma, 8, 1.5, -0.5), (c_unaligned, 1, 1.5, -0.5)] {
            let batch =
                Batch { count: 2, stride_a: extent(&a) + 8, stride_b: extent(&b) + 16, stride_c: extent(&c) + c_pad };
            let kernel = KernelChoice::Kernel(spec);
            let case = Case { dtype: spec.dtype, a, b, c, alpha, beta, batch, kernel, split_k: SplitK::Off };
            let what = format!("{name}, C ld {}, α {alpha} β {beta}", c.ld);
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(spec.dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
        }
        // Aligned rows, but a batch stride that would leave the second
        // matrix off a 16-byte boundary: refused, with the reason.
        if spec.features.staged_epilogue {
            let c = MatrixDesc::row_major(m, n);
            let batch =
                Batch { count: 2, stride_a: extent(&a) + 8, stride_b: extent(&b) + 16, stride_c: extent(&c) + 1 };
            let kernel = KernelChoice::Kernel(spec);
            let case = Case { dtype: spec.dtype, a, b, c, alpha: 1.0, beta: 0.0, batch, kernel, split_k: SplitK::Off };
            match run_any(&gpu, &case, &mut rng) {
                Err(GemmError::Unsupported { reason, .. }) => assert!(reason.contains("C's"), "{name}: {reason}"),
                other => panic!("{name}: a misaligned C batch stride must be refused, got {other:?}"),
            }
        }
    }
}

/// Stream-K (step 10e) where it shares tiles out on the GPU at hand: 9
/// tiles per matrix, each split among many blocks (the head adds many
/// partials), alone and in a batch of two; and a batch of eight whose 34
/// tiles per matrix (16 blocks each on 132 SMs) run one wave whole and
/// the rest shared; every layout, α and β, C through the TMA store and
/// from registers. The first such call allocates the stream-K
/// workspace, which shows the tiles were shared.
#[test]
fn stream_k_kernels_share_tiles_in_every_layout() {
    let Some(gpu) = gpu_or_skip("stream_k_kernels_share_tiles_in_every_layout") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let sms = gpu.info.multiprocessors as u32;
    for (spec, layout) in tma_calls(&gpu).into_iter().filter(|(s, _)| s.features.stream_k) {
        let name = format!("{} ({})", rgemm::kernels::entry_name(spec, layout), rgemm::kernels::layout_name(layout));
        for (m, n, k, count) in [(300, 700, 4000, 1), (300, 700, 4000, 2), (256, 4352, 2048, 8)] {
            let grid = gemm_launch::persistent_grid(u64::MAX, count as u32, sms);
            let tiles = spec.grid(m as u32, n as u32) as u32;
            let shared = gemm_launch::stream_k::shared_tiles(tiles, (k as u32).div_ceil(spec.tile.bk), grid);
            assert!(shared > 0, "{name}: {m}×{n}×{k} ×{count} should share tiles on {sms} SMs");
            let (a, b) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major));
            let c_tma = MatrixDesc::row_major(m, n);
            let c_unaligned = MatrixDesc { ld: n + 1, ..c_tma };
            for (c, c_pad, alpha, beta) in [(c_tma, 8, 1.0, 0.0), (c_unaligned, 1, 1.5, -0.5)] {
                let batch =
                    Batch { count, stride_a: extent(&a) + 8, stride_b: extent(&b) + 16, stride_c: extent(&c) + c_pad };
                let kernel = KernelChoice::Kernel(spec);
                let case = Case { dtype: spec.dtype, a, b, c, alpha, beta, batch, kernel, split_k: SplitK::Off };
                let what = format!("{name}, {m}×{n}×{k} ×{count}, C ld {}, α {alpha} β {beta}", c.ld);
                let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(spec.dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
                assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
                assert!(gpu.workspace_bytes() >= gpu.stream_k_workspace_bytes(), "{what}: no stream-K workspace");
            }
        }
    }
}

/// The TMA kernels reading tensor maps where other maps lay a call before:
/// the map cache is emptied after each call (`release_workspace`), so the
/// next call's maps are likely uploaded to the address the last call's
/// used, which the TMA's descriptor cache may still hold. Each call is
/// larger in every dimension than the one before it, so a kernel that read
/// the stale maps would leave rows, columns or K slices out (the host tells
/// the kernel to fence there: `Gemm::fence_tensor_maps` in kernels-gpu).
/// On an H100 a build that never fenced passed as well (PERF step 51): the
/// hardware served no stale map there. What this holds on any GPU is that
/// the fenced launches compute C right.
#[test]
fn tma_kernels_read_maps_at_a_reused_address() {
    let Some(gpu) = gpu_or_skip("tma_kernels_read_maps_at_a_reused_address") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    for (spec, layout) in tma_calls(&gpu) {
        let name = format!("{} ({})", rgemm::kernels::entry_name(spec, layout), rgemm::kernels::layout_name(layout));
        for (m, n, k) in [(128, 256, 128), (256, 512, 320), (384, 768, 512)] {
            let (a, b) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major));
            let c = MatrixDesc::row_major(m, n);
            let (batch, kernel) = (Batch::single(), KernelChoice::Kernel(spec));
            let case = Case { dtype: spec.dtype, a, b, c, alpha: 1.0, beta: 0.0, batch, kernel, split_k: SplitK::Off };
            let what = format!("{name}, {m}×{n}×{k}");
            let (err, _) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(spec.dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            gpu.release_workspace().unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}

/// The TMA kernels with an N that ends inside a 16-byte piece and rows
/// padded to a 16-byte multiple (61 of 64 elements): the 3 elements after
/// each row must keep the sentinel (the random sweep's seed
/// 118329410061627573 drew this as an f16 168×61×264 call).
#[test]
fn tma_kernels_leave_the_padding_after_n_alone() {
    let Some(gpu) = gpu_or_skip("tma_kernels_leave_the_padding_after_n_alone") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let (m, n, k) = (168, 61, 264);
    for (spec, layout) in tma_calls(&gpu) {
        // A row-major B's rows are padded like C's, so that the TMA takes it.
        let (a, b) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major));
        let b = if layout.b_col_major { b } else { MatrixDesc { ld: 64, ..b } };
        let c = MatrixDesc { ld: 64, ..MatrixDesc::row_major(m, n) };
        for (alpha, beta, count) in [(1.0, 0.0, 1), (1.5, -0.5, 2)] {
            let batch = Batch { count, stride_a: extent(&a) + 8, stride_b: extent(&b) + 8, stride_c: m * 64 + 64 };
            let kernel = KernelChoice::Kernel(spec);
            let case = Case { dtype: spec.dtype, a, b, c, alpha, beta, batch, kernel, split_k: SplitK::Off };
            let what = format!("{} {layout:?}, α {alpha} β {beta} ×{count}", spec.name);
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(spec.dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
        }
    }
}

/// The TMA kernels on operands their TMA cannot read in place (rows, batch
/// strides off 16 bytes: odd K and N), which they read through realigned
/// copies, in every layout, with α, β and batches; and `auto` on an odd
/// shape large enough to take that path.
#[test]
fn tma_kernels_read_misaligned_operands_through_copies() {
    let Some(gpu) = gpu_or_skip("tma_kernels_read_misaligned_operands_through_copies") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    // 3 × 2 tiles of 128×256, K over several stages and not a multiple of 8.
    let (m, n, k) = (263, 389, 301);
    for (spec, layout) in tma_calls(&gpu) {
        let (a, b) = (dense(m, k, layout.a_col_major), dense(k, n, layout.b_col_major));
        let c = MatrixDesc::row_major(m, n);
        for (alpha, beta, count) in [(1.0, 0.0, 1), (1.5, -0.5, 3)] {
            let batch = Batch { count, stride_a: extent(&a) + 3, stride_b: extent(&b) + 1, stride_c: extent(&c) + 5 };
            let kernel = KernelChoice::Kernel(spec);
            let case = Case { dtype: spec.dtype, a, b, c, alpha, beta, batch, kernel, split_k: SplitK::Off };
            let what = format!("{} {layout:?}, α {alpha} β {beta} ×{count}", spec.name);
            let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(spec.dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
            assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
        }
    }
    // Above `REALIGN_MIN_FLOP`: `auto` may realign (on Hopper, step 10's
    // 128×128 tiles; this checks the result, not the choice).
    let (m, n, k) = (1031, 1029, 1027);
    assert!(2 * (m * n * k) as u64 >= gemm_launch::operand_copies::REALIGN_MIN_FLOP);
    for dtype in [Dtype::F16, Dtype::Bf16, Dtype::Tf32] {
        let (a, b, c) = (dense(m, k, false), dense(k, n, true), dense(m, n, false));
        let case = Case {
            dtype,
            a,
            b,
            c,
            alpha: 0.75,
            beta: 0.5,
            batch: Batch::single(),
            kernel: KernelChoice::Auto,
            split_k: SplitK::Auto,
        };
        let what = format!("auto {dtype:?} {m}×{n}×{k}");
        let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
        assert!(gaps_kept, "{what}: wrote outside C (seed {seed})");
    }
}

#[test]
fn memory_bound_shapes_every_layout_alpha_beta_batch() {
    let Some(gpu) = gpu_or_skip("memory_bound_shapes_every_layout_alpha_beta_batch") else { return };
    let sms = gpu.info.multiprocessors as u32;
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    // M = 1, N = 1, M = 16, N = 16, K = 1, odd K, long K; long sides that
    // are no multiple of 32 or of 16 bytes (element-by-element loads).
    // `auto` runs the 16-bit ones from M = 2 or N = 8 on tensor-core tiles
    // where it can (`tiles_beat_skinny`), and from N = 2 where
    // `few_columns_on_tiles`; each memory-bound kernel is also named below.
    let shapes = [
        (1, 4099, 300),
        (4099, 1, 300),
        (16, 1000, 257),
        (1000, 16, 257),
        (1, 513, 1),
        (700, 3, 1),
        (5, 333, 2049),
        (333, 9, 31),
        (16, 16, 16),
        (2, 64, 4096),
        // More blocks than SMs and K ≥ 512: `auto` gives the 16-bit calls
        // to step 70's skinny tiles, with the large operand's rows on 16
        // bytes or off them (realigned in shared memory, step 72); where
        // the small operand's rows are off (a column-major one, the batch),
        // to step 10's tiles on realigned copies.
        (16, 8200, 512),
        (9000, 8, 520),
        (16, 8201, 600),
        (8200, 16, 777),
        // N of 2 to 7: with A and B row-major, K a multiple of 8 and 2²⁷
        // flop, the 64×16 tiles, B's rows (under 16 bytes) read element by
        // element (PERF.md step 85); otherwise step 86's `skinny_mma` with
        // A row-major, the CUDA-core kernels with A column-major.
        (8300, 3, 777),
        (16500, 6, 1024),
        (8400, 7, 513),
        // N of 9 to 16 with A's rows off 16 bytes: step 88's 16-row
        // tensor-core kernel (16-bit, and TF32 with K ≤ 2048); with N even
        // and B row-major, its columns read in pairs (step 91).
        (8300, 12, 777),
        (5003, 14, 777),
        // TF32 N of 8 to 16 over a few long rows of split K (step 93):
        // TF32 `mma.sync` where A is along K; 16-bit: the 64×16 tiles split
        // onto their own twins (step 92).
        (1000, 8, 9001),
        (1000, 16, 9000),
        // Few blocks and K from FEW_TILES_MIN_K to DEEP_K (step 94): split
        // onto the kernels' own twins, TF32 rows on `mma.sync`; K odd, a
        // short last chunk.
        (1000, 16, 4096),
        (333, 5, 6007),
        // Along K over several chunks of S with X's rows off 16 bytes
        // (K odd): shifted into place from aligned loads (PERF.md step 81),
        // the last lane's window reaching into the next chunk.
        (2047, 1, 1025),
        (1000, 3, 1537),
        // f32 r1 along K over several chunks, each loaded a chunk ahead
        // (step 100), K no multiple of a chunk; 16-bit rows of X along L
        // off 16 bytes but on 4 (N even): four 4-byte loads (step 100).
        (3001, 1, 2500),
        (1, 4098, 300),
        // Both sides tiny: the "dot" pattern (long side ≤ DOT_LEN), split
        // over K into the f32-output twins' partial sums where K is deep.
        (1, 1, 70001),
        (7, 5, 30011),
        (8, 2, 1),
    ];
    for dtype in Dtype::ALL {
        for (m, n, k) in shapes {
            for layouts in 0..8 {
                let (a, b, c) =
                    (dense(m, k, layouts & 1 != 0), dense(k, n, layouts & 2 != 0), dense(m, n, layouts & 4 != 0));
                // β = 0 on NaN-filled C, then α, β and a batch whose matrices
                // start off 16-byte boundaries.
                for (alpha, beta, count) in [(1.0, 0.0, 1), (-1.5, 0.5, 3)] {
                    let batch = match count {
                        1 => Batch::single(),
                        _ => Batch {
                            count,
                            stride_a: extent(&a) + 3,
                            stride_b: extent(&b) + 1,
                            stride_c: extent(&c) + 2,
                        },
                    };
                    let case =
                        Case { dtype, a, b, c, alpha, beta, batch, kernel: KernelChoice::Auto, split_k: SplitK::Auto };
                    let what =
                        format!("{dtype:?} {m}×{n}×{k}, {a:?} {b:?} {c:?}, α {alpha} β {beta} ×{count} (seed {seed})");
                    let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
                    // TF32 requests run in exact f32 on the CUDA-core
                    // memory-bound kernels: hold them to f32's bound there
                    // (all but M of 8 or more rows as the kernel sees the
                    // call, which computes a column-major C as its
                    // transpose: those run on TF32 tiles; and N of 9 to 16
                    // over short rows, or 8 to 16 over a few long ones, on
                    // step 88's TF32 `mma.sync`).
                    // A column-major C swaps A and B and flips both.
                    let swapped = layouts & 4 != 0;
                    let (kernel_m, kernel_n) = if swapped { (n, m) } else { (m, n) };
                    let (a_col, b_col) = (layouts & 1 != 0, layouts & 2 != 0);
                    let (kernel_a_col, kernel_b_col) = if swapped { (!b_col, !a_col) } else { (a_col, b_col) };
                    let (km, kn) = (kernel_m as u32, kernel_n as u32);
                    let mma_takes = skinny_mma_for(dtype, km.min(kn))
                        .is_some_and(|s| mma_refusal(&s, km, kn, kernel_a_col, kernel_b_col).is_none());
                    let on_tensor_cores = tiles_beat_skinny(dtype, km, kn)
                        || (streams_on_tensor_cores(dtype, (kernel_m, kernel_n, k), sms) && mma_takes);
                    let exact = dtype == Dtype::Tf32 && !on_tensor_cores;
                    let bound = if exact { Dtype::F32 } else { dtype };
                    assert!(bound.accepts(err, k), "{what}: relative error {err:e}");
                    assert!(gaps_kept, "{what}: wrote outside C");
                }
            }
        }
        // Each memory-bound kernel named, on small sides past its rows per
        // block (several row groups), both ways round, X read along K
        // (row-major A, column-major B; and row-major A and B with N small,
        // column-major with M small: S contiguous along its rows, which the
        // 16-row kernels' along-K ring copies element by element) and along
        // L (the other two; the 16-row kernels' ring), also over 301
        // columns, or a K of 131, whose rows start off 16-byte boundaries,
        // and over more tiles of 32 than an H100 has SMs.
        let cases = [
            (37, 300, 129, false, true),
            (300, 37, 129, false, true),
            (37, 300, 129, false, false),
            (300, 37, 129, true, true),
            (300, 37, 129, false, false),
            (37, 300, 129, true, true),
            (37, 301, 129, false, false),
            (301, 37, 129, true, true),
            (301, 37, 131, false, false),
            (301, 37, 131, false, true),
            (13, 4999, 200, false, false),
            (4999, 13, 200, true, true),
            (4999, 13, 200, false, true),
            (4999, 13, 200, false, false),
            // The "dot" pattern, X along K and along L.
            (7, 5, 3001, false, false),
            (5, 7, 3001, true, true),
            (1, 1, 4097, false, true),
            (8, 3, 517, true, false),
            // Step 86's tensor-core kernels: X's rows off 16 bytes, and a
            // deep K split onto their f32-output twins.
            (5003, 5, 777, false, false),
            (2001, 6, 9001, false, true),
            // Step 88's: two n8 tiles, 13 of 16 rows used, and a split.
            (5003, 13, 777, false, false),
            (2001, 14, 9001, false, true),
        ];
        for spec in dtype.kernels().into_iter().filter(|s| s.algorithm == gemm_launch::Algorithm::MemoryBound) {
            for (m, n, k, a_col_major, b_col_major) in cases {
                let case = Case {
                    dtype,
                    a: dense(m, k, a_col_major),
                    b: dense(k, n, b_col_major),
                    c: dense(m, n, false),
                    alpha: 0.5,
                    beta: 2.0,
                    batch: Batch::single(),
                    kernel: KernelChoice::Kernel(spec),
                    split_k: SplitK::Auto,
                };
                let what = format!("{} on {m}×{n}×{k}, {:?} {:?}", spec.name, case.a, case.b);
                if mma_refusal(spec, m as u32, n as u32, a_col_major, b_col_major).is_some() {
                    let result = run_any(&gpu, &case, &mut rng);
                    assert!(matches!(result, Err(GemmError::Unsupported { .. })), "{what}: {result:?}");
                    continue;
                }
                let (err, gaps_kept) = run_any(&gpu, &case, &mut rng).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (seed {seed})");
                assert!(gaps_kept, "{what}: wrote outside C");
            }
        }
    }
}

/// NaN in every element of A's and B's buffers outside their views (rows
/// padded by 3 and 1 elements, gaps between a batch's matrices): the
/// memory-bound kernels' 16-byte windows reach into them (a row's last K,
/// rows off 16 bytes shifted into place from the granule before or after)
/// and must keep none of it. Each memory-bound kernel named (where it takes
/// the call) and `auto`, three layouts, K odd, and a deep K that splits.
#[test]
fn memory_bound_kernels_keep_nan_padding_out_of_c() {
    let Some(gpu) = gpu_or_skip("memory_bound_kernels_keep_nan_padding_out_of_c") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    for dtype in Dtype::ALL {
        let named = dtype.kernels().into_iter().filter(|s| s.algorithm == Algorithm::MemoryBound);
        let kernels: Vec<_> = named.map(KernelChoice::Kernel).chain([KernelChoice::Auto]).collect();
        for (m, n, k) in [(1000, 5, 777), (333, 3, 130), (5, 1000, 777), (300, 5, 8201), (1000, 13, 777)] {
            for (a_col_major, b_col_major) in [(false, false), (false, true), (true, true)] {
                let padded = |d: MatrixDesc, pad| MatrixDesc { ld: d.ld + pad, ..d };
                let (a, b) = (padded(dense(m, k, a_col_major), 3), padded(dense(k, n, b_col_major), 1));
                let c = dense(m, n, false);
                let batch =
                    Batch { count: 2, stride_a: extent(&a) + 5, stride_b: extent(&b) + 2, stride_c: extent(&c) };
                for &kernel in &kernels {
                    if let KernelChoice::Kernel(spec) = kernel {
                        let refused = mma_refusal(spec, m as u32, n as u32, a_col_major, b_col_major).is_some();
                        if refused || gpu.cannot_run(spec).is_some() {
                            continue;
                        }
                    }
                    let case = Case { dtype, a, b, c, alpha: 1.0, beta: 0.5, batch, kernel, split_k: SplitK::Auto };
                    let what = format!("{dtype:?} {kernel:?} {m}×{n}×{k}, {a:?} {b:?} (seed {seed})");
                    let result = match dtype {
                        Dtype::F32 | Dtype::Tf32 => run_case_with_gaps::<f32>(&gpu, &case, &mut rng, Some(f32::NAN)),
                        Dtype::F16 => run_case_with_gaps::<f16>(&gpu, &case, &mut rng, Some(f32::NAN)),
                        Dtype::Bf16 => run_case_with_gaps::<bf16>(&gpu, &case, &mut rng, Some(f32::NAN)),
                    };
                    let (err, gaps_kept) = result.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(dtype.accepts(err, k), "{what}: relative error {err:e} (NaN from the padding?)");
                    assert!(gaps_kept, "{what}: wrote outside C");
                }
            }
        }
    }
}

/// Step 104's kernels (16-bit, the large operand along the long side),
/// each named and through `auto`: M small with B row-major (NN, TN) and N
/// small with A column-major (TN, TT); rows of X on 8 bytes, off them
/// (N or M odd, padded leading dimensions of NaN, a batch whose matrices
/// start off 8 bytes), the last block's columns read element by element,
/// K of 1 and odd, α and β, and a deep K split onto the f32-output twins.
#[test]
fn along_l_kernels_every_alignment_layout_and_split() {
    let Some(gpu) = gpu_or_skip("along_l_kernels_every_alignment_layout_and_split") else { return };
    let seed = rand::random::<u64>();
    let mut rng = StdRng::seed_from_u64(seed);
    let nn = OperandLayout::NN;
    let tn = OperandLayout { a_col_major: true, b_col_major: false };
    let tt = OperandLayout { a_col_major: true, b_col_major: true };
    let cases = [
        (5, 1003, 777, nn),
        (8, 42212, 501, nn),
        (13, 4999, 200, nn),
        (16, 4096, 512, nn),
        (16, 8201, 600, tn),
        (1003, 6, 777, tn),
        (4999, 13, 200, tt),
        (2, 33, 40, nn),
        (3, 333, 1, nn),
        (6, 2001, 9001, nn),
        (2001, 14, 9001, tt),
    ];
    for dtype in [Dtype::F16, Dtype::Bf16] {
        let named = dtype.kernels().into_iter().filter(|s| s.layouts == gemm_launch::Layouts::AlongL);
        let kernels: Vec<_> = named.map(KernelChoice::Kernel).chain([KernelChoice::Auto]).collect();
        assert_eq!(kernels.len(), 3, "{dtype:?}: two along-L kernels and auto");
        for (m, n, k, layout) in cases {
            for &kernel in &kernels {
                let padded = |d: MatrixDesc, pad| MatrixDesc { ld: d.ld + pad, ..d };
                for (pad, count) in [(0, 1), (3, 2)] {
                    let a = padded(dense(m, k, layout.a_col_major), pad);
                    let b = padded(dense(k, n, layout.b_col_major), pad);
                    let c = dense(m, n, false);
                    let batch = match count {
                        1 => Batch::single(),
                        _ => Batch { count, stride_a: extent(&a) + 1, stride_b: extent(&b) + 3, stride_c: extent(&c) },
                    };
                    let case = Case { dtype, a, b, c, alpha: 0.5, beta: 2.0, batch, kernel, split_k: SplitK::Auto };
                    let what = format!("{dtype:?} {kernel:?} {m}×{n}×{k}, {a:?} {b:?} ×{count} (seed {seed})");
                    let result = match dtype {
                        Dtype::F16 => run_case_with_gaps::<f16>(&gpu, &case, &mut rng, Some(f32::NAN)),
                        _ => run_case_with_gaps::<bf16>(&gpu, &case, &mut rng, Some(f32::NAN)),
                    };
                    let (err, gaps_kept) = result.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(dtype.accepts(err, k), "{what}: relative error {err:e}");
                    assert!(gaps_kept, "{what}: wrote outside C");
                }
            }
        }
    }
}

#[test]
fn beta_zero_never_reads_c() {
    let Some(gpu) = gpu_or_skip("beta_zero_never_reads_c") else { return };
    let mut rng = StdRng::seed_from_u64(rand::random());
    // C starts as NaN; any read of it would leave NaN in the result.
    for dtype in Dtype::ALL {
        for spec in dtype.kernels().into_iter().filter(|s| gpu.cannot_run(s).is_none()) {
            let (n, k) = if spec.algorithm == Algorithm::WarpSpecialized { (136, 40) } else { (130, 33) };
            // N the small side for step 86's kernels, which read A along K;
            // M of 13 for step 104's, which read a row-major B along its rows.
            let along_l = matches!(spec.layouts, gemm_launch::Layouts::AlongL);
            let (m, n) = match (along_l, gemm_launch::memory_bound::on_tensor_cores(spec)) {
                (true, _) => (13, n),
                (false, true) => (n, 67),
                (false, false) => (67, n),
            };
            let (a, b, c) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
            let case = Case {
                dtype,
                a,
                b,
                c,
                alpha: 0.75,
                beta: 0.0,
                batch: Batch::single(),
                kernel: KernelChoice::Kernel(spec),
                split_k: SplitK::Auto,
            };
            let (err, _) = run_any(&gpu, &case, &mut rng).unwrap();
            assert!(dtype.accepts(err, k), "{}: {err:e} (NaN in C leaked through β = 0?)", spec.name);
        }
    }
}

#[test]
fn indices_past_two_to_the_31_elements() {
    let Some(gpu) = gpu_or_skip("indices_past_two_to_the_31_elements") else { return };
    // C is 65536 × 65536 = 2^32 elements: offsets past 2^31 and 2^32 - 1.
    let (m, n, k) = (65536usize, 65536usize, 8usize);
    let mut rng = StdRng::seed_from_u64(rand::random());
    let a_host: Vec<f32> = (0..m * k).map(|_| rng.random_range(-1.0..1.0)).collect();
    let b_host: Vec<f32> = (0..k * n).map(|_| rng.random_range(-1.0..1.0)).collect();
    let bytes = (m * n * 4) as u64;
    if let Err(e) = gpu.ensure_free(bytes + (1 << 30)) {
        let _ = writeln!(std::io::stderr(), "SKIPPED indices_past_two_to_the_31_elements: {e}");
        return;
    }
    let a = gpu.upload(&a_host).unwrap();
    let b = gpu.upload(&b_host).unwrap();
    let mut c: DeviceBuffer<f32> = gpu.alloc_poisoned(m * n).unwrap();
    let rows = [0usize, 1, 32767, 32768, 40000, 65534, 65535];
    // Row-major A with the default f32 kernel, then A read column-major
    // (from its transpose's memory) with the layout-generic kernel.
    let a_t: Vec<f32> = (0..k * m).map(|i| a_host[(i % m) * k + i / m]).collect();
    let a_t_dev = gpu.upload(&a_t).unwrap();
    for (a_view, what) in
        [(MatRef::row_major(&a, m, k), "row-major A"), (MatRef::col_major(&a_t_dev, m, k), "column-major A")]
    {
        gpu.poison(&mut c).unwrap();
        let spec = gpu
            .gemm(&GemmOptions::default(), a_view, MatRef::row_major(&b, k, n), MatMut::row_major(&mut c, m, n))
            .unwrap();
        gpu.stream().synchronize().unwrap();
        for &r in &rows {
            let mut got = vec![0.0f32; n];
            cust::memory::CopyDestination::copy_to(&c.index(r * n..(r + 1) * n), &mut got[..]).unwrap();
            let (mut diff, mut norm) = (0.0f64, 0.0f64);
            for (j, g) in got.iter().enumerate() {
                let want: f64 = (0..k).map(|p| a_host[r * k + p] as f64 * b_host[p * n + j] as f64).sum();
                diff += (*g as f64 - want).powi(2);
                norm += want * want;
            }
            let err = (diff / norm).sqrt();
            assert!(Dtype::F32.accepts(err, k), "{what}, {}: row {r} relative error {err:e}", spec.name);
        }
    }
}

#[test]
fn bad_calls_are_typed_errors() {
    let Some(gpu) = gpu_or_skip("bad_calls_are_typed_errors") else { return };
    let a = gpu.upload(&[1.0f32; 6]).unwrap();
    let b = gpu.upload(&[1.0f32; 6]).unwrap();
    let mut c = gpu.alloc_poisoned::<f32>(4).unwrap();
    let opts = GemmOptions::default();
    let ok = gpu.gemm(&opts, MatRef::row_major(&a, 2, 3), MatRef::row_major(&b, 3, 2), MatMut::row_major(&mut c, 2, 2));
    assert!(ok.is_ok());
    let r = gpu.gemm(&opts, MatRef::row_major(&a, 2, 3), MatRef::row_major(&b, 2, 3), MatMut::row_major(&mut c, 2, 2));
    assert!(matches!(r, Err(GemmError::Shape(_))), "{r:?}");
    let r = gpu.gemm(&opts, MatRef::row_major(&a, 2, 3), MatRef::row_major(&b, 3, 4), MatMut::row_major(&mut c, 2, 4));
    assert!(matches!(r, Err(GemmError::BufferTooSmall { operand: "B", .. })), "{r:?}");
    let r = gpu.gemm(
        &opts,
        MatRef::row_major(&a, 2, 3).with_ld(2),
        MatRef::row_major(&b, 3, 2),
        MatMut::row_major(&mut c, 2, 2),
    );
    assert!(matches!(r, Err(GemmError::BadLeadingDimension { operand: "A", .. })), "{r:?}");
    // A kernel compiled for row-major operands only, asked for a transpose.
    let tiled = KernelChoice::Kernel(&gemm_launch::TILED);
    let r = gpu.gemm(
        &GemmOptions { kernel: tiled, ..opts },
        MatRef::row_major(&a, 3, 2).t(),
        MatRef::row_major(&b, 3, 2),
        MatMut::row_major(&mut c, 2, 2),
    );
    assert!(matches!(r, Err(GemmError::Unsupported { .. })), "{r:?}");
    // A pointer that is not f32-aligned (only `from_raw_parts` can make one).
    let raw = cust::memory::DevicePointer::<f32>::from_raw(a.as_device_ptr().as_raw() + 2);
    let skewed = unsafe { cust::memory::DeviceSlice::from_raw_parts(raw, 5) };
    let r =
        gpu.gemm(&opts, MatRef::row_major(&skewed, 1, 3), MatRef::row_major(&b, 3, 2), MatMut::row_major(&mut c, 1, 2));
    assert!(matches!(r, Err(GemmError::Misaligned { operand: "A", .. })), "{r:?}");
    // An f32-output twin (split-K partial sums only) on a 16-bit C.
    let (h_a, h_b) = (gpu.upload(&[f16::ONE; 6]).unwrap(), gpu.upload(&[f16::ONE; 6]).unwrap());
    let mut h_c = gpu.alloc_poisoned::<f16>(4).unwrap();
    let twin = KernelChoice::Kernel(&gemm_launch::MMA_F16_128X128X32_W32X64_F32OUT);
    let r = gpu.gemm(
        &GemmOptions { kernel: twin, ..opts },
        MatRef::row_major(&h_a, 2, 3),
        MatRef::row_major(&h_b, 3, 2),
        MatMut::row_major(&mut h_c, 2, 2),
    );
    assert!(matches!(r, Err(GemmError::Unsupported { .. })), "{r:?}");
    // The TMA kernel on rows that are not 16-byte multiples (K = 3 f16):
    // it reads realigned copies. On a batch sharing one B (stride 0), which
    // its TMA takes only as whole matrices, it is refused.
    let ws = KernelChoice::Kernel(&gemm_launch::WS_F16_128X256X64);
    if gpu.cannot_run(&gemm_launch::WS_F16_128X256X64).is_none() {
        let r = gpu.gemm(
            &GemmOptions { kernel: ws, ..opts },
            MatRef::row_major(&h_a, 2, 3),
            MatRef::row_major(&h_b, 3, 2),
            MatMut::row_major(&mut h_c, 2, 2),
        );
        assert!(r.is_ok(), "{r:?}");
        assert!(gpu.download(&h_c).unwrap().iter().all(|&x| x == f16::from_f32(3.0)));
        let mut h_c2 = gpu.alloc_poisoned::<f16>(8).unwrap();
        let shared_b = Batch { count: 2, stride_a: 0, stride_b: 0, stride_c: 4 };
        let r = gpu.gemm_strided_batched(
            &GemmOptions { kernel: ws, ..opts },
            MatRef::row_major(&h_a, 2, 3),
            MatRef::row_major(&h_b, 3, 2),
            MatMut::row_major(&mut h_c2, 2, 2),
            &shared_b,
        );
        assert!(matches!(&r, Err(GemmError::Unsupported { reason, .. }) if reason.contains("batch stride")), "{r:?}");
    }
    // A bf16 kernel on f32 buffers.
    let bf16_kernel = KernelChoice::Kernel(find_kernel(Dtype::Bf16, "mma_128x128x32_w32x64").unwrap());
    let r = gpu.gemm(
        &GemmOptions { kernel: bf16_kernel, ..opts },
        MatRef::row_major(&a, 2, 3),
        MatRef::row_major(&b, 3, 2),
        MatMut::row_major(&mut c, 2, 2),
    );
    assert!(matches!(r, Err(GemmError::DtypeMismatch { .. })), "{r:?}");
}

#[test]
fn modules_load_on_first_use_and_only_the_one_needed() {
    use gemm_launch::Arch;
    let Some(gpu) = gpu_or_skip("modules_load_on_first_use_and_only_the_one_needed") else { return };
    assert!(!gpu.is_loaded(Arch::Sm80) && !gpu.is_loaded(Arch::Sm90a), "Gpu::new loads no module");
    let (m, n, k) = (64, 64, 64);
    let a = gpu.upload(&vec![1.0f32; m * k]).unwrap();
    let b = gpu.upload(&vec![1.0f32; k * n]).unwrap();
    let mut c = gpu.alloc_poisoned::<f32>(m * n).unwrap();
    // An f32 GEMM, first called on another thread than the Gpu's: the sm_80
    // module loads there (into the Gpu's context), and nothing else does.
    let opts = GemmOptions { split_k: SplitK::Off, ..GemmOptions::default() };
    std::thread::scope(|scope| {
        let (a, b, c) = (MatRef::row_major(&a, m, k), MatRef::row_major(&b, k, n), MatMut::row_major(&mut c, m, n));
        let (gpu, opts) = (&gpu, &opts);
        scope.spawn(move || gpu.gemm(opts, a, b, c)).join().unwrap()
    })
    .unwrap();
    assert!(gpu.download(&c).unwrap().iter().all(|&x| x == k as f32));
    assert!(gpu.is_loaded(Arch::Sm80));
    assert!(!gpu.is_loaded(Arch::Sm90a), "an f32 GEMM needs no Hopper module");
    // On Hopper, a `wgmma` kernel of a fresh Gpu loads the sm_90a module alone.
    if gpu.is_hopper() {
        let gpu = Gpu::new().unwrap();
        let spec = &gemm_launch::WGMMA_F16_128X256X64;
        assert_eq!(gpu.cannot_run(spec), None);
        assert!(gpu.is_loaded(Arch::Sm90a) && !gpu.is_loaded(Arch::Sm80));
    }
}
