#!/usr/bin/env bash
# Which JVM flags a crawl should run with: serves a Debian doc package with nginx on 127.0.0.1 (two ports, the same
# files) and, for each flag set, alternating, ROUNDS times:
#   cold       one crawl of the package by the launcher (crawler-cli/target/crawler, class-data archive included)
#              in a fresh JVM: wall and CPU seconds of the process;
#   sustained  CRAWLS crawls (default 6) of the package in one JVM (CrawlBench, the first crawl on the second port):
#              each crawl's seconds and the process's CPU seconds over all of them, as a long crawl pays them.
# Flag sets: FLAGS_1, FLAGS_2, ... (default: the JVM's defaults; the launcher's flags; C1 only with the serial
# collector; the launcher's inlining limits without the serial collector).
#
#   crawler-bench/jvm-flags.sh [PACKAGE_FOLDER]          # default /usr/share/doc/rust-doc/html
#
# Environment: ROUNDS (2), CRAWLS (6), THREADS (32), CONNECTIONS (16), PORT (19400), WORK (/tmp/sieve-jvm-flags),
# JAVA (java). Needs the jars (mvn -q -DskipTests package; built if missing) and nginx (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${1:-/usr/share/doc/rust-doc/html}
ROUNDS=${ROUNDS:-2}
CRAWLS=${CRAWLS:-6}
THREADS=${THREADS:-32}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-19400}
WORK=${WORK:-/tmp/sieve-jvm-flags}
JAVA=${JAVA:-java}
JAR=crawler-bench/target/benchmarks.jar
LAUNCHER=crawler-cli/target/crawler

FLAG_SETS=()
for i in 1 2 3 4 5 6 7 8 9; do
  var=FLAGS_$i
  [ -n "${!var:-}" ] && FLAG_SETS+=("${!var}")
done
if [ ${#FLAG_SETS[@]} -eq 0 ]; then
  FLAG_SETS=("-XX:+UseG1GC" "-XX:+UseSerialGC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000"
    "-XX:+UseSerialGC -XX:TieredStopAtLevel=1" "-XX:+UseG1GC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000")
fi

[ -f "$JAR" ] && [ -x "$LAUNCHER" ] || mvn -q -B -DskipTests package
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -d "$ROOT" ] || { echo "no such folder: $ROOT (apt-get install rust-doc?)" >&2; exit 2; }
rm -rf "$WORK" && mkdir -p "$WORK/logs"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  include /etc/nginx/mime.types;
  server { listen 127.0.0.1:$PORT; root $ROOT; }
  server { listen 127.0.0.1:$((PORT + 1)); root $ROOT; }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
trap '"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" -s stop 2>/dev/null || true' EXIT
sleep 0.5
cat > "$WORK/profile.yaml" <<YAML
name: jvm-flags
limits:
  max-pages-per-host: 0
fetch:
  threads: $THREADS
politeness:
  delay: 0
  max-connections-per-host: $CONNECTIONS
sieve:
  expected-urls: 2000000
checkpoint:
  interval: 0
YAML
SEED="http://127.0.0.1:$PORT/index.html"
OTHER="http://127.0.0.1:$((PORT + 1))/index.html"
find "$ROOT" -type f -name '*.html' -exec cat {} + > /dev/null # the files in the page cache

echo "jvm-flags: $("$JAVA" -version 2>&1 | head -1); $ROOT; $THREADS threads, $CONNECTIONS connections; load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for flags in "${FLAG_SETS[@]}"; do
    rm -rf "$WORK/out"*
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" env CRAWLER_JVM_FLAGS="$flags" JAVA_HOME="${JAVA_HOME:-}" \
      "$LAUNCHER" crawl "$SEED" --profile "$WORK/profile.yaml" --out "$WORK/out" -q > /dev/null 2>&1
    read -r wall user sys rss < "$WORK/time"
    pages=$(wc -l < "$WORK/out/pages.jsonl")
    printf 'RESULT round=%d mode=cold flags="%s" pages=%d wall_s=%s cpu_s=%.2f rss_mb=%d\n' "$round" "$flags" \
      "$pages" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024))
    rm -rf "$WORK/out"*
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$JAVA" $flags -Dwarmups=$((CRAWLS - 1)) -cp "$JAR" \
      org.sievecrawler.bench.CrawlBench "$SEED" "$WORK/out" "$THREADS" "$CONNECTIONS" "$OTHER" \
      > "$WORK/crawls.log" 2>&1
    read -r wall user sys rss < "$WORK/time"
    seconds=$(grep RESULT "$WORK/crawls.log" | sed -E 's/.*seconds=([0-9.]+).*/\1/' | paste -sd' ')
    printf 'RESULT round=%d mode=sustained flags="%s" crawls=%d crawl_s="%s" wall_s=%s cpu_s=%.2f rss_mb=%d\n' \
      "$round" "$flags" "$CRAWLS" "$seconds" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024))
  done
done
