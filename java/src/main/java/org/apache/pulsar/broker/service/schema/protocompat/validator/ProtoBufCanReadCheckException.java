/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

/**
 * A schema the broker would refuse: incompatible, or not checkable at all (a null schema, a
 * descriptor that cannot be turned into schema data, the native library not loadable, a
 * resource limit). Checked, as PIP-246 has it, so a test cannot forget that a check fails.
 *
 * <p>The message is the report the broker puts in its {@code IncompatibleSchemaException} for
 * the same schemas: a one-line summary, then one line per finding with its rule ID
 * (docs/rules.md#rule-index), path, field number and direction, at most 4 KiB.
 */
public class ProtoBufCanReadCheckException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProtoBufCanReadCheckException(String message) {
        super(message);
    }

    public ProtoBufCanReadCheckException(String message, Throwable cause) {
        super(message, cause);
    }
}
