//! A cursor over protobuf wire bytes: what the decoder needs of descriptor.proto's messages,
//! read in place. Strings are borrowed from the bytes, so decoding allocates only the tables
//! it builds.
//!
//! The framing of every declaration was already walked by the prescan; this reader still checks
//! everything it reads, since it also enters options and feature sets, which the prescan skips.
//! Its errors are short: the decoder asks prost for its fuller words when one happens.

/// A field's value as read from the wire.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    /// Fixed-width values and groups: nothing descriptor.proto's fields read.
    Other,
}

impl<'a> Value<'a> {
    pub(crate) fn bytes(self) -> Result<&'a [u8], &'static str> {
        match self {
            Value::Bytes(bytes) => Ok(bytes),
            _ => Err(WRONG_WIRE_TYPE),
        }
    }

    pub(crate) fn text(self) -> Result<&'a str, &'static str> {
        std::str::from_utf8(self.bytes()?).map_err(|_| NOT_UTF8)
    }

    pub(crate) fn varint(self) -> Result<u64, &'static str> {
        match self {
            Value::Varint(value) => Ok(value),
            _ => Err(WRONG_WIRE_TYPE),
        }
    }

    /// An `int32` or enum field: protobuf keeps the low 32 bits of the varint.
    pub(crate) fn int32(self) -> Result<i32, &'static str> {
        Ok(self.varint()? as i32)
    }

    pub(crate) fn bool(self) -> Result<bool, &'static str> {
        Ok(self.varint()? != 0)
    }
}

pub(crate) const WRONG_WIRE_TYPE: &str = "a field has the wrong wire type";
pub(crate) const NOT_UTF8: &str = "a string is not valid UTF-8";
const TRUNCATED: &str = "the data ends inside a field";
const BAD_VARINT: &str = "invalid varint";
const BAD_KEY: &str = "invalid field key";
const BAD_GROUP: &str = "unbalanced group";

/// Groups nested deeper than this inside an unknown field are refused, as protobuf's parser
/// refuses nesting past its recursion limit.
const MAX_GROUP_DEPTH: usize = 100;

/// Iterates the fields of one message: `(tag, value)` in wire order.
pub(crate) struct Fields<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Fields<'a> {
        Fields { bytes, pos: 0 }
    }

    #[inline]
    fn varint(&mut self) -> Result<u64, &'static str> {
        if let Some(&byte) = self.bytes.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u64::from(byte));
            }
        }
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&byte) = self.bytes.get(self.pos + i) else {
                break;
            };
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                if i == 9 && byte > 1 {
                    break;
                }
                self.pos += i + 1;
                return Ok(value);
            }
        }
        Err(BAD_VARINT)
    }

    fn take(&mut self, len: u64) -> Result<&'a [u8], &'static str> {
        let len = usize::try_from(len).map_err(|_| TRUNCATED)?;
        if len > self.bytes.len() - self.pos {
            return Err(TRUNCATED);
        }
        let taken = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(taken)
    }

    fn key(&mut self) -> Result<(u32, u8), &'static str> {
        let key = self.varint()?;
        let tag = key >> 3;
        if tag == 0 || tag > u64::from(u32::MAX >> 3) {
            return Err(BAD_KEY);
        }
        Ok((tag as u32, (key & 7) as u8))
    }

    /// Skips a group whose start tag was just read, nested groups included.
    fn skip_group(&mut self, tag: u32) -> Result<(), &'static str> {
        let mut open = vec![tag];
        while let Some(&innermost) = open.last() {
            let (inner, wire_type) = self.key()?;
            match wire_type {
                0 => drop(self.varint()?),
                1 => drop(self.take(8)?),
                2 => {
                    let len = self.varint()?;
                    self.take(len)?;
                }
                3 if open.len() < MAX_GROUP_DEPTH => open.push(inner),
                4 if inner == innermost => drop(open.pop()),
                5 => drop(self.take(4)?),
                _ => return Err(BAD_GROUP),
            }
        }
        Ok(())
    }

    #[inline]
    fn field(&mut self) -> Result<(u32, Value<'a>), &'static str> {
        let (tag, wire_type) = self.key()?;
        let value = match wire_type {
            0 => Value::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Value::Other
            }
            2 => {
                let len = self.varint()?;
                Value::Bytes(self.take(len)?)
            }
            3 => {
                self.skip_group(tag)?;
                Value::Other
            }
            5 => {
                self.take(4)?;
                Value::Other
            }
            _ => return Err(BAD_GROUP),
        };
        Ok((tag, value))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Value<'a>), &'static str>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let item = self.field();
        if item.is_err() {
            // Nothing after a malformed field can be trusted.
            self.pos = self.bytes.len();
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_in_wire_order_and_skips_groups() {
        // 1: varint 150, 2: "hi", 3: group holding 1: varint 1, 4: fixed32.
        let bytes = [
            0x08, 0x96, 0x01, 0x12, 0x02, b'h', b'i', 0x1b, 0x08, 0x01, 0x1c, 0x25, 0, 0, 0, 0,
        ];
        let fields: Vec<_> = Fields::new(&bytes).map(Result::unwrap).collect();
        assert_eq!(fields.len(), 4);
        assert_eq!(fields[0].1.varint(), Ok(150));
        assert_eq!(fields[1].1.text(), Ok("hi"));
        assert!(matches!(fields[2], (3, Value::Other)));
    }

    #[test]
    fn refuses_truncated_and_unbalanced_input() {
        assert!(Fields::new(&[0x12, 0x05, b'a']).any(|f| f.is_err()));
        assert!(Fields::new(&[0x1b, 0x24]).any(|f| f.is_err()));
        assert!(Fields::new(&[0x00]).any(|f| f.is_err()));
        let deep: Vec<u8> = std::iter::repeat_n(0x1b, 200).collect();
        assert!(Fields::new(&deep).any(|f| f.is_err()));
    }
}
