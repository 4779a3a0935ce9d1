/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** One finished run of the CLI: its exit status and its output (stdout and stderr, merged), a line each. */
record CliRun(int exit, List<String> lines) {

    /**
     * Runs {@code command} in {@code directory} with this JVM's environment plus {@code environment}.
     * Interrupted (Maven stopping a build), the child is killed rather than left running.
     */
    static CliRun run(List<String> command, File directory, Map<String, String> environment)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        // Read on a thread of its own: a blocked read cannot be interrupted, waitFor can.
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The stream closes under the reader when the child is killed: nothing to keep.
                if (process.isAlive()) {
                    throw new UncheckedIOException(e);
                }
            }
        }, "protocompat-output");
        reader.setDaemon(true);
        reader.start();
        try {
            int exit = process.waitFor();
            reader.join();
            return new CliRun(exit, List.copyOf(lines));
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw e;
        }
    }
}
