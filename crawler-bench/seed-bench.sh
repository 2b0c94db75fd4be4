#!/usr/bin/env bash
# A seed file of millions (issue 27, item 4): SEEDS lines http://127.A.B.C:PORT/ (as many distinct hosts), every one
# answered by one nginx that runs with the crawler in a network namespace of their own (unshare -n: its only
# interface is its loopback, so nginx listens on the wildcard address and serves loopback alone, all of
# 127.0.0.0/8). Measures, with the launcher as a user runs it (-Xmx$HEAP):
#   first_fetch_s  seconds from the crawler's start to nginx's first request (access log, msec)
#   offered_s      seconds from the start until the seed file was offered to its end (crawl.log), the crawl running
#   heap_after_gc  heap used after a full GC (jcmd GC.run, GC.heap_info) at that moment; heap.txt has the histogram
#   then a SIGTERM after STOP_AFTER seconds, and a resume that runs RESUME_FOR seconds before its own SIGTERM:
#   resume_first_s seconds from the resume's start to its first request; twice = URLs recorded twice (must be 0)
#
#   crawler-bench/seed-bench.sh [CRAWLER]      CRAWLER: a launcher (crawler-cli/target/crawler by default)
#
# Environment: SEEDS (1000000), PORT (19700), THREADS (256), DELAY (1s), HEAP (1g), STOP_AFTER (30), RESUME_FOR (20),
# WORK (/tmp/sieve-seed-bench), SET (extra --set arguments for the new crawl), RESUME_OPTS (extra JVM options for the
# resume alone, e.g. -XX:StartFlightRecording=filename=/tmp/resume.jfr to profile it). Needs nginx, unshare, ip and jcmd;
# runs as root (unshare -n). Prints one line
#   SEEDS seeds=N first_fetch_s=S offered_s=O heap_after_gc=M pages_first=P resume_first_s=R pages_total=T twice=D
#         exits=E/F
set -euo pipefail
cd "$(dirname "$0")/.."
CRAWLER=$(realpath "${1:-crawler-cli/target/crawler}")
SEEDS=${SEEDS:-1000000}
PORT=${PORT:-19700}
THREADS=${THREADS:-256}
DELAY=${DELAY:-1s}
HEAP=${HEAP:-1g}
STOP_AFTER=${STOP_AFTER:-30}
RESUME_FOR=${RESUME_FOR:-20}
WORK=${WORK:-/tmp/sieve-seed-bench}
rm -rf "$WORK" && mkdir -p "$WORK/site" "$WORK/logs"
echo '<!doctype html><html><head><title>seed</title></head><body><p>a seed</p><a href="/a">a</a></body></html>' \
    > "$WORK/site/index.html"
cp "$WORK/site/index.html" "$WORK/site/a"
printf 'User-agent: *\nAllow: /\n' > "$WORK/site/robots.txt"
python3 - "$SEEDS" "$PORT" > "$WORK/seeds.txt" <<'EOF'
import sys
n, port = int(sys.argv[1]), sys.argv[2]
out = sys.stdout
for i in range(n):
    a, b, c = 1 + (i >> 16), (i >> 8) & 0xFF, i & 0xFF
    out.write(f"http://127.{a}.{b}.{c}:{port}/\n")
EOF
cat > "$WORK/nginx.conf" <<EOF
worker_processes 1; pid $WORK/nginx.pid; error_log $WORK/logs/error.log; daemon on;
worker_rlimit_nofile 65536;
events { worker_connections 16384; }
http { log_format t '\$msec \$host \$request_uri'; access_log $WORK/logs/access.log t;
 client_body_temp_path $WORK/logs; proxy_temp_path $WORK/logs; fastcgi_temp_path $WORK/logs;
 uwsgi_temp_path $WORK/logs; scgi_temp_path $WORK/logs;
 server { listen $PORT; root $WORK/site; } }
EOF
cat > "$WORK/inside.sh" <<EOF
#!/usr/bin/env bash
# Runs in the namespace: nginx, the crawl, its stop and its resume.
set -uo pipefail
ip link set lo up
nginx -c "$WORK/nginx.conf" -p "$WORK"
trap 'kill "\$(cat "$WORK/nginx.pid")" 2>/dev/null || true' EXIT
crawl() { JAVA_OPTS="-Xmx$HEAP \${EXTRA_OPTS:-}" exec "$CRAWLER" crawl "\$@" --no-progress; }
first_request() { local since=\$1; while :; do
    line=\$(awk -v s="\$since" '\$1 >= s {print \$1; exit}' "$WORK/logs/access.log" 2>/dev/null)
    [ -n "\$line" ] && { echo "\$line - \$since" | bc; return; }; sleep 0.05; done; }
start=\$(date +%s.%N)
( crawl --seeds "$WORK/seeds.txt" --out "$WORK/out" --threads $THREADS --delay $DELAY \
    --set fetch.allow-private-addresses=false --set fetch.proxy=direct ${SET:-} ) > "$WORK/crawl1.log" 2>&1 &
pid=\$!
first=\$(first_request "\$start")
while ! grep -q "read to its end" "$WORK/out/crawl.log" 2>/dev/null; do sleep 0.5; done
loaded=\$(echo "\$(date +%s.%N) - \$start" | bc)
java=\$(pgrep -P \$pid java || echo \$pid)
jcmd \$java GC.run > /dev/null
heap=\$(jcmd \$java GC.heap_info | awk '/generation|heap/ {for (i = 1; i < NF; i++) if (\$i == "used") {sub("K,?", "", \$(i + 1)); kb += \$(i + 1)}} END {printf "%.0fMB", kb / 1024}')
heap_rss=\$(awk '/VmHWM/ {print \$2}' /proc/\$java/status)
echo "after load: heap used \$heap, peak RSS \$heap_rss kB" > "$WORK/heap.txt"
jcmd \$java GC.heap_info >> "$WORK/heap.txt"
jcmd \$java GC.class_histogram 2>/dev/null | head -25 >> "$WORK/heap.txt"
sleep $STOP_AFTER
kill -TERM \$pid; wait \$pid; exit1=\$?
pages1=\$(wc -l < "$WORK/out/pages.jsonl")
start2=\$(date +%s.%N)
( EXTRA_OPTS="${RESUME_OPTS:-}" crawl --resume "$WORK/out" ) > "$WORK/crawl2.log" 2>&1 &
pid=\$!
resume_first=\$(first_request "\$start2")
sleep $RESUME_FOR
kill -TERM \$pid; wait \$pid; exit2=\$?
pages=\$(wc -l < "$WORK/out/pages.jsonl")
twice=\$(python3 -c "import json,sys,collections; c=collections.Counter(json.loads(l)['url'] for l in open('$WORK/out/pages.jsonl')); print(sum(1 for v in c.values() if v > 1))")
echo "SEEDS seeds=$SEEDS first_fetch_s=\$first offered_s=\$loaded heap_after_gc=\$heap pages_first=\$pages1 resume_first_s=\$resume_first" \
    "pages_total=\$pages twice=\$twice exits=\$exit1/\$exit2"
EOF
chmod +x "$WORK/inside.sh"
unshare -n "$WORK/inside.sh"
