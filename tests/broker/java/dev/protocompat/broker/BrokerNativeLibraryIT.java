/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaRest.Answer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A broker whose native library cannot load, set as an operator would break it by mistake:
 * {@code -Dprotocompat.native.library} naming a corrupt file, or a file that is not there. The
 * broker still starts (Pulsar would otherwise run without a schema registry), every upload the
 * checker is asked about is refused with the reason, and {@code protocompat brokers} reports
 * the broker as {@code library_not_loaded}. Pulsar asks no checker about a topic's first
 * schema, so that one is stored as it would be by any checker.
 */
class BrokerNativeLibraryIT {

    private static Path dir;

    @BeforeAll
    static void files() throws Exception {
        dir = Files.createTempDirectory("protocompat-broken-library");
    }

    @AfterAll
    static void removeFiles() {
        ChildJvm.deleteTree(dir);
    }

    /** What the broker answers, and what `protocompat brokers` says, with this library setting. */
    private static void refusesEveryCheckedUpload(Path library, String reason) throws Exception {
        try (StandaloneBroker broker = StandaloneBroker.start(List.of("-Dprotocompat.native.library=" + library))) {
            SchemaRest rest = new SchemaRest(broker.webUrl());
            rest.createNamespace("public/broken", "FULL");
            String topic = "public/broken/orders";
            rest.createSubscribedTopic(topic);
            Answer first = rest.upload(topic, Shop.version(1));
            assertEquals(200, first.status(), "no checker is asked about a topic's first schema: " + first);
            for (int version : new int[] {2, 3}) {
                Answer refused = rest.upload(topic, Shop.version(version));
                assertEquals(409, refused.status(), "v" + version + ": " + refused);
                String message = SchemaRest.errorMessage(refused);
                assertTrue(message.contains("PROTOBUF_NATIVE compatibility check unavailable, every PROTOBUF_NATIVE "
                        + "schema will be rejected until this is fixed"), message);
                assertTrue(message.contains(reason), "says why: " + message);
                assertTrue(message.contains(library.toString()), "names the file: " + message);
            }
            assertEquals(1, rest.history(topic).size(), "nothing past v1 was stored");
            assertTrue(broker.log().contains("PROTOBUF_NATIVE compatibility check unavailable"),
                    "the broker's log says so at start");

            CliRun brokers = CliRun.of("brokers", "--admin-url", broker.webUrl());
            System.out.println("protocompat brokers, library " + reason + ":\n" + brokers.out());
            assertEquals(1, brokers.exit(), brokers.toString());
            assertTrue(brokers.out().lines().anyMatch(l -> l.contains("127.0.0.1:") && l.contains("NATIVE LIBRARY NOT LOADED")),
                    brokers.toString());
            CliRun json = CliRun.of("brokers", "--admin-url", broker.webUrl(), "--format", "json");
            assertTrue(json.out().contains("\"state\": \"library_not_loaded\""), json.toString());
        }
    }

    @Test
    void aCorruptLibraryRefusesEveryCheckedUploadAndIsReported() throws Exception {
        Path corrupt = dir.resolve("libprotocompat_jni.so");
        Files.write(corrupt, "not an ELF shared object".getBytes(StandardCharsets.US_ASCII));
        refusesEveryCheckedUpload(corrupt, "cannot load the file named by -Dprotocompat.native.library");
    }

    @Test
    void aMissingLibraryRefusesEveryCheckedUploadAndIsReported() throws Exception {
        refusesEveryCheckedUpload(dir.resolve("gone/libprotocompat_jni.so"),
                "the file named by -Dprotocompat.native.library does not exist");
    }
}
