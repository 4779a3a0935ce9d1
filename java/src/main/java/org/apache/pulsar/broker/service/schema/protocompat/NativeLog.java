/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Receives the native library's log records (levels as Rust's log crate numbers them). */
final class NativeLog {

    // The plugin's logger, named by string: a class literal would load the plugin class, whose
    // interface only a broker has, and the validator API runs in applications' tests too.
    private static final Logger LOG =
            LoggerFactory.getLogger("org.apache.pulsar.broker.service.schema."
                    + "ProtobufNativeSchemaAdvanceCompatibilityCheck");

    private NativeLog() {
    }

    /** Called from native code; must never throw back into it. */
    static void log(int level, String target, String message) {
        try {
            switch (level) {
                case 1 -> LOG.error("{}", message);
                case 2 -> LOG.warn("{}", message);
                case 3 -> LOG.info("{}", message);
                case 4 -> LOG.debug("{}", message);
                default -> LOG.trace("{}", message);
            }
        } catch (Throwable ignored) {
            // A broken logging backend must not turn a schema check into a failure.
        }
    }
}
