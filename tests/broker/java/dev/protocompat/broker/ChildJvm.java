/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One main class of Pulsar's (a broker, ZooKeeper, a bookie) in a child JVM,
 * logging through log4j2 to {@code NAME.log} in its directory, its console to {@code NAME.out}.
 */
final class ChildJvm {

    /** Whether the process is ready yet; may throw while it is not listening. */
    interface Probe {
        boolean ready() throws Exception;
    }

    private final String name;
    private final Path dir;
    private final List<String> command;
    private Process process;

    ChildJvm(String name, Path dir, String java, List<String> jvmOptions, String mainClass, List<String> args)
            throws IOException {
        this.name = name;
        this.dir = dir;
        Path log4j = dir.resolve(name + "-log4j2.properties");
        Files.writeString(log4j, String.join("\n",
                "status = error",
                "appender.file.type = File",
                "appender.file.name = file",
                "appender.file.fileName = " + dir.resolve(name + ".log"),
                "appender.file.layout.type = PatternLayout",
                // The thread in brackets, as Pulsar's own log4j2 configuration has it ([%t]).
                // %X: Pulsar 5 logs through slog, which puts a line's topic, producer and the
                // like in the event's context data, not in its message.
                "appender.file.layout.pattern = %d{HH:mm:ss.SSS} [%t] %-5level %c - %msg%notEmpty{ %X}%n",
                "rootLogger.level = info",
                "rootLogger.appenderRef.file.ref = file",
                ""));
        List<String> command = new ArrayList<>(List.of(java,
                "-Dlog4j2.configurationFile=" + log4j,
                "-Dslf4j.provider=org.apache.logging.slf4j.SLF4JServiceProvider"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", pulsarClasspath(), mainClass));
        command.addAll(args);
        this.command = List.copyOf(command);
    }

    /**
     * The {@code java} Pulsar's processes run on: the one the system property
     * {@code protocompat.broker.java} names (a newer JDK, say), else the tests' own. When
     * {@code protocompat.broker.java.min} asks for a newer Java than the tests' own (Pulsar 5
     * brokers need 21), the newest JDK installed beside the tests' own (the folder that holds
     * both, {@code /usr/lib/jvm} on Debian) that is new enough; failing that, an error that says
     * how to name one.
     */
    static String pulsarJava() {
        String java = System.getProperty("protocompat.broker.java", "");
        if (!java.isBlank()) {
            return java;
        }
        int min = Integer.parseInt(System.getProperty("protocompat.broker.java.min", "0").strip());
        if (Runtime.version().feature() >= min) {
            return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        }
        return JAVA_BESIDE.computeIfAbsent(min, ChildJvm::javaBeside);
    }

    private static final Map<Integer, String> JAVA_BESIDE = new ConcurrentHashMap<>();

    private static String javaBeside(int min) {
        Path home = Paths.get(System.getProperty("java.home")).toAbsolutePath();
        Path installs = home.getParent();
        String best = null;
        int bestVersion = 0;
        try (Stream<Path> jdks = installs == null ? Stream.empty() : Files.list(installs)) {
            for (Path jdk : jdks.sorted().toList()) {
                Path candidate = jdk.resolve("bin").resolve("java");
                if (!Files.isExecutable(candidate)) {
                    continue;
                }
                int version = featureVersion(candidate);
                if (version >= min && version > bestVersion) {
                    best = candidate.toString();
                    bestVersion = version;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (best == null) {
            throw new IllegalStateException("this broker needs Java " + min + " or newer and the tests run on "
                    + Runtime.version().feature() + ", with no newer JDK beside it in " + installs
                    + ": name one with -Dbroker.java.newer=/path/to/bin/java");
        }
        return best;
    }

    /** The feature version {@code java -XshowSettings:properties -version} reports, or 0. */
    private static int featureVersion(Path java) {
        try {
            Process process = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(30, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("java\\.specification\\.version = (\\d+)")
                    .matcher(out);
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * The Pulsar the child JVMs run: the one the tests compile against (this JVM's classpath),
     * or, when the system property {@code protocompat.broker.classpath} names a file holding
     * another release's classpath (the pulsar-current failsafe execution), that release's jars
     * with the plugin jar ({@code protocompat.jar}) and nothing else, as an operator installs it.
     */
    static String pulsarClasspath() throws IOException {
        String file = System.getProperty("protocompat.broker.classpath", "");
        if (file.isBlank()) {
            return System.getProperty("java.class.path");
        }
        Path jar = Paths.get(System.getProperty("protocompat.jar", ""));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("protocompat.jar names no plugin jar: " + jar);
        }
        return Files.readString(Paths.get(file)).strip() + File.pathSeparator + jar;
    }

    void start() throws IOException {
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".out").toFile()))
                .start();
    }

    /** Polls {@code probe} every half second until it says ready; fails with the log's tail. */
    void awaitReady(Duration timeout, Probe probe) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                if (probe.ready()) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(name + " readiness probe failed:\n" + tail(), e);
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(name + " did not come up within " + timeout + ":\n" + tail());
    }

    /** Waits for a process that does its work and exits (a setup tool); fails unless it exits 0. */
    void awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            stop();
            throw new IllegalStateException(name + " did not finish within " + timeout + ":\n" + tail());
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail());
        }
    }

    long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    /** The log so far (log4j2, INFO and up). */
    String log() {
        return read(dir.resolve(name + ".log"));
    }

    /** The end of the log and the console output, for failure messages. */
    String tail() {
        String out = log() + "\n--- " + name + " console ---\n" + read(dir.resolve(name + ".out"));
        return out.length() > 6000 ? out.substring(out.length() - 6000) : out;
    }

    /** SIGTERM, as an operator stops a service, then SIGKILL if it hangs. */
    void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        process = null;
    }

    /** SIGKILL, as a crash or the OOM killer ends a process: no shutdown hook runs. */
    void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        process = null;
    }

    void stopQuietly() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Removes the cleanup hook of something closed by hand; while the JVM shuts down, the hook
     * is running already and stays.
     */
    static void removeShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: it is a temp directory
        }
    }

    /** Loopback ports free now (all held open together, so they differ). */
    static int[] freePorts(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        return ports;
    }
}
