/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edition 2026 on a broker with the plugin, as users run it (issue 37): the application of
 * tests/broker/edition2026 in three versions, v1, a compatible v2 and v3, which turns a message
 * field into an integer. Through REST on every Pulsar line the build runs (4.0, 4.2, 5.0): what
 * Pulsar's own validator, on the protobuf-java of that line, makes of a 2026 descriptor before
 * our check runs (docs/operators.md). On Pulsar 5.0, whose client ships the protobuf-java that
 * classes of protoc 36 need, also as a Java producer of those classes with
 * {@code Schema.PROTOBUF_NATIVE}.
 */
class BrokerEdition2026IT extends WithBroker {

    private static final String REFUSAL = "FIELD_KIND_CHANGED shop.Order.total (field 2)";

    /**
     * Pulsar's validator lets a 2026 descriptor through on every line (v1 is stored; a first
     * version meets no checker, so nothing else could have refused it), and the plugin gives v2
     * and v3 its verdicts: the refusal names the rule and the field.
     */
    @Test
    void restUploadsOfEdition2026() throws Exception {
        String topic = namespace("e2026-rest") + "/orders";
        Answer v1 = rest.upload(topic, Edition2026App.schema(1));
        Answer v2 = rest.upload(topic, Edition2026App.schema(2));
        Answer v3 = rest.upload(topic, Edition2026App.schema(3));
        System.out.println("Pulsar " + broker.pulsarVersion() + ", Edition 2026 through REST: v1 HTTP "
                + v1.status() + ", v2 HTTP " + v2.status() + ", v3 HTTP " + v3.status());
        assertEquals(200, v1.status(), v1.toString());
        assertEquals(0, SchemaRest.version(v1));
        assertEquals(200, v2.status(), v2.toString());
        assertEquals(1, SchemaRest.version(v2));
        assertEquals(409, v3.status(), v3.toString());
        String message = SchemaRest.errorMessage(v3);
        System.out.println("Pulsar " + broker.pulsarVersion() + ", Edition 2026 v3 refused: " + message);
        assertTrue(message.startsWith("Incompatible PROTOBUF_NATIVE schema "), message);
        assertTrue(message.contains(" under FULL (profile "), message);
        assertTrue(message.contains(REFUSAL), message);
    }

    /**
     * The same three versions from a Java producer of the classes protoc 36.2 generates, on
     * protobuf-java 4.36.2: the client uploads v1 and v2 as it connects, and v3's connect fails
     * with an IncompatibleSchemaException whose text names the rule. What the client uploaded
     * for v1 and v2 is, byte for byte, what {@code protocompat schema} makes of the same files:
     * the broker finds a stored version by its bytes.
     */
    @Test
    void javaProducerOfGeneratedClasses() throws Exception {
        assumeTrue(broker.pulsarVersion().startsWith("5."),
                "classes of protoc 36 need protobuf-java 4.x, which Pulsar 5's client ships; this broker is "
                        + broker.pulsarVersion());
        Edition2026App app = Edition2026App.prepare();
        try {
            String protobuf = System.getProperty("protocompat.expect.protobuf4", "");
            assertTrue(!protobuf.isBlank(), "protocompat.expect.protobuf4 is not set");
            // protobuf-java 4.X.Y goes with protoc X.Y.
            assertEquals("libprotoc " + protobuf.substring(protobuf.indexOf('.') + 1), app.protocVersion());
            String topic = "persistent://" + namespace("e2026-producer") + "/orders";
            Edition2026App.Run[] runs = new Edition2026App.Run[4];
            for (int v = 1; v <= 3; v++) {
                Path classes = app.build(v);
                runs[v] = app.produce(classes, broker.serviceUrl(), topic, v);
                assertEquals(protobuf, runs[v].line("protobuf-java "), runs[v].toString());
                assertEquals("EDITION_2026", runs[v].line("edition "), runs[v].toString());
            }
            assertEquals(0, runs[1].exit(), runs[1].toString());
            assertTrue(runs[1].line("sent ") != null, runs[1].toString());
            assertEquals(0, runs[2].exit(), runs[2].toString());
            assertTrue(runs[2].line("sent ") != null, runs[2].toString());
            assertEquals(3, runs[3].exit(), runs[3].toString());
            assertEquals("org.apache.pulsar.client.api.PulsarClientException$IncompatibleSchemaException",
                    runs[3].line("refused "), runs[3].toString());
            assertTrue(runs[3].output().contains(REFUSAL), runs[3].toString());

            String topicPath = topic.substring("persistent://".length());
            List<String> history = rest.history(topicPath);
            assertEquals(2, history.size(), "v1 and v2 stored, v3 not");
            // v2 has what generated classes embed differently from protoc's descriptor sets: an
            // `import option` and a JSON name set in the source.
            for (int v = 1; v <= 2; v++) {
                assertEquals(new String(Edition2026App.schema(v), StandardCharsets.UTF_8), history.get(v - 1),
                        "the client's v" + v + " schema data and protocompat schema's");
            }
        } finally {
            app.delete();
        }
    }

    private static String namespace(String name) throws Exception {
        String namespace = "public/" + name;
        rest.createNamespace(namespace, "FULL");
        return namespace;
    }
}
