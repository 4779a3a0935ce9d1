/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.proto3;
import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The strategies (docs/rules.md#strategies) through the Java class and JNI. */
class StrategiesTest {

    private static final ProtobufNativeSchemaAdvanceCompatibilityCheck CHECK =
            new ProtobufNativeSchemaAdvanceCompatibilityCheck();
    private static final String TYPES = "message Money { int64 cents = 1; }\nmessage Price { int64 cents = 1; }\n";

    /** v3 conflicts with v1 only (FIELD_KIND_CHANGED on shop.Order.total). */
    private static SchemaData v1;
    private static SchemaData v2;
    private static SchemaData v3;

    @BeforeAll
    static void history() throws IOException {
        v1 = schema(proto3("message Order { int64 id = 1; Money total = 2; }\n" + TYPES));
        v2 = schema(proto3("message Order { int64 id = 1; }\n" + TYPES));
        v3 = schema(proto3("message Order { int64 id = 1; Price total = 2; }\n" + TYPES));
    }

    @Test
    void schemaTypeAndPublicNoArgConstructor() throws Exception {
        assertEquals(SchemaType.PROTOBUF_NATIVE, CHECK.getSchemaType());
        Object instance = Class.forName("org.apache.pulsar.broker.service.schema."
                + "ProtobufNativeSchemaAdvanceCompatibilityCheck").getConstructor().newInstance();
        assertTrue(instance instanceof org.apache.pulsar.broker.service.schema.SchemaCompatibilityCheck);
    }

    @ParameterizedTest
    @EnumSource(names = {"BACKWARD_TRANSITIVE", "FORWARD_TRANSITIVE", "FULL_TRANSITIVE"})
    void transitiveRejectsAConflictWithAnOldVersionInEitherOrder(SchemaCompatibilityStrategy strategy) {
        String oldestFirst = rejected(List.of(v1, v2), v3, strategy);
        String newestFirst = rejected(List.of(v2, v1), v3, strategy);
        assertTrue(oldestFirst.contains("FIELD_KIND_CHANGED shop.Order.total (field 2)"), oldestFirst);
        assertTrue(oldestFirst.contains("existing[0]"), oldestFirst);
        assertTrue(newestFirst.contains("existing[1]"), newestFirst);
        assertEquals(oldestFirst.lines().count(), newestFirst.lines().count());
        // The latest version alone, as the broker passes it for the non-transitive strategy.
        assertDoesNotThrow(() -> CHECK.checkCompatible(v2, v3, strategy));
    }

    @ParameterizedTest
    @EnumSource(names = {"BACKWARD", "FORWARD", "FULL"})
    void latestOnlyStrategiesStillCompareEverySchemaPassed(SchemaCompatibilityStrategy strategy) {
        assertDoesNotThrow(() -> CHECK.checkCompatible(List.of(v2), v3, strategy));
        rejected(List.of(v1, v2), v3, strategy);
        rejected(List.of(v1), v3, strategy);
    }

    @Test
    void alwaysCompatibleAcceptsAnything() {
        assertDoesNotThrow(() -> CHECK.checkCompatible(List.of(v1, v2), v3,
                SchemaCompatibilityStrategy.ALWAYS_COMPATIBLE));
    }

    @Test
    void alwaysIncompatibleRejectsEvenTheSameSchema() {
        String message = rejected(List.of(v3), v3, SchemaCompatibilityStrategy.ALWAYS_INCOMPATIBLE);
        assertTrue(message.contains("ALWAYS_INCOMPATIBLE"), message);
    }

    @Test
    void undefinedAndNullStrategiesAreRejected() {
        assertTrue(rejected(List.of(v1), v1, SchemaCompatibilityStrategy.UNDEFINED).contains("UNKNOWN_STRATEGY"));
        assertTrue(rejected(List.of(v1), v1, null).contains("UNKNOWN_STRATEGY"));
    }

    @ParameterizedTest
    @EnumSource(names = {"BACKWARD", "FORWARD", "FULL", "BACKWARD_TRANSITIVE", "FORWARD_TRANSITIVE",
            "FULL_TRANSITIVE", "ALWAYS_COMPATIBLE"})
    void anEmptyHistoryPasses(SchemaCompatibilityStrategy strategy) {
        assertDoesNotThrow(() -> CHECK.checkCompatible(List.of(), v3, strategy));
        assertDoesNotThrow(() -> CHECK.checkCompatible((Iterable<SchemaData>) null, v3, strategy));
    }

    /** The explicit table reaches the engine as the same strategy: the report names it. */
    @ParameterizedTest
    @EnumSource(SchemaCompatibilityStrategy.class)
    void everyPulsarStrategyHasItsOwnNativeCode(SchemaCompatibilityStrategy strategy) {
        assertNotEquals(StrategyCodes.UNKNOWN, StrategyCodes.codeOf(strategy), strategy.name());
        if (strategy == SchemaCompatibilityStrategy.ALWAYS_COMPATIBLE) {
            return;
        }
        String message = rejected(List.of(v1), v3, strategy);
        String named = Fixtures.summaryStrategy(message);
        if (strategy == SchemaCompatibilityStrategy.UNDEFINED) {
            assertTrue(message.contains("UNKNOWN_STRATEGY"), message);
        } else {
            assertEquals(strategy.name(), named, message);
        }
    }

    @Test
    void nativeCodesAreDistinct() {
        Set<Integer> codes = new HashSet<>();
        for (SchemaCompatibilityStrategy s : EnumSet.allOf(SchemaCompatibilityStrategy.class)) {
            assertTrue(codes.add(StrategyCodes.codeOf(s)), s.name());
        }
    }

    private static String rejected(List<SchemaData> from, SchemaData to, SchemaCompatibilityStrategy strategy) {
        IncompatibleSchemaException e = assertThrows(IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(from, to, strategy), String.valueOf(strategy));
        assertTrue(e.getMessage().length() <= 4096, "message over 4 KiB");
        return e.getMessage();
    }
}
