#!/usr/bin/env bash
# The broad-crawl benchmark (issue 27, item 6): one crawl per host count H, each of PAGES pages across H hosts
# 127.A.B.C served by ONE nginx on ONE port (listen 0.0.0.0:PORT, `allow 127.0.0.0/8; deny all;`: on Linux every
# 127/8 address reaches the loopback device, so one socket serves them all and nothing else may connect), keep-alive
# on (nginx's default 75 s) or, with CLOSE=1, keepalive_timeout 0 (a server that closes every connection).
#
#   crawler-bench/broad-bench.sh [CRAWLER]       CRAWLER: a launcher (crawler-cli/target/crawler by default)
#
# The site (crawler-bench/broad-site.py, which documents it): every host serves the same SITE_PAGES pages of real
# markup (rust-doc pages of 12-19 KB, ~15 KB, their links replaced), each with 10 same-host links (a 10-ary tree from
# /) and 5 cross-host links whose hosts nginx's sub_filter fills in from the serving host's name, so the link graph
# is spread over all H hosts (20 fixed bijections of the hosts: every host has 20 out- and 20 in-links) with one set
# of files. robots.txt: `User-agent: * / Disallow: /private/`. H must be a power of ten, 100 to 1,000,000; host n
# is 127.(100+a).(100+b).(100+c) for n = a*10^4 + b*100 + c.
#
# The crawl: `crawl --profile config/broad.yaml` (scope.hosts: any, one connection per host, robots.txt obeyed)
# with --threads THREADS --delay DELAY --max-pages PAGES, fetch.allow-private-addresses=true (the hosts are
# loopback), output.warc=false (WARC=1 keeps it: its gzip costs CPU unrelated to hosts), sieve.expected-urls
# SIEVE_URLS (the profile's 10^8 would be 240 MB of the heap), limits.max-duration MAX_DURATION, -Xmx HEAP, and SET
# (more --set arguments). Seeds: SEEDS hosts spread evenly over the H (their "/"), or SEEDS=all, one per host.
# Note that H = 100 is bound by politeness: at most H / DELAY pages/s (100/s at 1 s).
#
# Environment: HOSTS ("100 10000 100000 1000000"), PAGES (200000), THREADS (256), DELAY (1s), SEEDS (100), CLOSE (0),
# SITE_PAGES (2000), HEAP (1g), MAX_DURATION (15m), SIEVE_URLS (10000000), WARC (0), SET, PORT (19700),
# WORK (/tmp/sieve-broad-bench), LOGS (/dev/shm/sieve-broad-bench: nginx's access log, in RAM), TOL_MS (10: the
# politeness tolerance), JFR (auto: a JFR recording, settings=profile, of the largest H's crawl; 1 all; 0 none),
# FD_LIMIT (the crawler's soft descriptor limit, as socket-bench.sh; default: the JVM raises it to the hard limit),
# NGINX_WORKERS (1), LABEL (a word added to each line, e.g. main). Needs nginx, rust-doc, python3, jcmd, jfr.
#
# Output: per crawl a line (and a row of WORK/results.tsv, the same fields):
#   BROAD label=.. hosts=H close=0|1 seeds=S load=L pages=N wall_s=S pages_per_s=R first_request_s=S first_page_s=S
#     cpu_s=S cpu_s_per_1k=S peak_rss_mb=M heap_after_gc_mb=M peak_sockets=N peak_established=N peak_close_wait=N
#     socket_bound=N peak_fds=N
#     robots=N hosts_paged=N hosts_requested=N hosts_linked=N hosts_linked_unrequested=N failed=N non_2xx_3xx=N
#     descriptor_waits=N violations=N
#     violations_gap=N violations_overlap=N closest_gap_ms=N end=REASON exit=E
#   PPS hosts=H close=C pps_10s=a,b,... robots_10s=a,b,...
#                                                 pages/s and robots.txt requests/s in each 10 s from the crawl's
#                                                 start (nginx's log): a burst of robots.txt before pages shows here
#   HOT ...                                       the 15 top frames of the JFR's execution samples (JFR runs)
# where load: the 1-minute load average at the start (the machine's other work); pages: pages fetched (summary.json's
# responses, before "fetched": robots.txt not included); wall_s: process start to exit;
# first_request_s / first_page_s: from the process start to nginx's first request / first page request;
# cpu_s: user + system CPU of the crawler (/usr/bin/time), per 1,000 pages; peak_rss_mb (/usr/bin/time %M);
# heap_after_gc_mb: heap used after the full GC `jcmd GC.run` makes when pages.jsonl reaches 90 % of PAGES (or 90 % of
# MAX_DURATION), from the GC log (gc.log);
# peak_sockets / peak_fds: the most socket / all descriptors in /proc/PID/fd, sampled every 0.5 s (with
# peak_established / peak_close_wait: TCP connections to PORT in those states, `ss` (established: `ss -p`, those the
# crawler's process holds a descriptor of); only the crawler connects there,
# and close-wait ones are closed by the server, not yet by the crawler, still holding a descriptor); socket_bound: the
# bound the crawler logs ("sockets: at most N open"); robots: robots.txt requests; hosts_paged: hosts with at least
# one page request; hosts_linked: hosts the fetched pages link to (their cross-host links), _unrequested: those of them
# that got no request (a crawl stopped by max-pages leaves some; many means linked hosts the scheduler does not see);
# failed: summary.json's errors; violations: pairs of consecutive requests to one host (robots.txt
# included) closer than DELAY - TOL_MS from the end of one to the start of the next (_gap), or overlapping (_overlap,
# more than the one connection per host), from nginx's $msec and $request_time; closest_gap_ms: the smallest gap.
# Files of each crawl stay in WORK/H-close*/ (crawl output in out/, console.log, samples.tsv, time.txt, heap.txt).
# nginx is started on its own pid file and stopped by it when the script exits.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CRAWLER=${1:-crawler-cli/target/crawler}
HOSTS=${HOSTS:-100 10000 100000 1000000}
PAGES=${PAGES:-200000}
THREADS=${THREADS:-256}
DELAY=${DELAY:-1s}
SEEDS=${SEEDS:-100}
CLOSE=${CLOSE:-0}
SITE_PAGES=${SITE_PAGES:-2000}
HEAP=${HEAP:-1g}
MAX_DURATION=${MAX_DURATION:-15m}
SIEVE_URLS=${SIEVE_URLS:-10000000}
WARC=${WARC:-0}
SET=${SET:-}
PORT=${PORT:-19700}
WORK=${WORK:-/tmp/sieve-broad-bench}
LOGS=${LOGS:-/dev/shm/sieve-broad-bench}
TOL_MS=${TOL_MS:-10}
JFR=${JFR:-auto}
FD_LIMIT=${FD_LIMIT:-}
NGINX_WORKERS=${NGINX_WORKERS:-1}
LABEL=${LABEL:-run}
SITE=crawler-bench/broad-site.py
RUST_DOC=/usr/share/doc/rust-doc/html

fail() { echo "broad-bench: $*" >&2; exit 2; }
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || fail "nginx is missing (apt-get install nginx)"
[ -d "$RUST_DOC" ] || fail "$RUST_DOC is missing (apt-get install rust-doc)"
[ -x /usr/bin/time ] || fail "/usr/bin/time is missing (apt-get install time)"
for t in python3 jcmd jfr; do command -v $t >/dev/null || fail "$t is missing"; done
[ -x "${CRAWLER%% *}" ] \
  || fail "$CRAWLER: no launcher there (mvn -o -q -B -pl crawler-core,crawler-cli -am package -DskipTests)"
case "$CLOSE" in 0|1) ;; *) fail "CLOSE=$CLOSE: must be 0 or 1" ;; esac
case "$DELAY" in *ms) delay_ms=${DELAY%ms} ;; *s) delay_ms=$(echo "${DELAY%s} * 1000" | bc) ;;
  *) delay_ms=$(echo "$DELAY * 1000" | bc) ;; esac
[[ "$delay_ms" =~ ^[0-9.]+$ ]] || fail "DELAY=$DELAY: must be like 1s, 500ms or 2"
largest=0
for h in $HOSTS; do python3 "$SITE" nginx "$h" > /dev/null; [ "$h" -gt "$largest" ] && largest=$h; done

ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true # nginx's master and the crawler start with the hard limit
mkdir -p "$WORK" "$LOGS"
NGINX_PID=$LOGS/nginx.pid
stop_nginx() { [ -f "$NGINX_PID" ] && kill "$(cat "$NGINX_PID")" 2>/dev/null || true; sleep 0.3; rm -f "$NGINX_PID"; }
trap 'stop_nginx; [ -n "${crawl_pid:-}" ] && kill "$crawl_pid" 2>/dev/null; true' EXIT
rm -rf "$WORK/site" && python3 "$SITE" site "$WORK/site" "$SITE_PAGES" "$PORT" "$RUST_DOC"
[ -f "$WORK/results.tsv" ] || echo "label hosts close seeds load pages wall_s pages_per_s first_request_s first_page_s cpu_s \
cpu_s_per_1k peak_rss_mb heap_after_gc_mb peak_sockets peak_established peak_close_wait socket_bound peak_fds robots \
hosts_paged hosts_requested hosts_linked hosts_linked_unrequested failed \
non_2xx_3xx descriptor_waits violations violations_gap violations_overlap closest_gap_ms end exit" | tr ' ' '\t' \
  > "$WORK/results.tsv"

nginx_conf() { # H: WORK/nginx.conf for H hosts
  local h=$1 keep=75s limit
  [ "$CLOSE" = 1 ] && keep=0
  limit=$(ulimit -Hn); [ "$limit" = unlimited ] && limit=65536
  {
    echo "worker_processes $NGINX_WORKERS; pid $NGINX_PID; error_log $LOGS/error.log; daemon on;"
    echo "worker_rlimit_nofile $limit;"
    echo "events { worker_connections $((limit / 2)); }"
    echo "http { include /etc/nginx/mime.types; sendfile on; keepalive_timeout $keep; keepalive_requests 100000;"
    echo " log_format broad '\$msec\t\$request_time\t\$host\t\$status\t\$body_bytes_sent\t\$request_uri\t\$connection'"
    echo "   '\t\$connection_requests';"
    echo " access_log $LOGS/access.log broad buffer=256k flush=1s;"
    echo " client_body_temp_path $LOGS; proxy_temp_path $LOGS; fastcgi_temp_path $LOGS;"
    echo " uwsgi_temp_path $LOGS; scgi_temp_path $LOGS;"
    python3 "$ROOT/$SITE" nginx "$h"
    echo " server { listen $PORT; root $WORK/site; allow 127.0.0.0/8; deny all;"
    echo "  sub_filter_once off; sub_filter '@H@' \$bh; sub_filter '@M@' \$bm;"
    for k in $(seq 0 19); do echo "  sub_filter '@X$k@' \$bx$k;"; done
    echo " } }"
  } > "$WORK/nginx.conf"
}

run() { # H
  local h=$1 load dir jfr_flag="" flags java start end fds sock tcp wait_close rss t0 deadline_s heap_done=0
  local peak_fds=0 peak_sock=0 peak_tcp=0 peak_cw=0
  dir=$WORK/$h-close$CLOSE
  rm -rf "$dir" && mkdir -p "$dir"
  stop_nginx
  rm -f "$LOGS/access.log" "$LOGS/error.log"
  nginx_conf "$h"
  nginx -c "$WORK/nginx.conf" -p "$WORK" 2> "$dir/nginx.err" \
    || { cat "$dir/nginx.err" >&2; fail "nginx did not start"; }
  python3 "$SITE" seeds "$h" "$SEEDS" "$PORT" > "$dir/seeds.txt"
  curl -sf -o /dev/null "$(head -1 "$dir/seeds.txt")" || fail "nginx does not answer $(head -1 "$dir/seeds.txt")"
  python3 "$SITE" verify "$h" "$PORT" "$SITE_PAGES" || fail "nginx's links are not the model's (broad-site.py)"
  rm -f "$LOGS/access.log"; kill -USR1 "$(cat "$NGINX_PID")"; sleep 0.3 # the checks' requests out of the log
  if [ "$JFR" = 1 ] || { [ "$JFR" = auto ] && [ "$h" = "$largest" ]; }; then
    # The profile settings without jdk.SocketRead/SocketWrite: JDK 17 names a socket read's remote host for the
    # event with InetAddress.getHostName(), a reverse DNS lookup per slow read of a 127.A.B.C host; the fetcher
    # threads then waited on the resolver (~250 UDP sockets to it, ~40 % fewer pages/s in earlier JFR runs).
    sed -e '/<event name="jdk.Socket\(Read\|Write\)">/,/<\/event>/ s#<setting name="enabled">true#<setting name="enabled">false#' \
      "$(java -XshowSettings:properties -version 2>&1 | awk '/java.home =/ {print $3}')/lib/jfr/profile.jfc" \
      > "$WORK/profile.jfc"
    jfr_flag="-XX:StartFlightRecording=filename=$dir/crawl.jfr,settings=$WORK/profile.jfc,dumponexit=true"
  fi
  flags="-Xmx$HEAP -Xlog:gc:file=$dir/gc.log $jfr_flag"
  [ -n "$FD_LIMIT" ] && flags="$flags -XX:-MaxFDLimit"
  deadline_s=$(( $(echo "$MAX_DURATION" | sed 's/m$/*60/; s/h$/*3600/; s/s$//' | bc) * 9 / 10 ))
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # CRAWLER and SET are lists of words
  ( [ -n "$FD_LIMIT" ] && ulimit -Sn "$FD_LIMIT"
    JAVA_OPTS="$flags" exec /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" $CRAWLER crawl \
      --profile config/broad.yaml --seeds "$dir/seeds.txt" --out "$dir/out" --threads "$THREADS" --delay "$DELAY" \
      --max-pages "$PAGES" --set fetch.proxy=direct --set fetch.allow-private-addresses=true \
      --set output.warc=$([ "$WARC" = 1 ] && echo true || echo false) --set sieve.expected-urls="$SIEVE_URLS" \
      --set limits.max-duration="$MAX_DURATION" --set progress.interval=10s $SET ) > "$dir/console.log" 2>&1 &
  crawl_pid=$!
  echo "t_s fds sockets established close_wait rss_kb" > "$dir/samples.tsv"
  while kill -0 "$crawl_pid" 2>/dev/null; do
    java=$(pgrep -P "$crawl_pid" java || true)
    if [ -n "$java" ] && [ -d "/proc/$java/fd" ]; then
      fds=$({ ls "/proc/$java/fd" 2>/dev/null || true; } | wc -l) # descriptors close while listed
      sock=$({ find "/proc/$java/fd" -lname 'socket:*' 2>/dev/null || true; } | wc -l)
      # -p: only sockets the crawler holds a descriptor of, in one snapshot (ss without it also counted sockets the
      # crawler had just closed, and raced the descriptor count taken before it when the pool closed many at once)
      tcp=$({ ss -Htnp state established "( dport = :$PORT )" 2>/dev/null || true; } | grep -c "pid=$java," || true)
      wait_close=$(ss -Htn state close-wait "( dport = :$PORT )" 2>/dev/null | wc -l)
      [ "$tcp" -gt "$peak_tcp" ] && peak_tcp=$tcp
      [ "$wait_close" -gt "$peak_cw" ] && peak_cw=$wait_close
      rss=$(awk '/^VmRSS/ {print $2}' "/proc/$java/status" 2>/dev/null || echo 0)
      [ "$fds" -gt "$peak_fds" ] && peak_fds=$fds
      [ "$sock" -gt "$peak_sock" ] && peak_sock=$sock
      t0=$(echo "$(date +%s.%N) - $start" | bc)
      echo "$t0 $fds $sock $tcp $wait_close $rss" >> "$dir/samples.tsv"
      if [ "$heap_done" = 0 ] && [ -f "$dir/out/pages.jsonl" ]; then
        if [ "$(wc -l < "$dir/out/pages.jsonl" || echo 0)" -ge $((PAGES * 9 / 10)) ] \
            || [ "${t0%.*}" -ge "$deadline_s" ] 2>/dev/null; then
          heap_done=1
          { jcmd "$java" GC.run && jcmd "$java" GC.heap_info; } > "$dir/heap.txt" 2>&1 || true
        fi
      fi
    fi
    sleep 0.5
  done
  wait "$crawl_pid" && code=0 || code=$?
  crawl_pid=
  end=$(date +%s.%N)
  kill -USR1 "$(cat "$NGINX_PID")" 2>/dev/null; sleep 1.5 # flush the access log's buffer
  local wall cpu rss_mb heap bound summary pages
  wall=$(echo "$end - $start" | bc)
  read -r _ user sys maxrss < <(tail -1 "$dir/time.txt") || { user=0; sys=0; maxrss=0; }
  cpu=$(echo "$user + $sys" | bc)
  rss_mb=$((maxrss / 1024))
  # The full GC `jcmd GC.run` makes, in the GC log: "Pause Full (Diagnostic Command) 265M->114M(365M) 1430.247ms"
  heap=$(sed -n 's/.*Pause Full (Diagnostic Command) [0-9]*M->\([0-9]*\)M.*/\1/p' "$dir/gc.log" 2>/dev/null | tail -1)
  [ -n "$heap" ] || heap=NA
  bound=$(grep -ho 'sockets: at most [0-9]* open' "$dir/console.log" "$dir/out/crawl.log" 2>/dev/null | head -1 \
    | grep -o '[0-9][0-9]*' || echo NA)
  summary=$(python3 -c '
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except Exception:
    print("0 NA NA NA"); sys.exit()
print(s.get("responses", s.get("fetched", 0)), s.get("errors", "NA"), s.get("descriptorWaits", "NA"), s.get("endReason", "NA"))
' "$dir/out/summary.json")
  read -r pages failed dwaits reason <<< "$summary"
  python3 "$SITE" report "$LOGS/access.log" "$start" "$delay_ms" "$TOL_MS" 10 "$h" > "$dir/report.txt"
  cp "$LOGS/access.log" "$dir/access.log" 2>/dev/null || true
  r() { sed -n "s/^$1=//p" "$dir/report.txt"; }
  local line
  line="label=$LABEL hosts=$h close=$CLOSE seeds=$SEEDS load=$load pages=$pages wall_s=$(printf %.1f "$wall")"
  line="$line pages_per_s=$(echo "scale=0; $pages / $wall" | bc) first_request_s=$(r first_request_s)"
  line="$line first_page_s=$(r first_page_s) cpu_s=$cpu cpu_s_per_1k=$(echo "scale=2; $cpu * 1000 / ($pages + 1)" | bc)"
  line="$line peak_rss_mb=$rss_mb heap_after_gc_mb=$heap peak_sockets=$peak_sock peak_established=$peak_tcp"
  line="$line peak_close_wait=$peak_cw socket_bound=$bound peak_fds=$peak_fds"
  line="$line robots=$(r robots) hosts_paged=$(r hosts_paged) hosts_requested=$(r hosts_requested)"
  line="$line hosts_linked=$(r hosts_linked) hosts_linked_unrequested=$(r hosts_linked_unrequested) failed=$failed"
  line="$line non_2xx_3xx=$(r non_2xx_3xx) descriptor_waits=$dwaits violations=$(r violations)"
  line="$line violations_gap=$(r violations_gap) violations_overlap=$(r violations_overlap)"
  line="$line closest_gap_ms=$(r closest_gap_ms) end=$reason exit=$code"
  echo "BROAD $line"
  [ "$code" = 0 ] || echo "broad-bench: the crawl exited $code: $(tail -1 "$dir/console.log")" >&2
  echo "PPS hosts=$h close=$CLOSE pps_10s=$(r pps_10s) robots_10s=$(r robots_10s)"
  echo "$line" | tr ' ' '\n' | sed 's/^[^=]*=//' | paste -sd '\t' >> "$WORK/results.tsv"
  if [ -n "$jfr_flag" ] && [ -f "$dir/crawl.jfr" ]; then
    jfr print --events jdk.ExecutionSample "$dir/crawl.jfr" | python3 "$SITE" hot | tee "$dir/hot.txt"
  fi
}

for h in $HOSTS; do run "$h"; done
