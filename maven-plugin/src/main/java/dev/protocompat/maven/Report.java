/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What of the CLI's text report goes into Maven's BUILD FAILURE summary. */
final class Report {

    /**
     * The first line of a verdict: "[TOPIC: ]ROOT in FILE: Incompatible under STRATEGY (profile P): ... against N
     * existing schemas" (the topic with an admin URL; the file alone where the root is unknown).
     */
    private static final Pattern VERDICT = Pattern.compile("^(?:.*: )?(Compatible|Incompatible) under .* against .*");
    /**
     * A finding's first line: [FILE:LINE:COL: ][warning: ]RULE_ID PATH ..., the lines under it
     * (example, fix) indented. Only the start is matched, so a change to what follows the path
     * (directions, schema hashes) leaves findings recognised.
     */
    private static final Pattern FINDING =
            Pattern.compile("^(.*:[0-9]+:[0-9]+: )?(warning: )?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+ \\S.*");
    /**
     * A project's topic header: "topic persistent://t/n/x, against git main" over a report whose
     * verdict names the root and the file, "topic persistent://t/n/x: shop.Order in proto/x.proto,
     * against ..." over a topic that has none.
     */
    private static final Pattern TOPIC = Pattern.compile("^topic \\S+[:,] .*");
    /** A project's last line: "protocompat.yaml: 3 topics: 1 incompatible, 2 compatible". */
    private static final Pattern TALLY = Pattern.compile("^\\S.*: [0-9]+ topics?: .*");
    /** A verdict's count of warnings when there are none: "0 warnings[ in N changes] against". */
    private static final Pattern NO_WARNINGS = Pattern.compile(" 0 warnings( in [0-9]+ changes?)? against ");
    /** More than this many findings are counted, not listed: the full report is in the log above. */
    static final int MAX_FINDINGS = 20;

    private Report() {
    }

    /** Whether {@code line} is the verdict of a check the broker would accept (with warnings, if it failed). */
    static boolean isCompatibleVerdict(String line) {
        Matcher verdict = VERDICT.matcher(line);
        return verdict.matches() && verdict.group(1).equals("Compatible");
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
        return isIncompatibleVerdict(verdict)
                || failOnWarning && !NO_WARNINGS.matcher(verdict).find();
    }

    /** Whether {@code line} is the verdict of a check the broker would refuse. */
    static boolean isIncompatibleVerdict(String line) {
        Matcher verdict = VERDICT.matcher(line);
        return verdict.matches() && verdict.group(1).equals("Incompatible");
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
