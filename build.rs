//! Compiles `kernels-gpu` to PTX with rustc's NVPTX backend and leaves one
//! `.ptx` file per target architecture in `OUT_DIR`, where `host/driver/ptx.rs`
//! embeds it with `include_str!`.
//!
//! It also writes each kernel's launch bounds into the PTX (`.maxntid`,
//! `.minnctapersm`, what CUDA C++ spells `__launch_bounds__`): rustc has no
//! attribute for them, and the numbers come from the same `KernelSpec` the
//! host launches with.
//!
//! Two modules are built: `sm_80` (steps 1–8, any GPU from Ampere on) and
//! `sm_90a` (step 9, `wgmma`, Hopper only). Each kernel's `KernelSpec::arch`
//! says which module holds it.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, exit};

/// (architecture, file name in OUT_DIR). The sm_90a build sets
/// `--cfg rgemm_sm90a`, which compiles only the Hopper kernels (step 9).
const PTX_TARGETS: &[(gemm_launch::Arch, &str)] =
    &[(gemm_launch::Arch::Sm80, "kernels_sm_80.ptx"), (gemm_launch::Arch::Sm90a, "kernels_sm_90a.ptx")];

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

fn build_ptx(cargo: &str, kernels: &Path, out_dir: &Path, target: gemm_launch::Arch, file: &str) {
    let arch = target.name();
    let target_dir = out_dir.join(format!("kernels-{arch}"));
    let mut rustflags = vec![format!("-Ctarget-cpu={arch}")];
    rustflags.extend(KERNEL_RUSTFLAGS.iter().map(|f| f.to_string()));
    if target == gemm_launch::Arch::Sm90a {
        rustflags.extend(["--cfg".to_string(), "rgemm_sm90a".to_string()]);
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
    let ptx = with_launch_bounds(ptx, &specs).unwrap_or_else(|e| fail(&e));
    std::fs::write(out_dir.join(file), ptx).unwrap_or_else(|e| fail(&format!("cannot write PTX: {e}")));
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
            let entry = match (found, spec.supports(layout)) {
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

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    for path in ["kernels-gpu/src", "kernels-gpu/Cargo.toml", "launch/src", "rust-toolchain.toml"] {
        println!("cargo::rerun-if-changed={path}");
    }
    for (arch, file) in PTX_TARGETS {
        build_ptx(&cargo, &root.join("kernels-gpu"), &out_dir, *arch, file);
    }
}
