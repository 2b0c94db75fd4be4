#!/usr/bin/env bash
# The crawl benchmark: generates a static site of SECTIONS x PAGES documentation-like pages (default 100 x 100,
# median ~12 KB, ~110 links each, one page in 200 over 1 MB), serves it with nginx on 127.0.0.1 (installed
# with apt-get if missing), crawls it with 16 fetcher threads, 16 connections and no delay, and prints
# pages/s, MB/s, CPU per page, the crawler's peak RSS, and duplicate fetches counted from nginx's access log.
# The crawler first crawls the same site on a second port WARMUPS times (default 2; the first is "cold": a fresh
# JVM), then, in the same JVM, the measured crawl ("warm": the JIT has compiled the hot paths); each port has its
# own access log. nginx's CPU per request counts the requests of both ports.
# With --warc, what WARC output costs: the warm-up crawls write WARCs (gzip, zstd, ...), then WARC_ROUNDS rounds
# (default 2) of three warm crawls alternate without WARC output, with gzip and with zstd, and the last two lines
# give, for gzip and zstd, the median pages/s and CPU per page against the crawls without, and their ratio.
#
#   crawler-bench/crawl-bench.sh [--warc] [SECTIONS] [PAGES] [THREADS] [CONNECTIONS]
#
# Needs the jars: mvn -q -DskipTests package (run from the repository root; the script does it if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
WARC=""
if [ "${1:-}" = "--warc" ]; then
  WARC="--warc"
  shift
fi
MEASURED=$([ -n "$WARC" ] && echo $((3 * ${WARC_ROUNDS:-2})) || echo 1) # crawls of the measured port: each fetches every URL once
SECTIONS=${1:-100}
PAGES=${2:-100}
THREADS=${3:-16}
CONNECTIONS=${4:-16}
PORT=${PORT:-18080}
WORK=${WORK:-/tmp/sieve-crawl-bench}
JAR=crawler-bench/target/benchmarks.jar

[ -f "$JAR" ] || mvn -q -B -DskipTests package
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx with apt-get" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

rm -rf "$WORK" && mkdir -p "$WORK/site" "$WORK/logs" "$WORK/out"
java -cp "$JAR" org.sievecrawler.bench.StaticSite "$WORK/site" "$SECTIONS" "$PAGES" "http://127.0.0.1:$PORT"

cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log $WORK/logs/access.log;
  sendfile on;
  keepalive_requests 100000;
  types { text/html html; text/plain txt; }
  server {
    listen 127.0.0.1:$PORT;
    root $WORK/site;
  }
  server {
    listen 127.0.0.1:$((PORT + 1));
    root $WORK/site;
    access_log $WORK/logs/warmup.log;
  }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
trap '"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" -s stop 2>/dev/null || true' EXIT
sleep 0.5

nginx_cpu() { # clock ticks of nginx's worker process
  awk '{print $14 + $15}' "/proc/$(pgrep -f 'nginx: worker' | head -1)/stat"
}
NGINX_BEFORE=$(nginx_cpu)
java -Xmx1g -Dwarmups="${WARMUPS:-2}" -DwarcRounds="${WARC_ROUNDS:-2}" -cp "$JAR" org.sievecrawler.bench.CrawlBench $WARC "http://127.0.0.1:$PORT/index.html" "$WORK/out" \
  "$THREADS" "$CONNECTIONS" "http://127.0.0.1:$((PORT + 1))/index.html" 2>&1 | grep -E "RESULT|WARN|ERROR" || true
NGINX_TICKS=$(( $(nginx_cpu) - NGINX_BEFORE ))

REQUESTS=$(wc -l < "$WORK/logs/access.log")
DUPLICATES=$(awk '{print $7}' "$WORK/logs/access.log" | sort | uniq -c | awk -v n="$MEASURED" '$1 > n' | wc -l)
ALL_REQUESTS=$(cat "$WORK/logs/access.log" "$WORK/logs/warmup.log" | wc -l)
echo "nginx (measured crawls: $MEASURED): $REQUESTS requests, $DUPLICATES URLs fetched more than once per crawl, CPU $(awk -v t="$NGINX_TICKS" -v r="$ALL_REQUESTS" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.3f ms per request", 1000 * t / hz / r}')"
if [ "$DUPLICATES" -gt 0 ]; then
  awk '{print $7}' "$WORK/logs/access.log" | sort | uniq -c | sort -rn | head -5
fi
for records in "$WORK"/out*/pages.jsonl; do
  echo "records: $(wc -l < "$records") in $records"
done
