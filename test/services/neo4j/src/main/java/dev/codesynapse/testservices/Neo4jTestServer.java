package dev.codesynapse.testservices;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;

/**
 * Embedded Neo4j Community DBMS with Bolt on 127.0.0.1, auth disabled.
 * Args: DATA_DIR [PORT]. DATA_DIR is wiped at start. Prints "READY" when
 * Bolt listens and a Cypher query ran; stops on SIGTERM.
 */
public final class Neo4jTestServer {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Neo4jTestServer DATA_DIR [PORT]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 7687;
        wipe(home);
        Files.createDirectories(home);

        long t0 = System.nanoTime();
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, 128L * 1024 * 1024)
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("shutting down");
            dbms.shutdown();
        }));

        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        try (Transaction tx = db.beginTx(); Result r = tx.execute("RETURN 1 AS one")) {
            Object one = r.next().get("one");
            if (!Long.valueOf(1).equals(one)) {
                throw new IllegalStateException("unexpected Cypher result " + one);
            }
            tx.commit();
        }
        System.out.printf("READY bolt://127.0.0.1:%d neo4j %s (%d ms)%n", port,
                org.neo4j.kernel.internal.Version.getNeo4jVersion(), (System.nanoTime() - t0) / 1_000_000);
        System.out.flush();
        Thread.currentThread().join();
    }

    private static void wipe(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
