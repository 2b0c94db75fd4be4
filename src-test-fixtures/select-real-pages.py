#!/usr/bin/env python3
"""Selects the real pages of src/main/resources/real-pages/ from the Debian documentation packages.

Per package: pages spread over its folders (round robin over the top-level folders, each in an order fixed by
the SHA-1 of its path), the pages that carry the constructs the byte scanner must read (noscript, svg, math,
tables, frames, CDATA, canonical links, base), a few named pages (EXTRA), and its two smallest and two
largest pages under MAX_BYTES.
Pages are stored gzipped under their path relative to the package's HTML folder. Run from the repository root:

    python3 src-test-fixtures/select-real-pages.py

It rewrites src-test-fixtures/src/main/resources/real-pages/<package>/ and index.txt (every page, one a line, for
the tests to find them in a jar as in a folder), and prints counts and sizes.
"""
import gzip
import hashlib
import os
import re
import shutil

OUT = "src-test-fixtures/src/main/resources/real-pages"
MAX_BYTES = 600_000
PACKAGES = [  # name, folder, pages spread over folders, feature pages per feature
    ("rust-doc", "/usr/share/doc/rust-doc/html", 130, 6),
    ("apache2-doc", "/usr/share/doc/apache2-doc/manual", 80, 5),
    ("libboost1.81-doc", "/usr/share/doc/libboost1.81-doc", 90, 5),
    ("python-django-doc", "/usr/share/doc/python-django-doc/html", 60, 5),
]
EXTRA = {  # pages the differential run showed to need a rule of their own
    "rust-doc": ["rustdoc/command-line-arguments.html"],  # a literal <head> inside an <a>
    "python-django-doc": ["search.html"],  # the package's one noscript
}
FEATURES = {
    "noscript": re.compile(rb"<noscript", re.I),
    "svg": re.compile(rb"<svg", re.I),
    "math": re.compile(rb"<math", re.I),
    "table": re.compile(rb"<table", re.I),
    "frame": re.compile(rb"<i?frame", re.I),
    "cdata": re.compile(rb"<!\[CDATA\[", re.I),
    "canonical": re.compile(rb"rel=.?canonical", re.I),
    "base": re.compile(rb"<base ", re.I),
}


def key(path):
    return hashlib.sha1(path.encode()).hexdigest()


def main():
    total = 0
    for name, folder, spread, per_feature in PACKAGES:
        pages = []
        for root, _, files in os.walk(folder, followlinks=True):
            for f in files:
                if f.lower().endswith((".html", ".htm")):
                    path = os.path.join(root, f)
                    size = os.path.getsize(path)
                    if size <= MAX_BYTES:
                        pages.append((os.path.relpath(path, folder), size))
        pages.sort(key=lambda p: key(p[0]))
        chosen = {}
        by_folder = {}
        for rel, size in pages:
            top = rel.split("/")[0] if "/" in rel else "."
            if name == "libboost1.81-doc":
                top = "/".join(rel.split("/")[:3])
            by_folder.setdefault(top, []).append(rel)
        queues = [list(v) for _, v in sorted(by_folder.items())]
        while len(chosen) < spread and any(queues):
            for q in queues:
                if q and len(chosen) < spread:
                    chosen[q.pop(0)] = "spread"
        for feature, pattern in FEATURES.items():
            found = 0
            for rel, _ in pages:
                if found == per_feature:
                    break
                with open(os.path.join(folder, rel), "rb") as fh:
                    if pattern.search(fh.read()):
                        found += 1
                        chosen.setdefault(rel, feature)
        for rel in EXTRA.get(name, []):
            chosen.setdefault(rel, "named")
        by_size = sorted(pages, key=lambda p: (p[1], p[0]))
        for rel, _ in by_size[:2] + by_size[-2:]:
            chosen.setdefault(rel, "size")
        target = os.path.join(OUT, name)
        shutil.rmtree(target, ignore_errors=True)
        stored = 0
        for rel in sorted(chosen):
            with open(os.path.join(folder, rel), "rb") as fh:
                data = fh.read()
            out = os.path.join(target, rel + ".gz")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as fh:
                fh.write(gzip.compress(data, 9, mtime=0))
            stored += os.path.getsize(out)
        total += stored
        counts = {}
        for why in chosen.values():
            counts[why] = counts.get(why, 0) + 1
        print(f"{name}: {len(chosen)} pages, {stored / 1e6:.2f} MB gzipped, {counts}")
    index = sorted(os.path.relpath(os.path.join(root, f), OUT)
                   for root, _, files in os.walk(OUT) for f in files if f.endswith(".gz"))
    with open(os.path.join(OUT, "index.txt"), "w") as fh:
        fh.write("".join(line + "\n" for line in index))
    print(f"total {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
