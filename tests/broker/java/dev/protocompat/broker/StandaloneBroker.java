/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Pulsar standalone broker (embedded RocksDB metadata store and bookie) in a child JVM,
 * with this project's plugin configured in {@code schemaRegistryCompatibilityCheckers}, on free
 * loopback ports, with its data in a temp directory. Closing it stops the JVM and deletes the
 * directory; a JVM shutdown hook does the same if a test run is cut short.
 *
 * <p>The broker runs the Pulsar {@link ChildJvm#pulsarClasspath} names: the one the tests compile
 * against, or another release's jars with the plugin jar only.
 */
public final class StandaloneBroker implements AutoCloseable {

    /** Pulsar's default list with the built-in protobuf checker replaced, as the README says. */
    public static final String CHECKERS = "org.apache.pulsar.broker.service.schema.JsonSchemaCompatibilityCheck,"
            + "org.apache.pulsar.broker.service.schema.AvroSchemaCompatibilityCheck,"
            + "org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck";

    private static final Duration STARTUP = Duration.ofSeconds(180);

    private final Path dir;
    private final int webPort;
    private final int brokerPort;
    private final int bookiePort;
    private final String java;
    private final List<String> jvmOptions;
    /** The token the broker's readiness probe sends, when authentication is on. */
    private final String adminToken;
    private final int webPortTls;
    private final Thread cleanup;
    private ChildJvm jvm;

    private StandaloneBroker(Path dir, String java, List<String> jvmOptions, Secured secured, List<String> conf)
            throws IOException {
        this.dir = dir;
        this.java = java;
        this.jvmOptions = List.copyOf(jvmOptions);
        int[] ports = ChildJvm.freePorts(4);
        this.webPort = ports[0];
        this.brokerPort = ports[1];
        this.bookiePort = ports[2];
        this.webPortTls = ports[3];
        this.adminToken = secured == null ? null : secured.adminToken();
        Files.writeString(dir.resolve("standalone.conf"), String.join("\n",
                "clusterName=standalone",
                "bindAddress=127.0.0.1",
                "advertisedAddress=127.0.0.1",
                "webServicePort=" + webPort,
                "brokerServicePort=" + brokerPort,
                "schemaRegistryCompatibilityCheckers=" + CHECKERS,
                "schemaCompatibilityStrategy=FULL",
                "managedLedgerDefaultEnsembleSize=1",
                "managedLedgerDefaultWriteQuorum=1",
                "managedLedgerDefaultAckQuorum=1",
                "managedLedgerCacheSizeMB=32",
                "allowLoopback=true",
                "") + (secured == null ? "" : secured.conf(webPortTls))
                + String.join("", conf.stream().map(line -> line + "\n").toList()));
        this.cleanup = new Thread(this::stopQuietly, "stop-standalone-broker");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /**
     * Starts a broker with a fresh data directory, on the {@code java} named by the system property
     * {@code protocompat.broker.java} (a newer JDK, say), else on the JVM that runs the tests.
     */
    public static StandaloneBroker start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /**
     * {@link #start()} with more options on the broker JVM's command line, as an operator adds
     * them to {@code PULSAR_EXTRA_OPTS} ({@code -Dprotocompat.profile=conservative}, say).
     */
    public static StandaloneBroker start(List<String> jvmOptions) throws IOException, InterruptedException {
        return start(ChildJvm.pulsarJava(), jvmOptions);
    }

    /** Starts a broker with a fresh data directory on the given {@code java} executable. */
    public static StandaloneBroker start(String java, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return start(java, jvmOptions, null);
    }

    /**
     * A broker with token authentication on (HS256, {@code secretKeyBase64}; role {@code admin},
     * whose token is {@code adminToken}, is the superuser) and an HTTPS admin port serving
     * {@code certificate} and {@code key} (PEM), beside the plain one.
     */
    public record Secured(String secretKeyBase64, String adminToken, Path certificate, Path key) {
        String conf(int webPortTls) {
            return String.join("\n",
                    "authenticationEnabled=true",
                    "authenticationProviders=org.apache.pulsar.broker.authentication.AuthenticationProviderToken",
                    "tokenSecretKey=data:;base64," + secretKeyBase64,
                    "superUserRoles=admin",
                    "brokerClientAuthenticationPlugin=org.apache.pulsar.client.impl.auth.AuthenticationToken",
                    "brokerClientAuthenticationParameters=token:" + adminToken,
                    "webServicePortTls=" + webPortTls,
                    "tlsCertificateFilePath=" + certificate,
                    "tlsKeyFilePath=" + key,
                    "");
        }
    }

    /** {@link #start()} with authentication and HTTPS on, as {@code secured} says. */
    public static StandaloneBroker startSecured(Secured secured) throws IOException, InterruptedException {
        return start(ChildJvm.pulsarJava(), List.of(), secured);
    }

    /** {@link #start()} with more JVM options and more lines in {@code standalone.conf}. */
    public static StandaloneBroker start(List<String> jvmOptions, List<String> conf)
            throws IOException, InterruptedException {
        return start(ChildJvm.pulsarJava(), jvmOptions, null, conf);
    }

    /** {@link #start()} with more lines in {@code standalone.conf} ({@code name=value}; a later line wins). */
    public static StandaloneBroker startWithConf(List<String> conf) throws IOException, InterruptedException {
        return start(ChildJvm.pulsarJava(), List.of(), null, conf);
    }

    private static StandaloneBroker start(String java, List<String> jvmOptions, Secured secured)
            throws IOException, InterruptedException {
        return start(java, jvmOptions, secured, List.of());
    }

    /** How often a broker is started on fresh ports when one of its ports was taken meanwhile. */
    private static final int BIND_ATTEMPTS = 3;

    /**
     * A free port is only free when it is asked for: between {@link ChildJvm#freePorts} and the
     * broker's bind, another process can take it (CI saw "Failed to bind Pulsar broker … Address
     * already in use"). Such a start is tried again on fresh ports, a few times at most.
     */
    private static StandaloneBroker start(String java, List<String> jvmOptions, Secured secured, List<String> conf)
            throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            StandaloneBroker broker = new StandaloneBroker(Files.createTempDirectory("protocompat-broker"), java,
                    jvmOptions, secured, conf);
            try {
                broker.launch();
                return broker;
            } catch (IOException | InterruptedException | RuntimeException e) {
                broker.close();
                boolean portTaken = e instanceof IllegalStateException
                        && String.valueOf(e.getMessage()).contains("Address already in use");
                if (!portTaken || attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                System.out.println("StandaloneBroker: a port was taken before the broker bound it (attempt "
                        + attempt + "); starting again on fresh ports");
            }
        }
    }

    public String webUrl() {
        return "http://127.0.0.1:" + webPort;
    }

    /** The HTTPS admin URL of a {@link #startSecured} broker. */
    public String webUrlTls() {
        return "https://127.0.0.1:" + webPortTls;
    }

    public String serviceUrl() {
        return "pulsar://127.0.0.1:" + brokerPort;
    }

    /** The broker JVM's process id, for thread dumps ({@code jcmd PID Thread.print}). */
    public long pid() {
        if (jvm == null) {
            throw new IllegalStateException("the broker is not running");
        }
        return jvm.pid();
    }

    /** The broker's Pulsar version, as it reports it ({@code GET /admin/v2/brokers/version}). */
    public String pulsarVersion() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(webUrl() + "/admin/v2/brokers/version"))
                .timeout(Duration.ofSeconds(30));
        if (adminToken != null) {
            request.header("Authorization", "Bearer " + adminToken);
        }
        HttpResponse<String> version = HttpClient.newHttpClient().send(request.build(),
                HttpResponse.BodyHandlers.ofString());
        if (version.statusCode() != 200) {
            throw new IOException("GET /admin/v2/brokers/version: HTTP " + version.statusCode() + " " + version.body());
        }
        return version.body().strip();
    }

    /** The broker JVM's Java version, as its own metrics report it ({@code jvm_info}). */
    public String javaVersion() throws IOException, InterruptedException {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(webUrl() + "/metrics/")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("jvm_info\\{[^}]*version=\"([^\"]+)\"")
                .matcher(metrics.body());
        return m.find() ? m.group(1) : "unknown";
    }

    /** Stops the broker JVM and starts it again on the same data and ports. */
    public void restart() throws IOException, InterruptedException {
        stop();
        launch();
    }

    /** {@link #restart()} with another {@code schemaRegistryCompatibilityCheckers} list. */
    public void restartWithCheckers(String checkers) throws IOException, InterruptedException {
        Path conf = dir.resolve("standalone.conf");
        Files.writeString(conf, Files.readString(conf)
                .replaceAll("(?m)^schemaRegistryCompatibilityCheckers=.*$", "schemaRegistryCompatibilityCheckers=" + checkers));
        restart();
    }

    /** Pulsar's default checker list, the built-in protobuf checker among them: a rollback. */
    public static final String BUILT_IN_CHECKERS = CHECKERS.replace(
            "ProtobufNativeSchemaAdvanceCompatibilityCheck", "ProtobufNativeSchemaCompatibilityCheck");

    /** The broker's log so far (log4j2, INFO and up). */
    public String log() {
        return jvm == null ? "" : jvm.log();
    }

    private void launch() throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("-Xms256m", "-Xmx1g", "-XX:MaxDirectMemorySize=512m"));
        options.addAll(jvmOptions);
        jvm = new ChildJvm("broker", dir, java, options, "org.apache.pulsar.PulsarStandaloneStarter", List.of(
                "--config", dir.resolve("standalone.conf").toString(),
                "--metadata-dir", dir.resolve("metadata").toString(),
                "--bookkeeper-dir", dir.resolve("bookkeeper").toString(),
                "--bookkeeper-port", String.valueOf(bookiePort),
                "--no-functions-worker",
                "--no-stream-storage"));
        jvm.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest.Builder probe = HttpRequest.newBuilder(URI.create(webUrl() + "/admin/v2/namespaces/public"))
                .timeout(Duration.ofSeconds(5));
        if (adminToken != null) {
            probe.header("Authorization", "Bearer " + adminToken);
        }
        HttpRequest ready = probe.build();
        jvm.awaitReady(STARTUP, () -> {
            HttpResponse<String> response = http.send(ready, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("public/default");
        });
    }

    private void stop() throws InterruptedException {
        if (jvm != null) {
            jvm.stop();
        }
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ChildJvm.deleteTree(dir);
    }

    @Override
    public void close() {
        stopQuietly();
        ChildJvm.removeShutdownHook(cleanup);
    }
}
