/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads the plugin in two class loaders of its own, as two plugin deployments in one JVM would,
 * and runs a check through each: each loader loads its own copy of the native library.
 */
public final class LoadTwiceMain {
    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        byte[] schema = Fixtures.proto3("message Order { int64 id = 1; }\n");
        for (int i = 1; i <= 2; i++) {
            try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]),
                    ClassLoader.getPlatformClassLoader())) {
                Class<?> library = loader.loadClass(NativeLibrary.class.getName());
                Object failure = library.getMethod("ensureLoaded").invoke(null);
                Class<?> checker = loader.loadClass(NativeChecker.class.getName());
                Method method = checker.getMethod("checkCompatible", byte[][].class, byte[].class, int.class);
                Object verdict = method.invoke(null, new byte[][] {schema}, schema, 5);
                System.out.println("LOADER " + i + " failure=" + failure + " verdict=" + verdict
                        + " distinct=" + (checker != NativeChecker.class));
            }
        }
    }
}
