#!/bin/sh
set -eu
BIN=/usr/lib/postgresql/15/bin
DATA=/var/lib/postgresql/data
mkdir -p "$DATA" /var/run/postgresql
chown postgres:postgres "$DATA" /var/run/postgresql
chmod 0700 "$DATA"
if [ ! -s "$DATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pw && chown postgres /tmp/pw
  runuser -u postgres -- "$BIN/initdb" -D "$DATA" -U "$POSTGRES_USER" --pwfile=/tmp/pw \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm /tmp/pw
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$DATA/pg_hba.conf"
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -w -o "-c listen_addresses=" start >/dev/null
  runuser -u postgres -- "$BIN/psql" -U "$POSTGRES_USER" -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -w stop >/dev/null
fi
exec runuser -u postgres -- "$BIN/postgres" -D "$DATA" -c listen_addresses='*'
