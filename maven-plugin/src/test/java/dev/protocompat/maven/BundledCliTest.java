/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundledCliTest {

    @TempDir
    Path temp;

    @Test
    void theJvmsArchitectureNamesMapToTheJarsFolders() {
        assertEquals(Optional.of("linux-x86_64"), BundledCli.platform("Linux", "amd64"));
        assertEquals(Optional.of("linux-x86_64"), BundledCli.platform("Linux", "x86_64"));
        assertEquals(Optional.of("linux-aarch64"), BundledCli.platform("Linux", "aarch64"));
        assertEquals(Optional.of("linux-aarch64"), BundledCli.platform("Linux", "arm64"));
        assertEquals(Optional.empty(), BundledCli.platform("Mac OS X", "aarch64"));
        assertEquals(Optional.empty(), BundledCli.platform("Windows 11", "amd64"));
        assertEquals(Optional.empty(), BundledCli.platform("Linux", "ppc64le"));
    }

    /** A class loader over a jar-like folder holding one executable and the SHA256SUMS given. */
    private ClassLoader jarWith(byte[] executable, String sumsFor) throws Exception {
        Path resources = temp.resolve("jar");
        Path bin = resources.resolve(BundledCli.RESOURCES + "linux-x86_64/protocompat");
        Files.createDirectories(bin.getParent());
        Files.write(bin, executable);
        Path sumsSource = temp.resolve("sums-source");
        Files.write(sumsSource, sumsFor.getBytes(StandardCharsets.UTF_8));
        Files.writeString(resources.resolve(BundledCli.SUMS),
                BundledCli.sha256(sumsSource) + "  linux-x86_64/protocompat\n");
        return new URLClassLoader(new URL[] {resources.toUri().toURL()}, null);
    }

    @Test
    void theExecutableIsExtractedWhenItsDigestMatches() throws Exception {
        byte[] script = "#!/bin/sh\necho hi\n".getBytes(StandardCharsets.UTF_8);
        ClassLoader jar = jarWith(script, new String(script, StandardCharsets.UTF_8));
        Path extracted = BundledCli.extract(jar, "linux-x86_64", temp.resolve("out/0.1.0"));
        assertEquals(temp.resolve("out/0.1.0/protocompat"), extracted);
        assertTrue(Files.isExecutable(extracted));
        assertEquals("#!/bin/sh\necho hi\n", Files.readString(extracted));
        // Only the executable is left: no temporary copies.
        try (var files = Files.list(extracted.getParent())) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void anAlteredCopyOnDiskIsReplaced() throws Exception {
        byte[] script = "#!/bin/sh\necho hi\n".getBytes(StandardCharsets.UTF_8);
        ClassLoader jar = jarWith(script, new String(script, StandardCharsets.UTF_8));
        Path dir = temp.resolve("out");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("protocompat"), "#!/bin/sh\necho tampered\n");
        Path extracted = BundledCli.extract(jar, "linux-x86_64", dir);
        assertEquals("#!/bin/sh\necho hi\n", Files.readString(extracted));
    }

    @Test
    void aBundledExecutableWhoseDigestDiffersIsRefused() throws Exception {
        ClassLoader jar = jarWith("#!/bin/sh\necho hi\n".getBytes(StandardCharsets.UTF_8), "something else");
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> BundledCli.extract(jar, "linux-x86_64", temp.resolve("out")));
        assertTrue(e.getMessage().contains("the plugin's jar is damaged"), e.getMessage());
        assertTrue(Files.notExists(temp.resolve("out/protocompat")));
    }

    @Test
    void aPlatformTheSumsDoNotNameIsRefused() throws Exception {
        ClassLoader jar = jarWith(new byte[] {1}, "x");
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> BundledCli.extract(jar, "linux-aarch64", temp.resolve("out")));
        assertTrue(e.getMessage().contains("no digest for linux-aarch64/protocompat: this build of the plugin"
                + " carries protocompat for linux-x86_64 only; set <executable>"), e.getMessage());
    }
}
