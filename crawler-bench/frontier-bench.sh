#!/usr/bin/env bash
# The frontier memory benchmark (issue 6): crawls GraphSite, a generated site on 127.0.0.1 whose every page
# links to ~56 URLs never seen before (2^40 pages, computed from the URL, no disk), with the crawler's jar
# under -Xmx256m until 200,000 pages are fetched, by which time ~11.2 M distinct URLs are discovered and
# ~11 M are pending. Profile: crawler-bench/frontier-bench.yaml (16 threads, 16 connections, no delay, robots
# respected, Sieve sized for 20 M URLs, sieve.max-in-memory-urls: 100000). Prints one RESULT line:
#
#   discovered    the Sieve's estimate n* of distinct URLs seen (summary.json; the last progress line if the
#                 crawl died); admitted = records written + URLs still pending (summary.json)
#   fetched, pages_per_s, seconds, end   from summary.json (the last progress line if there is none)
#   heap_after_gc_max_mb, heap_before_gc_max_mb, gc_pause_s, full_gcs   from the JVM's -Xlog:gc log
#   rss_peak_mb   the crawler's VmHWM, read from /proc/PID/status every second
#   frontier_mb, pending, bytes_per_pending   the output folder's frontier files (everything but pages.jsonl,
#                 summary.json, crawl.log and WARC files; or FRONTIER_GLOB) measured with du every 5 s and
#                 at the end, at their largest, divided by the URLs pending at that moment (progress "queued=")
#   oom           yes if an OutOfMemoryError was logged or the JVM exited for one (-XX:+ExitOnOutOfMemoryError)
#
#   crawler-bench/frontier-bench.sh                       # the target run: spill on, no time limit
#   SPILL=0 MAX_DURATION=4m crawler-bench/frontier-bench.sh   # without the spill's key (main before issue 6)
#
# Environment: SPILL (1; 0 drops sieve.max-in-memory-urls from the profile, which a crawler without the spill
# refuses), MAX_DURATION (limits.max-duration: 0s, or 4m when SPILL=0), HEAP (256m), MAX_PAGES (200000),
# PORT (18470), SITE_THREADS (4), WORK (/tmp/sieve-frontier-bench), JAVA_OPTS (-XX:+ExitOnOutOfMemoryError),
# FRONTIER_GLOB (a glob relative to the output folder, e.g. 'frontier/*'), REBUILD (1 to run mvn package even
# if the jars exist). A watchdog stops the crawl (SIGTERM: a graceful stop, then SIGKILL after 60 s) if it
# runs 90 s longer than MAX_DURATION.
#
# Needs the jars: mvn -q -DskipTests package (run from the repository root; the script does it if missing).
# Work files: $WORK/out (the crawl's output folder), $WORK/gc.log, $WORK/crawler.out, $WORK/site.log.
set -euo pipefail
cd "$(dirname "$0")/.."
SPILL=${SPILL:-1}
MAX_DURATION=${MAX_DURATION:-$([ "$SPILL" = 0 ] && echo 4m || echo 0s)}
HEAP=${HEAP:-256m}
MAX_PAGES=${MAX_PAGES:-200000}
PORT=${PORT:-18470}
SITE_THREADS=${SITE_THREADS:-4}
WORK=${WORK:-/tmp/sieve-frontier-bench}
JAVA_OPTS=${JAVA_OPTS:--XX:+ExitOnOutOfMemoryError}
FRONTIER_GLOB=${FRONTIER_GLOB:-}
CRAWLER=crawler-cli/target/crawler.jar
BENCH=crawler-bench/target/benchmarks.jar

if [ "${REBUILD:-0}" = 1 ] || [ ! -f "$CRAWLER" ] || [ ! -f "$BENCH" ]; then
  mvn -q -B -DskipTests package
fi

rm -rf "$WORK" && mkdir -p "$WORK"
OUT=$WORK/out
PROFILE=$WORK/frontier-bench.yaml
# The bench profile with this run's limits; without the spill, its key is dropped.
sed -e "s/^  max-duration: .*/  max-duration: $MAX_DURATION/" -e "s/^  max-pages: .*/  max-pages: $MAX_PAGES/" \
  crawler-bench/frontier-bench.yaml | { if [ "$SPILL" = 0 ]; then grep -v 'max-in-memory-urls'; else cat; fi; } \
  > "$PROFILE"

seconds_of() { # a profile duration (0, 0s, 90s, 4m, 1h) in seconds
  local d=$1
  case "$d" in
    0|0s) echo 0 ;;
    *ms) echo 1 ;;
    *s) echo "${d%s}" ;;
    *m) echo $(( ${d%m} * 60 )) ;;
    *h) echo $(( ${d%h} * 3600 )) ;;
    *d) echo $(( ${d%d} * 86400 )) ;;
    *) echo "frontier-bench: MAX_DURATION=$d: use a duration like 90s, 4m or 1h" >&2; exit 2 ;;
  esac
}
LIMIT_S=$(seconds_of "$MAX_DURATION")

java -cp "$BENCH" org.sievecrawler.bench.GraphSite "$PORT" "$SITE_THREADS" > "$WORK/site.log" 2>&1 &
SITE_PID=$!
CRAWLER_PID=
cleanup() {
  [ -n "$CRAWLER_PID" ] && kill "$CRAWLER_PID" 2>/dev/null || true
  kill "$SITE_PID" 2>/dev/null || true
  wait "$SITE_PID" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$PORT/p/0" && break
  sleep 0.2
done
curl -s -o /dev/null "http://127.0.0.1:$PORT/p/0" || { echo "frontier-bench: GraphSite did not start:" >&2; cat "$WORK/site.log" >&2; exit 1; }

frontier_bytes() { # bytes of the frontier files in the output folder
  if [ -n "$FRONTIER_GLOB" ]; then
    (cd "$OUT" 2>/dev/null && shopt -s nullglob && files=($FRONTIER_GLOB) && \
      { [ ${#files[@]} -eq 0 ] && echo 0 || du -cb "${files[@]}" | tail -1 | cut -f1; }) || echo 0
  else
    [ -d "$OUT" ] || { echo 0; return; }
    find "$OUT" -type f ! -name pages.jsonl ! -name summary.json ! -name 'summary.json.tmp' ! -name crawl.log \
      ! -name '*.warc' ! -name '*.warc.gz' -printf '%s\n' | awk '{s += $1} END {print s + 0}'
  fi
}
last_progress() { # the value of KEY in the crawl log's last progress line
  grep -h 'org.sievecrawler.progress' "$OUT/crawl.log" 2>/dev/null | grep -o "$1[=~][^ ]*" | tail -1 | cut -c$((${#1} + 2))- || true
}

echo "frontier-bench: SPILL=$SPILL MAX_DURATION=$MAX_DURATION HEAP=$HEAP MAX_PAGES=$MAX_PAGES; work in $WORK" >&2
START=$(date +%s)
# shellcheck disable=SC2086
java -Xmx"$HEAP" -Xlog:gc:file="$WORK/gc.log" $JAVA_OPTS -jar "$CRAWLER" crawl "http://127.0.0.1:$PORT/p/0" \
  --profile "$PROFILE" --out "$OUT" > "$WORK/crawler.out" 2>&1 &
CRAWLER_PID=$!

RSS_KB=0
FRONTIER_MAX=0
FRONTIER_PENDING=0
TICK=0
TERM_AT=
while kill -0 "$CRAWLER_PID" 2>/dev/null; do
  HWM=$(awk '/^VmHWM:/ {print $2}' "/proc/$CRAWLER_PID/status" 2>/dev/null || echo 0)
  [ "${HWM:-0}" -gt "$RSS_KB" ] && RSS_KB=$HWM
  if [ $((TICK % 5)) = 0 ]; then
    BYTES=$(frontier_bytes)
    if [ "$BYTES" -gt "$FRONTIER_MAX" ]; then
      FRONTIER_MAX=$BYTES
      FRONTIER_PENDING=$(last_progress queued)
    fi
    echo "  t=$(( $(date +%s) - START ))s fetched=$(last_progress fetched) queued=$(last_progress queued)" \
      "seen~$(last_progress seen) rss=$((RSS_KB / 1024))MB frontier=$((BYTES / 1048576))MB" >&2
  fi
  ELAPSED=$(( $(date +%s) - START ))
  if [ "$LIMIT_S" -gt 0 ] && [ -z "$TERM_AT" ] && [ "$ELAPSED" -gt $((LIMIT_S + 90)) ]; then
    echo "frontier-bench: the crawl outlived MAX_DURATION by 90 s; stopping it (SIGTERM)" >&2
    kill -TERM "$CRAWLER_PID" 2>/dev/null || true
    TERM_AT=$ELAPSED
  fi
  if [ -n "$TERM_AT" ] && [ "$ELAPSED" -gt $((TERM_AT + 60)) ]; then
    echo "frontier-bench: still running 60 s after SIGTERM; killing it" >&2
    kill -KILL "$CRAWLER_PID" 2>/dev/null || true
  fi
  TICK=$((TICK + 1))
  sleep 1
done
set +e
wait "$CRAWLER_PID"
EXIT=$?
set -e
CRAWLER_PID=
WALL=$(( $(date +%s) - START ))
cleanup
if [ "$EXIT" = 2 ]; then
  echo "frontier-bench: the crawler refused the profile or the command (exit 2); without the spill use SPILL=0" >&2
  exit 2
fi

BYTES=$(frontier_bytes)
SUMMARY=$OUT/summary.json
if [ -f "$SUMMARY" ]; then
  json() { grep -o "\"$1\" : [^,}]*" "$SUMMARY" | head -1 | sed 's/.*: //; s/"//g'; }
  END_REASON=$(json endReason)
  FETCHED=$(json responses) # summary.json of a build before "responses": fetched
  [ -n "$FETCHED" ] || FETCHED=$(json fetched)
  RATE=$(json pagesPerSecond)
  SECONDS_RUN=$(awk -v ms="$(json durationMs)" 'BEGIN {printf "%.1f", ms / 1000}')
  PENDING=$(json pending)
  DISCOVERED=$(json estimatedSeen)
  ADMITTED=$(( $(json decided) + PENDING ))
else
  END_REASON=died
  FETCHED=$(last_progress fetched)
  RATE=$(last_progress avg | tr -d '/s')
  SECONDS_RUN=$WALL
  PENDING=$(last_progress queued)
  DISCOVERED=$(last_progress seen)
  ADMITTED=unknown
fi
if [ "$BYTES" -ge "$FRONTIER_MAX" ] && [ "$BYTES" -gt 0 ]; then
  FRONTIER_MAX=$BYTES
  FRONTIER_PENDING=$PENDING
fi
PER_PENDING=$(awk -v b="$FRONTIER_MAX" -v p="${FRONTIER_PENDING:-0}" 'BEGIN {if (p > 0) printf "%.1f", b / p; else print "n/a"}')

# G1 and Parallel log "... 180M->60M(256M) 12.345ms"; the max before and after a collection, and pauses.
read -r HEAP_AFTER HEAP_BEFORE GC_PAUSE FULL_GCS < <(awk '
  match($0, /[0-9]+M->[0-9]+M\([0-9]+M\)/) {
    split(substr($0, RSTART, RLENGTH), a, /M->|M\(/); if (a[1] > before) before = a[1]; if (a[2] > after) after = a[2]
    if (match($0, /[0-9.]+ms$/)) pause += substr($0, RSTART, RLENGTH - 2)
    if ($0 ~ /Pause Full/) full++
  }
  END {printf "%d %d %.1f %d\n", after, before, pause / 1000, full}' "$WORK/gc.log")

OOM=no
if grep -q 'OutOfMemoryError' "$WORK/crawler.out" "$OUT/crawl.log" 2>/dev/null; then
  OOM=yes
fi

tail -5 "$WORK/crawler.out" >&2
grep -hE 'WARN|ERROR' "$OUT/crawl.log" 2>/dev/null | grep -v 'org.sievecrawler.progress' | head -5 >&2 || true
cat "$WORK/site.log" >&2
echo "RESULT spill=$SPILL end=$END_REASON exit=$EXIT oom=$OOM discovered~$DISCOVERED admitted=$ADMITTED" \
  "fetched=$FETCHED pages_per_s=$RATE seconds=$SECONDS_RUN pending=$PENDING" \
  "heap_after_gc_max_mb=$HEAP_AFTER heap_before_gc_max_mb=$HEAP_BEFORE gc_pause_s=$GC_PAUSE full_gcs=$FULL_GCS" \
  "rss_peak_mb=$((RSS_KB / 1024)) frontier_mb=$(awk -v b="$FRONTIER_MAX" 'BEGIN {printf "%.1f", b / 1048576}')" \
  "frontier_pending=${FRONTIER_PENDING:-0} bytes_per_pending=$PER_PENDING"
