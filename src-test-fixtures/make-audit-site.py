#!/usr/bin/env python3
"""Builds src/main/resources/audit-site/: a small site of real pages (Debian's python-django-doc) with the problems a
site audit must find injected, and audit-site/expected.json, exactly what audit.json should list for it.

The real pages' own links are rewritten to point among the site's pages (their texts kept), and their scripts,
stylesheets and images removed, so the only problems are the injected ones (page-01 links home, index.html, so the
seed is no orphan):
  * broken internal links: /missing-1.html (404) from page-01 and page-02, /gone.html (410) from page-03,
    /error.html (500) from page-04, and /moved.html, a 301 into /missing-2.html (404), from page-06;
  * broken external links: EXTERNAL/not-there (404) from page-05 and page-06; EXTERNAL/fine (200) from page-07
    is not broken;
  * a redirect chain /old.html -301-> /older.html -302-> /page-08.html from index, and a loop
    /loop-a.html -302-> /loop-b.html -302-> /loop-a.html from page-09;
  * an exact duplicate /copy-of-page-10.html (page-10's bytes) and a near duplicate /page-11-v2.html (page-11 with
    its "Last updated" date and visit counter changed), both linked from index;
  * duplicate titles: page-03 and page-12 share one (besides the two copies above); /no-title.html has none;
  * an orphan: /orphan.html is in /sitemap.xml (named by robots.txt) and linked from no page.
The pages are under the license of Django's documentation (BSD-3-Clause, see real-pages/LICENSES.txt).
site.tsv lists the responses that are not pages (path, status, Location); SITE and EXTERNAL stand for the two
servers' origins (http://127.0.0.1:PORT), put in by the test. Run from the repository root with the package
installed:

    python3 src-test-fixtures/make-audit-site.py
"""
import hashlib
import json
import os
import re
import shutil

SOURCE = "/usr/share/doc/python-django-doc/html"
OUT = "src-test-fixtures/src/main/resources/audit-site"
PAGES = ["faq/help.html", "faq/install.html", "faq/troubleshooting.html", "faq/usage.html", "glossary.html",
         "howto/deployment/asgi/daphne.html", "howto/deployment/asgi/hypercorn.html",
         "howto/deployment/asgi/uvicorn.html", "howto/deployment/index.html",
         "howto/deployment/wsgi/gunicorn.html", "howto/deployment/wsgi/index.html", "howto/index.html",
         "faq/index.html", "howto/deployment/asgi/index.html"]
NAMES = ["page-%02d.html" % (i + 1) for i in range(12)] + ["no-title.html", "orphan.html"]
SHARED_TITLE = "Deployment notes &#8212; Django 3.2.25 documentation"
STAMP = '<p class="stamp">Last updated: 2026-11-%s. Visits: %s.</p>'


def clean(html, own):
    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I)
    html = re.sub(r"<link\b[^>]*>", "", html, flags=re.I)
    html = re.sub(r"<img\b[^>]*>", "", html, flags=re.I)
    html = re.sub(r"<(iframe|frame|area)\b[^>]*>", "", html, flags=re.I)
    links = [0]

    def to_site(match):  # every link to one of the twelve pages, chosen by the link's old target
        target = match.group(2)
        if target.startswith("#"):
            return match.group(0)
        links[0] += 1
        n = int(hashlib.sha1((own + target).encode()).hexdigest(), 16) % 12
        return match.group(1) + "/" + NAMES[n] + match.group(3)

    return re.sub(r'(<a\b[^>]*?\bhref=")([^"]*)(")', to_site, html, flags=re.I)


def add_links(html, links):
    block = "".join('<li><a href="%s">%s</a></li>' % (href, text) for href, text in links)
    return html.replace("</body>", '<ul class="audit">%s</ul>\n</body>' % block, 1)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    pages = {}
    for name, path in zip(NAMES, PAGES):
        with open(os.path.join(SOURCE, path), encoding="utf-8") as f:
            pages[name] = clean(f.read(), name)
    pages["page-12.html"] = re.sub(r"<title>[^<]*</title>", "<title>%s</title>" % SHARED_TITLE,
                                   pages["page-12.html"], count=1)
    pages["page-03.html"] = re.sub(r"<title>[^<]*</title>", "<title>%s</title>" % SHARED_TITLE,
                                   pages["page-03.html"], count=1)
    pages["no-title.html"] = re.sub(r"<title>[^<]*</title>", "", pages["no-title.html"], count=1)
    body = pages["page-11.html"]
    pages["page-11.html"] = body.replace("</body>", STAMP % ("27", "1,204") + "</body>", 1)
    near = body.replace("</body>", STAMP % ("28", "1,205") + "</body>", 1)
    extra = {
        "page-01.html": [("/missing-1.html", "the install guide"), ("/index.html", "home")],
        "page-02.html": [("/missing-1.html", "installing")],
        "page-03.html": [("/gone.html", "an old page")],
        "page-04.html": [("/error.html", "the error page")],
        "page-05.html": [("EXTERNAL/not-there", "a page elsewhere")],
        "page-06.html": [("EXTERNAL/not-there", "elsewhere, again"), ("/moved.html", "a moved page")],
        "page-07.html": [("EXTERNAL/fine", "a fine page elsewhere")],
        "page-09.html": [("/loop-a.html", "round and round")],
    }
    for name, links in extra.items():
        pages[name] = add_links(pages[name], links)
    pages["copy-of-page-10.html"] = pages["page-10.html"]
    pages["page-11-v2.html"] = near
    index = ("<!DOCTYPE html><html><head><title>Audit site</title></head><body><h1>Audit site</h1>\n"
             "<p>Real pages of Debian's python-django-doc, with problems put in.</p></body></html>\n")
    pages["index.html"] = add_links(index, [("/" + n, n) for n in NAMES[:12]] + [
        ("/no-title.html", "a page without a title"), ("/old.html", "an old address"),
        ("/copy-of-page-10.html", "a copy"), ("/page-11-v2.html", "a second version")])
    for name, html in pages.items():
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(html)
    listed = ["/" + n for n in sorted(pages)]
    with open(os.path.join(OUT, "sitemap.xml"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                + "".join("  <url><loc>SITE%s</loc></url>\n" % p for p in listed) + "</urlset>\n")
    with open(os.path.join(OUT, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow:\nSitemap: SITE/sitemap.xml\n")
    with open(os.path.join(OUT, "site.tsv"), "w") as f:
        f.write("# server\tpath\tstatus\tLocation (responses that are not pages; every other path but the"
                " pages is 404)\n")
        for row in [("SITE", "/gone.html", "410", ""), ("SITE", "/error.html", "500", ""),
                    ("SITE", "/moved.html", "301", "/missing-2.html"), ("SITE", "/old.html", "301", "/older.html"),
                    ("SITE", "/older.html", "302", "/page-08.html"), ("SITE", "/loop-a.html", "302", "/loop-b.html"),
                    ("SITE", "/loop-b.html", "302", "/loop-a.html"), ("EXTERNAL", "/fine", "200", ""),
                    ("EXTERNAL", "/not-there", "404", "")]:
            f.write("\t".join(row) + "\n")

    def linked(page, text):
        return {"page": "SITE/" + page, "text": text, "kind": "a"}
    expected = {
        "brokenLinks": [
            {"url": "EXTERNAL/not-there", "status": 404,
             "linkedFrom": [linked("page-05.html", "a page elsewhere"), linked("page-06.html", "elsewhere, again")]},
            {"url": "SITE/error.html", "status": 500, "linkedFrom": [linked("page-04.html", "the error page")]},
            {"url": "SITE/gone.html", "status": 410, "linkedFrom": [linked("page-03.html", "an old page")]},
            {"url": "SITE/loop-a.html", "status": 302, "error": "redirect loop",
             "linkedFrom": [linked("page-09.html", "round and round")]},
            {"url": "SITE/missing-1.html", "status": 404,
             "linkedFrom": [linked("page-01.html", "the install guide"), linked("page-02.html", "installing")]},
            {"url": "SITE/moved.html", "status": 404, "linkedFrom": [linked("page-06.html", "a moved page")]}],
        "redirects": [  # chain: each URL that answered with a redirect, and its status
            {"from": "SITE/loop-a.html", "chain": [{"url": "SITE/loop-a.html", "status": 302},
                                                   {"url": "SITE/loop-b.html", "status": 302}],
             "to": "SITE/loop-a.html", "final": {"status": 302}, "loop": True},
            {"from": "SITE/moved.html", "chain": [{"url": "SITE/moved.html", "status": 301}],
             "to": "SITE/missing-2.html", "final": {"status": 404}},
            {"from": "SITE/old.html", "chain": [{"url": "SITE/old.html", "status": 301},
                                               {"url": "SITE/older.html", "status": 302}],
             "to": "SITE/page-08.html", "final": {"status": 200}}],
        "duplicates": [
            {"kind": "exact", "urls": ["SITE/copy-of-page-10.html", "SITE/page-10.html"]},
            {"kind": "near", "urls": ["SITE/page-11-v2.html", "SITE/page-11.html"]}],
        "titles": {
            "duplicates": [{"urls": ["SITE/copy-of-page-10.html", "SITE/page-10.html"]},
                           {"urls": ["SITE/page-03.html", "SITE/page-12.html"]},
                           {"urls": ["SITE/page-11-v2.html", "SITE/page-11.html"]}],
            "missing": ["SITE/no-title.html"]},
        "orphans": [{"url": "SITE/orphan.html", "listedIn": ["SITE/sitemap.xml"]}],
        "_comment": "what audit.json must list for this site, no more, no fewer: URLs and linking pages exactly;"
                    " AuditSiteContractTest compares URLs, statuses, linking pages with their texts, chains and"
                    " groups (not titles' texts nor error wordings); made by src-test-fixtures/make-audit-site.py"}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=False)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print("%d files, %d bytes in %s" % (len(os.listdir(OUT)), size, OUT))


main()
