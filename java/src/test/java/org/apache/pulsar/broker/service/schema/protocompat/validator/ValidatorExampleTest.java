/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import java.nio.file.Path;
import java.util.List;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.junit.jupiter.api.Test;

/**
 * The validator as an application team uses it in its own unit tests (docs/cli.md quotes it):
 * the topic {@code orders} runs FULL_TRANSITIVE, v1 and v2 of {@code shop.Order} are in
 * production, and the next version must be accepted before it ships.
 */
class ValidatorExampleTest {

    /** The topic's strategy, FULL_TRANSITIVE: read and be read by every version in production. */
    private final ProtobufNativeSchemaValidator topic = new ProtobufNativeSchemaValidatorBuilder()
            .validatorStrategy(ProtobufNativeSchemaValidationStrategy.CanBeReadMutualStrategy)
            .isOnlyValidateLatest(false)
            .build();

    @Test
    void addingAFieldIsAccepted() throws ProtoBufCanReadCheckException {
        topic.validate(List.of(order("v1")), order("v2"));
    }

    @Test
    void renumberingAFieldIsRejected() {
        ProtoBufCanReadCheckException e = assertThrows(ProtoBufCanReadCheckException.class,
                () -> topic.validate(List.of(order("v1"), order("v2")), order("v3")));
        assertTrue(e.getMessage().contains("FIELD_NUMBER_CHANGED shop.Order.note"), e.getMessage());
    }

    /**
     * A version of shop.Order. In an application the version under development is the
     * generated class ({@code Order.getDescriptor()}), and released versions are kept as the
     * schema data the broker stores ({@code pulsar-admin schemas get}, or
     * {@code protocompat schema}), read back with Pulsar's own deserializer, as here.
     */
    private static Descriptor order(String version) {
        Path dir = Fixtures.root().resolve("../../examples/shop").resolve(version).normalize();
        return ProtobufNativeSchemaUtils.deserialize(Fixtures.compile(dir, "order.proto", "shop.Order"));
    }
}
