/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.IOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The root message of Pulsar PROTOBUF_NATIVE schema data, built by protobuf-java itself (as a
 * Java consumer builds it from the schema it fetches), independently of the engine's decoder.
 */
public final class PulsarSchema {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PulsarSchema() {
    }

    /** The root message of schema data: {@code fileDescriptorSet}, {@code rootMessageTypeName}. */
    public static Descriptor root(byte[] schemaData) {
        try {
            JsonNode json = JSON.readTree(schemaData);
            FileDescriptorSet set = FileDescriptorSet.parseFrom(
                    Base64.getDecoder().decode(json.get("fileDescriptorSet").asText()));
            return root(set, json.get("rootFileDescriptorName").asText(), json.get("rootMessageTypeName").asText());
        } catch (IOException e) {
            throw new IllegalArgumentException("protobuf-java cannot build the schema: " + e.getMessage(), e);
        }
    }

    /** The message {@code rootName} of the file {@code rootFileName} of a descriptor set. */
    public static Descriptor root(FileDescriptorSet set, String rootFileName, String rootName) {
        try {
            FileDescriptor rootFile = buildAll(set).get(rootFileName);
            Descriptor root = rootFile == null ? null : find(rootFile, rootName);
            if (root == null) {
                throw new IllegalArgumentException("the schema declares no root message " + rootName);
            }
            return root;
        } catch (DescriptorValidationException e) {
            throw new IllegalArgumentException("protobuf-java cannot build the schema: " + e.getMessage(), e);
        }
    }

    /** Every file of the set, each built after its imports (a set may list them in any order). */
    private static Map<String, FileDescriptor> buildAll(FileDescriptorSet set) throws DescriptorValidationException {
        Map<String, FileDescriptorProto> protos = new LinkedHashMap<>();
        set.getFileList().forEach(f -> protos.put(f.getName(), f));
        Map<String, FileDescriptor> built = new HashMap<>();
        for (String name : protos.keySet()) {
            build(name, protos, built);
        }
        return built;
    }

    private static FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
                                        Map<String, FileDescriptor> built) throws DescriptorValidationException {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = protos.get(name);
        if (proto == null) {
            throw new IllegalArgumentException("the set lacks the import " + name);
        }
        FileDescriptor[] imports = new FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < imports.length; i++) {
            imports[i] = build(proto.getDependency(i), protos, built);
        }
        FileDescriptor file = FileDescriptor.buildFrom(proto, imports);
        built.put(name, file);
        return file;
    }

    private static Descriptor find(FileDescriptor file, String fullName) {
        for (Descriptor message : file.getMessageTypes()) {
            Descriptor found = find(message, fullName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static Descriptor find(Descriptor message, String fullName) {
        if (message.getFullName().equals(fullName)) {
            return message;
        }
        for (Descriptor nested : message.getNestedTypes()) {
            Descriptor found = find(nested, fullName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
