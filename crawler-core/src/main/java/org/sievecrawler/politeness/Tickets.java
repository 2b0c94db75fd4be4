package org.sievecrawler.politeness;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The {@link HostScheduler}'s tickets: when each host with work may next be handed out, in three min-heaps by ready
 * time (then issue order). Robots.txt tasks wait in a heap of their own, so the scheduler can cap the fetchers they
 * take; a host's first page after its robots.txt (or its robots.txt again, after a failure) waits in another, served
 * before other ready pages and never closed, so robots.txt is followed by its host's first page within about its
 * delay, not after a backlog of ready pages of known hosts, and a host holding a page of the limit gets it.
 *
 * <p>A host holds at most one current ticket: {@link #issue} bumps its version, and a ticket whose version is no
 * longer its host's is stale and dropped when it reaches the top of its heap. Not thread-safe: the scheduler's lock.
 */
final class Tickets {
    /** Which heap a ticket waits in. */
    enum Kind { ROBOTS, FIRST_PAGE, PAGE }

    private final PriorityQueue<Ticket> pages = new PriorityQueue<>(Ticket.ORDER);
    private final PriorityQueue<Ticket> robots = new PriorityQueue<>(Ticket.ORDER);
    private final PriorityQueue<Ticket> firstPages = new PriorityQueue<>(Ticket.ORDER);
    private long sequence;

    /** Issues {@code host}'s ticket, ready at {@code readyAt} (epoch ms): its earlier ones become stale. */
    void issue(Host host, long readyAt, Kind kind) {
        host.version++;
        host.ticketed = true;
        Ticket ticket = new Ticket(host, readyAt, host.version, sequence++);
        (kind == Kind.ROBOTS ? robots : kind == Kind.FIRST_PAGE ? firstPages : pages).add(ticket);
    }

    /**
     * Takes the ticket to serve at {@code now} and returns its host, or null if none is ready: a ready first page,
     * else the earlier of the first page and robots.txt tickets when both are ready and {@code robotsMay}, else
     * whichever is ready (robots.txt then, even past its cap: no fetcher idles while a host is ready). With
     * {@code open} closing a heap, its tickets wait: neither served nor counted as ready.
     */
    Host next(long now, boolean robotsMay, Open open) {
        Ticket page = firstPage(now, open);
        Ticket robot = open.robots() ? firstLive(robots) : null;
        boolean pageReady = page != null && page.readyAt <= now;
        boolean robotsReady = robot != null && robot.readyAt <= now;
        if (!pageReady && !robotsReady) {
            return null;
        }
        Ticket ticket;
        if (pageReady && robotsReady) {
            ticket = robotsMay && Ticket.ORDER.compare(robot, page) < 0 ? robot : page;
        } else {
            ticket = pageReady ? page : robot;
        }
        heapOf(ticket).poll();
        return ticket.host;
    }

    /** The ready time of the first live ticket of any heap {@code open} leaves open, -1 if there is none. */
    long firstReadyAt(Open open) {
        Ticket first = earliest(firstPage(Long.MIN_VALUE, open), open.robots() ? firstLive(robots) : null);
        return first == null ? -1 : first.readyAt;
    }

    /**
     * The page ticket to hand out first: a ready first page after robots.txt, else the earliest of either heap (of
     * the first pages' alone while {@code open} closes the pages').
     */
    private Ticket firstPage(long now, Open open) {
        Ticket first = firstLive(firstPages);
        if (!open.pages() || (first != null && first.readyAt <= now)) {
            return first;
        }
        return earliest(first, firstLive(pages));
    }

    private static Ticket earliest(Ticket a, Ticket b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return Ticket.ORDER.compare(a, b) <= 0 ? a : b;
    }

    /** The heap {@code ticket} is at the top of. */
    private PriorityQueue<Ticket> heapOf(Ticket ticket) {
        if (firstPages.peek() == ticket) {
            return firstPages;
        }
        return pages.peek() == ticket ? pages : robots;
    }

    /** The first live ticket of {@code heap}, stale ones at its top dropped; null if none. */
    private static Ticket firstLive(PriorityQueue<Ticket> heap) {
        while (!heap.isEmpty() && heap.peek().version != heap.peek().host.version) {
            heap.poll();
        }
        return heap.peek();
    }

    /**
     * Which heaps may be served: robots.txt's, and pages' other than a host's first page after its robots.txt (the
     * first pages' is always open). The scheduler closes them at the end of a crawl's page limit or time.
     */
    record Open(boolean robots, boolean pages) {
        static final Open ALL = new Open(true, true);
        static final Open PAGES = new Open(false, true);
    }

    private record Ticket(Host host, long readyAt, long version, long sequence) {
        static final Comparator<Ticket> ORDER =
                Comparator.comparingLong(Ticket::readyAt).thenComparingLong(Ticket::sequence);
    }
}
