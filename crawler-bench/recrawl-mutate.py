#!/usr/bin/env python3
"""The recrawl benchmark's change set (crawler-bench/recrawl-bench.sh, issue 29): seeded, deterministic edits of a
copied site between a crawl and its recrawl, with the ground truth written as URL lists.

    recrawl-mutate.py SITE BASE PAGES_JSONL TRUTH [--seed N] [--change F] [--add F] [--delete F] [--touch F]

SITE is the folder nginx serves at BASE (http://host:port, no path); PAGES_JSONL is the first crawl's pages.jsonl.
The candidates are the HTML pages that crawl fetched (status 200, text/html) whose file lies under SITE and is
reached by that one URL only (a file also reached as "dir/" would change under two URLs), the seeds (depth 0, and
BASE/ and BASE/index.html) left out. Of N candidates, drawn from random.Random(SEED) without overlap:
  changed   round(F * N) (1 %): a paragraph inserted after <body> (a different one per page), so the content, size,
            ETag and Last-Modified change;
  added     round(F * N) (0.5 %) new pages, each in the folder of one changed page (taken in turn) and linked from it
            by an <a href> in that inserted paragraph: the changed pages are the only pages that link to new ones;
  deleted   round(F * N) (0.5 %) pages removed (none of the changed or touched ones); the pages linking to them
            keep the dead link;
  touched   round(F * N) (1 %): mtime set to now, content unchanged (a new Last-Modified and ETag, the same body).
Each count is at least 1. TRUTH/changed.txt, added.txt, deleted.txt and touched.txt get the URLs, sorted, one a line;
TRUTH/counts.txt the counts. Refuses (exit 2, naming the input) a SITE that is not a folder, a PAGES_JSONL line that
is not JSON, a fraction outside [0, 1], or too few candidates for the disjoint sets.
"""
import argparse
import json
import os
import random
import re
import sys
import time
import urllib.parse

BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)


def fail(message):
    print("recrawl-mutate: " + message, file=sys.stderr)
    sys.exit(2)


def fraction(text):
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("%s is not a fraction in [0, 1]" % text)
    return value


def fetched_pages(pages_jsonl):
    """The URLs of the HTML pages answered 200 in a crawl's pages.jsonl, and those of its seeds (depth 0)."""
    urls, seeds = [], set()
    with open(pages_jsonl, encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
            except ValueError as e:
                fail("%s line %d: not JSON (%s): %.80r" % (pages_jsonl, number, e, line))
            if not isinstance(record, dict) or not isinstance(record.get("url"), str):
                fail("%s line %d: no \"url\" string: %.80r" % (pages_jsonl, number, line))
            if record.get("status") == 200 and str(record.get("contentType", "")).startswith("text/html"):
                urls.append(record["url"])
            if record.get("depth") == 0:
                seeds.add(record["url"])
    return urls, seeds


def file_of(site, base, url):
    """The file under SITE that BASE serves for URL, or None (another host, a query, a path out of SITE)."""
    if not url.startswith(base + "/"):
        return None
    parts = urllib.parse.urlsplit(url)
    if parts.query:
        return None
    path = urllib.parse.unquote(parts.path)
    if path.endswith("/"):
        path += "index.html"
    full = os.path.realpath(os.path.join(site, path.lstrip("/")))
    if not full.startswith(os.path.realpath(site) + os.sep) or not os.path.isfile(full):
        return None
    return full


def insert_after_body(page, paragraph):
    match = BODY.search(page)
    at = match.end() if match else len(page)
    return page[:at] + paragraph + page[at:]


def main():
    parser = argparse.ArgumentParser(description="Seeded edits of a site for the recrawl benchmark.")
    parser.add_argument("site")
    parser.add_argument("base")
    parser.add_argument("pages_jsonl")
    parser.add_argument("truth")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--change", type=fraction, default=0.01)
    parser.add_argument("--add", type=fraction, default=0.005)
    parser.add_argument("--delete", type=fraction, default=0.005)
    parser.add_argument("--touch", type=fraction, default=0.01)
    args = parser.parse_args()
    if not os.path.isdir(args.site):
        fail("SITE %s: not a folder" % args.site)
    base = args.base.rstrip("/")

    by_file = {}
    pages, seeds = fetched_pages(args.pages_jsonl)
    for url in pages:
        path = file_of(args.site, base, url)
        if path is not None:
            by_file.setdefault(path, set()).add(url)
    seeds |= {base + "/", base + "/index.html"}
    candidates = sorted(next(iter(urls)) for urls in by_file.values() if len(urls) == 1 and not urls & seeds)
    n = len(candidates)
    count = lambda f: max(1, round(f * n)) if f > 0 else 0
    n_change, n_add, n_delete, n_touch = count(args.change), count(args.add), count(args.delete), count(args.touch)
    if n_change + n_delete + n_touch > n or (n_add and not n_change):
        fail("%s: %d candidate pages, too few for %d changed, %d deleted and %d touched (and new pages need changed "
             "ones)" % (args.pages_jsonl, n, n_change, n_delete, n_touch))
    rng = random.Random(args.seed)
    drawn = rng.sample(candidates, n_change + n_delete + n_touch)
    changed = sorted(drawn[:n_change])
    deleted = sorted(drawn[n_change:n_change + n_delete])
    touched = sorted(drawn[n_change + n_delete:])

    links = {url: [] for url in changed}
    added = []
    for i in range(n_add):
        linker = changed[i % n_change]
        folder = linker[:linker.rindex("/") + 1]
        name = "recrawl-new-%d.html" % (i + 1)
        added.append(folder + name)
        links[linker].append(name)
    now = time.time()
    for number, url in enumerate(changed, 1):
        path = file_of(args.site, base, url)
        with open(path, "rb") as f:
            page = f.read()
        anchors = "".join(' <a href="%s">new page %s</a>' % (name, name) for name in links[url])
        paragraph = ("\n<p>recrawl-bench change %d (seed %d)%s</p>\n" % (number, args.seed, anchors)).encode()
        with open(path, "wb") as f:
            f.write(insert_after_body(page, paragraph))
        os.utime(path, (now, now))
    for number, url in enumerate(added, 1):
        path = os.path.join(args.site, urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/"))
        with open(path, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html>\n<html><head><title>recrawl-bench new page %d</title></head>\n<body>\n"
                    "<p>Added by recrawl-bench (seed %d) after the first crawl.</p>\n</body></html>\n"
                    % (number, args.seed))
        os.utime(path, (now, now))
    for url in deleted:
        os.remove(file_of(args.site, base, url))
    for url in touched:
        os.utime(file_of(args.site, base, url), (now, now))

    os.makedirs(args.truth, exist_ok=True)
    for name, urls in (("changed", changed), ("added", added), ("deleted", deleted), ("touched", touched)):
        with open(os.path.join(args.truth, name + ".txt"), "w", encoding="utf-8") as f:
            f.writelines(url + "\n" for url in sorted(urls))
    summary = ("candidates=%d changed=%d added=%d deleted=%d touched=%d seed=%d"
               % (n, len(changed), len(added), len(deleted), len(touched), args.seed))
    with open(os.path.join(args.truth, "counts.txt"), "w", encoding="utf-8") as f:
        f.write(summary + "\n")
    print("recrawl-mutate: " + summary)


if __name__ == "__main__":
    main()
