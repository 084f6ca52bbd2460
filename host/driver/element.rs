//! The element types a matrix can hold on the host and the device.

use crate::driver::kernels::Dtype;
use cust::error::CudaResult;
use cust::memory::{DeviceCopy, DeviceSlice};
use cust::stream::Stream;
use half::{bf16, f16};

/// f32, `half::f16` or `half::bf16`: what A, B and C hold.
pub trait Element: DeviceCopy + Copy + Default + Send + Sync + 'static {
    /// The dtype this element type computes by default (f32: exact f32).
    const DTYPE: Dtype;
    /// Whether kernels of `dtype` read and write this type.
    fn holds(dtype: Dtype) -> bool;
    fn from_f32(x: f32) -> Self;
    fn to_f32(self) -> f32;
    /// Fills `buf` with NaN, asynchronously on `stream`.
    ///
    /// # Safety
    /// `buf` must stay alive until the stream has run the fill.
    unsafe fn poison(buf: &mut DeviceSlice<Self>, stream: &Stream) -> CudaResult<()>;
}

impl Element for f32 {
    const DTYPE: Dtype = Dtype::F32;
    fn holds(dtype: Dtype) -> bool {
        matches!(dtype, Dtype::F32 | Dtype::Tf32)
    }
    fn from_f32(x: f32) -> Self {
        x
    }
    fn to_f32(self) -> f32 {
        self
    }
    unsafe fn poison(buf: &mut DeviceSlice<Self>, stream: &Stream) -> CudaResult<()> {
        unsafe { buf.set_32_async(f32::NAN.to_bits(), stream) }
    }
}

impl Element for f16 {
    const DTYPE: Dtype = Dtype::F16;
    fn holds(dtype: Dtype) -> bool {
        dtype == Dtype::F16
    }
    fn from_f32(x: f32) -> Self {
        f16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    unsafe fn poison(buf: &mut DeviceSlice<Self>, stream: &Stream) -> CudaResult<()> {
        unsafe { buf.set_16_async(f16::NAN.to_bits(), stream) }
    }
}

impl Element for bf16 {
    const DTYPE: Dtype = Dtype::Bf16;
    fn holds(dtype: Dtype) -> bool {
        dtype == Dtype::Bf16
    }
    fn from_f32(x: f32) -> Self {
        bf16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    unsafe fn poison(buf: &mut DeviceSlice<Self>, stream: &Stream) -> CudaResult<()> {
        unsafe { buf.set_16_async(bf16::NAN.to_bits(), stream) }
    }
}
