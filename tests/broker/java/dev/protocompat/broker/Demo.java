/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import dev.protocompat.broker.SchemaRest.Answer;

/**
 * The README's first command: a real Pulsar standalone broker with the plugin, a short schema
 * evolution through the admin REST API, what the broker answered, and a clean-up.
 */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("Starting a Pulsar standalone broker with schemaRegistryCompatibilityCheckers="
                + "...,ProtobufNativeSchemaAdvanceCompatibilityCheck");
        try (StandaloneBroker broker = StandaloneBroker.start()) {
            System.out.println("Pulsar " + broker.pulsarVersion() + " on Java " + broker.javaVersion() + " up at "
                    + broker.webUrl() + "; topic public/default/orders, strategy FULL");
            SchemaRest rest = new SchemaRest(broker.webUrl());
            String[] what = {
                "v1: the first version",
                "v2: adds `repeated string coupons = 6`",
                "v3: changes a type, a field number, packing, and a nested field's type",
            };
            for (int v = 1; v <= 3; v++) {
                Answer answer = rest.upload("public/default/orders", Shop.version(v));
                System.out.println();
                System.out.println("POST examples/shop/v" + v + "/order.proto (" + what[v - 1] + ")");
                if (answer.status() == 200) {
                    System.out.println("  accepted (HTTP 200), schema version " + SchemaRest.version(answer));
                } else {
                    System.out.println("  REJECTED (HTTP " + answer.status() + "):");
                    SchemaRest.errorMessage(answer).lines().forEach(line -> System.out.println("    " + line));
                }
            }
            Answer fixed = rest.upload("public/default/orders", Shop.v3Fixed());
            System.out.println();
            System.out.println("POST examples/shop/v3-fixed/order.proto (v3 as `protocompat check --fix` rewrote it)");
            if (fixed.status() == 200) {
                System.out.println("  accepted (HTTP 200), schema version " + SchemaRest.version(fixed));
            } else {
                System.out.println("  REJECTED (HTTP " + fixed.status() + "):");
                SchemaRest.errorMessage(fixed).lines().forEach(line -> System.out.println("    " + line));
            }
            System.out.println();
            System.out.println("Stopping the broker and deleting its data.");
        }
    }
}
