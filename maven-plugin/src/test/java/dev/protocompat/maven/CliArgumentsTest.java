/*
 * Licensed under the Apache License, Version 2.0.
 */
package dev.protocompat.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;

class CliArgumentsTest {

    @Test
    void everyParameterBecomesItsOptionAndTheNewSchemaComesLast() throws Exception {
        CliArguments args = new CliArguments();
        args.protoFiles = List.of(new File("src/main/proto/shop/order.proto"));
        args.includes = List.of(new File("src/main/proto"), new File("third_party"));
        args.root = "shop.Order";
        args.against = ".git#ref=main,subdir=src/main/proto";
        args.againstIncludes = List.of(new File("old-third_party"));
        args.adminUrl = "https://pulsar:8443";
        args.topic = "persistent://acme/orders/events";
        args.strategy = "BACKWARD";
        args.profile = "conservative";
        args.failOnWarning = true;
        args.tlsCaFile = new File("ca.pem");
        args.allowRedirectHosts = List.of("broker-1", "*.pulsar.example");
        args.timeout = 30;
        args.authTokenFile = new File("token.txt");

        assertEquals(List.of("check", "--root", "shop.Order",
                "--against", ".git#ref=main,subdir=src/main/proto",
                "--against-include", "old-third_party",
                "--admin-url", "https://pulsar:8443", "--topic", "persistent://acme/orders/events",
                "--strategy", "BACKWARD", "--profile", "conservative", "--fail-on-warning",
                "--tls-ca-file", "ca.pem",
                "--allow-redirect-host", "broker-1", "--allow-redirect-host", "*.pulsar.example",
                "--timeout", "30", "--auth-token-file", "token.txt",
                "-I", "src/main/proto", "-I", "third_party",
                "src/main/proto/shop/order.proto"), args.toArgs());
    }

    @Test
    void aDescriptorSetIsTheNewSchemaWithoutImportRoots() throws Exception {
        CliArguments args = new CliArguments();
        args.descriptorSet = new File("target/generated-resources/protobuf/descriptor-sets/order.desc");
        args.includes = List.of(new File("src/main/proto"));
        args.against = "history.json";
        assertEquals(List.of("check", "--against", "history.json",
                "target/generated-resources/protobuf/descriptor-sets/order.desc"), args.toArgs());
    }

    @Test
    void severalProtoFilesAreAHistoryAndNeedNoExistingSide() throws Exception {
        CliArguments args = new CliArguments();
        args.protoFiles = List.of(new File("v1.proto"), new File("v2.proto"));
        assertEquals(List.of("check", "v1.proto", "v2.proto"), args.toArgs());
    }

    @Test
    void noInputSaysWhatToSet() {
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> new CliArguments().toArgs());
        assertTrue(e.getMessage().contains("set <protoFiles>"), e.getMessage());
        assertTrue(e.getMessage().contains("<descriptorSet>"), e.getMessage());
        assertTrue(e.getMessage().contains("<adminUrl> and <topic>"), e.getMessage());
        assertTrue(e.getMessage().contains("protocompat.yaml beside the pom (or set <project>)"), e.getMessage());
    }

    @Test
    void aNewSchemaAloneSaysWhatToCompareItWith() {
        CliArguments args = new CliArguments();
        args.protoFiles = List.of(new File("order.proto"));
        MojoExecutionException e = assertThrows(MojoExecutionException.class, args::toArgs);
        assertTrue(e.getMessage().contains("nothing to compare order.proto with: set <against>"), e.getMessage());
    }

    @Test
    void protoFilesAndADescriptorSetTogetherAreRefused() {
        CliArguments args = new CliArguments();
        args.protoFiles = List.of(new File("order.proto"));
        args.descriptorSet = new File("order.desc");
        args.against = "old";
        MojoExecutionException e = assertThrows(MojoExecutionException.class, args::toArgs);
        assertTrue(e.getMessage().contains("not both"), e.getMessage());
    }

    @Test
    void aProjectFileIsCheckedWholeWithThePomsSettingsAsOverrides() throws Exception {
        CliArguments args = new CliArguments();
        args.project = new File("protocompat.yaml");
        args.against = ".git#ref=origin/main";
        args.profile = "conservative";
        args.failOnWarning = true;
        assertEquals(List.of("check", "--project", "protocompat.yaml", "--against", ".git#ref=origin/main",
                "--profile", "conservative", "--fail-on-warning"), args.toArgs());
    }

    @Test
    void aProjectFileRefusesWhatItSetsPerTopic() {
        CliArguments args = new CliArguments();
        args.project = new File("protocompat.yaml");
        args.root = "shop.Order";
        args.includes = List.of(new File("src/main/proto"));
        MojoExecutionException e = assertThrows(MojoExecutionException.class, args::toArgs);
        assertTrue(e.getMessage().contains("<root>, <includes> cannot be set with the project file protocompat.yaml"),
                e.getMessage());
    }

    @Test
    void theLoggedCommandQuotesWhatAShellWouldSplit() {
        assertEquals("protocompat check --against '.git#ref=my branch' 'it'\\''s.proto'",
                CliArguments.display(List.of("protocompat", "check", "--against", ".git#ref=my branch", "it's.proto")));
    }
}
