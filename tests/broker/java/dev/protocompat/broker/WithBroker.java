/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class with one real broker (default settings) for all its tests, and its REST client. */
abstract class WithBroker {

    static StandaloneBroker broker;
    static SchemaRest rest;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = StandaloneBroker.start();
        rest = new SchemaRest(broker.webUrl());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }
}
