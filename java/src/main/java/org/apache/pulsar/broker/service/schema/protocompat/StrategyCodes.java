/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;

/**
 * Pulsar's strategies to the native codes of {@code rust/engine/src/strategy.rs}, listed
 * explicitly: a constant added to or moved in Pulsar's enum can never change a verdict.
 */
public final class StrategyCodes {

    /** Rejected by the native side with UNKNOWN_STRATEGY. */
    public static final int UNKNOWN = -1;

    private StrategyCodes() {
    }

    public static int codeOf(SchemaCompatibilityStrategy strategy) {
        if (strategy == null) {
            return UNKNOWN;
        }
        return switch (strategy) {
            case UNDEFINED -> 0;
            case ALWAYS_INCOMPATIBLE -> 1;
            case ALWAYS_COMPATIBLE -> 2;
            case BACKWARD -> 3;
            case FORWARD -> 4;
            case FULL -> 5;
            case BACKWARD_TRANSITIVE -> 6;
            case FORWARD_TRANSITIVE -> 7;
            case FULL_TRANSITIVE -> 8;
            default -> UNKNOWN;
        };
    }
}
