package org.sievecrawler.fetch;

import java.net.UnknownHostException;

/**
 * Thrown by {@link AddressGuard} when a host leads only to addresses the crawl may not connect to (the message
 * names the range of {@link org.sievecrawler.address.SpecialRanges} and the rule); an
 * {@link UnknownHostException} so that OkHttp treats it like a failed lookup, mapped to
 * {@link FailureKind#PRIVATE_ADDRESS} by the fetcher.
 */
final class PrivateAddressException extends UnknownHostException {
    private static final long serialVersionUID = 1L;

    PrivateAddressException(String message) {
        super(message);
    }
}
