/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * With -Pportable the bundled library needs no glibc symbol newer than the baseline
     * (2.17), read with objdump as the distribution's loader would resolve them.
     */
    @Test
    void theBundledLibraryNeedsNoNewerGlibcThanTheBaseline() throws Exception {
        String baseline = System.getProperty("protocompat.expect.glibc", "");
        org.junit.jupiter.api.Assumptions.assumeFalse(baseline.isBlank(), "built without -Pportable");
        Path library = Files.createTempFile("protocompat-jar", ".so");
        try (JarFile jar = new JarFile(JAR.toFile())) {
            Files.copy(jar.getInputStream(jar.getEntry("native/linux-x86_64/libprotocompat_jni.so")), library,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Process objdump = new ProcessBuilder("objdump", "-T", library.toString()).start();
        String symbols = new String(objdump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, objdump.waitFor());
        Files.delete(library);
        Matcher m = Pattern.compile("GLIBC_([0-9.]+)").matcher(symbols);
        String newest = "0";
        while (m.find()) {
            if (compareVersions(m.group(1), newest) > 0) {
                newest = m.group(1);
            }
        }
        System.out.println("Bundled library needs glibc " + newest + " at most (baseline " + baseline + ")");
        assertTrue(compareVersions(newest, baseline) <= 0, "needs GLIBC_" + newest + ", over " + baseline);
        assertTrue(compareVersions(newest, "2.2") > 0, "no glibc symbols read: " + symbols.length());
    }

    private static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0;
            int q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
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
        assertEquals(List.of(), ChildJvm.jniWarnings(result.output()), result.output());
    }
}
