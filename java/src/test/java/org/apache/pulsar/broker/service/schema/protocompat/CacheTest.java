/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The native caches as an operator configures them with system properties. */
class CacheTest {

    @Test
    void defaultsCacheEverySchemaOnceAndWarmVerdictsMatchCold() throws Exception {
        Map<String, Long> stats = stats(ChildJvm.run(List.of(), CacheMain.class).output());
        // 35 cases, two schemas each (some identical across cases), run twice.
        assertTrue(stats.get("schemas") > 35 && stats.get("schemas") <= 70, stats.toString());
        assertEquals(stats.get("schemas"), stats.get("decoded"), "every schema fits the decoded cache");
        assertTrue(stats.get("schemaDataBytes") > 0 && stats.get("verdictBytes") > 0, stats.toString());
        assertEquals(List.of(50_000L, 64L << 20, 256L << 20, 100_000L, 32L << 20),
                List.of(stats.get("cache.maxSchemas"), stats.get("cache.maxSchemaDataBytes"),
                        stats.get("cache.maxDecodedBytes"), stats.get("cache.maxVerdicts"),
                        stats.get("cache.maxVerdictBytes")));
    }

    @Test
    void boundsComeFromSystemProperties() throws Exception {
        String out = ChildJvm.run(List.of("-Dprotocompat.cache.maxSchemas=3",
                "-Dprotocompat.cache.maxDecodedBytes=0", "-Dprotocompat.cache.maxVerdicts=5",
                "-Dprotocompat.cache.maxVerdictBytes=100000"), CacheMain.class).output();
        Map<String, Long> stats = stats(out);
        assertTrue(stats.get("schemas") <= 3 && stats.get("decoded") == 0 && stats.get("decodedBytes") == 0
                && stats.get("verdicts") <= 5 && stats.get("verdictBytes") <= 100_000, out);
        assertEquals(List.of(3L, 0L, 5L, 100_000L), List.of(stats.get("cache.maxSchemas"),
                stats.get("cache.maxDecodedBytes"), stats.get("cache.maxVerdicts"),
                stats.get("cache.maxVerdictBytes")));
        // Rejections are the same as with the default caches: the cache never changes a verdict.
        assertEquals(rejected(ChildJvm.run(List.of(), CacheMain.class).output()), rejected(out));
    }

    @Test
    void limitsComeFromSystemProperties() throws Exception {
        String defaultsOut = ChildJvm.run(List.of(), CacheMain.class).output();
        Map<String, Long> defaults = stats(defaultsOut);
        assertEquals(List.of(16L << 20, 1000L, 50_000L, 100_000L, 50_000_000L),
                List.of(defaults.get("limit.maxSchemaBytes"), defaults.get("limit.maxFiles"),
                        defaults.get("limit.maxMessages"), defaults.get("limit.maxFields"),
                        defaults.get("limit.maxFieldComparisons")));
        // Three fields per schema: every fixture is now refused.
        String out = ChildJvm.run(List.of("-Dprotocompat.limit.maxFields=3"), CacheMain.class).output();
        assertEquals(3, stats(out).get("limit.maxFields"));
        assertTrue(rejected(out) > rejected(defaultsOut), out);
    }

    /** The CPU backstop under the work budget is a setting too; with no CPU time at all, a check
     *  that decodes anything is refused, naming it. */
    @Test
    void theCpuBackstopComesFromASystemProperty() throws Exception {
        String defaultsOut = ChildJvm.run(List.of(), CacheMain.class).output();
        assertEquals(10_000L, stats(defaultsOut).get("limit.maxCheckCpuMillis"));
        String out = ChildJvm.run(List.of("-Dprotocompat.limit.maxCheckCpuMillis=0"), CacheMain.class).output();
        assertEquals(0, stats(out).get("limit.maxCheckCpuMillis"));
        assertTrue(rejected(out) > rejected(defaultsOut), out);
        assertTrue(out.contains("FIRST RESOURCE_LIMIT_EXCEEDED") && out.contains("over its budget of 0 ms")
                && out.contains("limit.maxCheckCpuMillis"), out);
    }

    @Test
    void anInvalidOrUnknownSettingIsNamed() throws Exception {
        String out = ChildJvm.run(List.of("-Dprotocompat.cache.maxSchemas=lots"), CacheMain.class).output();
        assertTrue(out.contains("-Dprotocompat.cache.maxSchemas=lots is not a whole number of 0 or more "
                + "(the default is 50000)"), out);
        String unknown = ChildJvm.run(List.of("-Dprotocompat.limit.maxFeilds=3"), CacheMain.class).output();
        assertTrue(unknown.contains("unknown setting -Dprotocompat.limit.maxFeilds; the settings are "), unknown);
        assertTrue(unknown.contains("-Dprotocompat.limit.maxFields"), unknown);
    }

    /** The rule profile is a setting too: a known name checks as before, an unknown one is named. */
    @Test
    void theProfileComesFromASystemProperty() throws Exception {
        String named = ChildJvm.run(List.of("-Dprotocompat.profile=pip246"), CacheMain.class).output();
        assertEquals(rejected(ChildJvm.run(List.of(), CacheMain.class).output()), rejected(named));
        String unknown = ChildJvm.run(List.of("-Dprotocompat.profile=strict"), CacheMain.class).output();
        assertTrue(unknown.contains("RESULT unavailable: "), unknown);
        assertTrue(unknown.contains(
                "-Dprotocompat.profile=strict: unknown profile `strict`; the profiles are pip246, conservative"), unknown);
    }

    @Test
    void clearingEmptiesTheCaches() throws Exception {
        NativeLibrary.ensureLoaded();
        NativeChecker.clearCaches();
        Map<String, Long> stats = parse(NativeChecker.cacheStats());
        assertEquals(0, stats.get("schemas") + stats.get("decoded") + stats.get("decodedBytes")
                + stats.get("verdicts") + stats.get("schemaDataBytes") + stats.get("verdictBytes"));
    }

    private static Map<String, Long> stats(String out) {
        Matcher m = Pattern.compile("STATS (.*) rejected=").matcher(out);
        assertTrue(m.find(), out);
        return parse(m.group(1));
    }

    private static Map<String, Long> parse(String pairs) {
        Map<String, Long> values = new HashMap<>();
        for (String pair : pairs.trim().split(" ")) {
            String[] nameValue = pair.split("=", 2);
            values.put(nameValue[0], Long.parseLong(nameValue[1]));
        }
        assertTrue(values.containsKey("schemas") && values.containsKey("limit.maxFieldComparisons"), pairs);
        return values;
    }

    private static int rejected(String out) {
        Matcher m = Pattern.compile("rejected=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        return Integer.parseInt(m.group(1));
    }
}
