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
     * A finding's first line: [FILE:LINE:COL: ][warning: ]RULE_ID PATH ... [STRATEGY, SCHEMA ...].
     * The lines under it (example, fix) are indented.
     */
    private static final Pattern FINDING =
            Pattern.compile("^(\\S.*: )?(warning: )?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+ \\S.* \\[[A-Z_]+, .*\\]$");
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

    /**
     * Which lines of a passing check's report belong to a warning: a warning finding's first line
     * and the indented lines under it (example, fix). Maven shows them as [WARNING], so a change
     * the broker accepts with warnings does not pass unseen among [INFO] lines.
     */
    static boolean[] warningLines(List<String> lines) {
        boolean[] warning = new boolean[lines.size()];
        boolean inWarning = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (isFinding(line)) {
                inWarning = line.contains("warning: ");
            } else if (!line.startsWith(" ")) {
                inWarning = false;
            }
            warning[i] = inWarning;
        }
        return warning;
    }

    /** The verdict line and the finding lines of {@code lines}, at most {@link #MAX_FINDINGS} of these. */
    static List<String> summary(List<String> lines) {
        List<String> summary = new ArrayList<>();
        int findings = 0;
        for (String line : lines) {
            if (VERDICT.matcher(line).matches()) {
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
