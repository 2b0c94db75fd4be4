package org.sievecrawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import okhttp3.internal.connection.ConnectionListener;
import org.junit.jupiter.api.Test;

class PoolSweeperTest {
    private static WireMockServer server;

    @BeforeAll
    static void startServer() {
        server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        // Slow enough that three requests at once need three connections.
        server.stubFor(get(anyUrl()).willReturn(aResponse().withStatus(200).withBody("ok").withFixedDelay(300)));
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @Test
    void countsAConnectsSocketFromItsStartUntilItsCallAcquiresTheConnectionNotOnlyUntilTheConnectEnds() {
        try (PoolSweeper sweeper = new PoolSweeper(new SocketBudget(4, 2, Duration.ofMinutes(5), -1))) {
            OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
            Call connecting = client.newCall(new Request.Builder().url("http://127.0.0.1:1/").build());
            Call reusing = client.newCall(new Request.Builder().url("http://127.0.0.1:1/").build());
            ConnectionListener okhttp = sweeper.listener(); // played as OkHttp calls it: connection and route unused

            okhttp.connectStart(null, connecting);
            assertThat(sweeper.open()).as("connecting").isEqualTo(1);
            okhttp.connectEnd(null, null, connecting);
            assertThat(sweeper.open()).as("connected, not yet in the pool: OkHttp pools it after connectEnd")
                    .isEqualTo(1);
            okhttp.connectionAcquired(null, reusing);
            assertThat(sweeper.open()).as("another call taking a pooled connection changes nothing").isEqualTo(1);
            okhttp.connectionAcquired(null, connecting);
            assertThat(sweeper.open()).as("acquired: counted by the pool from now on (nothing pooled here)")
                    .isZero();
        }
    }

    @Test
    void countsNoSocketOnceEveryConnectionIsClosed() throws Exception {
        try (PoolSweeper sweeper = new PoolSweeper(new SocketBudget(4, 3, Duration.ofMinutes(5), -1))) {
            OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
            getAtOnce(client, 3);

            assertThat(sweeper.open()).as("three pooled, none counted twice").isEqualTo(3);
            sweeper.pool().evictAll();
            assertThat(sweeper.open()).isZero();
        }
    }

    @Test
    void closesIdleConnectionsPastThePoolsLimitWithinASweep() throws Exception {
        try (PoolSweeper sweeper = new PoolSweeper(1, Duration.ofMinutes(5))) {
            OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
            getAtOnce(client, 3);

            awaitOrFail(() -> sweeper.pool().connectionCount() <= 1, Duration.ofSeconds(5));
            assertThat(sweeper.pool().connectionCount()).as("the limit of one idle connection").isEqualTo(1);
            assertThat(sweeper.open()).as("sockets counted as the pool holds them").isEqualTo(1);
        }
    }

    @Test
    void closesConnectionsIdlePastTheirKeepAlive() throws Exception {
        try (PoolSweeper sweeper = new PoolSweeper(10, Duration.ofMillis(200))) {
            OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
            getAtOnce(client, 2);

            awaitOrFail(() -> sweeper.pool().connectionCount() == 0, Duration.ofSeconds(5));
            assertThat(sweeper.pool().connectionCount()).isZero();
            assertThat(sweeper.open()).as("sockets counted").isZero();
        }
    }

    @Test
    void countsNoSocketForAConnectionTheServerClosedAfterItsResponse() throws Exception {
        server.stubFor(get("/closing").willReturn(aResponse().withStatus(200).withHeader("Connection", "close")
                .withBody("bye")));
        try (PoolSweeper sweeper = new PoolSweeper(new SocketBudget(4, 2, Duration.ofMinutes(5), -1))) {
            OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
            for (int i = 0; i < 3; i++) {
                try (Response response = client.newCall(new Request.Builder().url(server.baseUrl() + "/closing")
                        .build()).execute()) {
                    assertThat(response.body().string()).isEqualTo("bye");
                }
            }

            assertThat(sweeper.pool().connectionCount()).as("none pooled").isZero();
            assertThat(sweeper.open()).as("none counted: each close was reported").isZero();
        }
    }

    @Test
    void spreadsHostsOverShardsTheSameWayEveryTime() {
        try (PoolSweeper sweeper = new PoolSweeper(new SocketBudget(512, 256, Duration.ofSeconds(2), -1))) {
            assertThat(sweeper.shards()).isEqualTo(32);
            int[] hosts = new int[sweeper.shards()];
            for (int i = 0; i < 32_000; i++) {
                String host = "127." + (100 + i / 10_000) + "." + (100 + i / 100 % 100) + "." + (100 + i % 100);
                assertThat(sweeper.shardOf(host)).isEqualTo(sweeper.shardOf(new String(host)));
                hosts[sweeper.shardOf(host)]++;
            }
            // 1,000 expected per shard, sd ~31: a bound of 6 sd, for this fixed set of hosts
            assertThat(Arrays.stream(hosts).min().getAsInt()).isGreaterThanOrEqualTo(810);
            assertThat(Arrays.stream(hosts).max().getAsInt()).isLessThanOrEqualTo(1_190);
        }
    }

    @Test
    void closeEndsTheSweeperThreadAndClosesTheConnections() throws Exception {
        PoolSweeper sweeper = new PoolSweeper(10, Duration.ofMinutes(5));
        OkHttpClient client = new OkHttpClient.Builder().connectionPool(sweeper.pool()).build();
        getAtOnce(client, 2);
        assertThat(sweeper.pool().connectionCount()).isEqualTo(2);

        sweeper.close();

        assertThat(sweeper.pool().connectionCount()).isZero();
        awaitOrFail(() -> sweeperThreads() == 0, Duration.ofSeconds(5));
        assertThat(sweeperThreads()).isZero();
    }

    /** Makes {@code count} GETs at the same time, each on its own thread, and reads every body. */
    private static void getAtOnce(OkHttpClient client, int count) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Request request = new Request.Builder().url(server.baseUrl() + "/" + i).build();
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    try (Response response = client.newCall(request).execute()) {
                        response.body().string();
                    }
                } catch (IOException | InterruptedException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }

    private static long sweeperThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("okhttp-pool-sweeper")
                        || thread.getName().contains("ConnectionPool"))
                .filter(Thread::isAlive).count();
    }

    private static void awaitOrFail(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
