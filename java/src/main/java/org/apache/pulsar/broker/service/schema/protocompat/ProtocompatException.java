/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

/**
 * Thrown by the native side for an incompatible schema, bad schema data, or an internal failure;
 * the message is the report (at most 4 KiB), starting with a one-line summary.
 */
public class ProtocompatException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProtocompatException(String message) {
        super(message);
    }
}
