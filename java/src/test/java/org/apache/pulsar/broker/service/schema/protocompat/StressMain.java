/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;

/**
 * Many threads share one checker for a run of mixed checks (every compat fixture under every
 * strategy, every bad input, transitive histories), comparing each answer with the answer one
 * thread gave first. Prints resident memory after warm-up and at the end, and the counts.
 * Arguments: threads, seconds.
 */
public final class StressMain {

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        List<Call> calls = new ArrayList<>();
        List<Fixtures.CompatCase> compat = Fixtures.compatCases();
        for (Fixtures.CompatCase c : compat) {
            for (SchemaCompatibilityStrategy s : SchemaCompatibilityStrategy.values()) {
                calls.add(new Call(List.of(schema(c.oldSchema())), schema(c.newSchema()), s));
            }
            // A transitive history made of every old schema so far.
            List<SchemaData> history = new ArrayList<>();
            for (Fixtures.CompatCase earlier : compat) {
                history.add(schema(earlier.oldSchema()));
                if (earlier == c) {
                    break;
                }
            }
            calls.add(new Call(history, schema(c.newSchema()), SchemaCompatibilityStrategy.FULL_TRANSITIVE));
        }
        for (Fixtures.BadCase b : Fixtures.badCases()) {
            calls.add(new Call(List.of(schema(compat.get(0).oldSchema())), schema(b.data()),
                    SchemaCompatibilityStrategy.FULL));
        }
        List<String> expected = new ArrayList<>();
        for (Call call : calls) {
            expected.add(call.run(check));
        }
        System.out.println("STRESS calls=" + calls.size() + " rss_after_warmup_kb=" + rssKb());

        AtomicLong done = new AtomicLong();
        AtomicLong mismatches = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int offset = t * 13;
            futures.add(pool.submit(() -> {
                for (int i = offset; System.nanoTime() < deadline; i++) {
                    int index = i % calls.size();
                    if (!expected.get(index).equals(calls.get(index).run(check))) {
                        mismatches.incrementAndGet();
                    }
                    done.incrementAndGet();
                }
            }));
        }
        // Resident memory at each fifth of the run: after warm-up it must stay flat.
        StringBuilder series = new StringBuilder();
        for (int fifth = 1; fifth <= 5; fifth++) {
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds) / 5);
            series.append(fifth == 1 ? "" : ",").append(rssKb());
        }
        for (Future<?> future : futures) {
            future.get();
        }
        System.out.println("STRESS rss_kb_each_fifth=" + series);
        pool.shutdown();
        System.gc();
        System.out.println("STRESS threads=" + threads + " seconds=" + seconds + " checks=" + done.get()
                + " mismatches=" + mismatches.get() + " rss_end_kb=" + rssKb());
    }

    private record Call(List<SchemaData> from, SchemaData to, SchemaCompatibilityStrategy strategy) {
        String run(ProtobufNativeSchemaAdvanceCompatibilityCheck check) {
            try {
                check.checkCompatible(from, to, strategy);
                return "compatible";
            } catch (IncompatibleSchemaException e) {
                return e.getMessage();
            }
        }
    }

    private static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
