/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.apache.pulsar.broker.service.schema.protocompat.validator;

import java.util.Objects;

/**
 * Builds a {@link ProtobufNativeSchemaValidator} for one of the broker's strategies:
 *
 * <table>
 *   <caption>Builder settings and the topic strategy they check</caption>
 *   <tr><th>validatorStrategy</th><th>isOnlyValidateLatest(true)</th><th>isOnlyValidateLatest(false)</th></tr>
 *   <tr><td>CanReadExistingStrategy</td><td>BACKWARD</td><td>BACKWARD_TRANSITIVE</td></tr>
 *   <tr><td>CanBeReadByExistingStrategy</td><td>FORWARD</td><td>FORWARD_TRANSITIVE</td></tr>
 *   <tr><td>CanBeReadMutualStrategy</td><td>FULL</td><td>FULL_TRANSITIVE</td></tr>
 * </table>
 *
 * <p>There is no profile setting: the native library runs one rule profile per JVM, the one
 * {@code -Dprotocompat.profile} names when it is loaded (in Maven, a Surefire
 * {@code systemPropertyVariables} entry), just as each broker runs one.
 */
public class ProtobufNativeSchemaValidatorBuilder {

    private ProtobufNativeSchemaValidationStrategy strategy;
    // PIP-246's builder starts at false: every existing schema, the stricter check.
    private boolean onlyValidateLatest;

    public ProtobufNativeSchemaValidatorBuilder validatorStrategy(ProtobufNativeSchemaValidationStrategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        return this;
    }

    /**
     * {@code true}: compare with the last (latest) existing schema only, as the broker does for
     * a non-transitive strategy; {@code false} (the default): with every existing schema.
     */
    public ProtobufNativeSchemaValidatorBuilder isOnlyValidateLatest(boolean onlyValidateLatest) {
        this.onlyValidateLatest = onlyValidateLatest;
        return this;
    }

    /** @throws IllegalStateException if no strategy was set: no default could be the topic's */
    public ProtobufNativeSchemaValidator build() {
        if (strategy == null) {
            throw new IllegalStateException("set the topic's strategy with validatorStrategy(...) before build()");
        }
        return new NativeSchemaValidator(strategy, onlyValidateLatest);
    }
}
