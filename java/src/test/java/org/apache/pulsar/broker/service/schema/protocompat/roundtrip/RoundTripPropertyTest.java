/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.CheckerCli.Finding;
import org.apache.pulsar.broker.service.schema.protocompat.roundtrip.CheckerCli.Verdict;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
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

    /**
     * Every Edition 2026 twin (tests/fixtures/editions/e2026_*) is among the cases, and the
     * protobuf-java here reads Edition 2026 in at least one file of one side (the root, or an
     * import a twin moves; the other side may be a
     * proto2, proto3 or 2024 file it moves from or to), not as an edition it falls back to.
     * This test and ExampleReplayTest replay the same cases.
     */
    @Test
    void theEdition2026TwinsAreReplayedAs2026() throws IOException {
        List<String> twins;
        try (Stream<Path> dirs = Files.list(Fixtures.root().resolve("editions"))) {
            twins = dirs.map(d -> "editions/" + d.getFileName()).filter(n -> n.startsWith("editions/e2026_"))
                    .sorted().toList();
        }
        assertTrue(!twins.isEmpty(), "no e2026_ fixture in tests/fixtures/editions");
        List<CompatCase> cases = cases().filter(c -> twins.contains(c.name())).toList();
        assertEquals(twins, cases.stream().map(CompatCase::name).sorted().toList());
        for (CompatCase c : cases) {
            List<Integer> oldEditions = editions(PulsarSchema.root(c.oldSchema()).getFile());
            List<Integer> newEditions = editions(PulsarSchema.root(c.newSchema()).getFile());
            assertTrue(oldEditions.contains(EDITION_2026) || newEditions.contains(EDITION_2026),
                    c.name() + " reads as editions " + oldEditions + " and " + newEditions);
        }
    }

    /** The editions of a file and of everything it imports (a twin may move an import only). */
    private static List<Integer> editions(FileDescriptor root) {
        List<Integer> editions = new ArrayList<>();
        List<FileDescriptor> todo = new ArrayList<>(List.of(root));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            FileDescriptor file = todo.remove(todo.size() - 1);
            if (seen.add(file.getName())) {
                editions.add(edition(file));
                todo.addAll(file.getDependencies());
            }
        }
        return editions;
    }

    /** EDITION_2026 in descriptor.proto's Edition enum. */
    private static final int EDITION_2026 = 1002;

    /**
     * The file's edition number, 0 for proto2 and proto3. By field name: the broker's 3.25, which
     * these classes compile against, has no EDITION_2026 constant.
     */
    private static int edition(FileDescriptor file) {
        FileDescriptorProto proto = file.toProto();
        var field = FileDescriptorProto.getDescriptor().findFieldByName("edition");
        return proto.hasField(field) ? ((EnumValueDescriptor) proto.getField(field)).getNumber() : 0;
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
