/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;

/**
 * The shared fixtures of {@code tests/fixtures}, as schema data. {@code .proto} files are
 * compiled by the {@code protocompat schema} command built by the same Maven run.
 */
public final class Fixtures {

    private static final Map<String, byte[]> COMPILED = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, Object> readJson(Path file) throws IOException {
        return JSON.readValue(file.toFile(), new TypeReference<Map<String, Object>>() { });
    }

    private Fixtures() {
    }

    public static Path root() {
        return Paths.get(System.getProperty("protocompat.fixtures", "tests/fixtures"));
    }

    public static SchemaData schema(byte[] data) {
        return SchemaData.builder().type(SchemaType.PROTOBUF_NATIVE).data(data).build();
    }

    /** Compiles {@code dir/rootFile} with the CLI into Pulsar schema data. */
    public static byte[] compile(Path dir, String rootFile, String rootMessage) {
        String key = dir + "|" + rootFile + "|" + rootMessage;
        return COMPILED.computeIfAbsent(key, k -> compiledOnce(k, dir, dir.resolve(rootFile), rootMessage));
    }

    /**
     * The schema data this build compiled before, from the directory named by
     * {@code protocompat.fixtures.cache}: the x86_64 JVMs run the CLI once per fixture and write
     * its output there, and the aarch64 JVM, which runs under qemu-user, reads it instead of
     * starting a process. A process started by a JVM under qemu-user can hang in vfork: CI saw
     * the child stuck on a futex for good. The file is named by a digest of the key and of every
     * file under {@code dir}, so a changed fixture is compiled again.
     */
    private static byte[] compiledOnce(String key, Path dir, Path file, String rootMessage) {
        String cacheDir = System.getProperty("protocompat.fixtures.cache", "");
        if (cacheDir.isEmpty()) {
            return runCli(file, rootMessage);
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(key.getBytes(StandardCharsets.UTF_8));
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path each : files.filter(Files::isRegularFile).sorted().toList()) {
                    digest.update(dir.relativize(each).toString().getBytes(StandardCharsets.UTF_8));
                    digest.update((byte) 0);
                    digest.update(Files.readAllBytes(each));
                }
            }
            Path cached = Paths.get(cacheDir).resolve(HexFormat.of().formatHex(digest.digest()) + ".json");
            if (Files.isRegularFile(cached)) {
                return Files.readAllBytes(cached);
            }
            byte[] data = runCli(file, rootMessage);
            Files.createDirectories(cached.getParent());
            Path written = Files.createTempFile(cached.getParent(), "fixture", ".tmp");
            Files.write(written, data);
            Files.move(written, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return data;
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("the compiled fixtures' cache " + cacheDir + ": " + e, e);
        }
    }

    private static byte[] runCli(Path file, String rootMessage) {
        // The file's directory is its import root, so the root file is named `order.proto`, as
        // `protoc -I dir` names it.
        String json = new String(cli("schema", "-I", file.getParent().toString(), "--root", rootMessage,
                file.toString()), StandardCharsets.UTF_8);
        return json.trim().getBytes(StandardCharsets.UTF_8);
    }

    /** Runs the {@code protocompat} command built by this Maven run; fails unless it exits 0. */
    public static byte[] cli(String... args) {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("protocompat.cli", "target/release/protocompat"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("failed: " + String.join(" ", command));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + " (built by mvn generate-resources)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The rule profile this JVM's checker runs ({@code -Dprotocompat.profile}, as a broker reads
     * it): the Maven build runs the fixture tests once per profile.
     */
    public static String profile() {
        return System.getProperty("protocompat.profile", "pip246");
    }

    /**
     * A compat case: both sides compiled, with its expectations. Those of the default profile
     * are at the top of {@code expect.json}, another profile's under its name.
     */
    public record CompatCase(String name, byte[] oldSchema, byte[] newSchema, Map<String, Object> expect) {

        public boolean compatible(String direction) {
            return (Boolean) direction(direction).get("compatible");
        }

        @SuppressWarnings("unchecked")
        public List<String> failures(String direction) {
            return (List<String>) direction(direction).get("failures");
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> direction(String direction) {
            String profile = profile();
            Map<String, Object> block = profile.equals("pip246")
                    ? expect
                    : (Map<String, Object>) expect.get(profile);
            if (block == null) {
                throw new IllegalStateException(name + ": expect.json has no `" + profile + "` block");
            }
            return (Map<String, Object>) block.get(direction);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static List<CompatCase> compatCases() throws IOException {
        return compiledCases("compat", "");
    }

    /** tests/fixtures/conservative, named {@code conservative/<case>}. */
    public static List<CompatCase> conservativeCases() throws IOException {
        return compiledCases("conservative", "conservative/");
    }

    /** The cases of {@code tests/fixtures/<folder>}, each side compiled from its .proto files. */
    private static List<CompatCase> compiledCases(String folder, String prefix) throws IOException {
        List<CompatCase> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root().resolve(folder))) {
            for (Path dir : dirs.sorted().toList()) {
                Map<String, Object> expect = readJson(dir.resolve("expect.json"));
                String rootFile = (String) expect.get("root_file");
                String oldRoot = (String) expect.get("root_message");
                String newRoot = (String) expect.getOrDefault("new_root_message", oldRoot);
                cases.add(new CompatCase(prefix + dir.getFileName().toString(),
                        compile(dir.resolve("old"), rootFile, oldRoot),
                        compile(dir.resolve("new"), rootFile, newRoot),
                        expect));
            }
        }
        return cases;
    }

    /**
     * The Editions cases of {@code tests/fixtures/editions}: protox cannot compile Editions, so
     * each side is the committed {@code old.schema} / {@code new.schema}, the bytes a broker
     * receives. Named {@code editions/<case>} (some share a name with a compat case).
     */
    public static List<CompatCase> editionsCases() throws IOException {
        List<CompatCase> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root().resolve("editions"))) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                String name = dir.getFileName().toString();
                if (name.equals("bad")) {
                    continue;
                }
                cases.add(new CompatCase("editions/" + name,
                        Files.readAllBytes(dir.resolve("old.schema")),
                        Files.readAllBytes(dir.resolve("new.schema")),
                        readJson(dir.resolve("expect.json"))));
            }
        }
        return cases;
    }

    /**
     * A bad-input case: the exact bytes, the rule ID and the fragments its error must carry,
     * compared exactly ({@code bad/}) or ignoring ASCII case ({@code editions/bad/}).
     */
    public record BadCase(String name, byte[] data, String rule, List<String> messageContains,
                          boolean ignoreCase) {

        /** The fragments {@code message} does not carry. */
        public List<String> missingFrom(String message) {
            String text = ignoreCase ? asciiLowerCase(message) : message;
            return messageContains.stream()
                    .filter(f -> !text.contains(ignoreCase ? asciiLowerCase(f) : f))
                    .toList();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** tests/fixtures/bad: {@code message_contains} is one string, matched exactly. */
    public static List<BadCase> badCases() throws IOException {
        return badCases("bad", "", false);
    }

    /** tests/fixtures/editions/bad: {@code message_contains} is a list, matched ignoring ASCII case. */
    public static List<BadCase> editionsBadCases() throws IOException {
        return badCases("editions/bad", "editions/", true);
    }

    @SuppressWarnings("unchecked")
    private static List<BadCase> badCases(String folder, String prefix, boolean ignoreCase) throws IOException {
        Path dir = root().resolve(folder);
        Map<String, Object> expect = new TreeMap<>(readJson(dir.resolve("expect.json")));
        List<BadCase> cases = new ArrayList<>();
        for (Map.Entry<String, Object> entry : expect.entrySet()) {
            Map<String, Object> want = (Map<String, Object>) entry.getValue();
            Object says = want.get("message_contains");
            List<String> fragments = says instanceof List<?> list ? (List<String>) list : List.of((String) says);
            cases.add(new BadCase(prefix + entry.getKey(),
                    Files.readAllBytes(dir.resolve(entry.getKey() + ".schema")),
                    (String) want.get("rule"), fragments, ignoreCase));
        }
        return cases;
    }

    /** Lower case for A-Z only, as the fixtures' "ignoring ASCII case" means. */
    static String asciiLowerCase(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.chars().forEach(c -> out.append((char) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c)));
        return out.toString();
    }

    /** One proto3 file {@code order.proto} in package shop, root {@code shop.Order}. */
    public static byte[] proto3(String body) throws IOException {
        Path dir = Files.createTempDirectory("protocompat-java");
        Path file = Files.writeString(dir.resolve("order.proto"), "syntax = \"proto3\";\npackage shop;\n" + body);
        try {
            return compile(dir, "order.proto", "shop.Order");
        } finally {
            Files.delete(file);
            Files.delete(dir);
        }
    }

    /** The strategy name the report's summary line carries ("under FULL (profile pip246):"). */
    public static String summaryStrategy(String message) {
        Matcher m = Pattern.compile("under (\\S+) \\(profile [^)]+\\):").matcher(message);
        return m.find() ? m.group(1) : null;
    }
}
