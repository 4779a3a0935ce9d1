//! Effective features: what every declaration's encoding and presence are, whatever syntax
//! its file declares.
//!
//! Protobuf Editions replaced `syntax` by a set of features, each with a default per edition,
//! set on a file, message, oneof, field, enum or enum value and inherited from the enclosing
//! declaration. proto2 and proto3 are expressed here the way protobuf itself expresses them
//! (`descriptor.cc`, "legacy" features): their edition's defaults, plus what the syntax says
//! per field (`required`, `[packed = …]`, groups, proto3 `optional`). The rules read the
//! result and never look at a syntax string, except SYNTAX_CHANGED, whose subject it is.
//!
//! The defaults are those of protobuf's `FeatureSetDefaults` for `descriptor.proto` and
//! `java_features.proto` (protobuf 36), compiled in: editions 2023, 2024 and 2026, held to
//! `protoc --edition_defaults_out` by `tests/edition_defaults.rs`. Anything newer
//! (`EDITION_UNSTABLE`, 2027 on, numbers descriptor.proto does not name) is refused as
//! UNSUPPORTED_FEATURE: its defaults are not known here, and `UNSTABLE` changes what the same
//! text compiles to (its `int64` is an `sfixed64`).

use super::wire::{Fields, Value};

/// The syntax a file declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    Proto2,
    Proto3,
    Edition2023,
    Edition2024,
    Edition2026,
}

impl Syntax {
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Proto2 => "proto2",
            Syntax::Proto3 => "proto3",
            Syntax::Edition2023 => "edition 2023",
            Syntax::Edition2024 => "edition 2024",
            Syntax::Edition2026 => "edition 2026",
        }
    }

    pub fn is_edition(self) -> bool {
        matches!(
            self,
            Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026
        )
    }

    /// The editions this checker reads, as a message that refuses another one names them.
    pub const SUPPORTED: &'static str = "proto2, proto3 and editions 2023, 2024 and 2026";

    /// An edition's number in descriptor.proto's `Edition` enum and its name as a `.proto`
    /// file's `edition = "…";` writes it; `None` for proto2 and proto3.
    pub fn edition(self) -> Option<(i32, &'static str)> {
        match self {
            Syntax::Proto2 | Syntax::Proto3 => None,
            Syntax::Edition2023 => Some((EDITION_2023, "2023")),
            Syntax::Edition2024 => Some((EDITION_2024, "2024")),
            Syntax::Edition2026 => Some((EDITION_2026, "2026")),
        }
    }

    /// The edition's number in descriptor.proto's `Edition` enum.
    pub(crate) fn from_edition(number: i32) -> Option<Syntax> {
        match number {
            EDITION_2023 => Some(Syntax::Edition2023),
            EDITION_2024 => Some(Syntax::Edition2024),
            EDITION_2026 => Some(Syntax::Edition2026),
            _ => None,
        }
    }
}

pub(crate) const EDITION_PROTO2: i32 = 998;
pub(crate) const EDITION_PROTO3: i32 = 999;
pub(crate) const EDITION_2023: i32 = 1000;
pub(crate) const EDITION_2024: i32 = 1001;
pub(crate) const EDITION_2026: i32 = 1002;

/// `FeatureSet.FieldPresence`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldPresence {
    Explicit = 1,
    Implicit = 2,
    LegacyRequired = 3,
}

/// `FeatureSet.EnumType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnumType {
    Open = 1,
    Closed = 2,
}

/// `FeatureSet.RepeatedFieldEncoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RepeatedFieldEncoding {
    Packed = 1,
    Expanded = 2,
}

/// `FeatureSet.Utf8Validation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Utf8Validation {
    Verify = 2,
    None = 3,
}

/// `FeatureSet.MessageEncoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageEncoding {
    LengthPrefixed = 1,
    Delimited = 2,
}

/// `pb.JavaFeatures.Utf8Validation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JavaUtf8Validation {
    Default = 1,
    Verify = 2,
}

/// The features that decide how a declaration is encoded and read. `json_format`,
/// `enforce_naming_style`, `default_symbol_visibility` and `enforce_proto_limits` are checked
/// for known values and not kept: they decide which names, imports and sizes protoc accepts,
/// and change nothing a reader makes of the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features {
    pub field_presence: FieldPresence,
    pub enum_type: EnumType,
    pub repeated_field_encoding: RepeatedFieldEncoding,
    pub utf8_validation: Utf8Validation,
    pub message_encoding: MessageEncoding,
    /// `features.(pb.java).legacy_closed_enum`.
    pub java_legacy_closed_enum: bool,
    /// `features.(pb.java).utf8_validation`.
    pub java_utf8_validation: JavaUtf8Validation,
    /// A feature set here or in an enclosing scope that this checker cannot interpret: the
    /// `conservative` profile refuses what either root reaches that has one (its
    /// UNSUPPORTED_FEATURE); the default profile ignores it, as it always has.
    pub unrecognized: Option<Unrecognized>,
}

/// A feature the decoder skipped without knowing what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unrecognized {
    /// An extension of `FeatureSet` that is none of protobuf's languages' (by number).
    Extension(u32),
    /// A field of `pb.JavaFeatures` this checker does not know (by number).
    JavaFeature(u32),
}

impl std::fmt::Display for Unrecognized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unrecognized::Extension(n) => write!(f, "feature extension number {n}"),
            Unrecognized::JavaFeature(n) => write!(f, "Java feature (pb.java) number {n}"),
        }
    }
}

impl Features {
    /// The defaults of a file of `syntax`, before anything it sets.
    pub fn defaults(syntax: Syntax) -> Features {
        match syntax {
            Syntax::Proto2 => Features {
                field_presence: FieldPresence::Explicit,
                enum_type: EnumType::Closed,
                repeated_field_encoding: RepeatedFieldEncoding::Expanded,
                utf8_validation: Utf8Validation::None,
                message_encoding: MessageEncoding::LengthPrefixed,
                java_legacy_closed_enum: true,
                java_utf8_validation: JavaUtf8Validation::Default,
                unrecognized: None,
            },
            // 2024 and 2026 changed only features that are not kept here (naming style,
            // visibility, limits): their wire defaults are 2023's.
            Syntax::Proto3 | Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026 => {
                Features {
                    field_presence: if syntax == Syntax::Proto3 {
                        FieldPresence::Implicit
                    } else {
                        FieldPresence::Explicit
                    },
                    enum_type: EnumType::Open,
                    repeated_field_encoding: RepeatedFieldEncoding::Packed,
                    utf8_validation: Utf8Validation::Verify,
                    message_encoding: MessageEncoding::LengthPrefixed,
                    java_legacy_closed_enum: false,
                    java_utf8_validation: JavaUtf8Validation::Default,
                    unrecognized: None,
                }
            }
        }
    }

    /// These features with what a declaration sets applied on top.
    pub(crate) fn with(mut self, set: &FeatureSet) -> Features {
        if let Some(v) = set.field_presence {
            self.field_presence = v;
        }
        if let Some(v) = set.enum_type {
            self.enum_type = v;
        }
        if let Some(v) = set.repeated_field_encoding {
            self.repeated_field_encoding = v;
        }
        if let Some(v) = set.utf8_validation {
            self.utf8_validation = v;
        }
        if let Some(v) = set.message_encoding {
            self.message_encoding = v;
        }
        if let Some(v) = set.java_legacy_closed_enum {
            self.java_legacy_closed_enum = v;
        }
        if let Some(v) = set.java_utf8_validation {
            self.java_utf8_validation = v;
        }
        // An enclosing scope's unknown setting applies here too; the first one is named.
        self.unrecognized = self.unrecognized.or(set.unrecognized);
        self
    }
}

/// The features one declaration sets (`options.features`): only what it sets is `Some`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FeatureSet {
    pub field_presence: Option<FieldPresence>,
    pub enum_type: Option<EnumType>,
    pub repeated_field_encoding: Option<RepeatedFieldEncoding>,
    pub utf8_validation: Option<Utf8Validation>,
    pub message_encoding: Option<MessageEncoding>,
    pub java_legacy_closed_enum: Option<bool>,
    pub java_utf8_validation: Option<JavaUtf8Validation>,
    pub unrecognized: Option<Unrecognized>,
}

/// Why a feature set cannot be read: bad bytes, or a feature this checker does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FeatureError {
    Malformed(&'static str),
    Unknown(String),
}

impl From<&'static str> for FeatureError {
    fn from(description: &'static str) -> FeatureError {
        FeatureError::Malformed(description)
    }
}

/// `FeatureSet` field numbers (descriptor.proto), and the extension Java's features live in.
mod tag {
    pub const FIELD_PRESENCE: u32 = 1;
    pub const ENUM_TYPE: u32 = 2;
    pub const REPEATED_FIELD_ENCODING: u32 = 3;
    pub const UTF8_VALIDATION: u32 = 4;
    pub const MESSAGE_ENCODING: u32 = 5;
    pub const JSON_FORMAT: u32 = 6;
    pub const ENFORCE_NAMING_STYLE: u32 = 7;
    pub const DEFAULT_SYMBOL_VISIBILITY: u32 = 8;
    pub const ENFORCE_PROTO_LIMITS: u32 = 9;
    /// `FeatureSet` reserves 1000 and up for languages' extensions.
    pub const FIRST_EXTENSION: u32 = 1000;
    pub const JAVA: u32 = 1001;
    /// The extensions descriptor.proto declares for protobuf's languages (C++, Java, Go,
    /// Python, proto1) and the one it reserves for protobuf-es: none changes the wire format.
    pub const LANGUAGES: [u32; 6] = [1000, 1001, 1002, 1003, 9990, 10000];
    /// `JavaFeatures` has fields 1 to 5 (`nest_in_file_class` is the last).
    pub const LAST_JAVA_FEATURE: u32 = 5;
    /// `JavaFeatures` field numbers.
    pub const JAVA_LEGACY_CLOSED_ENUM: u32 = 1;
    pub const JAVA_UTF8_VALIDATION: u32 = 2;
}

impl FeatureSet {
    /// Reads a serialized `google.protobuf.FeatureSet`. A value of a feature this checker does
    /// not know, a feature's explicit `*_UNKNOWN` value included, and a feature number it does
    /// not know, are [`FeatureError::Unknown`]: the schema would be read without knowing what
    /// it means. Other languages' extensions (C++, Go, …) change nothing on the wire and are
    /// skipped; any other extension is skipped and noted in [`FeatureSet::unrecognized`].
    pub(crate) fn decode(bytes: &[u8]) -> Result<FeatureSet, FeatureError> {
        let mut set = FeatureSet::default();
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::FIELD_PRESENCE => {
                    set.field_presence = Some(known("field_presence", value, |v| match v {
                        1 => Some(FieldPresence::Explicit),
                        2 => Some(FieldPresence::Implicit),
                        3 => Some(FieldPresence::LegacyRequired),
                        _ => None,
                    })?)
                }
                tag::ENUM_TYPE => {
                    set.enum_type = Some(known("enum_type", value, |v| match v {
                        1 => Some(EnumType::Open),
                        2 => Some(EnumType::Closed),
                        _ => None,
                    })?)
                }
                tag::REPEATED_FIELD_ENCODING => {
                    set.repeated_field_encoding =
                        Some(known("repeated_field_encoding", value, |v| match v {
                            1 => Some(RepeatedFieldEncoding::Packed),
                            2 => Some(RepeatedFieldEncoding::Expanded),
                            _ => None,
                        })?)
                }
                tag::UTF8_VALIDATION => {
                    set.utf8_validation = Some(known("utf8_validation", value, |v| match v {
                        2 => Some(Utf8Validation::Verify),
                        3 => Some(Utf8Validation::None),
                        _ => None,
                    })?)
                }
                tag::MESSAGE_ENCODING => {
                    set.message_encoding = Some(known("message_encoding", value, |v| match v {
                        1 => Some(MessageEncoding::LengthPrefixed),
                        2 => Some(MessageEncoding::Delimited),
                        _ => None,
                    })?)
                }
                tag::JSON_FORMAT => {
                    known("json_format", value, |v| (1..=2).contains(&v).then_some(()))?
                }
                // STYLE2024 = 1, STYLE_LEGACY = 2, STYLE2026 = 3.
                tag::ENFORCE_NAMING_STYLE => known("enforce_naming_style", value, |v| {
                    (1..=3).contains(&v).then_some(())
                })?,
                tag::DEFAULT_SYMBOL_VISIBILITY => known("default_symbol_visibility", value, |v| {
                    (1..=4).contains(&v).then_some(())
                })?,
                // LEGACY_NO_EXPLICIT_LIMITS = 1, PROTO_LIMITS2026 = 2.
                tag::ENFORCE_PROTO_LIMITS => known("enforce_proto_limits", value, |v| {
                    (1..=2).contains(&v).then_some(())
                })?,
                tag::JAVA => set.java(value.bytes()?)?,
                n if tag::LANGUAGES.contains(&n) => {}
                n if n >= tag::FIRST_EXTENSION => {
                    set.unrecognized = set.unrecognized.or(Some(Unrecognized::Extension(n)))
                }
                n => {
                    return Err(FeatureError::Unknown(format!(
                        "feature number {n}, which this checker does not know"
                    )))
                }
            }
        }
        Ok(set)
    }

    /// `pb.JavaFeatures`. Only the two features that change what a Java reader accepts are
    /// kept; the rest (class naming, nesting, large enums) change generated code only, and a
    /// field past those is noted as unrecognized.
    fn java(&mut self, bytes: &[u8]) -> Result<(), FeatureError> {
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::JAVA_LEGACY_CLOSED_ENUM => self.java_legacy_closed_enum = Some(value.bool()?),
                tag::JAVA_UTF8_VALIDATION => {
                    self.java_utf8_validation =
                        Some(known("(pb.java).utf8_validation", value, |v| match v {
                            1 => Some(JavaUtf8Validation::Default),
                            2 => Some(JavaUtf8Validation::Verify),
                            _ => None,
                        })?)
                }
                n if n > tag::LAST_JAVA_FEATURE => {
                    self.unrecognized = self.unrecognized.or(Some(Unrecognized::JavaFeature(n)))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether it sets nothing this checker reads (an unrecognized extension alone, as
    /// before it was noted, counts as nothing).
    pub(crate) fn is_empty(&self) -> bool {
        FeatureSet {
            unrecognized: None,
            ..*self
        } == FeatureSet::default()
    }
}

fn known<T>(
    feature: &str,
    value: Value<'_>,
    read: impl FnOnce(i32) -> Option<T>,
) -> Result<T, FeatureError> {
    let number = value.int32()?;
    read(number).ok_or_else(|| {
        let what = if number == 0 {
            "its UNKNOWN value (0)".to_owned()
        } else {
            format!("value {number}, which this checker does not know")
        };
        FeatureError::Unknown(format!("feature `{feature}` set to {what}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_applies_only_what_it_sets() {
        let set = FeatureSet::decode(&[0x08, 0x03, 0x18, 0x02]).unwrap();
        let features = Features::defaults(Syntax::Edition2023).with(&set);
        assert_eq!(features.field_presence, FieldPresence::LegacyRequired);
        assert_eq!(
            features.repeated_field_encoding,
            RepeatedFieldEncoding::Expanded
        );
        assert_eq!(features.enum_type, EnumType::Open);
    }

    #[test]
    fn unknown_values_and_features_are_refused() {
        assert!(matches!(
            FeatureSet::decode(&[0x08, 0x00]),
            Err(FeatureError::Unknown(text)) if text.contains("UNKNOWN value")
        ));
        assert!(matches!(
            FeatureSet::decode(&[0x10, 0x09]),
            Err(FeatureError::Unknown(_))
        ));
        assert!(matches!(
            FeatureSet::decode(&[0x50, 0x01]),
            Err(FeatureError::Unknown(text)) if text.contains("feature number 10")
        ));
        assert!(matches!(
            FeatureSet::decode(&[0x48, 0x03]),
            Err(FeatureError::Unknown(text)) if text.contains("enforce_proto_limits")
        ));
        assert!(matches!(
            FeatureSet::decode(&[0x38, 0x04]),
            Err(FeatureError::Unknown(text)) if text.contains("enforce_naming_style")
        ));
        // 2026's features: known, and nothing a reader of the bytes depends on.
        let set = FeatureSet::decode(&[0x38, 0x03, 0x40, 0x04, 0x48, 0x02]).unwrap();
        assert!(set.is_empty());
        // The C++ extension (1000) is skipped.
        assert!(FeatureSet::decode(&[0xc2, 0x3e, 0x00]).unwrap().is_empty());
    }
}
