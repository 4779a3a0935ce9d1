/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One run of the {@code protocompat} command this Maven build made: exit status, stdout, stderr. */
record CliRun(int exit, String out, String err) {

    @Override
    public String toString() {
        return "exit " + exit + "\n" + out + err;
    }

    static CliRun of(String... args) throws IOException, InterruptedException {
        return withEnvironment(Map.of(), args);
    }

    /** A run with {@code environment} added to this JVM's. */
    static CliRun withEnvironment(Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("protocompat.cli", "target/release/protocompat"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        return new CliRun(process.exitValue(), out, err);
    }
}
