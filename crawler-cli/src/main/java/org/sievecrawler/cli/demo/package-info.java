/**
 * The demo: a sample documentation site generated in code and served on 127.0.0.1, for a first crawl with
 * no internet. The site serves requests on its own named threads and stops them when closed.
 */
package org.sievecrawler.cli.demo;
