//! SYNTAX_CHANGED: a compared message pair is declared in files of different syntax.

use prost_reflect::Syntax;

use super::{MessagePair, Violation};

pub(crate) fn syntax_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    let writer = pair.writer.parent_file().syntax();
    let reader = pair.reader.parent_file().syntax();
    if writer != reader {
        found.push(Violation {
            field: None,
            number: None,
            writer: name(writer).to_owned(),
            reader: name(reader).to_owned(),
        });
    }
}

fn name(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Proto2 => "proto2",
        Syntax::Proto3 => "proto3",
    }
}
