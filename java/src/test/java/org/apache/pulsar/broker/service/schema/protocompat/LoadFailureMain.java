/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.util.List;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;

/** Builds the checker and checks one schema, printing what a broker would log and answer. */
public final class LoadFailureMain {
    public static void main(String[] args) {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        try {
            check.checkCompatible(List.of(), Fixtures.schema("{}".getBytes()), SchemaCompatibilityStrategy.FULL);
            System.out.println("RESULT accepted");
        } catch (IncompatibleSchemaException e) {
            System.out.println("RESULT rejected: " + e.getMessage());
        }
    }
}
