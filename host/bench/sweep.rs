//! `gemm sweep`: the library's choice (`--kernel auto`) beside cuBLAS on a
//! grid of shapes and dtypes, each result checked against f64, written as
//! CSV, JSON and an SVG plot. The default grid is squares from 256 to 16384
//! plus the shape classes where GEMM libraries differ most: deep K,
//! matrix–vector, shallow K and sizes that are no multiple of any tile.

use crate::bench::cublas::Cublas;
use crate::bench::run::Problem;
use crate::bench::timing::gbytes_per_s;
use crate::bench::tune;
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::kernels::{Dtype, MAX_DIM};
use plotters::prelude::*;
use rand::Rng;
use std::path::Path;

/// One shape of the sweep, with the class it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepShape {
    pub class: &'static str,
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

const fn shape(class: &'static str, m: usize, n: usize, k: usize) -> SweepShape {
    SweepShape { class, m, n, k }
}

/// Square sizes of the default grid.
pub const SQUARES: [usize; 12] = [256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384];

/// The default grid: the squares, then each class of issue 11's table,
/// with shapes of each class off the round sizes that the probes of
/// PERF.md steps 64 and 99 found weak (deep K over few, part-empty tiles,
/// and over odd rows; N ≤ 16 with X read along K, K odd; M ≤ 16 over odd
/// rows; shallow K with N odd, where C's rows are off 16 bytes; odd sizes
/// near 1000, where the tiles fill one and a bit waves).
pub fn default_grid() -> Vec<SweepShape> {
    let mut grid: Vec<SweepShape> = SQUARES.iter().map(|&s| shape("square", s, s, s)).collect();
    grid.extend([
        shape("deep-k", 128, 128, 65536),
        shape("deep-k", 256, 256, 131072),
        shape("deep-k", 64, 192, 300_000),
        shape("deep-k", 200, 200, 100_000),
        shape("deep-k", 47, 307, 53605),
        shape("mat-vec", 1, 8192, 8192),
        shape("mat-vec", 8192, 1, 8192),
        shape("mat-vec", 16, 16384, 4096),
        shape("mat-vec", 16384, 16, 4096),
        shape("mat-vec", 100_000, 16, 777),
        shape("mat-vec", 8, 42212, 501),
        shape("shallow-k", 8192, 8192, 16),
        shape("shallow-k", 6000, 5000, 64),
        shape("shallow-k", 6492, 5009, 24),
        shape("odd", 4000, 3000, 1000),
        shape("odd", 1999, 2003, 997),
        shape("odd", 5003, 4001, 3001),
        shape("odd", 1031, 1029, 1027),
        shape("odd", 777, 999, 3333),
        shape("odd", 1, 1, 1),
    ]);
    grid
}

/// Parses `MxNxK[,MxNxK...]` into shapes of class "custom"; each dimension
/// in `1..=MAX_DIM`, the kernels' limit.
pub fn parse_shapes(list: &str) -> Result<Vec<SweepShape>> {
    list.split(',')
        .map(|item| {
            let dims: Vec<Option<usize>> = item.trim().split(['x', 'X', '×']).map(|d| d.trim().parse().ok()).collect();
            match dims[..] {
                [Some(m), Some(n), Some(k)] if [m, n, k].iter().all(|d| (1..=MAX_DIM).contains(d)) => {
                    Ok(shape("custom", m, n, k))
                }
                _ => Err(GemmError::Shape(format!(
                    "sweep shape `{}`: expected MxNxK with each dimension in 1..={MAX_DIM}",
                    item.trim()
                ))),
            }
        })
        .collect()
}

/// One measured point: the library's choice and cuBLAS on the same problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepRow {
    pub class: &'static str,
    pub dtype: &'static str,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub kernel: String,
    pub median_ms: f64,
    pub tflops: f64,
    pub cublas_tflops: Option<f64>,
    pub pct_cublas: Option<f64>,
    /// Bytes of A, B and C moved once, per second: the measure that matters
    /// when M or N is tiny and the GEMM is bound by memory.
    pub gbytes_per_s: f64,
    pub rel_err: f64,
    pub cublas_rel_err: Option<f64>,
    pub ok: bool,
}

impl SweepRow {
    /// `(M·N·K)^(1/3)`: one size axis for squares and non-squares alike.
    pub fn cube_size(&self) -> f64 {
        (self.m as f64 * self.n as f64 * self.k as f64).cbrt()
    }
}

/// Runs `--kernel auto` and cuBLAS on fresh random inputs of one shape.
pub fn measure<T: Element>(
    gpu: &Gpu,
    cublas: Option<&Cublas>,
    dtype: Dtype,
    at: SweepShape,
    iters: usize,
    rng: &mut impl Rng,
) -> Result<SweepRow> {
    let mut problem = Problem::<T>::new(gpu, dtype, at.m, at.n, at.k, rng)?;
    let baseline = cublas.map(|c| problem.baseline(gpu, c, iters)).transpose()?;
    let choice = tune::choose(gpu, dtype, at.m, at.n, at.k);
    let row = problem.run(gpu, choice.spec(dtype)?, Some(choice.group_m), iters, baseline.as_ref())?;
    Ok(SweepRow {
        class: at.class,
        dtype: dtype.name(),
        m: at.m,
        n: at.n,
        k: at.k,
        kernel: row.kernel,
        median_ms: row.median_ms,
        tflops: row.tflops,
        cublas_tflops: row.cublas_tflops,
        pct_cublas: row.pct_cublas,
        gbytes_per_s: gbytes_per_s(at.m, at.n, at.k, std::mem::size_of::<T>(), row.median_ms),
        rel_err: row.rel_err,
        cublas_rel_err: baseline.map(|b| b.rel_err),
        ok: row.ok,
    })
}

fn output_error(path: &Path, reason: impl std::fmt::Display) -> GemmError {
    GemmError::Output { path: path.display().to_string(), reason: reason.to_string() }
}

/// Writes the rows as CSV (one header line, one line per row).
pub fn write_csv(path: &Path, rows: &[SweepRow]) -> Result<()> {
    let mut writer = csv::Writer::from_path(path).map_err(|e| output_error(path, e))?;
    for row in rows {
        writer.serialize(row).map_err(|e| output_error(path, e))?;
    }
    writer.flush().map_err(|e| output_error(path, e))
}

/// Writes the rows as one JSON array.
pub fn write_json(path: &Path, rows: &[SweepRow]) -> Result<()> {
    let text = serde_json::to_string_pretty(rows).map_err(|e| output_error(path, e))?;
    std::fs::write(path, text).map_err(|e| output_error(path, e))
}

/// Colours per dtype, the same in both panels.
fn dtype_colour(dtype: &str) -> RGBColor {
    match dtype {
        "f32" => RGBColor(31, 119, 180),
        "tf32" => RGBColor(44, 160, 44),
        "f16" => RGBColor(214, 39, 40),
        _ => RGBColor(148, 103, 189),
    }
}

/// Draws two panels against size (`(M·N·K)^(1/3)`, log scale): TFLOP/s
/// (ours solid, cuBLAS dashed; squares joined by lines, other classes as
/// points) and % of cuBLAS (100 % marked).
pub fn plot_svg(path: &Path, rows: &[SweepRow], title: &str) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| output_error(path, e);
    if rows.is_empty() {
        return Err(output_error(path, "no results to plot"));
    }
    let root = SVGBackend::new(path, (1100, 1000)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(|e| err(&e))?;
    let (top, bottom) = root.split_vertically(500);
    let x_min = rows.iter().map(SweepRow::cube_size).fold(f64::INFINITY, f64::min).max(1.0) * 0.8;
    let x_max = rows.iter().map(SweepRow::cube_size).fold(1.0, f64::max) * 1.25;
    let y_max = rows.iter().flat_map(|r| [r.tflops, r.cublas_tflops.unwrap_or(0.0)]).fold(1.0, f64::max) * 1.1;
    let pct_max = rows.iter().filter_map(|r| r.pct_cublas).fold(110.0, f64::max).min(400.0) * 1.05;
    let mut dtypes: Vec<&str> = rows.iter().map(|r| r.dtype).collect();
    dtypes.dedup();

    let mut speed = ChartBuilder::on(&top)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .caption(
            "TFLOP/s: rgemm --kernel auto (solid), cuBLAS (dashed); squares joined, other classes as points",
            ("sans-serif", 16),
        )
        .build_cartesian_2d((x_min..x_max).log_scale(), 0.0..y_max)
        .map_err(|e| err(&e))?;
    speed.configure_mesh().x_desc("(M·N·K)^(1/3)").y_desc("TFLOP/s").draw().map_err(|e| err(&e))?;
    let mut ratio = ChartBuilder::on(&bottom)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .caption("% of cuBLAS, same run", ("sans-serif", 16))
        .build_cartesian_2d((x_min..x_max).log_scale(), 0.0..pct_max)
        .map_err(|e| err(&e))?;
    ratio.configure_mesh().x_desc("(M·N·K)^(1/3)").y_desc("% of cuBLAS").draw().map_err(|e| err(&e))?;
    ratio
        .draw_series(LineSeries::new([(x_min, 100.0), (x_max, 100.0)], BLACK.mix(0.4).stroke_width(1)))
        .map_err(|e| err(&e))?;

    for dtype in dtypes {
        let colour = dtype_colour(dtype);
        let of_dtype: Vec<&SweepRow> = rows.iter().filter(|r| r.dtype == dtype).collect();
        let mut squares: Vec<&SweepRow> = of_dtype.iter().copied().filter(|r| r.class == "square").collect();
        squares.sort_by(|a, b| a.cube_size().total_cmp(&b.cube_size()));
        speed
            .draw_series(LineSeries::new(squares.iter().map(|r| (r.cube_size(), r.tflops)), colour.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(dtype)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
        speed
            .draw_series(DashedLineSeries::new(
                squares.iter().filter_map(|r| r.cublas_tflops.map(|c| (r.cube_size(), c))),
                6,
                4,
                colour.stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
        speed
            .draw_series(of_dtype.iter().map(|r| Circle::new((r.cube_size(), r.tflops), 3, colour.filled())))
            .map_err(|e| err(&e))?;
        ratio
            .draw_series(LineSeries::new(
                squares.iter().filter_map(|r| r.pct_cublas.map(|p| (r.cube_size(), p.min(pct_max)))),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(&e))?
            .label(dtype)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
        ratio
            .draw_series(
                of_dtype.iter().filter_map(|r| {
                    r.pct_cublas.map(|p| Circle::new((r.cube_size(), p.min(pct_max)), 3, colour.filled()))
                }),
            )
            .map_err(|e| err(&e))?;
    }
    for chart in [&mut speed, &mut ratio] {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dtype: &'static str, class: &'static str, s: usize, tflops: f64) -> SweepRow {
        SweepRow {
            class,
            dtype,
            m: s,
            n: s,
            k: s,
            kernel: "k".into(),
            median_ms: 1.0,
            tflops,
            cublas_tflops: Some(tflops * 1.2),
            pct_cublas: Some(100.0 / 1.2),
            gbytes_per_s: 1.0,
            rel_err: 1e-7,
            cublas_rel_err: Some(1e-7),
            ok: true,
        }
    }

    #[test]
    fn default_grid_covers_every_class() {
        let grid = default_grid();
        for class in ["square", "deep-k", "mat-vec", "shallow-k", "odd"] {
            assert!(grid.iter().any(|s| s.class == class), "{class} missing");
        }
        assert!(grid.iter().any(|s| s.m == 16384 && s.n == 16384 && s.k == 16384));
        assert!(grid.iter().any(|s| s.m == 1 || s.n == 1));
    }

    #[test]
    fn parse_shapes_reads_lists_and_rejects_bad_ones() {
        let shapes = parse_shapes("1x2x3, 4X5X6").unwrap();
        assert_eq!(shapes, vec![shape("custom", 1, 2, 3), shape("custom", 4, 5, 6)]);
        for bad in ["1x2", "0x1x1", "ax1x1", "1x2x3x4", ""] {
            assert!(parse_shapes(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn writes_csv_json_and_svg() {
        let dir = std::env::temp_dir().join(format!("rgemm-sweep-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = vec![row("f32", "square", 256, 5.0), row("f32", "square", 512, 9.0), row("f16", "odd", 300, 40.0)];
        write_csv(&dir.join("s.csv"), &rows).unwrap();
        write_json(&dir.join("s.json"), &rows).unwrap();
        plot_svg(&dir.join("s.svg"), &rows, "test").unwrap();
        let csv = std::fs::read_to_string(dir.join("s.csv")).unwrap();
        assert_eq!(csv.lines().count(), 4);
        assert!(csv.starts_with("class,dtype,m,n,k,kernel"));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
        assert_eq!(json.as_array().unwrap().len(), 3);
        let svg = std::fs::read_to_string(dir.join("s.svg")).unwrap();
        assert!(svg.contains("<svg") && svg.contains("% of cuBLAS") && svg.contains("f16"));
        assert!(plot_svg(&dir.join("empty.svg"), &[], "t").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
