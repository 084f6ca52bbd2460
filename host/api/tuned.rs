//! Tuned choices: the JSON cache that `gemm tune` (`crate::tune`) writes
//! and that every [`KernelChoice::Auto`](crate::api::options::KernelChoice)
//! call reads, the library's as well as the CLI's
//! ([`crate::api::choice::choose_kernel`]).
//!
//! An entry is keyed by the GPU's name as the driver reports it
//! ([`DeviceInfo::name`](crate::driver::gpu::DeviceInfo), e.g. `NVIDIA H100
//! 80GB HBM3`), the dtype and the shape: `"<GPU>|<dtype>|<m>x<n>x<k>"`. A
//! choice tuned on one GPU is never used on another model; two GPUs of the
//! same model share their entries.
//!
//! The file is read once per process ([`tuned_choices`]). A cache that
//! cannot be read (not JSON, not readable) is ignored with one warning on
//! stderr: a cache is an optimization, never a reason to fail.
//! `RGEMM_TUNE_CACHE=off` turns it off ([`cache_path`]).

use crate::api::choice::Choice;
use crate::driver::error::{GemmError, Result};
use crate::driver::kernels::Dtype;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where tuned choices are kept: `$RGEMM_TUNE_CACHE`, else
/// `$XDG_CACHE_HOME/rgemm/tune.json`, else `~/.cache/rgemm/tune.json`.
/// `None` when `RGEMM_TUNE_CACHE` is `off` (or empty): no cache is read,
/// and `gemm tune` saves nothing.
pub fn cache_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RGEMM_TUNE_CACHE") {
        return (!p.is_empty() && p != "off").then(|| PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    Some(base.join("rgemm").join("tune.json"))
}

/// The cache file: `"<GPU name>|<dtype>|<m>x<n>x<k>" → Choice` ([`cache_key`]).
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct TuneCache {
    pub entries: BTreeMap<String, Choice>,
}

/// The key of a choice tuned on the GPU named `device` (`DeviceInfo::name`)
/// for `dtype` at `m×n×k` (the shape the kernel runs: after a column-major
/// C's swap, [`crate::api::Plan`]'s).
pub fn cache_key(device: &str, dtype: Dtype, m: usize, n: usize, k: usize) -> String {
    format!("{device}|{}|{m}x{n}x{k}", dtype.name())
}

impl TuneCache {
    /// Reads the cache; a missing file is an empty cache.
    pub fn load(path: &Path) -> Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| GemmError::TuneCache {
                path: path.display().to_string(),
                reason: format!("not valid JSON ({e}); delete it to start over"),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TuneCache::default()),
            Err(e) => Err(GemmError::TuneCache { path: path.display().to_string(), reason: e.to_string() }),
        }
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let io = |e: std::io::Error| GemmError::TuneCache { path: path.display().to_string(), reason: e.to_string() };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(path, serde_json::to_string_pretty(self).expect("serializable")).map_err(io)
    }

    /// The entry tuned on the GPU named `device` for `dtype` at `m×n×k`.
    /// Whether it can run a given call is [`crate::api::choice::choose_kernel`]'s
    /// question.
    pub fn get(&self, device: &str, dtype: Dtype, m: usize, n: usize, k: usize) -> Option<&Choice> {
        self.entries.get(&cache_key(device, dtype, m, n, k))
    }
}

/// [`TuneCache::load`], or `None` after warning (once per process, so a
/// sweep over many shapes says it once) that the cache is ignored.
pub fn load_or_warn(path: &Path) -> Option<TuneCache> {
    static WARNED: std::sync::Once = std::sync::Once::new();
    TuneCache::load(path)
        .map_err(|e| WARNED.call_once(|| eprintln!("warning: {e}; ignored, using the built-in choices")))
        .ok()
}

/// This process's tuned choices: [`cache_path`]'s file, read on first use
/// and kept (a cache `gemm tune` writes later in the process is not seen).
/// `None` when turned off or unreadable (with [`load_or_warn`]'s warning).
pub fn tuned_choices() -> Option<&'static TuneCache> {
    static TUNED: OnceLock<Option<TuneCache>> = OnceLock::new();
    TUNED.get_or_init(|| cache_path().and_then(|path| load_or_warn(&path))).as_ref()
}
