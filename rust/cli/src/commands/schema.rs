//! `protocompat schema`: the Pulsar schema data for a schema file.

use std::process::ExitCode;

use crate::args::InputArgs;
use crate::console::{self, print_out, Error};
use crate::{input, safe};

pub fn run(upload: bool, input: &InputArgs, file: &str) -> ExitCode {
    let loaded = input::Spec::parse(file).and_then(|spec| {
        input::load(
            &spec,
            &input::SideOptions {
                root_message: input.root.as_deref(),
                includes: &input.include,
                counterpart: None,
                protoc: input.protoc(),
            },
        )
    });
    let data = match loaded {
        Ok(mut loaded) if loaded.len() == 1 => loaded.remove(0).data,
        Ok(loaded) => {
            return bad_input(Error::input(format!(
                "holds {} schemas (a history); `schema` prints one",
                loaded.len()
            )))
        }
        Err(error) => return bad_input(error.at(file)),
    };
    // Refuse to print schema data the broker plugin would refuse.
    if let Err(e) = protocompat::Schema::decode(&data) {
        return bad_input(Error::input(e.message).under(e.rule.id()).at(file));
    }
    let text = String::from_utf8_lossy(&data).into_owned();
    if upload {
        let payload = serde_json::json!({
            "type": "PROTOBUF_NATIVE",
            "schema": text,
            "properties": {},
        });
        print_out(&safe::json(
            serde_json::to_string_pretty(&payload).expect("JSON renders"),
        ));
    } else {
        print_out(&safe::json(text));
    }
    ExitCode::SUCCESS
}

fn bad_input(error: Error) -> ExitCode {
    console::refuse("", &error, |_| None)
}
