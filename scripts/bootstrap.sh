#!/usr/bin/env bash
# Installs what building and testing need on a fresh machine, idempotently:
#   1. the pinned nightly from rust-toolchain.toml (rustup does not auto-install here);
#   2. libcuda.so for *linking* cust (Debian's libcuda1; at run time the machine's
#      own driver is used) into .tools/cuda/lib64, found through .cargo/config.toml;
#   3. ptxas (PyPI wheel nvidia-cuda-nvcc-cu12) into .tools/cuda-nvcc: build.rs
#      assembles the kernels with it into cubins (without it the binary ships PTX
#      only, which the driver JIT-compiles for ~40 s on a new machine), and
#      tests/ptxas.rs checks every kernel of every cubin for spills.
# Everything goes under .tools/ (git-ignored). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
tools="$PWD/.tools"
mkdir -p "$tools"

say() { printf 'bootstrap: %s\n' "$*" >&2; }

# 1. Toolchain.
if ! rustup run "$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)" rustc --version >/dev/null 2>&1 \
   || ! rustup component list --installed 2>/dev/null | grep -q llvm-bitcode-linker; then
  say "installing the pinned toolchain (rust-toolchain.toml)"
  rustup toolchain install
fi

# 2. libcuda for linking.
if [ ! -e "$tools/cuda/lib64/libcuda.so" ]; then
  if [ -e /usr/local/cuda/lib64/libcuda.so ] || [ -e /usr/local/cuda/lib64/stubs/libcuda.so ]; then
    say "using the CUDA toolkit's libcuda in /usr/local/cuda"
    mkdir -p "$tools/cuda/lib64"
    ln -sf "$(ls /usr/local/cuda/lib64/libcuda.so /usr/local/cuda/lib64/stubs/libcuda.so 2>/dev/null | head -1)" "$tools/cuda/lib64/libcuda.so"
  else
    say "fetching Debian's libcuda1 (link-time only)"
    apt_dir="$tools/apt"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/deb"
    echo "deb http://deb.debian.org/debian bookworm non-free" > "$apt_dir/sources.list"
    apt_opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
              -o APT::Sandbox::User=root)
    apt-get "${apt_opts[@]}" update -qq
    (cd "$apt_dir/deb" && apt-get "${apt_opts[@]}" download libcuda1 -qq)
    dpkg -x "$apt_dir"/deb/libcuda1_*.deb "$apt_dir/root"
    mkdir -p "$tools/cuda/lib64"
    cp -a "$apt_dir"/root/usr/lib/x86_64-linux-gnu/nvidia/current/* "$tools/cuda/lib64/"
    [ -e "$tools/cuda/lib64/libcuda.so" ] || ln -sf libcuda.so.1 "$tools/cuda/lib64/libcuda.so"
  fi
fi

# 3. ptxas.
if [ ! -x "$tools/cuda-nvcc/nvidia/cuda_nvcc/bin/ptxas" ]; then
  say "installing ptxas (PyPI nvidia-cuda-nvcc-cu12)"
  python3 -m pip install -q --disable-pip-version-check --no-deps --target "$tools/cuda-nvcc" \
    nvidia-cuda-nvcc-cu12==12.9.86
fi
say "ready"
