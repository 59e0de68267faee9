#!/usr/bin/env bash
# Build scoregate's images (and, unless BASE_IMAGE is given, the Debian base images).
#   docker/build.sh            scoregate:cpu (+ scoregate-base/{debian,python,redis,postgres})
#   docker/build.sh --cuda     also scoregate:cuda (torch from the CUDA index; GPU hosts)
# This host's pip configuration (indexes, find-links, constraints, certificate) is passed to
# the build as BuildKit secrets, never as a layer; local folders in it are served over HTTP on
# 127.0.0.1 for the duration of the build (the build runs with --network host).
# Env: BASE_IMAGE (skip the Debian bases and build on it), DOCKER (CLI, default docker),
#      TORCH_INDEX_URL (default: empty when the host's pip finds a CPU torch, else PyTorch's).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=docker/docker-cli.sh
source "$(dirname "$0")/docker-cli.sh"
export DOCKER_BUILDKIT=1
CUDA=0
for arg in "$@"; do
  case "$arg" in
    --cuda) CUDA=1 ;;
    *) echo "usage: docker/build.sh [--cuda]" >&2; exit 2 ;;
  esac
done

if [ -z "${BASE_IMAGE:-}" ]; then
  "$ROOT/docker/base-image.sh"
  BASE_IMAGE="scoregate-base/python:3.11"
fi

work="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/serve"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 "$ROOT/docker/pip_secret.py" "$work" "$work/serve" "$port"
python3 -m http.server --bind 127.0.0.1 --directory "$work/serve" "$port" >/dev/null 2>&1 &
server=$!
secrets=(--secret "id=pip_conf,src=$work/pip_conf")
[ -f "$work/pip_cert" ] && secrets+=(--secret "id=pip_cert,src=$work/pip_cert")

# A host whose pip finds a CPU torch wheel (find-links) needs no PyTorch index.
cpu_index="https://download.pytorch.org/whl/cpu"
[ -f "$work/has_cpu_torch" ] && cpu_index=""

build() {  # tag, then build args
  local tag="$1"; shift
  local start=$SECONDS
  "$DOCKER" build --network host "${secrets[@]}" --build-arg "BASE_IMAGE=$BASE_IMAGE" "$@" \
    -f "$ROOT/docker/Dockerfile" -t "$tag" "$ROOT"
  echo "built $tag in $((SECONDS - start)) s"
}

build scoregate:cpu --build-arg "TORCH_INDEX_URL=${TORCH_INDEX_URL-$cpu_index}"
if [ "$CUDA" = 1 ]; then
  build scoregate:cuda --build-arg TORCH_VARIANT=cuda \
    --build-arg "TORCH_INDEX_URL=${TORCH_INDEX_URL-https://download.pytorch.org/whl/cu126}"
fi
