/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * The {@code -D} properties a pom's {@code <configuration>} hides. Maven gives a parameter set in
 * the pom precedence over its user property, silently: {@code -Dprotocompat.against=X} does
 * nothing when the pom says {@code <against>}. That is Maven's rule, kept here, but said.
 */
final class HiddenProperties {

    /** A parameter's expression that is its property alone: {@code ${protocompat.against}}. */
    private static final Pattern PROPERTY = Pattern.compile("^\\$\\{([^}]+)\\}$");

    private HiddenProperties() {
    }

    /**
     * One message per user property the execution's configuration overrides.
     *
     * @param configuration the execution's configuration, as Maven completed it: a parameter the
     *     pom leaves out holds its own expression ({@code ${protocompat.against}}); one the pom
     *     sets holds the pom's text with the pom's expressions replaced, or child elements for a
     *     list
     * @param expressions each parameter's expression, by parameter name (the mojo's descriptor)
     * @param userProperties the session's {@code -D} properties
     */
    static List<String> find(Xpp3Dom configuration, Map<String, String> expressions, Properties userProperties) {
        List<String> messages = new ArrayList<>();
        if (configuration == null) {
            return messages;
        }
        for (Xpp3Dom element : configuration.getChildren()) {
            String expression = expressions.get(element.getName());
            if (expression == null) {
                continue;
            }
            Matcher property = PROPERTY.matcher(expression);
            if (!property.matches()) {
                continue;
            }
            String name = property.group(1);
            String given = userProperties.getProperty(name);
            if (given == null) {
                continue;
            }
            String configured = text(element);
            // Left to its property; or the pom names the property itself (<against>${protocompat.against}</against>),
            // which Maven's model interpolation has already replaced with the -D value.
            if (element.getChildCount() == 0 && expression.equals(configured) || configured.equals(given.trim())) {
                continue;
            }
            messages.add("protocompat: -D" + name + "=" + given + " is ignored: the pom sets <" + element.getName()
                    + ">" + configured + "</" + element.getName() + ">, and Maven gives the pom's value"
                    + " precedence. To let -D" + name + " choose, set the value as a property of the pom"
                    + " (<properties><" + name + ">…</" + name + "></properties>) instead of in the plugin's"
                    + " <configuration>");
        }
        return messages;
    }

    /** The element's text, or its children's comma-separated (a list parameter). */
    private static String text(Xpp3Dom element) {
        if (element.getChildCount() > 0) {
            return Arrays.stream(element.getChildren())
                    .map(HiddenProperties::text)
                    .collect(Collectors.joining(","));
        }
        return element.getValue() == null ? "" : element.getValue().trim();
    }
}
