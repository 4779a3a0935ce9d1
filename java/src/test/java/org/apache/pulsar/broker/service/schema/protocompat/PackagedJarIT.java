/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.junit.jupiter.api.Test;

/** The jar an operator copies into the broker's lib/: what it holds, and that it works alone. */
class PackagedJarIT {

    private static final Path JAR = Paths.get(System.getProperty("protocompat.jar"));

    /** The platforms the jar must carry a library for: both with -Pportable, else the host's. */
    static List<String> expectedPlatforms() {
        return List.of(System.getProperty("protocompat.expect.platforms", "linux-x86_64").split(","));
    }

    /** ELF e_machine of each platform's library. */
    private static final Map<String, Integer> ELF_MACHINE = Map.of("linux-x86_64", 62, "linux-aarch64", 183);

    @Test
    void holdsThePluginAndTheNativeLibrariesAndNothingOfPulsars() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertTrue(jar.getEntry("org/apache/pulsar/broker/service/schema/"
                    + "ProtobufNativeSchemaAdvanceCompatibilityCheck.class") != null);
            for (String platform : expectedPlatforms()) {
                ZipEntry library = jar.getEntry(entry(platform));
                assertTrue(library != null && library.getSize() > 100_000, "native library missing: " + platform);
            }
            List<String> libraries = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("native/") && !name.endsWith("/")).sorted().toList();
            assertEquals(expectedPlatforms().stream().map(PackagedJarIT::entry).sorted().toList(), libraries);
            List<String> foreign = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class"))
                    .filter(name -> !name.startsWith("org/apache/pulsar/broker/service/schema/"
                            + "ProtobufNativeSchemaAdvanceCompatibilityCheck")
                            && !name.startsWith("org/apache/pulsar/broker/service/schema/protocompat/"))
                    .toList();
            assertEquals(List.of(), foreign, "the jar carries classes the broker already has");
        }
    }

    /** Each library is for its folder's machine (the ELF header's e_machine). */
    @Test
    void eachLibraryIsBuiltForItsPlatform() throws Exception {
        for (String platform : expectedPlatforms()) {
            byte[] header = new byte[20];
            try (JarFile jar = new JarFile(JAR.toFile());
                 InputStream in = jar.getInputStream(jar.getEntry(entry(platform)))) {
                assertEquals(20, in.readNBytes(header, 0, 20));
            }
            assertEquals("\u007fELF", new String(header, 0, 4, StandardCharsets.ISO_8859_1), platform);
            assertEquals(2, header[4], platform + ": not a 64-bit ELF file");
            int machine = (header[18] & 0xff) | (header[19] & 0xff) << 8;
            assertEquals(ELF_MACHINE.get(platform), machine, platform + ": ELF machine");
        }
    }

    /**
     * With -Pportable each bundled library needs no glibc symbol newer than the baseline (2.17),
     * read with objdump as the distribution's loader would resolve them.
     */
    @Test
    void theBundledLibrariesNeedNoNewerGlibcThanTheBaseline() throws Exception {
        String baseline = System.getProperty("protocompat.expect.glibc", "");
        org.junit.jupiter.api.Assumptions.assumeFalse(baseline.isBlank(), "built without -Pportable");
        for (String platform : expectedPlatforms()) {
            String symbols = objdump(platform);
            Matcher m = Pattern.compile("GLIBC_([0-9.]+)").matcher(symbols);
            String newest = "0";
            while (m.find()) {
                if (compareVersions(m.group(1), newest) > 0) {
                    newest = m.group(1);
                }
            }
            System.out.println(platform + " library needs glibc " + newest + " at most (baseline " + baseline + ")");
            assertTrue(compareVersions(newest, baseline) <= 0,
                    platform + " needs GLIBC_" + newest + ", over " + baseline);
            assertTrue(compareVersions(newest, "2.2") > 0, platform + ": no glibc symbols read: " + symbols.length());
        }
    }

    /** Each library exports exactly the JNI functions of NativeChecker's native methods. */
    @Test
    void eachLibraryExportsTheNativeMethods() throws Exception {
        List<String> expected = Arrays.stream(NativeChecker.class.getDeclaredMethods())
                .filter(method -> Modifier.isNative(method.getModifiers()))
                .map(method -> "Java_" + mangle(NativeChecker.class.getName()) + "_" + mangle(method.getName()))
                .sorted().toList();
        assertTrue(expected.size() >= 4, "native methods: " + expected);
        for (String platform : expectedPlatforms()) {
            // objdump -T: "ADDRESS g    DF .text  SIZE  Base  NAME", one per defined export.
            List<String> exported = objdump(platform).lines()
                    .filter(line -> line.contains(" g ") && line.contains(".text"))
                    .map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .filter(name -> name.startsWith("Java_") || name.startsWith("JNI_"))
                    .sorted().toList();
            assertEquals(expected, exported, platform + " exports");
        }
    }

    private static String entry(String platform) {
        return "native/" + platform + "/libprotocompat_jni.so";
    }

    /** JNI's short name of a class or method: '_' becomes "_1", '.' becomes '_'. */
    private static String mangle(String name) {
        return name.replace("_", "_1").replace('.', '_');
    }

    /** objdump -T of one platform's library, read out of the jar. */
    private static String objdump(String platform) throws Exception {
        Path library = Files.createTempFile("protocompat-jar", ".so");
        try {
            try (JarFile jar = new JarFile(JAR.toFile())) {
                Files.copy(jar.getInputStream(jar.getEntry(entry(platform))), library,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            Process objdump = new ProcessBuilder("objdump", "-T", library.toString()).start();
            String symbols = new String(objdump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, objdump.waitFor(), "objdump -T " + platform);
            return symbols;
        } finally {
            Files.delete(library);
        }
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
