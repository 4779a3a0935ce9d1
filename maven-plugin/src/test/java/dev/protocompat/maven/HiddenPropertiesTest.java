/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.junit.jupiter.api.Test;

class HiddenPropertiesTest {

    private static final Map<String, String> EXPRESSIONS = Map.of(
            "against", "${protocompat.against}",
            "protoFiles", "${protocompat.protoFiles}",
            "skip", "${protocompat.skip}",
            "basedir", "${project.basedir}");

    private static Xpp3Dom element(String name, String value) {
        Xpp3Dom element = new Xpp3Dom(name);
        element.setValue(value);
        return element;
    }

    /** The configuration as Maven completes it: each parameter the pom leaves out holds its expression. */
    private static Xpp3Dom configuration(Xpp3Dom... set) {
        Xpp3Dom configuration = new Xpp3Dom("configuration");
        for (Xpp3Dom element : set) {
            configuration.addChild(element);
        }
        return configuration;
    }

    private static Properties properties(String... keyValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return properties;
    }

    @Test
    void aPomValueThatHidesAPropertyIsNamedWithBoth() {
        List<String> messages = HiddenProperties.find(
                configuration(element("against", "/home/dev/orders/old"), element("skip", "${protocompat.skip}")),
                EXPRESSIONS, properties("protocompat.against", ".git#ref=origin/main"));
        assertEquals(List.of("protocompat: -Dprotocompat.against=.git#ref=origin/main is ignored: the pom sets"
                + " <against>/home/dev/orders/old</against>, and Maven gives the pom's value precedence. To let"
                + " -Dprotocompat.against choose, set the value as a property of the pom"
                + " (<properties><protocompat.against>…</protocompat.against></properties>) instead of in the"
                + " plugin's <configuration>"), messages);
    }

    @Test
    void aListSetInThePomHidesItsPropertyToo() {
        Xpp3Dom files = new Xpp3Dom("protoFiles");
        files.addChild(element("protoFile", "a.proto"));
        files.addChild(element("protoFile", "b.proto"));
        List<String> messages = HiddenProperties.find(configuration(files), EXPRESSIONS,
                properties("protocompat.protoFiles", "c.proto"));
        assertEquals(1, messages.size());
        assertEquals(true, messages.get(0).contains("the pom sets <protoFiles>a.proto,b.proto</protoFiles>"),
                messages.get(0));
    }

    @Test
    void aParameterLeftToItsPropertyOrWithoutAPropertyGivenIsQuiet() {
        assertEquals(List.of(), HiddenProperties.find(
                configuration(element("against", "${protocompat.against}"), element("skip", "true"),
                        element("basedir", "${project.basedir}")),
                EXPRESSIONS, properties("protocompat.against", "old", "project.basedir", "/elsewhere")));
        assertEquals(List.of(), HiddenProperties.find(null, EXPRESSIONS, properties("protocompat.skip", "true")));
    }

    @Test
    void aPomThatNamesThePropertyItselfHidesNothing() {
        // <against>${protocompat.against}</against>: Maven has put the -D value in already.
        assertEquals(List.of(), HiddenProperties.find(configuration(element("against", "release-2")), EXPRESSIONS,
                properties("protocompat.against", "release-2")));
    }

    @Test
    void aSkipSetInThePomHidesDashDSkip() {
        assertEquals(1, HiddenProperties.find(configuration(element("skip", "false")), EXPRESSIONS,
                properties("protocompat.skip", "true")).size());
    }
}
