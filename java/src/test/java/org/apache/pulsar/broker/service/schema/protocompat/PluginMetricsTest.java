/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.proto3;
import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.client.CollectorRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.junit.jupiter.api.Test;

/**
 * The plugin's metrics in the Prometheus default registry (what the broker's /metrics exports)
 * move with each kind of check; BrokerMetricsIT scrapes them from a real broker.
 */
class PluginMetricsTest {

    private static final ProtobufNativeSchemaAdvanceCompatibilityCheck CHECK =
            new ProtobufNativeSchemaAdvanceCompatibilityCheck();
    private static final String PROFILE = System.getProperty("protocompat.profile", "pip246");

    private static double value(String name, String[] labels, String... values) {
        Double value = CollectorRegistry.defaultRegistry.getSampleValue(name, labels, values);
        return value == null ? 0 : value;
    }

    private static double checks(String result) {
        return value("protocompat_checks_total", new String[] {"result", "profile"}, result, PROFILE);
    }

    private static double durations(String cache) {
        return value("protocompat_check_duration_seconds_count", new String[] {"cache"}, cache);
    }

    @Test
    void eachResultIsCountedWithItsRulesAndCacheUse() throws Exception {
        // A history of its own, so that the first check is cold whatever ran before.
        String id = "metrics" + System.nanoTime();
        SchemaData v1 = schema(proto3("message Order { int64 id = 1; string " + id + " = 2; }\n"));
        SchemaData v2 = schema(proto3("message Order { int64 id = 1; string " + id + " = 3; }\n"));
        double compatible = checks("compatible");
        double incompatible = checks("incompatible");
        double badInput = checks("bad_input");
        double cold = durations("cold");
        double warm = durations("warm");
        double renumbered = value("protocompat_rejections_total", new String[] {"rule"}, "FIELD_NUMBER_CHANGED");
        double hits = value("protocompat_verdict_cache_lookups_total", new String[] {"result"}, "hit");
        double unreadable = value("protocompat_rejections_total", new String[] {"rule"}, "SCHEMA_RECONSTRUCTION_FAILED");

        CHECK.checkCompatible(List.of(v1), v1, SchemaCompatibilityStrategy.FULL);
        SchemaData v1Again = schema(v1.getData().clone());
        assertThrows(IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(List.of(v1), v2, SchemaCompatibilityStrategy.FULL));
        assertThrows(IncompatibleSchemaException.class,
                () -> CHECK.checkCompatible(List.of(v1), v2, SchemaCompatibilityStrategy.FULL));
        assertThrows(IncompatibleSchemaException.class, () -> CHECK.checkCompatible(List.of(v1),
                schema("not json".getBytes(StandardCharsets.UTF_8)), SchemaCompatibilityStrategy.FULL));
        CHECK.checkCompatible(List.of(v1Again), v1, SchemaCompatibilityStrategy.BACKWARD);

        assertEquals(compatible + 2, checks("compatible"));
        assertEquals(incompatible + 2, checks("incompatible"));
        assertEquals(badInput + 1, checks("bad_input"));
        // v1 against itself never walks (same bytes); the first v1/v2 check does, the second
        // is answered by the verdict cache.
        assertEquals(renumbered + 2,
                value("protocompat_rejections_total", new String[] {"rule"}, "FIELD_NUMBER_CHANGED"));
        assertEquals(cold + 2, durations("cold"), "the first v1/v2 check, and the bad input");
        assertEquals(warm + 3, durations("warm"), "v1 against itself twice, and the second v1/v2 check");
        assertTrue(value("protocompat_verdict_cache_lookups_total", new String[] {"result"}, "hit") >= hits + 2);
        assertEquals(1, value("protocompat_native_library_loaded", new String[0]));
        // Outside a jar (target/classes) the manifest's version is not there.
        assertEquals(1, value("protocompat_info", new String[] {"profile", "version"}, PROFILE, "unknown"));
        assertTrue(value("protocompat_cache_entries", new String[] {"cache"}, "schemas") >= 3);
        assertTrue(value("protocompat_cache_bytes", new String[] {"cache"}, "verdicts") > 0);
        assertEquals(unreadable + 1,
                value("protocompat_rejections_total", new String[] {"rule"}, "SCHEMA_RECONSTRUCTION_FAILED"),
                "bad input is counted under its rule");
    }
}
