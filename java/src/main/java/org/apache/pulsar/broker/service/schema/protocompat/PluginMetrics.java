/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import io.prometheus.client.Collector;
import io.prometheus.client.Counter;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.Histogram;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's metrics, in the Prometheus client's default registry, which the broker's
 * {@code /metrics} endpoint exports with its own. Labels are bounded sets (results, profiles,
 * rule IDs, cache names): no schema, topic or field name ever becomes one, so no upload can
 * inflate them.
 */
public final class PluginMetrics {

    private static final Logger LOG = LoggerFactory.getLogger(
            "org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck");

    private static final AtomicBoolean REGISTERED = new AtomicBoolean();
    private static volatile Recorder recorder;

    private PluginMetrics() {
    }

    /**
     * Registers the metrics once per class loader. Outside a broker (the validator API in an
     * application's tests) the Prometheus client may be absent: then nothing is recorded.
     */
    public static void register() {
        if (!REGISTERED.compareAndSet(false, true)) {
            return;
        }
        try {
            recorder = new Recorder(System.getProperty("protocompat.profile", "pip246"));
        } catch (LinkageError | RuntimeException e) {
            LOG.warn("PROTOBUF_NATIVE checker metrics are not exported: {}", e.toString());
        }
    }

    /** A compatible verdict, with how long the check took and whether the caches gave it. */
    public static void compatible(long nanos, boolean fromCaches) {
        Recorder r = recorder;
        if (r != null) {
            r.record("compatible", nanos, fromCaches);
        }
    }

    /** A rejection from the native side: incompatible, bad input, or an internal error. */
    public static void rejected(long nanos, ProtocompatException e) {
        Recorder r = recorder;
        if (r != null) {
            String kind = e.kind();
            r.record(kind, nanos, e.fromCaches());
            if (!"error".equals(kind)) {
                for (String rule : e.rules()) {
                    r.rejections.labels(rule).inc();
                }
            }
        }
    }

    /** A check that could not run: the library is not loaded, or the call itself failed. */
    public static void failed(long nanos) {
        Recorder r = recorder;
        if (r != null) {
            r.record("error", nanos, false);
        }
    }

    private static final class Recorder {
        private final String profile;
        private final Counter checks = Counter.build()
                .name("protocompat_checks")
                .help("PROTOBUF_NATIVE compatibility checks by result (compatible, incompatible, bad_input, "
                        + "error) and rule profile")
                .labelNames("result", "profile")
                .register();
        private final Counter rejections = Counter.build()
                .name("protocompat_rejections")
                .help("Rejected PROTOBUF_NATIVE schemas by rule ID (a rejection counts once for each rule it broke)")
                .labelNames("rule")
                .register();
        private final Histogram duration = Histogram.build()
                .name("protocompat_check_duration_seconds")
                .help("Time of one PROTOBUF_NATIVE check: warm when the caches answered it, cold when schemas were "
                        + "decoded and compared")
                .labelNames("cache")
                .buckets(0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5)
                .register();

        Recorder(String profile) {
            this.profile = profile;
            new NativeState(profile).register();
        }

        void record(String result, long nanos, boolean fromCaches) {
            checks.labels(result, profile).inc();
            duration.labels(fromCaches ? "warm" : "cold").observe(nanos / (double) TimeUnit.SECONDS.toNanos(1));
        }
    }

    /** What the native library holds, read at each scrape. */
    private static final class NativeState extends Collector {
        /** The jar's version, from its manifest; "unknown" when the classes are not in a jar. */
        private static final String VERSION = version();

        private final String profile;

        NativeState(String profile) {
            this.profile = profile;
        }

        private static String version() {
            String version = PluginMetrics.class.getPackage().getImplementationVersion();
            return version == null ? "unknown" : version;
        }

        @Override
        public List<MetricFamilySamples> collect() {
            List<MetricFamilySamples> samples = new ArrayList<>();
            // Which checker this broker runs, for `protocompat brokers` and dashboards: every broker
            // that can own a topic must show the same profile and version (operator's guide, 3).
            GaugeMetricFamily info = new GaugeMetricFamily("protocompat_info",
                    "1 on a broker whose PROTOBUF_NATIVE checker is this plugin, with its rule profile and version",
                    List.of("profile", "version"));
            info.addMetric(List.of(profile, VERSION), 1);
            samples.add(info);
            boolean loaded = NativeLibrary.ensureLoaded() == null;
            samples.add(new GaugeMetricFamily("protocompat_native_library_loaded",
                    "1 when the native PROTOBUF_NATIVE checker is loaded; 0 means every such schema is rejected",
                    loaded ? 1 : 0));
            if (!loaded) {
                return samples;
            }
            Map<String, Double> stats = new HashMap<>();
            try {
                for (String pair : NativeChecker.cacheStats().split(" ")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0) {
                        try {
                            stats.put(pair.substring(0, equals), Double.parseDouble(pair.substring(equals + 1)));
                        } catch (NumberFormatException notANumber) {
                            // a setting such as profile=pip246
                        }
                    }
                }
            } catch (ProtocompatException | RuntimeException | LinkageError e) {
                return samples;
            }
            GaugeMetricFamily entries = new GaugeMetricFamily("protocompat_cache_entries",
                    "Entries in each native cache", List.of("cache"));
            GaugeMetricFamily bytes = new GaugeMetricFamily("protocompat_cache_bytes",
                    "Bytes each native cache holds", List.of("cache"));
            for (String[] cache : new String[][] {
                    {"schemas", "schemas", "schemaDataBytes"},
                    {"decoded", "decoded", "decodedBytes"},
                    {"verdicts", "verdicts", "verdictBytes"}}) {
                entries.addMetric(List.of(cache[0]), stats.getOrDefault(cache[1], 0.0));
                bytes.addMetric(List.of(cache[0]), stats.getOrDefault(cache[2], 0.0));
            }
            CounterMetricFamily lookups = new CounterMetricFamily("protocompat_verdict_cache_lookups",
                    "Pairwise results looked up in the verdict cache: hit, or miss (then compared); the hit ratio "
                            + "is hit / (hit + miss)", List.of("result"));
            lookups.addMetric(List.of("hit"), stats.getOrDefault("verdictHits", 0.0));
            lookups.addMetric(List.of("miss"), stats.getOrDefault("verdictMisses", 0.0));
            samples.add(entries);
            samples.add(bytes);
            samples.add(lookups);
            samples.add(new GaugeMetricFamily("protocompat_last_check_peak_bytes",
                    "Heap the last check held at its peak", stats.getOrDefault("lastCheckPeakBytes", 0.0)));
            return samples;
        }
    }
}
