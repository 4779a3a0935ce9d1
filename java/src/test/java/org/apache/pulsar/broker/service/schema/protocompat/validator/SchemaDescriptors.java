/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Descriptors for the tests, built with protobuf-java itself from schema data the CLI compiled
 * (there is no protoc here), independently of Pulsar's own deserializer.
 */
final class SchemaDescriptors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SchemaDescriptors() {
    }

    /** The root message of Pulsar PROTOBUF_NATIVE schema data. */
    static Descriptors.Descriptor of(byte[] schemaData) throws Exception {
        JsonNode json = JSON.readTree(schemaData);
        FileDescriptorSet set = FileDescriptorSet.parseFrom(
                Base64.getDecoder().decode(json.get("fileDescriptorSet").asText()));
        Descriptors.FileDescriptor file = build(set).get(json.get("rootFileDescriptorName").asText());
        return findMessage(file, json.get("rootMessageTypeName").asText());
    }

    /** Every file of the set, each built after its imports (the set itself may be in any order). */
    static Map<String, Descriptors.FileDescriptor> build(FileDescriptorSet set)
            throws Descriptors.DescriptorValidationException {
        Map<String, FileDescriptorProto> protos = new LinkedHashMap<>();
        set.getFileList().forEach(f -> protos.put(f.getName(), f));
        Map<String, Descriptors.FileDescriptor> built = new HashMap<>();
        for (String name : protos.keySet()) {
            build(name, protos, built);
        }
        return built;
    }

    private static Descriptors.FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
            Map<String, Descriptors.FileDescriptor> built) throws Descriptors.DescriptorValidationException {
        Descriptors.FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = protos.get(name);
        if (proto == null) {
            throw new IllegalArgumentException("the set has no file " + name);
        }
        Descriptors.FileDescriptor[] deps = new Descriptors.FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < deps.length; i++) {
            deps[i] = build(proto.getDependency(i), protos, built);
        }
        Descriptors.FileDescriptor file = Descriptors.FileDescriptor.buildFrom(proto, deps);
        built.put(name, file);
        return file;
    }

    private static Descriptors.Descriptor findMessage(Descriptors.FileDescriptor file, String fullName) {
        for (Descriptors.Descriptor message : file.getMessageTypes()) {
            Descriptors.Descriptor found = findMessage(message, fullName);
            if (found != null) {
                return found;
            }
        }
        throw new IllegalArgumentException(file.getName() + " declares no message " + fullName);
    }

    private static Descriptors.Descriptor findMessage(Descriptors.Descriptor message, String fullName) {
        if (message.getFullName().equals(fullName)) {
            return message;
        }
        for (Descriptors.Descriptor nested : message.getNestedTypes()) {
            Descriptors.Descriptor found = findMessage(nested, fullName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** {@code expect.json} of a fixture case. */
    static Map<String, Object> readJson(Path file) throws IOException {
        return JSON.readValue(file.toFile(), new TypeReference<Map<String, Object>>() { });
    }
}
