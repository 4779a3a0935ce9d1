/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Loads the native library once per class loader: from {@value #LIBRARY_PROPERTY} if set,
 * else from the jar's {@code native/<platform>/} folder, extracted to a uniquely named file
 * (so two class loaders never share one, and a crashed broker leaves nothing stale behind:
 * the file is deleted as soon as it is loaded).
 */
public final class NativeLibrary {

    /** A library file to load instead of the one in the jar. */
    public static final String LIBRARY_PROPERTY = "protocompat.native.library";
    /** Where to extract the library (default: java.io.tmpdir), for hosts whose /tmp is noexec. */
    public static final String EXTRACT_DIR_PROPERTY = "protocompat.native.dir";

    /** System properties under these prefixes are native settings; the library names them all. */
    private static final List<String> SETTING_PREFIXES = List.of("protocompat.cache.", "protocompat.limit.");

    static final String LIBRARY_FILE = "libprotocompat_jni.so";
    private static final String SUPPORTED = "linux-x86_64";

    private static final Object LOCK = new Object();
    private static volatile boolean attempted;
    private static volatile String failure;

    private NativeLibrary() {
    }

    /** Loads the library if not done yet; returns null when loaded, else what went wrong. */
    public static String ensureLoaded() {
        if (!attempted) {
            synchronized (LOCK) {
                if (!attempted) {
                    try {
                        load();
                        configureCaches();
                    } catch (Throwable t) {
                        failure = t.getMessage();
                    }
                    attempted = true;
                }
            }
        }
        return failure;
    }

    /** {@code linux-x86_64}, {@code linux-aarch64}, {@code mac-aarch64}, ... */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        String osName = os.startsWith("linux") ? "linux"
                : os.startsWith("mac") ? "mac"
                : os.startsWith("windows") ? "windows" : os.replaceAll("[^a-z0-9]", "");
        String archName = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
        return osName + "-" + archName;
    }

    private static void load() {
        String explicit = System.getProperty(LIBRARY_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            loadFile(Paths.get(explicit).toAbsolutePath(), "the file named by -D" + LIBRARY_PROPERTY);
            return;
        }
        String platform = platform();
        String resource = "/native/" + platform + "/" + LIBRARY_FILE;
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(prefix() + "this jar has no native library for platform "
                        + platform + " (it supports " + SUPPORTED + "). Build the jar on a " + platform
                        + " machine (mvn package), or build the library there (cargo build --release -p "
                        + "protocompat-jni) and point -D" + LIBRARY_PROPERTY + " at it.");
            }
            Path dir = extractionDir();
            Path file;
            try {
                file = Files.createTempFile(dir, "libprotocompat_jni-", ".so");
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IllegalStateException(prefix() + "cannot extract the native library into " + dir
                        + " (" + e + "). Set -D" + EXTRACT_DIR_PROPERTY + " to a writable directory.", e);
            }
            try {
                loadFile(file, "the library extracted to " + dir);
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    file.toFile().deleteOnExit();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(prefix() + "cannot read " + resource + " from the jar: " + e, e);
        }
    }

    /**
     * Passes the cache bounds and resource limits an operator set as system properties
     * (README, RELIABILITY.md) by name; the native library holds the defaults and refuses an
     * unknown name or a bad value with a message naming the property.
     */
    private static void configureCaches() {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        Properties properties = System.getProperties();
        for (String property : properties.stringPropertyNames()) {
            if (SETTING_PREFIXES.stream().anyMatch(property::startsWith)) {
                names.add(property.substring("protocompat.".length()));
                values.add(properties.getProperty(property));
            }
        }
        try {
            NativeChecker.configure(names.toArray(new String[0]), values.toArray(new String[0]));
        } catch (ProtocompatException e) {
            throw new IllegalStateException(prefix() + e.getMessage(), e);
        }
    }

    private static Path extractionDir() {
        String dir = System.getProperty(EXTRACT_DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            dir = System.getProperty("java.io.tmpdir");
        }
        return Paths.get(dir).toAbsolutePath();
    }

    private static void loadFile(Path file, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(prefix() + what + " does not exist: " + file);
        }
        try {
            System.load(file.toString());
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException(prefix() + "cannot load " + what + " (" + e.getMessage()
                    + "). If that directory is mounted noexec, set -D" + EXTRACT_DIR_PROPERTY
                    + " to a directory that allows executables, or -D" + LIBRARY_PROPERTY
                    + " to an installed copy of " + LIBRARY_FILE + ".", e);
        }
    }

    private static String prefix() {
        return "PROTOBUF_NATIVE compatibility check unavailable, every PROTOBUF_NATIVE schema will be "
                + "rejected until this is fixed: ";
    }
}
