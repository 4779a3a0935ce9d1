/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.apache.pulsar.broker.service.schema.protocompat.Fixtures.schema;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;

/**
 * The largest inputs the default limits let through, each checked once through the plugin
 * (FULL, against a copy of itself changed by one option, so both directions walk everything),
 * with the native heap the check held at its peak and the wall time. Prints one PEAK line each.
 */
public final class PeakMemoryMain {

    private static int number(int i) {
        return i >= 19_000 ? i + 1_000 : i;
    }

    private static FieldDescriptorProto field(String name, int number, Type type, String typeName) {
        FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder().setName(name).setNumber(number)
                .setLabel(Label.LABEL_OPTIONAL).setType(type);
        return typeName == null ? field.build() : field.setTypeName(typeName).build();
    }

    private static SchemaData data(FileDescriptorProto.Builder file, String version) {
        file.getOptionsBuilder().setJavaOuterClassname("V" + version);
        FileDescriptorSet set = FileDescriptorSet.newBuilder().addFile(file).build();
        String json = "{\"fileDescriptorSet\":\"" + Base64.getEncoder().encodeToString(set.toByteArray())
                + "\",\"rootMessageTypeName\":\"h.Root\",\"rootFileDescriptorName\":\"root.proto\"}";
        return schema(json.getBytes(StandardCharsets.UTF_8));
    }

    /** 9,090 messages of 10 fields, each held by a field of the root: the field limit. */
    private static FileDescriptorProto.Builder mostFields() {
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName("root.proto").setPackage("h")
                .setSyntax("proto3");
        DescriptorProto.Builder root = DescriptorProto.newBuilder().setName("Root");
        int messages = (100_000 - 10) / 11;
        for (int m = 0; m < messages; m++) {
            root.addField(field("m" + m, number(m + 1), Type.TYPE_MESSAGE, ".h.M" + m));
            DescriptorProto.Builder message = DescriptorProto.newBuilder().setName("M" + m);
            for (int f = 1; f <= 10; f++) {
                message.addField(field("f" + f, f, Type.TYPE_INT32, null));
            }
            file.addMessageType(message);
        }
        return file.addMessageType(root);
    }

    /** 149,990 named oneofs in the root: the declaration limit. */
    private static FileDescriptorProto.Builder mostOneofs() {
        DescriptorProto.Builder root = DescriptorProto.newBuilder().setName("Root")
                .addField(field("id", 1, Type.TYPE_INT64, null));
        for (int i = 0; i < 149_990; i++) {
            root.addOneofDecl(OneofDescriptorProto.newBuilder().setName("o" + i));
        }
        return FileDescriptorProto.newBuilder().setName("root.proto").setPackage("h").setSyntax("proto3")
                .addMessageType(root);
    }

    /**
     * A tiny root file beside a file it does not import declaring 6,000,000 empty messages
     * (two bytes each), written as raw bytes: refused by the message count before decoding.
     */
    private static SchemaData sixMillionMessages() {
        FileDescriptorProto root = FileDescriptorProto.newBuilder().setName("root.proto").setPackage("h")
                .setSyntax("proto3").addMessageType(DescriptorProto.newBuilder().setName("Root")
                        .addField(field("id", 1, Type.TYPE_INT64, null))).build();
        java.io.ByteArrayOutputStream big = new java.io.ByteArrayOutputStream();
        big.write(new byte[] {0x0a, 7, 'b', 'i', 'g', '.', 'p', 'r', 'o'}, 0, 9);
        for (int i = 0; i < 6_000_000; i++) {
            big.write(0x22);
            big.write(0x00);
        }
        FileDescriptorSet set = FileDescriptorSet.newBuilder().addFile(root).build();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes(set.toByteArray());
        byte[] file = big.toByteArray();
        bytes.write(0x0a);
        for (long n = file.length; ; n >>>= 7) {
            if (n < 0x80) {
                bytes.write((int) n);
                break;
            }
            bytes.write((int) (n & 0x7f) | 0x80);
        }
        bytes.writeBytes(file);
        String json = "{\"fileDescriptorSet\":\"" + Base64.getEncoder().encodeToString(bytes.toByteArray())
                + "\",\"rootMessageTypeName\":\"h.Root\",\"rootFileDescriptorName\":\"root.proto\"}";
        return schema(json.getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        String unavailable = NativeLibrary.ensureLoaded();
        if (unavailable != null) {
            throw new IllegalStateException(unavailable);
        }
        measure(check, "the most fields allowed", data(mostFields(), "1"), data(mostFields(), "2"));
        measure(check, "the most oneofs allowed", data(mostOneofs(), "1"), data(mostOneofs(), "2"));
        measure(check, "6,000,000 messages in a file the root does not import", data(mostOneofs(), "3"),
                sixMillionMessages());
    }

    private static void measure(ProtobufNativeSchemaAdvanceCompatibilityCheck check, String what,
                                SchemaData existing, SchemaData proposed) throws Exception {
        long started = System.nanoTime();
        String verdict = "compatible";
        try {
            check.checkCompatible(List.of(existing), proposed, SchemaCompatibilityStrategy.FULL);
        } catch (IncompatibleSchemaException e) {
            verdict = e.getMessage().lines().findFirst().orElse("");
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        Matcher peak = Pattern.compile("lastCheckPeakBytes=(\\d+)").matcher(NativeChecker.cacheStats());
        if (!peak.find()) {
            throw new IllegalStateException("no lastCheckPeakBytes in " + NativeChecker.cacheStats());
        }
        long bytes = Long.parseLong(peak.group(1));
        System.out.printf("PEAK %s: %d + %d bytes of schema data, native peak %d bytes (%.1f MB), %d ms: %s%n",
                what, existing.getData().length, proposed.getData().length, bytes, bytes / 1e6, millis, verdict);
    }
}
