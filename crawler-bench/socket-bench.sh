#!/usr/bin/env bash
# Sockets a crawl holds against keep-alive servers (issue 27, item 1): H hosts 127.0.X.Y served by one nginx
# (one listen line per host, loopback only; keep-alive 75 s, nginx's default), each host 10 tiny pages linking to
# each other plus robots.txt; the seeds are every host's "/". It samples `ls /proc/PID/fd | wc -l` of the crawl
# every 0.2 s and prints the peak with the crawl's pages/s:
#
#   crawler-bench/socket-bench.sh [CRAWLER]      CRAWLER: a launcher (crawler-cli/target/crawler by default)
#
# Environment: HOSTS (2000), PORT (19600), THREADS (128), DELAY (1s), WORK (/tmp/sieve-socket-bench), HEAP (512m),
# SET (extra --set arguments, e.g. "--set fetch.max-connections=300"), FD_LIMIT (the crawler's soft descriptor
# limit, ulimit -Sn; default: the shell's). Prints one line
#   SOCKETS hosts=H pages=N wall_s=S pages_per_s=R peak_fds=F exit=E
# nginx is started on its own pid file and stopped by it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
CRAWLER=${1:-crawler-cli/target/crawler}
HOSTS=${HOSTS:-2000}
PORT=${PORT:-19600}
THREADS=${THREADS:-128}
DELAY=${DELAY:-1s}
WORK=${WORK:-/tmp/sieve-socket-bench}
HEAP=${HEAP:-512m}
SET=${SET:-}
FD_LIMIT=${FD_LIMIT:-}
rm -rf "$WORK" && mkdir -p "$WORK/site" "$WORK/logs"
for i in $(seq 0 9); do
    links=""
    for j in $(seq 0 9); do links="$links<a href=\"/p$j.html\">page $j</a> "; done
    echo "<!doctype html><html><head><title>p$i</title></head><body><p>page $i</p>$links</body></html>" \
        > "$WORK/site/p$i.html"
done
cp "$WORK/site/p0.html" "$WORK/site/index.html"
printf 'User-agent: *\nAllow: /\n' > "$WORK/site/robots.txt"
hosts() { local n=0; for a in $(seq 0 255); do for b in $(seq 1 254); do
    [ $n -ge "$HOSTS" ] && return; echo "127.0.$((a + 10)).$b"; n=$((n + 1)); done; done; }
hosts > "$WORK/hosts"
sed "s|.*|http://&:$PORT/|" "$WORK/hosts" > "$WORK/seeds"
{
    echo "worker_processes 1; pid $WORK/nginx.pid; error_log $WORK/logs/error.log; daemon on;"
    echo "events { worker_connections $((HOSTS * 4 + 1024)); }"
    limit=$(ulimit -Hn); want=$((HOSTS * 8 + 4096)); [ "$limit" != unlimited ] && [ "$want" -gt "$limit" ] && want=$limit
    echo "worker_rlimit_nofile $want;"
    echo "http { access_log $WORK/logs/access.log; client_body_temp_path $WORK/logs; proxy_temp_path $WORK/logs;"
    echo " fastcgi_temp_path $WORK/logs; uwsgi_temp_path $WORK/logs; scgi_temp_path $WORK/logs;"
    echo " server { root $WORK/site;"
    sed "s|.*|  listen &:$PORT;|" "$WORK/hosts"
    echo " } }"
} > "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -p "$WORK"
trap 'kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true' EXIT
start=$(date +%s.%N)
( flags="-Xmx$HEAP"
  if [ -n "$FD_LIMIT" ]; then ulimit -Sn "$FD_LIMIT"; flags="$flags -XX:-MaxFDLimit"; fi # else the JVM raises it
  JAVA_OPTS="$flags" exec "$CRAWLER" crawl --seeds "$WORK/seeds" --out "$WORK/out" --threads "$THREADS" \
    --delay "$DELAY" --no-progress -q --set fetch.proxy=direct $SET ) > "$WORK/crawl.log" 2>&1 &
pid=$!
peak=0
sleep 0.5
while kill -0 $pid 2>/dev/null; do
    java=$(pgrep -P $pid java || echo $pid)
    fds=$(ls /proc/"$java"/fd 2>/dev/null | wc -l || echo 0)
    [ "$fds" -gt "$peak" ] && peak=$fds
    sleep 0.2
done
wait $pid && code=0 || code=$?
end=$(date +%s.%N)
pages=$(wc -l < "$WORK/out/pages.jsonl")
wall=$(echo "$end - $start" | bc)
echo "SOCKETS hosts=$HOSTS pages=$pages wall_s=$wall pages_per_s=$(echo "scale=1; $pages / $wall" | bc)" \
    "peak_fds=$peak exit=$code"
