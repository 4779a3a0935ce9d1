/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.bench;

import dev.protocompat.broker.NativeSchema;
import dev.protocompat.broker.SchemaRest;
import dev.protocompat.broker.StandaloneBroker;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pulsar.broker.service.schema.ProtobufNativeSchemaAdvanceCompatibilityCheck;
import org.apache.pulsar.broker.service.schema.exceptions.IncompatibleSchemaException;
import org.apache.pulsar.broker.service.schema.validator.SchemaDataValidator;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.common.policies.data.SchemaCompatibilityStrategy;
import org.apache.pulsar.common.protocol.schema.SchemaData;
import org.apache.pulsar.common.schema.SchemaType;

/**
 * What one PROTOBUF_NATIVE upload of {@link CostlyUploads} costs a broker, printed, never
 * asserted (RELIABILITY.md, "What Pulsar's own validator costs").
 *
 * <p>First, in this JVM, the CPU time of the thread that runs Pulsar 4.0's own validation of the
 * schema data, {@code SchemaDataValidator.validateSchemaData}, the call the broker makes on every
 * upload and every producer connect that brings a schema, before any compatibility check; then
 * the CPU time of our plugin's FULL check of the same schema against the topic's small first
 * version. Then, with {@code -Dprotocompat.upload.broker=true}, each costly schema is uploaded
 * once to a real standalone broker through the admin REST API and once by a Java producer: the
 * wall time, the broker process's CPU time, which broker threads thread dumps found running
 * Pulsar's validator and our check, and how long schema reads of other topics and sends of other
 * clients took meanwhile.
 *
 * <p>{@code -Dprotocompat.upload.inputs=methods,fields} picks inputs (default: all);
 * {@code -Dprotocompat.upload.brokerConf=name=value,…} adds lines to the broker's
 * {@code standalone.conf}; {@code -Dprotocompat.upload.dumps=DIR} keeps every thread dump there;
 * {@code -Dprotocompat.upload.observe=false} times the uploads alone (no dumps, reads or sends);
 * {@code -Dprotocompat.upload.write=DIR} only writes each input's two versions there as schema
 * data ({@code NAME-v1.json}, {@code NAME.json}), for {@code protocompat check} or a broker.
 */
public final class UploadCost {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private UploadCost() {
    }

    public static void main(String[] args) throws Exception {
        List<String> names = Arrays.asList(System.getProperty("protocompat.upload.inputs",
                String.join(",", CostlyUploads.ALL)).split(","));
        List<CostlyUploads> inputs = names.stream().map(String::trim).map(CostlyUploads::of).toList();
        System.out.println("Pulsar " + org.apache.pulsar.PulsarVersion.getVersion() + ", Java "
                + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " cores");

        String dir = System.getProperty("protocompat.upload.write", "");
        if (!dir.isBlank()) {
            for (CostlyUploads input : inputs) {
                Files.createDirectories(Paths.get(dir));
                Files.write(Paths.get(dir, input.name() + "-v1.json"), input.first());
                Files.write(Paths.get(dir, input.name() + ".json"), input.costly());
            }
            System.out.println("Schema data written to " + dir + " (NAME-v1.json, NAME.json)");
            return;
        }
        inProcess(inputs);
        if (Boolean.getBoolean("protocompat.upload.broker")) {
            onABroker(inputs);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // In this JVM

    private static SchemaData schema(byte[] data) {
        return SchemaData.builder().type(SchemaType.PROTOBUF_NATIVE).data(data).isDeleted(false)
                .props(Map.of()).build();
    }

    private static void inProcess(List<CostlyUploads> inputs) throws Exception {
        ProtobufNativeSchemaAdvanceCompatibilityCheck check = new ProtobufNativeSchemaAdvanceCompatibilityCheck();
        SchemaData warm = schema(CostlyUploads.warmUp());
        for (int i = 0; i < 50; i++) {
            SchemaDataValidator.validateSchemaData(warm);
        }
        System.out.println();
        System.out.println("In one JVM, CPU time of the calling thread (wall time in brackets):");
        System.out.printf("%-13s %10s  %-38s %-38s%n", "input", "data", "Pulsar's validator",
                "our plugin's FULL check vs v1");
        for (CostlyUploads input : inputs) {
            SchemaData costly = schema(input.costly());
            long[] validator = timed(() -> {
                SchemaDataValidator.validateSchemaData(costly);
                return null;
            });
            String validatorAnswer = answer;
            long[] plugin = timed(() -> {
                check.checkCompatible(List.of(schema(input.first())), costly, SchemaCompatibilityStrategy.FULL);
                return null;
            });
            System.out.printf("%-13s %7.2f MB  %-38s %-38s%n", input.name(), input.costly().length / 1e6,
                    seconds(validator) + " " + validatorAnswer, seconds(plugin) + " " + answer);
        }
        for (CostlyUploads input : inputs) {
            System.out.println("  " + input.name() + ": " + input.what());
        }
    }

    private interface Call {
        Object call() throws Exception;
    }

    /** What the last {@link #timed} call answered: accepted, or the exception's first line. */
    private static String answer;

    /** CPU and wall nanoseconds of one call on this thread. */
    private static long[] timed(Call call) {
        long cpu = THREADS.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        try {
            call.call();
            answer = "accepted";
        } catch (IncompatibleSchemaException e) {
            answer = "refused: " + firstWords(e.getMessage());
        } catch (Exception | StackOverflowError e) {
            answer = "refused: " + firstWords(e.toString());
        }
        return new long[] {THREADS.getCurrentThreadCpuTime() - cpu, System.nanoTime() - wall};
    }

    private static String firstWords(String message) {
        String line = message == null ? "" : message.lines().findFirst().orElse("");
        return line.length() > 60 ? line.substring(0, 60) + "…" : line;
    }

    private static String seconds(long[] cpuAndWall) {
        return String.format("%.2f s (%.2f s)", cpuAndWall[0] / 1e9, cpuAndWall[1] / 1e9);
    }

    // ---------------------------------------------------------------------------------------------
    // On a real broker

    private static final int PROBE_TOPICS = 6;
    /** Clients, a connection each, sending while a costly upload runs: every broker IO thread gets some. */
    private static final int PROBE_CLIENTS = 8;

    private static void onABroker(List<CostlyUploads> inputs) throws Exception {
        System.out.println();
        System.out.println("On a Pulsar standalone broker in a child JVM (plugin configured, strategy FULL):");
        List<String> conf = Arrays.stream(System.getProperty("protocompat.upload.brokerConf", "").split(","))
                .map(String::trim).filter(line -> !line.isEmpty()).toList();
        if (!conf.isEmpty()) {
            System.out.println("standalone.conf also has: " + conf);
        }
        String dumps = System.getProperty("protocompat.upload.dumps", "");
        try (StandaloneBroker broker = StandaloneBroker.startWithConf(conf);
             PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                     .operationTimeout(10, TimeUnit.MINUTES).build()) {
            SchemaRest rest = new SchemaRest(broker.webUrl());
            rest.createNamespace("public/cost", "FULL");
            // Other topics with a schema each (a ledger each), read while the costly uploads run.
            List<String> probes = new ArrayList<>();
            for (int i = 0; i < PROBE_TOPICS; i++) {
                String topic = "public/cost/other-" + i;
                rest.createSubscribedTopic(topic);
                expect(rest.upload(topic, CostlyUploads.warmUp()), 200);
                probes.add(topic);
            }
            // Producers on their own connections, sending while the costly uploads run.
            List<PulsarClient> senderClients = new ArrayList<>();
            Map<String, Producer<byte[]>> senders = new LinkedHashMap<>();
            for (int i = 0; i < PROBE_CLIENTS; i++) {
                PulsarClient sender = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                        .operationTimeout(10, TimeUnit.MINUTES).build();
                senderClients.add(sender);
                senders.put("send-" + i, sender.newProducer().topic("persistent://public/cost/send-" + i)
                        .sendTimeout(10, TimeUnit.MINUTES).create());
            }
            for (CostlyUploads input : inputs) {
                // REST, then a producer on a second topic, then a producer again once that topic
                // holds the schema: Pulsar validates it on every connect.
                for (String path : List.of("REST", "producer", "producer again")) {
                    String topic = "public/cost/" + input.name() + "-" + path.split(" ")[0].toLowerCase();
                    if (!path.endsWith("again")) {
                        rest.createSubscribedTopic(topic);
                        SchemaRest.Answer first = rest.upload(topic, input.first());
                        if (first.status() != 200) {
                            System.out.println("\n" + input.name() + " by " + path + ": the first version was refused, "
                                    + firstWords(first.toString()));
                        }
                    }
                    for (String probe : probes) {
                        get(broker, probe);
                    }
                    Upload upload = path.equals("REST")
                            ? () -> post(broker, topic, input.costly())
                            : () -> produce(client, topic, input.costly());
                    report(broker, input.name() + " by " + path, upload, probes, senders, dumps);
                }
            }
            for (PulsarClient sender : senderClients) {
                sender.close();
            }
        }
    }

    private interface Upload {
        String run() throws Exception;
    }

    private static void report(StandaloneBroker broker, String label, Upload upload, List<String> probes,
                               Map<String, Producer<byte[]>> senders, String dumps) throws Exception {
        Map<String, Map<String, Integer>> seen = new ConcurrentHashMap<>();
        Map<String, String> stacks = new ConcurrentHashMap<>();
        Map<String, Long> slowestRead = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            for (int n = 0; running.get(); n++) {
                String dump = sample(broker.pid(), seen, stacks);
                if (!dumps.isBlank()) {
                    try {
                        Files.createDirectories(Paths.get(dumps));
                        Files.writeString(Paths.get(dumps, label.replace(' ', '-') + "-" + n + ".txt"), dump);
                    } catch (IOException e) {
                        System.out.println("cannot write a thread dump: " + e);
                    }
                }
                sleep(500);
            }
        });
        Thread reader = new Thread(() -> {
            while (running.get()) {
                for (String probe : probes) {
                    long t = System.nanoTime();
                    get(broker, probe);
                    slowestRead.merge(probe, System.nanoTime() - t, Math::max);
                }
                sleep(200);
            }
        });
        Map<String, Long> slowestSend = new ConcurrentHashMap<>();
        Thread sender = new Thread(() -> {
            while (running.get()) {
                senders.forEach((name, producer) -> {
                    long t = System.nanoTime();
                    producer.sendAsync(new byte[] {1}).whenComplete((id, e) ->
                            slowestSend.merge(name, System.nanoTime() - t, Math::max));
                });
                sleep(200);
            }
        });
        boolean observe = !"false".equals(System.getProperty("protocompat.upload.observe"));
        long cpu = processCpuNanos(broker.pid());
        long wall = System.nanoTime();
        if (observe) {
            sampler.start();
            reader.start();
            sender.start();
        }
        String outcome;
        try {
            outcome = upload.run();
        } finally {
            running.set(false);
        }
        long wallNanos = System.nanoTime() - wall;
        if (observe) {
            sampler.join();
            reader.join();
            sender.join();
        }
        for (Producer<byte[]> producer : senders.values()) {
            producer.flush();
        }
        long cpuNanos = processCpuNanos(broker.pid()) - cpu;
        System.out.printf("%n%s: %s in %.1f s wall; broker process CPU %.1f s%s%n", label, outcome,
                wallNanos / 1e9, cpuNanos / 1e9, observe ? " (the sampling, reads and sends included)" : "");
        if (!observe) {
            return;
        }
        for (String role : List.of("Pulsar's validator", "our check")) {
            System.out.println("  " + role + " seen running on: " + seen.getOrDefault(role, Map.of())
                    + " (thread dumps every 0.5 s)");
            String stack = stacks.get(role);
            if (stack != null) {
                List<String> lines = stack.lines().toList();
                System.out.println("    outermost frames:");
                lines.subList(Math.max(1, lines.size() - 14), lines.size())
                        .forEach(line -> System.out.println("    " + line.strip()));
            }
        }
        Map<String, String> reads = new TreeMap<>();
        slowestRead.forEach((topic, nanos) -> reads.put(topic.substring(topic.lastIndexOf('/') + 1),
                String.format("%.2f s", nanos / 1e9)));
        System.out.println("  slowest schema read (GET .../schema) of each other topic meanwhile: " + reads);
        Map<String, String> sends = new TreeMap<>();
        slowestSend.forEach((name, nanos) -> sends.put(name, String.format("%.2f s", nanos / 1e9)));
        System.out.println("  slowest send of each other client (a connection each) meanwhile: " + sends);
    }

    /** Counts, per role, the broker threads a thread dump finds running it; keeps one stack. */
    private static String sample(long pid, Map<String, Map<String, Integer>> seen, Map<String, String> stacks) {
        String dump;
        try {
            Process jcmd = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    String.valueOf(pid), "Thread.print").redirectErrorStream(true).start();
            dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return "";
        }
        for (String block : dump.split("\n\n")) {
            if (!block.startsWith("\"")) {
                continue;
            }
            String thread = block.substring(1, block.indexOf('"', 1));
            Map<String, String> roles = new LinkedHashMap<>();
            roles.put("Pulsar's validator", "ProtobufNativeSchemaUtils.deserialize");
            roles.put("our check", "NativeChecker.checkCompatible");
            roles.forEach((role, frame) -> {
                if (block.contains(frame)) {
                    seen.computeIfAbsent(role, r -> new ConcurrentHashMap<>()).merge(thread, 1, Integer::sum);
                    stacks.putIfAbsent(role, block);
                }
            });
        }
        return dump;
    }

    /** utime + stime of a process, from /proc (Linux), in nanoseconds; clock ticks of 10 ms. */
    private static long processCpuNanos(long pid) throws IOException {
        String stat = Files.readString(Paths.get("/proc", String.valueOf(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static String post(StandaloneBroker broker, String topic, byte[] data) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                        URI.create(broker.webUrl() + "/admin/v2/schemas/" + topic + "/schema"))
                .timeout(Duration.ofMinutes(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SchemaRest.uploadPayload(data))).build(),
                HttpResponse.BodyHandlers.ofString());
        String body = response.body().replaceAll("\\s+", " ");
        return "HTTP " + response.statusCode() + " " + (body.length() > 160 ? body.substring(0, 160) + "…" : body);
    }

    private static String produce(PulsarClient client, String topic, byte[] data) {
        try (Producer<byte[]> producer = client.newProducer(new NativeSchema("cost", data))
                .topic("persistent://" + topic).create()) {
            return "producer created";
        } catch (Exception e) {
            return "producer refused: " + firstWords(e.getMessage());
        }
    }

    private static void get(StandaloneBroker broker, String topic) {
        try {
            HTTP.send(HttpRequest.newBuilder(URI.create(broker.webUrl() + "/admin/v2/schemas/" + topic + "/schema"))
                    .timeout(Duration.ofMinutes(2)).GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // a failed read counts with its time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void expect(SchemaRest.Answer answer, int status) {
        if (answer.status() != status) {
            throw new IllegalStateException("expected HTTP " + status + ", got " + answer);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
