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
    file_descriptor_set: Option<Text<'a>>,
    #[serde(borrow)]
    root_message_type_name: Option<Text<'a>>,
    #[serde(borrow)]
    root_file_descriptor_name: Option<Text<'a>>,
}

/// A JSON string, borrowed when it has no escapes. serde borrows a `Cow<str>` field only when
/// the field's type is exactly that: inside an `Option` it copies every string.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(text)))
            }
            fn visit_str<E>(self, text: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E>(self, text: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
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
        match compact(data) {
            Some(parsed) => Ok(parsed),
            None => SchemaData::parse_json(data),
        }
    }

    /// Any JSON, through serde_json.
    fn parse_json(data: &[u8]) -> Result<SchemaData, DecodeError> {
        let raw: RawSchemaData = serde_json::from_slice(data).map_err(|e| {
            DecodeError::invalid(format!(
                "schema data is not PROTOBUF_NATIVE schema JSON \
                 {{\"fileDescriptorSet\":…,\"rootMessageTypeName\":…,\"rootFileDescriptorName\":…}}: {e}"
            ))
        })?;
        let encoded = required(raw.file_descriptor_set, "fileDescriptorSet")?;
        let root_message = required(raw.root_message_type_name, "rootMessageTypeName")?;
        let root_file = required(raw.root_file_descriptor_name, "rootFileDescriptorName")?;
        let descriptor_set = decode_base64(encoded.trim().as_bytes()).map_err(|e| {
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

/// The schema data as the Java client writes it, read without a JSON parser: the three keys
/// once each, in any order, no whitespace, no escapes, and base64 that decodes. Anything else
/// is `None`, and goes to serde_json, which reads all JSON and says what is wrong. The base64
/// text is most of the data, and serde_json looks at each of its bytes for escapes; here it
/// is found with one `memchr` and checked by decoding it, which accepts only the base64
/// alphabet: no quote, backslash or control character, as JSON requires.
fn compact(data: &[u8]) -> Option<SchemaData> {
    let mut rest = data.strip_prefix(b"{")?;
    let (mut encoded, mut root_message, mut root_file) = (None, None, None);
    loop {
        let key;
        (key, rest) = string(rest.strip_prefix(b"\"")?)?;
        let value;
        (value, rest) = string(rest.strip_prefix(b":\"")?)?;
        let slot = match key {
            b"fileDescriptorSet" => &mut encoded,
            b"rootMessageTypeName" => &mut root_message,
            b"rootFileDescriptorName" => &mut root_file,
            _ => return None,
        };
        if slot.replace(value).is_some() {
            return None;
        }
        match rest {
            [b',', more @ ..] => rest = more,
            [b'}'] => break,
            _ => return None,
        }
    }
    let name = |bytes: &[u8]| {
        let text = std::str::from_utf8(bytes).ok()?;
        let usable = !text.trim().is_empty() && !bytes.iter().any(|&b| b < 0x20);
        usable.then(|| text.to_owned())
    };
    Some(SchemaData {
        root_message: name(root_message?)?,
        root_file: name(root_file?)?,
        descriptor_set: decode_base64(encoded.filter(|e| !e.is_empty())?).ok()?,
    })
}

/// The bytes of a JSON string whose opening quote was just read, and what follows its closing
/// quote; `None` at an escape or no closing quote.
fn string(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = memchr::memchr2(b'"', b'\\', bytes)?;
    (bytes[end] == b'"').then(|| (&bytes[..end], &bytes[end + 1..]))
}

/// Decodes the descriptor set's base64, the largest part of the schema data. SIMD decoding is
/// several times faster; it accepts a subset of what [`BASE64`] accepts (not a partial pad),
/// with the same bytes, so whatever it refuses is decoded again by [`BASE64`], which accepts it
/// or says what is wrong.
fn decode_base64(text: &[u8]) -> Result<Vec<u8>, base64::DecodeError> {
    let fast = if text.len() % 4 == 0 {
        base64_simd::STANDARD
    } else {
        base64_simd::STANDARD_NO_PAD
    };
    match fast.decode_to_vec(text) {
        Ok(bytes) => Ok(bytes),
        Err(_) => BASE64.decode(text),
    }
}

fn required<'a>(value: Option<Text<'a>>, name: &str) -> Result<Cow<'a, str>, DecodeError> {
    match value.map(|text| text.0) {
        Some(v) if !v.trim().is_empty() => Ok(v),
        Some(_) => Err(DecodeError::invalid(format!(
            "schema data field `{name}` is empty"
        ))),
        None => Err(DecodeError::invalid(format!(
            "schema data has no `{name}` field"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast decoder and the fallback agree on every input: encodings of random bytes,
    /// padded or not, with characters replaced by others, padding, whitespace or non-ASCII.
    #[test]
    fn base64_decodes_as_the_base64_crate_does() {
        let alphabet =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n\x80";
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let len = (random() % 200) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| random() as u8).collect();
            let mut text = BASE64.encode(&bytes).into_bytes();
            if random() % 3 == 0 {
                while text.last() == Some(&b'=') {
                    text.pop();
                }
            }
            for _ in 0..random() % 3 {
                if let Some(i) = (!text.is_empty()).then(|| random() as usize % text.len()) {
                    text[i] = alphabet[random() as usize % alphabet.len()];
                }
            }
            let Ok(text) = String::from_utf8(text) else {
                continue;
            };
            let expected = BASE64.decode(&text);
            assert_eq!(decode_base64(text.as_bytes()), expected, "{text:?}");
            if expected.is_ok() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        // A partial pad: the base64 crate accepts it, the fast decoder does not.
        assert_eq!(decode_base64(b"6NlAy2g="), BASE64.decode("6NlAy2g="));
        assert!(decode_base64(b"Vg=").is_ok());
        assert!(accepted > 1000 && refused > 1000, "{accepted} {refused}");
    }

    /// Strings with escapes (a serializer that writes `\/`) are read as well as borrowed ones.
    #[test]
    fn strings_with_escapes_read_like_plain_ones() {
        let plain = br#"{"fileDescriptorSet":"ab/+","rootMessageTypeName":"a.B","rootFileDescriptorName":"a/b.proto"}"#;
        let escaped = br#"{"fileDescriptorSet":"ab\/+","rootMessageTypeName":"a\u002eB","rootFileDescriptorName":"a\/b.proto"}"#;
        let parsed = SchemaData::parse(plain).unwrap();
        assert_eq!(parsed.root_message, "a.B");
        assert_eq!(parsed.root_file, "a/b.proto");
        assert_eq!(parsed.descriptor_set, vec![0x69, 0xbf, 0xfe]);
        assert_eq!(SchemaData::parse(escaped).unwrap(), parsed);
        let number =
            br#"{"fileDescriptorSet":1,"rootMessageTypeName":"a.B","rootFileDescriptorName":"b"}"#;
        let error = SchemaData::parse(number).unwrap_err().message;
        assert!(error.contains("expected a string"), "{error}");
    }

    /// Whatever the compact reader accepts, serde_json reads the same: canonical schema data,
    /// then each with bytes changed, inserted or cut, and with the JSON spellings the compact
    /// reader leaves to serde_json (whitespace, escapes, repeated or unknown keys).
    #[test]
    fn the_compact_reader_reads_what_serde_json_reads() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let spellings: [&[u8]; 12] = [
            b" ",
            b"\n",
            b"\\/",
            b"\\u0041",
            b"\"",
            b",",
            b":",
            b"{",
            b"}",
            b"\x01",
            b"\xc3\x28",
            br#","rootFileDescriptorName":"x.proto""#,
        ];
        let (mut compact_read, mut tried) = (0, 0);
        for round in 0..20_000 {
            let set: Vec<u8> = (0..random() % 64).map(|_| random() as u8).collect();
            let data = SchemaData {
                descriptor_set: set,
                root_message: ["a.B", "pkg.Order", "é.Ü", ""][round % 4].to_owned(),
                root_file: ["a/b.proto", "x.proto", " "][round % 3].to_owned(),
            };
            let mut json = data.to_json().into_bytes();
            match random() % 4 {
                0 => {}
                1 => {
                    let at = random() as usize % json.len();
                    json[at] = random() as u8;
                }
                2 => {
                    let at = random() as usize % json.len();
                    let spelling = spellings[random() as usize % spellings.len()];
                    json.splice(at..at, spelling.iter().copied());
                }
                _ => json.truncate(random() as usize % json.len()),
            }
            tried += 1;
            if let Some(parsed) = compact(&json) {
                compact_read += 1;
                assert_eq!(
                    SchemaData::parse_json(&json),
                    Ok(parsed),
                    "{}",
                    String::from_utf8_lossy(&json)
                );
            }
        }
        assert!(
            compact_read > 2_000 && compact_read < tried,
            "{compact_read} of {tried}"
        );
    }
}
