/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.BadCase;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.junit.jupiter.api.Test;

/** Many threads, one shared checker: the same verdicts and messages as one thread. */
class ConcurrencyTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 20;

    @Test
    void sharedCheckerGivesSingleThreadedVerdicts() throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        List<String> expected = new ArrayList<>();
        List<CompatCase> compat = Fixtures.compatCases();
        List<BadCase> bad = Fixtures.badCases();
        List<Callable<String>> calls = new ArrayList<>();
        for (CompatCase c : compat) {
            calls.add(() -> verdict(check, List.of(schema(c.oldSchema())), schema(c.newSchema())));
        }
        for (BadCase c : bad) {
            calls.add(() -> verdict(check, List.of(schema(compat.get(0).oldSchema())), schema(c.data())));
        }
        for (Callable<String> call : calls) {
            expected.add(call.call());
        }

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int offset = t;
                results.add(pool.submit(() -> {
                    List<String> seen = new ArrayList<>();
                    for (int round = 0; round < ROUNDS; round++) {
                        for (int i = 0; i < calls.size(); i++) {
                            // Each thread walks the calls from a different start.
                            int index = (i + offset * 7) % calls.size();
                            seen.add(index + "=" + calls.get(index).call());
                        }
                    }
                    return seen;
                }));
            }
            for (Future<List<String>> result : results) {
                for (String entry : result.get(5, TimeUnit.MINUTES)) {
                    int split = entry.indexOf('=');
                    int index = Integer.parseInt(entry.substring(0, split));
                    assertEquals(expected.get(index), entry.substring(split + 1), "call " + index);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String verdict(ProtobufNativeSchemaAdvanceCompatibilityCheck check,
                                  List<SchemaData> from,
                                  SchemaData to) {
        try {
            check.checkCompatible(from, to, SchemaCompatibilityStrategy.FULL);
            return "compatible";
        } catch (IncompatibleSchemaException e) {
            return e.getMessage();
        }
    }
}
