//! Criterion benchmarks: one group per dtype (f32, tf32, f16, bf16), each at
//! the seeds' shape 8192×4096×6144 and at 4096³, with the ladder's endpoints
//! for the dtype, the kernel `gemm --kernel auto` picks (`auto=<kernel>`) and
//! cuBLAS on the same buffers. Every entry is checked against the f64
//! reference before it is timed, and timed the same way: CUDA events recorded
//! on the GPU's stream around a sample's back-to-back launches, so a sample
//! is device time (no host gaps between launches, no JIT: the check ran
//! first). Throughput prints as FLOP/s (2·M·N·K per launch).
//!
//! `cargo bench` runs everything (sized to finish in under three minutes on
//! an H100: 10 samples, 2 s each entry);
//! `cargo bench -- <regex>` selects by id, `<dtype>/<M>x<N>x<K>/<kernel>`:
//! `'^f16/'`, `'^f32/4096'`, `wgmma`, `cublas`. Without a GPU it prints why and
//! exits 0.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use cust::event::{Event, EventFlags};
use cust::stream::Stream;
use gemm_launch::KernelSpec;
use rgemm::cublas::Cublas;
use rgemm::kernels::{find_kernel, short_name};
use rgemm::run::Problem;
use rgemm::{Dtype, DtypeExt, Element, GemmError, Gpu};
use std::time::Duration;

/// The seeds' shape and the square one, as (M, N, K).
const SHAPES: [(usize, usize, usize); 2] = [(8192, 4096, 6144), (4096, 4096, 4096)];

/// The ladder's endpoints for each dtype, by the `--kernel` names: the
/// first kernel and the warp-tiled one (step 7b) for f32; the `mma.sync`
/// tensor-core kernel and the Hopper `wgmma` kernel for the others.
fn endpoints(dtype: Dtype) -> [&'static str; 2] {
    match dtype {
        Dtype::F32 => ["naive", "wt_256x128x8"],
        Dtype::Tf32 => ["mma_128x128x32", "wgmma_256x128x32"],
        Dtype::F16 | Dtype::Bf16 => ["mma_128x128x32_w32x64", "wgmma_128x256x64"],
    }
}

/// What one entry launches.
#[derive(Clone, Copy)]
enum Launch<'c> {
    Kernel(&'static KernelSpec, Option<u32>),
    Cublas(&'c Cublas),
}

/// Device time between two CUDA events recorded on the GPU's stream around
/// a sample's launches: what the GPU spent running them, not the host's
/// enqueueing. Values are nanoseconds, as with criterion's wall time.
struct DeviceTime<'s> {
    stream: &'s Stream,
}

impl Measurement for DeviceTime<'_> {
    type Intermediate = Event;
    type Value = Duration;

    fn start(&self) -> Event {
        let event = Event::new(EventFlags::DEFAULT).expect("CUDA event creation");
        event.record(self.stream).expect("CUDA event record");
        event
    }

    fn end(&self, start: Event) -> Duration {
        let stop = self.start();
        // A launch that failed on the device reports here.
        stop.synchronize().expect("timed launches");
        stop.elapsed(&start).expect("CUDA event timing")
    }

    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &FlopFormatter
    }
}

/// Times as criterion prints them; throughput in FLOP/s, where the group's
/// `Throughput::Elements` holds the FLOPs of one launch (criterion's own
/// formatter would call them "elem/s").
struct FlopFormatter;

/// SI prefixes from 10¹² down, with the unit each throughput kind prints.
const FLOPS: [&str; 5] = ["TFLOP/s", "GFLOP/s", "MFLOP/s", "kFLOP/s", "FLOP/s"];
const BYTES: [&str; 5] = ["TB/s", "GB/s", "MB/s", "kB/s", "B/s"];
const BITS: [&str; 5] = ["Tb/s", "Gb/s", "Mb/s", "kb/s", "b/s"];

impl ValueFormatter for FlopFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (per_ns, unit) = match typical_ns {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= per_ns);
        unit
    }

    fn scale_throughputs(&self, typical_ns: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let (count, units) = match *throughput {
            Throughput::Elements(flops) => (flops as f64, FLOPS),
            Throughput::Bytes(bytes) | Throughput::BytesDecimal(bytes) => (bytes as f64, BYTES),
            Throughput::Bits(bits) => (bits as f64, BITS),
        };
        let per_second = |ns: f64| count * 1e9 / ns;
        let typical = per_second(typical_ns);
        let (scale, unit) =
            [1e12, 1e9, 1e6, 1e3, 1.0].into_iter().zip(units).find(|&(s, _)| typical >= s).unwrap_or((1.0, units[4]));
        values.iter_mut().for_each(|v| *v = per_second(*v) / scale);
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn main() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(GemmError::NoGpu(why)) => {
            eprintln!("benches skipped: no GPU ({why})");
            return;
        }
        Err(e) => fail(e),
    };
    let cublas = Cublas::load(gpu.stream()).inspect_err(|e| eprintln!("cuBLAS left out of the benches: {e}")).ok();
    let mut criterion = Criterion::default()
        .with_measurement(DeviceTime { stream: gpu.stream() })
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .nresamples(10_000)
        .configure_from_args();
    let result = bench_dtype::<f32>(&mut criterion, &gpu, cublas.as_ref(), Dtype::F32)
        .and_then(|()| bench_dtype::<f32>(&mut criterion, &gpu, cublas.as_ref(), Dtype::Tf32))
        .and_then(|()| bench_dtype::<half::f16>(&mut criterion, &gpu, cublas.as_ref(), Dtype::F16))
        .and_then(|()| bench_dtype::<half::bf16>(&mut criterion, &gpu, cublas.as_ref(), Dtype::Bf16));
    if let Err(e) = result {
        fail(e);
    }
    criterion.final_summary();
}

fn fail(e: GemmError) -> ! {
    eprintln!("benches failed: {e}");
    std::process::exit(1)
}

/// The dtype's group: for each shape, its entries on one problem.
fn bench_dtype<T: Element>(
    criterion: &mut Criterion<DeviceTime<'_>>,
    gpu: &Gpu,
    cublas: Option<&Cublas>,
    dtype: Dtype,
) -> Result<(), GemmError> {
    let mut kernels = Vec::new();
    for name in endpoints(dtype) {
        let spec = find_kernel(dtype, name)?;
        match gpu.cannot_run(spec) {
            Some(reason) => println!("{}/{name} skipped: {reason}", dtype.name()),
            None => kernels.push(spec),
        }
    }
    let mut group = criterion.benchmark_group(dtype.name());
    // The same number of launches in every sample: the naive kernel takes
    // tens of milliseconds at these shapes, and linear sampling would run it
    // 55 times per sample set.
    group.sampling_mode(SamplingMode::Flat);
    for (m, n, k) in SHAPES {
        group.throughput(Throughput::Elements(2 * (m * n * k) as u64));
        let choice = rgemm::tune::choose(gpu, dtype, m, n, k);
        let auto = choice.spec(dtype)?;
        // An endpoint that is also the pick runs once, as the pick.
        let is_auto = |spec: &KernelSpec| spec.name == auto.name && spec.default_group_m == choice.group_m;
        let mut entries: Vec<(String, Launch)> = kernels
            .iter()
            .filter(|spec| !is_auto(spec))
            .map(|&spec| (short_name(spec).to_string(), Launch::Kernel(spec, None)))
            .collect();
        entries.push((format!("auto={}", short_name(auto)), Launch::Kernel(auto, Some(choice.group_m))));
        entries.extend(cublas.map(|cublas| ("cublas".to_string(), Launch::Cublas(cublas))));
        // Made by the first entry the filter lets through, so that a filtered
        // run draws no inputs it does not time.
        let mut problem = None;
        for (name, launch) in entries {
            bench_entry::<T>(&mut group, gpu, &mut problem, (dtype, m, n, k), &name, launch);
        }
    }
    group.finish();
    Ok(())
}

/// One entry: checked against the reference on its first call, then timed.
/// Criterion's callback cannot return an error, so a problem that cannot be
/// set up, or a wrong result, stops the bench with a message.
fn bench_entry<T: Element>(
    group: &mut BenchmarkGroup<'_, DeviceTime<'_>>,
    gpu: &Gpu,
    problem: &mut Option<Problem<T>>,
    (dtype, m, n, k): (Dtype, usize, usize, usize),
    name: &str,
    launch: Launch,
) {
    let id = format!("{}/{m}x{n}x{k}/{name}", dtype.name());
    let mut checked = false;
    group.bench_function(BenchmarkId::new(format!("{m}x{n}x{k}"), name), |b| {
        let problem = problem.get_or_insert_with(|| {
            Problem::new(gpu, dtype, m, n, k, &mut rand::rng())
                .unwrap_or_else(|e| panic!("{id}: cannot set up the problem: {e}"))
        });
        if !checked {
            let rel_err = match launch {
                Launch::Kernel(spec, group_m) => problem.check(gpu, spec, group_m),
                Launch::Cublas(cublas) => problem.baseline(gpu, cublas, 1).map(|b| b.rel_err),
            }
            .unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(dtype.accepts(rel_err, k), "{id} is wrong (relative error {rel_err:e}); not timing it");
            checked = true;
        }
        match launch {
            Launch::Kernel(spec, group_m) => b.iter(|| problem.launch(gpu, spec, group_m).expect("launch")),
            Launch::Cublas(cublas) => b.iter(|| problem.launch_cublas(cublas).expect("cuBLAS")),
        }
    });
}
