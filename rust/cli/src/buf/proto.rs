//! The messages of PluginRPC (`pluginrpc/v1/pluginrpc.proto` in pluginrpc/pluginrpc) and of
//! Buf's check API (`buf/plugin/check/v1/*.proto`, `buf/plugin/option/v1/option.proto` in
//! bufbuild/bufplugin), both Apache-2.0, written as prost structs with the upstream field
//! numbers.
//!
//! Written by hand rather than generated: the upstream files import protovalidate's
//! `buf/validate/validate.proto` (a build would need it vendored and a protoc), and a generated
//! `CheckRequest` would decode every `FileDescriptorProto` into prost-types, which has no
//! fields for Editions (`edition`, `features`) and would let a small request expand into a
//! large tree before any bound is checked. The request is instead read by
//! [`super::request`], which keeps each file's bytes as buf sent them; only the messages this
//! plugin writes, and the small ones it decodes whole, are here.

/// `pluginrpc.v1.Spec`: what `--spec` prints.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Spec {
    #[prost(message, repeated, tag = "1")]
    pub procedures: Vec<Procedure>,
}

/// `pluginrpc.v1.Procedure`. With no `args`, the procedure is called with its path alone.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Procedure {
    #[prost(string, tag = "1")]
    pub path: String,
    #[prost(string, repeated, tag = "2")]
    pub args: Vec<String>,
}

/// `pluginrpc.v1.Request`: the request value, packed in an `Any`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Request {
    #[prost(message, optional, tag = "1")]
    pub value: Option<prost_types::Any>,
}

/// `pluginrpc.v1.Response`: the response value, or an error.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Response {
    #[prost(message, optional, tag = "1")]
    pub value: Option<prost_types::Any>,
    #[prost(message, optional, tag = "2")]
    pub error: Option<Error>,
}

/// `pluginrpc.v1.Error`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Error {
    #[prost(enumeration = "Code", tag = "1")]
    pub code: i32,
    #[prost(string, tag = "2")]
    pub message: String,
}

/// `pluginrpc.v1.Code`, google.rpc.Code's numbers; the ones this plugin answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, prost::Enumeration)]
#[repr(i32)]
pub enum Code {
    Unspecified = 0,
    InvalidArgument = 3,
    NotFound = 5,
    ResourceExhausted = 8,
    Unimplemented = 12,
    Internal = 13,
}

impl Code {
    /// The name protojson writes.
    pub fn json_name(self) -> &'static str {
        match self {
            Code::Unspecified => "CODE_UNSPECIFIED",
            Code::InvalidArgument => "CODE_INVALID_ARGUMENT",
            Code::NotFound => "CODE_NOT_FOUND",
            Code::ResourceExhausted => "CODE_RESOURCE_EXHAUSTED",
            Code::Unimplemented => "CODE_UNIMPLEMENTED",
            Code::Internal => "CODE_INTERNAL",
        }
    }
}

/// `buf.plugin.check.v1.CheckResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CheckResponse {
    #[prost(message, repeated, tag = "1")]
    pub annotations: Vec<Annotation>,
}

/// `buf.plugin.check.v1.Annotation`: a finding, placed by file name and source-info path;
/// buf turns the path into a line and column from its own copy of the file.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Annotation {
    #[prost(string, tag = "1")]
    pub rule_id: String,
    #[prost(string, tag = "2")]
    pub message: String,
    #[prost(message, optional, tag = "3")]
    pub file_location: Option<FileLocation>,
    #[prost(message, optional, tag = "4")]
    pub against_file_location: Option<FileLocation>,
}

/// `buf.plugin.descriptor.v1.FileLocation`.
#[derive(Clone, PartialEq, Eq, prost::Message)]
pub struct FileLocation {
    #[prost(string, tag = "1")]
    pub file_name: String,
    #[prost(int32, repeated, tag = "2")]
    pub source_path: Vec<i32>,
}

/// `buf.plugin.check.v1.ListRulesRequest`, and `ListCategoriesRequest`, which has the same
/// fields.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PageRequest {
    #[prost(uint32, tag = "1")]
    pub page_size: u32,
    #[prost(string, tag = "2")]
    pub page_token: String,
}

/// `buf.plugin.check.v1.ListRulesResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ListRulesResponse {
    #[prost(string, tag = "1")]
    pub next_page_token: String,
    #[prost(message, repeated, tag = "2")]
    pub rules: Vec<Rule>,
}

/// `buf.plugin.check.v1.Rule`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Rule {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(string, repeated, tag = "2")]
    pub category_ids: Vec<String>,
    #[prost(bool, tag = "3")]
    pub default: bool,
    #[prost(string, tag = "4")]
    pub purpose: String,
    /// `RuleType`: 2 is RULE_TYPE_BREAKING.
    #[prost(int32, tag = "5")]
    pub r#type: i32,
    #[prost(bool, tag = "6")]
    pub deprecated: bool,
    #[prost(string, repeated, tag = "7")]
    pub replacement_ids: Vec<String>,
}

/// `buf.plugin.check.v1.RuleType.RULE_TYPE_BREAKING`.
pub const RULE_TYPE_BREAKING: i32 = 2;

/// `buf.plugin.check.v1.ListCategoriesResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ListCategoriesResponse {
    #[prost(string, tag = "1")]
    pub next_page_token: String,
    #[prost(message, repeated, tag = "2")]
    pub categories: Vec<Category>,
}

/// `buf.plugin.check.v1.Category`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Category {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(string, tag = "2")]
    pub purpose: String,
    #[prost(bool, tag = "3")]
    pub deprecated: bool,
    #[prost(string, repeated, tag = "4")]
    pub replacement_ids: Vec<String>,
}

/// `buf.plugin.option.v1.Option`: one key of the plugin's `options:` in buf.yaml.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PluginOption {
    #[prost(string, tag = "1")]
    pub key: String,
    #[prost(message, optional, tag = "2")]
    pub value: Option<Value>,
}

/// `buf.plugin.option.v1.Value`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Value {
    #[prost(oneof = "Kind", tags = "1, 2, 3, 4, 5, 6")]
    pub kind: Option<Kind>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Kind {
    #[prost(bool, tag = "1")]
    Bool(bool),
    #[prost(int64, tag = "2")]
    Int64(i64),
    #[prost(double, tag = "3")]
    Double(f64),
    #[prost(string, tag = "4")]
    String(String),
    #[prost(bytes, tag = "5")]
    Bytes(Vec<u8>),
    #[prost(message, tag = "6")]
    List(ListValue),
}

/// `buf.plugin.option.v1.ListValue`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ListValue {
    #[prost(message, repeated, tag = "1")]
    pub values: Vec<Value>,
}

/// The `Any` type URL of a message of ours, as Go's `anypb.New` writes it and
/// `anypb.UnmarshalTo` checks it.
pub fn type_url(full_name: &str) -> String {
    format!("type.googleapis.com/{full_name}")
}
