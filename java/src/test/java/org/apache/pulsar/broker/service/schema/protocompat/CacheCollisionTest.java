/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.junit.jupiter.api.Test;

/**
 * The cache attack through JNI (docs/rules.md#remembered-results): {@code tests/fixtures/attacks}
 * holds an accepted schema and a twin with another root message whose XXH3-128 hashes are equal
 * (made by {@code rust/engine/tests/attacks.rs} from XXH3's published algorithm). A checker that
 * had accepted the first once took the twin for it; the twin must be checked as itself.
 */
class CacheCollisionTest {

    private static SchemaData fixture(String name) throws Exception {
        return schema(Files.readAllBytes(Fixtures.root().resolve("attacks").resolve(name)));
    }

    @Test
    void aTwinCollidingWithAnAcceptedSchemaIsRejected() throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        SchemaData base = fixture("xxh3_base.schema");
        SchemaData accepted = fixture("xxh3_accepted.schema");
        SchemaData twin = fixture("xxh3_twin.schema");
        for (int round = 0; round < 2; round++) {
            assertDoesNotThrow(() -> check.checkCompatible(List.of(base), accepted, SchemaCompatibilityStrategy.FULL));
            IncompatibleSchemaException afterAccepted = assertThrows(IncompatibleSchemaException.class,
                    () -> check.checkCompatible(List.of(base), twin, SchemaCompatibilityStrategy.FULL));
            assertTrue(afterAccepted.getMessage().contains("ROOT_MESSAGE_CHANGED shop.Other"),
                    afterAccepted.getMessage());
            IncompatibleSchemaException againstAccepted = assertThrows(IncompatibleSchemaException.class,
                    () -> check.checkCompatible(List.of(accepted), twin, SchemaCompatibilityStrategy.FULL));
            assertTrue(againstAccepted.getMessage().contains("ROOT_MESSAGE_CHANGED"), againstAccepted.getMessage());
        }
    }
}
