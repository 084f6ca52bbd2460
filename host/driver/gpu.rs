//! The GPU: CUDA context and stream, set up once; the embedded kernels'
//! modules, each loaded on first use; device buffers; which kernel entries
//! can launch here. The launch itself is in [`super::launch`].

use crate::driver::cluster;
use crate::driver::element::Element;
use crate::driver::error::{During, GemmError, Result};
use crate::driver::kernels::entry_name;
use crate::driver::ptx;
use crate::driver::stream_k::StreamKWorkspace;
use crate::driver::tensor_map::TensorMap;
use crate::driver::trace;
use cust::context::{Context, CurrentContext};
use cust::device::{Device, DeviceAttribute};
use cust::error::CudaError;
use cust::function::{Function, FunctionAttribute, GridSize};
use cust::memory::{CopyDestination, DeviceBuffer, DeviceCopy, DeviceSlice};
use cust::module::Module;
use cust::stream::{Stream, StreamFlags};
use cust::{CudaFlags, sys};
use gemm_launch::tma::MAP_SLOTS;
use gemm_launch::{Arch, KernelSpec, OperandLayout};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

/// Sets of tensor maps (A, B, C) kept on the device (384 bytes each).
const TENSOR_MAP_CACHE: usize = 64;

/// A device copy of one call's tensor maps, and whether its address held
/// other maps before (in this process: the address space is the process's).
struct MapsOnDevice {
    buffer: DeviceBuffer<TensorMap>,
    reused: bool,
}

/// Every address that has held tensor maps in this process. The TMA caches
/// descriptors by address, so a kernel reading maps where others lay before
/// must invalidate its copy first (`fence.proxy.tensormap`, ~3 µs per
/// launch, PERF step 51); at an address never used for maps it need not.
static MAP_ADDRESSES: Mutex<std::collections::BTreeSet<u64>> = Mutex::new(std::collections::BTreeSet::new());

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

/// One PTX module on this device, loaded the first time a kernel of it is
/// needed.
struct LoadedModule {
    module: Module,
    arch: Arch,
    /// Entries of the module checked against the device so far
    /// ([`prepare_entry`]: each on its first use, once), with the reason
    /// each cannot run here (None: it can). Checking every entry at load
    /// made the driver load all ~65 kernels of the sm_80 module (lazy
    /// module loading loads a kernel when its function is first looked up)
    /// where a program runs a handful.
    checked: Mutex<HashMap<String, Option<String>>>,
}

impl LoadedModule {
    /// Why the entry `entry` of `spec` cannot run on this device (None:
    /// it can), checked now if this is its first use.
    fn check(&self, spec: &KernelSpec, entry: &str) -> Result<Option<String>> {
        let mut checked = self.checked.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(verdict) = checked.get(entry) {
            return Ok(verdict.clone());
        }
        debug_assert_eq!(spec.arch, self.arch);
        let verdict = prepare_entry(&self.module, spec, entry)?;
        checked.insert(entry.to_string(), verdict.clone());
        Ok(verdict)
    }
}

/// The GPU: its context and stream, and the kernels' modules, each loaded
/// the first time one of its kernels is used, once (and each kernel entry
/// checked against the device on its first use). Create it once and
/// reuse it: a module's load costs milliseconds from a cubin, and on a GPU
/// the build has no cubin for, the driver's JIT compilation of the PTX.
pub struct Gpu {
    // Field order is drop order: the workspace, modules and stream go before the context.
    /// Split-K workspace (`host/api/split_k.rs`): grown on demand, kept for reuse.
    pub(crate) workspace: std::sync::Mutex<Option<DeviceBuffer<f32>>>,
    /// Operand copies for the TMA kernels, transposed or realigned
    /// (`host/driver/operand_copies.rs`): grown on demand, kept for reuse.
    pub(crate) copy_scratch: std::sync::Mutex<Option<DeviceBuffer<u8>>>,
    /// Stream-K's partial sums and flags (`driver/stream_k.rs`): allocated
    /// once, by the first call that shares tiles out.
    pub(crate) stream_k: std::sync::Mutex<Option<StreamKWorkspace>>,
    /// Device copies of the TMA tensor maps of recent calls, keyed by the
    /// maps themselves (`driver/tensor_map.rs`).
    tensor_maps: std::sync::Mutex<HashMap<[TensorMap; MAP_SLOTS], MapsOnDevice>>,
    /// Clusters of each cluster kernel (by spec name) that run at once: its
    /// persistent grid (`driver/cluster.rs`), asked of the driver once.
    active_clusters: Mutex<HashMap<&'static str, u32>>,
    /// The sm_80 module: every kernel but the `wgmma` ones, and the split-K
    /// reductions. A failed load is kept and reported to each later use.
    sm80: OnceLock<Result<LoadedModule>>,
    /// The Hopper-only module (`wgmma`), which only compute capability 9.0 loads.
    sm90a: OnceLock<Result<LoadedModule>>,
    stream: Stream,
    device: Device,
    context: Context,
    pub info: DeviceInfo,
}

// Callers may share one Gpu between threads (the modules load under a
// `OnceLock`); keep it that way.
const _: () = {
    const fn shareable<T: Send + Sync>() {}
    shareable::<Gpu>()
};

impl Gpu {
    /// Initializes CUDA on device 0 and creates the context and stream; the
    /// kernels' modules load on first use ([`Gpu::gemm`], [`Gpu::cannot_run`],
    /// [`Gpu::resources`]), so a program that runs one kind of kernel loads
    /// only the module that holds it. Any failure of the driver to start, or
    /// the absence of a device, is [`GemmError::NoGpu`].
    pub fn new() -> Result<Self> {
        let no_gpu = |what: &str, e: CudaError| GemmError::NoGpu(format!("{what}: {e}"));
        trace::phase(
            || "cuInit (CUDA driver start)".into(),
            || cust::init(CudaFlags::empty()).map_err(|e| no_gpu("the CUDA driver did not initialize", e)),
        )?;
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
        if !ptx::module_runs_on(Arch::Sm80, (major, minor)) {
            return Err(GemmError::NoGpu(format!(
                "{} has compute capability {major}.{minor}; the kernels are built for sm_80 and newer",
                info.name
            )));
        }
        let context = trace::phase(
            || "CUDA context creation".into(),
            || Context::new(device).map_err(|e| no_gpu("cannot create a context", e)),
        )?;
        let stream = trace::phase(
            || "stream creation".into(),
            || Stream::new(StreamFlags::NON_BLOCKING, None).during("stream creation"),
        )?;
        Ok(Gpu {
            workspace: std::sync::Mutex::new(None),
            copy_scratch: std::sync::Mutex::new(None),
            stream_k: std::sync::Mutex::new(None),
            tensor_maps: std::sync::Mutex::new(HashMap::new()),
            active_clusters: Mutex::new(HashMap::new()),
            sm80: OnceLock::new(),
            sm90a: OnceLock::new(),
            stream,
            device,
            context,
            info,
        })
    }

    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    pub fn device(&self) -> Device {
        self.device
    }

    /// Makes this GPU's context current on the calling thread, for work
    /// on another thread than the one that created the `Gpu` (e.g. setting
    /// up cuBLAS in the background while our kernels load).
    pub fn make_current(&self) -> Result<()> {
        CurrentContext::set_current(&self.context).during("context activation")
    }

    /// Whether the Hopper (`wgmma`) kernels run here (compute capability 9.0).
    pub fn is_hopper(&self) -> bool {
        ptx::module_runs_on(Arch::Sm90a, self.info.compute_capability)
    }

    /// Whether the module of `arch` has been loaded (successfully or not):
    /// modules load on first use, so a program that only ran f32 kernels on
    /// a Hopper GPU has not loaded the sm_90a one.
    pub fn is_loaded(&self, arch: Arch) -> bool {
        self.slot(arch).get().is_some()
    }

    fn slot(&self, arch: Arch) -> &OnceLock<Result<LoadedModule>> {
        match arch {
            Arch::Sm80 => &self.sm80,
            Arch::Sm90a => &self.sm90a,
        }
    }

    /// The module of `arch`, loaded and checked now if this is its first
    /// use. Callers first make sure this GPU runs `arch`
    /// ([`ptx::module_runs_on`]).
    fn loaded(&self, arch: Arch) -> Result<&LoadedModule> {
        self.slot(arch).get_or_init(|| self.load(arch)).as_ref().map_err(Clone::clone)
    }

    fn load(&self, arch: Arch) -> Result<LoadedModule> {
        // A module loads into the calling thread's current context, which
        // is ours only on the thread that created this Gpu.
        self.make_current()?;
        let module =
            trace::phase(|| format!("load module {}", arch.name()), || ptx::load(arch, self.info.compute_capability))?;
        Ok(LoadedModule { module, arch, checked: Mutex::new(HashMap::new()) })
    }

    /// Why `spec`'s row-major entry cannot run on this GPU (None if it
    /// can), for callers that run "every kernel" and skip the others with a
    /// note; see [`Gpu::entry_cannot_run`] for the other layouts. Loads the
    /// kernel's module if it was not loaded yet.
    pub fn cannot_run(&self, spec: &KernelSpec) -> Option<String> {
        self.entry_cannot_run(spec, OperandLayout::NN)
    }

    /// As [`Gpu::cannot_run`], for the entry of `layout` (on compute
    /// capability 8.x a kernel's row-major entry may run and another not:
    /// [`ptx::SPILLS_ON_SM8X`]).
    pub fn entry_cannot_run(&self, spec: &KernelSpec, layout: OperandLayout) -> Option<String> {
        match self.launchable(spec, layout) {
            Ok(_) => None,
            Err(GemmError::Unsupported { reason, .. }) => Some(reason),
            Err(e) => Some(format!("its module did not load: {e}")),
        }
    }

    /// Registers, local memory and limits of a kernel (its row-major entry;
    /// see [`Gpu::entry_resources`] for the others) on this device.
    pub fn resources(&self, spec: &KernelSpec) -> Result<KernelResources> {
        self.entry_resources(spec, OperandLayout::NN)
    }

    /// As [`Gpu::resources`], for the entry of `layout`: also for an entry
    /// this GPU refuses to launch (its spills show in `local_bytes`), as
    /// long as this GPU has code for it.
    pub fn entry_resources(&self, spec: &KernelSpec, layout: OperandLayout) -> Result<KernelResources> {
        let entry = entry_name(spec, layout);
        if !spec.supports(layout) || !ptx::module_runs_on(spec.arch, self.info.compute_capability) {
            let reason = ptx::entry_refusal(spec, layout, self.info.compute_capability).unwrap_or_default();
            return Err(GemmError::Unsupported { kernel: entry, reason });
        }
        let f = self.loaded(spec.arch)?.module.get_function(&entry).during("kernel lookup")?;
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

    /// Blocks of `spec`'s entry for `layout` that one multiprocessor holds
    /// at once (the driver's occupancy for its registers, shared memory and
    /// threads); 0 where this GPU has no such entry or the query fails.
    pub fn resident_blocks(&self, spec: &KernelSpec, layout: OperandLayout) -> u32 {
        let entry = entry_name(spec, layout);
        if !spec.supports(layout) || !ptx::module_runs_on(spec.arch, self.info.compute_capability) {
            return 0;
        }
        let Ok(loaded) = self.loaded(spec.arch) else { return 0 };
        let Ok(f) = loaded.module.get_function(&entry) else { return 0 };
        f.max_active_blocks_per_multiprocessor(spec.threads().into(), spec.smem_bytes() as usize).unwrap_or(0)
    }

    /// Clusters of `spec` (a cluster kernel, `function` one of its entries)
    /// that the GPU runs at once, asked of the driver on first use.
    pub(super) fn active_clusters(&self, spec: &KernelSpec, function: &Function) -> Result<u32> {
        let mut known = self.active_clusters.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&clusters) = known.get(spec.name) {
            return Ok(clusters);
        }
        let clusters =
            cluster::max_active_clusters(function, spec.threads(), spec.smem_bytes(), spec.cluster_blocks())?;
        known.insert(spec.name, clusters);
        Ok(clusters)
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

    /// Runs `enqueue` with the device address of a copy of `maps` (0 for
    /// `None`) and whether that address held other maps before (the kernel
    /// then fences before reading them: `Gemm::fence_tensor_maps` in
    /// kernels-gpu). The copy is uploaded the first time these maps are seen and
    /// kept (at most [`TENSOR_MAP_CACHE`] sets; the cache is emptied, after
    /// the stream has drained, when it is full). `enqueue` runs under the
    /// cache's lock, so another thread cannot free the copy between the
    /// look-up and the launch that reads it.
    pub(crate) fn with_tensor_maps<R>(
        &self,
        maps: Option<[TensorMap; MAP_SLOTS]>,
        enqueue: impl FnOnce(u64, bool) -> Result<R>,
    ) -> Result<R> {
        let Some(maps) = maps else { return enqueue(0, false) };
        let mut cache = self.tensor_maps.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(copy) = cache.get(&maps) {
            return enqueue(copy.buffer.as_device_ptr().as_raw(), copy.reused);
        }
        if cache.len() >= TENSOR_MAP_CACHE {
            self.stream.synchronize().during("stream synchronize")?;
            cache.clear();
        }
        let buffer =
            DeviceBuffer::from_slice(&maps).map_err(|e| self.alloc_error(e, std::mem::size_of_val(&maps) as u64))?;
        // The copy ran on the legacy stream, the kernel runs on ours: wait
        // (once per new set of maps).
        CurrentContext::synchronize().during("tensor map upload")?;
        let address = buffer.as_device_ptr().as_raw();
        // Every slot's address: a map may now lie where another buffer's
        // slot held a different one.
        let mut seen = MAP_ADDRESSES.lock().unwrap_or_else(|e| e.into_inner());
        let mut reused = false;
        for slot in 0..MAP_SLOTS as u64 {
            reused |= !seen.insert(address + 128 * slot);
        }
        drop(seen);
        cache.insert(maps, MapsOnDevice { buffer, reused });
        enqueue(address, reused)
    }

    /// Frees the cached device copies of tensor maps, after the work queued
    /// on the stream, which may read them, is done.
    pub(crate) fn release_tensor_maps(&self) -> Result<()> {
        let mut cache = self.tensor_maps.lock().unwrap_or_else(|e| e.into_inner());
        if !cache.is_empty() {
            self.stream.synchronize().during("kernel execution")?;
            cache.clear();
        }
        Ok(())
    }

    /// The device address of a buffer this `Gpu` owns (the split-K
    /// workspace, the operand copies' scratch: `operand_copies.rs`), grown to at least `bytes` if
    /// smaller. The old buffer is freed only after the stream has finished
    /// with it.
    pub(crate) fn grow_buffer<T: DeviceCopy>(&self, buffer: &mut Option<DeviceBuffer<T>>, bytes: u64) -> Result<u64> {
        let elements = bytes.div_ceil(std::mem::size_of::<T>() as u64);
        if let Some(b) = buffer.as_ref().filter(|b| b.len() as u64 >= elements) {
            return Ok(b.as_device_ptr().as_raw());
        }
        if let Some(old) = buffer.take() {
            // Work already queued may still read or write it.
            self.stream().synchronize().during("kernel execution")?;
            drop(old);
        }
        self.ensure_free(bytes)?;
        let len = usize::try_from(elements).map_err(|_| GemmError::OutOfMemory { needed: bytes, free: 0 })?;
        let grown = unsafe { DeviceBuffer::<T>::uninitialized(len) }.map_err(|e| self.alloc_error(e, bytes))?;
        let address = grown.as_device_ptr().as_raw();
        *buffer = Some(grown);
        Ok(address)
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
    /// GEMM (the split-K reductions, the operand copies), with its dynamic
    /// shared memory and its arguments in order.
    pub(crate) fn launch_sm80(
        &self,
        entry: &str,
        grid: GridSize,
        threads: u32,
        smem_bytes: u32,
        args: &[*mut c_void],
    ) -> Result<()> {
        let f = self.loaded(Arch::Sm80)?.module.get_function(entry).during("kernel lookup")?;
        unsafe { self.stream.launch(&f, grid, threads, smem_bytes, args) }.during("kernel launch")
    }

    /// The module holding the entry of `spec` for `layout`, loaded now if
    /// this is its first use, if this GPU runs that entry; else why not
    /// ([`GemmError::Unsupported`]), or why the module did not load.
    pub(super) fn launchable(&self, spec: &KernelSpec, layout: OperandLayout) -> Result<&Module> {
        let entry = entry_name(spec, layout);
        if let Some(reason) = ptx::entry_refusal(spec, layout, self.info.compute_capability) {
            return Err(GemmError::Unsupported { kernel: entry, reason });
        }
        let loaded = self.loaded(spec.arch)?;
        if let Some(reason) = loaded.check(spec, &entry)? {
            return Err(GemmError::Unsupported { kernel: entry, reason });
        }
        Ok(&loaded.module)
    }
}

/// Checks the kernel entry `entry` (of `spec`) of a loaded `module`
/// against the device once, on its first use, and raises its dynamic
/// shared-memory limit when it needs more than 48 KiB (a per-function
/// setting that lasts as long as the module). Returns why it cannot run
/// here (None: it can). Entries the build already refuses here
/// ([`ptx::entry_refusal`]) never get this far.
fn prepare_entry(module: &Module, spec: &KernelSpec, entry: &str) -> Result<Option<String>> {
    trace::phase(
        || format!("prepare kernel {entry}"),
        || {
            let f = module.get_function(entry).during("kernel lookup")?;
            let max_threads =
                f.get_attribute(FunctionAttribute::MaxThreadsPerBlock).during("kernel attribute query")?;
            if spec.threads() as i32 > max_threads {
                return Ok(Some(format!("{} threads per block requested, {max_threads} possible", spec.threads())));
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
                    return Ok(Some(format!("{} bytes of shared memory refused ({status:?})", spec.smem_bytes())));
                }
            }
            Ok(None)
        },
    )
}
