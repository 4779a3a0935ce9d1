/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

/** The one native entry point, implemented in {@code rust/jni}. */
public final class NativeChecker {

    /**
     * What {@link #checkCompatible} returns for a compatible schema: after comparing schemas, or
     * from the caches. Anything else is a failure.
     */
    public static final int COMPATIBLE = 1;
    public static final int COMPATIBLE_FROM_CACHES = 2;

    private NativeChecker() {
    }

    /** Whether a {@link #checkCompatible} result accepts the schema. */
    public static boolean isCompatible(int verdict) {
        return verdict == COMPATIBLE || verdict == COMPATIBLE_FROM_CACHES;
    }

    /**
     * Checks {@code to} against every schema of {@code from} (Pulsar PROTOBUF_NATIVE schema data)
     * under the strategy with native code {@code strategy} (see {@link StrategyCodes}).
     *
     * @return {@link #COMPATIBLE} or {@link #COMPATIBLE_FROM_CACHES} when compatible (warnings
     *         are logged)
     * @throws ProtocompatException when incompatible or on bad input, with the report as message
     */
    public static native int checkCompatible(byte[][] from, byte[] to, int strategy)
            throws ProtocompatException;

    /**
     * Sets cache bounds and resource limits by name ({@code cache.maxSchemas},
     * {@code limit.maxFields}, ...: the system properties without their {@code protocompat.}
     * prefix); what is not named keeps the native default. Applied only before the first check.
     *
     * @return whether the settings were applied
     * @throws ProtocompatException naming an unknown setting or a value that is not a number
     */
    static native boolean configure(String[] names, String[] values) throws ProtocompatException;

    /** Empties the native caches (benchmarks measure cold checks with it). */
    public static native void clearCaches() throws ProtocompatException;

    /**
     * What the native caches hold and the settings in force, as space-separated
     * {@code name=value} pairs: {@code schemas}, {@code schemaDataBytes}, {@code decoded},
     * {@code decodedBytes}, {@code verdicts}, {@code verdictBytes}, {@code lastCheckPeakBytes},
     * {@code verdictHits}, {@code verdictMisses}, then every setting
     * ({@code cache.maxSchemas=50000 ... limit.maxFieldComparisons=50000000}).
     */
    public static native String cacheStats() throws ProtocompatException;
}
