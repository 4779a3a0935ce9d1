/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import com.google.protobuf.Descriptors;
import java.util.Collections;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;

/**
 * PIP-246's validator, for an application's own unit tests: the verdict the broker plugin
 * ({@code ProtobufNativeSchemaAdvanceCompatibilityCheck}) would give, from the same native
 * engine, on the schema data the Pulsar Java client would upload for each descriptor.
 *
 * <p>Get one from {@link ProtobufNativeSchemaValidatorBuilder}. Validators hold no state and may
 * be shared between threads. The rule profile is not chosen here: it is the JVM-wide
 * {@code -Dprotocompat.profile} ({@code pip246} by default, or {@code conservative}), read once
 * when the native library is loaded, as a broker reads it.
 */
public interface ProtobufNativeSchemaValidator {

    /**
     * Checks the proposed schema {@code toDescriptor} against {@code fromDescriptor}, the
     * existing schemas <em>oldest first</em> (a topic's history in the order the broker keeps
     * it), in the direction and over the versions the builder chose.
     *
     * @throws ProtoBufCanReadCheckException when the broker would refuse {@code toDescriptor};
     *         also for bad input (a null list or schema), never a RuntimeException
     */
    void validate(Iterable<Descriptors.Descriptor> fromDescriptor, Descriptors.Descriptor toDescriptor)
            throws ProtoBufCanReadCheckException;

    /**
     * PIP-246's {@code canRead}: can a consumer with schema {@code read} read messages written
     * with schema {@code written}? One direction only, whatever strategy this validator was
     * built with. The report names it as the broker's BACKWARD check, {@code written} the one
     * existing schema ("existing writes, new reads").
     *
     * @throws ProtoBufCanReadCheckException when it cannot, or for bad input
     */
    default void canRead(Descriptors.Descriptor written, Descriptors.Descriptor read)
            throws ProtoBufCanReadCheckException {
        NativeSchemaValidator.check(Collections.singletonList(written), read, SchemaCompatibilityStrategy.BACKWARD);
    }
}
