#!/usr/bin/env python3
"""The cluster bench's checker (issue 14): what one scenario's crawl asked of nginx, read from its access log.

    cluster-check.py LOG [--offset BYTES] [--scenario NAME] [--bounds none|all|pages-dups|killed]
                     [--urls FILE | --expected N] [--delay-ms 100] [--slack-ms 10]
                     [--killed PROCESS --killed-threads N --resume-s 20]
    cluster-check.py --self-test

LOG is nginx's access log in cluster-bench.sh's format, one request a line:

    MSEC REQUEST_TIME SERVER_ADDR STATUS REQUEST_URI "USER_AGENT"

($msec: when the response ended, in seconds with milliseconds; $request_time: how long the request took, so it
started at MSEC - REQUEST_TIME). Only the bytes from --offset on are read (the scenario's window: the log's size
before it started). The process of a request is the User-Agent's last parenthesised word, "sieve-bench/1.0 (p2)"
is p2 (else "-").

Printed: pages (distinct host + path requested, robots.txt apart) against the expected count (--urls FILE, the
site's "HOST PATH" lines from cluster-site.py, also names missing and unexpected pages; or --expected N);
duplicates (a host + path requested more than once: its extra requests; robots.txt requests are counted apart
and never duplicates); statuses other than 200; politeness violations (two requests to one host, robots.txt
included, starting closer than DELAY - SLACK ms) and the smallest such gap; requests per process; and with
--killed P: each duplicate's host, whether P requested that host, and whether P's request of the page was the
first; and for each host P requested, the time from P's last request to it to the next request to it by another
process ("resume"; hosts nobody asked again are left out), their maximum. The last line is one RESULT line of key=value pairs.

Bounds (the exit status is 1 when one fails, 0 otherwise; 2 on a usage error or an unreadable log):
  all         pages = expected, 0 duplicates, 0 violations                  (baseline, scenarios A and B)
  pages-dups  pages = expected, 0 duplicates                                 (scenario D)
  killed      pages = expected, duplicates <= --killed-threads, every duplicate on a host the killed process
              requested, 0 violations, resume <= --resume-s                  (scenario C)
  none        report only

Out of scope: starting anything; reading any log format but the one above.
"""
import argparse
import collections
import os
import re
import sys
import tempfile
import time

LINE = re.compile(r'^(\d+\.\d+) (\d+\.\d+) (\S+) (\d{3}) (\S+) "(.*)"$')
PROCESS = re.compile(r"\(([^()\s]+)\)\s*$")
ROBOTS = "/robots.txt"


class Request:
    """One line of the log: when it started (ms), where, what, the answer and the process."""
    __slots__ = ("start_ms", "host", "path", "status", "process", "line")

    def __init__(self, start_ms, host, path, status, process, line):
        self.start_ms, self.host, self.path, self.status, self.process, self.line = (
            start_ms, host, path, status, process, line)


def parse(text, first_line=1):
    """The requests of the log's text, in log order, and the lines that did not parse (number, text)."""
    requests, bad = [], []
    for n, raw in enumerate(text.splitlines(), first_line):
        if not raw.strip():
            continue
        m = LINE.match(raw)
        if not m:
            bad.append((n, raw))
            continue
        end_s, took_s, host, status, uri, agent = m.groups()
        start_ms = round(float(end_s) * 1000) - round(float(took_s) * 1000)
        p = PROCESS.search(agent)
        requests.append(Request(start_ms, host, uri, int(status), p.group(1) if p else "-", n))
    return requests, bad


def read_log(path, offset):
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read().decode("utf-8", "replace")


def analyse(requests, expected_urls, expected_count, delay_ms, slack_ms, killed):
    """Every figure of the report, as a dict."""
    r = {}
    pages = [q for q in requests if q.path != ROBOTS]
    robots = [q for q in requests if q.path == ROBOTS]
    by_url = collections.defaultdict(list)
    for q in pages:
        by_url[(q.host, q.path)].append(q)
    r["requests"] = len(requests)
    r["t0_ms"] = min((q.start_ms for q in requests), default=0)
    r["robots"] = len(robots)
    r["robots_by_host"] = collections.Counter(q.host for q in robots)
    r["pages"] = len(by_url)
    r["expected"] = len(expected_urls) if expected_urls is not None else expected_count
    if expected_urls is not None:
        r["missing"] = sorted(expected_urls - set(by_url))
        r["unexpected"] = sorted(set(by_url) - expected_urls)
        r["pages_expected_seen"] = len(set(by_url) & expected_urls)
    dups = {url: qs for url, qs in by_url.items() if len(qs) > 1}
    r["dup_urls"] = dups
    r["dups"] = sum(len(qs) - 1 for qs in dups.values())
    r["statuses"] = collections.Counter(q.status for q in requests if q.status != 200)
    r["per_process"] = collections.Counter(q.process for q in requests)
    # Politeness: consecutive starts per host, robots.txt included.
    by_host = collections.defaultdict(list)
    for q in requests:
        by_host[q.host].append(q)
    limit = delay_ms - slack_ms
    violations, min_gap = [], None
    for host, qs in by_host.items():
        qs.sort(key=lambda q: (q.start_ms, q.line))
        for a, b in zip(qs, qs[1:]):
            gap = b.start_ms - a.start_ms
            if min_gap is None or gap < min_gap[0]:
                min_gap = (gap, host, a, b)
            if gap < limit:
                violations.append((gap, host, a, b))
    r["violations"] = sorted(violations, key=lambda v: v[0])
    r["min_gap"] = min_gap
    r["hosts"] = len(by_host)
    if killed is not None:
        mine = [q for q in requests if q.process == killed]
        r["killed_requests"] = len(mine)
        killed_hosts = {q.host for q in mine}
        killed_urls = {(q.host, q.path) for q in mine}
        dup_report = []
        for url, qs in sorted(dups.items()):
            ordered = sorted(qs, key=lambda q: (q.start_ms, q.line))
            dup_report.append((url, [q.process for q in ordered], url[0] in killed_hosts,
                               ordered[0].process == killed))
        r["dup_report"] = dup_report
        resume = []
        for host in sorted(killed_hosts):
            qs = by_host[host]  # sorted above
            last = max((q for q in qs if q.process == killed), key=lambda q: q.start_ms)
            after = [q for q in qs if q.start_ms > last.start_ms and q.process != killed]
            if after:
                resume.append((after[0].start_ms - last.start_ms, host, last, after[0]))
        r["resume"] = sorted(resume, key=lambda x: -x[0])
        r["killed_hosts"] = len(killed_hosts)
        r["resume_max_ms"] = r["resume"][0][0] if resume else 0
    return r


def bound_failures(r, bounds, killed_threads, resume_s):
    """The bounds of the scenario that the figures break, as sentences."""
    fails = []
    if bounds == "none":
        return fails
    if r["expected"] is not None:
        seen = r.get("pages_expected_seen", r["pages"])
        if seen != r["expected"]:
            fails.append(f"pages: {seen} of the {r['expected']} expected were requested")
    if bounds in ("all", "pages-dups") and r["dups"] != 0:
        fails.append(f"duplicates: {r['dups']}, expected 0")
    if bounds in ("all", "killed") and r["violations"]:
        fails.append(f"politeness: {len(r['violations'])} violations, the closest {r['violations'][0][0]} ms")
    if bounds == "killed":
        if r["dups"] > killed_threads:
            fails.append(f"duplicates: {r['dups']}, more than the killed process's {killed_threads} threads")
        off = [d for d in r["dup_report"] if not d[2]]
        if off:
            fails.append(f"duplicates: {len(off)} on hosts the killed process never requested, e.g. {off[0][0]}")
        if r["resume_max_ms"] > resume_s * 1000:
            fails.append(f"resume: its hosts resumed after {r['resume_max_ms'] / 1000:.1f} s, more than {resume_s} s")
    return fails


T0_MS = [0]  # the window's first start: times in the report are seconds after it


def fmt_req(q):
    return f"{q.process}@{(q.start_ms - T0_MS[0]) / 1000:.3f}s {q.path}"


def report(r, scenario, bounds, fails, out):
    p = lambda *a: print(*a, file=out)  # noqa: E731
    T0_MS[0] = r["t0_ms"]
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r["t0_ms"] / 1000)) if r["requests"] else "-"
    p(f"== scenario {scenario}: {r['requests']} requests ({r['robots']} robots.txt) to {r['hosts']} hosts from "
      f"{start} (times below: seconds after it)")
    p(f"pages: {r['pages']} distinct requested, expected {r['expected'] if r['expected'] is not None else '?'}")
    for key in ("missing", "unexpected"):
        if r.get(key):
            p(f"  {key}: {len(r[key])}, e.g. " + ", ".join(f"{h}{u}" for h, u in r[key][:5]))
    p(f"duplicates: {r['dups']} extra requests of {len(r['dup_urls'])} pages")
    for (host, path), qs in sorted(r["dup_urls"].items())[:20]:
        p(f"  {host}{path}: " + ", ".join(fmt_req(q) for q in sorted(qs, key=lambda q: q.start_ms)))
    extra_robots = {h: n for h, n in r["robots_by_host"].items() if n > 1}
    p(f"robots.txt: {r['robots']} requests" + (f", hosts asked more than once: "
      + ", ".join(f"{h} x{n}" for h, n in sorted(extra_robots.items())) if extra_robots else ""))
    if r["statuses"]:
        p("statuses other than 200: " + ", ".join(f"{s} x{n}" for s, n in sorted(r["statuses"].items())))
    if r["min_gap"]:
        gap, host, a, b = r["min_gap"]
        p(f"politeness: {len(r['violations'])} violations; smallest gap {gap} ms on {host} "
          f"({fmt_req(a)} then {fmt_req(b)})")
    for gap, host, a, b in r["violations"][:10]:
        p(f"  {gap} ms on {host}: {fmt_req(a)} then {fmt_req(b)}")
    p("per process: " + ", ".join(f"{k}={v}" for k, v in sorted(r["per_process"].items())))
    if "dup_report" in r:
        p(f"killed process: {r['killed_requests']} requests")
        for url, procs, host_mine, first_mine in r["dup_report"]:
            p(f"  duplicate {url[0]}{url[1]} by {','.join(procs)}: the killed process requested the host "
              f"{'yes' if host_mine else 'NO'}, the page before the others {'yes' if first_mine else 'no'}")
        for gap, host, last, nxt in r["resume"][:5]:
            p(f"  resume {host}: {gap / 1000:.2f} s from {fmt_req(last)} to {fmt_req(nxt)}")
        p(f"its hosts resume within {r['resume_max_ms'] / 1000:.2f} s ({len(r['resume'])} of the {r['killed_hosts']} hosts it requested "
          f"asked again by others)")
    for f in fails:
        p(f"FAIL {f}")
    gap = r["min_gap"][0] if r["min_gap"] else -1
    fields = [f"scenario={scenario}", f"pages={r['pages']}", f"expected={r['expected']}", f"dups={r['dups']}",
              f"robots={r['robots']}", f"violations={len(r['violations'])}", f"min_gap_ms={gap}",
              "per_process=" + ",".join(f"{k}:{v}" for k, v in sorted(r["per_process"].items()))]
    if "dup_report" in r:
        fields.append(f"resume_max_s={r['resume_max_ms'] / 1000:.2f}")
    fields.append(f"bounds={bounds}:{'ok' if not fails else 'FAIL'}")
    p("RESULT " + " ".join(fields))


def load_urls(path):
    urls = set()
    with open(path) as f:
        for line in f:
            if line.strip():
                host, path_ = line.split()
                urls.add((host, path_))
    return urls


def run(args, out=sys.stdout):
    try:
        text = read_log(args.log, args.offset)
    except OSError as e:
        print(f"cluster-check: {args.log}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    requests, bad = parse(text)
    if bad:
        print(f"cluster-check: {args.log}: {len(bad)} lines not in the bench's format, e.g. {bad[0][1]!r}",
              file=sys.stderr)
    urls = load_urls(args.urls) if args.urls else None
    r = analyse(requests, urls, args.expected, args.delay_ms, args.slack_ms, args.killed)
    fails = bound_failures(r, args.bounds, args.killed_threads, args.resume_s)
    report(r, args.scenario, args.bounds, fails, out)
    return 1 if fails else 0


def self_test():
    """Hand-made logs through run(): each case's figures and exit status."""
    def line(t_end, took, host, path, proc, status=200):
        return f'{t_end:.3f} {took:.3f} {host} {status} {path} "sieve-bench/1.0 ({proc})"\n'

    cases = []

    def check(name, text, argv, want_rc, want, want_text=()):
        cases.append(name)
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(text)
        try:
            import io
            args = parser().parse_args([f.name] + argv)
            buf = io.StringIO()
            rc = run(args, buf)
            result = dict(kv.split("=", 1) for kv in buf.getvalue().strip().splitlines()[-1].split()[1:])
            for k, v in want.items():
                assert result.get(k) == v, f"self-test {name}: {k}={result.get(k)!r}, wanted {v!r}\n{buf.getvalue()}"
            for t in want_text:
                assert t in buf.getvalue(), f"self-test {name}: no {t!r} in\n{buf.getvalue()}"
            assert rc == want_rc, f"self-test {name}: exit {rc}, wanted {want_rc}\n{buf.getvalue()}"
        finally:
            os.unlink(f.name)

    a, b = "127.0.1.1", "127.0.1.2"
    urls = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    urls.write(f"{a} /\n{a} /p/001.html\n{b} /\n{b} /p/001.html\n")
    urls.close()
    u = ["--urls", urls.name]
    try:
        # Clean: robots, then pages 150 ms apart (start = end - took); a host's gap measured start to start.
        clean = (line(1000.010, 0.010, a, "/robots.txt", "p1") + line(1000.151, 0.001, a, "/", "p1")
                 + line(1000.302, 0.002, a, "/p/001.html", "p1") + line(1000.005, 0.005, b, "/robots.txt", "p2")
                 + line(1000.200, 0.000, b, "/", "p2") + line(1000.400, 0.000, b, "/p/001.html", "p2"))
        check("clean", clean, u + ["--bounds", "all"], 0,
              {"pages": "4", "dups": "0", "robots": "2", "violations": "0", "min_gap_ms": "150",
               "per_process": "p1:3,p2:3"})
        # Offset: the window starts after the first two lines (a robots.txt, a /): 4 requests, 3 pages, 1 missing.
        first_two = len(clean.splitlines(keepends=True)[0]) + len(clean.splitlines(keepends=True)[1])
        check("offset", clean, u + ["--bounds", "all", "--offset", str(first_two)], 1,
              {"pages": "3", "robots": "1", "bounds": "all:FAIL"})
        # A duplicate (b / twice) and a violation (89 ms < 100 - 10).
        dup = clean + line(1000.289, 0.000, b, "/", "p3") + line(1000.510, 0.000, a, "/p/001.html", "p3")
        check("dup", dup, u + ["--bounds", "all"], 1,
              {"pages": "4", "dups": "2", "violations": "1", "min_gap_ms": "89", "bounds": "all:FAIL"})
        check("dup-report", dup, u + ["--bounds", "none"], 0, {"dups": "2", "bounds": "none:ok"})
        # robots.txt twice is not a duplicate, but its gap counts for politeness; 90 ms (DELAY - SLACK) is allowed.
        robots2 = clean + line(1000.490, 0.000, b, "/robots.txt", "p3")
        check("robots", robots2, u + ["--bounds", "all"], 0, {"dups": "0", "robots": "3", "violations": "0", "min_gap_ms": "90"})
        robots3 = clean + line(1000.420, 0.000, b, "/robots.txt", "p3")
        check("robots-gap", robots3, u + ["--bounds", "all"], 1, {"violations": "1", "min_gap_ms": "20"})
        check("expected", clean, ["--expected", "5", "--bounds", "pages-dups"], 1, {"pages": "4", "expected": "5"})
        # Killed p1 after its request of a's page 1; p2 takes a over 3 s later and fetches page 1 again.
        kill = (line(1000.010, 0.010, a, "/robots.txt", "p1") + line(1000.160, 0.001, a, "/", "p1")
                + line(1000.320, 0.002, a, "/p/001.html", "p1") + line(1000.200, 0.000, b, "/", "p2")
                + line(1000.400, 0.000, b, "/p/001.html", "p2") + line(1003.318, 0.000, a, "/p/001.html", "p2"))
        killed = u + ["--bounds", "killed", "--killed", "p1", "--killed-threads", "1", "--resume-s", "20"]
        check("killed", kill, killed, 0, {"pages": "4", "dups": "1", "resume_max_s": "3.00", "bounds": "killed:ok"},
              ["duplicate 127.0.1.1/p/001.html by p1,p2: the killed process requested the host yes, "
               "the page before the others yes", "(1 of the 1 hosts it requested asked again by others)"])
        check("killed-slow", kill, killed[:-1] + ["2"], 1, {"resume_max_s": "3.00", "bounds": "killed:FAIL"})
        check("killed-threads", kill, killed[:-3] + ["0", "--resume-s", "20"], 1, {"bounds": "killed:FAIL"})
        # A duplicate on a host p1 never requested breaks the bound, whatever the count.
        off_host = kill + line(1000.600, 0.000, b, "/", "p3")
        check("killed-offhost", off_host, killed[:-3] + ["5", "--resume-s", "20"], 1,
              {"dups": "2", "bounds": "killed:FAIL"})
    finally:
        os.unlink(urls.name)
    print(f"cluster-check: self-test passed ({len(cases)} cases)")
    return 0


def parser():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log", help="nginx's access log in the bench's format")
    ap.add_argument("--offset", type=int, default=0, help="read from this byte on (the scenario's window)")
    ap.add_argument("--scenario", default="-", help="the scenario's name, for the report")
    ap.add_argument("--bounds", choices=("none", "all", "pages-dups", "killed"), default="none")
    ap.add_argument("--urls", help="the expected pages, 'HOST PATH' a line (cluster-site.py's urls.txt)")
    ap.add_argument("--expected", type=int, help="the expected page count, without --urls")
    ap.add_argument("--delay-ms", type=int, default=100, help="the politeness delay (100)")
    ap.add_argument("--slack-ms", type=int, default=10, help="how much closer two requests may be (10)")
    ap.add_argument("--killed", help="the killed process (its User-Agent suffix, e.g. p2)")
    ap.add_argument("--killed-threads", type=int, default=8, help="its fetch.threads, the duplicates' bound (8)")
    ap.add_argument("--resume-s", type=float, default=20, help="its hosts resume within this many seconds (20)")
    return ap


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    args = parser().parse_args(argv)
    if args.bounds == "killed" and not args.killed:
        print("cluster-check: --bounds killed needs --killed PROCESS", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
