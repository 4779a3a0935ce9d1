/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
                "appender.file.layout.pattern = %d{HH:mm:ss.SSS} [%t] %-5level %c - %msg%n",
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
     * {@code protocompat.broker.java} names (a newer JDK, say), else the tests' own.
     */
    static String pulsarJava() {
        String java = System.getProperty("protocompat.broker.java", "");
        return java.isBlank() ? Paths.get(System.getProperty("java.home"), "bin", "java").toString() : java;
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

    void stopQuietly() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
