/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.TextFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A copy of a schema whose string fields are bytes fields. Both are length-delimited on the
 * wire, so text format parsed into the copy encodes a string's escaped bytes exactly, invalid
 * UTF-8 included, where a Java String would replace them with U+FFFD.
 */
final class StringsAsBytes {

    private StringsAsBytes() {
    }

    static Descriptor twin(Descriptor root) {
        Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
        collect(root.getFile(), files);
        FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
        files.values().forEach(set::addFile);
        return PulsarSchema.root(set.build(), root.getFile().getName(), root.getFullName());
    }

    private static void collect(FileDescriptor file, Map<String, FileDescriptorProto> files) {
        if (files.containsKey(file.getName())) {
            return;
        }
        FileDescriptorProto.Builder proto = file.toProto().toBuilder();
        proto.getMessageTypeBuilderList().forEach(StringsAsBytes::convert);
        files.put(file.getName(), proto.build());
        file.getDependencies().forEach(d -> collect(d, files));
    }

    private static void convert(DescriptorProto.Builder message) {
        message.getNestedTypeBuilderList().forEach(StringsAsBytes::convert);
        if (message.getOptions().getMapEntry()) {
            return; // Keys must stay strings; Java validates a map's strings anyway.
        }
        for (FieldDescriptorProto.Builder field : message.getFieldBuilderList()) {
            if (field.getType() != FieldDescriptorProto.Type.TYPE_STRING) {
                continue;
            }
            field.setType(FieldDescriptorProto.Type.TYPE_BYTES);
            if (field.hasDefaultValue()) {
                // A bytes default is written C-escaped, a string default as is.
                field.setDefaultValue(TextFormat.escapeBytes(ByteString.copyFromUtf8(field.getDefaultValue())));
            }
            if (field.getOptions().getFeatures().hasUtf8Validation()) {
                field.getOptionsBuilder().getFeaturesBuilder().clearUtf8Validation();
            }
        }
    }
}
