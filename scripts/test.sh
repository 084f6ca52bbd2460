#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test (GPU tests
# skip with a printed reason where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
source scripts/env.sh
export RGEMM_REQUIRE_PTXAS=1
cargo test --release "$@"
