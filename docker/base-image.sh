#!/usr/bin/env bash
# Build the base images from Debian packages when no image registry is reachable:
#   scoregate-base/debian:bookworm   debootstrap (minbase) + `docker import`
#   scoregate-base/python:3.11       Debian's python3 (3.11) with venv
#   scoregate-base/redis:7           Debian's redis-server
#   scoregate-base/postgres:15       Debian's PostgreSQL with a small entrypoint
# Usage: docker/base-image.sh [--force]    (needs root, debootstrap and a Debian mirror)
# Env: DEBIAN_MIRROR (default http://deb.debian.org/debian), DEBIAN_SUITE (bookworm),
#      DEBIAN_SECURITY_MIRROR (default http://deb.debian.org/debian-security),
#      DOCKER (docker CLI to use, default docker).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=docker/docker-cli.sh
source ./docker-cli.sh
export DOCKER_BUILDKIT=1
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE="${DEBIAN_SUITE:-bookworm}"
SECURITY="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
PREFIX="${SCOREGATE_BASE_PREFIX:-scoregate-base}"
FORCE=0
[ "${1:-}" = "--force" ] && FORCE=1

root=""
trap '[ -z "$root" ] || rm -rf "$root"' EXIT

have_image() { [ "$FORCE" = 0 ] && "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

build_rootfs() {
  local image="$PREFIX/debian:$SUITE"
  if have_image "$image"; then echo "have $image"; return 0; fi
  command -v debootstrap >/dev/null || {
    echo "debootstrap is missing: apt-get install -y debootstrap" >&2; return 1; }
  root="$(mktemp -d /var/tmp/scoregate-rootfs.XXXXXX)"
  echo "debootstrap $SUITE from $MIRROR (a few minutes)"
  debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >/dev/null
  # Keep images small: no apt lists or cached .debs.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
    "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SECURITY" "$SUITE" > "$root/etc/apt/sources.list"
  tar -C "$root" -c . | "$DOCKER" import \
    -c 'ENV LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive' -c 'CMD ["bash"]' - "$image" >/dev/null
  rm -rf "$root"
  root=""
  echo "built $image"
}

build_layer() {  # name tag dockerfile
  local image="$PREFIX/$1:$2"
  if have_image "$image"; then echo "have $image"; return 0; fi
  "$DOCKER" build -q -f "debian/$3" --build-arg "BASE_IMAGE=$PREFIX/debian:$SUITE" \
    -t "$image" debian >/dev/null
  echo "built $image"
}

build_rootfs
build_layer python 3.11 python.Dockerfile
build_layer redis 7 redis.Dockerfile
build_layer postgres 15 postgres.Dockerfile
