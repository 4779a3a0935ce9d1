/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays one of the engine's examples (docs/rules.md#examples) through protobuf-java: the writer's
 * message, in text format, must parse with the writer's descriptors and encode to the example's
 * bytes, and those bytes, parsed with the reader's descriptors, must do what the outcome says.
 */
public final class ExampleVerifier {

    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Descriptor writerRoot;
    private final Descriptor readerRoot;

    public ExampleVerifier(Descriptor writerRoot, Descriptor readerRoot) {
        this.writerRoot = writerRoot;
        this.readerRoot = readerRoot;
    }

    /** What is wrong with the example; empty when protobuf-java does what it says. */
    public List<String> problems(JsonNode example) {
        List<String> problems = new ArrayList<>();
        try {
            replay(example, problems);
        } catch (RuntimeException e) {
            problems.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return problems;
    }

    private void replay(JsonNode example, List<String> problems) {
        for (String key : List.of("writer", "bytes", "reader")) {
            if (!example.path(key).isTextual()) {
                problems.add("the example has no `" + key + "` text");
                return;
            }
        }
        if (example.get("reader").asText().isBlank()) {
            problems.add("the example's reader sentence is empty");
        }
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(example.get("bytes").asText());
        } catch (IllegalArgumentException e) {
            problems.add("bytes are not hex: " + e.getMessage());
            return;
        }
        if (!example.get("bytes").asText().equals(HexFormat.of().formatHex(bytes))) {
            problems.add("bytes are not lowercase hex");
        }
        DynamicMessage written = writer(example.get("writer").asText(), bytes, problems);
        if (written != null) {
            outcome(example.path("outcome"), written, bytes, problems);
        }
    }

    /** The writer's message from its text, checked against the bytes; null if the text is bad. */
    private DynamicMessage writer(String text, byte[] bytes, List<String> problems) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(writerRoot);
        try {
            TextFormat.merge(text, builder);
        } catch (TextFormat.ParseException e) {
            problems.add("the writer text does not parse with the writer's " + writerRoot.getFullName() + ": "
                    + e.getMessage());
            return null;
        }
        DynamicMessage written = builder.buildPartial();
        if (!written.isInitialized()) {
            problems.add("the writer's message lacks required fields: " + written.findInitializationErrors());
        }
        byte[] encoded = written.toByteArray();
        if (Arrays.equals(encoded, bytes)) {
            return written;
        }
        if (holdsInvalidUtf8(text)) {
            // A C++ or Go proto2 writer stores a string's bytes as given; a Java String cannot hold
            // invalid UTF-8 (TextFormat puts U+FFFD in its place), so Java cannot write this
            // message. The text must still encode to the bytes with the strings taken as bytes,
            // and the bytes must parse with the writer's own schema, which then does not
            // validate UTF-8. The outcome's `written` is checked against the bytes, not U+FFFD.
            try {
                DynamicMessage.parseFrom(writerRoot, bytes);
            } catch (InvalidProtocolBufferException e) {
                problems.add("the bytes do not parse with the writer's own schema: " + e.getMessage());
            }
            return rawWriter(text, bytes, problems);
        }
        problems.add("the writer text encodes to " + HexFormat.of().formatHex(encoded) + ", not the example's "
                + HexFormat.of().formatHex(bytes));
        return written;
    }

    /** The writer's message with its strings as bytes, checked against the bytes. */
    private DynamicMessage rawWriter(String text, byte[] bytes, List<String> problems) {
        DynamicMessage.Builder raw = DynamicMessage.newBuilder(StringsAsBytes.twin(writerRoot));
        try {
            TextFormat.merge(text, raw);
        } catch (TextFormat.ParseException e) {
            problems.add("the writer text does not parse with its strings as bytes: " + e.getMessage());
            return null;
        }
        DynamicMessage written = raw.buildPartial();
        byte[] encoded = written.toByteArray();
        if (!Arrays.equals(encoded, bytes)) {
            problems.add("the writer text, its strings as bytes, encodes to " + HexFormat.of().formatHex(encoded)
                    + ", not the example's " + HexFormat.of().formatHex(bytes));
        }
        return written;
    }

    private static boolean holdsInvalidUtf8(String text) {
        Matcher quoted = QUOTED.matcher(text);
        while (quoted.find()) {
            try {
                if (!TextFormat.unescapeBytes(quoted.group(1)).isValidUtf8()) {
                    return true;
                }
            } catch (TextFormat.InvalidEscapeSequenceException e) {
                return false;
            }
        }
        return false;
    }

    private void outcome(JsonNode outcome, DynamicMessage written, byte[] bytes, List<String> problems) {
        String kind = outcome.path("kind").asText();
        DynamicMessage read;
        try {
            read = DynamicMessage.parseFrom(readerRoot, bytes);
        } catch (InvalidProtocolBufferException e) {
            failedParse(kind, outcome, e, problems);
            return;
        }
        switch (kind) {
            case "value":
                value(outcome, written, read, problems);
                break;
            case "unknown":
                unknown(outcome, read, problems);
                break;
            case "merged":
                merged(outcome, written, read, problems);
                break;
            case "parse_failure": case "missing_required":
                problems.add("the outcome is " + kind + " but the reader parses the bytes: "
                        + TextFormat.printer().shortDebugString(read));
                break;
            default:
                problems.add("unknown outcome kind `" + kind + "`");
        }
    }

    private void failedParse(String kind, JsonNode outcome, InvalidProtocolBufferException e, List<String> problems) {
        String message = String.valueOf(e.getMessage());
        if (kind.equals("parse_failure")) {
            String why = outcome.path("why").asText();
            if (why.isBlank()) {
                problems.add("parse_failure without a `why`");
            }
            if (mentionsUtf8(why) && !mentionsUtf8(message)) {
                problems.add("the outcome blames UTF-8 (" + why + ") but protobuf-java says: " + message);
            }
        } else if (kind.equals("missing_required")) {
            // Java lists the missing fields from the root, with an index in each list walked
            // through ("items[0].sku"); the engine's path has no index.
            String path = MessagePath.parse(readerRoot, outcome.path("path").asText()).relative();
            String listed = message.replaceAll("\\[\\d+]", "");
            if (!listed.startsWith("Message missing required fields: ")
                    || !List.of(listed.substring(listed.indexOf(": ") + 2).split(", ")).contains(path)) {
                problems.add("the reader throws, but not for the missing " + path + ": " + message);
            }
        } else {
            problems.add("the outcome is " + kind + " but the reader throws: " + message);
        }
    }

    private static boolean mentionsUtf8(String text) {
        return text.toLowerCase(Locale.ROOT).matches("(?s).*utf-?8.*");
    }

    private void value(JsonNode outcome, DynamicMessage written, DynamicMessage read, List<String> problems) {
        MessagePath path = MessagePath.parse(readerRoot, outcome.path("path").asText());
        MessagePath.Located located = path.inReader(read);
        FieldDescriptor field = located.holder().getDescriptorForType().findFieldByName(located.name());
        if (field == null) {
            problems.add("the reader has no field at " + outcome.path("path").asText());
            return;
        }
        String why = RenderedValue.mismatch(field, located.holder().getField(field), outcome.path("read").asText());
        if (why != null) {
            problems.add("the reader's " + outcome.path("path").asText() + " " + why);
        }
        MessagePath.FieldAt writerField = path.inWriter(readerRoot, written);
        if (writerField != null) {
            String whyWritten = RenderedValue.mismatch(writerField.field(), writerField.value(),
                    outcome.path("written").asText());
            if (whyWritten != null) {
                problems.add("the writer's " + writerField.field().getFullName() + " " + whyWritten);
            }
        }
    }

    private void unknown(JsonNode outcome, DynamicMessage read, List<String> problems) {
        int number = outcome.path("number").asInt(-1);
        MessagePath.Located located = MessagePath.parse(readerRoot, outcome.path("path").asText()).inReader(read);
        Message holder = located.holder();
        if (!holder.getUnknownFields().hasField(number)) {
            problems.add("the reader's " + holder.getDescriptorForType().getFullName() + " has no unknown field "
                    + number + " (unknown fields: " + holder.getUnknownFields().asMap().keySet() + ")");
        }
        for (FieldDescriptor field : new FieldDescriptor[] {
            holder.getDescriptorForType().findFieldByName(located.name()),
            holder.getDescriptorForType().findFieldByNumber(number)}) {
            if (field != null && isSet(holder, field)) {
                problems.add("the reader's " + field.getFullName() + " is set: "
                        + Values.render(field, holder.getField(field)));
            }
        }
    }

    private static boolean isSet(Message holder, FieldDescriptor field) {
        return field.isRepeated() ? holder.getRepeatedFieldCount(field) > 0 : holder.hasField(field);
    }

    private void merged(JsonNode outcome, DynamicMessage written, DynamicMessage read, List<String> problems) {
        MessagePath path = MessagePath.parse(readerRoot, outcome.path("path").asText());
        MessagePath.Located located = path.inReader(read);
        FieldDescriptor field = located.holder().getDescriptorForType().findFieldByName(located.name());
        if (field == null || field.isRepeated()) {
            problems.add("the reader has no singular field at " + outcome.path("path").asText());
            return;
        }
        String why = RenderedValue.mismatch(field, located.holder().getField(field), outcome.path("read").asText());
        if (why != null) {
            problems.add("the reader's " + outcome.path("path").asText() + " " + why);
        }
        MessagePath.FieldAt writerField = path.inWriter(readerRoot, written);
        int elements = outcome.path("elements").asInt(-1);
        if (elements < 2) {
            problems.add("merged needs 2 elements or more, not " + outcome.path("elements"));
        }
        if (writerField == null || !writerField.field().isRepeated()
                || writerField.holder().getRepeatedFieldCount(writerField.field()) != elements) {
            problems.add("the writer does not write " + elements + " elements at " + outcome.path("path").asText());
        }
    }
}
