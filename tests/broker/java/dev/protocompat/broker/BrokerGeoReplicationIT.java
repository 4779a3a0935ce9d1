/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protocompat.broker.PulsarCluster.Broker;
import dev.protocompat.broker.SchemaRest.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException.IncompatibleSchemaException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two geo-replicated clusters, as Pulsar's geo-replication guide sets them up: each with its own
 * ZooKeeper, bookie and broker with the plugin, both sharing one configuration store. A tenant
 * allowed in both holds a namespace replicated to both, of strategy FULL. Schemas are stored per
 * cluster: a schema reaches cluster B only with the messages A's replicator sends it, and B's own
 * checker decides whether B registers it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrokerGeoReplicationIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAMESPACE = "geo/replicated";
    /** How long a replicated message or schema may take to reach the other cluster. */
    private static final Duration REPLICATION = Duration.ofSeconds(120);

    private static Path dir;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ZooKeeperServer configurationStore;
    private static PulsarCluster a;
    private static PulsarCluster b;
    private static PulsarClient clientA;
    private static SchemaRest restA;
    private static SchemaRest restB;

    @BeforeAll
    static void startClusters() throws Exception {
        dir = Files.createTempDirectory("protocompat-geo");
        configurationStore = ZooKeeperServer.start(dir, "configuration-store");
        a = PulsarCluster.start("cluster-a", configurationStore, StandaloneBroker.CHECKERS);
        b = PulsarCluster.start("cluster-b", configurationStore, StandaloneBroker.CHECKERS);
        restA = new SchemaRest(brokerOf(a).webUrl());
        restB = new SchemaRest(brokerOf(b).webUrl());
        // Tenants and namespaces live in the configuration store: made once, seen by both.
        restA.call("PUT", "/admin/v2/tenants/geo", "{\"adminRoles\":[],\"allowedClusters\":[\"cluster-a\",\"cluster-b\"]}");
        restA.call("PUT", "/admin/v2/namespaces/" + NAMESPACE, "{}");
        restA.call("POST", "/admin/v2/namespaces/" + NAMESPACE + "/replication", "[\"cluster-a\",\"cluster-b\"]");
        restA.setStrategy(NAMESPACE, "FULL");
        clientA = PulsarClient.builder().serviceUrl(brokerOf(a).serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build();
    }

    @AfterAll
    static void stopClusters() throws Exception {
        if (clientA != null) {
            clientA.close();
        }
        for (AutoCloseable closing : new AutoCloseable[] {b, a, configurationStore}) {
            if (closing != null) {
                closing.close();
            }
        }
        if (dir != null) {
            ChildJvm.deleteTree(dir);
        }
    }

    private static Broker brokerOf(PulsarCluster cluster) {
        return cluster.brokers().get(0);
    }

    /** A replicated topic kept in both clusters by a subscription on each side. */
    private static String replicatedTopic(String name) throws Exception {
        String topic = NAMESPACE + "/" + name;
        restA.createSubscribedTopic(topic);
        restB.createSubscribedTopic(topic);
        return topic;
    }

    private static void produce(String topic, byte[] schema, byte[]... messages) throws Exception {
        try (Producer<byte[]> producer = clientA.newProducer(new NativeSchema("orders", schema))
                .topic("persistent://" + topic).create()) {
            for (byte[] message : messages) {
                producer.send(message);
            }
        }
    }

    /** The messages waiting in subscription {@code keep} of the topic, as the cluster's broker counts them. */
    private static long backlog(SchemaRest rest, String topic) throws Exception {
        JsonNode stats = JSON.readTree(rest.call("GET", "/admin/v2/persistent/" + topic + "/stats", ""));
        return stats.path("subscriptions").path("keep").path("msgBacklog").asLong(-1);
    }

    /**
     * The payloads of the messages in subscription {@code keep} of the topic, in order, read with
     * {@code pulsar-admin topics examine-message}'s call (peek the n-th message).
     */
    private static List<String> received(PulsarCluster cluster, String topic) throws Exception {
        List<String> payloads = new ArrayList<>();
        long backlog = backlog(new SchemaRest(brokerOf(cluster).webUrl()), topic);
        for (long n = 1; n <= backlog; n++) {
            HttpResponse<byte[]> message = HTTP.send(HttpRequest.newBuilder(URI.create(brokerOf(cluster).webUrl()
                    + "/admin/v2/persistent/" + topic + "/subscription/keep/position/" + n))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, message.statusCode(), "peek message " + n + " of " + topic);
            payloads.add(Arrays.toString(message.body()));
        }
        return payloads;
    }

    /** {@code received}, each payload once, in the order each first arrived. */
    private static List<String> distinct(List<String> received) {
        return received.stream().distinct().toList();
    }

    private static List<String> payloads(byte[]... messages) {
        return Arrays.stream(messages).map(Arrays::toString).toList();
    }

    /** A's replicator towards B for the topic: its backlog and whether it is connected. */
    private static JsonNode replicatorToB(String topic) throws Exception {
        return JSON.readTree(restA.call("GET", "/admin/v2/persistent/" + topic + "/stats", ""))
                .path("replication").path("cluster-b");
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Asks until {@code done} holds, REPLICATION at most; false if it never did. */
    private static boolean eventually(Condition done) throws Exception {
        long deadline = System.nanoTime() + REPLICATION.toNanos();
        while (System.nanoTime() < deadline) {
            if (done.holds()) {
                return true;
            }
            Thread.sleep(500);
        }
        return false;
    }

    @Test
    @Order(1)
    void aCompatibleVersionProducedInAReachesBWithTheSameHistory() throws Exception {
        String topic = replicatedTopic("orders");
        produce(topic, Shop.version(1), new byte[] {8, 1});
        produce(topic, Shop.version(2), new byte[] {8, 2});
        assertEquals(2, restA.history(topic).size(), "A stored v1 and v2");

        // Pulsar's replicator sends the message before a schema change a second time (with
        // deduplication off, the default): each is compared once here, and the test with
        // deduplication on below requires each exactly once.
        List<String> sent = payloads(new byte[] {8, 1}, new byte[] {8, 2});
        assertTrue(eventually(() -> distinct(received(b, topic)).equals(sent)), "both messages reach B, in order: "
                + received(b, topic));
        System.out.println("B received " + received(b, topic) + " for " + sent + " sent in A");
        assertEquals(restA.history(topic), restB.history(topic), "B's stored history is A's, version for version");
    }

    /**
     * The same as the first test in a namespace with Pulsar's message deduplication on: the
     * message the replicator sends again when the schema changes is dropped in B, so B holds
     * each message once (docs/operators.md, section 12).
     */
    @Test
    @Order(4)
    void withDeduplicationOnNoReplicatedMessageArrivesTwice() throws Exception {
        String namespace = "geo/deduplicated";
        restA.call("PUT", "/admin/v2/namespaces/" + namespace, "{}");
        restA.call("POST", "/admin/v2/namespaces/" + namespace + "/replication", "[\"cluster-a\",\"cluster-b\"]");
        restA.setStrategy(namespace, "FULL");
        restA.call("POST", "/admin/v2/namespaces/" + namespace + "/deduplication", "true");
        String topic = namespace + "/orders";
        restA.createSubscribedTopic(topic);
        restB.createSubscribedTopic(topic);
        produce(topic, Shop.version(1), new byte[] {8, 1});
        produce(topic, Shop.version(2), new byte[] {8, 2});

        List<String> sent = payloads(new byte[] {8, 1}, new byte[] {8, 2});
        assertTrue(eventually(() -> distinct(received(b, topic)).equals(sent)), "both messages reach B: "
                + received(b, topic));
        // A duplicate, if any, comes right behind the message it repeats: the replicator has
        // sent everything once both are in.
        assertTrue(eventually(() -> replicatorToB(topic).path("replicationBacklog").asLong() == 0));
        System.out.println("with deduplication, B received " + received(b, topic));
        assertEquals(sent, received(b, topic), "each message once");
        assertEquals(restA.history(topic), restB.history(topic));
    }

    @Test
    @Order(2)
    void anIncompatibleVersionIsRefusedInAAndNothingOfItReachesB() throws Exception {
        String topic = replicatedTopic("refused");
        produce(topic, Shop.version(1), new byte[] {8, 1});
        assertThrows(IncompatibleSchemaException.class, () -> produce(topic, Shop.version(3), new byte[] {8, 3}));
        Answer upload = restA.upload(topic, Shop.version(3));
        assertEquals(409, upload.status(), upload.toString());
        // A message after the refusals: once it is in B, the replicator has passed every point
        // where something of v3 could have been sent.
        produce(topic, Shop.version(1), new byte[] {8, 2});

        List<String> sent = payloads(new byte[] {8, 1}, new byte[] {8, 2});
        assertTrue(eventually(() -> distinct(received(b, topic)).equals(sent)), "both v1 messages reach B: "
                + received(b, topic));
        assertEquals(1, restA.history(topic).size());
        assertEquals(restA.history(topic), restB.history(topic), "B holds v1 only, as A does");
    }

    /** The log lines of {@code broker} at WARN or ERROR that name the topic. */
    private static List<String> problems(Broker broker, String topic) {
        return broker.log().lines().filter(l -> l.contains(topic) && (l.contains(" WARN ") || l.contains(" ERROR ")))
                .toList();
    }

    /**
     * Cluster B's broker restarted with {@code -Dprotocompat.profile=conservative} while A keeps
     * {@code pip246}: {@code protocompat brokers --all-clusters} says so, and a widening A accepts
     * is one B refuses when A's replicator brings it. Replication of the topic then waits: the
     * refused message and every message after it stay in A's replication backlog, B keeps its
     * history, and A's replicator tries again until B accepts. Once B runs pip246 again, all of
     * them arrive in order and B's history is A's.
     */
    @Test
    @Order(3)
    void whenBRunsAnotherProfileReplicationOfWhatBRefusesWaits() throws Exception {
        String topic = replicatedTopic("widened");
        produce(topic, Shop.order(Shop.QUANTITY_INT32), new byte[] {8, 1});
        assertTrue(eventually(() -> distinct(received(b, topic)).equals(payloads(new byte[] {8, 1}))),
                "v1's message reaches B: " + received(b, topic));

        Broker brokerB = brokerOf(b);
        brokerB.restart(List.of("-Dprotocompat.profile=conservative"));
        try {
            produce(topic, Shop.order(Shop.QUANTITY_INT64), new byte[] {8, 2});
            produce(topic, Shop.order(Shop.QUANTITY_INT32), new byte[] {8, 3});
            assertEquals(2, restA.history(topic).size(), "A (pip246) accepted the widening");
            assertTrue(eventually(() -> problems(brokerB, topic).stream().anyMatch(l -> l.contains("ncompatible"))),
                    "B refuses the replicated schema: " + problems(brokerB, topic));
            assertTrue(eventually(() -> replicatorToB(topic).path("replicationBacklog").asLong() == 2),
                    "the refused message and the one after it wait in A: " + replicatorToB(topic));
            assertTrue(replicatorToB(topic).path("connected").asBoolean(), "A's replicator stays connected to B");
            assertEquals(payloads(new byte[] {8, 1}), distinct(received(b, topic)),
                    "nothing after the refused message reached B");
            assertEquals(1, restB.history(topic).size(), "B kept its history");
            System.out.println("while B refuses: A's replicator " + replicatorToB(topic) + "\nA logs:\n"
                    + String.join("\n", problems(brokerOf(a), topic)) + "\nB logs:\n"
                    + String.join("\n", problems(brokerB, topic)));
            CliRun brokers = CliRun.of("brokers", "--all-clusters", "--admin-url", brokerOf(a).webUrl(),
                    "--allow-redirect-host", "127.0.0.1");
            System.out.println("protocompat brokers --all-clusters, B on conservative:\n" + brokers.out() + brokers.err());
            assertEquals(1, brokers.exit(), brokers.toString());
            assertTrue(brokers.out().lines().anyMatch(l -> l.startsWith("DIFFER:") && l.contains(brokerB.id())
                    && l.contains("conservative")), brokers.toString());
        } finally {
            brokerB.restart(List.of());
        }
        List<String> sent = payloads(new byte[] {8, 1}, new byte[] {8, 2}, new byte[] {8, 3});
        assertTrue(eventually(() -> distinct(received(b, topic)).equals(sent)),
                "the waiting messages reach B, in order, once it runs pip246: " + received(b, topic));
        assertEquals(restA.history(topic), restB.history(topic), "B's history is A's again");
        assertEquals(0, replicatorToB(topic).path("replicationBacklog").asLong(), replicatorToB(topic).toString());
    }
}
