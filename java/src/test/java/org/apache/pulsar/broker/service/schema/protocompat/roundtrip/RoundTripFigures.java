/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import java.util.ArrayList;
import java.util.List;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.CheckerCli.Verdict;

/** The round trip's totals over every direction tried, printed into the Maven log. */
final class RoundTripFigures {

    private record Row(Trial trial, Verdict pip246, Verdict conservative) {
    }

    private final List<Row> rows = new ArrayList<>();

    synchronized void add(Trial trial, Verdict pip246, Verdict conservative) {
        rows.add(new Row(trial, pip246, conservative));
    }

    @Override
    public synchronized String toString() {
        List<Row> misread = rows.stream().filter(r -> r.trial.misread()).toList();
        List<Row> silent = misread.stream().filter(r -> !r.pip246.reportsAnything()).toList();
        StringBuilder text = new StringBuilder("Round trip through protobuf-java " + ProtobufJava.version() + ":\n");
        text.append("  directions tried: ").append(rows.size())
                .append(", messages: ").append(rows.stream().mapToInt(r -> r.trial.messages()).sum()).append('\n');
        text.append("  directions with misreads: ").append(misread.size())
                .append(" (").append(messages(misread)).append(" messages misread)\n");
        accepted(text, "pip246", rows.stream().filter(r -> r.pip246.compatible()).toList());
        accepted(text, "conservative", rows.stream().filter(r -> r.conservative.compatible()).toList());
        text.append("  silent misreads (misread, pip246 reports neither failure nor warning): ")
                .append(silent.size()).append(" directions (").append(messages(silent)).append(" messages)\n");
        silent.forEach(r -> text.append("    ").append(r.trial.caseName()).append(' ').append(r.trial.direction())
                .append(": ").append(String.join(", ", r.trial.firstByPath().keySet())).append('\n'));
        if (Boolean.getBoolean("protocompat.roundtrip.verbose")) {
            // Every direction with misreads beside what each profile says of it, to read by hand.
            misread.forEach(r -> text.append("  ").append(r.trial.describe().replace("\n", "\n  "))
                    .append("\n      pip246: ").append(r.pip246.findings())
                    .append("\n      conservative: ").append(r.conservative.findings()).append('\n'));
        }
        return text.toString();
    }

    private static void accepted(StringBuilder text, String profile, List<Row> accepted) {
        List<Row> misread = accepted.stream().filter(r -> r.trial.misread()).toList();
        text.append("  ").append(profile).append(" accepts ").append(accepted.size()).append(" directions, ")
                .append(misread.size()).append(" of them with misreads (").append(messages(misread))
                .append(" messages)\n");
    }

    private static int messages(List<Row> rows) {
        return rows.stream().mapToInt(r -> r.trial.misreadMessages()).sum();
    }
}
