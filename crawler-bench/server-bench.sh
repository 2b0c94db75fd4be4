#!/usr/bin/env bash
# Servers that do not keep connections: the same real pages (Debian's python-django-doc, Sphinx HTML) behind
#   keepalive  nginx, connections kept alive (keepalive_requests 100000, keepalive_timeout 75s)
#   closing    python3 -m http.server: HTTP/1.0, closes the connection after every response
#   idle       nginx with keepalive_timeout 1s: closes a connection idle for a second (crawled with a delay
#              longer than that, so every request after the first meets a connection the server closed)
# crawled by this crawler, each a fresh process, alternating ROUNDS times. Read as a user would: the exit code,
# the pages fetched (status 200 lines of pages.jsonl), the final summary line, wall time.
#
#   crawler-bench/server-bench.sh
#
# keepalive and closing: --delay 0 --threads 8 --max-pages PAGES (500); idle: --delay IDLE_DELAY (1500ms)
# --max-pages IDLE_PAGES (20). Default profile otherwise: one connection per host, robots.txt obeyed (both servers
# answer 404). The issue's target: the closing server's time within 2x of the keep-alive server's.
#
# Environment: ROUNDS (3), PAGES (500), IDLE_PAGES (20; 0 leaves the idle server out), IDLE_DELAY (1500ms),
# ADDR (127.0.0.3), PORT (19200: keepalive; +1 closing, +2 idle), WORK (/tmp/sieve-server-bench), CRAWLER
# (crawler-cli/target/crawler). Missing packages (python-django-doc, nginx) are installed with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=crawler-bench/doc-site.sh
. crawler-bench/doc-site.sh

ROUNDS=${ROUNDS:-3}
PAGES=${PAGES:-500}
IDLE_PAGES=${IDLE_PAGES:-20}
IDLE_DELAY=${IDLE_DELAY:-1500ms}
ADDR=${ADDR:-127.0.0.3}
PORT=${PORT:-19200}
WORK=${WORK:-/tmp/sieve-server-bench}
CRAWLER=${CRAWLER:-crawler-cli/target/crawler}
P=$(package_index server-bench python-django-doc)
ROOT=${PKG_ROOTS[$P]}

mapfile -t MISSING < <(site_missing "$P")
apt_install server-bench "${MISSING[@]}"
command -v python3 >/dev/null || { echo "server-bench: python3 is needed for the closing server" >&2; exit 1; }
[ -x "${CRAWLER%% *}" ] || [ "${CRAWLER%% *}" = java ] || mvn -q -B -DskipTests package

rm -rf "$WORK" && mkdir -p "$WORK/crawls"
nginx_conf "$WORK" 1 1024 "$WORK/error.log" off \
  "$(nginx_server keepalive "$ADDR:$PORT" "$ROOT" "keepalive_timeout 75s")" \
  "$(nginx_server idle "$ADDR:$((PORT + 2))" "$ROOT" "keepalive_timeout 1s")" > "$WORK/nginx.conf"
PY_PID=
cleanup() {
  [ -n "$PY_PID" ] && kill "$PY_PID" 2>/dev/null || true
  nginx_stop "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
nginx_start "$WORK"
(cd "$ROOT" && exec python3 -m http.server --bind "$ADDR" $((PORT + 1)) >"$WORK/python.log" 2>&1) &
PY_PID=$!
for port in "$PORT" $((PORT + 1)) $((PORT + 2)); do
  for _ in $(seq 50); do curl -sf -o /dev/null "http://$ADDR:$port/index.html" && break; sleep 0.1; done
  curl -sf -o /dev/null "http://$ADDR:$port/index.html" || { echo "server-bench: nothing answers on $ADDR:$port" >&2; exit 1; }
done

RESULTS="$WORK/results.tsv"
printf 'server\tround\texit\tpages\trecords\tseconds\tsummary\n' > "$RESULTS"
crawl() { # NAME ROUND PORT ARGS...
  local name=$1 round=$2 port=$3 out="$WORK/crawls/$1-$2" start end code
  shift 3
  start=$(date +%s.%N)
  set +e
  # shellcheck disable=SC2086
  $CRAWLER crawl "http://$ADDR:$port/index.html" --out "$out" -q "$@" >"$out.stdout" 2>"$out.stderr"
  code=$?
  set -e
  end=$(date +%s.%N)
  local pages records summary
  pages=$(grep -c '"status":200,' "$out/pages.jsonl" 2>/dev/null || true)
  records=$(wc -l < "$out/pages.jsonl" 2>/dev/null || echo 0)
  summary=$(grep -m1 '^crawl ' "$out.stdout" || head -1 "$out.stderr" || true)
  printf '%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n' "$name" "$round" "$code" "${pages:-0}" "$records" \
      "$(echo "$end - $start" | bc)" "$summary" | tee -a "$RESULTS"
}
for round in $(seq "$ROUNDS"); do
  crawl keepalive "$round" "$PORT" --delay 0 --threads 8 --max-pages "$PAGES"
  crawl closing "$round" $((PORT + 1)) --delay 0 --threads 8 --max-pages "$PAGES"
  if [ "$IDLE_PAGES" -gt 0 ]; then
    crawl idle "$round" $((PORT + 2)) --delay "$IDLE_DELAY" --threads 8 --max-pages "$IDLE_PAGES"
  fi
done

echo
awk -F'\t' 'NR > 1 { t[$1] = t[$1] " " $6; n[$1]++ }
  function median(list,   a, c, i, j, x) {
    c = split(list, a, " ")
    for (i = 2; i <= c; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
  }
  END {
    for (s in t) { m[s] = median(t[s]); printf "%s: median %.1f s over %d rounds\n", s, m[s], n[s] }
    if (m["keepalive"] > 0 && ("closing" in m)) printf "closing / keepalive (medians): %.2fx the time\n", m["closing"] / m["keepalive"]
  }' "$RESULTS"
echo "server-bench: results in $RESULTS, each crawl's output in $WORK/crawls/"
