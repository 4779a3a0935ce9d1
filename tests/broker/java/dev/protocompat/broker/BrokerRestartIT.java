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
}
