/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.NativeChecker;
import org.apache.pulsar.broker.service.schema.protocompat.NativeLibrary;
import org.apache.pulsar.broker.service.schema.protocompat.PluginMetrics;
import org.apache.pulsar.broker.service.schema.protocompat.ProtocompatException;
import org.apache.pulsar.broker.service.schema.protocompat.StrategyCodes;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PIP-246 compatibility checks for PROTOBUF_NATIVE schemas, in place of Pulsar's built-in
 * {@code ProtobufNativeSchemaCompatibilityCheck} (which compares root message names only).
 *
 * <p>List it in the broker setting {@code schemaRegistryCompatibilityCheckers} instead of the
 * built-in class. The rules run in a native library bundled in this jar; every failure, bad
 * schema data included, reaches the broker as an {@link IncompatibleSchemaException}.
 */
public class ProtobufNativeSchemaAdvanceCompatibilityCheck implements SchemaCompatibilityCheck {

    private static final Logger LOG =
            LoggerFactory.getLogger(ProtobufNativeSchemaAdvanceCompatibilityCheck.class);

    /**
     * Loads the native library. A failure does not throw: Pulsar would then silently run the
     * broker without a schema registry. It is logged here, and every check rejects the schema
     * with the same message, so nothing is ever accepted unchecked.
     */
    public ProtobufNativeSchemaAdvanceCompatibilityCheck() {
        String failure = NativeLibrary.ensureLoaded();
        if (failure != null) {
            LOG.error("{}", failure);
        }
        PluginMetrics.register();
    }

    @Override
    public SchemaType getSchemaType() {
        return SchemaType.PROTOBUF_NATIVE;
    }

    @Override
    public void checkCompatible(SchemaData from, SchemaData to, SchemaCompatibilityStrategy strategy)
            throws IncompatibleSchemaException {
        checkCompatible(Collections.singletonList(from), to, strategy);
    }

    @Override
    public void checkCompatible(Iterable<SchemaData> from, SchemaData to,
                                SchemaCompatibilityStrategy strategy) throws IncompatibleSchemaException {
        long start = System.nanoTime();
        String failure = NativeLibrary.ensureLoaded();
        if (failure != null) {
            PluginMetrics.failed(System.nanoTime() - start);
            throw new IncompatibleSchemaException(failure);
        }
        int verdict;
        try {
            verdict = NativeChecker.checkCompatible(history(from), data(to), StrategyCodes.codeOf(strategy));
        } catch (ProtocompatException e) {
            PluginMetrics.rejected(System.nanoTime() - start, e);
            throw new IncompatibleSchemaException(e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            PluginMetrics.failed(System.nanoTime() - start);
            // Pulsar answers a RuntimeException with HTTP 500; a rejection is what this is.
            throw new IncompatibleSchemaException("INTERNAL_ERROR: the PROTOBUF_NATIVE check failed ("
                    + e + "); the schema was not accepted", e);
        }
        if (!NativeChecker.isCompatible(verdict)) {
            PluginMetrics.failed(System.nanoTime() - start);
            throw new IncompatibleSchemaException("INTERNAL_ERROR: the PROTOBUF_NATIVE check returned no "
                    + "verdict; the schema was not accepted");
        }
        PluginMetrics.compatible(System.nanoTime() - start, verdict == NativeChecker.COMPATIBLE_FROM_CACHES);
    }

    private static byte[][] history(Iterable<SchemaData> from) {
        if (from == null) {
            return new byte[0][];
        }
        List<byte[]> history = new ArrayList<>();
        for (SchemaData schema : from) {
            history.add(data(schema));
        }
        return history.toArray(new byte[0][]);
    }

    /** Null stays null: the native side names which schema has no data. */
    private static byte[] data(SchemaData schema) {
        return schema == null ? null : schema.getData();
    }
}
