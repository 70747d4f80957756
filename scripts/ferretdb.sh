#!/usr/bin/env bash
# FerretDB (MongoDB wire protocol) as a throwaway test server, on a throwaway PostgreSQL 15
# cluster (default, the backend FerretDB recommends) or on its embedded SQLite backend.
#
#   scripts/ferretdb.sh build            build/cached binary (Go module proxy only)
#   scripts/ferretdb.sh start [port]     start on 127.0.0.1, print MONGO_URL=... (eval-able)
#   scripts/ferretdb.sh stop             stop it and delete its data dir
#   scripts/ferretdb.sh status           print state, exit 1 when not running
#   scripts/ferretdb.sh pg-indexes on|off  add/drop the GIN indexes of ferretdb-pg-indexes.sql
#                                        on the running PostgreSQL cluster (trigger + backfill)
#   scripts/ferretdb.sh psql [args]      psql on the running PostgreSQL cluster (EXPLAIN etc.)
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
#   FERRETDB_HANDLER           postgresql (default) | sqlite
#   FERRETDB_PG_TUNING         on (default) | off: on PostgreSQL, install scripts/ferretdb-pg-indexes.sql
#                              (GIN indexes that serve FerretDB's pushed-down filters) before FerretDB
#                              starts, and run FerretDB's connections with plan_cache_mode=force_custom_plan
#   FERRETDB_PG_POOL           FerretDB's PostgreSQL pool size (pool_max_conns, default 50)
#   PG_BIN                     PostgreSQL binaries (default /usr/lib/postgresql/15/bin)
#   PG_USER                    system user that runs PostgreSQL when this script runs as root
#                              (default: postgres if it exists, else a system user permafrost-pg is created)
set -euo pipefail

FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_VERSION=v1.24.2
CACHE_DIR="${PERMAFROST_CACHE:-$HOME/.cache/permafrost}"
BIN="${FERRETDB_BIN:-$CACHE_DIR/bin/ferretdb-${FERRETDB_VERSION#v}}"
STATE_FILE="${PERMAFROST_FERRETDB_STATE:-${TMPDIR:-/tmp}/permafrost-ferretdb.env}"
START_TIMEOUT="${FERRETDB_START_TIMEOUT:-30}"
HANDLER="${FERRETDB_HANDLER:-postgresql}"
PG_TUNING="${FERRETDB_PG_TUNING:-on}"
PG_INDEXES_SQL="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ferretdb-pg-indexes.sql"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

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
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--handler='
}

# PostgreSQL refuses to run as root: as root, run it as PG_USER (created when missing).
pg_user() {
  if [[ "$(id -u)" != "0" ]]; then
    id -un
    return 0
  fi
  local user="${PG_USER:-}"
  if [[ -z "$user" ]]; then
    if id postgres >/dev/null 2>&1; then user=postgres; else user=permafrost-pg; fi
  fi
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$user" >&2 ||
      die "could not create system user $user for PostgreSQL"
  fi
  printf '%s\n' "$user"
}

as_pg() {
  local user="$1"
  shift
  if [[ "$(id -u)" == "0" ]]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

# Starts a throwaway cluster in $1/pg (socket in $1/pg, TCP on 127.0.0.1:<free port>) and prints
# its port. Durability is off (fsync, synchronous_commit): the cluster is deleted afterwards.
pg_start() {
  local run_dir="$1" user="$2" port attempt
  [[ -x "$PG_BIN/initdb" && -x "$PG_BIN/pg_ctl" ]] || die "PostgreSQL binaries not found in $PG_BIN (set PG_BIN)"
  mkdir -p "$run_dir/pg"
  chmod 755 "$run_dir"
  [[ "$(id -u)" == "0" ]] && chown "$user" "$run_dir/pg"
  as_pg "$user" "$PG_BIN/initdb" -D "$run_dir/pg/data" -U ferretdb --auth=trust -E UTF8 --locale=C \
    --no-sync >>"$run_dir/postgres.log" 2>&1 || {
    tail -n 20 "$run_dir/postgres.log" >&2
    die "initdb failed"
  }
  for attempt in 1 2 3; do
    port="$(free_port)"
    if as_pg "$user" "$PG_BIN/pg_ctl" -D "$run_dir/pg/data" -l "$run_dir/pg/server.log" -w -t "$START_TIMEOUT" \
      -o "-p $port -k $run_dir/pg -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >>"$run_dir/postgres.log" 2>&1; then
      as_pg "$user" "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U ferretdb ferretdb >>"$run_dir/postgres.log" 2>&1 ||
        die "createdb failed (log: $run_dir/postgres.log)"
      printf '%s\n' "$port"
      return 0
    fi
    log "postgres did not start on port $port (attempt $attempt)"
  done
  tail -n 20 "$run_dir/pg/server.log" >&2 || true
  die "PostgreSQL did not start (log: $run_dir/pg/server.log)"
}

pg_stop() {
  local run_dir="$1" user="$2"
  [[ -n "$run_dir" && -f "$run_dir/pg/data/postmaster.pid" ]] || return 0
  as_pg "$user" "$PG_BIN/pg_ctl" -D "$run_dir/pg/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
    log "pg_ctl stop failed for $run_dir/pg/data"
}

cmd_start() {
  local want_port="${1:-}"
  if read_state && pid_is_ferretdb "${FERRETDB_PID:-}"; then
    die "already running (pid $FERRETDB_PID, $MONGO_URL); run '$0 stop' first"
  fi
  binary_ok || die "no working binary at $BIN; run '$0 build' first"
  [[ "$PG_TUNING" == on || "$PG_TUNING" == off ]] || die "FERRETDB_PG_TUNING must be on or off, not $PG_TUNING"

  local run_dir attempt port pid url up=0 deadline backend_args pg_port="" pguser=""
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/permafrost-ferretdb-run.XXXXXX")"
  local logfile="$run_dir/ferretdb.log"
  case "$HANDLER" in
    sqlite)
      mkdir -p "$run_dir/data"
      backend_args=(--handler=sqlite --sqlite-url="file:$run_dir/data/")
      ;;
    postgresql)
      pguser="$(pg_user)"
      pg_port="$(pg_start "$run_dir" "$pguser")" || {
        pg_stop "$run_dir" "$pguser"
        rm -rf "$run_dir"
        exit 1
      }
      local pg_url="postgres://ferretdb@127.0.0.1:$pg_port/ferretdb?pool_max_conns=${FERRETDB_PG_POOL:-50}"
      case "$PG_TUNING" in
        on)
          pg_indexes "$run_dir" "$pguser" "$pg_port" on >/dev/null || {
            pg_stop "$run_dir" "$pguser"
            rm -rf "$run_dir"
            die "could not install $PG_INDEXES_SQL"
          }
          pg_url+="&plan_cache_mode=force_custom_plan"
          ;;
        *) ;;
      esac
      backend_args=(--handler=postgresql --postgresql-url="$pg_url")
      ;;
    *) die "FERRETDB_HANDLER must be postgresql or sqlite, not $HANDLER" ;;
  esac
  # Started state is written before FerretDB, so a failed start still stops the cluster.
  fail_start() {
    pg_stop "$run_dir" "$pguser"
    rm -rf "$run_dir"
  }

  for attempt in 1 2 3; do
    port="${want_port:-$(free_port)}"
    if port_open "$port"; then
      # Someone else answers there: the readiness poll below would be fooled.
      [[ -n "$want_port" ]] && {
        fail_start
        die "port $port is already in use"
      }
      continue
    fi
    # --telemetry=disable + DO_NOT_TRACK: no beacon request; --debug-addr=-: no HTTP debug listener
    # (default would bind 127.0.0.1:8088); --state-dir: keep state.json out of the cwd.
    DO_NOT_TRACK=1 nohup "$BIN" \
      "${backend_args[@]}" \
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
      fail_start
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
    fail_start
    exit 1
  done
  ((up)) || {
    fail_start
    die "could not start"
  }

  url="mongodb://127.0.0.1:$port/"
  {
    printf 'FERRETDB_PID=%q\n' "$pid"
    printf 'FERRETDB_RUN_DIR=%q\n' "$run_dir"
    printf 'FERRETDB_LOG=%q\n' "$logfile"
    printf 'FERRETDB_HANDLER=%q\n' "$HANDLER"
    printf 'PG_USER=%q\n' "$pguser"
    printf 'PG_PORT=%q\n' "$pg_port"
    printf 'PG_TUNING=%q\n' "$PG_TUNING"
    printf 'MONGO_URL=%q\n' "$url"
  } >"$STATE_FILE"
  log "pid $pid ($HANDLER${pg_port:+, PostgreSQL on 127.0.0.1:$pg_port}), log $logfile, state $STATE_FILE"
  printf 'MONGO_URL=%s\nexport MONGO_URL\n' "$url"
}

# psql on the throwaway cluster: $1 run dir, $2 PostgreSQL user, $3 port, rest: psql arguments.
pg_psql() {
  local run_dir="$1" user="$2" port="$3"
  shift 3
  as_pg "$user" "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$port" -U ferretdb -d ferretdb -v ON_ERROR_STOP=1 "$@"
}

# Installs (on) or removes (off) the GIN indexes of ferretdb-pg-indexes.sql; prints the count.
pg_indexes() {
  local run_dir="$1" user="$2" port="$3" mode="$4"
  [[ -r "$PG_INDEXES_SQL" ]] || die "missing $PG_INDEXES_SQL"
  # psql runs as the PostgreSQL user, which may not read this checkout: feed the file on stdin.
  pg_psql "$run_dir" "$user" "$port" <"$PG_INDEXES_SQL" >>"$run_dir/postgres.log" 2>&1 || return 1
  case "$mode" in
    on) pg_psql "$run_dir" "$user" "$port" -At -c 'SET client_min_messages = warning' -c 'SELECT public.permafrost_pg_indexes_on()' ;;
    off) pg_psql "$run_dir" "$user" "$port" -At -c 'SET client_min_messages = warning' -c 'SELECT public.permafrost_pg_indexes_off()' ;;
    *) die "pg-indexes takes on or off" ;;
  esac
}

running_pg() {
  read_state && pid_is_ferretdb "${FERRETDB_PID:-}" || die "not running"
  [[ "${FERRETDB_HANDLER:-}" == "postgresql" && -n "${PG_PORT:-}" ]] || die "not running on PostgreSQL"
}

cmd_pg_indexes() {
  running_pg
  local n
  n="$(pg_indexes "$FERRETDB_RUN_DIR" "${PG_USER:-}" "$PG_PORT" "${1:-}")" || die "pg-indexes ${1:-} failed (log: $FERRETDB_RUN_DIR/postgres.log)"
  case "$1" in
    on) log "pg-indexes on: event trigger installed, $n indexed fields covered by GIN indexes" ;;
    *) log "pg-indexes off: event trigger and $n GIN indexes dropped" ;;
  esac
}

cmd_psql() {
  running_pg
  pg_psql "$FERRETDB_RUN_DIR" "${PG_USER:-}" "$PG_PORT" "$@"
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
    */permafrost-ferretdb-run.*)
      [[ "${FERRETDB_HANDLER:-}" == "postgresql" ]] && pg_stop "$FERRETDB_RUN_DIR" "${PG_USER:-}"
      rm -rf "$FERRETDB_RUN_DIR"
      ;;
    *) ;;
  esac
  rm -f "$STATE_FILE"
  log "stopped"
}

cmd_status() {
  if read_state && pid_is_ferretdb "${FERRETDB_PID:-}"; then
    printf 'running pid=%s handler=%s url=%s log=%s\n' "$FERRETDB_PID" "${FERRETDB_HANDLER:-sqlite}" "$MONGO_URL" "$FERRETDB_LOG"
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
  pg-indexes) cmd_pg_indexes "${2:-}" ;;
  psql)
    shift
    cmd_psql "$@"
    ;;
  *)
    printf 'usage: %s build | start [port] | stop | status | pg-indexes on|off | psql [args]\n' "$0" >&2
    exit 2
    ;;
esac
