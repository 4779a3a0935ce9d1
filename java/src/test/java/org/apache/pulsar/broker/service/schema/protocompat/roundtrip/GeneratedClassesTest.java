/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.MavenProtoc;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code protocompat schema} prints, byte for byte, the schema data a Java producer uploads with
 * {@code Schema.PROTOBUF_NATIVE} for the classes protoc generates from the same files: protoc
 * 36.2 (the release the CLI bundles, {@code protocompat.protoc}) generates the classes, javac
 * compiles them, and Pulsar's client serializes their descriptor. The broker finds a stored
 * version by these bytes, so any difference (protoc's default JSON names, which generated code
 * leaves out; a file only an {@code import option} names) is one more version on the topic, and
 * a refused producer where schemas are not updated automatically. Classes of protoc 36 need
 * protobuf-java 4.x: this runs in the protobuf-java-4 execution.
 */
@Tag("protobuf4")
class GeneratedClassesTest {

    @TempDir
    Path work;

    @ParameterizedTest(name = "{1} in {0}")
    @CsvSource({
        // proto3, an import from a subdirectory, nested types, a map, a proto3 optional.
        "../data/javaclient, acme/orders/v1/order.proto, acme.orders.v1.Order",
        // proto2 with JSON names set in the source, nested and on extensions.
        "../data/generated, names.proto, acme.names.Order",
        // Edition 2024 and 2026 (compiled by the CLI through protoc, not protox).
        "editions/e2024_required_field_added/new, order.proto, shop.Order",
        "editions/e2026_import_edition_2024_to_2026/new, order.proto, shop.Order",
        // An `import option`: the file it names is not part of the schema data.
        "editions/e2026_import_option/new, order.proto, shop.Order",
    })
    void schemaPrintsWhatTheClientUploadsForGeneratedClasses(String dir, String rootFile, String rootMessage)
            throws Exception {
        Path sources = Fixtures.root().resolve(dir).normalize();
        Descriptor root = generated(sources, rootFile, rootMessage);
        byte[] client = ProtobufNativeSchemaUtils.serialize(root);
        byte[] printed = Fixtures.cli("schema", "-I", sources.toString(), "--root", rootMessage,
                sources.resolve(rootFile).toString());
        byte[] cli = Arrays.copyOf(printed, printed.length - 1);
        assertArrayEquals(client, cli, () -> "the client's:\n" + new String(client, StandardCharsets.UTF_8)
                + "\nprotocompat schema's:\n" + new String(cli, StandardCharsets.UTF_8));
    }

    /** The root message's descriptor, from the classes protoc generates of every file under {@code sources}. */
    private Descriptor generated(Path sources, String rootFile, String rootMessage) throws Exception {
        Path java = Files.createDirectories(work.resolve("java"));
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> command = new ArrayList<>(List.of(protoc().toString(), "-I", sources.toString(),
                "-I", include().toString(), "--java_out=" + java));
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".proto")).map(f -> sources.relativize(f).toString())
                    .sorted().forEach(command::add);
        }
        run(command);
        List<String> generatedSources;
        try (Stream<Path> files = Files.walk(java)) {
            generatedSources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests run on a JDK");
        List<String> args = new ArrayList<>(List.of("-nowarn", "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path")));
        args.addAll(generatedSources);
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "javac on protoc's classes");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            for (String source : generatedSources) {
                String name = java.relativize(Paths.get(source)).toString().replace(File.separatorChar, '.')
                        .replaceAll("\\.java$", "");
                Method getDescriptor;
                try {
                    getDescriptor = loader.loadClass(name).getMethod("getDescriptor");
                } catch (NoSuchMethodException e) {
                    continue;
                }
                Object descriptor = getDescriptor.invoke(null);
                if (descriptor instanceof FileDescriptor file && file.getName().equals(rootFile)) {
                    Descriptor message = file.findMessageTypeByName(
                            rootMessage.substring(rootMessage.lastIndexOf('.') + 1));
                    assertNotNull(message, rootMessage + " in " + rootFile);
                    assertEquals(rootMessage, message.getFullName());
                    return message;
                }
            }
        }
        throw new AssertionError("no generated class describes " + rootFile);
    }

    /** protoc 36.2 from Maven Central ({@link MavenProtoc}). */
    private Path protoc() throws IOException {
        return MavenProtoc.executable(work);
    }

    /** protoc's own imports, from the protobuf-java jar these tests load. */
    private Path include() throws IOException {
        try {
            return MavenProtoc.include(work,
                    Paths.get(FileDescriptor.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        Path out = work.resolve("protoc.out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("protoc did not finish: " + command);
        }
        if (process.exitValue() != 0) {
            throw new UncheckedIOException(new IOException("protoc failed: " + Files.readString(out)));
        }
    }
}
