/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.junit.jupiter.api.Test;

/** The jar an operator copies into the broker's lib/: what it holds, and that it works alone. */
class PackagedJarIT {

    private static final Path JAR = Paths.get(System.getProperty("protocompat.jar"));

    @Test
    void holdsThePluginAndTheNativeLibraryAndNothingOfPulsars() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertTrue(jar.getEntry("org/apache/pulsar/broker/service/schema/"
                    + "ProtobufNativeSchemaAdvanceCompatibilityCheck.class") != null);
            ZipEntry library = jar.getEntry("native/linux-x86_64/libprotocompat_jni.so");
            assertTrue(library != null && library.getSize() > 100_000, "native library missing");
            List<String> foreign = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class"))
                    .filter(name -> !name.startsWith("org/apache/pulsar/broker/service/schema/"
                            + "ProtobufNativeSchemaAdvanceCompatibilityCheck")
                            && !name.startsWith("org/apache/pulsar/broker/service/schema/protocompat/"))
                    .toList();
            assertEquals(List.of(), foreign, "the jar carries classes the broker already has");
        }
    }

    /** Failsafe puts the packaged jar, not target/classes, on the classpath. */
    @Test
    void runsFromTheJar() throws Exception {
        Path source = Paths.get(ProtobufNativeSchemaAdvanceCompatibilityCheck.class
                .getProtectionDomain().getCodeSource().getLocation().toURI());
        assertEquals(JAR.toAbsolutePath(), source.toAbsolutePath());
        ChildJvm.Result result = ChildJvm.run(List.of("-Xcheck:jni"), JniWorkout.class);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("WORKOUT passed=3 rejected=4"), result.output());
        assertFalse(result.output().contains("WARNING in native method"), result.output());
    }
}
