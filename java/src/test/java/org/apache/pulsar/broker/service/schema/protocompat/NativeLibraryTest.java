/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How the library loads, and what an operator reads when it cannot: each failure is logged at
 * startup, every check is rejected with the same message, and the JVM carries on.
 */
class NativeLibraryTest {

    /** The platform of the JVM running the tests (Maven sets it: linux-aarch64 in the arm64 JVM). */
    private static final String PLATFORM = System.getProperty("protocompat.expect.platform", "linux-x86_64");
    /** The platforms the classes' native/ folder holds: both with -Pportable, else the host's. */
    private static final List<String> BUNDLED =
            List.of(System.getProperty("protocompat.expect.platforms", PLATFORM).split(","));

    @Test
    void loadsFromTheJarResourceByDefault() {
        assertEquals(null, NativeLibrary.ensureLoaded());
        assertEquals(PLATFORM, NativeLibrary.platform());
        assertEquals(BUNDLED, NativeLibrary.bundledPlatforms());
    }

    @Test
    void theArchitectureNamesMapToThePlatformFolders() {
        Map<String, String> platforms = new LinkedHashMap<>();
        for (String arch : List.of("amd64", "x86_64", "aarch64", "arm64", "riscv64", "ppc64le")) {
            platforms.put(arch, NativeLibrary.platform("Linux", arch));
        }
        assertEquals(Map.of("amd64", "linux-x86_64", "x86_64", "linux-x86_64", "aarch64", "linux-aarch64",
                "arm64", "linux-aarch64", "riscv64", "linux-riscv64", "ppc64le", "linux-ppc64le"), platforms);
    }

    @Test
    void aMissingLibraryFileIsNamed() throws Exception {
        String out = run("-Dprotocompat.native.library=/nonexistent/libprotocompat_jni.so");
        assertTrue(out.contains("ERROR org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvance"
                + "CompatibilityCheck - PROTOBUF_NATIVE compatibility check unavailable"), out);
        assertTrue(out.contains("RESULT rejected: PROTOBUF_NATIVE compatibility check unavailable, every "
                + "PROTOBUF_NATIVE schema will be rejected until this is fixed: the file named by "
                + "-Dprotocompat.native.library does not exist: /nonexistent/libprotocompat_jni.so"), out);
        assertTrue(out.contains("METRIC native_library_loaded=0.0 error_checks=1.0"), out);
    }

    @Test
    void anUnusableExtractionDirectoryIsNamed() throws Exception {
        String out = run("-Dprotocompat.native.dir=/nonexistent/extract");
        assertTrue(out.contains("RESULT rejected: PROTOBUF_NATIVE compatibility check unavailable"), out);
        assertTrue(out.contains("cannot extract the native library into /nonexistent/extract"), out);
        assertTrue(out.contains("Set -Dprotocompat.native.dir to a writable directory."), out);
    }

    @Test
    void anUnsupportedPlatformIsNamed() throws Exception {
        String out = run("-Dos.arch=riscv64");
        assertTrue(out.contains("this jar has no native library for platform linux-riscv64 (it carries: "
                + String.join(", ", BUNDLED) + "; release jars support linux-x86_64 and linux-aarch64). To run "
                + "there, build the library on a linux-riscv64 machine (cargo build --release -p protocompat-jni) "
                + "and point -Dprotocompat.native.library at it."), out);
    }

    /**
     * On an x86_64 host, a JVM that says it is aarch64: without -Pportable the jar has no such
     * library and says how to get one; with it, the loader picks native/linux-aarch64, which
     * this JVM refuses as another machine's code.
     */
    @Test
    void aReleasePlatformIsLookedUpInItsOwnFolder() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(PLATFORM.equals("linux-x86_64"), "an x86_64 JVM only");
        String out = run("-Dos.arch=aarch64");
        if (BUNDLED.contains("linux-aarch64")) {
            assertTrue(out.contains("cannot load the library extracted to"), out);
            assertTrue(out.contains("can't load AARCH64 .so on a AMD 64 platform)). The library is for another "
                    + "machine than this JVM's (platform linux-aarch64): point -Dprotocompat.native.library at one "
                    + "built for it."), out);
        } else {
            assertTrue(out.contains("this jar has no native library for platform linux-aarch64 (it carries: "
                    + "linux-x86_64; it was built without -Pportable). Use a jar built with mvn -Pportable "
                    + "package, which carries linux-x86_64 and linux-aarch64, or build the library on a "
                    + "linux-aarch64 machine"), out);
        }
    }

    @Test
    void aFileThatIsNotALibraryIsNamed() throws Exception {
        Path notALibrary = Files.createTempFile("protocompat-not-a-library", ".so");
        Files.writeString(notALibrary, "not an ELF file");
        String out = run("-Dprotocompat.native.library=" + notALibrary);
        assertTrue(out.contains("cannot load the file named by -Dprotocompat.native.library"), out);
        Files.delete(notALibrary);
    }

    @Test
    void theClassLoadedTwiceWorksInBothLoaders() throws Exception {
        ChildJvm.Result result = ChildJvm.run(List.of("-Xcheck:jni"), LoadTwiceMain.class);
        assertEquals(0, result.exitCode(), result.output());
        // COMPATIBLE_FROM_CACHES (2): the schema against itself needs no comparison.
        assertTrue(result.output().contains("LOADER 1 failure=null verdict=2 distinct=true"), result.output());
        assertTrue(result.output().contains("LOADER 2 failure=null verdict=2 distinct=true"), result.output());
    }

    /** Needs root to mount a noexec tmpfs, as CI and the development machines have. */
    @Test
    void aNoexecExtractionDirectoryIsNamed() throws Exception {
        Path dir = Files.createTempDirectory("protocompat-noexec");
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "noexec,size=16m", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a noexec tmpfs here");
        try {
            String out = run("-Dprotocompat.native.dir=" + dir);
            assertTrue(out.contains("cannot load the library extracted to " + dir), out);
            assertTrue(out.contains("If that directory is mounted noexec, set -Dprotocompat.native.dir"), out);
        } finally {
            new ProcessBuilder("umount", dir.toString()).start().waitFor();
            Files.deleteIfExists(dir);
        }
    }

    private static String run(String property) throws Exception {
        ChildJvm.Result result = ChildJvm.run(List.of(property), LoadFailureMain.class);
        assertEquals(0, result.exitCode(), result.output());
        return result.output();
    }
}
