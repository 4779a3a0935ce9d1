//! A topic's schema history and effective strategy, read from a broker's admin REST API: the
//! existing side of the check the broker will run on the next upload.

use std::path::PathBuf;
use std::time::Duration;

use protocompat::Strategy;
use serde_json::Value;
use ureq::tls::{Certificate, RootCerts, TlsConfig};

use crate::input::Loaded;

#[derive(clap::Args)]
pub struct BrokerArgs {
    /// Compare with a topic's schema history on a broker: its admin URL, as pulsar-admin's
    /// --admin-url (http://broker:8080, https://broker:8443).
    #[arg(long, value_name = "URL", requires = "topic")]
    pub admin_url: Option<String>,
    /// The topic (persistent://tenant/ns/topic, tenant/ns/topic, or a name in public/default).
    #[arg(long, requires = "admin_url")]
    pub topic: Option<String>,
    #[command(flatten)]
    pub access: Access,
}

/// How the admin API is reached: the token, and the CA to trust.
#[derive(clap::Args)]
pub struct Access {
    /// A token for the admin API, sent as `Authorization: Bearer`. Also read from the
    /// environment variable PULSAR_AUTH_TOKEN.
    #[arg(
        long,
        env = "PULSAR_AUTH_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub auth_token: Option<String>,
    /// A file holding the token (as pulsar-admin's `file:///path` auth params).
    #[arg(long, value_name = "FILE", conflicts_with = "auth_token")]
    pub auth_token_file: Option<PathBuf>,
    /// A PEM file of CA certificates to trust for https instead of the system's roots
    /// (pulsar-admin's --tls-trust-cert-path).
    #[arg(long, value_name = "FILE", alias = "tls-trust-cert-path")]
    pub tls_ca_file: Option<PathBuf>,
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

/// Admin responses bigger than this are refused: a history of thousands of large schemas fits.
const MAX_RESPONSE_BYTES: u64 = 1 << 30;
/// Brokers redirect a request to the topic's owner; more hops than this is a loop.
const MAX_REDIRECTS: usize = 5;

/// The admin API of one broker or cluster.
pub struct Client {
    agent: ureq::Agent,
    base: String,
    token: Option<String>,
}

impl Client {
    pub fn connect(args: &Access, url: &str) -> Result<Client, String> {
        let given = args.auth_token.as_deref().filter(|t| !t.trim().is_empty());
        let token = match (given, &args.auth_token_file) {
            (Some(token), _) => Some(token_value(token)?),
            (None, Some(file)) => Some(read_token(file)?),
            (None, None) => None,
        };
        let roots = match &args.tls_ca_file {
            None => RootCerts::PlatformVerifier,
            Some(file) => {
                let pem = std::fs::read(file)
                    .map_err(|e| format!("--tls-ca-file {}: {e}", file.display()))?;
                let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(&pem)
                    .filter_map(|item| match item {
                        Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                        _ => None,
                    })
                    .collect();
                if certs.is_empty() {
                    return Err(format!(
                        "--tls-ca-file {}: no PEM certificate in it",
                        file.display()
                    ));
                }
                RootCerts::new_with_certs(&certs)
            }
        };
        let agent = ureq::Agent::config_builder()
            .tls_config(TlsConfig::builder().root_certs(roots).build())
            .timeout_global(Some(Duration::from_secs(60)))
            // Redirects are followed here, so the token goes to the broker that owns the topic.
            .max_redirects(0)
            .http_status_as_error(false)
            .build()
            .into();
        Ok(Client {
            agent,
            base: url.trim_end_matches('/').to_owned(),
            token,
        })
    }

    /// GETs `path` under the admin URL, following the broker's redirects; the status and body.
    pub fn get(&self, path: &str) -> Result<(u16, String), String> {
        let mut url = format!("{}{path}", self.base);
        for _ in 0..=MAX_REDIRECTS {
            let mut request = self.agent.get(&url).header("Accept", "application/json");
            if let Some(token) = &self.token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            let mut response = request.call().map_err(|e| format!("GET {url}: {e}"))?;
            let status = response.status().as_u16();
            if (300..400).contains(&status) {
                let location = response
                    .headers()
                    .get("Location")
                    .and_then(|l| l.to_str().ok())
                    .ok_or_else(|| format!("GET {url}: HTTP {status} without a Location"))?;
                url = location.to_owned();
                continue;
            }
            let body = response
                .body_mut()
                .with_config()
                .limit(MAX_RESPONSE_BYTES)
                .read_to_string()
                .map_err(|e| format!("GET {url}: reading the answer: {e}"))?;
            return Ok((status, body));
        }
        Err(format!("GET {url}: more than {MAX_REDIRECTS} redirects"))
    }
}

/// `token:T` and `file:///path`, as in pulsar-admin's auth params, or the token itself.
fn token_value(given: &str) -> Result<String, String> {
    if let Some(token) = given.strip_prefix("token:") {
        return Ok(token.trim().to_owned());
    }
    if let Some(path) = given.strip_prefix("file://") {
        return read_token(&PathBuf::from(path));
    }
    Ok(given.trim().to_owned())
}

fn read_token(file: &PathBuf) -> Result<String, String> {
    let token = std::fs::read_to_string(file)
        .map_err(|e| format!("the token file {}: {e}", file.display()))?;
    Ok(token.trim().to_owned())
}

/// The reason a broker gave for an error status, from its `{"reason": …}` body.
fn refused(what: &str, status: u16, body: &str) -> String {
    let reason = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v.get("reason").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| body.chars().take(300).collect());
    let hint = match status {
        401 => " (give a token with --auth-token, --auth-token-file or PULSAR_AUTH_TOKEN)",
        403 => " (the token's role may not read this topic's schemas)",
        _ => "",
    };
    format!("{what}: HTTP {status}: {reason}{hint}")
}

/// Every stored version of `--topic` and the strategy the broker applies to it.
pub fn fetch(args: &BrokerArgs) -> Result<(String, History), String> {
    let (Some(url), Some(topic)) = (&args.admin_url, &args.topic) else {
        unreachable!("clap requires both")
    };
    let client = Client::connect(&args.access, url)?;
    history(&client, topic)
}

/// Every stored version of `topic` (as the user named it) and its strategy; the topic's full
/// name first.
pub fn history(client: &Client, topic: &str) -> Result<(String, History), String> {
    let topic = Topic::parse(topic)?;
    let label = topic.full();
    let what = format!("the schemas of {label} at {}", client.base);
    let (status, body) = client.get(&format!("/admin/v2/schemas/{}/schemas", topic.path()))?;
    let schemas = match status {
        200 => versions(&body, &label).map_err(|e| format!("{what}: {e}"))?,
        // No schema yet, in brokers that answer so rather than with an empty list.
        404 => Vec::new(),
        _ => return Err(refused(&what, status, &body)),
    };
    let strategy = strategy(client, &topic);
    Ok((label, History { schemas, strategy }))
}

/// A JSON list of names from the admin API (`GET /admin/v2/tenants`, a tenant's namespaces, a
/// namespace's topics).
pub fn names(client: &Client, path: &str, what: &str) -> Result<Vec<String>, String> {
    let (status, body) = client.get(path)?;
    if status != 200 {
        return Err(refused(what, status, &body));
    }
    serde_json::from_str(&body).map_err(|e| format!("{what}: not a JSON list of names: {e}"))
}

/// The name under which a topic's schema is stored: partitions, and the persistent and
/// non-persistent topics of one name, share one.
pub fn schema_name(topic: &str) -> Result<String, String> {
    Topic::parse(topic).map(|t| format!("{}/{}/{}", t.tenant, t.namespace, t.local))
}

/// The versions in a `GET …/schemas` answer, oldest first.
fn versions(body: &str, topic: &str) -> Result<Vec<Loaded>, String> {
    let answer: Value = serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
    let Some(Value::Array(items)) = answer.get("getSchemaResponses") else {
        return Err("no `getSchemaResponses` list in the answer".to_owned());
    };
    let mut schemas = Vec::new();
    for item in items {
        let version = item.get("version").and_then(Value::as_i64);
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let data = item.get("data").and_then(Value::as_str).unwrap_or("");
        if kind != "PROTOBUF_NATIVE" {
            return Err(format!(
                "version {} is a schema of type {kind}; protocompat checks PROTOBUF_NATIVE schemas only (the broker refuses a change of type)",
                version.unwrap_or(-1)
            ));
        }
        schemas.push(Loaded {
            data: data.as_bytes().to_vec(),
            label: topic.to_owned(),
            version,
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
    if let Ok((200, body)) = client.get(&applied) {
        if let Some(strategy) = strategy_named(&body) {
            return Ok(strategy);
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
    let (status, body) = client.get(&namespace)?;
    if status != 200 {
        return Err(refused(&what, status, &body));
    }
    match strategy_named(&body) {
        Some(Strategy::Undefined) | None => Err(format!(
            "{what} is UNDEFINED, so the broker's own schemaCompatibilityStrategy applies, \
             which the admin API shows to superusers only; name it with --strategy"
        )),
        Some(strategy) => Ok(strategy),
    }
}

/// `"FULL"` (a JSON string) or `FULL`.
fn strategy_named(body: &str) -> Option<Strategy> {
    let name = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| body.trim().to_owned());
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
    if is_transitive(strategy) || held.is_empty() || strategy.directions().is_empty() {
        Upload::Compared(held)
    } else {
        Upload::Compared(&held[held.len() - 1..])
    }
}

pub fn is_transitive(strategy: Strategy) -> bool {
    matches!(
        strategy,
        Strategy::BackwardTransitive | Strategy::ForwardTransitive | Strategy::FullTransitive
    )
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
    fn tokens_are_given_as_pulsar_admin_takes_them() {
        assert_eq!(token_value("token:abc").unwrap(), "abc");
        assert_eq!(token_value(" abc\n").unwrap(), "abc");
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
}
