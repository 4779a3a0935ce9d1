/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.protocompat.broker.SchemaUpload.Outcome;
import dev.protocompat.broker.UploadLoad.Result;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A short run of the upload benchmark ({@link UploadLoad}) in every build: 4 clients, 8 topics,
 * 20 seconds of compatible, incompatible and bad uploads through REST and producers, on a broker
 * with the plugin. Every verdict must be the CLI's for the same history and schema, and the
 * broker's stored histories the ones the clients saw accepted. It prints its figures; it
 * asserts none of them.
 */
class UploadLoadIT extends WithBroker {

    @Test
    void everyVerdictUnderConcurrentUploadsIsTheClis() throws Exception {
        Result result = UploadLoad.run(broker, "plugin pip246", "pip246", 4, 8, Duration.ofSeconds(20), 7);
        System.out.println(UploadLoad.HEADER + "\n" + result.row());
        result.mismatchExamples().forEach(e -> System.out.println("not the CLI's verdict: " + e));
        assertEquals(0, result.notLikeCli(), result.mismatchExamples().toString());
        assertTrue(result.count(Outcome.ACCEPTED) > 0 && result.count(Outcome.REFUSED) > 0, result.row());
        assertTrue(result.uploads().stream().anyMatch(u -> u.schema().startsWith("bad-") && u.rest()),
                "bad inputs went through REST");
        assertTrue(result.uploads().stream().anyMatch(u -> u.schema().equals("bad-not-a-descriptor") && !u.rest()),
                "bad inputs went through producers");
        assertTrue(result.count(Outcome.FAILED) * 100 <= result.uploads().size(),
                "uploads that got no verdict at all: " + result.uploads().stream()
                        .filter(u -> u.outcome() == Outcome.FAILED).limit(5).toList());
    }
}
