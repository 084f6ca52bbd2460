#!/usr/bin/env bash
# Runs on the GPU machine over a bundle from scripts/device-bundle.sh, in
# parts (default: all, in this order):
#   coldstart   first result of `gemm --kernel auto` with an empty driver cache,
#               then warm, then with CUDA_CACHE_DISABLE=1 (cold and one warm
#               run traced: RGEMM_TRACE=1, ms per start-up phase in their logs):
#               seconds to the first checked row and to the process's end;
#               the driver's own start alone (python ctypes) as the floor
#   tests       every test binary (GPU tests must not skip here; TESTS=name
#               runs one)
#   bench       `gemm` on the seeds' shape, 4096³ and `--kernel auto`
#   criterion   the criterion bench (`cargo bench`)
#   step10      the warp-specialized TMA kernels beside step 9 and cuBLAS
#   cluster     step 10c (2×1 clusters, B multicast) beside step 10/10b and
#               cuBLAS at issue 10's shapes, alternating, ROUNDS rounds (2)
#   clusterk    step 10c beside step 10 (f16) where K is short or the size odd,
#               alternating, two rounds
#   clusterodd  which dimension of 4000×3000×4000 slows step 10 and not 10c:
#               each of M, N, K moved to a multiple of 128 alone, f16 and TF32
#   tiles       step 10/10b's 128×256, 128×192 and 128×128 tiles from 1536³
#               to 16384²×1024, each dtype, beside cuBLAS: the rates and wave
#               fills the built-in choice weighs
#   mid         step 10's 128×256 and 128×128 tiles where 128×256 leaves SMs idle
#   classes     issue 11's weak classes with `gemm sweep --shapes` (deep K, odd
#               sizes through realigned copies, M or N = 16), and the named
#               kernels the realign threshold and the skinny rule are made from
#   f32mid      step 7b's 256×128 and 128×128 tiles at mid sizes, split and
#               unsplit, beside `auto`
#   tf32mid     step 10b's 128×256 and 128×128 tiles on TF32 squares from 512
#               to 3072, and `auto` on TF32's mid-sized and odd shapes by sweep
#   automid     `auto` alone on squares 1536–6144, the seeds' shape, an odd
#               size and N = 129, by sweep (the wave-fill choice of step 46)
#   autoclasses `auto` alone on the classes of `classes`, by sweep
#   groupm      step 10's grouped tile order on or off at shallow K and 2048³
#   skinnyrows  f32/TF32 skinny kernels of 4 and 16 rows per block at 8–16
#               rows, and step 10's ablations where K is short
#   splitk      split-K on step 10's f32-output twins (PERF step 39): the chunk
#               at deep K, mid squares split by hand, skinny calls, and TF32's
#               f32 epilogue at large shapes
#   survey      every kernel of the dtype (`--kernel all`) at the shapes where
#               `auto` stayed under 75% of cuBLAS in the last sweep: is the
#               loss the choice's or every kernel's?
#   deepk       f32 and TF32 deep K (few tiles, split): `auto` beside each tile
#               the partial sums could run on (the split follows the kernel)
#   skinnytf32  TF32 with M or N of 2 to 16: the memory-bound kernels beside
#               step 10b's 128×128 and step 9b's 128×256 tiles; and step 10c
#               against step 10 where M holds one to three tile rows
#   streamk     step 10e (stream-K) beside step 10/10b's 128×256 tiles,
#               128×192 and `auto`, each dtype, where the last wave is
#               part-empty, and where stream-K's rule declines (2048³, 4096³)
#   sksan       compute-sanitizer memcheck and racecheck on step 10e's
#               shared tiles (many partials per head; a batch of two)
#   fixedcost   where step 10 loses at mid sizes: f16 time against K at
#               M = N = 2048 and 4096 beside cuBLAS (the slope is the main
#               loop's rate, the intercept the cost paid once per launch),
#               the kernels in VARIANTS (bundle dirs) alternating with the
#               bundle's and the ablation storing C from registers, and ncu
#               on cuBLAS's kernels at 2048³ and 4096³ (FIXEDCOST_NCU=0: not)
#   variants    `auto` and step 10/10b's 128×256 tiles at issue 10's shapes and
#               TF32's mid squares, the bundle alternating with the bundles
#               in VARIANTS (dirs), two rounds: a change against the build
#               before it, each line with cuBLAS in the same process
#   deeptiles   deep K on tiles that pad less (PERF step 54): `auto` at
#               64×192×300000 and its neighbours in every dtype, the bundle
#               alternating with VARIANTS; the partials' tiles named one by
#               one (16-bit 128×128 or 128×192 twins, TF32 `mma` 64×128 or
#               64×192, f32 `db_64x64x16`, `wt_64x128x8`, `wt_128x128x8`),
#               the 128×192 twins' chunk, and f32 mid squares on 64×128
#   splitcost   ncu on deep-K split calls: each kernel's time (partial sums,
#               combine, epilogue, cuBLAS's) and SM, L2 and DRAM throughput
#   chunkscan   the deep-K split's chunk by hand: chunks that divide K (one
#               launch) beside the rule's and others, two rounds
#   splitrule   `auto` where PERF step 55's split rule changes the split, each
#               dtype, alternating with VARIANTS, two rounds
#   tf32deep    TF32 deep K with several tiles: each kernel the partial sums
#               could run on, beside `auto`; f32 16×16384×4096 on every kernel
#   tf32fewk    TF32 of few tiles at K 2048–8192: `auto` beside the deep-K
#               list's kernels and step 10b unsplit, two rounds
#   tf32fewkauto `auto` on those shapes, alternating with VARIANTS (PERF step 58)
#   tf32deepmid TF32 of 25–98 tiles at K > 8192: `auto` beside step 10b unsplit
#   shortk      step 61's short-K split (f32 `auto`) beside VARIANTS' bundles
#   smallsplit  f32 squares 512-1024 with each small-tile kernel split by hand
#   smallsq     f32 and TF32 squares of 256 to 768: each candidate kernel
#               named beside `auto`, two rounds
#   deepsan     compute-sanitizer memcheck, racecheck, synccheck and initcheck on
#               step 54's kernels: the 128×192 f32-output twins and TF32
#               `mma` 64×192 as deep-K partials, `wt_64x128x8` and
#               `mma_64x192x32` named, on odd shapes
#   splitsan    compute-sanitizer memcheck, racecheck, synccheck and initcheck
#               on PERF step 55's splits through `auto` (two combine passes,
#               exact chunks, a short last chunk)
#   boxsan      compute-sanitizer memcheck, racecheck and synccheck on step 10
#               with C staged box by box (`ablate_ws_4_stages`) and on step 10,
#               over more tiles than SMs (staging buffers reused across tiles)
#   skinnyring  f32/TF32 with M of 5 to 16 (X read along L): the 16-row
#               kernel's `cp.async` ring beside 4-row groups, `auto`, and
#               TF32's `wgmma` tiles, the bundle alternating with VARIANTS,
#               two rounds; compute-sanitizer on the ring (edge columns, a
#               short last stage, persistent blocks over several tiles)
#   swapped     step 10f (TF32, row-major B through registers): the swapped
#               tiles named beside step 10b's (B copied transposed) and
#               `auto`, at squares, deep K and few tiles at K 2048-8192,
#               two rounds; `auto` alternating with VARIANTS; sanitizers
#   bigtf32     TF32 at 12288-16384 (M, N and K each moved alone): step 10f's
#               256×128 tiles with tile-row groups of 16, 8 and 4 beside its
#               128×128 tiles and step 10b's 128×256
#   skinnyrs    TF32 with M of 8 to 16 (row-major A and B): step 10f's 16×128
#               tiles beside step 9b's 128×256 and the memory-bound kernel,
#               and `auto` alternating with VARIANTS, two rounds; sanitizers
#   probe       `auto` by sweep at shapes of each class of issue 11 that the
#               default sweep does not hold (short K with M or N ≤ 16, deep K
#               of other tile counts, shallow K, squares between the grid's,
#               small and large odd sizes), every dtype, 30 launches
#   splitprobe  the probe's weak rows by hand: mid-sized calls at K 3333-4096
#               on each tile with chunks that divide K, leave a short last
#               chunk, or none; the memory-bound kernels by rows per block at
#               short K; two rounds
#   f32midk     f32 of 36-288 tiles at K 3000-8192: `auto` beside each f32
#               tile split by hand into chunks of 256-1024; 16-bit calls with
#               M of 2-3 on the memory-bound kernel and on step 10's tiles
#   midrules    PERF step 64's rules: `auto` alternating with VARIANTS, two
#               rounds, where they change the call (f32 few tiles at K ≥ 4096
#               on the deep-K list's tile, split; TMA splits without a short
#               last chunk; 16-bit M of 2-3 on step 10's tiles); and the f32
#               16-row ring at two blocks per SM (`skinny_r16_2cta`) beside
#               one (`skinny_r16`), short K to long, both access patterns
#   f32align    PERF step 66: f32 `auto` on rows off 16 bytes (realigned
#               copies first) alternating with VARIANTS, two rounds, odd
#               shapes from below the threshold to 5003×4001×3001, and an
#               aligned control
#   alignsan    compute-sanitizer memcheck and racecheck on step 66's
#               realigned f32 calls (unsplit on both kernel families, split)
#   alongk      PERF step 67: f32 with N of 9-16 and a row-major A (X read
#               along K), and TF32 with N of 6-16, `auto` alternating with
#               VARIANTS, two rounds; the
#               16-row kernels (one and two blocks per SM) beside 4-row
#               groups at N of 5-16; compute-sanitizer on the along-K ring
#   f32weak     f32 shapes under 75% of cuBLAS in the last probe (odd mid
#               sizes, few tiles at deep K): every f32 kernel, split-K off
#               and `auto`
#   f32model    step 73: f32 `auto` (split model) against VARIANTS; memcheck on ragged splits
#   f32odd      f32 at odd sizes: chunks that divide K beside today's split
#   f32align2   f32 mid squares with rows on and off 16 bytes (1024, 1031,
#               1032, 1040; 768, 767×769×771, 776): each small-tile kernel
#               unsplit, and split in two, beside `auto`: is the loss at odd
#               sizes the element-by-element loads or the tile count?
#   skinny16odd f16/bf16 with M or N of 9-16 whose large operand's rows
#               are off 16 bytes (the TMA refuses them unless realigned):
#               `auto` (the memory-bound kernel) beside step 10's tiles on
#               realigned copies (named) and the 4-row kernel; `auto`
#               alternating with VARIANTS (PERF step 68); memcheck
#   ringcheck   both 16-row rings (along L and along K): `auto` alternating
#               with VARIANTS at five shapes (RING_ODD=1: and three whose
#               B rows are off 16 bytes), two rounds; memcheck and
#               racecheck through each ring (after a change to their code)
#   skinnymma   step 70: f16/bf16 with M or N ≤ 16 on the skinny `mma.sync`
#               tiles (named) beside step 10's 128×128 tiles and `auto`;
#               the vectorized realigning copies through `auto` on odd
#               shapes (16-bit skinny and squares, f32), each alternating
#               with VARIANTS; memcheck and racecheck on the new kernels and
#               on a realigned call
#   skinnyodd   step 72: f16/bf16 skinny calls whose large operand's rows are
#               off 16 bytes on step 70's tiles (realigned in shared memory,
#               named, unsplit) beside `auto`, which alternates with
#               VARIANTS (step 10 on realigned copies); the four sanitizers
#               on the realigning path of both tiles
#   newsan      synccheck and initcheck (TOOLS picks) on the kernels changed
#               since the last full sanitizers run: both 16-row rings, step
#               70's skinny tiles, and the realigning copies (16-bit, f32)
#   reduce      step 74: split calls through `auto` (9-64 slabs: one
#               reduction launch; more: combine passes first) alternating
#               with VARIANTS, two rounds, each dtype; the four sanitizers on
#               the two-level epilogue (with and without combine passes)
#   skinnydeep  step 75: 16-bit deep K on the memory-bound path (M = 1, or
#               N under 8 below M), split onto the memory-bound kernels'
#               own f32-output twins: `auto` alternating with VARIANTS, two
#               rounds; memcheck and racecheck on both access patterns
#   alignk      f32/TF32 with N ≤ 16 and A's rows on and off 16 bytes (the
#               along-K ring; PERF step 76 tried copies by each row's
#               offset), `auto` alternating with VARIANTS, two rounds; the
#               four sanitizers through the ring
#   f32diag     where f32 loses at odd sizes: 128×128 tiles split (and not)
#               at 1031×1029×1027 and 777×999×3333 with each of A's, B's and
#               C's rows moved onto 16 bytes alone; ncu on `auto` and
#               cuBLAS there and at 1032³ (per kernel: time, grid, registers,
#               issue and memory-pipe load)
#   spread      step 77 (tried, reverted): f32 operands whose rows along M or N are off 16
#               bytes, loaded in consecutive elements: `auto` alternating
#               with VARIANTS at odd and aligned f32 shapes, two rounds;
#               named tiles unsplit; the 128×128 tile's chunk at
#               780×1000×3336 and 3360; memcheck and racecheck on each
#               register-staged family off 16 bytes
#   f32choice   step 78: f32 calls from 2³⁰ flop realigned into copies, and
#               `db_128x64x16` modeled at its two blocks per SM: `auto`
#               alternating with VARIANTS at odd and mid f32 shapes, two
#               rounds; `db_128x64x16` named (its launch bound is new);
#               the 128×128 tile's chunk scanned at 780×1000×3336;
#               memcheck through the copies and `db_128x64x16`, racecheck
#   dot         step 79: the memory-bound kernels' "dot" pattern where both
#               sides are tiny (long side ≤ 8): `auto` alternating with
#               VARIANTS, two rounds, each dtype; the four sanitizers on it
#   klast       step 80: the memory-bound kernels run a split's shorter last
#               chunk in the launch of the others: `auto` alternating with
#               VARIANTS at deep K with ragged splits, two rounds; the
#               ragged-split and memory-bound tests of `library`,
#               `accuracy` and `split_k`; memcheck and racecheck
#   small64     f32 64×64 warp tiles (register-staged and cp.async), named
#               and split by hand at sizes no multiple of a tile, beside
#               `auto`; their tests and sanitizers; memcheck on step 81
#   f32small    step 83: `auto` with wt_64x64x8 in the f32 split model
#               alternating with VARIANTS, f32 256³ to 4000×3000×1000; the
#               splits it weighs, named
#   san83       step 83's 64×64 kernels (named, split) and `auto` at
#               767×769×771 under memcheck, racecheck, synccheck, initcheck
#   small64b    step 84 (tried, removed): 64×64×16 and 64×64 of two warps
#               against 64×64×8, named (needs the bundle that had them)
#   n4tiles     16-bit N = 2-4 on the memory-bound r4 kernel against the
#               64×16 and 128×128 tensor-core tiles, named
#   n4auto      step 85: 16-bit N of 2 to 7 on the 64×16 tiles, `auto`
#               alternating with VARIANTS; tests and sanitizers
#   sweep       `gemm sweep` (CSV, JSON, SVG)
#   sanitizers  compute-sanitizer memcheck/racecheck/synccheck/initcheck
# Usage: device-check.sh [bundle-dir] [part...]. Logs go to $OUT/<part>/ (or
# ./device-out), packed into $OUT/logs.tar.gz; a summary is printed last and
# kept in $OUT/summary.txt.
set -u
B=${1:-device-bundle}
shift || true
PARTS=${*:-coldstart step10 tests library bench criterion sweep sanitizers}
OUT=${OUT:-device-out}; mkdir -p "$OUT"
LOGS=$OUT/logs; mkdir -p "$LOGS"
export RGEMM_GEMM_BIN=$B/gemm RGEMM_TUNE_CACHE=$LOGS/tune.json
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary=()
note() { summary+=("$*"); echo "== $*"; }
# A summary line of a log of `gemm` runs: its checked results and failures.
tally() { note "$1: $(grep -c pass "$2") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$2") failures"; }
# One compute-sanitizer run (tool, log, then the bundle's command and its
# arguments), its summary line noted.
sanitize() {
  local tool=$1 log=$2 cmd=$3; shift 3
  timeout 300 "$SAN" --tool "$tool" --error-exitcode 3 "$cmd" "$@" >"$log" 2>&1
  note "compute-sanitizer --tool $tool ${cmd#"$B"/} $*: rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log" | tr '\n' ' ')"
}
# memcheck (dtype: the first of `$1`) and racecheck (the second) on each
# kernel named after the shape `$2` ("M N K"), split-K off.
sanitize_kernels() {
  local dtypes=($1) shape=($2) kernel; shift 2
  for kernel in "$@"; do
    sanitize memcheck "$L/san-memcheck-$kernel.log" "$B/gemm" --m ${shape[0]} --n ${shape[1]} --k ${shape[2]} \
      --dtype ${dtypes[0]} --kernel $kernel --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-$kernel.log" "$B/gemm" --m ${shape[0]} --n ${shape[1]} --k ${shape[2]} \
      --dtype ${dtypes[1]} --kernel $kernel --split-k off --iters 1 --no-cublas
  done
}
# Step 86's sanitizer runs: memcheck on `skinny_mma` (N of 3 to 7, K
# odd, and a split's f32 partials), racecheck on its shared-memory sum,
# memcheck on step 85's route (`auto` onto the 64×16 tiles).
step86_sanitizers() {
    for shape in "8300 3 777" "4099 5 1024" "1000 7 20001"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-$1x$2x$3.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 \
        --kernel skinny_mma --iters 1 --no-cublas
    done
    sanitize racecheck "$L/san-racecheck-8300x3x777.log" "$B/gemm" --m 8300 --n 3 --k 777 --dtype bf16 \
      --kernel skinny_mma --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-n3-route.log" "$B/gemm" --m 100000 --n 3 --k 776 --dtype f16 --kernel auto \
      --iters 1 --no-cublas
}
# One `gemm` call on the bundle, then on each bundle in VARIANTS, each
# headed by its bundle's path (the time limit catches a hung barrier).
each_bundle() {
  local bundle
  for bundle in "$B" ${VARIANTS:-}; do
    echo "# $bundle"
    timeout 120 "$bundle/gemm" "$@"
    if [ $? = 124 ]; then echo "TIMEOUT (hang?) $bundle $*"; fi
  done
}
# Wall seconds of one command (its output to a log).
seconds() { local log=$1; shift; local t0; t0=$(date +%s.%N); "$@" >"$log" 2>&1; local rc=$?; awk -v a="$t0" -v b="$(date +%s.%N)" -v rc=$rc 'BEGIN { printf "%.2f rc=%s", b - a, rc }'; }

# `gemm sweep` at the shapes `$2` (of the dtype `$3`, default all) on the
# bundle, on VARIANTS' first bundle, then on the bundle again (new1, old,
# new2), each into $L/<round>; `$1` heads the summary lines.
sweeps_new_old_new() {
  local what=$1 shapes=$2 dtype=${3:-all} round bundle
  for round in new1 old new2; do
    bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
    "$bundle/gemm" sweep --dtype "$dtype" --shapes "$shapes" --iters 20 --out "$L/$round" >"$L/$round.log" 2>&1
    note "$what $round ($bundle): rc=$? $(tail -1 "$L/$round.log")"
  done
}
# `sweeps_new_old_new` for one dtype `$3`, into $L/<dtype>-<round>, so that
# several types' rounds can share a part's folder.
typed_sweeps_new_old_new() {
  local what=$1 shapes=$2 dtype=$3 round bundle
  for round in new1 old new2; do
    bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
    "$bundle/gemm" sweep --dtype $dtype --shapes "$shapes" --iters 20 --out "$L/$dtype-$round" \
      >"$L/$dtype-$round.log" 2>&1
    note "$what $dtype $round ($bundle): rc=$? $(tail -1 "$L/$dtype-$round.log")"
  done
}
# f32 `auto` at each shape ("M N K") on every bundle (each_bundle), two
# rounds, into the log `$1`; `$2` heads the summary line.
f32_auto_rounds() {
  local log=$1 what=$2 round shape; shift 2
  local shapes=("$@")
  for round in 1 2; do
    for shape in "${shapes[@]}"; do
      set -- $shape
      each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
    done
  done 2>&1 | tee "$log"
  note "$what: $(grep -c pass "$log") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$log") failures"
}
# Each kernel's time (ncu) in `auto`'s call at each "dtype M N K" after
# `$1` (the summary lines' head), into $L/ncu-<dtype>-<M>x<N>x<K>.txt.
ncu_auto_times() {
  local what=$1 run ncu metrics=gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
  shift
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for run in "$@"; do
    set -- $run
    timeout 200 "$ncu" --clock-control none --metrics "$metrics" \
      "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 --no-cublas >"$L/ncu-$1-$2x$3x$4.txt" 2>&1
    note "$what ncu $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-$1-$2x$3x$4.txt") kernels profiled"
  done
}

# ncu's metrics of `auto`'s launches at each "dtype M N K" after the first
# argument, "what seconds label regex metrics": ours alone (cuBLAS off),
# then again with cuBLAS's kernels (those `regex` matches) beside, each
# under `seconds`, into $L/ncu-ours-* and $L/ncu-<label>-*.
ncu_ours_and_cublas() {
  local what secs label regex metrics run ncu
  read -r what secs label regex metrics <<<"$1"; shift
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for run in "$@"; do
    set -- $run
    timeout $secs "$ncu" --clock-control none --metrics "$metrics" \
      "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 --no-cublas >"$L/ncu-ours-$1-$2x$3x$4.txt" 2>&1
    note "$what ours $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-ours-$1-$2x$3x$4.txt") kernels"
    timeout $secs "$ncu" --clock-control none --metrics "$metrics" -k regex:"$regex" \
      "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 >"$L/ncu-$label-$1-$2x$3x$4.txt" 2>&1
    note "$what $label $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-$label-$1-$2x$3x$4.txt") kernels"
  done
}

# GPU tests, each "binary filter seconds" under its own limit (a host
# deadlock costs only its limit), each with its log in $L and a line in
# the summary.
limited_tests() {
  local t r log
  for t in "$@"; do
    set -- $t
    log=$L/test-$1-$2.log
    if timeout $3 "$B/tests/$1" $2 --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/$1 $2: $r ($(grep -h 'test result' "$log" | tail -1))"
  done
}

# `limited_tests` for each "binary filter seconds", all at once (the GPU
# tests' f64 references share the CPU cores; their results do not depend on
# time), then each log's result line in the summary.
tests_side_by_side() {
  local t log
  for t in "$@"; do limited_tests "$t" & done
  wait
  for log in "$L"/test-*.log; do note "$(basename "$log"): $(grep -h 'test result' "$log" | tail -1)"; done
}

# Every `library` and `accuracy` test, each in a process of its own, and
# the `gpu` tests, side by side (`tests_side_by_side`), each cut off at
# `$1` seconds.
every_test_side_by_side() {
  local runs=("gpu _ $1") bin t
  for bin in library accuracy; do
    for t in $("$B/tests/$bin" --list 2>/dev/null | sed -n 's/: test$//p'); do runs+=("$bin $t $1"); done
  done
  tests_side_by_side "${runs[@]}"
}

# Step 104's comparisons: 16-bit `gemm sweep` at the shapes `$2` on the
# bundle, on VARIANTS' first bundle, then on the bundle again, for f16
# and bf16, noted under `$1`; and the new kernels named against `auto`
# where B's rows are on 16 bytes (f16).
step104_rounds() {
  local what=$1 shapes=$2 dtype round bundle
  for dtype in f16 bf16; do
    for round in new1 old new2; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      timeout 100 "$bundle/gemm" sweep --dtype $dtype --shapes "$shapes" --iters 20 --out "$L/$dtype-$round" \
        >"$L/$dtype-$round.log" 2>&1
      note "$what $dtype $round ($bundle): rc=$? $(tail -1 "$L/$dtype-$round.log")"
    done
  done
}
step104_named() {
  local shape kernel tile
  for shape in "8 42216 504" "16 16384 4096" "16 200000 256" "4 80000 320" "12 50000 384" "2 100000 512" \
               "16 4096 1536" "8 16384 16384"; do
    set -- $shape
    tile=skinny_mma_l; [ $1 -gt 8 ] && tile=skinny_mma_l_r16
    for kernel in auto $tile; do
      timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 20
    done
  done 2>&1
}

# The default sweep, into $L/sweep.
default_sweep() {
  "$B/gemm" sweep --iters 10 --out "$L/sweep" >"$L/sweep.log" 2>&1
  note "sweep: rc=$? $(tail -1 "$L/sweep.log")"
}

# `gemm` of one dtype at every shape ("M N K") before `--`, with every run
# ("kernel split-k") after it.
named_runs() {
  local dtype=$1 shape run; shift; local shapes=() runs
  while [ "$1" != -- ]; do shapes+=("$1"); shift; done; shift
  runs=("$@")
  for shape in "${shapes[@]}"; do
    for run in "${runs[@]}"; do
      set -- $shape $run
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $4 --split-k $5 --iters 20
    done
  done
}

# Test binaries, or one filter of one ("library memory_bound"), each with
# its log in $L and a line in the summary; 480 s each (`library
# memory_bound` took 299.6 s in step 100's run 4).
test_subset() {
  local t log r
  for t in "$@"; do
    set -- $t
    log=$L/test-$1-${2:-all}.log
    if timeout 480 "$B/tests/$1" ${2:-} --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/$1 ${2:-}: $r ($(grep -h 'test result' "$log" | tail -1))"
  done
}

# Step 97's calls: a tune cache whose entries carry tile-row groups of
# 2³¹ + 1 and 2³¹, `auto` through it on every bundle (each_bundle), into
# $L/tuned.txt.
huge_group_calls() {
  printf '%s' '{"entries":{"NVIDIA H100 80GB HBM3|f32|64x64x64":{"kernel":"tiled","group_m":2147483649,"tflops":null},"NVIDIA H100 80GB HBM3|f16|1000x900x300":{"kernel":"ws_128x128x64","group_m":2147483648,"tflops":null}}}' >"$L/tune.json"
  local shape
  for shape in "64 64 64 f32" "1000 900 300 f16"; do
    set -- $shape
    RGEMM_TUNE_CACHE="$L/tune.json" each_bundle --m $1 --n $2 --k $3 --dtype $4 --kernel auto --iters 5
  done 2>&1 | tee "$L/tuned.txt"
}

# `auto` on each "dtype m n k" given, split by the rule and with
# `--split-k off`, cuBLAS beside, into the log.
auto_against_off() {
  local log=$1 run split; shift
  for run in "$@"; do
    set -- $run
    for split in auto off; do
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --split-k $split --iters 50
    done
  done 2>&1 | tee "$log"
}

# Seconds to the first line of a command's output that holds a checked
# result (" pass "), and to its end; the output, each line headed by its
# seconds since the start, goes to the log.
first_result() {
  local log=$1; shift; local t0=$EPOCHREALTIME
  "$@" 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >"$log.raw"
  local t1=$EPOCHREALTIME
  awk -v t0="$t0" '{ t = $1; sub(/^[^ ]* /, ""); printf "%7.3f %s\n", t - t0, $0 }' "$log.raw" >"$log"
  rm -f "$log.raw"
  awk -v t1="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
    / pass / && !first { first = $1 }
    END { printf "first result %s s, end %.3f s", first ? first : "none", t1 }' "$log"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$LOGS/gpu.txt"

for part in $PARTS; do
  mkdir -p "$LOGS/$part"; L=$LOGS/$part
  case $part in
  coldstart)
    small=(--m 64 --n 64 --k 64 --kernel auto)
    cache=$(mktemp -d)
    # Each run: seconds to its first result line (the first checked row,
    # "pass") and to the process's end; its output with a time on each line.
    # RGEMM_TRACE=1: the cold run's log also has the time of each start-up phase.
    note "cold (empty driver cache): $(CUDA_CACHE_PATH=$cache RGEMM_TRACE=1 first_result "$L/cold.log" "$B/gemm" "${small[@]}")"
    for i in 1 2 3; do note "warm $i: $(CUDA_CACHE_PATH=$cache first_result "$L/warm$i.log" "$B/gemm" "${small[@]}")"; done
    note "warm, --no-cublas: $(CUDA_CACHE_PATH=$cache first_result "$L/warm-nocublas.log" "$B/gemm" "${small[@]}" --no-cublas)"
    note "warm, --dtype f32: $(CUDA_CACHE_PATH=$cache first_result "$L/warm-f32.log" "$B/gemm" "${small[@]}" --dtype f32)"
    note "warm, RGEMM_TRACE=1 (phases in warm-trace.log): $(CUDA_CACHE_PATH=$cache RGEMM_TRACE=1 first_result "$L/warm-trace.log" "$B/gemm" "${small[@]}")"
    for i in 1 2 3; do
      note "CUDA_CACHE_DISABLE=1 $i: $(CUDA_CACHE_DISABLE=1 first_result "$L/nocache$i.log" "$B/gemm" "${small[@]}")"
    done
    rm -rf "$cache"
    ls -la "$B/gemm" >"$L/binary-size.txt"
    # The floor under any CUDA program here: the driver's own start (cuInit,
    # a context) in a process that does nothing else, and whether the GPU
    # stays initialised between processes (persistence mode).
    nvidia-smi -q | grep -i -A1 'persistence' >"$L/persistence.txt" 2>&1
    note "persistence: $(grep -i 'persistence mode' "$L/persistence.txt" | head -1 | tr -s ' ')"
    if command -v python3 >/dev/null; then
      for i in 1 2 3; do
        note "driver floor $i: $(python3 - <<'PY' 2>&1
import ctypes, time
t0 = time.perf_counter()
cuda = ctypes.CDLL("libcuda.so.1")
t1 = time.perf_counter()
rc = cuda.cuInit(0)
t2 = time.perf_counter()
dev, ctx = ctypes.c_int(), ctypes.c_void_p()
cuda.cuDeviceGet(ctypes.byref(dev), 0)
rc2 = cuda.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev)
t3 = time.perf_counter()
print(f"dlopen libcuda {1e3*(t1-t0):.0f} ms, cuInit {1e3*(t2-t1):.0f} ms (rc {rc}), context {1e3*(t3-t2):.0f} ms (rc {rc2})")
PY
)"
      done
      # And what the comparison's first row needs of cuBLAS on top: its
      # library, a handle, one f32 64×64×64 GEMM (the driver loads its kernel).
      for i in 1 2 3; do
        note "cuBLAS floor $i: $(python3 - <<'PY' 2>&1
import ctypes, time
t0 = time.perf_counter()
cuda = ctypes.CDLL("libcuda.so.1")
for name in ("libcublas.so.13", "libcublas.so.12", "libcublas.so"):
    try:
        blas = ctypes.CDLL(name)
        break
    except OSError:
        blas = None
t1 = time.perf_counter()
cuda.cuInit(0)
dev, ctx = ctypes.c_int(), ctypes.c_void_p()
cuda.cuDeviceGet(ctypes.byref(dev), 0)
cuda.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev)
t2 = time.perf_counter()
handle = ctypes.c_void_p()
rc = blas.cublasCreate_v2(ctypes.byref(handle))
t3 = time.perf_counter()
buf = [ctypes.c_uint64() for _ in range(3)]
for b in buf:
    cuda.cuMemAlloc_v2(ctypes.byref(b), 64 * 64 * 4)
one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
rc2 = blas.cublasSgemm_v2(handle, 0, 0, 64, 64, 64, ctypes.byref(one), ctypes.c_void_p(buf[0].value), 64,
                          ctypes.c_void_p(buf[1].value), 64, ctypes.byref(zero), ctypes.c_void_p(buf[2].value), 64)
rc3 = cuda.cuCtxSynchronize()
t4 = time.perf_counter()
print(f"dlopen {1e3*(t1-t0):.0f} ms, cuInit + context {1e3*(t2-t1):.0f} ms, cublasCreate {1e3*(t3-t2):.0f} ms (rc {rc}), "
      f"first SGEMM {1e3*(t4-t3):.0f} ms (rc {rc2}, {rc3}); total {1e3*(t4-t0):.0f} ms")
PY
)"
      done
    fi
    ;;
  tests)
    # `library` alone ran past 7 minutes after step 88 (its last test
    # passed alone in 123 s, PERF.md step 89): with TESTS unset it runs in
    # its own part, `library`, within one call's 10 minutes.
    for t in "$B"/tests/${TESTS:-*}; do
      if [ -z "${TESTS:-}" ] && [ "$(basename "$t")" = library ]; then continue; fi
      log=$L/$(basename "$t").log
      # A kernel that never finishes (a barrier never completing) would
      # hold the whole call: each binary gets 7 minutes (`library`, 17
      # tests, ran past 5 in step 73's run 5).
      if timeout 420 "$t" --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "tests/$(basename "$t"): $r ($(grep -h 'test result' "$log" | tail -1)) $(grep -c SKIPPED "$log") skipped"
    done
    # Random-sweep seeds that once failed, replayed every run (PERF.md, "A
    # failure found after these runs"; the last two hung step 73's first
    # build, PERF.md step 73).
    for seed in 118329410061627573 7148685252023399051 5414313321624355118 988023684365844977 ${EXTRA_SEEDS:-}; do
      log=$L/library-sweep-seed-$seed.log
      if RGEMM_SEED=$seed timeout 300 "$B/tests/library" sweep --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "tests/library sweep, RGEMM_SEED=$seed: $r"
    done
    ;;
  library)
    log=$L/library.log
    if timeout 580 "$B/tests/library" --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/library: $r ($(grep -h 'test result' "$log" | tail -1)) $(grep -c SKIPPED "$log") skipped"
    ;;
  bench)
    "$B/gemm" | tee "$L/default.txt"
    "$B/gemm" --m 4096 --n 4096 --k 4096 | tee "$L/4096.txt"
    "$B/gemm" --kernel auto --dtype all | tee "$L/auto-default.txt"
    # Every kernel at a mid-sized square: what the built-in choice picks from.
    "$B/gemm" --m 2048 --n 2048 --k 2048 --dtype all | tee "$L/2048-all.txt"
    # Deep K (accuracy and speed beside cuBLAS's, same inputs), then each
    # shape class of issue 11, with --kernel auto.
    for shape in "128 128 65536" "256 256 65536" "7 5 300000" "1 1 1000000" \
                 "1 8192 8192" "8192 1 8192" "16 16384 4096" "8192 8192 16" "4000 3000 1000" "2048 2048 2048"; do
      set -- $shape
      "$B/gemm" --m $1 --n $2 --k $3 --kernel auto --dtype all
    done | tee "$L/classes.txt"
    "$B/gemm" --list-kernels >"$L/list-kernels.txt" 2>&1
    note "bench: $(grep -c pass "$L"/*.txt | tr '\n' ' ') passes, $(cat "$L"/*.txt | grep -c FAIL) FAIL"
    ;;
  step10)
    # The warp-specialized TMA kernels (PERF step 28) beside step 9 and
    # cuBLAS, at issue 10's shapes. Each call has a time limit: a barrier
    # that never completes hangs the kernel, and this says so.
    for shape in "136 264 72" "8192 4096 6144" "4096 4096 4096" "8192 8192 8192" "16384 16384 1024" "2048 2048 2048"; do
      set -- $shape
      for dtype in f16 bf16; do
        for kernel in ws_128x256x64 wgmma_128x256x64; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 30
          [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel $dtype $shape"
        done
      done
    done 2>&1 | tee "$L/step10.txt"
    # TF32 (step 10b: K-major, B copied transposed first) beside step 9b.
    for shape in "136 264 72" "8192 4096 6144" "4096 4096 4096" "8192 8192 8192" "2048 2048 2048"; do
      set -- $shape
      for kernel in ws_128x256x32 wgmma_256x128x32; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $kernel --iters 30
        [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel tf32 $shape"
      done
    done 2>&1 | tee -a "$L/step10.txt"
    # What each technique is worth: step 10 with one taken away (f16, seeds' shape).
    for kernel in ws_128x256x64 ablate_ws_direct_epilogue ablate_ws_one_tile ablate_ws_4_stages wgmma_128x256x64; do
      timeout 120 "$B/gemm" --m 8192 --n 4096 --k 6144 --dtype f16 --kernel $kernel --iters 30
      [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel"
    done 2>&1 | tee -a "$L/step10.txt"
    note "step10: $(grep -c pass "$L/step10.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/step10.txt") failures"
    ;;
  cluster)
    # Step 10c beside step 10 (10b for TF32), each line with cuBLAS in the
    # same process; the order alternates between the two rounds.
    for round in $(seq "${ROUNDS:-2}"); do
      for shape in "136 264 72" "8192 4096 6144" "4096 4096 4096" "8192 8192 8192" "16384 16384 1024" \
                   "2048 2048 2048" "3072 3072 3072" "4000 3000 1000"; do
        set -- $shape
        for dtype in f16 bf16 tf32; do
          base=ws_128x256x64; [ $dtype = tf32 ] && base=ws_128x256x32
          pair="$base ${base}_c2"; [ $round = 2 ] && pair="${base}_c2 $base"
          for kernel in $pair; do
            timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 30
            [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel $dtype $shape"
          done
        done
      done
    done 2>&1 | tee "$L/cluster.txt"
    note "cluster: $(grep -c pass "$L/cluster.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/cluster.txt") failures"
    ;;
  clusterk)
    for round in 1 2; do
      for shape in "4000 3000 1000" "3000 4000 1000" "4096 3072 1024" "4096 4096 1024" "8192 8192 1024" \
                   "5000 5000 2000" "2048 8192 512" "6000 5000 64" "8192 8192 64" "4000 3000 4000"; do
        set -- $shape
        pair="ws_128x256x64 ws_128x256x64_c2"; [ $round = 2 ] && pair="ws_128x256x64_c2 ws_128x256x64"
        for kernel in $pair; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 30
          [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel $shape"
        done
      done
    done 2>&1 | tee "$L/clusterk.txt"
    note "clusterk: $(grep -c pass "$L/clusterk.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/clusterk.txt") failures"
    ;;
  clusterodd)
    for shape in "4000 3000 4000" "4096 3072 4096" "4000 3072 4096" "4096 3000 4096" "4096 3072 4000" \
                 "4000 3000 4096" "4096 3000 4000"; do
      set -- $shape
      for dtype in f16 tf32; do
        d=64; [ $dtype = tf32 ] && d=32
        for kernel in ws_128x256x$d ws_128x256x${d}_c2; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 30
        done
      done
    done 2>&1 | tee "$L/clusterodd.txt"
    note "clusterodd: $(grep -c pass "$L/clusterodd.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/clusterodd.txt") failures"
    ;;
  tiles)
    for shape in "1536 1536 1536" "2048 2048 2048" "2560 2560 2560" "3072 3072 3072" "3584 3584 3584" \
                 "4096 4096 4096" "5120 5120 5120" "6144 6144 6144" "4000 3000 1000" "8192 4096 6144" "16384 16384 1024"; do
      set -- $shape
      for dtype in f16 bf16 tf32; do
        d=64; [ $dtype = tf32 ] && d=32
        for kernel in ws_128x256x$d ws_128x192x$d ws_128x128x$d; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 20
          [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel $dtype $shape"
        done
      done
    done 2>&1 | tee "$L/tiles.txt"
    note "tiles: $(grep -c pass "$L/tiles.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tiles.txt") failures"
    ;;
  mid)
    # Step 10's two block tiles side by side with cuBLAS, where 128×256
    # tiles leave SMs idle (mid squares, short K, non-square): what
    # `default_choice`'s wave rule for them is made from.
    for shape in "1024 1024 1024" "1536 1536 1536" "2048 2048 2048" "3072 3072 3072" "4096 4096 4096" \
                 "16384 16384 1024" "4000 3000 1000" "8192 8192 64" "2048 8192 512"; do
      set -- $shape
      for dtype in f16 bf16; do
        for kernel in ws_128x256x64 ws_128x128x64; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 30
          [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel $dtype $shape"
        done
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/mid.txt"
    note "mid: $(grep -c pass "$L/mid.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/mid.txt") failures"
    ;;
  classes)
    shapes=128x128x65536,256x256x131072,64x192x300000,4000x3000x1000,1999x2003x997,5003x4001x3001
    shapes=$shapes,1031x1029x1027,767x769x771,509x511x513,16x16384x4096,16384x16x4096,8192x8192x16
    "$B/gemm" sweep --shapes $shapes --iters 20 --out "$L" >"$L/sweep.log" 2>&1
    note "classes sweep: rc=$? $(tail -1 "$L/sweep.log")"
    # Realigned copies + step 10 against the kernels that read odd rows in
    # place, from small to large (REALIGN_MIN_FLOP).
    for shape in "509 511 513" "767 769 771" "1031 1029 1027" "1999 2003 997"; do
      set -- $shape
      for kernel in ws_128x128x64 wgmma_128x256x64 mma_128x128x32_w32x64; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 30
      done
    done 2>&1 | tee "$L/realign.txt"
    # M or N from 4 to 16: the memory-bound kernel against step 10's 128×128
    # tiles (mostly empty, but on tensor cores).
    for side in 4 8 12 16; do
      for kernel in auto ws_128x128x64; do
        timeout 120 "$B/gemm" --m $side --n 16384 --k 4096 --dtype f16 --kernel $kernel --iters 30
        timeout 120 "$B/gemm" --m 16384 --n $side --k 4096 --dtype f16 --kernel $kernel --iters 30
      done
    done 2>&1 | tee "$L/skinny.txt"
    # Deep K with few tiles: the split's chunk, from the rule's smallest up.
    for shape in "128 128 65536 f16" "256 256 131072 f16" "128 128 65536 f32" "128 128 65536 tf32"; do
      set -- $shape
      for chunk in auto 256 512 1024 2048 4096; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $4 --kernel auto --split-k $chunk --iters 30
      done
    done 2>&1 | tee "$L/deep-k-chunks.txt"
    note "classes: $(cat "$L"/realign.txt "$L"/skinny.txt | grep -c pass) passes, $(cat "$L"/realign.txt "$L"/skinny.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  splitk)
    for shape in "128 128 65536 f16" "256 256 131072 f16" "64 192 300000 bf16" "128 128 65536 tf32" \
                 "256 256 131072 tf32"; do
      set -- $shape
      for chunk in auto 512 1024 2048 4096 8192; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $4 --kernel auto --split-k $chunk --iters 30
        [ $? = 124 ] && echo "TIMEOUT (hang?) $shape $chunk"
      done
    done 2>&1 | tee "$L/deep-k-chunks.txt"
    for shape in "1024 1024 1024" "1536 1536 1536" "2048 2048 2048" "3072 3072 3072" "4000 3000 1000"; do
      set -- $shape
      for chunk in auto 256 512 768 1024; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel auto --split-k $chunk --iters 30
      done
    done 2>&1 | tee "$L/mid-split.txt"
    for shape in "16 16384 4096" "16384 16 4096" "4 16384 4096" "16384 8 4096"; do
      set -- $shape
      for dtype in f16 tf32; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
      # The 16-bit tiles with their split of step 36 (3 chunks) and none.
      for chunk in 1536 off; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel auto --split-k $chunk --iters 30
      done
    done 2>&1 | tee "$L/skinny.txt"
    for shape in "4096 4096 4096" "8192 4096 6144"; do
      set -- $shape
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 30
    done 2>&1 | tee "$L/tf32-large.txt"
    t=$(cat "$L"/*.txt)
    note "splitk: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  survey)
    for case in "f32 1536 1536 1536" "f32 768 768 768" "f32 1031 1029 1027" "f32 767 769 771" "f32 509 511 513" \
                "f32 256 256 131072" "f32 64 192 300000" "f32 16 16384 4096" \
                "tf32 509 511 513" "tf32 2048 2048 2048" "tf32 256 256 131072" "tf32 16 16384 4096" "tf32 16384 16 4096" \
                "f16 1536 1536 1536" "f16 2048 2048 2048" "f16 8192 8192 16" "f16 6000 5000 64" "f16 64 192 300000" \
                "bf16 768 768 768" "bf16 1536 1536 1536" "bf16 128 128 65536"; do
      set -- $case
      timeout 240 "$B/gemm" --dtype $1 --m $2 --n $3 --k $4 --kernel all --iters 20
      [ $? = 124 ] && echo "TIMEOUT (hang?) $case"
      timeout 60 "$B/gemm" --dtype $1 --m $2 --n $3 --k $4 --kernel auto --iters 20
    done 2>&1 | tee "$L/survey.txt"
    note "survey: $(grep -c pass "$L/survey.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/survey.txt") failures"
    ;;
  deepk)
    for shape in "128 128 65536" "256 256 131072" "64 192 300000" "256 512 65536" "512 512 32768" \
                 "384 384 100000" "1024 1024 16384" "100 3000 20000"; do
      set -- $shape
      for kernel in auto wt_256x128x8 wt_128x128x8 db_128x64x16 db_64x64x16; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel $kernel --iters 20
      done
      for kernel in auto mma_128x128x32 mma_64x128x32 wgmma_256x128x32 wgmma_128x256x32; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $kernel --iters 20
      done
    done 2>&1 | tee "$L/deepk.txt"
    note "deepk: $(grep -c pass "$L/deepk.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/deepk.txt") failures"
    ;;
  skinnytf32)
    for side in 2 4 8 12 16; do
      for long in "16384 4096" "8192 8192"; do
        set -- $long
        for kernel in auto ws_128x128x32 wgmma_128x256x32 wgmma_256x128x32; do
          timeout 120 "$B/gemm" --m $side --n $1 --k $2 --dtype tf32 --kernel $kernel --iters 20
          timeout 120 "$B/gemm" --m $1 --n $side --k $2 --dtype tf32 --kernel $kernel --iters 20
        done
      done
    done 2>&1 | tee "$L/skinnytf32.txt"
    for shape in "64 20008 4096" "128 10000 4096" "256 10000 4096" "384 5000 4096" "640 5000 4096" "1152 5000 2048"; do
      set -- $shape
      for kernel in ws_128x256x64 ws_128x256x64_c2 auto; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 20
      done
    done 2>&1 | tee "$L/cluster-rows.txt"
    t=$(cat "$L"/*.txt)
    note "skinnytf32: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  automid)
    shapes=1536x1536x1536,2048x2048x2048,2560x2560x2560,3072x3072x3072,3584x3584x3584,4096x4096x4096
    shapes=$shapes,5120x5120x5120,6144x6144x6144,8192x4096x6144,4000x3000x1000,16384x129x4096,5000x5000x2000,4096x3000x4096
    "$B/gemm" sweep --shapes $shapes --iters 30 --out "$L" >"$L/sweep.log" 2>&1
    note "automid sweep: rc=$? $(tail -1 "$L/sweep.log")"
    ;;
  autoclasses)
    # `auto` alone on issue 11's classes (the first line of `classes`), the
    # skinny shapes N = 8 and M = 4, shallow K, and deep K with more tiles.
    shapes=128x128x65536,256x256x131072,64x192x300000,4000x3000x1000,1999x2003x997,5003x4001x3001
    shapes=$shapes,1031x1029x1027,767x769x771,509x511x513,16x16384x4096,16384x16x4096,8192x8192x16
    shapes=$shapes,16384x8x4096,4x16384x4096,6000x5000x64,8192x8192x64,384x384x100000,1024x1024x16384,100x3000x20000
    "$B/gemm" sweep --shapes $shapes --iters 20 --out "$L" >"$L/sweep.log" 2>&1
    note "autoclasses sweep: rc=$? $(tail -1 "$L/sweep.log")"
    ;;
  groupm)
    # The grouped tile order where C's writes dominate (shallow K) and at
    # one wave (2048³): does a plain row-major walk (1) write C faster?
    for shape in "8192 8192 16" "8192 8192 64" "2048 2048 2048"; do
      set -- $shape
      for group in 1 4 16; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel auto --group-m $group --iters 30
      done
    done 2>&1 | tee "$L/groupm.txt"
    note "groupm: $(grep -c pass "$L/groupm.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/groupm.txt") failures"
    ;;
  skinnyrows)
    # f32/TF32 M or N of 8–16: 16 rows per block (228 registers, one block
    # per SM) against 4 rows per block in row groups that meet in L2; and
    # step 10 with its epilogue through registers and a 4th stage where K
    # is short.
    for shape in "16 16384 4096" "8 16384 4096" "16384 16 4096" "16384 8 4096"; do
      set -- $shape
      for dtype in f32 tf32; do
        for kernel in skinny_r16 skinny_r4; do
          timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel --iters 30
        done
      done
    done 2>&1 | tee "$L/skinnyrows.txt"
    for shape in "4000 3000 1000" "8192 8192 64" "3072 3072 3072"; do
      set -- $shape
      for kernel in ws_128x256x64 ablate_ws_direct_epilogue ablate_ws_one_tile; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 30
      done
    done 2>&1 | tee "$L/shortk.txt"
    t=$(cat "$L"/*.txt)
    note "skinnyrows: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  f32mid)
    # Step 7b's two f32 tiles side by side with cuBLAS at mid sizes, unsplit
    # and (256×128) with the split-K rule, and what auto takes: what the f32
    # list's wave threshold is made from (PERF step 44).
    for shape in "1024 1024 1024" "1536 1536 1536" "2048 2048 2048" "2560 2560 2560" "3072 3072 3072" \
                 "4096 4096 4096" "4000 3000 1000" "2048 8192 512" "1024 1024 8192"; do
      set -- $shape
      for kernel in wt_256x128x8 wt_128x128x8; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel $kernel --iters 30 --split-k off
      done
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel wt_256x128x8 --iters 30
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
    done 2>&1 | tee "$L/f32mid.txt"
    note "f32mid: $(grep -c pass "$L/f32mid.txt") passes, $(grep -c 'FAIL\|rror' "$L/f32mid.txt") failures"
    ;;
  tf32mid)
    for side in 512 768 1024 1536 2048 3072; do
      for kernel in ws_128x256x32 ws_128x128x32; do
        timeout 120 "$B/gemm" --m $side --n $side --k $side --dtype tf32 --kernel $kernel --iters 30
        [ $? = 124 ] && echo "TIMEOUT (hang?) $kernel tf32 $side"
      done
    done 2>&1 | tee "$L/tiles.txt"
    shapes=512x512x512,768x768x768,1024x1024x1024,1536x1536x1536,2048x2048x2048
    shapes=$shapes,1031x1029x1027,767x769x771,509x511x513,1999x2003x997,4000x3000x1000
    "$B/gemm" sweep --shapes $shapes --dtype tf32 --iters 20 --out "$L" >"$L/sweep.log" 2>&1
    rc=$?
    note "tf32mid: $(grep -c pass "$L/tiles.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tiles.txt") failures; sweep rc=$rc $(tail -1 "$L/sweep.log")"
    ;;
  criterion)
    for bench in "$B"/benches/*; do
      "$bench" --bench >"$L/$(basename "$bench").txt" 2>&1
      note "benches/$(basename "$bench"): rc=$? $(grep -c 'thrpt:' "$L/$(basename "$bench").txt") results"
    done
    ;;
  streamk)
    for shape in "1024 1024 1024" "1280 1280 1280" "1536 1536 1536" "1792 1792 1792" "2304 2304 2304" \
                 "3072 3072 3072" "768 3072 2048" "2560 2560 2560" "2048 2048 2048" "4096 4096 4096"; do
      set -- $shape
      for dtype in f16 bf16 tf32; do
        if [ $dtype = tf32 ]; then tiles="ws_128x256x32 ws_128x256x32_sk ws_128x192x32"; else tiles="ws_128x256x64 ws_128x256x64_sk ws_128x192x64"; fi
        for kernel in $tiles auto; do
          "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $kernel
        done
      done
    done 2>&1 | tee "$L/streamk.txt"
    note "streamk: $(grep -c pass "$L/streamk.txt") passes, $(grep -c FAIL "$L/streamk.txt") FAIL"
    ;;
  sksan)
    for tool in memcheck racecheck; do
      for shape in "--m 300 --n 700 --k 4000 --dtype f16 --kernel ws_128x256x64_sk" \
                   "--m 1536 --n 1536 --k 1536 --dtype bf16 --kernel ws_128x256x64_sk" \
                   "--m 300 --n 700 --k 4000 --dtype tf32 --kernel ws_128x256x32_sk"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
      sanitize "$tool" "$L/$tool-library-stream-k.log" "$B/tests/library" stream_k --test-threads=1
    done
    ;;
  fixedcost)
    for round in 1 2; do
      for mn in 2048 4096; do
        for k in 64 256 1024 2048 4096 8192; do
          each_bundle --m $mn --n $mn --k $k --dtype f16 --kernel ws_128x256x64 --iters 50
          # C from registers instead of the TMA store (step 33's ablation).
          echo "# direct"
          "$B/gemm" --m $mn --n $mn --k $k --dtype f16 --kernel ablate_ws_direct_epilogue --iters 50
        done
      done
    done 2>&1 | tee "$L/fixedcost.txt"
    note "fixedcost: $(grep -c pass "$L/fixedcost.txt") passes, $(grep -c FAIL "$L/fixedcost.txt") FAIL"
    # cuBLAS's kernels (name: tile shape; grid; time) at 2048³ and 4096³
    # (FIXEDCOST_NCU=0 skips them).
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for size in $([ "${FIXEDCOST_NCU:-1}" = 0 ] || echo 2048 4096); do
      "$NCU" --clock-control none --kernel-name regex:nvjet --launch-count 4 \
        --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic \
        "$B/gemm" --m $size --n $size --k $size --dtype f16 --kernel ws_128x256x64 --iters 2 >"$L/ncu-cublas-$size.txt" 2>&1
      note "fixedcost ncu $size: $(grep -c gpu__time_duration "$L/ncu-cublas-$size.txt") cuBLAS kernels profiled"
    done
    ;;
  variants)
    for round in 1 2; do
      for shape in "8192 4096 6144" "4096 4096 4096" "8192 8192 8192" "16384 16384 1024" "2048 2048 2048" "3072 3072 3072"; do
        set -- $shape
        for run in "f16 auto" "bf16 auto" "tf32 auto" "f16 ws_128x256x64" "bf16 ws_128x256x64" "tf32 ws_128x256x32"; do
          set -- $shape $run
          each_bundle --m $1 --n $2 --k $3 --dtype $4 --kernel $5 --iters 30
        done
      done
      for size in 768 1024 1536; do
        each_bundle --m $size --n $size --k $size --dtype tf32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/variants.txt"
    note "variants: $(grep -c pass "$L/variants.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/variants.txt") failures"
    ;;
  deeptiles)
    for round in 1 2; do
      for shape in "64 192 300000" "64 576 65536" "128 128 65536" "256 256 131072" "384 384 100000" "100 3000 20000"; do
        set -- $shape
        for dtype in f32 tf32 f16 bf16; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 20
        done
      done
    done 2>&1 | tee "$L/auto.txt"
    for shape in "64 192 300000" "64 576 65536" "128 128 65536" "384 384 100000" "100 3000 20000"; do
      set -- $shape
      for run in "f32 db_64x64x16" "f32 wt_64x128x8" "f32 wt_128x128x8" "tf32 mma_64x128x32" "tf32 mma_64x192x32" \
                 "f16 ws_128x128x64" "f16 ws_128x192x64" "bf16 ws_128x128x64" "bf16 ws_128x192x64"; do
        set -- $shape $run
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $4 --kernel $5 --iters 20
      done
    done 2>&1 | tee "$L/tiles.txt"
    for chunk in 2304 4608 9216; do
      for dtype in f16 bf16; do
        timeout 120 "$B/gemm" --m 64 --n 192 --k 300000 --dtype $dtype --kernel ws_128x192x64 --split-k $chunk --iters 20
      done
    done 2>&1 | tee "$L/chunks.txt"
    for size in 768 1024 1536; do
      for kernel in auto wt_64x128x8; do
        timeout 120 "$B/gemm" --m $size --n $size --k $size --dtype f32 --kernel $kernel --iters 20
      done
    done 2>&1 | tee "$L/f32mid.txt"
    t=$(cat "$L"/*.txt)
    note "deeptiles: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  splitcost)
    # Where a split call's time goes: each kernel's own time (partial sums,
    # combine passes, epilogue; cuBLAS's kernels beside them) and how busy
    # the SMs, L2 and DRAM were, by ncu, without cache flushes or clock
    # locks, at the deep-K shapes that stay under 75% of cuBLAS.
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    metrics=gpu__time_duration.sum,launch__grid_size,sm__throughput.avg.pct_of_peak_sustained_elapsed
    metrics=$metrics,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
    for run in "f16 128 128 65536" "f16 384 384 100000" "f16 100 3000 20000" "f16 64 192 300000" \
               "tf32 128 128 65536" "tf32 64 192 300000" "f32 64 192 300000"; do
      set -- $run
      timeout 300 "$NCU" --clock-control none --cache-control none --metrics "$metrics" \
        "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 >"$L/ncu-$1-$2x$3x$4.txt" 2>&1
      note "splitcost $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-$1-$2x$3x$4.txt") kernels profiled"
    done
    ;;
  chunkscan)
    # The deep-K split's chunk by hand, against the rule's (the first of
    # each list): chunks that divide K exactly (one launch of the partial
    # sums) beside chunks that leave a shorter last one (a second launch,
    # after the first, of one block per tile), and more or fewer blocks.
    for round in 1 2; do
      for run in "f16 ws_128x128x64 384 384 100000 12800 20000 10000 5000 4000" \
                 "f16 ws_128x128x64 100 3000 20000 7168 5000 4000 3584 2000" \
                 "f16 ws_128x128x64 1000 128 30000 3584 5000 3000 2000 1200" \
                 "f16 ws_128x128x64 256 256 131072 8192 4096" \
                 "f16 ws_128x192x64 64 192 300000 4608 5000 4000 3000 2400" \
                 "tf32 mma_64x192x32 64 192 300000 1536 3000 2000 1500 1000" \
                 "tf32 mma_64x128x32 128 128 65536 512 1024 2048" \
                 "f32 db_64x64x16 64 192 300000 1024 1000 600"; do
        set -- $run
        dtype=$1 kernel=$2 m=$3 n=$4 k=$5; shift 5
        for chunk in auto "$@"; do
          timeout 120 "$B/gemm" --m $m --n $n --k $k --dtype $dtype --kernel $kernel --split-k $chunk --iters 20
        done
      done
    done 2>&1 | tee "$L/chunkscan.txt"
    note "chunkscan: $(grep -c pass "$L/chunkscan.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/chunkscan.txt") failures"
    ;;
  splitrule)
    # `auto` where the split rule of PERF step 55 (exact chunks, the TMA
    # partials' blocks from the bytes they have in flight, the combine
    # pass's groups side by side) changes the split, each dtype, the
    # bundle alternating with the bundles in VARIANTS, two rounds; and f32
    # calls of few tiles at mid sizes, whose split moved to exact chunks.
    for round in 1 2; do
      for shape in "128 128 65536" "64 192 300000" "64 576 65536" "256 256 131072" "384 384 100000" \
                   "100 3000 20000" "1000 128 30000"; do
        set -- $shape
        for dtype in f32 tf32 f16 bf16; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 20
        done
      done
      for run in "f16 384 384 100003" "bf16 100 3000 20011" "f32 1024 1024 8192" "f32 2048 2048 4096" \
                 "tf32 1024 1024 8192" "f32 7 5 300001"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/splitrule.txt"
    note "splitrule: $(grep -c pass "$L/splitrule.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/splitrule.txt") failures"
    ;;
  tf32deep)
    # TF32 at deep K with several tiles, where `auto` stayed at 35–70% of
    # cuBLAS after step 55: each kernel the partial sums could run on
    # (`wgmma` reads B through a transposed copy, `mma.sync` in place),
    # beside `auto`, two rounds; and f32 16×16384×4096 on every f32 kernel.
    for round in 1 2; do
      named_runs tf32 "384 384 100000" "1000 128 30000" "100 3000 20000" "1024 1024 8192" "512 512 32768" \
        "256 256 131072" "128 1024 50000" -- "auto auto" "mma_64x128x32 auto" "mma_64x192x32 auto" \
        "mma_128x128x32 auto" "wgmma_256x128x32 auto" "wgmma_128x256x32 auto"
    done 2>&1 | tee "$L/tf32deep.txt"
    timeout 300 "$B/gemm" --m 16 --n 16384 --k 4096 --dtype f32 --kernel all --iters 20 2>&1 | tee "$L/f32skinny.txt"
    t=$(cat "$L"/*.txt)
    note "tf32deep: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  tf32fewk)
    # TF32 calls of few tiles and K of 2048 to 8192, which split but do not
    # reach the deep-K list (K ≤ 8192): `auto` (step 10b's tiles, partial
    # sums on `mma.sync` 64×128) beside the deep-K list's kernels named and
    # step 10b unsplit, two rounds.
    for round in 1 2; do
      named_runs tf32 "1024 1024 2048" "1024 1024 4096" "1024 1024 8192" "768 768 4096" "512 512 4096" \
        "1536 1024 4096" "512 2048 8192" "2048 512 8192" -- \
        "auto auto" "wgmma_256x128x32 auto" "wgmma_128x256x32 auto" "mma_128x128x32 auto" "ws_128x128x32 off"
    done 2>&1 | tee "$L/tf32fewk.txt"
    note "tf32fewk: $(grep -c pass "$L/tf32fewk.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tf32fewk.txt") failures"
    ;;
  tf32fewkauto)
    # PERF step 58: `auto` on TF32 calls of few tiles at K 2048–8192, the
    # bundle alternating with the bundles in VARIANTS, two rounds.
    for round in 1 2; do
      for shape in "1024 1024 2048" "1024 1024 4096" "1024 1024 8192" "768 768 4096" "512 512 4096" \
                   "512 2048 8192" "2048 512 8192" "640 640 4096" "1024 2048 4096"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/tf32fewkauto.txt"
    note "tf32fewkauto: $(grep -c pass "$L/tf32fewkauto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tf32fewkauto.txt") failures"
    ;;
  tf32deepmid)
    # TF32 calls of 25–98 tiles at K > 8192, which the deep-K list splits
    # onto step 9b's `wgmma` 256×128: `auto` beside step 10b unsplit, two
    # rounds (does step 58's rule hold past K = 8192?).
    for round in 1 2; do
      named_runs tf32 "1024 1024 16384" "1024 1024 32768" "2048 512 16384" "512 2048 16384" "768 768 16384" \
        "1536 1024 16384" "640 640 16384" -- "auto auto" "ws_128x128x32 off" "ws_128x256x32 off"
    done 2>&1 | tee "$L/tf32deepmid.txt"
    note "tf32deepmid: $(grep -c pass "$L/tf32deepmid.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tf32deepmid.txt") failures"
    ;;
  shortk)
    # Step 61's short-K split of f32 calls (`auto`) beside the bundles in
    # VARIANTS (the build before it), alternating, two rounds; then
    # `--split-k off` on this bundle; sanitizers on a split call.
    for round in 1 2; do
      for shape in "512 512 512" "640 640 640" "768 768 768" "1024 1024 1024" "520 501 768" \
                   "2048 256 1024" "4096 256 1024" "1000 1000 1000" "384 384 1536" "700 600 1200"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 50
        timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --split-k off --iters 50
      done
    done 2>&1 | tee "$L/shortk.txt"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-shortk.log" "$B/gemm" --m 520 --n 501 --k 768 --dtype f32 --kernel auto --iters 1 --no-cublas
    done
    note "shortk: $(grep -c pass "$L/shortk.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/shortk.txt") failures"
    ;;
  smallsplit)
    # f32 squares of 512-1024 (short K, about a wave of small tiles), where
    # `auto` never splits (K < FEW_TILES_MIN_K): each small-tile kernel
    # unsplit and with K in 2, 4 and size/128 chunks, beside `auto`, two rounds.
    for round in 1 2; do
      for size in 512 640 768 1024; do
        timeout 60 "$B/gemm" --m $size --n $size --k $size --dtype f32 --kernel auto --iters 50
        for kernel in db_64x64x16 db_128x64x16 wt_64x128x8; do
          for chunk in off $((size / 2)) $((size / 4)) 128; do
            timeout 60 "$B/gemm" --m $size --n $size --k $size --dtype f32 --kernel $kernel --split-k $chunk --iters 50
          done
        done
      done
    done 2>&1 | tee "$L/smallsplit.txt"
    note "smallsplit: $(grep -c pass "$L/smallsplit.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/smallsplit.txt") failures"
    ;;
  smallsq)
    # Squares of 256 to 768, where `auto` stays under 75% of cuBLAS in f32
    # and TF32: each candidate kernel named, beside `auto`, two rounds.
    for round in 1 2; do
      for size in 256 384 512 640 768; do
        for run in "f32 auto" "f32 db_64x64x16" "f32 db_128x64x16" "f32 wt_64x128x8" "f32 wt_128x128x8" \
                   "tf32 auto" "tf32 ws_128x128x32" "tf32 mma_64x128x32" "tf32 mma_64x192x32" "tf32 mma_128x128x32"; do
          set -- $run
          timeout 120 "$B/gemm" --m $size --n $size --k $size --dtype $1 --kernel $2 --iters 50
        done
      done
    done 2>&1 | tee "$L/smallsq.txt"
    note "smallsq: $(grep -c pass "$L/smallsq.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/smallsq.txt") failures"
    ;;
  deepsan)
    for tool in memcheck racecheck synccheck initcheck; do
      for shape in "--m 61 --n 192 --k 20000 --dtype f16 --kernel auto" "--m 61 --n 190 --k 20001 --dtype tf32 --kernel auto" \
                   "--m 130 --n 380 --k 9000 --dtype bf16 --kernel ws_128x192x64 --split-k 1000" \
                   "--m 129 --n 131 --k 67 --dtype f32 --kernel wt_64x128x8" "--m 1031 --n 1029 --k 1027 --dtype f32 --kernel wt_64x128x8" \
                   "--m 129 --n 197 --k 67 --dtype tf32 --kernel mma_64x192x32"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
    done
    ;;
  splitsan)
    # compute-sanitizer on PERF step 55's splits: the combine passes' groups
    # as grid rows (295 slabs: two passes), an exact split, a split with a
    # short last chunk, each through `auto`.
    for tool in memcheck racecheck synccheck initcheck; do
      for shape in "--m 7 --n 5 --k 300001 --dtype f32" "--m 61 --n 190 --k 20001 --dtype tf32" \
                   "--m 384 --n 384 --k 20000 --dtype f16" "--m 100 --n 300 --k 20011 --dtype bf16"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --kernel auto --iters 1 --no-cublas
      done
    done
    ;;
  boxsan)
    for tool in memcheck racecheck synccheck; do
      for shape in "--m 136 --n 264 --k 72 --kernel ablate_ws_4_stages" "--m 2056 --n 2312 --k 72 --kernel ablate_ws_4_stages" \
                   "--m 2056 --n 2312 --k 72 --kernel ws_128x256x64"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --dtype f16 --iters 1 --no-cublas
      done
    done
    ;;
  skinnyring)
    for round in 1 2; do
      for run in "f32 16 16384 4096" "f32 12 16384 4096" "f32 8 16384 4096" "f32 5 16384 4096" \
                 "f32 16 8192 8192" "f32 16 4096 16384" "f32 16 65536 1024" "f32 16 100000 777" \
                 "f32 16 200000 256" "f32 13 30000 3000" "tf32 16 16384 4096" "tf32 16 8192 8192" \
                 "tf32 16 65536 1024" "tf32 12 16384 4096" "tf32 8 16384 4096" "tf32 5 16384 4096" \
                 "tf32 16 4096 16384" "tf32 16 100000 777" "tf32 16 200000 256"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel skinny_r16 --iters 20
        timeout 120 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 20
      done
      named_runs tf32 "16 16384 4096" "16 8192 8192" "16 65536 1024" "5 16384 4096" "16 4096 16384" \
        "16 100000 777" "16 200000 256" -- "wgmma_128x256x32 auto"
      named_runs f32 "16 16384 4096" "16 100000 777" "16 200000 256" -- "skinny_r4 auto"
    done 2>&1 | tee "$L/skinnyring.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      sanitize $tool "$L/san-$tool-ring.log" "$B/gemm" --m 13 --n 301 --k 129 --dtype f32 --kernel skinny_r16 --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-ring-tiles.log" "$B/gemm" --m 16 --n 9000 --k 200 --dtype tf32 --kernel skinny_r16 --iters 1 --no-cublas
    done
    note "skinnyring: $(grep -c pass "$L/skinnyring.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/skinnyring.txt") failures"
    ;;
  swapped)
    for round in 1 2; do
      named_runs tf32 "1024 1024 1024" "2048 2048 2048" "3072 3072 3072" "4096 4096 4096" "8192 4096 6144" \
        "1999 2003 997" -- "ws_256x128x32_rs auto" "ws_128x128x32_rs auto" "ws_128x256x32 auto" \
        "ws_128x128x32 auto"
      named_runs tf32 "384 384 100000" "1000 128 30000" "100 3000 20000" "128 128 65536" "256 256 131072" \
        "64 192 300000" "512 512 32768" "1024 1024 8192" "1024 1024 4096" "2048 512 8192" "768 768 4096" -- \
        "ws_256x128x32_rs auto" "ws_128x128x32_rs auto" "wgmma_256x128x32 auto" "mma_64x128x32 auto"
    done 2>&1 | tee "$L/named.txt"
    for round in 1 2; do
      for shape in "1024 1024 1024" "2048 2048 2048" "3072 3072 3072" "4096 4096 4096" "8192 4096 6144" \
                   "384 384 100000" "1000 128 30000" "100 3000 20000" "128 128 65536" "256 256 131072" \
                   "64 192 300000" "512 512 32768" "1024 1024 8192" "1024 1024 4096" "2048 512 8192" \
                   "768 768 4096" "1999 2003 997" "16 4096 4096" "4096 16 4096" "8192 8192 16"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/auto.txt"
    for tool in memcheck racecheck synccheck; do
      sanitize $tool "$L/san-$tool-rs.log" "$B/gemm" --m 300 --n 197 --k 1001 --dtype tf32 --kernel ws_256x128x32_rs \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-rs-split.log" "$B/gemm" --m 131 --n 197 --k 12000 --dtype tf32 \
        --kernel ws_128x128x32_rs --iters 1 --no-cublas
    done
    t=$(cat "$L"/*.txt)
    note "swapped: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  bigtf32)
    for shape in "12288 12288 12288" "16384 16384 4096" "16384 4096 16384" "4096 16384 16384" "16384 16384 16384"; do
      for run in "ws_256x128x32_rs 16" "ws_256x128x32_rs 8" "ws_256x128x32_rs 4" "ws_128x128x32_rs 16" "ws_128x256x32 16"; do
        set -- $shape $run
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $4 --group-m $5 --iters 10
      done
    done 2>&1 | tee "$L/bigtf32.txt"
    note "bigtf32: $(grep -c pass "$L/bigtf32.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/bigtf32.txt") failures"
    ;;
  skinnyrs)
    for round in 1 2; do
      named_runs tf32 "16 4096 4096" "16 16384 4096" "16 8192 8192" "8 16384 4096" "12 16384 4096" \
        "16 65536 1024" "16 4096 16384" "16 100000 777" -- "ws_16x128x32_rs auto" "wgmma_128x256x32 auto" \
        "skinny_r16 auto"
      for shape in "16 4096 4096" "16 16384 4096" "16 8192 8192" "8 16384 4096" "12 16384 4096" \
                   "16 65536 1024" "16 4096 16384" "16 100000 777"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/skinnyrs.txt"
    for tool in memcheck racecheck synccheck; do
      sanitize $tool "$L/san-$tool.log" "$B/gemm" --m 13 --n 1000 --k 777 --dtype tf32 --kernel ws_16x128x32_rs \
        --iters 1 --no-cublas
    done
    note "skinnyrs: $(grep -c pass "$L/skinnyrs.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/skinnyrs.txt") failures"
    ;;
  probe)
    shapes=1x4096x4096,4096x1x4096,16x8192x1024,8x32768x2048,16x200000x256,16x100000x777,2x50000x1000
    shapes=$shapes,16384x16x1024,100000x16x512,8192x16x8192,128x128x131072,200x200x100000,64x64x262144
    shapes=$shapes,256x128x65536,96x160x80000,8192x8192x32,16384x4096x64,10000x10000x48,5000x7000x8
    shapes=$shapes,1152x1152x1152,1280x1280x1280,1792x1792x1792,3001x2999x1003,520x501x768,1500x2500x700
    shapes=$shapes,6007x5003x997,777x999x3333,768x768x4096
    "$B/gemm" sweep --shapes $shapes --iters 30 --out "$L" >"$L/sweep.log" 2>&1
    note "probe sweep: rc=$? $(tail -1 "$L/sweep.log")"
    ;;
  splitprobe)
    for round in 1 2; do
      named_runs f32 "768 768 4096" -- "db_64x64x16 off" "db_64x64x16 auto" "db_64x64x16 2048" "db_64x64x16 1368" \
        "db_64x64x16 1024" "db_64x64x16 512" "db_128x64x16 2048" "db_128x64x16 1024" "db_128x64x16 512" \
        "wt_64x128x8 2048" "wt_64x128x8 1024" "wt_128x128x8 1024" "wt_128x128x8 512"
      named_runs f32 "777 999 3333" -- "db_128x64x16 off" "db_128x64x16 auto" "db_128x64x16 1112" "db_128x64x16 836" \
        "db_128x64x16 1668" "db_64x64x16 1112" "db_64x64x16 836" "wt_64x128x8 1112" "wt_64x128x8 1668"
      named_runs f32 "520 501 768" -- "db_64x64x16 auto" "db_64x64x16 256" "db_64x64x16 384" "db_64x64x16 off" \
        "wt_64x128x8 256" "db_128x64x16 128"
      named_runs f16 "768 768 4096" "777 999 3333" -- "ws_128x128x64 auto" "ws_128x128x64 off" \
        "ws_128x128x64 2048" "ws_128x128x64 1024" "ws_128x128x64 1368" "ws_128x128x64 1112" "ws_128x192x64 1024"
      named_runs tf32 "768 768 4096" "777 999 3333" -- "ws_128x128x32_rs auto" "ws_128x128x32_rs off" \
        "ws_128x128x32_rs 2048" "ws_128x128x32_rs 1024" "ws_128x128x32_rs 1368" "ws_128x128x32_rs 1112"
      named_runs f16 "16384 16 1024" "16 8192 1024" -- "ws_128x128x64 auto" "ws_128x128x64 512" \
        "ws_128x128x64 256" "skinny_r8 auto"
      named_runs f32 "16 200000 256" "100000 16 512" "16 100000 777" -- "skinny_r16 auto" "skinny_r4 auto" \
        "skinny_r1 auto"
      named_runs f16 "2 50000 1000" "2 200000 256" -- "skinny_r1 auto" "skinny_r4 auto" "ws_128x128x64 auto"
    done 2>&1 | tee "$L/splitprobe.txt"
    note "splitprobe: $(grep -c pass "$L/splitprobe.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/splitprobe.txt") failures"
    ;;
  f32midk)
    named_runs f32 "768 768 4096" "777 999 3333" "1024 1024 4096" "512 512 8192" "640 640 6000" "1000 1000 3000" \
      "1536 1536 4096" -- "auto auto" "wt_256x128x8 off" "wt_256x128x8 1024" "wt_256x128x8 512" "wt_256x128x8 256" \
      "wt_128x128x8 1024" "wt_128x128x8 512" "wt_128x128x8 256" "db_128x64x16 512" "db_128x64x16 256" \
      "db_64x64x16 512" 2>&1 | tee "$L/f32midk.txt"
    named_runs f16 "2 16384 4096" "3 16384 4096" "2 8192 8192" "3 4096 4096" -- "skinny_r4 auto" "ws_128x128x64 auto" \
      "auto auto" 2>&1 | tee "$L/skinny16.txt"
    named_runs bf16 "2 16384 4096" "3 100000 512" -- "skinny_r4 auto" "ws_128x128x64 auto" 2>&1 | tee -a "$L/skinny16.txt"
    note "f32midk: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  midrules)
    for round in 1 2; do
      for run in "f32 768 768 4096" "f32 1024 1024 4096" "f32 512 512 8192" "f32 640 640 6000" "f32 1100 700 5000" \
                 "f32 2048 1024 4096" "tf32 768 768 4096" "tf32 777 999 3333" "f16 768 768 4096" "f16 777 999 3333" \
                 "bf16 1000 1000 3000" "f16 1100 700 5000" "f16 2 16384 4096" "bf16 3 100000 512" "f16 2 50000 1000"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    for round in 1 2; do
      named_runs f32 "16 200000 256" "16 100000 777" "16 65536 1024" "16 16384 4096" "16 8192 8192" "12 16384 4096" \
        "8 16384 4096" "5 16384 4096" "16 4096 16384" "13 30000 3000" "9 50000 512" "100000 16 512" "16384 16 4096" -- \
        "skinny_r16 auto" "skinny_r16_2cta auto"
    done 2>&1 | tee "$L/ring2.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      sanitize $tool "$L/san-$tool-ring.log" "$B/gemm" --m 13 --n 301 --k 129 --dtype f32 --kernel skinny_r16 \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-ring2.log" "$B/gemm" --m 13 --n 301 --k 129 --dtype f32 --kernel skinny_r16_2cta \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-ring2-k.log" "$B/gemm" --m 301 --n 13 --k 129 --dtype f32 --kernel skinny_r16_2cta \
        --iters 1 --no-cublas
    done
    t=$(cat "$L"/*.txt)
    note "midrules: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  f32align)
    for round in 1 2; do
      for shape in "1999 2003 997" "3001 2999 1003" "777 999 3333" "5003 4001 3001" "1031 1029 1027" \
                   "4000 3000 1001" "767 769 771" "520 501 768" "2000 2004 1000"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/f32align.txt"
    note "f32align: $(grep -c pass "$L/f32align.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32align.txt") failures"
    ;;
  alignsan)
    # compute-sanitizer on step 66's copies before the f32 kernels (K and
    # N odd, past F32_REALIGN_MIN_FLOP), unsplit and split.
    for tool in memcheck racecheck; do
      for kernel in db_128x64x16 wt_256x128x8; do
        sanitize $tool "$L/san-$tool-$kernel.log" "$B/gemm" --m 1031 --n 2053 --k 1027 --dtype f32 \
          --kernel $kernel --split-k off --iters 1 --no-cublas
      done
      sanitize $tool "$L/san-$tool-split.log" "$B/gemm" --m 1031 --n 2053 --k 1027 --dtype f32 \
        --kernel db_128x64x16 --split-k 256 --iters 1 --no-cublas
    done
    ;;
  alongk)
    shapes=("100000 16 512" "16384 16 4096" "100000 16 777" "65536 16 1024" "16384 16 1024" "200000 16 256"
            "8192 16 8192" "50000 13 3000" "16384 12 4096" "16384 9 4096")
    for round in 1 2; do
      for shape in "${shapes[@]}"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
      for shape in "100000 16 512" "16384 16 1024" "8192 16 8192" "16384 16 4096" "16384 8 4096" "30000 6 2000"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    for round in 1 2; do
      named_runs f32 "${shapes[@]}" "16384 8 4096" "30000 5 2000" -- "skinny_r16 auto" "skinny_r16_2cta auto" \
        "skinny_r4 auto"
    done 2>&1 | tee "$L/named.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      sanitize $tool "$L/san-$tool-2cta.log" "$B/gemm" --m 301 --n 13 --k 131 --dtype f32 --kernel skinny_r16_2cta \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-r16.log" "$B/gemm" --m 4999 --n 16 --k 200 --dtype f32 --kernel skinny_r16 \
        --iters 1 --no-cublas
    done
    t=$(cat "$L"/*.txt)
    note "alongk: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  f32weak)
    for shape in "1031 1029 1027" "767 769 771" "520 501 768" "200 200 100000" "768 768 4096" "1100 700 5000" \
                 "777 999 3333"; do
      set -- $shape
      for split in off auto; do
        timeout 300 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel all --split-k $split --iters 20
      done
    done 2>&1 | tee "$L/f32weak.txt"
    note "f32weak: $(grep -c pass "$L/f32weak.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32weak.txt") failures"
    ;;
  f32align2)
    for shape in "1024 1024 1024" "1031 1029 1027" "1032 1032 1032" "1040 1040 1040" "768 768 768" "767 769 771" \
                 "776 776 776"; do
      set -- $shape
      half=$(( ($3 + 1) / 2 ))
      named_runs f32 "$shape" -- "auto auto" "db_128x64x16 off" "db_64x64x16 off" "wt_128x128x8 off" "wt_64x128x8 off" \
        "db_128x64x16 $half" "wt_128x128x8 $half" "db_64x64x16 $half"
    done 2>&1 | tee "$L/f32align2.txt"
    note "f32align2: $(grep -c pass "$L/f32align2.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32align2.txt") failures"
    ;;
  f32model)
    # Step 73: f32 `auto` (the split model, one launch for a shorter last
    # chunk) against the bundles in VARIANTS, alternating, two rounds; and
    # memcheck on ragged splits (rows off and on 16 bytes, a batch).
    for round in 1 2; do
      for shape in "1031 1029 1027" "1032 1032 1032" "777 999 3333" "200 200 100000" "1100 700 5000" \
                   "1024 1024 1024" "1280 1280 1280" "1536 1536 1536" "2048 2048 2048" "768 768 4096" \
                   "1024 1024 4096" "128 128 65536" "256 256 131072" "520 501 768" "1000 1000 3000" \
                   "2560 2560 2560" "1792 1792 1792" "3072 3072 3072" "1999 2003 997" "5003 4001 3001"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    sanitize memcheck "$L/san-memcheck-odd.log" "$B/gemm" --m 1031 --n 1029 --k 1027 --dtype f32 --kernel auto \
      --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-deep.log" "$B/gemm" --m 200 --n 200 --k 100000 --dtype f32 --kernel auto \
      --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-odd.log" "$B/gemm" --m 333 --n 257 --k 1999 --dtype f32 \
      --kernel wt_128x128x8 --split-k 500 --iters 1 --no-cublas
    t=$(cat "$L"/*.txt)
    note "f32model: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  reduce)
    # Step 74: the epilogue sums the tree's last two levels in one launch.
    # `auto` on split calls of every dtype, the bundle alternating with the
    # bundles in VARIANTS, two rounds; then the four sanitizers on the
    # two-level epilogue: 64 slabs alone, 98 after a combine pass, a short
    # last chunk, and f32 at 7×5×300001 (two passes before it); and step
    # 73's shorter last chunk in the launch of the others (`k_last`, f32
    # 1031×1029×1027), which synccheck and initcheck had not run on.
    for round in 1 2; do
      for shape in "128 128 65536" "200 200 100000" "256 256 131072" "64 192 300000" "384 384 100000" \
                   "1000 128 30000" "7 5 300001"; do
        set -- $shape
        for dtype in f32 tf32 f16 bf16; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 20
        done
      done
    done 2>&1 | tee "$L/reduce.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      for shape in "--m 128 --n 128 --k 65536 --dtype f16" "--m 7 --n 5 --k 300001 --dtype f32" \
                   "--m 61 --n 190 --k 20001 --dtype tf32" "--m 100 --n 300 --k 20011 --dtype bf16" \
                   "--m 33 --n 70 --k 5000 --dtype f32 --kernel db_64x64x16 --split-k 64" \
                   "--m 1031 --n 1029 --k 1027 --dtype f32"; do
        case $shape in *--kernel*) ;; *) shape="$shape --kernel auto" ;; esac
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
    done
    note "reduce: $(grep -c pass "$L/reduce.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/reduce.txt") failures"
    ;;
  skinnydeep)
    # Step 75: a 16-bit deep-K call on the memory-bound path splits onto
    # the memory-bound kernel's f32-output twin (before: 128×128 `mma.sync`
    # tiles). `auto` alternating with the bundles in VARIANTS, two rounds;
    # memcheck and racecheck along L (M = 1, B row-major) and along K (N
    # small, A row-major), with a short last chunk.
    for round in 1 2; do
      for shape in "7 5 300001" "1 1 1000000" "1 4096 65536" "4096 1 65536" "1 300 100003" "100 4 100000" \
                   "16 2 500000" "64 7 131072"; do
        set -- $shape
        for dtype in f16 bf16; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
        done
      done
    done 2>&1 | tee "$L/skinnydeep.txt"
    for tool in memcheck racecheck; do
      for shape in "--m 7 --n 5 --k 300001 --dtype f16" "--m 1 --n 300 --k 100003 --dtype bf16" \
                   "--m 300 --n 3 --k 100003 --dtype f16"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --kernel auto --iters 1 --no-cublas
      done
    done
    note "skinnydeep: $(grep -c pass "$L/skinnydeep.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/skinnydeep.txt") failures"
    ;;
  alignk)
    # The along-K ring where X's rows are off 16 bytes (copied 4 bytes at a
    # time) and where they are on them (PERF step 76 tried copying each row
    # by its own offset: 16, 8 or 4 bytes). `auto` alternating with the
    # bundles in VARIANTS, two rounds, K from on 16 bytes (776, 780) to
    # off (777, 778, 779); then the four sanitizers through the ring.
    for round in 1 2; do
      for shape in "100000 16 776" "100000 16 777" "100000 16 778" "100000 16 779" "100000 16 780" \
                   "50000 13 3001" "200000 8 255" "30000 5 2002"; do
        set -- $shape
        for dtype in f32 tf32; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
        done
      done
    done 2>&1 | tee "$L/alignk.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      for shape in "--m 3001 --n 16 --k 778 --dtype f32 --kernel auto" \
                   "--m 301 --n 37 --k 131 --dtype f32 --kernel skinny_r16_2cta" \
                   "--m 4099 --n 9 --k 1031 --dtype tf32 --kernel auto"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
    done
    note "alignk: $(grep -c pass "$L/alignk.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/alignk.txt") failures"
    ;;
  f32odd)
    # What a split with a shorter last chunk in the same launch could give
    # at the weak f32 sizes: K that the chunk divides (3336, 1032), beside
    # the odd K of today (a second launch for the last chunk), each tile.
    named_runs f32 "777 999 3333" "777 999 3336" -- "auto auto" "wt_256x128x8 834" "wt_256x128x8 1112" \
      "wt_128x128x8 834" "wt_128x128x8 556" "wt_64x128x8 1112" "wt_64x128x8 834" "db_128x64x16 1112" 2>&1 |
      tee "$L/f32odd.txt"
    named_runs f32 "1031 1029 1027" "1031 1029 1032" "1032 1032 1032" -- "auto auto" "wt_128x128x8 344" \
      "wt_128x128x8 516" "wt_128x128x8 258" "wt_64x128x8 516" "wt_64x128x8 344" "wt_256x128x8 258" \
      "wt_256x128x8 344" "db_128x64x16 344" 2>&1 | tee -a "$L/f32odd.txt"
    named_runs f32 "200 200 100000" -- "auto auto" "wt_128x128x8 1520" "wt_128x128x8 3125" "wt_256x128x8 800" \
      "wt_256x128x8 1000" "wt_256x128x8 1600" "db_64x64x16 3125" 2>&1 | tee -a "$L/f32odd.txt"
    note "f32odd: $(grep -c pass "$L/f32odd.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32odd.txt") failures"
    ;;
  f32diag)
    named_runs f32 "1031 1029 1027" "1031 1029 1028" "1031 1032 1027" "1031 1032 1028" "1032 1032 1032" -- \
      "auto auto" "wt_128x128x8 344" "wt_128x128x8 off" 2>&1 | tee "$L/f32diag.txt"
    named_runs f32 "777 999 3333" "777 999 3336" "777 1000 3333" "777 1000 3336" "780 1000 3336" -- \
      "auto auto" "wt_128x128x8 480" "wt_128x128x8 556" "wt_256x128x8 834" 2>&1 | tee -a "$L/f32diag.txt"
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
    metrics=$metrics,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active
    metrics=$metrics,sm__inst_executed.avg.per_cycle_elapsed,smsp__inst_executed.sum
    metrics=$metrics,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed
    metrics=$metrics,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
    for shape in "1031 1029 1027" "1032 1032 1032" "777 999 3333" "780 1000 3336"; do
      set -- $shape
      timeout 300 "$NCU" --clock-control none --metrics "$metrics" \
        "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 1 >"$L/ncu-$1x$2x$3.txt" 2>&1
      note "f32diag ncu $shape: rc=$? $(grep -c gpu__time_duration "$L/ncu-$1x$2x$3.txt") kernels profiled"
    done
    note "f32diag: $(grep -c pass "$L/f32diag.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32diag.txt") failures"
    ;;
  spread)
    for round in 1 2; do
      for shape in "1031 1029 1027" "1031 1032 1027" "767 769 771" "520 501 768" "777 999 3333" "1999 2003 997" \
                   "3001 2999 1003" "1032 1032 1032" "1024 1024 1024" "2048 2048 2048" "4096 4096 4096"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/auto.txt"
    for kernel in wt_128x128x8 wt_64x128x8 db_128x64x16 wt_256x128x8; do
      for shape in "1031 1029 1027" "1031 1032 1027"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel $kernel --split-k off --iters 20
      done
    done 2>&1 | tee "$L/named.txt"
    named_runs f32 "780 1000 3336" "780 1000 3360" -- "wt_128x128x8 480" "wt_128x128x8 556" "wt_128x128x8 560" \
      "wt_128x128x8 372" "wt_128x128x8 240" "wt_128x128x8 834" "wt_256x128x8 834" 2>&1 | tee "$L/chunks.txt"
    # Just under F32_REALIGN_MIN_FLOP (no copies): A's rows, B's, both or
    # neither off 16 bytes, on the two tiles `auto` takes there.
    named_runs f32 "777 999 2761" "777 1000 2761" "777 999 2764" "777 1000 2764" -- "auto auto" \
      "wt_128x128x8 396" "wt_128x128x8 464" "wt_256x128x8 692" 2>&1 | tee "$L/realign.txt"
    for kernel in wt_128x128x8 wt_256x128x8 db_128x64x16 vec4; do
      sanitize memcheck "$L/san-memcheck-$kernel.log" "$B/gemm" --m 301 --n 259 --k 137 --dtype f32 --kernel $kernel \
        --split-k off --iters 1 --no-cublas
    done
    sanitize racecheck "$L/san-racecheck.log" "$B/gemm" --m 301 --n 259 --k 137 --dtype f32 --kernel wt_128x128x8 \
      --split-k off --iters 1 --no-cublas
    t=$(cat "$L"/*.txt)
    note "spread: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  f32choice)
    for round in 1 2; do
      for shape in "777 1000 2764" "777 999 2761" "1031 1029 1027" "1031 1031 1031" "1000 1000 2000" "900 1100 3000" \
                   "1100 700 1001" "1300 1001 999" "1024 1024 4096" "1024 1024 1024" "1280 1280 1280" "1536 1536 1536" \
                   "2000 2000 1000" "1999 2003 997" "767 769 771" "777 999 3333" "800 800 8000"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/auto.txt"
    for shape in "1024 1024 1024" "1000 1000 2000" "4096 4096 4096"; do
      set -- $shape
      each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel db_128x64x16 --split-k off --iters 20
    done 2>&1 | tee "$L/db.txt"
    runs=()
    for chunk in 464 472 480 488 496 504 512 520 528 536 544 552 556; do runs+=("wt_128x128x8 $chunk"); done
    named_runs f32 "780 1000 3336" -- "${runs[@]}" 2>&1 | tee "$L/chunks.txt"
    # Realigned copies under the unchecked loop's kernel (2.2·10⁹ flop), and
    # step 6's 128×64 tile under its new launch bound, off 16 bytes.
    sanitize memcheck "$L/san-memcheck-wt256.log" "$B/gemm" --m 1031 --n 1029 --k 1027 --dtype f32 \
      --kernel wt_256x128x8 --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-db.log" "$B/gemm" --m 301 --n 259 --k 137 --dtype f32 --kernel db_128x64x16 \
      --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-db.log" "$B/gemm" --m 301 --n 259 --k 137 --dtype f32 --kernel db_128x64x16 \
      --split-k off --iters 1 --no-cublas
    t=$(cat "$L"/*.txt)
    note "f32choice: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  dot)
    for round in 1 2; do
      for shape in "1 1 1000000" "1 1 100003" "7 5 300001" "3 2 200000" "8 8 100000" "5 7 65536" "1 4 1000000" \
                   "7 5 1000" "1 1 4096" "16 2 500000" "100 4 100000"; do
        set -- $shape
        for dtype in f16 bf16 f32; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
        done
      done
    done 2>&1 | tee "$L/auto.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      sanitize $tool "$L/san-$tool-f16.log" "$B/gemm" --m 7 --n 5 --k 30011 --dtype f16 --kernel auto --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-f32.log" "$B/gemm" --m 1 --n 1 --k 70001 --dtype f32 --kernel skinny_r1 \
        --split-k off --iters 1 --no-cublas
    done
    t=$(cat "$L"/*.txt)
    note "dot: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  klast)
    for round in 1 2; do
      for shape in "7 5 300001" "1 1 1000000" "1 4 1000000" "3 2 200001" "1 300 100003" "4096 1 65539"; do
        set -- $shape
        for dtype in f16 bf16 f32; do
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
        done
      done
    done 2>&1 | tee "$L/auto.txt"
    test_subset "library ragged" "library memory_bound" "accuracy" "split_k"
    sanitize memcheck "$L/san-memcheck.log" "$B/gemm" --m 7 --n 5 --k 30011 --dtype f16 --kernel auto --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck.log" "$B/gemm" --m 1 --n 1 --k 70001 --dtype f32 --kernel auto --iters 1 \
      --no-cublas
    note "klast: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  shift)
    # Steps 81-82: along-K rows off 16 bytes shifted into place; f32 deep-K
    # accuracy chunks scaled by the memory-bound kernels' sums per block.
    # Perf (auto, this bundle then VARIANTS), the tests, sanitizers, then a
    # second perf round.
    shift_round() {
      for shape in "4096 1 65539" "8192 1 8191" "16384 4 1023" "100000 4 777"; do
        set -- $shape
        for dtype in f16 bf16 f32; do each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30; done
      done
      for shape in "4096 1 65536" "8192 1 8192" "16384 4 1024"; do
        set -- $shape
        for dtype in f16 f32; do each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30; done
      done
      for shape in "1 1 1000000" "7 5 300001" "1 4096 65536" "64 3 1000000"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
    }
    shift_round 2>&1 | tee "$L/auto1.txt"
    test_subset "library memory_bound" "accuracy" "split_k" "library ragged"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-f16.log" "$B/gemm" --m 1000 --n 1 --k 1001 --dtype f16 --kernel auto --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-f32.log" "$B/gemm" --m 1000 --n 3 --k 1537 --dtype f32 --kernel auto --iters 1 \
        --no-cublas
    done
    sanitize memcheck "$L/san-memcheck-bf16-split.log" "$B/gemm" --m 300 --n 4 --k 70001 --dtype bf16 --kernel auto \
      --iters 1 --no-cublas
    shift_round 2>&1 | tee "$L/auto2.txt"
    t=$(cat "$L"/auto*.txt)
    note "shift: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  shiftx)
    # Step 82's cost at 1×4096×65536 f32 (along L): the new chunks or the
    # register count (two blocks per SM, not three)? Both chunks, both builds.
    for round in 1 2; do
      for chunk in 1024 16384; do
        each_bundle --m 1 --n 4096 --k 65536 --dtype f32 --kernel skinny_r1 --split-k $chunk --iters 30
      done
    done 2>&1 | tee "$L/chunks.txt"
    note "shiftx: $(grep -c pass "$L/chunks.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/chunks.txt") failures"
    ;;
  shiftf32)
    # Step 81's final build: f32 back on element-by-element loads for rows
    # off 16 bytes (the shifts ran slower there), 16-bit still shifted.
    for round in 1 2; do
      for shape in "4096 1 65539" "8192 1 8191" "16384 4 1023" "100000 4 777" "8192 1 8192"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
      each_bundle --m 4096 --n 1 --k 65539 --dtype f16 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    note "shiftf32: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  dotchunks)
    # Step 82's final rule: longer accuracy chunks for the dot pattern only.
    for shape in "1 1 1000000" "4096 1 65539" "1 4096 65536" "64 3 1000000" "7 5 300001"; do
      set -- $shape
      each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    test_subset "accuracy" "split_k" "library memory_bound" "library ragged"
    note "dotchunks: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  small64)
    # f32 64×64 warp tiles (4 warps of 32×32; four blocks per SM in the
    # build this part first ran, `.dev-c46`; five since), register
    # staged (wt_64x64x8) and on a 3-stage cp.async ring (wt_async_64x64x8),
    # named at the sizes that are no multiple of a tile, split by hand; the
    # same chunks on the wave fill's and model's tiles; `auto` as it stands.
    # First the new entries' tests and sanitizers, and memcheck on step 81's
    # shifted rows at a row that ends at its allocation's last byte.
    test_subset "library every_layout_kernel" "library warp_tiled_interior"
    for kernel in wt_64x64x8 wt_async_64x64x8; do
      for tool in memcheck racecheck; do
        sanitize $tool "$L/san-$tool-$kernel.log" "$B/gemm" --m 129 --n 131 --k 67 --dtype f32 --kernel $kernel \
          --iters 1 --no-cublas
      done
      sanitize memcheck "$L/san-memcheck-$kernel-split.log" "$B/gemm" --m 1031 --n 1029 --k 1027 --dtype f32 \
        --kernel $kernel --split-k 344 --iters 1 --no-cublas
    done
    for shape in "999 1 1001" "1000 4 1023"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-shift-$1x$2x$3.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel auto \
        --iters 1 --no-cublas
    done
    for round in 1 2; do
      named_runs f32 "767 769 771" -- "wt_64x64x8 off" "wt_64x64x8 392" "wt_64x64x8 264" "wt_64x64x8 200" \
        "wt_async_64x64x8 off" "wt_async_64x64x8 392" "wt_async_64x64x8 264" "auto auto"
      named_runs f32 "1031 1029 1027" "1100 700 1001" -- "wt_64x64x8 off" "wt_64x64x8 516" "wt_64x64x8 344" \
        "wt_64x64x8 260" "wt_async_64x64x8 off" "wt_async_64x64x8 516" "wt_async_64x64x8 344" "auto auto"
      named_runs f32 "777 999 3333" -- "wt_64x64x8 off" "wt_64x64x8 1112" "wt_64x64x8 668" "wt_async_64x64x8 1112" \
        "wt_async_64x64x8 668" "wt_64x128x8 1112" "wt_64x128x8 668" "auto auto"
      named_runs f32 "800 800 8000" -- "wt_64x64x8 off" "wt_64x64x8 4000" "wt_64x64x8 2000" "wt_async_64x64x8 2000" \
        "wt_64x128x8 2000" "wt_64x128x8 1000" "auto auto"
      named_runs f32 "1024 1024 1024" "1536 1536 1536" "2000 2000 1000" "4000 3000 1000" -- "wt_64x64x8 off" \
        "wt_64x64x8 512" "wt_async_64x64x8 off" "wt_async_64x64x8 512" "auto auto"
    done 2>&1 | tee -a "$L/named.txt"
    note "small64: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    ;;
  f32small)
    # Step 83: `auto` with wt_64x64x8 in the f32 split model (this bundle,
    # then VARIANTS), two rounds, f32 from 256³ to 4000×3000×1000; then the
    # splits the model weighs at the shapes it moved, named.
    for round in 1 2; do
      for shape in "767 769 771" "768 768 768" "512 512 512" "640 640 640" "700 700 700" "1031 1029 1027" \
                   "1032 1032 1032" "1100 700 1001" "777 999 3333" "777 1000 2764" "800 800 8000" "1024 1024 1024" \
                   "1280 1280 1280" "1300 1001 999" "1536 1536 1536" "1792 1792 1792" "2048 2048 2048" \
                   "1000 1000 2000" "1000 1000 3000" "1999 2003 997" "2000 2000 1000" "900 1100 3000" \
                   "4000 3000 1000" "256 256 256" "300 300 300"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    {
      named_runs f32 "800 800 8000" -- "wt_128x128x8 1600" "wt_128x128x8 1000" "wt_64x64x8 2668" "wt_64x128x8 1000"
      named_runs f32 "1300 1001 999" -- "wt_64x64x8 off" "wt_64x64x8 500" "wt_64x64x8 336" "wt_128x128x8 336"
      named_runs f32 "512 512 512" "640 640 640" -- "db_64x64x16 off" "wt_64x64x8 off" "wt_64x64x8 256" \
        "wt_64x64x8 128"
      named_runs f32 "777 1000 2764" -- "wt_64x64x8 924" "wt_256x128x8 692"
    } 2>&1 | tee "$L/named.txt"
    t=$(cat "$L"/auto.txt "$L"/named.txt)
    note "f32small: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  san83)
    # Step 83's kernels under the four sanitizers: both 64×64 entries named
    # on an odd shape, and `auto`'s split of 767×769×771 (wt_64x64x8 in 3).
    for tool in memcheck racecheck synccheck initcheck; do
      for kernel in wt_64x64x8 wt_async_64x64x8; do
        sanitize $tool "$L/san-$tool-$kernel.log" "$B/gemm" --m 129 --n 131 --k 67 --dtype f32 --kernel $kernel \
          --split-k 32 --iters 1 --no-cublas
      done
      sanitize $tool "$L/san-$tool-auto.log" "$B/gemm" --m 767 --n 769 --k 771 --dtype f32 --kernel auto --iters 1 \
        --no-cublas
    done
    ;;
  small64b)
    # Step 84's question: 64×64 tiles with K slices of 16 (half the
    # barriers) or two warps of 32×64 (8×8 outputs per lane), against
    # step 83's 64×64×8, named, at the splits `auto` picks for 64×64×8 and
    # one more; two rounds. Both variants lost and were removed: the part
    # runs on the bundle that had them (`.dev-c49`, PERF.md step 84).
    for round in 1 2; do
      for kernel in wt_64x64x8 wt_64x64x16 wt_64x64x8_w32x64; do
        named_runs f32 "767 769 771" -- "$kernel 260" "$kernel 196"
        named_runs f32 "1031 1029 1027" "1032 1032 1032" -- "$kernel 516" "$kernel 344"
        named_runs f32 "1100 700 1001" -- "$kernel 336" "$kernel 504"
        named_runs f32 "777 999 3333" -- "$kernel 1112" "$kernel 668"
        named_runs f32 "1536 1536 1536" "4000 3000 1000" -- "$kernel off"
        named_runs f32 "800 800 8000" -- "$kernel 2000" "$kernel 1000"
      done
    done 2>&1 | tee "$L/named.txt"
    note "small64b: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    ;;
  n4tiles)
    # 16-bit calls with N = 2-4 (the memory-bound r4 kernel, one block per
    # SM at 225 registers) against step 70's 64×16 `mma.sync` tiles and step
    # 10's 128×128 tiles, named; K odd and even; two rounds.
    for round in 1 2; do
      for dtype in f16 bf16; do
        named_runs $dtype "100000 4 777" "16384 4 1023" "16384 4 1024" "100000 4 776" "100000 2 777" -- \
          "auto auto" "mma_64x16x64 off" "mma_64x16x64 auto" "ws_128x128x64 auto"
      done
    done 2>&1 | tee "$L/named.txt"
    note "n4tiles: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    ;;
  n4auto)
    # Step 85: 16-bit N of 2 to 7 (A and B row-major) on the 64×16 tiles:
    # `auto` alternating with VARIANTS, two rounds; `library`'s memory-bound
    # test (N = 3, 6, 7 added) and `cpu`; memcheck and racecheck at N = 3
    # and 7 (K odd and under 2²⁷ flop: these ran the memory-bound kernels,
    # not the tiles; PERF.md step 85).
    for round in 1 2; do
      for shape in "100000 4 777" "100000 4 776" "16384 4 1024" "16384 4 1023" "100000 2 777" "30000 3 2001" \
                   "16384 6 4096" "50000 7 1000" "8192 5 8191" "100000 4 256" "2000 4 4096" "16384 1 4096" \
                   "16384 8 4096"; do
        set -- $shape
        for dtype in f16 bf16; do each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30; done
      done
    done 2>&1 | tee "$L/auto.txt"
    test_subset "library memory_bound" "cpu"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-n3.log" "$B/gemm" --m 8300 --n 3 --k 777 --dtype f16 --kernel auto --iters 1 \
        --no-cublas
    done
    sanitize memcheck "$L/san-memcheck-n7.log" "$B/gemm" --m 8400 --n 7 --k 513 --dtype bf16 --kernel auto --iters 1 \
      --no-cublas
    note "n4auto: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  mma86)
    # Step 86: 16-bit calls with a small side of at most 8 on the
    # tensor-core memory-bound kernel (`skinny_mma`), named beside `auto`
    # and step 70's 64×16 tiles; the GPU tests that name every kernel; the
    # sanitizers on it (K odd, a split's f32 partials) and on step 85's
    # route (`auto` at N = 3 onto the 64×16 tiles), which had none.
    for dtype in f16 bf16; do
      named_runs $dtype "100000 4 776" "100000 4 777" "16384 4 1024" "16384 4 1023" "8192 5 8191" "100000 4 256" \
        "16384 6 4096" "50000 7 1000" "100000 2 777" "30000 3 2001" "2000 4 4096" "8192 1 8191" "4096 1 65539" \
        "16384 8 4096" "1000 4 100000" -- "auto auto" "skinny_mma off" "skinny_mma auto" "mma_64x16x64 off"
    done 2>&1 | tee "$L/named.txt"
    note "mma86: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    test_subset "gpu" "library memory_bound" "library every_layout" "library beta_zero" "library sweep_random"
    step86_sanitizers
    ;;
  mma86b)
    # Step 86 after its loads were made branch-free (each main loop's loads
    # in one basic block): named again beside `auto` and the 64×16 tiles;
    # the tests that name every kernel; the sanitizers (run 1 ran out of time).
    for dtype in f16 bf16; do
      named_runs $dtype "100000 4 776" "100000 4 777" "16384 4 1023" "8192 5 8191" "100000 4 256" "16384 6 4096" \
        "30000 3 2001" "2000 4 4096" "8192 1 8191" "1000 4 100000" "100000 7 129" -- \
        "auto auto" "skinny_mma auto" "mma_64x16x64 off"
    done 2>&1 | tee "$L/named.txt"
    note "mma86b: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    step86_sanitizers
    test_subset "gpu" "library every_layout_kernel" "library beta_zero" "library sweep_random"
    ;;
  mma86auto)
    # Step 86's route: `auto` alternating with VARIANTS (step 85's build)
    # on 16-bit calls with N of 1 to 8; `library`'s memory-bound test
    # (every layout, α, β, a batch off 16 bytes; N = 3, 6, 7 and step 86's
    # named shapes) and `cpu`.
    for shape in "100000 4 777" "100000 4 776" "16384 4 1024" "16384 4 1023" "100000 2 777" "30000 3 2001" \
                 "16384 6 4096" "50000 7 1000" "8192 5 8191" "100000 4 256" "2000 4 4096" "16384 1 4096" \
                 "16384 8 4096" "1000 4 100000" "100000 7 129" "8192 3 8192"; do
      set -- $shape
      for dtype in f16 bf16; do each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30; done
    done 2>&1 | tee "$L/auto.txt"
    note "mma86auto: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    test_subset "library memory_bound" "cpu"
    ;;
  mma86rot)
    # Tried after step 86: each long tile of `skinny_mma` starts its K
    # steps at a hashed step of its own (VARIANTS), against the committed
    # kernel, named, two rounds, at shapes of few long rows and long K
    # (rows a near power of two of bytes apart) and at many rows; then the
    # review's `cli` test (`--kernel all`) and `cpu` on the bundle.
    for round in 1 2; do
      for dtype in f16 bf16; do
        for shape in "8192 5 8191" "8192 4 8192" "4096 7 16383" "16384 3 4096" "100000 4 777" "30000 3 2001"; do
          set -- $shape
          each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel skinny_mma --iters 30
        done
      done
    done 2>&1 | tee "$L/rot.txt"
    note "mma86rot: $(grep -c pass "$L/rot.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/rot.txt") failures"
    test_subset "cli" "cpu"
    ;;
  mma88)
    # Step 88: `skinny_mma_r16` (two n8 tiles: 16-bit small sides of 9 to
    # 16; TF32 on `m16n8k8`) named beside `auto` (step 70's 64×16 tiles
    # or step 10's for 16-bit, the exact-f32 `skinny_r16_2cta` for TF32);
    # step 86's 8-row kernel at N = 8; the sanitizers on the new kernels
    # (rows off 16 bytes, a split, the shared-memory sum).
    shapes=("100000 16 777" "16384 16 4096" "100000 16 512" "100000 12 777" "50000 9 1000" "8192 16 8191"
            "4096 16 16383" "30000 11 2001" "1000 16 100000" "8192 16 8192")
    for dtype in f16 bf16 tf32; do
      named_runs $dtype "${shapes[@]}" -- "auto auto" "skinny_mma_r16 auto"
    done 2>&1 | tee "$L/named.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "16384 8 4096" "100000 8 777" -- "auto auto" "skinny_mma auto" "skinny_mma_r16 auto"
    done 2>&1 | tee "$L/named8.txt"
    for dtype in f16 tf32; do
      for shape in "8300 13 777" "4099 16 1024" "1000 16 20001"; do
        set -- $shape
        sanitize memcheck "$L/san-memcheck-$dtype-$1x$2x$3.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype \
          --kernel skinny_mma_r16 --iters 1 --no-cublas
      done
    done
    sanitize racecheck "$L/san-racecheck-bf16-8300x13x777.log" "$B/gemm" --m 8300 --n 13 --k 777 --dtype bf16 \
      --kernel skinny_mma_r16 --iters 1 --no-cublas
    note "mma88: $(cat "$L"/named*.txt | grep -c pass) passes, $(cat "$L"/named*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  mma88auto)
    # Step 88's route: `auto` on 16-bit N of 8 to 16 and TF32 N of 9 to 16
    # (before: the "auto" rows of part mma88), with calls whose route must
    # not change (A's rows on 16 bytes, N of 2 to 7, long TF32 rows); then
    # the GPU tests that name every kernel or run `auto` on skinny shapes.
    for shape in "100000 16 777" "100000 12 777" "30000 11 2001" "50000 9 1000" "8192 16 8191" "4096 16 16383" \
                 "100000 8 777" "100000 16 256" "100000 12 256" "16384 16 4096" "8192 16 8192" "100000 16 512" \
                 "1000 16 100000" "100000 4 777" "8192 5 8191"; do
      set -- $shape
      for dtype in f16 bf16 tf32; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    note "mma88auto: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    test_subset "gpu" "cpu" "library memory_bound" "library keep_nan_padding"
    ;;
  mma89ld)
    # Tried after step 88: how `skinny_mma`'s X windows are loaded (VARIANTS:
    # `ld.global.cg`, L2 only; `ld.global.cs`, evict first), against the
    # bundle's plain `ld.global`, named, two rounds, at long rows on 16
    # bytes (its weak side) and at many short rows; and what `auto` ran
    # before step 88 at 100000×16×256, named.
    for round in 1 2; do
      for run in "f16 8192 16 8192 skinny_mma_r16" "f16 16384 16 4096 skinny_mma_r16" "f16 8192 4 8192 skinny_mma" \
                 "f16 8192 5 8191 skinny_mma" "f16 4096 16 16383 skinny_mma_r16" "f16 100000 16 777 skinny_mma_r16" \
                 "f16 100000 16 256 skinny_mma_r16" "f16 100000 4 777 skinny_mma" "tf32 8192 16 8192 skinny_mma_r16" \
                 "tf32 100000 16 777 skinny_mma_r16"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --iters 30
      done
    done 2>&1 | tee "$L/named.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "100000 16 256" "100000 12 256" -- "ws_128x128x64 auto" "mma_64x16x64 auto" "ws_128x128x64_2cta auto"
    done 2>&1 | tee "$L/before256.txt"
    note "mma89ld: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  mma89)
    # Step 89 (X read with `ld.global.cs`): `auto` on the calls steps 86 and
    # 88 route to the tensor-core memory-bound kernel and on their weak
    # side (long rows), f16, bf16 and TF32; memcheck on both kernels.
    for shape in "8192 5 8191" "8192 4 8192" "8192 16 8191" "4096 16 16383" "100000 16 777" "100000 4 777" \
                 "100000 16 256" "30000 3 2001" "1000 4 100000" "8192 3 8192" "16384 16 4096"; do
      set -- $shape
      for dtype in f16 bf16 tf32; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "8192 4 8192" "8192 3 8192" "16384 4 4096" -- "skinny_mma auto" "mma_64x16x64 auto"
    done 2>&1 | tee "$L/named.txt"
    sanitize memcheck "$L/san-memcheck-f16-8300x3x777.log" "$B/gemm" --m 8300 --n 3 --k 777 --dtype f16 \
      --kernel skinny_mma --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-tf32-8300x13x777.log" "$B/gemm" --m 8300 --n 13 --k 777 --dtype tf32 \
      --kernel skinny_mma_r16 --iters 1 --no-cublas
    note "mma89: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  nanpad)
    # `library`'s test that fills A's and B's padding and batch gaps with
    # NaN for every memory-bound kernel and `auto` (the review of step 86:
    # nothing tested that a window reaching past a row keeps none of it).
    test_subset "library keep_nan_padding" "library memory_bound_shapes"
    ;;
  skinny16odd)
    for dtype in f16 bf16; do
      named_runs $dtype "100000 16 777" "16384 16 1023" "30000 9 2001" "16 50001 1024" "12 30001 2000" -- \
        "auto auto" "ws_128x128x64 auto" "ws_128x128x64 off" "skinny_r4 auto"
    done 2>&1 | tee "$L/skinny16odd.txt"
    for dtype in f16 bf16; do
      for shape in "100000 16 777" "16384 16 1023" "30000 9 2001" "16 50001 1024" "12 30001 2000" "100000 4 777"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    sanitize memcheck "$L/san-memcheck-f16.log" "$B/gemm" --m 1000 --n 16 --k 257 --dtype f16 --kernel auto \
      --iters 1 --no-cublas
    t=$(cat "$L"/*.txt)
    note "skinny16odd: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  ringcheck)
    for round in 1 2; do
      for shape in "100000 16 512" "16384 16 4096" "100000 16 777" "16 200000 256" "16 16384 4096" ${RING_ODD:+"16 50001 1024" \
                   "16 100001 256" "12 16383 4096"}; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-along-l.log" "$B/gemm" --m 13 --n 301 --k 129 --dtype f32 --kernel skinny_r16_2cta \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-along-k.log" "$B/gemm" --m 301 --n 13 --k 131 --dtype f32 --kernel skinny_r16 \
        --iters 1 --no-cublas
    done
    note "ringcheck: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  skinnymma)
    for dtype in f16 bf16; do
      named_runs $dtype "16 8192 1024" "16 16384 4096" "2 50000 1000" "8 32768 2048" "16 200000 256" -- \
        "auto auto" "ws_128x128x64 auto" "mma_16x64x64 off"
      named_runs $dtype "16384 16 1024" "16384 16 4096" "100000 16 512" "8192 16 8192" "30000 8 2048" -- \
        "auto auto" "ws_128x128x64 auto" "mma_64x16x64 off"
    done 2>&1 | tee "$L/named.txt"
    for shape in "f16 100000 16 777" "bf16 100000 16 777" "f16 16 50001 1024" "f16 1031 1029 1027" \
                 "f16 5003 4001 3001" "f32 777 999 3333" "f32 1999 2003 997" "tf32 1031 1029 1027"; do
      set -- $shape
      each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/copies.txt"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-m16.log" "$B/gemm" --m 13 --n 301 --k 136 --dtype f16 --kernel mma_16x64x64 \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-n16.log" "$B/gemm" --m 301 --n 11 --k 136 --dtype bf16 --kernel mma_64x16x64 \
        --iters 1 --no-cublas
    done
    sanitize memcheck "$L/san-memcheck-copies.log" "$B/gemm" --m 263 --n 389 --k 301 --dtype f16 \
      --kernel ws_128x128x64 --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-copies-f32.log" "$B/gemm" --m 1031 --n 2053 --k 1027 --dtype f32 \
      --kernel db_128x64x16 --iters 1 --no-cublas
    t=$(cat "$L"/named.txt "$L"/copies.txt)
    note "skinnymma: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  skinnyodd)
    for dtype in f16 bf16; do
      named_runs $dtype "100000 16 777" "16384 16 1023" "30000 9 2001" "8192 16 8191" -- "mma_64x16x64 off"
      named_runs $dtype "16 50001 1024" "12 30001 2000" "16 16383 4096" "2 50001 1000" -- "mma_16x64x64 off"
    done 2>&1 | tee "$L/named.txt"
    for shape in "f16 100000 16 777" "bf16 100000 16 777" "f16 16384 16 1023" "f16 30000 9 2001" \
                 "f16 16 50001 1024" "bf16 12 30001 2000" "f16 16 16383 4096" "f16 100000 16 512" \
                 "f16 8192 16 8191" "f16 2 50001 1000"; do
      set -- $shape
      each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    for tool in memcheck racecheck synccheck initcheck; do
      sanitize $tool "$L/san-$tool-n16.log" "$B/gemm" --m 301 --n 11 --k 139 --dtype f16 --kernel mma_64x16x64 \
        --iters 1 --no-cublas
      sanitize $tool "$L/san-$tool-m16.log" "$B/gemm" --m 13 --n 303 --k 136 --dtype bf16 --kernel mma_16x64x64 \
        --iters 1 --no-cublas
    done
    t=$(cat "$L"/named.txt "$L"/auto.txt)
    note "skinnyodd: $(grep -c pass <<<"$t") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' <<<"$t") failures"
    ;;
  newsan)
    for tool in ${TOOLS:-synccheck initcheck}; do
      for shape in "--m 13 --n 301 --k 129 --dtype f32 --kernel skinny_r16_2cta" \
                   "--m 301 --n 13 --k 131 --dtype f32 --kernel skinny_r16_2cta" \
                   "--m 16 --n 1001 --k 136 --dtype f32 --kernel skinny_r16" \
                   "--m 13 --n 301 --k 136 --dtype f16 --kernel mma_16x64x64" \
                   "--m 301 --n 11 --k 136 --dtype bf16 --kernel mma_64x16x64" \
                   "--m 263 --n 389 --k 301 --dtype f16 --kernel ws_128x128x64" \
                   "--m 1031 --n 2053 --k 1027 --dtype f32 --kernel db_128x64x16"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
    done
    ;;
  sweep)
    "$B/gemm" sweep --iters 10 --out "$L" >"$L/sweep.log" 2>&1
    note "sweep: rc=$? $(tail -1 "$L/sweep.log")"
    ;;
  sanitizers)
    # TOOLS picks a subset (one call of the device tool has 10 minutes).
    for tool in ${TOOLS:-memcheck racecheck synccheck initcheck}; do
      # Every kernel on an odd and an aligned shape; step 10 on aligned
      # operands and on realigned copies; then --kernel auto on split-K shapes
      # (bf16: partials on step 10's twin; TF32 on step 10b with N = 136:
      # partials on `mma.sync`; f16 and TF32 with N near 192: the 128×192
      # twin, `mma` 64×192) and a memory-bound deep-K one.
      for shape in "--m 129 --n 131 --k 67" "--m 256 --n 256 --k 256" \
                   "--m 136 --n 264 --k 72 --dtype f16 --kernel ws_128x256x64" \
                   "--m 136 --n 264 --k 72 --dtype bf16 --kernel ws_128x128x64" \
                   "--m 136 --n 264 --k 72 --dtype tf32 --kernel ws_128x256x32" \
                   "--m 131 --n 137 --k 67 --dtype f16 --kernel ws_128x128x64" \
                   "--m 131 --n 137 --k 67 --dtype tf32 --kernel ws_128x256x32" \
                   "--m 131 --n 137 --k 67 --dtype tf32 --kernel ws_128x128x32" \
                   "--m 136 --n 264 --k 72 --dtype f16 --kernel ws_128x192x64" \
                   "--m 131 --n 137 --k 67 --dtype tf32 --kernel ws_128x192x32" \
                   "--m 136 --n 264 --k 72 --dtype f16 --kernel ws_128x256x64_c2" \
                   "--m 100 --n 300 --k 200 --dtype bf16 --kernel ws_128x256x64_c2" \
                   "--m 131 --n 137 --k 67 --dtype tf32 --kernel ws_128x256x32_c2" \
                   "--m 131 --n 137 --k 67 --dtype f16 --kernel ws_128x128x64_2cta" \
                   "--m 2200 --n 2100 --k 40 --dtype bf16 --kernel ws_128x128x64_2cta" \
                   "--m 128 --n 128 --k 65536 --dtype bf16 --kernel auto" \
                   "--m 128 --n 136 --k 20000 --dtype tf32 --kernel auto" \
                   "--m 61 --n 192 --k 20000 --dtype f16 --kernel auto" \
                   "--m 61 --n 190 --k 20001 --dtype tf32 --kernel auto" \
                   "--m 129 --n 131 --k 9001 --kernel auto" "--m 7 --n 5 --k 70001 --kernel auto"; do
        sanitize "$tool" "$L/$tool-${shape// /_}.log" "$B/gemm" $shape --iters 1 --no-cublas
      done
      # Every PTX entry (all layouts) with α, β and a batch, from the library tests.
      sanitize "$tool" "$L/$tool-library-layouts.log" "$B/tests/library" every_layout_kernel --test-threads=1
      # Step 7b's unchecked main loop runs on interior tiles only: every
      # layout of the warp-tiled kernels on a shape that has them.
      sanitize "$tool" "$L/$tool-library-warp-tiled.log" "$B/tests/library" warp_tiled_interior --test-threads=1
    done
    ;;
  survey90)
    # Session of 2026-11-27, evening: (a) `auto` on the N 2-7 long-row
    # route of 9b5308e (not yet run on a GPU) and the library test whose
    # TF32 bound baf9aeb changed; (b) the weak rows left on issue 11,
    # `auto` beside named candidates: 16-bit N of 8-16 at short K, TF32
    # N = 16 at deep K, f32 sizes that are no multiple of a tile, TF32
    # 512³ and 16-bit 1536³.
    for shape in "8192 4 8192" "8192 3 8192" "16384 4 4096" "8192 6 16383" "20000 2 10000"; do
      set -- $shape
      for dtype in f16 bf16; do
        timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/route.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "100000 16 64" "100000 16 128" "100000 16 256" "100000 16 384" "50000 16 256" \
        "200000 16 128" "100000 8 256" -- "auto auto" "mma_64x16x64 off" "skinny_mma_r16 auto"
    done 2>&1 | tee "$L/shortk.txt"
    named_runs tf32 "1000 16 100000" "2000 16 50000" "500 16 200000" -- "auto auto" "skinny_mma_r16 auto" \
      "skinny_r16_2cta auto" "ws_128x128x32 auto" 2>&1 | tee "$L/tf32deep.txt"
    named_runs f32 "777 999 3333" -- "auto auto" "wt_64x128x8 672" "wt_64x128x8 840" "wt_64x128x8 1112" \
      "wt_64x64x8 1112" "wt_64x64x8 840" "wt_64x64x8 672" "wt_128x128x8 480" 2>&1 | tee "$L/f32odd.txt"
    named_runs f32 "1031 1029 1027" "1100 700 1001" -- "auto auto" "wt_64x128x8 344" "wt_64x128x8 512" \
      "wt_64x64x8 344" "wt_64x64x8 512" "wt_64x64x8 off" "wt_128x128x8 344" 2>&1 | tee -a "$L/f32odd.txt"
    named_runs tf32 "512 512 512" -- "auto auto" "ws_128x128x32 off" "ws_128x128x32 128" "ws_128x128x32 256" \
      "mma_64x128x32 off" "mma_64x128x32 256" "mma_128x128x32 128" 2>&1 | tee "$L/small.txt"
    named_runs f16 "1536 1536 1536" -- "auto auto" "ws_128x192x64 off" "ws_128x128x64 off" \
      "ws_128x128x64_2cta off" "ws_128x256x64 off" "ws_128x256x64_c2 off" "ws_128x128x64 768" 2>&1 | tee -a "$L/small.txt"
    note "survey90: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    test_subset "library memory_bound_shapes"
    ;;
  occ90)
    # Session of 2026-11-27, evening, run 2 (VARIANTS: a gemm whose
    # RGEMM_EXP_SMEM pads a kernel's dynamic shared memory to cap its
    # blocks per SM, an experiment, and that carries the short-K route):
    # f32 sizes that are no multiple of a tile on fewer blocks per SM;
    # TF32 N = 16 at deep K in other chunks; `auto` on short K, N = 16.
    V=${VARIANTS%% *}
    exp_runs() {
      local dtype=$1 shape=$2 setting=$3 run; shift 3
      for run in "$@"; do
        set -- $shape $run
        echo "# RGEMM_EXP_SMEM=$setting"
        RGEMM_EXP_SMEM=$setting timeout 120 "$V/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel $4 --split-k $5 --iters 20
      done
    }
    {
      exp_runs f32 "777 999 3333" "" "wt_64x128x8 672" "wt_64x64x8 672" "wt_64x64x8 1112"
      exp_runs f32 "777 999 3333" "wt_64x128x8=80000" "wt_64x128x8 672" "wt_64x128x8 480" "wt_64x128x8 840" "wt_64x128x8 1112"
      exp_runs f32 "777 999 3333" "wt_64x64x8=50000" "wt_64x64x8 1112" "wt_64x64x8 840" "wt_64x64x8 672"
      exp_runs f32 "777 999 3333" "wt_64x64x8=70000" "wt_64x64x8 672" "wt_64x64x8 480" "wt_64x64x8 840"
      exp_runs f32 "1031 1029 1027" "" "wt_64x64x8 516"
      exp_runs f32 "1031 1029 1027" "wt_64x128x8=80000" "wt_64x128x8 344" "wt_64x128x8 258" "wt_64x128x8 206" "wt_64x128x8 516"
      exp_runs f32 "1031 1029 1027" "wt_64x64x8=70000" "wt_64x64x8 344" "wt_64x64x8 258" "wt_64x64x8 516"
      exp_runs f32 "1100 700 1001" "" "wt_64x64x8 336"
      exp_runs f32 "1100 700 1001" "wt_64x128x8=80000" "wt_64x128x8 504" "wt_64x128x8 256" "wt_64x128x8 200"
      exp_runs f32 "1100 700 1001" "wt_64x64x8=70000" "wt_64x64x8 336" "wt_64x64x8 504" "wt_64x64x8 256"
    } 2>&1 | tee "$L/f32occ.txt"
    named_runs tf32 "1000 16 100000" "500 16 200000" "2000 16 50000" -- "skinny_r16_2cta 5000" "skinny_r16_2cta 2500" \
      "skinny_r16_2cta 20000" "skinny_mma_r16 5000" "skinny_mma_r16 2500" 2>&1 | tee "$L/tf32deep.txt"
    for shape in "100000 16 64" "100000 16 128" "100000 16 256" "100000 16 384" "50000 16 256" "100000 8 256" \
                 "16 200000 256" "100000 16 512"; do
      set -- $shape
      for dtype in f16 bf16; do
        timeout 120 "$V/gemm" --m $1 --n $2 --k $3 --dtype $dtype --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/shortk-auto.txt"
    note "occ90: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  split90)
    # Step 90 (VARIANTS: the build with it): a memory-bound kernel's
    # few-tiles split counts waves of the blocks per SM it is built for
    # (two for `skinny_r16_2cta`, `skinny_mma`, `skinny_mma_r16`, `skinny_r1`,
    # the f32/TF32 `skinny_r4`), and 16-bit N =
    # 16 at short K stays on the 64×16 tiles. `auto`, the bundle then the
    # variant, two rounds, on the deep-K calls of every memory-bound kernel
    # that splits, and on short K.
    for round in 1 2; do
      for run in "tf32 1000 16 100000" "tf32 500 16 200000" "tf32 2000 16 50000" "tf32 3000 12 20000" \
                 "tf32 1 1 1000000" "tf32 1000 4 100000" "f16 1000 4 100000" "bf16 500 8 200000" \
                 "f16 2000 2 50000" "f16 1000 16 20000" "bf16 1000 12 30000" "f16 4096 1 65539" \
                 "f16 1 1 1000000" "f32 1 1 1000000" "f32 1000 16 100000" "f32 1000 4 100000" \
                 "f16 100000 16 256" "bf16 100000 16 128"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    note "split90: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    ;;
  sweep90)
    # After step 90 (VARIANTS: HEAD's gemm): the default sweep (the
    # README's plot), a sweep of few long rows at mid K (the class of
    # f16 1000×16×20000, 57% in step 90's run 3), and that shape's split
    # by hand.
    V=${VARIANTS%% *}
    "$V/gemm" sweep --iters 10 --out "$L/sweep" >"$L/sweep.log" 2>&1
    note "sweep: rc=$? $(tail -1 "$L/sweep.log")"
    "$V/gemm" sweep --iters 20 --out "$L/fewrows" --shapes \
      1000x16x20000,2000x16x10000,1000x8x12000,500x12x16384,4000x16x9000,16x1000x20000,8x2000x16384,3000x4x12000,1000x16x9000,2000x5x30000,3000x16x30000,700x16x60000 \
      >"$L/fewrows.log" 2>&1
    note "fewrows: rc=$? $(tail -1 "$L/fewrows.log")"
    for dtype in f16 bf16; do
      for chunk in 1000 2000 4000 5000 10000 off; do
        timeout 120 "$V/gemm" --m 1000 --n 16 --k 20000 --dtype $dtype --kernel skinny_mma_r16 --split-k $chunk --iters 30
      done
      timeout 120 "$V/gemm" --m 1000 --n 16 --k 20000 --dtype $dtype --kernel ws_128x128x64 --iters 30
      timeout 120 "$V/gemm" --m 1000 --n 16 --k 20000 --dtype $dtype --kernel mma_64x16x64 --split-k off --iters 30
    done 2>&1 | tee "$L/named.txt"
    note "sweep90 named: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    ;;
  pairs91)
    # Step 91 (VARIANTS: the build with it): `skinny_mma_r16` reads a
    # row-major B's columns in pairs, one load per K index for both n8
    # tiles. Named, the bundle then the variant, two rounds: N even (pairs)
    # and odd (not), long and short rows, splits, f16 / bf16 / TF32; then
    # memcheck on the paired path.
    V=${VARIANTS%% *}
    for round in 1 2; do
      for run in "f16 1000 16 20000" "bf16 1000 16 20000" "f16 8192 16 8192" "f16 4096 16 16383" "f16 2000 16 10000" \
                 "f16 4000 16 9000" "f16 3000 16 30000" "f16 100000 16 777" "f16 100000 12 777" "f16 30000 11 2001" \
                 "f16 50000 10 1000" "bf16 8192 14 8192" "tf32 1000 16 20000" "tf32 8192 16 8192" "tf32 100000 16 777" \
                 "tf32 100000 12 777" "tf32 30000 11 2001"; do
        set -- $run
        each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel skinny_mma_r16 --iters 30
      done
    done 2>&1 | tee "$L/named.txt"
    for run in "f16 8300 12 777" "bf16 4099 16 1024" "f16 1000 14 20001" "tf32 8300 16 777" "tf32 1000 10 20001"; do
      set -- $run
      RGEMM_GEMM_BIN=$V/gemm sanitize memcheck "$L/san-memcheck-$1-$2x$3x$4.log" "$V/gemm" --m $2 --n $3 --k $4 \
        --dtype $1 --kernel skinny_mma_r16 --iters 1 --no-cublas
    done
    note "pairs91: $(grep -c pass "$L/named.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/named.txt") failures"
    ;;
  verify91)
    # Steps 90-91 as committed (the bundle), `auto` beside HEAD before step
    # 91 (VARIANTS: step 90's gemm) on the calls step 91's pairs take,
    # then the test binaries (library: its memory-bound tests and the
    # replayed seeds; LIBRARY: a library binary to run instead).
    for run in "f16 1000 16 20000" "bf16 3000 16 30000" "f16 4096 16 16383" "f16 4000 16 9000" "f16 100000 16 777" \
               "bf16 100000 12 777" "f16 8192 14 8191" "f16 100000 16 256" "tf32 1000 16 100000"; do
      set -- $run
      each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    note "verify91 auto: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    test_subset gpu cpu accuracy split_k ptxas cli
    LIB=${LIBRARY:-$B/tests/library}
    for filter in memory_bound every_layout beta_zero bad_calls; do
      log=$L/test-library-$filter.log
      if timeout 300 "$LIB" $filter --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "$LIB $filter: $r ($(grep -h 'test result' "$log" | tail -1))"
    done
    for seed in 118329410061627573 7148685252023399051 5414313321624355118 988023684365844977; do
      log=$L/library-sweep-seed-$seed.log
      if RGEMM_SEED=$seed timeout 300 "$LIB" sweep --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "library sweep, RGEMM_SEED=$seed: $r"
    done
    ;;
  final91)
    # After the review of steps 90-91 (the bundle): `library`'s
    # memory-bound tests (a named paired shape added) and the four replayed
    # seeds; memcheck and racecheck on `skinny_mma_r16` (paired f16, TF32);
    # `auto` where the split rule's review changes touch (the dot pattern
    # back at 250 chunks, the streaming kernels); the sweep of few long rows.
    test_subset "library memory_bound"
    for seed in 118329410061627573 7148685252023399051 5414313321624355118 988023684365844977; do
      log=$L/library-sweep-seed-$seed.log
      if RGEMM_SEED=$seed timeout 300 "$B/tests/library" sweep --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "tests/library sweep, RGEMM_SEED=$seed: $r"
    done
    for run in "f16 8300 12 777" "f16 1000 14 20001" "tf32 8300 16 777" "tf32 1000 10 20001"; do
      set -- $run
      sanitize memcheck "$L/san-memcheck-$1-$2x$3x$4.log" "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 \
        --kernel skinny_mma_r16 --iters 1 --no-cublas
    done
    sanitize racecheck "$L/san-racecheck-bf16-8300x16x777.log" "$B/gemm" --m 8300 --n 16 --k 777 --dtype bf16 \
      --kernel skinny_mma_r16 --iters 1 --no-cublas
    for run in "f32 1 1 1000000" "f16 1 1 1000000" "tf32 1000 16 100000" "f16 1000 4 100000" "f16 100000 16 256" \
               "f16 100000 16 32"; do
      set -- $run
      timeout 120 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    note "final91 auto: $(grep -c pass "$L/auto.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/auto.txt") failures"
    "$B/gemm" sweep --iters 20 --out "$L/fewrows" --shapes \
      1000x16x20000,2000x16x10000,1000x8x12000,500x12x16384,4000x16x9000,16x1000x20000,8x2000x16384,3000x4x12000,1000x16x9000,2000x5x30000,3000x16x30000,700x16x60000 \
      >"$L/fewrows.log" 2>&1
    note "fewrows: rc=$? $(tail -1 "$L/fewrows.log")"
    ;;
  explore92)
    # Which built kernel serves the weak few-row calls best (survey before
    # step 92): `auto` and named kernels with their own split, then fixed
    # chunks, one dtype and shape per line, with cuBLAS beside each.
    for run in "f16 1000 16 20000" "f16 2000 16 10000" "f16 4000 16 9000" "f16 1000 16 9000" "f16 3000 16 30000" \
               "f16 700 16 60000" "f16 16 1000 20000" "f16 8 2000 16384" "f16 100000 16 32" "tf32 1000 16 20000" \
               "tf32 1000 16 9000" "tf32 4000 16 9000" "f32 100000 16 777"; do
      set -- $run
      case $1 in
        f16) ks="auto skinny_mma_r16 ws_128x128x64 ws_128x192x64 mma_64x16x64 mma_16x64x64" ;;
        tf32) ks="auto skinny_mma_r16 skinny_r16_2cta ws_128x128x32_rs ws_128x128x32 ws_16x128x32_rs" ;;
        f32) ks="auto skinny_r16_2cta skinny_r16 skinny_mma_r16" ;;
      esac
      for kern in $ks; do
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $kern --iters 30
      done
    done 2>&1 | tee "$L/named.txt"
    for run in "f16 1000 16 20000" "f16 2000 16 10000" "f16 16 1000 20000" "tf32 1000 16 20000"; do
      set -- $run
      for chunk in 1000 1250 2000 2500 5000; do
        for kern in skinny_mma_r16 ws_128x128x64 mma_64x16x64 mma_16x64x64 ws_128x128x32_rs; do
          timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $kern --split-k $chunk --iters 30 --no-cublas
        done
      done
    done 2>&1 | grep -v "^device\|^kernel" | tee "$L/chunks.txt"
    note "explore92: $(grep -c pass "$L/named.txt") + $(grep -c pass "$L/chunks.txt") passes"
    ;;
  tiles92)
    # Step 92: step 70's skinny tiles split onto their own f32-output twins.
    # Named, each tile kernel with the rule's split and fixed chunks that
    # divide K (multiples of 8), cuBLAS beside; then K under 64 on the
    # 64x16 tiles against `auto`; then memcheck on a split of each twin.
    split_runs() {
      local dtype=$1 m=$2 n=$3 k=$4 kern=$5 chunk; shift 5
      for chunk in auto "$@"; do
        timeout 60 "$B/gemm" --m $m --n $n --k $k --dtype $dtype --kernel $kern --split-k $chunk --iters 30
      done
    }
    {
      split_runs f16 1000 16 20000 mma_64x16x64 off 800 1000 2000 4000
      split_runs f16 2000 16 10000 mma_64x16x64 off 400 1000 2000
      split_runs f16 4000 16 9000 mma_64x16x64 off 1000 1800 3000
      split_runs f16 3000 16 30000 mma_64x16x64 2000 3000 5000 6000
      split_runs f16 700 16 60000 mma_64x16x64 2000 3000 4000 6000
      split_runs f16 1000 16 100000 mma_64x16x64 2000 4000 5000 10000
      split_runs f16 1000 16 4096 mma_64x16x64 off 512 1024 2048
      split_runs f16 2000 16 4096 mma_64x16x64 off 1024 2048
      split_runs f16 8192 16 8192 mma_64x16x64 off 2048 4096
      split_runs bf16 1000 16 20000 mma_64x16x64 1000 2000
      split_runs f16 16 1000 20000 mma_16x64x64 800 1000 2000 4000
      split_runs f16 8 2000 16384 mma_16x64x64 512 1024 2048 4096
      split_runs bf16 16 1000 20000 mma_16x64x64 1000 2000
      for run in "f16 1000 16 20000" "f16 2000 16 10000" "f16 4000 16 9000" "f16 3000 16 30000" "f16 700 16 60000" \
                 "f16 1000 16 100000" "f16 1000 16 4096" "f16 2000 16 4096" "f16 16 1000 20000" "f16 8 2000 16384" "f16 8192 16 8192" \
                 "f16 16384 16 4096"; do
        set -- $run
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
      done
    } 2>&1 | tee "$L/named.txt"
    for k in 8 16 32 48 64; do
      for kern in auto mma_64x16x64 skinny_mma_r16; do
        timeout 60 "$B/gemm" --m 100000 --n 16 --k $k --dtype f16 --kernel $kern --iters 30
      done
    done 2>&1 | tee "$L/shortk.txt"
    sanitize memcheck "$L/san-memcheck-f16-1000x16x2000.log" "$B/gemm" --m 1000 --n 16 --k 2000 --dtype f16 \
      --kernel mma_64x16x64 --split-k 512 --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-bf16-13x1001x2000.log" "$B/gemm" --m 13 --n 1001 --k 2000 --dtype bf16 \
      --kernel mma_16x64x64 --split-k 504 --iters 1 --no-cublas
    note "tiles92: $(grep -c pass "$L/named.txt") + $(grep -c pass "$L/shortk.txt") passes, $(cat "$L/named.txt" "$L/shortk.txt" | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  verify92)
    # Step 92 as committed (the bundle), `auto` beside the build before it
    # (VARIANTS: .dev-c71) on the calls its route and split change, then
    # the test binaries but `library` (part library92).
    for run in "f16 1000 16 20000" "bf16 1000 16 20000" "f16 2000 16 10000" "f16 4000 16 9000" "f16 3000 16 30000" \
               "bf16 3000 16 30000" "f16 700 16 60000" "f16 1000 16 100000" "f16 1000 16 4096" "f16 2000 16 4096" \
               "f16 16 1000 20000" "bf16 16 1000 20000" "f16 8 2000 16384" "f16 4 1000 50000" "f16 100000 16 32" \
               "bf16 100000 16 8" "f16 8192 16 8192" "f16 16384 16 4096" "f16 1000 4 100000" "f16 4096 16 16383" \
               "f16 1000 16 9000" "f16 500 16 16384"; do
      set -- $run
      each_bundle --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    tally "verify92 auto" "$L/auto.txt"
    test_subset gpu cpu accuracy split_k ptxas cli
    sanitize racecheck "$L/san-racecheck-f16-1000x16x20000.log" "$B/gemm" --m 1000 --n 16 --k 20000 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-f16-999x16x4104.log" "$B/gemm" --m 999 --n 16 --k 4104 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    ;;
  library92)
    # `library`, every test (its every-layout test runs the new twins as
    # the partials of the skinny tiles' splits).
    test_subset library
    ;;
  final92)
    # Step 92's build: the sweep of few long rows at mid K (as sweep90's),
    # then N = 8 (which keeps `skinny_mma`) against the 64x16 tiles split
    # by the rule, named.
    "$B/gemm" sweep --iters 20 --out "$L/fewrows" --shapes \
      1000x16x20000,2000x16x10000,1000x8x12000,500x12x16384,4000x16x9000,16x1000x20000,8x2000x16384,3000x4x12000,1000x16x9000,2000x5x30000,3000x16x30000,700x16x60000 \
      >"$L/fewrows.log" 2>&1
    note "fewrows: rc=$? $(tail -1 "$L/fewrows.log")"
    for run in "f16 1000 8 12000" "bf16 1000 8 12000" "f16 2000 8 10000" "f16 4000 8 9000" "f16 1000 8 50000"; do
      set -- $run
      for kern in auto mma_64x16x64; do
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $kern --iters 30
      done
    done 2>&1 | tee "$L/n8.txt"
    tally "final92 n8" "$L/n8.txt"
    ;;
  check92)
    # Step 92 after review (the bundle): `auto` on the route's edges (N = 8
    # joins it; both sides small and N of 2 to 7 keep theirs), the test
    # binaries but `library`, and `library`'s memory-bound and bad-call
    # tests.
    for run in "f16 2000 8 10000" "f16 4000 8 9000" "f16 1000 8 12000" "bf16 1000 8 50000" "f16 1000 16 20000" \
               "f16 16 1000 20000" "f16 8 16 65536" "f16 1000 4 100000" "f16 100000 16 8"; do
      set -- $run
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    tally "check92 auto" "$L/auto.txt"
    test_subset gpu cpu split_k cli "library memory_bound" "library bad_calls"
    sanitize memcheck "$L/san-memcheck-f16-2000x8x10000.log" "$B/gemm" --m 2000 --n 8 --k 10000 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    # TF32 few long rows: `auto` (exact f32 on CUDA cores past K = 2048)
    # against step 88's TF32 `skinny_mma_r16`, both split by the rule.
    for shape in "500 16 20000" "700 16 20000" "1000 16 20000" "1500 16 20000" "2000 16 20000" "3000 16 20000" \
                 "1000 16 4096" "1000 16 9000" "2000 16 9000" "500 16 200000" "1000 12 16384" "1000 9 20000" \
                 "1000 8 12000" "16384 16 4096"; do
      set -- $shape
      for kern in auto skinny_mma_r16; do
        timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $kern --iters 30
      done
    done 2>&1 | tee "$L/tf32.txt"
    tally "check92 tf32" "$L/tf32.txt"
    ;;
  tf32rows93)
    # Step 93 (the bundle: its `gemm`) beside step 92 (VARIANTS): `auto`
    # on TF32 few long rows, in and around the new route.
    for shape in "700 16 20000" "1000 16 20000" "2000 16 20000" "3000 16 20000" "1000 16 9000" "2000 16 10000" \
                 "4000 16 9000" "1000 12 16384" "1000 8 12000" "1000 16 100000" "700 16 60000" "3000 16 30000" \
                 "500 16 200000" "4096 16 9000"; do
      set -- $shape
      each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    tally "tf32rows93" "$L/auto.txt"
    sanitize memcheck "$L/san-memcheck-tf32-1001x12x9001.log" "$B/gemm" --m 1001 --n 12 --k 9001 --dtype tf32 \
      --kernel auto --iters 1 --no-cublas
    ;;
  library93)
    # The final build's `library`, every test, in one go (past
    # test_subset's 300 s: about 390 s on an H100), then the replayed seed
    # of its random sweep is in the log.
    log=$L/test-library-all.log
    if timeout 540 "$B/tests/library" --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/library: $r ($(grep -h 'test result' "$log" | tail -1))"
    ;;
  recheck93)
    # Step 93 after review (K > DEEP_K): `auto` on both sides of the
    # route's K bound, then `library`'s memory-bound test (its shapes now
    # include 1000x8x9001 and 1000x16x9000) and the quick binaries.
    for run in "tf32 1000 16 9000" "tf32 2000 16 8192" "tf32 1000 16 4096" "tf32 1000 8 9001" "f16 1000 8 9001" \
               "bf16 1000 16 9000"; do
      set -- $run
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30
    done 2>&1 | tee "$L/auto.txt"
    tally "recheck93 auto" "$L/auto.txt"
    test_subset "library memory_bound" gpu cpu split_k
    ;;
  unsplit93)
    # Noticed after step 93: memory-bound calls of few rows and K up to
    # DEEP_K run unsplit. Named, the rule's split (none) against chunks of
    # 1024 and 2048 on the kernels' own twins, cuBLAS beside.
    for run in "tf32 2000 16 8192 skinny_r16_2cta" "tf32 2000 16 8192 skinny_mma_r16" "tf32 1000 16 4096 skinny_r16_2cta" \
               "tf32 1000 16 4096 skinny_mma_r16" "f32 2000 16 8192 skinny_r16_2cta" "f16 1 8192 8192 skinny_r1"; do
      set -- $run
      for chunk in auto 1024 2048; do
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --split-k $chunk --iters 30
      done
    done 2>&1 | tee "$L/named.txt"
    tally "unsplit93" "$L/named.txt"
    ;;
  mbsplit94)
    # Step 94: memory-bound calls of few blocks (under a wave) and K from
    # FEW_TILES_MIN_K to DEEP_K split by the few-tiles rule. Named: the
    # rule (auto) against unsplit (off, the rule before) and other chunks,
    # cuBLAS beside; TF32 rows on both kernels the route could pick.
    for run in "tf32 2000 16 8192 tgemm_skinny_r16_2cta 2048" "tf32 2000 16 8192 tgemm_skinny_mma_r16 1024" \
               "tf32 1000 16 4096 tgemm_skinny_r16_2cta 1024" "tf32 1000 16 4096 tgemm_skinny_mma_r16 1024" \
               "tf32 700 16 4096 tgemm_skinny_r16_2cta 1024" "tf32 700 16 4096 tgemm_skinny_mma_r16 1024" \
               "tf32 500 16 8192 tgemm_skinny_r16_2cta 1024" "tf32 500 16 8192 tgemm_skinny_mma_r16 1024" \
               "tf32 3000 16 8192 tgemm_skinny_r16_2cta 2048" "tf32 3000 16 8192 tgemm_skinny_mma_r16 2048" \
               "tf32 4000 16 4096 tgemm_skinny_r16_2cta 2048" "tf32 4000 16 4096 tgemm_skinny_mma_r16 2048" \
               "tf32 1000 8 4096 tgemm_skinny_r16_2cta 1024" "tf32 1000 8 4096 tgemm_skinny_mma_r16 1024" \
               "tf32 1000 16 2048 tgemm_skinny_mma_r16 1024" "tf32 1000 16 2048 tgemm_skinny_r16_2cta 1024" \
               "f32 2000 16 8192 sgemm_skinny_r16_2cta 2048" "f32 1000 16 4096 sgemm_skinny_r16_2cta 1024" \
               "f32 2000 16 2048 sgemm_skinny_r16_2cta 1024" "f32 1000 1 4096 sgemm_skinny_r1 1024" \
               "f32 4096 1 4096 sgemm_skinny_r1 2048" "f32 1 4096 4096 sgemm_skinny_r1 2048" \
               "f32 100 4 8192 sgemm_skinny_r4 1024" "f16 4096 1 4096 hgemm_skinny_r1 2048" \
               "f16 1000 4 8192 hgemm_skinny_mma 1024" "f16 2000 2 8192 hgemm_skinny_mma 2048" \
               "f16 100 4 8192 hgemm_skinny_mma 1024" "bf16 1000 4 8192 bgemm_skinny_mma 1024" \
               "bf16 4096 1 4096 bgemm_skinny_r1 2048"; do
      set -- $run
      for chunk in auto off $6; do
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --split-k $chunk --iters 50
      done
    done 2>&1 | tee "$L/named.txt"
    tally "mbsplit94" "$L/named.txt"
    ;;
  verify94)
    # Step 94's first build: `auto` with the rule's split against
    # `--split-k off` (the rule before, but TF32 rows, which ran
    # `skinny_mma_r16` unsplit there) on few-block memory-bound calls of
    # K from FEW_TILES_MIN_K to DEEP_K, tiny ones included, and on calls
    # that stay unsplit; then the library's memory-bound test (its new
    # shapes), the quick binaries and compute-sanitizer on two split calls.
    auto_against_off "$L/auto.txt" "tf32 2000 16 8192" "tf32 1000 16 4096" "tf32 700 16 4096" "tf32 3000 16 8192" "tf32 1000 8 4096" \
               "tf32 1000 8 2048" "tf32 1000 16 2048" "tf32 4000 16 4096" "f32 2000 16 8192" "f32 1000 16 4096" \
               "f32 1000 1 4096" "f32 1 1000 4096" "f32 100 4 8192" "f32 1 1 4096" "f32 16 16 2048" \
               "f16 1000 4 8192" "f16 2000 2 8192" "f16 7 5 6000" "f16 1 1 4096" "f16 1 1000 4096" \
               "f16 4096 1 4096" "bf16 1000 4 8192" "bf16 1 2000 8192" "bf16 333 5 6007"
    tally "verify94 auto" "$L/auto.txt"
    test_subset "library memory_bound" gpu cpu split_k
    sanitize memcheck "$L/san-memcheck-tf32-1000x16x4096.log" "$B/gemm" --m 1000 --n 16 --k 4096 --dtype tf32 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-bf16-333x5x6007.log" "$B/gemm" --m 333 --n 5 --k 6007 --dtype bf16 \
      --kernel auto --iters 1 --no-cublas
    ;;
  tiny94)
    # After verify94: tiny calls (1×1×4096) ran slower split, the extra
    # launches costing more than the one block's stream. `auto` split
    # against off over operands of 16 KiB to 0.5 MiB, to find a floor.
    auto_against_off "$L/auto.txt" "f32 1 1 2048" "f32 1 1 8192" "f32 1 1 16384" "f32 2 2 8192" "f32 1 8 4096" "f32 4 4 4096" \
               "f32 1 16 8192" "f32 16 1 8192" "f32 3 3 2048" "f16 1 1 8192" "f16 1 1 16384" "f16 3 3 8192" \
               "f16 8 8 4096" "f16 1 8 2048" "bf16 7 5 4096" "bf16 1 64 4096" "bf16 2 2 4096" "tf32 1 1 8192"
    tally "tiny94 auto" "$L/auto.txt"
    ;;
  final94)
    # Step 94 as committed ("dot" calls left unsplit below DEEP_K, TF32
    # rows left unsplit on exact f32): `auto` against `--split-k off` (the
    # rule before) on split and unsplit calls, then the
    # library's memory-bound test and the quick binaries.
    auto_against_off "$L/auto.txt" "tf32 2000 16 8192" "tf32 1000 16 4096" "tf32 1000 8 2048" "tf32 4000 16 4096" "f32 1000 1 4096" \
               "f32 16 16 2048" "f32 1 1 4096" "f32 4 4 4096" "f32 1 8 4096" "f16 1 1 4096" "f16 3 3 8192" \
               "f16 7 5 6000" "f16 1000 4 8192" "bf16 1 64 4096" "bf16 1 2000 8192"
    tally "final94 auto" "$L/auto.txt"
    test_subset "library memory_bound" gpu cpu split_k
    ;;
  libmb94)
    # final94's host ran `library`'s memory-bound test past test_subset's
    # 300 s (its CPU slower: the split calls' launches there ran slower
    # too); the test alone, timed, with the time a call has.
    log=$L/test-library-memory_bound.log
    start=$SECONDS
    if timeout 550 "$B/tests/library" memory_bound --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/library memory_bound: $r in $((SECONDS - start)) s ($(grep -h 'test result' "$log" | tail -1))"
    ;;
  librest94)
    # The committed build of step 94: `library`'s other 16 tests (the
    # memory-bound two passed in libmb94), the random sweep among them.
    log=$L/test-library-rest.log
    start=$SECONDS
    if timeout 550 "$B/tests/library" --skip memory_bound --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/library --skip memory_bound: $r in $((SECONDS - start)) s ($(grep -h 'test result' "$log" | tail -1))"
    ;;
  rounds95)
    # Noticed in steps 92-94: a memory-bound split's block count (blocks ×
    # chunks) often ends a fraction into a round of the kernel's slots
    # (2 per SM: 264). Named, the rule's chunks (twice, for the noise)
    # against chunks for one and two full rounds, cuBLAS beside.
    for run in "tf32 1000 16 20000 tgemm_skinny_mma_r16 2500 1252" "tf32 1000 16 100000 tgemm_skinny_r16_2cta 12500 6252" \
               "tf32 2000 16 50000 tgemm_skinny_r16_2cta 12500 6252" "f16 1000 4 100000 hgemm_skinny_mma 12504 6256" \
               "tf32 500 16 200000 tgemm_skinny_r16_2cta 12500 6064" "tf32 1000 16 9000 tgemm_skinny_mma_r16 1128 564" \
               "tf32 3000 12 20000 tgemm_skinny_mma_r16 10000 4000" "f16 2000 2 50000 hgemm_skinny_mma 12504 6256" \
               "tf32 700 16 20000 tgemm_skinny_mma_r16 1668 836" "tf32 1000 4 100000 tgemm_skinny_r4 12500 6252"; do
      set -- $run
      for chunk in auto $6 $7 auto; do
        timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --split-k $chunk --iters 50
      done
    done 2>&1 | tee "$L/named.txt"
    tally "rounds95" "$L/named.txt"
    ;;
  verify95)
    # Step 95 (memory-bound splits trimmed to whole rounds of slots):
    # `auto` on run 7's shapes; beside it, named, the chunks the rule gave
    # before where not measured in run 7 (f16 7×5×300001: 1016; f32
    # 1000×16×100000: 1000); then the library's memory-bound test and the
    # quick binaries.
    for run in "tf32 1000 16 20000" "tf32 1000 16 9000" "tf32 1000 4 100000" "f16 1000 4 100000" "f16 2000 2 50000" \
               "tf32 1000 16 100000" "tf32 700 16 20000" "tf32 3000 12 20000" "f16 7 5 300001" "f32 1000 16 100000"; do
      set -- $run
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 50
    done 2>&1 | tee "$L/auto.txt"
    for run in "f16 7 5 300001 hgemm_skinny_mma 1016" "f32 1000 16 100000 sgemm_skinny_r16_2cta 1000"; do
      set -- $run
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --split-k $6 --iters 50
    done 2>&1 | tee "$L/named.txt"
    tally "verify95 auto" "$L/auto.txt"
    tally "verify95 named" "$L/named.txt"
    log=$L/test-library-memory_bound.log
    if timeout 400 "$B/tests/library" memory_bound --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
    note "tests/library memory_bound: $r ($(grep -h 'test result' "$log" | tail -1))"
    test_subset gpu cpu split_k
    ;;
  final95)
    # Step 95 after review (a last round exactly half full stays): `auto`
    # on run 8's shapes, then the quick binaries.
    for run in "tf32 1000 16 20000" "tf32 1000 16 9000" "f16 1000 4 100000" "f16 7 5 300001" "tf32 700 16 20000" \
               "tf32 1000 16 4096" "f32 1000 1 4096"; do
      set -- $run
      timeout 60 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 50
    done 2>&1 | tee "$L/auto.txt"
    tally "final95 auto" "$L/auto.txt"
    test_subset gpu cpu split_k
    ;;
  tiles10g)
    # Step 96's question: 16-bit 192×96 tiles (three consumer warpgroups
    # of 64×96) named beside step 10's three and `auto`, at the shapes a
    # rate of 0.85 would give them and two it would not (1024³, 3072³);
    # memcheck and racecheck off the tile edges; the gpu test and the
    # library's layouts test. They lost everywhere and were removed: the
    # part runs on the bundle that had them (`.dev-c98`; the change is
    # `docs/runs/2026-11-28-tiles96/run1-named-h100/step96-ws-192x96.patch`).
    for dtype in f16 bf16; do
      named_runs $dtype "1536 1536 1536" "1408 1408 1408" "2560 2560 2560" "2688 2688 2688" "1536 1536 4096" \
        "1536 3072 1536" "3072 1536 1536" "1200 1400 1000" "1536 1536 512" "1024 1024 1024" "3072 3072 3072" -- \
        "auto auto" "ws_192x96x64 off" "ws_128x192x64 off" "ws_128x256x64 off" "ws_128x128x64 off"
    done 2>&1 | tee "$L/tiles.txt"
    tally "tiles10g named" "$L/tiles.txt"
    sanitize memcheck "$L/san-memcheck-192x96.log" "$B/gemm" --m 389 --n 203 --k 200 --dtype f16 \
      --kernel ws_192x96x64 --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-192x96.log" "$B/gemm" --m 389 --n 203 --k 200 --dtype bf16 \
      --kernel ws_192x96x64 --iters 1 --no-cublas
    test_subset gpu "library every_layout"
    ;;
  f32tiles96)
    # f32 sizes that are no multiple of a tile: `wt_64x128x8` (8×8 outputs
    # per lane, as cuBLAS's 64×128×8 tiles there; not in the split model)
    # split at several chunk counts, beside `auto` and `wt_64x64x8`; two
    # rounds.
    for round in 1 2; do
      named_runs f32 "777 999 3333" -- "auto auto" "wt_64x128x8 1112" "wt_64x128x8 834" "wt_64x128x8 667" \
        "wt_64x128x8 556" "wt_64x128x8 477" "wt_64x64x8 667" "wt_128x128x8 512"
      named_runs f32 "1031 1029 1027" "1032 1032 1032" -- "auto auto" "wt_64x128x8 off" "wt_64x128x8 516" \
        "wt_64x128x8 344" "wt_64x128x8 257" "wt_64x64x8 344"
      named_runs f32 "767 769 771" "1100 700 1001" -- "auto auto" "wt_64x128x8 off" "wt_64x128x8 386" \
        "wt_64x128x8 257"
      named_runs f32 "1999 2003 997" "1024 1024 1024" -- "auto auto" "wt_64x128x8 off" "wt_64x128x8 499" \
        "wt_64x64x8 off" "wt_64x64x8 499" "wt_128x128x8 499"
    done 2>&1 | tee "$L/f32tiles.txt"
    tally "f32tiles96" "$L/f32tiles.txt"
    ;;
  tiles144)
    # 16-bit 128×144 tiles (1536³: 132 of them) named beside step 10's
    # three, at mid sizes and at full waves (3072³: 528 tiles, 6144³) for
    # their rate; memcheck and racecheck off the tile edges; the gpu test.
    # They lost everywhere and were removed: the part runs on the bundle
    # that had them (`.dev-c99`, PERF.md step 96).
    for dtype in f16 bf16; do
      named_runs $dtype "1536 1536 1536" "1536 1536 4096" "3072 3072 3072" "6144 6144 6144" "2048 2048 2048" \
        "1024 1024 1024" "1408 1408 1408" "2560 2560 2560" "4000 3000 1000" "1200 1400 1000" -- \
        "ws_128x144x64 off" "ws_128x192x64 off" "ws_128x256x64 off" "ws_128x128x64 off"
    done 2>&1 | tee "$L/tiles.txt"
    tally "tiles144 named" "$L/tiles.txt"
    sanitize memcheck "$L/san-memcheck-144.log" "$B/gemm" --m 389 --n 303 --k 200 --dtype f16 \
      --kernel ws_128x144x64 --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-144.log" "$B/gemm" --m 389 --n 303 --k 200 --dtype bf16 \
      --kernel ws_128x144x64 --iters 1 --no-cublas
    test_subset gpu
    ;;
  tiles96b)
    # Step 96 again: the 192×96 tiles with B's 96 columns in 64-byte
    # swizzled atoms (three TMA boxes of 32 columns), named beside step
    # 10's 128×192 and 128×128, at mid sizes and at full waves for the
    # rate; memcheck and racecheck off the tile edges; the gpu test.
    # Faster than before, still slower than 128×192, and removed: the part
    # runs on the bundle that had them (`.dev-c100`; the change is
    # `docs/runs/2026-11-28-tiles96/run4-sw64-h100/step96-ws-192x96-sw64.patch`).
    for dtype in f16 bf16; do
      named_runs $dtype "1536 1536 1536" "1536 1536 4096" "3072 3072 3072" "6144 6144 6144" "1024 1024 1024" \
        "2560 2560 2560" "1408 1408 1408" -- "ws_192x96x64 off" "ws_128x192x64 off" "ws_128x128x64 off"
    done 2>&1 | tee "$L/tiles.txt"
    tally "tiles96b named" "$L/tiles.txt"
    sanitize memcheck "$L/san-memcheck-192x96.log" "$B/gemm" --m 389 --n 203 --k 200 --dtype f16 \
      --kernel ws_192x96x64 --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-192x96.log" "$B/gemm" --m 389 --n 203 --k 200 --dtype bf16 \
      --kernel ws_192x96x64 --iters 1 --no-cublas
    test_subset gpu
    ;;
  sweep96|sweep98|sweep100)
    # The default sweep: the README's plot and weak rows (sweep96 ran on
    # the build of HEAD after step 95, `.dev-c97`; sweep98 on step 98's,
    # `.dev-c104`, on an H100 and an H200; sweep100 on step 100's,
    # `.dev-c113`, on an H200).
    default_sweep
    ;;
  small96)
    # Measured, for a rule: TF32 small squares (16–64 tiles of step 10f's
    # 128×128, unsplit) split in 2 and 4 chunks and on `mma.sync` 64×128;
    # 16-bit 200×200×100000 in other chunk counts than the rule's 25.
    for round in 1 2; do
      named_runs tf32 "512 512 512" "768 768 768" "1024 1024 1024" -- "auto auto" "ws_128x128x32_rs off" \
        "ws_128x128x32_rs 256" "ws_128x128x32_rs 128" "mma_64x128x32 off" "mma_64x128x32 256"
      named_runs f16 "200 200 100000" -- "auto auto" "ws_128x128x64 2000" "ws_128x128x64 3125" \
        "ws_128x128x64 5000" "ws_128x128x64 6250" "ws_128x128x64 10000"
    done 2>&1 | tee "$L/small.txt"
    tally "small96" "$L/small.txt"
    ;;
  groups96)
    # A review's finding: a group of tile rows past 2³¹ wrapped the tile
    # map (C left unwritten, or a division by zero on the GPU). A tune
    # cache whose entries carry such groups, `auto` through it, on this
    # build and on the build before (VARIANTS); the gpu test (its
    # grouped-order test takes such groups now) and cpu; `auto` at five
    # shapes beside the build before, for what the clamp costs.
    huge_group_calls
    note "groups96 tuned: $(grep -c pass "$L/tuned.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/tuned.txt") failures or errors (the build before: expected)"
    test_subset gpu cpu
    for round in 1 2; do
      for shape in "4096 4096 4096 f32" "4096 4096 4096 f16" "1031 1029 1027 f32" "2048 2048 2048 tf32" "1536 1536 1536 bf16"; do
        set -- $shape
        RGEMM_TUNE_CACHE=off each_bundle --m $1 --n $2 --k $3 --dtype $4 --kernel auto --iters 50
      done
    done 2>&1 | tee "$L/auto.txt"
    tally "groups96 auto" "$L/auto.txt"
    ;;
  groups97)
    # Step 97 with the clamp on the host (`group_rows`; the kernels as
    # before): the tune cache of groups96 through `auto`, and the gpu test.
    huge_group_calls
    tally "groups97 tuned" "$L/tuned.txt"
    test_subset gpu
    ;;
  mbdiag98)
    # Where 100000×16×777 loses bandwidth (issue 11: ≥ 70% on M or N ≤ 16):
    # the memory-bound kernels named at K on and off 16 bytes, short and
    # long, about 300 MB of X each; ncu on both at K = 776 and 777.
    for dtype in f32 f16 tf32; do
      kernel=skinny_mma_r16; [ $dtype = f32 ] && kernel=skinny_r16_2cta
      named_runs $dtype "100000 16 512" "100000 16 768" "100000 16 776" "100000 16 777" "100000 16 780" \
        "100000 16 784" "50000 16 1552" "50000 16 1553" "25000 16 3104" "25000 16 3107" "12500 16 6211" -- \
        "$kernel off" "auto auto"
    done 2>&1 | tee "$L/mbdiag.txt"
    tally "mbdiag98" "$L/mbdiag.txt"
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for run in "f32 skinny_r16_2cta 776" "f32 skinny_r16_2cta 777" "f16 skinny_mma_r16 776" "f16 skinny_mma_r16 777"; do
      set -- $run
      timeout 200 "$NCU" --clock-control none --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
        --section LaunchStats "$B/gemm" --m 100000 --n 16 --k $3 --dtype $1 --kernel $2 --split-k off --iters 3 \
        --no-cublas >"$L/ncu-$1-$3.txt" 2>&1
      note "mbdiag98 ncu $run: rc=$? $(grep -c 'Duration' "$L/ncu-$1-$3.txt") durations"
    done
    ;;
  mb98)
    # Step 98: the f32 along-K ring copies rows off 16 bytes in whole
    # 16-byte pieces from the boundary before them, and a stage's lanes own
    # every 32nd K index, so the last stage multiplies only its 32s with K
    # left. Named and `auto`, alternating with the build before (VARIANTS:
    # `.dev-c97g`'s gemm), two rounds; the memory-bound library tests and
    # gpu; compute-sanitizer on the ring, rows off 16 bytes, S both ways.
    for round in 1 2; do
      for shape in "100000 16 777" "100000 16 776" "100000 16 768" "100000 16 512" "50000 16 1553" \
          "50000 16 1552" "25000 16 3107" "12500 16 6211" "16384 16 4096" "8192 16 8191" "100000 13 777" \
          "100000 8 777"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel skinny_r16_2cta --split-k off --iters 20
        each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 20
      done
      for shape in "100000 16 777" "25000 16 3107"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel skinny_r16_2cta --split-k off --iters 20
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 20
      done
    done 2>&1 | tee "$L/mb98.txt"
    tally "mb98 timed" "$L/mb98.txt"
    # 16-bit N = 16 with rows off 16 bytes: step 88's kernel (`auto`'s)
    # beside step 70's 64×16 tiles (rows realigned in shared memory).
    for dtype in f16 bf16; do
      named_runs $dtype "100000 16 777" "50000 16 1553" "25000 16 3107" "100000 16 776" -- "auto auto" \
        "skinny_mma_r16 off" "mma_64x16x64 off"
    done 2>&1 | tee "$L/mb98-16bit.txt"
    tally "mb98 16-bit" "$L/mb98-16bit.txt"
    test_subset "library memory_bound" gpu
    for shape in "1001 16 777" "301 13 131" "777 16 1029"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-$1.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 \
        --kernel skinny_r16_2cta --split-k off --iters 1 --no-cublas
      sanitize initcheck "$L/san-initcheck-$1.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 \
        --kernel skinny_r16_2cta --split-k off --iters 1 --no-cublas
      sanitize racecheck "$L/san-racecheck-$1.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 \
        --kernel skinny_r16 --split-k off --iters 1 --no-cublas
    done
    ;;
  mb98b)
    # Step 98 as committed (a copy of the stage's products for rows on 16
    # bytes): `auto` alternating with the build before (VARIANTS:
    # `.dev-c97g`'s gemm), f32 and TF32 at the shapes of mb98; the
    # memory-bound library tests and gpu; compute-sanitizer on the ring.
    for shape in "100000 16 777 f32" "100000 16 776 f32" "100000 16 768 f32" "100000 16 512 f32" \
        "50000 16 1553 f32" "25000 16 3107 f32" "8192 16 8191 f32" "16384 16 4096 f32" "100000 13 777 f32" \
        "16 16384 4096 f32" "25000 16 3107 tf32" "8192 16 8191 tf32"; do
      set -- $shape
      each_bundle --m $1 --n $2 --k $3 --dtype $4 --kernel auto --iters 20
    done 2>&1 | tee "$L/mb98b.txt"
    tally "mb98b timed" "$L/mb98b.txt"
    test_subset "library memory_bound" gpu
    sanitize memcheck "$L/san-memcheck.log" "$B/gemm" --m 1001 --n 16 --k 777 --dtype f32 \
      --kernel skinny_r16_2cta --split-k off --iters 1 --no-cublas
    sanitize initcheck "$L/san-initcheck.log" "$B/gemm" --m 777 --n 16 --k 1029 --dtype f32 \
      --kernel skinny_r16_2cta --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck.log" "$B/gemm" --m 301 --n 13 --k 131 --dtype f32 \
      --kernel skinny_r16 --split-k off --iters 1 --no-cublas
    ;;
  fix98)
    # A review's finding on step 98: the ring's zero-filling copies gave
    # X's start as the (unread) address, off 16 bytes where a batch's
    # matrices start off them; now X's start rounded down. `auto` at
    # 100000×16×777 and 777, memcheck, and the memory-bound library tests
    # (their batches start off 16 bytes).
    for shape in "100000 16 777" "100000 16 768"; do
      set -- $shape
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 20
    done 2>&1 | tee "$L/fix98.txt"
    tally "fix98 timed" "$L/fix98.txt"
    sanitize memcheck "$L/san-memcheck.log" "$B/gemm" --m 1001 --n 16 --k 777 --dtype f32 \
      --kernel skinny_r16_2cta --split-k off --iters 1 --no-cublas
    test_subset "library memory_bound"
    ;;
  probe99)
    # Session of 2026-11-28 (third): `auto` on shapes drawn at random in
    # each of issue 11's classes (seed 20261128: M or N of 1 to 16 over
    # 2000-200000 rows and K 256-8192, half of them odd; deep K; shallow
    # K; squares 1024-2048; sizes 300-6000; matrix-vector), every dtype,
    # beside cuBLAS: where are the weak rows on shapes nobody tuned for?
    shapes=16707x4x7861,38068x13x891,24996x2x574,10431x16x495,6879x2x1594,5681x14x1095,33771x6x3933
    shapes=$shapes,8x42212x501,6x2292x5015,13x186997x5813,47x307x53605,35x92x215606,411x248x74905
    shapes=$shapes,264x33x210822,35x338x39638,22x56x171379,3030x10002x4,10289x6944x42,6492x5009x24
    shapes=$shapes,9309x3770x58,10260x4071x54,1235x1235x1235,1451x1451x1451,1471x1471x1471,1798x1798x1798
    shapes=$shapes,1879x1879x1879,1840x1840x1840,1274x909x2726,3334x1616x3055,4446x1184x4616,334x2364x1090
    shapes=$shapes,523x1000x1937,3080x357x3028,1808x660x3002,794x4058x2331,1x8286x4096,2179x1x4096
    "$B/gemm" sweep --shapes "$shapes" --iters 20 --out "$L/probe" >"$L/probe.log" 2>&1
    note "probe99: rc=$? $(tail -1 "$L/probe.log")"
    ;;
  diag99)
    # Run 2 of 2026-11-28 (third): what makes probe99's weak rows weak.
    # (a) Shallow K: C's rows off 16 bytes (N odd) against on them, each
    # dtype; (b) deep K at few odd rows: the odd shape against its aligned
    # neighbour, and the TMA tiles named (which then read realigned
    # copies); (c) 16-bit M of 6-13 over long odd rows.
    for dtype in f32 tf32 f16; do
      named_runs $dtype "6492 5009 24" "6492 5008 24" "6492 5008 32" "3030 10002 4" "3030 10000 4" -- "auto auto"
    done 2>&1 | tee "$L/shallow.txt"
    named_runs f16 "47 307 53605" "48 312 53608" "35 92 215606" "40 96 215608" -- "auto auto" \
      "ws_128x128x64 auto" "mma_128x128x32_w32x64 auto" 2>&1 | tee "$L/deep.txt"
    named_runs tf32 "47 307 53605" "48 312 53608" "35 92 215606" -- "auto auto" "ws_128x128x32 auto" \
      "ws_128x128x32_rs auto" 2>&1 | tee -a "$L/deep.txt"
    named_runs f32 "47 307 53605" "48 312 53608" "35 92 215606" "40 96 215608" -- "auto auto" \
      "wt_64x64x8 auto" "wt_128x128x8 auto" 2>&1 | tee -a "$L/deep.txt"
    named_runs f16 "6 2292 5015" "8 2296 5016" "8 42212 501" "8 42216 504" -- "auto auto" "skinny_mma auto" \
      "skinny_mma_r16 auto" 2>&1 | tee "$L/skinny.txt"
    note "diag99: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  check99)
    # Run 3 of 2026-11-28 (third), step 99: probe99's weak rows and guards
    # beside them, `auto` on the bundle and on VARIANTS (the build before,
    # `.dev-c105`), new-old-new; the f32 epilogue for C's rows off 16
    # bytes under memcheck and racecheck; the deep-K copies under memcheck;
    # the library tests that reach the changed paths.
    shapes=6492x5009x24,3030x10002x4,9309x3770x58,10260x4071x54,8192x8192x16,6000x5000x64
    shapes=$shapes,47x307x53605,35x92x215606,264x33x210822,35x338x39638,22x56x171379,411x248x74905
    shapes=$shapes,64x192x300000,128x128x65536,200x200x100000
    shapes=$shapes,777x999x3333,1031x1029x1027,1999x2003x997,1274x909x2726,523x1000x1937
    sweeps_new_old_new check99 "$shapes"
    for kernel in wt_256x128x8 wt_64x64x8 wt_async_64x64x8 wt_128x128x8; do
      sanitize memcheck "$L/san-memcheck-$kernel.log" "$B/gemm" --m 1031 --n 1029 --k 131 --dtype f32 \
        --kernel $kernel --split-k off --iters 1 --no-cublas
    done
    sanitize racecheck "$L/san-racecheck-wt_256x128x8.log" "$B/gemm" --m 600 --n 301 --k 131 --dtype f32 \
      --kernel wt_256x128x8 --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-wt_64x64x8.log" "$B/gemm" --m 600 --n 301 --k 131 --dtype f32 \
      --kernel wt_64x64x8 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-deep-f16.log" "$B/gemm" --m 47 --n 307 --k 9001 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-deep-tf32.log" "$B/gemm" --m 35 --n 92 --k 9003 --dtype tf32 \
      --kernel auto --iters 1 --no-cublas
    test_subset gpu "library warp_tiled_interior" "library short_k" "library f32_realigned" \
      "library tma_kernels_read_misaligned" "library sweep_random"
    ;;
  check99b)
    # Run 4 of 2026-11-28 (third), step 99 whole: the f32 epilogue for C's
    # rows off 16 bytes in a second copy of the one-block warp tiles, the
    # 16-bit TMA tiles' staged rows where the TMA cannot store C, the
    # deep-K copies and tile. `auto` on the bundle and on VARIANTS (the
    # build before), new-old-new: C off 16 bytes where its writes are the
    # work (shallow K, odd N), C on them as before (squares, the seeds'
    # shape, shallow K with N even), sizes off every tile, deep K.
    shapes=6492x5009x24,3030x10002x4,9309x3770x58,10260x4071x54,6492x5008x24,8192x8192x16,6000x5000x64
    shapes=$shapes,1999x2003x997,4000x3000x1000,5003x4001x3001,1031x1029x1027,777x999x3333,1274x909x2726
    shapes=$shapes,2048x2048x2048,4096x4096x4096,8192x4096x6144,411x248x74905,64x192x300000,47x307x53605
    shapes=$shapes,800x800x8000,100x3000x20000
    sweeps_new_old_new check99b "$shapes"
    sanitize_kernels "f16 bf16" "1031 1029 136" ws_128x128x64 ws_128x192x64 ws_128x256x64
    sanitize racecheck "$L/san-racecheck-wt_256x128x8.log" "$B/gemm" --m 600 --n 301 --k 131 --dtype f32 \
      --kernel wt_256x128x8 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-wt_256x128x8.log" "$B/gemm" --m 1031 --n 1029 --k 131 --dtype f32 \
      --kernel wt_256x128x8 --split-k off --iters 1 --no-cublas
    test_subset gpu "library tma_kernels" "library warp_tiled_interior" "library sweep_random" \
      "library beta_zero" "library short_k" "library f32_realigned" "accuracy"
    ;;
  final99)
    # Run 5 of 2026-11-28 (third), step 99 as committed: f32 `auto` with
    # `sgemm_wt_256x128x8_cu` (the entry for C's rows off 16 bytes,
    # launched in its twin's place), the bundle alternating with VARIANTS
    # (the build before), two rounds; the twin under memcheck and
    # racecheck; the tests that reach it; then the default sweep.
    f32_auto_rounds "$L/f32.txt" "final99 f32" "6492 5009 24" "3030 10002 4" "9309 3770 58" "10260 4071 54" \
      "8192 8192 16" "6000 5000 64" "2048 2048 2048" "4096 4096 4096" "8192 4096 6144" "1999 2003 997" \
      "4000 3000 1000" "1274 909 2726" "411 248 74905" "800 800 8000"
    sanitize memcheck "$L/san-memcheck-cu.log" "$B/gemm" --m 1031 --n 1029 --k 131 --dtype f32 \
      --kernel wt_256x128x8 --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-cu.log" "$B/gemm" --m 600 --n 301 --k 131 --dtype f32 \
      --kernel wt_256x128x8_cu --split-k off --iters 1 --no-cublas
    test_subset gpu "library warp_tiled_interior" "library sweep_random" "library f32_realigned" "library short_k"
    default_sweep
    ;;
  cutk99)
    # Run 6 of 2026-11-28 (third): up to which K step 99's entry for C's
    # rows off 16 bytes pays (it ran 2.3-2.9x faster at K <= 64, 2-8%
    # slower at K ~1000-3000): f32 `auto` at N odd, the bundle (the twin
    # at every K) alternating with VARIANTS (no twin), two rounds.
    f32_auto_rounds "$L/cutk.txt" cutk99 "6492 5009 96" "6492 5009 128" "6492 5009 192" "6492 5009 256" \
      "6492 5009 384" "6492 5009 512" "4001 4001 256"
    ;;
  last99)
    # Run 7 of 2026-11-28 (third), step 99 as committed (the twin for C's
    # rows off 16 bytes at K <= 512 only): f32 `auto` at the K cut and at
    # the odd sizes the twin had slowed, the tests that reach it, then the
    # default sweep (now with step 99's probe shapes).
    for shape in "6492 5009 24" "6492 5009 512" "6492 5009 513" "5003 4001 3001" "1999 2003 997"; do
      set -- $shape
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 30
    done 2>&1 | tee "$L/f32.txt"
    note "last99 f32: $(grep -c pass "$L/f32.txt") passes, $(grep -c 'FAIL\|TIMEOUT\|rror' "$L/f32.txt") failures"
    test_subset gpu "library warp_tiled_interior" "library sweep_random"
    default_sweep
    ;;
  diag100)
    # Run 1 of 2026-11-28 (fourth): the weak rows left by step 99.
    # (a) Matrix-vector with few long rows (69 blocks of `skinny_r1`):
    # split or not; 16-bit rows of X off 16 bytes along L (1×8286) against
    # on them; (b) f32 odd sizes against their aligned neighbours and the
    # tiles named; (c) TF32 shallow K with C's rows off 16 bytes.
    for dtype in f32 tf32 f16 bf16; do
      named_runs $dtype "2179 1 4096" "4358 1 4096" "1 8286 4096" "1 8288 4096" -- "auto auto" "auto off"
    done 2>&1 | tee "$L/gemv.txt"
    named_runs f32 "777 999 3333" "776 1000 3332" "1031 1029 1027" "1032 1032 1028" -- "auto auto" \
      "wt_64x64x8 off" "wt_128x128x8 off" "wt_256x128x8 off" "wt_64x128x8 off" 2>&1 | tee "$L/odd.txt"
    named_runs tf32 "6492 5009 24" "6492 5008 24" "10260 4071 54" "10260 4072 54" -- "auto auto" \
      "ws_128x128x32 auto" "ws_128x192x32 auto" 2>&1 | tee "$L/shallow.txt"
    note "diag100: $(cat "$L"/*.txt | grep -c pass) passes, $(cat "$L"/*.txt | grep -c 'FAIL\|TIMEOUT\|rror') failures"
    ;;
  check100)
    # Run 2 of 2026-11-28 (fourth), step 100: f32 r1 along K a chunk ahead,
    # 16-bit rows along L on 4 bytes in word loads; `auto` on the bundle
    # and on VARIANTS (the build before, `.dev-c110g`), new-old-new; the
    # few-block split of the memory-bound kernels against none; memcheck
    # and racecheck on both changed paths; the library's memory-bound test.
    shapes=2179x1x4096,4358x1x4096,4096x1x4096,8192x1x8192,2179x1x4097,1000000x1x64,16384x1x1024
    shapes=$shapes,1x8286x4096,1x8288x4096,1x8285x4096,1x100002x1000,1x4096x4096,4096x4x4096
    sweeps_new_old_new check100 "$shapes"
    for dtype in f32 f16; do
      named_runs $dtype "700 1 4096" "1100 1 4096" "1500 1 4096" "2179 1 4096" "2800 1 4096" "3100 1 4096" \
        "2179 1 2048" "1500 1 8192" "1 2179 4096" "1 1100 8192" -- "auto auto" "auto off"
    done 2>&1 | tee "$L/split.txt"
    tally split "$L/split.txt"
    sanitize memcheck "$L/san-memcheck-r1-f32.log" "$B/gemm" --m 2179 --n 1 --k 4097 --dtype f32 \
      --kernel skinny_r1 --split-k off --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-r1-f32.log" "$B/gemm" --m 300 --n 1 --k 2500 --dtype f32 \
      --kernel skinny_r1 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-r1-f16.log" "$B/gemm" --m 1 --n 8286 --k 999 --dtype f16 \
      --kernel skinny_r1 --split-k off --iters 1 --no-cublas
    test_subset "library memory_bound" "library beta_zero"
    ;;
  check100b)
    # Run 3 of 2026-11-28 (fourth), step 100: the TF32 swapped tiles'
    # entries for C's rows off 16 bytes, the along-L loop per load width
    # and f32 r1's prefetch only past one chunk; `auto` new-old-new
    # against VARIANTS (`.dev-c110g`); the twin against its base across K;
    # memcheck and racecheck on both twins; the tests that run them.
    shapes=6492x5009x24,10260x4071x54,3030x10002x4,9309x3770x58,6492x5009x128,6492x5009x512,4001x4001x512
    shapes=$shapes,6492x5008x24,2048x2048x2048,1x8286x4096,1x8285x4096,1x100002x1000,1x100001x1000
    shapes=$shapes,1000000x1x64,4096x1x4096,2179x1x4096
    sweeps_new_old_new check100b "$shapes"
    named_runs tf32 "6492 5009 24" "6492 5009 512" "6492 5009 1024" "4001 4001 2048" "1999 2003 997" "1023 1021 300" \
      -- "ws_256x128x32_rs off" "ws_256x128x32_rs_cu off" "ws_128x128x32_rs off" "ws_128x128x32_rs_cu off" \
      2>&1 | tee "$L/twins.txt"
    tally twins "$L/twins.txt"
    sanitize_kernels "tf32 tf32" "600 301 131" ws_256x128x32_rs_cu ws_128x128x32_rs_cu
    sanitize memcheck "$L/san-memcheck-r1-f16-elements.log" "$B/gemm" --m 1 --n 8285 --k 999 --dtype f16 \
      --kernel skinny_r1 --split-k off --iters 1 --no-cublas
    test_subset "library tma_kernels_loop_over_many_tiles"
    ;;
  final100)
    # Run 4 of 2026-11-28 (fourth), step 100 as committed (the TF32 twins
    # where C's rows are off 8 bytes, at every K): TF32 `auto` on both
    # sides of the rule, then the GPU tests that reach the changed paths.
    named_runs tf32 "9309 3770 58" "6492 5009 24" "10260 4071 54" "1999 2003 997" -- "auto auto" \
      2>&1 | tee "$L/tf32.txt"
    tally tf32 "$L/tf32.txt"
    test_subset "library memory_bound" "gpu every_kernel_on_tile_edges" "library sweep_random" \
      "library beta_zero"
    ;;
  next100)
    # Run 6 of 2026-11-28 (fourth), for the next step: 16-bit M of 2 to 16
    # over long rows of B, `auto` (TMA tiles) against the CUDA-core
    # memory-bound kernels, which since step 100 read rows on 4 bytes a
    # word at a time.
    for dtype in f16 bf16; do
      named_runs $dtype "8 42212 501" "8 42216 504" "6 2292 5015" "4 100002 1000" "13 186997 5813" -- \
        "auto auto" "skinny_r8 auto" "skinny_r4 auto"
    done 2>&1 | tee "$L/skinny.txt"
    tally next100 "$L/skinny.txt"
    ;;
  diag101)
    # Run 1 of 2026-11-28 (fifth): where the weakest rows of step 100's
    # sweep lose. (a) 16-bit M of 4 to 16 over rows of B on and off 16
    # bytes, around `SKINNY_TILES_MIN_K`: `auto` against step 70's 16×64
    # tiles and step 10's 128×128 named; (b) TF32 shallow K and 512³: the
    # swapped tiles against their staged-rows entries with C on 16 bytes;
    # (c) deep K, 16-bit chunks by hand and TF32 over odd rows; (d) ncu:
    # each kernel's time in the deep-K and skinny calls.
    for dtype in f16 bf16; do
      named_runs $dtype "8 42216 504" "8 42216 512" "16 30000 256" "12 50000 384" "8 42212 501" "16 16384 1024" \
        "6 60000 768" -- "auto auto" "mma_16x64x64 auto" "ws_128x128x64 auto"
    done 2>&1 | tee "$L/skinny.txt"
    tally skinny "$L/skinny.txt"
    named_runs tf32 "8192 8192 16" "6000 5000 64" "8192 8192 32" "4096 4096 16" "6492 5008 24" "512 512 512" \
      "1024 1024 1024" -- "auto auto" "ws_256x128x32_rs off" "ws_256x128x32_rs_cu off" "ws_128x128x32_rs off" \
      "ws_128x128x32_rs_cu off" 2>&1 | tee "$L/tf32-staged.txt"
    named_runs tf32 "512 512 512" -- "mma_64x128x32 off" "ws_128x128x32_rs 256" 2>&1 | tee -a "$L/tf32-staged.txt"
    tally tf32-staged "$L/tf32-staged.txt"
    named_runs f16 "200 200 100000" "47 307 53605" "256 256 131072" -- "auto auto" "ws_128x128x64 1536" \
      "ws_128x128x64 3072" "ws_128x128x64 6144" "ws_128x192x64 auto" 2>&1 | tee "$L/deep16.txt"
    named_runs tf32 "47 307 53605" "35 92 215606" "22 56 171379" -- "auto auto" "mma_64x128x32 auto" \
      "mma_64x192x32 auto" "ws_128x128x32_rs 1024" "ws_128x128x32_rs 4096" 2>&1 | tee -a "$L/deep16.txt"
    tally deep "$L/deep16.txt"
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    metrics=gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
    metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed
    for run in "tf32 47 307 53605" "f16 47 307 53605" "f16 200 200 100000" "bf16 8 42212 501" "f16 8 42216 504" \
               "tf32 8192 8192 16" "f16 8192 8192 16"; do
      set -- $run
      timeout 200 "$NCU" --clock-control none --metrics "$metrics" \
        "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 >"$L/ncu-$1-$2x$3x$4.txt" 2>&1
      note "diag101 ncu $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-$1-$2x$3x$4.txt") kernels profiled"
    done
    ;;
  check101)
    # Run 2 of 2026-11-28 (fifth), step 101: deep-K splits whose operands
    # are both copied, evened out onto padded copies (one launch of the
    # partial sums), and TF32 shallow K on the 128×128 swapped tiles;
    # `auto` new-old-new against VARIANTS (`.dev-c113g`); the K where
    # TF32's 128×128 stops winning; 16-bit M small over short rows, the
    # 16×64 tiles against `auto`; memcheck on the padded copies; the tests.
    shapes=47x307x53605,35x92x215606,264x33x210822,22x56x171379,47x307x9001,200x200x100000
    shapes=$shapes,8192x8192x16,4096x4096x16,6492x5008x24,6492x5009x24,3030x10002x4,8192x8192x32,2048x2048x2048
    sweeps_new_old_new check101 "$shapes"
    named_runs tf32 "8192 8192 48" "8192 8192 64" "8192 8192 128" "6000 5000 64" "6000 5000 128" "4096 4096 256" \
      -- "ws_128x128x32_rs off" "ws_256x128x32_rs off" 2>&1 | tee "$L/tf32-k.txt"
    named_runs tf32 "6492 5009 24" "6492 5009 64" -- "ws_128x128x32_rs_cu off" "ws_256x128x32_rs_cu off" \
      2>&1 | tee -a "$L/tf32-k.txt"
    tally tf32-k "$L/tf32-k.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "16 200000 256" "8 200000 128" "16 100000 384" "8 100000 256" "12 30000 128" "16 60000 448" \
        "4 80000 320" -- "auto auto" "mma_16x64x64 auto"
    done 2>&1 | tee "$L/skinny.txt"
    tally skinny "$L/skinny.txt"
    sanitize memcheck "$L/san-memcheck-padded-f16.log" "$B/gemm" --m 47 --n 307 --k 9001 --dtype f16 \
      --kernel ws_128x128x64 --split-k 1000 --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-padded-tf32.log" "$B/gemm" --m 35 --n 93 --k 20003 --dtype tf32 \
      --kernel ws_128x128x32_rs --split-k 3004 --iters 1 --no-cublas
    # Each kernel's time where both operands are copied (one launch now)
    # and where only A is (the last chunk still a launch of its own), and
    # what that last launch waits on.
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    metrics=gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
    for run in "f16 47 307 53605" "tf32 47 307 53605" "f16 22 56 171379"; do
      set -- $run
      timeout 200 "$NCU" --clock-control none --metrics "$metrics" \
        "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 1 --no-cublas >"$L/ncu-$1-$2x$3x$4.txt" 2>&1
      note "check101 ncu $run: rc=$? $(grep -c gpu__time_duration "$L/ncu-$1-$2x$3x$4.txt") kernels profiled"
    done
    timeout 200 "$NCU" --clock-control none --kernel-name regex:hgemm_ws_128x128x64_f32out --launch-skip 1 \
      --launch-count 1 --section SpeedOfLight --section LaunchStats --section WarpStateStats --section Occupancy \
      "$B/gemm" --m 22 --n 56 --k 171379 --dtype f16 --kernel auto --iters 1 --no-cublas >"$L/ncu-tail.txt" 2>&1
    note "check101 ncu tail: rc=$? $(grep -c 'Duration' "$L/ncu-tail.txt") durations"
    ;;
  tests101)
    # The GPU tests that reach step 101's paths.
    test_subset "library padded_copies" "library ragged_splits" "library tma_kernels_read_misaligned" \
      "library swapped_tf32_kernels_split" "library sweep_random"
    ;;
  final101)
    # Run 4 of 2026-11-28 (fifth), step 101 as committed: `auto` new-old-new
    # against VARIANTS (`.dev-c113g`) where the choice moved (16-bit M small
    # over short rows onto the 16×64 tiles; TF32 K ≤ 64 onto the 128×128
    # swapped tiles) and where the padded copies run; 16-bit shallow K with
    # C off 16 bytes on each one-block tile; the default sweep.
    shapes=12x50000x384,16x100000x384,8x42216x504,16x30000x256,4x80000x320,16x60000x448,16x200000x256
    shapes=$shapes,8x42212x501,8192x8192x64,6000x5000x64,6000x5000x48,6492x5009x64,47x307x53605
    sweeps_new_old_new final101 "$shapes"
    named_runs f16 "3030 10002 4" "6492 5009 24" -- "auto auto" "ws_128x128x64 off" "ws_128x192x64 off" \
      "ws_128x256x64 off" 2>&1 | tee "$L/shallow16.txt"
    tally shallow16 "$L/shallow16.txt"
    default_sweep
    ;;
  tests101b)
    # The GPU tests that reach step 101's choices.
    test_subset "library memory_bound" "library sweep_random" "library beta_zero"
    ;;
  check101g)
    # Run 6 of 2026-11-28 (fifth), step 10g: the 16-bit swapped 16×128
    # TMA tiles for M ≤ 16 with A and B row-major. The GPU tests that
    # reach them; memcheck and racecheck; `auto` new-old-new (`auto` now
    # takes them below K = 2048) against VARIANTS (`.dev-c115g`); named
    # against step 70's 16×64 tiles and step 10's tiles.
    test_subset "gpu every_kernel_on_tile_edges" "library tma_kernels_loop_over_many_tiles" \
      "library tma_kernels_read_misaligned" "library sweep_random"
    sanitize_kernels "f16 bf16" "13 1000 333" ws_16x128x64_rs
    shapes=8x42216x504,16x30000x256,12x50000x384,16x100000x384,16x200000x256,8x200000x128,16x16384x1024
    shapes=$shapes,8x42212x501,6x60000x768,4x80000x320,16x4096x1536,16x8192x2040,2x100000x512
    sweeps_new_old_new check101g "$shapes"
    for dtype in f16 bf16; do
      named_runs $dtype "8 42216 504" "16 16384 1024" "16 200000 256" "8 200000 128" "16 8192 2040" "16 16384 4096" \
        -- "ws_16x128x64_rs off" "mma_16x64x64 off"
    done 2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  sweep101)
    # Run 7 of 2026-11-28 (fifth): the default sweep of step 101 as
    # committed (step 10g in `auto`).
    default_sweep
    ;;
  diag103)
    # Run 1 of 2026-11-28 (sixth): the GPU test of step 101's padded copies
    # in its `auto` form (cb3d6fd, not yet run on a GPU); where f32's odd
    # mid shapes lose (the split model's tile against others, each split by
    # hand); 16-bit 1536³ on each tile; each kernel's time (ncu) in the
    # 16-bit deep-K call over odd rows of B.
    test_subset "library padded_copies" "library every_layout_kernel"
    named_runs f32 "777 999 3333" -- "auto auto" "wt_64x64x8 off" "wt_64x64x8 1667" "wt_64x64x8 1112" \
      "wt_128x128x8 1112" "wt_128x128x8 836" "wt_128x128x8 556" "wt_64x128x8 1112" "wt_256x128x8 836" \
      "wt_256x128x8 556" 2>&1 | tee "$L/f32.txt"
    named_runs f32 "1031 1029 1027" -- "auto auto" "wt_64x64x8 off" "wt_64x64x8 516" "wt_64x64x8 344" \
      "wt_128x128x8 344" "wt_128x128x8 260" "wt_64x128x8 516" "wt_64x128x8 344" "db_64x64x16 516" \
      "wt_256x128x8 260" 2>&1 | tee -a "$L/f32.txt"
    tally f32 "$L/f32.txt"
    for dtype in f16 bf16; do
      named_runs $dtype "1536 1536 1536" -- "auto auto" "ws_128x256x64 off" "ws_128x192x64 off" \
        "ws_128x128x64 off" "ws_128x256x64_c2 off" "ws_128x256x64_sk off" "ws_128x192x64 768" "ws_128x256x64 768"
    done 2>&1 | tee "$L/mid16.txt"
    tally mid16 "$L/mid16.txt"
    ncu_auto_times diag103 "f16 35 92 215606" "tf32 47 307 53605"
    ;;
  check103)
    # Run 2 of 2026-11-28 (sixth), step 10h: TF32 tiles that read a
    # row-major B's rows off 16 bytes in place, a map per residue of the
    # row index mod 4. The new GPU test first; memcheck and racecheck on
    # both entries (N odd: every residue's columns shifted); TF32 `auto`
    # new-old-new against VARIANTS (`.dev-c118`, step 102 as committed)
    # where B's rows are off 16 bytes; named, the twins against their bases
    # (on the old bundle: with B copied) at M of 16 to 4000, for the rows
    # of C up to which the twin pays; ncu of the deep-K call; then the GPU
    # tests that reach the changed paths.
    test_subset "library b_rows_off"
    sanitize_kernels "tf32 tf32" "131 197 301" ws_128x128x32_rs_bu ws_16x128x32_rs_bu
    shapes=47x307x53605,47x307x9001,35x93x215606,64x191x300000,131x197x12000,16x16383x4096,8x30001x2000
    shapes=$shapes,13x50001x1000,300x1001x3001,512x1001x4000,1000x1001x1000,2048x2049x2048
    sweeps_new_old_new check103 "$shapes" tf32
    for shape in "256 1001 4000" "512 1001 4000" "1024 1001 4000" "2048 2049 2048" "4000 3001 1000" "16 16383 4096"; do
      set -- $shape
      tile=ws_128x128x32_rs; [ $1 -le 16 ] && tile=ws_16x128x32_rs
      for bundle in "$B" "${VARIANTS%% *}"; do
        timeout 120 "$bundle/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $tile --split-k off --iters 20
      done
      timeout 120 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel ${tile}_bu --split-k off --iters 20
    done 2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ncu_auto_times check103 "tf32 47 307 53605" "tf32 16 16383 4096"
    test_subset "library swapped_tf32" "library tma_kernels_read_misaligned" "library padded_copies" \
      "gpu every_kernel_on_tile_edges" "library tma_kernels_loop"
    ;;
  check103b)
    # Run 4 of 2026-11-28 (sixth), step 10h after run 3 (a split's last
    # chunk under 4 deep now runs the base entry, which copies B; the twins
    # take up to 1024 rows of C): the GPU tests that failed there and the
    # other split paths; TF32 `auto` new-old-new against VARIANTS
    # (`.dev-c118g`, step 102 as committed) where B's rows are off 16 bytes.
    test_subset "library b_rows_off" "gpu every_kernel_on_tile_edges" "library ragged_splits" \
      "library sweep_random"
    shapes=47x307x53605,47x307x9001,35x93x215606,64x191x300000,131x197x12000,16x16383x4096,8x30001x2000
    shapes=$shapes,13x50001x1000,300x1001x3001,1000x1001x1000,1024x1001x4000,2048x2049x2048
    sweeps_new_old_new check103b "$shapes" tf32
    ;;
  check103c)
    # Run 5 of 2026-11-28 (sixth), step 10h after run 4, where the split
    # whose last chunk was under 4 deep hung: that chunk's launch, on the
    # base entry, copied B inside the lock of the whole call's copy of A.
    # Now such a split copies B with A up front. The GPU tests, each under
    # a short limit, then TF32 `auto` new-old-new against VARIANTS
    # (`.dev-c118g`, step 102 as committed) where B's rows are off 16 bytes.
    for t in "library b_rows_off 90" "library swapped_tf32 60" "library padded_copies 60" \
             "library ragged_splits 120" "gpu every_kernel_on_tile_edges 150"; do
      set -- $t
      log=$L/test-$1-$2.log
      if timeout $3 "$B/tests/$1" $2 --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "tests/$1 $2: $r ($(grep -h 'test result' "$log" | tail -1))"
    done
    shapes=47x307x53605,47x307x9001,35x93x215606,131x197x12000,16x16383x4096,8x30001x2000
    shapes=$shapes,13x50001x1000,300x1001x3001,1024x1001x4000,2048x2049x2048
    for round in new1 old new2; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      timeout 60 "$bundle/gemm" sweep --dtype tf32 --shapes "$shapes" --iters 20 --out "$L/$round" >"$L/$round.log" 2>&1
      note "check103c $round ($bundle): rc=$? $(tail -1 "$L/$round.log")"
    done
    ;;
  check103d)
    # Run 7 of 2026-11-28 (sixth), step 10h as committed (a ragged split
    # reads B in place only from 16 MiB of B): TF32 `auto` on this bundle
    # and on VARIANTS (`.dev-c118g`), each shape twice, and the GPU tests
    # of the split paths.
    for round in 1 2; do
      for shape in "47 307 9001" "47 307 20001" "47 307 53605"; do
        set -- $shape
        each_bundle --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 30
      done
    done 2>&1 | tee "$L/auto.txt"
    tally auto "$L/auto.txt"
    for t in "library b_rows_off 90" "library padded_copies 60"; do
      set -- $t
      log=$L/test-$1-$2.log
      if timeout $3 "$B/tests/$1" $2 --test-threads=1 >"$log" 2>&1; then r=pass; else r="FAIL (rc $?)"; fi
      note "tests/$1 $2: $r ($(grep -h 'test result' "$log" | tail -1))"
    done
    ;;
  check104)
    # Run 1 of 2026-11-28 (seventh), step 104: 16-bit memory-bound kernels
    # on `mma.sync` that read the large operand along its long side
    # (`skinny_mma_l`, `skinny_mma_l_r16`). Their GPU tests first, each under
    # a short limit; memcheck and racecheck on both (rows off 8 bytes: N
    # odd); 16-bit `auto` new-old-new against VARIANTS (`.dev-c123g`, step
    # 103 as committed) where B's rows are off 16 bytes; named, the new
    # kernels against `auto` where B's rows are on 16 bytes, and M = 1.
    limited_tests "library along_l 300" "library memory_bound_kernels_keep_nan 240" \
      "gpu every_kernel_on_tile_edges 150"
    sanitize_kernels "f16 bf16" "13 4999 201" skinny_mma_l_r16 skinny_mma_l
    shapes=8x42212x501,13x50001x1000,16x50257x4096,4x100003x777,2x30001x2000,16x16383x4096
    shapes=$shapes,8x4097x100000,6x2292x5015,13x186997x5813,3x65537x512,16x1001x4000
    step104_rounds check104 "$shapes"
    step104_named | tee "$L/named.txt"
    for kernel in auto skinny_mma_l; do
      timeout 60 "$B/gemm" --m 1 --n 8192 --k 8192 --dtype f16 --kernel $kernel --iters 20
      timeout 60 "$B/gemm" --m 1 --n 50257 --k 4096 --dtype f16 --kernel $kernel --iters 20
    done 2>&1 | tee -a "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  check104b)
    # Run 2 of 2026-11-28 (seventh), step 104 with its ring: each warp's
    # K steps reach shared memory through 5 stages of 8-byte `cp.async`
    # (run 1's loads into registers streamed 1.2-1.8 TB/s). The GPU tests
    # and sanitizers of run 1; 16-bit `auto` new-old-new against VARIANTS
    # (`.dev-c123g`) where B's rows are off 16 bytes; named where they are
    # on 16 bytes.
    limited_tests "library along_l 300" "library memory_bound_kernels_keep_nan 240" \
      "gpu every_kernel_on_tile_edges 150"
    sanitize_kernels "f16 bf16" "13 4999 201" skinny_mma_l_r16 skinny_mma_l
    sanitize_kernels "bf16 f16" "6 5000 333" skinny_mma_l
    shapes=8x42212x501,13x50001x1000,16x50257x4096,4x100003x777,2x30001x2000,16x16383x4096
    shapes=$shapes,8x4097x100000,6x2292x5015,13x186997x5813,3x65537x512,16x1001x4000
    step104_rounds check104b "$shapes"
    step104_named | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  prof104)
    # Run 3 of 2026-11-28 (seventh): why step 104's ring streams 1.1-1.4
    # TB/s. ncu's sections on it (aligned rows, K deep; rows off 16 bytes,
    # K short) and on step 70's 16×64 tiles at the aligned shape (4.3 TB/s).
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for run in "8 16384 16384 skinny_mma_l" "8 42212 501 skinny_mma_l" "8 16384 16384 mma_16x64x64"; do
      set -- $run
      timeout 150 "$ncu" --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats --section Occupancy --section LaunchStats -c 1 -k regex:'skinny|mma_16' \
        "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $4 --split-k off --iters 1 --no-cublas \
        >"$L/ncu-$4-$1x$2x$3.txt" 2>&1
      note "prof104 ncu $run: rc=$? $(grep -c 'Section:' "$L/ncu-$4-$1x$2x$3.txt") sections"
    done
    ;;
  check104c)
    # Run 4 of 2026-11-28 (seventh), step 104 as rebuilt after run 3's ncu
    # (L1 54% busy with 8-byte `.ca` copies, warps waiting on S's loads):
    # 16-byte `cp.async.cg` copies, 16 bytes a lane of 4 rows per step, 64
    # columns a block. The GPU tests and sanitizers; 16-bit `auto`
    # new-old-new against VARIANTS (`.dev-c123g`) where B's rows are off 16
    # bytes, and step 86's kernel (whose sum the step now shares); named
    # where B's rows are on 16 bytes.
    limited_tests "library along_l 300" "library memory_bound_kernels_keep_nan 240" \
      "gpu every_kernel_on_tile_edges 150"
    sanitize_kernels "f16 bf16" "13 4999 201" skinny_mma_l_r16 skinny_mma_l
    sanitize_kernels "bf16 f16" "6 5000 333" skinny_mma_l
    shapes=8x42212x501,13x50001x1000,16x50257x4096,4x100003x777,2x30001x2000,16x16383x4096
    shapes=$shapes,8x4097x100000,6x2292x5015,13x186997x5813,3x65537x512,16x1001x4000,100000x16x777,100000x4x777
    step104_rounds check104c "$shapes"
    step104_named | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  final104)
    # Run 5 of 2026-11-28 (seventh), step 104 as committed: `auto` keeps
    # step 70's tiles from K = 2048 where they take the call. The GPU test
    # of the new kernels (its `auto` cases), memcheck on `auto`, and 16-bit
    # `auto` new-old-new against VARIANTS (`.dev-c123g`).
    limited_tests "library along_l 200"
    sanitize memcheck "$L/san-memcheck-auto.log" "$B/gemm" --m 8 --n 42212 --k 501 --dtype bf16 --kernel auto \
      --iters 1 --no-cublas
    shapes=8x42212x501,16x16383x4096,16x50257x4096,13x186997x5813,4x100003x777,2x30001x2000,16x1001x4000
    for round in new1 old new2; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      timeout 80 "$bundle/gemm" sweep --dtype f16 --shapes "$shapes" --iters 20 --out "$L/f16-$round" \
        >"$L/f16-$round.log" 2>&1
      note "final104 f16 $round ($bundle): rc=$? $(tail -1 "$L/f16-$round.log")"
    done
    timeout 80 "$B/gemm" sweep --dtype bf16 --shapes "$shapes" --iters 20 --out "$L/bf16-new" >"$L/bf16-new.log" 2>&1
    note "final104 bf16 new: rc=$? $(tail -1 "$L/bf16-new.log")"
    ;;
  diag105)
    # Run 1 of 2026-11-28 (eighth): where the time goes in the rows still
    # under issue 11's targets on an H200. ncu's kernel times of `auto`'s
    # launches and of cuBLAS's (the same call, its own process), the
    # sections of our main kernel at three of them, and named chunks of
    # 16-bit deep K.
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
    ncu_ours_and_cublas "diag105 120 cublas nvjet|splitK|gemv|xmma|cutlass|Kernel|reduce|sm90|sm80 $metrics" \
      "f16 200 200 100000" "f16 8192 8192 16" "f16 1536 1536 1536" "tf32 8192 8192 16" "f32 6492 5009 24" \
      "f32 777 999 3333" "f32 100000 16 777" "f16 8 42212 501"
    for run in "f16 200 200 100000 ws_128x128x64 4032" "f16 8192 8192 16 ws_128x128x64_2cta off" \
      "f16 8 42212 501 skinny_mma_l off"; do
      set -- $run
      timeout 150 "$ncu" --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats --section Occupancy --section LaunchStats -c 1 -k regex:'gemm_' \
        "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel $5 --split-k $6 --iters 1 --no-cublas \
        >"$L/ncu-sections-$5-$2x$3x$4.txt" 2>&1
      note "diag105 sections $run: rc=$? $(grep -c 'Section:' "$L/ncu-sections-$5-$2x$3x$4.txt") sections"
    done
    for round in 1 2; do
      for chunk in 4032 3072 2048 1536 6272; do
        "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 --kernel ws_128x128x64 --split-k $chunk --iters 30
        "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 --kernel ws_128x192x64 --split-k $chunk --iters 30
      done
      "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 --kernel auto --iters 30
      for kernel in ws_128x128x64_2cta ws_128x128x64 ws_128x256x64 ws_128x192x64 auto; do
        "$B/gemm" --m 8192 --n 8192 --k 16 --dtype f16 --kernel $kernel --iters 30
      done
    done 2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  shallow105)
    # Run 2 of 2026-11-28 (eighth): run 1 found the 16-bit 8192²×16 on step
    # 10d's two-block tiles (`auto`, 0.060 ms) slower than step 10's
    # one-block tiles named (0.044–0.045). Step 52's branch-free epilogue
    # (β = 0) reached the one-block tiles only, after step 49 had measured
    # them at shallow K. Each tile named at the shallow-K shapes, C on and
    # off 16 bytes, f16 (bf16 and TF32 at fewer), two rounds.
    for round in 1 2; do
      for shape in "8192 8192 16" "8192 8192 64" "4096 4096 16" "4096 4096 64" "6000 5000 64" "2048 8192 16" \
        "16384 4096 48" "3030 10002 4" "6492 5008 24" "6492 5009 24" "10260 4071 54" "1024 1024 32"; do
        set -- $shape
        for kernel in auto ws_128x128x64_2cta ws_128x256x64 ws_128x256x64_c2 ws_128x192x64 ws_128x128x64; do
          timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel $kernel --iters 30
        done
      done
      for shape in "8192 8192 16" "6000 5000 64" "6492 5009 24" "4096 4096 32"; do
        set -- $shape
        for kernel in auto ws_128x128x64_2cta ws_128x256x64 ws_128x256x64_c2; do
          timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype bf16 --kernel $kernel --iters 30
        done
        for kernel in auto ws_128x128x32_rs ws_256x128x32_rs ws_128x256x32 ws_128x192x32; do
          timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $kernel --iters 30
        done
      done
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  check105)
    # Run 3 of 2026-11-28 (eighth), step 105: 16-bit shallow K on the
    # one-block tiles (the two-block ones named only), and the 16-bit TMA
    # partial sums running a split's shorter last chunk in their launch
    # (maps of A and B ending at its K), so deep K takes as many chunks as
    # its blocks want. The new and changed GPU tests, sanitizers on the
    # twins' ragged launches, and `auto` new-old-new against VARIANTS
    # (`.dev-c127s`, step 104's build).
    limited_tests "library tma_partials_run_a_shorter 200" "library ragged_deep_k_splits_on_copies 150" \
      "library ragged_splits_in_one_launch 150" "accuracy split_k_adds_the_chunks 150"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-ragged128.log" "$B/gemm" --m 333 --n 264 --k 2008 --dtype f16 \
        --kernel ws_128x128x64 --split-k 504 --iters 1 --no-cublas
    done
    sanitize memcheck "$L/san-memcheck-ragged192.log" "$B/gemm" --m 136 --n 200 --k 2024 --dtype bf16 \
      --kernel ws_128x192x64 --split-k 672 --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-auto-deep.log" "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-auto-shallow.log" "$B/gemm" --m 4096 --n 4096 --k 16 --dtype bf16 \
      --kernel auto --iters 1 --no-cublas
    deep=200x200x100000,384x384x100000,384x384x100003,768x768x65536,64x192x300000,47x307x53605,264x33x210822
    deep=$deep,256x256x131072,128x128x65536,1000x128x30000,777x999x33333,22x56x171379
    shallow=8192x8192x16,8192x8192x64,16384x4096x48,6492x5008x24,4096x4096x64,6000x5000x64,2048x8192x16
    sweeps_new_old_new "check105 f16" "$deep,$shallow" f16
    for round in new old; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      "$bundle/gemm" sweep --dtype bf16 --shapes "$deep,$shallow" --iters 20 --out "$L/bf16-$round" >"$L/bf16-$round.log" 2>&1
      note "check105 bf16 $round ($bundle): rc=$? $(tail -1 "$L/bf16-$round.log")"
    done
    for chunk in 3128 4000 2504; do
      "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 --kernel ws_128x128x64 --split-k $chunk --iters 30
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  check105b)
    # Run 4 of 2026-11-28 (eighth): run 3 found ragged splits slower where
    # an exact one was near (200×200×100000: 32 chunks 0.051 ms against 25
    # exact 0.043) and at 768×768×65536 on chunks 16 bytes apart (21848:
    # 0.181 against 0.134). This build (`.dev-c129s`): an exact split where
    # one is near, else whole K slices (128 bytes); the committed rule
    # (run 5) takes whole slices past DEEP_K always. The tests again (the TF32 padded case
    # fixed), the chunk's alignment named, `auto` new-old-new at deep K.
    limited_tests "library tma_partials_run_a_shorter 200" "library ragged_deep_k_splits_on_copies 150" \
      "library ragged_splits_in_one_launch 150" "library every_layout_kernel 240"
    for round in 1 2; do
      for run in "768 768 65536 21848" "768 768 65536 21888" "768 768 65536 21840" "200 200 100000 3128" \
        "200 200 100000 3136" "200 200 100000 4000" "384 384 100000 7144" "384 384 100000 7168" "384 384 100000 10000"; do
        set -- $run
        "$B/gemm" --m $1 --n $2 --k $3 --dtype f16 --kernel ws_128x128x64 --split-k $4 --iters 30
      done
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/named.txt"
    tally named "$L/named.txt"
    deep=200x200x100000,384x384x100000,384x384x100003,768x768x65536,64x192x300000,47x307x53605,264x33x210822
    deep=$deep,256x256x131072,128x128x65536,1000x128x30000,777x999x33333,22x56x171379,1000x1000x20011
    sweeps_new_old_new "check105b f16" "$deep" f16
    ;;
  final105)
    # Run 5 of 2026-11-28 (eighth), step 105 as committed: the deep-K split
    # of the 16-bit TMA partials in whole K slices, the last chunk in the
    # launch (run 4 named: 384×384×100000 in 14 chunks of 7168 0.057 ms
    # against 0.084 in chunks of 7144). The tests, memcheck on `auto`'s
    # ragged launches, `auto` new-old-new against VARIANTS (`.dev-c127s`).
    limited_tests "library tma_partials_run_a_shorter 200" "library ragged_deep_k_splits_on_copies 150" \
      "library ragged_splits_in_one_launch 150" "accuracy split_k_adds_the_chunks 150"
    sanitize memcheck "$L/san-memcheck-auto-200.log" "$B/gemm" --m 200 --n 200 --k 100000 --dtype f16 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-auto-384.log" "$B/gemm" --m 384 --n 384 --k 100003 --dtype bf16 \
      --kernel auto --iters 1 --no-cublas
    deep=200x200x100000,384x384x100000,384x384x100003,768x768x65536,64x192x300000,47x307x53605,264x33x210822
    deep=$deep,256x256x131072,128x128x65536,1000x128x30000,100x3000x20000,777x999x33333,22x56x171379
    sweeps_new_old_new "final105 f16" "$deep,8192x8192x16,16384x4096x48" f16
    for round in new old; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      "$bundle/gemm" sweep --dtype bf16 --shapes "$deep" --iters 20 --out "$L/bf16-$round" >"$L/bf16-$round.log" 2>&1
      note "final105 bf16 $round ($bundle): rc=$? $(tail -1 "$L/bf16-$round.log")"
    done
    ;;
  sweep105)
    # Run 6 of 2026-11-28 (eighth): the default sweep on step 105 as committed.
    default_sweep
    ;;
  tile105)
    # Run 7 of 2026-11-28 (eighth): 128×256 f32-output twins for 16-bit deep
    # K where 256-wide tiles pad N no more than 128-wide ones (A read once
    # per chunk, not twice). Tried, not kept (slower at 5 of 7 shapes; the
    # diff is in the run's folder). The tests with the new twin named, sanitizers,
    # and `auto` new-old-new against VARIANTS (`.dev-c130s`, step 105).
    limited_tests "library tma_partials_run_a_shorter 200" "library every_layout_kernel 200"
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-256.log" "$B/gemm" --m 200 --n 264 --k 2008 --dtype f16 \
        --kernel ws_128x256x64 --split-k 504 --iters 1 --no-cublas
    done
    deep=200x200x100000,256x256x131072,100x3000x20000,768x768x65536,250x250x80000,512x256x65536,200x480x50000
    sweeps_new_old_new "tile105 f16" "$deep" f16
    for round in new old; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      "$bundle/gemm" sweep --dtype bf16 --shapes "$deep" --iters 20 --out "$L/bf16-$round" >"$L/bf16-$round.log" 2>&1
      note "tile105 bf16 $round ($bundle): rc=$? $(tail -1 "$L/bf16-$round.log")"
    done
    ;;
  fix105)
    # Run 8 of 2026-11-28 (eighth): the review's fix. Up to DEEP_K, a 16-bit
    # TMA split with a shorter last chunk (no exact split near) now counts
    # that chunk among the launch's blocks: step 105 as first committed
    # (VARIANTS' first, `.dev-c130s`) ran it in the launch past one wave
    # (176×520×7033: 14 chunks of 10 tiles, 140 blocks); step 104
    # (VARIANTS' second, `.dev-c127s`) ran it as a launch of its own.
    limited_tests "library ragged_splits_in_one_launch 150" "library tma_partials_run_a_shorter 200"
    shapes=176x520x7033,777x999x7001,300x300x6001,1000x128x5003,200x200x8191,520x501x4099
    for round in new1 committed old new2; do
      bundle=$B; [ $round = committed ] && bundle=${VARIANTS%% *}; [ $round = old ] && bundle=${VARIANTS##* }
      "$bundle/gemm" sweep --dtype f16 --shapes "$shapes" --iters 20 --out "$L/$round" >"$L/$round.log" 2>&1
      note "fix105 f16 $round ($bundle): rc=$? $(tail -1 "$L/$round.log")"
    done
    ;;
  last105)
    # Run 9 of 2026-11-28 (eighth): the last look, on HEAD's kernels and
    # the maps reused where no chunk is shorter. Every `gpu` test (every
    # kernel on tile edges, odd and prime shapes, NaN-poisoned C) and the
    # `library` tests of the TMA kernels and their splits.
    limited_tests "gpu _ 170" "library tma_ 120" "library ragged 120" "library every_layout 120" \
      "library beta_zero 60"
    ;;
  diag106)
    # Run 1 of 2026-11-28 (ninth): where the rows still under issue 11's
    # targets lose on an H200. Shallow K: f32 on every kernel (C off and on
    # 16 bytes), TF32's kernel and cuBLAS's under ncu (DRAM and L2 write
    # throughput: C's writes are the work); TF32 small squares on every
    # kernel and split; cuBLAS's kernels (names, grids) at the weak rows.
    metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
    ncu_ours_and_cublas "diag106 60 both nvjet|splitK|gemv|xmma|cutlass|Kernel|reduce|sm90|sm80|gemm $metrics" \
      "tf32 8192 8192 16" "tf32 6492 5009 24" "f32 6492 5009 24" "f32 8192 8192 16" "tf32 512 512 512" \
      "tf32 256 256 256" "f32 777 999 3333" "f32 1031 1029 1027" "f16 1536 1536 1536"
    for shape in "6492 5009 24" "6492 5008 24" "8192 8192 16" "4096 4096 64"; do
      set -- $shape
      timeout 100 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel all --split-k off --iters 20
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/f32shallow.txt"
    tally f32shallow "$L/f32shallow.txt"
    for shape in "512 512 512" "256 256 256" "768 768 768"; do
      set -- $shape
      for split in auto off 128 256; do
        timeout 100 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel all --split-k $split --iters 30
      done
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/tf32small.txt"
    tally tf32small "$L/tf32small.txt"
    ;;
  tests106)
    # Run 2 of 2026-11-28 (ninth): the library tests run 9 left: the
    # beta_zero fix (step 104's along-L kernels at M = 13) and the two cut
    # off at 120 s, side by side (their f64 references use the CPU cores).
    tests_side_by_side "library beta_zero 200" "library tma_kernels_loop_over_many_tiles_in_every_layout 450" \
      "library memory_bound_shapes_every_layout_alpha_beta_batch 450"
    ;;
  check106)
    # Run 3 of 2026-11-28 (ninth), step 106: f32 shallow K on step 7b's
    # 64×64 tiles (their new twin `sgemm_wt_64x64x8_cu` where C's rows are
    # off 16 bytes), TF32 of few tiles on step 10f's 16×128 tiles. Each
    # named beside the tiles `auto` ran before, at K around the thresholds;
    # `auto` new-old-new against VARIANTS (`.dev-c134s`, step 105); the
    # sanitizers on the new entry and routes; the tests that run it.
    named_runs f32 "8192 8192 16" "8192 8192 32" "8192 8192 48" "8192 8192 64" "6000 5000 32" "6000 5000 64" \
      "6492 5009 24" "6492 5009 32" "6492 5009 48" "3030 10002 4" "2000 1999 128" "2000 1999 512" "1000 999 16" -- \
      "auto auto" "wt_64x64x8 off" "wt_64x64x8_cu off" "wt_256x128x8 off" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/f32named.txt"
    tally f32named "$L/f32named.txt"
    named_runs tf32 "256 256 256" "384 384 384" "512 512 512" "640 640 640" "300 300 300" "333 333 333" \
      "500 500 500" "1024 256 1024" "256 1024 1024" "512 512 1536" "512 512 2048" "512 512 4096" "1000 200 700" -- \
      "auto auto" "ws_16x128x32_rs off" "ws_128x128x32_rs auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32named.txt"
    tally tf32named "$L/tf32named.txt"
    f32=8192x8192x16,8192x8192x32,6000x5000x32,6492x5009x24,6492x5008x24,3030x10002x4,1000x999x16,4096x4096x16
    sweeps_new_old_new "check106 f32" "$f32" f32
    tf32=256x256x256,384x384x384,512x512x512,640x640x640,300x300x300,333x333x333,1024x256x1024,1000x200x700
    for round in new old; do
      bundle=$B; [ $round = old ] && bundle=${VARIANTS%% *}
      "$bundle/gemm" sweep --dtype tf32 --shapes "$tf32" --iters 30 --out "$L/tf32-$round" >"$L/tf32-$round.log" 2>&1
      note "check106 tf32 $round ($bundle): rc=$? $(tail -1 "$L/tf32-$round.log")"
    done
    for tool in memcheck racecheck; do
      sanitize $tool "$L/san-$tool-wt64cu.log" "$B/gemm" --m 333 --n 301 --k 24 --dtype f32 --kernel wt_64x64x8_cu \
        --split-k off --iters 1 --no-cublas
    done
    sanitize memcheck "$L/san-memcheck-auto-f32.log" "$B/gemm" --m 1000 --n 999 --k 16 --dtype f32 --kernel auto \
      --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-auto-tf32.log" "$B/gemm" --m 333 --n 333 --k 333 --dtype tf32 --kernel auto \
      --iters 1 --no-cublas
    ;;
  tests106b)
    # Run 4 of 2026-11-28 (ninth): the tests that run step 106's entry and
    # routes, side by side: every warp-tiled entry with C's rows on and off
    # 16 bytes, every kernel on tile edges (`gpu`), β = 0 on every kernel.
    tests_side_by_side "library warp_tiled_interior 300" "gpu _ 300" "library beta_zero 100" \
      "library sweep_random 300" "library every_layout_kernel 300"
    ;;
  check106b)
    # Run 5 of 2026-11-28 (ninth): step 106's f32 shallow rule widened by
    # run 3 (K up to 64, whatever tile the wave fill picks: 1000×999×16 ran
    # `db_128x64x16` 0.010 ms where 64×64 ran 0.007), `auto` new-old-new
    # against VARIANTS (`.dev-c134s`); and run 3's other finding, TF32
    # 333³ on `mma_64x128x32` at 20% of cuBLAS: small odd sizes, under
    # REALIGN_MIN_FLOP, run in place on `mma.sync`. `auto` beside the TMA
    # tiles on copies (named), each type, two rounds.
    f32=1000x999x16,8192x8192x48,8192x8192x64,6000x5000x64,4096x4096x64,6492x5009x64,100x100x16,300x200x8,2048x2048x8
    sweeps_new_old_new "check106b f32" "$f32" f32
    for round in 1 2; do
      named_runs tf32 "65 67 69" "101 103 107" "129 131 133" "200 201 203" "257 259 261" "333 333 333" "400 401 403" \
        "450 451 453" -- "auto auto" "ws_16x128x32_rs off" "ws_128x128x32_rs off"
      named_runs f16 "65 67 69" "101 103 107" "129 131 133" "200 201 203" "257 259 261" "333 333 333" "400 401 403" \
        "450 451 453" -- "auto auto" "ws_128x128x64 off" "ws_128x128x64_2cta off"
      named_runs bf16 "101 103 107" "200 201 203" "333 333 333" "400 401 403" -- "auto auto" "ws_128x128x64 off"
    done 2>&1 | grep -v "^device:\|^kernel " | tee "$L/smallodd.txt"
    tally smallodd "$L/smallodd.txt"
    ;;
  check106c)
    # Run 6 of 2026-11-28 (ninth): realigning from 2²² flop (run 5: small
    # odd sizes ran in place on `mma.sync` at 20–45% of cuBLAS, 2–4 times
    # slower than the TMA tiles on copies). `auto` new-old-new against
    # VARIANTS (`.dev-c136s`: step 106's choices without it) at small odd
    # sizes and at shapes beside them the change may reach (one side of
    # 17–128, batches); memcheck on `auto` through the copies; the tests
    # that run the copies and `auto` on random shapes.
    small=65x67x69,101x103x107,129x131x133,200x201x203,257x259x261,333x333x333,400x401x403,450x451x453
    near=64x1000x999,100x2001x1001,1000x100x333,300x3001x301,17x5001x777,2000x33x501,129x4099x131
    for dtype in tf32 f16 bf16; do typed_sweeps_new_old_new check106c "$small,$near" $dtype; done
    sanitize memcheck "$L/san-memcheck-tf32-small.log" "$B/gemm" --m 200 --n 201 --k 203 --dtype tf32 --kernel auto \
      --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-f16-small.log" "$B/gemm" --m 129 --n 131 --k 133 --dtype f16 --kernel auto \
      --iters 1 --no-cublas
    tests_side_by_side "library tma_kernels_read_misaligned 300" "library sweep_random 300" \
      "library short_k_auto 300" "gpu _ 300"
    ;;
  sweep106)
    # Run 7 of 2026-11-28 (ninth): the default sweep on step 106 (run 6's
    # first try wrote each type's rounds into one folder: only bf16 kept).
    default_sweep
    ;;
  check106d)
    # Run 8 of 2026-11-28 (ninth): run 6 left calls with M and N over 16 in
    # place on `mma.sync` at 12–45% of cuBLAS where the copies passed 2²²
    # flop but not 64 flop per byte (TF32 100×2001×1001 0.127 ms, 64×1000×999
    # 0.077). This build asks those calls 8 flop per byte at every K (deep K
    # since step 99). `auto` new-old-new against VARIANTS (`.dev-c137s`) at
    # one side of 17–300, each type; memcheck; the tests through copies.
    shapes=64x1000x999,100x2001x1001,17x5001x777,2000x33x501,129x4099x131,48x8191x4095,8191x40x2047,200x20001x301
    shapes=$shapes,33x30000x999,300x3001x1999,17x100001x1023,100000x24x777,24x65536x129,1000x100x333,200x201x203
    for dtype in tf32 f16 bf16; do typed_sweeps_new_old_new check106d "$shapes" $dtype; done
    sanitize memcheck "$L/san-memcheck-tf32-wide.log" "$B/gemm" --m 17 --n 5001 --k 777 --dtype tf32 --kernel auto \
      --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-bf16-wide.log" "$B/gemm" --m 2000 --n 33 --k 501 --dtype bf16 --kernel auto \
      --iters 1 --no-cublas
    tests_side_by_side "library tma_kernels_read_misaligned 300" "library sweep_random 300" \
      "library ragged_deep_k 300" "gpu _ 300"
    ;;
  final106)
    # Run 9 of 2026-11-28 (ninth): step 106 before the review's two host
    # fixes (no PTX changed; PERF.md step 106). The default sweep
    # (its plot: docs/sweep-h200.svg), then every `library`, `accuracy` and
    # `gpu` test, each test in a process of its own, side by side.
    default_sweep
    every_test_side_by_side 280
    ;;
  diag107)
    # Run 1 of 2026-11-28 (tenth), step 107: TF32 swapped tiles of 32 and 64
    # rows (`ws_32x128x32_rs`, `ws_64x128x32_rs` and their `_bu` twins,
    # new), named beside `auto` and the 16- and 128-row tiles at M of 17 to
    # 64; then the tests that run every kernel (the new four on tile edges),
    # the library's randomized sweep (step 106's review fixes, host only,
    # never run on a GPU), and the sanitizers on the new entries.
    named_runs tf32 "17 100001 1023" "24 65536 129" "33 30000 999" "32 16384 4096" "24 8192 8192" \
      "48 8191 4095" "64 1000 999" "64 8192 4096" "40 20000 2000" "17 5001 777" "32 2048 1024" "64 192 300000" \
      "47 307 53605" "30 100000 512" -- \
      "auto auto" "ws_32x128x32_rs auto" "ws_32x128x32_rs off" "ws_64x128x32_rs auto" "ws_16x128x32_rs auto" \
      "ws_128x128x32_rs auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/tf32named.txt"
    tally tf32named "$L/tf32named.txt"
    for kernel in ws_32x128x32_rs ws_64x128x32_rs; do
      for shape in "29 1001 333" "61 1000 96"; do
        set -- $shape
        sanitize memcheck "$L/san-memcheck-$kernel-$1.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 \
          --kernel $kernel --split-k off --iters 1 --no-cublas
      done
      sanitize racecheck "$L/san-racecheck-$kernel.log" "$B/gemm" --m 29 --n 1000 --k 96 --dtype tf32 \
        --kernel $kernel --split-k off --iters 1 --no-cublas
    done
    tests_side_by_side "gpu _ 300" "library sweep_random 300" "library every_layout_kernel 300" \
      "library tma_kernels_read_misaligned 300" "library beta_zero 200"
    ;;
  check107)
    # Run 2 of 2026-11-28 (tenth), step 107: `auto` new-old-new against
    # VARIANTS (`.dev-c139s`, step 106) at TF32 M of 17 to 64 (now the 32-
    # and 64-row tiles) and beside them; the new tiles named at shallow K
    # (C's writes the work) beside `auto`'s 128×128; memcheck on `auto`
    # through the new rule (unsplit, split, B off 16 bytes); the default
    # sweep.
    tf32=17x100001x1023,24x65536x129,30x100000x512,32x16384x4096,24x8192x8192,33x30000x999,40x20000x2000
    tf32=$tf32,48x8191x4095,64x8192x4096,64x192x300000,47x307x53605,22x56x171379,35x92x215606,17x5001x777
    tf32=$tf32,64x1000x999,100x2001x1001,16x16384x4096,128x8192x4096
    typed_sweeps_new_old_new "check107" "$tf32" tf32
    named_runs tf32 "8192 8192 16" "4096 4096 16" "8192 8192 32" "6492 5008 24" "6000 5000 48" -- \
      "ws_128x128x32_rs off" "ws_64x128x32_rs off" "ws_32x128x32_rs off" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32shallow.txt"
    tally tf32shallow "$L/tf32shallow.txt"
    for shape in "29 5001 333" "50 3001 2049" "24 1000 70000"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-auto-$1x$2x$3.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 \
        --kernel auto --iters 1 --no-cublas
    done
    default_sweep
    ;;
  diag108)
    # Run 3 of 2026-11-28 (tenth): what is left under issue 11's targets,
    # named on the step 107 build. TF32 and f16 with N of 17 to 64 under a
    # large M (the memory-bound kernels' row groups, the skinny tensor-core
    # kernels, the tiles); 16-bit 1536³ and its neighbours on every tile
    # and stream-K; 16-bit deep K at chunks by hand; the f32 odd sizes at
    # the splits cuBLAS runs (5 and 3 ways) on each warp tile.
    skinny="100000 24 777|8191 40 2047|2000 33 501|100000 32 1024|50000 48 512|16384 24 4096"
    IFS='|' read -ra shapes <<<"$skinny"
    named_runs tf32 "${shapes[@]}" -- "auto auto" "skinny_r16_2cta auto" "skinny_r16 auto" "skinny_mma_r16 auto" \
      "ws_128x128x32_rs auto" "ws_128x128x32 auto" "mma_64x128x32 auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32n.txt"
    tally tf32n "$L/tf32n.txt"
    named_runs f16 "${shapes[@]}" -- "auto auto" "skinny_r8 auto" "skinny_mma_r16 auto" "mma_64x16x64 auto" \
      "ws_128x128x64 auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/f16n.txt"
    tally f16n "$L/f16n.txt"
    named_runs f16 "1536 1536 1536" "1280 1280 1280" "1792 1792 1792" -- "auto auto" "ws_128x256x64_sk auto" \
      "ws_128x192x64 off" "ws_128x128x64 off" "ws_128x256x64 off" "ws_128x128x64_2cta off" "ws_128x256x64_c2 off" \
      2>&1 | grep -v "^device:\|^kernel " | tee "$L/f16mid.txt"
    tally f16mid "$L/f16mid.txt"
    named_runs f16 "200 200 100000" "256 256 131072" -- "auto auto" "ws_128x128x64 2048" "ws_128x128x64 4096" \
      "ws_128x128x64 8192" "ws_128x192x64 4096" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/f16deep.txt"
    tally f16deep "$L/f16deep.txt"
    named_runs f32 "1031 1029 1027" "777 999 3333" -- "auto auto" "wt_64x64x8 344" "wt_64x64x8 516" \
      "wt_64x64x8 1112" "wt_64x64x8 668" "wt_async_64x64x8 344" "wt_async_64x64x8 668" "wt_64x128x8 668" \
      "wt_64x128x8 344" "wt_128x128x8 344" "wt_128x128x8 480" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/f32odd.txt"
    tally f32odd "$L/f32odd.txt"
    ;;
  check108)
    # Run 4 of 2026-11-28 (tenth), step 108: 128×64 tiles (`ws_128x64x64`
    # f16/bf16, `ws_128x64x32` TF32, new) for N of 17 to 64 under a larger
    # M: `auto` new-old-new against VARIANTS (`.dev-c141g`, step 107's
    # `gemm`) for each type, the new tiles named beside the 128×128 ones,
    # the sanitizers on the new entries and on `auto` through the rule,
    # and the `gpu` tests (every kernel on tile edges).
    shapes=100000x24x777,8191x40x2047,2000x33x501,100000x32x1024,50000x48x512,16384x24x4096,20000x64x4096
    shapes=$shapes,65536x17x1024,8192x48x8192,4096x40x4096,3000x64x333,100000x16x777
    for dtype in tf32 f16 bf16; do typed_sweeps_new_old_new "check108" "$shapes" $dtype; done
    named_runs f16 "16384 24 4096" "100000 32 1024" "50000 48 512" "20000 64 4096" "8192 48 8192" -- \
      "ws_128x64x64 auto" "ws_128x128x64 auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/f16named.txt"
    tally f16named "$L/f16named.txt"
    named_runs tf32 "16384 24 4096" "100000 32 1024" "50000 48 512" "20000 64 4096" "8192 48 8192" -- \
      "ws_128x64x32 auto" "ws_128x128x32_rs auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/tf32named.txt"
    tally tf32named "$L/tf32named.txt"
    for kernel in "ws_128x64x64 f16 bf16" "ws_128x64x32 tf32 tf32"; do
      set -- $kernel
      sanitize memcheck "$L/san-memcheck-$1.log" "$B/gemm" --m 1001 --n 40 --k 333 --dtype $2 --kernel $1 \
        --split-k off --iters 1 --no-cublas
      sanitize racecheck "$L/san-racecheck-$1.log" "$B/gemm" --m 1000 --n 64 --k 256 --dtype $3 --kernel $1 \
        --split-k off --iters 1 --no-cublas
    done
    for dtype in tf32 bf16; do
      sanitize memcheck "$L/san-memcheck-auto-$dtype.log" "$B/gemm" --m 3001 --n 33 --k 1023 --dtype $dtype \
        --kernel auto --iters 1 --no-cublas
    done
    tests_side_by_side "gpu _ 300"
    ;;
  final107)
    # Run 5 of 2026-11-28 (tenth), steps 107 and 108 as committed (step
    # 108's TF32 flop floor added after run 4): `auto` at the floor's two
    # sides, then every `library`, `accuracy` and `gpu` test, each in a
    # process of its own, side by side.
    named_runs tf32 "3000 64 333" "8191 40 2047" -- "auto auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32floor.txt"
    tally tf32floor "$L/tf32floor.txt"
    every_test_side_by_side 450
    ;;
  check108b)
    # Run 6 of 2026-11-28 (tenth): step 108's filter after the review (host
    # only): `auto` where TF32's K-major 128×64 tiles now take calls of 33
    # to 98 blocks unsplit (8192×48×8192, 98 tiles), and where a split
    # still keeps the 128×128 tiles (4096×40×4096, f16 8192×48×8192); then
    # the library's randomized sweep and every layout, and the `gpu` tests.
    named_runs tf32 "8192 48 8192" "12544 48 4096" "4096 40 4096" "3000 64 333" -- "auto auto" 2>&1 \
      | grep -v "^device:\|^kernel " | tee "$L/tf32auto.txt"
    named_runs f16 "8192 48 8192" "12672 48 4096" -- "auto auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/f16auto.txt"
    tally tf32auto "$L/tf32auto.txt"
    tally f16auto "$L/f16auto.txt"
    tests_side_by_side "gpu _ 200" "library sweep_random 200" "library every_layout_kernel 200"
    ;;
  final108)
    # Run 7 of 2026-11-28 (tenth), the session's last build (steps 107 and
    # 108 with the review's filter): every `library` and `accuracy` test,
    # each in a process of its own, and the `gpu` tests, side by side.
    every_test_side_by_side 450
    ;;
  refactor108)
    # Run 8 of 2026-11-28 (tenth): the few-tiles split test shared by the
    # split rule and step 108's filter (`split_k::few_tiles_split`, host
    # only): the library tests that split, and `auto` at the filter's sides.
    named_runs tf32 "8192 48 8192" "4096 40 4096" -- "auto auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/auto.txt"
    named_runs f16 "8192 48 8192" "12672 48 4096" -- "auto auto" 2>&1 | grep -v "^device:\|^kernel " \
      | tee -a "$L/auto.txt"
    tally auto "$L/auto.txt"
    tests_side_by_side "library short_k_auto 200" "library sweep_random 200" "library swapped_tf32 200" \
      "library ragged 200" "library tma_partials 200"
    ;;
  diag109)
    # Run 1 of 2026-11-29, step 109: f32 64×64 tiles of two 32×64 warps
    # (8×8 outputs per lane; `wt_64x64x8_w32x64`, six blocks per SM, and a
    # diagnostic twin at eight, which spills), named beside step 83's
    # four-warp 64×64 tiles and `auto` at the odd and mid sizes where f32
    # is furthest from cuBLAS, each at the splits that fill its waves
    # (chunks of K by hand); unsplit at mid, shallow and square sizes; at
    # the split rule's own chunks at deep K; then the `gpu` tests (every
    # kernel on tile edges and odd shapes) and the sanitizers on the new
    # entries.
    {
      named_runs f32 "1031 1029 1027" -- "auto auto" "wt_64x64x8 520" "wt_64x64x8 344" "wt_64x64x8_w32x64 520" \
        "wt_64x64x8_w32x64 344" "wt_64x64x8_w32x64_8 344" "wt_64x64x8_w32x64_8 520" "wt_64x64x8_w32x64 off"
      named_runs f32 "777 999 3333" -- "auto auto" "wt_64x64x8 1112" "wt_64x64x8_w32x64 1112" "wt_64x64x8_w32x64 840" \
        "wt_64x64x8_w32x64 560" "wt_64x64x8_w32x64_8 672" "wt_64x64x8_w32x64_8 840" "wt_64x64x8_w32x64_8 1112"
      named_runs f32 "767 769 771" "1100 700 1001" "1300 1001 999" "1024 1024 1024" "1536 1536 1536" \
        "1999 2003 997" "2048 2048 2048" "4000 3000 1000" -- "auto auto" "wt_64x64x8 off" "wt_64x64x8_w32x64 off" \
        "wt_64x64x8_w32x64_8 off" "wt_64x64x8 auto" "wt_64x64x8_w32x64 auto"
      named_runs f32 "8192 8192 16" "6492 5008 24" "6000 5000 64" "4096 4096 64" -- "auto auto" "wt_64x64x8 off" \
        "wt_64x64x8_w32x64 off" "wt_64x64x8_w32x64_8 off"
      named_runs f32 "47 307 53605" "22 56 171379" "64 192 300000" "200 200 100000" -- "auto auto" \
        "wt_64x64x8 auto" "wt_64x64x8_w32x64 auto" "wt_64x64x8_w32x64_8 auto"
    } 2>&1 | grep -v "^device:\|^kernel " | tee "$L/f32named.txt"
    tally f32named "$L/f32named.txt"
    for kernel in wt_64x64x8_w32x64 wt_64x64x8_w32x64_8; do
      sanitize memcheck "$L/san-memcheck-$kernel.log" "$B/gemm" --m 131 --n 97 --k 203 --dtype f32 \
        --kernel $kernel --split-k off --iters 1 --no-cublas
      sanitize racecheck "$L/san-racecheck-$kernel.log" "$B/gemm" --m 131 --n 97 --k 203 --dtype f32 \
        --kernel $kernel --split-k off --iters 1 --no-cublas
    done
    tests_side_by_side "gpu _ 300"
    ;;
  diag109b)
    # Run 2 of 2026-11-29: shallow K, where C's writes are the work, in
    # each tile order (`--group-m`, `auto`'s kernel); and step 7c's
    # `cp.async` 64×64 tiles at the f32 odd sizes in the chunks that
    # balance them (2 of 520 at 1031×1029×1027 was never run).
    {
      for call in "tf32 8192 8192 16" "tf32 6492 5009 24" "tf32 8192 8192 32" "tf32 16384 4096 16" \
        "f32 8192 8192 16" "f32 6492 5009 24" "f16 8192 8192 16"; do
        set -- $call
        for g in own 1 2 4 8 16 64; do
          echo "== $1 $2x$3x$4 group $g"
          if [ $g = own ]; then ga=(); else ga=(--group-m $g); fi
          timeout 120 "$B/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto "${ga[@]}" --iters 20
        done
      done
      named_runs f32 "1031 1029 1027" -- "auto auto" "wt_async_64x64x8 520" "wt_async_64x64x8 344" "wt_64x64x8 520" \
        "wt_async_64x64x8 520"
      named_runs f32 "777 999 3333" -- "auto auto" "wt_async_64x64x8 1112" "wt_async_64x64x8 840" "wt_64x64x8 1112" \
        "wt_async_64x64x8 1112"
    } 2>&1 | grep -v "^device:\|^kernel " | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  diag109c)
    # Run 3 of 2026-11-29, step 109: TF32 128×16 tiles (`ws_128x16x32`,
    # new: K-major, A through the TMA in place, B copied transposed)
    # named beside `auto` and the memory-bound kernels at N of 8 to 16
    # under a large M; then the `gpu` tests (every kernel on tile edges and
    # odd shapes) and the sanitizers on the new entry.
    named_runs tf32 "16384 16 4096" "65536 16 1024" "100000 16 768" "8192 16 8192" "32768 16 2048" \
      "16384 8 4096" "16384 12 4096" "4000 16 4096" "2000 16 8192" "100000 16 777" "100000 16 256" -- \
      "auto auto" "ws_128x16x32 auto" "ws_128x16x32 off" "skinny_mma_r16 auto" "skinny_r16_2cta auto" \
      "ws_128x64x32 auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/tf32n16.txt"
    tally tf32n16 "$L/tf32n16.txt"
    for shape in "131 16 203" "1000 13 4099" "300 9 96"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-ws_128x16x32-$1.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 \
        --kernel ws_128x16x32 --split-k off --iters 1 --no-cublas
    done
    sanitize racecheck "$L/san-racecheck-ws_128x16x32.log" "$B/gemm" --m 300 --n 16 --k 96 --dtype tf32 \
      --kernel ws_128x16x32 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-ws_128x16x32-split.log" "$B/gemm" --m 1000 --n 16 --k 20000 --dtype tf32 \
      --kernel ws_128x16x32 --split-k auto --iters 1 --no-cublas
    tests_side_by_side "gpu _ 300"
    ;;
  check109)
    # Run 4 of 2026-11-29, step 109: `auto` new-old-new against VARIANTS
    # (`.dev-c147g`, the build before) at TF32 N of 7 to 17 under a large
    # M (the 128×16 tiles where A's rows are on 16 bytes and no split
    # takes the call, the routes of before elsewhere); memcheck on `auto`
    # through the rule; every library, accuracy and gpu test.
    tf32=16384x16x4096,65536x16x1024,100000x16x768,8192x16x8192,32768x16x2048,16384x8x4096,16384x12x4096
    tf32=$tf32,100000x16x256,50000x9x1000,5000x16x4096,16384x16x8192,100000x16x777,4000x16x4096,2000x16x8192
    tf32=$tf32,30000x11x2001,16384x7x4096,16384x17x4096,16x16384x4096,4096x16x2047
    typed_sweeps_new_old_new "check109" "$tf32" tf32
    for shape in "5000 16 4096" "40000 9 520"; do
      set -- $shape
      sanitize memcheck "$L/san-memcheck-auto-$1x$2x$3.log" "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 \
        --kernel auto --iters 1 --no-cublas
    done
    every_test_side_by_side 250
    ;;
  sweep109)
    # Run 5 of 2026-11-29: TF32 N of 8 to 16 under the rule's 2²⁹ flop
    # and beside its split, `auto` against the 128×16 tiles unsplit and
    # under the split rule; the default sweep on the step 109 build.
    named_runs tf32 "4096 16 2047" "2048 16 4096" "3000 16 1000" "8192 16 512" "16384 16 256" "1000 16 4096" \
      "4096 12 1024" "8192 8 1024" "2000 16 2000" "4000 16 4096" "12000 16 300" -- \
      "auto auto" "ws_128x16x32 off" "ws_128x16x32 auto" 2>&1 | grep -v "^device:\|^kernel " | tee "$L/tf32small.txt"
    tally tf32small "$L/tf32small.txt"
    default_sweep
    ;;
  final109)
    # Run 6 of 2026-11-29: the build after step 109's review (host only;
    # the PTX byte-identical to run 4's): `auto` at run 4's TF32 shapes
    # (the same kernels expected), then every library, accuracy and gpu
    # test.
    tf32=16384x16x4096,65536x16x1024,100000x16x768,8192x16x8192,5000x16x4096,16384x8x4096,100000x16x777
    tf32=$tf32,4000x16x4096,2000x16x8192,4096x16x2047,16384x17x4096,16x16384x4096
    "$B/gemm" sweep --dtype tf32 --shapes "$tf32" --iters 20 --out "$L/tf32" >"$L/tf32.log" 2>&1
    note "final109 tf32: rc=$? $(tail -1 "$L/tf32.log")"
    every_test_side_by_side 250
    ;;
  diag110)
    # Run 7 of 2026-11-29, step 110: TF32 64×16 tiles (`ws_64x16x32`, new:
    # one consumer warpgroup, twice the 128×16 tiles' blocks) named beside
    # `auto` and the 128×16 tiles at N ≤ 16 over a few thousand rows,
    # where the 128-row tiles leave most SMs idle; the sanitizers on the
    # new entry; the `gpu` tests.
    named_runs tf32 "4096 16 2047" "4000 16 4096" "2000 16 8192" "3000 16 1000" "8192 16 512" "2048 16 4096" \
      "1000 16 4096" "4096 8 2048" "6000 16 2048" "16384 16 4096" "8192 16 8192" -- \
      "auto auto" "ws_64x16x32 off" "ws_64x16x32 auto" "ws_128x16x32 off" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32few.txt"
    tally tf32few "$L/tf32few.txt"
    sanitize memcheck "$L/san-memcheck-ws_64x16x32.log" "$B/gemm" --m 131 --n 13 --k 203 --dtype tf32 \
      --kernel ws_64x16x32 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-ws_64x16x32-split.log" "$B/gemm" --m 1000 --n 16 --k 20000 --dtype tf32 \
      --kernel ws_64x16x32 --split-k auto --iters 1 --no-cublas
    sanitize racecheck "$L/san-racecheck-ws_64x16x32.log" "$B/gemm" --m 300 --n 16 --k 96 --dtype tf32 \
      --kernel ws_64x16x32 --split-k off --iters 1 --no-cublas
    tests_side_by_side "gpu _ 300"
    ;;
  check110)
    # Run 8 of 2026-11-29, step 110: `auto` new-old-new against VARIANTS
    # (`.dev-c150g`, step 109) at TF32 N of 8 to 16 over a few thousand
    # rows (the 64×16 tiles under half a wave of 128×16 blocks, from 2²⁸
    # flop, where no few-tiles split takes the call) and beside them;
    # memcheck on `auto` through the rule; every library, accuracy and gpu
    # test.
    tf32=4000x16x4096,6000x16x2048,8192x16x8192,8192x12x4096,3000x16x4096,2500x16x8192,3000x12x4096
    tf32=$tf32,8192x16x1024,5000x16x4096,8320x16x4096,8448x16x4096,16384x16x4096,2048x16x8192,6000x16x2047
    typed_sweeps_new_old_new "check110" "$tf32" tf32
    sanitize memcheck "$L/san-memcheck-auto-3000x13x4096.log" "$B/gemm" --m 3000 --n 13 --k 4096 --dtype tf32 \
      --kernel auto --iters 1 --no-cublas
    every_test_side_by_side 250
    ;;
  diag111)
    # Run 1 of 2026-11-29's second session, on cca965a (`.dev-c153s`),
    # VARIANTS "old cs": step 110 before its K bound (`.dev-c152g`) and
    # this build with C's f32 stores as `st.global.cs` (evict-first,
    # `.dev-c153cs`, a measurement only). TF32 shallow K on the `mma.sync`
    # tiles (two blocks per SM, not persistent, as cuBLAS's 256×64 there);
    # `auto` with and without evict-first stores; `auto` new-old-new where
    # step 110's K bound moved calls and where nothing was measured; a
    # racecheck on the 64×16 tiles whose 16-stage ring wraps; the two
    # `library` tests that did not finish in run 8, alone.
    named_runs tf32 "8192 8192 16" "6492 5008 24" "8192 8192 32" "4096 4096 16" "6000 5000 64" -- \
      "auto auto" "mma_128x128x32 off" "mma_64x128x32 off" 2>&1 | grep -v "^device:\|^kernel " \
      | tee "$L/tf32shallow.txt"
    tally tf32shallow "$L/tf32shallow.txt"
    cs=${VARIANTS#* }
    for round in 1 2; do
      for run in "tf32 8192 8192 16" "tf32 6492 5008 24" "tf32 6492 5009 24" "tf32 6000 5000 64" "f32 8192 8192 16" \
        "f32 6492 5008 24" "tf32 4096 4096 4096" "f32 4096 4096 4096" "tf32 16384 16 4096" "f32 1031 1029 1027"; do
        set -- $run
        for bundle in "$B" "$cs"; do
          echo "# $bundle"
          timeout 120 "$bundle/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel auto --iters 30 2>&1 | grep -v "^device:\|^kernel "
        done
      done
    done | tee "$L/cs.txt"
    tally cs "$L/cs.txt"
    tf32=2500x16x8192,4100x16x8192,4224x16x8192,2112x16x4096,2500x16x4096,3000x16x4096,2048x16x8192,4000x16x4096
    typed_sweeps_new_old_new "diag111" "$tf32" tf32
    sanitize racecheck "$L/san-racecheck-ws_64x16x32-k1200.log" "$B/gemm" --m 300 --n 16 --k 1200 --dtype tf32 \
      --kernel ws_64x16x32 --split-k off --iters 1 --no-cublas
    tests_side_by_side "library tma_kernels_loop_over_many_tiles_in_every_layout 290" \
      "library memory_bound_shapes_every_layout_alpha_beta_batch 290"
    ;;
  diag111b)
    # Run 2 of 2026-11-29's second session: TF32 N = 16 over a few
    # thousand rows, `auto` of cca965a (VARIANTS' first bundle,
    # `.dev-c153s`) with cuBLAS beside it, then this build (the 64×16 and
    # 128×16 tiles compute their own partial sums, `split_k::partials_kernel`)
    # naming the 64×16 tiles unsplit, split by the rule and in four
    # chunks, the 128×16 tiles split by the rule, and the memory-bound
    # route's `skinny_mma_r16` split by its rule.
    old=${VARIANTS%% *}
    for shape in "1000 4096" "1000 16384" "2000 4096" "2000 8192" "2112 2048" "2500 4096" "2500 8192" \
      "3000 4096" "3000 8192" "4100 8192" "4224 8192" "6000 4096" "8192 8192" "2500 16384"; do
      set -- $shape
      echo "# old"
      timeout 60 "$old/gemm" --m $1 --n 16 --k $2 --dtype tf32 --kernel auto --iters 30 2>&1 | grep -v "^device:\|^kernel "
      for run in "ws_64x16x32 off" "ws_64x16x32 auto" "ws_64x16x32 $(($2 / 4))" "ws_128x16x32 auto" "skinny_mma_r16 auto"; do
        set -- $shape $run
        timeout 60 "$B/gemm" --m $1 --n 16 --k $2 --dtype tf32 --kernel $3 --split-k $4 --iters 30 --no-cublas 2>&1 \
          | grep -v "^device:\|^kernel "
      done
    done | tee "$L/narrowsplit.txt"
    tally narrowsplit "$L/narrowsplit.txt"
    ;;
  diag111c)
    # Run 3 of 2026-11-29's second session, step 111: the 64×16 and 128×16
    # tiles with their K steps dealt round four accumulator sets (this
    # build), two (VARIANTS' second bundle, `.dev-c155g2`) and one (the
    # first, `.dev-c154g`: the kernels of cca965a, partials on the tiles),
    # named unsplit at TF32 N of 8 to 16, `auto` of this build with cuBLAS
    # beside it; the few-block shapes also split by the rule; memcheck on
    # the tiles.
    one=${VARIANTS%% *}; two=${VARIANTS#* }
    for shape in "2500 16 8192" "4100 16 8192" "3000 16 4096" "2000 16 8192" "1000 16 16384" "8192 16 8192" \
      "16384 16 4096" "65536 16 1024" "100000 16 768" "32768 16 2048" "16384 8 4096" "6000 16 2048"; do
      set -- $shape
      timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel auto --iters 30 2>&1 | grep -v "^device:\|^kernel "
      for bundle in "$B" "$two" "$one"; do
        echo "# $bundle"
        for kernel in ws_64x16x32 ws_128x16x32; do
          timeout 60 "$bundle/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel $kernel --split-k off --iters 30 \
            --no-cublas 2>&1 | grep -v "^device:\|^kernel "
        done
      done
    done | tee "$L/sets.txt"
    tally sets "$L/sets.txt"
    for shape in "2500 16 8192" "3000 16 4096" "2000 16 8192" "1000 16 16384" "2500 16 4096" "1000 16 4096"; do
      set -- $shape
      for bundle in "$B" "$one"; do
        echo "# $bundle"
        timeout 60 "$bundle/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel ws_64x16x32 --split-k auto --iters 30 \
          --no-cublas 2>&1 | grep -v "^device:\|^kernel "
      done
    done | tee "$L/sets-split.txt"
    tally sets-split "$L/sets-split.txt"
    sanitize_kernels "tf32 tf32" "131 13 203" ws_64x16x32 ws_128x16x32
    ;;
  check111)
    # Run 4 of 2026-11-29's second session, step 111: `auto` new-old-new
    # against VARIANTS (`.dev-c153s`, cca965a) at TF32 N = 16 over a few
    # thousand rows (64×16 tiles from a third of a wave at any K; under it
    # the memory-bound route) and beside them; the 64×16 tiles split on
    # themselves against the old build's split on `mma_64x128x32`;
    # memcheck on that split with a shorter last chunk; every test.
    tf32=4100x16x8192,4160x16x8192,2500x16x4096,2112x16x4096,2752x16x4096,2816x16x4096,3000x16x8192
    tf32=$tf32,2500x16x8192,4000x16x4096,8192x16x8192,16384x16x4096,3000x16x4096
    typed_sweeps_new_old_new "check111" "$tf32" tf32
    for bundle in "$B" "${VARIANTS%% *}"; do
      echo "# $bundle"
      for shape in "2000 16 8192 2048" "2500 16 8192 4096"; do
        set -- $shape
        timeout 60 "$bundle/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel ws_64x16x32 --split-k $4 --iters 30 \
          --no-cublas 2>&1 | grep -v "^device:\|^kernel "
      done
    done | tee "$L/selfsplit.txt"
    tally selfsplit "$L/selfsplit.txt"
    sanitize memcheck "$L/san-memcheck-ws_64x16x32-ragged.log" "$B/gemm" --m 1000 --n 13 --k 4099 --dtype tf32 \
      --kernel ws_64x16x32 --split-k 1000 --iters 1 --no-cublas
    every_test_side_by_side 330
    ;;
  check111b)
    # Run 5 of 2026-11-29's second session, step 111 after run 4: the
    # 64×16 tiles from 5/16 of a wave (42 blocks on 132 SMs) rather than a
    # third (44); `auto` new-old-new against VARIANTS (`.dev-c153g`,
    # cca965a) at 40 to 44 blocks of 64×16, K = 4096 and 8192; the default
    # sweep.
    tf32=2500x16x4096,2624x16x4096,2688x16x4096,2752x16x4096,2816x16x4096,2500x16x8192,2624x16x8192
    tf32=$tf32,2688x16x8192,2752x16x8192,4100x16x8192
    typed_sweeps_new_old_new "check111b" "$tf32" tf32
    default_sweep
    ;;
  final111)
    # Run 6 of 2026-11-29's second session, step 111 after its review:
    # the 64×16 tiles from 31% of a wave (41 blocks on 132 SMs); `auto`
    # new-old-new against VARIANTS (`.dev-c157g`, 42 blocks) at 40 to 42
    # blocks; the `library` test of ragged splits (the 16-column tiles
    # split onto themselves with A read in place, and copied per launch)
    # and the `gpu` tests.
    typed_sweeps_new_old_new "final111" 2560x16x4096,2561x16x4096,2624x16x4096,2624x16x8192,2688x16x4096 tf32
    tests_side_by_side "library ragged_splits_in_one_launch_and_apart 200" "library sweep_random 200" "gpu _ 200"
    ;;
  diag111d)
    # Run 7 of 2026-11-29's second session, on the final build: for the
    # next step, ncu's kernel times of `auto`'s memory-bound route at 2560
    # and 2561 rows (the same split, 0.028 against 0.021 ms in run 6), and
    # the 64×16 tiles' warp states, scheduler and memory workload at
    # 2500×16×8192, where a block streams its rows at about 50 GB/s.
    ncu_auto_times "diag111d" "tf32 2560 16 4096" "tf32 2561 16 4096"
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    timeout 200 "$ncu" --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section MemoryWorkloadAnalysis -k regex:tgemm_ws_64x16x32 --launch-count 1 "$B/gemm" --m 2500 --n 16 \
      --k 8192 --dtype tf32 --kernel ws_64x16x32 --split-k off --iters 1 --no-cublas >"$L/ncu-ws_64x16x32.txt" 2>&1
    note "diag111d ncu sections ws_64x16x32 2500x16x8192: rc=$? $(grep -c 'Section:' "$L/ncu-ws_64x16x32.txt") sections"
    ;;
  diag111e)
    # Run 8 of 2026-11-29's second session, on the final build: whether
    # A's row stride paces the 64×16 tiles (K = 8192, rows 32 KiB apart,
    # against 8196 and 8320), and the memory-bound route at 2560 and 2561
    # rows (0.028 against 0.021 ms in run 6) with its split and ncu's
    # kernel times.
    for shape in "2500 16 8192" "2500 16 8196" "2500 16 8320" "4100 16 8192" "4100 16 8196" "2500 16 4096" \
      "2500 16 4100"; do
      set -- $shape
      timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype tf32 --kernel ws_64x16x32 --split-k off --iters 30 \
        --no-cublas 2>&1 | grep -v "^device:\|^kernel "
    done | tee "$L/stride.txt"
    tally stride "$L/stride.txt"
    for m in 2560 2561 2624 2625 2500; do
      timeout 60 "$B/gemm" --m $m --n 16 --k 4096 --dtype tf32 --kernel skinny_mma_r16 --split-k auto --iters 30 \
        --no-cublas 2>&1 | grep -v "^device:\|^kernel "
    done | tee "$L/rows32.txt"
    tally rows32 "$L/rows32.txt"
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for m in 2560 2561; do
      timeout 200 "$ncu" --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum \
        "$B/gemm" --m $m --n 16 --k 4096 --dtype tf32 --kernel skinny_mma_r16 --split-k auto --iters 1 --no-cublas \
        >"$L/ncu-skinny-$m.txt" 2>&1
      note "diag111e ncu skinny_mma_r16 ${m}x16x4096: rc=$? $(grep -c gpu__time_duration "$L/ncu-skinny-$m.txt") kernels"
    done
    ;;
  check112)
    # Run 9 of 2026-11-29's second session, step 112: the memory-bound
    # `mma.sync` kernels read the block that ends at X's last row with
    # aligned 16-byte loads where its windows are whole (it ran "at the
    # edge", element by element, wherever the long side was a multiple
    # of 32). New-old-new against VARIANTS (`.dev-c158g`, step 111's final
    # build): `auto` at TF32 N = 16 calls of the memory-bound route, and
    # `skinny_mma_r16` named (TF32, f16) at M a multiple of 32 and one
    # more; memcheck at M a multiple of 32, X's last window at its end;
    # the tests of the memory-bound kernels and the `gpu` tests.
    typed_sweeps_new_old_new "check112" 2560x16x4096,2561x16x4096,2048x16x8192,2000x16x8192,1024x16x4096,2496x16x4096 tf32
    for bundle in "$B" "${VARIANTS%% *}"; do
      echo "# $bundle"
      for run in "tf32 2560 16 4096" "tf32 8192 16 8192" "f16 4096 16 4096" "f16 4097 16 4096" "f16 8192 16 8192" \
        "bf16 2048 16 8192"; do
        set -- $run
        timeout 60 "$bundle/gemm" --m $2 --n $3 --k $4 --dtype $1 --kernel skinny_mma_r16 --split-k auto --iters 30 \
          --no-cublas 2>&1 | grep -v "^device:\|^kernel "
      done
    done | tee "$L/named.txt"
    tally named "$L/named.txt"
    sanitize memcheck "$L/san-memcheck-tf32-2560.log" "$B/gemm" --m 2560 --n 16 --k 4096 --dtype tf32 \
      --kernel skinny_mma_r16 --split-k off --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-f16-96.log" "$B/gemm" --m 96 --n 13 --k 1000 --dtype f16 \
      --kernel skinny_mma_r16 --split-k 504 --iters 1 --no-cublas
    tests_side_by_side "library memory_bound_shapes_every_layout_alpha_beta_batch 270" \
      "library memory_bound_kernels_keep_nan_padding_out_of_c 270" "library sweep_random 270" "gpu _ 270"
    ;;
  diag113)
    # Run 1 of 2026-11-29's third session: step 7c's `cp.async` ring on
    # cuBLAS's f32 tile for the sizes that are no multiple of a tile
    # (64×128×8 at two blocks per SM; 3 and 4 stages) and on 128×128×8,
    # named beside `auto`'s `wt_64x64x8` split, at 777×999×3333 and
    # 1031×1029×1027 (rows off 16 bytes, read in place) and the sizes
    # around them; and the ring's rate unsplit at 1024³–4096³.
    {
      named_runs f32 "777 999 3333" -- "auto auto" "wt_64x64x8 1112" "wt_async_64x128x8 off" "wt_async_64x128x8 1112" \
        "wt_async_64x128x8 840" "wt_async_64x128x8 672" "wt_async_64x128x8 560" "wt_async_64x128x8_s3 840" \
        "wt_async_64x128x8_s3 672" "wt_async_128x128x8 840" "wt_async_128x128x8 560" "wt_async_64x64x8 1112"
      named_runs f32 "1031 1029 1027" -- "auto auto" "wt_async_64x128x8 off" "wt_async_64x128x8 520" \
        "wt_async_64x128x8 344" "wt_async_64x128x8 264" "wt_async_64x128x8_s3 520" "wt_async_64x128x8_s3 344" \
        "wt_async_128x128x8 344" "wt_async_128x128x8 264" "wt_async_64x64x8 344"
      named_runs f32 "1024 1024 1024" "1536 1536 1536" "1100 700 1001" "767 769 771" -- "auto auto" \
        "wt_async_64x128x8 off" "wt_async_64x128x8 auto" "wt_async_64x128x8_s3 auto" "wt_async_128x128x8 auto"
      named_runs f32 "4096 4096 4096" "1999 2003 997" "4000 3000 1000" -- "auto auto" "wt_async_64x128x8 off" \
        "wt_async_64x128x8_s3 off" "wt_async_128x128x8 off"
    } 2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  check113)
    # Run 2 of 2026-11-29's third session, step 113: the f32 split model
    # weighs the register-staged tiles' realigned copies and step 7c's
    # `cp.async` ring on 64×128×8 tiles, which reads rows off 16 bytes in
    # place. `auto` against VARIANTS (the build before, `.dev-c158g`), two
    # rounds; the ring named where the model keeps the staged tiles; ncu's
    # kernel times; memcheck and racecheck on the ring; every test.
    f32_auto_rounds "$L/auto.txt" "check113 auto" "777 999 3333" "777 999 4095" "700 1100 5001" "999 777 3333" \
      "1031 1029 1027" "1999 2003 997" "777 999 2761"
    named_runs f32 "999 777 3333" "777 999 2761" "5003 4001 3001" "3001 2999 1003" -- "wt_async_64x128x8 auto" \
      2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ncu_auto_times "check113" "f32 777 999 3333" "f32 700 1100 5001"
    sanitize_kernels "f32 f32" "130 258 77" wt_async_64x128x8
    sanitize memcheck "$L/san-memcheck-auto-777.log" "$B/gemm" --m 777 --n 999 --k 3333 --dtype f32 --kernel auto \
      --iters 1 --no-cublas
    every_test_side_by_side 330
    ;;
  check113b)
    # Run 3 of 2026-11-29's third session, step 113 with the f32 copies
    # from 3·2³⁰ flop (was 2³²): `auto` against VARIANTS (`.dev-c158g`,
    # the build before step 113), two rounds, where the copies or the ring
    # now take calls of 3.2–4.3·10⁹ flop with rows off 16 bytes, and
    # 1031×1029×1027 (in place either way); `wt_64x64x8` named at
    # 777×999×2761, on copies against in place.
    f32_auto_rounds "$L/auto.txt" "check113b auto" "777 999 2761" "777 999 2500" "1200 1100 1301" "1101 1103 1501" \
      "1031 1029 1600" "1300 1201 1099" "1031 1029 1027"
    VARIANTS=$VARIANTS each_bundle --m 777 --n 999 --k 2761 --dtype f32 --kernel wt_64x64x8 --split-k 924 --iters 30 \
      2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ;;
  check114)
    # Run 4 of 2026-11-29's third session, step 114: the ring's 64×128
    # tile turned round (128×64) in the f32 split model. `auto` against
    # VARIANTS (`.dev-c163g`, step 113's final build), two rounds, at the
    # model's new picks and 777×999×3333 (unchanged); memcheck and
    # racecheck on the new tile; the `gpu` tests and the library's ring
    # and random-sweep tests.
    f32_auto_rounds "$L/auto.txt" "check114 auto" "999 777 3333" "999 777 2761" "1100 700 1001" "600 700 7001" \
      "1100 700 5001" "1100 1200 1301" "777 999 3333"
    sanitize_kernels "f32 f32" "258 130 77" wt_async_128x64x8
    tests_side_by_side "gpu _ 200" "library cp_async_rings_read_rows_off_16_bytes_in_place 200" \
      "library sweep_random 200" "library f32_realigned_copies_in_every_layout 200" \
      "library ragged_splits_in_one_launch_and_apart 200"
    ;;
  check115)
    # Run 5 of 2026-11-29's third session, step 115: step 7 and 7c's
    # `cp.async` copies worked out once per tile (a slice adds its K
    # offset). `auto` against VARIANTS (`.dev-c164g`, step 114's final
    # build), two rounds, at the rings' calls; the rings named at
    # 1031×1029×1027 and aligned sizes, step 7's kernels at 4096³; ncu's
    # kernel time at 777×999×3333; memcheck and racecheck on three rings
    # and memcheck on a split; the tests that run them.
    f32_auto_rounds "$L/auto.txt" "check115 auto" "777 999 3333" "777 999 2761" "999 777 3333" "600 700 7001" \
      "1100 700 1001" "1200 1100 1301"
    for run in "1031 1029 1027 wt_async_64x128x8 264" "1024 1024 1024 wt_async_64x128x8 auto" \
      "4096 4096 4096 wt_async_64x128x8 off" "4096 4096 4096 wt_async_256x128x8 off" \
      "4096 4096 4096 async_128x128x16 off" "4096 4096 4096 async_128x128x8 off" "4096 4096 4096 async_128x64x16 off"; do
      set -- $run
      VARIANTS=$VARIANTS each_bundle --m $1 --n $2 --k $3 --dtype f32 --kernel $4 --split-k $5 --iters 20 --no-cublas
    done 2>&1 | tee "$L/named.txt"
    tally named "$L/named.txt"
    ncu_auto_times "check115" "f32 777 999 3333"
    sanitize_kernels "f32 f32" "130 258 77" wt_async_64x128x8 wt_async_128x64x8 async_128x128x8
    sanitize memcheck "$L/san-memcheck-auto-999.log" "$B/gemm" --m 999 --n 777 --k 3333 --dtype f32 --kernel auto \
      --iters 1 --no-cublas
    tests_side_by_side "gpu _ 200" "library cp_async_rings_read_rows_off_16_bytes_in_place 200" \
      "library sweep_random 200" "library every_layout_kernel_with_alpha_beta_and_batches 200" \
      "library ragged_splits_in_one_launch_and_apart 200" "library indices_past_two_to_the_31_elements 200"
    ;;
  check116)
    # Run 6 of 2026-11-29's third session, step 116: the 128×64 ring at
    # four blocks per SM (127 registers since step 115's copies; it had
    # spilled at 128). `auto` against VARIANTS (`.dev-c165g`, step 115's
    # final build), two rounds; memcheck and racecheck on it; the `gpu`
    # tests and the library's ring test.
    f32_auto_rounds "$L/auto.txt" "check116 auto" "999 777 3333" "999 777 2761" "600 700 7001" "1100 700 1001" \
      "1100 700 5001" "777 999 3333"
    sanitize_kernels "f32 f32" "258 130 77" wt_async_128x64x8
    tests_side_by_side "gpu _ 200" "library cp_async_rings_read_rows_off_16_bytes_in_place 200"
    ;;
  final116)
    # Run 7 of 2026-11-29's third session, on the final build (steps
    # 113–116): the default sweep (`docs/sweep-h200.svg`), then memcheck
    # on `auto` at two ring calls with a ragged split.
    default_sweep
    sanitize memcheck "$L/san-memcheck-auto-777x999x2761.log" "$B/gemm" --m 777 --n 999 --k 2761 --dtype f32 \
      --kernel auto --iters 1 --no-cublas
    sanitize memcheck "$L/san-memcheck-auto-1100x700x1001.log" "$B/gemm" --m 1100 --n 700 --k 1001 --dtype f32 \
      --kernel auto --iters 1 --no-cublas
    ;;
  tests116)
    # Run 8 of 2026-11-29's third session, on the final build: every
    # `library` and `accuracy` test, each in a process of its own, and the
    # `gpu` tests, side by side.
    every_test_side_by_side 330
    ;;
  review116)
    # Run 9 of 2026-11-29's third session, after the review: the library's
    # realignment test with the rings' cases merged in (B's rows off and
    # on 16 bytes), `auto` at the rings' calls (the model's copy cost now
    # the host's own, `f32_realign_us`), the `gpu` tests.
    tests_side_by_side "library f32_realigned_copies_in_every_layout 200" "gpu _ 200"
    for shape in "777 999 3333" "999 777 3333" "1200 1100 1301" "1031 1029 1027"; do
      set -- $shape
      timeout 60 "$B/gemm" --m $1 --n $2 --k $3 --dtype f32 --kernel auto --iters 20
    done 2>&1 | tee "$L/auto.txt"
    tally auto "$L/auto.txt"
    ;;
  *) note "unknown part $part" ;;
  esac
done
echo; echo "SUMMARY"; printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
