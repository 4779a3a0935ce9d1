//! The wire format as the tree reads and writes it: keys, varints, lengths. Its own small
//! reader, not the model's: the tree keeps every field, groups and fixed-width values too.

pub(super) const VARINT: u32 = 0;
pub(super) const FIXED64: u32 = 1;
pub(super) const LEN: u32 = 2;
pub(super) const START_GROUP: u32 = 3;
pub(super) const END_GROUP: u32 = 4;
pub(super) const FIXED32: u32 = 5;

/// Groups nested deeper than this inside a kept group are refused, as protobuf refuses
/// nesting past its recursion limit.
const MAX_GROUP_DEPTH: usize = 100;

pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    pub(super) fn is_done(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub(super) fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&byte) = self.bytes.get(self.pos + i) else {
                return Err("the data ends inside a varint".into());
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
        Err("invalid varint".into())
    }

    pub(super) fn take(&mut self, len: u64) -> Result<&'a [u8], String> {
        let len = usize::try_from(len).map_err(|_| "a length past the data")?;
        if len > self.bytes.len() - self.pos {
            return Err("the data ends inside a field".into());
        }
        let taken = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(taken)
    }

    /// A key: `(field number, wire type)`, the number 1 or more and within protobuf's 29 bits.
    pub(super) fn key(&mut self) -> Result<(u32, u32), String> {
        let key = self.varint()?;
        let number = key >> 3;
        if number == 0 || number > u64::from(u32::MAX >> 3) {
            return Err("invalid field key".into());
        }
        Ok((number as u32, (key & 7) as u32))
    }

    /// The body of a group whose start key (field `number`) was just read, up to its end key,
    /// which is read but not part of the body.
    pub(super) fn group(&mut self, number: u32) -> Result<&'a [u8], String> {
        let start = self.pos;
        let mut open = vec![number];
        loop {
            let before = self.pos;
            let (inner, wire_type) = self.key()?;
            match wire_type {
                VARINT => drop(self.varint()?),
                FIXED64 => drop(self.take(8)?),
                LEN => {
                    let len = self.varint()?;
                    self.take(len)?;
                }
                START_GROUP if open.len() < MAX_GROUP_DEPTH => open.push(inner),
                END_GROUP if open.last() == Some(&inner) => {
                    open.pop();
                    if open.is_empty() {
                        return Ok(&self.bytes[start..before]);
                    }
                }
                _ => return Err("unbalanced or too deeply nested group".into()),
            }
        }
    }
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

pub(super) fn put_key(out: &mut Vec<u8>, number: u32, wire_type: u32) {
    put_varint(out, u64::from(number) << 3 | u64::from(wire_type));
}
