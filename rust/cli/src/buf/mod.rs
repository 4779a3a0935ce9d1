//! `protocompat buf-plugin`: our rules inside `buf breaking`, as a Buf check plugin.
//!
//! buf runs a check plugin as an executable speaking PluginRPC (pluginrpc/pluginrpc): it asks
//! `--protocol` (we answer `1`) and `--spec` (the procedures, as a `pluginrpc.v1.Spec`), then
//! calls a procedure by passing its path as the argument, with `--format binary`, the request
//! on stdin and the response on stdout, both binary protobuf. The API is
//! `buf.plugin.check.v1.CheckService` (bufbuild/bufplugin): ListRules, ListCategories, and
//! Check, which gets both sides of `buf breaking` as FileDescriptorProtos with source info and
//! answers with annotations, each a rule ID, a message and a place in a file.
//!
//! A request that cannot be read is answered with a `pluginrpc.v1.Error` and exit status 0,
//! as the protocol asks; only arguments this plugin does not know end it with status 2.

mod check;
mod options;
mod place;
mod project;
mod proto;
mod request;
mod rules;
mod side;

use std::io::Write;
use std::process::ExitCode;

use prost::Message;
use serde_json::{json, Value as Json};

use crate::console::{self, print_err, Error};
use proto::{Code, Procedure, Response, Spec};

const CHECK: &str = "/buf.plugin.check.v1.CheckService/Check";
const LIST_RULES: &str = "/buf.plugin.check.v1.CheckService/ListRules";
const LIST_CATEGORIES: &str = "/buf.plugin.check.v1.CheckService/ListCategories";

/// Why a procedure gave no answer: a PluginRPC error's code and message.
#[derive(Debug)]
pub struct Failure {
    pub code: Code,
    pub message: String,
}

impl Failure {
    pub fn invalid(message: String) -> Failure {
        Failure {
            code: Code::InvalidArgument,
            message,
        }
    }

    pub fn exhausted(message: String) -> Failure {
        Failure {
            code: Code::ResourceExhausted,
            message,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Binary,
    Json,
}

/// What the arguments ask for.
enum Asked {
    Protocol,
    Spec,
    Call(&'static str),
    Help,
}

/// Runs the plugin with the arguments after `buf-plugin`.
pub fn serve(args: &[String]) -> ExitCode {
    let (asked, format) = match parse_args(args) {
        Ok(parsed) => parsed,
        Err(error) => return console::refuse("buf-plugin", &error, |_| None),
    };
    let out = match asked {
        Asked::Protocol => b"1\n".to_vec(),
        Asked::Spec => spec(format),
        Asked::Help => {
            print_err(HELP);
            return ExitCode::SUCCESS;
        }
        Asked::Call(path) => {
            let answer = request::read_bounded(std::io::stdin().lock(), request::MAX_REQUEST_BYTES)
                .and_then(|bytes| call(path, format, &bytes));
            respond(format, answer)
        }
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&out).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // buf went away: nobody is left to tell.
        Err(_) => ExitCode::FAILURE,
    }
}

const HELP: &str = "protocompat buf-plugin: protocompat's rules as a Buf check plugin (PluginRPC). \
buf runs it; in buf.yaml (version: v2):\n  plugins:\n    - plugin: [protocompat, buf-plugin]\n      \
options:\n        project: protocompat.yaml   # or roots: [shop.Order]\n  breaking:\n    use: [PIP246]\n\
With neither option, the topics of protocompat.yaml where buf runs are checked.\n\
Procedures: /buf.plugin.check.v1.CheckService/{Check,ListRules,ListCategories}, request on stdin.\n\
Flags: --protocol, --spec, --format binary|json. See docs/buf.md.";

fn parse_args(args: &[String]) -> Result<(Asked, Format), Error> {
    let mut format = Format::Binary;
    let mut asked = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = match arg.as_str() {
            "--protocol" => {
                asked.push(Asked::Protocol);
                continue;
            }
            "--spec" => {
                asked.push(Asked::Spec);
                continue;
            }
            "-h" | "--help" => {
                asked.push(Asked::Help);
                continue;
            }
            "--format" => rest
                .next()
                .ok_or_else(|| Error::usage("--format takes binary or json"))?
                .as_str(),
            other => match other.strip_prefix("--format=") {
                Some(value) => value,
                None => {
                    let path = [CHECK, LIST_RULES, LIST_CATEGORIES]
                        .into_iter()
                        .find(|p| *p == other)
                        .ok_or_else(|| {
                            Error::usage(format!(
                                "unknown argument `{}`; expected --protocol, --spec, --format, or a \
                                 procedure: {CHECK}, {LIST_RULES}, {LIST_CATEGORIES}",
                                protocompat::text::printable(&protocompat::text::bound(other, 200))
                            ))
                        })?;
                    asked.push(Asked::Call(path));
                    continue;
                }
            },
        };
        format = match value {
            "binary" => Format::Binary,
            "json" => Format::Json,
            _ => return Err(Error::usage("--format takes binary or json")),
        };
    }
    match asked.len() {
        0 => Ok((Asked::Help, format)),
        1 => Ok((asked.remove(0), format)),
        _ => Err(Error::usage(
            "give one of --protocol, --spec or a procedure",
        )),
    }
}

fn procedures() -> Vec<Procedure> {
    [CHECK, LIST_RULES, LIST_CATEGORIES]
        .into_iter()
        .map(|path| Procedure {
            path: path.to_owned(),
            args: Vec::new(),
        })
        .collect()
}

fn spec(format: Format) -> Vec<u8> {
    let spec = Spec {
        procedures: procedures(),
    };
    match format {
        Format::Binary => spec.encode_to_vec(),
        Format::Json => {
            let procedures: Vec<Json> = spec
                .procedures
                .iter()
                .map(|p| json!({"path": p.path}))
                .collect();
            json_bytes(&json!({ "procedures": procedures }))
        }
    }
}

/// A procedure's answer: the response message's full name and bytes (binary) or JSON fields.
enum Answer {
    Binary(&'static str, Vec<u8>),
    Json(&'static str, Json),
}

fn call(path: &str, format: Format, bytes: &[u8]) -> Result<Answer, Failure> {
    let page = |name: &str| -> Result<proto::PageRequest, Failure> {
        match format {
            Format::Binary => proto::PageRequest::decode(request::unwrap(bytes, name)?.as_slice())
                .map_err(|e| Failure::invalid(format!("not a {name}: {e}"))),
            Format::Json => json_page_request(bytes, name),
        }
    };
    match path {
        LIST_RULES => {
            let page = page("buf.plugin.check.v1.ListRulesRequest")?;
            let response = rules::list_rules(page.page_size, &page.page_token)?;
            let name = "buf.plugin.check.v1.ListRulesResponse";
            Ok(match format {
                Format::Binary => Answer::Binary(name, response.encode_to_vec()),
                Format::Json => Answer::Json(name, json_rules(&response)),
            })
        }
        LIST_CATEGORIES => {
            let page = page("buf.plugin.check.v1.ListCategoriesRequest")?;
            let response = rules::list_categories(page.page_size, &page.page_token)?;
            let name = "buf.plugin.check.v1.ListCategoriesResponse";
            Ok(match format {
                Format::Binary => Answer::Binary(name, response.encode_to_vec()),
                Format::Json => Answer::Json(name, json_categories(&response)),
            })
        }
        _ => {
            if format == Format::Json {
                return Err(Failure {
                    code: Code::Unimplemented,
                    message: "Check reads binary requests only (buf sends --format binary)"
                        .to_owned(),
                });
            }
            let value = request::unwrap(bytes, "buf.plugin.check.v1.CheckRequest")?;
            let request = request::check_request(&value)?;
            // The engine catches its own panics; this catches the rest of the plugin's, so that
            // buf gets an error it can show rather than a dead plugin.
            let response =
                std::panic::catch_unwind(|| check::check(&request)).unwrap_or_else(|payload| {
                    Err(Failure {
                        code: Code::Internal,
                        message: format!(
                            "internal error: {}",
                            protocompat::panic_message(payload.as_ref())
                        ),
                    })
                })?;
            Ok(Answer::Binary(
                "buf.plugin.check.v1.CheckResponse",
                response.encode_to_vec(),
            ))
        }
    }
}

/// The `pluginrpc.v1.Response` for an answer or a failure.
fn respond(format: Format, answer: Result<Answer, Failure>) -> Vec<u8> {
    match (format, answer) {
        (Format::Binary, Ok(Answer::Binary(name, value))) => Response {
            value: Some(prost_types::Any {
                type_url: proto::type_url(name),
                value,
            }),
            error: None,
        }
        .encode_to_vec(),
        (Format::Json, Ok(Answer::Json(name, mut value))) => {
            if let Json::Object(fields) = &mut value {
                fields.insert("@type".to_owned(), json!(proto::type_url(name)));
            }
            json_bytes(&json!({ "value": value }))
        }
        (_, Ok(_)) => unreachable!("an answer is made in the format asked"),
        (Format::Binary, Err(failure)) => Response {
            value: None,
            error: Some(proto::Error {
                code: failure.code as i32,
                message: protocompat::text::printable(&failure.message).into_owned(),
            }),
        }
        .encode_to_vec(),
        (Format::Json, Err(failure)) => json_bytes(&json!({
            "error": {"code": failure.code.json_name(), "message": failure.message}
        })),
    }
}

fn json_bytes(value: &Json) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).expect("JSON renders");
    bytes.push(b'\n');
    bytes
}

/// A ListRules or ListCategories request in protojson: `{"value": {"@type": …, "page_size":
/// …, "page_token": …}}` (or the fields' camelCase names), or nothing.
fn json_page_request(bytes: &[u8], name: &str) -> Result<proto::PageRequest, Failure> {
    let mut page = proto::PageRequest::default();
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(page);
    }
    let bad = |what: &str| {
        Failure::invalid(format!(
            "not a pluginrpc.v1.Request holding a {name}: {what}"
        ))
    };
    let request: Json = serde_json::from_slice(bytes).map_err(|e| bad(&e.to_string()))?;
    let Some(value) = request.get("value") else {
        return Ok(page);
    };
    let field = |snake: &str, camel: &str| value.get(snake).or_else(|| value.get(camel));
    if let Some(size) = field("page_size", "pageSize") {
        page.page_size = size
            .as_u64()
            .and_then(|s| u32::try_from(s).ok())
            .ok_or_else(|| bad("page_size is not a whole number"))?;
    }
    if let Some(token) = field("page_token", "pageToken") {
        page.page_token = token
            .as_str()
            .ok_or_else(|| bad("page_token is not a string"))?
            .to_owned();
    }
    Ok(page)
}

fn json_rules(response: &proto::ListRulesResponse) -> Json {
    let rules: Vec<Json> = response
        .rules
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "category_ids": r.category_ids,
                "default": r.default,
                "purpose": r.purpose,
                "type": "RULE_TYPE_BREAKING",
            })
        })
        .collect();
    json!({ "next_page_token": response.next_page_token, "rules": rules })
}

fn json_categories(response: &proto::ListCategoriesResponse) -> Json {
    let categories: Vec<Json> = response
        .categories
        .iter()
        .map(|c| json!({"id": c.id, "purpose": c.purpose}))
        .collect();
    json!({ "next_page_token": response.next_page_token, "categories": categories })
}
