/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import com.google.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A value as the engine's examples render it, held against the value protobuf-java has. The
 * text is parsed and compared as a value, not as text: the engine may spell a number, an escape
 * or a message differently from Java and still mean the same value.
 */
final class RenderedValue {

    private RenderedValue() {
    }

    /** Null when {@code rendered} is {@code value} of {@code field}, else why not. */
    static String mismatch(FieldDescriptor field, Object value, String rendered) {
        return field.isRepeated() ? listMismatch(field, (List<?>) value, rendered)
                : elementMismatch(field, value, rendered);
    }

    private static String listMismatch(FieldDescriptor field, List<?> values, String rendered) {
        String text = rendered.trim();
        if (!text.startsWith("[") || !text.endsWith("]")) {
            return "is repeated and holds " + Values.render(field, values) + ", not a list: " + rendered;
        }
        List<String> elements = elements(text.substring(1, text.length() - 1));
        if (elements.size() != values.size()) {
            return "holds " + Values.render(field, values) + " (" + values.size() + " elements), not " + rendered;
        }
        for (int i = 0; i < values.size(); i++) {
            String why = elementMismatch(field, values.get(i), elements.get(i));
            if (why != null) {
                return "element " + i + " " + why;
            }
        }
        return null;
    }

    /** One value of the field's type: the field's value if singular, an element if repeated. */
    private static String elementMismatch(FieldDescriptor field, Object value, String rendered) {
        try {
            return matches(field, value, rendered.trim()) ? null
                    : "holds " + Values.render(field, value) + ", not " + rendered;
        } catch (RuntimeException | IOException e) {
            return "holds " + Values.render(field, value) + "; cannot read " + rendered + " as a "
                    + field.getType() + ": " + e.getMessage();
        }
    }

    private static boolean matches(FieldDescriptor field, Object value, String text) throws IOException {
        switch (field.getJavaType()) {
            case INT: case LONG:
                return new BigInteger(text).equals(Values.integer(field, ((Number) value).longValue()));
            case BOOLEAN:
                return text.equals(value.toString());
            case FLOAT:
                // Parsed as a float, not as a double then narrowed, which may round twice.
                float f = special(text) != null ? special(text).floatValue() : Float.parseFloat(text);
                return Float.compare(f, (Float) value) == 0;
            case DOUBLE:
                double d = special(text) != null ? special(text) : Double.parseDouble(text);
                return Double.compare(d, (Double) value) == 0;
            case STRING:
                return unquote(text).equals(ByteString.copyFrom(((String) value).getBytes(StandardCharsets.UTF_8)));
            case BYTE_STRING:
                return unquote(text).equals(value);
            case ENUM:
                EnumValueDescriptor e = (EnumValueDescriptor) value;
                return text.matches("-?\\d+") ? Integer.parseInt(text) == e.getNumber() : text.equals(e.getName());
            default:
                return message(field, text).equals(withoutUnknownFields((Message) value));
        }
    }

    /** inf, -inf and nan as the examples spell them; null for a decimal number. */
    private static Double special(String text) {
        switch (text) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                // Java would take "Infinity" and "NaN" too: the examples must not.
                if (!text.matches("-?[0-9.]+([eE][-+]?[0-9]+)?")) {
                    throw new IllegalArgumentException("not a decimal number");
                }
                return null;
        }
    }

    /** {@code "…"} with TextFormat's escapes, as the bytes it stands for. */
    static ByteString unquote(String text) throws TextFormat.InvalidEscapeSequenceException {
        if (text.length() < 2 || !text.startsWith("\"") || !text.endsWith("\"")) {
            throw new IllegalArgumentException("not a quoted string");
        }
        return TextFormat.unescapeBytes(text.substring(1, text.length() - 1));
    }

    /** {@code { <text format> }} as a message of the field's type, without unknown fields. */
    private static Message message(FieldDescriptor field, String text) throws TextFormat.ParseException {
        if (!text.startsWith("{") || !text.endsWith("}")) {
            throw new IllegalArgumentException("not a message in braces");
        }
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(field.getMessageType());
        TextFormat.merge(text.substring(1, text.length() - 1), builder);
        return builder.buildPartial();
    }

    /** The message with its unknown fields dropped at every depth: text format cannot carry them. */
    static Message withoutUnknownFields(Message message) {
        Message.Builder builder = message.toBuilder().setUnknownFields(UnknownFieldSet.getDefaultInstance());
        for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
            FieldDescriptor field = entry.getKey();
            if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (field.isRepeated()) {
                List<Object> stripped = new ArrayList<>();
                for (Object element : (List<?>) entry.getValue()) {
                    stripped.add(withoutUnknownFields((Message) element));
                }
                builder.setField(field, stripped);
            } else {
                builder.setField(field, withoutUnknownFields((Message) entry.getValue()));
            }
        }
        return builder.buildPartial();
    }

    /** The elements of a list's inside, split at the commas outside quotes and braces. */
    static List<String> elements(String inside) {
        List<String> out = new ArrayList<>();
        if (inside.isBlank()) {
            return out;
        }
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < inside.length(); i++) {
            char c = inside.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(inside.substring(start, i).trim());
                start = i + 1;
            }
        }
        out.add(inside.substring(start).trim());
        return out;
    }
}
