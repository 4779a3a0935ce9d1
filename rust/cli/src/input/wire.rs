//! The few protobuf wire-format steps needed to edit a descriptor set protoc wrote without
//! decoding it: prost-types 0.14 has no fields for Editions (`edition`, `features`), so a
//! decode and re-encode would drop them. Records are kept as the bytes protoc wrote.

use crate::console::Error;
use prost::encoding::{decode_varint, encode_varint};

/// One top-level record of a message: its field number and its bytes, tag included.
pub struct Record<'a> {
    pub field: u32,
    pub bytes: &'a [u8],
    /// The content of a length-delimited record.
    pub payload: Option<&'a [u8]>,
}

/// The top-level records of `message`, in order.
pub fn records(message: &[u8]) -> Result<Vec<Record<'_>>, Error> {
    let mut out = Vec::new();
    let mut rest = message;
    while !rest.is_empty() {
        let start = rest;
        let tag = decode_varint(&mut rest).map_err(|e| Error::input(e.to_string()))?;
        let field = u32::try_from(tag >> 3)
            .map_err(|_| Error::input(format!("field number {}", tag >> 3)))?;
        let payload = match tag & 7 {
            0 => {
                decode_varint(&mut rest).map_err(|e| Error::input(e.to_string()))?;
                None
            }
            1 => {
                take(&mut rest, 8)?;
                None
            }
            2 => {
                let len = decode_varint(&mut rest).map_err(|e| Error::input(e.to_string()))?;
                let len = usize::try_from(len).map_err(|_| Error::input("length too large"))?;
                Some(take(&mut rest, len)?)
            }
            5 => {
                take(&mut rest, 4)?;
                None
            }
            wire => return Err(Error::input(format!("wire type {wire} of field {field}"))),
        };
        let used = start.len() - rest.len();
        out.push(Record {
            field,
            bytes: &start[..used],
            payload,
        });
    }
    Ok(out)
}

fn take<'a>(rest: &mut &'a [u8], len: usize) -> Result<&'a [u8], Error> {
    if rest.len() < len {
        return Err(Error::input("a record runs past the end"));
    }
    let (taken, left) = rest.split_at(len);
    *rest = left;
    Ok(taken)
}

/// `message` without its records of field `field`, the others byte for byte.
pub fn without_field(message: &[u8], field: u32) -> Result<Vec<u8>, Error> {
    Ok(records(message)?
        .iter()
        .filter(|r| r.field != field)
        .flat_map(|r| r.bytes.iter().copied())
        .collect())
}

/// Appends a length-delimited record of field `field` holding `payload`.
pub fn push_bytes(out: &mut Vec<u8>, field: u32, payload: &[u8]) {
    encode_varint(u64::from(field) << 3 | 2, out);
    encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_cut_out_and_the_rest_kept_byte_for_byte() {
        // 1: "ab", 2: varint 150, 9: "x", 3: fixed32, 4: fixed64, 9 again.
        let mut message = Vec::new();
        push_bytes(&mut message, 1, b"ab");
        message.extend([0x10, 0x96, 0x01]);
        push_bytes(&mut message, 9, b"x");
        message.extend([0x1D, 1, 2, 3, 4]);
        message.extend([0x21, 1, 2, 3, 4, 5, 6, 7, 8]);
        push_bytes(&mut message, 9, b"");
        let fields: Vec<u32> = records(&message).unwrap().iter().map(|r| r.field).collect();
        assert_eq!(fields, [1, 2, 9, 3, 4, 9]);
        let mut want = Vec::new();
        push_bytes(&mut want, 1, b"ab");
        want.extend([
            0x10, 0x96, 0x01, 0x1D, 1, 2, 3, 4, 0x21, 1, 2, 3, 4, 5, 6, 7, 8,
        ]);
        assert_eq!(without_field(&message, 9).unwrap(), want);
    }

    #[test]
    fn truncated_or_odd_records_are_errors() {
        assert!(records(&[0x0A, 5, 1]).is_err());
        assert!(records(&[0x0B]).is_err());
        assert!(records(&[0x1D, 1]).is_err());
        assert!(records(&[0x80]).is_err());
    }
}
