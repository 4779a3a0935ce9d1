//! Pulsar's JSON: schema data as the broker stores it, the files `pulsar-admin schemas upload`
//! takes and `schemas get` prints, and whole histories (`schemas get --all-version`, the admin
//! REST API's list of versions).

use crate::console::Error;
use serde_json::Value;

/// One schema of a JSON file, with Pulsar's version number when the file gives it.
pub struct Versioned {
    pub data: Vec<u8>,
    pub version: Option<i64>,
}

/// Every schema a JSON file holds, oldest first: one for schema data or an upload/get file,
/// each version for a history.
pub fn schemas(bytes: Vec<u8>) -> Result<Vec<Versioned>, Error> {
    // `schemas get --all-version` prints one JSON object per version, one after the other.
    let values: Result<Vec<Value>, _> = serde_json::Deserializer::from_slice(&bytes)
        .into_iter::<Value>()
        .collect();
    match values {
        Ok(values) if values.len() > 1 && values.iter().all(Value::is_object) => history(&values),
        Ok(mut values) if values.len() == 1 => match values.remove(0) {
            Value::Array(items) if items.iter().all(Value::is_object) => history(&items),
            Value::Object(object) if object.contains_key("getSchemaResponses") => {
                match &object["getSchemaResponses"] {
                    Value::Array(items) => history(items),
                    _ => Err(Error::input("`getSchemaResponses` is not a list")),
                }
            }
            value @ Value::Object(_) => Ok(vec![Versioned {
                version: value.get("version").and_then(Value::as_i64),
                data: unwrap(&value, bytes, 0)?,
            }]),
            _ => Ok(vec![Versioned {
                data: bytes,
                version: None,
            }]),
        },
        // Not JSON: passed on as schema data, so that the engine says what is wrong with it,
        // as the broker would.
        _ => Ok(vec![Versioned {
            data: bytes,
            version: None,
        }]),
    }
}

/// A list of versions, each as `schemas get` prints it or the REST API returns it. Where the
/// items carry their version numbers they are put in that order; deleted versions (a `type`
/// of NONE, or a `deleted` mark) are left out, as the broker leaves them out of a check.
fn history(items: &[Value]) -> Result<Vec<Versioned>, Error> {
    let mut versions = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let deleted = item.get("deleted").and_then(Value::as_bool) == Some(true)
            || item.get("type").and_then(Value::as_str) == Some("NONE");
        if deleted {
            continue;
        }
        let version = item.get("version").and_then(Value::as_i64);
        let data = stored_bytes(item)
            .map_or_else(|| unwrap(item, item.to_string().into_bytes(), 0), Ok)
            .map_err(|e| {
                Error::input(format!("the schema at position {index} of the list: {e}"))
            })?;
        versions.push(Versioned { data, version });
    }
    if versions.iter().all(|v| v.version.is_some()) {
        versions.sort_by_key(|v| v.version);
    }
    Ok(versions)
}

/// The exact stored bytes where an item carries them: `schemas get --all-version` prints each
/// version's data as base64 in `schema` (the REST API as text in `data`, which `unwrap` reads).
fn stored_bytes(item: &Value) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let encoded = item.get("schema")?.as_str()?;
    if encoded.trim_start().starts_with('{') {
        return None;
    }
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()
}

/// Schema data is passed on byte for byte, so its SHA-256 is the broker's and bad data gets
/// the broker's error; a wrapper from `pulsar-admin` is unwrapped to the schema data inside.
pub fn unwrap(value: &Value, bytes: Vec<u8>, depth: usize) -> Result<Vec<u8>, Error> {
    let Value::Object(object) = value else {
        return Err(Error::input("the wrapped schema is not a JSON object"));
    };
    if object.contains_key("fileDescriptorSet") {
        return Ok(bytes);
    }
    if let Some(kind) = object.get("type").and_then(Value::as_str) {
        if kind != "PROTOBUF_NATIVE" {
            return Err(Error::input(format!(
                "the file holds a schema of type {kind}; protocompat checks PROTOBUF_NATIVE schemas only"
            )));
        }
    }
    if depth < 4 {
        for key in ["schema", "data", "schemaInfo"] {
            match object.get(key) {
                Some(Value::String(inner)) => {
                    let parsed: Value = serde_json::from_str(inner).map_err(|e| {
                        Error::input(format!("the `{key}` field does not hold schema JSON: {e}"))
                    })?;
                    return unwrap(&parsed, inner.as_bytes().to_vec(), depth + 1);
                }
                Some(inner @ Value::Object(_)) => {
                    return unwrap(inner, inner.to_string().into_bytes(), depth + 1)
                }
                _ => {}
            }
        }
    }
    Err(Error::input(
        "the JSON holds no PROTOBUF_NATIVE schema: expected a `fileDescriptorSet` field, or a \
         `schema` or `data` field as in `pulsar-admin schemas upload` / `get` files",
    ))
}
