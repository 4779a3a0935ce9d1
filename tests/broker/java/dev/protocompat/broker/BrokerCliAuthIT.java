/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jsonwebtoken.SignatureAlgorithm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKey;
import org.apache.pulsar.broker.authentication.utils.AuthTokenUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code protocompat check --admin-url} against a broker as production runs it: token
 * authentication on, and the admin API also on HTTPS with a certificate of a private CA. The
 * token comes from a flag's file or the environment; the CA from {@code --tls-ca-file}.
 */
class BrokerCliAuthIT {

    private static Path dir;
    private static String token;
    private static StandaloneBroker broker;
    private static final String TOPIC = "public/secured/orders";

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        dir = Files.createTempDirectory("protocompat-secured");
        certificates(dir);
        SecretKey key = AuthTokenUtils.createSecretKey(SignatureAlgorithm.HS256);
        token = AuthTokenUtils.createToken(key, "admin", Optional.empty());
        broker = StandaloneBroker.startSecured(new StandaloneBroker.Secured(
                Base64.getEncoder().encodeToString(key.getEncoded()), token,
                dir.resolve("server.pem"), dir.resolve("server.key")));
        SchemaRest rest = new SchemaRest(broker.webUrl()).withToken(token);
        rest.createNamespace("public/secured", "FULL");
        assertEquals(200, rest.upload(TOPIC, Shop.version(1)).status());
        assertEquals(200, rest.upload(TOPIC, Shop.version(2)).status());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    /** A CA, and a certificate for 127.0.0.1 it signed, made by openssl. */
    private static void certificates(Path dir) throws Exception {
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
        for (List<String> command : List.of(
                List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
                        "-out", "ca.pem", "-days", "2", "-subj", "/CN=protocompat test CA"),
                List.of("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
                        "-out", "server.csr", "-subj", "/CN=127.0.0.1"),
                List.of("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext"))) {
            Process openssl = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(openssl.getInputStream().readAllBytes());
            assertTrue(openssl.waitFor(1, TimeUnit.MINUTES));
            assertEquals(0, openssl.exitValue(), command + ": " + out);
        }
    }

    private static CliRun check(Map<String, String> environment, String url, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("check", "--root", "shop.Order",
                "--admin-url", url, "--topic", TOPIC));
        args.addAll(List.of(more));
        Path v3 = BrokerCliIT.shop(3);
        args.addAll(List.of("-I", v3.getParent().toString(), v3.toString()));
        return CliRun.withEnvironment(environment, args.toArray(String[]::new));
    }

    @Test
    void withoutATokenTheBrokerRefusesAndTheCommandSaysHowToGiveOne() throws Exception {
        CliRun run = check(Map.of(), broker.webUrl());
        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.err().contains("HTTP 401"), run.toString());
        assertTrue(run.err().contains("give a token with --auth-token, --auth-token-file or PULSAR_AUTH_TOKEN"),
                run.toString());
    }

    @Test
    void aTokenFromAFileOverHttpsWithThePrivateCa() throws Exception {
        Path file = Files.writeString(dir.resolve("admin.token"), token + "\n");
        CliRun run = check(Map.of(), broker.webUrlTls(), "--auth-token-file", file.toString(),
                "--tls-ca-file", dir.resolve("ca.pem").toString());
        assertEquals(1, run.exit(), run.toString());
        assertTrue(run.out().contains("[FULL, version 1 "), run.toString());
    }

    @Test
    void aTokenFromTheEnvironment() throws Exception {
        CliRun run = check(Map.of("PULSAR_AUTH_TOKEN", token), broker.webUrlTls(),
                "--tls-trust-cert-path", dir.resolve("ca.pem").toString());
        assertEquals(1, run.exit(), run.toString());
        assertTrue(run.out().contains(" under FULL (profile pip246): 5 violations"), run.toString());
    }

    @Test
    void aCertificateOfAnUnknownCaIsRefused() throws Exception {
        CliRun run = check(Map.of("PULSAR_AUTH_TOKEN", token), broker.webUrlTls());
        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.err().contains(broker.webUrlTls()), run.toString());
        assertTrue(run.err().toLowerCase(java.util.Locale.ROOT).contains("certificate"), run.toString());
        assertTrue(run.out().isEmpty(), run.toString());
    }
}
