/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Loads the native library once per class loader: from {@value #LIBRARY_PROPERTY} if set,
 * else from the jar's {@code native/<platform>/} folder, extracted into a fresh directory that
 * only this user can enter (so two class loaders never share a copy, no other local user can
 * swap the file before it is loaded, and a crashed broker leaves nothing stale behind: file and
 * directory are deleted as soon as the library is loaded).
 */
public final class NativeLibrary {

    /** A library file to load instead of the one in the jar. */
    public static final String LIBRARY_PROPERTY = "protocompat.native.library";
    /** Where to extract the library (default: java.io.tmpdir), for hosts whose /tmp is noexec. */
    public static final String EXTRACT_DIR_PROPERTY = "protocompat.native.dir";

    /** System properties under these prefixes are native settings; the library names them all. */
    private static final List<String> SETTING_PREFIXES = List.of("protocompat.cache.", "protocompat.limit.", "protocompat.profile");

    static final String LIBRARY_FILE = "libprotocompat_jni.so";
    /** The platforms a jar built with -Pportable carries a library for, each in native/PLATFORM/. */
    static final List<String> RELEASE_PLATFORMS = List.of("linux-x86_64", "linux-aarch64");
    static final String EXTRACT_PREFIX = "protocompat-";

    private static final Set<PosixFilePermission> DIR_PERMISSIONS =
            PosixFilePermissions.fromString("rwx------");
    // Created owner-writable so the bytes can go in, then made read-only: nothing rewrites it, and
    // owner execute suits loaders that want it (glibc's dlopen does not).
    private static final Set<PosixFilePermission> WRITING_PERMISSIONS =
            PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> FILE_PERMISSIONS =
            PosixFilePermissions.fromString("r-x------");

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
        return platform(System.getProperty("os.name", "unknown"), System.getProperty("os.arch", "unknown"));
    }

    /** The platform of an {@code os.name} and an {@code os.arch} value. */
    static String platform(String osProperty, String archProperty) {
        String os = osProperty.toLowerCase(Locale.ROOT);
        String arch = archProperty.toLowerCase(Locale.ROOT);
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
        String resource = resource(platform);
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(prefix() + missing(platform));
            }
            Path dir = extractionDir();
            Path file;
            try {
                file = extract(in, dir);
            } catch (IOException e) {
                throw new IllegalStateException(prefix() + "cannot extract the native library into " + dir
                        + " (" + e + "). Set -D" + EXTRACT_DIR_PROPERTY + " to a writable directory.", e);
            }
            try {
                loadFile(file, "the library extracted to " + dir);
            } finally {
                deleteExtracted(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException(prefix() + "cannot read " + resource + " from the jar: " + e, e);
        }
    }

    /** The jar's path of the library for {@code platform}. */
    static String resource(String platform) {
        return "/native/" + platform + "/" + LIBRARY_FILE;
    }

    /** The platforms this jar carries a library for, of those a release jar has. */
    static List<String> bundledPlatforms() {
        return RELEASE_PLATFORMS.stream()
                .filter(p -> NativeLibrary.class.getResource(resource(p)) != null)
                .toList();
    }

    /** Why there is no library for {@code platform} in this jar, and what to do about it. */
    static String missing(String platform) {
        List<String> bundled = bundledPlatforms();
        String carries = bundled.isEmpty() ? "none" : String.join(", ", bundled);
        String buildIt = "build the library on a " + platform + " machine (cargo build --release -p "
                + "protocompat-jni) and point -D" + LIBRARY_PROPERTY + " at it.";
        if (RELEASE_PLATFORMS.contains(platform)) {
            return "this jar has no native library for platform " + platform + " (it carries: " + carries
                    + "; it was built without -Pportable). Use a jar built with mvn -Pportable package, "
                    + "which carries " + String.join(" and ", RELEASE_PLATFORMS) + ", or " + buildIt;
        }
        return "this jar has no native library for platform " + platform + " (it carries: " + carries
                + "; release jars support " + String.join(" and ", RELEASE_PLATFORMS) + "). To run there, "
                + buildIt;
    }

    /**
     * Passes the cache bounds and resource limits an operator set as system properties
     * (docs/operators.md section 11, RELIABILITY.md) by name; the native library holds the defaults and refuses an
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

    /**
     * Writes the library into a new directory under {@code baseDir} and returns the file. The base
     * directory is typically the shared /tmp: anything named there can be raced by another local
     * user, so the only entry made there is the directory, created atomically (mkdir, which fails
     * rather than follow an existing name) with owner-only permissions. The file inside is created
     * exclusively, never replaced, and is owner-only from the moment its name exists. On failure
     * nothing is left behind.
     */
    static Path extract(InputStream in, Path baseDir) throws IOException {
        boolean posix = baseDir.getFileSystem().supportedFileAttributeViews().contains("posix");
        // Without POSIX permissions (Windows), the directory gets whatever access its parent
        // passes down (on Windows the user's own %TEMP%): asking for POSIX attributes would throw.
        Path dir = posix
                ? Files.createTempDirectory(baseDir, EXTRACT_PREFIX,
                        PosixFilePermissions.asFileAttribute(DIR_PERMISSIONS))
                : Files.createTempDirectory(baseDir, EXTRACT_PREFIX);
        Path file = dir.resolve(LIBRARY_FILE);
        try {
            Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            FileAttribute<?>[] attributes = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(WRITING_PERMISSIONS)}
                    : new FileAttribute<?>[0];
            try (OutputStream out =
                    Channels.newOutputStream(Files.newByteChannel(file, options, attributes))) {
                in.transferTo(out);
            }
            if (posix) {
                Files.setPosixFilePermissions(file, FILE_PERMISSIONS);
            }
        } catch (Throwable t) {
            deleteExtracted(file);
            throw t;
        }
        return file;
    }

    /** Removes an extracted file and its directory, or has the JVM do so at exit if that fails. */
    static void deleteExtracted(Path file) {
        Path dir = file.getParent();
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // Registered directory first: deleteOnExit works in reverse order, and a directory
            // can only go once it is empty.
            dir.toFile().deleteOnExit();
            file.toFile().deleteOnExit();
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
            String reason = String.valueOf(e.getMessage());
            // HotSpot reads the ELF header of a file dlopen refused: "(Possible cause: can't load
            // AARCH64 .so on a AMD 64 platform)".
            String hint = reason.contains("can't load") && reason.contains(" platform)")
                    ? " The library is for another machine than this JVM's (platform " + platform()
                            + "): point -D" + LIBRARY_PROPERTY + " at one built for it."
                    : " If that directory is mounted noexec, set -D" + EXTRACT_DIR_PROPERTY
                            + " to a directory that allows executables, or -D" + LIBRARY_PROPERTY
                            + " to an installed copy of " + LIBRARY_FILE + ".";
            throw new IllegalStateException(prefix() + "cannot load " + what + " (" + reason + ")." + hint, e);
        }
    }

    private static String prefix() {
        return "PROTOBUF_NATIVE compatibility check unavailable, every PROTOBUF_NATIVE schema will be "
                + "rejected until this is fixed: ";
    }
}
