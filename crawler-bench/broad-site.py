#!/usr/bin/env python3
"""The broad-crawl benchmark's site and referee (crawler-bench/broad-bench.sh runs it; stdlib only).

  broad-site.py site DIR PAGES PORT SOURCE     writes DIR/p0.html .. p{PAGES-1}.html, index.html, robots.txt
  broad-site.py nginx HOSTS                    prints the nginx http-level maps for HOSTS hosts (10^2 .. 10^6)
  broad-site.py seeds HOSTS COUNT PORT         prints COUNT seed URLs spread evenly over the HOSTS hosts, or
                                               one per host with COUNT=all
  broad-site.py report LOG START DELAY_MS TOL_MS [BUCKET_S [HOSTS]]
                                               reads nginx's access log of one crawl, prints key=value lines
  broad-site.py verify HOSTS PORT PAGES        checks nginx's cross-host links against the model (exit 1 if not)
  jfr print --events jdk.ExecutionSample F | broad-site.py hot
                                               the 15 top frames by samples

Hosts. Host n (0 <= n < HOSTS, HOSTS a power of ten) is 127.(100+a).(100+b).(100+c) with n = a*10^4 + b*100 + c:
every octet is "1" and two digits, so nginx can take the digits apart with a regular expression (no arithmetic
there) and no address ends in .0 or .255.

Pages. Every host serves the same PAGES files (one nginx, one root): page i is a rust-doc page of 12-19 KB (real
markup: sidebar, code, prose), its first 15 <a href>s replaced by ours and the others' href removed, so it has
exactly 10 same-host links (/p{(10i+1+j) mod PAGES}.html, j < 10: a 10-ary tree from /, every page at depth
<= log10(PAGES)+1) and 5 cross-host links. The cross-host link k = (5i + j) mod 20 of page i is written
http://127.@H@.@M@.@Xk@:PORT/p{(7i+3j) mod PAGES}.html, and nginx's sub_filter fills in the placeholders from the
serving host's name: link k of host n goes to host ((n * 100) mod HOSTS) + perm_k(d), where d is the two digits
the shift drops (n's top two decimal digits below HOSTS) and perm_0..perm_19 are fixed random permutations of
0..99. Each perm_k makes n -> target a bijection of the hosts, so the link graph is 20-regular in and out,
spread over all HOSTS hosts (a host's pages link to up to 20 others, different for each host), every host
reachable from any other within a few hops: what a broad crawl meets, with one set of files.
"""
import collections
import functools
import html
import os
import random
import re
import sys

PERMS = 20
SEED = 27


@functools.lru_cache(maxsize=1)
def perms():
    rng = random.Random(SEED)
    out = []
    for _ in range(PERMS):
        p = list(range(100))
        rng.shuffle(p)
        out.append(p)
    return out


def digits(hosts):
    """log10(hosts) for hosts a power of ten in 10^2 .. 10^6, else exit 2 naming the value."""
    for k in range(2, 7):
        if hosts == 10 ** k:
            return k
    sys.exit(f"broad-site: HOSTS={hosts}: must be a power of ten from 100 to 1000000")


def address(n):
    return f"127.{100 + n // 10000}.{100 + n // 100 % 100}.{100 + n % 100}"


A_HREF = re.compile(r'(<a\b[^>]*?)\shref\s*=\s*("[^"]*"|\'[^\']*\'|[^\s>]+)', re.I)
CANONICAL = re.compile(r'<link\b[^>]*rel\s*=\s*"?canonical[^>]*>', re.I)


def templates(source):
    """rust-doc pages of 12-19 KB, not source listings, sorted: the markup the generated pages reuse."""
    found = []
    for root, _, files in os.walk(source):
        if "/src" in root[len(source):]:
            continue
        for f in files:
            path = os.path.join(root, f)
            if f.endswith(".html") and 12_000 <= os.path.getsize(path) <= 19_000:
                found.append(path)
    found.sort()
    if len(found) < 20:
        sys.exit(f"broad-site: {source}: {len(found)} HTML pages of 12-19 KB found, 20 needed (is rust-doc installed?)")
    return found


def site(out, pages, port, source):
    os.makedirs(out, exist_ok=True)
    pool = templates(source)
    markup = []
    for path in pool[: 200]:
        with open(path, encoding="utf-8", errors="replace") as f:
            markup.append(CANONICAL.sub("", f.read()))
    for i in range(pages):
        links = [f"/p{(10 * i + 1 + j) % pages}.html" for j in range(10)]
        links += [f"http://127.@H@.@M@.@X{(5 * i + j) % PERMS}@:{port}/p{(7 * i + 3 * j) % pages}.html"
                  for j in range(5)]
        rest = iter(links)

        def replace(m):
            link = next(rest, None)
            return m.group(1) if link is None else f'{m.group(1)} href="{html.escape(link)}"'

        text = A_HREF.sub(replace, markup[i % len(markup)])
        left = list(rest)  # a template with fewer than 15 links: the others in a nav at the end of the body
        if left:
            nav = "<nav>" + " ".join(f'<a href="{html.escape(u)}">more {k}</a>' for k, u in enumerate(left)) + "</nav>"
            text = text.replace("</body>", nav + "</body>", 1) if "</body>" in text else text + nav
        with open(os.path.join(out, f"p{i}.html"), "w", encoding="utf-8") as f:
            f.write(text)
        if i == 0:
            with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(out, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")


def nginx(hosts):
    """The maps: $bh and $bm, the target's second and third octets, and $bd, the two digits the shift drops;
    $bx0 .. $bx19 the fourth octet of link k. Named captures, one regular expression per HOSTS."""
    k = digits(hosts)
    regex, hi, mid, drop = {
        6: (r"^127\.1(?<a>\d\d)\.1(?<b>\d\d)\.1(?<c>\d\d)$", "1$b", "1$c", "$a"),
        5: (r"^127\.10(?<a>\d)\.1(?<b1>\d)(?<b0>\d)\.1(?<c>\d\d)$", "10$b0", "1$c", "$a$b1"),
        4: (r"^127\.100\.1(?<b>\d\d)\.1(?<c>\d\d)$", "100", "1$c", "$b"),
        3: (r"^127\.100\.10(?<b>\d)\.1(?<c1>\d)(?<c0>\d)$", "100", "10$c0", "$b$c1"),
        2: (r"^127\.100\.100\.1(?<c>\d\d)$", "100", "100", "$c"),
    }[k]
    print(f'map $host $bh {{ "~{regex}" {hi}; default 100; }}')
    print(f'map $host $bm {{ "~{regex}" {mid}; default 100; }}')
    print(f'map $host $bd {{ "~{regex}" {drop}; default 00; }}')
    for j, p in enumerate(perms()):
        print(f"map $bd $bx{j} {{ default 100; " + " ".join(f"{d:02d} {100 + p[d]};" for d in range(100)) + " }")


def target(hosts, n, k):
    """The host link k of host n goes to (what the nginx maps compute; for tests and the docs)."""
    d = n * 100 // hosts
    return n * 100 % hosts + perms()[k][d]


def seeds(hosts, count, port):
    digits(hosts)
    if count == "all":
        chosen = range(hosts)
    else:
        c = int(count)
        if not 1 <= c <= hosts:
            sys.exit(f"broad-site: SEEDS={count}: must be 1 to HOSTS ({hosts}) or all")
        chosen = (j * hosts // c for j in range(c))
    w = sys.stdout.write
    for n in chosen:
        w(f"http://{address(n)}:{port}/\n")


def host_index(host):
    """n of host 127.(100+a).(100+b).(100+c), or None for another name."""
    o = host.split(".")
    if len(o) != 4 or o[0] != "127" or not all(x.isdigit() and 100 <= int(x) <= 199 for x in o[1:]):
        return None
    return (int(o[1]) - 100) * 10000 + (int(o[2]) - 100) * 100 + int(o[3]) - 100


def page_index(uri):
    """i of /p{i}.html (0 for / and /index.html), or None."""
    if uri in ("/", "/index.html"):
        return 0
    m = re.fullmatch(r"/p(\d+)\.html", uri)
    return int(m.group(1)) if m else None


def report(log, start, delay_ms, tol_ms, bucket_s=10.0, hosts=0.0):
    """Fields of the access log (tab-separated): msec request_time host status bytes uri connection requests.
    A request starts at msec - request_time (nginx's clock; resolution 1 ms each). With hosts (H), also the hosts
    the fetched pages link to (their cross-host links, as nginx wrote them) and how many of them got no request."""
    hosts = int(hosts)
    linked = set()
    by_host = collections.defaultdict(list)
    robots = pages = other = bad = 0
    paged = set()
    buckets = collections.Counter()
    robot_buckets = collections.Counter()
    first = first_page = None
    last = 0.0
    conns = set()
    for line in open(log, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 8:
            continue
        end, rt, host, status, uri, conn = float(f[0]), float(f[1]), f[2], f[3], f[5], f[6]
        begin = end - rt
        first = begin if first is None or begin < first else first
        last = max(last, end)
        conns.add(conn)
        by_host[host].append((begin, end))
        if status[0] not in "23":
            bad += 1
        if uri == "/robots.txt":
            robots += 1
            robot_buckets[int((end - start) // bucket_s)] += 1
        elif uri.endswith(".html") or uri == "/":
            pages += 1
            paged.add(host)
            n, i = host_index(host), page_index(uri)
            if hosts and n is not None and i is not None:
                for j in range(5):
                    linked.add(target(hosts, n, (5 * i + j) % PERMS))
            first_page = begin if first_page is None or begin < first_page else first_page
            buckets[int((end - start) // bucket_s)] += 1
        else:
            other += 1
    gaps = overlaps = 0
    closest = None
    for reqs in by_host.values():
        reqs.sort()
        for (b0, e0), (b1, e1) in zip(reqs, reqs[1:]):
            if b1 < e0:
                overlaps += 1  # two requests to one host at once: more than max-connections-per-host (1)
            gap = (b1 - e0) * 1000
            closest = gap if closest is None or gap < closest else closest
            if gap < delay_ms - tol_ms:
                gaps += 1
    span = int((last - start) // bucket_s) + 1 if first is not None else 0
    series = ",".join(str(round(buckets[b] / bucket_s)) for b in range(span))
    print(f"log_pages={pages}")
    print(f"robots={robots}")
    print(f"other_requests={other}")
    print(f"non_2xx_3xx={bad}")
    print(f"hosts_requested={len(by_host)}")
    print(f"hosts_paged={len(paged)}")
    if hosts:
        requested = {host_index(h) for h in by_host}
        print(f"hosts_linked={len(linked)}")
        print(f"hosts_linked_unrequested={len(linked - requested)}")
    print(f"connections={len(conns)}")
    print(f"first_request_s={(first - start):.2f}" if first is not None else "first_request_s=NA")
    print(f"first_page_s={(first_page - start):.2f}" if first_page is not None else "first_page_s=NA")
    print(f"last_request_s={(last - start):.2f}")
    print(f"violations={gaps + overlaps}")
    print(f"violations_gap={gaps}")
    print(f"violations_overlap={overlaps}")
    print(f"closest_gap_ms={closest:.0f}" if closest is not None else "closest_gap_ms=NA")
    print(f"pps_{int(bucket_s)}s={series}")
    print(f"robots_{int(bucket_s)}s=" + ",".join(str(round(robot_buckets[b] / bucket_s)) for b in range(span)))


def hot(text, top=15):
    """The top frames of `jfr print --events jdk.ExecutionSample` output, by samples."""
    count = collections.Counter()
    total = 0
    expect = False
    for line in text:
        line = line.strip()
        if line.startswith("stackTrace = ["):
            expect = True
        elif expect:
            expect = False
            if line and line != "]":
                count[re.sub(r"\s+line:.*$", "", line)] += 1
                total += 1
    print(f"HOT samples={total}")
    for frame, n in count.most_common(top):
        print(f"HOT {100 * n / max(total, 1):5.1f}% {n:7d}  {frame}")


def verify(hosts, port, pages, samples=20):
    """Fetches page i of host n from nginx for a few fixed (n, i) and compares its cross-host links with target():
    the nginx maps and this model must agree, or the figures describe another graph. Exits 1 naming the first
    difference."""
    import urllib.request
    rng = random.Random(SEED)
    for _ in range(samples):
        n, i = rng.randrange(hosts), rng.randrange(pages)
        url = f"http://{address(n)}:{port}/p{i}.html"
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                body = r.read(1 << 20).decode("utf-8", "replace")
        except OSError as e:
            sys.exit(f"broad-site: {url}: {e}")
        got = re.findall(rf"http://(127\.[0-9.]+):{port}/", body)
        want = [address(target(hosts, n, (5 * i + j) % PERMS)) for j in range(5)]
        if got != want:
            sys.exit(f"broad-site: {url}: cross-host links {got}, expected {want}")
    for n in (0, hosts - 1):
        if host_index(address(n)) != n:
            sys.exit(f"broad-site: host {n}: address {address(n)} reads back as {host_index(address(n))}")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "site" and len(args) == 4:
        site(args[0], int(args[1]), int(args[2]), args[3])
    elif cmd == "nginx" and len(args) == 1:
        nginx(int(args[0]))
    elif cmd == "seeds" and len(args) == 3:
        seeds(int(args[0]), args[1], int(args[2]))
    elif cmd == "report" and len(args) in (4, 5, 6):
        report(args[0], float(args[1]), float(args[2]), float(args[3]), *(float(a) for a in args[4:]))
    elif cmd == "verify" and len(args) == 3:
        verify(int(args[0]), int(args[1]), int(args[2]))
    elif cmd == "hot" and not args:
        hot(sys.stdin)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
