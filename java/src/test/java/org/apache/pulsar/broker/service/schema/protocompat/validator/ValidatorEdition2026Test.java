/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.nio.file.Files;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.junit.jupiter.api.Test;

/**
 * What Pulsar's own schema validator makes of an Edition 2026 descriptor, on the protobuf-java
 * of each broker line (docs/operators.md, section 14): the broker validates PROTOBUF_NATIVE
 * schema data with {@code ProtobufNativeSchemaUtils.deserialize} before any checker runs. This
 * class runs twice, as every Validator*Test does: on protobuf-java 3.25, which Pulsar 4.0 and
 * 4.2 ship, and on 4.36.2, which Pulsar 5.0 ships.
 */
class ValidatorEdition2026Test {

    /** FileDescriptorProto's {@code edition} field, and EDITION_2026's number in its enum. */
    private static final int EDITION_FIELD = 14;
    private static final int EDITION_2026 = 1002;

    @Test
    void theValidatorAcceptsA2026DescriptorAndOnly4xReadsItAs2026() throws Exception {
        byte[] data = Files.readAllBytes(
                Fixtures.root().resolve("editions/e2026_scalar_type_changed/old.schema"));
        Descriptor root = ProtobufNativeSchemaUtils.deserialize(data);
        assertEquals("shop.Order", root.getFullName());
        FileDescriptorProto file = root.getFile().toProto();
        FieldDescriptor edition = FileDescriptorProto.getDescriptor().findFieldByNumber(EDITION_FIELD);
        boolean protobuf4 = System.getProperty("protocompat.expect.protobuf", "3.").startsWith("4.");
        if (protobuf4) {
            assertTrue(file.hasField(edition), file.toString());
            assertEquals(EDITION_2026, ((EnumValueDescriptor) file.getField(edition)).getNumber());
            assertTrue(root.findFieldByName("id").hasPresence(), "2026's field_presence is EXPLICIT");
        } else {
            // 3.25's Edition enum is closed and lacks 1002: the value goes to the unknown
            // fields, and the file reads as syntax "editions" of an unknown edition, whose
            // features are not 2026's: a singular scalar loses its explicit presence.
            assertFalse(file.hasField(edition), file.toString());
            assertTrue(file.getUnknownFields().hasField(EDITION_FIELD), file.toString());
            assertEquals("editions", file.getSyntax());
            assertFalse(root.findFieldByName("id").hasPresence(), "presence as 3.25 reads it");
        }
    }
}
