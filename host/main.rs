//! `gemm`: runs our GEMM kernels on the GPU, checks each against an f64
//! reference and times it beside cuBLAS. See `gemm --help`.

use clap::{Args, Parser, Subcommand};
use half::{bf16, f16};
use rgemm::api::choice::rows_kernel_for_split;
use rgemm::cublas::{Cublas, CublasLibrary};
use rgemm::driver::launch::packed_call_refusal;
use rgemm::kernels::{Dtype, DtypeExt, MAX_DIM, find_kernel, parse_dtype, short_name};
use rgemm::run::{Baseline, Problem, RunResult};
use rgemm::sweep::SweepShape;
use rgemm::trace;
use rgemm::tune::{self, Choice};
use rgemm::{Element, GemmError, Gpu, Result, SplitK};
use std::cell::{Cell, OnceCell};
use std::process::ExitCode;
use std::thread::{self, ScopedJoinHandle};

/// The seeds' benchmark shape: A 8192×6144 times B 6144×4096.
const DEFAULT_M: u64 = 8192;
const DEFAULT_N: u64 = 4096;
const DEFAULT_K: u64 = 6144;
/// The naive kernel runs on a shape reduced until it has at most this many
/// flops (the full seeds' shape would take seconds per launch).
const NAIVE_MAX_FLOPS: f64 = 6.0e10;

#[derive(Parser)]
#[command(
    name = "gemm",
    version,
    about = "Rust GEMM kernels on NVIDIA GPUs: validated against f64, timed against cuBLAS"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    shape: Shape,
    /// Kernel to run: `all` (every kernel, in ladder order), `auto` (the tuned
    /// or built-in default for the shape), or a name from --list-kernels.
    #[arg(long, default_value = "all")]
    kernel: String,
    /// Grouped tile order (GROUP_M): 1 turns grouping off. Default: each
    /// kernel's own (or the tuned value with --kernel auto).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    group_m: Option<u32>,
    /// Split-K: `auto` (split deep K and few-tile shapes), `off`, or a chunk
    /// of K (e.g. 4096).
    #[arg(long, default_value = "auto", value_parser = parse_split_k)]
    split_k: SplitK,
    /// Print one JSON object per result instead of a table.
    #[arg(long)]
    json: bool,
    /// List the kernels with their tiles and the driver's register/memory report.
    #[arg(long)]
    list_kernels: bool,
    /// Skip the cuBLAS comparison.
    #[arg(long)]
    no_cublas: bool,
}

#[derive(Args, Clone)]
struct Shape {
    // M, N, K: help texts and the parser's range both come from MAX_DIM,
    // the limit the library checks.
    #[arg(long, global = true, default_value_t = DEFAULT_M, value_parser = dim_parser(), help = dim_help("Rows of A and C"))]
    m: u64,
    #[arg(long, global = true, default_value_t = DEFAULT_N, value_parser = dim_parser(), help = dim_help("Columns of B and C"))]
    n: u64,
    #[arg(long, global = true, default_value_t = DEFAULT_K, value_parser = dim_parser(), help = dim_help("Columns of A, rows of B"))]
    k: u64,
    #[arg(long, global = true, default_value = "all", help = dtype_help())]
    dtype: String,
    /// Timed launches per kernel (median reported).
    #[arg(long, global = true, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iters: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Time every tile configuration and tile order for the shape; store the
    /// fastest in the tuning cache, which `--kernel auto` then uses.
    Tune,
    /// Run `--kernel auto` beside cuBLAS on a grid of shapes (default: squares
    /// 256..16384 plus deep-K, matrix–vector, shallow-K and odd shapes) for
    /// each dtype; write CSV, JSON and an SVG plot.
    Sweep(SweepArgs),
    /// Derive the built-in choice's wave thresholds from saved `gemm` runs of
    /// named kernels (no GPU needed): for each pair of neighbours in a
    /// dtype's list measured at the same shapes, from how many quarters of
    /// a wave the first wins, beside the number in the code.
    Rules(RulesArgs),
}

#[derive(Args)]
struct RulesArgs {
    /// Text output of `gemm --kernel NAME` runs (e.g. device-check's `mid`
    /// and `tf32mid` logs).
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
}

#[derive(Args)]
struct SweepArgs {
    /// Shapes to run instead of the default grid: `MxNxK[,MxNxK...]`.
    #[arg(long)]
    shapes: Option<String>,
    /// Folder for sweep.csv, sweep.json and sweep.svg (created if missing).
    #[arg(long, default_value = "sweep-out")]
    out: std::path::PathBuf,
}

fn dim_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_DIM as u64)
}

fn dim_help(what: &str) -> String {
    format!("{what}: 1 to {MAX_DIM} (the kernels' 32-bit index limit)")
}

fn dtype_help() -> String {
    let names: Vec<&str> = supported_dtypes().iter().map(|d| d.name()).collect();
    format!(
        "Element type: f32 (exact, CUDA cores), tf32 (f32 data, tensor cores with TF32 operands), f16 or bf16 \
         (tensor cores, f32 accumulation), or all (every type this build has kernels for). This build: {}, all",
        names.join(", ")
    )
}

fn supported_dtypes() -> Vec<Dtype> {
    Dtype::ALL.into_iter().filter(|d| !d.kernels().is_empty()).collect()
}

/// `gemm rules`: reads the runs, prints one line per measured pair.
fn rules(args: &RulesArgs) -> ExitCode {
    let (mut sms, mut measurements) = (None, Vec::new());
    for file in &args.files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => return refuse(&format!("cannot read {}: {e}", file.display())),
        };
        let (file_sms, found) = rgemm::bench::rules::parse_gemm_output(&text);
        match (sms, file_sms) {
            (Some(a), Some(b)) if a != b => {
                return refuse(&format!("{} is from a GPU with {b} SMs, the others from one with {a}", file.display()));
            }
            (None, found_sms) => sms = found_sms,
            _ => {}
        }
        measurements.extend(found);
    }
    let Some(sms) = sms else {
        return refuse("no `device: ... (sm_XX, N SMs)` line in the runs: which GPU they are from is unknown");
    };
    let rules = rgemm::bench::rules::derive_rules(&measurements, sms);
    if rules.is_empty() {
        return refuse("no two neighbouring kernels of a dtype's list were measured at the same shape");
    }
    println!(
        "{} measurements, {sms} SMs; quarters of a wave (4 × tiles / SMs) from which each kernel is taken:",
        measurements.len()
    );
    for rule in rules {
        println!("{rule}");
    }
    ExitCode::SUCCESS
}

/// A request `gemm` refuses: one `error: ...` line on stderr and exit code
/// 2, as clap's own usage errors.
fn refuse(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// Order: parse and check the request (no GPU needed) → open the GPU →
/// check the memory the request needs → run. A bad request does no GPU work.
/// cuBLAS, when the request compares with it, loads on a thread of its own
/// meanwhile ([`PendingCublas`]). `RGEMM_TRACE=1` prints each phase's time
/// to stderr ([`trace`]).
fn main() -> ExitCode {
    trace::start();
    let cli = match trace::phase(|| "parse and check the request".into(), Cli::try_parse) {
        Ok(cli) => cli,
        // --help and --version: clap prints them and exits 0.
        Err(e) if !e.use_stderr() => e.exit(),
        // clap's message without its usage and tips: one line, like ours.
        Err(e) => {
            let text = e.render().to_string();
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("invalid arguments");
            return refuse(line.strip_prefix("error: ").unwrap_or(line));
        }
    };
    if let Some(Command::Rules(args)) = &cli.command {
        return rules(args);
    }
    let request = match Request::new(&cli) {
        Ok(request) => request,
        Err(message) => return refuse(&message),
    };
    // The shared libraries of cuBLAS open while the driver starts.
    let wants_cublas = !cli.list_kernels && !cli.no_cublas && matches!(cli.command, None | Some(Command::Sweep(_)));
    let library = wants_cublas
        .then(|| thread::Builder::new().name("cublas".into()).spawn(CublasLibrary::open).expect("a thread for cuBLAS"));
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return failed(e),
    };
    match gpu.ensure_free(request.memory.bytes) {
        Ok(()) => {}
        Err(GemmError::OutOfMemory { needed, free }) => {
            return refuse(&format!(
                "{} needs {needed} bytes of device memory; the device has {free} bytes free",
                request.memory.what
            ));
        }
        Err(e) => return failed(e),
    }
    let outcome = thread::scope(|scope| {
        // The handle is made on our context while our inputs are drawn and
        // our kernel's module loads; the first cuBLAS row waits for it.
        let job = library.map(|library| {
            thread::Builder::new()
                .name("cublas".into())
                .spawn_scoped(scope, || {
                    let library = library.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                    gpu.make_current()?;
                    let cublas = library.create(gpu.stream())?;
                    warm_up_cublas(&gpu, &request.baselines);
                    Ok(cublas)
                })
                .expect("a thread for cuBLAS")
        });
        run(&cli, &request, &gpu, &PendingCublas::new(job))
    });
    match outcome {
        Ok(all_passed) => exit_now(gpu, if all_passed { 0 } else { 1 }),
        Err(e) => failed(e),
    }
}

/// Ends the process with `code` once the output is flushed, without
/// tearing down what the OS reclaims anyway: the context, its modules and
/// buffers (62 ms traced on an H100 without cuBLAS), and the exit handlers
/// of cuBLAS and the driver (0.1–0.3 s after `main` on an H100). With the
/// cuBLAS warm-up below, warm runs went from 0.66–0.93 s to 0.60–0.74 s
/// (PERF step 27). `RGEMM_FULL_TEARDOWN=1` keeps the teardown. Under a CUDA tool that injects itself (compute-sanitizer,
/// Nsight: `CUDA_INJECTION64_PATH`), which reports when the context goes,
/// the teardown runs as usual.
fn exit_now(gpu: Gpu, code: u8) -> ExitCode {
    use std::io::Write;
    let tool = std::env::var_os("CUDA_INJECTION64_PATH").is_some_and(|p| !p.is_empty());
    if tool || std::env::var_os("RGEMM_FULL_TEARDOWN").is_some() {
        trace::phase(|| "tear down (modules, buffers, context)".into(), || drop(gpu));
        trace::mark(|| "main returns".into());
        return ExitCode::from(code);
    }
    trace::mark(|| "exit without teardown".into());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    unsafe extern "C" {
        /// POSIX `_exit`: ends the process now, running no atexit handlers
        /// or library destructors.
        fn _exit(status: i32) -> !;
    }
    unsafe { _exit(code.into()) }
}

/// Runs each small problem of `baselines` once through cuBLAS, each on a
/// thread, handle and stream of its own and on scratch buffers, so that the
/// driver loads the cuBLAS kernels those shapes pick (50–80 ms each on an
/// H100, one after another when the comparison first meets them) side by
/// side (measured only together with `exit_now`, PERF step 27;
/// `RGEMM_CUBLAS_WARMUP=0` turns it off). Problems over 16
/// MiB are left out: their timing dominates anyway. Failures are ignored;
/// the comparison itself reports them.
fn warm_up_cublas(gpu: &Gpu, baselines: &[(Dtype, Mnk)]) {
    const MAX_BYTES: u64 = 16 << 20;
    if std::env::var_os("RGEMM_CUBLAS_WARMUP").is_some_and(|v| v == "0") {
        return;
    }
    fn warm<T: Element>(gpu: &Gpu, dtype: Dtype, (m, n, k): Mnk) -> Result<()> {
        use rgemm::error::During;
        gpu.make_current()?;
        let stream =
            cust::stream::Stream::new(cust::stream::StreamFlags::NON_BLOCKING, None).during("stream creation")?;
        let cublas = Cublas::load(&stream)?;
        let zeros = |len: usize| gpu.upload(&vec![T::from_f32(0.0); len]);
        let (a, b, mut c) = (zeros(m * k)?, zeros(k * n)?, zeros(m * n)?);
        cublas.gemm(dtype, &a, &b, &mut c, m, n, k)?;
        stream.synchronize().during("cuBLAS warm-up")
    }
    trace::phase(
        || "cuBLAS warm-up".into(),
        || {
            thread::scope(|scope| {
                for &(dtype, at) in baselines {
                    if problem_bytes(dtype, at.0, at.1, at.2) > MAX_BYTES {
                        continue;
                    }
                    let name = format!("cublas {} {}×{}×{}", dtype.name(), at.0, at.1, at.2);
                    let job = move || {
                        trace::phase(
                            || "warm-up".into(),
                            || match dtype {
                                Dtype::F32 | Dtype::Tf32 => warm::<f32>(gpu, dtype, at),
                                Dtype::F16 => warm::<f16>(gpu, dtype, at),
                                Dtype::Bf16 => warm::<bf16>(gpu, dtype, at),
                            },
                        )
                    };
                    let _ = thread::Builder::new().name(name).spawn_scoped(scope, job);
                }
            })
        },
    );
}

/// cuBLAS for the comparison, being set up on its own thread: `get` waits
/// for it the first time (and says once on stderr if it failed, after which
/// the comparison is off).
struct PendingCublas<'scope> {
    job: Cell<Option<ScopedJoinHandle<'scope, Result<Cublas>>>>,
    ready: OnceCell<Option<Cublas>>,
}

impl<'scope> PendingCublas<'scope> {
    fn new(job: Option<ScopedJoinHandle<'scope, Result<Cublas>>>) -> Self {
        PendingCublas { job: Cell::new(job), ready: OnceCell::new() }
    }

    /// cuBLAS, once it is ready; None if the request does not compare with
    /// it or it did not load.
    fn get(&self) -> Option<&Cublas> {
        self.ready
            .get_or_init(|| {
                let job = self.job.take()?;
                let joined = trace::phase(|| "wait for cuBLAS".into(), || job.join());
                match joined.unwrap_or_else(|panic| std::panic::resume_unwind(panic)) {
                    Ok(cublas) => Some(cublas),
                    Err(e) => {
                        eprintln!("gemm: cuBLAS comparison off: {e}");
                        None
                    }
                }
            })
            .as_ref()
    }
}

/// A failure once the request was accepted: no GPU is exit code 2 (nothing
/// ran), anything else 1.
fn failed(e: GemmError) -> ExitCode {
    match e {
        GemmError::NoGpu(reason) => {
            eprintln!("gemm: no usable NVIDIA GPU ({reason}); nothing was run");
            ExitCode::from(2)
        }
        e => {
            eprintln!("gemm: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_split_k(value: &str) -> std::result::Result<SplitK, String> {
    match value {
        "auto" => Ok(SplitK::Auto),
        "off" => Ok(SplitK::Off),
        chunk => match chunk.parse::<u32>() {
            Ok(c) if c > 0 => Ok(SplitK::Chunk(c)),
            _ => Err(format!("'{chunk}' is not auto, off or a chunk of K (1 to {})", u32::MAX)),
        },
    }
}

/// A command line, checked whole before anything runs: the dtypes, the
/// kernel name, the sweep's shapes, and the device memory the largest step
/// will hold at once. (M, N and K are range-checked by the parser.)
struct Request {
    dtypes: Vec<Dtype>,
    /// `gemm sweep`'s shapes (empty for other commands).
    grid: Vec<SweepShape>,
    memory: Memory,
    /// The problems a benchmark compares with cuBLAS (empty for `tune`,
    /// `sweep` and `--list-kernels`).
    baselines: Vec<(Dtype, Mnk)>,
}

/// A problem's M, N and K.
type Mnk = (usize, usize, usize);

/// The most device memory the request holds at once, and what holds it.
struct Memory {
    bytes: u64,
    what: String,
}

impl Request {
    /// The request, or why it is refused (one line).
    fn new(cli: &Cli) -> std::result::Result<Request, String> {
        let mut dtypes = if cli.shape.dtype == "all" {
            supported_dtypes()
        } else {
            vec![parse_dtype(&cli.shape.dtype).map_err(|e| e.to_string())?]
        };
        if !matches!(cli.kernel.as_str(), "all" | "auto") {
            // A named kernel runs with the dtypes that have it; none is an
            // error (also for `tune` and `sweep`, which ignore it: a typo).
            let known: Vec<Dtype> = dtypes.iter().copied().filter(|&d| find_kernel(d, &cli.kernel).is_ok()).collect();
            if known.is_empty() {
                return Err(unknown_kernel(&cli.kernel, &dtypes));
            }
            if cli.command.is_none() {
                dtypes = known;
            }
        }
        let grid = match &cli.command {
            Some(Command::Sweep(args)) => match &args.shapes {
                Some(list) => rgemm::sweep::parse_shapes(list).map_err(|e| e.to_string())?,
                None => rgemm::sweep::default_grid(),
            },
            _ => Vec::new(),
        };
        let full = cli.shape.mnk();
        // Each step's problems, held at once: per dtype for a benchmark
        // (the full shape, and the naive kernel's reduced one) or a tuning;
        // per dtype and shape for a sweep. Lists allocate nothing.
        let mut steps: Vec<(Dtype, Vec<Mnk>)> = Vec::new();
        for &dtype in &dtypes {
            match &cli.command {
                _ if cli.list_kernels => {}
                None => {
                    let mut shapes: Vec<Mnk> = Vec::new();
                    for spec in requested_kernels(dtype, &cli.kernel) {
                        let at = spec.map_or(full, |s| shape_for(s, full));
                        if !shapes.contains(&at) {
                            shapes.push(at);
                        }
                    }
                    steps.push((dtype, shapes));
                }
                Some(Command::Tune) => steps.push((dtype, vec![full])),
                Some(Command::Sweep(_)) => steps.extend(grid.iter().map(|s| (dtype, vec![(s.m, s.n, s.k)]))),
                Some(Command::Rules(_)) => unreachable!("`gemm rules` returns before the request is checked"),
            }
        }
        let memory = steps
            .iter()
            .map(|(dtype, shapes)| Memory {
                bytes: shapes.iter().map(|&(m, n, k)| problem_bytes(*dtype, m, n, k)).fold(0, u64::saturating_add),
                what: format!(
                    "{} {} (A, B and C)",
                    dtype.name(),
                    shapes.iter().map(|(m, n, k)| format!("{m}×{n}×{k}")).collect::<Vec<_>>().join(" and ")
                ),
            })
            .max_by_key(|m| m.bytes)
            .unwrap_or(Memory { bytes: 0, what: "nothing".into() });
        let baselines = match &cli.command {
            None if !cli.list_kernels => {
                steps.iter().flat_map(|(dtype, shapes)| shapes.iter().map(|&at| (*dtype, at))).collect()
            }
            _ => Vec::new(),
        };
        Ok(Request { dtypes, grid, memory, baselines })
    }
}

/// The kernels a benchmark of `dtype` may run for `--kernel`: `None` stands
/// for the one `auto` picks on the GPU, which runs on the full shape.
fn requested_kernels(dtype: Dtype, kernel: &str) -> Vec<Option<&'static gemm_launch::KernelSpec>> {
    match kernel {
        "all" => dtype.kernels().into_iter().map(Some).collect(),
        "auto" => vec![None],
        name => find_kernel(dtype, name).ok().map(Some).into_iter().collect(),
    }
}

/// Bytes of A, B and C of one problem (saturating: an impossible request
/// then fails the memory check instead of wrapping).
fn problem_bytes(dtype: Dtype, m: usize, n: usize, k: usize) -> u64 {
    let elements = (m as u128) * (k as u128) + (k as u128) * (n as u128) + (m as u128) * (n as u128);
    u64::try_from(elements * u128::from(dtype.element_bytes())).unwrap_or(u64::MAX)
}

/// `--kernel NAME` matched by no requested dtype: the message, with every
/// name those dtypes have.
fn unknown_kernel(name: &str, dtypes: &[Dtype]) -> String {
    let mut available: Vec<&str> = Vec::new();
    for spec in dtypes.iter().flat_map(|d| d.kernels()) {
        if !available.contains(&short_name(spec)) {
            available.push(short_name(spec));
        }
    }
    let dtype_names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
    format!("unknown kernel '{name}' for {}; available: {}", dtype_names.join(", "), available.join(", "))
}

/// Returns whether every result passed its check.
fn run(cli: &Cli, request: &Request, gpu: &Gpu, cublas: &PendingCublas) -> Result<bool> {
    let dtypes = &request.dtypes;
    let (cc_major, cc_minor) = gpu.info.compute_capability;
    if !cli.json {
        println!("device: {} (sm_{cc_major}{cc_minor}, {} SMs)", gpu.info.name, gpu.info.multiprocessors);
    }
    if cli.list_kernels {
        list_kernels(gpu, dtypes)?;
        return Ok(true);
    }
    if let Some(Command::Sweep(args)) = &cli.command {
        return sweep(gpu, cublas.get(), dtypes, &request.grid, &cli.shape, args);
    }
    let mut all_ok = true;
    if !cli.json && cli.command.is_none() {
        print_header();
    }
    for &dtype in dtypes {
        // f32 buffers serve f32 and TF32; f16 and bf16 have their own.
        all_ok &= match (dtype, &cli.command) {
            (Dtype::F32 | Dtype::Tf32, Some(Command::Tune)) => tune_shape::<f32>(gpu, dtype, &cli.shape)?,
            (Dtype::F16, Some(Command::Tune)) => tune_shape::<f16>(gpu, dtype, &cli.shape)?,
            (Dtype::Bf16, Some(Command::Tune)) => tune_shape::<bf16>(gpu, dtype, &cli.shape)?,
            (Dtype::F32 | Dtype::Tf32, None) => benchmark::<f32>(gpu, cublas, dtype, cli)?,
            (Dtype::F16, None) => benchmark::<f16>(gpu, cublas, dtype, cli)?,
            (Dtype::Bf16, None) => benchmark::<bf16>(gpu, cublas, dtype, cli)?,
            (_, Some(Command::Sweep(_))) => unreachable!("handled above"),
            (_, Some(Command::Rules(_))) => unreachable!("`gemm rules` returns before the GPU opens"),
        };
    }
    Ok(all_ok)
}

fn list_kernels(gpu: &Gpu, dtypes: &[Dtype]) -> Result<()> {
    println!(
        "{:<22} {:<5} {:<18} {:>12} {:>7} {:>9} {:>5} {:>11}  layouts (A, B)",
        "kernel", "dtype", "algorithm", "tile", "threads", "smem B", "regs", "local B"
    );
    for spec in dtypes.iter().flat_map(|d| d.kernels()) {
        if let Some(reason) = gpu.cannot_run(spec) {
            println!("{:<22} {:<5} not runnable here: {reason}", short_name(spec), spec.dtype.name());
            continue;
        }
        let r = gpu.resources(spec)?;
        let t = spec.tile;
        println!(
            "{:<22} {:<5} {:<18} {:>12} {:>7} {:>9} {:>5} {:>11}  {}",
            short_name(spec),
            spec.dtype.name(),
            format!("{:?}", spec.algorithm),
            format!("{}x{}x{}", t.bm, t.bn, t.bk),
            r.threads,
            r.dynamic_smem_bytes + r.static_smem_bytes as u32,
            r.registers,
            r.local_bytes,
            layouts_here(gpu, spec)
        );
    }
    Ok(())
}

/// The operand layouts `spec` is compiled for, and any of their entries
/// this GPU refuses (on 8.x a layout's entry may spill where `nn` does not).
fn layouts_here(gpu: &Gpu, spec: &gemm_launch::KernelSpec) -> String {
    let mut text = match spec.layouts {
        gemm_launch::Layouts::Any => "any (nn, nt, tn, tt)".to_string(),
        gemm_launch::Layouts::RowMajor => "row-major (nn)".to_string(),
        gemm_launch::Layouts::KMajor => "any (the nt entry; other layouts copied to it transposed)".to_string(),
        gemm_launch::Layouts::NMajorB => "any (the nn entry; other layouts copied to it transposed)".to_string(),
        gemm_launch::Layouts::AlongK => "nn, nt, tt (the large operand along K)".to_string(),
        gemm_launch::Layouts::AlongL => "nn, tn, tt (the large operand along its long side)".to_string(),
    };
    for layout in gemm_launch::OperandLayout::ALL.into_iter().filter(|l| spec.has_entry(*l)) {
        let name = layout.suffix().strip_prefix('_').unwrap_or("nn");
        if let Some(reason) = gpu.entry_cannot_run(spec, layout) {
            text += &format!("; not {name}: {reason}");
        } else if spec.is_unmeasured_in(layout) {
            text += &format!("; {name} not yet run on a GPU");
        }
    }
    text
}

/// Which kernels to run, each with its tile order.
fn selection(gpu: &Gpu, dtype: Dtype, cli: &Cli) -> Result<Vec<(&'static gemm_launch::KernelSpec, Option<u32>)>> {
    let (m, n, k) = cli.shape.mnk();
    Ok(match cli.kernel.as_str() {
        "all" => dtype
            .kernels()
            .into_iter()
            .filter(|s| {
                // Refusals of the operands on the shape the kernel runs on
                // (a memory-bound kernel's small side cut to 16).
                let (m, n, k) = shape_for(s, (m, n, k));
                match gpu.cannot_run(s).or_else(|| packed_call_refusal(s, m, n, k)).or_else(|| unmeasured(s)) {
                    Some(reason) if !cli.json => {
                        println!("{:<22} {:<5} skipped: {reason}", short_name(s), dtype.name());
                        false
                    }
                    Some(_) => false,
                    None => true,
                }
            })
            .map(|s| (s, cli.group_m))
            .collect(),
        "auto" => {
            let choice =
                trace::phase(|| format!("{} kernel choice", dtype.name()), || tune::choose(gpu, dtype, m, n, k));
            // As the library's `auto`: few long TF32 rows left unsplit by
            // `--split-k` run in exact f32.
            let options = rgemm::GemmOptions { split_k: cli.split_k, ..Default::default() };
            let (plan, sms) = (rgemm::tensor_map::packed_plan(m, n, k), gpu.info.multiprocessors.max(0) as u32);
            let cc = gpu.info.compute_capability;
            let spec = rows_kernel_for_split(choice.spec(dtype)?, &options, &plan, sms, cc);
            vec![(spec, cli.group_m.or(Some(choice.group_m)))]
        }
        // A named kernel runs with its own dtype; other dtypes run nothing.
        name => find_kernel(dtype, name).map(|s| vec![(s, cli.group_m)]).unwrap_or_default(),
    })
}

/// Why `--kernel all` leaves out a kernel no GPU has run yet
/// (`KernelSpec::is_unmeasured_in`): it runs only when named.
fn unmeasured(spec: &gemm_launch::KernelSpec) -> Option<String> {
    let nn = gemm_launch::OperandLayout::NN;
    spec.is_unmeasured_in(nn)
        .then(|| format!("not yet run on a GPU; name it (--kernel {}) to run it", short_name(spec)))
}

impl Shape {
    fn mnk(&self) -> Mnk {
        // Each at most MAX_DIM (the parser's range): no truncation.
        (self.m as usize, self.n as usize, self.k as usize)
    }
}

/// The shape a kernel runs on: the naive kernel gets a reduced one on large
/// problems, halving each dimension until it is affordable.
fn shape_for(spec: &gemm_launch::KernelSpec, full: Mnk) -> Mnk {
    let (mut m, mut n, mut k) = full;
    // A memory-bound kernel reads the large operand once per 16 (or fewer)
    // rows of the small side: on a large square that is thousands of passes.
    // It runs on its own class of shape instead: the small side cut to 16.
    let small_side = gemm_launch::memory_bound::MAX_SMALL_SIDE as usize;
    if spec.algorithm == gemm_launch::Algorithm::MemoryBound && m.min(n) > small_side {
        if m <= n {
            m = small_side;
        } else {
            n = small_side;
        }
    }
    if spec.algorithm == gemm_launch::Algorithm::Naive {
        while 2.0 * m as f64 * n as f64 * k as f64 > NAIVE_MAX_FLOPS && m.min(n).min(k) > 1 {
            (m, n, k) = (m.div_ceil(2), n.div_ceil(2), k.div_ceil(2));
        }
    }
    (m, n, k)
}

fn benchmark<T: Element>(gpu: &Gpu, cublas: &PendingCublas, dtype: Dtype, cli: &Cli) -> Result<bool> {
    let mut rng = rand::rng();
    let iters = cli.shape.iters as usize;
    let mut all_ok = true;
    let mut problems: Vec<(Problem<T>, Option<Baseline>)> = Vec::new();
    for (spec, group_m) in selection(gpu, dtype, cli)? {
        let (m, n, k) = shape_for(spec, cli.shape.mnk());
        let slot = match problems.iter().position(|(p, _)| (p.m, p.n, p.k) == (m, n, k)) {
            Some(i) => i,
            None => {
                let mut problem = trace::phase(
                    || format!("{} {m}×{n}×{k} inputs (random, upload, f64 reference)", dtype.name()),
                    || Problem::new(gpu, dtype, m, n, k, &mut rng),
                )?;
                problem.split_k = cli.split_k;
                // Our kernel's module loads (and its entry is checked) now,
                // while cuBLAS may still be loading on its thread; any
                // refusal is reported by the run below.
                trace::phase(|| format!("prepare {}", short_name(spec)), || gpu.cannot_run(spec));
                let baseline = match cublas.get() {
                    Some(c) => Some(trace::phase(
                        || format!("cuBLAS {} {m}×{n}×{k} (check, time)", dtype.name()),
                        || problem.baseline(gpu, c, iters),
                    )?),
                    None => None,
                };
                if let Some(b) = &baseline {
                    let row = baseline_row(gpu, dtype, &problem, b);
                    all_ok &= row.ok;
                    print_row(&row, cli.json);
                }
                problems.push((problem, baseline));
                problems.len() - 1
            }
        };
        let (problem, baseline) = &mut problems[slot];
        let mut row = trace::phase(
            || format!("{} {} (check, time)", short_name(spec), dtype.name()),
            || problem.run(gpu, spec, group_m, iters, baseline.as_ref()),
        )?;
        if (m, n, k) != cli.shape.mnk() {
            row.note = match spec.algorithm {
                gemm_launch::Algorithm::MemoryBound => "small side cut to 16 (a memory-bound kernel)".into(),
                _ => "reduced shape (full one too slow)".into(),
            };
        }
        all_ok &= row.ok;
        print_row(&row, cli.json);
        trace::mark(|| format!("row printed: {} {}", row.kernel, row.dtype));
    }
    Ok(all_ok)
}

fn baseline_row<T: Element>(gpu: &Gpu, dtype: Dtype, p: &Problem<T>, b: &Baseline) -> RunResult {
    RunResult {
        kernel: "cublas".into(),
        dtype: dtype.name(),
        m: p.m,
        n: p.n,
        k: p.k,
        group_m: 0,
        median_ms: b.timing.median_ms,
        tflops: b.tflops,
        rel_err: b.rel_err,
        ok: dtype.accepts(b.rel_err, p.k),
        device: gpu.info.name.clone(),
        cublas_tflops: Some(b.tflops),
        pct_cublas: Some(100.0),
        note: "reference library".into(),
        gbytes_per_s: None,
        pct_bandwidth: None,
    }
    .with_bandwidth(std::mem::size_of::<T>(), gpu.info.peak_bandwidth_gbs)
}

fn print_header() {
    println!(
        "{:<22} {:<5} {:>17} {:>5} {:>10} {:>8} {:>9} {:>9} {:>5}  note",
        "kernel", "dtype", "M×N×K", "group", "median ms", "TFLOP/s", "% cuBLAS", "rel err", "check"
    );
}

fn print_row(r: &RunResult, json: bool) {
    if json {
        println!("{}", serde_json::to_string(r).expect("serializable"));
        return;
    }
    let pct = r.pct_cublas.map_or("n/a".to_string(), |p| format!("{p:.1}"));
    // Memory-bound shapes: the rate that matters, after the note.
    let bandwidth = match (r.gbytes_per_s, r.pct_bandwidth) {
        (Some(gbs), Some(peak)) => format!("  {gbs:.0} GB/s ({peak:.1}% of peak memory bandwidth)"),
        (Some(gbs), None) => format!("  {gbs:.0} GB/s"),
        _ => String::new(),
    };
    println!(
        "{:<22} {:<5} {:>17} {:>5} {:>10.3} {:>8.2} {:>9} {:>9.2e} {:>5}  {}{bandwidth}",
        r.kernel,
        r.dtype,
        format!("{}×{}×{}", r.m, r.n, r.k),
        if r.group_m == 0 { "-".to_string() } else { r.group_m.to_string() },
        r.median_ms,
        r.tflops,
        pct,
        r.rel_err,
        if r.ok { "pass" } else { "FAIL" },
        r.note
    );
}

fn tune_shape<T: Element>(gpu: &Gpu, dtype: Dtype, shape: &Shape) -> Result<bool> {
    let (m, n, k) = shape.mnk();
    // `None`: RGEMM_TUNE_CACHE=off, tune and show but keep nothing.
    let path = tune::cache_path();
    // A cache that cannot be read is said now (once), not after the tuning,
    // and replaced by this tuning's result.
    let mut cache = path.as_deref().and_then(tune::load_or_warn).unwrap_or_default();
    let mut problem = Problem::<T>::new(gpu, dtype, m, n, k, &mut rand::rng())?;
    let total = tune::candidates(gpu, dtype).count() * tune::GROUP_SIZES.len();
    let bar = indicatif::ProgressBar::new(total as u64);
    let trials = tune::tune(gpu, &mut problem, shape.iters as usize, |t| {
        bar.set_message(format!("{} group {}: {:.1} TFLOP/s", t.kernel, t.group_m, t.tflops));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    println!("{} tuning at {m}×{n}×{k}:", dtype.name());
    println!("{:<22} {:>5} {:>10} {:>8} {:>9} {:>5}", "kernel", "group", "median ms", "TFLOP/s", "rel err", "check");
    for t in &trials {
        println!(
            "{:<22} {:>5} {:>10.3} {:>8.2} {:>9.2e} {:>5}",
            t.kernel,
            t.group_m,
            t.median_ms,
            t.tflops,
            t.rel_err,
            if t.ok { "pass" } else { "FAIL" }
        );
    }
    let Some(best) = trials.iter().find(|t| t.ok) else {
        eprintln!("gemm tune: no configuration passed its check; nothing cached");
        return Ok(false);
    };
    let choice = Choice { kernel: best.kernel.clone(), group_m: best.group_m, tflops: Some(best.tflops) };
    // Keyed by this GPU's name: another model never reads it.
    cache.entries.insert(tune::cache_key(&gpu.info.name, dtype, m, n, k), choice);
    let saved = match &path {
        Some(path) => {
            cache.save(path)?;
            format!("saved to {} for {}", path.display(), gpu.info.name)
        }
        None => "not saved (RGEMM_TUNE_CACHE=off)".to_string(),
    };
    println!("best: {} group {} ({:.2} TFLOP/s), {saved}", best.kernel, best.group_m, best.tflops);
    Ok(trials.iter().all(|t| t.ok))
}

/// `gemm sweep`: every shape × dtype, with a progress bar. The request was
/// checked against free memory before; a shape that no longer fits (another
/// process took memory) is reported and skipped, any other error stops.
fn sweep(
    gpu: &Gpu,
    cublas: Option<&Cublas>,
    dtypes: &[Dtype],
    grid: &[SweepShape],
    shape: &Shape,
    args: &SweepArgs,
) -> Result<bool> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| GemmError::Output { path: args.out.display().to_string(), reason: e.to_string() })?;
    let bar = indicatif::ProgressBar::new((grid.len() * dtypes.len()) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .expect("valid template"),
    );
    let (mut rows, mut rng) = (Vec::new(), rand::rng());
    for &dtype in dtypes {
        for &at in grid {
            bar.set_message(format!("{} {}×{}×{}", dtype.name(), at.m, at.n, at.k));
            let iters = shape.iters as usize;
            let measured = match dtype {
                Dtype::F32 | Dtype::Tf32 => rgemm::sweep::measure::<f32>(gpu, cublas, dtype, at, iters, &mut rng),
                Dtype::F16 => rgemm::sweep::measure::<f16>(gpu, cublas, dtype, at, iters, &mut rng),
                Dtype::Bf16 => rgemm::sweep::measure::<bf16>(gpu, cublas, dtype, at, iters, &mut rng),
            };
            match measured {
                Ok(row) => {
                    bar.println(format!(
                        "{:<5} {:<9} {:>19} {:<24} {:>9.3} ms {:>8.2} TFLOP/s {:>7} % cuBLAS {:>8.1} GB/s  err {:.2e} {}",
                        row.dtype,
                        row.class,
                        format!("{}×{}×{}", row.m, row.n, row.k),
                        row.kernel,
                        row.median_ms,
                        row.tflops,
                        row.pct_cublas.map_or("n/a".into(), |p| format!("{p:.1}")),
                        row.gbytes_per_s,
                        row.rel_err,
                        if row.ok { "pass" } else { "FAIL" }
                    ));
                    rows.push(row);
                }
                Err(e @ GemmError::OutOfMemory { .. }) => {
                    bar.println(format!("{} {}×{}×{}: skipped ({e})", dtype.name(), at.m, at.n, at.k))
                }
                Err(e) => return Err(e),
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let title = format!("rgemm vs cuBLAS on {}", gpu.info.name);
    rgemm::sweep::write_csv(&args.out.join("sweep.csv"), &rows)?;
    rgemm::sweep::write_json(&args.out.join("sweep.json"), &rows)?;
    rgemm::sweep::plot_svg(&args.out.join("sweep.svg"), &rows, &title)?;
    let failed = rows.iter().filter(|r| !r.ok).count();
    println!(
        "{} results ({failed} failed their check) written to {}/sweep.{{csv,json,svg}}",
        rows.len(),
        args.out.display()
    );
    Ok(failed == 0)
}
