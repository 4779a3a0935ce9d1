/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.IOException;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;

/**
 * One schema upload, as an application makes it (through REST, or by creating a producer with
 * the schema), and how it ended: accepted, refused, or no verdict at all (a timeout, a
 * failover). Used by the load benchmark and the cluster's fault test.
 */
final class SchemaUpload {

    private SchemaUpload() {
    }

    /** How an upload ended, as the uploader sees it. */
    enum Outcome { ACCEPTED, REFUSED, FAILED }

    /** An upload's outcome, and what the broker or the client said (cut), for the report. */
    record Answer(Outcome outcome, String detail) {
    }

    /** {@code POST /admin/v2/schemas/{topic}/schema}. */
    static Answer overRest(SchemaRest rest, String topic, byte[] schema) {
        try {
            SchemaRest.Answer answer = rest.upload(topic, schema);
            String detail = "HTTP " + answer.status() + " " + cut(answer.body());
            if (answer.status() == 200) {
                return new Answer(Outcome.ACCEPTED, detail);
            }
            // 409: incompatible; 400/422: data Pulsar's own validator refuses; 500 from that
            // validator's stack overflow on an import cycle is a refusal too (nothing stored).
            boolean validatorFailed = answer.status() == 500 && answer.body().contains("ProtobufNativeSchemaUtils");
            return new Answer(answer.status() / 100 == 4 || validatorFailed ? Outcome.REFUSED : Outcome.FAILED,
                    detail);
        } catch (IOException | InterruptedException e) {
            return new Answer(Outcome.FAILED, e.toString());
        }
    }

    /** Creates (and closes) a producer with {@code schema}, as a producer's first connection uploads it. */
    static Answer byProducer(PulsarClient client, String topic, byte[] schema) {
        try {
            client.newProducer(new NativeSchema("orders", schema)).topic("persistent://" + topic).create().close();
            return new Answer(Outcome.ACCEPTED, "");
        } catch (PulsarClientException.IncompatibleSchemaException | PulsarClientException.InvalidMessageException e) {
            return new Answer(Outcome.REFUSED, e.getClass().getSimpleName() + ": " + cut(e.getMessage()));
        } catch (PulsarClientException e) {
            String message = String.valueOf(e.getMessage());
            // A refusal the client reports as a plain error: the broker's message says so.
            boolean refused = message.contains("Invalid") || message.contains("ncompatible");
            return new Answer(refused ? Outcome.REFUSED : Outcome.FAILED,
                    e.getClass().getSimpleName() + ": " + message.lines().findFirst().orElse(""));
        }
    }

    /** The first 300 characters of a broker's or client's text, for the report. */
    private static String cut(String text) {
        String whole = String.valueOf(text);
        return whole.substring(0, Math.min(300, whole.length()));
    }
}
