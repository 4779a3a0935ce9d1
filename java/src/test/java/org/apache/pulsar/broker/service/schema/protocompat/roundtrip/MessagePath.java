/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A finding's path, {@code pkg.Order.items.price}: the root message's full name, then the
 * reader's field names. The last name may be the writer's, where the reader has no such field.
 */
final class MessagePath {

    /** The message holding the path's last field, and that field's name. */
    record Located(Message holder, String name) {
    }

    private final List<String> names;

    private MessagePath(List<String> names) {
        this.names = names;
    }

    static MessagePath parse(Descriptor readerRoot, String path) {
        String prefix = readerRoot.getFullName() + ".";
        if (!path.startsWith(prefix) || path.length() == prefix.length()) {
            throw new IllegalArgumentException("path " + path + " does not start at the reader's root "
                    + readerRoot.getFullName());
        }
        return new MessagePath(Arrays.asList(path.substring(prefix.length()).split("\\.")));
    }

    /** The path below the root, as Java names a missing required field ({@code b.c}). */
    String relative() {
        return String.join(".", names);
    }

    /** Walks the reader's message by field names. */
    Located inReader(Message root) {
        Message holder = root;
        for (String name : names.subList(0, names.size() - 1)) {
            FieldDescriptor field = holder.getDescriptorForType().findFieldByName(name);
            if (field == null || field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                throw new IllegalArgumentException("the reader's " + holder.getDescriptorForType().getFullName()
                        + " has no message field " + name);
            }
            holder = step(holder, field);
        }
        return new Located(holder, names.get(names.size() - 1));
    }

    /**
     * Walks the writer's message along the same field numbers as the reader's names, since a
     * field is the same field on both sides by its number; null where a number has no writer
     * field or the reader has no field of a name (then it is the writer's own name).
     */
    FieldAt inWriter(Descriptor readerRoot, Message writerRoot) {
        Descriptor readerType = readerRoot;
        Message holder = writerRoot;
        for (int i = 0; i < names.size(); i++) {
            FieldDescriptor readerField = readerType == null ? null : readerType.findFieldByName(names.get(i));
            boolean last = i == names.size() - 1;
            FieldDescriptor writerField = readerField != null
                    ? holder.getDescriptorForType().findFieldByNumber(readerField.getNumber())
                    : last ? holder.getDescriptorForType().findFieldByName(names.get(i)) : null;
            if (writerField == null) {
                return null;
            }
            if (last) {
                return new FieldAt(holder, writerField);
            }
            if (writerField.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                return null;
            }
            holder = step(holder, writerField);
            readerType = readerField.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                    ? readerField.getMessageType() : null;
        }
        return null;
    }

    /** A field of a message found by walking a path. */
    record FieldAt(Message holder, FieldDescriptor field) {

        Object value() {
            return holder.getField(field);
        }
    }

    /** Into a message field; a repeated one must hold exactly one element to be walked through. */
    private static Message step(Message holder, FieldDescriptor field) {
        if (!field.isRepeated()) {
            return (Message) holder.getField(field);
        }
        int count = holder.getRepeatedFieldCount(field);
        if (count != 1) {
            throw new IllegalArgumentException("the path goes through " + field.getFullName() + ", which holds "
                    + count + " elements, not one");
        }
        return (Message) holder.getRepeatedField(field, 0);
    }

    @Override
    public String toString() {
        return new ArrayList<>(names).toString();
    }
}
