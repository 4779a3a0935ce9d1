/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code protocompat schema} is meant to print what the Java client uploads for the same
 * {@code .proto} files, and the validator uploads through the client's own code. Here both
 * meet: the CLI's output is rebuilt into Descriptors with protobuf-java (each file after its
 * imports) and serialized by Pulsar's {@code ProtobufNativeSchemaUtils}.
 */
class ValidatorJavaClientBytesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The CLI's schema data and the client's for the same root file of tests/data/javaclient. */
    private record Both(byte[] cli, byte[] client, JsonNode cliJson, JsonNode clientJson) {
    }

    private static Both both(String rootFile) throws Exception {
        Path dir = Fixtures.root().resolve("../data/javaclient").normalize();
        byte[] printed = Fixtures.cli("schema", "-I", dir.toString(), dir.resolve(rootFile).toString());
        // The CLI ends what it prints with a newline; the schema data is the line.
        assertEquals('\n', printed[printed.length - 1]);
        byte[] cli = Arrays.copyOf(printed, printed.length - 1);
        Descriptors.Descriptor root = SchemaDescriptors.of(cli);
        byte[] client = ProtobufNativeSchemaUtils.serialize(root);
        return new Both(cli, client, JSON.readTree(cli), JSON.readTree(client));
    }

    @Test
    @DisplayName("schema output is what the Java client would upload")
    void schemaOutputIsWhatTheJavaClientWouldUpload() throws Exception {
        Both b = both("acme/orders/v1/order.proto");
        assertEquals(List.of("acme/orders/v1/money.proto", "acme/orders/v1/order.proto"),
                names(set(b.cliJson())), "the fixture's import, then its root file");
        assertSameContent(b);
        assertEquals(names(set(b.clientJson())), names(set(b.cliJson())), "files of the set, in order");
        assertArrayEquals(raw(b.clientJson()), raw(b.cliJson()), "the descriptor sets' bytes");
        assertEquals(new String(b.client(), StandardCharsets.UTF_8), new String(b.cli(), StandardCharsets.UTF_8));
        assertArrayEquals(b.client(), b.cli());
    }

    /**
     * With four files the two disagree on file order only: the CLI writes imports first, the
     * client whatever order its {@code HashMap<String, FileDescriptorProto>} iterates in. The
     * content is the same, and so are the verdicts (the engine and Pulsar's deserializer take
     * any order).
     */
    @Test
    @DisplayName("schema output has the Java client's files, roots and JSON layout")
    void schemaOutputHasTheJavaClientsContent() throws Exception {
        Both b = both("acme/orders/v1/shipment.proto");
        assertEquals(4, set(b.cliJson()).getFileCount(), "shipment, order, money, google/protobuf/timestamp");
        assertSameContent(b);
    }

    @Test
    @DisplayName("schema output is what the Java client would upload, with a well-known import")
    void schemaOutputIsWhatTheJavaClientWouldUploadWithAWellKnownImport() throws Exception {
        Both b = both("acme/orders/v1/shipment.proto");
        assertEquals(names(set(b.clientJson())), names(set(b.cliJson())), "files of the set, in order");
        assertArrayEquals(b.client(), b.cli());
    }

    /** Everything but the order of the files in the set, each part on its own to say what differs. */
    private static void assertSameContent(Both b) throws Exception {
        FileDescriptorSet cliSet = set(b.cliJson());
        FileDescriptorSet clientSet = set(b.clientJson());
        assertAll(
                () -> assertEquals(fieldNames(b.clientJson()), fieldNames(b.cliJson()), "JSON keys and their order"),
                () -> assertEquals(b.clientJson().get("rootMessageTypeName"), b.cliJson().get("rootMessageTypeName")),
                () -> assertEquals(b.clientJson().get("rootFileDescriptorName"),
                        b.cliJson().get("rootFileDescriptorName")),
                () -> assertEquals(byName(clientSet), byName(cliSet), "the files, by name"),
                // Each file as the CLI encoded it, against protobuf-java's encoding of it.
                () -> assertArrayEquals(
                        FileDescriptorSet.newBuilder().addAllFile(cliSet.getFileList()).build().toByteArray(),
                        raw(b.cliJson()), "protobuf-java re-encodes the CLI's set to the same bytes"),
                // Compact JSON, as the client writes it: no spaces, no line breaks.
                () -> assertEquals(JSON.writeValueAsString(b.cliJson()), new String(b.cli(), StandardCharsets.UTF_8)));
    }

    private static byte[] raw(JsonNode json) {
        return Base64.getDecoder().decode(json.get("fileDescriptorSet").asText());
    }

    private static FileDescriptorSet set(JsonNode json) throws Exception {
        return FileDescriptorSet.parseFrom(raw(json));
    }

    private static List<String> names(FileDescriptorSet set) {
        return set.getFileList().stream().map(FileDescriptorProto::getName).toList();
    }

    private static Map<String, FileDescriptorProto> byName(FileDescriptorSet set) {
        Map<String, FileDescriptorProto> files = new TreeMap<>();
        set.getFileList().forEach(f -> files.put(f.getName(), f));
        return files;
    }

    private static List<String> fieldNames(JsonNode json) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = json.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return names;
    }
}
