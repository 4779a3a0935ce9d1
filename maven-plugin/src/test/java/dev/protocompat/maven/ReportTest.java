/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    /** docs/cli.md's report of examples/shop/v3 against v1, cut short. */
    private static final List<String> REPORT = List.of(
            "Incompatible PROTOBUF_NATIVE schema d5675e93d237 under FULL (profile pip246): 5 violations, 2 warnings against 1 existing schema",
            "examples/shop/v3/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4): writer=number 4 reader=number 5 [FULL, existing[0] bab686181224: existing writes, new reads]",
            "    writer: { note: \"a\" }",
            "    bytes:  22 01 61",
            "    fix: give field note its old number 4",
            "      examples/shop/v3/order.proto:8:17: write `4` in place of `5`",
            "FIELD_KIND_CHANGED shop.Order.total.currency (field 2): writer=string reader=enum shop.Currency [FULL, version 3 bab686181224: new writes, existing reads]",
            "examples/shop/v3/order.proto:5:3: warning: SCALAR_TYPE_CHANGED shop.Order.id (field 1): writer=int64 reader=string [FULL, existing[0] bab686181224: existing writes, new reads]",
            "    reader: keeps shop.Order.id only as unknown field 1: the reader's getters do not see it",
            "new: examples/shop/v3/order.proto",
            "existing[0]: examples/shop/v1/order.proto",
            "FULL: the new schema must read data written with existing[0], and be read by it");

    @Test
    void theSummaryIsTheVerdictAndEachFindingsFirstLine() {
        assertEquals(List.of(REPORT.get(0), REPORT.get(1), REPORT.get(6), REPORT.get(7)), Report.summary(REPORT));
    }

    @Test
    void aWarningsLinesAreTheFindingAndTheIndentedLinesUnderIt() {
        boolean[] warning = Report.warningLines(REPORT);
        List<Integer> warned = new ArrayList<>();
        for (int i = 0; i < warning.length; i++) {
            if (warning[i]) {
                warned.add(i);
            }
        }
        assertEquals(List.of(7, 8), warned);
    }

    @Test
    void manyFindingsAreCountedPastTheLimit() {
        List<String> lines = new ArrayList<>(List.of(REPORT.get(0)));
        for (int i = 0; i < Report.MAX_FINDINGS + 3; i++) {
            lines.add(REPORT.get(1));
        }
        List<String> summary = Report.summary(lines);
        assertEquals(Report.MAX_FINDINGS + 2, summary.size());
        assertEquals("... and 3 more findings (the report above lists them all)", summary.get(summary.size() - 1));
    }
}
