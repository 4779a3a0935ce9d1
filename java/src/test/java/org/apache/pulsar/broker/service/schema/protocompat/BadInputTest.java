/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.proto3;
import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.BadCase;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogues of tests/fixtures/bad and tests/fixtures/editions/bad: each arrives as
 * IncompatibleSchemaException.
 */
class BadInputTest {

    private static final ProtobufNativeSchemaAdvanceCompatibilityCheck CHECK =
            new ProtobufNativeSchemaAdvanceCompatibilityCheck();
    private static SchemaData good;

    @BeforeAll
    static void goodSchema() throws IOException {
        good = schema(proto3("message Order { int64 id = 1; }\n"));
    }

    static Stream<BadCase> cases() throws IOException {
        List<BadCase> bad = Fixtures.badCases();
        assertTrue(bad.size() >= 25, "the catalogue shrank");
        List<BadCase> editions = Fixtures.editionsBadCases();
        assertTrue(editions.size() >= 9, "the editions catalogue shrank");
        return Stream.concat(bad.stream(), editions.stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void asTheNewSchema(BadCase c) {
        String message = rejected(List.of(good), schema(c.data()));
        assertTrue(message.startsWith(c.rule() + ": new schema (sha256 "), message);
        assertEquals(List.of(), c.missingFrom(message), message);
        assertDoesNotThrow(() -> CHECK.checkCompatible(good, good, SchemaCompatibilityStrategy.FULL),
                "the next check still works");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void asAnExistingSchema(BadCase c) {
        String message = rejected(List.of(good, schema(c.data())), good);
        assertTrue(message.startsWith(c.rule() + ": existing[1] (sha256 "), message);
        assertEquals(List.of(), c.missingFrom(message), message);
    }

    @Test
    void missingDataIsNamed() {
        assertTrue(rejected(List.of(good), null).contains("the new schema has no schema data"));
        SchemaData empty = SchemaData.builder().type(SchemaType.PROTOBUF_NATIVE).build();
        assertTrue(rejected(List.of(good), empty).contains("the new schema has no schema data"));
        assertTrue(rejected(Arrays.asList(good, null), good).contains("existing[1] has no schema data"));
    }

    private static String rejected(List<SchemaData> from, SchemaData to) {
        IncompatibleSchemaException e = assertThrows(IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(from, to, SchemaCompatibilityStrategy.FULL_TRANSITIVE));
        assertTrue(e.getMessage().length() <= 4096);
        return e.getMessage();
    }
}
