//! Criterion benchmarks of the kernels at 1024³ and 4096³, timed with CUDA
//! events (device time per launch). Without a GPU it prints why and exits.
//! `cargo bench` for all; `cargo bench -- tiled` for one kernel.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cust::event::{Event, EventFlags};
use gemm_launch::KernelSpec;
use rgemm::run::Problem;
use rgemm::{Dtype, DtypeExt, Gpu};
use std::time::Duration;

/// The ladder's endpoints and the tuned kernel's default configuration.
const KERNELS: &[KernelSpec] =
    &[gemm_launch::NAIVE, gemm_launch::TILED, gemm_launch::DB_128X128X8, gemm_launch::DB_256X128X8];

fn kernels(c: &mut Criterion) {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("benches skipped: {e}");
            return;
        }
    };
    let mut rng = rand::rng();
    for size in [1024usize, 4096] {
        let mut problem = Problem::<f32>::new(&gpu, Dtype::F32, size, size, size, &mut rng).expect("problem fits");
        let mut group = c.benchmark_group(format!("sgemm_{size}"));
        group.throughput(Throughput::Elements((2 * size * size * size) as u64));
        group.sample_size(10).warm_up_time(Duration::from_millis(500));
        for spec in KERNELS {
            let err = problem.check(&gpu, spec, None).expect("launch");
            assert!(Dtype::F32.accepts(err, size), "{} is wrong ({err:e}); not timing it", spec.name);
            group.bench_function(rgemm::kernels::short_name(spec), |b| {
                b.iter_custom(|iters| {
                    let (start, stop) =
                        (Event::new(EventFlags::DEFAULT).unwrap(), Event::new(EventFlags::DEFAULT).unwrap());
                    start.record(gpu.stream()).unwrap();
                    for _ in 0..iters {
                        problem.launch(&gpu, spec, None).unwrap();
                    }
                    stop.record(gpu.stream()).unwrap();
                    stop.synchronize().unwrap();
                    stop.elapsed(&start).unwrap()
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);
