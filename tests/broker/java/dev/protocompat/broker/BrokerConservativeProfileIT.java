/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real broker started as an operator enables the stricter profile, with
 * {@code -Dprotocompat.profile=conservative} on its command line: changes the default profile
 * accepts (int32 to int64, fields joined in a oneof; BrokerSchemaEvolutionIT shows the first) are
 * refused through REST and the Java client, and ordinary additions still pass.
 */
class BrokerConservativeProfileIT {

    private static StandaloneBroker broker;
    private static SchemaRest rest;
    private static PulsarClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = StandaloneBroker.start(List.of("-Dprotocompat.profile=conservative"));
        rest = new SchemaRest(broker.webUrl());
        client = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static String topic(String name, String strategy) throws Exception {
        String namespace = "public/" + name;
        rest.createNamespace(namespace, strategy);
        return namespace + "/orders";
    }

    @Test
    void widenedIntegerIsRefusedWithTypeChangedThroughRest() throws Exception {
        String topic = topic("conservative-type", "FULL");
        assertEquals(200, rest.upload(topic, Shop.order(Shop.QUANTITY_INT32)).status());
        Answer added = rest.upload(topic, Shop.order(Shop.NOTE_ADDED));
        assertEquals(200, added.status(), "an added field still passes: " + added);

        Answer refused = rest.upload(topic, Shop.order(Shop.QUANTITY_INT64));
        assertEquals(409, refused.status(), refused.toString());
        String message = SchemaRest.errorMessage(refused);
        assertTrue(message.startsWith("Incompatible PROTOBUF_NATIVE schema"), message);
        assertTrue(message.contains(" under FULL (profile conservative): 2 violations"), message);
        // FULL compares with the latest version only, which Pulsar passes as the only one (#0).
        // Found in both directions (2 violations), listed once.
        assertTrue(message.contains(" under FULL (profile conservative): 2 violations, 0 warnings in 1 change "), message);
        assertTrue(message.contains("TYPE_CHANGED shop.Order.quantity (field 2): existing=int32 new=int64 [FULL, "
                + "existing[0] "), message);
        assertTrue(message.contains(": both directions] (fix: "), message);
        assertEquals(1, message.split("TYPE_CHANGED shop.Order.quantity", -1).length - 1, message);
    }

    @Test
    void fieldsJoinedInAOneofAreRefusedWithOneofConflictThroughRest() throws Exception {
        String topic = topic("conservative-oneof", "BACKWARD");
        assertEquals(200, rest.upload(topic, Shop.order(Shop.QUANTITY_INT32)).status());
        Answer refused = rest.upload(topic, Shop.order(Shop.PAYMENT_ONEOF));
        assertEquals(409, refused.status(), refused.toString());
        String message = SchemaRest.errorMessage(refused);
        assertTrue(message.contains(" under BACKWARD (profile conservative): 1 violation"), message);
        assertTrue(message.contains("ONEOF_CONFLICT shop.Order.payment: writer=card outside any oneof, iban outside "
                + "any oneof reader=oneof payment { card, iban }"), message);
    }

    @Test
    void javaProducersAreRefusedWithTheFindings() throws Exception {
        String typed = "persistent://" + topic("conservative-producers-type", "FULL");
        String joined = "persistent://" + topic("conservative-producers-oneof", "BACKWARD");
        for (String topic : List.of(typed, joined)) {
            try (Producer<byte[]> first = client.newProducer(new NativeSchema("orders", Shop.order(Shop.QUANTITY_INT32)))
                    .topic(topic).create()) {
                first.send(new byte[] {8, 1});
            }
        }
        PulsarClientException.IncompatibleSchemaException widened = assertThrows(
                PulsarClientException.IncompatibleSchemaException.class,
                () -> client.newProducer(new NativeSchema("orders", Shop.order(Shop.QUANTITY_INT64)))
                        .topic(typed).create());
        assertTrue(widened.getMessage().contains("(profile conservative)"), widened.getMessage());
        assertTrue(widened.getMessage().contains("TYPE_CHANGED shop.Order.quantity (field 2)"), widened.getMessage());
        PulsarClientException.IncompatibleSchemaException conflict = assertThrows(
                PulsarClientException.IncompatibleSchemaException.class,
                () -> client.newProducer(new NativeSchema("orders", Shop.order(Shop.PAYMENT_ONEOF)))
                        .topic(joined).create());
        assertTrue(conflict.getMessage().contains("ONEOF_CONFLICT shop.Order.payment"), conflict.getMessage());
    }
}
