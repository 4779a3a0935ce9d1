/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;

/** Schema data for the README's example (examples/shop) and a history for transitive checks. */
public final class Shop {

    private static final String TYPES = "message Money { int64 cents = 1; }\nmessage Price { int64 cents = 1; }\n";

    private Shop() {
    }

    /** examples/shop/v1, v2 (adds a field: compatible) and v3 (incompatible). */
    public static byte[] version(int v) {
        Path dir = Fixtures.root().resolve("../../examples/shop/v" + v).normalize();
        return Fixtures.compile(dir, "order.proto", "shop.Order");
    }

    /** examples/shop/v3-fixed: v3 as {@code protocompat check --fix} writes it against v2 (README). */
    public static byte[] v3Fixed() {
        Path dir = Fixtures.root().resolve("../../examples/shop/v3-fixed").normalize();
        return Fixtures.compile(dir, "order.proto", "shop.Order");
    }

    /** An order whose quantity is an int32: the base of the profile tests. */
    public static final String QUANTITY_INT32 = "message Order { int64 id = 1; int32 quantity = 2; string card = 3; string iban = 4; }";
    /** The same order with quantity widened to int64: the default profile warns, conservative refuses. */
    public static final String QUANTITY_INT64 = "message Order { int64 id = 1; int64 quantity = 2; string card = 3; string iban = 4; }";
    /** card and iban, written independently before, joined in a oneof: ONEOF_CONFLICT when the new schema reads. */
    public static final String PAYMENT_ONEOF =
            "message Order { int64 id = 1; int32 quantity = 2; oneof payment { string card = 3; string iban = 4; } }";
    /** A field added: compatible under both profiles. */
    public static final String NOTE_ADDED =
            "message Order { int64 id = 1; int32 quantity = 2; string card = 3; string iban = 4; string note = 5; }";

    /** Schema data of a proto3 {@code shop.Order} with these declarations. */
    public static byte[] order(String declarations) {
        try {
            return Fixtures.proto3(declarations);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Four versions where only the first conflicts with the last: v1 has {@code Money total = 2},
     * v2 drops it, v3 adds a field, v4 brings field 2 back as {@code Price total = 2}.
     */
    public static byte[][] transitiveHistory() throws IOException {
        return new byte[][] {
            Fixtures.proto3("message Order { int64 id = 1; Money total = 2; }\n" + TYPES),
            Fixtures.proto3("message Order { int64 id = 1; }\n" + TYPES),
            Fixtures.proto3("message Order { int64 id = 1; string note = 3; }\n" + TYPES),
            Fixtures.proto3("message Order { int64 id = 1; string note = 3; Price total = 2; }\n" + TYPES),
        };
    }
}
