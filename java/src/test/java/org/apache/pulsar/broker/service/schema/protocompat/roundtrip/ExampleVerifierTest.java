/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The verifier itself, on examples written here by hand for three fixture cases (one outcome
 * kind or more each), before the engine writes any: each right example passes, and each made
 * wrong on purpose (another read value, another kind, a changed byte) is rejected.
 */
@Tag("protobuf4")
class ExampleVerifierTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** compat/multiple_findings: required, defaults, a renumbered field, repeated vs singular. */
    private static ExampleVerifier multipleOldReads;
    private static ExampleVerifier multipleNewReads;
    /** conservative/cardinality_changed (proto3): repeated messages read as one, packed to singular. */
    private static ExampleVerifier cardinalityNewReads;
    private static ExampleVerifier cardinalityOldReads;
    /** conservative/utf8_validation_added (proto2): the new schema validates UTF-8, the old does not. */
    private static ExampleVerifier utf8NewReads;
    /** compat/required_label_changed (proto2): neither side validates UTF-8. */
    private static ExampleVerifier labelOldReads;

    @BeforeAll
    static void schemas() throws IOException {
        ProtobufJava.requireVersion4();
        Descriptor[] multiple = oldAndNew("compat/multiple_findings");
        multipleOldReads = new ExampleVerifier(multiple[1], multiple[0]);
        multipleNewReads = new ExampleVerifier(multiple[0], multiple[1]);
        Descriptor[] cardinality = oldAndNew("conservative/cardinality_changed");
        cardinalityNewReads = new ExampleVerifier(cardinality[0], cardinality[1]);
        cardinalityOldReads = new ExampleVerifier(cardinality[1], cardinality[0]);
        Descriptor[] utf8 = oldAndNew("conservative/utf8_validation_added");
        utf8NewReads = new ExampleVerifier(utf8[0], utf8[1]);
        Descriptor[] label = oldAndNew("compat/required_label_changed");
        labelOldReads = new ExampleVerifier(label[1], label[0]);
    }

    private static Descriptor[] oldAndNew(String name) throws IOException {
        Path dir = Fixtures.root().resolve(name);
        JsonNode expect = JSON.readTree(dir.resolve("expect.json").toFile());
        String file = expect.get("root_file").asText();
        String root = expect.get("root_message").asText();
        return new Descriptor[] {
            PulsarSchema.root(Fixtures.compile(dir.resolve("old"), file, root)),
            PulsarSchema.root(Fixtures.compile(dir.resolve("new"), file, root))};
    }

    // The writer (new) declares note [default = "?"], the reader (old) [default = "-"].
    private static final String DEFAULT_CHANGED = """
            {"writer": "id: 1 region: \\"\\"", "bytes": "08013a00", "reader": "note reads \\"-\\"",
             "outcome": {"kind": "value", "path": "shop.Order.note", "written": "\\"?\\"", "read": "\\"-\\""}}""";

    @Test
    void valueOutcomes() {
        assertPasses(multipleOldReads, DEFAULT_CHANGED);
        // optional int32 qty = 3 read as repeated: one element, -1 as ten varint bytes.
        assertPasses(multipleOldReads, """
                {"writer": "id: 1 qty: -1 region: \\"\\"", "bytes": "080118ffffffffffffffffff013a00",
                 "reader": "qty reads [-1]",
                 "outcome": {"kind": "value", "path": "shop.Order.qty", "written": "-1", "read": "[-1]"}}""");
        // A message compared by its text: Other { sku } read as Item { sku }, the bytes of é escaped.
        assertPasses(multipleOldReads, """
                {"writer": "id: 1 item { sku: \\"\\\\303\\\\251\\" } region: \\"\\"", "bytes": "080122040a02c3a93a00",
                 "reader": "item reads the same sku",
                 "outcome": {"kind": "value", "path": "shop.Order.item",
                             "written": "{ sku: \\"\\\\303\\\\251\\" }", "read": "{ sku: \\"é\\" }"}}""");
    }

    @Test
    void unknownOutcomes() {
        // rank moved from 6 (writer) to 5 (reader): 7 stays unknown field 6, the reader's rank unset.
        assertPasses(multipleOldReads, """
                {"writer": "id: 1 rank: 7 region: \\"\\"", "bytes": "080130073a00", "reader": "rank is lost",
                 "outcome": {"kind": "unknown", "path": "shop.Order.rank", "number": 6}}""");
        // The reader has no region at all: the path ends in the writer's name.
        assertPasses(multipleOldReads, """
                {"writer": "id: 1 region: \\"eu\\"", "bytes": "08013a026575", "reader": "region is lost",
                 "outcome": {"kind": "unknown", "path": "shop.Order.region", "number": 7}}""");
        // A packed list read by a singular int32: Java keeps it whole as unknown field 1.
        assertPasses(cardinalityOldReads, """
                {"writer": "quantity: 1 quantity: 2", "bytes": "0a020102", "reader": "quantity is lost",
                 "outcome": {"kind": "unknown", "path": "shop.Order.quantity", "number": 1}}""");
    }

    @Test
    void parseFailureOutcomes() {
        assertPasses(multipleNewReads, """
                {"writer": "id: 1", "bytes": "0801", "reader": "parsing throws",
                 "outcome": {"kind": "missing_required", "path": "shop.Order.region"}}""");
        // \\377 is no UTF-8: the proto2 writer can hold it (Java cannot), the reader validates.
        assertPasses(utf8NewReads, """
                {"writer": "note: \\"\\\\377\\"", "bytes": "0a01ff", "reader": "parsing throws",
                 "outcome": {"kind": "parse_failure", "why": "invalid UTF-8 in shop.Order.note"}}""");
    }

    // A proto2 writer's string of invalid UTF-8 (which Java cannot write): Java reads U+FFFD.
    private static final String INVALID_UTF8_READ = """
            {"writer": "id: 0 sku: \\"\\\\377\\"", "bytes": "08001201ff", "reader": "sku reads U+FFFD",
             "outcome": {"kind": "value", "path": "shop.Order.sku", "written": "\\"\\\\377\\"",
                         "read": "\\"\\\\357\\\\277\\\\275\\""}}""";

    @Test
    void invalidUtf8WrittenIsComparedAsBytes() {
        assertPasses(labelOldReads, INVALID_UTF8_READ);
        assertRejected(labelOldReads, INVALID_UTF8_READ, e -> outcome(e).put("written", "\"\\376\""),
                "the writer's shop.Order.sku");
        assertRejected(labelOldReads, INVALID_UTF8_READ, e -> e.put("bytes", "08001201fe"),
                "encodes to 08001201ff");
    }

    @Test
    void mergedOutcome() {
        assertPasses(cardinalityNewReads, MERGED);
    }

    private static final String MERGED = """
            {"writer": "items { sku: \\"a\\" } items { sku: \\"b\\" }", "bytes": "12030a016112030a0162",
             "reader": "items reads the last", "outcome": {"kind": "merged", "path": "shop.Order.items",
             "elements": 2, "read": "{ sku: \\"b\\" }"}}""";

    @Test
    void rejectsAnotherReadValue() {
        assertRejected(multipleOldReads, DEFAULT_CHANGED, e -> outcome(e).put("read", "\"?\""), "holds \"-\"");
        assertRejected(cardinalityNewReads, MERGED, e -> outcome(e).put("read", "{ sku: \"a\" }"), "holds");
        assertRejected(multipleOldReads, DEFAULT_CHANGED, e -> outcome(e).put("written", "\"-\""),
                "the writer's shop.Order.note");
    }

    @Test
    void rejectsAnotherKind() {
        assertRejected(multipleOldReads, DEFAULT_CHANGED, e -> outcome(e).put("kind", "parse_failure"),
                "the reader parses the bytes");
        assertRejected(multipleOldReads, DEFAULT_CHANGED,
                e -> outcome(e).put("kind", "unknown").put("number", 2), "no unknown field 2");
        assertRejected(cardinalityNewReads, MERGED, e -> outcome(e).put("kind", "value").put("written", "[]"),
                "holds");
        assertRejected(multipleNewReads, """
                {"writer": "id: 1", "bytes": "0801", "reader": "parsing throws",
                 "outcome": {"kind": "missing_required", "path": "shop.Order.note"}}""", e -> { },
                "not for the missing note");
    }

    @Test
    void rejectsAChangedByte() {
        assertRejected(multipleOldReads, DEFAULT_CHANGED, e -> e.put("bytes", "08023a00"),
                "encodes to 08013a00");
        // The invalid-UTF-8 exception compares the string's bytes too: \376 is not \377.
        assertRejected(utf8NewReads, """
                {"writer": "note: \\"\\\\377\\"", "bytes": "0a01fe", "reader": "parsing throws",
                 "outcome": {"kind": "parse_failure", "why": "invalid UTF-8 in shop.Order.note"}}""", e -> { },
                "encodes to 0a01ff");
        assertRejected(cardinalityNewReads, MERGED, e -> outcome(e).put("elements", 3), "3 elements");
    }

    private static ObjectNode outcome(ObjectNode example) {
        return (ObjectNode) example.get("outcome");
    }

    private static void assertPasses(ExampleVerifier verifier, String example) {
        assertEquals(List.of(), verifier.problems(parse(example)), example);
    }

    private static void assertRejected(ExampleVerifier verifier, String example, Consumer<ObjectNode> breakIt,
                                       String because) {
        ObjectNode broken = parse(example);
        breakIt.accept(broken);
        List<String> problems = verifier.problems(broken);
        assertFalse(problems.isEmpty(), "accepted a wrong example: " + broken);
        assertFalse(problems.stream().noneMatch(p -> p.contains(because)),
                "rejected " + broken + " for another reason than `" + because + "`: " + problems);
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
