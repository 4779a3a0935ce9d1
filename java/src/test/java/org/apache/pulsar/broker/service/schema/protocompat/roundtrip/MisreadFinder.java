/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * What a reader gets wrong about a writer's message: every field with the same number on both
 * sides, compared as the application would see it, recursively into messages. A field only
 * one side has is not compared; the writer's data going to unknown fields for a number the
 * reader lacks is ordinary field removal.
 */
public final class MisreadFinder {

    /** One value the reader got differently from what the writer meant. */
    public record Misread(String path, String written, String read) {

        @Override
        public String toString() {
            return path + ": written " + written + ", read " + read;
        }
    }

    private final List<Misread> found = new ArrayList<>();

    private MisreadFinder() {
    }

    /** Parses the writer's {@code encoded} message with {@code readerType} and compares. */
    public static List<Misread> misreads(DynamicMessage written, byte[] encoded, Descriptor readerType) {
        MisreadFinder finder = new MisreadFinder();
        DynamicMessage read;
        try {
            read = DynamicMessage.parseFrom(readerType, encoded);
        } catch (InvalidProtocolBufferException e) {
            finder.found.add(new Misread(readerType.getFullName(), shorten(Values.render(null, written)),
                    "parse failure: " + e.getMessage()));
            return finder.found;
        }
        finder.messages(readerType.getFullName(), written, read);
        return finder.found;
    }

    private void messages(String path, Message written, Message read) {
        Descriptor readerType = read.getDescriptorForType();
        for (FieldDescriptor writerField : written.getDescriptorForType().getFields()) {
            FieldDescriptor readerField = readerType.findFieldByNumber(writerField.getNumber());
            if (readerField != null) {
                field(path + "." + readerField.getName(), written, writerField, read, readerField);
            }
        }
    }

    private void field(String path, Message written, FieldDescriptor wf, Message read, FieldDescriptor rf) {
        // On the wire: a repeated field with elements, or a singular one the writer has (an
        // implicit-presence field is not written when it holds its default).
        boolean onWire = wf.isRepeated() ? written.getRepeatedFieldCount(wf) > 0 : written.hasField(wf);
        if (onWire && read.getUnknownFields().hasField(rf.getNumber())) {
            found.add(new Misread(path, Values.render(wf, written.getField(wf)),
                    "kept only as unknown field " + rf.getNumber()
                            + " (" + Values.render(rf, read.getField(rf)) + ")"));
            return;
        }
        if (wf.isRepeated() && rf.isRepeated()) {
            lists(path, wf, (List<?>) written.getField(wf), rf, (List<?>) read.getField(rf));
        } else if (wf.isRepeated()) {
            List<?> elements = (List<?>) written.getField(wf);
            if (elements.size() >= 2) {
                // A singular reader keeps the last scalar, or merges messages: either way it
                // reads one value where the writer wrote several.
                found.add(new Misread(path, Values.render(wf, elements), Values.render(rf, read.getField(rf))
                        + " (" + elements.size() + " elements read as one)"));
            } else if (elements.size() == 1) {
                singular(path, wf, elements.get(0), true, read, rf);
            }
        } else if (rf.isRepeated()) {
            if (onWire) {
                lists(path, wf, List.of(written.getField(wf)), rf, (List<?>) read.getField(rf));
            }
        } else if (onWire || (Values.isScalarOrEnum(wf) && Values.isScalarOrEnum(rf))) {
            // An unset scalar or enum still reads as a value: the two defaults must agree.
            singular(path, wf, written.getField(wf), onWire, read, rf);
        }
    }

    /**
     * A singular reader field against one value of the writer: written on the wire, or the
     * default of an unset field. A value on the wire must also leave the reader's field set
     * where it has presence (a oneof the reader shares with another written field loses it).
     */
    private void singular(String path, FieldDescriptor wf, Object value, boolean onWire, Message read,
                          FieldDescriptor rf) {
        if (onWire && rf.hasPresence() && !read.hasField(rf)) {
            found.add(new Misread(path, Values.render(wf, value), "unset"));
            return;
        }
        value(path, wf, value, rf, read.getField(rf));
    }

    private void lists(String path, FieldDescriptor wf, List<?> written, FieldDescriptor rf, List<?> read) {
        if (written.size() != read.size()) {
            found.add(new Misread(path, Values.render(wf, written), Values.render(rf, read)));
            return;
        }
        for (int i = 0; i < written.size(); i++) {
            value(path + "[" + i + "]", wf, written.get(i), rf, read.get(i));
        }
    }

    private void value(String path, FieldDescriptor wf, Object written, FieldDescriptor rf, Object read) {
        if (written instanceof Message w && read instanceof Message r) {
            messages(path, w, r);
        } else if (!Values.same(wf, written, rf, read)) {
            String w = Values.render(wf, written);
            String r = Values.render(rf, read);
            if (w.equals(r)) {
                // A float 0.1 and a double 0.1 print alike and differ.
                w += " (" + written.getClass().getSimpleName() + " " + exact(written) + ")";
                r += " (" + read.getClass().getSimpleName() + " " + exact(read) + ")";
            }
            found.add(new Misread(path, w, r));
        }
    }

    private static String exact(Object value) {
        return (value instanceof Float || value instanceof Double) && Double.isFinite(((Number) value).doubleValue())
                ? new BigDecimal(((Number) value).doubleValue()).toPlainString() : String.valueOf(value);
    }

    private static String shorten(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
