#!/usr/bin/env bash
# The series benchmark: venues' archives pushed at once into a PostgreSQL
# cluster of its own (made in a temporary folder, removed after), then the
# season over it. Prints the push rate, a push's peak memory, the season's
# time and what was lost. Arguments go to `aufsicht-lab bench-series`
# (default: 60 venues of 40 sheets).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q -p aufsicht -p aufsicht-lab
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d)
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$work"
  as_owner=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
stop() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
"${as_owner[@]}" "$bin/initdb" -D "$work/data" --auth=trust -U postgres -E UTF8 --locale=C >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$work/data" -l "$work/log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
venues="$work/venues"
mkdir -p "$venues"
target/release/aufsicht-lab bench-series --to "postgres://postgres@127.0.0.1:$port/postgres" \
  --work "$venues" --aufsicht target/release/aufsicht "$@"
