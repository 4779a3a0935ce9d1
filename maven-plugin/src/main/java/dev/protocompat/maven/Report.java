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
     * A finding's first line: [FILE:LINE:COL: ][warning: ]RULE_ID PATH ... [STRATEGY, SCHEMA ...].
     * The lines under it (example, fix) are indented.
     */
    private static final Pattern FINDING =
            Pattern.compile("^(\\S.*: )?(warning: )?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+ \\S.* \\[[A-Z_]+, .*\\]$");
    /** More than this many findings are counted, not listed: the full report is in the log above. */
    static final int MAX_FINDINGS = 20;

    private Report() {
    }

    static boolean isFinding(String line) {
        return FINDING.matcher(line).matches();
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
