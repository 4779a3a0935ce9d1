/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import java.nio.charset.StandardCharsets;

/**
 * Writer strings holding invalid UTF-8. A Java String cannot hold them, so the generator writes
 * {@link #PLACEHOLDER} and the encoder swaps its bytes for as many invalid ones: the lengths,
 * hence every length prefix around them, stay right.
 */
final class InvalidUtf8 {

    /** Two private-use characters no other generated value contains. */
    static final String PLACEHOLDER = "\uE000\uE001";

    private static final byte[] PLACEHOLDER_BYTES = PLACEHOLDER.getBytes(StandardCharsets.UTF_8);

    /** Same length as PLACEHOLDER_BYTES: a lone continuation byte, an overlong NUL, 0xFF, a cut sequence. */
    private static final byte[] INVALID = {(byte) 0x80, (byte) 0xC0, (byte) 0x80, (byte) 0xFF, (byte) 0xE2, 0x41};

    private InvalidUtf8() {
    }

    /** The message's encoding, with every placeholder swapped. */
    static byte[] encode(Message message) {
        return swap(message.toByteArray());
    }

    /** The bytes a writer string stands for. */
    static ByteString bytesOf(String value) {
        return ByteString.copyFrom(swap(value.getBytes(StandardCharsets.UTF_8)));
    }

    /** Text format (escaped) with the placeholder shown as the bytes it stands for. */
    static String inText(String textFormat) {
        return textFormat.replace(TextFormat.escapeBytes(PLACEHOLDER_BYTES), TextFormat.escapeBytes(INVALID));
    }

    private static byte[] swap(byte[] bytes) {
        outer:
        for (int i = 0; i + PLACEHOLDER_BYTES.length <= bytes.length; i++) {
            for (int j = 0; j < PLACEHOLDER_BYTES.length; j++) {
                if (bytes[i + j] != PLACEHOLDER_BYTES[j]) {
                    continue outer;
                }
            }
            System.arraycopy(INVALID, 0, bytes, i, INVALID.length);
        }
        return bytes;
    }
}
