#!/usr/bin/env python3
"""The cluster bench's site (issue 14): 24 hosts of 500 HTML pages, written as files for nginx.

    cluster-site.py --out DIR [--port 19400] [--hosts 24] [--pages 500] [--seed 14]

Writes DIR/127.0.1.K/ for K = 1 .. HOSTS, each holding robots.txt (everything allowed), index.html (page 0, the
seed, linked as "/") and p/NNN.html (pages 1 .. PAGES-1), and DIR/urls.txt, the HOSTS x PAGES expected pages as
"HOST PATH" lines (what cluster-check.py --urls reads). The same arguments always write the same files (a fixed
random seed): each page links page+1 of its host (a chain from "/", so every page is reachable from its host's
seed), 7 other pages of its host and 2 pages of other hosts (absolute URLs with the port, as a crawler sees them
across hosts), in a random order, plus a few hundred bytes of text. Files the previous run wrote are replaced;
DIR is emptied of hosts first, so a smaller site leaves nothing behind.

Out of scope: serving (cluster-bench.sh writes the nginx configuration) and anything but plain links.
"""
import argparse
import os
import random
import shutil
import sys

SAME_HOST_LINKS = 7  # besides the chain link to page + 1
OTHER_HOST_LINKS = 2
WORDS = ("crawl frontier partition sieve host politeness delay kafka broker offset record snapshot replay "
         "takeover member group rebalance fetch page link seed robots scope depth thread queue").split()


def host_name(k):
    return f"127.0.1.{k}"


def page_path(i):
    return "/" if i == 0 else f"/p/{i:03d}.html"


def page_file(i):
    return "index.html" if i == 0 else os.path.join("p", f"{i:03d}.html")


def page_html(rng, hosts, pages, port, k, i):
    links = [page_path((i + 1) % pages)]
    others = [j for j in range(pages) if j != i and j != (i + 1) % pages]
    links += [page_path(j) for j in rng.sample(others, SAME_HOST_LINKS)]
    other_hosts = [h for h in range(1, hosts + 1) if h != k]
    for _ in range(OTHER_HOST_LINKS if other_hosts else 0):
        h = rng.choice(other_hosts)
        links.append(f"http://{host_name(h)}:{port}{page_path(rng.randrange(pages))}")
    rng.shuffle(links)
    text = " ".join(rng.choice(WORDS) for _ in range(60))
    items = "\n".join(f'<li><a href="{href}">link {n}</a></li>' for n, href in enumerate(links))
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{host_name(k)} page {i}</title></head>\n"
            f"<body><h1>Host {k}, page {i}</h1>\n<p>{text}</p>\n<ul>\n{items}\n</ul>\n</body></html>\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the folder to write the site into")
    parser.add_argument("--port", type=int, default=19400, help="nginx's port, in the links across hosts")
    parser.add_argument("--hosts", type=int, default=24, help="hosts 127.0.1.1 .. 127.0.1.HOSTS (1 to 254)")
    parser.add_argument("--pages", type=int, default=500, help="pages per host (at least 10)")
    parser.add_argument("--seed", type=int, default=14, help="the random seed")
    args = parser.parse_args(argv)
    if not 1 <= args.hosts <= 254:
        parser.error(f"--hosts {args.hosts}: must be from 1 to 254 (127.0.1.1 .. 127.0.1.254)")
    if args.pages < SAME_HOST_LINKS + 3:
        parser.error(f"--pages {args.pages}: must be at least {SAME_HOST_LINKS + 3} (each page links "
                     f"{SAME_HOST_LINKS + 1} others of its host)")
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.startswith("127.0.1."):
            shutil.rmtree(os.path.join(args.out, name))
    with open(os.path.join(args.out, "urls.txt"), "w") as urls:
        for k in range(1, args.hosts + 1):
            root = os.path.join(args.out, host_name(k))
            os.makedirs(os.path.join(root, "p"))
            with open(os.path.join(root, "robots.txt"), "w") as f:
                f.write("User-agent: *\nDisallow:\n")
            for i in range(args.pages):
                with open(os.path.join(root, page_file(i)), "w") as f:
                    f.write(page_html(rng, args.hosts, args.pages, args.port, k, i))
                urls.write(f"{host_name(k)} {page_path(i)}\n")
    print(f"cluster-site: {args.hosts} hosts x {args.pages} pages in {args.out} (port {args.port}, seed {args.seed})",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
