#!/usr/bin/env bash
# The recrawl benchmark (issue 29, "Done when"): a crawl of a Debian documentation package served by nginx, then
# recrawls with `crawl --since` of the same site unchanged, changed by a seeded change set, and unchanged again (a
# chain), each side by side with GNU wget2's timestamping mirror (`--mirror`: -r -N -l inf) of the same site.
# nginx's access log is the referee: bytes it sent, requests, statuses.
#
#   crawler-bench/recrawl-bench.sh [--package NAME]     # apache2-doc by default (2,685 HTML files, 26 MB)
#
# The site: the package's folder (crawler-bench/doc-site.sh) copied to WORK/site (file times kept), served by an
# nginx of its own on ADDR:PORT (a free port when PORT is not set; ADDR 127.0.0.2, as real-bench.sh: wget2 takes any
# port of a seed's host for the same site) with nginx's defaults for validators: ETag ("mtime-size" in hex) and
# Last-Modified, a 304 to a matching If-None-Match or If-Modified-Since. Its access log (in LOGS, RAM) records
# $status $body_bytes_sent $bytes_sent $request, the conditional headers received and the content type, and is
# copied and emptied after each run: WORK/runs/RUN/access.log.
#
# The runs, in this order (RUN: what it does):
#   c1       $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads THREADS --warc
#            --set output.links=true --out WORK/c1 -q SEEDS
#   w1       wget2 -q --mirror --no-parent --max-threads=WGET_THREADS -P WORK/w1 SEEDS
#   c2a      nothing changed: $CRAWLER crawl ... --since WORK/c1 --out WORK/c2a (the same flags as c1, no seeds:
#            the earlier crawl's seed it; SINCE_SEEDS=1 passes SEEDS too)
#   w2a      wget2 the same on WORK/w2a, a copy of WORK/w1 (file times kept: -N compares them)
#   (mutation: crawler-bench/recrawl-mutate.py WORK/site http://ADDR:PORT WORK/c1/pages.jsonl WORK/truth
#            --seed SEED: of c1's HTML pages, 1 % changed, 0.5 % new pages linked from changed ones, 0.5 % deleted,
#            1 % touched; the URL lists in WORK/truth/*.txt)
#   c2b      the changed site: --since WORK/c1 --out WORK/c2b
#   w2b      wget2 on WORK/w2b, a copy of WORK/w1
#   c2c      a chain, the site as c2b saw it: --since WORK/c2b --out WORK/c2c
#   w2c      wget2 on WORK/w2c, a copy of WORK/w2b
# Each run a fresh process (the launcher's JVM start included), timed by /usr/bin/time (wall, user + system CPU,
# peak RSS); first_request_s: from its start to nginx's first request ($msec), span_s: first to last request. Until the launcher has `crawl --since` (`crawl --help` names it), c2a, c2b and c2c are skipped with a
# message, and the wget2 runs and the mutation still run. SINCE=0 skips them, SINCE=1 runs them regardless.
#
# The checks (crawler-bench/recrawl-check.py, which documents them; CHECK lines, set differences printed):
#   c2a, c2c   every page of the earlier crawl `not-modified` (pages.jsonl and changes.jsonl), none missing, each
#              with a WARC revisit record, and each revisit's original (WARC-Refers-To, -Target-URI, -Date, payload
#              digest) a response record in an earlier crawl's WARC files (c1; c1 or c2b for the chain)
#   c2b        changes.jsonl's changed / new / gone are exactly the truth's changed / added / deleted, the touched
#              pages `unchanged` (200, the same digest), every other page `not-modified`; each changed and new page
#              has a full response record, every revisit's original found in c1's WARC files
#   jwarc      `java -jar jwarc-*.jar validate` (JWARC, from ~/.m2 by default) on each crawl's WARC files
#
# Output: a RESULT line per run and WORK/results.tsv (run, tool, requests, status counts, MB and bytes nginx sent,
# the ratio to the tool's first crawl, WARC bytes and ratio, wall and CPU seconds, peak RSS, not-modified records,
# missing pages, check verdict) and WORK/results.md, the readable table with the "Done when" figures.
#
# Environment: WORK (/tmp/sieve-recrawl-bench), LOGS (/dev/shm/sieve-recrawl-bench), CRAWLER
# (crawler-cli/target/crawler, built with mvn -o -q -B -pl crawler-core,crawler-cli -am package -DskipTests when
# missing or REBUILD=1), ADDR (127.0.0.2), PORT (a free one), THREADS (16), WGET_THREADS (16), SEED (29), CHANGE
# (0.01), ADD (0.005), DELETE (0.005), TOUCH (0.01), SINCE (auto), SINCE_SEEDS (0), WGET2 (1; 0 leaves wget2 out),
# CRAWL_TIMEOUT (600 s per run), JWARC (the jwarc jar). Needs nginx, wget2, time, python3 and the package
# (installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

usage() {
  echo "usage: crawler-bench/recrawl-bench.sh [--package $(package_choices)]" >&2
  exit 2
}
package_option "$@" || usage
[ $# -gt 0 ] || PACKAGE=apache2-doc
P=$(package_index recrawl-bench "$PACKAGE") || exit 2

WORK=${WORK:-/tmp/sieve-recrawl-bench}
LOGS=${LOGS:-/dev/shm/sieve-recrawl-bench}
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
ADDR=${ADDR:-127.0.0.2}
THREADS=${THREADS:-16}
WGET_THREADS=${WGET_THREADS:-16}
SEED=${SEED:-29}
CHANGE=${CHANGE:-0.01}
ADD=${ADD:-0.005}
DELETE=${DELETE:-0.005}
TOUCH=${TOUCH:-0.01}
SINCE=${SINCE:-auto}
SINCE_SEEDS=${SINCE_SEEDS:-0}
WGET2=${WGET2:-1}
CRAWL_TIMEOUT=${CRAWL_TIMEOUT:-600}
PROFILE=$ROOT/crawler-bench/real-bench.yaml
JWARC=${JWARC:-$(find "$HOME/.m2/repository/org/netpreserve/jwarc" -name 'jwarc-*.jar' 2>/dev/null | sort -V | tail -1)}

# --- what the bench needs ----------------------------------------------------------------------------------------
mapfile -t MISSING < <(site_missing "$P")
command -v wget2 >/dev/null 2>&1 || MISSING+=(wget2)
[ -x /usr/bin/time ] || MISSING+=(time)
command -v python3 >/dev/null 2>&1 || MISSING+=(python3)
apt_install recrawl-bench "${MISSING[@]}"
if [ "$CRAWLER" = crawler-cli/target/crawler ] && { [ "${REBUILD:-0}" = 1 ] || [ ! -f crawler-cli/target/crawler.jar ]; }; then
  mvn -o -q -B -pl crawler-core,crawler-cli -am package -DskipTests
fi
case "$SINCE" in
  auto)
    # shellcheck disable=SC2086 # CRAWLER may be a command with arguments
    HELP=$($CRAWLER crawl --help 2>&1 || true) # whole, then searched: grep -q in a pipe could cut it (pipefail)
    if grep -q -- --since <<< "$HELP"; then SINCE=1; else SINCE=0
      echo "recrawl-bench: this launcher's crawl has no --since (issue 29 not built in yet): the crawler's" \
        "recrawls c2a, c2b and c2c and their checks are skipped; crawl 1, wget2 and the mutation run" >&2
    fi ;;
  0|1) ;;
  *) echo "recrawl-bench: SINCE=$SINCE: not auto, 0 or 1" >&2; exit 2 ;;
esac
if [ -z "${PORT:-}" ]; then
  PORT=$(python3 -c 'import socket, sys; s = socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "$ADDR")
fi
if curl -s -o /dev/null --max-time 2 "http://$ADDR:$PORT/"; then
  echo "recrawl-bench: $ADDR:$PORT already answers; stop that server or choose another PORT" >&2
  exit 1
fi
BASE=http://$ADDR:$PORT
SEEDS=()
for path in ${PKG_SEEDS[$P]}; do SEEDS+=("$BASE$path"); done

# --- the site and its server ---------------------------------------------------------------------------------------
rm -rf "$WORK" "$LOGS" && mkdir -p "$WORK/runs" "$LOGS"
cp -rL --preserve=timestamps "${PKG_ROOTS[$P]}" "$WORK/site"
LOG=$LOGS/access.log
# shellcheck disable=SC2016 # nginx's variables
nginx_conf "$WORK" 1 1024 "$LOGS/error.log" \
  '$status\t$body_bytes_sent\t$bytes_sent\t$request\t$http_if_none_match\t$http_if_modified_since\t$sent_http_content_type\t$msec' \
  "$(nginx_server "${PKG_NAMES[$P]}, a copy" "$ADDR:$PORT" "$WORK/site" "access_log $LOG site")" > "$WORK/nginx.conf"
CRAWL_PID=
cleanup() {
  [ -n "$CRAWL_PID" ] && kill "$CRAWL_PID" 2>/dev/null
  nginx_stop "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
nginx_start "$WORK"
curl -sf -o /dev/null "${SEEDS[0]}" || { echo "recrawl-bench: nginx does not answer ${SEEDS[0]}" >&2; exit 1; }
find "$WORK/site" -type f -print0 | xargs -0 cat > /dev/null # the first crawl does not pay for the disk
HTML_FILES=$(find "$WORK/site" -type f -name '*.html*' | wc -l)

echo "recrawl-bench: package=${PKG_NAMES[$P]} ($HTML_FILES HTML files) at $BASE, seeds ${SEEDS[*]}; work in $WORK"
echo "recrawl-bench: sieve: $CRAWLER crawl --profile crawler-bench/real-bench.yaml --threads $THREADS --warc" \
  "--set output.links=true --out DIR -q [--since EARLIER] SEEDS"
echo "recrawl-bench: wget2: wget2 -q --mirror --no-parent --max-threads=$WGET_THREADS -P DIR SEEDS" \
  "($(wget2 --version 2>/dev/null | head -1 | sed 's/ - .*//'))"
echo "recrawl-bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- one run ---------------------------------------------------------------------------------------------------
RESULTS=$WORK/results.tsv
printf 'run\ttool\trequests\tstatus_200\tstatus_304\tstatus_404\tother_status\tconditional\tsent_bytes\tbody_bytes\tsent_ratio\twarc_bytes\twarc_ratio\tseconds\tcpu_s\trss_mb\tnot_modified\tmissing\tcheck\texit\tfirst_request_s\tspan_s\n' > "$RESULTS"
: > "$LOG"

warc_bytes() { # DIR: the bytes of its WARC files (0 without)
  find "$1" -maxdepth 1 -name '*.warc*' -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}'
}

crawl() { # RUN TOOL [EARLIER]: one run into WORK/RUN (the crawler's output or wget2's mirror); a RESULT line
  local run=$1 tool=$2 earlier=${3:-} dir=$WORK/runs/$1 out=$WORK/$1 rc=0
  mkdir -p "$dir"
  : > "$LOG"
  local started
  started=$(date +%s.%N)
  if [ "$tool" = sieve ]; then
    local args=(crawl --profile "$PROFILE" --threads "$THREADS" --warc --set output.links=true --out "$out" -q)
    if [ -n "$earlier" ]; then
      args+=(--since "$WORK/$earlier")
      [ "$SINCE_SEEDS" = 1 ] && args+=("${SEEDS[@]}")
    else
      args+=("${SEEDS[@]}")
    fi
    echo "${args[*]}" > "$dir/command"
    # shellcheck disable=SC2086 # CRAWLER may be a command with arguments
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" $CRAWLER "${args[@]}" > "$dir/crawler.out" 2>&1 &
  else
    [ -n "$earlier" ] && cp -a "$WORK/$earlier" "$out"
    sync # the copy reaches the disk now, not during the run
    started=$(date +%s.%N) # after the copy
    echo "wget2 -q --mirror --no-parent --max-threads=$WGET_THREADS -P $out ${SEEDS[*]}" > "$dir/command"
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" timeout "$CRAWL_TIMEOUT" wget2 -q --mirror --no-parent \
      --max-threads="$WGET_THREADS" -P "$out" "${SEEDS[@]}" > "$dir/crawler.out" 2>&1 &
  fi
  CRAWL_PID=$!
  wait "$CRAWL_PID" || rc=$?
  CRAWL_PID=
  cp "$LOG" "$dir/access.log"
  : > "$LOG"
  sync
  # wget2 exits 8 when the server answered an error (the manual's dead links, the deleted pages): a whole crawl.
  if [ "$rc" != 0 ] && ! { [ "$tool" = wget2 ] && [ "$rc" = 8 ]; }; then
    echo "recrawl-bench: $run ($tool) exited with $rc; the last lines of $dir/crawler.out:" >&2
    tail -5 "$dir/crawler.out" >&2
  fi
  local first=$WORK/runs/$([ "$tool" = sieve ] && echo c1 || echo w1) warc=0 warc1=0 not_modified=- missing=-
  if [ "$tool" = sieve ]; then
    warc=$(warc_bytes "$out")
    warc1=$(warc_bytes "$WORK/c1")
    if [ -n "$earlier" ] && [ -f "$out/pages.jsonl" ]; then
      not_modified=$(grep -c '"outcome":"not-modified"' "$out/pages.jsonl" || true)
      missing=$(python3 - "$WORK/$earlier/pages.jsonl" "$out/pages.jsonl" <<'EOF'
import json, sys
def urls(path, pages_only):
    with open(path, encoding="utf-8", errors="replace") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {r["url"] for r in rows if not pages_only or r.get("status") == 200 or r.get("outcome") == "not-modified"}
print(len(urls(sys.argv[1], True) - urls(sys.argv[2], False)))
EOF
)
    fi
  fi
  local line
  line=$(awk -F'\t' -v run="$run" -v tool="$tool" -v rc="$rc" -v warc="$warc" -v warc1="$warc1" \
    -v nm="$not_modified" -v missing="$missing" -v time="$(tail -1 "$dir/time")" \
    -v sent1="$(awk -F'\t' '{s += $3} END {print s + 0}' "$first/access.log")" -v started="$started" '
    { requests++; sent += $3; body += $2; status[$1]++; if ($5 != "-" || $6 != "-") conditional++
      if (firstreq == "" || $8 < firstreq) firstreq = $8; if ($8 > lastreq) lastreq = $8 }
    END {
      split(time, t, " ")
      other = requests - status[200] - status[304] - status[404]
      printf "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t%d\t%s\t%.2f\t%.2f\t%.0f\t%s\t%s\t-\t%s\t%.2f\t%.2f\n", run, tool, requests,
        status[200], status[304], status[404], other, conditional, sent, body, (sent1 > 0 ? sent / sent1 : 0), warc,
        (tool == "sieve" && warc1 > 0 ? sprintf("%.4f", warc / warc1) : "-"), t[1], t[2] + t[3], t[4] / 1024, nm,
        missing, rc, (requests ? firstreq - started : 0), lastreq - firstreq
    }' "$dir/access.log")
  echo "$line" >> "$RESULTS"
  echo "$line" | awk -F'\t' '{
    printf "RESULT run=%s tool=%s requests=%s 200=%s 304=%s 404=%s other=%s conditional=%s sent_bytes=%s body_bytes=%s" \
      " sent_ratio=%s warc_bytes=%s warc_ratio=%s seconds=%s first_request_s=%s span_s=%s cpu_s=%s rss_mb=%s" \
      " not_modified=%s missing=%s exit=%s\n",
      $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $21, $22, $15, $16, $17, $18, $20 }'
}

set_check() { # RUN VERDICT: the check column of RUN's row
  awk -F'\t' -v OFS='\t' -v run="$1" -v v="$2" '$1 == run {$19 = v} {print}' "$RESULTS" > "$RESULTS.tmp"
  mv "$RESULTS.tmp" "$RESULTS"
}

check() { # RUN MODE ARGS...: recrawl-check.py MODE ARGS, its output in WORK/runs/RUN/check.txt and shown
  local run=$1 rc=0
  shift
  python3 crawler-bench/recrawl-check.py "$@" --launcher "$CRAWLER" > "$WORK/runs/$run/check.txt" 2>&1 || rc=$?
  grep -v '^CHECK name=.* pass' "$WORK/runs/$run/check.txt" | sed "s/^/  $run: /" | head -120
  # pass, or FAIL and the failed checks' names, e.g. "FAIL (changes-jsonl)"; error: an input was unreadable
  case $rc in
    0|1) set_check "$run" "$(sed -n 's/^CHECKED .* verdict=//p' "$WORK/runs/$run/check.txt")" ;;
    *) set_check "$run" error ;;
  esac
}

# --- crawl 1 ---------------------------------------------------------------------------------------------------
crawl c1 sieve
[ "$WGET2" = 1 ] && crawl w1 wget2
[ -s "$WORK/c1/pages.jsonl" ] || { echo "recrawl-bench: crawl 1 recorded nothing; see $WORK/runs/c1/crawler.out" >&2; exit 1; }

# --- run 2a: nothing changed ------------------------------------------------------------------------------------
if [ "$SINCE" = 1 ]; then
  crawl c2a sieve c1
  check c2a same "$WORK/c1" "$WORK/c2a"
fi
[ "$WGET2" = 1 ] && crawl w2a wget2 w1

# --- the mutation, run 2b ------------------------------------------------------------------------------------------
python3 crawler-bench/recrawl-mutate.py "$WORK/site" "$BASE" "$WORK/c1/pages.jsonl" "$WORK/truth" --seed "$SEED" \
  --change "$CHANGE" --add "$ADD" --delete "$DELETE" --touch "$TOUCH"
sleep 1 # a Last-Modified of the mutation's second, not one a later edit could share
if [ "$SINCE" = 1 ]; then
  crawl c2b sieve c1
  check c2b mutation "$WORK/c1" "$WORK/c2b" "$WORK/truth"
fi
[ "$WGET2" = 1 ] && crawl w2b wget2 w1

# --- run 2c: a chain, nothing changed since 2b -----------------------------------------------------------------
if [ "$SINCE" = 1 ]; then
  crawl c2c sieve c2b
  check c2c same "$WORK/c2b" "$WORK/c2c" --archives "$WORK/c1" "$WORK/c2b"
fi
[ "$WGET2" = 1 ] && crawl w2c wget2 w2b
echo "recrawl-bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- jwarc validate ----------------------------------------------------------------------------------------------
JWARC_VERDICTS=()
if [ -z "$JWARC" ] || [ ! -f "$JWARC" ]; then
  echo "recrawl-bench: no jwarc jar (JWARC, or ~/.m2/repository/org/netpreserve/jwarc): WARC validation skipped" >&2
else
  for run in c1 c2a c2b c2c; do
    [ -d "$WORK/$run" ] || continue
    mapfile -t files < <(find "$WORK/$run" -maxdepth 1 -name '*.warc*' | sort)
    [ ${#files[@]} -gt 0 ] || continue
    rc=0
    java -jar "$JWARC" validate "${files[@]}" > "$WORK/runs/$run/jwarc.txt" 2>&1 || rc=$?
    verdict=$([ "$rc" = 0 ] && echo pass || echo FAIL)
    JWARC_VERDICTS+=("$run=$verdict")
    echo "JWARC run=$run files=${#files[@]} verdict=$verdict$([ "$rc" = 0 ] || echo " (exit $rc; $WORK/runs/$run/jwarc.txt)")"
    [ "$rc" = 0 ] || head -5 "$WORK/runs/$run/jwarc.txt" | sed 's/^/  /'
  done
fi

# --- the summary ----------------------------------------------------------------------------------------------------
{
  echo "### recrawl: ${PKG_NAMES[$P]} ($HTML_FILES HTML files), $(date -u +%Y-%m-%d)"
  echo
  echo "change set (seed $SEED): $(sed 's/^candidates=/candidate pages /; s/=/ /g' "$WORK/truth/counts.txt" 2>/dev/null || echo none)"
  echo
  awk -F'\t' '
    function commas(n,   s) { s = sprintf("%.0f", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
    BEGIN {
      print "| run | tool | requests | 200 | 304 | 404 | conditional | bytes sent | ÷ crawl 1 | WARC bytes | ÷ crawl 1 | seconds | CPU-s | peak RSS MB | not-modified | missing | check |"
      print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    }
    NR > 1 {
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %.2f %% | %s | %s | %.2f | %.2f | %s | %s | %s | %s |\n", $1, $2, commas($3),
        commas($4), commas($5), commas($6), commas($8), commas($9), 100 * $11, ($2 == "sieve" ? commas($12) : "-"),
        ($13 == "-" ? "-" : sprintf("%.2f %%", 100 * $13)), $14, $15, $16, $17, $18, $19
    }' "$RESULTS"
  echo
  echo "Side by side (each tool's run against its own crawl 1; bytes: what nginx sent, headers included):"
  echo
  echo "| run | sieve bytes sent | wget2 bytes sent | sieve ÷ wget2 | sieve seconds (to 1st request, requests span) | wget2 seconds | sieve CPU-s | wget2 CPU-s |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for r in 1 2a 2b 2c; do
    awk -F'\t' -v c="c$r" -v w="w$r" -v r="$r" '
      function commas(n,   s) { s = sprintf("%.0f", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
      $1 == c {cb = $9; cs = $14 " (" $21 ", " $22 ")"; cc = $15; have++} $1 == w {wb = $9; ws = $14; wc = $15; have++}
      END {
        if (have == 0) exit
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r, (cb == "" ? "-" : commas(cb)), (wb == "" ? "-" : commas(wb)),
          (cb != "" && wb > 0 ? sprintf("%.2fx", cb / wb) : "-"), (cs == "" ? "-" : cs), (ws == "" ? "-" : ws),
          (cc == "" ? "-" : cc), (wc == "" ? "-" : wc)
      }' "$RESULTS"
  done
  echo
  [ ${#JWARC_VERDICTS[@]} -gt 0 ] && echo "jwarc validate ($(basename "$JWARC")): ${JWARC_VERDICTS[*]}" && echo
  if [ "$SINCE" = 0 ]; then
    echo "The crawler's recrawls (c2a, c2b, c2c) were skipped: this launcher's crawl has no --since."
  else
    echo "Done when: 2a bytes sent <= 5 % of crawl 1: $(awk -F'\t' '$1 == "c2a" {print ($11 <= 0.05 ? "yes" : "NO") " (" sprintf("%.2f", 100 * $11) " %)"}' "$RESULTS");" \
      "WARC <= 5 %: $(awk -F'\t' '$1 == "c2a" {print ($13 != "-" && $13 <= 0.05 ? "yes" : "NO") " (" ($13 == "-" ? "-" : sprintf("%.2f", 100 * $13)) " %)"}' "$RESULTS");" \
      "checks: $(awk -F'\t' '$2 == "sieve" && $1 != "c1" {printf "%s%s %s", sep, $1, $19; sep = ", "}' "$RESULTS")"
    for run in c2a c2b c2c; do
      [ -f "$WORK/runs/$run/check.txt" ] && echo "$run $(grep -h '^WARC records' "$WORK/runs/$run/check.txt")"
    done
  fi
} > "$WORK/results.md"
echo
cat "$WORK/results.md"
echo "recrawl-bench: results in $RESULTS and $WORK/results.md; each run's access log, time and checks in $WORK/runs/RUN/"
