/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

/** One way data flows between a fixture case's two schemas, and the strategy that checks it alone. */
public enum Direction {
    /** BACKWARD: the new schema must read what the existing (old) one wrote. */
    OLD_WRITES_NEW_READS("BACKWARD", "old_writes_new_reads"),
    /** FORWARD: the existing (old) schema must read what the new one writes. */
    NEW_WRITES_OLD_READS("FORWARD", "new_writes_old_reads");

    private final String strategy;
    private final String fixtureKey;

    Direction(String strategy, String fixtureKey) {
        this.strategy = strategy;
        this.fixtureKey = fixtureKey;
    }

    public String strategy() {
        return strategy;
    }

    /** The name expect.json gives this direction. */
    public String fixtureKey() {
        return fixtureKey;
    }

    public <T> T writer(T oldSide, T newSide) {
        return this == OLD_WRITES_NEW_READS ? oldSide : newSide;
    }

    public <T> T reader(T oldSide, T newSide) {
        return this == OLD_WRITES_NEW_READS ? newSide : oldSide;
    }
}
