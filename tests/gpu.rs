//! GPU tests: every kernel on odd and aligned shapes against the f64
//! reference, from NaN-poisoned output. Without a GPU each test prints why it
//! skipped and passes; run them on a GPU machine before calling GPU work done.

use gemm_launch::F32_KERNELS;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rgemm::kernels::Dtype;
use rgemm::run::Problem;
use rgemm::{GemmError, Gpu};
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

fn check_all_kernels(gpu: &Gpu, shapes: &[(usize, usize, usize)]) {
    let (seed, mut rng) = seeded_rng();
    for &(m, n, k) in shapes {
        let mut problem = Problem::new(gpu, m, n, k, &mut rng).unwrap();
        for spec in F32_KERNELS {
            let err = problem.check(gpu, spec, None).unwrap();
            assert!(Dtype::F32.accepts(err), "{} on {m}×{n}×{k}: relative error {err:e} (seed {seed})", spec.name);
        }
    }
}

#[test]
fn every_kernel_on_the_issue_shapes() {
    let Some(gpu) = gpu_or_skip("every_kernel_on_the_issue_shapes") else { return };
    check_all_kernels(&gpu, &[(1, 1, 1), (17, 33, 65), (1000, 777, 3001), (1024, 1024, 1024)]);
}

#[test]
fn every_kernel_on_tile_edges_and_unaligned_rows() {
    let Some(gpu) = gpu_or_skip("every_kernel_on_tile_edges_and_unaligned_rows") else { return };
    // Primes; one past each tile size; K and N not multiples of 4 (no 128-bit
    // rows); exact tile multiples; tall-skinny and short-wide.
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
        ],
    );
}

#[test]
fn grouped_order_does_not_change_the_result() {
    let Some(gpu) = gpu_or_skip("grouped_order_does_not_change_the_result") else { return };
    let (seed, mut rng) = seeded_rng();
    let mut problem = Problem::new(&gpu, 1100, 900, 300, &mut rng).unwrap();
    for spec in F32_KERNELS.iter().filter(|s| s.default_group_m > 1) {
        for group in [1, 3, 8, 64] {
            let err = problem.check(&gpu, spec, Some(group)).unwrap();
            assert!(Dtype::F32.accepts(err), "{} group {group}: {err:e} (seed {seed})", spec.name);
        }
    }
}

#[test]
fn unwritten_output_fails_the_check() {
    let Some(gpu) = gpu_or_skip("unwritten_output_fails_the_check") else { return };
    let (_, mut rng) = seeded_rng();
    let mut c = gpu.alloc_poisoned(4 * 4).unwrap();
    gpu.poison(&mut c).unwrap();
    let host = gpu.download(&c).unwrap();
    assert!(host.iter().all(|x| x.is_nan()), "poison did not reach every element");
    let a = rgemm::Matrix::random(4, 4, &mut rng);
    let reference = rgemm::reference::Reference::new(&a, &a, &mut rng);
    assert!(!Dtype::F32.accepts(reference.relative_error(&host)));
}

#[test]
fn bad_calls_are_errors_not_panics() {
    let Some(gpu) = gpu_or_skip("bad_calls_are_errors_not_panics") else { return };
    let spec = &gemm_launch::TILED;
    let a = gpu.upload(&[1.0f32; 6]).unwrap();
    let b = gpu.upload(&[1.0f32; 6]).unwrap();
    let mut c = gpu.alloc_poisoned(4).unwrap();
    // 2×3 · 3×2 is fine; 2×3 · 4×2 is not (B too short), nor is M = 0.
    assert!(gpu.sgemm(spec, &a, &b, &mut c, 2, 2, 3, None).is_ok());
    assert!(matches!(gpu.sgemm(spec, &a, &b, &mut c, 2, 2, 4, None), Err(GemmError::Shape(_))));
    assert!(matches!(gpu.sgemm(spec, &a, &b, &mut c, 0, 2, 3, None), Err(GemmError::Shape(_))));
    assert!(matches!(gpu.sgemm(spec, &a, &b, &mut c, 3, 2, 3, None), Err(GemmError::Shape(_))));
    // A problem far larger than device memory is refused before allocating.
    let mut rng = StdRng::seed_from_u64(1);
    let huge = 1 << 20;
    assert!(matches!(Problem::new(&gpu, huge, huge, huge, &mut rng), Err(GemmError::OutOfMemory { .. })));
}
