/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The native caches as an operator configures them with system properties. */
class CacheTest {

    @Test
    void defaultsCacheEverySchemaOnceAndWarmVerdictsMatchCold() throws Exception {
        long[] stats = stats(ChildJvm.run(List.of(), CacheMain.class).output());
        // 35 cases, two schemas each (some identical across cases), run twice.
        assertTrue(stats[0] > 35 && stats[0] <= 70, java.util.Arrays.toString(stats));
        assertEquals(stats[0], stats[1], "every schema fits the decoded cache");
        assertArrayEquals(new long[] {50_000, 256L << 20, 100_000}, new long[] {stats[4], stats[5], stats[6]});
    }

    @Test
    void boundsComeFromSystemProperties() throws Exception {
        String out = ChildJvm.run(List.of("-Dprotocompat.cache.maxSchemas=3",
                "-Dprotocompat.cache.maxDecodedBytes=0", "-Dprotocompat.cache.maxVerdicts=5"),
                CacheMain.class).output();
        long[] stats = stats(out);
        assertTrue(stats[0] <= 3 && stats[1] == 0 && stats[2] == 0 && stats[3] <= 5, out);
        assertArrayEquals(new long[] {3, 0, 5}, new long[] {stats[4], stats[5], stats[6]});
        // Rejections are the same as with the default caches: the cache never changes a verdict.
        assertEquals(rejected(ChildJvm.run(List.of(), CacheMain.class).output()), rejected(out));
    }

    @Test
    void limitsComeFromSystemProperties() throws Exception {
        String defaultsOut = ChildJvm.run(List.of(), CacheMain.class).output();
        assertArrayEquals(new long[] {16L << 20, 1000, 50_000, 500_000, 50_000_000},
                java.util.Arrays.copyOfRange(stats(defaultsOut), 7, 12));
        // Three fields per schema: every fixture is now refused.
        String out = ChildJvm.run(List.of("-Dprotocompat.limit.maxFields=3"), CacheMain.class).output();
        assertEquals(3, stats(out)[10]);
        assertTrue(rejected(out) > rejected(defaultsOut), out);
    }

    @Test
    void anInvalidBoundIsNamed() throws Exception {
        String out = ChildJvm.run(List.of("-Dprotocompat.cache.maxSchemas=lots"), CacheMain.class).output();
        assertTrue(out.contains("-Dprotocompat.cache.maxSchemas=lots is not a whole number"), out);
    }

    @Test
    void clearingEmptiesTheCaches() throws Exception {
        NativeLibrary.ensureLoaded();
        NativeChecker.clearCaches();
        long[] stats = NativeChecker.cacheStats();
        assertEquals(0, stats[0] + stats[1] + stats[2] + stats[3]);
    }

    private static long[] stats(String out) {
        Matcher m = Pattern.compile("STATS \\[([0-9, ]+)\\]").matcher(out);
        assertTrue(m.find(), out);
        long[] values = java.util.Arrays.stream(m.group(1).split(", ")).mapToLong(Long::parseLong).toArray();
        assertEquals(12, values.length, out);
        return values;
    }

    private static int rejected(String out) {
        Matcher m = Pattern.compile("rejected=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        return Integer.parseInt(m.group(1));
    }
}
