#!/usr/bin/env bash
# HEALTHCHECK of the emulator image: asks /__admin/health at the URL `serve` wrote to
# REPORTBO_URL_FILE once it listened, so the check follows the port however it was given
# (`serve --port 9090`, REPORTBO_PORT, PORT, a config file). Exit 0 healthy, 1 not (yet).
# Bash's /dev/tcp rather than node: the check runs every second for the container's life, and
# starting node costs ~50 ms of CPU each time (5% of a core) against ~1 ms here (decision 0063).
set -u
file=${REPORTBO_URL_FILE:-}
if ! url=$(cat -- "$file" 2>/dev/null) || [ -z "$url" ]; then
  echo "healthcheck: no listening URL in ${file:-(REPORTBO_URL_FILE is not set)} yet" >&2
  exit 1
fi
url=${url%%[[:space:]]*}
authority=${url#http://}
authority=${authority%%/*}
port=${authority##*:}
host=${authority%:*}
host=${host#[}
host=${host%]}
if ! { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
  echo "healthcheck: $url/__admin/health: connection refused" >&2
  exit 1
fi
printf 'GET /__admin/health HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
if ! IFS= read -r -t 3 status <&3; then
  echo "healthcheck: $url/__admin/health: no answer within 3 s" >&2
  exit 1
fi
status=${status%$'\r'}
case $status in
  "HTTP/1."?" 200 "*) exit 0 ;;
esac
echo "healthcheck: $url/__admin/health answered ${status#HTTP/1.? }" >&2
exit 1
