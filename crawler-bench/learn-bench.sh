#!/usr/bin/env bash
# The learning benchmark on real pages (issue 30, "real pages are not lost"): each Debian documentation package
# served by nginx (crawler-bench/doc-site.sh, as real-bench.sh cold serves it: its own port on ADDR, 127.0.0.2),
# crawled by this crawler with the defaults (scope.learn-duplicates true: the crawl learns duplicate rules) and with
# the learning off, alternating (on, off, on, off, ...; a fresh JVM each, the same profile otherwise), then by GNU
# wget2 once beside them. nginx's access log is the referee for the pages fetched.
#
#   crawler-bench/learn-bench.sh [--runs N] [--package NAME]...   # every package, 1 run of each mode by default
#
# Packages (NAME: the Debian package or its short name): rust-doc (rust), apache2-doc (apache), libboost1.81-doc
# (boost), python-django-doc (django); --package repeats to choose several.
#
# The crawls, each package in turn:
#   on    $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads THREADS --out DIR -q SEEDS
#   off   the same with --set scope.learn-duplicates=false
#   wget2 wget2 -q --recursive --level=inf --no-parent --max-threads=WGET_THREADS -P RAM_DIR/... SEEDS (once, its
#         files in tmpfs, its fastest here; real-bench.sh's wget2-ram)
# Every crawl prints one RESULT line:
#   pages        distinct HTML pages answered 200 (nginx's log: port and path)
#   records      pages.jsonl records with outcome fetched and status 200 (the crawler's own count; - for wget2)
#   seconds      wall time of the process (JVM start included); pages_per_s = pages / seconds
#   cpu_s        user + system CPU of the process tree (/usr/bin/time); rss_mb: its peak RSS (/usr/bin/time %M)
#   learned_traps  pages.jsonl records with outcome trap whose error starts "learned rule: " (URLs a rule refused
#                or rewrote)
#   rules        lines of OUT/rules.jsonl (0 when there is no such file)
#   rewritten, templates, learner_bytes  summary.json's learned.rewritten, learned.templates and
#                learned.estimatedBytes (NA while the summary has no learned section)
# and per package a table: pages on / off, URLs fetched off but not on in the same run (from nginx's log and from
# pages.jsonl; must be 0, the first 10 listed), learned traps, rules, pages/s, CPU-s and peak RSS on / off (medians
# over the runs and their ratio), and wget2's.
#
# Environment: THREADS (32), WGET_THREADS (16), WGET2 (1; 0 leaves wget2 out), ADDR (127.0.0.2), BASE_PORT (19400;
# a package on BASE_PORT + its index), WORK (/tmp/sieve-learn-bench), RAM_DIR (/dev/shm/sieve-learn-bench: nginx's
# logs and wget2's files), CRAWLER (crawler-cli/target/crawler; built with mvn -o -q -B -pl crawler-core,crawler-cli
# -am package -DskipTests when missing or REBUILD=1), CRAWL_TIMEOUT (600 s per crawl), NGINX_WORKERS (1). Missing
# packages (the doc packages, nginx, wget2, time) are installed with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

usage() {
  echo "usage: crawler-bench/learn-bench.sh [--runs N] [--package $(package_choices)]..." >&2
  exit 2
}
RUNS=1
SELECTED=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#--runs=}; shift ;;
    --package) [ $# -ge 2 ] || usage; idx=$(package_index learn-bench "$2") || exit 2; SELECTED+=("$idx"); shift 2 ;;
    --package=*) idx=$(package_index learn-bench "${1#--package=}") || exit 2; SELECTED+=("$idx"); shift ;;
    *) usage ;;
  esac
done
[[ "$RUNS" =~ ^[1-9][0-9]?$ ]] || { echo "learn-bench: --runs $RUNS: must be a whole number from 1 to 99" >&2; exit 2; }
[ ${#SELECTED[@]} -gt 0 ] || SELECTED=("${!PKG_NAMES[@]}")

THREADS=${THREADS:-32}
WGET_THREADS=${WGET_THREADS:-16}
WGET2=${WGET2:-1}
ADDR=${ADDR:-127.0.0.2}
BASE_PORT=${BASE_PORT:-19400}
WORK=${WORK:-/tmp/sieve-learn-bench}
RAM_DIR=${RAM_DIR:-/dev/shm/sieve-learn-bench}
LOGS=$RAM_DIR/logs
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-600}
NGINX_WORKERS=${NGINX_WORKERS:-1}
PROFILE=$ROOT/crawler-bench/real-bench.yaml

# --- what the bench needs: packages, tools, the launcher ----------------------------------------------------
mapfile -t MISSING < <(site_missing "${SELECTED[@]}")
[ "$WGET2" = 1 ] && ! command -v wget2 >/dev/null 2>&1 && MISSING+=(wget2)
[ -x /usr/bin/time ] || MISSING+=(time)
apt_install learn-bench "${MISSING[@]}"
if [ "$CRAWLER" = crawler-cli/target/crawler ] && { [ "${REBUILD:-0}" = 1 ] || [ ! -x "$CRAWLER" ]; }; then
  mvn -o -q -B -pl crawler-core,crawler-cli -am package -DskipTests
fi

# --- the servers: one port per package ------------------------------------------------------------------------
rm -rf "$WORK" "$RAM_DIR" && mkdir -p "$LOGS" "$WORK/crawls"
SERVERS=()
for i in "${SELECTED[@]}"; do
  SERVERS+=("$(nginx_server "${PKG_NAMES[$i]}" "$ADDR:$((BASE_PORT + i))" "${PKG_ROOTS[$i]}" "tcp_nopush on" \
    "access_log $LOGS/$((BASE_PORT + i)).log site")")
done
# shellcheck disable=SC2016 # nginx's variables
nginx_conf "$WORK" "$NGINX_WORKERS" 4096 "$LOGS/error.log" '$server_port\t$request_uri\t$status\t$sent_http_content_type' \
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
for i in "${SELECTED[@]}"; do
  curl -sf -o /dev/null "http://$ADDR:$((BASE_PORT + i))/index.html" \
    || { echo "learn-bench: nginx does not answer on $ADDR:$((BASE_PORT + i))" >&2; exit 1; }
  find -L "${PKG_ROOTS[$i]}" -type f -print0 | xargs -0 cat > /dev/null # the first crawl does not pay for the disk
done

echo "learn-bench: packages=$(for i in "${SELECTED[@]}"; do printf '%s ' "${PKG_NAMES[$i]}"; done)runs=$RUNS; work in $WORK"
echo "learn-bench: on:    $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads $THREADS --out DIR -q SEEDS"
echo "learn-bench: off:   the same with --set scope.learn-duplicates=false"
[ "$WGET2" = 1 ] && echo "learn-bench: wget2: wget2 -q --recursive --level=inf --no-parent --max-threads=$WGET_THREADS" \
  "-P $RAM_DIR/... SEEDS ($(wget2 --version 2>/dev/null | head -1 | sed 's/ - .*//'))"
echo "learn-bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg); build: $(git log --oneline -1 | cut -c1-72)"

RESULTS=$WORK/results.tsv
printf 'package\twho\trun\tpages\trecords\tseconds\tpages_per_s\tcpu_s\trss_mb\tlearned_traps\trules\trewritten\ttemplates\tlearner_bytes\texit\n' \
  > "$RESULTS"

# The crawler's figures from its output folder: fetched-200 records, learned traps, rules, summary's learned section.
crawl_figures() { # OUT: "records learned_traps rules rewritten templates learner_bytes"; its fetched URLs in OUT/../fetched.txt
  python3 - "$1" <<'EOF'
import json, os, sys
out = sys.argv[1]
records = traps = 0
fetched = []
try:
    with open(os.path.join(out, "pages.jsonl"), encoding="utf-8", errors="replace") as pages:
        for line in pages:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("outcome") == "fetched" and r.get("status") == 200:
                records += 1
                fetched.append(r.get("url", ""))
            elif r.get("outcome") == "trap" and str(r.get("error") or "").startswith("learned rule: "):
                traps += 1
except OSError:
    pass
with open(os.path.join(os.path.dirname(out), "fetched.txt"), "w", encoding="utf-8") as f:
    f.write("".join(u + "\n" for u in sorted(set(fetched))))
rules = 0
try:
    with open(os.path.join(out, "rules.jsonl"), encoding="utf-8", errors="replace") as f:
        rules = sum(1 for line in f if line.strip())
except OSError:
    pass
learned = {}
try:
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        learned = json.load(f).get("learned") or {}
except (OSError, ValueError):
    pass
def get(key):
    v = learned.get(key) if isinstance(learned, dict) else None
    return "NA" if v is None else str(v)
print(records, traps, rules, get("rewritten"), get("templates"), get("estimatedBytes"))
EOF
}

crawl() { # INDEX WHO RUN: one crawl of package INDEX, a RESULT line and a row of results.tsv
  local i=$1 who=$2 run=$3 dir port seeds=() rc=0 figures
  port=$((BASE_PORT + i))
  dir=$WORK/crawls/${PKG_NAMES[$i]}-$run-$who
  mkdir -p "$dir"
  for path in ${PKG_SEEDS[$i]}; do seeds+=("http://$ADDR:$port$path"); done
  : > "$LOGS/$port.log"
  case "$who" in
    on|off)
      local set=()
      [ "$who" = off ] && set=(--set scope.learn-duplicates=false)
      # shellcheck disable=SC2086 # CRAWLER is a list of words
      /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" $CRAWLER crawl --profile "$PROFILE" \
        --threads "$THREADS" --out "$dir/out" "${set[@]}" -q "${seeds[@]}" > "$dir/crawler.out" 2>&1 &
      ;;
    wget2)
      /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" wget2 -q --recursive --level=inf \
        --no-parent --max-threads="$WGET_THREADS" -P "$RAM_DIR/wget2" "${seeds[@]}" > "$dir/crawler.out" 2>&1 &
      ;;
  esac
  CRAWL_PID=$!
  wait "$CRAWL_PID" || rc=$?
  CRAWL_PID=
  cp "$LOGS/$port.log" "$dir/access.log"
  : > "$LOGS/$port.log"
  rm -rf "$RAM_DIR/wget2"
  # wget2 exits 8 when the server answered an error (404s): the crawl is still whole.
  if [ "$rc" != 0 ] && ! { [ "$who" = wget2 ] && [ "$rc" = 8 ]; }; then
    echo "learn-bench: ${PKG_NAMES[$i]} $who exited with $rc; the last lines of $dir/crawler.out:" >&2
    tail -5 "$dir/crawler.out" >&2
  fi
  awk -F'\t' '$3 == 200 && $4 ~ /^text\/html/ {print $1 $2}' "$dir/access.log" | sort -u > "$dir/pages.txt"
  if [ "$who" = wget2 ]; then figures="- - - NA NA NA"; else figures=$(crawl_figures "$dir/out"); fi
  local line
  line=$(awk -v pkg="${PKG_NAMES[$i]}" -v who="$who" -v run="$run" -v pages="$(wc -l < "$dir/pages.txt")" \
    -v figures="$figures" -v rc="$rc" -v time="$(tail -1 "$dir/time")" 'BEGIN {
      split(time, t, " "); split(figures, f, " ")
      printf "%s\t%s\t%s\t%d\t%s\t%.2f\t%.0f\t%.2f\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\n", pkg, who, run, pages, f[1], t[1],
        (t[1] > 0 ? pages / t[1] : 0), t[2] + t[3], t[4] / 1024, f[2], f[3], f[4], f[5], f[6], rc }')
  echo "$line" >> "$RESULTS"
  echo "$line" | awk -F'\t' '{ printf "RESULT package=%s who=%s run=%s pages=%s records=%s seconds=%s pages_per_s=%s" \
    " cpu_s=%s rss_mb=%s learned_traps=%s rules=%s rewritten=%s templates=%s learner_bytes=%s exit=%s\n", $1, $2, $3, $4, $5,
    $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 }'
}

for i in "${SELECTED[@]}"; do
  for run in $(seq 1 "$RUNS"); do
    crawl "$i" on "$run"
    crawl "$i" off "$run"
  done
  [ "$WGET2" = 1 ] && crawl "$i" wget2 1
done
echo "learn-bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- the summary -------------------------------------------------------------------------------------------
median() { sort -n | awk -v OFMT='%.1f' '{v[NR] = $1} END {if (NR == 0) print "NA"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
column_of() { # PACKAGE WHO COLUMN: the values of that column
  awk -F'\t' -v p="$1" -v who="$2" -v c="$3" 'NR > 1 && $1 == p && $2 == who {print $c}' "$RESULTS"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.3f", a / b; else print "n/a"}'; }
sum_of() { column_of "$@" | awk '$1 ~ /^[0-9]+$/ {s += $1} END {print s + 0}'; }
echo
echo "### learning on and off: $(for i in "${SELECTED[@]}"; do printf '%s ' "${PKG_NAMES[$i]}"; done)($RUNS run(s) each; medians)"
echo
echo "| package | pages on / off | lost (nginx / records) | learned traps | rules | rewritten | pages/s on / off (ratio) | CPU-s on / off (ratio) | peak RSS MB on / off (ratio) | templates / learner bytes (on) | wget2: pages, pages/s, CPU-s, RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
LOST_ALL=0
for i in "${SELECTED[@]}"; do
  p=${PKG_NAMES[$i]}
  lost_nginx=0 lost_records=0
  for run in $(seq 1 "$RUNS"); do
    on=$WORK/crawls/$p-$run-on off=$WORK/crawls/$p-$run-off
    comm -13 "$on/pages.txt" "$off/pages.txt" > "$WORK/lost-$p-$run.txt"
    comm -13 "$on/fetched.txt" "$off/fetched.txt" > "$WORK/lost-records-$p-$run.txt"
    lost_nginx=$((lost_nginx + $(wc -l < "$WORK/lost-$p-$run.txt")))
    lost_records=$((lost_records + $(wc -l < "$WORK/lost-records-$p-$run.txt")))
  done
  LOST_ALL=$((LOST_ALL + (lost_nginx > lost_records ? lost_nginx : lost_records)))
  pps_on=$(column_of "$p" on 7 | median) pps_off=$(column_of "$p" off 7 | median)
  cpu_on=$(column_of "$p" on 8 | median) cpu_off=$(column_of "$p" off 8 | median)
  rss_on=$(column_of "$p" on 9 | median) rss_off=$(column_of "$p" off 9 | median)
  wget=n/a
  [ "$WGET2" = 1 ] && wget="$(column_of "$p" wget2 4), $(column_of "$p" wget2 7), $(column_of "$p" wget2 8), $(column_of "$p" wget2 9)"
  echo "| $p | $(column_of "$p" on 4 | median) / $(column_of "$p" off 4 | median) | $lost_nginx / $lost_records" \
    "| $(sum_of "$p" on 10) | $(sum_of "$p" on 11) | $(column_of "$p" on 12 | tail -1) |" \
    "$pps_on / $pps_off ($(ratio "$pps_on" "$pps_off")) | $cpu_on / $cpu_off ($(ratio "$cpu_on" "$cpu_off")) |" \
    "$rss_on / $rss_off ($(ratio "$rss_on" "$rss_off")) | $(column_of "$p" on 13 | tail -1) / $(column_of "$p" on 14 | tail -1) | $wget |"
done
echo
for i in "${SELECTED[@]}"; do
  p=${PKG_NAMES[$i]}
  for run in $(seq 1 "$RUNS"); do
    for kind in lost lost-records; do
      f=$WORK/$kind-$p-$run.txt
      [ -s "$f" ] || continue
      echo "$p, run $run: fetched with learning off, not on ($([ $kind = lost ] && echo "nginx's log" || echo pages.jsonl);" \
        "first 10 of $(wc -l < "$f"), all in $f):"
      if [ $kind = lost ]; then head -10 "$f" | sed 's/^/    /'; continue; fi
      head -10 "$f" | while read -r url; do # with the learning crawl's record of it (outcome, error), if any
        echo "    $url  $(grep -F "\"url\":\"$url\"" "$WORK/crawls/$p-$run-on/out/pages.jsonl" | head -1 \
          | python3 -c 'import json, sys; r = json.loads(sys.stdin.read() or "{}"); print("(learning on: " + str(r.get("outcome", "no record")) + ", " + str(r.get("error")) + ")")')"
      done
    done
  done
done
echo "learn-bench: $([ "$LOST_ALL" = 0 ] && echo "no page lost" || echo "PAGES LOST: $LOST_ALL (over the runs)")." \
  "Results in $RESULTS; each crawl's output and access log in $WORK/crawls/PACKAGE-RUN-WHO/"
