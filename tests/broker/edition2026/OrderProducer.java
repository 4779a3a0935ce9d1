/*
 * Licensed under the Apache License, Version 2.0.
 */
import com.google.protobuf.RuntimeVersion;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import shop.Order;

/**
 * An application as a team writes it: a producer of {@code shop.Order}, the class protoc
 * generated from one version of order.proto (Edition 2026), with Pulsar's own
 * {@code Schema.PROTOBUF_NATIVE}. BrokerEdition2026IT compiles it once per version, beside that
 * version's generated classes (the source is the same for all three; only the classes differ),
 * and runs it against a broker: {@code OrderProducer SERVICE_URL TOPIC ID}.
 *
 * <p>It prints what the test reads, one fact a line: the protobuf-java it runs, the edition of
 * the descriptor it uploads, then {@code sent MESSAGE_ID}, or {@code refused} and the client
 * exception's text (exit 3) when the broker refuses the schema.
 */
public final class OrderProducer {

    public static void main(String[] args) throws Exception {
        String serviceUrl = args[0];
        String topic = args[1];
        long id = Long.parseLong(args[2]);
        System.out.println("protobuf-java " + RuntimeVersion.MAJOR + "." + RuntimeVersion.MINOR + "."
                + RuntimeVersion.PATCH);
        System.out.println("edition " + Order.getDescriptor().getFile().toProto().getEdition());
        try (PulsarClient client = PulsarClient.builder().serviceUrl(serviceUrl)
                .operationTimeout(30, TimeUnit.SECONDS).build()) {
            try (Producer<Order> producer = client.newProducer(Schema.PROTOBUF_NATIVE(Order.class))
                    .topic(topic).create()) {
                MessageId sent = producer.send(Order.newBuilder().setId(id).addQuantities(2).setNote("v" + id).build());
                System.out.println("sent " + sent);
            } catch (PulsarClientException.IncompatibleSchemaException e) {
                System.out.println("refused " + e.getClass().getName());
                System.out.println(e.getMessage());
                System.out.flush();
                System.exit(3);
            }
        }
    }
}
