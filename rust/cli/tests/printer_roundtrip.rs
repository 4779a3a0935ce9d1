//! What the one printer of remedies (`protocompat::remedy::print`) promises, held for many
//! generated values: whatever a stored schema carries, the text printed for it parses back, in
//! protox and in protoc, to exactly that value, and is one line of printable ASCII that no value
//! can end early. Values are generated from a fixed seed (CI sees the same cases every run) and
//! batched into a few files, so that each compiler runs a handful of times. Each test prints how
//! many values of each kind it checked.
//!
//! Values are read back the way the engine reads a schema: the compiled descriptor set wrapped
//! as schema data, decoded with `Schema::decode`, the default taken from `default_value()`. The
//! text an applied edit keeps in memory (`print::descriptor_default`) is read back the same way,
//! in place of what protoc stored. Editions declarations go through protoc alone: protox
//! compiles no Editions file.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label as DescLabel, Type as DescType};
use prost_types::{DescriptorProto, FileDescriptorSet};
use protocompat::model::{
    DefaultValue, FieldPresence, FieldRef, Kind, MessageEncoding, RepeatedFieldEncoding, Scalar,
    SchemaData, Utf8Validation,
};
use protocompat::remedy::print;
use protocompat::remedy::{FieldOption, FieldType, Label, NewField, Value};
use protocompat::Schema;

/// Fixed, so that a failure seen once is seen again.
const SEED: u64 = 0x7072_696e_7465_7221;

// ---------------------------------------------------------------------------------------------
// Generation

/// SplitMix64: enough randomness for test cases, and no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// Text a hostile uploader would try: what ends a literal, a comment or a statement, escapes
/// the printer must not pass through as escapes, and characters that look like nothing.
const PAYLOADS: &[&str] = &[
    "\"]; option x = 1;\nmessage M {}",
    "\"]; option java_package = \"x\";\nmessage Injected {}",
    "\"; }\nmessage Injected {}\n//",
    "*/",
    "/*",
    "//",
    "\\",
    "\\\"",
    "\\x41",
    "\\u0041",
    "\\400",
    "\\777",
    "??=",
    "\r\n",
    "\u{2028}",
    "'",
    "\"",
    "\0",
    "\u{202e}txt.exe\u{202c}",
    "\u{2066}\u{2069}",
];

/// Characters that end a line or a literal, or show as nothing, or turn text around.
const ODD_CHARS: &str = "\"\\'?\n\r\t\0\u{7f}\u{85}\u{a0}\u{ad}\u{200b}\u{200e}\u{200f}\u{202a}\u{202b}\
    \u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{061c}\u{2028}\u{2029}\u{feff}\u{fffd}\
    \u{ffff}\u{10ffff}\u{1f600}";

fn random_char(rng: &mut Rng) -> char {
    loop {
        let code = match rng.below(8) {
            0..=2 => 0x20 + rng.below(0x5f) as u32,
            3 => match rng.below(0x21) {
                0x20 => 0x7f,
                c => c as u32,
            },
            4 => return rng.pick(&ODD_CHARS.chars().collect::<Vec<_>>()),
            5 => 0x80 + rng.below(0x80) as u32,
            6 => rng.below(0x1_0000) as u32,
            _ => rng.below(0x11_0000) as u32,
        };
        if let Some(c) = char::from_u32(code) {
            return c;
        }
    }
}

fn random_string(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(24) {
        if rng.one_in(6) {
            s.push_str(rng.pick(PAYLOADS));
        } else {
            s.push(random_char(rng));
        }
    }
    s
}

/// Byte sequences that are not UTF-8: a lone lead byte, a surrogate, past U+10FFFF, overlong.
const NOT_UTF8: &[&[u8]] = &[
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xff\xfe",
    b"\xc0\xaf",
    b"\x80",
];

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let mut b = Vec::new();
    for _ in 0..rng.below(24) {
        match rng.below(8) {
            0 => b.extend_from_slice(rng.pick(PAYLOADS).as_bytes()),
            1 => b.extend_from_slice(rng.pick(NOT_UTF8)),
            _ => b.push(rng.next() as u8),
        }
    }
    b
}

const INTEGERS: [Scalar; 10] = [
    Scalar::Int32,
    Scalar::Sint32,
    Scalar::Sfixed32,
    Scalar::Int64,
    Scalar::Sint64,
    Scalar::Sfixed64,
    Scalar::Uint32,
    Scalar::Fixed32,
    Scalar::Uint64,
    Scalar::Fixed64,
];

const SCALARS: [Scalar; 15] = [
    Scalar::Double,
    Scalar::Float,
    Scalar::Int64,
    Scalar::Uint64,
    Scalar::Int32,
    Scalar::Fixed64,
    Scalar::Fixed32,
    Scalar::Bool,
    Scalar::String,
    Scalar::Bytes,
    Scalar::Uint32,
    Scalar::Sfixed32,
    Scalar::Sfixed64,
    Scalar::Sint32,
    Scalar::Sint64,
];

fn integer_range(scalar: Scalar) -> (i128, i128) {
    use Scalar::*;
    match scalar {
        Int32 | Sint32 | Sfixed32 => (i32::MIN.into(), i32::MAX.into()),
        Int64 | Sint64 | Sfixed64 => (i64::MIN.into(), i64::MAX.into()),
        Uint32 | Fixed32 => (0, u32::MAX.into()),
        _ => (0, u64::MAX.into()),
    }
}

/// The bounds of every integer type that fit `scalar`, and random values of random widths.
fn integers_for(rng: &mut Rng, scalar: Scalar, random: usize) -> Vec<i128> {
    let (lo, hi) = integer_range(scalar);
    let mut values: Vec<i128> = vec![0, 1, -1, lo, hi, lo + 1, hi - 1];
    for bound in [i32::MIN as i128, i32::MAX as i128, u32::MAX as i128] {
        values.extend([bound - 1, bound, bound + 1]);
    }
    values.extend([i64::MIN as i128, i64::MAX as i128, u64::MAX as i128]);
    for _ in 0..random {
        let width = 1 + rng.below(64);
        let magnitude = i128::from(rng.next() >> (64 - width));
        values.push(if rng.one_in(2) { -magnitude } else { magnitude });
    }
    values.retain(|v| (lo..=hi).contains(v));
    values
}

/// An integer as a remedy may hold it: `Int` when negative, `Uint` past `i64::MAX`, either in
/// between (both print the same digits, and both must fit).
fn integer_value(rng: &mut Rng, v: i128) -> Value {
    match (i64::try_from(v), u64::try_from(v)) {
        (Ok(i), Ok(u)) => {
            if rng.one_in(2) {
                Value::Int(i)
            } else {
                Value::Uint(u)
            }
        }
        (Ok(i), Err(_)) => Value::Int(i),
        (Err(_), Ok(u)) => Value::Uint(u),
        (Err(_), Err(_)) => unreachable!("{v} fits no integer value"),
    }
}

/// 2^128 - 2^103, halfway between `f32::MAX` and 2^128: narrowed to f32, IEEE rounds this tie
/// (to even) to infinity, protoc to `f32::MAX` (see [`protoc_narrow`]).
const F32_ROUNDING_EDGE: f64 = 3.402_823_567_797_336_6e38;

/// Signed zeros and infinities, NaNs with a sign and a payload, the ends of the double and f32
/// ranges and their subnormals, ties of narrowing to f32, decimals that need 17 digits.
fn special_doubles() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::EPSILON,
        0.1,
        -0.1,
        1.0 / 3.0,
        1e300,
        1e-300,
        1e16,
        1e15,
        123_456_789_012_345_680.0,
        9_007_199_254_740_993.0,
        f64::from(f32::MAX),
        f64::from(f32::MIN),
        f64::from(f32::MIN_POSITIVE),
        f64::from(f32::from_bits(1)),
        F32_ROUNDING_EDGE,
        -F32_ROUNDING_EDGE,
        f64::from_bits(F32_ROUNDING_EDGE.to_bits() - 1),
        f64::from_bits(F32_ROUNDING_EDGE.to_bits() + 1),
        16_777_217.0,
        1.0 + f64::powi(2.0, -24),
        f64::from(f32::from_bits(1)) / 2.0,
    ];
    v.extend([1.5, 2.5, -7.0, 42.0, 1e-7, 1e22, 1e23]);
    v
}

/// A random double: any bit pattern, an f32 widened, a midpoint between two adjacent f32s (the
/// doubles whose narrowing is a tie), or a decimal a person would write.
fn random_double(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => f64::from_bits(rng.next()),
        1 => f64::from(f32::from_bits(rng.next() as u32)),
        2 => {
            let f = f32::from_bits((rng.next() as u32) % f32::MAX.to_bits());
            let up = f32::from_bits(f.to_bits() + 1);
            let mid = (f64::from(f) + f64::from(up)) / 2.0;
            if rng.one_in(2) {
                -mid
            } else {
                mid
            }
        }
        _ => {
            let digits = (rng.next() % 10_000_000) as f64;
            digits * f64::powi(10.0, rng.below(80) as i32 - 40)
        }
    }
}

fn random_identifier(rng: &mut Rng) -> String {
    // Words the grammar gives a meaning, and names that are nearly nothing.
    const KEYWORDS: &str = "syntax edition import weak public package option message enum service \
        rpc returns stream reserved extensions extend oneof map optional required repeated group \
        to max true false inf nan default int32 string bytes double float bool export local \
        json_name packed features _ __ Entry";
    if rng.one_in(5) {
        return rng
            .pick(&KEYWORDS.split_whitespace().collect::<Vec<_>>())
            .to_owned();
    }
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
    let mut s = String::from(rng.pick(FIRST) as char);
    for _ in 0..rng.below(12) {
        s.push(rng.pick(REST) as char);
    }
    s
}

/// A name that is an identifier, or one changed to break it somewhere.
fn random_name(rng: &mut Rng) -> String {
    let mut s = random_identifier(rng);
    match rng.below(4) {
        0 => s = format!("{}{s}", rng.below(10)),
        1 => {
            let at = s.char_indices().map(|(i, _)| i).nth(rng.below(s.len() + 1));
            let bad = loop {
                let c = random_char(rng);
                if !(c.is_ascii_alphanumeric() || c == '_') {
                    break c;
                }
            };
            s.insert(at.unwrap_or(s.len()), bad);
        }
        2 if rng.one_in(10) => s.clear(),
        _ => {}
    }
    s
}

/// Hands out identifiers not used before in one scope of a file, case-insensitively and
/// underscores aside (proto3 and Editions reject enum values and JSON names that differ only so).
struct Names(BTreeSet<String>);

impl Names {
    fn new(taken: &[&str]) -> Names {
        Names(taken.iter().map(|t| Names::key(t)).collect())
    }

    fn key(name: &str) -> String {
        name.replace('_', "").to_ascii_lowercase()
    }

    fn claim(&mut self, name: &str) -> bool {
        self.0.insert(Names::key(name))
    }

    fn fresh(&mut self, rng: &mut Rng) -> String {
        loop {
            let name = random_identifier(rng);
            if !Names::key(&name).is_empty() && self.claim(&name) {
                return name;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling and reading back

fn protox_set(dir: &Path, file: &str) -> Vec<u8> {
    match protox::compile([file], [dir]) {
        Ok(mut set) => {
            // protox keeps source info, protoc here none: a batch's spans alone would pass the
            // engine's limit on nested records, and they hold no value.
            for file in &mut set.file {
                file.source_code_info = None;
            }
            set.encode_to_vec()
        }
        Err(e) => panic!(
            "protox does not compile {file}: {}",
            with_lines(dir, file, format!("{e}\n{e:?}"))
        ),
    }
}

fn protoc_set(dir: &Path, file: &str) -> Vec<u8> {
    let out = dir.join(format!("{file}.pb"));
    let run = Command::new(support::bundled_protoc())
        .arg("-I")
        .arg(dir)
        .arg("-o")
        .arg(&out)
        .arg(dir.join(file))
        .output()
        .expect("protoc runs");
    if !run.status.success() {
        panic!(
            "protoc does not compile {file}:\n{}",
            with_lines(dir, file, support::text(&run.stderr))
        );
    }
    fs::read(out).unwrap()
}

/// A compiler's complaint, with the lines it names (`FILE:LINE:COLUMN`) shown: the value that
/// broke a batch is on them.
fn with_lines(dir: &Path, file: &str, mut report: String) -> String {
    let source = fs::read_to_string(dir.join(file)).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let named: Vec<usize> = report
        .split(&format!("{file}:"))
        .skip(1)
        .filter_map(|rest| rest.split(':').next()?.parse().ok())
        .take(5)
        .collect();
    for n in named {
        let line = lines.get(n.wrapping_sub(1)).unwrap_or(&"");
        let _ = write!(report, "\n  line {n}: {line}");
    }
    report
}

fn schema(set: &[u8], file: &str, root: &str) -> Schema {
    let data = SchemaData {
        descriptor_set: set.to_vec(),
        root_message: root.to_owned(),
        root_file: file.to_owned(),
    }
    .to_json();
    Schema::decode(data.as_bytes()).unwrap_or_else(|e| panic!("{file}: {}", e.message))
}

fn descriptors(set: &[u8]) -> FileDescriptorSet {
    FileDescriptorSet::decode(set).unwrap()
}

fn message<'s>(set: &'s FileDescriptorSet, name: &str) -> &'s DescriptorProto {
    set.file[0]
        .message_type
        .iter()
        .find(|m| m.name() == name)
        .unwrap_or_else(|| panic!("no message {name}"))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Compiler {
    Protox,
    Protoc,
    /// Not a compiler: the text `print::descriptor_default` keeps for an applied edit, put in
    /// place of what protoc stored.
    InMemory,
}

/// protoc's `io::SafeDoubleToFloat`, how it narrows a `float` field's default: IEEE rounding to
/// nearest, but a double above `f32::MAX` up to 3.4028235677973366e38 (2^128 - 2^103, the tie
/// that IEEE rounds to infinity) becomes `f32::MAX`.
fn protoc_narrow(v: f64) -> f32 {
    if v > f64::from(f32::MAX) && v <= F32_ROUNDING_EDGE {
        f32::MAX
    } else if v < f64::from(f32::MIN) && v >= -F32_ROUNDING_EDGE {
        f32::MIN
    } else {
        v as f32
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    // A `.proto` file spells one NaN, `nan`; its sign and payload are not the value's.
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn same_f32(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn same_default(a: &DefaultValue, b: &DefaultValue) -> bool {
    match (a, b) {
        (DefaultValue::F32(a), DefaultValue::F32(b)) => same_f32(*a, *b),
        (DefaultValue::F64(a), DefaultValue::F64(b)) => same_f64(*a, *b),
        _ => a == b,
    }
}

/// Whether the default a compiler left for a field of `scalar` is `value`, and if not, why.
///
/// For a `float` field "the same value" is the f32 a reader of the field gets: the double the
/// literal spells, narrowed. protoc narrows when it compiles (and stores the f32's digits),
/// with [`protoc_narrow`]; protox stores the double, which the engine narrows with `as`. The
/// two differ only at ±[`F32_ROUNDING_EDGE`], which the test counts apart. What a
/// compiler stores must also read back, as a double, to the double printed (protox, in memory)
/// or to protoc's f32 (protoc).
fn default_is(
    got: &DefaultValue,
    text: &str,
    scalar: Option<Scalar>,
    value: &Value,
    enum_number: Option<i32>,
    by: Compiler,
) -> Result<(), String> {
    let bad = |why: &str| Err(format!("{why}: stored {text:?}, read {got:?}"));
    match (scalar, value, got) {
        (Some(Scalar::String), Value::String(s), DefaultValue::String(g)) if g == s => Ok(()),
        (Some(Scalar::Bytes), Value::Bytes(b), DefaultValue::Bytes(g)) if g == b => Ok(()),
        (Some(Scalar::Bool), Value::Bool(b), DefaultValue::Bool(g)) if g == b => Ok(()),
        (Some(_), Value::Int(_) | Value::Uint(_), got) => {
            let want = match value {
                Value::Int(i) => i128::from(*i),
                Value::Uint(u) => i128::from(*u),
                _ => unreachable!(),
            };
            let read = match got {
                DefaultValue::I32(v) => i128::from(*v),
                DefaultValue::I64(v) => i128::from(*v),
                DefaultValue::U32(v) => i128::from(*v),
                DefaultValue::U64(v) => i128::from(*v),
                _ => return bad("not an integer"),
            };
            if read == want {
                Ok(())
            } else {
                bad("another integer")
            }
        }
        (Some(Scalar::Double), Value::Float(v), DefaultValue::F64(g)) => {
            let stored = text.parse::<f64>().unwrap_or(f64::NAN);
            if same_f64(*g, *v) && same_f64(stored, *v) {
                Ok(())
            } else {
                bad("another double")
            }
        }
        (Some(Scalar::Float), Value::Float(v), DefaultValue::F32(g)) => {
            let (want, stored_is_exact) = match by {
                Compiler::Protoc => {
                    let want = protoc_narrow(*v);
                    (want, same_f32(text.parse().unwrap_or(f32::NAN), want))
                }
                Compiler::Protox | Compiler::InMemory => {
                    (*v as f32, same_f64(text.parse().unwrap_or(f64::NAN), *v))
                }
            };
            if same_f32(*g, want) && stored_is_exact {
                Ok(())
            } else {
                bad(&format!("another float (want {want:?})"))
            }
        }
        (None, Value::Ident(name), DefaultValue::Enum(n)) if Some(*n) == enum_number => {
            if text == name {
                Ok(())
            } else {
                bad("another name")
            }
        }
        _ => bad("another value"),
    }
}

/// Text the printer made: printable ASCII only, so one line, which shows all it holds.
fn assert_printable(printed: &str) {
    assert!(
        printed.bytes().all(|b| (0x20..=0x7e).contains(&b)),
        "not printable ASCII: {printed:?}"
    );
}

/// A literal `print::literal` made: printable, and for a string or bytes value one string
/// literal, which no byte of the value ends before its last `"`.
fn assert_inert(printed: &str, value: &Value) {
    assert_printable(printed);
    if let Value::String(_) | Value::Bytes(_) = value {
        let inner = printed
            .strip_prefix('"')
            .and_then(|p| p.strip_suffix('"'))
            .unwrap_or_else(|| panic!("not one quoted literal: {printed:?}"));
        let mut escaped = false;
        for c in inner.chars() {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => panic!("a quote ends {printed:?} early, for {value:?}"),
                _ => {}
            }
        }
        assert!(!escaped, "{printed:?} escapes its closing quote");
    }
}

// ---------------------------------------------------------------------------------------------
// Values as defaults

/// One default, declared on a field of message `Values` numbered by the case's place.
struct DefaultCase {
    kind: &'static str,
    scalar: Option<Scalar>,
    value: Value,
    /// For an enum default, the value's number.
    enum_number: Option<i32>,
}

/// The enum the enum defaults name, nested in a message of its own so that its value names
/// (random identifiers) share a scope with nothing else.
const PICK: &str = "pt.Picks.Pick";

fn default_cases(rng: &mut Rng, picks: &[String]) -> Vec<DefaultCase> {
    let mut cases = Vec::new();
    let mut add = |kind, scalar, value| {
        cases.push(DefaultCase {
            kind,
            scalar: Some(scalar),
            value,
            enum_number: None,
        })
    };
    let mut strings: Vec<String> = PAYLOADS.iter().map(|p| p.to_string()).collect();
    strings.push(ODD_CHARS.to_owned());
    strings.push(String::new());
    strings.extend((0..1000).map(|_| random_string(rng)));
    for s in strings {
        add("string", Scalar::String, Value::String(s));
    }
    let mut bytes: Vec<Vec<u8>> = vec![(0..=255).collect(), Vec::new()];
    bytes.extend(NOT_UTF8.iter().map(|b| b.to_vec()));
    bytes.extend((0..1000).map(|_| random_bytes(rng)));
    for b in bytes {
        add("bytes", Scalar::Bytes, Value::Bytes(b));
    }
    for scalar in INTEGERS {
        for v in integers_for(rng, scalar, 100) {
            add("integer", scalar, integer_value(rng, v));
        }
    }
    let mut doubles = special_doubles();
    doubles.extend((0..1000).map(|_| random_double(rng)));
    for &v in &doubles {
        add("double", Scalar::Double, Value::Float(v));
        add("float", Scalar::Float, Value::Float(v));
    }
    for b in [true, false] {
        add("bool", Scalar::Bool, Value::Bool(b));
    }
    for (n, name) in picks.iter().enumerate() {
        cases.push(DefaultCase {
            kind: "enum",
            scalar: None,
            value: Value::Ident(name.clone()),
            enum_number: Some(n as i32),
        });
    }
    cases
}

fn default_field(case: &DefaultCase, number: u32) -> NewField {
    NewField {
        label: Some(Label::Optional),
        ty: match case.scalar {
            Some(s) => FieldType::Scalar(s),
            None => FieldType::Enum(PICK.to_owned()),
        },
        name: format!("v{number}"),
        number,
        options: vec![(FieldOption::Default, case.value.clone())],
    }
}

#[test]
fn every_value_printed_as_a_default_reads_back_as_itself() {
    let mut rng = Rng(SEED);
    let mut names = Names::new(&["Pick"]);
    let picks: Vec<String> = (0..200)
        .map(|_| names.fresh(&mut rng))
        .filter(|n| print::enum_value(n, 0).is_ok())
        .collect();
    let cases = default_cases(&mut rng, &picks);

    let mut proto =
        String::from("syntax = \"proto2\";\npackage pt;\nmessage Picks {\n  enum Pick {\n");
    for (n, name) in picks.iter().enumerate() {
        writeln!(proto, "    {}", print::enum_value(name, n as i32).unwrap()).unwrap();
    }
    proto.push_str("  }\n}\nmessage Values {\n");
    for (i, case) in cases.iter().enumerate() {
        let literal = print::literal(&case.value).unwrap();
        assert_inert(&literal, &case.value);
        let declared = print::field(&default_field(case, i as u32 + 1)).unwrap();
        assert_printable(&declared);
        writeln!(proto, "  {declared}").unwrap();
    }
    proto.push_str("}\n");

    let dir = support::tempdir("printer-values");
    fs::write(dir.join("values.proto"), &proto).unwrap();
    let from_protox = protox_set(&dir, "values.proto");
    let from_protoc = protoc_set(&dir, "values.proto");
    let mut in_memory = descriptors(&from_protoc);
    let values = in_memory.file[0]
        .message_type
        .iter_mut()
        .find(|m| m.name() == "Values")
        .unwrap();
    assert_eq!(values.field.len(), cases.len());
    for (field, case) in values.field.iter_mut().zip(&cases) {
        field.default_value = Some(print::descriptor_default(&case.value).unwrap());
    }
    let in_memory = in_memory.encode_to_vec();
    fs::remove_dir_all(&dir).unwrap();

    let schemas = [
        (Compiler::Protox, &from_protox),
        (Compiler::Protoc, &from_protoc),
        (Compiler::InMemory, &in_memory),
    ]
    .map(|(by, set)| (by, schema(set, "values.proto", "pt.Values")));
    let mut edges = 0;
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let read: Vec<(Compiler, DefaultValue, &str)> = schemas
            .iter()
            .map(|(by, schema)| {
                let field = schema.root().field(i as u32 + 1).unwrap();
                let text = field.declared_default().unwrap_or("");
                (*by, field.default_value().unwrap().into_owned(), text)
            })
            .collect();
        for (by, got, text) in &read {
            if let Err(why) = default_is(got, text, case.scalar, &case.value, case.enum_number, *by)
            {
                failures.push(format!(
                    "{by:?}, {} default {:?} printed {}: {why}",
                    case.kind,
                    case.value,
                    print::literal(&case.value).unwrap()
                ));
            }
        }
        // What protoc stored, protox stored and an applied edit holds are one value, but where
        // protoc's narrowing is not IEEE's: at the f32 rounding edge protoc holds f32::MAX, the
        // others infinity. Counted, so that a protoc that changes it is seen.
        let [(_, protox, _), (_, protoc, _), (_, in_memory, _)] = &read[..] else {
            unreachable!()
        };
        let edge = matches!(case.value, Value::Float(v) if v.abs() == F32_ROUNDING_EDGE)
            && case.scalar == Some(Scalar::Float);
        if edge {
            edges += 1;
            assert!(same_default(protox, in_memory) && !same_default(protox, protoc));
        } else if !same_default(protox, protoc) || !same_default(protoc, in_memory) {
            failures.push(format!(
                "{} default {:?}: protox read {protox:?}, protoc {protoc:?}, in memory \
                 {in_memory:?}",
                case.kind, case.value
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} values did not read back:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert_eq!(
        edges, 2,
        "both signs of the f32 rounding edge are among the cases"
    );

    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &cases {
        *counts.entry(case.kind).or_default() += 1;
    }
    eprintln!(
        "printer round trip, defaults through protox, protoc and in memory: {}",
        counts
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

// ---------------------------------------------------------------------------------------------
// Names

#[test]
fn every_name_the_printer_accepts_compiles_as_itself() {
    let mut rng = Rng(SEED ^ 1);
    let mut accepted: Vec<String> = Vec::new();
    let mut refused = 0;
    for _ in 0..3000 {
        let name = random_name(&mut rng);
        let identifier_chars =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        match print::identifier(&name, "a field name") {
            Ok(printed) => {
                assert_eq!(printed, name);
                assert!(identifier_chars, "accepted {name:?}");
                if !accepted.contains(&name) {
                    accepted.push(name.clone());
                }
            }
            Err(refusal) => {
                // A user is shown the refusal: the name in it escaped, on one line.
                let shown = refusal.to_string();
                assert!(!shown.chars().any(char::is_control), "{shown:?}");
                refused += 1;
            }
        }
        if !identifier_chars {
            let field = NewField {
                label: None,
                ty: FieldType::Scalar(Scalar::Int32),
                name: name.clone(),
                number: 1,
                options: Vec::new(),
            };
            assert!(print::field(&field).is_err(), "{name:?} as a field");
            assert!(print::enum_value(&name, 0).is_err(), "{name:?} as a value");
            assert!(print::literal(&Value::Ident(name.clone())).is_err());
            // A dot parts a full name: `pt.a.b` is one.
            if !name.contains('.') {
                assert!(print::type_name(&format!("pt.{name}")).is_err(), "{name:?}");
                let ty = FieldType::Enum(format!("pt.{name}"));
                assert!(print::field_type(&ty).is_err(), "{name:?}");
            }
        }
    }

    // Each name four ways, each in a message of its own so that no two names share a scope:
    // a field, a nested message, an enum value, and a reference to the message and the value.
    let mut proto = String::from("syntax = \"proto2\";\npackage pt;\n");
    let mut values = 0;
    for (i, name) in accepted.iter().enumerate() {
        let field = NewField {
            label: Some(Label::Optional),
            ty: FieldType::Scalar(Scalar::Int32),
            name: name.clone(),
            number: 1,
            options: Vec::new(),
        };
        writeln!(
            proto,
            "message F{i} {{ {} }}",
            print::field(&field).unwrap()
        )
        .unwrap();
        writeln!(proto, "message M{i} {{ message {name} {{}} }}").unwrap();
        let mut reference = vec![NewField {
            label: Some(Label::Optional),
            ty: FieldType::Message(format!("pt.M{i}.{name}")),
            name: "m".into(),
            number: 1,
            options: Vec::new(),
        }];
        if let Ok(value) = print::enum_value(name, 0) {
            values += 1;
            let e = if name == "E" { "E_" } else { "E" };
            writeln!(proto, "message V{i} {{ enum {e} {{ {value} }} }}").unwrap();
            reference.push(NewField {
                label: Some(Label::Optional),
                ty: FieldType::Enum(format!("pt.V{i}.{e}")),
                name: "e".into(),
                number: 2,
                options: vec![(FieldOption::Default, Value::Ident(name.clone()))],
            });
        }
        let reference: Vec<String> = reference.iter().map(|f| print::field(f).unwrap()).collect();
        writeln!(proto, "message R{i} {{ {} }}", reference.join(" ")).unwrap();
    }

    let dir = support::tempdir("printer-names");
    fs::write(dir.join("names.proto"), &proto).unwrap();
    let sets = [
        (
            Compiler::Protox,
            descriptors(&protox_set(&dir, "names.proto")),
        ),
        (
            Compiler::Protoc,
            descriptors(&protoc_set(&dir, "names.proto")),
        ),
    ];
    fs::remove_dir_all(&dir).unwrap();
    for (by, set) in &sets {
        for (i, name) in accepted.iter().enumerate() {
            let what = format!("{by:?}, name {name:?}");
            assert_eq!(
                message(set, &format!("F{i}")).field[0].name(),
                name,
                "{what}"
            );
            assert_eq!(
                message(set, &format!("M{i}")).nested_type[0].name(),
                name,
                "{what}"
            );
            let reference = message(set, &format!("R{i}"));
            assert_eq!(
                reference.field[0].type_name(),
                format!(".pt.M{i}.{name}"),
                "{what}"
            );
            if let Some(e) = reference.field.get(1) {
                let v = message(set, &format!("V{i}"));
                assert_eq!(v.enum_type[0].value[0].name(), name, "{what}");
                assert_eq!(e.default_value(), name, "{what}");
            }
        }
    }
    eprintln!(
        "printer round trip, names through protox and protoc: {} distinct names accepted ({} \
         also as enum values), {refused} refused",
        accepted.len(),
        values
    );
}

// ---------------------------------------------------------------------------------------------
// Field declarations

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Syntax {
    Proto2,
    Proto3,
    Edition2023,
}

impl Syntax {
    fn header(self) -> &'static str {
        match self {
            Syntax::Proto2 => "syntax = \"proto2\";",
            Syntax::Proto3 => "syntax = \"proto3\";",
            Syntax::Edition2023 => "edition = \"2023\";",
        }
    }

    fn package(self) -> &'static str {
        match self {
            Syntax::Proto2 => "p2",
            Syntax::Proto3 => "p3",
            Syntax::Edition2023 => "pe",
        }
    }
}

/// The types a file declares for its fields to refer to, by full name; an enum with its values.
struct Types {
    messages: Vec<String>,
    enums: Vec<(String, Vec<String>)>,
}

/// Declares a few messages and enums under random names (and enum values, at package scope).
fn declare_types(rng: &mut Rng, syntax: Syntax, names: &mut Names, proto: &mut String) -> Types {
    let package = syntax.package();
    let label = if syntax == Syntax::Proto2 {
        "optional "
    } else {
        ""
    };
    let mut types = Types {
        messages: Vec::new(),
        enums: Vec::new(),
    };
    for _ in 0..3 {
        let name = names.fresh(rng);
        writeln!(proto, "message {name} {{ {label}int32 x = 1; }}").unwrap();
        types.messages.push(format!("{package}.{name}"));
    }
    for _ in 0..2 {
        let name = names.fresh(rng);
        let values: Vec<String> = (0..3)
            .map(|_| loop {
                let value = names.fresh(rng);
                if print::enum_value(&value, 0).is_ok() {
                    break value;
                }
            })
            .collect();
        let declared: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(n, v)| print::enum_value(v, n as i32).unwrap())
            .collect();
        writeln!(proto, "enum {name} {{ {} }}", declared.join(" ")).unwrap();
        types.enums.push((format!("{package}.{name}"), values));
    }
    types
}

fn random_value_type(rng: &mut Rng, types: &Types) -> FieldType {
    match rng.below(8) {
        0 => FieldType::Message(rng.pick(&types.messages)),
        1 => FieldType::Enum(rng.pick(&types.enums).0),
        _ => FieldType::Scalar(rng.pick(&SCALARS)),
    }
}

/// A default for a field of `ty` (a scalar or an enum).
fn random_default(rng: &mut Rng, ty: &FieldType, types: &Types) -> Value {
    match ty {
        FieldType::Scalar(Scalar::String) => Value::String(random_string(rng)),
        FieldType::Scalar(Scalar::Bytes) => Value::Bytes(random_bytes(rng)),
        FieldType::Scalar(Scalar::Bool) => Value::Bool(rng.one_in(2)),
        FieldType::Scalar(Scalar::Double | Scalar::Float) => Value::Float(if rng.one_in(4) {
            rng.pick(&special_doubles())
        } else {
            random_double(rng)
        }),
        FieldType::Scalar(s) => {
            let candidates = integers_for(rng, *s, 4);
            let v = rng.pick(&candidates);
            integer_value(rng, v)
        }
        FieldType::Enum(full) => {
            let values = &types.enums.iter().find(|(e, _)| e == full).unwrap().1;
            Value::Ident(rng.pick(values))
        }
        _ => unreachable!("no default for {ty:?}"),
    }
}

fn packable(ty: &FieldType) -> bool {
    match ty {
        FieldType::Scalar(s) => s.is_packable(),
        FieldType::Enum(_) => true,
        _ => false,
    }
}

/// A field declaration as a remedy may add it: any type, a label the syntax allows, and the
/// options that fit it, in random order.
fn random_new_field(rng: &mut Rng, syntax: Syntax, types: &Types, number: u32) -> NewField {
    let ty = if rng.one_in(6) {
        const KEYS: [Scalar; 12] = [
            Scalar::Int32,
            Scalar::Int64,
            Scalar::Uint32,
            Scalar::Uint64,
            Scalar::Sint32,
            Scalar::Sint64,
            Scalar::Fixed32,
            Scalar::Fixed64,
            Scalar::Sfixed32,
            Scalar::Sfixed64,
            Scalar::Bool,
            Scalar::String,
        ];
        FieldType::Map {
            key: rng.pick(&KEYS),
            value: Box::new(random_value_type(rng, types)),
        }
    } else {
        random_value_type(rng, types)
    };
    let map = matches!(ty, FieldType::Map { .. });
    let message = matches!(ty, FieldType::Message(_));
    let label = match syntax {
        _ if map => None,
        Syntax::Proto2 => Some(rng.pick(&[Label::Optional, Label::Required, Label::Repeated])),
        Syntax::Proto3 => rng.pick(&[None, Some(Label::Optional), Some(Label::Repeated)]),
        Syntax::Edition2023 => rng.pick(&[None, Some(Label::Repeated)]),
    };
    let repeated = label == Some(Label::Repeated);
    let ident = |s: &str| Value::Ident(s.to_owned());
    let mut options = Vec::new();
    if rng.one_in(3) {
        options.push((FieldOption::Deprecated, Value::Bool(rng.one_in(2))));
    }
    let mut implicit = false;
    if syntax == Syntax::Edition2023 {
        if label.is_none() && !map && rng.one_in(2) {
            let mut presence = vec!["EXPLICIT", "LEGACY_REQUIRED"];
            if !message {
                presence.push("IMPLICIT");
            }
            let presence = rng.pick(&presence);
            implicit = presence == "IMPLICIT";
            options.push((FieldOption::FieldPresence, ident(presence)));
        }
        if repeated && packable(&ty) && rng.one_in(2) {
            let encoding = rng.pick(&["PACKED", "EXPANDED"]);
            options.push((FieldOption::RepeatedFieldEncoding, ident(encoding)));
        }
        if ty == FieldType::Scalar(Scalar::String) && rng.one_in(2) {
            let validation = rng.pick(&["VERIFY", "NONE"]);
            options.push((FieldOption::Utf8Validation, ident(validation)));
        }
        if message && rng.one_in(2) {
            let encoding = rng.pick(&["DELIMITED", "LENGTH_PREFIXED"]);
            options.push((FieldOption::MessageEncoding, ident(encoding)));
        }
    } else if repeated && packable(&ty) && rng.one_in(2) {
        options.push((FieldOption::Packed, Value::Bool(rng.one_in(2))));
    }
    let may_default = match syntax {
        Syntax::Proto2 => !repeated,
        Syntax::Proto3 => false,
        Syntax::Edition2023 => label.is_none() && !implicit,
    };
    if may_default && !map && !message && !rng.one_in(3) {
        options.push((FieldOption::Default, random_default(rng, &ty, types)));
    }
    for i in (1..options.len()).rev() {
        options.swap(i, rng.below(i + 1));
    }
    NewField {
        label,
        ty,
        name: random_identifier(rng),
        number,
        options,
    }
}

/// A field number: any, but protobuf's own 19000-19999.
fn random_number(rng: &mut Rng) -> u32 {
    loop {
        let n = match rng.below(3) {
            0 => 1 + rng.below(15) as u32,
            1 => 536_870_911 - rng.below(3) as u32,
            _ => 1 + rng.below(536_870_911) as u32,
        };
        if !(19_000..=19_999).contains(&n) {
            return n;
        }
    }
}

/// A field's type and type name in descriptor.proto (a map's type name is checked apart).
fn descriptor_type(ty: &FieldType) -> (i32, Option<String>) {
    match ty {
        FieldType::Scalar(s) => (*s as i32, None),
        FieldType::Message(full) => (DescType::Message as i32, Some(format!(".{full}"))),
        FieldType::Enum(full) => (DescType::Enum as i32, Some(format!(".{full}"))),
        FieldType::Map { .. } => (DescType::Message as i32, None),
    }
}

fn descriptor_label(syntax: Syntax, label: Option<Label>, map: bool) -> DescLabel {
    match (syntax, label) {
        _ if map => DescLabel::Repeated,
        (_, Some(Label::Repeated)) => DescLabel::Repeated,
        (Syntax::Proto2, Some(Label::Required)) => DescLabel::Required,
        _ => DescLabel::Optional,
    }
}

/// The feature a field option sets, as the engine read it from the compiled field.
fn feature_read(field: &FieldRef<'_>, option: FieldOption) -> &'static str {
    let f = field.features();
    match option {
        FieldOption::FieldPresence => match f.field_presence {
            FieldPresence::Explicit => "EXPLICIT",
            FieldPresence::Implicit => "IMPLICIT",
            FieldPresence::LegacyRequired => "LEGACY_REQUIRED",
        },
        FieldOption::RepeatedFieldEncoding => match f.repeated_field_encoding {
            RepeatedFieldEncoding::Packed => "PACKED",
            RepeatedFieldEncoding::Expanded => "EXPANDED",
        },
        FieldOption::Utf8Validation => match f.utf8_validation {
            Utf8Validation::Verify => "VERIFY",
            Utf8Validation::None => "NONE",
        },
        FieldOption::MessageEncoding => match f.message_encoding {
            MessageEncoding::LengthPrefixed => "LENGTH_PREFIXED",
            MessageEncoding::Delimited => "DELIMITED",
        },
        _ => unreachable!(),
    }
}

/// Whether the one field of a compiled message (`compiled` as descriptor.proto has it, `read` as
/// the engine reads it) is what `declared` says, and if not, why.
fn field_is(
    declared: &NewField,
    compiled: &DescriptorProto,
    read: &FieldRef<'_>,
    syntax: Syntax,
    by: Compiler,
) -> Result<(), String> {
    let [field] = compiled.field.as_slice() else {
        return Err(format!("{} fields", compiled.field.len()));
    };
    let map = matches!(declared.ty, FieldType::Map { .. });
    let (ty, type_name) = descriptor_type(&declared.ty);
    let mut wrong = Vec::new();
    let mut want = |what: &str, ok: bool| {
        if !ok {
            wrong.push(what.to_owned());
        }
    };
    want("name", field.name() == declared.name);
    want("number", field.number() == declared.number as i32);
    want("type", field.r#type == Some(ty));
    if let Some(type_name) = type_name {
        want("type name", field.type_name() == type_name);
    }
    want(
        "label",
        field.label() == descriptor_label(syntax, declared.label, map),
    );
    want(
        "proto3 optional",
        field.proto3_optional()
            == (syntax == Syntax::Proto3 && declared.label == Some(Label::Optional)),
    );
    if let FieldType::Map { key, value } = &declared.ty {
        let entry = compiled.nested_type.iter().find(|n| {
            n.options.as_ref().is_some_and(|o| o.map_entry())
                && field.type_name()
                    == format!(".{}.{}.{}", syntax.package(), compiled.name(), n.name())
        });
        match entry.map(|e| e.field.as_slice()) {
            Some([k, v]) => {
                want("map key", k.r#type == Some(*key as i32));
                let (ty, type_name) = descriptor_type(value);
                want(
                    "map value",
                    v.r#type == Some(ty) && v.type_name.clone() == type_name,
                );
            }
            _ => want("map entry", false),
        }
    }
    let options = field.options.clone().unwrap_or_default();
    let set = |option: FieldOption| {
        declared
            .options
            .iter()
            .find(|(o, _)| *o == option)
            .map(|(_, v)| v)
    };
    let flag = |v: Option<&Value>| v.map(|v| *v == Value::Bool(true));
    want("packed", options.packed == flag(set(FieldOption::Packed)));
    want(
        "deprecated",
        options.deprecated == flag(set(FieldOption::Deprecated)),
    );
    match set(FieldOption::Default) {
        None => want("no default", field.default_value.is_none()),
        Some(value) => {
            let (scalar, enum_number) = match &declared.ty {
                FieldType::Scalar(s) => (Some(*s), None),
                FieldType::Enum(_) => {
                    let Kind::Enum(e) = read.kind() else {
                        return Err("not an enum".into());
                    };
                    (None, e.number_named(&print::literal(value).unwrap()))
                }
                _ => unreachable!(),
            };
            let got = read.default_value().map(|d| d.into_owned());
            let text = read.declared_default().unwrap_or("");
            match got {
                Some(got) => {
                    if let Err(why) = default_is(&got, text, scalar, value, enum_number, by) {
                        wrong.push(format!("default {value:?}: {why}"));
                    }
                }
                None => wrong.push("default unread".into()),
            }
        }
    }
    for (option, value) in &declared.options {
        if let Value::Ident(name) = value {
            if *option != FieldOption::Default && feature_read(read, *option) != name {
                wrong.push(format!("{} = {name}", option.name()));
            }
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {wrong:?}", print::field(declared).unwrap()))
    }
}

#[test]
fn every_field_declaration_compiles_to_what_it_declares() {
    let mut rng = Rng(SEED ^ 2);
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    for syntax in [Syntax::Proto2, Syntax::Proto3, Syntax::Edition2023] {
        const FIELDS: usize = 400;
        let package = syntax.package();
        let mut taken: Vec<String> = (0..FIELDS).map(|i| format!("H{i}")).collect();
        taken.push("Root".into());
        let mut names = Names::new(&taken.iter().map(String::as_str).collect::<Vec<_>>());
        let mut proto = format!("{}\npackage {package};\n", syntax.header());
        let types = declare_types(&mut rng, syntax, &mut names, &mut proto);
        let fields: Vec<NewField> = (0..FIELDS)
            .map(|_| {
                let number = random_number(&mut rng);
                random_new_field(&mut rng, syntax, &types, number)
            })
            .collect();
        let holder = if syntax == Syntax::Proto2 {
            "optional "
        } else {
            ""
        };
        proto.push_str("message Root {\n");
        for i in 0..FIELDS {
            writeln!(proto, "  {holder}H{i} h{i} = {};", i + 1).unwrap();
        }
        proto.push_str("}\n");
        for (i, field) in fields.iter().enumerate() {
            let declared = print::field(field).unwrap();
            assert_printable(&declared);
            writeln!(proto, "message H{i} {{\n  {declared}\n}}").unwrap();
        }

        let file = format!("{package}.proto");
        let dir = support::tempdir(&format!("printer-fields-{package}"));
        fs::write(dir.join(&file), &proto).unwrap();
        let mut sets = vec![(Compiler::Protoc, protoc_set(&dir, &file))];
        // protox compiles no Editions file (the CLI hands those to protoc).
        if syntax != Syntax::Edition2023 {
            sets.push((Compiler::Protox, protox_set(&dir, &file)));
        }
        fs::remove_dir_all(&dir).unwrap();
        let mut failures = Vec::new();
        for (by, set) in &sets {
            let compiled = descriptors(set);
            let schema = schema(set, &file, &format!("{package}.Root"));
            for (i, declared) in fields.iter().enumerate() {
                let holder = schema.root().field(i as u32 + 1).unwrap();
                let Kind::Message(h) = holder.kind() else {
                    panic!("h{i} is not a message field")
                };
                let read = h.fields().next().unwrap();
                let message = message(&compiled, &format!("H{i}"));
                if let Err(why) = field_is(declared, message, &read, syntax, *by) {
                    failures.push(format!("{by:?}, {syntax:?}: {why}"));
                }
            }
            *checked.entry(format!("{syntax:?} by {by:?}")).or_default() += fields.len();
        }
        assert!(
            failures.is_empty(),
            "{} field declarations did not compile to themselves:\n{}",
            failures.len(),
            failures[..failures.len().min(20)].join("\n")
        );
    }
    eprintln!(
        "printer round trip, field declarations: {}",
        checked
            .iter()
            .map(|(what, n)| format!("{n} {what}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
