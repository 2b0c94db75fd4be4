/** Reading sitemaps (XML, sitemap indexes, text; gzipped or not) into the URLs they list. */
package org.sievecrawler.sitemap;
