/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import io.prometheus.client.CollectorRegistry;
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
        // What the broker's /metrics would show.
        System.out.println("METRIC native_library_loaded="
                + CollectorRegistry.defaultRegistry.getSampleValue("protocompat_native_library_loaded")
                + " error_checks=" + CollectorRegistry.defaultRegistry.getSampleValue("protocompat_checks_total",
                        new String[] {"result", "profile"}, new String[] {"error", "pip246"}));
    }
}
