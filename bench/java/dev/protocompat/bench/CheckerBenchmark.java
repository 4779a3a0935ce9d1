/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.bench;

import io.apicurio.registry.rules.compatibility.CompatibilityLevel;
import io.apicurio.registry.rules.compatibility.ProtobufCompatibilityChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.protocompat.NativeChecker;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One FULL_TRANSITIVE check of version {@code history} against versions 0..history-1, by each
 * checker, on the same inputs in one JVM. {@code size} picks the schema; the history lengths
 * run on the medium schema, the sizes with a history of one.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class CheckerBenchmark {

    /** "size:history" pairs, so only the combinations the comparison needs run. */
    @Param({"small:1", "medium:1", "large:1", "medium:10", "medium:100", "medium:1000"})
    public String input;

    private List<SchemaData> history;
    private SchemaData proposed;
    private List<String> historyText;
    private String proposedText;

    /**
     * Which native library our checker runs: this build's, or with {@code -p library=baseline}
     * the one {@code -Dbench.baseline.library=PATH} names (passed with {@code -jvmArgsAppend}),
     * so that two builds are compared in one run, fork by fork (BENCHMARKS.md).
     */
    @Param({"current"})
    public String library;

    /**
     * The rule profile our checker runs, set as a broker sets it ({@code -Dprotocompat.profile}),
     * fork by fork, so that both profiles are measured against one baseline in one run.
     */
    @Param({"pip246"})
    public String profile;

    private ProtobufNativeSchemaAdvanceCompatibilityCheck ours;
    private final ProtobufNativeSchemaCompatibilityCheck builtIn = new ProtobufNativeSchemaCompatibilityCheck();
    private final ProtobufCompatibilityChecker apicurio = new ProtobufCompatibilityChecker();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if ("baseline".equals(library)) {
            String baseline = System.getProperty("bench.baseline.library");
            if (baseline == null) {
                throw new IllegalStateException("-p library=baseline needs -jvmArgsAppend -Dbench.baseline.library=PATH");
            }
            // Read when the plugin first loads its library, which is below: a fork runs one
            // parameter set, so each fork loads the library its parameters name.
            System.setProperty("protocompat.native.library", baseline);
        }
        System.setProperty("protocompat.profile", profile);
        ours = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        String[] parts = input.split(":");
        BenchSchemas schemas = new BenchSchemas(parts[0]);
        int length = Integer.parseInt(parts[1]);
        history = new ArrayList<>();
        historyText = new ArrayList<>();
        for (int v = 0; v < length; v++) {
            history.add(schemas.schemaData(v));
            historyText.add(schemas.protoText(v));
        }
        proposed = schemas.schemaData(length);
        proposedText = schemas.protoText(length);
        // Every checker must accept these inputs, or the comparison means nothing.
        ours.checkCompatible(history, proposed, SchemaCompatibilityStrategy.FULL_TRANSITIVE);
        builtIn.checkCompatible(history, proposed, SchemaCompatibilityStrategy.FULL_TRANSITIVE);
        if (!apicurio.testCompatibility(CompatibilityLevel.FULL_TRANSITIVE, historyText, proposedText, Map.of())
                .isCompatible()) {
            throw new IllegalStateException("Apicurio rejects the benchmark input " + input);
        }
    }

    /** The broker's steady state: the same history checked again on every connect. */
    @Benchmark
    public void oursWarm() throws Exception {
        ours.checkCompatible(history, proposed, SchemaCompatibilityStrategy.FULL_TRANSITIVE);
    }

    /** Caches emptied before every call: every schema decoded, every pair compared. */
    @Benchmark
    public void oursCold(ColdCaches cold) throws Exception {
        ours.checkCompatible(history, proposed, SchemaCompatibilityStrategy.FULL_TRANSITIVE);
    }

    /** Pulsar's built-in check: deserializes every schema and compares root names only. */
    @Benchmark
    public void pulsarBuiltIn() throws Exception {
        builtIn.checkCompatible(history, proposed, SchemaCompatibilityStrategy.FULL_TRANSITIVE);
    }

    @Benchmark
    public boolean apicurio() {
        return apicurio.testCompatibility(CompatibilityLevel.FULL_TRANSITIVE, historyText, proposedText, Map.of())
                .isCompatible();
    }

    /** Clears the native caches before each invocation of {@link #oursCold}. */
    @State(Scope.Thread)
    public static class ColdCaches {
        @Setup(Level.Invocation)
        public void clear() throws Exception {
            NativeChecker.clearCaches();
        }
    }
}
