/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What of the CLI's text report goes into Maven's BUILD FAILURE summary. */
final class Report {

    /** The first line of a verdict: "Incompatible PROTOBUF_NATIVE schema ... against N existing schemas". */
    private static final Pattern VERDICT = Pattern.compile("^(Compatible|Incompatible) .* against .*");
    /**
     * A finding's first line: [FILE:LINE:COL: ][warning: ]RULE_ID PATH ..., the lines under it
     * (example, fix) indented. Only the start is matched, so a change to what follows the path
     * (directions, schema hashes) leaves findings recognised.
     */
    private static final Pattern FINDING =
            Pattern.compile("^(.*:[0-9]+:[0-9]+: )?(warning: )?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+ \\S.*");
    /** A project's topic header: "topic persistent://t/n/x: shop.Order in proto/x.proto, against ...". */
    private static final Pattern TOPIC = Pattern.compile("^topic \\S+: .*");
    /** A project's last line: "protocompat.yaml: 3 topics: 1 incompatible, 2 compatible". */
    private static final Pattern TALLY = Pattern.compile("^\\S.*: [0-9]+ topics?: .*");
    /** More than this many findings are counted, not listed: the full report is in the log above. */
    static final int MAX_FINDINGS = 20;

    private Report() {
    }

    static boolean isFinding(String line) {
        return FINDING.matcher(line).matches();
    }

    /** The Maven log level of a report line. */
    enum Level {
        INFO, WARNING, ERROR
    }

    /**
     * Each line's level in Maven's log: a violation and the indented lines under it (example,
     * fix) at ERROR; a warning and its lines at WARNING, as compilers' plugins log theirs, unless
     * {@code failOnWarning} makes it fail the build; a failed check's verdict at ERROR; the rest
     * (the sides compared, notes) at INFO. A failed check's report is not all ERROR, so a warning
     * the broker would accept does not read as one more reason for the failure.
     */
    static List<Level> levels(List<String> lines, boolean failed, boolean failOnWarning) {
        List<Level> levels = new ArrayList<>(lines.size());
        Level finding = null;
        for (String line : lines) {
            if (VERDICT.matcher(line).matches()) {
                finding = null;
                levels.add(failed && refuses(line, failOnWarning) ? Level.ERROR : Level.INFO);
                continue;
            }
            if (isFinding(line)) {
                boolean warning = line.contains("warning: ");
                finding = warning && !failOnWarning ? Level.WARNING : Level.ERROR;
            } else if (!line.startsWith(" ")) {
                finding = null;
            }
            levels.add(finding == null ? Level.INFO : finding);
        }
        return levels;
    }

    /**
     * Whether a verdict line is one that fails the build: incompatible, or compatible with
     * warnings under failOnWarning. In a project's report the other topics' verdicts pass.
     */
    private static boolean refuses(String verdict, boolean failOnWarning) {
        return verdict.startsWith("Incompatible ")
                || failOnWarning && !verdict.contains(": 0 warnings against ");
    }

    /**
     * The failing verdicts and the finding lines of {@code lines} (at most {@link #MAX_FINDINGS}
     * of these), and for a project each topic's header and the tally.
     */
    static List<String> summary(List<String> lines, boolean failOnWarning) {
        List<String> summary = new ArrayList<>();
        int findings = 0;
        for (String line : lines) {
            if (VERDICT.matcher(line).matches()) {
                if (refuses(line, failOnWarning)) {
                    summary.add(line);
                }
            } else if (TOPIC.matcher(line).matches() || TALLY.matcher(line).matches()) {
                summary.add(line);
            } else if (isFinding(line)) {
                if (++findings <= MAX_FINDINGS) {
                    summary.add(line);
                }
            }
        }
        if (findings > MAX_FINDINGS) {
            summary.add("... and " + (findings - MAX_FINDINGS) + " more findings (the report above lists them all)");
        }
        return summary;
    }
}
