/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protocompat.broker.SchemaUpload.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pulsar.broker.service.schema.protocompat.Fixtures;
import org.apache.pulsar.client.api.PulsarClient;

/**
 * Concurrent schema uploads to a real broker, every verdict held against the CLI's.
 *
 * <p>{@code clients} threads each own {@code topics / clients} topics of a FULL namespace (one
 * writer per topic, so each upload's history is known) and, for {@code duration}, upload a
 * schema picked at random from {@link #POOL} (compatible, incompatible and bad data) to one of
 * them, half through REST ({@code POST /admin/v2/schemas/…/schema}) and half by creating a
 * producer with that schema. Every answer is then compared with {@code protocompat check
 * --strategy FULL --profile P --against HISTORY NEW} for the history the topic had, and the
 * broker's stored histories with the ones the clients tracked. The broker's heap (jstat) and
 * RSS are sampled every few seconds.
 *
 * <p>Run by hand as a benchmark (BENCHMARKS.md, "Uploads on a real broker"); a short run is
 * {@code UploadLoadIT}.
 */
public final class UploadLoad {

    /** The schemas uploaded, by name: the shop example's versions and two bad inputs. */
    static final Map<String, byte[]> POOL = pool();

    private static Map<String, byte[]> pool() {
        Map<String, byte[]> pool = new LinkedHashMap<>();
        pool.put("v1", Shop.version(1));
        pool.put("v2", Shop.version(2));
        pool.put("v3", Shop.version(3));
        pool.put("v3-fixed", Shop.v3Fixed());
        try {
            pool.put("bad-import-cycle", Files.readAllBytes(Fixtures.root().resolve("bad/import_cycle.schema")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pool.put("bad-not-a-descriptor", "not a FileDescriptorSet".getBytes(StandardCharsets.UTF_8));
        return pool;
    }

    /** One upload: to which topic, over which history (schema names, oldest first), and its answer. */
    record Upload(String topic, List<String> history, String schema, boolean rest, Outcome outcome,
            long nanos, String detail) {
    }

    /** A sample of the broker's memory: seconds since the start, heap used and RSS in MiB. */
    record Memory(long second, double heapMiB, double rssMiB) {
    }

    /** A run's figures. */
    record Result(String label, List<Upload> uploads, List<Memory> memory, long notLikeCli,
            List<String> mismatchExamples, Duration duration) {

        long count(Outcome outcome) {
            return uploads.stream().filter(u -> u.outcome() == outcome).count();
        }

        double perSecond() {
            return uploads.size() / (duration.toMillis() / 1000.0);
        }

        double percentileMillis(double p, Boolean rest) {
            long[] nanos = uploads.stream().filter(u -> rest == null || u.rest() == rest)
                    .filter(u -> u.outcome() != Outcome.FAILED).mapToLong(Upload::nanos).sorted().toArray();
            if (nanos.length == 0) {
                return Double.NaN;
            }
            int index = (int) Math.min(nanos.length - 1, Math.ceil(p / 100.0 * nanos.length) - 1);
            return nanos[Math.max(0, index)] / 1e6;
        }

        String row() {
            double heapPeak = memory.stream().mapToDouble(Memory::heapMiB).max().orElse(Double.NaN);
            double rssPeak = memory.stream().mapToDouble(Memory::rssMiB).max().orElse(Double.NaN);
            Memory first = memory.isEmpty() ? new Memory(0, Double.NaN, Double.NaN) : memory.get(0);
            Memory last = memory.isEmpty() ? first : memory.get(memory.size() - 1);
            return String.format(Locale.ROOT,
                    "| %s | %d | %.0f | %.1f / %.1f | %.1f / %.1f | %d / %d / %d | %d | %.0f → %.0f (peak %.0f) | %.0f → %.0f (peak %.0f) |",
                    label, uploads.size(), perSecond(), percentileMillis(50, true), percentileMillis(99, true),
                    percentileMillis(50, false), percentileMillis(99, false), count(Outcome.ACCEPTED),
                    count(Outcome.REFUSED), count(Outcome.FAILED), notLikeCli, first.heapMiB(), last.heapMiB(),
                    heapPeak, first.rssMiB(), last.rssMiB(), rssPeak);
        }
    }

    static final String HEADER = "| broker checker | uploads | per s | REST p50 / p99 ms | producer p50 / p99 ms "
            + "| accepted / refused / failed | not the CLI's verdict | heap MiB start → end (peak) "
            + "| RSS MiB start → end (peak) |\n|---|---|---|---|---|---|---|---|---|";

    private static final ObjectMapper JSON = new ObjectMapper();

    private UploadLoad() {
    }

    /**
     * Uploads to {@code broker} for {@code duration}; {@code profile} is the plugin's profile the
     * CLI is asked with (the broker's), {@code label} names the run in the figures.
     */
    static Result run(StandaloneBroker broker, String label, String profile, int clients, int topics,
            Duration duration, long seed) throws Exception {
        SchemaRest rest = new SchemaRest(broker.webUrl());
        String namespace = "public/load";
        rest.createNamespace(namespace, "FULL");
        List<List<String>> owned = new ArrayList<>();
        Map<String, List<String>> histories = new ConcurrentHashMap<>();
        for (int c = 0; c < clients; c++) {
            owned.add(new ArrayList<>());
        }
        for (int t = 0; t < topics; t++) {
            String topic = namespace + "/orders-" + t;
            rest.createSubscribedTopic(topic);
            SchemaRest.Answer first = rest.upload(topic, POOL.get("v1"));
            if (first.status() != 200) {
                throw new IllegalStateException("v1 to " + topic + ": " + first);
            }
            histories.put(topic, new ArrayList<>(List.of("v1")));
            owned.get(t % clients).add(topic);
        }
        List<String> names = List.copyOf(POOL.keySet());
        List<Upload> uploads = Collections.synchronizedList(new ArrayList<>());
        List<Memory> memory = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS).build()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                List<String> mine = owned.get(c);
                Random random = new Random(seed + c);
                SchemaRest own = new SchemaRest(broker.webUrl());
                workers.add(pool.submit(() -> {
                    while (running.get()) {
                        String topic = mine.get(random.nextInt(mine.size()));
                        String schema = names.get(random.nextInt(names.size()));
                        // Pulsar's own validator, which runs before any checker, overflows its stack
                        // on an import cycle: REST answers HTTP 500 at once, but a producer gets no
                        // answer and waits out its operation timeout twice (docs/operators.md).
                        // Through producers that would measure the client's timeout, not the broker.
                        boolean viaRest = random.nextBoolean() || schema.equals("bad-import-cycle");
                        List<String> history = List.copyOf(histories.get(topic));
                        long t0 = System.nanoTime();
                        SchemaUpload.Answer answer = viaRest ? SchemaUpload.overRest(own, topic, POOL.get(schema))
                                : SchemaUpload.byProducer(client, topic, POOL.get(schema));
                        long nanos = System.nanoTime() - t0;
                        if (answer.outcome() == Outcome.ACCEPTED && !history.contains(schema)) {
                            histories.get(topic).add(schema);
                        }
                        uploads.add(new Upload(topic, history, schema, viaRest, answer.outcome(), nanos,
                                answer.detail()));
                    }
                    return null;
                }));
            }
            long end = start + duration.toNanos();
            while (System.nanoTime() < end) {
                memory.add(sample(broker, start));
                Thread.sleep(Math.min(5000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            }
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
            memory.add(sample(broker, start));
        } finally {
            running.set(false);
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        checkStoredHistories(rest, histories);
        List<String> examples = new ArrayList<>();
        long notLikeCli = 0;
        Map<String, Integer> cli = new HashMap<>();
        for (Upload upload : uploads) {
            if (upload.outcome() == Outcome.FAILED) {
                continue;
            }
            String key = String.join(",", upload.history()) + " <- " + upload.schema();
            int exit = cli.computeIfAbsent(key, k -> cliVerdict(upload.history(), upload.schema(), profile));
            boolean cliAccepts = exit == 0;
            if (cliAccepts != (upload.outcome() == Outcome.ACCEPTED)) {
                notLikeCli++;
                if (examples.size() < 5) {
                    examples.add(key + (upload.rest() ? " (REST)" : " (producer)") + ": broker " + upload.outcome()
                            + ", CLI exit " + exit + " " + upload.detail());
                }
            }
        }
        return new Result(label, List.copyOf(uploads), memory, notLikeCli, examples, took);
    }

    /** The CLI's exit status for {@code schema} uploaded over {@code history}: 0 accepted. */
    private static int cliVerdict(List<String> history, String schema, String profile) {
        try {
            Path dir = Files.createTempDirectory("protocompat-load-verdict");
            try {
                // The admin API's history form (GET …/schemas), which the CLI reads as --against.
                List<Map<String, Object>> versions = new ArrayList<>();
                for (int i = 0; i < history.size(); i++) {
                    versions.add(Map.of("version", i, "type", "PROTOBUF_NATIVE",
                            "data", new String(POOL.get(history.get(i)), StandardCharsets.UTF_8)));
                }
                Path against = dir.resolve("history.json");
                JSON.writeValue(against.toFile(), Map.of("getSchemaResponses", versions));
                Path upload = Files.write(dir.resolve("new.schema"), POOL.get(schema));
                CliRun run = CliRun.of("check", "--strategy", "FULL", "--profile", profile, "--against",
                        against.toString(), upload.toString());
                return run.exit();
            } finally {
                ChildJvm.deleteTree(dir);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The histories the broker stores are the ones the clients tracked, version for version. */
    private static void checkStoredHistories(SchemaRest rest, Map<String, List<String>> tracked) throws Exception {
        Map<String, String> nameOf = new HashMap<>();
        POOL.forEach((name, data) -> nameOf.put(new String(data, StandardCharsets.UTF_8), name));
        for (Map.Entry<String, List<String>> topic : tracked.entrySet()) {
            List<String> stored = rest.history(topic.getKey()).stream().map(d -> nameOf.getOrDefault(d, "?")).toList();
            if (!stored.equals(topic.getValue())) {
                throw new IllegalStateException(topic.getKey() + ": stored " + stored + ", tracked " + topic.getValue());
            }
        }
    }

    /** The broker's heap in use (jstat, the broker JDK's own) and RSS (/proc), now. */
    private static Memory sample(StandaloneBroker broker, long start) throws IOException, InterruptedException {
        long pid = broker.pid();
        double rss = Double.NaN;
        for (String line : Files.readAllLines(Paths.get("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return new Memory((System.nanoTime() - start) / 1_000_000_000L, heapMiB(pid), rss);
    }

    private static double heapMiB(long pid) throws IOException, InterruptedException {
        Path jstat = Paths.get(ChildJvm.pulsarJava()).resolveSibling("jstat");
        Process process = new ProcessBuilder(jstat.toString(), "-gc", String.valueOf(pid)).redirectErrorStream(true)
                .start();
        List<String> lines = new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).lines().toList();
        process.waitFor(30, TimeUnit.SECONDS);
        if (lines.size() < 2) {
            return Double.NaN;
        }
        List<String> columns = Arrays.asList(lines.get(0).trim().split("\\s+"));
        String[] values = lines.get(1).trim().split("\\s+");
        double kib = 0;
        for (String used : new String[] {"S0U", "S1U", "EU", "OU"}) {
            int at = columns.indexOf(used);
            if (at >= 0 && at < values.length && !values[at].equals("-")) {
                kib += Double.parseDouble(values[at]);
            }
        }
        return kib / 1024.0;
    }

    /**
     * The benchmark: {@code -Dupload.load.clients=8 -Dupload.load.topics=32
     * -Dupload.load.seconds=120}, one broker per checker (built-in, plugin pip246, plugin
     * conservative) on the Pulsar {@code protocompat.broker.classpath} names.
     */
    public static void main(String[] args) throws Exception {
        int clients = Integer.getInteger("upload.load.clients", 8);
        int topics = Integer.getInteger("upload.load.topics", 32);
        Duration duration = Duration.ofSeconds(Integer.getInteger("upload.load.seconds", 120));
        List<Result> results = new ArrayList<>();
        String[][] runs = {
            {"built-in", StandaloneBroker.BUILT_IN_CHECKERS, "pip246", ""},
            {"plugin pip246", StandaloneBroker.CHECKERS, "pip246", ""},
            {"plugin conservative", StandaloneBroker.CHECKERS, "conservative", "-Dprotocompat.profile=conservative"},
        };
        String pulsar = "";
        for (String[] run : runs) {
            List<String> options = run[3].isEmpty() ? List.of() : List.of(run[3]);
            try (StandaloneBroker broker = StandaloneBroker.start(options, List.of(
                    "schemaRegistryCompatibilityCheckers=" + run[1]))) {
                pulsar = "Pulsar " + broker.pulsarVersion() + " on Java " + broker.javaVersion();
                System.out.println(run[0] + ": " + pulsar + ", " + clients + " clients, " + topics + " topics, "
                        + duration.toSeconds() + " s");
                Result result = run(broker, run[0], run[2], clients, topics, duration, 42);
                results.add(result);
                for (Memory m : result.memory()) {
                    System.out.printf(Locale.ROOT, "  t=%3d s heap %6.1f MiB RSS %6.1f MiB%n", m.second(), m.heapMiB(),
                            m.rssMiB());
                }
                result.mismatchExamples().forEach(e -> System.out.println("  not the CLI's verdict: " + e));
            }
        }
        System.out.println();
        System.out.println(pulsar + "; " + clients + " clients, " + topics + " topics, " + duration.toSeconds()
                + " s per checker; uploads picked from " + POOL.keySet());
        System.out.println(HEADER);
        results.forEach(r -> System.out.println(r.row()));
    }
}
