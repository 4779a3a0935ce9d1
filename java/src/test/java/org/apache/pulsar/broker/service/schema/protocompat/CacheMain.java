/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;

import java.util.List;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;

/** Checks every compat fixture twice and prints the cache figures and the verdict counts. */
public final class CacheMain {
    public static void main(String[] args) throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        String unavailable = NativeLibrary.ensureLoaded();
        if (unavailable != null) {
            System.out.println("RESULT unavailable: " + unavailable);
            return;
        }
        int rejected = 0;
        String first = null;
        for (int round = 0; round < 2; round++) {
            for (Fixtures.CompatCase c : Fixtures.compatCases()) {
                try {
                    check.checkCompatible(List.of(schema(c.oldSchema())), schema(c.newSchema()),
                            SchemaCompatibilityStrategy.FULL);
                } catch (IncompatibleSchemaException e) {
                    rejected++;
                    if (first == null) {
                        first = e.getMessage();
                    }
                }
            }
        }
        System.out.println("STATS " + NativeChecker.cacheStats() + " rejected=" + rejected);
        if (first != null) {
            System.out.println("FIRST " + first.lines().findFirst().orElse(""));
        }
    }
}
