/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.PulsarCluster.Broker;
import dev.protocompat.broker.SchemaRest.Answer;
import dev.protocompat.broker.SchemaUpload.Outcome;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.PulsarClientException.IncompatibleSchemaException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A cluster of two brokers with the plugin, sharing one ZooKeeper and one bookie (PulsarCluster):
 * a topic's schema history is the cluster's, so the broker a bundle moves to reads it and gives
 * the verdicts the first owner gave, word for word. Then a third broker left on Pulsar's built-in
 * checker, and what it lets through.
 */
class BrokerClusterIT {

    private static PulsarCluster cluster;
    private static PulsarClient client;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = PulsarCluster.start(StandaloneBroker.CHECKERS, StandaloneBroker.CHECKERS);
        // One service URL, as behind a load balancer: lookups lead the client to each topic's owner.
        client = PulsarClient.builder().serviceUrl(cluster.brokers().get(0).serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** {@code tenant/namespace/orders} in a new FULL namespace of four bundles, kept by a subscription. */
    private static String topicInFourBundles(String namespace) throws Exception {
        cluster.createNamespace(namespace, 4, "FULL");
        assertEquals(5, cluster.bundleBoundaries(namespace).size(), "4 bundles, 5 boundaries");
        String topic = namespace + "/orders";
        cluster.createSubscribedTopic(topic);
        return topic;
    }

    private static final int MOVE_ATTEMPTS = 8;

    /** Moves the topic's bundle to {@code destination}, and checks that it did move there. */
    private static void moveBundle(String topic, Broker from, Broker destination) throws Exception {
        String namespace = topic.substring(0, topic.lastIndexOf('/'));
        String bundle = namespace + "/" + cluster.bundle(topic);
        assertTrue(from.ownedBundles().contains(bundle), from + " owns " + bundle + ": " + from.ownedBundles());
        // The unload's destination is a preference the load manager may not honour: in CI, a
        // lookup after one unload once placed the bundle back on its old owner. Unloaded again
        // until it lands there, a few times at most.
        Broker owner = null;
        int unloads = 0;
        while (unloads < MOVE_ATTEMPTS && !destination.equals(owner)) {
            cluster.unload(namespace, cluster.bundle(topic), destination);
            owner = cluster.owner(topic);
            unloads++;
        }
        if (unloads > 1) {
            System.out.println("moveBundle: " + bundle + " reached " + owner + " after " + unloads + " unloads");
        }
        assertEquals(destination, owner, "the lookup after " + MOVE_ATTEMPTS + " unloads at most");
        assertTrue(destination.ownedBundles().contains(bundle), destination + " owns " + bundle);
        assertFalse(from.ownedBundles().contains(bundle), from + " no longer owns " + bundle);
    }

    /**
     * A broker's refusal as the Java client reports it: {@code {"errorMsg":"…","reqId":N,
     * "remote":"host/ip:port", "local":"…"}}, the message unescaped (so not JSON).
     */
    private record ClientError(String brokerMessage, int remotePort, String whole) {
        private static final Pattern FORM = Pattern.compile(
                "\\{\"errorMsg\":\"(.*)\",\"reqId\":\\d+, \"remote\":\"[^\"]*:(\\d+)\", \"local\":\"[^\"]*\"\\}",
                Pattern.DOTALL);

        static ClientError of(Exception e) {
            Matcher m = FORM.matcher(e.getMessage());
            assertTrue(m.matches(), "not the client's form: " + e.getMessage());
            return new ClientError(m.group(1), Integer.parseInt(m.group(2)), e.getMessage());
        }

        @Override
        public String toString() {
            return whole;
        }
    }

    private static Broker other(Broker broker) {
        return cluster.brokers().stream().filter(b -> b != broker && b.checkers().equals(StandaloneBroker.CHECKERS))
                .findFirst().orElseThrow();
    }

    /** Every broker runs the Pulsar release asked for (4.2.4 in the pulsar-current run). */
    @Test
    void everyBrokerRunsTheRequestedPulsar() throws Exception {
        String expected = System.getProperty("protocompat.expect.pulsar", "");
        assertTrue(!expected.isBlank(), "protocompat.expect.pulsar is not set");
        for (Broker broker : cluster.brokers()) {
            assertEquals(expected, broker.pulsarVersion(), broker.toString());
        }
    }

    /** The broker lists every broker by id {@code advertisedAddress:webServicePort}, as the web URL has it. */
    @Test
    void brokersAreListedByTheirWebServiceAddress() throws Exception {
        List<String> expected = cluster.brokers().stream().map(Broker::id).sorted().toList();
        for (Broker broker : cluster.brokers()) {
            assertEquals(expected, broker.listedBrokerIds().stream().sorted().toList(), "as " + broker + " lists them");
            assertEquals(broker.webUrl(), "http://" + broker.id());
        }
    }

    @Test
    void aMovedBundleKeepsItsHistoryAndItsVerdicts() throws Exception {
        String topic = topicInFourBundles("public/moves");
        Broker first = cluster.owner(topic);
        Broker second = other(first);
        SchemaRest viaFirst = new SchemaRest(first.webUrl());
        SchemaRest viaSecond = new SchemaRest(second.webUrl());

        Answer v1 = viaFirst.upload(topic, Shop.version(1));
        assertEquals(200, v1.status(), v1.toString());
        assertEquals(0, SchemaRest.version(v1));
        Answer refusedByFirst = viaFirst.upload(topic, Shop.version(3));
        assertEquals(409, refusedByFirst.status(), refusedByFirst.toString());
        String report = SchemaRest.errorMessage(refusedByFirst);
        assertTrue(report.startsWith("Incompatible PROTOBUF_NATIVE schema"), report);
        assertTrue(report.contains(" under FULL (profile pip246): "), report);
        for (String finding : List.of("FIELD_KIND_CHANGED shop.Order.total.currency (field 2)",
                "FIELD_NUMBER_CHANGED shop.Order.note")) {
            assertTrue(report.contains(finding), "lacks " + finding + ":\n" + report);
        }
        IncompatibleSchemaException producerRefusedByFirst = assertThrows(IncompatibleSchemaException.class,
                () -> client.newProducer(new NativeSchema("orders", Shop.version(3))).topic("persistent://" + topic)
                        .create());
        Producer<byte[]> writer = client.newProducer(new NativeSchema("orders", Shop.version(1)))
                .topic("persistent://" + topic).create();
        try {
            assertNotNull(writer.send(new byte[] {8, 1}));

            moveBundle(topic, first, second);

            // The producer connected to the first broker reconnects to the second, with v1.
            assertNotNull(writer.send(new byte[] {8, 2}));
            assertTrue(writer.isConnected());
            assertEquals(List.of(writer.getProducerName()), cluster.producerNames(topic), "producers on " + second);
            Answer refusedBySecond = viaSecond.upload(topic, Shop.version(3));
            assertEquals(409, refusedBySecond.status(), refusedBySecond.toString());
            assertEquals(report, SchemaRest.errorMessage(refusedBySecond), "the same verdict from either broker");
            IncompatibleSchemaException producerRefusedBySecond = assertThrows(IncompatibleSchemaException.class,
                    () -> client.newProducer(new NativeSchema("orders", Shop.version(3)))
                            .topic("persistent://" + topic).create());
            ClientError byFirst = ClientError.of(producerRefusedByFirst);
            ClientError bySecond = ClientError.of(producerRefusedBySecond);
            assertEquals(byFirst.brokerMessage(), bySecond.brokerMessage());
            assertTrue(bySecond.brokerMessage().contains(report.lines().findFirst().orElseThrow()), bySecond.toString());
            assertEquals(URI.create(first.serviceUrl()).getPort(), byFirst.remotePort(), byFirst.toString());
            assertEquals(URI.create(second.serviceUrl()).getPort(), bySecond.remotePort(), bySecond.toString());

            Answer v2 = viaSecond.upload(topic, Shop.version(2));
            assertEquals(200, v2.status(), v2.toString());
            assertEquals(1, SchemaRest.version(v2), "numbered after the first broker's version 0");
            Answer v3AgainstV2 = viaSecond.upload(topic, Shop.version(3));
            assertEquals(409, v3AgainstV2.status(), v3AgainstV2.toString());
            assertTrue(SchemaRest.errorMessage(v3AgainstV2).contains("FIELD_NUMBER_CHANGED shop.Order.note"),
                    v3AgainstV2.toString());
            assertNotEquals(report, SchemaRest.errorMessage(v3AgainstV2), "checked against v2 now, not v1");
        } finally {
            writer.close();
        }
    }

    /**
     * The broker that owns a topic is killed (SIGKILL, as a crash or the OOM killer does) while
     * two clients keep uploading a compatible and an incompatible version through new producers
     * and a third keeps producing: the other broker takes the bundle once the dead one's
     * metadata session expires, the producer reconnects there, no incompatible version was
     * stored at any moment ({@code protocompat audit} agrees), and the next uploads get the
     * verdicts they got before the kill, word for word.
     */
    @Test
    void killingTheOwnerDuringUploadsLetsNothingIncompatibleIn() throws Exception {
        String topic = topicInFourBundles("public/faults");
        // The first broker survives: the class's client and the other tests go through it.
        Broker survivor = cluster.brokers().get(0);
        Broker owner = other(survivor);
        Broker assigned = cluster.owner(topic);
        if (!assigned.equals(owner)) {
            moveBundle(topic, assigned, owner);
        }
        SchemaRest viaOwner = new SchemaRest(owner.webUrl());
        assertEquals(200, viaOwner.upload(topic, Shop.version(1)).status());
        assertEquals(200, viaOwner.upload(topic, Shop.version(2)).status());
        Answer refusedBefore = viaOwner.upload(topic, Shop.version(3));
        assertEquals(409, refusedBefore.status(), refusedBefore.toString());

        // Both brokers in the service URL, as a client lists a cluster's brokers without a proxy.
        String serviceUrl = "pulsar://127.0.0.1:" + URI.create(owner.serviceUrl()).getPort()
                + ",127.0.0.1:" + URI.create(survivor.serviceUrl()).getPort();
        Map<String, Map<Outcome, Integer>> outcomes = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger sentAfterKill = new AtomicInteger();
        AtomicBoolean killed = new AtomicBoolean();
        ExecutorService load = Executors.newFixedThreadPool(3);
        try (PulsarClient uploads = PulsarClient.builder().serviceUrl(serviceUrl)
                .operationTimeout(10, TimeUnit.SECONDS).build();
                PulsarClient writes = PulsarClient.builder().serviceUrl(serviceUrl)
                        .operationTimeout(10, TimeUnit.SECONDS).build();
                Producer<byte[]> writer = writes.newProducer(new NativeSchema("orders", Shop.version(1)))
                        .topic("persistent://" + topic).sendTimeout(0, TimeUnit.SECONDS).create()) {
            for (int v : new int[] {2, 3}) {
                load.submit(() -> {
                    while (running.get()) {
                        Outcome outcome = SchemaUpload.byProducer(uploads, topic, Shop.version(v)).outcome();
                        outcomes.computeIfAbsent("v" + v, k -> new ConcurrentHashMap<>())
                                .merge(outcome, 1, Integer::sum);
                    }
                    return null;
                });
            }
            load.submit(() -> {
                while (running.get()) {
                    try {
                        writer.send(new byte[] {8, 1});
                        if (killed.get()) {
                            sentAfterKill.incrementAndGet();
                        }
                    } catch (PulsarClientException failover) {
                        Thread.sleep(100);
                    }
                }
                return null;
            });
            Thread.sleep(3000);
            owner.kill();
            killed.set(true);
            long killedAt = System.nanoTime();
            Broker newOwner = awaitOwner(topic, survivor);
            System.out.println("killingTheOwner: " + survivor + " owns " + topic + " "
                    + (System.nanoTime() - killedAt) / 1_000_000 + " ms after the kill");
            assertEquals(survivor, newOwner);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (sentAfterKill.get() < 10 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            running.set(false);
            load.shutdown();
            assertTrue(load.awaitTermination(60, TimeUnit.SECONDS), "the load stops");
            System.out.println("killingTheOwner: uploads " + outcomes + ", messages sent after the kill "
                    + sentAfterKill.get());
            assertTrue(sentAfterKill.get() >= 10, "the producer reconnected and sends: " + sentAfterKill.get());
            assertTrue(writer.isConnected());
            assertEquals(List.of(writer.getProducerName()), cluster.producerNames(topic), "producers on " + survivor);
            assertEquals(0, outcomes.get("v3").getOrDefault(Outcome.ACCEPTED, 0), "v3 accepted: " + outcomes);
            assertTrue(outcomes.get("v3").getOrDefault(Outcome.REFUSED, 0) > 0, outcomes.toString());
            assertEquals(0, outcomes.get("v2").getOrDefault(Outcome.REFUSED, 0), "v2 refused: " + outcomes);
        } finally {
            running.set(false);
            load.shutdownNow();
            // The cluster's other tests want two plugin brokers.
            cluster.addBroker(StandaloneBroker.CHECKERS);
        }

        CliRun audit = CliRun.of("audit", "--admin-url", survivor.webUrl(), "--namespace", "public/faults");
        assertEquals(0, audit.exit(), audit.toString());
        assertTrue(audit.out().contains("ok        persistent://" + topic + " (2 versions, FULL)"), audit.toString());
        Answer refusedAfter = new SchemaRest(survivor.webUrl()).upload(topic, Shop.version(3));
        assertEquals(409, refusedAfter.status(), refusedAfter.toString());
        assertEquals(SchemaRest.errorMessage(refusedBefore), SchemaRest.errorMessage(refusedAfter),
                "the same refusal, word for word, from the broker that took the bundle over");
        assertEquals(200, new SchemaRest(survivor.webUrl()).upload(topic, Shop.version(2)).status());
    }

    /** The topic's owner once it is {@code expected}, asked every half second for a minute. */
    private static Broker awaitOwner(String topic, Broker expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Broker owner = null;
        while (System.nanoTime() < deadline) {
            try {
                owner = cluster.owner(topic);
                if (owner.equals(expected)) {
                    return owner;
                }
            } catch (IllegalStateException stillTheDeadOne) {
                // the lookup names the killed broker, which this cluster no longer lists
            }
            Thread.sleep(500);
        }
        return owner;
    }

    /** A broker's {@code protocompat_info} samples, labels and value, as a scraper reads them. */
    private static List<String> protocompatInfo(Broker broker) throws Exception {
        return broker.metrics().lines().filter(line -> line.startsWith("protocompat_info{")).toList();
    }

    private static boolean nativeLibraryLoaded(Broker broker) throws Exception {
        return broker.metrics().lines()
                .anyMatch(line -> line.matches("protocompat_native_library_loaded(\\{[^}]*\\})? 1(\\.0)?"));
    }

    /** What `protocompat brokers` compares: every plugin broker reports the same profile and version. */
    @Test
    void everyBrokerReportsTheSameProfileAndVersion() throws Exception {
        List<String> first = protocompatInfo(cluster.brokers().get(0));
        assertEquals(1, first.size(), first.toString());
        assertTrue(first.get(0).contains("profile=\"pip246\""), first.toString());
        assertTrue(first.get(0).contains("version=\"" + System.getProperty("protocompat.version", "0.1.0") + "\""),
                first.toString());
        for (Broker broker : cluster.brokers()) {
            assertEquals(first, protocompatInfo(broker), broker.toString());
            assertTrue(nativeLibraryLoaded(broker), broker.toString());
        }
    }

    static CliRun brokersCommand() throws Exception {
        return CliRun.of("brokers", "--admin-url", cluster.brokers().get(0).webUrl(),
                "--allow-redirect-host", "127.0.0.1");
    }

    @Test
    void theBrokersCommandFindsThePluginOnEveryBroker() throws Exception {
        CliRun brokers = brokersCommand();
        System.out.println("protocompat brokers, every broker with the plugin:\n" + brokers.out());
        assertEquals(0, brokers.exit(), brokers.toString());
        for (Broker broker : cluster.brokers()) {
            assertTrue(brokers.out().contains(broker.id() + "  plugin pip246 "), broker + " listed:\n" + brokers);
        }
    }

    /**
     * One broker left on Pulsar's built-in PROTOBUF_NATIVE checker, which compares root message
     * names only: a topic's verdicts depend on which broker owns its bundle at the time.
     */
    @Nested
    class WithABrokerOnTheBuiltInChecker {

        private static Broker builtIn;

        @BeforeAll
        static void addBuiltInBroker() throws Exception {
            builtIn = cluster.addBroker(StandaloneBroker.BUILT_IN_CHECKERS);
        }

        @AfterAll
        static void stopBuiltInBroker() throws Exception {
            if (builtIn != null) {
                builtIn.stop();
            }
        }

        @Test
        void itAcceptsWhatThePluginRefuses() throws Exception {
            String topic = topicInFourBundles("public/mixed");
            Broker plugin = cluster.brokers().get(0);
            Broker owner = cluster.owner(topic);
            if (owner != plugin) {
                moveBundle(topic, owner, plugin);
            }
            SchemaRest viaPlugin = new SchemaRest(plugin.webUrl());
            assertEquals(200, viaPlugin.upload(topic, Shop.version(1)).status());
            Answer refused = viaPlugin.upload(topic, Shop.version(3));
            assertEquals(409, refused.status(), refused.toString());
            assertTrue(SchemaRest.errorMessage(refused).contains("FIELD_KIND_CHANGED shop.Order.total.currency"),
                    refused.toString());

            moveBundle(topic, plugin, builtIn);
            Answer accepted = new SchemaRest(builtIn.webUrl()).upload(topic, Shop.version(3));
            assertEquals(200, accepted.status(), "the built-in checker lets v3 through: " + accepted);
            assertEquals(1, SchemaRest.version(accepted));
        }

        /** The plugin's classes are on its classpath too, but it is not configured: no protocompat_ metric. */
        @Test
        void itsMetricsHaveNoProtocompatSample() throws Exception {
            assertTrue(builtIn.metrics().lines().noneMatch(line -> line.startsWith("protocompat_")),
                    builtIn.metrics().lines().filter(line -> line.startsWith("protocompat_")).toList().toString());
            assertEquals(1, protocompatInfo(cluster.brokers().get(0)).size());
        }

        @Test
        void theBrokersCommandNamesIt() throws Exception {
            CliRun brokers = brokersCommand();
            System.out.println("protocompat brokers, one broker on the built-in checker:\n" + brokers.out());
            assertEquals(1, brokers.exit(), brokers.toString());
            assertTrue(brokers.out().contains(builtIn.id() + "  built-in checker"), brokers.toString());
            assertTrue(brokers.out().lines().anyMatch(l -> l.startsWith("DIFFER:") && l.contains(builtIn.id())),
                    brokers.toString());
        }
    }
}
