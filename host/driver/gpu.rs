//! The GPU: CUDA context, the embedded kernels' modules and a stream, set up
//! once; device buffers; which kernel entries can launch here. The launch
//! itself is in [`super::launch`].

use crate::driver::element::Element;
use crate::driver::error::{During, GemmError, Result};
use crate::driver::kernels::{entries, entry_name};
use cust::context::Context;
use cust::device::{Device, DeviceAttribute};
use cust::error::CudaError;
use cust::function::{FunctionAttribute, GridSize};
use cust::memory::{CopyDestination, DeviceBuffer, DeviceCopy, DeviceSlice};
use cust::module::Module;
use cust::stream::{Stream, StreamFlags};
use cust::{CudaFlags, sys};
use gemm_launch::{Arch, KernelSpec, OperandLayout};
use std::collections::HashMap;
use std::ffi::c_void;

/// What the CLI and the logs report about the device.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub total_memory_bytes: usize,
    /// Peak memory bandwidth, GB/s ([`peak_memory_bandwidth_gbs`]).
    pub peak_bandwidth_gbs: Option<f64>,
}

/// The device's peak memory bandwidth in GB/s, from the driver: memory
/// clock × bus width × 2 (double data rate). H100 SXM: 2619 MHz × 5120 bits
/// × 2 = 3352 GB/s. `None` if the driver does not report both.
pub fn peak_memory_bandwidth_gbs(device: &Device) -> Option<f64> {
    let clock_khz = device.get_attribute(DeviceAttribute::MemoryClockRate).ok()?;
    let bus_bits = device.get_attribute(DeviceAttribute::GlobalMemoryBusWidth).ok()?;
    (clock_khz > 0 && bus_bits > 0).then(|| clock_khz as f64 * 1e3 * bus_bits as f64 * 2.0 / 8.0 / 1e9)
}

/// Per-kernel resources, as the driver reports them after JIT compilation.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct KernelResources {
    pub registers: i32,
    /// Local memory per thread: a non-zero value means spills or a stack frame.
    pub local_bytes: i32,
    pub static_smem_bytes: i32,
    /// Dynamic shared memory the launch requests (from the spec).
    pub dynamic_smem_bytes: u32,
    pub threads: u32,
    pub max_threads_per_block: i32,
}

/// Kernels loaded on one device. Create it once and reuse it: module load
/// includes the driver's JIT compilation of the PTX.
pub struct Gpu {
    // Field order is drop order: the workspace, modules and stream go before the context.
    /// Split-K workspace (`host/api/split_k.rs`): grown on demand, kept for reuse.
    pub(crate) workspace: std::sync::Mutex<Option<DeviceBuffer<f32>>>,
    module: Module,
    /// The Hopper-only module (`wgmma`), loaded on compute capability 9.0.
    hopper_module: Option<Module>,
    stream: Stream,
    device: Device,
    _context: Context,
    pub info: DeviceInfo,
    /// Kernel entries that cannot run on this device, with the reason;
    /// found once, at load, so that launches only launch.
    unlaunchable: HashMap<String, String>,
}

impl Gpu {
    /// Initializes CUDA on device 0 and loads the kernels. Any failure of the
    /// driver to start, or the absence of a device, is [`GemmError::NoGpu`].
    pub fn new() -> Result<Self> {
        let no_gpu = |what: &str, e: CudaError| GemmError::NoGpu(format!("{what}: {e}"));
        cust::init(CudaFlags::empty()).map_err(|e| no_gpu("the CUDA driver did not initialize", e))?;
        if Device::num_devices().map_err(|e| no_gpu("cannot count devices", e))? == 0 {
            return Err(GemmError::NoGpu("the driver reports no CUDA device".into()));
        }
        let device = Device::get_device(0).map_err(|e| no_gpu("cannot open device 0", e))?;
        let major = device.get_attribute(DeviceAttribute::ComputeCapabilityMajor).during("device query")?;
        let minor = device.get_attribute(DeviceAttribute::ComputeCapabilityMinor).during("device query")?;
        let info = DeviceInfo {
            name: device.name().during("device query")?,
            compute_capability: (major, minor),
            multiprocessors: device.get_attribute(DeviceAttribute::MultiprocessorCount).during("device query")?,
            total_memory_bytes: device.total_memory().during("device query")?,
            peak_bandwidth_gbs: peak_memory_bandwidth_gbs(&device),
        };
        if major < 8 {
            return Err(GemmError::NoGpu(format!(
                "{} has compute capability {major}.{minor}; the kernels are built for sm_80 and newer",
                info.name
            )));
        }
        let context = Context::new(device).map_err(|e| no_gpu("cannot create a context", e))?;
        let module = crate::driver::ptx::load(Arch::Sm80, (major, minor))?;
        // sm_90a code runs on compute capability 9.0 exactly (not on later GPUs).
        let hopper_module = match (major, minor) {
            (9, 0) => Some(crate::driver::ptx::load(Arch::Sm90a, (major, minor))?),
            _ => None,
        };
        let stream = Stream::new(StreamFlags::NON_BLOCKING, None).during("stream creation")?;
        let mut gpu = Gpu {
            workspace: std::sync::Mutex::new(None),
            module,
            hopper_module,
            stream,
            device,
            _context: context,
            info,
            unlaunchable: HashMap::new(),
        };
        gpu.unlaunchable = prepare_kernels(&gpu)?;
        Ok(gpu)
    }

    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    pub fn device(&self) -> Device {
        self.device
    }

    /// Whether the Hopper (`wgmma`) kernels run here (compute capability 9.0).
    pub fn is_hopper(&self) -> bool {
        self.hopper_module.is_some()
    }

    /// The module holding `spec`'s kernels, if this GPU can run them.
    fn module_of(&self, spec: &KernelSpec) -> Option<&Module> {
        match spec.arch {
            Arch::Sm80 => Some(&self.module),
            Arch::Sm90a => self.hopper_module.as_ref(),
        }
    }

    /// Why `spec` cannot run on this GPU (None if it can), for callers that
    /// run "every kernel" and skip the others with a note.
    pub fn cannot_run(&self, spec: &KernelSpec) -> Option<String> {
        let entry = entry_name(spec, OperandLayout::NN);
        if self.module_of(spec).is_none() {
            let (major, minor) = self.info.compute_capability;
            return Some(format!("{entry} is built for {} (Hopper); this GPU is sm_{major}{minor}", spec.arch.name()));
        }
        self.unlaunchable.get(&entry).cloned()
    }

    /// Registers, local memory and limits of a kernel (its row-major entry;
    /// see [`Gpu::entry_resources`] for the others) on this device.
    pub fn resources(&self, spec: &KernelSpec) -> Result<KernelResources> {
        self.entry_resources(spec, OperandLayout::NN)
    }

    /// As [`Gpu::resources`], for the entry of `layout`.
    pub fn entry_resources(&self, spec: &KernelSpec, layout: OperandLayout) -> Result<KernelResources> {
        let module = self.module_of(spec).ok_or_else(|| self.not_here(spec))?;
        let f = module.get_function(entry_name(spec, layout)).during("kernel lookup")?;
        let attr = |a| f.get_attribute(a).during("kernel attribute query");
        Ok(KernelResources {
            registers: attr(FunctionAttribute::NumRegisters)?,
            local_bytes: attr(FunctionAttribute::LocalSizeBytes)?,
            static_smem_bytes: attr(FunctionAttribute::SharedMemorySizeBytes)?,
            dynamic_smem_bytes: spec.smem_bytes(),
            threads: spec.threads(),
            max_threads_per_block: attr(FunctionAttribute::MaxThreadsPerBlock)?,
        })
    }

    fn not_here(&self, spec: &KernelSpec) -> GemmError {
        let reason = self.cannot_run(spec).unwrap_or_default();
        GemmError::Unsupported { kernel: spec.name.into(), reason }
    }

    /// Copies `data` to a new device buffer, after checking that it fits.
    pub fn upload<T: DeviceCopy>(&self, data: &[T]) -> Result<DeviceBuffer<T>> {
        self.ensure_free(std::mem::size_of_val(data) as u64)?;
        DeviceBuffer::from_slice(data).map_err(|e| self.alloc_error(e, std::mem::size_of_val(data) as u64))
    }

    /// A new device buffer of `len` elements, filled with NaN.
    pub fn alloc_poisoned<T: Element>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        self.ensure_free(bytes)?;
        let mut buf = unsafe { DeviceBuffer::uninitialized(len) }.map_err(|e| self.alloc_error(e, bytes))?;
        self.poison(&mut buf)?;
        Ok(buf)
    }

    /// Fills `buf` with NaN (on this GPU's stream) so that a kernel that
    /// skips an element cannot pass a check.
    pub fn poison<T: Element>(&self, buf: &mut DeviceSlice<T>) -> Result<()> {
        // The buffer outlives the fill: callers synchronize (download) before
        // dropping it, and the stream runs in order.
        unsafe { T::poison(buf, &self.stream) }.during("poisoning C with NaN")
    }

    /// Waits for this GPU's stream and copies `buf` to the host.
    pub fn download<T: DeviceCopy + Default + Clone>(&self, buf: &DeviceSlice<T>) -> Result<Vec<T>> {
        self.stream.synchronize().during("kernel execution")?;
        let mut out = vec![T::default(); buf.len()];
        buf.copy_to(&mut out[..]).during("copy to host")?;
        Ok(out)
    }

    /// Fails with [`GemmError::OutOfMemory`] unless `needed` bytes are free.
    pub fn ensure_free(&self, needed: u64) -> Result<()> {
        let (free, _total) = cust::memory::mem_get_info().during("memory query")?;
        if needed > free as u64 {
            return Err(GemmError::OutOfMemory { needed, free: free as u64 });
        }
        Ok(())
    }

    pub(crate) fn alloc_error(&self, e: CudaError, needed: u64) -> GemmError {
        match e {
            CudaError::OutOfMemory => {
                let free = cust::memory::mem_get_info().map(|(f, _)| f as u64).unwrap_or(0);
                GemmError::OutOfMemory { needed, free }
            }
            e => GemmError::Cuda { during: "allocation", source: e },
        }
    }

    /// Enqueues one launch of a kernel of the sm_80 module that is not a
    /// GEMM (the split-K reductions), with its arguments in order.
    pub(crate) fn launch_sm80(&self, entry: &str, grid: GridSize, threads: u32, args: &[*mut c_void]) -> Result<()> {
        let f = self.module.get_function(entry).during("kernel lookup")?;
        unsafe { self.stream.launch(&f, grid, threads, 0, args) }.during("kernel launch")
    }

    /// The module holding `entry` (an entry of `spec`), if this GPU loaded
    /// it and the entry passed the load-time checks; else why not.
    pub(super) fn launchable(&self, spec: &KernelSpec, entry: &str) -> Result<&Module> {
        let module = self.module_of(spec).ok_or_else(|| self.not_here(spec))?;
        if let Some(reason) = self.unlaunchable.get(entry) {
            return Err(GemmError::Unsupported { kernel: entry.to_string(), reason: reason.clone() });
        }
        Ok(module)
    }
}

/// Checks every kernel of the module against this device once, and raises
/// the dynamic shared-memory limit of those that need more than 48 KiB
/// (a per-function setting that lasts as long as the module). Returns the
/// kernels that cannot run, with the reason.
fn prepare_kernels(gpu: &Gpu) -> Result<HashMap<String, String>> {
    let mut unlaunchable = HashMap::new();
    for (spec, _, name) in entries() {
        // Kernels of a module this GPU did not load are reported by `cannot_run`.
        let Some(module) = gpu.module_of(spec) else { continue };
        if let Some(reason) = crate::driver::ptx::refusal(gpu.info.compute_capability, &name) {
            unlaunchable.insert(name.clone(), reason);
            continue;
        }
        let f = module.get_function(&name).during("kernel lookup")?;
        let max_threads = f.get_attribute(FunctionAttribute::MaxThreadsPerBlock).during("kernel attribute query")?;
        if spec.threads() as i32 > max_threads {
            let reason = format!("{} threads per block requested, {max_threads} possible", spec.threads());
            unlaunchable.insert(name.clone(), reason);
            continue;
        }
        if spec.smem_bytes() > 48 * 1024 {
            let status = unsafe {
                sys::cuFuncSetAttribute(
                    f.to_raw(),
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    spec.smem_bytes() as i32,
                )
            };
            if status != sys::CUresult::CUDA_SUCCESS {
                let reason = format!("{} bytes of shared memory refused ({status:?})", spec.smem_bytes());
                unlaunchable.insert(name.clone(), reason);
            }
        }
    }
    Ok(unlaunchable)
}
