#!/usr/bin/env bash
# FerretDB (MongoDB wire protocol over embedded SQLite) as a throwaway test server.
#
#   scripts/ferretdb.sh build            build/cached binary (Go module proxy only)
#   scripts/ferretdb.sh start [port]     start on 127.0.0.1, print MONGO_URL=... (eval-able)
#   scripts/ferretdb.sh stop             stop it and delete its data dir
#   scripts/ferretdb.sh status           print state, exit 1 when not running
#
# Typical use (CI):
#   scripts/ferretdb.sh build
#   trap 'scripts/ferretdb.sh stop' EXIT
#   eval "$(scripts/ferretdb.sh start)"     # exports MONGO_URL
#
# Environment:
#   PERMAFROST_CACHE           cache root (default ~/.cache/permafrost); binary in $PERMAFROST_CACHE/bin
#   FERRETDB_BIN               explicit binary path (overrides the cache path)
#   PERMAFROST_FERRETDB_STATE  state file (default ${TMPDIR:-/tmp}/permafrost-ferretdb.env)
#   FERRETDB_START_TIMEOUT     seconds to wait for the listener (default 30)
#   FERRETDB_LOG_LEVEL         debug|info|warn|error (default warn; warn logs every error reply)
set -euo pipefail

FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_VERSION=v1.24.2
CACHE_DIR="${PERMAFROST_CACHE:-$HOME/.cache/permafrost}"
BIN="${FERRETDB_BIN:-$CACHE_DIR/bin/ferretdb-${FERRETDB_VERSION#v}}"
STATE_FILE="${PERMAFROST_FERRETDB_STATE:-${TMPDIR:-/tmp}/permafrost-ferretdb.env}"
START_TIMEOUT="${FERRETDB_START_TIMEOUT:-30}"

log() { printf 'ferretdb.sh: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

binary_ok() {
  [[ -x "$BIN" ]] || return 1
  local out
  out="$("$BIN" --version 2>/dev/null)" || return 1
  [[ "$out" == *"version: ${FERRETDB_VERSION}"* ]]
}

cmd_build() {
  if binary_ok; then
    log "cached: $BIN"
    return 0
  fi
  command -v go >/dev/null 2>&1 || die "go toolchain not found (need Go >= 1.24)"

  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/permafrost-ferretdb-build.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$work' '$BIN.tmp.$$'" EXIT

  # Fetch the module source through the module proxy (GOPROXY); cd away from any go.mod/go.work.
  local moddir
  moddir="$(cd "$work" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "${FERRETDB_MODULE}@${FERRETDB_VERSION}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$moddir" && -d "$moddir" ]] || die "go mod download did not report a source dir"

  # The module zip ships without build/version/version.txt (it is generated from `git describe`
  # by `task gen-version`) and the binary panics at init without it. Build from a writable copy
  # that has the file; everything else is byte-for-byte the released module.
  cp -R "$moddir/." "$work/src"
  chmod -R u+w "$work/src"
  printf '%s\n' "$FERRETDB_VERSION" >"$work/src/build/version/version.txt"
  printf '%s\n' "permafrost-source" >"$work/src/build/version/package.txt"

  mkdir -p "$(dirname "$BIN")"
  local tmp_bin="$BIN.tmp.$$"
  log "building ${FERRETDB_MODULE}@${FERRETDB_VERSION} -> $BIN (cold build takes minutes)"
  (
    cd "$work/src"
    GOWORK=off GOFLAGS=-mod=readonly CGO_ENABLED=0 \
      go build -trimpath -buildvcs=false -ldflags="-s -w" -o "$tmp_bin" ./cmd/ferretdb
  )
  mv -f "$tmp_bin" "$BIN"
  binary_ok || die "built binary fails '--version': $("$BIN" --version 2>&1 | head -3)"
  log "built: $BIN"
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});"
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

read_state() {
  [[ -f "$STATE_FILE" ]] || return 1
  # shellcheck disable=SC1090
  source "$STATE_FILE"
}

pid_is_ferretdb() {
  local pid="$1"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--handler=sqlite'
}

cmd_start() {
  local want_port="${1:-}"
  if read_state && pid_is_ferretdb "${FERRETDB_PID:-}"; then
    die "already running (pid $FERRETDB_PID, $MONGO_URL); run '$0 stop' first"
  fi
  binary_ok || die "no working binary at $BIN; run '$0 build' first"

  local run_dir attempt port pid url up=0 deadline
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/permafrost-ferretdb-run.XXXXXX")"
  mkdir -p "$run_dir/data"
  local logfile="$run_dir/ferretdb.log"

  for attempt in 1 2 3; do
    port="${want_port:-$(free_port)}"
    if port_open "$port"; then
      # Someone else answers there: the readiness poll below would be fooled.
      [[ -n "$want_port" ]] && {
        rm -rf "$run_dir"
        die "port $port is already in use"
      }
      continue
    fi
    # --telemetry=disable + DO_NOT_TRACK: no beacon request; --debug-addr=-: no HTTP debug listener
    # (default would bind 127.0.0.1:8088); --state-dir: keep state.json out of the cwd.
    DO_NOT_TRACK=1 nohup "$BIN" \
      --handler=sqlite \
      --sqlite-url="file:$run_dir/data/" \
      --listen-addr="127.0.0.1:$port" \
      --state-dir="$run_dir" \
      --debug-addr=- \
      --telemetry=disable \
      --log-level="${FERRETDB_LOG_LEVEL:-warn}" \
      >>"$logfile" 2>&1 </dev/null &
    pid=$!

    deadline=$((SECONDS + START_TIMEOUT))
    while ((SECONDS < deadline)); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      if port_open "$port" && sleep 0.2 && kill -0 "$pid" 2>/dev/null; then
        up=1
        break
      fi
      sleep 0.1
    done
    if ((up)); then break; fi
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      rm -rf "$run_dir"
      die "not accepting connections on 127.0.0.1:$port after ${START_TIMEOUT}s"
    fi
    wait "$pid" 2>/dev/null || true
    # Port picked by us may have been taken in between: retry with another one.
    if [[ -z "$want_port" ]] && grep -q 'address already in use' "$logfile"; then
      log "port $port taken, retrying ($attempt)"
      continue
    fi
    log "ferretdb exited early; log follows"
    tail -n 30 "$logfile" >&2 || true
    rm -rf "$run_dir"
    exit 1
  done
  ((up)) || {
    rm -rf "$run_dir"
    die "could not start"
  }

  url="mongodb://127.0.0.1:$port/"
  {
    printf 'FERRETDB_PID=%q\n' "$pid"
    printf 'FERRETDB_RUN_DIR=%q\n' "$run_dir"
    printf 'FERRETDB_LOG=%q\n' "$logfile"
    printf 'MONGO_URL=%q\n' "$url"
  } >"$STATE_FILE"
  log "pid $pid, log $logfile, state $STATE_FILE"
  printf 'MONGO_URL=%s\nexport MONGO_URL\n' "$url"
}

cmd_stop() {
  if ! read_state; then
    log "not running (no $STATE_FILE)"
    return 0
  fi
  local pid="${FERRETDB_PID:-}"
  if pid_is_ferretdb "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "pid $pid ignored SIGTERM for 10s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  case "${FERRETDB_RUN_DIR:-}" in
    */permafrost-ferretdb-run.*) rm -rf "$FERRETDB_RUN_DIR" ;;
    *) ;;
  esac
  rm -f "$STATE_FILE"
  log "stopped"
}

cmd_status() {
  if read_state && pid_is_ferretdb "${FERRETDB_PID:-}"; then
    printf 'running pid=%s url=%s log=%s\n' "$FERRETDB_PID" "$MONGO_URL" "$FERRETDB_LOG"
  else
    printf 'not running\n'
    return 1
  fi
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start "${2:-}" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    printf 'usage: %s build | start [port] | stop | status\n' "$0" >&2
    exit 2
    ;;
esac
