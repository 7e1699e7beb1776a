#!/bin/sh
# The image's entrypoint: its first argument picks the process, the rest go to it. Each one is exec'd, so node is
# PID 1 and handles SIGTERM itself (graceful drain, services/shared/src/runtime/lifecycle.ts).
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$root"

usage() {
  cat <<'USAGE'
usage: <command> [arguments]
  gateway                      the HTTP gateway (PORT, PUBLIC_URL, *_ADDRESS)
  content | identity | search | discussion | config
                               one gRPC service (STORE_URL, AMQP_URL, *_GRPC_ADDRESS)
  embedded                     the whole suite in one process (DATA_DIR)
  reindex                      rebuild the search index (SEARCH_ADDRESS)
  events-replay [--count] <group>...
                               replay (or count) dead-lettered events (AMQP_URL)
  migrate [--list | --dry-run]
                               apply the content store's pending data migrations (STORE_URL)
  probe <host:port> [service]  exit 0 when that gRPC server's grpc.health.v1 check is SERVING
  help                         this text
USAGE
}

command=${1:-help}
[ "$#" -gt 0 ] && shift
case "$command" in
  gateway) exec node gateway/dist/main.js "$@" ;;
  content | identity | search | discussion | config) exec node "services/$command/dist/main.js" "$@" ;;
  embedded) exec node services/embedded/dist/main.js "$@" ;;
  reindex) exec node services/search/dist/reindex.js "$@" ;;
  events-replay) exec node services/shared/dist/runtime/replay-dead-letters.js "$@" ;;
  migrate) exec node services/content/dist/migrate.js "$@" ;;
  probe) exec node services/shared/dist/runtime/health-probe.js "$@" ;;
  help | --help | -h) usage ;;
  *)
    echo "unknown command: $command" >&2
    usage >&2
    exit 2
    ;;
esac
