/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import static org.apache.pulsar.broker.service.schema.protocompat.validator.ProtobufNativeSchemaValidationStrategy.CanBeReadByExistingStrategy;
import static org.apache.pulsar.broker.service.schema.protocompat.validator.ProtobufNativeSchemaValidationStrategy.CanBeReadMutualStrategy;
import static org.apache.pulsar.broker.service.schema.protocompat.validator.ProtobufNativeSchemaValidationStrategy.CanReadExistingStrategy;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures.CompatCase;
import org.apache.pulsar.client.impl.schema.ProtobufNativeSchemaUtils;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The validator API against the shared fixtures: every expectation comes from the fixture's
 * {@code expect.json} for the profile this JVM runs, not from the test.
 */
class ValidatorTest {

    /**
     * The protobuf-java this run loads, as {@code protocompat.expect.protobuf} says: the broker's
     * 3.x, or 4.36.2 (Pulsar 5.0's) in the validator-protobuf-java-4 execution.
     */
    @Test
    void runsOnTheProtobufJavaAskedFor() {
        String expected = System.getProperty("protocompat.expect.protobuf", "");
        String jar = String.valueOf(Descriptors.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("ValidatorTest: protobuf-java from " + jar);
        if (!expected.isBlank()) {
            assertTrue(jar.contains("protobuf-java-" + expected), jar);
        }
    }


    private static final String OLD_WRITES = "old_writes_new_reads";
    private static final String NEW_WRITES = "new_writes_old_reads";

    /** A compat case with both sides as Descriptors. */
    private record Case(CompatCase expected, Descriptor oldSide, Descriptor newSide) {
    }

    private static Case compatCase(String name) throws Exception {
        Path dir = Fixtures.root().resolve("compat").resolve(name);
        Map<String, Object> expect = SchemaDescriptors.readJson(dir.resolve("expect.json"));
        String rootFile = (String) expect.get("root_file");
        String oldRoot = (String) expect.get("root_message");
        String newRoot = (String) expect.getOrDefault("new_root_message", oldRoot);
        byte[] oldData = Fixtures.compile(dir.resolve("old"), rootFile, oldRoot);
        byte[] newData = Fixtures.compile(dir.resolve("new"), rootFile, newRoot);
        return new Case(new CompatCase(name, oldData, newData, expect),
                SchemaDescriptors.of(oldData), SchemaDescriptors.of(newData));
    }

    private static ProtobufNativeSchemaValidator validator(ProtobufNativeSchemaValidationStrategy strategy,
                                                           boolean onlyLatest) {
        return new ProtobufNativeSchemaValidatorBuilder()
                .validatorStrategy(strategy).isOnlyValidateLatest(onlyLatest).build();
    }

    private static String rejected(Executable check) {
        return assertThrows(ProtoBufCanReadCheckException.class, check).getMessage();
    }

    @ParameterizedTest
    @EnumSource(ProtobufNativeSchemaValidationStrategy.class)
    void aCompatiblePairPasses(ProtobufNativeSchemaValidationStrategy strategy) throws Exception {
        Case c = compatCase("allowed_changes");
        assertTrue(c.expected().compatible(OLD_WRITES) && c.expected().compatible(NEW_WRITES),
                "the fixture no longer expects allowed_changes to be compatible both ways");
        for (boolean onlyLatest : new boolean[] {true, false}) {
            assertDoesNotThrow(() -> validator(strategy, onlyLatest).validate(List.of(c.oldSide()), c.newSide()));
        }
    }

    @ParameterizedTest
    @EnumSource(ProtobufNativeSchemaValidationStrategy.class)
    void anIncompatiblePairThrowsWithTheRuleIdAndPath(ProtobufNativeSchemaValidationStrategy strategy)
            throws Exception {
        Case c = compatCase("field_number_changed");
        List<String> findings = new ArrayList<>();
        if (strategy != CanBeReadByExistingStrategy) {
            findings.addAll(c.expected().failures(OLD_WRITES));
        }
        if (strategy != CanReadExistingStrategy) {
            findings.addAll(c.expected().failures(NEW_WRITES));
        }
        assertFalse(findings.isEmpty(), "the fixture expects no failure for " + strategy);

        String report = rejected(() -> validator(strategy, true).validate(List.of(c.oldSide()), c.newSide()));
        assertTrue(report.contains("FIELD_NUMBER_CHANGED"), report);
        for (String finding : findings) {
            // "RULE_ID path" in expect.json; the report adds " (field N): ..." after the path.
            assertTrue(report.contains(finding + " ("), "missing `" + finding + "` in:\n" + report);
        }
    }

    /** The report is the broker's: the plugin given the client's schema data says the same. */
    @Test
    void theReportIsWhatTheBrokerSays() throws Exception {
        Case c = compatCase("field_number_changed");
        String ours = rejected(
                () -> validator(CanBeReadMutualStrategy, true).validate(List.of(c.oldSide()), c.newSide()));
        String broker = assertThrows(IncompatibleSchemaException.class,
                () -> new ProtobufNativeSchemaAdvanceCompatibilityCheck().checkCompatible(
                        List.of(Fixtures.schema(ProtobufNativeSchemaUtils.serialize(c.oldSide()))),
                        Fixtures.schema(ProtobufNativeSchemaUtils.serialize(c.newSide())),
                        SchemaCompatibilityStrategy.FULL)).getMessage();
        assertEquals(broker, ours);
        assertTrue(ours.startsWith("Incompatible PROTOBUF_NATIVE schema "), ours);
        assertEquals("FULL", Fixtures.summaryStrategy(ours), ours);
    }

    /**
     * A change that breaks one direction only: the two one-way strategies disagree, as the
     * fixture says they should. Which fixture does that depends on the profile.
     */
    @Test
    void theDirectionMatters() throws Exception {
        String name = Map.of("pip246", "repeated_to_singular", "conservative", "required_field_added")
                .get(Fixtures.profile());
        Case c = compatCase(name);
        boolean newReadsOld = c.expected().compatible(OLD_WRITES);
        boolean oldReadsNew = c.expected().compatible(NEW_WRITES);
        assertNotEquals(newReadsOld, oldReadsNew, name + " no longer breaks one direction only");

        List<Descriptor> existing = List.of(c.oldSide());
        assertEquals(newReadsOld,
                passes(() -> validator(CanReadExistingStrategy, true).validate(existing, c.newSide())));
        assertEquals(oldReadsNew,
                passes(() -> validator(CanBeReadByExistingStrategy, true).validate(existing, c.newSide())));
        assertFalse(passes(() -> validator(CanBeReadMutualStrategy, true).validate(existing, c.newSide())));

        // canRead(written, read) is the same one-way question.
        ProtobufNativeSchemaValidator any = validator(CanBeReadMutualStrategy, true);
        assertEquals(newReadsOld, passes(() -> any.canRead(c.oldSide(), c.newSide())));
        assertEquals(oldReadsNew, passes(() -> any.canRead(c.newSide(), c.oldSide())));

        String failing = newReadsOld ? NEW_WRITES : OLD_WRITES;
        String report = rejected(newReadsOld
                ? () -> any.canRead(c.newSide(), c.oldSide())
                : () -> any.canRead(c.oldSide(), c.newSide()));
        for (String finding : c.expected().failures(failing)) {
            assertTrue(report.contains(finding + " ("), "missing `" + finding + "` in:\n" + report);
        }
        assertTrue(report.contains("existing writes, new reads"), report);
    }

    private static boolean passes(Executable check) {
        try {
            check.execute();
            return true;
        } catch (ProtoBufCanReadCheckException e) {
            return false;
        } catch (Throwable t) {
            throw new AssertionError("not a ProtoBufCanReadCheckException", t);
        }
    }

    /**
     * v1 {@code string note = 2}, v2 drops it, v3 {@code string note = 3}: v3 conflicts with the
     * oldest version only (FIELD_NUMBER_CHANGED, a rule of every profile).
     */
    @ParameterizedTest
    @EnumSource(ProtobufNativeSchemaValidationStrategy.class)
    void onlyValidateLatestComparesTheLastExistingSchemaOnly(ProtobufNativeSchemaValidationStrategy strategy)
            throws Exception {
        Descriptor v1 = order(2);
        Descriptor v2 = order(null);
        Descriptor v3 = order(3);

        assertDoesNotThrow(() -> validator(strategy, true).validate(List.of(v1, v2), v3));
        String transitive = rejected(() -> validator(strategy, false).validate(List.of(v1, v2), v3));
        assertTrue(transitive.contains("FIELD_NUMBER_CHANGED shop.Order.note"), transitive);
        assertTrue(transitive.contains("against 2 existing schemas"), transitive);
        // "Latest" is the last element: the same versions newest first put v1 last.
        String latestIsLast = rejected(() -> validator(strategy, true).validate(List.of(v2, v1), v3));
        assertTrue(latestIsLast.contains("against 1 existing schema"), latestIsLast);
    }

    /**
     * proto3 {@code shop/order.proto}, {@code Order { int64 id = 1; string note = <noteNumber>; }}
     * (no note when null), built with protobuf-java.
     */
    private static Descriptor order(Integer noteNumber) throws Exception {
        DescriptorProto.Builder order = DescriptorProto.newBuilder().setName("Order")
                .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_INT64));
        if (noteNumber != null) {
            order.addField(field("note", noteNumber, FieldDescriptorProto.Type.TYPE_STRING));
        }
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("shop/order.proto").setPackage("shop").setSyntax("proto3").addMessageType(order).build();
        return FileDescriptor.buildFrom(file, new FileDescriptor[0]).findMessageTypeByName("Order");
    }

    private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder().setName(name).setNumber(number)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).setType(type).build();
    }

    /** How the native side names a null existing schema ("existing[1]", formerly "existing schema #1"). */
    private static final IntFunction<Pattern> NULL_EXISTING =
            index -> Pattern.compile("existing(\\[| schema #)" + index + "]? has no schema data");

    @Test
    void badInputIsTheCheckedException() throws Exception {
        Descriptor good = compatCase("allowed_changes").oldSide();
        ProtobufNativeSchemaValidator v = validator(CanBeReadMutualStrategy, false);
        assertTrue(rejected(() -> v.validate(List.of(good), null)).contains("the new schema has no schema data"));
        assertTrue(rejected(() -> v.validate(null, good)).contains("the list of existing schemas is null"));
        assertTrue(NULL_EXISTING.apply(1).matcher(rejected(() -> v.validate(Arrays.asList(good, null), good))).find());
        assertTrue(NULL_EXISTING.apply(0).matcher(rejected(() -> v.canRead(null, good))).find());
        Iterable<Descriptor> broken = () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Descriptor next() {
                throw new IllegalStateException("boom");
            }
        };
        assertTrue(rejected(() -> v.validate(broken, good)).contains("boom"));
        // An empty history accepts, as the broker does for a topic's first schema.
        assertDoesNotThrow(() -> v.validate(List.of(), good));
    }

    @Test
    void theBuilderWantsAStrategy() {
        assertThrows(IllegalStateException.class, () -> new ProtobufNativeSchemaValidatorBuilder().build());
        assertThrows(NullPointerException.class,
                () -> new ProtobufNativeSchemaValidatorBuilder().validatorStrategy(null));
    }
}
