#!/usr/bin/env bash
# The real-pages benchmark: Debian's documentation packages (static HTML written by rustdoc and mdBook, Apache's
# manual, BoostBook, Sphinx) served by nginx, crawled by this crawler and by GNU wget2, alternating, each crawl a
# fresh process. nginx's access log is the referee: it counts pages, requests and duplicate fetches the same way
# for both crawlers.
#
#   crawler-bench/real-bench.sh cold [--package NAME]   # one package on one port (rust-doc by default)
#   crawler-bench/real-bench.sh sustained               # every package on COPIES ports: > 100,000 pages, one crawl
#
# Packages (NAME: the Debian package or its short name): rust-doc (rust), apache2-doc (apache), libboost1.81-doc
# (boost), python-django-doc (django); the folder served and the seeds of each in crawler-bench/doc-site.sh.
# Each port is its own nginx server (sendfile on, keepalive_requests 100000, /etc/nginx/mime.types) with its own
# access log: host:port, path, status, bytes, time, request time, content type, referrer (tab-separated). The
# servers listen on ADDR (127.0.0.2), a loopback address of their own: Django's tutorial links to 127.0.0.1:8000,
# and wget2 takes any port of a seed's host for the same site (served on 127.0.0.1, it spent minutes retrying
# port 8000). Our crawler keeps a crawl seeded on a private address to the seeds' host and port anyway.
#
# The crawlers, alternating ROUNDS times (sieve, wget2, sieve, wget2, ...), the access logs cleared between crawls:
#   sieve   $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads THREADS --out DIR -q SEEDS
#           CRAWLER defaults to crawler-cli/target/crawler, the launcher a user runs (a fresh JVM per crawl, with
#           the launcher's JVM flags and class-data archive); CRAWLER='java -jar crawler-cli/target/crawler.jar'
#           measures the plain jar. The profile:
#           16 connections per host, no delay, robots.txt obeyed, Sieve for 2 M URLs at 1e-5, output to DIR.
#           It follows a/area/frame/iframe links and link rel=canonical: HTML pages only.
#   wget2   wget2 -q --recursive --level=inf --no-parent --max-threads=WGET_THREADS -P DIR SEEDS
#           It writes every file it fetches to DIR (deleted after the crawl unless KEEP=1) and also fetches page
#           requisites and what CSS refers to (stylesheets, scripts, images, fonts); robots.txt obeyed. DIR is under
#           WORK (a disk file system here).
#   wget2-ram  (unless WGET2_RAM=0) the same, with DIR in RAM_DIR (/dev/shm/sieve-real-bench, tmpfs): wget2 at
#           its fastest here, its files written to memory only (it took half the time of the disk run on rust-doc).
#   scrapy  (SCRAPY=1 only) /usr/bin/python3 crawler-bench/real-bench-scrapy.py SCRAPY_CONCURRENCY SEEDS: a
#           CrawlSpider following a/area/frame/iframe, robots.txt obeyed, nothing written. Installs Debian's
#           python3-scrapy when missing. It crawls ~20-40 pages/s here: use it with --package python-django-doc.
# Every crawl prints one RESULT line:
#   pages           distinct HTML pages answered 200 (host:port and path, content type text/html; nginx's log)
#   requests        every request of the crawl (robots.txt, 404s, redirects, assets included)
#   seconds         wall time of the process, start to exit (JVM start included); span_s: first to last request
#   pages_per_s     pages / seconds
#   cpu_s           user + system CPU of the crawler's process tree (/usr/bin/time); cpu_ms_per_page = cpu_s / pages
#   rss_mb          peak RSS of the largest process of the tree (/usr/bin/time %M)
#   duplicates      requests beyond the first for the same host:port and path (request URI, query included)
#   nginx_cpu_s     user + system CPU of nginx's workers during the crawl
#   mb              MB of bodies nginx sent for the crawl
#   written_mb      what is left in the crawler's output folder (wget2 names its folder after the host without the
#                   port, so in sustained mode the copies of a package overwrite one another's files)
# and at the end a markdown table, the medians, our pages/s and CPU divided by wget2's, and a coverage check
# per round: the HTML pages (host:port and path, status 200) one crawler fetched and the other did not.
#
# Environment: ROUNDS (3 cold, 2 sustained), THREADS (32), WGET_THREADS (16 cold, 32 sustained), COPIES (ports
# per package in sustained mode, 4: ~116,000 pages), ADDR (127.0.0.2), BASE_PORT (19100; ports BASE_PORT to
# BASE_PORT + 10 * COPIES), WORK (/tmp/sieve-real-bench), CRAWLER, KEEP (1 keeps wget2's files), CRAWL_TIMEOUT
# (600 s per crawl), LINKS (1 adds sieve-links: the same crawl with --set output.links=true, the link graph
# written), WGET2 (0 leaves wget2 and wget2-ram out), NGINX_WORKERS (1), REBUILD (1 to run mvn package even if the jar exists), SCRAPY (1 adds
# Scrapy), SCRAPY_CONCURRENCY (16), WGET2_RAM (1; 0 leaves wget2-ram out), RAM_DIR (/dev/shm/sieve-real-bench).
# Missing packages (the doc packages, nginx, wget2, time; python3-scrapy with SCRAPY=1) are installed with
# apt-get install -y --no-install-recommends.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

usage() {
  echo "usage: crawler-bench/real-bench.sh cold [--package $(package_choices)]" >&2
  echo "       crawler-bench/real-bench.sh sustained" >&2
  exit 2
}
MODE=${1:-}
[ "$MODE" = cold ] || [ "$MODE" = sustained ] || usage
shift
package_option "$@" || usage
[ "$MODE" = cold ] || [ "$PACKAGE" = rust-doc ] || { echo "real-bench: --package is for cold mode" >&2; exit 2; }

ROUNDS=${ROUNDS:-$([ "$MODE" = cold ] && echo 3 || echo 2)}
THREADS=${THREADS:-32}
WGET_THREADS=${WGET_THREADS:-$([ "$MODE" = cold ] && echo 16 || echo 32)}
COPIES=${COPIES:-4}
ADDR=${ADDR:-127.0.0.2}
BASE_PORT=${BASE_PORT:-19100}
WORK=${WORK:-/tmp/sieve-real-bench}
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
KEEP=${KEEP:-0}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-600}
NGINX_WORKERS=${NGINX_WORKERS:-1}
SCRAPY=${SCRAPY:-0}
SCRAPY_CONCURRENCY=${SCRAPY_CONCURRENCY:-16}
# wget2 writes every file it fetches; where they go changes its speed: into a disk file system (WORK, /tmp here) or
# into RAM (tmpfs, wget2-ram), where the same crawl took it half the time.
RAM_DIR=${RAM_DIR:-/dev/shm/sieve-real-bench}
# nginx's access logs (a write per request) live in RAM too: on the disk, right after wget2 had written its files
# there, their writes stalled nginx and so the next crawl, whichever crawler it was (a third longer at the same CPU).
LOGS=$RAM_DIR/logs
WGET2_RAM=${WGET2_RAM:-1}
CRAWLERS=(sieve)
[ "${LINKS:-0}" = 1 ] && CRAWLERS+=(sieve-links)
[ "${WGET2:-1}" = 1 ] && CRAWLERS+=(wget2)
[ "${WGET2:-1}" = 1 ] && [ "$WGET2_RAM" = 1 ] && CRAWLERS+=(wget2-ram)
[ "$SCRAPY" = 1 ] && CRAWLERS+=(scrapy)
PROFILE=$ROOT/crawler-bench/real-bench.yaml
[ "$COPIES" -ge 1 ] && [ "$COPIES" -le 9 ] || { echo "real-bench: COPIES=$COPIES must be 1 to 9" >&2; exit 2; }

if [ "$MODE" = cold ]; then
  P=$(package_index real-bench "$PACKAGE") || exit 2
  SELECTED=("$P")
  COPIES=1
else
  SELECTED=("${!PKG_NAMES[@]}")
fi

# --- what the bench needs: packages, tools, the jar -------------------------------------------------------
mapfile -t MISSING < <(site_missing "${SELECTED[@]}")
command -v wget2 >/dev/null 2>&1 || MISSING+=(wget2)
[ -x /usr/bin/time ] || MISSING+=(time)
[ "$SCRAPY" = 1 ] && ! /usr/bin/python3 -c 'import scrapy' 2>/dev/null && MISSING+=(python3-scrapy)
apt_install real-bench "${MISSING[@]}"
if { [ "$CRAWLER" = crawler-cli/target/crawler ] || [ "$CRAWLER" = "java -jar crawler-cli/target/crawler.jar" ]; } \
    && { [ "${REBUILD:-0}" = 1 ] || [ ! -f crawler-cli/target/crawler.jar ]; }; then
  mvn -q -B -DskipTests package
fi

# --- the servers: one per package and copy -----------------------------------------------------------------
rm -rf "$WORK" "$RAM_DIR" && mkdir -p "$LOGS" "$WORK/crawls"
SRV_PORTS=()
SEEDS=()
SERVERS=()
for copy in $(seq 0 $((COPIES - 1))); do
  for i in "${SELECTED[@]}"; do
    port=$((BASE_PORT + 10 * copy + i))
    SRV_PORTS+=("$port")
    for path in ${PKG_SEEDS[$i]}; do SEEDS+=("http://$ADDR:$port$path"); done
    SERVERS+=("$(nginx_server "${PKG_NAMES[$i]}, copy $((copy + 1))" "$ADDR:$port" "${PKG_ROOTS[$i]}" "tcp_nopush on" \
      "access_log $LOGS/$port.log site")")
  done
done
# shellcheck disable=SC2016 # nginx's variables
nginx_conf "$WORK" "$NGINX_WORKERS" 4096 "$LOGS/error.log" \
  '$host:$server_port\t$request_uri\t$status\t$body_bytes_sent\t$msec\t$request_time\t$sent_http_content_type\t$http_referer' \
  "${SERVERS[@]}" > "$WORK/nginx.conf"

CRAWL_PID=
kill_tree() { # PID: that process and its descendants (the crawl this script started), SIGTERM
  local child
  for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  [ -n "$CRAWL_PID" ] && kill_tree "$CRAWL_PID"
  nginx_stop "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
nginx_start "$WORK"
for port in "${SRV_PORTS[@]}"; do
  curl -sf -o /dev/null "http://$ADDR:$port/index.html" || { echo "real-bench: nginx does not answer on $ADDR:$port" >&2; exit 1; }
done
: > "$LOGS/error.log"
for port in "${SRV_PORTS[@]}"; do : > "$LOGS/$port.log"; done

# Read every file served once, so that the first crawl does not pay for the disk.
for i in "${SELECTED[@]}"; do
  find -L "${PKG_ROOTS[$i]}" -type f -print0 | xargs -0 cat > /dev/null
done

nginx_ticks() { # user + system clock ticks of nginx's worker processes
  local pids
  pids=$(pgrep -P "$(cat "$WORK/nginx.pid")" || true)
  for pid in $pids; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true; done | awk '{s += $1} END {print s + 0}'
}
HZ=$(getconf CLK_TCK)

echo "real-bench: mode=$MODE packages=$(for i in "${SELECTED[@]}"; do printf '%s ' "${PKG_NAMES[$i]}"; done)copies=$COPIES" \
  "ports=${#SRV_PORTS[@]} seeds=${#SEEDS[@]} rounds=$ROUNDS; work in $WORK"
echo "real-bench: sieve:  $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads $THREADS --out DIR -q SEEDS"
echo "real-bench: wget2:  wget2 -q --recursive --level=inf --no-parent --max-threads=$WGET_THREADS -P DIR SEEDS" \
  "($(wget2 --version 2>/dev/null | head -1 | sed 's/ - .*//'); writes every file to DIR: under $WORK, and for" \
  "wget2-ram under $RAM_DIR)"
[ "$SCRAPY" = 1 ] && echo "real-bench: scrapy: /usr/bin/python3 crawler-bench/real-bench-scrapy.py $SCRAPY_CONCURRENCY SEEDS" \
  "(Scrapy $(/usr/bin/python3 -c 'import scrapy; print(scrapy.__version__)'))"
echo "real-bench: seeds:  ${SEEDS[*]:0:5}$([ ${#SEEDS[@]} -gt 5 ] && echo " ... (${#SEEDS[@]})")"
echo "real-bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- one crawl -------------------------------------------------------------------------------------------
RESULTS=$WORK/results.tsv
printf 'crawler\tround\tpages\trequests\tseconds\tpages_per_s\tcpu_s\tcpu_ms_per_page\trss_mb\tduplicates\tnginx_cpu_s\tspan_s\tmb\twritten_mb\texit\n' > "$RESULTS"

out_dir() { # WHO DIR: where a crawler writes its output (wget2-ram: into tmpfs)
  if [ "$1" = wget2-ram ]; then echo "$RAM_DIR/$(basename "$2")"; else echo "$2/out"; fi
}

crawl() { # WHO ROUND: runs one crawl, keeps its access log in $WORK/crawls/ROUND-WHO, prints a RESULT line
  local who=$1 round=$2 dir rc=0 before after
  dir=$WORK/crawls/$round-$who
  mkdir -p "$dir"
  for port in "${SRV_PORTS[@]}"; do : > "$LOGS/$port.log"; done
  before=$(nginx_ticks)
  case "$who" in
    sieve|sieve-links)
      local links=false
      [ "$who" = sieve-links ] && links=true
      # shellcheck disable=SC2086
      /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" $CRAWLER crawl --profile "$PROFILE" \
        --threads "$THREADS" --out "$dir/out" --set output.links=$links -q "${SEEDS[@]}" > "$dir/crawler.out" 2>&1 &
      ;;
    wget2|wget2-ram)
      /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" wget2 -q --recursive --level=inf \
        --no-parent --max-threads="$WGET_THREADS" -P "$(out_dir "$who" "$dir")" "${SEEDS[@]}" > "$dir/crawler.out" 2>&1 &
      ;;
    scrapy)
      /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" /usr/bin/python3 \
        "$ROOT/crawler-bench/real-bench-scrapy.py" "$SCRAPY_CONCURRENCY" "${SEEDS[@]}" > "$dir/crawler.out" 2>&1 &
      ;;
  esac
  CRAWL_PID=$!
  wait "$CRAWL_PID" || rc=$?
  CRAWL_PID=
  after=$(nginx_ticks)
  for port in "${SRV_PORTS[@]}"; do cat "$LOGS/$port.log"; done > "$dir/access.log"
  for port in "${SRV_PORTS[@]}"; do : > "$LOGS/$port.log"; done
  local written_mb
  written_mb=$(du -sm "$(out_dir "$who" "$dir")" 2>/dev/null | cut -f1 || echo 0)
  case "$who" in wget2*) [ "$KEEP" != 1 ] && rm -rf "$(out_dir "$who" "$dir")" ;; esac
  sync # what this crawl wrote (and deleted) reaches the disk now, not during the next crawl
  # wget2 exits 8 when the server answered an error (404s): the crawl is still whole.
  if [ "$rc" != 0 ] && ! { [[ "$who" = wget2* ]] && [ "$rc" = 8 ]; }; then
    echo "real-bench: $who exited with $rc; the last lines of $dir/crawler.out:" >&2
    tail -5 "$dir/crawler.out" >&2
  fi
  # Pages are distinct HTML keys answered 200; duplicates are requests beyond the first per host:port and URI.
  awk -F'\t' '$3 == 200 && $7 ~ /^text\/html/ {print $1 $2}' "$dir/access.log" | sort -u > "$dir/pages.txt"
  local line
  line=$(awk -F'\t' -v who="$who" -v round="$round" -v hz="$HZ" -v ticks=$((after - before)) -v rc="$rc" \
    -v written="$written_mb" -v pages="$(wc -l < "$dir/pages.txt")" -v time="$(tail -1 "$dir/time")" '
    { requests++; bytes += $4; if (seen[$1 $2]++) dup++; if (first == "" || $5 < first) first = $5; if ($5 > last) last = $5 }
    END {
      split(time, t, " "); secs = t[1]; cpu = t[2] + t[3]; rss = t[4] / 1024
      printf "%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.2f\t%.3f\t%.0f\t%d\t%.2f\t%.2f\t%.0f\t%d\t%s\n", who, round, pages, requests,
        secs, (secs > 0 ? pages / secs : 0), cpu, (pages > 0 ? 1000 * cpu / pages : 0), rss, dup, ticks / hz, last - first,
        bytes / 1048576, written, rc
    }' "$dir/access.log")
  echo "$line" >> "$RESULTS"
  echo "$line" | awk -F'\t' -v mode="$MODE" '{
    printf "RESULT mode=%s crawler=%s round=%s pages=%s requests=%s seconds=%s pages_per_s=%s cpu_s=%s cpu_ms_per_page=%s" \
      " rss_mb=%s duplicates=%s nginx_cpu_s=%s span_s=%s mb=%s written_mb=%s exit=%s\n", mode, $1, $2, $3, $4, $5, $6,
      $7, $8, $9, $10, $11, $12, $13, $14, $15 }'
  if [ "$(echo "$line" | cut -f10)" -gt 0 ]; then
    echo "  duplicate fetches of $who (count, host:port and URI):"
    awk -F'\t' '{print $1 $2}' "$dir/access.log" | sort | uniq -c | awk '$1 > 1' | sort -rn | head -5
  fi
}

for round in $(seq 1 "$ROUNDS"); do
  for who in "${CRAWLERS[@]}"; do crawl "$who" "$round"; done
done
echo "real-bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- the summary -------------------------------------------------------------------------------------------
median() { sort -n | awk '{a[NR] = $1} END {if (NR == 0) print 0; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
column_of() { # WHO COLUMN: the values of that column for that crawler
  awk -F'\t' -v who="$1" -v c="$2" 'NR > 1 && $1 == who {print $c}' "$RESULTS"
}
echo
echo "### $MODE: $(for i in "${SELECTED[@]}"; do printf '%s ' "${PKG_NAMES[$i]}"; done)on ${#SRV_PORTS[@]} port(s), rounds: $ROUNDS"
echo
{
  awk -F'\t' 'NR > 1' "$RESULTS"
  for who in "${CRAWLERS[@]}"; do
    printf '%s\tmedian' "$who"
    for c in 3 4 5 6 7 8 9 10 11; do printf '\t%s' "$(column_of "$who" "$c" | median)"; done
    echo
  done
} | awk -F'\t' '
  function commas(n,   s) { s = sprintf("%.0f", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
  BEGIN {
    print "| crawler | round | HTML pages | requests | seconds | pages/s | CPU-s | CPU ms/page | peak RSS MB | duplicates | nginx CPU-s |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  }
  { printf "| %s | %s | %s | %s | %.1f | %s | %.1f | %.3f | %s | %s | %.1f |\n", $1, $2, commas($3), commas($4), $5, commas($6), $7,
      $8, commas($9), commas($10), $11 }'
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "n/a"}'; }
for other in "${CRAWLERS[@]:1}"; do
  echo "sieve ÷ $other (medians, rounds: $ROUNDS):" \
    "pages/s $(ratio "$(column_of sieve 6 | median)" "$(column_of "$other" 6 | median)")x," \
    "CPU-s $(ratio "$(column_of sieve 7 | median)" "$(column_of "$other" 7 | median)")x," \
    "CPU per page $(ratio "$(column_of sieve 8 | median)" "$(column_of "$other" 8 | median)")x," \
    "peak RSS $(ratio "$(column_of sieve 9 | median)" "$(column_of "$other" 9 | median)")x"
done

echo
echo "What each fetched besides HTML pages answered 200 (round 1; status and content type: requests):"
for who in "${CRAWLERS[@]}"; do
  printf '  %s: ' "$who"
  awk -F'\t' '!($3 == 200 && $7 ~ /^text\/html/) {n[$3 " " ($7 == "" ? "-" : $7)]++} END {for (k in n) print n[k] "\t" k}' \
    "$WORK/crawls/1-$who/access.log" | sort -rn | head -8 | awk -F'\t' '{printf "%s%s: %s", (NR > 1 ? ", " : ""), $2, $1} END {print ""}'
done

echo
echo "Coverage (HTML pages answered 200, by host:port and path):"
listed() { # FILE_OF_KEYS LOG: the first keys, with the referrer the log gives
  head -10 "$1" | while read -r key; do
    awk -F'\t' -v k="$key" '$1 $2 == k {print "    " k "  (referrer " ($8 == "" || $8 == "-" ? "none logged" : $8) ")"; exit}' "$2"
  done
}
for other in "${CRAWLERS[@]:1}"; do
  for round in $(seq 1 "$ROUNDS"); do
    a=$WORK/crawls/$round-sieve/pages.txt
    b=$WORK/crawls/$round-$other/pages.txt
    echo "  sieve and $other, round $round: both $(comm -12 "$a" "$b" | wc -l), only $other $(comm -13 "$a" "$b" | wc -l)," \
      "only sieve $(comm -23 "$a" "$b" | wc -l)"
  done
  comm -13 "$WORK/crawls/1-sieve/pages.txt" "$WORK/crawls/1-$other/pages.txt" > "$WORK/only-$other.txt"
  comm -23 "$WORK/crawls/1-sieve/pages.txt" "$WORK/crawls/1-$other/pages.txt" > "$WORK/only-sieve-not-$other.txt"
  if [ -s "$WORK/only-$other.txt" ]; then
    echo "  fetched by $other, not by sieve (round 1, first 10 of $(wc -l < "$WORK/only-$other.txt"); all in $WORK/only-$other.txt):"
    listed "$WORK/only-$other.txt" "$WORK/crawls/1-$other/access.log"
  fi
  if [ -s "$WORK/only-sieve-not-$other.txt" ]; then
    echo "  fetched by sieve, not by $other (round 1, first 10 of $(wc -l < "$WORK/only-sieve-not-$other.txt");" \
      "all in $WORK/only-sieve-not-$other.txt):"
    listed "$WORK/only-sieve-not-$other.txt" "$WORK/crawls/1-sieve/access.log"
  fi
done
echo "real-bench: results in $RESULTS, each crawl's access log in $WORK/crawls/ROUND-CRAWLER/access.log"
