/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import org.junit.jupiter.api.Test;

/** After a restart on the same data the broker still enforces the rules against stored history. */
class BrokerRestartIT {

    @Test
    void rulesHoldAcrossARestart() throws Exception {
        try (StandaloneBroker broker = StandaloneBroker.start()) {
            SchemaRest rest = new SchemaRest(broker.webUrl());
            String topic = "public/default/orders";
            assertEquals(200, rest.upload(topic, Shop.version(1)).status());
            assertEquals(200, rest.upload(topic, Shop.version(2)).status());

            broker.restart();

            Answer refused = rest.upload(topic, Shop.version(3));
            assertEquals(409, refused.status(), refused.toString());
            assertTrue(refused.body().contains("FIELD_KIND_CHANGED shop.Order.total.currency"), refused.body());
            Answer again = rest.upload(topic, Shop.version(2));
            assertEquals(1, SchemaRest.version(again), again.toString());
            assertTrue(broker.log().contains("PROTOBUF_NATIVE schema check: SCALAR_TYPE_CHANGED shop.Order.id"),
                    "warnings reach the broker log");
        }
    }

    /**
     * docs/operators.md, sections 2 and 5: rolled back to the built-in checker, the broker keeps
     * the history and accepts what the built-in checker accepts (v3, same root name); switched
     * on again, the plugin refuses the next change against that history, and the audit finds it.
     */
    @Test
    void aRollbackKeepsTheHistoryAndTheAuditFindsWhatItLetThrough() throws Exception {
        try (StandaloneBroker broker = StandaloneBroker.start()) {
            SchemaRest rest = new SchemaRest(broker.webUrl());
            rest.createNamespace("public/rollback", "FULL_TRANSITIVE");
            rest.createSubscribedTopic("public/rollback/orders");
            String topic = "public/rollback/orders";
            assertEquals(200, rest.upload(topic, Shop.version(1)).status());
            assertEquals(409, rest.upload(topic, Shop.version(3)).status());

            broker.restartWithCheckers(StandaloneBroker.BUILT_IN_CHECKERS);
            Answer builtIn = rest.upload(topic, Shop.version(3));
            assertEquals(200, builtIn.status(), builtIn.toString());
            assertEquals(1, SchemaRest.version(builtIn));

            broker.restartWithCheckers(StandaloneBroker.CHECKERS);
            Answer again = rest.upload(topic, Shop.version(2));
            assertEquals(409, again.status(), "v2 now meets v3 in the history: " + again);
            CliRun audit = CliRun.of("audit", "--admin-url", broker.webUrl(), "--namespace", "public/rollback");
            assertEquals(1, audit.exit(), audit.toString());
            assertTrue(audit.out().contains("CONFLICTS persistent://" + topic + " (2 versions, FULL_TRANSITIVE)"),
                    audit.toString());
        }
    }
}
