/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.SettingsProblem;
import org.apache.maven.settings.crypto.DefaultSettingsDecryptionRequest;
import org.apache.maven.settings.crypto.SettingsDecrypter;
import org.apache.maven.settings.crypto.SettingsDecryptionResult;

/**
 * Fails the build when the project's new PROTOBUF_NATIVE schema is not compatible with the
 * existing one: a Pulsar topic's history on a broker, a git ref, an older tree, or a saved
 * {@code pulsar-admin schemas get --all-version} history. Runs {@code protocompat check}, the
 * verdict the broker's protocompat plugin gives, from the executable this plugin carries.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractMojo {

    /** The environment variable the CLI reads the admin API's token from. */
    static final String TOKEN_VARIABLE = "PULSAR_AUTH_TOKEN";

    /** The file name that makes a project: checked whole when no new schema is configured. */
    static final String PROJECT_FILE = "protocompat.yaml";

    /** Leaves the check out. */
    @Parameter(property = "protocompat.skip", defaultValue = "false")
    private boolean skip;

    /**
     * The new schema's .proto files, named under an {@link #includes} root as protoc names them.
     * With no {@code against}, {@code adminUrl}: several files are a history, oldest first, new last.
     */
    @Parameter(property = "protocompat.protoFiles")
    private List<File> protoFiles;

    /** Import roots of {@link #protoFiles} (protoc's -I). Default: src/main/proto, where it exists. */
    @Parameter(property = "protocompat.includes")
    private List<File> includes;

    /**
     * The new schema as a descriptor set (.pb, .binpb, .desc, .protoset) instead of .proto files,
     * as {@code protoc --include_imports --descriptor_set_out} writes it (protobuf-maven-plugin's
     * {@code writeDescriptorSet}).
     */
    @Parameter(property = "protocompat.descriptorSet")
    private File descriptorSet;

    /** The root message's full name (shop.Order); may be left out when the file declares one top-level message. */
    @Parameter(property = "protocompat.root")
    private String root;

    /**
     * The existing schema: a directory, a git tree ({@code .git#ref=main,subdir=src/main/proto}), a
     * .proto file, a descriptor set, or a saved {@code pulsar-admin schemas get --all-version}
     * history. Relative to the project's directory.
     */
    @Parameter(property = "protocompat.against")
    private String against;

    /** Import roots for the {@link #against} side only. */
    @Parameter(property = "protocompat.againstIncludes")
    private List<File> againstIncludes;

    /** A broker's admin URL (http://broker:8080): the existing side is {@link #topic}'s history there. */
    @Parameter(property = "protocompat.adminUrl")
    private String adminUrl;

    /** The topic whose history {@link #adminUrl} gives (persistent://tenant/ns/topic). */
    @Parameter(property = "protocompat.topic")
    private String topic;

    /** Pulsar's strategy name; default: the topic's with {@link #adminUrl}, else FULL. */
    @Parameter(property = "protocompat.strategy")
    private String strategy;

    /** The rule profile (pip246, conservative), as the broker's -Dprotocompat.profile. */
    @Parameter(property = "protocompat.profile")
    private String profile;

    /** Fails on warnings too, which the broker would accept. */
    @Parameter(property = "protocompat.failOnWarning", defaultValue = "false")
    private boolean failOnWarning;

    /** PEM CA certificates to trust for an https {@link #adminUrl} instead of the system's. */
    @Parameter(property = "protocompat.tlsCaFile")
    private File tlsCaFile;

    /** Hosts (HOST, HOST:PORT, *.DOMAIN) a redirect may take the token to, as the CLI's --allow-redirect-host. */
    @Parameter(property = "protocompat.allowRedirectHosts")
    private List<String> allowRedirectHosts;

    /** Seconds the check may spend on the admin API in all (the CLI's default: 60). */
    @Parameter(property = "protocompat.timeout")
    private Integer timeout;

    /** A file holding the admin API's token. */
    @Parameter(property = "protocompat.authTokenFile")
    private File authTokenFile;

    /**
     * The id of a {@code <server>} in settings.xml whose password (encrypted or not) is the admin
     * API's token. Else the CLI reads {@code PULSAR_AUTH_TOKEN} from the environment, if set.
     */
    @Parameter(property = "protocompat.serverId")
    private String serverId;

    /**
     * A project file (protocompat.yaml: its baseline, profile and every topic with its root and
     * .proto files): the check runs {@code protocompat check --project FILE}, every topic in one
     * execution. Default: the project directory's protocompat.yaml, when it exists and neither
     * {@link #protoFiles} nor {@link #descriptorSet} is set.
     */
    @Parameter(property = "protocompat.project")
    private File project;

    /**
     * A protocompat executable to run instead of the bundled one (the plugin carries Linux
     * x86_64 and aarch64 only): a path, or a name looked up on the PATH.
     */
    @Parameter(property = "protocompat.executable")
    private String executable;

    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    private File basedir;

    @Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
    private File buildDirectory;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    @Parameter(defaultValue = "${settings}", readonly = true, required = true)
    private Settings settings;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution mojoExecution;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Component
    private SettingsDecrypter settingsDecrypter;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        // Before the skip: a pom's <skip>false</skip> hides -Dprotocompat.skip=true too.
        warnOfHiddenProperties();
        if (skip) {
            getLog().info("protocompat: check skipped (protocompat.skip)");
            return;
        }
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(arguments().toArgs());
        Map<String, String> environment = tokenEnvironment();

        getLog().info("protocompat: " + CliArguments.display(command));
        CliRun run;
        try {
            run = CliRun.run(command, basedir, environment);
        } catch (IOException e) {
            throw new MojoExecutionException("protocompat: cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("protocompat: interrupted; the check was stopped", e);
        }
        verdict(run);
    }

    private void verdict(CliRun run) throws MojoExecutionException, MojoFailureException {
        switch (run.exit()) {
            case 0:
                log(run.lines(), Report.levels(run.lines(), false, failOnWarning));
                return;
            case 1: {
                log(run.lines(), Report.levels(run.lines(), true, failOnWarning));
                List<String> summary = Report.summary(run.lines(), failOnWarning);
                boolean warningsOnly = !summary.isEmpty()
                        && summary.stream().noneMatch(Report::isIncompatibleVerdict);
                String what = warningsOnly
                        ? "The schema change has warnings, and failOnWarning is set"
                        : "The schema change is incompatible";
                throw new MojoFailureException(what + ":\n"
                        + indent(summary.isEmpty() ? run.lines() : summary)
                        + "\nThe report above gives each finding's example and fix.");
            }
            case 2:
                throw new MojoExecutionException("protocompat: bad input or usage:\n" + indent(run.lines()));
            default:
                throw new MojoExecutionException("protocompat check ended with exit status " + run.exit()
                        + (run.exit() > 128 ? " (killed by signal " + (run.exit() - 128) + ")" : "")
                        + (run.lines().isEmpty() ? "" : ":\n" + indent(run.lines())));
        }
    }

    private void log(List<String> lines, List<Report.Level> levels) {
        for (int i = 0; i < lines.size(); i++) {
            switch (levels.get(i)) {
                case ERROR -> getLog().error(lines.get(i));
                case WARNING -> getLog().warn(lines.get(i));
                default -> getLog().info(lines.get(i));
            }
        }
    }

    private static String indent(List<String> lines) {
        return lines.stream().map(line -> "  " + line).collect(Collectors.joining("\n"));
    }

    private void warnOfHiddenProperties() {
        Map<String, String> expressions = new HashMap<>();
        for (org.apache.maven.plugin.descriptor.Parameter parameter
                : mojoExecution.getMojoDescriptor().getParameters()) {
            if (parameter.getExpression() != null) {
                expressions.put(parameter.getName(), parameter.getExpression());
            }
        }
        HiddenProperties.find(mojoExecution.getConfiguration(), expressions, session.getUserProperties())
                .forEach(getLog()::warn);
    }

    /** The project file to check whole, if any: {@link #project}, else protocompat.yaml when no new schema is set. */
    private File projectFile() {
        if (project != null) {
            return project;
        }
        boolean newSchemaSet = (protoFiles != null && !protoFiles.isEmpty()) || descriptorSet != null;
        File conventional = new File(basedir, PROJECT_FILE);
        return !newSchemaSet && conventional.isFile() ? conventional : null;
    }

    private CliArguments arguments() {
        CliArguments args = new CliArguments();
        args.project = relative(projectFile());
        args.protoFiles = relative(protoFiles);
        args.descriptorSet = relative(descriptorSet);
        args.includes = relative(includes);
        if (args.includes.isEmpty() && args.project == null) {
            File conventional = new File(basedir, "src/main/proto");
            if (conventional.isDirectory()) {
                args.includes = List.of(relative(conventional));
            }
        }
        args.root = root;
        args.against = against == null ? null : relative(against);
        args.againstIncludes = relative(againstIncludes);
        args.adminUrl = adminUrl;
        args.topic = topic;
        args.strategy = strategy;
        args.profile = profile;
        args.failOnWarning = failOnWarning;
        args.tlsCaFile = relative(tlsCaFile);
        args.allowRedirectHosts = orEmpty(allowRedirectHosts);
        args.timeout = timeout;
        args.authTokenFile = relative(authTokenFile);
        return args;
    }

    /*
     * Maven makes File parameters absolute; the CLI runs in the project's directory, so paths
     * under it are given relative to it, and the report names src/main/proto/... as the
     * developer knows it, the same on every machine.
     */
    private List<File> relative(List<File> files) {
        return orEmpty(files).stream().map(this::relative).collect(Collectors.toList());
    }

    private File relative(File file) {
        return file == null ? null : new File(relative(file.getPath()));
    }

    private String relative(String path) {
        Path base = basedir.toPath().toAbsolutePath().normalize();
        Path given;
        try {
            given = Path.of(path);
        } catch (java.nio.file.InvalidPathException e) {
            return path;
        }
        if (!given.isAbsolute()) {
            return path;
        }
        Path normalized = given.normalize();
        if (!normalized.startsWith(base) || normalized.equals(base)) {
            return path;
        }
        return base.relativize(normalized).toString();
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    private String executable() throws MojoExecutionException {
        if (executable != null && !executable.isBlank()) {
            // A bare name is left to the PATH; a path is the project's.
            return executable.contains("/") || executable.contains(File.separator)
                    ? basedir.toPath().resolve(executable).toString()
                    : executable;
        }
        String osName = System.getProperty("os.name");
        String osArch = System.getProperty("os.arch");
        String platform = BundledCli.platform(osName, osArch).orElseThrow(() -> new MojoExecutionException(
                "protocompat: the plugin bundles no protocompat executable for " + osName + " " + osArch
                        + " (only Linux x86_64 and aarch64): install protocompat (cargo install --locked --path rust/cli)"
                        + " and set <executable> (or -Dprotocompat.executable) to it"));
        Path dir = buildDirectory.toPath().resolve("protocompat").resolve(plugin.getVersion());
        Path extracted = BundledCli.extract(getClass().getClassLoader(), platform, dir);
        getLog().debug("protocompat: the bundled " + platform + " executable, extracted to " + extracted);
        return extracted.toString();
    }

    /** The token for the child's environment only: never an argument, never logged. */
    private Map<String, String> tokenEnvironment() throws MojoExecutionException {
        if (serverId == null || serverId.isBlank()) {
            return Map.of();
        }
        if (authTokenFile != null) {
            throw new MojoExecutionException("protocompat: set <serverId> or <authTokenFile>, not both");
        }
        Server server = settings.getServer(serverId);
        if (server == null) {
            throw new MojoExecutionException("protocompat: settings.xml has no <server> with the id '" + serverId
                    + "' (<serverId>): add one whose <password> is the admin API's token");
        }
        SettingsDecryptionResult result = settingsDecrypter.decrypt(new DefaultSettingsDecryptionRequest(server));
        for (SettingsProblem problem : result.getProblems()) {
            if (problem.getSeverity() != SettingsProblem.Severity.WARNING) {
                throw new MojoExecutionException("protocompat: cannot decrypt the password of <server> '" + serverId
                        + "': " + problem.getMessage());
            }
        }
        String token = result.getServer() == null ? null : result.getServer().getPassword();
        if (token == null || token.isBlank()) {
            throw new MojoExecutionException("protocompat: <server> '" + serverId
                    + "' in settings.xml has no <password>: it must hold the admin API's token");
        }
        return Map.of(TOKEN_VARIABLE, token);
    }
}
