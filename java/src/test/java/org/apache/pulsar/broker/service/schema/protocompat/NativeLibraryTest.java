/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the library loads, and what an operator reads when it cannot: each failure is logged at
 * startup, every check is rejected with the same message, and the JVM carries on.
 */
class NativeLibraryTest {

    @Test
    void loadsFromTheJarResourceByDefault() {
        assertEquals(null, NativeLibrary.ensureLoaded());
        assertEquals("linux-x86_64", NativeLibrary.platform());
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
        assertTrue(out.contains("this jar has no native library for platform linux-riscv64 (it supports "
                + "linux-x86_64)"), out);
        assertTrue(out.contains("-Dprotocompat.native.library"), out);
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
