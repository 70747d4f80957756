# shellcheck shell=bash
# Source from .ci/run (bash, set -euo pipefail) to get a throwaway FerretDB (on a throwaway
# PostgreSQL 15 cluster; FERRETDB_HANDLER=sqlite for the embedded SQLite backend) and MONGO_URL:
#
#   source .ci/mongo-env.sh      # builds (cached) + starts FerretDB, exports MONGO_URL,
#                                # installs an EXIT trap that stops it and deletes its data
#   pnpm exec vitest run ...
#
# The binary is cached in ${PERMAFROST_CACHE:-$HOME/.cache/permafrost}/bin (outside the clone):
# first build on a fresh machine ~1 min of `go build` on 2 cores, later runs ~0 s.
# Needs `go` (>= 1.24) and `node` on PATH. Set PERMAFROST_SKIP_MONGO=1 to skip (MONGO_URL left as is).

if [[ "${PERMAFROST_SKIP_MONGO:-}" != "1" ]]; then
  _pf_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  # Per-run state file, so concurrent runs on one machine do not stop each other's server.
  export PERMAFROST_FERRETDB_STATE="${PERMAFROST_FERRETDB_STATE:-${TMPDIR:-/tmp}/permafrost-ferretdb.$$.env}"
  "$_pf_root/scripts/ferretdb.sh" build
  # Assignment first: `eval "$(cmd)"` would swallow a failing start.
  _pf_env="$("$_pf_root/scripts/ferretdb.sh" start)"
  # shellcheck disable=SC2064
  trap "'$_pf_root/scripts/ferretdb.sh' stop" EXIT
  eval "$_pf_env"
  unset _pf_env
  echo "mongo-env: MONGO_URL=$MONGO_URL (FerretDB v1.24.2, ${FERRETDB_HANDLER:-postgresql})"
fi
