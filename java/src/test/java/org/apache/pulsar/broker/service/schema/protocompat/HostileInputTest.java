/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Inputs too big to commit, made here, through the real JNI path: each is answered (refused with
 * its rule, or checked) well within a hang bound, and the next check still works. The committed
 * catalogue of tests/fixtures/bad runs in {@link BadInputTest}.
 */
class HostileInputTest {

    /** Not a speed goal (BENCHMARKS.md has those): a hang detector, with room for a slow CI. */
    private static final Duration HANG_BOUND = Duration.ofSeconds(20);
    private static final ProtobufNativeSchemaAdvanceCompatibilityCheck CHECK =
            new ProtobufNativeSchemaAdvanceCompatibilityCheck();

    private static FieldDescriptorProto field(String name, int number, Type type) {
        return FieldDescriptorProto.newBuilder().setName(name).setNumber(number)
                .setLabel(Label.LABEL_OPTIONAL).setType(type).build();
    }

    private static FieldDescriptorProto messageField(String name, int number, String typeName) {
        return field(name, number, Type.TYPE_MESSAGE).toBuilder().setTypeName(typeName).build();
    }

    private static FileDescriptorProto.Builder file(String name) {
        return FileDescriptorProto.newBuilder().setName(name).setPackage("h").setSyntax("proto3");
    }

    private static DescriptorProto root(FieldDescriptorProto... fields) {
        return DescriptorProto.newBuilder().setName("Root").addAllField(List.of(fields)).build();
    }

    private static SchemaData data(FileDescriptorSet set) {
        String json = "{\"fileDescriptorSet\":\"" + Base64.getEncoder().encodeToString(set.toByteArray())
                + "\",\"rootMessageTypeName\":\"h.Root\",\"rootFileDescriptorName\":\"root.proto\"}";
        return schema(json.getBytes(StandardCharsets.UTF_8));
    }

    private static SchemaData single(FileDescriptorProto.Builder root) {
        return data(FileDescriptorSet.newBuilder().addFile(root).build());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
            Arguments.of("20 MB of schema data", (Supplier<SchemaData>) () -> {
                DescriptorProto big = root(field("pad", 1, Type.TYPE_STRING).toBuilder()
                        .setJsonName("x".repeat(20 << 20)).build());
                return single(file("root.proto").addMessageType(big));
            }, "RESOURCE_LIMIT_EXCEEDED", "over the limit of 16777216 (-Dprotocompat.limit.maxSchemaBytes=N"),
            Arguments.of("1,001 files", (Supplier<SchemaData>) () -> {
                FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
                FileDescriptorProto.Builder rootFile = file("root.proto").addMessageType(root());
                for (int i = 0; i < 1000; i++) {
                    set.addFile(file("f" + i + ".proto"));
                    rootFile.addDependency("f" + i + ".proto");
                }
                return data(set.addFile(rootFile).build());
            }, "RESOURCE_LIMIT_EXCEEDED", "has 1001 files, over the limit of 1000"),
            Arguments.of("50,001 messages", (Supplier<SchemaData>) () -> {
                FileDescriptorProto.Builder f = file("root.proto").addMessageType(root());
                for (int i = 0; i < 50_000; i++) {
                    f.addMessageType(DescriptorProto.newBuilder().setName("M" + i));
                }
                return single(f);
            }, "RESOURCE_LIMIT_EXCEEDED", "has 50001 messages, over the limit of 50000"),
            Arguments.of("100,001 fields", (Supplier<SchemaData>) () -> {
                DescriptorProto.Builder wide = DescriptorProto.newBuilder().setName("Root");
                for (int i = 1; i <= 100_001; i++) {
                    wide.addField(field("f" + i, i, Type.TYPE_BOOL));
                }
                return single(file("root.proto").addMessageType(wide));
            }, "RESOURCE_LIMIT_EXCEEDED", "has 100001 fields, over the limit of 100000"),
            Arguments.of("150 nested declarations", (Supplier<SchemaData>) () -> {
                DescriptorProto.Builder level = DescriptorProto.newBuilder().setName("L");
                for (int i = 0; i < 150; i++) {
                    level = DescriptorProto.newBuilder().setName("L").addNestedType(level);
                }
                return single(file("root.proto").addMessageType(root()).addMessageType(level));
            }, "SCHEMA_RECONSTRUCTION_FAILED", "recursion limit reached"),
            Arguments.of("field number 536,870,912", (Supplier<SchemaData>) () ->
                    single(file("root.proto").addMessageType(root(field("f", 536_870_912, Type.TYPE_BOOL)))),
                "SCHEMA_RECONSTRUCTION_FAILED", "invalid field number '536870912'")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void isRefusedFastAndTheNextCheckWorks(String name, Supplier<SchemaData> input, String rule, String says) {
        SchemaData hostile = input.get();
        SchemaData good = single(file("root.proto").addMessageType(root(field("id", 1, Type.TYPE_INT64))));
        IncompatibleSchemaException e = assertTimeoutPreemptively(HANG_BOUND, () -> assertThrows(
                IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(List.of(good), hostile, SchemaCompatibilityStrategy.FULL)));
        assertTrue(e.getMessage().startsWith(rule + ": new schema"), name + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(says), name + ": " + e.getMessage());
        assertTrue(e.getMessage().length() <= 4096);
        assertDoesNotThrow(() -> CHECK.checkCompatible(List.of(good), good, SchemaCompatibilityStrategy.FULL));
    }

    /** Field 536,870,911 (the largest) costs what field 1 costs: nothing is sized by it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("checked")
    void isCheckedWithinTheBound(String name, Supplier<SchemaData[]> pair, String finding) {
        SchemaData[] schemas = pair.get();
        assertTimeoutPreemptively(HANG_BOUND, () -> {
            if (finding == null) {
                CHECK.checkCompatible(List.of(schemas[0]), schemas[1], SchemaCompatibilityStrategy.FULL);
            } else {
                IncompatibleSchemaException e = assertThrows(IncompatibleSchemaException.class,
                        () -> CHECK.checkCompatible(List.of(schemas[0]), schemas[1],
                                SchemaCompatibilityStrategy.FULL));
                assertTrue(e.getMessage().contains(finding), e.getMessage());
            }
        });
    }

    static Stream<Arguments> checked() {
        return Stream.of(
            Arguments.of("sparse field numbers", (Supplier<SchemaData[]>) () -> new SchemaData[] {
                single(file("root.proto").addMessageType(root(field("a", 1, Type.TYPE_INT64),
                        field("z", 536_870_911, Type.TYPE_INT64)))),
                single(file("root.proto").addMessageType(root(field("a", 1, Type.TYPE_INT64),
                        messageField("z", 536_870_911, ".h.Root")))),
            }, "FIELD_KIND_CHANGED h.Root.z (field 536870911)"),
            Arguments.of("a 5,000-deep chain of references", (Supplier<SchemaData[]>) () -> {
                SchemaData[] versions = new SchemaData[2];
                for (int v = 0; v < 2; v++) {
                    FileDescriptorProto.Builder f = file("root.proto")
                            .addMessageType(root(messageField("next", 1, ".h.M0")));
                    for (int i = 0; i < 5000; i++) {
                        f.addMessageType(DescriptorProto.newBuilder().setName("M" + i)
                                .addField(messageField("next", 1, ".h.M" + (i + 1))));
                    }
                    f.addMessageType(DescriptorProto.newBuilder().setName("M5000")
                            .addField(field("value", 1, v == 0 ? Type.TYPE_INT32 : Type.TYPE_BYTES)));
                    versions[v] = single(f);
                }
                return versions;
            }, null),
            Arguments.of("mutually recursive types", (Supplier<SchemaData[]>) () -> {
                SchemaData[] versions = new SchemaData[2];
                for (int v = 0; v < 2; v++) {
                    versions[v] = single(file("root.proto")
                            .addMessageType(root(messageField("a", 1, ".h.A"), messageField("self", 2, ".h.Root")))
                            .addMessageType(DescriptorProto.newBuilder().setName("A")
                                    .addField(messageField("b", 1, ".h.B")))
                            .addMessageType(DescriptorProto.newBuilder().setName("B")
                                    .addField(messageField("a", 1, ".h.A"))
                                    .addField(messageField("root", 2, ".h.Root"))
                                    .addField(field("n", 3, v == 0 ? Type.TYPE_INT64 : Type.TYPE_STRING))));
                }
                return versions;
            }, null)
        );
    }
}
