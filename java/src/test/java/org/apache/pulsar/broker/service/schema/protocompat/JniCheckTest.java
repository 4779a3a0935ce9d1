/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The native method under -Xcheck:jni: no JNI warnings, and warnings reach SLF4J. */
class JniCheckTest {

    @Test
    void everyPathIsCleanUnderXcheckJni() throws Exception {
        ChildJvm.Result result = ChildJvm.run(List.of("-Xcheck:jni"), JniWorkout.class);
        String out = result.output();
        assertEquals(0, result.exitCode(), out);
        assertTrue(out.contains("WORKOUT passed=3 rejected=4"), out);
        assertEquals(List.of(), ChildJvm.jniWarnings(out), out);
        assertFalse(out.contains("FATAL"), out);
        // SCALAR_TYPE_CHANGED goes through the Rust log -> NativeLog -> SLF4J route.
        assertTrue(out.contains("WARN org.apache.pulsar.broker.service.schema."
                + "ProtobufNativeSchemaAdvanceCompatibilityCheck - PROTOBUF_NATIVE schema check: "
                + "SCALAR_TYPE_CHANGED shop.Order.id (field 1): writer=int32 reader=int64"), out);
    }
}
