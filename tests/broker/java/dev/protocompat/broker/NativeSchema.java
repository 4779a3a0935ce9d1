/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.util.Map;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.common.schema.SchemaInfo;
import org.apache.pulsar.common.schema.SchemaType;

/**
 * A client-side PROTOBUF_NATIVE schema made from schema data, as a producer built from generated
 * classes would send it; payloads are passed through as bytes (the broker does not read them).
 */
public final class NativeSchema implements Schema<byte[]> {

    private final SchemaInfo info;

    public NativeSchema(String name, byte[] schemaData) {
        this.info = SchemaInfo.builder()
                .name(name)
                .type(SchemaType.PROTOBUF_NATIVE)
                .schema(schemaData)
                .properties(Map.of())
                .build();
    }

    @Override
    public byte[] encode(byte[] message) {
        return message;
    }

    @Override
    public byte[] decode(byte[] bytes, byte[] schemaVersion) {
        return bytes;
    }

    @Override
    public SchemaInfo getSchemaInfo() {
        return info;
    }

    @Override
    public Schema<byte[]> clone() {
        return this;
    }
}
