/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of tests/fixtures/compat, tests/fixtures/editions and tests/fixtures/conservative
 * through the real JNI path, as the broker calls it, under the profile this JVM was started with
 * ({@code -Dprotocompat.profile}; the Maven build runs this class once per profile).
 */
class CompatFixturesTest {

    private static final ProtobufNativeSchemaAdvanceCompatibilityCheck CHECK =
            new ProtobufNativeSchemaAdvanceCompatibilityCheck();

    static Stream<CompatCase> cases() throws IOException {
        List<CompatCase> compat = Fixtures.compatCases();
        assertTrue(compat.size() >= 30, "compat fixture cases went missing");
        List<CompatCase> editions = Fixtures.editionsCases();
        assertTrue(editions.size() >= 31, "editions fixture cases went missing");
        List<CompatCase> conservative = Fixtures.conservativeCases();
        assertTrue(conservative.size() >= 17, "conservative fixture cases went missing");
        return Stream.of(compat, editions, conservative).flatMap(List::stream);
    }

    /** BACKWARD is canRead(existing = old, new); FORWARD is canRead(new, existing = old). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verdictAndFindingsPerDirection(CompatCase c) {
        verify(c, SchemaCompatibilityStrategy.BACKWARD, "old_writes_new_reads");
        verify(c, SchemaCompatibilityStrategy.FORWARD, "new_writes_old_reads");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fullIsBothDirections(CompatCase c) {
        boolean compatible = c.compatible("old_writes_new_reads") && c.compatible("new_writes_old_reads");
        List<String> failures = new ArrayList<>(c.failures("old_writes_new_reads"));
        failures.addAll(c.failures("new_writes_old_reads"));
        check(c, SchemaCompatibilityStrategy.FULL, compatible, failures);
        check(c, SchemaCompatibilityStrategy.FULL_TRANSITIVE, compatible, failures);
    }

    private static void verify(CompatCase c, SchemaCompatibilityStrategy strategy, String direction) {
        check(c, strategy, c.compatible(direction), c.failures(direction));
    }

    private static void check(CompatCase c, SchemaCompatibilityStrategy strategy, boolean compatible,
                              List<String> failures) {
        if (compatible) {
            try {
                CHECK.checkCompatible(schema(c.oldSchema()), schema(c.newSchema()), strategy);
            } catch (IncompatibleSchemaException e) {
                throw new AssertionError(c.name() + " under " + strategy + " should pass:\n" + e.getMessage(), e);
            }
            return;
        }
        IncompatibleSchemaException e = assertThrows(IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(List.of(schema(c.oldSchema())), schema(c.newSchema()), strategy),
                c.name() + " under " + strategy);
        String message = e.getMessage();
        assertTrue(message.startsWith("Incompatible PROTOBUF_NATIVE schema"), message);
        assertEquals(strategy.name(), Fixtures.summaryStrategy(message), message);
        assertTrue(message.lines().findFirst().orElseThrow().contains("(profile " + Fixtures.profile() + ")"),
                message);
        assertTrue(message.contains(failures.size() + " violation"), c.name() + ": " + message);
        for (String finding : failures) {
            // A report line starts "RULE path", then " (field N)", ": writer=…" or " [STRATEGY".
            assertTrue(message.lines().anyMatch(line -> line.startsWith(finding + " (")
                            || line.startsWith(finding + ": ") || line.startsWith(finding + " [")),
                    c.name() + " under " + strategy + " lacks " + finding + ":\n" + message);
        }
    }
}
