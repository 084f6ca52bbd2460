#!/usr/bin/env bash
# Builds, on this machine, everything a GPU machine without Rust needs:
# the release `gemm` and the test binaries, into device-bundle/ (git-ignored),
# stripped, and packed as device-bundle.tar.xz (each binary embeds ~10 MB of
# PTX and ~8.7 MB of cubins, which compress well): carry that, `tar xJf` it there.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh >&2
source scripts/env.sh
cargo build --release >&2
rm -rf device-bundle && mkdir -p device-bundle/tests device-bundle/benches
cp target/release/gemm device-bundle/
# Test and bench executables, named after their targets.
{ cargo test --release --no-run --message-format=json; cargo bench --no-run --message-format=json; } 2>/dev/null | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    msg = json.loads(line)
    exe, target = msg.get("executable"), msg.get("target", {})
    if exe and target.get("kind") in (["test"], ["bench"]) and "/host/" not in target["src_path"]:
        folder = "tests" if target["kind"] == ["test"] else "benches"
        shutil.copy(exe, f"device-bundle/{folder}/" + target["name"])
'
strip device-bundle/gemm device-bundle/tests/* device-bundle/benches/*
tar cJf device-bundle.tar.xz device-bundle
ls -la device-bundle device-bundle/tests device-bundle/benches device-bundle.tar.xz >&2
