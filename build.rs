//! Compiles `kernels-gpu` to PTX with rustc's NVPTX backend, then assembles
//! the PTX with ptxas into cubins (machine code), and leaves both in
//! `OUT_DIR`, where `host/driver/ptx.rs` embeds them.
//!
//! It also writes each kernel's launch bounds into the PTX (`.maxntid`,
//! `.minnctapersm`, what CUDA C++ spells `__launch_bounds__`): rustc has no
//! attribute for them, and the numbers come from the same `KernelSpec` the
//! host launches with. ptxas runs on the PTX with the bounds in place.
//!
//! Two modules are built: `sm_80` (steps 1–8, any GPU from Ampere on) and
//! `sm_90a` (step 9, `wgmma`, Hopper only). Each kernel's `KernelSpec::arch`
//! says which module holds it.
//!
//! Why cubins: without them the driver JIT-compiles the PTX on the first run
//! on a machine (42 s on an H100 with an empty driver cache, and on every run
//! where the cache is off or not writable). With them, loading is a copy.
//! The PTX stays embedded: it is what a GPU newer than every cubin (compute
//! capability 10.x, 12.x) runs, through the driver's JIT.
//!
//! Without ptxas (`RGEMM_PTXAS`, set by `.cargo/config.toml` to the one
//! `scripts/bootstrap.sh` installs, else `ptxas` on `PATH`) the build still
//! succeeds, with a cargo warning, and ships PTX only.

use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, exit};

/// (architecture, file name in OUT_DIR). The sm_90a build sets
/// `--cfg rgemm_sm90a`, which compiles only the Hopper kernels (step 9).
const PTX_TARGETS: &[(gemm_launch::Arch, &str)] =
    &[(gemm_launch::Arch::Sm80, "kernels_sm_80.ptx"), (gemm_launch::Arch::Sm90a, "kernels_sm_90a.ptx")];

/// The cubins: (module, ptxas `-arch`, compute capability it runs on, whether
/// only that exact capability runs it). A cubin for `sm_XY` runs on every GPU
/// of major X with minor ≥ Y; an `a` (arch-specific) one only on X.Y.
///
/// The sm_80 module gets an sm_80 cubin (every 8.x GPU: A100, A10, RTX 30/40,
/// L4, L40) and an sm_90 one (H100/H200: what the project measures). No
/// sm_86/sm_89 cubins: ptxas 12.9 output for them differs from sm_80 only in
/// scheduling details (register counts within a few of each other in 33 of
/// 65 entries, the same spills, cubins within 0.2 % in size), each would add
/// 3.7 MB to the binary and ~35 s of ptxas to the build, and no GPU here can
/// measure a difference.
const CUBIN_TARGETS: &[CubinTarget] = &[
    CubinTarget { module: gemm_launch::Arch::Sm80, arch: "sm_80", cc: (8, 0), exact: false },
    CubinTarget { module: gemm_launch::Arch::Sm80, arch: "sm_90", cc: (9, 0), exact: false },
    CubinTarget { module: gemm_launch::Arch::Sm90a, arch: "sm_90a", cc: (9, 0), exact: true },
];

/// One cubin to build (see `host/driver/ptx.rs`'s `Cubin` for the fields).
struct CubinTarget {
    module: gemm_launch::Arch,
    arch: &'static str,
    cc: (i32, i32),
    exact: bool,
}

/// ptxas flags besides `-arch`, `-o` and the input. `-v` prints each entry's
/// registers, stack frame and spills (kept in OUT_DIR as `<target>.ptxas.log`).
/// `-split-compile=0` spreads one module's functions over all cores; its
/// cubins are byte-identical to a serial run's (checked on both modules).
const PTXAS_FLAGS: &[&str] = &["-v", "-split-compile=0"];

/// Codegen flags for the kernels. The unroll threshold makes LLVM fully unroll
/// the per-thread tile loops, so the accumulator arrays live in registers
/// (below it they fall back to a stack frame in local memory).
const KERNEL_RUSTFLAGS: &[&str] = &["-Cllvm-args=-unroll-threshold=6000"];

fn fail(message: &str) -> ! {
    eprintln!("\nerror: could not build the GPU kernels (kernels-gpu → PTX)\n\n{message}\n");
    eprintln!(
        "The kernels need the pinned nightly from rust-toolchain.toml with rust-src, llvm-tools and\n\
         llvm-bitcode-linker; `scripts/bootstrap.sh` installs everything the build needs."
    );
    exit(1);
}

/// Builds the PTX module of `target`, with launch bounds and without
/// comments, and returns where it was written.
fn build_ptx(cargo: &str, kernels: &Path, out_dir: &Path, target: gemm_launch::Arch, file: &str) -> PathBuf {
    let arch = target.name();
    let target_dir = out_dir.join(format!("kernels-{arch}"));
    let mut rustflags = vec![format!("-Ctarget-cpu={arch}")];
    rustflags.extend(KERNEL_RUSTFLAGS.iter().map(|f| f.to_string()));
    if target == gemm_launch::Arch::Sm90a {
        rustflags.extend(["--cfg".to_string(), "rgemm_sm90a".to_string()]);
        // PTX 8.3 for `fence.proxy.tensormap` (step 10); every Hopper driver
        // of CUDA 12.3 or later reads it.
        rustflags.push("-Ctarget-feature=+ptx83".to_string());
    }
    let status = Command::new(cargo)
        .current_dir(kernels)
        .args(["build", "--release", "--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(&target_dir)
        // The outer build's flags are for the host; the nested one gets only ours.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env("CARGO_ENCODED_RUSTFLAGS", rustflags.join("\x1f"))
        .status()
        .unwrap_or_else(|e| fail(&format!("could not run `{cargo}`: {e}")));
    if !status.success() {
        fail(&format!("`cargo build` of kernels-gpu for {arch} failed ({status}); its errors are above."));
    }
    let ptx_path = target_dir.join("nvptx64-nvidia-cuda/release/kernels_gpu.ptx");
    let ptx = std::fs::read_to_string(&ptx_path)
        .unwrap_or_else(|e| fail(&format!("the build left no PTX at {}: {e}", ptx_path.display())));
    let specs: Vec<_> = gemm_launch::KERNELS.iter().copied().filter(|s| s.arch == target).collect();
    let ptx = compact(&with_launch_bounds(ptx, &specs).unwrap_or_else(|e| fail(&e)));
    let path = out_dir.join(file);
    std::fs::write(&path, ptx).unwrap_or_else(|e| fail(&format!("cannot write PTX: {e}")));
    path
}

/// Checks that the PTX has exactly the entries the specs promise (one per
/// supported operand layout), and inserts `.maxntid` and `.minnctapersm`
/// after the parameter list of every entry whose spec asks for a number of
/// blocks per multiprocessor.
fn with_launch_bounds(mut ptx: String, specs: &[gemm_launch::KernelSpec]) -> Result<String, String> {
    for spec in specs {
        for layout in gemm_launch::OperandLayout::ALL {
            let name = format!("{}{}", spec.name, layout.suffix());
            let found = ptx.find(&format!(".entry {name}("));
            let entry = match (found, spec.has_entry(layout)) {
                (Some(entry), true) => entry,
                (None, false) => continue,
                (None, true) => return Err(format!("kernel {name} (from gemm-launch) is not in the PTX")),
                (Some(_), false) => return Err(format!("kernel {name} is in the PTX but its spec does not list it")),
            };
            if spec.min_blocks_per_sm == 0 {
                continue;
            }
            // The parameter list ends at the first line that starts with ')'.
            let close = entry + ptx[entry..].find("\n)").ok_or("unterminated parameter list")? + 2;
            let body = close + ptx[close..].find('\n').ok_or("truncated PTX")? + 1;
            let bounds = format!(".maxntid {}, 1, 1\n.minnctapersm {}\n", spec.threads(), spec.min_blocks_per_sm);
            ptx.insert_str(body, &bounds);
        }
    }
    Ok(ptx)
}

/// The PTX without what only a reader uses: LLVM's comments (`// %bb.12:`,
/// `// begin inline asm` around every `asm!`, loop annotations: a fifth of
/// the text), blank lines, indentation and runs of blanks. ptxas output is
/// byte-identical, and the driver JIT (for GPUs without a cubin) reads less.
/// PTX has no block comments here and no `//` outside comments, except in
/// quoted strings (`.pragma "nounroll";`), whose lines are kept whole.
fn compact(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    for line in ptx.lines() {
        let code = if line.contains('"') { line } else { line.split("//").next().unwrap_or("") };
        let mut words = code.split_whitespace();
        let Some(first) = words.next() else { continue };
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
        out.push('\n');
    }
    out
}

/// The ptxas to use, if one runs: `RGEMM_PTXAS`, else `ptxas` on `PATH`.
/// Returns its path and its version line (`--version`'s last line).
fn find_ptxas() -> Result<(String, String), String> {
    println!("cargo::rerun-if-env-changed=RGEMM_PTXAS");
    let ptxas = env::var("RGEMM_PTXAS").unwrap_or_else(|_| "ptxas".into());
    // Rebuild when it appears or changes (a missing path would rerun every build).
    if Path::new(&ptxas).is_file() {
        println!("cargo::rerun-if-changed={ptxas}");
    }
    let output = Command::new(&ptxas).arg("--version").output().map_err(|e| format!("`{ptxas}`: {e}"))?;
    if !output.status.success() {
        return Err(format!("`{ptxas} --version` failed ({})", output.status));
    }
    let version = String::from_utf8_lossy(&output.stdout).lines().last().unwrap_or("").trim().to_string();
    Ok((ptxas, version))
}

/// Assembles `ptx` for `arch` into `OUT_DIR/kernels_<arch>.cubin`, and keeps
/// ptxas's report next to it. Returns the cubin's path.
fn assemble(ptxas: &str, ptx: &Path, arch: &str, out_dir: &Path) -> Result<PathBuf, String> {
    let cubin = out_dir.join(format!("kernels_{arch}.cubin"));
    let output = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .args(PTXAS_FLAGS)
        .arg("-o")
        .arg(&cubin)
        .arg(ptx)
        .output()
        .map_err(|e| format!("`{ptxas}`: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    std::fs::write(out_dir.join(format!("kernels_{arch}.ptxas.log")), report.as_bytes())
        .map_err(|e| format!("cannot write the ptxas report: {e}"))?;
    if !output.status.success() {
        let errors: Vec<&str> = report.lines().filter(|l| !l.starts_with("ptxas info")).take(5).collect();
        return Err(format!("ptxas -arch={arch} failed ({}): {}", output.status, errors.join(" | ")));
    }
    Ok(cubin)
}

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    for path in ["kernels-gpu/src", "kernels-gpu/Cargo.toml", "launch/src", "rust-toolchain.toml"] {
        println!("cargo::rerun-if-changed={path}");
    }
    let ptxas = find_ptxas();
    if let Err(e) = &ptxas {
        println!(
            "cargo::warning=no usable ptxas ({e}): shipping PTX only, which the driver JIT-compiles on first use \
             (~40 s per new machine). Run scripts/bootstrap.sh, then `touch build.rs` and build again."
        );
    }
    // Each module's ptxas runs (the slow part: ~35 s per sm_80 cubin) start
    // as soon as its PTX exists, in parallel with each other and with the
    // next module's rustc build.
    let cubins: Vec<(&CubinTarget, Result<PathBuf, String>)> = std::thread::scope(|scope| {
        let mut jobs = Vec::new();
        for (arch, file) in PTX_TARGETS {
            let ptx = build_ptx(&cargo, &root.join("kernels-gpu"), &out_dir, *arch, file);
            let Ok((ptxas, _)) = &ptxas else { continue };
            for target in CUBIN_TARGETS.iter().filter(|t| t.module == *arch) {
                let (ptx, out_dir) = (ptx.clone(), &out_dir);
                jobs.push((target, scope.spawn(move || assemble(ptxas, &ptx, target.arch, out_dir))));
            }
        }
        jobs.into_iter()
            .map(|(target, job)| (target, job.join().unwrap_or_else(|_| Err("ptxas thread panicked".into()))))
            .collect()
    });
    // host/driver/ptx.rs includes this: the cubins that were built, and what was asked.
    let mut code = String::from("// Generated by build.rs.\n");
    let version = ptxas.as_ref().map(|(_, v)| v.as_str()).unwrap_or("");
    let _ = writeln!(code, "/// ptxas's version line (empty: no ptxas).\npub const PTXAS_VERSION: &str = {version:?};");
    let _ = writeln!(
        code,
        "/// The flags besides `-arch`, `-o` and the input.\npub const PTXAS_FLAGS: &[&str] = &{PTXAS_FLAGS:?};"
    );
    let targets: Vec<String> = CUBIN_TARGETS.iter().map(|t| format!("(Arch::{:?}, {:?})", t.module, t.arch)).collect();
    let _ = writeln!(
        code,
        "/// Every cubin a build with ptxas embeds: (module, ptxas -arch).\n\
         pub const CUBIN_TARGETS: &[(Arch, &str)] = &[{}];",
        targets.join(", ")
    );
    let _ = writeln!(code, "/// The cubins this build embeds.\npub const CUBINS: &[Cubin] = &[");
    for (CubinTarget { module, arch, cc: (major, minor), exact }, cubin) in &cubins {
        match cubin {
            Ok(path) => {
                let _ = writeln!(
                    code,
                    "    Cubin {{ module: Arch::{module:?}, arch: {arch:?}, major: {major}, minor: {minor}, \
                     exact: {exact}, image: include_bytes!({:?}) }},",
                    path.display().to_string()
                );
            }
            Err(e) => println!("cargo::warning=no {arch} cubin, its GPUs will JIT-compile the PTX: {e}"),
        }
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("cubins.rs"), code).unwrap_or_else(|e| fail(&format!("cannot write cubins.rs: {e}")));
}
