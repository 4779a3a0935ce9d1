/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.DynamicMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Random writer messages for one schema, from a seed: the values that break readers (extremes,
 * negatives, non-ASCII text, unknown enum numbers where the writer's enum is open, invalid UTF-8
 * where the writer does not validate it) more often than chance would pick them.
 */
public final class MessageGenerator {

    private static final int[] INT32 = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 127, 128, 300, -300};
    private static final long[] INT64 = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE - 1L,
        Integer.MAX_VALUE + 1L, 1L << 32, -(1L << 40)};
    private static final float[] FLOATS = {0f, -0f, 1.5f, -1f, 3f, Float.MAX_VALUE, -Float.MAX_VALUE,
        Float.MIN_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
    private static final double[] DOUBLES = {0d, -0d, 1.5d, -1d, 3d, Double.MAX_VALUE, -Double.MAX_VALUE,
        Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1e300, 4294967296d};
    private static final String[] STRINGS = {"", "a", "héllo wörld", "日本語のテキスト",
        "emoji 😀 and 𝄞", "nul\u0000inside", "Ωmega", "\u00ff\u0100\u07ff\u0800\uffff"};
    private static final String TEXT_ALPHABET = "aZ09 _-éüßΩж中文😀𝄞\t\n\"\\'";

    private final Random random;
    private final int maxDepth;

    public MessageGenerator(long seed, int maxDepth) {
        this.random = new Random(seed);
        this.maxDepth = maxDepth;
    }

    /** A message of {@code type} that builds: every required field set, at any depth. */
    public DynamicMessage generate(Descriptor type) {
        return generate(type, 0);
    }

    private DynamicMessage generate(Descriptor type, int depth) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
        for (FieldDescriptor field : type.getFields()) {
            if (field.getRealContainingOneof() != null) {
                continue;
            }
            if (field.isRepeated()) {
                addElements(builder, field, depth);
            } else if (field.isRequired() || (maySet(field, depth) && random.nextInt(10) < 6)) {
                builder.setField(field, value(field, depth));
            }
        }
        // Each oneof on its own: one member set, or none; several oneofs may be set at once.
        for (OneofDescriptor oneof : type.getRealOneofs()) {
            if (random.nextInt(10) < 7) {
                FieldDescriptor member = oneof.getField(random.nextInt(oneof.getFieldCount()));
                if (maySet(member, depth)) {
                    builder.setField(member, value(member, depth));
                }
            }
        }
        return builder.build();
    }

    /** A message field deeper than maxDepth stays unset unless required (recursive types end). */
    private boolean maySet(FieldDescriptor field, int depth) {
        return field.getJavaType() != FieldDescriptor.JavaType.MESSAGE || depth < maxDepth || field.isRequired();
    }

    private void addElements(DynamicMessage.Builder builder, FieldDescriptor field, int depth) {
        if (!maySet(field, depth)) {
            return;
        }
        int count = random.nextInt(4);
        if (field.isMapField()) {
            addEntries(builder, field, count, depth);
            return;
        }
        for (int i = 0; i < count; i++) {
            builder.addRepeatedField(field, value(field, depth));
        }
    }

    /** Map entries with distinct keys, so that no entry hides another (which a reader may keep). */
    private void addEntries(DynamicMessage.Builder builder, FieldDescriptor field, int count, int depth) {
        Descriptor entryType = field.getMessageType();
        FieldDescriptor keyField = entryType.findFieldByNumber(1);
        FieldDescriptor valueField = entryType.findFieldByNumber(2);
        Set<Object> keys = new HashSet<>();
        for (int i = 0; i < count; i++) {
            Object key = value(keyField, depth + 1);
            if (!keys.add(key)) {
                continue;
            }
            builder.addRepeatedField(field, DynamicMessage.newBuilder(entryType)
                    .setField(keyField, key)
                    .setField(valueField, value(valueField, depth + 1))
                    .build());
        }
    }

    private Object value(FieldDescriptor field, int depth) {
        switch (field.getType()) {
            case INT32: case SINT32: case SFIXED32: case UINT32: case FIXED32:
                // uint32/fixed32 hold their value in a Java int: -1 is 4294967295.
                return pick(INT32, () -> random.nextInt());
            case INT64: case SINT64: case SFIXED64: case UINT64: case FIXED64:
                return pick(INT64, () -> random.nextLong());
            case BOOL:
                return random.nextBoolean();
            case FLOAT:
                return random.nextInt(3) == 0 ? random.nextFloat() * 1000 - 500
                        : FLOATS[random.nextInt(FLOATS.length)];
            case DOUBLE:
                return random.nextInt(3) == 0 ? random.nextDouble() * 1e6 - 5e5
                        : DOUBLES[random.nextInt(DOUBLES.length)];
            case STRING:
                return string(field);
            case BYTES:
                return bytes();
            case ENUM:
                return enumValue(field);
            case MESSAGE: case GROUP:
                return generate(field.getMessageType(), depth + 1);
            default:
                throw new IllegalArgumentException("unknown field type " + field.getType());
        }
    }

    private Object pick(int[] extremes, Supplier<Integer> any) {
        return random.nextInt(3) == 0 ? any.get() : extremes[random.nextInt(extremes.length)];
    }

    private Object pick(long[] extremes, Supplier<Long> any) {
        return random.nextInt(3) == 0 ? any.get() : extremes[random.nextInt(extremes.length)];
    }

    private String string(FieldDescriptor field) {
        // Where the writer does not validate UTF-8 (proto2, or Editions utf8_validation = NONE), a
        // C++ or Go writer can store any bytes: InvalidUtf8 swaps them in after encoding.
        if (!field.needsUtf8Check() && random.nextInt(8) == 0) {
            return InvalidUtf8.PLACEHOLDER;
        }
        if (random.nextInt(3) > 0) {
            return STRINGS[random.nextInt(STRINGS.length)];
        }
        int[] alphabet = TEXT_ALPHABET.codePoints().toArray();
        StringBuilder text = new StringBuilder();
        for (int length = random.nextInt(12); length > 0; length--) {
            text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return text.toString();
    }

    private ByteString bytes() {
        switch (random.nextInt(5)) {
            case 0:
                return ByteString.EMPTY;
            case 1:
                return ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe, 0, (byte) 0x80});
            case 2:
                return ByteString.copyFromUtf8(STRINGS[random.nextInt(STRINGS.length)]);
            default:
                byte[] any = new byte[random.nextInt(9)];
                random.nextBytes(any);
                return ByteString.copyFrom(any);
        }
    }

    /**
     * A declared value, uniformly; or, one time in ten where protobuf-java treats the field as
     * open, a number the enum does not declare, which such a writer can set.
     */
    private EnumValueDescriptor enumValue(FieldDescriptor field) {
        EnumDescriptor type = field.getEnumType();
        List<EnumValueDescriptor> values = type.getValues();
        if (!field.legacyEnumFieldTreatedAsClosed() && random.nextInt(10) == 0) {
            return type.findValueByNumberCreatingIfUnknown(undeclaredNumber(type));
        }
        return values.get(random.nextInt(values.size()));
    }

    private int undeclaredNumber(EnumDescriptor type) {
        List<Integer> candidates = new ArrayList<>(List.of(-7, 1000, Integer.MAX_VALUE));
        type.getValues().forEach(v -> candidates.add(v.getNumber() + 1));
        while (true) {
            int n = candidates.get(random.nextInt(candidates.size()));
            if (type.findValueByNumber(n) == null) {
                return n;
            }
        }
    }
}
