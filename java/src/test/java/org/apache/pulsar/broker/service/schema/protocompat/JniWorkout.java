/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.proto3;
import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;

import java.util.ArrayList;
import java.util.List;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;

/**
 * Every path through the native method, for a child JVM run with -Xcheck:jni: compatible,
 * compatible with a logged warning, incompatible, bad input, null data, a 3,000-version history.
 * Prints one line per outcome and a last line with the counts.
 */
public final class JniWorkout {

    public static void main(String[] args) throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        SchemaData v1 = schema(proto3("message Order { int32 id = 1; }\n"));
        SchemaData widened = schema(proto3("message Order { int64 id = 1; }\n"));
        SchemaData retyped = schema(proto3("message Order { Other id = 1; }\nmessage Other {}\n"));
        SchemaData bad = schema("not json".getBytes());
        List<SchemaData> history = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            history.add(v1);
        }
        int passed = 0;
        int rejected = 0;
        Object[][] calls = {
            {List.of(v1), v1}, {List.of(v1), widened}, {List.of(v1), retyped}, {List.of(v1), bad},
            {List.of(v1), null}, {history, v1}, {history, retyped},
        };
        for (Object[] call : calls) {
            @SuppressWarnings("unchecked")
            List<SchemaData> from = (List<SchemaData>) call[0];
            try {
                check.checkCompatible(from, (SchemaData) call[1], SchemaCompatibilityStrategy.FULL_TRANSITIVE);
                passed++;
                System.out.println("passed");
            } catch (IncompatibleSchemaException e) {
                rejected++;
                System.out.println("rejected: " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        System.out.println("WORKOUT passed=" + passed + " rejected=" + rejected);
    }
}
