/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.Descriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example the CLI's JSON report gives, for every fixture case, direction and profile,
 * replayed through protobuf-java by {@link ExampleVerifier}: an example claims what Java does
 * with a message, so Java checks the claim. A finding about data must carry an example or say
 * why it has none ({@code no_example}).
 */
@Tag("protobuf4")
class ExampleReplayTest {

    /** Findings about the schemas themselves, not about what a reader makes of some data. */
    private static final Set<String> NOT_ABOUT_DATA =
            Set.of("ROOT_MESSAGE_CHANGED", "SYNTAX_CHANGED", "ALWAYS_INCOMPATIBLE", "UNKNOWN_STRATEGY");
    private static final List<String> PROFILES = List.of("pip246", "conservative");

    private static final AtomicInteger FINDINGS = new AtomicInteger();
    private static final AtomicInteger REPLAYED = new AtomicInteger();
    private static final AtomicInteger WITHOUT_EXAMPLE = new AtomicInteger();

    @BeforeAll
    static void needsProtobufJava4() {
        ProtobufJava.requireVersion4();
    }

    @AfterAll
    static void printFigures() {
        System.out.println("Examples replayed through protobuf-java " + ProtobufJava.version() + ": "
                + REPLAYED + " of " + FINDINGS + " findings; " + WITHOUT_EXAMPLE + " say why they have none");
    }

    static Stream<CompatCase> cases() throws IOException {
        return RoundTripPropertyTest.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyExampleIsWhatProtobufJavaDoes(CompatCase c) {
        Descriptor oldRoot = PulsarSchema.root(c.oldSchema());
        Descriptor newRoot = PulsarSchema.root(c.newSchema());
        List<String> problems = new ArrayList<>();
        for (String profile : PROFILES) {
            for (Direction direction : Direction.values()) {
                JsonNode report = CheckerCli.report(c.oldSchema(), c.newSchema(), direction.strategy(), profile);
                List<JsonNode> findings = new ArrayList<>();
                report.get("failures").forEach(findings::add);
                report.get("warnings").forEach(findings::add);
                FINDINGS.addAndGet(findings.size());
                String where = c.name() + " " + direction + " (" + profile + ")";
                if (findings.stream().anyMatch(ExampleReplayTest::aboutData)
                        && findings.stream().noneMatch(f -> f.has("example") || f.has("no_example"))) {
                    problems.add(where + ": no finding of the report has `example` or `no_example`: this"
                            + " protocompat check does not write examples yet"
                            + " (docs/rules.md#examples)");
                    continue;
                }
                for (JsonNode finding : findings) {
                    problems.addAll(replay(where, finding, oldRoot, newRoot));
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static boolean aboutData(JsonNode finding) {
        return !NOT_ABOUT_DATA.contains(finding.get("rule").asText());
    }

    private static List<String> replay(String where, JsonNode finding, Descriptor oldRoot, Descriptor newRoot) {
        String name = where + " " + finding.get("rule").asText() + " " + finding.path("path").asText();
        if (finding.has("no_example")) {
            WITHOUT_EXAMPLE.incrementAndGet();
            return finding.get("no_example").asText().isBlank()
                    ? List.of(name + ": `no_example` gives no reason") : List.of();
        }
        if (!finding.has("example")) {
            return aboutData(finding) ? List.of(name + ": neither `example` nor `no_example`") : List.of();
        }
        // The finding's own direction says which schema wrote the example.
        boolean oldWrites = switch (finding.path("direction").asText()) {
            case "existing_writes_new_reads" -> true;
            case "new_writes_existing_reads" -> false;
            default -> throw new AssertionError(name + ": an example without a direction: " + finding);
        };
        ExampleVerifier verifier = oldWrites ? new ExampleVerifier(oldRoot, newRoot)
                : new ExampleVerifier(newRoot, oldRoot);
        REPLAYED.incrementAndGet();
        return verifier.problems(finding.get("example")).stream()
                .map(p -> name + ": " + p + "\n    example: " + finding.get("example"))
                .toList();
    }
}
