#!/usr/bin/env bash
# The learning's cost on a broad crawl (issue 30, "memory bounded, pages/s within 5 %"): broad-bench.sh's generated
# site (H hosts 127.A.B.C of one nginx, 10,000 by default) crawled PAGES pages with the defaults of config/broad.yaml
# (scope.learn-duplicates true: the crawl learns) and with --set scope.learn-duplicates=false, alternating in one run
# of this script (rounds on, off, then off, on, ...: a drift of the machine's load falls on both), a fresh JVM each,
# broad-bench.sh's settings otherwise (-Xmx HEAP, THREADS, DELAY, SEEDS, SIEVE_URLS, ...: it documents them).
#
#   crawler-bench/learn-broad.sh [CRAWLER]        # PAGES=100000 HOSTS=10000 ROUNDS=2
#   PAGES=1000000 MAX_DURATION=60m SIEVE_URLS=20000000 crawler-bench/learn-broad.sh   # the issue's 1 M pages
#
# Each crawl is `WORK=BASE/MODE-ROUND LABEL=learn-MODE JFR=0 broad-bench.sh` (its BROAD and PPS lines are printed as
# they come); then a LEARN line per crawl:
#   pages, wall_s, pages_per_s (pages over the process's wall time), pps_sustained (the median of nginx's pages per
#   10 s, from the first 10 s whose rate reaches half the crawl's best to the one before the last: the JVM's start,
#   the robots.txt burst and the tail left out), cpu_s, cpu_s_per_1k, peak_rss_mb, heap_after_gc_mb (broad-bench:
#   `jcmd GC.run` at 90 % of the pages), templates and learner_bytes (summary.json's learned.templates and
#   learned.estimatedBytes: the learner's evidence, its caps 20,000 templates, 1,000 per host; NA while the summary
#   has no learned section), rewritten (learned.rewritten), learned_traps (pages.jsonl records with outcome trap and
#   an error starting "learned rule: "), rules (lines of rules.jsonl)
# and a table of the medians on and off with their ratios (on / off). The issue's bound: pages/s on >= 0.95 x off.
#
# Environment: PAGES (100000), HOSTS (10000; one H), ROUNDS (2: 2 crawls on, 2 off), FLIP (0; 1 starts with off),
# BASE (/tmp/sieve-learn-broad; each crawl's broad-bench WORK under it, the site generated in each), and
# broad-bench.sh's (THREADS, DELAY, SEEDS, HEAP, MAX_DURATION, SIEVE_URLS, SET, ...; PORT 19750 and LOGS
# /dev/shm/sieve-learn-broad here, so that a broad-bench.sh of its own may run beside). JFR is off (it costs pages/s).
set -euo pipefail
cd "$(dirname "$0")/.."
CRAWLER=${1:-crawler-cli/target/crawler}
export PAGES=${PAGES:-100000}
export HOSTS=${HOSTS:-10000}
ROUNDS=${ROUNDS:-2}
FLIP=${FLIP:-0} # 1: the first round runs off, then on
BASE=${BASE:-/tmp/sieve-learn-broad}
export LOGS=${LOGS:-/dev/shm/sieve-learn-broad} PORT=${PORT:-19750} # not broad-bench's own: one may run beside
SET0=${SET:-}
[[ "$PAGES" =~ ^[1-9][0-9]*$ ]] || { echo "learn-broad: PAGES=$PAGES: must be a whole number of pages" >&2; exit 2; }
[[ "$HOSTS" =~ ^[0-9]+$ ]] || { echo "learn-broad: HOSTS=$HOSTS: one host count (100 to 1000000)" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || { echo "learn-broad: ROUNDS=$ROUNDS: must be 1 to 99" >&2; exit 2; }
[[ "$FLIP" =~ ^[01]$ ]] || { echo "learn-broad: FLIP=$FLIP: must be 0 or 1" >&2; exit 2; }
mkdir -p "$BASE"
RESULTS=$BASE/learn.tsv
echo "mode round pages wall_s pages_per_s pps_sustained cpu_s cpu_s_per_1k peak_rss_mb heap_after_gc_mb templates \
learner_bytes rewritten learned_traps rules exit" | tr ' ' '\t' > "$RESULTS"
echo "learn-broad: PAGES=$PAGES HOSTS=$HOSTS ROUNDS=$ROUNDS, $CRAWLER at $(git log --oneline -1 | cut -c1-60);" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"

learn_figures() { # DIR (broad-bench's crawl folder): "pps_sustained templates learner_bytes rewritten traps rules"
  python3 - "$1" <<'EOF'
import json, os, statistics, sys
d = sys.argv[1]
out = os.path.join(d, "out")
series = []
try:
    for line in open(os.path.join(d, "report.txt")):
        if line.startswith("pps_10s="):
            series = [int(x) for x in line.strip().split("=", 1)[1].split(",") if x]
except OSError:
    pass
sustained = "NA"
if len(series) >= 3:
    best = max(series)
    start = next(i for i, v in enumerate(series) if v >= best / 2)
    middle = series[start + 1:len(series) - 1] or series[start:len(series) - 1] or series
    sustained = str(round(statistics.median(middle)))
learned = {}
try:
    learned = json.load(open(os.path.join(out, "summary.json"))).get("learned") or {}
except (OSError, ValueError):
    pass
def get(key):
    v = learned.get(key) if isinstance(learned, dict) else None
    return "NA" if v is None else str(v)
traps = 0
try:
    with open(os.path.join(out, "pages.jsonl"), encoding="utf-8", errors="replace") as pages:
        for line in pages:
            if '"trap"' in line and "learned rule: " in line:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if r.get("outcome") == "trap" and str(r.get("error") or "").startswith("learned rule: "):
                    traps += 1
except OSError:
    pass
rules = 0
try:
    rules = sum(1 for line in open(os.path.join(out, "rules.jsonl")) if line.strip())
except OSError:
    pass
print(sustained, get("templates"), get("estimatedBytes"), get("rewritten"), traps, rules)
EOF
}

run() { # MODE ROUND
  local mode=$1 round=$2 work set row figures
  work=$BASE/$mode-$round
  set=$SET0
  [ "$mode" = off ] && set="$set --set scope.learn-duplicates=false"
  rm -rf "$work"
  WORK=$work LABEL=learn-$mode JFR=0 SET=$set nice crawler-bench/broad-bench.sh "$CRAWLER" || true
  [ -f "$work/results.tsv" ] || { echo "learn-broad: $mode, round $round: no results from broad-bench.sh" >&2; return; }
  figures=$(learn_figures "$work/$HOSTS-close${CLOSE:-0}")
  # broad-bench's row, by its header's names
  row=$(awk -F'\t' -v mode="$mode" -v round="$round" -v figures="$figures" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    END {
      split(figures, f, " ")
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", mode, round, $col["pages"],
        $col["wall_s"], $col["pages_per_s"], f[1], $col["cpu_s"], $col["cpu_s_per_1k"], $col["peak_rss_mb"],
        $col["heap_after_gc_mb"], f[2], f[3], f[4], f[5], f[6], $col["exit"] }' "$work/results.tsv")
  echo "$row" >> "$RESULTS"
  echo "$row" | awk -F'\t' '{ printf "LEARN mode=%s round=%s pages=%s wall_s=%s pages_per_s=%s pps_sustained=%s cpu_s=%s" \
    " cpu_s_per_1k=%s peak_rss_mb=%s heap_after_gc_mb=%s templates=%s learner_bytes=%s rewritten=%s learned_traps=%s" \
    " rules=%s exit=%s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 }'
}

for round in $(seq 1 "$ROUNDS"); do
  if [ $(((round + FLIP) % 2)) = 1 ]; then run on "$round"; run off "$round"; else run off "$round"; run on "$round"; fi
done

median() { sort -n | awk -v OFMT='%.1f' '$1 ~ /^[0-9.]+$/ {v[++n] = $1} END {if (n == 0) print "NA"; else if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2}'; }
col() { awk -F'\t' -v m="$1" -v c="$2" 'NR > 1 && $1 == m {print $c}' "$RESULTS" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b + 0 > 0) printf "%.3f", a / b; else print "n/a"}'; }
echo
echo "### learning on and off, $PAGES pages over $HOSTS hosts ($ROUNDS crawl(s) each; medians)"
echo
echo "| figure | on | off | on / off |"
echo "|---|---:|---:|---:|"
for c in "3 pages" "5 pages/s (wall)" "6 pages/s (sustained median)" "7 CPU-s" "8 CPU-s per 1,000 pages" \
    "9 peak RSS MB" "10 heap after GC MB" "11 learner's templates" "12 learner's bytes" "13 rewritten" \
    "14 learned traps" "15 rules"; do
  n=${c%% *} name=${c#* }
  on=$(col on "$n") off=$(col off "$n")
  echo "| $name | $on | $off | $(ratio "$on" "$off") |"
done
echo
echo "learn-broad: every crawl in $RESULTS; broad-bench's files in $BASE/MODE-ROUND/"
