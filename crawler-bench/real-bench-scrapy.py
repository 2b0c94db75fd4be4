"""Scrapy as the third crawler of crawler-bench/real-bench.sh (SCRAPY=1): a CrawlSpider that follows the links
this crawler follows (a, area, frame, iframe) on the seeds' hosts, obeys robots.txt, keeps no items and writes
nothing but its log.

    /usr/bin/python3 crawler-bench/real-bench-scrapy.py CONCURRENCY SEED...

CONCURRENCY is both CONCURRENT_REQUESTS and CONCURRENT_REQUESTS_PER_DOMAIN: Scrapy's download slots are per host
name, so the 16 ports of the sustained mode share one slot. Needs Debian's python3-scrapy (2.8).
"""
import sys
from urllib.parse import urlsplit

from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class RealBenchSpider(CrawlSpider):
    name = "real-bench"
    rules = (Rule(LinkExtractor(tags=("a", "area", "frame", "iframe"), attrs=("href", "src")), follow=True),)

    def __init__(self, seeds, **kwargs):
        self.start_urls = list(seeds)
        self.allowed_domains = sorted({urlsplit(seed).hostname for seed in seeds})
        super().__init__(**kwargs)


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: real-bench-scrapy.py CONCURRENCY SEED...")
    concurrency = int(argv[1])
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "DOWNLOAD_DELAY": 0,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "USER_AGENT": "real-bench-scrapy",
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    })
    process.crawl(RealBenchSpider, seeds=argv[2:])
    process.start()


if __name__ == "__main__":
    main(sys.argv)
