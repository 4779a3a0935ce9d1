/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The audit at cluster scale (BENCHMARKS.md, "Issue 23"): a real standalone broker holding
 * {@code audit.scale.topics} topics (1,000 by default) in ten namespaces, each with a
 * PROTOBUF_NATIVE history of two versions (examples/shop v1, v2) or, one topic in three, three
 * (v3 too, which FULL refuses: uploaded while the namespace was ALWAYS_COMPATIBLE, then the
 * namespace set to FULL, as a cluster that switches strategies holds). The CLI audits the
 * cluster one topic at a time ({@code --concurrency 1}) and at its default concurrency, in turn,
 * {@code audit.scale.runs} times each after one untimed run that warms the broker's schema cache,
 * and the wall times are printed. {@code audit.scale.baseline} may name another protocompat
 * binary (an older build, without --concurrency) to time the same way, and
 * {@code audit.scale.levels} more --concurrency values. Every run must print the same report.
 *
 * <p>{@code mvn -B -q -Pbench -DskipTests -Djmh.skip -Daudit.scale.skip=false package}, with
 * {@code -Daudit.scale.args="-Daudit.scale.topics=200 -Daudit.scale.levels=2,4"} for others.
 */
public final class AuditScale {

    private static final int NAMESPACES = 10;

    private AuditScale() {
    }

    /** One timed audit: the command's wall time, exit status and report. */
    private record Run(String label, double seconds, int exit, String report) {
    }

    public static void main(String[] args) throws Exception {
        int topics = Integer.getInteger("audit.scale.topics", 1000);
        int runs = Integer.getInteger("audit.scale.runs", 3);
        String cli = System.getProperty("protocompat.cli", "target/release/protocompat");
        String baseline = System.getProperty("audit.scale.baseline", "");
        // More --concurrency values to time, beside 1 and the default: "2,4,16", say.
        List<String> levels = Arrays.stream(System.getProperty("audit.scale.levels", "").split(","))
                .map(String::strip).filter(level -> !level.isEmpty()).toList();
        byte[][] shop = {Shop.version(1), Shop.version(2), Shop.version(3)};
        System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores");
        try (StandaloneBroker broker = StandaloneBroker.start()) {
            System.out.println("Pulsar " + broker.pulsarVersion() + " on Java " + broker.javaVersion() + " at "
                    + broker.webUrl());
            SchemaRest rest = new SchemaRest(broker.webUrl());
            for (int n = 0; n < NAMESPACES; n++) {
                rest.createNamespace("public/scale-" + n, "ALWAYS_COMPATIBLE");
            }
            long start = System.nanoTime();
            AtomicInteger versions = new AtomicInteger();
            // The setup is not what is measured: eight uploads at a time shorten it.
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> uploads = new ArrayList<>();
            for (int t = 0; t < topics; t++) {
                String topic = "public/scale-" + (t % NAMESPACES) + "/orders-" + t;
                int count = t % 3 == 0 ? 3 : 2;
                uploads.add(pool.submit(() -> {
                    rest.createSubscribedTopic(topic);
                    for (int v = 0; v < count; v++) {
                        SchemaRest.Answer answer = rest.upload(topic, shop[v]);
                        if (answer.status() != 200) {
                            throw new IllegalStateException(topic + " v" + (v + 1) + ": " + answer);
                        }
                        versions.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> upload : uploads) {
                upload.get();
            }
            pool.shutdown();
            for (int n = 0; n < NAMESPACES; n++) {
                rest.setStrategy("public/scale-" + n, "FULL");
            }
            System.out.printf("setup: %d topics, %d schema versions uploaded in %.1f s%n", topics, versions.get(),
                    (System.nanoTime() - start) / 1e9);

            Run warm = audit("warm-up, --concurrency 1", cli, broker.webUrl(), "--concurrency", "1");
            System.out.println("report: " + lastLine(warm.report()));
            List<Run> all = new ArrayList<>(List.of(warm));
            for (int r = 0; r < runs; r++) {
                if (!baseline.isBlank()) {
                    all.add(audit("baseline", baseline, broker.webUrl()));
                }
                all.add(audit("--concurrency 1", cli, broker.webUrl(), "--concurrency", "1"));
                all.add(audit("default concurrency", cli, broker.webUrl()));
                for (String level : levels) {
                    all.add(audit("--concurrency " + level, cli, broker.webUrl(), "--concurrency", level));
                }
            }
            for (Run run : all) {
                if (run.exit() > 1 || !run.report().equals(warm.report())) {
                    throw new IllegalStateException(run.label() + ": exit " + run.exit() + ", a report of its own:\n"
                            + run.report());
                }
            }
            System.out.println("every run printed the same report");
            List<String> labels = all.stream().skip(1).map(Run::label).distinct().toList();
            for (String label : labels) {
                double[] seconds = all.stream().skip(1).filter(run -> run.label().equals(label))
                        .mapToDouble(Run::seconds).sorted().toArray();
                System.out.printf("%-22s median %.2f s of %s%n", label + ":", seconds[seconds.length / 2],
                        Arrays.toString(Arrays.stream(seconds).mapToObj(s -> String.format("%.2f", s)).toArray()));
            }
        }
    }

    private static Run audit(String label, String cli, String url, String... extra)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(cli, "audit", "--admin-url", url, "--timeout", "3600"));
        command.addAll(List.of(extra));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String report = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%-28s %.2f s (exit %d)%n", label + ":", seconds, exit);
        return new Run(label, seconds, exit, report);
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }
}
