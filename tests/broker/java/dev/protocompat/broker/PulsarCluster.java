/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Pulsar cluster as operators run one, each service a child JVM started the way Pulsar's
 * {@code bin/pulsar} starts it: a ZooKeeper server ({@code bin/pulsar zookeeper}), the cluster's
 * metadata written by {@code bin/pulsar initialize-cluster-metadata}, one bookie
 * ({@code bin/pulsar bookie}) and brokers ({@code bin/pulsar broker}), each with its own
 * {@code broker.conf} and its own {@code schemaRegistryCompatibilityCheckers}. Loopback ports are
 * free ones and the data is in a temp directory; closing the cluster stops every JVM, brokers
 * first, and deletes the directory, and a JVM shutdown hook does the same if a run is cut short.
 *
 * <p>Clusters started with one {@link ZooKeeperServer} as their configuration store are
 * geo-replicated clusters, as Pulsar's geo-replication guide sets them up: each keeps its own
 * metadata store, bookie and brokers, and tenants, namespaces and the clusters' entries live in
 * the store they share.
 */
public final class PulsarCluster implements AutoCloseable {

    /** Not "protocompat": a scraper must match metric names, not a cluster label's value. */
    public static final String NAME = "cluster-a";

    private static final Duration STARTUP = Duration.ofSeconds(180);
    /** How often {@link #settled} asks while a moved bundle's ownership settles, 0.5 s apart. */
    private static final int SETTLE_ATTEMPTS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final String name;
    /** The shared configuration store of geo-replicated clusters; null: the cluster's own store. */
    private final ZooKeeperServer configurationStore;
    private final int bookiePort;
    private final List<Broker> brokers = new ArrayList<>();
    private int brokersCreated;
    private final Thread cleanup;
    private ZooKeeperServer zookeeper;
    private ChildJvm bookie;

    /** One broker of the cluster, with the checkers its {@code broker.conf} lists. */
    public final class Broker {
        private final int index;
        private final int webPort;
        private final int brokerPort;
        private final String checkers;
        private final Path conf;
        private ChildJvm jvm;

        private Broker(int index, String checkers, List<String> jvmOptions) throws IOException {
            int[] ports = ChildJvm.freePorts(2);
            this.index = index;
            this.webPort = ports[0];
            this.brokerPort = ports[1];
            this.checkers = checkers;
            this.conf = dir.resolve("broker-" + index + ".conf");
            Files.writeString(conf, String.join("\n",
                    "clusterName=" + name,
                    "metadataStoreUrl=" + zookeeper.url(),
                    "configurationMetadataStoreUrl=" + configurationStoreUrl(),
                    "bindAddress=127.0.0.1",
                    "advertisedAddress=127.0.0.1",
                    "webServicePort=" + webPort,
                    "brokerServicePort=" + brokerPort,
                    "schemaRegistryCompatibilityCheckers=" + checkers,
                    "schemaCompatibilityStrategy=FULL",
                    // One bookie.
                    "managedLedgerDefaultEnsembleSize=1",
                    "managedLedgerDefaultWriteQuorum=1",
                    "managedLedgerDefaultAckQuorum=1",
                    "managedLedgerCacheSizeMB=32",
                    // A killed broker's bundles are taken over once its metadata-store session
                    // expires: 10 s here, where Pulsar's default is 30 s.
                    "metadataStoreSessionTimeoutMillis=10000",
                    // Bundles move when a test moves them, not when the load balancer sees fit.
                    "loadBalancerSheddingEnabled=false",
                    "loadBalancerAutoBundleSplitEnabled=false",
                    ""));
            this.jvm = jvm(jvmOptions);
        }

        private ChildJvm jvm(List<String> jvmOptions) throws IOException {
            List<String> options = new ArrayList<>(List.of("-Xms128m", "-Xmx512m", "-XX:MaxDirectMemorySize=256m"));
            options.addAll(jvmOptions);
            return new ChildJvm("broker-" + index, dir, ChildJvm.pulsarJava(), options,
                    "org.apache.pulsar.PulsarBrokerStarter", List.of("--broker-conf", conf.toString()));
        }

        /**
         * Stops the broker (SIGTERM) and starts it again on the same ports and {@code broker.conf},
         * with {@code jvmOptions} in place of the options it had ({@code -Dprotocompat.profile=…}),
         * as an operator restarts one with other {@code PULSAR_EXTRA_OPTS}; returns once healthy.
         */
        public void restart(List<String> jvmOptions) throws IOException, InterruptedException {
            jvm.stop();
            jvm = jvm(jvmOptions);
            jvm.start();
            awaitHealthy();
        }

        /** The id the cluster knows the broker by: {@code advertisedAddress:webServicePort}. */
        public String id() {
            return "127.0.0.1:" + webPort;
        }

        public String webUrl() {
            return "http://127.0.0.1:" + webPort;
        }

        public String serviceUrl() {
            return "pulsar://127.0.0.1:" + brokerPort;
        }

        public String checkers() {
            return checkers;
        }

        /** The broker's log so far (log4j2, INFO and up). */
        public String log() {
            return jvm.log();
        }

        /** The cluster's brokers as this one lists them ({@code GET /admin/v2/brokers/{cluster}}). */
        public List<String> listedBrokerIds() throws IOException, InterruptedException {
            List<String> ids = new ArrayList<>();
            JSON.readTree(send(webUrl(), "GET", "/admin/v2/brokers/" + name, null)).forEach(id -> ids.add(id.asText()));
            return ids;
        }

        /** The broker's Pulsar version, as it reports it ({@code GET /admin/v2/brokers/version}). */
        public String pulsarVersion() throws IOException, InterruptedException {
            return send(webUrl(), "GET", "/admin/v2/brokers/version", null).strip();
        }

        /** The broker's Prometheus metrics ({@code GET /metrics/}), as a scraper gets them. */
        public String metrics() throws IOException, InterruptedException {
            return send(webUrl(), "GET", "/metrics/", null);
        }

        /** The bundles this broker says it owns, as {@code tenant/namespace/range}. */
        public List<String> ownedBundles() throws IOException, InterruptedException {
            String path = "/admin/v2/brokers/" + name + "/" + id() + "/ownedNamespaces";
            return settled("ownedBundles of " + this, () -> {
                List<String> bundles = new ArrayList<>();
                JSON.readTree(send(webUrl(), "GET", path, null)).fieldNames().forEachRemaining(bundles::add);
                return bundles;
            });
        }

        /**
         * Stops the broker as an operator does (SIGTERM: it hands its bundles back) and waits until
         * the cluster no longer lists it.
         */
        public void stop() throws InterruptedException {
            jvm.stop();
            synchronized (PulsarCluster.this) {
                brokers.remove(this);
            }
            List<Broker> others = brokers();
            if (others.isEmpty()) {
                return;
            }
            Broker other = others.get(0);
            other.jvm.awaitReady(STARTUP, () -> !other.listedBrokerIds().contains(id()));
        }

        /**
         * Kills the broker as a crash does (SIGKILL: it hands nothing back; its bundles stay
         * assigned to it until its metadata-store session expires) and forgets it.
         */
        public void kill() throws InterruptedException {
            jvm.kill();
            synchronized (PulsarCluster.this) {
                brokers.remove(this);
            }
        }

        @Override
        public String toString() {
            return name + " broker-" + index + " (" + id() + ")";
        }

        private void awaitHealthy() throws InterruptedException {
            // The health check writes to and reads from a topic: the metadata store, the bookie and
            // the broker all work.
            HttpRequest health = HttpRequest.newBuilder(URI.create(webUrl() + "/admin/v2/brokers/health"))
                    .timeout(Duration.ofSeconds(30)).build();
            jvm.awaitReady(STARTUP, () -> {
                HttpResponse<String> response = HTTP.send(health, HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200 && response.body().equals("ok");
            });
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NORMAL).build();

    private PulsarCluster(Path dir, String name, ZooKeeperServer configurationStore) throws IOException {
        this.dir = dir;
        this.name = name;
        this.configurationStore = configurationStore;
        this.bookiePort = ChildJvm.freePorts(1)[0];
        this.cleanup = new Thread(this::stopAll, "stop-pulsar-cluster");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** A cluster with one broker per entry of {@code brokerCheckers}, each with that checker list. */
    public static PulsarCluster start(String... brokerCheckers) throws IOException, InterruptedException {
        return start(NAME, null, brokerCheckers);
    }

    /**
     * A cluster named {@code name} whose configuration store is {@code configurationStore} (shared
     * with other clusters: geo-replication), or its own metadata store when null.
     */
    public static PulsarCluster start(String name, ZooKeeperServer configurationStore, String... brokerCheckers)
            throws IOException, InterruptedException {
        PulsarCluster cluster = new PulsarCluster(Files.createTempDirectory("protocompat-" + name), name,
                configurationStore);
        try {
            cluster.zookeeper = ZooKeeperServer.start(cluster.dir, "zookeeper");
            List<Broker> brokers = new ArrayList<>();
            for (String checkers : brokerCheckers) {
                brokers.add(cluster.newBroker(checkers, List.of()));
            }
            cluster.initializeClusterMetadata(brokers.get(0));
            cluster.startBookie();
            for (Broker broker : brokers) {
                broker.jvm.start();
            }
            for (Broker broker : brokers) {
                broker.awaitHealthy();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** One more broker in the running cluster, started and healthy. */
    public Broker addBroker(String checkers) throws IOException, InterruptedException {
        return addBroker(checkers, List.of());
    }

    /** {@link #addBroker(String)} with more options on its JVM's command line ({@code PULSAR_EXTRA_OPTS}). */
    public Broker addBroker(String checkers, List<String> jvmOptions) throws IOException, InterruptedException {
        Broker broker = newBroker(checkers, jvmOptions);
        broker.jvm.start();
        broker.awaitHealthy();
        return broker;
    }

    /** The brokers started and not stopped, in the order they were started. */
    public synchronized List<Broker> brokers() {
        return List.copyOf(brokers);
    }

    /** The broker whose web URL is {@code webUrl}. */
    public Broker brokerAt(String webUrl) {
        return brokers().stream().filter(b -> b.webUrl().equals(webUrl)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no broker of this cluster serves " + webUrl));
    }

    /** The broker that owns the topic's bundle now: a lookup, which assigns the bundle if none does. */
    public Broker owner(String topic) throws IOException, InterruptedException {
        String path = "/lookup/v2/topic/persistent/" + topic;
        return brokerAt(settled("owner of " + topic, () -> JSON.readTree(get(path)).path("httpUrl").asText()));
    }

    /** An admin API call that may meet a bundle's ownership while it settles. */
    @FunctionalInterface
    public interface Call<T> {
        T call() throws IOException, InterruptedException;
    }

    /**
     * {@code call}, asked again while the cluster answers HTTP 500 because a bundle's ownership is
     * still settling after an unload: the old owner revalidating a lock the new one holds ("…
     * is already locked", LockBusyException) or the new owner not yet holding it ("Failed to
     * acquire ownership for namespace bundle"). Both were seen in CI, moments after a move.
     * {@link #SETTLE_ATTEMPTS} times at most; any other error at once.
     */
    public static <T> T settled(String what, Call<T> call) throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            try {
                return call.call();
            } catch (IllegalStateException e) {
                String message = String.valueOf(e.getMessage());
                boolean settling = message.contains(": HTTP 500 ") && (message.contains("LockBusyException")
                        || message.contains("is already locked") || message.contains("Failed to acquire ownership"));
                if (attempt >= SETTLE_ATTEMPTS || !settling) {
                    throw e;
                }
                System.out.println(what + ": ownership still settling (attempt " + attempt + "), asking again");
                Thread.sleep(500);
            }
        }
    }

    /** The range of the namespace bundle the topic belongs to, such as {@code 0x40000000_0x80000000}. */
    public String bundle(String topic) throws IOException, InterruptedException {
        return get("/lookup/v2/topic/persistent/" + topic + "/bundle");
    }

    /** The names of the producers connected to the topic, from its owner's stats. */
    public List<String> producerNames(String topic) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        JSON.readTree(get("/admin/v2/persistent/" + topic + "/stats")).path("publishers")
                .forEach(p -> names.add(p.path("producerName").asText()));
        return names;
    }

    /** The namespace's bundle boundaries ({@code GET /admin/v2/namespaces/{ns}/bundles}). */
    public List<String> bundleBoundaries(String namespace) throws IOException, InterruptedException {
        List<String> boundaries = new ArrayList<>();
        JSON.readTree(get("/admin/v2/namespaces/" + namespace + "/bundles")).path("boundaries")
                .forEach(b -> boundaries.add(b.asText()));
        return boundaries;
    }

    /** A namespace split into {@code bundles} bundles, with a schema compatibility strategy. */
    public void createNamespace(String namespace, int bundles, String strategy)
            throws IOException, InterruptedException {
        send("PUT", "/admin/v2/namespaces/" + namespace, "{\"bundles\":{\"numBundles\":" + bundles + "}}");
        send("PUT", "/admin/v2/namespaces/" + namespace + "/schemaCompatibilityStrategy", "\"" + strategy + "\"");
    }

    /**
     * A persistent topic with a subscription, which keeps it and its schema (Pulsar deletes a topic
     * without subscriptions after a minute without producers).
     */
    public void createSubscribedTopic(String topic) throws IOException, InterruptedException {
        send("PUT", "/admin/v2/persistent/" + topic + "/subscription/keep", "");
    }

    /**
     * {@code pulsar-admin namespaces unload NS --bundle RANGE --destinationBroker ID}: the owner lets
     * the bundle go and the leader assigns it to {@code destination} at the next lookup.
     */
    public void unload(String namespace, String bundle, Broker destination) throws IOException, InterruptedException {
        String path = "/admin/v2/namespaces/" + namespace + "/" + bundle + "/unload?destinationBroker=" + destination.id();
        settled("unload of " + bundle, () -> send("PUT", path, ""));
    }

    /** A GET of the admin API through the first broker, redirects followed (as pulsar-admin follows them). */
    private String get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    private String send(String method, String path, String body) throws IOException, InterruptedException {
        return send(brokers().get(0).webUrl(), method, path, body);
    }

    private static String send(String webUrl, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(webUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json");
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + " via " + webUrl + ": HTTP " + response.statusCode()
                    + " " + response.body());
        }
        return response.body();
    }

    /**
     * The cluster's entry, the {@code public/default} namespace and BookKeeper's ledger metadata.
     * The web service URL recorded is the first broker's, where operators put a load balancer's.
     */
    private void initializeClusterMetadata(Broker first) throws IOException, InterruptedException {
        ChildJvm setup = new ChildJvm("initialize-cluster-metadata", dir, ChildJvm.pulsarJava(), List.of("-Xmx256m"),
                "org.apache.pulsar.PulsarClusterMetadataSetup", List.of(
                        "--cluster", name,
                        "--metadata-store", zookeeper.url(),
                        "--configuration-metadata-store", configurationStoreUrl(),
                        "--web-service-url", first.webUrl(),
                        "--broker-service-url", first.serviceUrl()));
        setup.start();
        setup.awaitExit(STARTUP);
    }

    private void startBookie() throws IOException, InterruptedException {
        Path conf = dir.resolve("bookkeeper.conf");
        Files.writeString(conf, String.join("\n",
                "bookiePort=" + bookiePort,
                "advertisedAddress=127.0.0.1",
                "allowLoopback=true",
                "metadataServiceUri=zk+null://" + zookeeper.address() + "/ledgers",
                "journalDirectories=" + dir.resolve("bookie/journal"),
                "ledgerDirectories=" + dir.resolve("bookie/ledgers"),
                "httpServerEnabled=false",
                "autoRecoveryDaemonEnabled=false",
                // Test data: no fsync per entry.
                "journalSyncData=false",
                ""));
        bookie = new ChildJvm("bookie", dir, ChildJvm.pulsarJava(),
                List.of("-Xmx256m", "-XX:MaxDirectMemorySize=256m"),
                "org.apache.bookkeeper.server.Main", List.of("--conf", conf.toString()));
        bookie.start();
        // The bookie listens once it has registered itself in ZooKeeper.
        bookie.awaitReady(STARTUP, () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", bookiePort), 2000);
                return true;
            }
        });
    }

    /** The shared configuration store's URL, or this cluster's own metadata store's. */
    private String configurationStoreUrl() {
        return (configurationStore == null ? zookeeper : configurationStore).url();
    }

    /** The cluster's name ({@code clusterName}). */
    public String name() {
        return name;
    }

    /** A broker with its ports and {@code broker.conf}, not started yet. */
    private synchronized Broker newBroker(String checkers, List<String> jvmOptions) throws IOException {
        Broker broker = new Broker(brokersCreated++, checkers, jvmOptions);
        brokers.add(broker);
        return broker;
    }

    private void stopAll() {
        List<Broker> running;
        synchronized (this) {
            running = List.copyOf(brokers);
        }
        // Brokers first: a broker whose metadata store is gone hangs on shutdown.
        running.forEach(broker -> broker.jvm.stopQuietly());
        if (bookie != null) {
            bookie.stopQuietly();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
        ChildJvm.deleteTree(dir);
    }

    @Override
    public void close() {
        stopAll();
        ChildJvm.removeShutdownHook(cleanup);
    }
}
