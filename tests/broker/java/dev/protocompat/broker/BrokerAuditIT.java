/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code protocompat audit} against a real broker holding a clean namespace and one whose
 * history conflicts: v1 then v3 (incompatible under FULL) accepted while the namespace was
 * ALWAYS_COMPATIBLE, as the built-in checker accepts them, then switched to FULL_TRANSITIVE.
 * The audit finds that topic, and a real consumer with the latest schema is refused as it says.
 */
class BrokerAuditIT extends WithBroker {

    private static final String CLEAN = "public/audit-clean/orders";
    private static final String CONFLICTING = "public/audit-conflict/orders";

    @BeforeAll
    static void histories() throws Exception {
        rest.createNamespace("public/audit-clean", "FULL");
        rest.createSubscribedTopic(CLEAN);
        assertEquals(200, rest.upload(CLEAN, Shop.version(1)).status());
        assertEquals(200, rest.upload(CLEAN, Shop.version(2)).status());

        rest.createNamespace("public/audit-conflict", "ALWAYS_COMPATIBLE");
        rest.createSubscribedTopic(CONFLICTING);
        assertEquals(200, rest.upload(CONFLICTING, Shop.version(1)).status());
        assertEquals(200, rest.upload(CONFLICTING, Shop.version(3)).status());
        rest.setStrategy("public/audit-conflict", "FULL_TRANSITIVE");
    }

    @Test
    void theConflictingHistoryIsFoundAndNamedByVersion() throws Exception {
        CliRun run = CliRun.of("audit", "--admin-url", broker.webUrl());
        assertEquals(1, run.exit(), run.toString());
        assertTrue(run.out().contains("ok        persistent://" + CLEAN + " (2 versions, FULL)"), run.toString());
        assertTrue(run.out().contains("CONFLICTS persistent://" + CONFLICTING + " (2 versions, FULL_TRANSITIVE)"),
                run.toString());
        assertTrue(run.out().contains("  version 1 would be refused today: Incompatible PROTOBUF_NATIVE schema"),
                run.toString());
        // Found in both directions, listed once.
        assertTrue(run.out().contains("FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 "
                + "[FULL_TRANSITIVE, version 0 "), run.toString());
        assertFalse(run.out().contains("shop.Order.note (field 5): writer=number 5 reader=number 4"), run.toString());
        assertTrue(run.out().contains("  a consumer with the latest schema is refused: "), run.toString());
        assertTrue(run.out().endsWith("2 topics with PROTOBUF_NATIVE schemas at " + broker.webUrl()
                + ", 1 with a history the profile pip246 refuses\n"), run.toString());
    }

    @Test
    void aCleanNamespaceHasNothingToReport() throws Exception {
        CliRun run = CliRun.of("audit", "--admin-url", broker.webUrl(), "--namespace", "public/audit-clean");
        assertEquals(0, run.exit(), run.toString());
        assertTrue(run.out().contains("1 topic with PROTOBUF_NATIVE schemas at " + broker.webUrl()
                + ", 0 with a history the profile pip246 refuses"), run.toString());
    }

    @Test
    void theJsonReportListsEachTopic() throws Exception {
        CliRun run = CliRun.of("audit", "--admin-url", broker.webUrl(), "--tenant", "public", "--format", "json");
        assertEquals(1, run.exit(), run.toString());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals(1, json.path("reportVersion").asInt());
        assertTrue(json.path("failed").asBoolean());
        JsonNode conflicting = null;
        for (JsonNode topic : json.path("topics")) {
            if (topic.path("topic").asText().equals("persistent://" + CONFLICTING)) {
                conflicting = topic;
            }
        }
        assertTrue(conflicting != null, run.out());
        assertEquals(1, conflicting.path("refusedUploads").get(0).path("version").asInt());
        assertEquals("[0]", conflicting.path("refusedUploads").get(0).path("comparedWith").toString());
        assertTrue(conflicting.path("consumerWithLatest").path("refused").asBoolean());
    }

    /** What the audit says of a consumer with the latest schema is what the broker does. */
    @Test
    void aConsumerWithTheLatestSchemaIsRefusedAsTheAuditSays() throws Exception {
        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build()) {
            PulsarClientException refused = assertThrows(PulsarClientException.class,
                    () -> client.newConsumer(new NativeSchema("orders", Shop.version(3)))
                            .topic("persistent://" + CONFLICTING).subscriptionName("latest").subscribe());
            assertTrue(refused.getMessage().contains("FIELD_NUMBER_CHANGED shop.Order.note"), refused.getMessage());
            // On the clean topic the same kind of consumer is accepted.
            client.newConsumer(new NativeSchema("orders", Shop.version(2)))
                    .topic("persistent://" + CLEAN).subscriptionName("latest").subscribe().close();
        }
    }
}
