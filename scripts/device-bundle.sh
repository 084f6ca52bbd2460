#!/usr/bin/env bash
# Builds, on this machine, everything a GPU machine without Rust needs:
# the release `gemm` and the test binaries, into device-bundle/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh >&2
source scripts/env.sh
cargo build --release >&2
rm -rf device-bundle && mkdir -p device-bundle/tests
cp target/release/gemm device-bundle/
cargo test --release --no-run --message-format=json 2>/dev/null | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    msg = json.loads(line)
    exe = msg.get("executable")
    if exe and msg.get("target", {}).get("kind") == ["test"] and msg["target"]["src_path"].find("/tests/") >= 0:
        shutil.copy(exe, "device-bundle/tests/" + msg["target"]["name"])
'
ls -la device-bundle device-bundle/tests >&2
