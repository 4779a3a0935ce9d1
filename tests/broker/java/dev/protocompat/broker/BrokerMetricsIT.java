/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The plugin's metrics on the broker's own Prometheus endpoint: scraped before and after an
 * accepted and a rejected upload, the counters move by what happened.
 */
class BrokerMetricsIT extends WithBroker {

    private static String scrape() throws Exception {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(broker.webUrl() + "/metrics/")).timeout(Duration.ofSeconds(30))
                        .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        return metrics.body();
    }

    /** The value of the sample {@code name} whose labels include {@code labels} (0 if none). */
    private static double value(String scrape, String name, String... labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)\\} ([0-9.eE+-]+)$").matcher(scrape);
        double total = 0;
        while (m.find()) {
            boolean all = true;
            for (String label : labels) {
                all &= m.group(1).contains(label);
            }
            if (all) {
                total += Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    @Test
    void acceptedAndRejectedUploadsMoveTheCounters() throws Exception {
        rest.createNamespace("public/metrics", "FULL");
        String topic = "public/metrics/orders";
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        String before = scrape();
        assertTrue(before.contains("protocompat_native_library_loaded"), before.lines()
                .filter(l -> l.contains("protocompat")).findFirst().orElse("no protocompat metric in /metrics"));

        assertEquals(200, rest.upload(topic, Shop.version(2)).status());
        assertEquals(409, rest.upload(topic, Shop.version(3)).status());
        String after = scrape();

        String pip246 = "profile=\"pip246\"";
        assertEquals(value(before, "protocompat_checks_total", "result=\"compatible\"", pip246) + 1,
                value(after, "protocompat_checks_total", "result=\"compatible\"", pip246));
        assertEquals(value(before, "protocompat_checks_total", "result=\"incompatible\"", pip246) + 1,
                value(after, "protocompat_checks_total", "result=\"incompatible\"", pip246));
        for (String rule : new String[] {"FIELD_NUMBER_CHANGED", "PACKED_TO_EXPANDED", "FIELD_KIND_CHANGED"}) {
            assertEquals(value(before, "protocompat_rejections_total", "rule=\"" + rule + "\"") + 1,
                    value(after, "protocompat_rejections_total", "rule=\"" + rule + "\""), rule);
        }
        assertEquals(value(before, "protocompat_check_duration_seconds_count", "cache=\"cold\"") + 2,
                value(after, "protocompat_check_duration_seconds_count", "cache=\"cold\""));
        assertEquals(1, value(after, "protocompat_native_library_loaded"), 0.0);
        // The jar's manifest gives the version (`protocompat brokers` compares it across brokers).
        assertEquals(1, value(after, "protocompat_info", pip246, "version=\"" + System.getProperty(
                "protocompat.version", "0.1.0") + "\""), 0.0, after);
        assertTrue(value(after, "protocompat_cache_entries", "cache=\"schemas\"") >= 3, after);
        assertTrue(value(after, "protocompat_verdict_cache_lookups_total", "result=\"miss\"") >= 3, after);
        // No schema, topic or field name is a label.
        assertTrue(after.lines().filter(l -> l.startsWith("protocompat_"))
                .noneMatch(l -> l.contains("shop.") || l.contains("orders")), after);
    }
}
