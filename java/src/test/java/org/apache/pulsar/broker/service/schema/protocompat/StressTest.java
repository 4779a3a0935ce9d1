/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Many threads, one checker, under -Xcheck:jni: every answer equals the single-threaded one and
 * the JVM reports no JNI misuse. The memory figures are printed (RELIABILITY.md has a long run);
 * how long the run is comes from -Dprotocompat.stress.seconds (default 15).
 */
class StressTest {

    @Test
    void sharedCheckerUnderLoad() throws Exception {
        String seconds = System.getProperty("protocompat.stress.seconds", "15");
        ChildJvm.Result result = ChildJvm.run(List.of("-Xcheck:jni", "-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"), StressMain.class, "8", seconds);
        String out = result.output();
        out.lines().filter(l -> l.startsWith("STRESS")).forEach(System.out::println);
        assertEquals(0, result.exitCode(), out);
        assertTrue(out.contains("mismatches=0 "), out);
        assertEquals(List.of(), ChildJvm.jniWarnings(out), out);
        assertFalse(out.contains("FATAL"), out);
    }
}
