#!/usr/bin/env bash
# The README's walkthrough, end to end, on the embedded default (PGlite, no other service):
# start the server; bootstrap an organisation, its owner, a repository and an API key with one
# admin command (which goes through the running server); register a chat thread; upload a snapshot of a checkout (committed files only: no
# node_modules, no .git, nothing .gitignore'd); ingest it; wait for its follow-up embedding jobs (the ingest's `recall` becomes
# "complete"); ask a question; read result.answer, which must name the code that verifies an API key.
#
#   bash examples/quickstart.sh [CHECKOUT]     # CHECKOUT defaults to this repository
#
# A fresh data directory (CODESYNAPSE_DATA_DIR, else a new temporary one, removed at the end) and a
# free port (PORT, else one the OS picks). Any failed step stops the script with a non-zero exit and
# says which.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CHECKOUT=$(cd "${1:-$ROOT}" && pwd)
cd "$ROOT"
OWN_DATA_DIR=
if [ -z "${CODESYNAPSE_DATA_DIR:-}" ]; then
  CODESYNAPSE_DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/codesynapse-quickstart.XXXXXX")
  OWN_DATA_DIR=1
fi
export CODESYNAPSE_DATA_DIR
export PORT=${PORT:-0}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/codesynapse-quickstart-work.XXXXXX")
SERVER_PID=

step() { printf '\n== %s\n' "$*" >&2; }
fail() { printf 'quickstart failed: %s\n' "$*" >&2; exit 1; }
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  # A data directory this script made goes with it (one you named is yours to keep).
  if [ -n "$OWN_DATA_DIR" ]; then rm -rf "$CODESYNAPSE_DATA_DIR"; fi
}
trap cleanup EXIT

# field JSON PATH: one field of a JSON object (a.b.c); fails when it is missing.
field() {
  node -e '
    let v = JSON.parse(process.argv[1]);
    for (const k of process.argv[2].split(".")) v = v == null ? undefined : v[k];
    if (v === undefined || v === null) { console.error(`no ${process.argv[2]} in: ${process.argv[1]}`); process.exit(1); }
    console.log(typeof v === "object" ? JSON.stringify(v) : String(v));
  ' "$1" "$2"
}

step "start"
npm start >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
BASE=
for _ in $(seq 1 240); do
  BASE=$(grep '"msg":"listening"' "$WORK/server.log" | sed -n 's/.*"url":"\([^"]*\)".*/\1/p' | head -n 1 || true)
  [ -n "$BASE" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; fail "the server exited"; }
  sleep 0.5
done
[ -n "$BASE" ] || { cat "$WORK/server.log" >&2; fail "the server did not start within 120 s"; }
curl -fsS "$BASE/healthz" >/dev/null || fail "GET /healthz"
echo "listening on $BASE" >&2

# With the server running, the admin command goes through it (it holds the data directory).
step "bootstrap (data directory $CODESYNAPSE_DATA_DIR)"
BOOT=$(npx codesynapse admin bootstrap --org Acme --email dev@acme.test --repo webapp --json) || fail "admin bootstrap"
KEY=$(field "$BOOT" api_key)
echo "organisation $(field "$BOOT" org_id), repository webapp, API key ${KEY:0:12}… (shown once)" >&2

# api METHOD PATH [curl args...]: the response body; a non-2xx status fails the step with the body.
api() {
  local method=$1 path=$2 out status
  shift 2
  out=$(curl -sS -o "$WORK/body" -w '%{http_code}' -X "$method" "$BASE$path" -H "Authorization: Bearer $KEY" "$@") || fail "$method $path"
  status=$out
  [ "${status:0:1}" = 2 ] || fail "$method $path answered $status: $(cat "$WORK/body")"
  cat "$WORK/body"
}

step "register a chat thread"
THREAD=quickstart-$(date +%s)-$$
api POST /api/v1/execution/sessions -H 'content-type: application/json' -d "{\"session_id\":\"$THREAD\"}" >/dev/null
H=(-H "X-CodeSynapse-Session: $THREAD" -H "X-CodeSynapse-Parent-Session: $THREAD")
field "$(api GET /api/v1/execution/identity "${H[@]}")" session_id >/dev/null

step "upload a snapshot of $CHECKOUT (committed files only)"
if git -C "$CHECKOUT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$CHECKOUT" archive --format=tar.gz HEAD >"$WORK/snapshot.tar.gz"
else
  tar czf "$WORK/snapshot.tar.gz" --exclude-vcs --exclude-vcs-ignores --exclude=node_modules -C "$CHECKOUT" .
fi
UPLOAD=$(api POST /api/v1/repos/webapp/uploads "${H[@]}" -H 'content-type: application/octet-stream' --data-binary @"$WORK/snapshot.tar.gz")
UPLOAD_ID=$(field "$UPLOAD" upload_id)
echo "uploaded $(field "$UPLOAD" size) bytes as $UPLOAD_ID" >&2

# settle JOB_ID: polls the job until it leaves queued/running; fails unless it succeeded.
settle() {
  local job status
  for _ in $(seq 1 600); do
    job=$(api GET "/api/v1/jobs/$1" "${H[@]}")
    status=$(field "$job" status)
    case "$status" in
      queued | running) sleep 0.5 ;;
      succeeded) echo "$job"; return 0 ;;
      *) fail "job $1 ended $status: $job" ;;
    esac
  done
  fail "job $1 did not finish within 300 s"
}

step "ingest"
INGEST_JOB=$(field "$(api POST /api/v1/repos/webapp/ingest "${H[@]}" -H 'content-type: application/json' -d "{\"upload_id\":\"$UPLOAD_ID\"}")" job_id)
echo "ingested $(field "$(settle "$INGEST_JOB")" result.files) files" >&2

# recalled JOB_ID: polls the succeeded ingest until its follow-up jobs (the embedding batches it
# started) have run and its repository's recall is complete; fails if a follow-up did not succeed.
# Asked before that, an answer ranks part of the code by keywords only (and says so).
recalled() {
  local job recall
  for _ in $(seq 1 600); do
    job=$(api GET "/api/v1/jobs/$1" "${H[@]}")
    recall=$(field "$job" recall)
    node -e '
      const j = JSON.parse(process.argv[1]);
      const bad = j.follow_ups.find((f) => !["queued", "running", "succeeded"].includes(f.status));
      if (bad) { console.error(`follow-up ${bad.kind} ${bad.job_id} ended ${bad.status}`); process.exit(1); }
    ' "$job" || fail "job $1: a follow-up did not succeed: $job"
    [ "$recall" = complete ] && { echo "$job"; return 0; }
    sleep 0.5
  done
  fail "job $1: recall still partial after 300 s"
}

step "embeddings (the ingest's follow-up jobs)"
WAITED=$SECONDS
RECALLED=$(recalled "$INGEST_JOB")
echo "recall complete: $(node -e 'console.log(JSON.parse(process.argv[1]).follow_ups.length)' "$RECALLED") embedding jobs, $((SECONDS - WAITED)) s after the ingest" >&2

step "ask"
AI_JOB=$(field "$(api POST /api/v1/repos/webapp/ai-tasks "${H[@]}" -H 'content-type: application/json' \
  -d '{"task":"question","question":"Where are API keys verified?"}')" job_id)
ASKED=$(settle "$AI_JOB")
ANSWER=$(field "$ASKED" result.answer)
[ -n "$ANSWER" ] || fail "the answer is empty"
[ "$(field "$ASKED" result.recall)" = complete ] || fail "the answer was made with partial recall"
step "result.answer"
echo "$ANSWER"
# The showcase question is answered by the code that verifies a key, not only by the code that makes one.
# (The symbols, file#name: the file core/auth/authenticate.ts alone is not the verifying code.)
grep -Eq '#(checkCredential|authenticate|authenticateFor)\b' <<<"$ANSWER" || fail "the answer does not name the code that verifies an API key (checkCredential, authenticate)"
