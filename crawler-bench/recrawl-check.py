#!/usr/bin/env python3
"""The recrawl benchmark's checker (crawler-bench/recrawl-bench.sh, issue 29): what a `crawl --since EARLIER --out
NEW` recorded, against what it should have.

    recrawl-check.py same EARLIER NEW [--launcher CMD] [--archives DIR...]
        Nothing changed on the site between the crawls: every page of EARLIER (a record with status 200, or outcome
        not-modified in a recrawl chain) is `not-modified` in NEW's pages.jsonl, and in its changes.jsonl when there
        is one; none is missing from NEW; with WARC files in NEW, each has a revisit record.
    recrawl-check.py mutation EARLIER NEW TRUTH [--launcher CMD] [--archives DIR...]
        The site was changed by recrawl-mutate.py (its lists in TRUTH): changes.jsonl's `changed` URLs are exactly
        TRUTH/changed.txt (the pages that link to the new ones are among them), `new` exactly added.txt, `gone`
        exactly deleted.txt; of EARLIER's pages, `unchanged` exactly touched.txt (each 200 with EARLIER's digest),
        `not-modified` exactly the rest; no `moved`, `unreachable` or `not-visited`; every changed and new page has
        a full `response` record (status 200, longer than its body) in NEW's WARC files, every not-modified one a
        revisit.
    Both: every revisit record of NEW's WARC files (.warc.gz, .warc) refers to its original, a response record in
    NEW or in the ARCHIVES folders (--archives DIR..., EARLIER by default; a chain's earlier crawls), by
    WARC-Refers-To with the same target URI, date and payload digest: what a replay tool follows.
    recrawl-check.py selftest
        Runs both checks on hand-made crawls (pages.jsonl, changes.jsonl and a stand-in for `warc ls`) in a
        temporary folder, a right one and wrong ones, and fails unless each verdict is the expected one.

Without changes.jsonl in NEW (a crawler from before it), the check `changes-jsonl` fails and the changes checks run
on the changes the two pages.jsonl give by issue 29's rule (as changes/Change.of does), named derived-*: what
changes.jsonl should say. The `WARC records` line gives the records by type: count, bytes stored (compressed, from
one record's offset to the next) and their average, what a recrawl's WARC is made of.

CMD (default crawler-cli/target/crawler) lists the WARC records: `CMD warc ls FILE`, each WARC file of NEW. Prints CHECK lines
(`CHECK name=... pass|FAIL detail`), the exact set differences of a failed check (the first 20 URLs of each, with
what they were instead), and a final `CHECKED ... verdict=pass|FAIL` line; exits 0 when every check passed, 1 when one
failed, 2 for a missing or unreadable input (named).
"""
import argparse
import contextlib
import gzip
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

CHANGES = ("new", "changed", "unchanged", "not-modified", "gone", "moved", "unreachable", "not-visited")
WARC_LS_LINE = re.compile(r"^\s*(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s*$")
SHOWN = 20


class InputError(Exception):
    pass


def read_jsonl(path):
    """The JSON objects of a .jsonl file, by URL (the last line of a URL wins)."""
    if not os.path.isfile(path):
        raise InputError("%s: no such file" % path)
    records = {}
    with open(path, encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                raise InputError("%s line %d: not JSON (%s): %.80r" % (path, number, e, line))
            if not isinstance(record, dict) or not isinstance(record.get("url"), str):
                raise InputError("%s line %d: no \"url\" string: %.80r" % (path, number, line))
            records[record["url"]] = record
    return records


def read_list(path):
    if not os.path.isfile(path):
        raise InputError("%s: no such file" % path)
    with open(path, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip()}


def is_page(record):
    """A page with content in that crawl: answered 200, or 304 to a recrawl's conditional request."""
    return record.get("status") == 200 or record.get("outcome") == "not-modified"


def warc_records(launcher, folder):
    """({url: [(type, status, length), ...]}, {type: [records, bytes stored]}) from `launcher warc ls FILE` of each
    WARC file in folder (a record's stored bytes: from its offset to the next record's, or the file's end), or None
    without WARC files there."""
    files = sorted(name for name in os.listdir(folder) if name.endswith((".warc", ".warc.gz", ".warc.zst")))
    if not files:
        return None
    records, stored = {}, {}
    for name in files:
        path = os.path.join(folder, name)
        command = shlex.split(launcher) + ["warc", "ls", path]
        run = subprocess.run(command, capture_output=True, text=True, errors="replace")
        if run.returncode != 0:
            raise InputError("%s: exit %d: %s" % (" ".join(command), run.returncode, run.stderr.strip()[-300:]))
        listed = [match.groups() for match in map(WARC_LS_LINE.match, run.stdout.splitlines()) if match]
        ends = [int(offset) for offset, *_ in listed[1:]] + [os.path.getsize(path)]
        for (offset, kind, status, length, url), end in zip(listed, ends):
            entry = stored.setdefault(kind, [0, 0])
            entry[0] += 1
            entry[1] += end - int(offset)
            if url != "-":
                records.setdefault(url, []).append((kind, int(status) if status.isdigit() else None, int(length)))
    return records, stored


def warc_heads(path):
    """The WARC headers of each record of a .warc.gz or .warc file (names lower-cased), blocks skipped. A file that is
    not WARC (a record not starting "WARC/", a header line over 64 KiB, a Content-Length not a number) is named."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        while True:
            line = f.readline(65536)
            if not line:
                return
            if not line.strip():
                continue
            if not line.startswith(b"WARC/"):
                raise InputError("%s: a record starts with %.40r, not WARC/" % (path, line))
            heads = {}
            while True:
                line = f.readline(65536)
                if line.strip() == b"":
                    break
                if not line.endswith(b"\n"):
                    raise InputError("%s: a header line longer than 64 KiB, or cut" % path)
                name, _, value = line.decode("utf-8", "replace").partition(":")
                heads[name.strip().lower()] = value.strip()
            length = heads.get("content-length", "")
            if not length.isdigit():
                raise InputError("%s: record %s: Content-Length %.40r is not a number"
                                 % (path, heads.get("warc-record-id"), length))
            f.seek(int(length), 1)
            yield heads


def warc_files(folder):
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if name.endswith((".warc", ".warc.gz")))


def check_revisits_resolve(checks, new_dir, archives):
    """Each revisit record of NEW's WARC files refers (WARC-Refers-To, -Target-URI, -Date, the payload digest) to a
    response record in NEW or in one of the ARCHIVES folders (earlier crawls): a replay tool finds its original."""
    responses = {}
    for folder in [new_dir] + list(archives):
        for path in warc_files(folder):
            for heads in warc_heads(path):
                if heads.get("warc-type") == "response":
                    responses[heads.get("warc-record-id")] = heads
    profiles, unresolved, total = {}, [], 0
    for path in warc_files(new_dir):
        for heads in warc_heads(path):
            if heads.get("warc-type") != "revisit":
                continue
            total += 1
            profile = heads.get("warc-profile", "none").rsplit("/", 1)[-1]
            profiles[profile] = profiles.get(profile, 0) + 1
            original = responses.get(heads.get("warc-refers-to"))
            if (original is None or original.get("warc-target-uri") != heads.get("warc-refers-to-target-uri")
                    or original.get("warc-date") != heads.get("warc-refers-to-date")
                    or original.get("warc-payload-digest") != heads.get("warc-payload-digest")):
                unresolved.append((heads.get("warc-target-uri"), heads.get("warc-refers-to"),
                                   "no response record with that ID" if original is None else
                                   "its response: %s %s %s" % (original.get("warc-target-uri"),
                                                               original.get("warc-date"),
                                                               original.get("warc-payload-digest"))))
    if not warc_files(new_dir):
        print("CHECK name=revisits-resolve skipped no .warc.gz or .warc files in %s" % new_dir)
        return
    checks.check("revisits-resolve", not unresolved, "revisits=%d unresolved=%d profiles=%s archives=%s" % (
        total, len(unresolved), ",".join("%s:%d" % item for item in sorted(profiles.items())) or "none",
        ",".join([new_dir] + list(archives))))
    for url, refers_to, why in unresolved[:SHOWN]:
        print("    %s refers to %s: %s" % (url, refers_to, why))


class Checks:
    def __init__(self):
        self.failed = []
        self.count = 0

    def check(self, name, ok, detail=""):
        self.count += 1
        if not ok:
            self.failed.append(name)
        print("CHECK name=%s %s %s" % (name, "pass" if ok else "FAIL", detail))
        return ok

    def same_set(self, name, listed, expected, instead):
        """listed == expected; else the URLs of each difference, with instead(url): what they were."""
        ok = self.check(name, listed == expected, "listed=%d expected=%d" % (len(listed), len(expected)))
        for label, urls in (("expected, not listed", expected - listed), ("listed, not expected", listed - expected)):
            if urls:
                print("  %s %s (%d):" % (name, label, len(urls)))
                for url in sorted(urls)[:SHOWN]:
                    print("    %s  (%s)" % (url, instead(url)))
                if len(urls) > SHOWN:
                    print("    ... %d more" % (len(urls) - SHOWN))
        return ok

    def verdict(self, what):
        print("CHECKED %s checks=%d failed=%d verdict=%s%s" % (what, self.count, len(self.failed),
              "FAIL" if self.failed else "pass", (" (" + ", ".join(self.failed) + ")") if self.failed else ""))
        return 1 if self.failed else 0


NO_ANSWER = ("unreachable", "error", "robots-disallowed", "trap", "out-of-scope")


def derived_change(earlier, now):
    """The change issue 29's rule gives a URL from its earlier and new pages.jsonl records (either None), as the
    crawler's changes/Change.of does: what changes.jsonl should say, for a recrawl written before it existed."""
    gone = lambda record: record.get("status") in (404, 410)
    if earlier is None:
        return "new"
    if now is None:
        return "not-visited"
    if now.get("outcome") == "not-modified":
        return "not-modified"
    if gone(now) and not gone(earlier):
        return "gone"
    if now.get("outcome") == "redirect":
        same = earlier.get("outcome") == "redirect" and earlier.get("redirectTo") == now.get("redirectTo")
        return "unchanged" if same else "moved"
    if now.get("outcome") in NO_ANSWER and (earlier.get("status") or 0) > 0:
        return "unreachable"
    if now.get("digest") and earlier.get("digest"):
        return "unchanged" if now["digest"] == earlier["digest"] else "changed"
    same = now.get("status") == earlier.get("status") and now.get("outcome") == earlier.get("outcome")
    return "unchanged" if same else "changed"


def changes_of(checks, new_dir, earlier, new):
    """changes.jsonl's rows by URL and the prefix of the check names; without the file (a failed check), rows
    derived from the two pages.jsonl, checked under names starting "derived-"."""
    path = os.path.join(new_dir, "changes.jsonl")
    if os.path.isfile(path):
        return read_jsonl(path), ""
    checks.check("changes-jsonl", False, "no %s; the checks below named derived-* use the changes the two "
                 "pages.jsonl give by issue 29's rule" % path)
    return {url: {"url": url, "change": derived_change(earlier.get(url), new.get(url)),
                  "status": new.get(url, {}).get("status"), "previousStatus": earlier.get(url, {}).get("status")}
            for url in earlier.keys() | new.keys()}, "derived-"


def by_change(changes):
    sets = {change: set() for change in CHANGES}
    for url, row in changes.items():
        sets.setdefault(row.get("change"), set()).add(url)
    return sets


def describe(url, earlier, new, changes):
    parts = []
    if url in changes:
        parts.append("change " + str(changes[url].get("change")))
    if url in new:
        parts.append("now %s %s" % (new[url].get("status"), new[url].get("outcome")))
    else:
        parts.append("not in the new pages.jsonl")
    if url in earlier:
        parts.append("before %s %s" % (earlier[url].get("status"), earlier[url].get("outcome")))
    return ", ".join(parts)


def check_warc(checks, launcher, folder, full, revisits, new):
    """full: URLs that need a whole response record; revisits: URLs that need a revisit record."""
    listing = warc_records(launcher, folder)
    if listing is None:
        print("CHECK name=warc skipped no WARC files in %s" % folder)
        return
    records, stored = listing
    def has_full(url):
        body = new.get(url, {}).get("bytes") or 0
        return any(t == "response" and s == 200 and length > body for t, s, length in records.get(url, ()))
    lacking = {url for url in full if not has_full(url)}
    checks.check("warc-full-responses", not lacking, "pages=%d without=%d" % (len(full), len(lacking)))
    for url in sorted(lacking)[:SHOWN]:
        print("    %s  (records: %s)" % (url, records.get(url, "none")))
    no_revisit = {url for url in revisits if not any(t == "revisit" for t, _, _ in records.get(url, ()))}
    checks.check("warc-revisits", not no_revisit, "not-modified=%d without-revisit=%d" % (len(revisits),
                 len(no_revisit)))
    for url in sorted(no_revisit)[:SHOWN]:
        print("    %s  (records: %s)" % (url, records.get(url, "none")))
    print("WARC records (type=count/bytes stored, average) " + " ".join(
        "%s=%d/%d,%.0f" % (kind, n, size, size / n) for kind, (n, size) in sorted(stored.items())))


def run_same(earlier_dir, new_dir, launcher, archives):
    earlier = read_jsonl(os.path.join(earlier_dir, "pages.jsonl"))
    new = read_jsonl(os.path.join(new_dir, "pages.jsonl"))
    checks = Checks()
    pages = {url for url, record in earlier.items() if is_page(record)}
    missing = pages - new.keys()
    not_modified = {url for url in pages if new.get(url, {}).get("outcome") == "not-modified"}
    checks.check("pages-missing", not missing, "earlier-pages=%d missing=%d" % (len(pages), len(missing)))
    for url in sorted(missing)[:SHOWN]:
        print("    %s" % url)
    checks.same_set("pages-not-modified", not_modified, pages, lambda url: describe(url, earlier, new, {}))
    changes, prefix = changes_of(checks, new_dir, earlier, new)
    sets = by_change(changes)
    print("CHANGES " + " ".join("%s=%d" % (c, len(sets.get(c, ()))) for c in CHANGES))
    checks.same_set(prefix + "changes-not-modified", sets["not-modified"] & pages, pages,
                    lambda url: describe(url, earlier, new, changes))
    for change in ("new", "changed", "gone", "moved", "unreachable", "not-visited"):
        checks.same_set(prefix + "changes-" + change, sets[change], set(),
                        lambda url: describe(url, earlier, new, changes))
    check_warc(checks, launcher, new_dir, set(), not_modified, new)
    check_revisits_resolve(checks, new_dir, archives)
    print("SAME earlier_pages=%d not_modified=%d missing=%d earlier_urls=%d urls_missing=%d"
          % (len(pages), len(not_modified), len(missing), len(earlier), len(earlier.keys() - new.keys())))
    return checks.verdict("same %s -> %s" % (earlier_dir, new_dir))


def run_mutation(earlier_dir, new_dir, truth_dir, launcher, archives):
    earlier = read_jsonl(os.path.join(earlier_dir, "pages.jsonl"))
    new = read_jsonl(os.path.join(new_dir, "pages.jsonl"))
    truth = {name: read_list(os.path.join(truth_dir, name + ".txt"))
             for name in ("changed", "added", "deleted", "touched")}
    checks = Checks()
    pages = {url for url, record in earlier.items() if is_page(record)}
    rest = pages - truth["changed"] - truth["deleted"] - truth["touched"]
    changes, prefix = changes_of(checks, new_dir, earlier, new)
    sets = by_change(changes)
    print("CHANGES " + " ".join("%s=%d" % (c, len(sets.get(c, ()))) for c in CHANGES))
    instead = lambda url: describe(url, earlier, new, changes)
    checks.same_set(prefix + "changed", sets["changed"], truth["changed"], instead)
    checks.same_set(prefix + "new", sets["new"], truth["added"], instead)
    checks.same_set(prefix + "gone", sets["gone"], truth["deleted"], instead)
    checks.same_set(prefix + "unchanged-pages", sets["unchanged"] & pages, truth["touched"], instead)
    checks.same_set(prefix + "not-modified-pages", sets["not-modified"] & pages, rest, instead)
    for change in ("moved", "unreachable", "not-visited"):
        checks.same_set(prefix + change, sets[change], set(), instead)
    # The touched pages: answered 200 again, with the earlier body (same payload digest), in pages.jsonl.
    wrong = {url for url in truth["touched"]
             if new.get(url, {}).get("status") != 200 or not new[url].get("digest")
             or new[url].get("digest") != earlier.get(url, {}).get("digest")}
    checks.check("touched-200-same-digest", not wrong, "touched=%d wrong=%d" % (len(truth["touched"]), len(wrong)))
    for url in sorted(wrong)[:SHOWN]:
        print("    %s  (now %s %s, before %s)" % (url, new.get(url, {}).get("status"), new.get(url, {}).get("digest"),
                                                  earlier.get(url, {}).get("digest")))
    others = {}
    for url, row in changes.items():
        if url not in pages and url not in truth["added"]:
            key = "%s:%s->%s" % (row.get("change"), row.get("previousStatus"), row.get("status"))
            others[key] = others.get(key, 0) + 1
    print("OTHER rows (not pages of the earlier crawl, not new; change:previousStatus->status) "
          + (" ".join("%s=%d" % item for item in sorted(others.items())) or "none"))
    not_modified = {url for url in pages if new.get(url, {}).get("outcome") == "not-modified"}
    check_warc(checks, launcher, new_dir, truth["changed"] | truth["added"], not_modified, new)
    check_revisits_resolve(checks, new_dir, archives)
    return checks.verdict("mutation %s -> %s" % (earlier_dir, new_dir))


def selftest():
    """The checks on hand-made crawls: the right recrawl passes, each wrong one fails on the check it breaks."""
    base = "http://127.0.0.2:1/"
    def page(path, status=200, outcome="fetched", digest=None, size=100):
        record = {"url": base + path, "status": status, "outcome": outcome, "bytes": size}
        if digest:
            record["digest"] = digest
        return record
    def write(folder, name, rows):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.writelines(json.dumps(row) + "\n" for row in rows)
    def row(path, change, status, previous):
        return {"url": base + path, "change": change, "status": status, "previousStatus": previous}
    def record(kind, path, ident, refers=None):
        heads = {"WARC-Type": kind, "WARC-Target-URI": base + path, "WARC-Record-ID": "<urn:uuid:%s>" % ident,
                 "WARC-Date": "2026-01-01T00:00:00Z", "WARC-Payload-Digest": "sha1:" + path.upper()}
        if refers:
            heads.update({"WARC-Refers-To": "<urn:uuid:%s>" % refers, "WARC-Refers-To-Target-URI": base + path,
                          "WARC-Refers-To-Date": "2026-01-01T00:00:00Z",
                          "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/server-not-modified"})
        block = b"HTTP/1.1 200 OK\r\n\r\n" + path.encode()
        head = "WARC/1.1\r\n" + "".join("%s: %s\r\n" % item for item in heads.items())
        return gzip.compress(("%sContent-Length: %d\r\n\r\n" % (head, len(block))).encode() + block + b"\r\n\r\n")
    def warc_ls(folder, lines, refers="c1-"):
        """A WARC of the records `lines` lists (a revisit refers to c1's response of its path, or to the ID prefix
        refers gives) and ls.txt, what `warc ls` prints of it."""
        with open(os.path.join(folder, "crawl-0.warc.gz"), "wb") as f:
            for i, (t, s, n, p) in enumerate(lines):
                f.write(record(t, p, "%s-%d" % (os.path.basename(folder), i), refers + p if t == "revisit" else None))
        with open(os.path.join(folder, "ls.txt"), "w") as f:
            f.write("      OFFSET  TYPE       STATUS      LENGTH  URI\n")
            f.writelines("%12d  %-9s %6s %11d  %s\n" % (i * 100, t, s, n, base + p) for i, (t, s, n, p) in
                         enumerate(lines))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        launcher = "sh -c 'cat \"$(dirname \"$3\")/ls.txt\"' ls"  # `CMD warc ls FILE` prints ls.txt beside FILE
        c1, truth = os.path.join(tmp, "c1"), os.path.join(tmp, "truth")
        write(c1, "pages.jsonl", [page("a", digest="A"), page("b", digest="B"), page("c", digest="C"),
                                  page("d", digest="D"), page("e", digest="E"), page("x", 404, "http-error")])
        with open(os.path.join(c1, "crawl-0.warc.gz"), "wb") as f:
            f.writelines(record("response", p, "c1-" + p) for p in "abcde")
        os.makedirs(truth)
        for name, paths in (("changed", ["a"]), ("added", ["n"]), ("deleted", ["b"]), ("touched", ["c"])):
            with open(os.path.join(truth, name + ".txt"), "w", encoding="utf-8") as f:
                f.writelines(base + p + "\n" for p in paths)
        def recrawl(name, change_rows, pages=None, warc=None, refers="c1-"):
            folder = os.path.join(tmp, name)
            write(folder, "pages.jsonl", pages or [
                page("a", digest="A2", size=120), page("b", 404, "http-error"), page("c", digest="C"),
                page("d", 304, "not-modified", digest="D", size=0), page("e", 304, "not-modified", digest="E", size=0),
                page("x", 404, "http-error"), page("n", digest="N", size=50)])
            if change_rows is not None:
                write(folder, "changes.jsonl", change_rows)
            warc_ls(folder, warc or [("response", "200", 400, "a"), ("response", "200", 300, "n"),
                                     ("revisit", "304", 150, "d"), ("revisit", "304", 150, "e")], refers)
            return folder
        right = [row("a", "changed", 200, 200), row("b", "gone", 404, 200), row("c", "unchanged", 200, 200),
                 row("d", "not-modified", 304, 200), row("e", "not-modified", 304, 200),
                 row("x", "unchanged", 404, 404), row("n", "new", 200, None)]
        cases = [
            ("right", right, None, None, 0, []),
            ("a-change-missed", [r if r["url"] != base + "a" else row("a", "not-modified", 304, 200) for r in right],
             None, None, 1, ["changed", "not-modified-pages"]),
            ("touched-as-changed", [r if r["url"] != base + "c" else row("c", "changed", 200, 200) for r in right],
             None, None, 1, ["changed", "unchanged-pages"]),
            ("new-not-listed", [r for r in right if r["url"] != base + "n"], None, None, 1, ["new"]),
            ("no-changes-jsonl", None, None, None, 1, ["changes-jsonl"]),
            ("no-changes-jsonl-touched-refetched-changed", None, [
                page("a", digest="A2", size=120), page("b", 404, "http-error"), page("c", digest="C2"),
                page("d", 304, "not-modified", digest="D", size=0), page("e", 304, "not-modified", digest="E", size=0),
                page("x", 404, "http-error"), page("n", digest="N", size=50)], None, 1,
             ["changes-jsonl", "derived-changed", "derived-unchanged-pages", "touched-200-same-digest"]),
            ("new-page-revisit-only", right, None, [("response", "200", 400, "a"), ("revisit", "200", 90, "n"),
                                                    ("revisit", "304", 150, "d"), ("revisit", "304", 150, "e")],
             1, ["warc-full-responses", "revisits-resolve"]),
        ]
        for name, rows, pages, warc, expected, failing in cases:
            folder = recrawl(name, rows, pages, warc)
            print("--- selftest mutation: %s (expected: %s)" % (name, "pass" if expected == 0 else "FAIL " + ", ".join(failing)))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                verdict = run_mutation(c1, folder, truth, launcher, [c1])
            text = out.getvalue()
            print(text, end="")
            got = re.findall(r"CHECK name=(\S+) FAIL", text)
            if verdict != expected or sorted(got) != sorted(failing):
                failures.append("%s: verdict %d, failed %s; expected %d, %s" % (name, verdict, got, expected, failing))
        # Nothing changed: every page not-modified (pass); one page fetched again in full (fail).
        same_rows = [row(p, "not-modified", 304, 200) for p in "abcde"] + [row("x", "unchanged", 404, 404)]
        same_pages = [page(p, 304, "not-modified", digest=p.upper(), size=0) for p in "abcde"] + [page("x", 404, "http-error")]
        same_warc = [("revisit", "304", 150, p) for p in "abcde"]
        for name, pages, rows, warc, refers, expected, failing in (
                ("same-right", same_pages, same_rows, same_warc, "c1-", 0, []),
                ("same-revisits-dangling", same_pages, same_rows, same_warc, "elsewhere-", 1, ["revisits-resolve"]),
                ("same-one-refetched", same_pages[1:] + [page("a", digest="A")],
                 same_rows[1:] + [row("a", "unchanged", 200, 200)], same_warc[1:] + [("response", "200", 400, "a")],
                 "c1-", 1, ["pages-not-modified", "changes-not-modified"]),
                ("same-one-missing", same_pages[1:], same_rows[1:] + [row("a", "not-visited", None, 200)],
                 same_warc[1:], "c1-", 1, ["pages-missing", "pages-not-modified", "changes-not-modified",
                                    "changes-not-visited"]),
                ("same-no-revisit", same_pages, same_rows, same_warc[1:], "c1-", 1, ["warc-revisits"])):
            folder = recrawl(name, rows, pages, warc, refers)
            print("--- selftest same: %s (expected: %s)" % (name, "pass" if expected == 0 else "FAIL " + ", ".join(failing)))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                verdict = run_same(c1, folder, launcher, [c1])
            text = out.getvalue()
            print(text, end="")
            got = re.findall(r"CHECK name=(\S+) FAIL", text)
            if verdict != expected or sorted(got) != sorted(failing):
                failures.append("%s: verdict %d, failed %s; expected %d, %s" % (name, verdict, got, expected, failing))
    for failure in failures:
        print("SELFTEST wrong verdict: " + failure)
    print("SELFTEST %s" % ("FAIL" if failures else "pass"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description="Checks a recrawl (crawl --since) against what it should record.")
    sub = parser.add_subparsers(dest="command", required=True)
    same = sub.add_parser("same")
    same.add_argument("earlier")
    same.add_argument("new")
    mutation = sub.add_parser("mutation")
    mutation.add_argument("earlier")
    mutation.add_argument("new")
    mutation.add_argument("truth")
    for p in (same, mutation):
        p.add_argument("--launcher", default="crawler-cli/target/crawler")
        p.add_argument("--archives", nargs="*", default=None, metavar="DIR",
                       help="earlier crawls' folders whose WARC files may hold a revisit's original (default: EARLIER)")
    sub.add_parser("selftest")
    args = parser.parse_args()
    try:
        if args.command == "same":
            return run_same(args.earlier, args.new, args.launcher,
                            args.archives if args.archives is not None else [args.earlier])
        if args.command == "mutation":
            return run_mutation(args.earlier, args.new, args.truth, args.launcher,
                                args.archives if args.archives is not None else [args.earlier])
        return selftest()
    except (InputError, OSError) as e:
        print("recrawl-check: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
