#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `gemm` (every
# kernel on the seeds' shape, checked and timed beside cuBLAS). Arguments go
# to gemm: scripts/gemm.sh --m 4096 --n 4096 --k 4096 --kernel auto
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
source scripts/env.sh
cargo run --release -- "$@"
