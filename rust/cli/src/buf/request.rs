//! Reading what buf sends: stdin, bounded, and a `CheckRequest` walked in place. Each file of
//! the request stays the bytes buf sent (a slice of stdin) until the check decides which ones
//! it needs, so a request costs its own size in memory, however many records it packs.

use std::io::Read;

use prost::encoding::decode_varint;
use prost::Message;

use super::proto::{PluginOption, Request};
use super::Failure;

/// The most a request may hold: a buf image of both sides with source info. Far above real
/// modules (a thousand files with their imports is a few megabytes); past it the request is
/// refused unread, not buffered.
pub const MAX_REQUEST_BYTES: u64 = 256 << 20;

/// Files one side of a check may list: ten times what one schema may import
/// ([`protocompat::Limits`]'s `max_files`), for the files of a module no root reaches.
pub const MAX_FILES_PER_SIDE: usize = 10_000;

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Options and rule IDs are a handful in any buf.yaml; buf sends at most 250 rule IDs a call.
const MAX_OPTIONS: usize = 64;
const MAX_RULE_IDS: usize = 1_000;

/// Reads `input` to its end, refusing it past `max` bytes ([`MAX_REQUEST_BYTES`]) without
/// reading further.
pub fn read_bounded(input: impl Read, max: u64) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    input
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::invalid(format!("cannot read the request on stdin: {e}")))?;
    if bytes.len() as u64 > max {
        return Err(Failure::exhausted(format!(
            "the request is over {}, the most this plugin reads",
            size(max)
        )));
    }
    Ok(bytes)
}

/// The value of a `pluginrpc.v1.Request`: empty for no request (an empty stdin), which
/// PluginRPC reads as a request with every field unset; else the `Any`'s bytes, when its type
/// is `expected`.
pub fn unwrap(bytes: &[u8], expected: &str) -> Result<Vec<u8>, Failure> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let request = Request::decode(bytes)
        .map_err(|e| Failure::invalid(format!("not a pluginrpc.v1.Request: {e}")))?;
    let Some(any) = request.value else {
        return Ok(Vec::new());
    };
    let named = any.type_url.rsplit('/').next().unwrap_or_default();
    if named != expected {
        return Err(Failure::invalid(format!(
            "the request holds a `{}`, not a {expected}",
            protocompat::text::bound(&any.type_url, 200)
        )));
    }
    Ok(any.value)
}

/// One `buf.plugin.descriptor.v1.FileDescriptor` of a request.
pub struct File<'a> {
    /// The serialized `google.protobuf.FileDescriptorProto`, as buf sent it.
    pub proto: &'a [u8],
    /// A file the module's files import but buf was not asked to check (a dependency's, a
    /// well-known type).
    pub is_import: bool,
}

/// A `buf.plugin.check.v1.CheckRequest`, its files unread.
#[derive(Default)]
pub struct CheckRequest<'a> {
    pub files: Vec<File<'a>>,
    pub against_files: Vec<File<'a>>,
    pub options: Vec<PluginOption>,
    pub rule_ids: Vec<String>,
}

/// Walks a `CheckRequest` without decoding its files.
pub fn check_request(bytes: &[u8]) -> Result<CheckRequest<'_>, Failure> {
    let malformed =
        |e: String| Failure::invalid(format!("not a buf.plugin.check.v1.CheckRequest: {e}"));
    let mut request = CheckRequest::default();
    for record in Records(bytes) {
        let (field, value) = record.map_err(malformed)?;
        match (field, value) {
            (1 | 2, Value::Bytes(body)) => {
                let side = if field == 1 {
                    &mut request.files
                } else {
                    &mut request.against_files
                };
                if side.len() == MAX_FILES_PER_SIDE {
                    return Err(Failure::exhausted(format!(
                        "the request lists over {MAX_FILES_PER_SIDE} files on one side, the most \
                         this plugin reads"
                    )));
                }
                side.push(file(body).map_err(malformed)?);
            }
            (3, Value::Bytes(body)) => {
                if request.options.len() == MAX_OPTIONS {
                    return Err(Failure::invalid(format!(
                        "the request has over {MAX_OPTIONS} options"
                    )));
                }
                let option =
                    PluginOption::decode(body).map_err(|e| malformed(format!("an option: {e}")))?;
                request.options.push(option);
            }
            (4, Value::Bytes(body)) => {
                if request.rule_ids.len() == MAX_RULE_IDS {
                    return Err(Failure::invalid(format!(
                        "the request names over {MAX_RULE_IDS} rule IDs"
                    )));
                }
                let id = std::str::from_utf8(body)
                    .map_err(|_| malformed("a rule ID is not UTF-8".to_owned()))?;
                request.rule_ids.push(id.to_owned());
            }
            (1..=4, _) => return Err(malformed(format!("field {field} has the wrong wire type"))),
            // A field of a later version of the API: skipped, as protobuf parsers skip it.
            _ => {}
        }
    }
    Ok(request)
}

fn file(bytes: &[u8]) -> Result<File<'_>, String> {
    let mut file = File {
        proto: &[],
        is_import: false,
    };
    for record in Records(bytes) {
        match record? {
            (1, Value::Bytes(proto)) => file.proto = proto,
            (2, Value::Varint(flag)) => file.is_import = flag != 0,
            (1 | 2, _) => return Err("a FileDescriptor field has the wrong wire type".to_owned()),
            _ => {}
        }
    }
    if file.proto.is_empty() {
        return Err("a FileDescriptor has no file_descriptor_proto".to_owned());
    }
    Ok(file)
}

/// `message` without its records of field `field`, the others byte for byte; walked in place,
/// so a message of many small records costs its size, not a list of them.
pub fn without_field(message: &[u8], field: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(message.len());
    let mut records = Records(message);
    loop {
        let before = records.0;
        match records.next() {
            None => return Ok(out),
            Some(Err(e)) => return Err(e),
            Some(Ok((number, _))) if number == field => {}
            Some(Ok(_)) => out.extend_from_slice(&before[..before.len() - records.0.len()]),
        }
    }
}

/// A record's value: what the four wire types carry (groups are refused).
enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

/// The top-level records of a message, in order; each step fails on bad framing.
struct Records<'a>(&'a [u8]);

impl<'a> Iterator for Records<'a> {
    type Item = Result<(u32, Value<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.0.is_empty() {
            return None;
        }
        let result = self.step();
        if result.is_err() {
            // Nothing after a framing error can be trusted.
            self.0 = &[];
        }
        Some(result)
    }
}

impl<'a> Records<'a> {
    fn step(&mut self) -> Result<(u32, Value<'a>), String> {
        let tag = decode_varint(&mut self.0).map_err(|e| e.to_string())?;
        let field = u32::try_from(tag >> 3)
            .ok()
            .filter(|&f| f > 0)
            .ok_or_else(|| format!("invalid field number {}", tag >> 3))?;
        let value = match tag & 7 {
            0 => Value::Varint(decode_varint(&mut self.0).map_err(|e| e.to_string())?),
            1 => self.take(8).map(|_| Value::Fixed)?,
            2 => {
                let len = decode_varint(&mut self.0).map_err(|e| e.to_string())?;
                let len = usize::try_from(len).map_err(|_| "a length too large".to_owned())?;
                Value::Bytes(self.take(len)?)
            }
            5 => self.take(4).map(|_| Value::Fixed)?,
            wire => return Err(format!("wire type {wire} of field {field}")),
        };
        Ok((field, value))
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        if self.0.len() < len {
            return Err("a record runs past the end of its message".to_owned());
        }
        let (taken, rest) = self.0.split_at(len);
        self.0 = rest;
        Ok(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::wire::push_bytes;

    fn descriptor(proto: &[u8], is_import: bool) -> Vec<u8> {
        let mut out = Vec::new();
        push_bytes(&mut out, 1, proto);
        if is_import {
            out.extend([0x10, 1]);
        }
        out
    }

    #[test]
    fn files_are_kept_as_sent_and_unknown_fields_skipped() {
        let mut request = Vec::new();
        push_bytes(&mut request, 1, &descriptor(b"\x0a\x01a", false));
        push_bytes(&mut request, 2, &descriptor(b"\x0a\x01b", true));
        push_bytes(&mut request, 4, b"FIELD_NUMBER_CHANGED");
        request.extend([0xF8, 0x01, 7]); // field 31, a varint: a later API's
        let parsed = check_request(&request).unwrap();
        assert_eq!(parsed.files.len(), 1);
        assert_eq!(parsed.files[0].proto, b"\x0a\x01a");
        assert!(!parsed.files[0].is_import);
        assert_eq!(parsed.against_files[0].proto, b"\x0a\x01b");
        assert!(parsed.against_files[0].is_import);
        assert_eq!(parsed.rule_ids, ["FIELD_NUMBER_CHANGED"]);
    }

    #[test]
    fn bad_framing_and_too_many_files_are_refused() {
        for bad in [
            &[0x0A, 5, 1][..],
            &[0x0B],
            &[0x08],
            &[0x00, 0x00],
            &[0x0A, 0x00],
        ] {
            assert!(check_request(bad).is_err(), "{bad:?}");
        }
        let one = {
            let mut out = Vec::new();
            push_bytes(&mut out, 1, &descriptor(b"\x0a\x01a", false));
            out
        };
        let many = one.repeat(MAX_FILES_PER_SIDE + 1);
        let refused = check_request(&many).err().unwrap();
        assert!(
            refused.message.contains("over 10000 files"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn a_field_is_cut_out_and_the_rest_kept() {
        let mut message = Vec::new();
        push_bytes(&mut message, 1, b"ab");
        push_bytes(&mut message, 9, b"source info");
        message.extend([0x10, 0x96, 0x01]);
        push_bytes(&mut message, 9, b"");
        let mut want = Vec::new();
        push_bytes(&mut want, 1, b"ab");
        want.extend([0x10, 0x96, 0x01]);
        assert_eq!(without_field(&message, 9).unwrap(), want);
        assert!(without_field(&[0x0A, 3, 1], 9).is_err());
    }

    #[test]
    fn a_request_past_the_bound_is_refused_unread() {
        let endless = std::io::repeat(0);
        let refused = read_bounded(endless, 1 << 20).err().unwrap();
        assert!(
            refused.message.contains("over 1 MiB"),
            "{}",
            refused.message
        );
        assert_eq!(read_bounded(&[1u8; 100][..], 100).unwrap().len(), 100);
    }
}
