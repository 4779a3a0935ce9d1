//! The JSON form Pulsar stores for a PROTOBUF_NATIVE schema (`ProtobufNativeSchemaData`).

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine};
use serde::Deserialize;
use std::borrow::Cow;

use crate::error::DecodeError;

/// Jackson writes standard base64 with padding; accept a missing pad too, since some
/// hand-written tooling drops it and it changes nothing about the bytes.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Borrowed from the JSON where it holds no escapes, as Jackson writes it: the base64 text is
/// most of the schema data, and is decoded, not kept.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSchemaData<'a> {
    #[serde(borrow)]
    file_descriptor_set: Option<Cow<'a, str>>,
    #[serde(borrow)]
    root_message_type_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    root_file_descriptor_name: Option<Cow<'a, str>>,
}

/// The three parts of PROTOBUF_NATIVE schema data, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaData {
    pub descriptor_set: Vec<u8>,
    pub root_message: String,
    pub root_file: String,
}

impl SchemaData {
    pub fn parse(data: &[u8]) -> Result<SchemaData, DecodeError> {
        let raw: RawSchemaData = serde_json::from_slice(data).map_err(|e| {
            DecodeError::invalid(format!(
                "schema data is not PROTOBUF_NATIVE schema JSON \
                 {{\"fileDescriptorSet\":…,\"rootMessageTypeName\":…,\"rootFileDescriptorName\":…}}: {e}"
            ))
        })?;
        let encoded = required(raw.file_descriptor_set, "fileDescriptorSet")?;
        let root_message = required(raw.root_message_type_name, "rootMessageTypeName")?;
        let root_file = required(raw.root_file_descriptor_name, "rootFileDescriptorName")?;
        let descriptor_set = BASE64.decode(encoded.trim()).map_err(|e| {
            DecodeError::invalid(format!(
                "fileDescriptorSet is not valid standard base64: {e}"
            ))
        })?;
        Ok(SchemaData {
            descriptor_set,
            root_message: root_message.into_owned(),
            root_file: root_file.into_owned(),
        })
    }

    /// The JSON Pulsar stores, as `ProtobufNativeSchemaUtils` writes it.
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "fileDescriptorSet": BASE64.encode(&self.descriptor_set),
            "rootMessageTypeName": self.root_message,
            "rootFileDescriptorName": self.root_file,
        })
        .to_string()
    }
}

fn required<'a>(value: Option<Cow<'a, str>>, name: &str) -> Result<Cow<'a, str>, DecodeError> {
    match value {
        Some(v) if !v.trim().is_empty() => Ok(v),
        Some(_) => Err(DecodeError::invalid(format!(
            "schema data field `{name}` is empty"
        ))),
        None => Err(DecodeError::invalid(format!(
            "schema data has no `{name}` field"
        ))),
    }
}
