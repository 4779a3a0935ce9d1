//! A topic's schema history and effective strategy, read from a broker's admin REST API: the
//! existing side of the check the broker will run on the next upload.
//!
//! The admin endpoint is not trusted further than the user trusts it: the token goes to the
//! origin of `--admin-url` (and hosts the user allows) only, every request of a command draws
//! on one deadline, and each answer is read within a bound, parsed as it streams in.

mod access;
mod client;
mod names;

use protocompat::text::bound;
use protocompat::Strategy;
use serde::Deserialize;

use crate::input::Loaded;

pub use access::Access;
pub use client::{Client, AUDIT_TIMEOUT, BROKERS_TIMEOUT, CHECK_TIMEOUT};
pub use names::{each_name, each_name_at, names};

#[derive(clap::Args)]
pub struct BrokerArgs {
    /// Compare with a topic's schema history on a broker: its admin URL, as pulsar-admin's
    /// --admin-url (http://broker:8080, https://broker:8443).
    /// Without --topic, the baseline of every topic of the project file.
    #[arg(long, value_name = "URL")]
    pub admin_url: Option<String>,
    /// The topic (persistent://tenant/ns/topic, tenant/ns/topic, or a name in public/default).
    #[arg(long, requires = "admin_url")]
    pub topic: Option<String>,
    #[command(flatten)]
    pub access: Access,
}

/// What the broker holds for a topic.
pub struct History {
    /// Every version not deleted, oldest first, as the broker keeps them.
    pub schemas: Vec<Loaded>,
    /// The strategy the broker applies to the topic, with where it was read.
    pub strategy: Result<Strategy, String>,
}

/// A topic as the admin API names it.
struct Topic {
    domain: &'static str,
    tenant: String,
    namespace: String,
    /// The local name, partition suffix removed: partitions share their topic's schema.
    local: String,
}

impl Topic {
    fn parse(text: &str) -> Result<Topic, String> {
        let (domain, rest) = match text.split_once("://") {
            Some(("persistent", rest)) => ("persistent", rest),
            Some(("non-persistent", rest)) => ("non-persistent", rest),
            Some((scheme, _)) => {
                return Err(format!(
                    "topic `{text}`: unknown domain `{scheme}://`; expected persistent:// or non-persistent://"
                ))
            }
            None => ("persistent", text),
        };
        let parts: Vec<&str> = rest.splitn(3, '/').collect();
        let (tenant, namespace, local) = match parts.as_slice() {
            [local] => ("public", "default", *local),
            [tenant, namespace, local] => (*tenant, *namespace, *local),
            _ => {
                return Err(format!(
                    "topic `{text}`: expected persistent://tenant/namespace/topic or tenant/namespace/topic"
                ))
            }
        };
        if tenant.is_empty() || namespace.is_empty() || local.is_empty() {
            return Err(format!("topic `{text}`: a part of its name is empty"));
        }
        let local = match local.rsplit_once("-partition-") {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => local,
        };
        Ok(Topic {
            domain,
            tenant: tenant.to_owned(),
            namespace: namespace.to_owned(),
            local: local.to_owned(),
        })
    }

    fn path(&self) -> String {
        format!(
            "{}/{}/{}",
            encode(&self.tenant),
            encode(&self.namespace),
            encode(&self.local)
        )
    }

    fn full(&self) -> String {
        format!(
            "{}://{}/{}/{}",
            self.domain, self.tenant, self.namespace, self.local
        )
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters, as the admin client does.
pub fn encode(part: &str) -> String {
    part.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every stored version of `topic` at the admin API `url`, and its strategy.
pub fn fetch_topic(access: &Access, url: &str, topic: &str) -> Result<(String, History), String> {
    let client = Client::connect(access, url, CHECK_TIMEOUT)?;
    history(&client, topic)
}

/// A `GET …/schemas` answer: each version as the broker keeps it. Other fields are skipped as
/// they stream past.
#[derive(Deserialize)]
struct SchemasAnswer {
    #[serde(rename = "getSchemaResponses")]
    responses: Option<Vec<StoredSchema>>,
}

#[derive(Deserialize)]
struct StoredSchema {
    version: Option<i64>,
    #[serde(rename = "type")]
    kind: Option<String>,
    /// The schema data: for PROTOBUF_NATIVE, JSON text, taken byte for byte.
    data: Option<String>,
}

/// Every stored version of `topic` (as the user named it) and its strategy; the topic's full
/// name first.
pub fn history(client: &Client, topic: &str) -> Result<(String, History), String> {
    let found = history_within(client, topic, u64::MAX)?;
    Ok(found.expect("within the bound or refused"))
}

/// As [`history`], but `None` once the schemas answer proves larger than `share` bytes, when
/// what was read of it is dropped and the strategy is not asked.
pub fn history_within(
    client: &Client,
    topic: &str,
    share: u64,
) -> Result<Option<(String, History)>, String> {
    let topic = Topic::parse(topic)?;
    let label = topic.full();
    let what = format!("the schemas of {label} at {}", client.base);
    let answer = client.get(&format!("/admin/v2/schemas/{}/schemas", topic.path()))?;
    let schemas = match answer.status() {
        200 => {
            let read = |reader: &mut dyn std::io::BufRead| serde_json::from_reader(reader);
            match answer.parse_within(&what, "not JSON", share, read)? {
                Some(answer) => versions(answer, &label).map_err(|e| format!("{what}: {e}"))?,
                None => return Ok(None),
            }
        }
        // No schema yet, in brokers that answer so rather than with an empty list.
        404 => Vec::new(),
        _ => return Err(answer.refused(&what)),
    };
    let strategy = strategy(client, &topic);
    Ok(Some((label, History { schemas, strategy })))
}

/// The name under which a topic's schema is stored: partitions, and the persistent and
/// non-persistent topics of one name, share one.
pub fn schema_name(topic: &str) -> Result<String, String> {
    Topic::parse(topic).map(|t| format!("{}/{}/{}", t.tenant, t.namespace, t.local))
}

/// The versions in a `GET …/schemas` answer, oldest first.
fn versions(answer: SchemasAnswer, topic: &str) -> Result<Vec<Loaded>, String> {
    let Some(items) = answer.responses else {
        return Err("no `getSchemaResponses` list in the answer".to_owned());
    };
    let mut schemas = Vec::new();
    for item in items {
        let kind = item.kind.as_deref().unwrap_or("");
        if kind != "PROTOBUF_NATIVE" {
            return Err(format!(
                "version {} is a schema of type {}; protocompat checks PROTOBUF_NATIVE schemas only (the broker refuses a change of type)",
                item.version.unwrap_or(-1),
                bound(kind, 100)
            ));
        }
        schemas.push(Loaded {
            data: item.data.unwrap_or_default().into_bytes(),
            label: topic.to_owned(),
            version: item.version,
            sources: None,
        });
    }
    schemas.sort_by_key(|s| s.version);
    Ok(schemas)
}

/// The strategy the broker resolves for the topic (topic policy, namespace policy, broker
/// default), asked with `applied=true`; without topic policies, the namespace's.
fn strategy(client: &Client, topic: &Topic) -> Result<Strategy, String> {
    let applied = format!(
        "/admin/v2/{}/{}/schemaCompatibilityStrategy?applied=true",
        topic.domain,
        topic.path()
    );
    if let Ok(answer) = client.get(&applied) {
        if answer.status() == 200 {
            if let Some(strategy) = answer.text("").ok().as_deref().and_then(strategy_named) {
                return Ok(strategy);
            }
        }
    }
    let namespace = format!(
        "/admin/v2/namespaces/{}/{}/schemaCompatibilityStrategy",
        encode(&topic.tenant),
        encode(&topic.namespace)
    );
    let what = format!(
        "the schema compatibility strategy of {}/{}",
        topic.tenant, topic.namespace
    );
    let answer = client.get(&namespace)?;
    if answer.status() != 200 {
        return Err(answer.refused(&what));
    }
    match strategy_named(&answer.text(&what)?) {
        Some(Strategy::Undefined) | None => Err(format!(
            "{what} is UNDEFINED, so the broker's own schemaCompatibilityStrategy applies, \
             which the admin API shows to superusers only; name it with --strategy"
        )),
        Some(strategy) => Ok(strategy),
    }
}

/// `"FULL"` (a JSON string) or `FULL`.
fn strategy_named(body: &str) -> Option<Strategy> {
    let name = serde_json::from_str::<String>(body).unwrap_or_else(|_| body.trim().to_owned());
    name.parse().ok()
}

/// What the broker compares an upload with, given the versions it holds (oldest first).
pub enum Upload<'a> {
    /// The bytes are stored already: the broker answers with that version and checks nothing.
    Stored(&'a Loaded),
    /// The versions the check compares: the latest only under a non-transitive strategy.
    Compared(&'a [Loaded]),
}

/// The broker's upload path for `new` against `held`: the stored-bytes lookup over every
/// version, then `checkCompatibilityWithLatest` or, for a transitive strategy, `…WithAll`.
pub fn on_upload<'a>(strategy: Strategy, held: &'a [Loaded], new: &[u8]) -> Upload<'a> {
    if let Some(stored) = held.iter().find(|v| v.data == new) {
        return Upload::Stored(stored);
    }
    // A strategy that compares nothing keeps what it was given, as the engine reports it.
    if strategy.is_transitive() || held.is_empty() || strategy.directions().is_empty() {
        Upload::Compared(held)
    } else {
        Upload::Compared(&held[held.len() - 1..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_are_named_as_the_admin_api_names_them() {
        let t = Topic::parse("persistent://acme/orders/order-events-partition-3").unwrap();
        assert_eq!(
            (t.domain, t.path()),
            ("persistent", "acme/orders/order-events".to_owned())
        );
        let t = Topic::parse("orders").unwrap();
        assert_eq!(t.full(), "persistent://public/default/orders");
        let t = Topic::parse("non-persistent://a/b/c d").unwrap();
        assert_eq!(
            (t.domain, t.path()),
            ("non-persistent", "a/b/c%20d".to_owned())
        );
        assert!(Topic::parse("kafka://a/b/c").is_err());
        assert!(Topic::parse("a/b").is_err());
    }

    #[test]
    fn a_strategy_is_read_quoted_or_bare() {
        assert_eq!(
            strategy_named("\"BACKWARD_TRANSITIVE\""),
            Some(Strategy::BackwardTransitive)
        );
        assert_eq!(strategy_named("FULL\n"), Some(Strategy::Full));
        assert_eq!(strategy_named(""), None);
    }

    #[test]
    fn answers_are_typed_and_data_kept_as_sent() {
        let body = r#"{"getSchemaResponses":[{"version":1,"type":"PROTOBUF_NATIVE","timestamp":5,
            "data":"{\"a\":\"\u00e9\\/\"}","properties":{"k":"v"}},
            {"version":0,"type":"PROTOBUF_NATIVE","data":"x"}],"extra":[1,2,3]}"#;
        let answer: SchemasAnswer = serde_json::from_reader(body.as_bytes()).unwrap();
        let schemas = versions(answer, "t").unwrap();
        assert_eq!(schemas[0].version, Some(0));
        assert_eq!(schemas[1].data, "{\"a\":\"é\\/\"}".as_bytes());
        let avro: SchemasAnswer =
            serde_json::from_str(r#"{"getSchemaResponses":[{"version":0,"type":"AVRO"}]}"#)
                .unwrap();
        assert!(versions(avro, "t").is_err_and(|e| e.contains("type AVRO")));
        let none: SchemasAnswer = serde_json::from_str("{}").unwrap();
        assert!(versions(none, "t").is_err());
    }
}
