/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.bench;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;

/**
 * The benchmark inputs: bench/schemas/{small,medium,large}.proto, version i of each with the
 * file option {@code java_outer_classname = "RootV<i>"} (see bench/schemas/gen.py), as Pulsar
 * schema data and as .proto text.
 */
final class BenchSchemas {

    private final String text;
    private final FileDescriptorSet base;

    /** Compiles bench/schemas/{size}.proto once with the protocompat CLI. */
    BenchSchemas(String size) throws IOException, InterruptedException {
        Path file = Paths.get(System.getProperty("protocompat.schemas", "bench/schemas"), size + ".proto");
        this.text = Files.readString(file);
        Process cli = new ProcessBuilder(System.getProperty("protocompat.cli", "target/release/protocompat"),
                "schema", "-I", file.getParent().toString(), "--root", "bench.Root", file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cli.waitFor(1, TimeUnit.MINUTES) || cli.exitValue() != 0) {
            throw new IllegalStateException("protocompat schema failed for " + file);
        }
        String encoded = json.replaceAll("(?s).*\"fileDescriptorSet\":\"([^\"]+)\".*", "$1");
        this.base = FileDescriptorSet.parseFrom(Base64.getDecoder().decode(encoded));
    }

    /** Version {@code v} as Pulsar schema data, serialized the way Pulsar's client does it. */
    SchemaData schemaData(int v) {
        FileDescriptorSet.Builder set = base.toBuilder();
        FileDescriptorProto.Builder file = set.getFileBuilder(0);
        file.getOptionsBuilder().setJavaOuterClassname("RootV" + v);
        String json = "{\"fileDescriptorSet\":\"" + Base64.getEncoder().encodeToString(set.build().toByteArray())
                + "\",\"rootMessageTypeName\":\"bench.Root\",\"rootFileDescriptorName\":\""
                + file.getName() + "\"}";
        return SchemaData.builder().type(SchemaType.PROTOBUF_NATIVE)
                .data(json.getBytes(StandardCharsets.UTF_8)).build();
    }

    /** Version {@code v} as .proto text, for checkers that read text. */
    String protoText(int v) {
        return text.replace("// VERSION_OPTION", "option java_outer_classname = \"RootV" + v + "\";");
    }
}
