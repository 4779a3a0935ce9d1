/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extraction of the bundled library into a shared directory such as /tmp, where other local
 * users can create names too. Each test says how the earlier loader (createTempFile in the base
 * directory, then Files.copy with REPLACE_EXISTING, which deletes that file and creates a new
 * one with default permissions) fails it.
 */
class NativeLibraryExtractTest {

    private static final byte[] CONTENT = "stand-in for the library, several reads long ".repeat(2000)
            .getBytes(StandardCharsets.UTF_8);

    /** Old loader: the file lands in the base directory itself, not in a new owner-only one. */
    @Test
    void extractsIntoANewOwnerOnlyDirectory(@TempDir Path base) throws Exception {
        Path file = NativeLibrary.extract(new ByteArrayInputStream(CONTENT), base);
        Path dir = file.getParent();

        assertEquals(base, dir.getParent());
        assertTrue(dir.getFileName().toString().startsWith(NativeLibrary.EXTRACT_PREFIX), dir.toString());
        assertTrue(Files.isDirectory(dir, NOFOLLOW_LINKS));
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(dir, NOFOLLOW_LINKS));
        assertEquals(List.of(dir), list(base));

        assertTrue(Files.isRegularFile(file, NOFOLLOW_LINKS));
        assertOwnerOnly(Files.getPosixFilePermissions(file, NOFOLLOW_LINKS));
        assertTrue(Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_READ));
        assertArrayEquals(CONTENT, Files.readAllBytes(file));

        NativeLibrary.deleteExtracted(file);
        assertEquals(List.of(), list(base));
    }

    /**
     * The file the bytes go into is the file that gets loaded, owner-only all along, and the
     * base directory sees one new name and no deletion. Old loader: Files.copy deletes the
     * createTempFile file and creates another in its place, so the watch sees CREATE, DELETE,
     * CREATE in the base directory (the gap between the last two is the race), and the file
     * being written has the default permissions (rw-r--r-- under umask 022).
     */
    @Test
    void writesTheFileInPlaceAndReplacesNothing(@TempDir Path base) throws Exception {
        List<Object> keysWhileWriting = new ArrayList<>();
        InputStream in = new ObservedStream(CONTENT, () -> {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(base)) {
                files = walk.filter(p -> Files.isRegularFile(p, NOFOLLOW_LINKS)).toList();
            }
            assertEquals(1, files.size(), files.toString());
            assertOwnerOnly(Files.getPosixFilePermissions(files.get(0), NOFOLLOW_LINKS));
            keysWhileWriting.add(fileKey(files.get(0)));
        });

        Path file;
        List<String> events = new ArrayList<>();
        try (WatchService watch = base.getFileSystem().newWatchService()) {
            base.register(watch, ENTRY_CREATE, ENTRY_DELETE);
            file = NativeLibrary.extract(in, base);
            // The kernel has queued every event by now; the JDK hands them over a little later.
            for (WatchKey key = watch.poll(5, TimeUnit.SECONDS); key != null;
                    key = watch.poll(500, TimeUnit.MILLISECONDS)) {
                for (WatchEvent<?> event : key.pollEvents()) {
                    events.add(event.kind().name() + " " + event.context());
                }
                key.reset();
            }
        }

        assertEquals(List.of("ENTRY_CREATE " + file.getParent().getFileName()), events);
        assertEquals(1, keysWhileWriting.size(), "the stream was never read with the file in place");
        assertEquals(keysWhileWriting.get(0), fileKey(file));
        assertArrayEquals(CONTENT, Files.readAllBytes(file));
        NativeLibrary.deleteExtracted(file);
    }

    /** Old loader: a failing copy left the temp file behind in the base directory. */
    @Test
    void aFailedExtractionLeavesNothing(@TempDir Path base) throws IOException {
        InputStream in = new ObservedStream(CONTENT, () -> {
            throw new IOException("jar entry truncated");
        });
        IOException e = assertThrows(IOException.class, () -> NativeLibrary.extract(in, base));
        assertEquals("jar entry truncated", e.getMessage());
        assertEquals(List.of(), list(base));
    }

    /**
     * Names another user planted in the base directory, shaped like earlier extractions (old and
     * new style) or like the library itself, are neither followed nor changed. Old loader: the
     * file is created in the base directory itself, among the planted names, where anyone who
     * can write there can race it.
     */
    @Test
    void namesPlantedInTheBaseDirectoryChangeNothing(@TempDir Path root) throws Exception {
        Path base = Files.createDirectory(root.resolve("base"));
        Path attacker = Files.createDirectory(root.resolve("attacker"));
        byte[] evil = "attacker's library".getBytes(StandardCharsets.UTF_8);
        Path evilFile = Files.write(attacker.resolve("evil.so"), evil);
        Path evilDir = Files.createDirectory(attacker.resolve("dir"));
        Files.write(evilDir.resolve(NativeLibrary.LIBRARY_FILE), evil);

        Files.createSymbolicLink(base.resolve(NativeLibrary.LIBRARY_FILE), evilFile);
        Files.createSymbolicLink(base.resolve("libprotocompat_jni-1234.so"), evilFile);
        Files.createSymbolicLink(base.resolve(NativeLibrary.EXTRACT_PREFIX + "1234"), evilDir);
        Path openDir = Files.createDirectory(base.resolve(NativeLibrary.EXTRACT_PREFIX + "5678"));
        Files.setPosixFilePermissions(openDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.write(openDir.resolve(NativeLibrary.LIBRARY_FILE), evil);
        List<Path> planted = list(base);

        for (int i = 0; i < 20; i++) {
            Path file = NativeLibrary.extract(new ByteArrayInputStream(CONTENT), base);
            Path dir = file.getParent();
            assertEquals(base, dir.getParent());
            assertFalse(planted.contains(dir), dir.toString());
            assertTrue(Files.isDirectory(dir, NOFOLLOW_LINKS));
            assertEquals(PosixFilePermissions.fromString("rwx------"),
                    Files.getPosixFilePermissions(dir, NOFOLLOW_LINKS));
            assertTrue(Files.isRegularFile(file, NOFOLLOW_LINKS));
            assertNotEquals(fileKey(evilFile), fileKey(file));
            assertArrayEquals(CONTENT, Files.readAllBytes(file));
            NativeLibrary.deleteExtracted(file);
        }

        assertEquals(planted, list(base));
        assertEquals(evilFile, Files.readSymbolicLink(base.resolve(NativeLibrary.LIBRARY_FILE)));
        assertEquals(evilFile, Files.readSymbolicLink(base.resolve("libprotocompat_jni-1234.so")));
        assertEquals(evilDir, Files.readSymbolicLink(base.resolve(NativeLibrary.EXTRACT_PREFIX + "1234")));
        assertEquals(List.of(evilDir, evilFile), list(attacker));
        assertEquals(List.of(evilDir.resolve(NativeLibrary.LIBRARY_FILE)), list(evilDir));
        assertEquals(List.of(openDir.resolve(NativeLibrary.LIBRARY_FILE)), list(openDir));
        assertArrayEquals(evil, Files.readAllBytes(evilFile));
        assertArrayEquals(evil, Files.readAllBytes(evilDir.resolve(NativeLibrary.LIBRARY_FILE)));
        assertArrayEquals(evil, Files.readAllBytes(openDir.resolve(NativeLibrary.LIBRARY_FILE)));
    }

    /**
     * Through the normal path in a fresh JVM: the library is mapped from a file in a directory
     * of its own under -Dprotocompat.native.dir, and both are gone once it is loaded. Old
     * loader: the mapped file sits directly in the extraction directory.
     */
    @Test
    void aNormalLoadLeavesTheExtractionDirectoryEmpty() throws Exception {
        Path dir = Files.createTempDirectory("protocompat-extract-test");
        try {
            ChildJvm.Result result = ChildJvm.run(List.of("-Dprotocompat.native.dir=" + dir), ExtractMain.class);
            String out = result.output();
            assertEquals(0, result.exitCode(), out);
            assertTrue(out.contains("FAILURE null"), out);
            List<Path> mapped = out.lines().filter(line -> line.startsWith("MAPPED "))
                    .map(line -> Path.of(line.substring("MAPPED ".length()))).toList();
            assertEquals(1, mapped.size(), out);
            Path file = mapped.get(0);
            assertEquals(dir.toRealPath(), file.getParent().getParent(), out);
            assertTrue(file.getParent().getFileName().toString().startsWith(NativeLibrary.EXTRACT_PREFIX), out);
            assertEquals(NativeLibrary.LIBRARY_FILE, file.getFileName().toString(), out);
            assertEquals(List.of(), list(dir));
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static void assertOwnerOnly(Set<PosixFilePermission> permissions) {
        for (PosixFilePermission p : permissions) {
            assertTrue(p.name().startsWith("OWNER_"), "grants " + p + ": " + permissions);
        }
    }

    private static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW_LINKS).fileKey();
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        }
    }

    private interface Observer {
        void observe() throws IOException;
    }

    /** Hands out the bytes, calling the observer once, before the first of them. */
    private static final class ObservedStream extends InputStream {
        private final InputStream bytes;
        private Observer observer;

        ObservedStream(byte[] content, Observer observer) {
            this.bytes = new ByteArrayInputStream(content);
            this.observer = observer;
        }

        private void observeOnce() throws IOException {
            if (observer != null) {
                Observer o = observer;
                observer = null;
                o.observe();
            }
        }

        @Override
        public int read() throws IOException {
            observeOnce();
            return bytes.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            observeOnce();
            return bytes.read(b, off, len);
        }
    }
}
