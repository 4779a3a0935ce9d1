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
    /// Fixed-width values: nothing descriptor.proto's fields read.
    Fixed,
    /// A group, skipped with everything in it: only unknown fields can be groups.
    Group,
}

impl<'a> Value<'a> {
    #[inline]
    pub(crate) fn bytes(self) -> Result<&'a [u8], &'static str> {
        match self {
            Value::Bytes(bytes) => Ok(bytes),
            _ => Err(WRONG_WIRE_TYPE),
        }
    }

    #[inline]
    pub(crate) fn text(self) -> Result<&'a str, &'static str> {
        utf8(self.bytes()?)
    }

    #[inline]
    pub(crate) fn varint(self) -> Result<u64, &'static str> {
        match self {
            Value::Varint(value) => Ok(value),
            _ => Err(WRONG_WIRE_TYPE),
        }
    }

    /// An `int32` or enum field: protobuf keeps the low 32 bits of the varint.
    #[inline]
    pub(crate) fn int32(self) -> Result<i32, &'static str> {
        Ok(self.varint()? as i32)
    }

    #[inline]
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

/// The wire types descriptor.proto's fields use.
pub(crate) const VARINT: u32 = 0;
pub(crate) const LEN: u32 = 2;

/// A field's key as it is on the wire (`tag << 3 | wire type`), for matching a field and its
/// wire type in one comparison.
pub(crate) const fn key(tag: u32, wire_type: u32) -> u32 {
    tag << 3 | wire_type
}

/// A cursor over one message's fields, read key by key: the hot loops of the decoder match
/// whole keys ([`key`]), so that a field of the expected wire type costs one comparison.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// How many bytes have been read.
    #[inline(always)]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    pub(crate) fn is_done(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    #[inline(always)]
    pub(crate) fn varint(&mut self) -> Result<u64, &'static str> {
        varint_at(self.bytes, &mut self.pos).ok_or(BAD_VARINT)
    }

    /// An `int32` or enum field: protobuf keeps the low 32 bits of the varint.
    #[inline(always)]
    pub(crate) fn int32(&mut self) -> Result<i32, &'static str> {
        Ok(self.varint()? as i32)
    }

    #[inline(always)]
    pub(crate) fn bool(&mut self) -> Result<bool, &'static str> {
        Ok(self.varint()? != 0)
    }

    #[inline(always)]
    fn take(&mut self, len: u64) -> Result<&'a [u8], &'static str> {
        let len = usize::try_from(len).map_err(|_| TRUNCATED)?;
        if len > self.bytes.len() - self.pos {
            return Err(TRUNCATED);
        }
        let taken = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(taken)
    }

    /// A length-delimited value.
    #[inline(always)]
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], &'static str> {
        let len = self.varint()?;
        self.take(len)
    }

    /// A string value, which must be UTF-8.
    #[inline(always)]
    pub(crate) fn text(&mut self) -> Result<&'a str, &'static str> {
        utf8(self.bytes()?)
    }

    /// The next field's key; the tag must be 1 or more and fit protobuf's 29 bits.
    #[inline(always)]
    pub(crate) fn key(&mut self) -> Result<u32, &'static str> {
        let key = self.varint()?;
        let tag = key >> 3;
        if tag == 0 || tag > u64::from(u32::MAX >> 3) {
            return Err(BAD_KEY);
        }
        Ok(key as u32)
    }

    /// The next field's key, or `None` at the end of the message.
    #[inline(always)]
    pub(crate) fn next_key(&mut self) -> Result<Option<u32>, &'static str> {
        if self.is_done() {
            return Ok(None);
        }
        self.key().map(Some)
    }

    /// The value of a field whose `key` was just read.
    #[inline(always)]
    pub(crate) fn value(&mut self, key: u32) -> Result<Value<'a>, &'static str> {
        Ok(match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Value::Fixed
            }
            2 => Value::Bytes(self.bytes()?),
            3 => {
                self.skip_group(key >> 3)?;
                Value::Group
            }
            5 => {
                self.take(4)?;
                Value::Fixed
            }
            _ => return Err(BAD_GROUP),
        })
    }

    /// Skips a group whose start tag was just read, nested groups included.
    #[cold]
    #[inline(never)]
    fn skip_group(&mut self, tag: u32) -> Result<(), &'static str> {
        let mut open = vec![tag];
        while let Some(&innermost) = open.last() {
            let key = self.key()?;
            let (inner, wire_type) = (key >> 3, key & 7);
            match wire_type {
                0 => drop(self.varint()?),
                1 => drop(self.take(8)?),
                2 => drop(self.bytes()?),
                3 if open.len() < MAX_GROUP_DEPTH => open.push(inner),
                4 if inner == innermost => drop(open.pop()),
                5 => drop(self.take(4)?),
                _ => return Err(BAD_GROUP),
            }
        }
        Ok(())
    }
}

/// The varint at `*pos`, read as protobuf reads it: at most 10 bytes, the tenth no more than 1.
/// `None`, with `*pos` unchanged, when the bytes end first or it runs longer.
#[inline(always)]
pub(crate) fn varint_at(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    // Keys, lengths and most values of descriptors fit in one byte.
    if let Some(&byte) = bytes.get(*pos) {
        if byte < 0x80 {
            *pos += 1;
            return Some(u64::from(byte));
        }
    }
    long_varint_at(bytes, pos)
}

#[cold]
#[inline(never)]
fn long_varint_at(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for i in 0..10 {
        let byte = *bytes.get(*pos + i)?;
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            if i == 9 && byte > 1 {
                return None;
            }
            *pos += i + 1;
            return Some(value);
        }
    }
    None
}

/// Checks that a string value is UTF-8. Descriptor names are almost always short ASCII, which
/// is checked inline: the general validation is a call that costs more than the check.
#[inline(always)]
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, &'static str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).map_err(|_| NOT_UTF8)
}

/// Iterates the fields of one message: `(tag, value)` in wire order. For the colder paths
/// (options, feature sets); the hot loops read keys with [`Reader`].
pub(crate) struct Fields<'a> {
    reader: Reader<'a>,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Fields<'a> {
        Fields {
            reader: Reader::new(bytes),
        }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Value<'a>), &'static str>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.reader.is_done() {
            return None;
        }
        let reader = &mut self.reader;
        let item = reader
            .key()
            .and_then(|key| Ok((key >> 3, reader.value(key)?)));
        if item.is_err() {
            // Nothing after a malformed field can be trusted.
            self.reader.pos = self.reader.bytes.len();
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
        assert!(matches!(fields[2], (3, Value::Group)));
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
