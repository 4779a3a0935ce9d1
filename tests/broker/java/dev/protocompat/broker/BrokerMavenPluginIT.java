/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.protocompat.broker.SchemaRest.Answer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * protocompat-maven-plugin in an application's build, against a real broker: `mvn verify` of
 * tests/maven-plugin/broker-topic with {@code -Dprotocompat.adminUrl} and
 * {@code -Dprotocompat.topic} passes for a compatible change and fails, naming the findings, for
 * an incompatible one; the broker then gives the same verdicts to the same uploads. The plugin
 * must be installed in the local repository first: {@code mvn -f maven-plugin/pom.xml install}.
 */
class BrokerMavenPluginIT extends WithBroker {

    private static final String VERSION = System.getProperty("protocompat.version", "0.1.0");

    @TempDir
    Path temp;

    /** A finished `mvn` run: exit status and its log (stdout and stderr). */
    record MavenRun(int exit, String log) {
        @Override
        public String toString() {
            return "mvn exited " + exit + "\n" + log;
        }
    }

    @BeforeAll
    static void pluginIsInstalled() {
        // The portable build installs the plugin just before the broker tests and says so; any
        // other build would run whatever copy an earlier build left in the local repository.
        Assumptions.assumeTrue(Boolean.getBoolean("protocompat.maven.plugin.installed"),
                "the portable build (PROTOCOMPAT_PORTABLE=1 mvn verify) builds and installs the Maven"
                        + " plugin this test runs; this build did not");
        Path jar = localRepository().resolve("dev/protocompat/protocompat-maven-plugin/" + VERSION
                + "/protocompat-maven-plugin-" + VERSION + ".jar");
        if (!Files.isRegularFile(jar)) {
            fail("protocompat-maven-plugin " + VERSION + " is not installed (no " + jar
                    + "): run `mvn -B -f maven-plugin/pom.xml install` first");
        }
    }

    private static Path localRepository() {
        String configured = System.getProperty("maven.repo.local");
        return configured != null && !configured.isBlank()
                ? Paths.get(configured)
                : Paths.get(System.getProperty("user.home"), ".m2", "repository");
    }

    private static String mvn() {
        String home = System.getProperty("maven.home");
        return home != null && !home.isBlank() ? Paths.get(home, "bin", "mvn").toString() : "mvn";
    }

    /** A copy of the sample project whose src/main/proto/shop/order.proto is examples/shop/vN's. */
    private Path sampleWith(int shopVersion) throws IOException {
        Path sample = Fixtures.root().resolve("../maven-plugin/broker-topic").normalize();
        Path copy = temp.resolve("shop-v" + shopVersion);
        try (Stream<Path> files = Files.walk(sample)) {
            files.forEach(from -> {
                Path to = copy.resolve(sample.relativize(from).toString());
                try {
                    if (Files.isDirectory(from)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(from, to);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        Path shop = Fixtures.root().resolve("../../examples/shop/v" + shopVersion + "/order.proto").normalize();
        Files.copy(shop, copy.resolve("src/main/proto/shop/order.proto"), StandardCopyOption.REPLACE_EXISTING);
        return copy;
    }

    /** `mvn -B -o verify` in {@code project}, against the topic on this class's broker. */
    private static MavenRun verify(Path project, String topic) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(mvn(), "-B", "-o", "verify",
                "-Dprotocompat.plugin.version=" + VERSION,
                "-Dprotocompat.adminUrl=" + broker.webUrl(),
                "-Dprotocompat.topic=" + topic));
        String repo = System.getProperty("maven.repo.local");
        if (repo != null && !repo.isBlank()) {
            command.add("-Dmaven.repo.local=" + repo);
        }
        Path log = project.resolve("mvn.log");
        Process mvn = new ProcessBuilder(command).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!mvn.waitFor(3, TimeUnit.MINUTES)) {
            mvn.descendants().forEach(ProcessHandle::destroyForcibly);
            mvn.destroyForcibly();
            fail("mvn verify took more than 3 minutes:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new MavenRun(mvn.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void theBuildPassesForACompatibleChangeAndFailsForAnIncompatibleOneAsTheBrokerDecides() throws Exception {
        rest.createNamespace("public/maven-plugin", "FULL");
        String path = "public/maven-plugin/orders";
        String topic = "persistent://" + path;
        assertEquals(200, rest.upload(path, Shop.version(1)).status());

        MavenRun compatible = verify(sampleWith(2), topic);
        assertEquals(0, compatible.exit(), compatible.toString());
        assertTrue(compatible.log().contains(" check --root shop.Order --admin-url " + broker.webUrl()
                + " --topic " + topic + " -I src/main/proto src/main/proto/shop/order.proto\n"), compatible.toString());
        assertTrue(compatible.log().contains(
                "[INFO] " + topic + ": shop.Order in src/main/proto/shop/order.proto: Compatible under FULL "),
                compatible.toString());
        assertTrue(compatible.log().contains(" under FULL (profile pip246): 0 warnings against 1 existing schema"),
                compatible.toString());
        assertTrue(compatible.log().contains("[INFO] version 0: " + topic + "\n"), compatible.toString());
        assertTrue(compatible.log().contains("BUILD SUCCESS"), compatible.toString());
        Answer accepted = rest.upload(path, Shop.version(2));
        assertEquals(200, accepted.status(), accepted.toString());

        MavenRun incompatible = verify(sampleWith(3), topic);
        assertNotEquals(0, incompatible.exit(), incompatible.toString());
        assertTrue(incompatible.log().contains(
                "[ERROR] src/main/proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5):"
                        + " existing=number 4 new=number 5 [FULL, version 1 "), incompatible.toString());
        assertTrue(incompatible.log().contains("[ERROR]     fix: give field note its old number 4"),
                incompatible.toString());
        assertTrue(incompatible.log().contains("[INFO] version 1: " + topic + "\n"), incompatible.toString());
        assertTrue(incompatible.log().contains("BUILD FAILURE"), incompatible.toString());
        assertTrue(incompatible.log().contains(":check (default) on project broker-topic: The schema change is incompatible"),
                incompatible.toString());
        Answer refused = rest.upload(path, Shop.version(3));
        assertEquals(409, refused.status(), refused.toString());
        assertTrue(SchemaRest.errorMessage(refused).contains(
                "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] "),
                refused.toString());
    }
}
