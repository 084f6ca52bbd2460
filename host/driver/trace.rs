//! Start-up phase trace: with `RGEMM_TRACE=1` in the environment, each
//! traced phase prints one line to stderr when it ends:
//!
//! ```text
//! rgemm trace:    12.3 →   187.5 ms  175.2 ms  [main] cuInit
//! ```
//!
//! (start and end since [`start`], usually the top of `main`, then the
//! phase's own duration and the thread it ran on: phases on different
//! threads overlap). [`start`] also prints how long the process ran before
//! it (exec, dynamic loading; from `/proc`, to 10 ms). Off, a phase costs
//! one relaxed load. Issue 12 (time to the first result) is measured with it.

use std::sync::OnceLock;
use std::time::Instant;

/// Whether `RGEMM_TRACE` is set to something other than `0` or empty.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("RGEMM_TRACE").is_ok_and(|v| !v.is_empty() && v != "0"))
}

fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Sets the time origin of the trace (the first call wins) and, when
/// tracing, prints the process's age at this point.
pub fn start() {
    origin();
    if enabled()
        && let Some(ms) = process_age_ms()
    {
        eprintln!("rgemm trace: process start → here {ms:.0} ms (exec, dynamic loader, before main; ±10 ms)");
    }
}

/// Runs `f` as the phase `name` (a closure, so that the name is only
/// built when tracing) and prints its span.
pub fn phase<T>(name: impl FnOnce() -> String, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let begin = Instant::now();
    let out = f();
    print_span(&name(), begin, Instant::now());
    out
}

/// Prints a point in time (no duration), e.g. "first result printed".
pub fn mark(name: impl FnOnce() -> String) {
    if enabled() {
        let now = Instant::now();
        print_span(&name(), now, now);
    }
}

fn print_span(name: &str, begin: Instant, end: Instant) {
    let o = origin();
    let ms = |t: Instant| t.saturating_duration_since(o).as_secs_f64() * 1e3;
    let thread = std::thread::current();
    eprintln!(
        "rgemm trace: {:8.1} → {:8.1} ms {:8.1} ms  [{}] {name}",
        ms(begin),
        ms(end),
        (end - begin).as_secs_f64() * 1e3,
        thread.name().unwrap_or("?")
    );
}

/// Milliseconds since this process started, from `/proc` (Linux only;
/// clock-tick resolution, 10 ms on most kernels).
fn process_age_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses;
    // starttime is field 22 overall, the 20th after ")".
    let after = stat.rsplit_once(')')?.1;
    let start_ticks: f64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let uptime_s: f64 = std::fs::read_to_string("/proc/uptime").ok()?.split_whitespace().next()?.parse().ok()?;
    // USER_HZ is 100 on Linux for every architecture this project builds for.
    Some((uptime_s - start_ticks / 100.0) * 1e3)
}
