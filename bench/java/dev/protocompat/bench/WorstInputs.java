/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.NativeChecker;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;

/**
 * The worst inputs of {@code rust/engine/examples/worst_inputs.rs} checked through the plugin
 * class, as Pulsar 4.0 calls it (JNI), in this JVM: the CPU of this thread per check, cold (the
 * native caches cleared before each, the least of three) and warm (the same check again).
 * Prints figures; asserts nothing.
 *
 * <pre>
 * cargo run --release -p protocompat --example worst_inputs write DIR
 * mvn -B -q -Pbench -DskipTests -Djmh.skip -Dworst.inputs.skip=false \
 *     -Dworst.inputs.args="-Dworst.inputs.dir=DIR -Dprotocompat.profile=pip246" package
 * </pre>
 *
 * <p>Each folder of {@code DIR} is one shape: {@code existing-N.json} (oldest first) and
 * {@code new.json}, checked FULL against one version and FULL_TRANSITIVE against more.
 */
public final class WorstInputs {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private WorstInputs() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(System.getProperty("worst.inputs.dir", "target/worst-inputs"));
        String profile = System.getProperty("protocompat.profile", "pip246");
        List<Path> shapes;
        try (Stream<Path> listed = Files.list(dir)) {
            shapes = listed.filter(Files::isDirectory).sorted().toList();
        }
        if (shapes.isEmpty()) {
            throw new IllegalArgumentException("no shapes in " + dir
                    + ": write them with `cargo run --release -p protocompat --example worst_inputs write "
                    + dir + "`");
        }
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        System.out.println("Through JNI (the plugin class), profile " + profile + ", this thread's CPU:");
        System.out.println("| Shape | Existing | CPU per check, cold | warm | Answer |");
        System.out.println("|---|---:|---:|---:|---|");
        for (Path shape : shapes) {
            List<SchemaData> history = history(shape);
            SchemaData proposed = schema(Files.readAllBytes(shape.resolve("new.json")));
            SchemaCompatibilityStrategy strategy = history.size() > 1
                    ? SchemaCompatibilityStrategy.FULL_TRANSITIVE : SchemaCompatibilityStrategy.FULL;
            long cold = Long.MAX_VALUE;
            String answer = "";
            for (int run = 0; run < 3; run++) {
                NativeChecker.clearCaches();
                long started = THREADS.getCurrentThreadCpuTime();
                answer = outcome(check, history, proposed, strategy);
                cold = Math.min(cold, THREADS.getCurrentThreadCpuTime() - started);
            }
            long started = THREADS.getCurrentThreadCpuTime();
            outcome(check, history, proposed, strategy);
            long warm = THREADS.getCurrentThreadCpuTime() - started;
            System.out.printf("| %s | %d | %.0f ms | %.1f ms | %s |%n", shape.getFileName(), history.size(),
                    cold / 1e6, warm / 1e6, answer);
        }
    }

    private static String outcome(ProtobufNativeSchemaAdvanceCompatibilityCheck check, List<SchemaData> history,
                                  SchemaData proposed, SchemaCompatibilityStrategy strategy) {
        try {
            check.checkCompatible(history, proposed, strategy);
            return "accepted";
        } catch (IncompatibleSchemaException e) {
            String first = e.getMessage().lines().findFirst().orElse("");
            return "refused: " + (first.length() > 100 ? first.substring(0, 100) + "…" : first);
        }
    }

    private static List<SchemaData> history(Path shape) throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(shape)) {
            files = listed.filter(p -> p.getFileName().toString().startsWith("existing-"))
                    .sorted(Comparator.comparingInt(WorstInputs::index)).toList();
        }
        List<SchemaData> history = new ArrayList<>(files.size());
        for (Path file : files) {
            history.add(schema(Files.readAllBytes(file)));
        }
        return history;
    }

    private static int index(Path file) {
        String name = file.getFileName().toString();
        return Integer.parseInt(name.substring("existing-".length(), name.length() - ".json".length()));
    }

    private static SchemaData schema(byte[] data) {
        return SchemaData.builder().type(SchemaType.PROTOBUF_NATIVE).data(data).timestamp(0L).user("bench")
                .props(Map.of()).isDeleted(false).build();
    }
}
