//! Assembles the embedded PTX with ptxas (CPU only) for every architecture
//! the build ships a cubin for (`rgemm::ptx::CUBIN_TARGETS`: sm_80, sm_90,
//! sm_90a), with the build's flags, and holds every kernel to no spills and
//! no stack frame; the entries in `rgemm::ptx::SPILLS_ON_SM8X` are the known
//! exception on 8.x (the host refuses them there) and must still spill, so
//! the list stays true. When the test's ptxas is the build's, its cubins
//! must equal the embedded ones byte for byte: what is checked is what ships.
//!
//! ptxas comes from `scripts/bootstrap.sh` (path in `RGEMM_PTXAS`, set by
//! .cargo/config.toml); without it the test says why it skipped, unless
//! `RGEMM_REQUIRE_PTXAS=1` (CI sets it) makes that a failure, as it does a
//! build that embedded no cubins.

use gemm_launch::{Arch, KERNELS, OperandLayout};
use rgemm::ptx::{CUBIN_TARGETS, CUBINS, PTXAS_FLAGS, PTXAS_VERSION, SPILLS_ON_SM8X, cubin, ptx, refusal};
use std::io::Write;
use std::path::Path;
use std::process::Command;

/// What ptxas -v said about one architecture, and the cubin it made.
struct Assembled {
    arch: &'static str,
    module: Arch,
    log: String,
    cubin: Vec<u8>,
}

fn assemble(ptxas: &str, dir: &Path, module: Arch, arch: &'static str) -> Assembled {
    let input = dir.join(format!("{}.ptx", module.name()));
    let output_path = dir.join(format!("{arch}.cubin"));
    let output = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .args(PTXAS_FLAGS)
        .arg("-o")
        .arg(&output_path)
        .arg(&input)
        .output()
        .unwrap_or_else(|e| panic!("{ptxas}: {e}"));
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "ptxas -arch={arch} failed:\n{log}");
    let cubin = std::fs::read(&output_path).unwrap();
    Assembled { arch, module, log, cubin }
}

/// Which image each GPU generation loads (no GPU needed: the choice is a
/// pure function of the compute capability).
#[test]
fn each_gpu_gets_the_cubin_of_its_architecture() {
    if CUBINS.is_empty() {
        assert!(std::env::var("RGEMM_REQUIRE_PTXAS").is_err(), "the build embedded no cubins");
        let _ = writeln!(std::io::stderr(), "SKIPPED: this build has no cubins (no ptxas when it was built)");
        return;
    }
    let arch = |module, cc| cubin(module, cc).map(|c| c.arch);
    // Every 8.x GPU runs the sm_80 cubin; no 8.x GPU runs Hopper code.
    for minor in [0, 6, 7, 9] {
        assert_eq!(arch(Arch::Sm80, (8, minor)), Some("sm_80"));
        assert_eq!(arch(Arch::Sm90a, (8, minor)), None);
    }
    assert_eq!(arch(Arch::Sm80, (9, 0)), Some("sm_90"));
    assert_eq!(arch(Arch::Sm90a, (9, 0)), Some("sm_90a"));
    // Newer GPUs: no cubin fits, the driver JIT-compiles the sm_80 PTX.
    for cc in [(10, 0), (12, 0), (7, 5)] {
        assert_eq!(arch(Arch::Sm80, cc), None, "{cc:?}");
        assert_eq!(arch(Arch::Sm90a, cc), None, "{cc:?}");
    }
    // The refusal of the 8.x spillers applies on 8.x only.
    for (name, _) in SPILLS_ON_SM8X {
        assert!(refusal((8, 6), name).is_some());
        assert!(refusal((9, 0), name).is_none());
    }
    assert!(refusal((8, 0), "sgemm_db_256x128x8").is_none());
}

/// The lines of a ptxas log that mark a silent slow path: warnings, and
/// the "Potential Performance Loss" notes ptxas prints as info, among them
/// C7514, `wgmma`s serialized because other instructions read their
/// accumulators while they are in flight (PERF.md step 111: LLVM moved
/// reads above a `wgmma.wait_group` that names no registers).
fn slow_path_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|line| line.contains("warning") || line.contains("Potential Performance Loss")).collect()
}

#[test]
fn a_serialized_wgmma_is_a_slow_path() {
    // The note ptxas 12.9 printed for step 111's first build.
    let serialized = "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are \
                      serialized due to non wgmma instructions reading accumulator registers of  a wgmma between \
                      start and end of the pipeline stage in the function 'tgemm_ws_64x16x32_nt'";
    let log = format!("ptxas info    : Used 232 registers, used 1 barriers\n{serialized}\n");
    assert_eq!(slow_path_lines(&log), [serialized]);
    assert!(slow_path_lines("ptxas info    : Used 168 registers, used 1 barriers").is_empty());
}

#[test]
fn every_kernel_of_every_shipped_architecture_assembles_without_spills() {
    let required = std::env::var("RGEMM_REQUIRE_PTXAS").is_ok();
    if required {
        for (_, arch) in CUBIN_TARGETS {
            assert!(
                CUBINS.iter().any(|c| c.arch == *arch),
                "the build embedded no {arch} cubin (was ptxas missing when it ran? see its cargo warnings)"
            );
        }
    }
    let ptxas = std::env::var("RGEMM_PTXAS").unwrap_or_else(|_| "ptxas".into());
    let version = match Command::new(&ptxas).arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).lines().last().unwrap_or("").to_string(),
        other => {
            assert!(!required, "ptxas required but not runnable ({ptxas}): {other:?}");
            let _ = writeln!(std::io::stderr(), "SKIPPED: ptxas not runnable ({ptxas}); run scripts/bootstrap.sh");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("rgemm-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for module in Arch::ALL {
        std::fs::write(dir.join(format!("{}.ptx", module.name())), ptx(module)).unwrap();
    }
    // One ptxas per architecture, side by side (the sm_80 module takes ~35 s).
    let results: Vec<_> = std::thread::scope(|scope| {
        let jobs: Vec<_> = CUBIN_TARGETS
            .iter()
            .map(|&(module, arch)| {
                let (ptxas, dir) = (&ptxas, &dir);
                scope.spawn(move || assemble(ptxas, dir, module, arch))
            })
            .collect();
        jobs.into_iter().map(|j| j.join()).collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    let results: Vec<Assembled> =
        results.into_iter().map(|r| r.unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();

    for Assembled { arch, module, log, cubin } in &results {
        let slow = slow_path_lines(log);
        assert!(slow.is_empty(), "ptxas -arch={arch} reported a slow path:\n{}\n\n{log}", slow.join("\n"));
        let sm8x = arch.starts_with("sm_8");
        // ptxas -v prints, per entry: "Compiling entry function 'NAME'", then
        // "N bytes stack frame, N bytes spill stores, N bytes spill loads".
        let mut checked = 0;
        let mut known_spills = Vec::new();
        for block in log.split("Compiling entry function").skip(1) {
            let name = block.split('\'').nth(1).unwrap_or("?");
            let frame = block
                .lines()
                .find(|l| l.contains("bytes stack frame"))
                .unwrap_or_else(|| panic!("{arch} {name}: no resource line"));
            let clean = frame.contains(" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads");
            let known = sm8x && SPILLS_ON_SM8X.iter().any(|(n, _)| *n == name);
            match (clean, known) {
                (true, false) => {}
                (false, true) => known_spills.push(name.to_string()),
                (false, false) => panic!("{arch} {name} spills or has a stack frame: {frame}"),
                (true, true) => {
                    panic!("{arch} {name} no longer spills: take it off rgemm::ptx::SPILLS_ON_SM8X so 8.x GPUs run it")
                }
            }
            checked += 1;
        }
        if sm8x {
            for (name, _) in SPILLS_ON_SM8X {
                assert!(known_spills.iter().any(|n| n == name), "{arch}: {name} (in SPILLS_ON_SM8X) was not compiled");
            }
        }
        let entries: usize = KERNELS
            .iter()
            .filter(|s| s.arch == *module)
            .map(|s| OperandLayout::ALL.iter().filter(|l| s.has_entry(**l)).count())
            .sum::<usize>()
            // The split-K reductions and the operand copies.
            + if *module == Arch::Sm80 { gemm_launch::split_k::REDUCE_KERNELS.len() + gemm_launch::operand_copies::ENTRIES.len() } else { 0 };
        assert_eq!(checked, entries, "ptxas -arch={arch} reported a different number of kernels:\n{log}");
        // Same ptxas, same flags, same PTX: the embedded cubin is this one.
        if let Some(shipped) = CUBINS.iter().find(|c| c.arch == *arch)
            && version == PTXAS_VERSION
        {
            assert!(shipped.image == cubin.as_slice(), "the embedded {arch} cubin differs from ptxas's output");
        }
    }
}
