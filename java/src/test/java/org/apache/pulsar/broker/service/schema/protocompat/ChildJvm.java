/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Runs a main class of the tests in a fresh JVM, for what must not share our JVM's state. */
final class ChildJvm {

    record Result(int exitCode, String output) {
    }

    /**
     * What -Xcheck:jni prints about JNI misuse, in any of its spellings ("WARNING in native
     * method: ...", "Warning: Calling other JNI functions in the scope of
     * Get/ReleasePrimitiveArrayCritical", "WARNING: JNI local refs: ..."), and not our own
     * "warning: SCALAR_TYPE_CHANGED ..." finding lines.
     */
    private static final Pattern JNI_WARNING =
            Pattern.compile("(?i)^\\s*warning\\b.*(jni|native method|critical)");

    private ChildJvm() {
    }

    /** The lines of {@code output} where the JVM reports JNI misuse. */
    static List<String> jniWarnings(String output) {
        return output.lines().filter(line -> JNI_WARNING.matcher(line).find()).toList();
    }

    static Result run(List<String> jvmArgs, Class<?> main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        // -Dprotocompat.child.java: the java to start instead of this JVM's own, when that
        // cannot be started directly (the arm64 JVM under qemu: Maven's aarch64-jvm profile).
        String java = System.getProperty("protocompat.child.java", "");
        command.add(java.isBlank() ? Paths.get(System.getProperty("java.home"), "bin", "java").toString() : java);
        // The broker's classpath brings log4j too; these runs read what slf4j-simple prints.
        command.add("-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider");
        command.addAll(jvmArgs);
        for (String property : List.of("protocompat.fixtures", "protocompat.cli", "protocompat.child.java",
                "jdk.lang.Process.launchMechanism")) {
            if (System.getProperty(property) != null) {
                command.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish: " + command);
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
