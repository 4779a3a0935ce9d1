/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static dev.protocompat.maven.Report.Level.ERROR;
import static dev.protocompat.maven.Report.Level.INFO;
import static dev.protocompat.maven.Report.Level.WARNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    /** docs/cli.md's report of examples/shop/v3 against v1, cut short. */
    private static final List<String> REPORT = List.of(
            "shop.Order in examples/shop/v3/order.proto: Incompatible under FULL (profile pip246): 5 violations, 2 warnings in 4 changes against 1 existing schema",
            "examples/shop/v3/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] bab686181224: both directions]",
            "    existing writes, new reads:",
            "      writer: { note: \"a\" }",
            "    fix: give field note its old number 4",
            "      examples/shop/v3/order.proto:8:17: write `4` in place of `5`",
            "FIELD_KIND_CHANGED shop.Order.total.currency (field 2): writer=string reader=enum shop.Currency [FULL, version 3 bab686181224: new writes, existing reads]",
            "examples/shop/v3/order.proto:5:3: warning: SCALAR_TYPE_CHANGED shop.Order.id (field 1): writer=int64 reader=string [FULL, existing[0] bab686181224: existing writes, new reads]",
            "    reader: keeps shop.Order.id only as unknown field 1: the reader's getters do not see it",
            "new: examples/shop/v3/order.proto (schema data sha256 d5675e93d237)",
            "existing[0]: examples/shop/v1/order.proto",
            "FULL: the new schema must read data written with existing[0], and be read by it");

    @Test
    void theSummaryIsTheVerdictAndEachFindingsFirstLine() {
        assertEquals(List.of(REPORT.get(0), REPORT.get(1), REPORT.get(6), REPORT.get(7)), Report.summary(REPORT, false));
    }

    @Test
    void theVerdictIsFoundWhateverLeadsIt() {
        assertFalse(Report.isCompatibleVerdict(REPORT.get(0)));
        assertTrue(Report.isCompatibleVerdict("persistent://public/default/orders: shop.Order in proto/order.proto: "
                + "Compatible under FULL (profile pip246): 2 warnings in 1 change against 1 existing schema"));
        assertTrue(Report.isCompatibleVerdict(
                "order.desc: Compatible under FULL (profile pip246): 0 warnings against 1 existing schema"));
        assertFalse(Report.isCompatibleVerdict(REPORT.get(1)));
    }

    @Test
    void aFailedChecksViolationsAreErrorsItsWarningsWarningsAndTheRestInfo() {
        assertEquals(List.of(ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, WARNING, WARNING, INFO, INFO, INFO),
                Report.levels(REPORT, true, false));
    }

    @Test
    void failOnWarningMakesTheWarningsErrors() {
        assertEquals(List.of(ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, INFO, INFO, INFO),
                Report.levels(REPORT, true, true));
    }

    @Test
    void aPassingChecksWarningsAreWarningsAndTheRestInfo() {
        List<String> passed = List.of(
                "shop.Order in examples/shop/v3/order.proto: Compatible under FULL (profile pip246): 1 warning against 1 existing schema",
                REPORT.get(7), REPORT.get(8), REPORT.get(9), "note: BACKWARD compares the latest of the 2 existing schemas only");
        assertEquals(List.of(INFO, WARNING, WARNING, INFO, INFO), Report.levels(passed, false, false));
    }

    @Test
    void aFindingIsKnownByItsLeadingRuleIdWhateverFollowsThePath() {
        assertTrue(Report.isFinding("proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4):"
                + " writer=number 4 reader=number 5 (both directions)"));
        assertTrue(Report.isFinding("warning: SCALAR_TYPE_CHANGED shop.Order.id (field 1)"));
        assertFalse(Report.isFinding("FULL_TRANSITIVE: the new schema must read data written with existing[0]"));
        assertFalse(Report.isFinding("note: BACKWARD_TRANSITIVE compares every existing schema"));
        assertFalse(Report.isFinding("new: proto/MY_DIR order.proto"));
    }

    /** A project's report (check --project), cut short: one topic refused, one passing. */
    private static final List<String> PROJECT = List.of(
            "topic persistent://shop/orders/orders, against git main",
            "shop.Order in proto/shop/order.proto: Incompatible under FULL (profile pip246): 2 violations, 0 warnings in 1 change against 1 existing schema",
            "proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] 9d215e2d1772: both directions]",
            "    fix: give field note its old number 4",
            "new: proto/shop/order.proto (schema data sha256 918e2cb4394b)",
            "",
            "topic persistent://shop/fulfilment/shipments, against git main",
            "shop.Shipment in proto/shop/shipment.proto: Compatible under BACKWARD (profile pip246): 0 warnings against 1 existing schema",
            "new: proto/shop/shipment.proto (schema data sha256 405509afd092)",
            "",
            "protocompat.yaml: 2 topics: 1 incompatible, 1 compatible");

    @Test
    void aProjectsSummaryNamesEachTopicAndItsFailingVerdictOnly() {
        assertEquals(List.of(PROJECT.get(0), PROJECT.get(1), PROJECT.get(2), PROJECT.get(6), PROJECT.get(10)),
                Report.summary(PROJECT, false));
    }

    @Test
    void aPassingTopicsVerdictInAFailedProjectIsInfo() {
        assertEquals(List.of(INFO, ERROR, ERROR, ERROR, INFO, INFO, INFO, INFO, INFO, INFO, INFO),
                Report.levels(PROJECT, true, false));
    }

    @Test
    void manyFindingsAreCountedPastTheLimit() {
        List<String> lines = new ArrayList<>(List.of(REPORT.get(0)));
        for (int i = 0; i < Report.MAX_FINDINGS + 3; i++) {
            lines.add(REPORT.get(1));
        }
        List<String> summary = Report.summary(lines, false);
        assertEquals(Report.MAX_FINDINGS + 2, summary.size());
        assertEquals("... and 3 more findings (the report above lists them all)", summary.get(summary.size() - 1));
    }
}
