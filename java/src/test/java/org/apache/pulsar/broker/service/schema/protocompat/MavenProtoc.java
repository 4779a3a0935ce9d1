/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * protoc from Maven Central ({@code com.google.protobuf:protoc}, the release the CLI bundles),
 * as the tests that generate Java classes run it. The pom resolves it as a test dependency and
 * names it in {@code protocompat.protoc}; Maven's local repository keeps it without its execute
 * bit, and it comes without the {@code .proto} files of protoc's own imports
 * ({@code google/protobuf/descriptor.proto}, {@code java_features.proto}, …), which
 * protobuf-java's jar of the same release carries.
 */
public final class MavenProtoc {

    private MavenProtoc() {
    }

    /** An executable copy of protoc in {@code work}, made once. */
    public static Path executable(Path work) throws IOException {
        Path artifact = Paths.get(System.getProperty("protocompat.protoc", ""));
        if (!Files.isRegularFile(artifact)) {
            throw new IllegalStateException("protocompat.protoc names no protoc executable: " + artifact
                    + " (the pom resolves com.google.protobuf:protoc as a test dependency)");
        }
        Path protoc = work.resolve("protoc");
        if (!Files.exists(protoc)) {
            Files.copy(artifact, protoc);
            if (!protoc.toFile().setExecutable(true)) {
                throw new IOException("cannot make " + protoc + " executable");
            }
        }
        return protoc;
    }

    /**
     * The folder {@code work/include} holding protobuf-java's {@code google/protobuf/*.proto}
     * from {@code protobufJar}, for protoc's {@code -I}.
     */
    public static Path include(Path work, Path protobufJar) throws IOException {
        Path include = work.resolve("include");
        int found = 0;
        try (ZipFile zip = new ZipFile(protobufJar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                if (entry.getName().startsWith("google/protobuf/") && entry.getName().endsWith(".proto")) {
                    Path to = include.resolve(entry.getName());
                    Files.createDirectories(to.getParent());
                    try (InputStream in = zip.getInputStream(entry)) {
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                    found++;
                }
            }
        }
        if (found == 0) {
            throw new IllegalStateException(protobufJar + " holds no google/protobuf/*.proto");
        }
        return include;
    }
}
