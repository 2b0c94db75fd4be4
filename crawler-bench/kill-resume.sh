#!/usr/bin/env bash
# The kill-and-resume bench: what a crawl killed with kill -9 at random points fetches again when resumed, measured
# on a real documentation site (a Debian doc package served by nginx on a loopback address). nginx's access log is
# the referee: it counts every request, the first of a page and the ones after it, whatever the crawler recorded.
#
#   crawler-bench/kill-resume.sh [--package NAME]     # rust-doc by default (21,738 pages, ~5-10 s per crawl)
#
# Packages (NAME: the Debian package or its short name): rust-doc (rust), apache2-doc (apache), libboost1.81-doc
# (boost), python-django-doc (django); the folder served and the seeds of each in crawler-bench/doc-site.sh, the
# table real-bench.sh and server-bench.sh read too.
#
# Every crawl is  $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads THREADS
#                   --set checkpoint.interval=CHECKPOINT --out DIR -q SEEDS
# and the rounds are, the access log cleared before each:
#   reference   one whole crawl: the site's pages (every path requested, robots.txt aside) and its record count R.
#   kill-1..K   a crawl killed with SIGKILL once pages.jsonl has N lines, then `crawl --resume DIR` to its end.
#               The K kill points N are drawn from SEED, uniformly between MIN_PCT % and MAX_PCT % of R, and run in
#               increasing order. pages.jsonl grows line by line, so the crawl is killed a poll interval after
#               its N-th record (before the frontier journal, by whole 256 KiB buffers).
#   sigterm     the same, stopped with SIGTERM at 50 % of R (a graceful stop: its exit code must be 143).
# Each round prints one RESULT line:
#   kill_at         N, the records the round waited for before the signal
#   records_at_kill lines in pages.jsonl once the crawl is dead
#   served_at_kill  requests nginx had logged (answered) by then, robots.txt aside: served_at_kill - records_at_kill
#                   pages were fetched but not recorded (the URLs in flight)
#   resume_exit     exit code of `crawl --resume` (0 expected; 2: refused, e.g. no checkpoint yet)
#   pages           distinct paths requested in the round (both runs), robots.txt aside
#   missing         paths of the reference crawl the round never requested (0 expected)
#   twice           paths requested more than once in the round (the issue's bound: <= THREADS, the requests in
#                   flight at the kill; 0 after SIGTERM)
#   extra           requests beyond the first of each path
#   records_twice   URLs with more than one line in pages.jsonl
#   threads, checkpoint   THREADS and CHECKPOINT
# and at the end a summary: the largest `twice` of the kill rounds, how many met the bound, whether every round
# fetched every page. The script exits 1 when a round missed a page (or a crawl failed), 0 otherwise: a round
# over the bound is reported, not an error, so the figures of today's code can be taken.
#
# Environment: KILLS (10), SEED (13), THREADS (8), CHECKPOINT (60s, the profile default; real-bench.yaml itself
# says 0), MIN_PCT (5), MAX_PCT (90), ADDR (127.0.0.2), PORT (19300, not real-bench's 19100-19140), WORK
# (/tmp/sieve-kill-resume), CRAWLER (crawler-cli/target/crawler), CRAWL_TIMEOUT (300 s per crawl), REBUILD (1 to
# run mvn package even if the jar exists). Missing packages (the doc package, nginx) are installed with apt-get.
# The nginx started here listens on ADDR:PORT only and is stopped at the end; no other server is touched: if the
# port is taken, the script says so and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

usage() {
  echo "usage: crawler-bench/kill-resume.sh [--package $(package_choices)]" >&2
  exit 2
}
package_option "$@" || usage

KILLS=${KILLS:-10}
SEED=${SEED:-13}
THREADS=${THREADS:-8}
CHECKPOINT=${CHECKPOINT:-60s}
MIN_PCT=${MIN_PCT:-5}
MAX_PCT=${MAX_PCT:-90}
ADDR=${ADDR:-127.0.0.2}
PORT=${PORT:-19300}
WORK=${WORK:-/tmp/sieve-kill-resume}
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-300}
PROFILE=$ROOT/crawler-bench/real-bench.yaml

P=$(package_index kill-resume "$PACKAGE") || exit 2
SITE_ROOT=${PKG_ROOTS[$P]}
SEEDS=()
for path in ${PKG_SEEDS[$P]}; do SEEDS+=("http://$ADDR:$PORT$path"); done

# --- what the bench needs: the package, nginx, the jar ------------------------------------------------------
mapfile -t MISSING < <(site_missing "$P")
apt_install kill-resume "${MISSING[@]}"
if [ "$CRAWLER" = crawler-cli/target/crawler ] && { [ "${REBUILD:-0}" = 1 ] || [ ! -f crawler-cli/target/crawler.jar ]; }; then
  mvn -q -B -o -DskipTests package
fi

# --- the server ------------------------------------------------------------------------------------------------
if curl -s -o /dev/null --max-time 2 "http://$ADDR:$PORT/"; then
  echo "kill-resume: $ADDR:$PORT already answers; stop that server or choose another PORT" >&2
  exit 1
fi
rm -rf "$WORK" && mkdir -p "$WORK/rounds"
LOG=$WORK/access.log
# shellcheck disable=SC2016 # nginx's variables
nginx_conf "$WORK" 1 1024 "$WORK/error.log" '$request_uri\t$status\t$msec' \
  "$(nginx_server "${PKG_NAMES[$P]}" "$ADDR:$PORT" "$SITE_ROOT" "access_log $LOG site")" > "$WORK/nginx.conf"

CRAWL_PID=
cleanup() {
  [ -n "$CRAWL_PID" ] && kill -9 "$CRAWL_PID" 2>/dev/null
  nginx_stop "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
nginx_start "$WORK"
curl -sf -o /dev/null "${SEEDS[0]}" || { echo "kill-resume: nginx does not answer ${SEEDS[0]}" >&2; exit 1; }
find -L "$SITE_ROOT" -type f -print0 | xargs -0 cat > /dev/null # the first crawl does not pay for the disk

crawl_args() { # DIR: the arguments of a new crawl into DIR
  echo crawl --profile "$PROFILE" --threads "$THREADS" --set "checkpoint.interval=$CHECKPOINT" --out "$1" -q
}
paths_of() { # LOG: the distinct paths requested, robots.txt aside
  awk -F'\t' '$1 != "/robots.txt" {print $1}' "$1" | sort -u
}
lines() { # FILE: its line count, 0 if it does not exist
  if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi
}

echo "kill-resume: package=${PKG_NAMES[$P]} kills=$KILLS seed=$SEED threads=$THREADS checkpoint=$CHECKPOINT;" \
  "work in $WORK"
echo "kill-resume: $CRAWLER $(crawl_args DIR) ${SEEDS[*]}"
echo "kill-resume: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- the reference crawl ---------------------------------------------------------------------------------------
REF=$WORK/rounds/reference
mkdir -p "$REF"
: > "$LOG"
# shellcheck disable=SC2046 # crawl_args is a list of words without spaces
timeout "$CRAWL_TIMEOUT" $CRAWLER $(crawl_args "$REF/out") "${SEEDS[@]}" > "$REF/crawler.out" 2>&1 \
  || { echo "kill-resume: the reference crawl failed:" >&2; tail -5 "$REF/crawler.out" >&2; exit 1; }
cp "$LOG" "$REF/access.log"
paths_of "$REF/access.log" > "$WORK/reference-paths.txt"
RECORDS=$(lines "$REF/out/pages.jsonl")
REF_PATHS=$(lines "$WORK/reference-paths.txt")
REF_TWICE=$(awk -F'\t' '$1 != "/robots.txt" {print $1}' "$REF/access.log" | sort | uniq -d | wc -l)
echo "kill-resume: reference: $REF_PATHS paths, $RECORDS records, $REF_TWICE paths requested twice"
[ "$RECORDS" -gt 0 ] || { echo "kill-resume: the reference crawl recorded nothing" >&2; exit 1; }

# The kill points: KILLS record counts drawn from SEED, uniformly in [MIN_PCT %, MAX_PCT %] of RECORDS, ascending.
mapfile -t POINTS < <(awk -v seed="$SEED" -v k="$KILLS" -v n="$RECORDS" -v lo="$MIN_PCT" -v hi="$MAX_PCT" \
  'BEGIN { srand(seed); for (i = 0; i < k; i++) print int(n * (lo + (hi - lo) * rand()) / 100) }' | sort -n)
echo "kill-resume: kill points (records): ${POINTS[*]}"

# --- one round: crawl, signal at N records, resume, count ------------------------------------------------------
RESULTS=$WORK/results.tsv
printf 'round\tsignal\tkill_at\trecords_at_kill\tserved_at_kill\tresume_exit\tpages\tmissing\ttwice\textra\trecords_twice\n' \
  > "$RESULTS"
FAILED=0
round() { # NAME SIGNAL N
  local name=$1 signal=$2 n=$3 dir rc=0 records served
  dir=$WORK/rounds/$name
  mkdir -p "$dir"
  : > "$LOG"
  # shellcheck disable=SC2046
  $CRAWLER $(crawl_args "$dir/out") "${SEEDS[@]}" > "$dir/crawler.out" 2>&1 &
  CRAWL_PID=$! # the launcher execs the JVM: this is the crawl's own process
  local deadline=$((SECONDS + CRAWL_TIMEOUT))
  while [ "$(lines "$dir/out/pages.jsonl")" -lt "$n" ]; do
    if ! kill -0 "$CRAWL_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "kill-resume: $name: the crawl ended (or timed out) before $n records; see $dir/crawler.out" >&2
      kill -9 "$CRAWL_PID" 2>/dev/null || true
      { wait "$CRAWL_PID"; } 2>/dev/null || true
      CRAWL_PID=
      FAILED=1
      return
    fi
    sleep 0.02
  done
  kill -"$signal" "$CRAWL_PID" 2>/dev/null || true
  { wait "$CRAWL_PID"; } 2>/dev/null || rc=$? # without bash's "Killed" line
  CRAWL_PID=
  if [ "$signal" = TERM ] && [ "$rc" != 143 ]; then
    echo "kill-resume: $name: SIGTERM ended the crawl with exit code $rc, not 143" >&2
    FAILED=1
  fi
  records=$(lines "$dir/out/pages.jsonl")
  served=$(awk -F'\t' '$1 != "/robots.txt"' "$LOG" | wc -l)
  cp "$LOG" "$dir/access-at-kill.log"
  rc=0
  timeout "$CRAWL_TIMEOUT" $CRAWLER crawl --resume "$dir/out" -q > "$dir/resume.out" 2>&1 || rc=$?
  cp "$LOG" "$dir/access.log"
  paths_of "$dir/access.log" > "$dir/paths.txt"
  local pages missing twice extra records_twice
  pages=$(lines "$dir/paths.txt")
  missing=$(comm -23 "$WORK/reference-paths.txt" "$dir/paths.txt" | wc -l)
  twice=$(awk -F'\t' '$1 != "/robots.txt" {print $1}' "$dir/access.log" | sort | uniq -d | wc -l)
  extra=$(awk -F'\t' '$1 != "/robots.txt" {n++} END {print n + 0}' "$dir/access.log")
  extra=$((extra - pages))
  records_twice=$(sed -n 's/^{"url":"\([^"]*\)".*/\1/p' "$dir/out/pages.jsonl" | sort | uniq -d | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$signal" "$n" "$records" "$served" "$rc" "$pages" \
    "$missing" "$twice" "$extra" "$records_twice" >> "$RESULTS"
  echo "RESULT round=$name signal=$signal kill_at=$n records_at_kill=$records served_at_kill=$served resume_exit=$rc" \
    "pages=$pages missing=$missing twice=$twice extra=$extra records_twice=$records_twice threads=$THREADS" \
    "checkpoint=$CHECKPOINT"
  if [ "$rc" != 0 ]; then
    echo "  resume: $(grep -v '^\s*$' "$dir/resume.out" | tail -1 | cut -c1-300)"
    FAILED=1
  fi
  [ "$missing" = 0 ] || FAILED=1
}

for i in "${!POINTS[@]}"; do round "kill-$((i + 1))" KILL "${POINTS[$i]}"; done
round sigterm TERM $((RECORDS / 2))
echo "kill-resume: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- the summary -----------------------------------------------------------------------------------------------
awk -F'\t' -v threads="$THREADS" -v kills="$KILLS" -v failed="$FAILED" '
  NR > 1 && $2 == "KILL" {
    n++; if ($9 > max) max = $9; sum += $9
    if ($8 > 0 || $6 != 0) incomplete++; else if ($9 <= threads) within++
  }
  NR > 1 && $2 == "TERM" { term = $9; termMissing = $8 }
  END {
    printf "SUMMARY kill_rounds=%d max_twice=%d mean_twice=%.0f within_bound=%d/%d (complete, twice <= threads %d)" \
      " incomplete_kill_rounds=%d sigterm_twice=%s sigterm_missing=%s all_complete=%s\n", n, max, (n ? sum / n : 0),
      within, n, threads, incomplete, term, termMissing, (failed ? "no" : "yes")
  }' "$RESULTS"
echo "kill-resume: results in $RESULTS; each round's access logs and output in $WORK/rounds/ROUND"
exit "$FAILED"
