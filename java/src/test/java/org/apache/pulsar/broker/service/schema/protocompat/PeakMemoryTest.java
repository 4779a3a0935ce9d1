/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The largest inputs inside the default limits, through JNI in a fresh JVM: the figures (native
 * peak, time) are printed for RELIABILITY.md, never asserted; the verdicts are.
 */
class PeakMemoryTest {

    @Test
    void theLargestAllowedInputsAreChecked() throws Exception {
        ChildJvm.Result result = ChildJvm.run(List.of("-Xmx1g"), PeakMemoryMain.class);
        String out = result.output();
        out.lines().filter(l -> l.startsWith("PEAK")).forEach(System.out::println);
        assertEquals(0, result.exitCode(), out);
        assertEquals(2, out.lines().filter(l -> l.startsWith("PEAK") && l.endsWith(": compatible")).count(), out);
        assertTrue(out.contains("PEAK the most fields allowed"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("PEAK 6,000,000 messages")
                && l.contains("RESOURCE_LIMIT_EXCEEDED") && l.contains("has 6000001 messages")), out);
    }
}
