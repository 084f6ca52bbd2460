//! Timing with CUDA events: warm-up launches first, then one event between
//! consecutive launches of a back-to-back queue, so each sample is one
//! launch's device time with no host gap inside; the median is reported.

use crate::driver::error::{During, Result};
use cust::event::{Event, EventFlags};
use cust::stream::Stream;

/// Launches before timing starts (module JIT, caches, clocks).
pub const WARMUP_LAUNCHES: usize = 3;

#[derive(Clone, Debug, serde::Serialize)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
    pub samples: usize,
}

/// Times `launch` (which must only enqueue work on `stream`) `iters` times.
pub fn time_launches(stream: &Stream, iters: usize, mut launch: impl FnMut() -> Result<()>) -> Result<Timing> {
    let iters = iters.max(1);
    for _ in 0..WARMUP_LAUNCHES {
        launch()?;
    }
    let events = (0..=iters)
        .map(|_| Event::new(EventFlags::DEFAULT))
        .collect::<std::result::Result<Vec<_>, _>>()
        .during("event creation")?;
    events[0].record(stream).during("event record")?;
    for event in &events[1..] {
        launch()?;
        event.record(stream).during("event record")?;
    }
    stream.synchronize().during("timed launches")?;
    let mut ms = events
        .windows(2)
        .map(|w| w[1].elapsed_time_f32(&w[0]).map(|t| t as f64))
        .collect::<std::result::Result<Vec<_>, _>>()
        .during("event timing")?;
    ms.sort_by(f64::total_cmp);
    Ok(Timing { median_ms: median(&ms), min_ms: ms[0], samples: ms.len() })
}

/// Median of sorted values.
pub fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 }
}

/// TFLOP/s of an `m×n×k` GEMM (2·m·n·k flops) that took `ms` milliseconds.
pub fn tflops(m: usize, n: usize, k: usize, ms: f64) -> f64 {
    2.0 * m as f64 * n as f64 * k as f64 / (ms * 1e-3) / 1e12
}

/// GB/s of an `m×n×k` GEMM that moved A, B and C once (`element_bytes`
/// each) in `ms` milliseconds: the rate that matters when M or N is tiny.
pub fn gbytes_per_s(m: usize, n: usize, k: usize, element_bytes: usize, ms: f64) -> f64 {
    ((m * k + k * n + m * n) * element_bytes) as f64 / (ms * 1e-3) / 1e9
}
