//! The kernels' device code, built from `kernels-gpu/` by `build.rs` and
//! embedded at compile time: PTX for each module, and the cubins ptxas made
//! from it (when the build had ptxas). [`load`] picks what fits the GPU.

use crate::driver::error::{During, Result};
use crate::driver::kernels::entry_name;
use cust::module::Module;
use gemm_launch::{Arch, KernelSpec, OperandLayout};
use std::sync::Once;

/// PTX for `sm_80` and newer (Ampere, Hopper): steps 1–8.
pub const PTX_SM80: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels_sm_80.ptx"));

/// PTX for `sm_90a` (Hopper only: `wgmma`): step 9.
pub const PTX_SM90A: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels_sm_90a.ptx"));

/// The module that holds kernels of `arch`.
pub const fn ptx(arch: Arch) -> &'static str {
    match arch {
        Arch::Sm80 => PTX_SM80,
        Arch::Sm90a => PTX_SM90A,
    }
}

/// One module assembled by ptxas for one architecture.
pub struct Cubin {
    /// The PTX module it was assembled from.
    pub module: Arch,
    /// ptxas's `-arch`, e.g. `sm_90`.
    pub arch: &'static str,
    pub major: i32,
    pub minor: i32,
    /// Arch-specific (`sm_90a`): runs on `major.minor` exactly. Otherwise it
    /// runs on every GPU of `major` with a minor at least `minor`.
    pub exact: bool,
    pub image: &'static [u8],
}

impl Cubin {
    pub fn runs_on(&self, (major, minor): (i32, i32)) -> bool {
        major == self.major && if self.exact { minor == self.minor } else { minor >= self.minor }
    }
}

// PTXAS_VERSION, PTXAS_FLAGS, CUBIN_TARGETS and CUBINS (see build.rs).
include!(concat!(env!("OUT_DIR"), "/cubins.rs"));

/// The cubin of `module` for a GPU of compute capability `cc`: the newest
/// one that runs there. None: the driver must JIT-compile the PTX.
pub fn cubin(module: Arch, cc: (i32, i32)) -> Option<&'static Cubin> {
    CUBINS.iter().filter(|c| c.module == module && c.runs_on(cc)).max_by_key(|c| c.minor)
}

/// Loads `module` on the current context's GPU (compute capability `cc`):
/// its cubin when there is one, else its PTX through the driver's JIT
/// (slow the first time on a machine; the driver caches the result), which
/// stderr hears about once per process.
pub fn load(module: Arch, cc: (i32, i32)) -> Result<Module> {
    static JIT_NOTE: Once = Once::new();
    let (major, minor) = cc;
    let why = match cubin(module, cc) {
        Some(c) => match Module::from_cubin(c.image, &[]) {
            Ok(loaded) => return Ok(loaded),
            Err(e) => format!("its {} cubin did not load ({e})", c.arch),
        },
        None if CUBINS.is_empty() => "this build has no cubins (no ptxas when it was built)".to_string(),
        None => format!("this build has no cubin for sm_{major}{minor}"),
    };
    JIT_NOTE.call_once(|| {
        eprintln!("rgemm: {why}; the driver compiles the {} PTX instead (about a minute; cached after)", module.name())
    });
    Module::from_ptx(ptx(module), &[]).during("module load (PTX JIT)")
}

/// Entries that ptxas cannot fit in 255 registers when it compiles for
/// compute capability 8.x (sm_80, and sm_86/sm_89 alike; ptxas 12.9), with
/// the bytes they spill. They run correctly, but spill in their inner loop,
/// so the host refuses them on 8.x ([`refusal`]) rather than run a slow path;
/// tests/ptxas.rs fails if any other entry spills, or one of these stops.
/// On sm_90 neither spills. No ptxas option or launch bound removes the
/// spills (tried: -O2, expensive optimizations, .maxntid/.minnctapersm).
pub const SPILLS_ON_SM8X: &[(&str, u32)] = &[("tgemm_mma_128x128x32", 52), ("sgemm_db_256x128x8_tn", 4)];

/// Why the entry `entry` is not run on a GPU of compute capability `cc`
/// (None: nothing against it here).
pub fn refusal(cc: (i32, i32), entry: &str) -> Option<String> {
    let &(_, bytes) = SPILLS_ON_SM8X.iter().find(|(name, _)| *name == entry)?;
    (cc.0 == 8).then(|| {
        format!("it spills {bytes} bytes of registers to local memory when compiled for compute capability 8.x")
    })
}

/// Whether the module of `arch` has code for a GPU of compute capability
/// `cc`: sm_80 code runs on 8.0 and every later GPU (from a cubin, or JIT-
/// compiled from its PTX), sm_90a code (`wgmma`) on 9.0 exactly.
pub fn module_runs_on(arch: Arch, (major, minor): (i32, i32)) -> bool {
    match arch {
        Arch::Sm80 => major >= 8,
        Arch::Sm90a => (major, minor) == (9, 0),
    }
}

/// Why the entry of `spec` for `layout` cannot run on a GPU of compute
/// capability `cc`, as far as the build alone can tell: no such entry, no
/// code for that GPU, or a [`refusal`]. None: nothing against it before the
/// module loads (the device's own limits are checked at load:
/// `Gpu::entry_cannot_run`). The kernel choice asks this without a GPU.
pub fn entry_refusal(spec: &KernelSpec, layout: OperandLayout, cc: (i32, i32)) -> Option<String> {
    if !spec.supports(layout) {
        return Some(format!("{} is compiled for {}", spec.name, spec.layouts.description()));
    }
    let entry = entry_name(spec, layout);
    if !module_runs_on(spec.arch, cc) {
        let (major, minor) = cc;
        let runs_on = match spec.arch {
            Arch::Sm80 => "compute capability 8.0 and newer",
            Arch::Sm90a => "Hopper, compute capability 9.0, only",
        };
        return Some(format!("{entry} is built for {} ({runs_on}); this GPU is sm_{major}{minor}", spec.arch.name()));
    }
    refusal(cc, &entry)
}
