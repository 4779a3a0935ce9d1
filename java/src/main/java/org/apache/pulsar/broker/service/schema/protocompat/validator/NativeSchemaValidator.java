/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import com.google.protobuf.Descriptors;
import java.util.ArrayList;
import java.util.List;
import org.apache.pulsar.broker.service.schema.protocompat.NativeChecker;
import org.apache.pulsar.broker.service.schema.protocompat.NativeLibrary;
import org.apache.pulsar.broker.service.schema.protocompat.ProtocompatException;
import org.apache.pulsar.broker.service.schema.protocompat.StrategyCodes;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;

/**
 * The validator: descriptors become the schema data the Java client uploads, and go through the
 * broker plugin's own JNI entry point, so a test sees the verdict and the report a broker gives.
 */
final class NativeSchemaValidator implements ProtobufNativeSchemaValidator {

    private final ProtobufNativeSchemaValidationStrategy strategy;
    private final boolean onlyValidateLatest;

    NativeSchemaValidator(ProtobufNativeSchemaValidationStrategy strategy, boolean onlyValidateLatest) {
        this.strategy = strategy;
        this.onlyValidateLatest = onlyValidateLatest;
    }

    @Override
    public void validate(Iterable<Descriptors.Descriptor> fromDescriptor, Descriptors.Descriptor toDescriptor)
            throws ProtoBufCanReadCheckException {
        List<Descriptors.Descriptor> existing = null;
        if (fromDescriptor != null) {
            existing = new ArrayList<>();
            try {
                fromDescriptor.forEach(existing::add);
            } catch (RuntimeException e) {
                throw new ProtoBufCanReadCheckException("cannot read the list of existing schemas: " + e, e);
            }
            // The engine compares every schema it is given, whatever the strategy: "latest only"
            // is the caller's choice of history, as the broker makes it.
            if (onlyValidateLatest && existing.size() > 1) {
                existing = existing.subList(existing.size() - 1, existing.size());
            }
        }
        check(existing, toDescriptor, brokerStrategy());
    }

    /** The broker strategy whose check this is, so the report names it as a broker would. */
    private SchemaCompatibilityStrategy brokerStrategy() {
        return switch (strategy) {
            case CanReadExistingStrategy -> onlyValidateLatest
                    ? SchemaCompatibilityStrategy.BACKWARD : SchemaCompatibilityStrategy.BACKWARD_TRANSITIVE;
            case CanBeReadByExistingStrategy -> onlyValidateLatest
                    ? SchemaCompatibilityStrategy.FORWARD : SchemaCompatibilityStrategy.FORWARD_TRANSITIVE;
            case CanBeReadMutualStrategy -> onlyValidateLatest
                    ? SchemaCompatibilityStrategy.FULL : SchemaCompatibilityStrategy.FULL_TRANSITIVE;
        };
    }

    /**
     * One native check, failures of every kind as the checked exception. A null list or schema
     * goes to the native side as null, which names it in the broker's words.
     */
    static void check(List<Descriptors.Descriptor> existing, Descriptors.Descriptor proposed,
                      SchemaCompatibilityStrategy strategy) throws ProtoBufCanReadCheckException {
        String failure = NativeLibrary.ensureLoaded();
        if (failure != null) {
            throw new ProtoBufCanReadCheckException(failure);
        }
        byte[][] from = null;
        if (existing != null) {
            from = new byte[existing.size()][];
            for (int i = 0; i < from.length; i++) {
                from[i] = schemaData(existing.get(i), "existing[" + i + "]");
            }
        }
        byte[] to = schemaData(proposed, "the new schema");
        int verdict;
        try {
            verdict = NativeChecker.checkCompatible(from, to, StrategyCodes.codeOf(strategy));
        } catch (ProtocompatException e) {
            throw new ProtoBufCanReadCheckException(e.getMessage(), e);
        } catch (RuntimeException | LinkageError e) {
            throw new ProtoBufCanReadCheckException("INTERNAL_ERROR: the PROTOBUF_NATIVE check failed ("
                    + e + "); the schema was not accepted", e);
        }
        if (!NativeChecker.isCompatible(verdict)) {
            throw new ProtoBufCanReadCheckException("INTERNAL_ERROR: the PROTOBUF_NATIVE check returned no "
                    + "verdict; the schema was not accepted");
        }
    }

    /**
     * The bytes {@code Schema.PROTOBUF_NATIVE} would upload for this descriptor, made by the
     * client's own code: the schema digests in the report are then the ones a broker prints.
     */
    private static byte[] schemaData(Descriptors.Descriptor descriptor, String which)
            throws ProtoBufCanReadCheckException {
        if (descriptor == null) {
            return null;
        }
        try {
            return ProtobufNativeSchemaUtils.serialize(descriptor);
        } catch (NoClassDefFoundError e) {
            throw new ProtoBufCanReadCheckException("cannot turn " + which + " (" + descriptor.getFullName()
                    + ") into PROTOBUF_NATIVE schema data: the Pulsar Java client is not on the classpath ("
                    + e.getMessage() + "); add org.apache.pulsar:pulsar-client as a test dependency", e);
        } catch (RuntimeException | LinkageError e) {
            throw new ProtoBufCanReadCheckException("cannot turn " + which + " (" + descriptor.getFullName()
                    + ") into PROTOBUF_NATIVE schema data as the Pulsar Java client would: " + e, e);
        }
    }
}
