#!/usr/bin/env bash
# kafka-local.sh: a one-node Apache Kafka (KRaft, broker and controller in one JVM) on 127.0.0.1, for the
# cluster tests, the demo and a first try of cluster mode. Not for production: one node, replication 1.
#
#   kafka-local.sh start  [--dir DIR] [--port PORT] [--timeout SECONDS] [--classpath-file FILE]
#   kafka-local.sh stop   [--dir DIR]
#   kafka-local.sh status [--dir DIR]
#
# start   resolves the broker's classpath through Maven from broker/pom.xml beside this script (cached in
#         DIR/classpath.txt, or in FILE to share it between folders, as the tests do), writes
#         DIR/server.properties, formats DIR/data once (kafka.tools.StorageTool format --standalone), starts
#         kafka.Kafka in its own JVM (-Xmx512m, output to DIR/broker.log), waits until it serves on
#         127.0.0.1:PORT and prints the bootstrap address `127.0.0.1:PORT` (nothing else on stdout). A broker
#         of DIR that already runs is left running and its address printed. A first start that fails leaves
#         DIR unformatted, so that it can be tried again on another port.
# stop    stops the broker whose pid is in DIR/broker.pid (SIGTERM, then SIGKILL after 60 s); never by name.
# status  prints whether the broker of DIR runs, and where.
#
# DIR defaults to /tmp/sieve-kafka-local (outside target/, so `mvn clean` cannot delete the pid file of a
# running broker); PORT to 9092, or to the port DIR was formatted with; the controller listens on PORT+1.
# Topics are never created automatically (auto.create.topics.enable=false), as in a cluster crawl.
#
# Exit codes: 0 ok (status: running); 1 the broker failed to start or stop; 2 usage error;
#             3 status: not running; 4 start: PORT or PORT+1 is taken by another process.
set -euo pipefail

readonly SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly ME="kafka-local.sh"
readonly STOP_WAIT_SECONDS=60

die() { # die CODE MESSAGE...
  local code="$1"; shift
  echo "$ME: $*" >&2
  exit "$code"
}

usage() {
  echo "usage: $ME start|stop|status [--dir DIR] [--port PORT] [--timeout SECONDS] [--classpath-file FILE]" >&2
  exit 2
}

command="${1:-}"
[[ -n "$command" ]] || usage
shift
case "$command" in start|stop|status) ;; -h|--help|help) usage ;;
  *) die 2 "unknown command \"$command\": expected start, stop or status" ;;
esac

dir="/tmp/sieve-kafka-local"
port=""
timeout=120
classpath_file=""
while (($#)); do
  case "$1" in
    --dir) (($# >= 2)) || die 2 "--dir needs a folder"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#--dir=}"; shift ;;
    --port) (($# >= 2)) || die 2 "--port needs a number"; port="$2"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    --timeout) (($# >= 2)) || die 2 "--timeout needs a number of seconds"; timeout="$2"; shift 2 ;;
    --timeout=*) timeout="${1#--timeout=}"; shift ;;
    --classpath-file) (($# >= 2)) || die 2 "--classpath-file needs a file"; classpath_file="$2"; shift 2 ;;
    --classpath-file=*) classpath_file="${1#--classpath-file=}"; shift ;;
    *) die 2 "unknown option \"$1\": expected --dir DIR, --port PORT, --timeout SECONDS or --classpath-file FILE" ;;
  esac
done
if [[ -n "$port" ]] && ! [[ "$port" =~ ^[0-9]+$ && "$port" -ge 1 && "$port" -le 65534 ]]; then
  die 2 "--port \"$port\": must be a number from 1 to 65534 (the controller takes PORT+1)"
fi
[[ "$timeout" =~ ^[0-9]+$ && "$timeout" -ge 1 ]] || die 2 "--timeout \"$timeout\": must be a whole number of seconds >= 1"
[[ -n "$dir" ]] || die 2 "--dir \"\": must name a folder"
if [[ "$command" == start ]]; then
  mkdir -p "$dir" 2>/dev/null || die 2 "--dir \"$dir\": cannot create the folder"
elif [[ ! -d "$dir" ]]; then
  [[ "$command" == stop ]] && { echo "$ME: no broker of $dir runs (no such folder)" >&2; exit 0; }
  echo "not running: $dir (no such folder)"; exit 3
fi
dir="$(cd "$dir" && pwd)"
[[ -z "$classpath_file" || "$classpath_file" == /* ]] || classpath_file="$PWD/$classpath_file"

readonly PID_FILE="$dir/broker.pid"
readonly PORT_FILE="$dir/port"
readonly LOG_FILE="$dir/broker.log"
readonly PROPERTIES="$dir/server.properties"
readonly CLASSPATH_FILE="${classpath_file:-$dir/classpath.txt}"
readonly DATA_DIR="$dir/data"

# The pid of the broker of DIR if it runs, else nothing. A pid file whose process is gone, or is not a
# broker started with DIR's server.properties (the pid was reused), does not count.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 0
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  [[ -r "/proc/$pid/cmdline" ]] || return 0
  local cmdline
  cmdline="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)"
  if [[ "$cmdline" == *"kafka.Kafka $PROPERTIES"* ]]; then
    echo "$pid"
  fi
}

port_answers() { # port_answers PORT: something accepts connections on 127.0.0.1:PORT
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

who_listens() { # who_listens PORT: "(java, pid 123)", the listening process if ss can tell
  command -v ss >/dev/null 2>&1 || return 0
  ss -Hltnp "sport = :$1" 2>/dev/null |
    sed -n 's/.*users:(("\([^"]*\)",pid=\([0-9]*\).*/(\1, pid \2)/p' | head -n 1 || true
}

log_tail() { # log_tail [FROM]: the last lines of the log, those from byte FROM on (this start's) if given
  echo "--- last lines of $LOG_FILE ---" >&2
  { tail -c +"${1:-1}" "$LOG_FILE" | tail -n 30; } >&2 2>/dev/null || echo "(no log)" >&2
}

port_taken() { # port_taken PORT: refuse the start, naming the process that holds PORT if ss can tell
  local holder
  holder="$(who_listens "$1")"
  die 4 "port ${1:-$port} on 127.0.0.1 is taken by another process${holder:+ $holder}, not by the broker of $dir; stop it or choose another --port (the broker takes PORT and PORT+1)"
}

formatted_port() {
  [[ -f "$PORT_FILE" ]] && cat "$PORT_FILE" || true
}

# --- classpath: resolved once per DIR through Maven, again when broker/pom.xml changed or a jar is gone
classpath() {
  local pom="$SCRIPT_DIR/broker/pom.xml"
  [[ -f "$pom" ]] || die 1 "$pom is missing: it names the broker's jars"
  if [[ -s "$CLASSPATH_FILE" && "$CLASSPATH_FILE" -nt "$pom" ]]; then
    local jar fresh=1
    local IFS=':'
    for jar in $(cat "$CLASSPATH_FILE"); do [[ -f "$jar" ]] || { fresh=0; break; }; done
    if ((fresh)); then cat "$CLASSPATH_FILE"; return; fi
  fi
  command -v mvn >/dev/null 2>&1 || die 1 "mvn is not on PATH: it resolves the broker's jars from $pom"
  local mvn_log="$dir/maven.log"
  mkdir -p "$(dirname "$CLASSPATH_FILE")" 2>/dev/null || die 2 "--classpath-file \"$CLASSPATH_FILE\": cannot create its folder"
  # offline first (no network when ~/.m2 holds the jars), then online (the first run downloads them)
  if ! mvn -q -o -f "$pom" dependency:build-classpath -Dmdep.outputFile="$CLASSPATH_FILE" >"$mvn_log" 2>&1 &&
     ! mvn -q -f "$pom" dependency:build-classpath -Dmdep.outputFile="$CLASSPATH_FILE" >"$mvn_log" 2>&1; then
    tail -n 20 "$mvn_log" >&2
    die 1 "Maven could not resolve the broker's classpath from $pom (its output: $mvn_log)"
  fi
  cat "$CLASSPATH_FILE"
}

write_properties() { # write_properties PORT
  local controller=$(($1 + 1))
  cat > "$PROPERTIES" <<EOF
# Written by $ME; rewritten on every start.
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$controller
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$DATA_DIR
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
# one partition for the consumer groups' offsets (50 by default): one node has nothing to spread them over, and
# the first consumer group waits for them to be created
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
}

start() {
  local pid
  pid="$(running_pid)"
  if [[ -n "$pid" ]]; then
    local running_port
    running_port="$(formatted_port)"
    if [[ -n "$port" && "$port" != "$running_port" ]]; then
      die 2 "--port $port: the broker of $dir already runs on 127.0.0.1:$running_port (pid $pid); stop it first, or use another --dir"
    fi
    echo "$ME: the broker of $dir already runs (pid $pid)" >&2
    echo "127.0.0.1:$running_port"
    return 0
  fi
  rm -f "$PID_FILE"

  local formatted
  formatted="$(formatted_port)"
  if [[ -n "$formatted" && -f "$DATA_DIR/meta.properties" ]]; then
    if [[ -n "$port" && "$port" != "$formatted" ]]; then
      die 2 "--port $port: $dir was formatted for port $formatted (its controller's address is in the log); use --port $formatted, another --dir, or delete $dir to start afresh"
    fi
    port="$formatted"
  fi
  port="${port:-9092}"

  command -v java >/dev/null 2>&1 || die 1 "java is not on PATH: the broker needs a JDK 17+"
  local cp
  cp="$(classpath)"
  # checked as late as can be (Maven may take seconds); a port taken after this ends the broker, below
  local p
  for p in "$port" "$((port + 1))"; do
    port_answers "$p" && port_taken "$p"
  done
  write_properties "$port"

  local formatted_now=0
  if [[ ! -f "$DATA_DIR/meta.properties" ]]; then
    rm -rf "$DATA_DIR"
    local cluster_id
    cluster_id="$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>>"$LOG_FILE")" ||
      { log_tail; die 1 "could not make a cluster id with kafka.tools.StorageTool random-uuid"; }
    if ! java -cp "$cp" kafka.tools.StorageTool format --standalone -t "$cluster_id" -c "$PROPERTIES" >>"$LOG_FILE" 2>&1; then
      log_tail
      die 1 "could not format $DATA_DIR with kafka.tools.StorageTool format --standalone"
    fi
    echo "$port" > "$PORT_FILE"
    formatted_now=1
  fi

  local started_at=$SECONDS log_from
  echo "=== $ME start $(date -u +%Y-%m-%dT%H:%M:%SZ) on 127.0.0.1:$port ===" >>"$LOG_FILE"
  log_from=$(($(wc -c < "$LOG_FILE") + 1))
  # A session of its own (setsid): the broker outlives this script and its terminal. The inner shell writes
  # its own pid, which `exec` hands on to the JVM.
  setsid sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$PID_FILE" \
    java -Xmx512m -XX:+UseSerialGC -Djava.awt.headless=true \
      -Dorg.slf4j.simpleLogger.showDateTime=true \
      -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd'T'HH:mm:ss.SSS" \
      -cp "$cp" kafka.Kafka "$PROPERTIES" \
    </dev/null >>"$LOG_FILE" 2>&1 &
  local deadline=$((SECONDS + timeout)) launched
  while :; do
    launched="$(cat "$PID_FILE" 2>/dev/null || true)"
    if [[ -n "$launched" ]] && ! kill -0 "$launched" 2>/dev/null; then
      rm -f "$PID_FILE"
      ((formatted_now)) && rm -rf "$DATA_DIR" "$PORT_FILE"
      if tail -c +"$log_from" "$LOG_FILE" | grep -c 'BindException\|Address already in use' >/dev/null; then
        port_taken "$(tail -c +"$log_from" "$LOG_FILE" | grep -o '127\.0\.0\.1:[0-9]*' | tail -n 1 | cut -d: -f2)"
      fi
      log_tail "$log_from"
      die 1 "the broker ended before it served on 127.0.0.1:$port (its log: $LOG_FILE)"
    fi
    pid="$(running_pid)"
    # serving: the port accepts connections and the broker logged, since this start, that it has started
    # grep -c reads to the end: grep -q would quit at the first match, and tail, killed by SIGPIPE, would fail the
    # pipeline under pipefail once the log since this start is longer than a pipe's buffer
    if [[ -n "$pid" ]] && port_answers "$port" && tail -c +"$log_from" "$LOG_FILE" | grep -c 'Kafka Server started' >/dev/null; then
      break
    fi
    if ((SECONDS >= deadline)); then
      log_tail "$log_from"
      [[ -n "$launched" ]] && stop_pid "$launched"
      rm -f "$PID_FILE"
      ((formatted_now)) && rm -rf "$DATA_DIR" "$PORT_FILE"
      die 1 "the broker did not serve on 127.0.0.1:$port within $timeout s; stopped it (its log: $LOG_FILE)"
    fi
    sleep 0.2
  done
  disown -a 2>/dev/null || true
  echo "$ME: started the broker of $dir (pid $pid) in $((SECONDS - started_at)) s" >&2
  echo "127.0.0.1:$port"
}

stop_pid() { # stop_pid PID: SIGTERM (a clean shutdown), SIGKILL after STOP_WAIT_SECONDS
  local pid="$1" waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do
    if ((waited >= STOP_WAIT_SECONDS * 5)); then
      echo "$ME: the broker (pid $pid) did not end within $STOP_WAIT_SECONDS s of SIGTERM; sending SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.2
    waited=$((waited + 1))
  done
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
}

stop() {
  local pid
  pid="$(running_pid)"
  if [[ -z "$pid" ]]; then
    rm -f "$PID_FILE"
    echo "$ME: no broker of $dir runs" >&2
    return 0
  fi
  stop_pid "$pid"
  rm -f "$PID_FILE"
  echo "$ME: stopped the broker of $dir (pid $pid)" >&2
}

status() {
  local pid
  pid="$(running_pid)"
  if [[ -n "$pid" ]]; then
    echo "running: pid $pid, 127.0.0.1:$(formatted_port), $dir"
  else
    echo "not running: $dir"
    exit 3
  fi
}

"$command"
