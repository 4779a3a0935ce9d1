/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * The mojo's parameters as the arguments of {@code protocompat check} (docs/cli.md, "Check a
 * change"). Holds no token: that goes to the child in its environment only.
 */
final class CliArguments {

    /** A project file: every topic it lists is checked, and the new schema comes from it. */
    File project;
    List<File> protoFiles = List.of();
    File descriptorSet;
    List<File> includes = List.of();
    String root;
    String against;
    List<File> againstIncludes = List.of();
    String adminUrl;
    String topic;
    String strategy;
    String profile;
    boolean failOnWarning;
    File tlsCaFile;
    List<String> allowRedirectHosts = List.of();
    Integer timeout;
    File authTokenFile;

    /** The arguments after the executable, or what to set when no input is named. */
    List<String> toArgs() throws MojoExecutionException {
        if (project != null) {
            return projectArgs();
        }
        List<File> newSchema = newSchema();
        boolean existingSide = against != null || adminUrl != null || topic != null;
        // The CLI would answer a usage error; this says it in the pom's terms.
        if (newSchema.isEmpty()) {
            throw new MojoExecutionException("protocompat: set <protoFiles> (the new schema's .proto files) or"
                    + " <descriptorSet> (a descriptor set protoc wrote with --include_imports), and what to compare"
                    + " it with: <against> (a directory, a .git#ref=main,subdir=DIR tree or a saved"
                    + " `pulsar-admin schemas get --all-version` file) or <adminUrl> and <topic>;"
                    + " or write the project's topics in a protocompat.yaml beside the pom (or set <project>)");
        }
        if (!existingSide && newSchema.size() < 2) {
            throw new MojoExecutionException("protocompat: nothing to compare " + newSchema.get(0)
                    + " with: set <against> (a directory, a .git#ref=main,subdir=DIR tree or a saved"
                    + " `pulsar-admin schemas get --all-version` file) or <adminUrl> and <topic>");
        }

        List<String> args = new ArrayList<>(List.of("check"));
        add(args, "--root", root);
        sharedOptions(args);
        if (descriptorSet == null) {
            for (File dir : includes) {
                add(args, "-I", dir.getPath());
            }
        }
        // Last, as the CLI takes them: the existing schemas (oldest first), then the new one.
        for (File file : newSchema) {
            args.add(file.getPath());
        }
        return args;
    }

    /**
     * {@code check --project FILE} and no file: the project names each topic's files, roots and
     * import roots. The pom's other settings override the file's, as the CLI's flags do.
     */
    private List<String> projectArgs() throws MojoExecutionException {
        List<String> perTopic = new ArrayList<>();
        if (!protoFiles.isEmpty()) {
            perTopic.add("<protoFiles>");
        }
        if (descriptorSet != null) {
            perTopic.add("<descriptorSet>");
        }
        if (root != null && !root.isBlank()) {
            perTopic.add("<root>");
        }
        if (topic != null && !topic.isBlank()) {
            perTopic.add("<topic>");
        }
        if (!againstIncludes.isEmpty()) {
            perTopic.add("<againstIncludes>");
        }
        if (!includes.isEmpty()) {
            perTopic.add("<includes>");
        }
        if (!perTopic.isEmpty()) {
            throw new MojoExecutionException("protocompat: " + String.join(", ", perTopic) + " cannot be set with"
                    + " the project file " + project + ": it names each topic's .proto files, root and import"
                    + " roots; set them there, or leave out <project> to check one schema");
        }
        List<String> args = new ArrayList<>(List.of("check", "--project", project.getPath()));
        sharedOptions(args);
        return args;
    }

    /** What applies to the whole check, the project's every topic included. */
    private void sharedOptions(List<String> args) {
        add(args, "--against", against);
        for (File dir : againstIncludes) {
            add(args, "--against-include", dir.getPath());
        }
        add(args, "--admin-url", adminUrl);
        add(args, "--topic", topic);
        add(args, "--strategy", strategy);
        add(args, "--profile", profile);
        if (failOnWarning) {
            args.add("--fail-on-warning");
        }
        add(args, "--tls-ca-file", tlsCaFile == null ? null : tlsCaFile.getPath());
        for (String host : allowRedirectHosts) {
            add(args, "--allow-redirect-host", host);
        }
        add(args, "--timeout", timeout == null ? null : timeout.toString());
        add(args, "--auth-token-file", authTokenFile == null ? null : authTokenFile.getPath());
    }

    private List<File> newSchema() throws MojoExecutionException {
        if (descriptorSet != null && !protoFiles.isEmpty()) {
            throw new MojoExecutionException("protocompat: set <protoFiles> or <descriptorSet>, not both: each is"
                    + " the whole new schema");
        }
        return descriptorSet != null ? List.of(descriptorSet) : protoFiles;
    }

    private static void add(List<String> args, String option, String value) {
        if (value != null && !value.isBlank()) {
            args.add(option);
            args.add(value);
        }
    }

    /** The command as a shell would take it back, for the log. */
    static String display(List<String> command) {
        return command.stream().map(CliArguments::quote).collect(Collectors.joining(" "));
    }

    private static String quote(String arg) {
        if (!arg.isEmpty() && arg.matches("[A-Za-z0-9_@%+=:,./#\\-]+")) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
