/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * {@code protocompat check --admin-url URL --topic TOPIC} against a real broker: the CLI reads
 * the topic's history and strategy and gives the verdict the broker then gives the same upload,
 * finding for finding, naming Pulsar's version numbers. A history saved with the real
 * {@code pulsar-admin schemas get --all-version} gives the same verdict offline.
 */
class BrokerCliIT extends WithBroker {

    static Path shop(int v) {
        return Fixtures.root().resolve("../../examples/shop/v" + v + "/order.proto").normalize();
    }

    /** `check` of examples/shop/vN's order.proto (rooted at its directory) with {@code side}. */
    static CliRun checkShop(int v, String... side) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("check", "--root", "shop.Order"));
        args.addAll(List.of(side));
        args.addAll(List.of("-I", shop(v).getParent().toString(), shop(v).toString()));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static String topicIn(String namespace, String strategy) throws Exception {
        rest.createNamespace("public/" + namespace, strategy);
        return "public/" + namespace + "/orders";
    }

    /** The findings of a text report, as the broker words them: no position, existing[0]. */
    private static List<String> findings(String report, String version) {
        return report.lines()
                .filter(line -> line.contains(" [FULL, "))
                .map(line -> line.replaceFirst("^[^ ]+:\\d+:\\d+: ", "").replace(version, "existing[0]"))
                .collect(Collectors.toList());
    }

    @Test
    void aCheckAgainstTheBrokerGivesTheVerdictTheBrokerThenGives() throws Exception {
        String topic = topicIn("cli-history", "FULL");
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        assertEquals(200, rest.upload(topic, Shop.version(2)).status());

        CliRun cli = checkShop(3, "--admin-url", broker.webUrl(), "--topic", "persistent://" + topic);
        assertEquals(1, cli.exit(), cli.toString());
        // The strategy is the topic's (set on its namespace), and FULL compares the latest
        // version only, named as Pulsar numbers it.
        assertTrue(cli.out().contains(" under FULL (profile pip246): 5 violations, 2 warnings in 4 changes against 1 existing schema"),
                cli.toString());
        assertTrue(cli.out().contains("[FULL, version 1 "), cli.toString());
        assertTrue(cli.out().contains("\nversion 1: persistent://" + topic + "\n"), cli.toString());
        assertTrue(cli.out().contains("note: FULL compares the latest of the 2 existing schemas only, as the broker does"),
                cli.toString());

        Answer refused = rest.upload(topic, Shop.version(3));
        assertEquals(409, refused.status(), refused.toString());
        String answer = SchemaRest.errorMessage(refused);
        // Seven findings in four changes (three of them found both ways): one line a change.
        List<String> expected = findings(cli.out(), "version 1");
        assertEquals(4, expected.size(), cli.toString());
        for (String finding : expected) {
            assertTrue(answer.contains(finding), "the broker's report lacks\n" + finding + "\n" + answer);
        }
        // The same verdict and counts; the CLI's line leads with the topic, the root and the file.
        String verdict = answer.lines().findFirst().orElseThrow();
        String cliVerdict = cli.out().lines().findFirst().orElseThrow();
        assertEquals(verdict.substring(verdict.indexOf(" under ")), cliVerdict.substring(cliVerdict.indexOf(" under ")));
    }

    @Test
    void anEmptyTopicAndAStoredSchemaAreNotChecked() throws Exception {
        String topic = topicIn("cli-unchecked", "BACKWARD");
        CliRun first = checkShop(1, "--admin-url", broker.webUrl(), "--topic", topic);
        assertEquals(0, first.exit(), first.toString());
        assertTrue(first.out().contains("note: persistent://" + topic + " has no schema: the broker stores the first one without a check"),
                first.toString());

        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        assertEquals(200, rest.upload(topic, Shop.version(2)).status());
        // v1 again: the broker finds its bytes as version 0 and answers with it, unchecked.
        CliRun again = checkShop(1, "--admin-url", broker.webUrl(), "--topic", topic);
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().contains("note: the new schema is byte for byte persistent://" + topic + " version 0"),
                again.toString());
        Answer stored = rest.upload(topic, Shop.version(1));
        assertEquals(200, stored.status(), stored.toString());
        assertEquals(0, SchemaRest.version(stored));
    }

    @Test
    void aHistorySavedWithPulsarAdminGivesTheSameVerdictOffline() throws Exception {
        String topic = topicIn("cli-saved", "FULL_TRANSITIVE");
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        assertEquals(200, rest.upload(topic, Shop.version(2)).status());

        Path dir = Files.createTempDirectory("protocompat-cli-saved");
        Path conf = dir.resolve("client.conf");
        Files.writeString(conf, "webServiceUrl=" + broker.webUrl() + "/\n");
        Process admin = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp", System.getProperty("java.class.path"),
                "org.apache.pulsar.admin.cli.PulsarAdminTool", conf.toString(),
                "schemas", "get", "--all-version", topic).start();
        byte[] saved = admin.getInputStream().readAllBytes();
        assertTrue(admin.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, admin.exitValue(), new String(admin.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        Path history = dir.resolve("orders-history.json");
        Files.write(history, saved);

        CliRun offline = checkShop(3, "--strategy", "FULL_TRANSITIVE", "--against", history.toString());
        CliRun online = checkShop(3, "--admin-url", broker.webUrl(), "--topic", topic);
        assertEquals(1, offline.exit(), offline.toString());
        assertEquals(1, online.exit(), online.toString());
        assertTrue(online.out().contains(" under FULL_TRANSITIVE "), online.toString());
        assertTrue(offline.out().contains("against 2 existing schemas"), offline.toString());
        // The same findings; the saved file has no version numbers, the broker has.
        String offlineFindings = offline.out().lines().filter(l -> l.contains(" [FULL_TRANSITIVE, "))
                .map(l -> l.replaceAll("existing\\[(\\d)\\]", "#$1")).collect(Collectors.joining("\n"));
        String onlineFindings = online.out().lines().filter(l -> l.contains(" [FULL_TRANSITIVE, "))
                .map(l -> l.replaceAll("version (\\d)", "#$1")).collect(Collectors.joining("\n"));
        assertEquals(onlineFindings, offlineFindings);
        assertTrue(!onlineFindings.isEmpty());
    }
    /**
     * The README's --fix, against the broker: v3 is refused; {@code check --fix} on a copy, with
     * the topic's own history and strategy, rewrites it (its failures' fixes; the id's warning
     * is left as a suggestion); the broker accepts the result, which is the file the README shows
     * and the demo uploads, v3's new fields and enum included.
     */
    @Test
    void aSchemaFixedAgainstTheBrokerIsAcceptedByIt() throws Exception {
        String topic = topicIn("cli-fix", "FULL");
        assertEquals(200, rest.upload(topic, Shop.version(1)).status());
        assertEquals(200, rest.upload(topic, Shop.version(2)).status());
        Answer refused = rest.upload(topic, Shop.version(3));
        assertEquals(409, refused.status(), refused.toString());
        assertTrue(SchemaRest.errorMessage(refused).contains(
                "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] "),
                refused.toString());
        assertTrue(SchemaRest.errorMessage(refused).contains("(fix: give the field its old number back)"),
                refused.toString());

        Path dir = Files.createTempDirectory("protocompat-cli-fix");
        Path copy = dir.resolve("order.proto");
        Files.copy(shop(3), copy);
        CliRun fixed = CliRun.of("check", "--fix", "--root", "shop.Order", "--admin-url", broker.webUrl(),
                "--topic", "persistent://" + topic, "-I", dir.toString(), copy.toString());
        assertEquals(0, fixed.exit(), fixed.toString());
        assertTrue(fixed.err().contains("protocompat --fix: applied: give field note its old number 4"), fixed.toString());
        // The report leads with the topic, the root and the file.
        assertTrue(fixed.out().startsWith("persistent://" + topic + ": shop.Order in " + copy + ": Compatible under FULL "),
                fixed.toString());

        String written = Files.readString(copy);
        assertEquals(Files.readString(shop(3).getParent().resolveSibling("v3-fixed").resolve("order.proto")), written);
        // The id's retype is only a warning, which the broker accepts: a plain --fix leaves it.
        assertTrue(fixed.err().contains("protocompat --fix: left as a suggestion (a warning; --fix-warnings makes it)"),
                fixed.toString());
        for (String kept : List.of("string id = 1;", "Currency currency_v2 = 3;", "enum Currency {")) {
            assertTrue(written.contains(kept), "v3's change " + kept + " is kept:\n" + written);
        }
        Answer accepted = rest.upload(topic, Fixtures.compile(dir, "order.proto", "shop.Order"));
        assertEquals(200, accepted.status(), accepted.toString());
        assertEquals(2, SchemaRest.version(accepted));
    }
}
