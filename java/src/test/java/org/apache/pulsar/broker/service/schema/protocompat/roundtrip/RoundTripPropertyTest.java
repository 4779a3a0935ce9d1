/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.CheckerCli.Finding;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.CheckerCli.Verdict;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checker's verdicts against what protobuf-java really does: for each fixture case and
 * direction, random messages written with the writer's schema are read with the reader's, and
 * every value the reader gets wrong is a misread. Then (1) where the {@code conservative} profile
 * accepts a direction, nothing may be misread, and (2) wherever something is misread, the
 * default {@code pip246} profile must at least warn: no silent data loss.
 *
 * <p>The seed is fixed, so a run is repeatable; {@code -Dprotocompat.roundtrip.seed=N} tries others.
 */
@Tag("protobuf4")
class RoundTripPropertyTest {

    private static final long SEED = Long.getLong("protocompat.roundtrip.seed", 246L);
    private static final int MESSAGES_PER_DIRECTION = Integer.getInteger("protocompat.roundtrip.messages", 300);
    private static final RoundTripFigures FIGURES = new RoundTripFigures();

    @BeforeAll
    static void needsProtobufJava4() {
        ProtobufJava.requireVersion4();
    }

    @AfterAll
    static void printFigures() {
        System.out.println(FIGURES);
    }

    /** compat/, editions/ and conservative/: not bad/ or attacks/, which no writer can use. */
    static Stream<CompatCase> cases() throws IOException {
        return Stream.of(Fixtures.compatCases(), Fixtures.editionsCases(), Fixtures.conservativeCases())
                .flatMap(List::stream);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void conservativeAcceptsNoMisreadAndPip246ReportsEveryOne(CompatCase c) {
        Descriptor oldRoot = PulsarSchema.root(c.oldSchema());
        Descriptor newRoot = PulsarSchema.root(c.newSchema());
        List<String> problems = new ArrayList<>();
        for (Direction direction : Direction.values()) {
            long seed = SEED * 31 + c.name().hashCode() * 2L + direction.ordinal();
            Trial trial = Trial.run(c.name(), direction, direction.writer(oldRoot, newRoot),
                    direction.reader(oldRoot, newRoot), seed, MESSAGES_PER_DIRECTION);
            Verdict pip246 = CheckerCli.check(c.oldSchema(), c.newSchema(), direction, "pip246");
            Verdict conservative = CheckerCli.check(c.oldSchema(), c.newSchema(), direction, "conservative");
            FIGURES.add(trial, pip246, conservative);
            if (trial.misread() && conservative.compatible()) {
                problems.add("(1) conservative accepts " + trial.describe() + findings("conservative", conservative));
            }
            if (trial.misread() && !pip246.reportsAnything()) {
                problems.add("(2) pip246 reports nothing (silent data loss) for " + trial.describe());
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static String findings(String profile, Verdict verdict) {
        List<Finding> all = verdict.findings();
        return all.isEmpty() ? "\n    " + profile + " reports nothing"
                : "\n    " + profile + " reports: " + all;
    }
}
