/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.MisreadFinder.Misread;

/**
 * Random messages of one direction of a case, each written with the writer's descriptors and
 * read with the reader's: how many messages had a misread, and the first misread of each path.
 */
public record Trial(String caseName, Direction direction, long seed, int messages, int misreadMessages,
                   Map<String, Misread> firstByPath) {

    /** Nesting beyond this depth is left unset (required fields excepted), so recursion ends. */
    static final int MAX_DEPTH = 3;

    static Trial run(String caseName, Direction direction, Descriptor writer, Descriptor reader,
                     long seed, int messages) {
        MessageGenerator generator = new MessageGenerator(seed, MAX_DEPTH);
        Map<String, Misread> firstByPath = new LinkedHashMap<>();
        int misreadMessages = 0;
        for (int i = 0; i < messages; i++) {
            DynamicMessage written = generator.generate(writer);
            List<Misread> misreads = MisreadFinder.misreads(written, InvalidUtf8.encode(written), reader);
            if (!misreads.isEmpty()) {
                misreadMessages++;
                misreads.forEach(m -> firstByPath.putIfAbsent(m.path(), m));
            }
        }
        return new Trial(caseName, direction, seed, messages, misreadMessages, firstByPath);
    }

    boolean misread() {
        return misreadMessages > 0;
    }

    /** The case, the direction, and one example of each field misread, for a failure message. */
    String describe() {
        StringBuilder text = new StringBuilder(caseName + " " + direction + ": " + misreadMessages + " of "
                + messages + " messages misread (seed " + seed + ")");
        firstByPath.values().forEach(m -> text.append("\n      ").append(m));
        return text.toString();
    }
}
