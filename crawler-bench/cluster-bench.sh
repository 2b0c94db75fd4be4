#!/usr/bin/env bash
# The cluster bench (issue 14, "Done when"): 24 hosts served by nginx, one Kafka broker, crawler processes of
# `crawler cluster run` joining, leaving and dying, and nginx's access log as the referee.
#
#   crawler-bench/cluster-bench.sh [SCENARIO...]     SCENARIO: A, B, C, D, all (A B C D; the default),
#                                                    baseline, prepare
#
# The site: crawler-bench/cluster-site.py writes 24 hosts of 500 pages (12,000; each page links page+1 and 7
# other pages of its host and 2 pages of other hosts; the seeds are each host's "/") into WORK/site; nginx serves
# host K on 127.0.1.K:PORT (Linux routes 127/8 to lo: nothing to configure), keep-alive on, every request logged
# to WORK/access.log as "MSEC REQUEST_TIME SERVER_ADDR STATUS REQUEST_URI \"USER_AGENT\"". The broker:
# crawler-cluster/kafka-local.sh on 127.0.0.1:KAFKA_PORT, its folder WORK/kafka emptied first.
#
# Every scenario has a crawl of its own (bench-X-TIMESTAMP: `cluster init --partitions 12`, then `cluster seed`
# of the 24 seeds), its folder WORK/X (each process's output folder out-pN, its log pN.log, /usr/bin/time's
# pN.time) and its window of the access log (the bytes logged from its start, copied to WORK/X/access.log). Each
# process is
#   JAVA_OPTS=-XmxHEAP crawler cluster run --bootstrap B --crawl C --profile crawler-bench/cluster-bench.yaml
#     --out WORK/X/out-pN --name pN --set fetch.user-agent="sieve-bench/1.0 (pN)" --set fetch.threads=THREADS
# and the end of a crawl is `crawler cluster status --wait-done --max-wait MAX_WAIT` (0: drained; 4: not within
# MAX_WAIT, a failure); then the processes still running get SIGTERM (each must exit TERM_EXIT, 143). Progress is
# the access log's requests in the window, robots.txt aside (a share of the 12,000 pages).
#   A  p1-p3; wait-done.                                 Bounds: 12,000/12,000 pages, 0 duplicates, 0 violations.
#   B  p1-p3; p4 joins at 30 % (3,600 requests); at 60 % the busiest of p1-p3 gets SIGTERM.   Bounds: as A.
#   C  p1-p3; at 4,000 requests the busiest gets kill -9.  Bounds: 12,000 pages; duplicates <= THREADS (its
#      requests in flight), each on a host it requested; 0 violations; its hosts resume within 20 s (from its
#      last request to a host to the next one by anyone, the largest over its hosts).
#   D  p1-p3; at 50 % all three get SIGTERM; once they have exited, p4-p6 start.   Bounds: 12,000 pages, 0 dups.
#   baseline  one `crawler crawl` (the same profile, the 24 seeds on the command line, User-Agent "(p0)"), no
#      Kafka.   Bounds: as A.
#   prepare   everything but `cluster run`: the site, nginx, the broker, init + seed + status of a crawl,
#      cluster-check.py --self-test; then stops.
# A politeness violation is two requests to one host, robots.txt included, starting less than 100 - 10 ms apart
# (crawler-bench/cluster-check.py, which checks every bound; see its --help). Each scenario prints the checker's
# report and one line
#   SUMMARY scenario=X pages=N/12000 dups= violations= min_gap_ms= wall_s= per_process=pN:requests,...
#           cpu_s=pN:user+sys,... rss_mb=pN:peak,... exits=pN:code,... result=ok|FAIL     (C: resume_max_s= too)
# (wall_s: from the first process's start to the end of wait-done; cpu_s and rss_mb from /usr/bin/time -v). The
# script exits 1 if a scenario failed a bound or a step, 2 on a usage error.
#
# Environment: PORT (19400), KAFKA_PORT (19492; the controller takes +1), WORK (/tmp/sieve-cluster-bench), HEAP
# (256m), THREADS (8), MAX_WAIT (10m), TERM_EXIT (143: the JVM's status after SIGTERM), KEEP (1: leave nginx and the broker running at the end),
# CRAWLER (crawler-cli/target/crawler; built with mvn -q -o -DskipTests package when missing, or when REBUILD=1).
# Only the processes this script started are signalled (by pid); nginx and the broker through their pid files.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

PORT=${PORT:-19400}
KAFKA_PORT=${KAFKA_PORT:-19492}
WORK=${WORK:-/tmp/sieve-cluster-bench}
HEAP=${HEAP:-256m}
THREADS=${THREADS:-8}
MAX_WAIT=${MAX_WAIT:-10m}
TERM_EXIT=${TERM_EXIT:-143}
KEEP=${KEEP:-0}
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
PROFILE=$ROOT/crawler-bench/cluster-bench.yaml
CHECK=$ROOT/crawler-bench/cluster-check.py
HOSTS=24
PAGES=500
EXPECTED=$((HOSTS * PAGES))
PARTITIONS=12
ME=cluster-bench

usage() {
  echo "usage: crawler-bench/cluster-bench.sh [A|B|C|D|all|baseline|prepare]..." >&2
  exit 2
}
SCENARIOS=()
for arg in "${@:-all}"; do
  case "$arg" in
    A|B|C|D|baseline|prepare) SCENARIOS+=("$arg") ;;
    all) SCENARIOS+=(A B C D) ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$ME: unknown scenario \"$arg\": expected A, B, C, D, all, baseline or prepare" >&2; usage ;;
  esac
done

# --- what the bench needs ---------------------------------------------------------------------------------------
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
[ -x /usr/bin/time ] || missing+=(time)
apt_install "$ME" "${missing[@]}"
if [ "$CRAWLER" = crawler-cli/target/crawler ] && { [ "${REBUILD:-0}" = 1 ] || [ ! -f crawler-cli/target/crawler.jar ]; }; then
  mvn -q -B -o -DskipTests package
fi
CRAWLER=$(cd "$(dirname "$CRAWLER")" && pwd)/$(basename "$CRAWLER")
has_cluster_run() { # whether this build has `cluster run` and `cluster status --wait-done` (what A-D need)
  "$CRAWLER" cluster --help 2>/dev/null | grep -q '^  run ' \
    && "$CRAWLER" cluster status --help 2>/dev/null | grep -q -- '--wait-done'
}
needs_run=0
for s in "${SCENARIOS[@]}"; do case "$s" in A|B|C|D) needs_run=1 ;; esac; done
if [ "$needs_run" = 1 ] && ! has_cluster_run; then
  echo "$ME: this build has no \`crawler cluster run\` or no \`cluster status --wait-done\` (see $CRAWLER cluster" \
    "--help): scenarios A-D need both; \`$0 prepare\` and \`$0 baseline\` run without them" >&2
  exit 1
fi

# --- the site and nginx -----------------------------------------------------------------------------------------
mkdir -p "$WORK"
LOG=$WORK/access.log
nginx_stop "$WORK" # a previous run's, through its pid file
python3 crawler-bench/cluster-site.py --out "$WORK/site" --port "$PORT" --hosts "$HOSTS" --pages "$PAGES"
SEEDS=()
servers=()
for k in $(seq "$HOSTS"); do
  SEEDS+=("http://127.0.1.$k:$PORT/")
  servers+=("$(nginx_server "host $k" "127.0.1.$k:$PORT" "$WORK/site/127.0.1.$k" "index index.html" \
    "access_log $LOG site")")
done
# shellcheck disable=SC2016 # nginx's variables
nginx_conf "$WORK" 2 1024 "$WORK/nginx-error.log" '$msec $request_time $server_addr $status $request_uri "$http_user_agent"' \
  "${servers[@]}" > "$WORK/nginx.conf"
for k in $(seq "$HOSTS"); do
  if curl -s -o /dev/null --max-time 2 "http://127.0.1.$k:$PORT/"; then
    echo "$ME: 127.0.1.$k:$PORT already answers; stop that server or choose another PORT" >&2
    exit 1
  fi
done

declare -A WRAP=() # process name -> pid of its /usr/bin/time, while it runs
BROKER_STARTED=0
cleanup() {
  local name
  for name in "${!WRAP[@]}"; do kill -9 "$(jvm_pid "$name")" 2>/dev/null || true; done
  if [ "$KEEP" != 1 ]; then
    nginx_stop "$WORK"
    if [ "$BROKER_STARTED" = 1 ]; then crawler-cluster/kafka-local.sh stop --dir "$WORK/kafka" >/dev/null 2>&1 || true; fi
  else
    echo "$ME: KEEP=1: nginx ($WORK/nginx.pid) and the broker ($WORK/kafka) left running" >&2
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
: > "$LOG"
nginx_start "$WORK"
for k in $(seq "$HOSTS"); do
  curl -sf -o /dev/null "http://127.0.1.$k:$PORT/robots.txt" \
    || { echo "$ME: nginx does not answer http://127.0.1.$k:$PORT/robots.txt (see $WORK/nginx-error.log)" >&2; exit 1; }
done
: > "$LOG" # the checks above are no scenario's requests
echo "$ME: nginx serves $HOSTS hosts x $PAGES pages on 127.0.1.1-$HOSTS:$PORT; log $LOG"

# --- the broker -------------------------------------------------------------------------------------------------
BOOTSTRAP=
start_broker() {
  crawler-cluster/kafka-local.sh stop --dir "$WORK/kafka" >/dev/null 2>&1 || true
  rm -rf "$WORK/kafka"
  BROKER_STARTED=1
  BOOTSTRAP=$(crawler-cluster/kafka-local.sh start --dir "$WORK/kafka" --port "$KAFKA_PORT")
  echo "$ME: Kafka broker on $BOOTSTRAP ($WORK/kafka)"
}
needs_broker=0
for s in "${SCENARIOS[@]}"; do [ "$s" = baseline ] || needs_broker=1; done
[ "$needs_broker" = 0 ] || start_broker

# --- processes ----------------------------------------------------------------------------------------------------
SCEN='' CRAWL='' DIR='' OFFSET=0 T0=0
declare -A EXIT=()   # process name -> its exit code, once it ended
declare -A SIGNAL=() # process name -> the signal the script sent it (TERM, KILL)
FAILED=0
SUMMARIES=()

jvm_pid() { # NAME: the pid of the process's JVM (the child of /usr/bin/time; the launcher execs java)
  local wrap=${WRAP[$1]:-} child=
  [ -n "$wrap" ] || return 1
  for _ in $(seq 50); do
    child=$(cat "/proc/$wrap/task/$wrap/children" 2>/dev/null || true)
    child=${child%% *}
    [ -n "$child" ] && { echo "$child"; return 0; }
    kill -0 "$wrap" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

start_run() { # NAME: starts `cluster run` as process NAME of the scenario's crawl, in the background
  local name=$1
  JAVA_OPTS="-Xmx$HEAP" /usr/bin/time -v -o "$DIR/$name.time" "$CRAWLER" cluster run --bootstrap "$BOOTSTRAP" \
    --crawl "$CRAWL" --profile "$PROFILE" --out "$DIR/out-$name" --name "$name" \
    --set "fetch.user-agent=sieve-bench/1.0 ($name)" --set "fetch.threads=$THREADS" > "$DIR/$name.log" 2>&1 &
  WRAP[$name]=$!
  echo "$ME: $SCEN: started $name (pid $(jvm_pid "$name" || echo ?)) at $(requests) requests"
}

signal_run() { # NAME SIGNAL: sends SIGNAL (TERM, KILL) to process NAME
  local pid
  pid=$(jvm_pid "$1") || { echo "$ME: $SCEN: $1 is not running; no SIG$2 sent" >&2; return 0; }
  SIGNAL[$1]=$2
  kill -"$2" "$pid" 2>/dev/null || true
  echo "$ME: $SCEN: SIG$2 to $1 (pid $pid) at $(requests) requests"
}

wait_run() { # NAME [SECONDS]: waits (120 s) for process NAME to end, then SIGKILLs it; records its exit code
  local name=$1 limit=${2:-120} wrap=${WRAP[$1]:-} rc=0 deadline
  [ -n "$wrap" ] || return 0
  deadline=$((SECONDS + limit))
  while kill -0 "$wrap" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if kill -0 "$wrap" 2>/dev/null; then
    echo "$ME: $SCEN: $name did not end within $limit s; SIGKILL" >&2
    kill -9 "$(jvm_pid "$name")" 2>/dev/null || true
    FAILED=1
  fi
  { wait "$wrap"; } 2>/dev/null || rc=$?
  EXIT[$name]=$rc
  unset "WRAP[$name]"
  if [ "${SIGNAL[$name]:-}" = TERM ] && [ "$rc" != "$TERM_EXIT" ]; then
    echo "$ME: $SCEN: $name exited $rc after SIGTERM, not $TERM_EXIT; its log: $DIR/$name.log" >&2
    FAILED=1
  elif [ -z "${SIGNAL[$name]:-}" ]; then
    echo "$ME: $SCEN: $name ended on its own with exit code $rc; its log: $DIR/$name.log" >&2
    tail -5 "$DIR/$name.log" >&2 || true
    FAILED=1
  fi
}

stop_runs() { # SIGTERM to every process still running, then waits for each
  local name
  for name in "${!WRAP[@]}"; do
    if kill -0 "${WRAP[$name]}" 2>/dev/null; then signal_run "$name" TERM; fi
  done
  for name in "${!WRAP[@]}"; do wait_run "$name"; done
}

requests() { # the scenario's requests in the access log so far, robots.txt aside
  tail -c +$((OFFSET + 1)) "$LOG" | grep -vc ' /robots.txt "' || true
}

busiest() { # NAME...: of these processes, the one with the most requests in the scenario's window so far
  local name best='' most=-1 n
  for name in "$@"; do
    n=$(tail -c +$((OFFSET + 1)) "$LOG" | grep -c "($name)\"\$" || true)
    if [ "$n" -gt "$most" ]; then best=$name; most=$n; fi
  done
  echo "$best"
}

any_alive() { # whether a process of the scenario still runs
  local name
  for name in "${!WRAP[@]}"; do kill -0 "${WRAP[$name]}" 2>/dev/null && return 0; done
  return 1
}

wait_requests() { # N: waits until the scenario's window holds N requests (robots.txt aside); 1 after MAX_WAIT
  local n=$1 deadline
  deadline=$((SECONDS + $(seconds_of "$MAX_WAIT")))
  while [ "$(requests)" -lt "$n" ]; do
    if [ "$SECONDS" -ge "$deadline" ] || ! any_alive; then
      echo "$ME: $SCEN: $n requests not reached within $MAX_WAIT, or every process ended ($(requests) so far)" >&2
      FAILED=1
      return 1
    fi
    sleep 0.1
  done
}

seconds_of() { # a duration (90s, 10m, 1h, or seconds) in seconds
  case "$1" in
    *s) echo "${1%s}" ;; *m) echo $(( ${1%m} * 60 )) ;; *h) echo $(( ${1%h} * 3600 )) ;; *) echo "$1" ;;
  esac
}

# --- a scenario -----------------------------------------------------------------------------------------------
begin() { # X: a fresh crawl (init, seed), folder and log window
  SCEN=$1
  CRAWL=bench-$(echo "$1" | tr '[:upper:]' '[:lower:]')-$(date +%Y%m%d%H%M%S)
  DIR=$WORK/$1
  rm -rf "$DIR" && mkdir -p "$DIR"
  EXIT=() SIGNAL=() WRAP=()
  echo "$ME: $SCEN: crawl $CRAWL, folder $DIR"
  "$CRAWLER" cluster init --bootstrap "$BOOTSTRAP" --crawl "$CRAWL" --partitions "$PARTITIONS" > "$DIR/init.out" 2>&1 \
    || { echo "$ME: $SCEN: cluster init failed:" >&2; cat "$DIR/init.out" >&2; return 1; }
  "$CRAWLER" cluster seed --bootstrap "$BOOTSTRAP" --crawl "$CRAWL" "${SEEDS[@]}" > "$DIR/seed.out" 2>&1 \
    || { echo "$ME: $SCEN: cluster seed failed:" >&2; cat "$DIR/seed.out" >&2; return 1; }
  echo "$ME: $SCEN: $(tail -1 "$DIR/seed.out")"
  OFFSET=$(stat -c %s "$LOG")
  T0=$(date +%s.%N)
}

wait_done() { # cluster status --wait-done; a failure unless 0, or if every process ended before it did
  local rc=0 status_pid alive=1 name
  "$CRAWLER" cluster status --bootstrap "$BOOTSTRAP" --crawl "$CRAWL" --wait-done --max-wait "$MAX_WAIT" \
    > "$DIR/wait-done.out" 2>&1 &
  status_pid=$!
  while kill -0 "$status_pid" 2>/dev/null; do
    if ! any_alive; then
      alive=0
      echo "$ME: $SCEN: every process ended before the crawl drained; their logs: $DIR/p*.log" >&2
      for name in "${!WRAP[@]}"; do tail -3 "$DIR/$name.log" >&2; done
      kill "$status_pid" 2>/dev/null || true
      FAILED=1
      break
    fi
    sleep 0.5
  done
  wait "$status_pid" || rc=$?
  if [ "$alive" = 0 ]; then
    :
  elif [ "$rc" != 0 ]; then
    echo "$ME: $SCEN: cluster status --wait-done exited $rc (4: not drained within $MAX_WAIT):" >&2
    tail -20 "$DIR/wait-done.out" >&2
    FAILED=1
  fi
  "$CRAWLER" cluster status --bootstrap "$BOOTSTRAP" --crawl "$CRAWL" > "$DIR/status.out" 2>&1 || true
}

time_field() { # FILE LABEL: a value of /usr/bin/time -v's report
  sed -n "s/^[[:space:]]*$2: //p" "$1" 2>/dev/null | head -1
}

finish() { # BOUNDS [CHECKER ARGS...]: the checker on the scenario's window, and its SUMMARY line
  local bounds=$1 wall rc=0 result name cpu=() rss=() exits=() f line
  shift
  wall=$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  stop_runs
  sleep 0.5 # nginx writes a line when the response is sent; the last ones are in
  tail -c +$((OFFSET + 1)) "$LOG" > "$DIR/access.log"
  python3 "$CHECK" "$DIR/access.log" --scenario "$SCEN" --bounds "$bounds" --urls "$WORK/site/urls.txt" "$@" \
    | tee "$DIR/check.txt" || rc=$?
  [ "$rc" = 0 ] || FAILED=1
  for f in "$DIR"/p*.time; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .time)
    cpu+=("$name:$(awk -v u="$(time_field "$f" 'User time (seconds)')" -v s="$(time_field "$f" 'System time (seconds)')" \
      'BEGIN { printf "%.1f", u + s }')")
    rss+=("$name:$(awk -v k="$(time_field "$f" 'Maximum resident set size (kbytes)')" 'BEGIN { printf "%d", k / 1024 }')")
    exits+=("$name:${EXIT[$name]:-?}")
  done
  result=$(grep '^RESULT ' "$DIR/check.txt" | tail -1)
  local IFS=,
  line="SUMMARY scenario=$SCEN pages=$(field pages "$result")/$(field expected "$result")"
  line+=" dups=$(field dups "$result") violations=$(field violations "$result")"
  line+=" min_gap_ms=$(field min_gap_ms "$result")"
  [ -z "$(field resume_max_s "$result")" ] || line+=" resume_max_s=$(field resume_max_s "$result")"
  line+=" wall_s=$wall per_process=$(field per_process "$result") cpu_s=${cpu[*]} rss_mb=${rss[*]} exits=${exits[*]}"
  line+=" result=$([ "$rc" = 0 ] && echo ok || echo FAIL)"
  SUMMARIES+=("$line")
  echo "$line"
}

field() { # KEY RESULT_LINE: the value of KEY=VALUE in the checker's RESULT line
  echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

scenario_A() {
  begin A || return 1
  start_run p1; start_run p2; start_run p3
  wait_done
  finish all
}

scenario_B() {
  begin B || return 1
  start_run p1; start_run p2; start_run p3
  wait_requests $((EXPECTED * 30 / 100)) && start_run p4
  if wait_requests $((EXPECTED * 60 / 100)); then
    local leaver
    leaver=$(busiest p1 p2 p3)
    signal_run "$leaver" TERM
    wait_run "$leaver"
  fi
  wait_done
  finish all
}

scenario_C() {
  begin C || return 1
  start_run p1; start_run p2; start_run p3
  local victim=p1
  if wait_requests 4000; then
    victim=$(busiest p1 p2 p3)
    signal_run "$victim" KILL
    wait_run "$victim" 10
  fi
  wait_done
  finish killed --killed "$victim" --killed-threads "$THREADS" --resume-s 20
}

scenario_D() {
  begin D || return 1
  start_run p1; start_run p2; start_run p3
  if wait_requests $((EXPECTED * 50 / 100)); then
    signal_run p1 TERM; signal_run p2 TERM; signal_run p3 TERM
    wait_run p1; wait_run p2; wait_run p3
    echo "$ME: D: p1-p3 exited at $(requests) requests; starting p4-p6"
  fi
  start_run p4; start_run p5; start_run p6
  wait_done
  finish pages-dups
}

scenario_baseline() { # one `crawler crawl`, no Kafka
  SCEN=baseline
  DIR=$WORK/baseline
  rm -rf "$DIR" && mkdir -p "$DIR"
  EXIT=() SIGNAL=() WRAP=()
  OFFSET=$(stat -c %s "$LOG")
  T0=$(date +%s.%N)
  echo "$ME: baseline: crawler crawl of the $HOSTS seeds, one process (p0)"
  local rc=0
  JAVA_OPTS="-Xmx$HEAP" /usr/bin/time -v -o "$DIR/p0.time" "$CRAWLER" crawl --profile "$PROFILE" --out "$DIR/out-p0" \
    --set "fetch.user-agent=sieve-bench/1.0 (p0)" --set "fetch.threads=$THREADS" "${SEEDS[@]}" > "$DIR/p0.log" 2>&1 \
    || rc=$?
  EXIT[p0]=$rc
  if [ "$rc" != 0 ]; then
    echo "$ME: baseline: the crawl exited $rc:" >&2
    tail -5 "$DIR/p0.log" >&2
    FAILED=1
  fi
  finish all
}

scenario_prepare() { # everything but `cluster run`
  begin prepare || return 1
  "$CRAWLER" cluster status --bootstrap "$BOOTSTRAP" --crawl "$CRAWL" | tee "$DIR/status.out"
  "$CRAWLER" profile check "$PROFILE" > "$DIR/profile.out" \
    && echo "$ME: prepare: crawler profile check $PROFILE: ok"
  python3 "$CHECK" --self-test
  if has_cluster_run; then
    echo "$ME: prepare: \`cluster run\` and \`cluster status --wait-done\` exist: scenarios A-D can run"
  else
    echo "$ME: prepare: \`cluster run\` or \`cluster status --wait-done\` is not in this build yet: scenarios A-D" \
      "would stop before starting"
  fi
}

echo "$ME: scenarios ${SCENARIOS[*]}; threads=$THREADS heap=$HEAP partitions=$PARTITIONS max_wait=$MAX_WAIT;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for s in "${SCENARIOS[@]}"; do
  "scenario_$s" || FAILED=1
  stop_runs # whatever a failed step left running
done
echo "$ME: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ ${#SUMMARIES[@]} = 0 ] || echo "$ME: summary:"
for line in "${SUMMARIES[@]}"; do echo "$line"; done
exit "$FAILED"
