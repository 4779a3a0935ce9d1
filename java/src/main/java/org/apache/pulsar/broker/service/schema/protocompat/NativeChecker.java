/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

/** The one native entry point, implemented in {@code rust/jni}. */
public final class NativeChecker {

    /** What {@link #checkCompatible} returns for a compatible schema; anything else is a failure. */
    public static final int COMPATIBLE = 1;

    private NativeChecker() {
    }

    /**
     * Checks {@code to} against every schema of {@code from} (Pulsar PROTOBUF_NATIVE schema data)
     * under the strategy with native code {@code strategy} (see {@link StrategyCodes}).
     *
     * @return {@link #COMPATIBLE} when compatible (warnings are logged)
     * @throws ProtocompatException when incompatible or on bad input, with the report as message
     */
    public static native int checkCompatible(byte[][] from, byte[] to, int strategy)
            throws ProtocompatException;

    /**
     * Sets the cache bounds {maxSchemas, maxDecodedBytes, maxVerdicts} (0 turns a cache off)
     * and the resource limits {maxSchemaBytes, maxFiles, maxMessages, maxFields,
     * maxFieldComparisons}. Applied only before the first check.
     *
     * @return whether the settings were applied
     */
    static native boolean configure(long[] settings) throws ProtocompatException;

    /** Empties the native caches (benchmarks measure cold checks with it). */
    public static native void clearCaches() throws ProtocompatException;

    /**
     * What the native caches hold: {schemas remembered, decoded schemas, their estimated bytes,
     * pairwise results}, then the bounds {schemas, decoded bytes, results}, then the limits
     * {schema bytes, files, messages, fields, field comparisons}.
     */
    public static native long[] cacheStats() throws ProtocompatException;
}
