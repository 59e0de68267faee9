# Sourced by the scripts here: choose a docker CLI that can build with BuildKit (secret
# mounts). Docker 23+ needs the buildx plugin for that; Debian's docker.io (20.10) has it
# built in. DOCKER, when set, is used as given.
buildkit_cli() {
  "$1" buildx version >/dev/null 2>&1 && return 0
  local major
  major="$("$1" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1)"
  [ -n "$major" ] && [ "$major" -lt 23 ] 2>/dev/null
}
if [ -z "${DOCKER:-}" ]; then
  DOCKER=docker
  if ! buildkit_cli docker && [ -x /usr/bin/docker ] && buildkit_cli /usr/bin/docker; then
    DOCKER=/usr/bin/docker
  fi
fi
export DOCKER
