/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.roundtrip;

/**
 * The protobuf-java this JVM runs. The tests here need 4.x (Editions 2023, 2024 and 2026); the broker
 * on the test classpath brings 3.25, so Maven runs them in a surefire execution of their own
 * with 4.x in its place (the {@code protobuf-java-4} execution of pom.xml).
 */
final class ProtobufJava {

    private ProtobufJava() {
    }

    /** "4.36.2", or null before 4.x (RuntimeVersion came with 4.26). */
    static String version() {
        try {
            Class<?> runtime = Class.forName("com.google.protobuf.RuntimeVersion");
            return runtime.getField("MAJOR").getInt(null) + "." + runtime.getField("MINOR").getInt(null)
                    + "." + runtime.getField("PATCH").getInt(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    static String requireVersion4() {
        String version = version();
        if (version == null || !version.startsWith("4.")) {
            throw new IllegalStateException("these tests need protobuf-java 4.x on the classpath, found "
                    + (version == null ? "an older one" : version)
                    + ": run them through Maven (mvn -Dtest=... test), whose protobuf-java-4 execution puts it there");
        }
        return version;
    }
}
