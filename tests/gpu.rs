//! GPU tests: every kernel on odd and aligned shapes against the f64
//! reference, from NaN-poisoned output. Without a GPU each test prints why it
//! skipped and passes; run them on a GPU machine before calling GPU work done.

use gemm_launch::KERNELS;
use half::{bf16, f16};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rgemm::driver::launch::packed_call_refusal;
use rgemm::kernels::{Dtype, DtypeExt};
use rgemm::run::Problem;
use rgemm::{Element, GemmError, Gpu};
use std::io::Write;

/// The GPU, or `None` after printing why the test is skipped. The message
/// goes straight to stderr so the test harness does not swallow it.
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

/// A fresh seed per run, printed on failure so the run can be replayed.
fn seeded_rng() -> (u64, StdRng) {
    let seed = rand::random();
    (seed, StdRng::seed_from_u64(seed))
}

/// Every kernel of `dtype` on each shape, against its dtype's bound.
fn check_kernels<T: Element>(gpu: &Gpu, dtype: Dtype, shapes: &[(usize, usize, usize)]) {
    let (seed, mut rng) = seeded_rng();
    for &(m, n, k) in shapes {
        let mut problem = Problem::<T>::new(gpu, dtype, m, n, k, &mut rng).unwrap();
        for spec in dtype.kernels() {
            if let Some(reason) = gpu.cannot_run(spec) {
                let _ = writeln!(std::io::stderr(), "SKIPPED {}: {reason}", spec.name);
                continue;
            }
            if let Some(reason) = packed_call_refusal(spec, m, n, k) {
                // Rows the TMA cannot copy, or a large operand along L for
                // step 86's kernels: a clear refusal, never a wrong C.
                let refused = problem.check(gpu, spec, None);
                assert!(matches!(refused, Err(GemmError::Unsupported { .. })), "{}: {refused:?}", spec.name);
                let _ = writeln!(std::io::stderr(), "SKIPPED {} on {m}×{n}×{k}: {reason}", spec.name);
                continue;
            }
            let err = problem.check(gpu, spec, None).unwrap();
            assert!(dtype.accepts(err, k), "{} on {m}×{n}×{k}: relative error {err:e} (seed {seed})", spec.name);
        }
    }
}

/// Every kernel of every dtype.
fn check_all_kernels(gpu: &Gpu, shapes: &[(usize, usize, usize)]) {
    check_kernels::<f32>(gpu, Dtype::F32, shapes);
    check_kernels::<f32>(gpu, Dtype::Tf32, shapes);
    check_kernels::<f16>(gpu, Dtype::F16, shapes);
    check_kernels::<bf16>(gpu, Dtype::Bf16, shapes);
}

#[test]
fn every_kernel_on_the_issue_shapes() {
    let Some(gpu) = gpu_or_skip("every_kernel_on_the_issue_shapes") else { return };
    check_all_kernels(&gpu, &[(1, 1, 1), (17, 33, 65), (1000, 777, 3001), (1024, 1024, 1024)]);
}

#[test]
fn every_kernel_on_tile_edges_and_unaligned_rows() {
    let Some(gpu) = gpu_or_skip("every_kernel_on_tile_edges_and_unaligned_rows") else { return };
    // Primes; one past each tile size; K and N not multiples of 4 or 8 (rows
    // not 16-byte aligned); exact tile multiples; tall-skinny and short-wide;
    // K not a multiple of the 32-deep tensor-core slice.
    check_all_kernels(
        &gpu,
        &[
            (2, 3, 5),
            (129, 131, 67),
            (257, 255, 33),
            (128, 128, 128),
            (64, 192, 16),
            (4099, 7, 13),
            (5, 4100, 9),
            (31, 29, 4097),
            // Rows the TMA can copy (N, K multiples of 8) on tile edges.
            (1009, 1000, 3000),
            (136, 264, 72),
            (4099, 16, 24),
            (8, 8, 8),
        ],
    );
}

#[test]
fn grouped_order_does_not_change_the_result() {
    let Some(gpu) = gpu_or_skip("grouped_order_does_not_change_the_result") else { return };
    let (seed, mut rng) = seeded_rng();
    let mut problem = Problem::<f32>::new(&gpu, Dtype::F32, 1100, 900, 300, &mut rng).unwrap();
    // Groups past the tile rows too, up to u32::MAX: the launch passes them
    // as one group of all rows (`gemm_launch::group_rows`), where 2³¹ + 1
    // once left tiles unwritten and 2³¹ divided by zero.
    let groups = [1, 3, 8, 64, (1 << 31) + 1, 1 << 31, u32::MAX];
    for spec in KERNELS.iter().filter(|s| s.default_group_m > 1 && s.dtype == Dtype::F32) {
        for group in groups {
            let err = problem.check(&gpu, spec, Some(group)).unwrap();
            assert!(Dtype::F32.accepts(err, 300), "{} group {group}: {err:e} (seed {seed})", spec.name);
        }
    }
    // The persistent TMA kernels walk their tiles with the same map.
    let mut problem = Problem::<f16>::new(&gpu, Dtype::F16, 1100, 900, 300, &mut rng).unwrap();
    for spec in KERNELS.iter().filter(|s| s.dtype == Dtype::F16 && s.is_persistent() && !s.features.f32_output) {
        if let Some(reason) = gpu.cannot_run(spec) {
            let _ = writeln!(std::io::stderr(), "SKIPPED {}: {reason}", spec.name);
            continue;
        }
        for group in [1, 8, 1 << 31, u32::MAX] {
            let err = problem.check(&gpu, spec, Some(group)).unwrap();
            assert!(Dtype::F16.accepts(err, 300), "{} group {group}: {err:e} (seed {seed})", spec.name);
        }
    }
}

#[test]
fn unwritten_output_fails_the_check() {
    let Some(gpu) = gpu_or_skip("unwritten_output_fails_the_check") else { return };
    let (_, mut rng) = seeded_rng();
    let mut c = gpu.alloc_poisoned::<f32>(4 * 4).unwrap();
    gpu.poison(&mut c).unwrap();
    let host = gpu.download(&c).unwrap();
    assert!(host.iter().all(|x| x.is_nan()), "poison did not reach every element");
    for bits in [
        gpu.download(&gpu.alloc_poisoned::<f16>(7).unwrap()).unwrap().iter().map(|x| x.to_f32()).collect::<Vec<_>>(),
        gpu.download(&gpu.alloc_poisoned::<bf16>(7).unwrap()).unwrap().iter().map(|x| x.to_f32()).collect(),
    ] {
        assert!(bits.iter().all(|x| x.is_nan()), "16-bit poison is not NaN: {bits:?}");
    }
    let a = rgemm::Matrix::random(4, 4, &mut rng);
    let reference = rgemm::reference::Reference::new(&a, &a, &mut rng);
    assert!(!Dtype::F32.accepts(reference.relative_error(&host), 4));
}

#[test]
fn a_problem_larger_than_device_memory_is_refused() {
    let Some(gpu) = gpu_or_skip("a_problem_larger_than_device_memory_is_refused") else { return };
    // Refused before allocating (the library API's checks are in tests/library.rs).
    let mut rng = StdRng::seed_from_u64(1);
    let huge = 1 << 20;
    let too_big = Problem::<f32>::new(&gpu, Dtype::F32, huge, huge, huge, &mut rng);
    assert!(matches!(too_big, Err(GemmError::OutOfMemory { .. })));
}
