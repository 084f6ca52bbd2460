//! Launches in thread-block clusters (`Features::cluster_m`): the blocks of
//! a cluster are scheduled together on one GPC and share their shared
//! memory, which the 2×1 warp-specialized kernels need for their multicast
//! loads and cross-block barriers.
//!
//! A cluster shape is a launch attribute of `cuLaunchKernelEx`, and how many
//! clusters fit on the GPU at once is `cuOccupancyMaxActiveClusters`: both
//! CUDA 12 driver functions that `cust` 0.3 has no binding for, so, as the
//! tensor-map encoder (`tensor_map.rs`), they are looked up once with
//! `cuGetProcAddress` and called through signatures declared from `cuda.h`.

use crate::driver::error::{GemmError, Result};
use cust::function::{Function, GridSize};
use cust::stream::Stream;
use cust::sys;
use std::ffi::c_void;
use std::sync::OnceLock;

/// `CUlaunchAttribute`: an attribute's id, then its value (a 64-byte union;
/// `clusterDim` is its first three `unsigned int`s).
#[repr(C, align(8))]
struct LaunchAttribute {
    id: u32,
    pad: u32,
    value: [u32; 16],
}

/// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION` (`cuda.h`).
const ATTRIBUTE_CLUSTER_DIMENSION: u32 = 4;

/// `CUlaunchConfig` (`cuda.h`, CUDA 12.0).
#[repr(C)]
struct LaunchConfig {
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
    stream: sys::CUstream,
    attributes: *mut LaunchAttribute,
    attribute_count: u32,
}

type LaunchKernelEx = unsafe extern "C" fn(
    config: *const LaunchConfig,
    function: sys::CUfunction,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> sys::CUresult;

type MaxActiveClusters =
    unsafe extern "C" fn(clusters: *mut i32, function: sys::CUfunction, config: *const LaunchConfig) -> sys::CUresult;

/// The two driver functions, looked up once (CUDA 12.0: the first driver
/// with clusters), or why they could not be.
fn driver_functions() -> Result<(LaunchKernelEx, MaxActiveClusters)> {
    static FOUND: OnceLock<std::result::Result<(usize, usize), String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let lookup = |name: &std::ffi::CStr| {
            let mut pfn: *mut c_void = std::ptr::null_mut();
            let status = unsafe { sys::cuGetProcAddress(name.as_ptr(), &mut pfn, 12000, 0) };
            if status as u32 != 0 || pfn.is_null() {
                return Err(format!(
                    "the driver has no {name:?} (cuGetProcAddress returned {status:?}); clusters need a CUDA 12 driver"
                ));
            }
            Ok(pfn as usize)
        };
        Ok((lookup(c"cuLaunchKernelEx")?, lookup(c"cuOccupancyMaxActiveClusters")?))
    });
    match found {
        Ok((launch, occupancy)) => Ok(unsafe {
            (
                std::mem::transmute::<usize, LaunchKernelEx>(*launch),
                std::mem::transmute::<usize, MaxActiveClusters>(*occupancy),
            )
        }),
        Err(reason) => Err(GemmError::Unsupported { kernel: "cluster kernels".into(), reason: reason.clone() }),
    }
}

/// The configuration of a launch of `grid` blocks of `threads` in clusters
/// of `cluster` blocks along x; `attribute` must outlive its use.
fn config(
    grid: GridSize,
    threads: u32,
    shared_bytes: u32,
    stream: sys::CUstream,
    cluster: u32,
    attribute: &mut LaunchAttribute,
) -> LaunchConfig {
    *attribute = LaunchAttribute { id: ATTRIBUTE_CLUSTER_DIMENSION, pad: 0, value: [0; 16] };
    attribute.value[..3].copy_from_slice(&[cluster, 1, 1]);
    LaunchConfig {
        grid: [grid.x, grid.y, grid.z],
        block: [threads, 1, 1],
        shared_bytes,
        stream,
        attributes: attribute,
        attribute_count: 1,
    }
}

/// How many clusters of `cluster` blocks of `function` (with `threads` and
/// `shared_bytes` per block) the GPU runs at once: the persistent grid of
/// a cluster kernel. Below `multiprocessors / cluster` where the GPCs'
/// multiprocessors do not divide into whole clusters.
pub fn max_active_clusters(function: &Function, threads: u32, shared_bytes: u32, cluster: u32) -> Result<u32> {
    let (_, occupancy) = driver_functions()?;
    let mut attribute = LaunchAttribute { id: 0, pad: 0, value: [0; 16] };
    let grid = GridSize::x(cluster);
    let config = config(grid, threads, shared_bytes, std::ptr::null_mut(), cluster, &mut attribute);
    let mut clusters = 0i32;
    checked(unsafe { occupancy(&mut clusters, function.to_raw(), &config) }, "cluster occupancy query")?;
    if clusters < 1 {
        return Err(GemmError::Unsupported {
            kernel: "cluster kernels".into(),
            reason: format!("no cluster of {cluster} blocks of {threads} threads and {shared_bytes} bytes fits"),
        });
    }
    Ok(clusters as u32)
}

/// Enqueues `function` on `stream` in clusters of `cluster` blocks along x
/// (`grid.x` a multiple of it), with `params` in the order of the entry's
/// parameters.
///
/// # Safety
/// As `cust`'s `Stream::launch`: `params` must match the kernel's
/// parameters, and what they point to must stay valid for the call.
pub unsafe fn launch(
    function: &Function,
    stream: &Stream,
    grid: GridSize,
    threads: u32,
    shared_bytes: u32,
    cluster: u32,
    params: &[*mut c_void],
) -> Result<()> {
    let (launch, _) = driver_functions()?;
    debug_assert!(grid.x.is_multiple_of(cluster));
    let mut attribute = LaunchAttribute { id: 0, pad: 0, value: [0; 16] };
    let config = config(grid, threads, shared_bytes, stream.as_inner(), cluster, &mut attribute);
    let status =
        unsafe { launch(&config, function.to_raw(), params.as_ptr() as *mut *mut c_void, std::ptr::null_mut()) };
    checked(status, "cluster kernel launch")
}

/// A driver status as a result.
fn checked(status: sys::CUresult, during: &'static str) -> Result<()> {
    match status {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        status => Err(GemmError::Driver { during, status: format!("{status:?}") }),
    }
}
