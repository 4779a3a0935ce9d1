/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One field value as an application sees it, compared across two schemas: what "the reader got
 * the value the writer wrote" means when the two declare the field differently.
 */
public final class Values {

    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    private Values() {
    }

    /** How a value is compared: a number is a number whatever its encoding or Java type. */
    enum Kind { INTEGER, FLOATING, TEXT, ENUM, MESSAGE }

    static Kind kind(FieldDescriptor field) {
        switch (field.getJavaType()) {
            case INT: case LONG: case BOOLEAN:
                return Kind.INTEGER;
            case FLOAT: case DOUBLE:
                return Kind.FLOATING;
            case STRING: case BYTE_STRING:
                return Kind.TEXT;
            case ENUM:
                return Kind.ENUM;
            default:
                return Kind.MESSAGE;
        }
    }

    static boolean isScalarOrEnum(FieldDescriptor field) {
        return kind(field) != Kind.MESSAGE;
    }

    /**
     * Whether the reader's singular value {@code read} of {@code readerField} is what the writer
     * wrote ({@code written}, of {@code writerField}); messages are compared by the caller.
     */
    static boolean same(FieldDescriptor writerField, Object written, FieldDescriptor readerField, Object read) {
        Kind w = kind(writerField);
        Kind r = kind(readerField);
        if (w == Kind.ENUM && r == Kind.ENUM) {
            return sameEnum((EnumValueDescriptor) written, (EnumValueDescriptor) read);
        }
        if (written instanceof String text && read instanceof String) {
            // A string of invalid UTF-8 reads in Java with U+FFFD in place of the bad bytes, as it
            // would with the writer's own schema: only a change of what the reader does counts.
            return InvalidUtf8.bytesOf(text).toStringUtf8().equals(read);
        }
        if (w == Kind.TEXT || r == Kind.TEXT || w == Kind.MESSAGE || r == Kind.MESSAGE) {
            ByteString a = bytes(written);
            ByteString b = bytes(read);
            return a != null && a.equals(b);
        }
        if (w == Kind.FLOATING && r == Kind.FLOATING) {
            // Widening a float to a double is exact; Double.compare equates NaNs and tells -0 from 0.
            return Double.compare(((Number) written).doubleValue(), ((Number) read).doubleValue()) == 0;
        }
        BigDecimal a = number(writerField, written);
        BigDecimal b = number(readerField, read);
        return a != null && b != null && a.compareTo(b) == 0;
    }

    /**
     * Two enum values are the same value when they have the same name, or when the writer's name
     * is gone from the reader's enum and the numbers match (a renamed value: the fixtures and
     * both profiles hold a rename compatible). A name the reader still has for another number is
     * a misread. A number either side does not declare (an open enum) is compared as a number.
     */
    private static boolean sameEnum(EnumValueDescriptor written, EnumValueDescriptor read) {
        if (!declared(written) || !declared(read)) {
            return written.getNumber() == read.getNumber();
        }
        if (written.getName().equals(read.getName())) {
            return true;
        }
        return read.getType().findValueByName(written.getName()) == null && written.getNumber() == read.getNumber();
    }

    static boolean declared(EnumValueDescriptor value) {
        return value.getType().getValues().contains(value);
    }

    /** An integer, bool, enum or floating value as an exact number; null for NaN and infinities. */
    private static BigDecimal number(FieldDescriptor field, Object value) {
        if (value instanceof EnumValueDescriptor e) {
            return BigDecimal.valueOf(e.getNumber());
        }
        if (value instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? new BigDecimal(d) : null;
        }
        return new BigDecimal(integer(field, ((Number) value).longValue()));
    }

    /** uint32/fixed32 and uint64/fixed64 hold their value in a signed Java int or long. */
    static BigInteger integer(FieldDescriptor field, long value) {
        switch (field.getType()) {
            case UINT32: case FIXED32:
                return BigInteger.valueOf(value & 0xffffffffL);
            case UINT64: case FIXED64:
                return value < 0 ? BigInteger.valueOf(value).add(TWO_TO_64) : BigInteger.valueOf(value);
            default:
                return BigInteger.valueOf(value);
        }
    }

    /** Text, bytes or a message as the bytes the wire carries (a writer's invalid UTF-8 included). */
    private static ByteString bytes(Object value) {
        if (value instanceof ByteString b) {
            return b;
        }
        if (value instanceof String s) {
            return InvalidUtf8.bytesOf(s);
        }
        if (value instanceof Message m) {
            return ByteString.copyFrom(InvalidUtf8.encode(m));
        }
        return null;
    }

    /** A value as the engine's examples write it (text format; lists as {@code [a, b]}). */
    public static String render(FieldDescriptor field, Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(v -> render(field, v)).collect(Collectors.joining(", ", "[", "]"));
        }
        if (value instanceof EnumValueDescriptor e) {
            return declared(e) ? e.getName() : Integer.toString(e.getNumber());
        }
        if (value instanceof String s) {
            return "\"" + TextFormat.escapeBytes(InvalidUtf8.bytesOf(s)) + "\"";
        }
        if (value instanceof ByteString b) {
            return "\"" + TextFormat.escapeBytes(b) + "\"";
        }
        if (value instanceof Message m) {
            String text = InvalidUtf8.inText(TextFormat.printer().shortDebugString(m).trim());
            return text.isEmpty() ? "{ }" : "{ " + text + " }";
        }
        if (value instanceof Float f) {
            return floating(f.doubleValue(), Float.toString(f));
        }
        if (value instanceof Double d) {
            return floating(d, Double.toString(d));
        }
        if (value instanceof Integer || value instanceof Long) {
            return integer(field, ((Number) value).longValue()).toString();
        }
        return String.valueOf(value);
    }

    private static String floating(double value, String java) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return java;
    }
}
