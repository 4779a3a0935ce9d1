//! The part of descriptor.proto the `cost` target writes, with the Editions fields prost-types
//! lacks (`FileDescriptorProto.edition`, every `options.features`, `pb.java` features): the
//! same wire encoding, declared with prost's derive so that a nested declaration can carry
//! features at any depth.

#[derive(Clone, PartialEq, prost::Message)]
pub struct FileDescriptorSet {
    #[prost(message, repeated, tag = "1")]
    pub file: Vec<FileDescriptorProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct FileDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub package: Option<String>,
    #[prost(string, repeated, tag = "3")]
    pub dependency: Vec<String>,
    #[prost(message, repeated, tag = "4")]
    pub message_type: Vec<DescriptorProto>,
    #[prost(message, repeated, tag = "5")]
    pub enum_type: Vec<EnumDescriptorProto>,
    #[prost(message, repeated, tag = "6")]
    pub service: Vec<ServiceDescriptorProto>,
    #[prost(message, repeated, tag = "7")]
    pub extension: Vec<FieldDescriptorProto>,
    #[prost(message, optional, tag = "8")]
    pub options: Option<FileOptions>,
    #[prost(string, optional, tag = "12")]
    pub syntax: Option<String>,
    /// descriptor.proto's `Edition`: 1000 is 2023, 1001 is 2024, 1002 is 2026.
    #[prost(int32, optional, tag = "14")]
    pub edition: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct DescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub field: Vec<FieldDescriptorProto>,
    #[prost(message, repeated, tag = "3")]
    pub nested_type: Vec<DescriptorProto>,
    #[prost(message, repeated, tag = "4")]
    pub enum_type: Vec<EnumDescriptorProto>,
    #[prost(message, repeated, tag = "5")]
    pub extension_range: Vec<Range>,
    #[prost(message, repeated, tag = "6")]
    pub extension: Vec<FieldDescriptorProto>,
    #[prost(message, optional, tag = "7")]
    pub options: Option<MessageOptions>,
    #[prost(message, repeated, tag = "8")]
    pub oneof_decl: Vec<OneofDescriptorProto>,
    #[prost(message, repeated, tag = "9")]
    pub reserved_range: Vec<Range>,
    #[prost(string, repeated, tag = "10")]
    pub reserved_name: Vec<String>,
}

/// An extension range, a reserved range of a message or of an enum: `start`, `end`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Range {
    #[prost(int32, optional, tag = "1")]
    pub start: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub end: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct FieldDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub extendee: Option<String>,
    #[prost(int32, optional, tag = "3")]
    pub number: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub label: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    pub r#type: Option<i32>,
    #[prost(string, optional, tag = "6")]
    pub type_name: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub default_value: Option<String>,
    #[prost(message, optional, tag = "8")]
    pub options: Option<FieldOptions>,
    #[prost(int32, optional, tag = "9")]
    pub oneof_index: Option<i32>,
    #[prost(string, optional, tag = "10")]
    pub json_name: Option<String>,
    #[prost(bool, optional, tag = "17")]
    pub proto3_optional: Option<bool>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct OneofDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub options: Option<FeaturesOnly>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct EnumDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub value: Vec<EnumValueDescriptorProto>,
    #[prost(message, optional, tag = "3")]
    pub options: Option<EnumOptions>,
    #[prost(message, repeated, tag = "4")]
    pub reserved_range: Vec<Range>,
    #[prost(string, repeated, tag = "5")]
    pub reserved_name: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct EnumValueDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(int32, optional, tag = "2")]
    pub number: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ServiceDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub method: Vec<MethodDescriptorProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct MethodDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub input_type: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub output_type: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct FileOptions {
    #[prost(message, optional, tag = "50")]
    pub features: Option<FeatureSet>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct MessageOptions {
    #[prost(bool, optional, tag = "7")]
    pub map_entry: Option<bool>,
    #[prost(message, optional, tag = "12")]
    pub features: Option<FeatureSet>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct FieldOptions {
    #[prost(bool, optional, tag = "2")]
    pub packed: Option<bool>,
    #[prost(message, optional, tag = "21")]
    pub features: Option<FeatureSet>,
}

/// `OneofOptions`: its features are field 1.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeaturesOnly {
    #[prost(message, optional, tag = "1")]
    pub features: Option<FeatureSet>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct EnumOptions {
    #[prost(bool, optional, tag = "2")]
    pub allow_alias: Option<bool>,
    #[prost(message, optional, tag = "7")]
    pub features: Option<FeatureSet>,
}

/// descriptor.proto's `FeatureSet`, and Java's features (extension 1001, `pb.java`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureSet {
    #[prost(int32, optional, tag = "1")]
    pub field_presence: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub enum_type: Option<i32>,
    #[prost(int32, optional, tag = "3")]
    pub repeated_field_encoding: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub utf8_validation: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    pub message_encoding: Option<i32>,
    #[prost(message, optional, tag = "1001")]
    pub java: Option<JavaFeatures>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct JavaFeatures {
    #[prost(bool, optional, tag = "1")]
    pub legacy_closed_enum: Option<bool>,
    #[prost(int32, optional, tag = "2")]
    pub utf8_validation: Option<i32>,
}

/// `FeatureSet` values (descriptor.proto).
pub mod feature {
    pub const EXPLICIT: i32 = 1;
    pub const IMPLICIT: i32 = 2;
    pub const LEGACY_REQUIRED: i32 = 3;
    pub const OPEN: i32 = 1;
    pub const CLOSED: i32 = 2;
    pub const PACKED: i32 = 1;
    pub const EXPANDED: i32 = 2;
    pub const VERIFY: i32 = 2;
    pub const NONE: i32 = 3;
    pub const LENGTH_PREFIXED: i32 = 1;
    pub const DELIMITED: i32 = 2;
    /// `pb.JavaFeatures.Utf8Validation`.
    pub const JAVA_DEFAULT: i32 = 1;
    pub const JAVA_VERIFY: i32 = 2;
}

/// `FieldDescriptorProto.Label` and `.Type` (descriptor.proto).
pub mod label {
    pub const OPTIONAL: i32 = 1;
    pub const REQUIRED: i32 = 2;
    pub const REPEATED: i32 = 3;
}
