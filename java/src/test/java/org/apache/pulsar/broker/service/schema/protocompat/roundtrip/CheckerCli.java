/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The verdict of the {@code protocompat check} command built by this Maven run: what a team
 * sees in its CI, and the same engine and report the broker gives.
 */
public final class CheckerCli {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One finding of the JSON report. */
    public record Finding(String rule, String severity, String path, JsonNode json) {

        @Override
        public String toString() {
            return (severity.equals("warning") ? "warning: " : "") + rule + " " + path
                    + " (writer=" + json.path("writer").asText() + " reader=" + json.path("reader").asText() + ")";
        }
    }

    /** What the check said about one direction under one profile. */
    public record Verdict(boolean compatible, int totalFailures, int totalWarnings,
                          List<Finding> failures, List<Finding> warnings) {

        /** A failure or a warning: something the team is told about. */
        public boolean reportsAnything() {
            return totalFailures + totalWarnings > 0;
        }

        public List<Finding> findings() {
            List<Finding> all = new ArrayList<>(failures);
            all.addAll(warnings);
            return all;
        }
    }

    private CheckerCli() {
    }

    /**
     * Checks {@code newSchema} against {@code oldSchema} (both Pulsar schema data) for one
     * direction, BACKWARD or FORWARD, under {@code profile}.
     */
    public static Verdict check(byte[] oldSchema, byte[] newSchema, Direction direction, String profile) {
        JsonNode report = report(oldSchema, newSchema, direction.strategy(), profile);
        return new Verdict(report.get("compatible").asBoolean(),
                report.get("total_failures").asInt(), report.get("total_warnings").asInt(),
                findings(report.get("failures")), findings(report.get("warnings")));
    }

    /** The whole JSON report of {@code protocompat check --format json}. */
    public static JsonNode report(byte[] oldSchema, byte[] newSchema, String strategy, String profile) {
        try {
            Path dir = Files.createTempDirectory("protocompat-roundtrip");
            try {
                Path oldFile = Files.write(dir.resolve("old.json"), oldSchema);
                Path newFile = Files.write(dir.resolve("new.json"), newSchema);
                return run(dir.resolve("stderr.txt"), List.of("check", "--format", "json", "--profile", profile,
                        "--strategy", strategy, oldFile.toString(), newFile.toString()));
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Finding> findings(JsonNode array) {
        List<Finding> out = new ArrayList<>();
        for (JsonNode f : array) {
            out.add(new Finding(f.get("rule").asText(), f.get("severity").asText(), f.path("path").asText(), f));
        }
        return out;
    }

    /** Runs the command; exit 0 (compatible) and 1 (incompatible) both carry a report. */
    private static JsonNode run(Path stderr, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("protocompat.cli", "target/release/protocompat"));
        command.addAll(args);
        // stderr to a file: reading one pipe to its end while the other fills could hang.
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        byte[] out = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (process.exitValue() > 1) {
            throw new IllegalStateException("exit " + process.exitValue() + ": " + String.join(" ", command) + "\n"
                    + Files.readString(stderr) + new String(out, StandardCharsets.UTF_8));
        }
        return JSON.readTree(out);
    }
}
