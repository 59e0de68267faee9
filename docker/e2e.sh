#!/usr/bin/env bash
# End-to-end test of the images: build (or reuse) them, start docker/compose.yaml with two
# semantic workers, submit 6 jobs through the stack, check every job reached a final,
# scored state in Postgres (a decided iteration with a band, a decision row) and that the
# control worker sweeps, tear down.
# Exits non-zero on any failure, with the stack's logs.
#   docker/e2e.sh            build the images first (cached layers are reused)
#   docker/e2e.sh --reuse    use the images already built (fails if one is missing)
# Env: DOCKER (CLI, default docker), COMPOSE (default docker-compose), E2E_TIMEOUT (s, 600).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=docker/docker-cli.sh
source "$(dirname "$0")/docker-cli.sh"
COMPOSE="${COMPOSE:-docker-compose}"
TIMEOUT="${E2E_TIMEOUT:-600}"
REUSE=0
[ "${1:-}" = "--reuse" ] && REUSE=1

say() { printf '\n== e2e: %s\n' "$*"; }
fail() { printf '\n== e2e FAILED: %s\n' "$*" >&2; exit 1; }

for tool in "$DOCKER" "$COMPOSE"; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install -y docker.io docker-compose)"
done
"$DOCKER" info >/dev/null 2>&1 || fail "no Docker engine answers (start dockerd)"

start=$SECONDS
if [ "$REUSE" = 1 ]; then
  for image in scoregate:cpu scoregate-base/redis:7 scoregate-base/postgres:15; do
    "$DOCKER" image inspect "$image" >/dev/null 2>&1 || fail "--reuse: image $image is missing (run docker/build.sh)"
  done
else
  say "building images"
  "$ROOT/docker/build.sh"
fi
build_s=$((SECONDS - start))

# Fresh secrets for this run only; nothing is written to disk.
POSTGRES_PASSWORD="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
FLOWER_USER=e2e
FLOWER_PASSWORD="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
FLOWER_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export POSTGRES_PASSWORD FLOWER_USER FLOWER_PASSWORD FLOWER_PORT
project="scoregate_e2e_$$"
dc() { "$COMPOSE" -p "$project" -f "$ROOT/docker/compose.yaml" "$@"; }

teardown() {
  local rc=$?
  if [ "$rc" != 0 ]; then dc logs --no-color --tail 60 >&2 || true; fi
  dc down -v --remove-orphans >/dev/null 2>&1 || true
  exit "$rc"
}
trap teardown EXIT

say "compose refuses to start without a required secret"
if msg="$(env -u POSTGRES_PASSWORD "$COMPOSE" -p "$project" -f "$ROOT/docker/compose.yaml" config 2>&1)"; then
  fail "compose config passed without POSTGRES_PASSWORD"
fi
grep -q "set POSTGRES_PASSWORD" <<<"$msg" || fail "no clear message without POSTGRES_PASSWORD: $msg"

say "compose up (semantic=2)"
up=$SECONDS
dc up -d --no-build --scale semantic=2 >/dev/null

workers=(semantic precision reward fusion control)
expect=6  # semantic x2 + precision + reward + fusion + control
deadline=$((SECONDS + TIMEOUT))
while :; do
  pings="$(dc exec -T control celery -A scoregate.workers inspect ping -t 5 2>/dev/null || true)"
  n="$(grep -c ': OK' <<<"$pings" || true)"
  [ "$n" -ge "$expect" ] && break
  [ "$SECONDS" -lt "$deadline" ] || fail "only $n of $expect workers answer a ping"
  sleep 3
done
for pool in "${workers[@]}"; do
  grep -q "$pool@" <<<"$pings" || fail "no $pool worker answers"
done
[ "$(grep -c 'semantic@' <<<"$pings")" = 2 ] || fail "expected 2 semantic workers"
ready_s=$((SECONDS - up))

say "submitting 6 jobs"
jobs='{"query": "Summarise the report in two sentences without prices", "content": "Revenue grew in the north. Costs fell slightly. The team hired two engineers."}
{"query": "List three benefits of walking", "content": "1. Better heart health\n2. Lower stress\n3. Stronger legs"}
{"query": "Explain what a hash map is", "content": "A hash map stores key-value pairs and finds a value from its key in constant time on average by hashing the key to a bucket."}
{"query": "Write a haiku about autumn", "content": "Red leaves drift and fall / cold wind hums along the lane / the year exhales slow"}
{"query": "Give the capital of France", "content": "The capital of France is Paris."}
{"query": "Describe photosynthesis in one sentence", "content": "I like trains and the colour blue."}'
run=$SECONDS
deadline=$((SECONDS + TIMEOUT))
# --wait exits 4 when a job is not approved: the last answer is off topic, so 4 is expected
rc=0
ids="$(dc exec -T control sh -c 'cat > /tmp/jobs.jsonl && scoregate submit --file /tmp/jobs.jsonl --wait --timeout '"$TIMEOUT"' >/tmp/ids 2>/tmp/err; rc=$?; cat /tmp/ids; cat /tmp/err >&2; exit $rc' <<<"$jobs")" \
  || rc=$?
[ "$rc" = 4 ] || fail "submit --wait exited $rc, expected 4 (the off-topic answer is not approved)"
jobs_s=$((SECONDS - run))
ids="$(grep -E '^[0-9a-f-]{16,}$' <<<"$ids" || true)"
[ "$(wc -l <<<"$ids")" = 6 ] || fail "submit printed $(wc -l <<<"$ids") job ids, expected 6: $ids"

say "checking Postgres"
list="'$(paste -sd, <<<"$ids" | sed "s/,/','/g")'"
psql() { dc exec -T postgres psql -U scoregate -d scoregate -tA -F ' ' -c "$1"; }
rows="$(psql "SELECT j.id, j.status,
  (SELECT count(*) FROM iterations i WHERE i.job_id = j.id AND i.status = 'decided' AND i.band IS NOT NULL),
  (SELECT count(*) FROM decisions d WHERE d.job_id = j.id)
  FROM jobs j WHERE j.id IN ($list) ORDER BY j.id")"
echo "$rows"
[ "$(grep -c . <<<"$rows")" = 6 ] || fail "Postgres holds $(grep -c . <<<"$rows") of the 6 jobs"
while read -r id status decided decisions; do
  case "$status" in completed|accepted|rejected) ;; *) fail "job $id ended $status" ;; esac
  [ "$decided" -ge 1 ] || fail "job $id has no decided iteration with a band"
  [ "$decisions" -ge 1 ] || fail "job $id has no decision"
done <<<"$rows"

say "scoregate jobs show in the image"
first="$(head -1 <<<"$ids")"
dc exec -T control scoregate jobs show "$first" >/dev/null || fail "scoregate jobs show $first failed"

say "checking the sweeper (it runs in the control worker)"
# A run of the task, counted by the worker itself (an idle sweep logs at DEBUG only). The
# reply is read whole before grep: `grep -q` would close the pipe early, and pipefail
# would then count celery's broken pipe as a miss.
until stats="$(dc exec -T control celery -A scoregate.workers inspect stats -t 5 2>/dev/null || true)"
  grep -q 'scoregate\.control\.sweep' <<<"$stats"; do
  [ "$SECONDS" -lt "$deadline" ] || fail "the control worker never ran scoregate.control.sweep"
  sleep 5
done

sizes="$("$DOCKER" image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' \
  | grep -E '^(scoregate:|scoregate-base/)' | sort)"
say "passed: build ${build_s} s, stack ready ${ready_s} s, 6 jobs ${jobs_s} s, total $((SECONDS - start)) s"
echo "$sizes"
