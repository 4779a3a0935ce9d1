/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.bench;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.DescriptorProto.ExtensionRange;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Schemas that cost protobuf-java, and so Pulsar's own PROTOBUF_NATIVE validator, seconds of CPU
 * while staying small: many relative dotted type names ({@code b.T}) resolved from inside a long
 * package. protobuf-java resolves such a name by trying every enclosing scope from the innermost
 * outwards, building each candidate name as a new string, so one name costs about the square of
 * the package's length, and the schema pays that once per name.
 *
 * <p>Each input is two versions of one topic's schema: a small first version (what the topic
 * holds) and the costly one. Both have the root file {@code root.proto}, whose package is
 * {@code a.a.…} ({@code parts} components), importing {@code b.proto} (package {@code b}), which
 * declares {@code message T {}} and the extendee {@code message E}; the root message is
 * {@code R}. Pulsar's validator accepts every input; so does our plugin, except {@link #LONG_PACKAGE}
 * and {@link #SMALL}, whose packages are past {@code maxNameLength}.
 */
record CostlyUploads(String name, String what, byte[] first, byte[] costly) {

    /** The input reported in issue 20: 32,400 methods of one service, a 512-part package. */
    static final String METHODS = "methods";
    /** 26,000 extensions whose extendee and type are relative dotted names. */
    static final String EXTENSIONS = "extensions";
    /** 30,000 fields of the root message with relative dotted type names. */
    static final String FIELDS = "fields";
    /** 22,000 such fields in a message nested 90 deep inside the root message (as many as
     *  {@code maxFullNameBytes} lets our plugin take). */
    static final String NESTED = "nested";
    /** Fewer methods (2,000) in a package of 2,048 parts (4 KB): a much smaller schema. */
    static final String LONG_PACKAGE = "long-package";

    /** 500 methods in a package of 2,048 parts (4 KB): about 20 KB of schema data. */
    static final String SMALL = "small";
    static final List<String> ALL = List.of(METHODS, EXTENSIONS, FIELDS, NESTED, LONG_PACKAGE, SMALL);

    static CostlyUploads of(String name) {
        return switch (name) {
            case METHODS -> make(name, "32,400 methods, input and output `b.T`, package of 512 parts", 512, file -> {
                ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder().setName("S");
                for (int i = 0; i < 32_400; i++) {
                    service.addMethod(MethodDescriptorProto.newBuilder().setName("m" + i)
                            .setInputType("b.T").setOutputType("b.T"));
                }
                return file.addService(service);
            });
            case EXTENSIONS -> make(name, "26,000 extensions of `b.E` of type `b.T`, package of 512 parts", 512,
                    file -> {
                        for (int i = 0; i < 26_000; i++) {
                            file.addExtension(message("e" + i, number(i), "b.T").toBuilder().setExtendee("b.E"));
                        }
                        return file;
                    });
            case FIELDS -> make(name, "30,000 fields of type `b.T` in the root message, package of 512 parts", 512,
                    file -> {
                        DescriptorProto.Builder root = file.getMessageTypeBuilder(0);
                        for (int i = 0; i < 30_000; i++) {
                            root.addField(message("f" + i, number(i + 1), "b.T"));
                        }
                        return file;
                    });
            case NESTED -> make(name, "22,000 fields of type `b.T` in a message nested 90 deep, package of 512 parts",
                    512, file -> {
                        DescriptorProto.Builder inner = DescriptorProto.newBuilder().setName("N90");
                        for (int i = 0; i < 22_000; i++) {
                            inner.addField(message("f" + i, number(i), "b.T"));
                        }
                        for (int depth = 89; depth >= 1; depth--) {
                            inner = DescriptorProto.newBuilder().setName("N" + depth).addNestedType(inner);
                        }
                        file.getMessageTypeBuilder(0).addNestedType(inner);
                        return file;
                    });
            case LONG_PACKAGE -> make(name, "2,000 methods, input and output `b.T`, package of 2,048 parts (4 KB)",
                    2048, file -> {
                        ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder().setName("S");
                        for (int i = 0; i < 2_000; i++) {
                            service.addMethod(MethodDescriptorProto.newBuilder().setName("m" + i)
                                    .setInputType("b.T").setOutputType("b.T"));
                        }
                        return file.addService(service);
                    });
            case SMALL -> make(name, "500 methods, input and output `b.T`, package of 2,048 parts (4 KB)", 2048,
                    file -> {
                        ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder().setName("S");
                        for (int i = 0; i < 500; i++) {
                            service.addMethod(MethodDescriptorProto.newBuilder().setName("m" + i)
                                    .setInputType("b.T").setOutputType("b.T"));
                        }
                        return file.addService(service);
                    });
            default -> throw new IllegalArgumentException("unknown input " + name + "; the inputs are " + ALL);
        };
    }

    /** A small input of the same shape (100 names), to warm the JIT up on the same code. */
    static byte[] warmUp() {
        return schemaData(files(16, file -> {
            ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder().setName("S");
            for (int i = 0; i < 100; i++) {
                service.addMethod(MethodDescriptorProto.newBuilder().setName("m" + i)
                        .setInputType("b.T").setOutputType("b.T"));
            }
            return file.addService(service);
        }), 16);
    }

    private static CostlyUploads make(String name, String what, int parts,
                                      UnaryOperator<FileDescriptorProto.Builder> costly) {
        FileDescriptorSet first = files(parts, file -> file.setMessageType(0,
                file.getMessageTypeBuilder(0).addField(FieldDescriptorProto.newBuilder().setName("id").setNumber(1)
                        .setLabel(Label.LABEL_OPTIONAL).setType(Type.TYPE_INT64))));
        return new CostlyUploads(name, what, schemaData(first, parts), schemaData(files(parts, costly), parts));
    }

    /** The i-th field number from 1, past the numbers protobuf reserves (19,000 to 19,999). */
    private static int number(int i) {
        return i < 18_999 ? i + 1 : i + 1001;
    }

    private static FieldDescriptorProto message(String name, int number, String typeName) {
        return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setLabel(Label.LABEL_OPTIONAL)
                .setType(Type.TYPE_MESSAGE).setTypeName(typeName).build();
    }

    static String rootPackage(int parts) {
        return String.join(".", java.util.Collections.nCopies(parts, "a"));
    }

    private static FileDescriptorSet files(int parts, UnaryOperator<FileDescriptorProto.Builder> root) {
        FileDescriptorProto imported = FileDescriptorProto.newBuilder().setName("b.proto").setPackage("b")
                .setSyntax("proto2")
                .addMessageType(DescriptorProto.newBuilder().setName("T"))
                .addMessageType(DescriptorProto.newBuilder().setName("E")
                        .addExtensionRange(ExtensionRange.newBuilder().setStart(1).setEnd(536_870_912)))
                .build();
        FileDescriptorProto.Builder rootFile = FileDescriptorProto.newBuilder().setName("root.proto")
                .setPackage(rootPackage(parts)).setSyntax("proto2").addDependency("b.proto")
                .addMessageType(DescriptorProto.newBuilder().setName("R"));
        return FileDescriptorSet.newBuilder().addFile(imported).addFile(root.apply(rootFile)).build();
    }

    /** Pulsar's PROTOBUF_NATIVE schema data: the JSON a client uploads. */
    private static byte[] schemaData(FileDescriptorSet set, int parts) {
        String json = "{\"fileDescriptorSet\":\"" + Base64.getEncoder().encodeToString(set.toByteArray())
                + "\",\"rootMessageTypeName\":\"" + rootPackage(parts) + ".R\",\"rootFileDescriptorName\":\"root.proto\"}";
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
