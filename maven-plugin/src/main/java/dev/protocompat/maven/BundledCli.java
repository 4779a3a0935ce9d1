/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * The static {@code protocompat} executables this plugin's jar carries (one per Linux
 * architecture, built by rust/cli/build-static.sh), and their extraction to a file that can be run.
 */
final class BundledCli {

    static final String RESOURCES = "protocompat-cli/";
    static final String SUMS = RESOURCES + "SHA256SUMS";

    private BundledCli() {
    }

    /** The folder of the jar that holds the executable for this OS and architecture, if any. */
    static Optional<String> platform(String osName, String osArch) {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Optional.empty();
        }
        switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64":
            case "x86_64":
                return Optional.of("linux-x86_64");
            case "aarch64":
            case "arm64":
                return Optional.of("linux-aarch64");
            default:
                return Optional.empty();
        }
    }

    /**
     * The bundled executable for {@code platform}, as {@code dir/protocompat}: extracted unless a
     * file of the right digest is already there, and checked against the digest the build
     * recorded, so a truncated or altered copy is never run.
     */
    static Path extract(ClassLoader loader, String platform, Path dir) throws MojoExecutionException {
        String name = platform + "/protocompat";
        Map<String, String> digests = expectedDigests(loader);
        String expected = digests.get(name);
        if (expected == null) {
            // A plugin built from a checkout without the static build's tools carries its
            // build host's executable only (src/build/bundle-cli.sh).
            String carried = digests.keySet().stream().map(key -> key.replace("/protocompat", ""))
                    .sorted().collect(java.util.stream.Collectors.joining(", "));
            throw new MojoExecutionException(SUMS + " in the plugin's jar has no digest for " + name
                    + ": this build of the plugin carries protocompat for " + (carried.isEmpty() ? "no platform" : carried)
                    + " only; set <executable> (-Dprotocompat.executable) to a protocompat for " + platform
                    + ", or use a plugin built with the static executables (ci/prerequisites.sh static-cli)");
        }
        Path target = dir.resolve("protocompat");
        try {
            Files.createDirectories(dir);
            if (!Files.isRegularFile(target) || !expected.equals(sha256(target))) {
                // Another module of a parallel build may extract the same file: each writes its
                // own temporary copy and moves it into place whole.
                Path temporary = Files.createTempFile(dir, "protocompat", ".tmp");
                try (InputStream in = loader.getResourceAsStream(RESOURCES + name)) {
                    if (in == null) {
                        throw new MojoExecutionException("the plugin's jar lacks " + RESOURCES + name);
                    }
                    Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
                    String actual = sha256(temporary);
                    if (!expected.equals(actual)) {
                        throw new MojoExecutionException("the bundled " + RESOURCES + name + " has SHA-256 "
                                + actual + ", not " + expected + " as the plugin's build recorded:"
                                + " the plugin's jar is damaged");
                    }
                    if (!temporary.toFile().setExecutable(true)) {
                        throw new MojoExecutionException("cannot make " + temporary + " executable");
                    }
                    moveIntoPlace(temporary, target);
                } finally {
                    Files.deleteIfExists(temporary);
                }
            }
            // Checked again as it is now on disk, whoever wrote it.
            String actual = sha256(target);
            if (!expected.equals(actual)) {
                throw new MojoExecutionException(target + " has SHA-256 " + actual + ", not " + expected
                        + " (the bundled " + name + "): delete it and build again");
            }
            if (!Files.isExecutable(target) && !target.toFile().setExecutable(true)) {
                throw new MojoExecutionException("cannot make " + target + " executable");
            }
            return target;
        } catch (IOException e) {
            throw new MojoExecutionException("cannot extract the bundled protocompat to " + target + ": " + e, e);
        }
    }

    /** SHA256SUMS as {@code sha256sum} writes it: "HEX  NAME" a line. */
    static Map<String, String> parseSums(String text) {
        Map<String, String> sums = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] parts = line.trim().split("\\s+\\*?", 2);
            if (parts.length == 2 && parts[0].matches("[0-9a-f]{64}")) {
                sums.put(parts[1], parts[0]);
            }
        }
        return sums;
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static Map<String, String> expectedDigests(ClassLoader loader) throws MojoExecutionException {
        try (InputStream in = loader.getResourceAsStream(SUMS)) {
            if (in == null) {
                throw new MojoExecutionException("the plugin's jar lacks " + SUMS);
            }
            return parseSums(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read " + SUMS + " from the plugin's jar: " + e, e);
        }
    }

    private static void moveIntoPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
