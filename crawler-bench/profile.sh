#!/usr/bin/env bash
# Where a crawl's CPU goes: crawls SEED with async-profiler (from Maven Central, tools.profiler:async-profiler,
# fetched into crawler-bench/target/profiler on first use) and prints CPU-seconds and CPU per page by stage
# (JIT compilers, GC, fetch, parse, links, Sieve, politeness, output, hand-offs), from the stacks of every thread:
# each stage's share of the samples times the crawl's CPU per page (process CPU time over the crawl).
#
#   crawler-bench/profile.sh [--cold] SEED [WARMUP_SEED]
#
# Default ("warm"): CrawlBench crawls WARMUP_SEED (the same site on another port) WARMUPS times (default 2) in one
# JVM, then the profiler is attached for the measured crawl of SEED only. With --cold, a fresh JVM crawls SEED once
# with the profiler from its first instruction (JIT and class loading included). The site must be running (e.g.
# one of real-bench.sh's or crawl-bench.sh's nginx servers). Prints a table and leaves, in $WORK (default
# /tmp/sieve-profile): stacks.collapsed (one line per stack: frames;...;frames COUNT) and crawl.log.
# THREADS (default 32) and CONNECTIONS (default 16) are the crawl's; JAVA_OPTS goes to the JVM; EVENT (default cpu,
# or itimer where perf events are not allowed) and INTERVAL (default 1ms) to the profiler.
set -euo pipefail
cd "$(dirname "$0")/.."
COLD=""
if [ "${1:-}" = "--cold" ]; then
  COLD=1
  shift
fi
SEED=${1:?usage: crawler-bench/profile.sh [--cold] SEED [WARMUP_SEED]}
WARMUP_SEED=${2:-}
WORK=${WORK:-/tmp/sieve-profile}
JAR=crawler-bench/target/benchmarks.jar
AP_VERSION=4.1
AP_DIR=crawler-bench/target/profiler
AP_LIB=$AP_DIR/linux-x64/libasyncProfiler.so

[ -f "$JAR" ] || mvn -q -B -DskipTests package
if [ ! -f "$AP_LIB" ]; then
  mvn -q -B dependency:copy -Dartifact="tools.profiler:async-profiler:$AP_VERSION:jar:linux-x64" \
    -DoutputDirectory="$AP_DIR" -Dmdep.stripVersion=true
  (cd "$AP_DIR" && unzip -o -q async-profiler-linux-x64.jar 'linux-x64/*')
fi
AP_LIB=$(readlink -f "$AP_LIB")
rm -rf "$WORK" && mkdir -p "$WORK"
OPTIONS="event=${EVENT:-cpu},interval=${INTERVAL:-1ms}"

if [ -n "$COLD" ]; then
  # shellcheck disable=SC2086
  java -agentpath:"$AP_LIB=start,$OPTIONS,file=$WORK/stacks.collapsed,collapsed" ${JAVA_OPTS:-} -Xmx1g \
    -Dwarmups=0 -cp "$JAR" org.sievecrawler.bench.CrawlBench "$SEED" "$WORK/out" "${THREADS:-32}" \
    "${CONNECTIONS:-16}" > "$WORK/crawl.log" 2>&1
else
  [ -n "$WARMUP_SEED" ] || { echo "a warm profile needs WARMUP_SEED (or use --cold)" >&2; exit 2; }
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -Xmx1g -Dwarmups="${WARMUPS:-2}" -cp "$JAR" org.sievecrawler.bench.CrawlBench "$SEED" \
    "$WORK/out" "${THREADS:-32}" "${CONNECTIONS:-16}" "$WARMUP_SEED" > "$WORK/crawl.log" 2>&1 &
  PID=$!
  until grep -q "RESULT warmup-${WARMUPS:-2} \|RESULT cold " "$WORK/crawl.log" 2>/dev/null; do
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/crawl.log" >&2; exit 1; }
    sleep 0.05
  done
  # jcmd reads key=value words as its own arguments: the agent's options go in quotes. The profile is written
  # when the JVM exits, right after the measured crawl.
  jcmd "$PID" JVMTI.agent_load "$AP_LIB" "\"start,$OPTIONS,file=$WORK/stacks.collapsed,collapsed\"" >/dev/null
  wait "$PID"
fi
grep RESULT "$WORK/crawl.log" | sed 's/ outcomes=.*//'
# The crawl's own CPU per page (process CPU time over the measured crawl) is shared out by the samples.
CPU_MS=$(grep "RESULT" "$WORK/crawl.log" | tail -1 | sed -E 's/.* cpu_ms_per_page=([0-9.]+).*/\1/')

# One stage per stack, by the first rule that matches a frame (JIT and GC threads first, then the crawl's own
# code from the most specific package to the least).
awk -v cpu_ms="$CPU_MS" '
function stage(s) {
  if (s ~ /C2Compiler|C2 CompilerThre/) return "JIT: C2 compiler";
  if (s ~ /C1 CompilerThre|Compiler::compile|C1_/) return "JIT: C1 compiler";
  if (s ~ /CompileBroker|CodeCache|nmethod|Deoptim/) return "JIT: other";
  if (s ~ /G1|GC Thread|gc_|ParallelGC|SerialHeap|VM_GC|VMThread/) return "GC and VM";
  if (s ~ /org\/jsoup/) return "parse: jsoup fallback";
  if (s ~ /sievecrawler\/parse\//) return "parse: scanner";
  if (s ~ /sievecrawler\/link\//) return "links: resolve, normalize, scope";
  if (s ~ /sievecrawler\/sieve\//) return "Sieve: dedup and queue";
  if (s ~ /sievecrawler\/sink\/|jackson|sievecrawler\/warc\//) return "output: pages.jsonl, WARC";
  if (s ~ /sievecrawler\/politeness\/|crawlercommons/) return "politeness: scheduler, robots";
  if (s ~ /okhttp3|okio|sievecrawler\/fetch\//) return "fetch: OkHttp, sockets";
  if (s ~ /ThreadPoolExecutor|ArrayBlockingQueue|LockSupport|AbstractQueuedSynchronizer/) return "hand-offs: queues, locks";
  if (s ~ /sievecrawler/) return "engine: other";
  if (s ~ /ClassLoader|SystemDictionary|ClassFileParser|Interpreter|interpreter/) return "class loading, interpreter";
  return "other (kernel, JVM, libc)";
}
{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); by[stage(s)] += n; total += n }
END {
  for (k in by) printf "%8d|%-36s %8d %6.1f%% %10.1f\n", by[k], k, by[k], 100 * by[k] / total, 1000 * cpu_ms * by[k] / total;
  printf "%8d|%-36s %8d %6.1f%% %10.1f\n", -1, "total", total, 100, 1000 * cpu_ms;
}' "$WORK/stacks.collapsed" | sort -t'|' -k1,1nr | cut -d'|' -f2- | { printf "%-36s %8s %7s %10s\n" stage samples share us/page; cat; }
echo "stacks: $WORK/stacks.collapsed"
