/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.nio.file.Files;
import java.nio.file.Paths;

/** Loads the library the normal way and prints where the kernel mapped it from. */
public final class ExtractMain {
    public static void main(String[] args) throws Exception {
        System.out.println("FAILURE " + NativeLibrary.ensureLoaded());
        // The file is gone by now, but its mapping keeps the name it was loaded under.
        Files.readAllLines(Paths.get("/proc/self/maps")).stream()
                .filter(line -> line.contains("libprotocompat_jni"))
                .map(line -> line.substring(line.indexOf('/')).replace(" (deleted)", ""))
                .distinct()
                .forEach(path -> System.out.println("MAPPED " + path));
    }
}
