#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: made in a temporary folder, listening on
# 127.0.0.1 at a free port (and a unix socket in that folder), with one database and a user with
# a random password; stopped and removed afterwards. As root (the tests run as root, and
# PostgreSQL refuses to), the cluster is made and run as the unprivileged user `nobody`
# (POSTGRES_CLUSTER_USER to choose another).
#
#   .ci/postgres-cluster.sh start DIR   makes and starts a cluster in DIR (new or empty); prints its URL
#   .ci/postgres-cluster.sh url DIR     prints the URL of the cluster in DIR
#   .ci/postgres-cluster.sh stop DIR    stops the cluster in DIR and removes DIR
#   .ci/postgres-cluster.sh run CMD...  starts one in a temporary folder, runs CMD with its URL in
#                                       CHECKOUT_TEST_POSTGRES_URL, then stops and removes it (also
#                                       when CMD fails or is interrupted); exits with CMD's status
#
# Where PostgreSQL is not installed, `run` says so and runs CMD without the variable (the tests
# that need a database then print a skip), unless CI is set: in CI that is a failure.
# The cluster trades durability for speed (fsync off): it lives for one test run.
set -euo pipefail

marker=.checkout-postgres-cluster
database=checkout_test
role=checkout

# The folder holding initdb and pg_ctl: POSTGRES_BIN, then PATH, then Debian's and Homebrew's.
postgres_bindir() {
  local candidates=()
  if [ -n "${POSTGRES_BIN:-}" ]; then candidates+=("$POSTGRES_BIN"); fi
  if command -v initdb >/dev/null 2>&1; then candidates+=("$(dirname "$(command -v initdb)")"); fi
  local versioned
  for versioned in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do candidates+=("$versioned"); done
  if command -v brew >/dev/null 2>&1; then candidates+=("$(brew --prefix postgresql@16 2>/dev/null)/bin"); fi
  local dir
  for dir in ${candidates[@]+"${candidates[@]}"}; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

# Runs a command as the cluster's owner: ourselves, or an unprivileged user when we are root.
as_owner() {
  if [ "$(id -u)" -ne 0 ]; then "$@"; return; fi
  local user=${POSTGRES_CLUSTER_USER:-nobody}
  if command -v runuser >/dev/null 2>&1; then
    runuser -u "$user" -- "$@"
  else
    su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local dir=$1 bindir
  if ! bindir=$(postgres_bindir); then
    echo "postgres-cluster: PostgreSQL is not installed (initdb, pg_ctl not found): apt-get install postgresql, or brew install postgresql@16" >&2
    return 3
  fi
  mkdir -p "$dir"
  if [ -n "$(ls -A "$dir")" ]; then echo "postgres-cluster: $dir is not empty" >&2; return 2; fi
  touch "$dir/$marker"
  mkdir -p "$dir/socket"
  local password
  password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" >"$dir/password"
  chmod 600 "$dir/password"
  if [ "$(id -u)" -eq 0 ]; then chown -R "${POSTGRES_CLUSTER_USER:-nobody}" "$dir"; fi
  if ! as_owner test -r "$dir/password"; then
    echo "postgres-cluster: ${POSTGRES_CLUSTER_USER:-nobody} cannot reach $dir (a folder above it is private): choose a folder under /tmp" >&2
    return 1
  fi
  if ! as_owner "$bindir/initdb" -D "$dir/data" -U "$role" --pwfile="$dir/password" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1; then
    echo "postgres-cluster: initdb failed:" >&2
    cat "$dir/initdb.log" >&2
    return 1
  fi
  local port attempt started=false
  for attempt in 1 2 3; do
    port=$(free_port)
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null; then
      started=true
      break
    fi
  done
  if ! $started; then
    echo "postgres-cluster: the server did not start:" >&2
    tail -20 "$dir/server.log" >&2
    return 1
  fi
  echo "$port" >"$dir/port"
  local psql="$bindir/psql"
  [ -x "$psql" ] || psql=$(command -v psql) || { echo "postgres-cluster: psql not found" >&2; return 1; }
  if ! as_owner "$psql" -X -q -h "$dir/socket" -p "$port" -U "$role" -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE $database" >/dev/null; then
    echo "postgres-cluster: could not create the database $database" >&2
    return 1
  fi
  local url="postgres://$role:$password@127.0.0.1:$port/$database?sslmode=disable"
  printf '%s\n' "$url" >"$dir/url"
  echo "$url"
}

url() {
  cat "$1/url"
}

stop() {
  local dir=$1 bindir
  [ -d "$dir" ] || return 0
  if ! [ -e "$dir/$marker" ]; then
    echo "postgres-cluster: $dir was not made by this script; not removing it" >&2
    return 2
  fi
  if [ -f "$dir/data/postmaster.pid" ] && bindir=$(postgres_bindir); then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

run() {
  local status=0 url
  cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/checkout-postgres.XXXXXX")
  local dir=$cluster_dir
  # Removed however the command ends (its own failure, Ctrl-C, a kill).
  trap 'stop "$cluster_dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  if url=$(start "$dir"); then
    echo "postgres-cluster: a throw-away PostgreSQL at $(printf '%s' "$url" | sed -E 's#(//[^:/@]*):[^@]*@#\1:***@#') for the tests" >&2
    CHECKOUT_TEST_POSTGRES_URL=$url "$@" || status=$?
  else
    status=$?
    if [ "$status" -eq 3 ] && [ -z "${CI:-}" ]; then
      echo "postgres-cluster: the PostgreSQL store tests skip without a database" >&2
      status=0
      "$@" || status=$?
    else
      echo "postgres-cluster: no PostgreSQL for the tests (CI needs one)" >&2
      status=1
    fi
  fi
  return "$status"
}

command=${1:-}
case "$command" in
  start | url | stop)
    [ $# -eq 2 ] || { echo "usage: $0 $command DIR" >&2; exit 64; }
    "$command" "$2"
    ;;
  run)
    shift
    [ $# -ge 1 ] || { echo "usage: $0 run COMMAND..." >&2; exit 64; }
    run "$@"
    ;;
  *)
    echo "usage: $0 start DIR | url DIR | stop DIR | run COMMAND..." >&2
    exit 64
    ;;
esac
