//! GPU tests of deep-K accuracy (split-K) and of BLAS semantics for α = 0
//! and β = 0, each against an f64 reference. Without a GPU each test prints
//! why it skipped and passes.
//!
//! The errors are printed (`--nocapture`) for docs/PERF.md: with split-K
//! (the default) and without (`SplitK::Off`, one f32 accumulator per
//! element over all of K).

use half::{bf16, f16};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::{Batch, GemmOptions, KernelChoice, Layout, MatMut, MatRef, MatrixDesc};
use rgemm::kernels::{Dtype, DtypeExt};
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

fn say(line: String) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Offset of element (r, c) of a matrix described by `d`.
fn offset(d: &MatrixDesc, r: usize, c: usize) -> usize {
    match d.layout {
        Layout::RowMajor => r * d.ld + c,
        Layout::ColMajor => c * d.ld + r,
    }
}

/// Elements one matrix of `d` spans.
fn extent(d: &MatrixDesc) -> usize {
    let (run, runs) = match d.layout {
        Layout::RowMajor => (d.cols, d.rows),
        Layout::ColMajor => (d.rows, d.cols),
    };
    (runs - 1) * d.ld + run
}

/// A call on the host: operands (already of element type `T`), C before the
/// call, and the shapes.
struct Call<T> {
    a: Vec<T>,
    b: Vec<T>,
    c: Vec<T>,
    descs: [MatrixDesc; 3],
    batch: Batch,
}

impl<T: Element> Call<T> {
    /// N(0,1) operands; C random (β ≠ 0 reads it) or NaN (`c_nan`).
    fn random(descs: [MatrixDesc; 3], batch: Batch, c_nan: bool, rng: &mut StdRng) -> Self {
        let len = |d: &MatrixDesc, stride: usize| (batch.count - 1) * stride + extent(d);
        let mut random = |n: usize| -> Vec<T> {
            (0..n).map(|_| T::from_f32(rng.sample::<f32, _>(rand_distr::StandardNormal))).collect()
        };
        let (a, b) = (random(len(&descs[0], batch.stride_a)), random(len(&descs[1], batch.stride_b)));
        let c = if c_nan {
            vec![T::from_f32(f32::NAN); len(&descs[2], batch.stride_c)]
        } else {
            random(len(&descs[2], batch.stride_c))
        };
        Call { a, b, c, descs, batch }
    }

    /// Runs the call on the GPU and returns C.
    fn run(&self, gpu: &Gpu, options: &GemmOptions) -> Result<Vec<T>, GemmError> {
        let [a, b, c] = self.descs;
        let (a_dev, b_dev) = (gpu.upload(&self.a)?, gpu.upload(&self.b)?);
        let mut c_dev = gpu.upload(&self.c)?;
        gpu.gemm_strided_batched(
            options,
            MatRef::new(&a_dev, a),
            MatRef::new(&b_dev, b),
            MatMut::new(&mut c_dev, c),
            &self.batch,
        )?;
        gpu.download(&c_dev)
    }

    /// `A·B` in f64 for every matrix of the batch, at C's offsets.
    fn product(&self) -> Vec<f64> {
        let [a, b, c] = &self.descs;
        let (m, k, n) = (a.rows, a.cols, b.cols);
        let mut out = vec![0.0f64; self.c.len()];
        let mut row = vec![0.0f64; n];
        for z in 0..self.batch.count {
            for r in 0..m {
                row.fill(0.0);
                for p in 0..k {
                    let x = self.a[z * self.batch.stride_a + offset(a, r, p)].to_f32() as f64;
                    for (col, acc) in row.iter_mut().enumerate() {
                        *acc += x * self.b[z * self.batch.stride_b + offset(b, p, col)].to_f32() as f64;
                    }
                }
                for (col, v) in row.iter().enumerate() {
                    out[z * self.batch.stride_c + offset(c, r, col)] = *v;
                }
            }
        }
        out
    }

    /// Which elements of the C buffer the views cover.
    fn inside(&self) -> Vec<bool> {
        let c = &self.descs[2];
        let mut inside = vec![false; self.c.len()];
        for z in 0..self.batch.count {
            for r in 0..c.rows {
                for col in 0..c.cols {
                    inside[z * self.batch.stride_c + offset(c, r, col)] = true;
                }
            }
        }
        inside
    }

    /// Relative Frobenius error of `out` over every C of the batch against
    /// `α·product + β·C` in f64 (∞ if anything is not finite).
    fn error(&self, out: &[T], product: &[f64], alpha: f32, beta: f32) -> f64 {
        let (mut diff, mut norm) = (0.0f64, 0.0f64);
        for (i, inside) in self.inside().into_iter().enumerate() {
            if !inside {
                continue;
            }
            let mut want = alpha as f64 * product[i];
            if beta != 0.0 {
                want += beta as f64 * self.c[i].to_f32() as f64;
            }
            let got = out[i].to_f32() as f64;
            if !got.is_finite() {
                return f64::INFINITY;
            }
            diff += (got - want).powi(2);
            norm += want * want;
        }
        if norm > 0.0 { (diff / norm).sqrt() } else { diff.sqrt() }
    }
}

fn dense(m: usize, n: usize, k: usize) -> [MatrixDesc; 3] {
    [MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n)]
}

/// f32 at K up to 10⁶: within the K-dependent bound with split-K (the
/// default), and more accurate than one accumulator over all of K.
#[test]
fn deep_k_f32_is_accurate_with_split_k() {
    let Some(gpu) = gpu_or_skip("deep_k_f32_is_accurate_with_split_k") else { return };
    let mut rng = StdRng::seed_from_u64(0x5eed_0013);
    for (m, n, k) in [(7, 5, 300_001), (129, 131, 70_001), (128, 128, 65_536), (1, 1, 1_000_000), (64, 3, 1_000_000)] {
        let call = Call::<f32>::random(dense(m, n, k), Batch::single(), true, &mut rng);
        let product = call.product();
        let split = call.error(&call.run(&gpu, &GemmOptions::default()).unwrap(), &product, 1.0, 0.0);
        let off = GemmOptions { split_k: SplitK::Off, ..GemmOptions::default() };
        let one = call.error(&call.run(&gpu, &off).unwrap(), &product, 1.0, 0.0);
        let bound = Dtype::F32.tolerance(k);
        say(format!("f32 {m}×{n}×{k}: split-K {split:.2e}, one accumulator {one:.2e}, bound {bound:.2e}"));
        assert!(Dtype::F32.accepts(split, k), "f32 {m}×{n}×{k} with split-K: {split:e} > {bound:e}");
        if m * n >= 35 {
            // Many elements: the error is an average, and chunked sums are
            // several times more accurate than one K-long sum.
            assert!(split * 2.0 < one, "f32 {m}×{n}×{k}: split-K {split:e} vs one accumulator {one:e}");
        }
    }
}

/// Elements of C (inside the views) that differ from the correctly rounded
/// `α·product`: with a 16-bit C the error against f64 is mostly C's own
/// rounding, the same for every correct kernel; what the accumulation adds
/// shows as elements rounded to the wrong neighbour.
fn misrounded<T: Element>(call: &Call<T>, out: &[T], product: &[f64], alpha: f32) -> usize {
    let inside = call.inside();
    (0..out.len())
        .filter(|&i| {
            inside[i] && out[i].to_f32().to_bits() != T::from_f32((alpha as f64 * product[i]) as f32).to_f32().to_bits()
        })
        .count()
}

/// f16 and bf16 at deep K (≥ 300000 included): f32 accumulators, C rounded
/// to 16 bits. Split-K (the default, and explicit chunks) has the partial
/// sums computed in f32 by the dtype's f32-output twin, then reduced and
/// rounded once: within the bound, within 2× of cuBLAS's error on the same
/// inputs (when libcublas loads), and better than one accumulator over all
/// of K, which shows as fewer misrounded elements.
#[test]
fn deep_k_f16_bf16_split_k_within_the_bound_and_better() {
    let Some(gpu) = gpu_or_skip("deep_k_f16_bf16_split_k_within_the_bound_and_better") else { return };
    let cublas = rgemm::cublas::Cublas::load(gpu.stream()).map_err(|e| say(format!("no cuBLAS comparison: {e}"))).ok();
    fn check<T: Element>(gpu: &Gpu, cublas: Option<&rgemm::cublas::Cublas>, dtype: Dtype, rng: &mut StdRng) {
        // Both sides small and M = 1 on the memory-bound kernels' own
        // f32-output twins (PERF.md step 75), then the tiles' twins.
        for (m, n, k) in [(7, 5, 300_001), (1, 300, 100_003), (300, 3, 100_003), (96, 80, 300_001), (129, 131, 70_001)]
        {
            let call = Call::<T>::random(dense(m, n, k), Batch::single(), true, rng);
            let product = call.product();
            let what = format!("{} {m}×{n}×{k}", dtype.name());
            let off = GemmOptions { split_k: SplitK::Off, ..GemmOptions::default() };
            let one_out = call.run(gpu, &off).unwrap();
            let (one, one_wrong) =
                (call.error(&one_out, &product, 1.0, 0.0), misrounded(&call, &one_out, &product, 1.0));
            let reference = cublas.map(|cublas| {
                let (a, b) = (gpu.upload(&call.a).unwrap(), gpu.upload(&call.b).unwrap());
                let mut c = gpu.alloc_poisoned::<T>(m * n).unwrap();
                cublas.gemm(dtype, &a, &b, &mut c, m, n, k).unwrap();
                call.error(&gpu.download(&c).unwrap(), &product, 1.0, 0.0)
            });
            let shown = reference.map_or("n/a".to_string(), |r| format!("{r:.3e}"));
            say(format!("{what}: one accumulator {one:.3e} ({one_wrong} misrounded), cuBLAS {shown}"));
            let (a, b, c) = (&call.descs[0], &call.descs[1], &call.descs[2]);
            for split_k in [SplitK::Auto, SplitK::Chunk(4096)] {
                let options = GemmOptions { split_k, ..GemmOptions::default() };
                let bytes = gpu.gemm_workspace_bytes::<T>(&options, a, b, c, &Batch::single()).unwrap();
                assert!(bytes > 0, "{what} {split_k:?}: not split");
                let out = call.run(gpu, &options).unwrap();
                let (err, wrong) = (call.error(&out, &product, 1.0, 0.0), misrounded(&call, &out, &product, 1.0));
                say(format!("{what} {split_k:?}: {err:.3e} ({wrong} misrounded), bound {:.2e}", dtype.tolerance(k)));
                assert!(dtype.accepts(err, k), "{what} {split_k:?}: {err:e}");
                if let Some(reference) = reference {
                    assert!(err <= 2.0 * reference, "{what} {split_k:?}: {err:e} vs cuBLAS {reference:e}");
                }
                // Enough misrounded elements without a split to be an
                // average: chunked f32 sums at least halve them.
                if one_wrong >= 16 {
                    assert!(2 * wrong <= one_wrong, "{what} {split_k:?}: {wrong} vs {one_wrong} misrounded");
                }
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(0x5eed_0014);
    check::<f16>(&gpu, cublas.as_ref(), Dtype::F16, &mut rng);
    check::<bf16>(&gpu, cublas.as_ref(), Dtype::Bf16, &mut rng);
}

/// α = 0: A and B are not read (they hold NaN) and C = β·C exactly, in every
/// dtype, with batches, a column-major C and K deep enough to split.
#[test]
fn alpha_zero_reads_neither_a_nor_b() {
    let Some(gpu) = gpu_or_skip("alpha_zero_reads_neither_a_nor_b") else { return };
    fn check<T: Element>(gpu: &Gpu, rng: &mut StdRng, allow_tf32: bool) {
        let (m, n) = (37, 19);
        for k in [5, 20_000] {
            let descs = [MatrixDesc::row_major(m, k), MatrixDesc::col_major(k, n), MatrixDesc::col_major(m, n)];
            let batch = Batch { count: 3, stride_a: m * k, stride_b: k * n + 3, stride_c: m * n + 1 };
            for beta in [0.0f32, 0.5, -2.0] {
                let mut call = Call::<T>::random(descs, batch, beta == 0.0, rng);
                call.a.fill(T::from_f32(f32::NAN));
                call.b.fill(T::from_f32(f32::NAN));
                let options = GemmOptions { alpha: 0.0, beta, allow_tf32, ..GemmOptions::default() };
                let out = call.run(gpu, &options).unwrap();
                for (i, inside) in call.inside().into_iter().enumerate() {
                    let before = call.c[i].to_f32();
                    let want = match (inside, beta == 0.0) {
                        (false, _) => before,
                        (true, true) => 0.0,
                        (true, false) => T::from_f32(beta * before).to_f32(),
                    };
                    let got = out[i].to_f32();
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan() && !inside),
                        "{} K={k} β={beta}: C[{i}] = {got}, want {want}",
                        std::any::type_name::<T>()
                    );
                }
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(0x5eed_0015);
    check::<f32>(&gpu, &mut rng, false);
    check::<f32>(&gpu, &mut rng, true);
    check::<f16>(&gpu, &mut rng, false);
    check::<bf16>(&gpu, &mut rng, false);
}

/// β = 0 with NaN in C: C is not read, with or without split-K, in a batch.
#[test]
fn beta_zero_ignores_nan_in_c() {
    let Some(gpu) = gpu_or_skip("beta_zero_ignores_nan_in_c") else { return };
    let mut rng = StdRng::seed_from_u64(0x5eed_0016);
    for (k, split_k) in [(300, SplitK::Auto), (30_000, SplitK::Auto), (30_000, SplitK::Chunk(1000))] {
        let batch = Batch { count: 2, stride_a: 45 * k, stride_b: k * 33, stride_c: 45 * 33 };
        let call = Call::<f32>::random(dense(45, 33, k), batch, true, &mut rng);
        let options = GemmOptions { alpha: 1.25, split_k, ..GemmOptions::default() };
        let err = call.error(&call.run(&gpu, &options).unwrap(), &call.product(), 1.25, 0.0);
        assert!(Dtype::F32.accepts(err, k), "K={k} {split_k:?}: {err:e} (NaN in C read?)");
    }
}

/// Split-K with batches, odd shapes, every operand layout, α and β, explicit
/// chunks that are no multiple of any tile, and TF32: against f64.
#[test]
fn split_k_with_batches_layouts_and_odd_chunks() {
    let Some(gpu) = gpu_or_skip("split_k_with_batches_layouts_and_odd_chunks") else { return };
    let mut rng = StdRng::seed_from_u64(0x5eed_0017);
    let (m, n, k) = (33, 17, 20_001);
    let desc = |rows, cols, col_major: bool| {
        if col_major { MatrixDesc::col_major(rows, cols) } else { MatrixDesc::row_major(rows, cols) }
    };
    for (a_t, b_t, c_t) in [(false, false, false), (true, false, false), (false, true, true), (true, true, true)] {
        let descs = [desc(m, k, a_t), desc(k, n, b_t), desc(m, n, c_t)];
        let batch = Batch { count: 3, stride_a: m * k + 5, stride_b: 0, stride_c: m * n + 2 };
        let call = Call::<f32>::random(descs, batch, false, &mut rng);
        let product = call.product();
        for (split_k, allow_tf32) in
            [(SplitK::Auto, false), (SplitK::Chunk(333), false), (SplitK::Chunk(8000), false), (SplitK::Auto, true)]
        {
            let options = GemmOptions { alpha: 1.5, beta: -0.5, split_k, allow_tf32, ..GemmOptions::default() };
            let err = call.error(&call.run(&gpu, &options).unwrap(), &product, 1.5, -0.5);
            let dtype = if allow_tf32 { Dtype::Tf32 } else { Dtype::F32 };
            assert!(dtype.accepts(err, k), "{a_t} {b_t} {c_t} {split_k:?} tf32={allow_tf32}: {err:e}");
        }
    }
    // An explicit kernel (row-major only) with split-K.
    let call = Call::<f32>::random(dense(70, 90, 9000), Batch::single(), true, &mut rng);
    let kernel = KernelChoice::Kernel(&gemm_launch::DB_128X128X8);
    let options = GemmOptions { kernel, split_k: SplitK::Chunk(1024), ..GemmOptions::default() };
    let err = call.error(&call.run(&gpu, &options).unwrap(), &call.product(), 1.0, 0.0);
    assert!(Dtype::F32.accepts(err, 9000), "db_128x128x8 split-K: {err:e}");
}

/// Split-K sums in a fixed order: two runs give the same bits.
#[test]
fn split_k_is_bitwise_reproducible() {
    let Some(gpu) = gpu_or_skip("split_k_is_bitwise_reproducible") else { return };
    let mut rng = StdRng::seed_from_u64(0x5eed_0018);
    for (m, n, k) in [(7, 5, 300_001), (129, 131, 70_001)] {
        let call = Call::<f32>::random(dense(m, n, k), Batch::single(), true, &mut rng);
        let bits = |out: Vec<f32>| out.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        let first = bits(call.run(&gpu, &GemmOptions::default()).unwrap());
        let second = bits(call.run(&gpu, &GemmOptions::default()).unwrap());
        assert!(first == second, "{m}×{n}×{k}: two runs differ");
    }
}

/// The reduction adds the chunks' sums in its documented tree (groups of 8
/// summed pairwise, level by level; the epilogue's last two levels in one
/// launch, step 74), on splits of one level, two, and three or four (a
/// combine pass before the epilogue). Each chunk's sum is exact (entries ±1–4
/// times one power of two per chunk), the powers differ between chunks so
/// that the order of the additions shows in the rounding, and C must match
/// the tree replayed on the CPU bit for bit, in f32 and, rounded once, f16:
/// a 3×5 C (one block a row) with β = 0 on NaN, and a batch of two 70×300
/// Cs off 16 bytes (several column blocks, an edge block, every block over
/// rows) with α and β.
#[test]
fn split_k_adds_the_chunks_in_the_documented_tree() {
    let Some(gpu) = gpu_or_skip("split_k_adds_the_chunks_in_the_documented_tree") else { return };
    fn check<T: Element>(gpu: &Gpu, kernel: &'static gemm_launch::KernelSpec, max_exponent: i32, rng: &mut StdRng) {
        /// M, N, matrices in the batch, α, β, and the chunk counts.
        struct Case {
            m: usize,
            n: usize,
            count: usize,
            alpha: f32,
            beta: f32,
            split_counts: &'static [usize],
        }
        let chunk = 16usize;
        let cases = [
            Case { m: 3, n: 5, count: 1, alpha: 1.0, beta: 0.0, split_counts: &[5, 9, 64, 65, 100, 513, 600] },
            Case { m: 70, n: 300, count: 2, alpha: 1.5, beta: -0.5, split_counts: &[9, 64, 65, 600] },
        ];
        for Case { m, n, count, alpha, beta, split_counts } in cases {
            for &splits in split_counts {
                let k = splits * chunk;
                let batch = Batch { count, stride_a: m * k, stride_b: k * n, stride_c: m * n + 3 };
                let scale: Vec<f32> =
                    (0..count * splits).map(|_| 2f32.powi(rng.random_range(-max_exponent..=max_exponent))).collect();
                let mut small = || rng.random_range(1..=4) as f32 * if rng.random_bool(0.5) { -1.0 } else { 1.0 };
                let a: Vec<f32> =
                    (0..count * m * k).map(|i| small() * scale[(i / (m * k)) * splits + (i % k) / chunk]).collect();
                let b: Vec<f32> = (0..count * k * n).map(|_| small()).collect();
                let c_len = (count - 1) * batch.stride_c + m * n;
                let c: Vec<T> = (0..c_len).map(|_| T::from_f32(if beta == 0.0 { f32::NAN } else { small() })).collect();
                let call = Call::<T> {
                    a: a.iter().map(|&x| T::from_f32(x)).collect(),
                    b: b.iter().map(|&x| T::from_f32(x)).collect(),
                    c: c.clone(),
                    descs: dense(m, n, k),
                    batch,
                };
                let options = GemmOptions {
                    kernel: KernelChoice::Kernel(kernel),
                    split_k: SplitK::Chunk(chunk as u32),
                    alpha,
                    beta,
                    ..GemmOptions::default()
                };
                let out = call.run(gpu, &options).unwrap();
                for z in 0..count {
                    let (a, b) = (&a[z * m * k..(z + 1) * m * k], &b[z * k * n..(z + 1) * k * n]);
                    for e in 0..m * n {
                        let (row, col) = (e / n, e % n);
                        // Each chunk's sum, exact in f32 (integers times its power of two).
                        let mut parts: Vec<f32> = (0..splits)
                            .map(|s| {
                                let terms =
                                    (s * chunk..(s + 1) * chunk).map(|p| a[row * k + p] as f64 * b[p * n + col] as f64);
                                terms.sum::<f64>() as f32
                            })
                            .collect();
                        while parts.len() > 1 {
                            parts = parts
                                .chunks(8)
                                .map(|g| {
                                    let v: [f32; 8] = std::array::from_fn(|i| g.get(i).copied().unwrap_or(0.0));
                                    ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
                                })
                                .collect();
                        }
                        // `C = α·sum + β·C` as the epilogue forms it: one fma.
                        let at = z * batch.stride_c + e;
                        let scaled =
                            if beta == 0.0 { alpha * parts[0] } else { beta.mul_add(c[at].to_f32(), alpha * parts[0]) };
                        let (got, want) = (out[at].to_f32(), T::from_f32(scaled).to_f32());
                        assert!(
                            got.to_bits() == want.to_bits(),
                            "{} {m}×{n} ×{count}, {splits} chunks, C[{z}][{row}][{col}]: {got:e} against the tree's {want:e}",
                            kernel.name
                        );
                    }
                }
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(0x5eed_0074);
    check::<f32>(&gpu, &gemm_launch::DB_64X64X16, 20, &mut rng);
    check::<f16>(&gpu, &gemm_launch::MMA_F16_128X128X32, 6, &mut rng);
    say("split-K reduction: every tree replayed bit for bit (f32 and f16)".into());
}

/// The workspace: sized by a function, reserved up front (then a call
/// allocates nothing), released.
#[test]
fn workspace_is_sized_reserved_and_released() {
    let Some(gpu) = gpu_or_skip("workspace_is_sized_reserved_and_released") else { return };
    let descs = dense(129, 131, 70_001);
    let options = GemmOptions::default();
    let [a, b, c] = &descs;
    let bytes = gpu.gemm_workspace_bytes::<f32>(&options, a, b, c, &Batch::single()).unwrap();
    assert!(bytes > 0, "deep K splits");
    let shallow = dense(129, 131, 300);
    let [sa, sb, sc] = &shallow;
    assert_eq!(gpu.gemm_workspace_bytes::<f32>(&options, sa, sb, sc, &Batch::single()).unwrap(), 0);
    gpu.reserve_workspace(bytes).unwrap();
    let held = gpu.workspace_bytes();
    assert!(held >= bytes);
    let call = Call::<f32>::random(descs, Batch::single(), true, &mut StdRng::seed_from_u64(19));
    call.run(&gpu, &options).unwrap();
    assert_eq!(gpu.workspace_bytes(), held, "the call fit in the reserved workspace");
    gpu.release_workspace().unwrap();
    assert_eq!(gpu.workspace_bytes(), 0);
}
