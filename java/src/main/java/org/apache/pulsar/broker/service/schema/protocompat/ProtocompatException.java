/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Thrown by the native side for an incompatible schema, bad schema data, or an internal failure;
 * the message is the report (at most 4 KiB), starting with a one-line summary. The details say
 * which of the three it is, for the broker's metrics, in a form that never holds a schema's
 * contents: {@code kind=incompatible rules=A,B fromCaches=false}, {@code kind=bad_input rule=R},
 * {@code kind=error}.
 */
public class ProtocompatException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String details;

    public ProtocompatException(String message) {
        this(message, "kind=error");
    }

    public ProtocompatException(String message, String details) {
        super(message);
        this.details = details == null ? "kind=error" : details;
    }

    private Map<String, String> fields() {
        Map<String, String> fields = new HashMap<>();
        for (String pair : details.split(" ")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                fields.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return fields;
    }

    /** {@code incompatible}, {@code bad_input} or {@code error}. */
    public String kind() {
        return fields().getOrDefault("kind", "error");
    }

    /** The rule IDs of the failures (incompatible), or the one rule of bad input. */
    public List<String> rules() {
        Map<String, String> fields = fields();
        String rules = fields.getOrDefault("rules", fields.getOrDefault("rule", ""));
        return rules.isEmpty() ? List.of() : Arrays.asList(rules.split(","));
    }

    /** Whether the caches answered the check (no schema was decoded or compared). */
    public boolean fromCaches() {
        return Boolean.parseBoolean(fields().get("fromCaches"));
    }
}
