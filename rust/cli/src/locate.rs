//! Where a finding is written: the file, line and column of the field (or oneof, or message)
//! its path names, in the `.proto` source a schema was compiled from.

use std::collections::HashMap;

use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorSet};
use serde::Serialize;

use crate::input::Sources;

/// A 1-based position in a file, as editors and CI annotations count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Every message of a compiled schema by full name, with where its declaration is.
pub struct Index<'a> {
    sources: &'a Sources,
    messages: HashMap<String, At<'a, DescriptorProto>>,
}

/// Where a declaration is: its file's index in the set, its source-info path, its descriptor.
pub type At<'a, T> = (usize, Vec<i32>, &'a T);

/// Every message and every enum of a set by full name, with where each is declared.
pub type Declarations<'a> = (
    HashMap<String, At<'a, DescriptorProto>>,
    HashMap<String, At<'a, EnumDescriptorProto>>,
);

/// Field numbers of `DescriptorProto` and `FileDescriptorProto` in source-info paths.
const FILE_MESSAGE: i32 = 4;
const FILE_ENUM: i32 = 5;
const NESTED_MESSAGE: i32 = 3;
const NESTED_ENUM: i32 = 4;
pub const FIELD: i32 = 2;
pub const ONEOF: i32 = 8;

/// The messages and enums of every file of `set`, nested ones included.
pub fn declarations(set: &FileDescriptorSet) -> Declarations<'_> {
    let (mut messages, mut enums) = (HashMap::new(), HashMap::new());
    for (index, file) in set.file.iter().enumerate() {
        let scope = match file.package() {
            "" => String::new(),
            package => format!("{package}."),
        };
        for (i, e) in file.enum_type.iter().enumerate() {
            enums.insert(
                format!("{scope}{}", e.name()),
                (index, vec![FILE_ENUM, i as i32], e),
            );
        }
        let mut pending: Vec<(String, Vec<i32>, &DescriptorProto)> = file
            .message_type
            .iter()
            .enumerate()
            .map(|(i, m)| (scope.clone(), vec![FILE_MESSAGE, i as i32], m))
            .collect();
        while let Some((scope, path, message)) = pending.pop() {
            let full = format!("{scope}{}", message.name());
            for (i, nested) in message.nested_type.iter().enumerate() {
                let mut nested_path = path.clone();
                nested_path.extend([NESTED_MESSAGE, i as i32]);
                pending.push((format!("{full}."), nested_path, nested));
            }
            for (i, e) in message.enum_type.iter().enumerate() {
                let mut enum_path = path.clone();
                enum_path.extend([NESTED_ENUM, i as i32]);
                enums.insert(format!("{full}.{}", e.name()), (index, enum_path, e));
            }
            messages.insert(full, (index, path, message));
        }
    }
    (messages, enums)
}

impl<'a> Index<'a> {
    pub fn new(sources: &'a Sources) -> Index<'a> {
        Index {
            sources,
            messages: declarations(&sources.set).0,
        }
    }

    /// The position of what `path` (`pkg.Order.items.price`, fields after the root message)
    /// names, and whether it was found whole; else of the deepest part found.
    pub fn locate(&self, root: &str, path: &str) -> Option<(Position, bool)> {
        let (file, source_path, whole) = self.source_path(root, path)?;
        self.position(file, &source_path).map(|p| (p, whole))
    }

    /// [`Index::locate`] as the file's index in the set and the source-info path of the
    /// declaration, which is how a Buf plugin names a place.
    pub fn source_path(&self, root: &str, path: &str) -> Option<(usize, Vec<i32>, bool)> {
        let rest = path.strip_prefix(root)?;
        let mut current = self.messages.get(root)?;
        let mut at = (current.0, current.1.clone());
        let segments: Vec<&str> = rest.split('.').filter(|s| !s.is_empty()).collect();
        let mut whole = true;
        for (i, segment) in segments.iter().enumerate() {
            let message = current.2;
            if let Some(index) = message.field.iter().position(|f| f.name() == *segment) {
                let mut field_path = current.1.clone();
                field_path.extend([FIELD, index as i32]);
                at = (current.0, field_path);
                let type_name = message.field[index].type_name().trim_start_matches('.');
                match self.messages.get(type_name) {
                    Some(next) => current = next,
                    None => {
                        whole = i + 1 == segments.len();
                        break;
                    }
                }
            } else if let Some(index) = message.oneof_decl.iter().position(|o| o.name() == *segment)
            {
                let mut oneof_path = current.1.clone();
                oneof_path.extend([ONEOF, index as i32]);
                at = (current.0, oneof_path);
                whole = i + 1 == segments.len();
                break;
            } else {
                whole = false;
                break;
            }
        }
        Some((at.0, at.1, whole))
    }

    fn position(&self, file: usize, path: &[i32]) -> Option<Position> {
        let descriptor = &self.sources.set.file[file];
        let location = descriptor
            .source_code_info
            .as_ref()?
            .location
            .iter()
            .find(|l| l.path == path)?;
        let (line, column) = (*location.span.first()?, *location.span.get(1)?);
        let name = descriptor.name();
        Some(Position {
            file: self
                .sources
                .files
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_owned()),
            line: line as u32 + 1,
            column: column as u32 + 1,
        })
    }
}
