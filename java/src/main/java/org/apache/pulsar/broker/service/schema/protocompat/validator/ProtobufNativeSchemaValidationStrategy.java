/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

/**
 * Which way data must be readable between the proposed schema and the existing ones, as in
 * PIP-246. With {@code isOnlyValidateLatest(true)} each is the broker's BACKWARD, FORWARD or
 * FULL; with {@code false}, the {@code _TRANSITIVE} variant.
 */
public enum ProtobufNativeSchemaValidationStrategy {
    /** The proposed schema can read what the existing schemas wrote (BACKWARD). */
    CanReadExistingStrategy,

    /** The existing schemas can read what the proposed schema writes (FORWARD). */
    CanBeReadByExistingStrategy,

    /** Both of the above (FULL). */
    CanBeReadMutualStrategy
}
