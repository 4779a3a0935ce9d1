/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A ZooKeeper server in a child JVM, started as {@code bin/pulsar zookeeper} (a cluster's
 * metadata store) or {@code bin/pulsar configuration-store} (the store geo-replicated clusters
 * share) start one, on a free loopback port with its data in {@code dir}.
 */
final class ZooKeeperServer implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(180);

    private final int port;
    private final ChildJvm jvm;
    private final Thread cleanup;

    private ZooKeeperServer(Path dir, String name) throws IOException {
        this.port = ChildJvm.freePorts(1)[0];
        Path conf = dir.resolve(name + ".conf");
        Files.writeString(conf, String.join("\n",
                "tickTime=2000",
                "dataDir=" + dir.resolve(name),
                "clientPort=" + port,
                "clientPortAddress=127.0.0.1",
                // Its admin server would take port 8080.
                "admin.enableServer=false",
                "4lw.commands.whitelist=ruok",
                ""));
        this.jvm = new ChildJvm(name, dir, ChildJvm.pulsarJava(), List.of("-Xmx128m"),
                "org.apache.zookeeper.server.quorum.QuorumPeerMain", List.of(conf.toString()));
        this.cleanup = new Thread(jvm::stopQuietly, "stop-zookeeper");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** A server named {@code name} (its log is {@code dir/NAME.log}), started and answering. */
    static ZooKeeperServer start(Path dir, String name) throws IOException, InterruptedException {
        ZooKeeperServer server = new ZooKeeperServer(dir, name);
        try {
            server.jvm.start();
            server.jvm.awaitReady(STARTUP, () -> "imok".equals(server.fourLetterWord("ruok")));
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The store URL Pulsar's settings take: {@code zk:127.0.0.1:PORT}. */
    String url() {
        return "zk:127.0.0.1:" + port;
    }

    /** The address BookKeeper's {@code metadataServiceUri} takes. */
    String address() {
        return "127.0.0.1:" + port;
    }

    private String fourLetterWord(String word) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @Override
    public void close() {
        jvm.stopQuietly();
        ChildJvm.removeShutdownHook(cleanup);
    }
}
