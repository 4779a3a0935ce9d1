/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.MavenProtoc;

/**
 * The application of tests/broker/edition2026 built as its team builds it: protoc (the release
 * Maven Central serves as {@code com.google.protobuf:protoc}, the one the CLI bundles) generates
 * Java classes from one version of order.proto, javac compiles them with OrderProducer.java
 * against a Pulsar client and protobuf-java, and a JVM runs it. The client's jars are those of
 * the broker line under test ({@code protocompat.broker.classpath}): Pulsar 5.0's client with the
 * protobuf-java 4.x it ships. The test JVM's own classpath cannot serve: it holds the 4.0 broker
 * with protobuf-java 3.25, which cannot load classes protoc 36 generates.
 */
final class Edition2026App {

    /** The application's sources: common/ (imported by every version) and v1/, v2/, v3/. */
    static Path sources() {
        return Fixtures.root().resolve("../broker/edition2026").normalize();
    }

    /** What one run printed and how it ended. */
    record Run(int exit, String output) {
        /** The text after {@code prefix} on the first line that starts with it, or null. */
        String line(String prefix) {
            return output.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()))
                    .findFirst().orElse(null);
        }

        @Override
        public String toString() {
            return "exit " + exit + ":\n" + output;
        }
    }

    private final Path work;
    private final Path protoc;
    private final String java;
    private final String javac;
    private final String clientClasspath;

    private Edition2026App(Path work, Path protoc, String java, String clientClasspath) {
        this.work = work;
        this.protoc = protoc;
        this.java = java;
        this.javac = Paths.get(java).resolveSibling("javac").toString();
        this.clientClasspath = clientClasspath;
    }

    /**
     * Everything the builds need, or an error naming what is missing: protoc
     * ({@code protocompat.protoc}, set by the pom), a JDK (the broker's, which runs Pulsar 5's
     * client) and the broker line's classpath file.
     */
    static Edition2026App prepare() throws IOException {
        String classpathFile = System.getProperty("protocompat.broker.classpath", "");
        if (classpathFile.isBlank()) {
            throw new IllegalStateException("protocompat.broker.classpath is not set: the application needs a"
                    + " Pulsar 5 client's jars (the pulsar-5 failsafe execution sets it)");
        }
        String java = ChildJvm.pulsarJava();
        if (!Files.isExecutable(Paths.get(java).resolveSibling("javac"))) {
            throw new IllegalStateException("no javac beside " + java + ": the application is compiled with the"
                    + " JDK that runs the broker");
        }
        Path work = Files.createTempDirectory("protocompat-e2026-app");
        Path protoc = MavenProtoc.executable(work);
        return new Edition2026App(work, protoc, java, Files.readString(Paths.get(classpathFile)).strip());
    }

    /** {@code protoc --version}: "libprotoc 36.2". */
    String protocVersion() throws IOException, InterruptedException {
        Run run = exec(List.of(protoc.toString(), "--version"));
        check(run, "protoc --version");
        return run.output().strip();
    }

    /**
     * Generates version {@code v}'s classes and compiles them with OrderProducer.java; returns
     * the folder of the classes.
     */
    Path build(int v) throws IOException, InterruptedException {
        Path generated = Files.createDirectories(work.resolve("v" + v + "/java"));
        Path classes = Files.createDirectories(work.resolve("v" + v + "/classes"));
        check(exec(List.of(protoc.toString(), "-I", sources().resolve("v" + v).toString(),
                "-I", sources().resolve("common").toString(), "-I", include().toString(),
                "--java_out=" + generated, "order.proto", "money.proto")), "protoc v" + v);
        List<String> command = new ArrayList<>(List.of(javac, "-nowarn", "-d", classes.toString(),
                "-cp", clientClasspath, sources().resolve("OrderProducer.java").toString()));
        try (Stream<Path> files = Files.walk(generated)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> command.add(f.toString()));
        }
        check(exec(command), "javac v" + v);
        return classes;
    }

    /**
     * protoc's own imports (google/protobuf/descriptor.proto, which options.proto imports),
     * from the protobuf-java jar on the client's classpath ({@link MavenProtoc}).
     */
    private Path include() throws IOException {
        Path include = work.resolve("include");
        if (Files.isDirectory(include)) {
            return include;
        }
        // protobuf-java-4.36.2.jar, not protobuf-java-util-….
        for (String entry : clientClasspath.split(File.pathSeparator)) {
            if (Paths.get(entry).getFileName().toString().matches("protobuf-java-[0-9].*\\.jar")) {
                return MavenProtoc.include(work, Paths.get(entry));
            }
        }
        throw new IllegalStateException("no protobuf-java jar on " + clientClasspath);
    }

    /** Runs OrderProducer from {@code classes} against the broker at {@code serviceUrl}. */
    Run produce(Path classes, String serviceUrl, String topic, long id) throws IOException, InterruptedException {
        return exec(List.of(java, "-Dlog4j2.level=OFF",
                "-Dslf4j.provider=org.apache.logging.slf4j.SLF4JServiceProvider",
                "-cp", classes + File.pathSeparator + clientClasspath,
                "OrderProducer", serviceUrl, topic, String.valueOf(id)));
    }

    void delete() {
        ChildJvm.deleteTree(work);
    }

    /** The protocompat CLI's schema data for version {@code v}, as REST takes it. */
    static byte[] schema(int v) {
        String json = new String(Fixtures.cli("schema", "-I", sources().resolve("v" + v).toString(),
                "-I", sources().resolve("common").toString(), "--root", "shop.Order",
                sources().resolve("v" + v + "/order.proto").toString()), StandardCharsets.UTF_8);
        return json.strip().getBytes(StandardCharsets.UTF_8);
    }

    private static void check(Run run, String what) {
        if (run.exit() != 0) {
            throw new IllegalStateException(what + " failed, " + run);
        }
    }

    private int runs;

    private Run exec(List<String> command) throws IOException, InterruptedException {
        // Output to a file, not a pipe: a child that hangs cannot hold the test past the timeout.
        Path out = work.resolve("run-" + ++runs + ".out");
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("did not finish within 3 minutes: " + String.join(" ", command));
        }
        return new Run(process.exitValue(), Files.readString(out));
    }
}
