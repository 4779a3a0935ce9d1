/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliRunTest {

    @TempDir
    Path temp;

    @Test
    void stdoutAndStderrAreOneOutputWithTheExitStatus() throws Exception {
        CliRun run = CliRun.run(List.of("sh", "-c", "echo out; echo err >&2; pwd; exit 3"), temp.toFile(), Map.of());
        assertEquals(3, run.exit());
        assertEquals(List.of("out", "err", temp.toRealPath().toString()), run.lines());
    }

    @Test
    void theEnvironmentIsInheritedWithTheAdditions() throws Exception {
        CliRun run = CliRun.run(List.of("sh", "-c", "echo \"$PULSAR_AUTH_TOKEN\" \"$PATH\""), temp.toFile(),
                Map.of("PULSAR_AUTH_TOKEN", "t0ken"));
        assertEquals(List.of("t0ken " + System.getenv("PATH")), run.lines());
    }

    @Test
    void anInterruptedRunKillsTheChild() throws Exception {
        Path pid = temp.resolve("pid");
        Thread caller = Thread.currentThread();
        CompletableFuture<Void> interrupter = CompletableFuture.runAsync(() -> {
            try {
                while (!Files.exists(pid) || Files.size(pid) == 0) {
                    Thread.sleep(10);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            caller.interrupt();
        });
        assertThrows(InterruptedException.class, () -> CliRun.run(
                List.of("sh", "-c", "echo $$ > pid; exec sleep 60"), temp.toFile(), Map.of()));
        Thread.interrupted(); // waitFor cleared it already; the mojo sets it again for Maven
        interrupter.get(10, TimeUnit.SECONDS);
        long child = Long.parseLong(Files.readString(pid).trim());
        ProcessHandle.of(child).ifPresent(h -> h.onExit().join());
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void aMissingExecutableIsAnIoError() {
        assertThrows(java.io.IOException.class,
                () -> CliRun.run(List.of(new File(temp.toFile(), "nothing-here").getPath()), temp.toFile(), Map.of()));
    }
}
