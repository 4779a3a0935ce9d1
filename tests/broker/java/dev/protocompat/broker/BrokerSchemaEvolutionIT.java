/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.common.schema.KeyValue;
import org.apache.pulsar.common.schema.KeyValueEncodingType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real Pulsar standalone broker (4.0 LTS, or the current line in the pulsar-current run) with
 * the plugin configured, driven only through its public interfaces: the REST admin API, the
 * pulsar-admin CLI and the Java client.
 */
class BrokerSchemaEvolutionIT {

    private static StandaloneBroker broker;
    private static SchemaRest rest;
    private static PulsarClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = StandaloneBroker.start();
        rest = new SchemaRest(broker.webUrl());
        client = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** The broker runs the Pulsar release asked for, not the one the tests compile against. */
    @Test
    void brokerRunsTheRequestedPulsar() throws Exception {
        String expected = System.getProperty("protocompat.expect.pulsar", "");
        assertTrue(!expected.isBlank(), "protocompat.expect.pulsar is not set");
        assertEquals(expected, broker.pulsarVersion());
    }

    /**
     * The broker runs on the JVM asked for: a newer JDK in the newer-java run, Java 21+ for
     * Pulsar 5 ({@code protocompat.broker.java.min}), else the tests' own.
     */
    @Test
    void brokerRunsOnTheRequestedJava() throws Exception {
        String version = broker.javaVersion();
        System.out.println("Broker under test: Pulsar " + broker.pulsarVersion() + " on Java " + version);
        String requested = System.getProperty("protocompat.broker.java", "");
        int min = Integer.parseInt(System.getProperty("protocompat.broker.java.min", "0").strip());
        boolean testsOwn = requested.isBlank() && Runtime.version().feature() >= min;
        String expected = testsOwn ? System.getProperty("java.version") : null;
        if (expected != null) {
            assertEquals(expected, version.replaceAll("\\+.*", "").replaceAll("-.*", ""),
                    "the broker should run on the tests' JVM");
        } else {
            int major = Integer.parseInt(version.split("[.+-]")[0]);
            assertTrue(major >= Math.max(21, min), "expected a Java " + Math.max(21, min) + "+ broker, got " + version);
        }
    }

    private static String namespace(String name, String strategy) throws Exception {
        String namespace = "public/" + name.toLowerCase(Locale.ROOT).replace('_', '-');
        rest.createNamespace(namespace, strategy);
        return namespace;
    }

    @ParameterizedTest
    @ValueSource(strings = {"BACKWARD", "FORWARD", "FULL"})
    void compatibleChangeIsAcceptedAndIncompatibleOneRefused(String strategy) throws Exception {
        String topic = namespace("evolution-" + strategy, strategy) + "/orders";
        Answer v1 = rest.upload(topic, Shop.version(1));
        assertEquals(200, v1.status(), v1.toString());
        assertEquals(0, SchemaRest.version(v1));
        Answer v2 = rest.upload(topic, Shop.version(2));
        assertEquals(200, v2.status(), v2.toString());
        assertEquals(1, SchemaRest.version(v2));

        Answer v3 = rest.upload(topic, Shop.version(3));
        assertEquals(409, v3.status(), v3.toString());
        assertTrue(v3.body().contains("Incompatible PROTOBUF_NATIVE schema"), v3.body());
        assertTrue(v3.body().contains("under " + strategy + " (profile pip246):"), v3.body());
        assertTrue(v3.body().contains("FIELD_KIND_CHANGED shop.Order.total.currency (field 2)"), v3.body());
        assertTrue(v3.body().contains("FIELD_NUMBER_CHANGED shop.Order.note"), v3.body());
        assertEquals(strategy.equals("FORWARD"), !v3.body().contains("PACKED_TO_EXPANDED"), v3.body());
        // v2 is still the latest: uploading it again returns its version.
        assertEquals(1, SchemaRest.version(rest.upload(topic, Shop.version(2))));
    }

    @ParameterizedTest
    @CsvSource({"BACKWARD_TRANSITIVE,BACKWARD", "FORWARD_TRANSITIVE,FORWARD", "FULL_TRANSITIVE,FULL"})
    void transitiveStrategiesRefuseAConflictWithTheOldestVersionOnly(String transitive, String latestOnly)
            throws Exception {
        byte[][] history = Shop.transitiveHistory();
        String refusing = namespace("history-" + transitive, transitive) + "/orders";
        String accepting = namespace("history-" + latestOnly, latestOnly) + "/orders";
        for (String topic : List.of(refusing, accepting)) {
            for (int v = 0; v < 3; v++) {
                Answer answer = rest.upload(topic, history[v]);
                assertEquals(200, answer.status(), topic + " v" + (v + 1) + ": " + answer);
            }
        }
        Answer refused = rest.upload(refusing, history[3]);
        assertEquals(409, refused.status(), refused.toString());
        assertTrue(refused.body().contains("FIELD_KIND_CHANGED shop.Order.total (field 2)"), refused.body());
        assertTrue(refused.body().contains("against 3 existing schemas"), refused.body());
        Answer accepted = rest.upload(accepting, history[3]);
        assertEquals(200, accepted.status(), accepted.toString());
        assertEquals(3, SchemaRest.version(accepted));
    }

    /**
     * A refused upload reaches a REST client as Jetty's JSON error page with our report in its
     * {@code message}. Pulsar 4.0 (Jetty 9) escapes the report's line breaks; Pulsar 4.2
     * (Jetty 12) writes them raw, so a strict JSON parser refuses the body: a client must read it
     * leniently (as SchemaRest does) or show it as text.
     */
    @Test
    void aRefusalReachesRestClientsInJettysErrorPage() throws Exception {
        String topic = namespace("error-page", "FULL") + "/orders";
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        Answer refused = rest.upload(topic, Shop.version(3));
        assertEquals(409, refused.status(), refused.toString());
        boolean jetty9 = broker.pulsarVersion().startsWith("4.0.");
        assertEquals(jetty9, SchemaRest.strictJson(refused.body()), refused.body());
        String message = SchemaRest.errorMessage(refused);
        assertTrue(message.startsWith("Incompatible PROTOBUF_NATIVE schema "), message);
        assertTrue(message.contains("\nFIELD_KIND_CHANGED shop.Order.total.currency (field 2)"), message);
    }

    /**
     * Pulsar answers a compatible schema here with HTTP 202 and {@code "compatibility":true}, and an
     * incompatible one with HTTP 500 and our message (its REST layer turns the checker's exception
     * into a server error rather than {@code "compatibility":false}).
     */
    @Test
    void compatibilityEndpoint() throws Exception {
        String topic = namespace("compatibility", "FULL") + "/orders";
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        Answer compatible = rest.testCompatibility(topic, Shop.version(2));
        assertEquals(202, compatible.status(), compatible.toString());
        assertTrue(compatible.body().contains("\"compatibility\":true"), compatible.body());
        Answer incompatible = rest.testCompatibility(topic, Shop.version(3));
        assertEquals(500, incompatible.status(), incompatible.toString());
        assertTrue(incompatible.body().contains("FIELD_KIND_CHANGED shop.Order.total.currency"), incompatible.body());
    }

    /**
     * The default profile accepts what the conservative one refuses (BrokerConservativeProfileIT):
     * int32 widened to int64 passes with a SCALAR_TYPE_CHANGED warning in the broker's log, and
     * two fields joined in a oneof pass, through REST and a Java producer.
     */
    @Test
    void theDefaultProfileAcceptsAWidenedIntegerWithAWarningAndAOneof() throws Exception {
        String topic = namespace("default-profile", "FULL") + "/orders";
        assertEquals(200, rest.upload(topic, Shop.order(Shop.QUANTITY_INT32)).status());
        Answer widened = rest.upload(topic, Shop.order(Shop.QUANTITY_INT64));
        assertEquals(200, widened.status(), widened.toString());
        assertTrue(broker.log().contains(
                "PROTOBUF_NATIVE schema check: SCALAR_TYPE_CHANGED shop.Order.quantity (field 2): writer=int32 reader=int64"),
                "the warning reaches the broker log");
        String joined = "persistent://" + namespace("default-profile-oneof", "BACKWARD") + "/orders";
        try (Producer<byte[]> first = client.newProducer(new NativeSchema("orders", Shop.order(Shop.QUANTITY_INT32)))
                .topic(joined).create()) {
            first.send(new byte[] {8, 1});
        }
        try (Producer<byte[]> oneof = client.newProducer(new NativeSchema("orders", Shop.order(Shop.PAYMENT_ONEOF)))
                .topic(joined).create()) {
            assertTrue(oneof.send(new byte[] {8, 2}) != null);
        }
    }

    /**
     * Which broker thread runs our check (RELIABILITY.md, "Which broker threads the work holds"), read from
     * the broker's log: the thread of the warning line the check logs, for an upload through the
     * admin REST API and for a Java producer's connect. Pulsar runs the check in the continuation
     * of its schema storage's BookKeeper reads of the stored versions: on a worker thread of the
     * BookKeeper client that the schema storage owns, or, when the reads completed before the
     * continuation was attached, on the thread that asked. The test fails on any other thread.
     */
    @Test
    void theCheckRunsOnABookKeeperWorkerOrTheRequestingThread() throws Exception {
        String namespace = namespace("check-thread", "FULL");
        String uploaded = namespace + "/uploaded";
        assertEquals(200, rest.upload(uploaded, Shop.order("message Order { int64 id = 1; int32 units = 2; }")).status());
        Answer widened = rest.upload(uploaded, Shop.order("message Order { int64 id = 1; int64 units = 2; }"));
        assertEquals(200, widened.status(), widened.toString());
        String produced = "persistent://" + namespace + "/produced";
        for (String pieces : List.of("int32", "int64")) {
            byte[] schema = Shop.order("message Order { int64 id = 1; " + pieces + " pieces = 2; }");
            try (Producer<byte[]> producer = client.newProducer(new NativeSchema("orders", schema))
                    .topic(produced).create()) {
                assertTrue(producer.send(new byte[] {8, 1}) != null);
            }
        }
        String restThread = checkThread("shop.Order.units");
        String producerThread = checkThread("shop.Order.pieces");
        System.out.println("checkCompatible ran on broker thread [" + restThread + "] for a REST upload, ["
                + producerThread + "] for a producer's connect");
        // The continuation of the storage's reads runs where the last read completes, or, when
        // they completed before it was attached, on the thread that asked: a web thread for
        // REST, an IO thread for a producer.
        assertTrue(restThread.startsWith("BookKeeperClientWorker-OrderedExecutor-")
                || restThread.startsWith("pulsar-web-"), restThread);
        assertTrue(producerThread.startsWith("BookKeeperClientWorker-OrderedExecutor-")
                || producerThread.startsWith("pulsar-io-"), producerThread);
    }

    /** The thread ({@code [%t]}) of the check's warning about {@code path}, from the broker's log. */
    private static String checkThread(String path) {
        Matcher line = Pattern.compile("^\\S+ \\[([^\\]]+)\\] WARN +"
                + Pattern.quote("org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck"
                        + " - PROTOBUF_NATIVE schema check: SCALAR_TYPE_CHANGED " + path + " "),
                Pattern.MULTILINE).matcher(broker.log());
        assertTrue(line.find(), "no warning about " + path + " with its thread in the broker log");
        return line.group(1);
    }

    @Test
    void javaProducersWithCompatibleAndIncompatibleSchemas() throws Exception {
        String topic = "persistent://" + namespace("producers", "FULL") + "/orders";
        try (Producer<byte[]> first = client.newProducer(new NativeSchema("orders", Shop.version(1)))
                .topic(topic).create()) {
            first.send(new byte[] {8, 1});
        }
        try (Producer<byte[]> compatible = client.newProducer(new NativeSchema("orders", Shop.version(2)))
                .topic(topic).create()) {
            assertTrue(compatible.send(new byte[] {8, 2}) != null);
        }
        PulsarClientException.IncompatibleSchemaException refused = assertThrows(
                PulsarClientException.IncompatibleSchemaException.class,
                () -> client.newProducer(new NativeSchema("orders", Shop.version(3))).topic(topic).create());
        assertTrue(refused.getMessage().contains("FIELD_KIND_CHANGED shop.Order.total.currency"), refused.getMessage());
    }

    /**
     * Editions 2023 schema data as a Java producer would send it (tests/fixtures/editions). No
     * fixture's new side is another's old side, so the history is composed: scalar_type_changed's
     * old and new sides (only SCALAR_TYPE_CHANGED warnings), then default_value_changed's new side,
     * which differs from the latest version just as that case's own pair does (qty's default 7
     * becomes 2, plus scalar warnings): the broker must refuse it with that case's findings.
     */
    @ParameterizedTest
    @ValueSource(strings = {"BACKWARD", "FORWARD", "FULL"})
    void editionsChangeIsAcceptedAndIncompatibleOneRefused(String strategy) throws Exception {
        CompatCase compatible = editionsCase("scalar_type_changed");
        CompatCase incompatible = editionsCase("default_value_changed");
        assertVerdicts(compatible, incompatible, strategy);
        String topic = namespace("editions-" + strategy, strategy) + "/orders";
        Answer v1 = rest.upload(topic, compatible.oldSchema());
        assertEquals(200, v1.status(), v1.toString());
        assertEquals(0, SchemaRest.version(v1));
        Answer v2 = rest.upload(topic, compatible.newSchema());
        assertEquals(200, v2.status(), v2.toString());
        assertEquals(1, SchemaRest.version(v2));

        Answer v3 = rest.upload(topic, incompatible.newSchema());
        assertEquals(409, v3.status(), v3.toString());
        assertReport(SchemaRest.errorMessage(v3), strategy, failures(incompatible, strategy));
        assertEquals(1, SchemaRest.version(rest.upload(topic, compatible.newSchema())), "v2 is still the latest");
    }

    /** Edition 2024 data reaches the checker too: a case's old side, then its new side. */
    @Test
    void edition2024ChangeIsRefused() throws Exception {
        CompatCase c = editionsCase("e2024_default_value_changed");
        String topic = namespace("editions-2024", "FULL") + "/orders";
        Answer v1 = rest.upload(topic, c.oldSchema());
        assertEquals(200, v1.status(), v1.toString());
        Answer v2 = rest.upload(topic, c.newSchema());
        assertEquals(409, v2.status(), v2.toString());
        assertReport(SchemaRest.errorMessage(v2), "FULL", failures(c, "FULL"));
    }

    /**
     * Pulsar calls compatibility checkers only when a topic has a schema already, so a schema
     * this checker cannot read is accepted as a topic's first version (docs/rejections.md, "What producers and
     * operators see"); every later upload is then refused, naming it as the existing schema.
     * The schema is protoc 36.2's own `edition = "UNSTABLE";` output: Pulsar's validator takes
     * it on every line (protobuf-java 3.25 and 4.36.2 alike), where an edition past 2026 is
     * refused by 4.36.2 before any checker runs.
     */
    @Test
    void aFirstSchemaIsNotCheckedAndAnUnreadableOneBlocksTheNext() throws Exception {
        String topic = namespace("unchecked-first", "FULL") + "/orders";
        byte[] unreadable = Files.readAllBytes(Fixtures.root().resolve("editions/bad/edition_unstable_compiled.schema"));
        Answer first = rest.upload(topic, unreadable);
        assertEquals(200, first.status(), first.toString());
        Answer next = rest.upload(topic, editionsCase("allowed_changes").oldSchema());
        assertEquals(409, next.status(), next.toString());
        String message = SchemaRest.errorMessage(next);
        assertTrue(message.startsWith("UNSUPPORTED_FEATURE: existing[0] (sha256 "), message);
    }

    /**
     * Producers with Editions schemas: java_features (old, then new with Java feature options on
     * its fields) is accepted; field_kind_changed_enum_to_scalar's new side, whose Order differs
     * from java_features' new one by status becoming an int32 (and note dropped), is refused.
     */
    @Test
    void javaProducersWithEditionsSchemas() throws Exception {
        CompatCase compatible = editionsCase("java_features");
        CompatCase incompatible = editionsCase("field_kind_changed_enum_to_scalar");
        assertVerdicts(compatible, incompatible, "FULL");
        String topic = "persistent://" + namespace("editions-producers", "FULL") + "/orders";
        try (Producer<byte[]> first = client.newProducer(new NativeSchema("orders", compatible.oldSchema()))
                .topic(topic).create()) {
            first.send(new byte[] {8, 1});
        }
        try (Producer<byte[]> next = client.newProducer(new NativeSchema("orders", compatible.newSchema()))
                .topic(topic).create()) {
            assertTrue(next.send(new byte[] {8, 2}) != null);
        }
        PulsarClientException.IncompatibleSchemaException refused = assertThrows(
                PulsarClientException.IncompatibleSchemaException.class,
                () -> client.newProducer(new NativeSchema("orders", incompatible.newSchema())).topic(topic).create());
        assertReport(refused.getMessage(), "FULL", failures(incompatible, "FULL"));
    }

    private static CompatCase editionsCase(String name) throws IOException {
        return Fixtures.editionsCases().stream()
                .filter(c -> c.name().equals("editions/" + name))
                .findFirst().orElseThrow(() -> new AssertionError("no fixture editions/" + name));
    }

    /** The expect.json directions a strategy checks against the latest version. */
    private static List<String> directions(String strategy) {
        return switch (strategy) {
            case "BACKWARD" -> List.of("old_writes_new_reads");
            case "FORWARD" -> List.of("new_writes_old_reads");
            case "FULL" -> List.of("old_writes_new_reads", "new_writes_old_reads");
            default -> throw new IllegalArgumentException(strategy);
        };
    }

    /** The fixtures still say what the history above relies on. */
    private static void assertVerdicts(CompatCase compatible, CompatCase incompatible, String strategy) {
        for (String direction : directions(strategy)) {
            assertTrue(compatible.compatible(direction), compatible.name() + " " + direction);
            assertTrue(!incompatible.compatible(direction), incompatible.name() + " " + direction);
        }
    }

    private static List<String> failures(CompatCase c, String strategy) {
        List<String> failures = new ArrayList<>();
        directions(strategy).forEach(direction -> failures.addAll(c.failures(direction)));
        assertTrue(!failures.isEmpty(), c.name() + " finds nothing under " + strategy);
        return failures;
    }

    /** Our report, not Pulsar's: the summary, and each "RULE path" of expect.json as a finding. */
    private static void assertReport(String message, String strategy, List<String> failures) {
        assertTrue(message.contains("Incompatible PROTOBUF_NATIVE schema"), message);
        assertTrue(message.contains(" under " + strategy + " (profile pip246): " + failures.size() + " violation"),
                message);
        for (String finding : failures) {
            assertTrue(message.contains(finding + " (field "), "lacks " + finding + ":\n" + message);
        }
    }

    @Test
    void keyValueWithProtobufNativeKeyAndValue() throws Exception {
        String topic = "persistent://" + namespace("key-value", "FULL") + "/orders";
        byte[] key = Fixtures.proto3("message Order { string id = 1; }\n");
        Schema<KeyValue<byte[], byte[]>> v1 = Schema.KeyValue(new NativeSchema("key", key),
                new NativeSchema("value", Shop.version(1)), KeyValueEncodingType.SEPARATED);
        Schema<KeyValue<byte[], byte[]>> v2 = Schema.KeyValue(new NativeSchema("key", key),
                new NativeSchema("value", Shop.version(2)), KeyValueEncodingType.SEPARATED);
        Schema<KeyValue<byte[], byte[]>> v3 = Schema.KeyValue(new NativeSchema("key", key),
                new NativeSchema("value", Shop.version(3)), KeyValueEncodingType.SEPARATED);
        client.newProducer(v1).topic(topic).create().close();
        client.newProducer(v2).topic(topic).create().close();
        PulsarClientException.IncompatibleSchemaException refused = assertThrows(
                PulsarClientException.IncompatibleSchemaException.class,
                () -> client.newProducer(v3).topic(topic).create());
        assertTrue(refused.getMessage().contains("FIELD_NUMBER_CHANGED shop.Order.note"), refused.getMessage());
    }

    /** The real pulsar-admin main class, with a schema file made by `protocompat schema --upload`. */
    @Test
    void pulsarAdminSchemasUpload() throws Exception {
        String topic = "persistent://" + namespace("cli", "FULL") + "/orders";
        Path dir = Files.createTempDirectory("protocompat-cli");
        Path conf = dir.resolve("client.conf");
        Files.writeString(conf, "webServiceUrl=" + broker.webUrl() + "/\n");
        List<String> outputs = new ArrayList<>();
        List<Integer> exits = new ArrayList<>();
        for (int v : new int[] {1, 3}) {
            Path file = dir.resolve("order-v" + v + ".json");
            Path source = Fixtures.root().resolve("../../examples/shop/v" + v + "/order.proto").normalize();
            Files.write(file, Fixtures.cli("schema", "--upload", "-I", source.getParent().toString(),
                    "--root", "shop.Order", source.toString()));
            Process admin = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                    "-cp", System.getProperty("java.class.path"),
                    "org.apache.pulsar.admin.cli.PulsarAdminTool", conf.toString(),
                    "schemas", "upload", "--filename", file.toString(), topic)
                    .redirectErrorStream(true).start();
            outputs.add(new String(admin.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            assertTrue(admin.waitFor(2, TimeUnit.MINUTES));
            exits.add(admin.exitValue());
        }
        assertEquals(0, exits.get(0), outputs.get(0));
        assertEquals(1, exits.get(1), outputs.get(1));
        assertTrue(outputs.get(1).contains("HTTP 409"), outputs.get(1));
        assertTrue(outputs.get(1).contains("FIELD_KIND_CHANGED shop.Order.total.currency (field 2)"), outputs.get(1));
    }

    /**
     * Bad schema data is refused with a clear error, and the broker keeps serving. Pulsar's own
     * PROTOBUF_NATIVE data validator refuses most of it first (HTTP 422); what protobuf-java
     * accepts but we do not reaches the plugin and gets our rule (HTTP 409).
     */
    @ParameterizedTest
    @CsvSource({
        "not_json,422,deserialize ProtobufNative Schema failed",
        "bad_base64,422,deserialize ProtobufNative Schema failed",
        "truncated_descriptor_set,422,deserialize ProtobufNative Schema failed",
        "unresolved_import,422,deserialize ProtobufNative Schema failed",
        "root_message_missing,422,deserialize ProtobufNative Schema failed",
        "edition_unstable,409,UNSUPPORTED_FEATURE: new schema",
        "unknown_syntax,409,SCHEMA_RECONSTRUCTION_FAILED: new schema",
        // Pulsar's REST layer HTML-escapes quotes inside the JSON error message.
        "field_number_too_large,409,536870912&apos; (file `order.proto`, at shop.Order.id)",
        "two_different_files_with_one_name,409,fileDescriptorSet holds two different files named `order.proto`",
    })
    void malformedSchemaDataIsRefusedAndTheBrokerKeepsServing(String name, int status, String says)
            throws Exception {
        String topic = namespace("malformed-" + name.replace('_', '-'), "FULL") + "/orders";
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        Answer answer = rest.upload(topic, Files.readAllBytes(Fixtures.root().resolve("bad/" + name + ".schema")));
        assertEquals(status, answer.status(), answer.toString());
        assertTrue(SchemaRest.errorMessage(answer).contains(says), answer.toString());
        Answer next = rest.upload(topic, Shop.version(2));
        assertEquals(200, next.status(), next.toString());
        assertEquals(1, SchemaRest.version(next));
    }
}
