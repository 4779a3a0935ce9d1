/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The broker's schema REST API as an operator's curl sees it: status code and body, nothing
 * interpreted. Topics are {@code tenant/namespace/topic}.
 */
public final class SchemaRest {

    /** A response as it came. */
    public record Answer(int status, String body) {
        @Override
        public String toString() {
            return "HTTP " + status + ": " + body;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * For error bodies: Pulsar 4.2 (Jetty 12) writes a multi-line message into Jetty's
     * JSON error page with its line breaks raw, which strict JSON forbids; Pulsar 4.0 (Jetty 9)
     * escapes them. BrokerSchemaEvolutionIT#aRefusalReachesRestClientsInJettysErrorPage shows it.
     */
    private static final ObjectMapper ERROR_JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String webUrl;
    /** A token for brokers with authentication on, sent as {@code Authorization: Bearer}. */
    private String token;

    /** This client, sending {@code token} with every call. */
    public SchemaRest withToken(String token) {
        this.token = token;
        return this;
    }

    public SchemaRest(String webUrl) {
        this.webUrl = webUrl;
    }

    /** The body of {@code pulsar-admin schemas upload}: schema data as a JSON string. */
    public static String uploadPayload(byte[] schemaData) throws IOException {
        return JSON.writeValueAsString(Map.of(
                "type", "PROTOBUF_NATIVE",
                "schema", new String(schemaData, StandardCharsets.UTF_8),
                "properties", Map.of()));
    }

    /** {@code POST /admin/v2/schemas/{topic}/schema}. */
    public Answer upload(String topic, byte[] schemaData) throws IOException, InterruptedException {
        return post("/admin/v2/schemas/" + topic + "/schema", uploadPayload(schemaData));
    }

    /** {@code POST /admin/v2/schemas/{topic}/compatibility}. */
    public Answer testCompatibility(String topic, byte[] schemaData) throws IOException, InterruptedException {
        return post("/admin/v2/schemas/" + topic + "/compatibility", uploadPayload(schemaData));
    }

    /** A namespace's schema compatibility strategy, set again. */
    public void setStrategy(String namespace, String strategy) throws IOException, InterruptedException {
        expectOk(send("PUT", "/admin/v2/namespaces/" + namespace + "/schemaCompatibilityStrategy",
                "\"" + strategy + "\""));
    }

    /**
     * A persistent topic with a subscription: listed by the admin API, and kept (Pulsar deletes
     * a topic without subscriptions, and its schema, after a minute without producers).
     */
    public void createSubscribedTopic(String topic) throws IOException, InterruptedException {
        expectOk(send("PUT", "/admin/v2/persistent/" + topic + "/subscription/keep", ""));
    }

    /** {@code PUT /admin/v2/namespaces/{namespace}} then its schema compatibility strategy. */
    public void createNamespace(String namespace, String strategy) throws IOException, InterruptedException {
        expectOk(send("PUT", "/admin/v2/namespaces/" + namespace, "{}"));
        expectOk(send("PUT", "/admin/v2/namespaces/" + namespace + "/schemaCompatibilityStrategy",
                "\"" + strategy + "\""));
    }

    /**
     * The topic's stored schema history, oldest first: each version's schema data as the admin API
     * returns it ({@code GET /admin/v2/schemas/{topic}/schemas}); empty when it has none.
     */
    public List<String> history(String topic) throws IOException, InterruptedException {
        Answer answer = send("GET", "/admin/v2/schemas/" + topic + "/schemas", "");
        if (answer.status() == 404) {
            return List.of();
        }
        expectOk(answer);
        List<String> versions = new ArrayList<>();
        JSON.readTree(answer.body()).path("getSchemaResponses").forEach(v -> versions.add(v.path("data").asText()));
        return versions;
    }

    /** An admin API call that must succeed (2xx); its body. */
    public String call(String method, String path, String body) throws IOException, InterruptedException {
        Answer answer = send(method, path, body);
        expectOk(answer);
        return answer.body();
    }

    /** Whether {@code body} is JSON as RFC 8259 has it (no raw control characters in strings). */
    public static boolean strictJson(String body) {
        try {
            JSON.readTree(body);
            return true;
        } catch (IOException notStrict) {
            return false;
        }
    }

    /** The version number in an accepted upload's body {@code {"version":{"version":N}}}. */
    public static long version(Answer answer) throws IOException {
        return JSON.readTree(answer.body()).path("version").path("version").asLong(-1);
    }

    /** The broker's error text: the {@code message} (or {@code reason}) of a JSON error body. */
    public static String errorMessage(Answer answer) throws IOException {
        try {
            var tree = ERROR_JSON.readTree(answer.body());
            String message = tree.path("message").asText("");
            return message.isEmpty() ? tree.path("reason").asText(answer.body()) : message;
        } catch (IOException notJson) {
            return answer.body();
        }
    }

    private Answer post(String path, String body) throws IOException, InterruptedException {
        return send("POST", path, body);
    }

    private Answer send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(webUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private static void expectOk(Answer answer) {
        if (answer.status() / 100 != 2) {
            throw new IllegalStateException("admin call failed: " + answer);
        }
    }
}
