//! Benchmarking tools on top of the public API: a problem checked against an
//! f64 [`reference`](mod@reference) and timed with CUDA events ([`timing`]) beside
//! [`cublas`] ([`run`]), host matrices ([`matrix`]), and the tuner that picks
//! the fastest configuration for a shape ([`tune`]), the shape sweep
//! ([`sweep`]), and the built-in choice's thresholds derived from runs
//! ([`rules`]).
//!
//! Uses [`crate::api`] and [`crate::driver`]; nothing in them uses it.

pub mod cublas;
pub mod matrix;
pub mod reference;
pub mod rules;
pub mod run;
pub mod sweep;
pub mod timing;
pub mod tune;
