//! After `--fix` has written its fixes, the files are compiled again and their descriptors held
//! against what the fixes meant: the new schema as it was, with the fixes' edits made in memory
//! as the engine proved them. Any declaration, option or import that differs (a misplaced edit,
//! or text no fix names) means the files are not what was proven.

use protocompat::model::SchemaData;
use protocompat::remedy::descriptor::{apply, differences, Tree};
use protocompat::remedy::Edit;

use crate::console::Error;

/// `Ok` if `after` (the new schema's data compiled from the written files) is `before` with
/// `edits` made; else the first differences, in words.
pub fn verify(before: &[u8], edits: &[Edit], after: &[u8]) -> Result<(), Error> {
    let tree = |data: &[u8]| -> Result<Tree, Error> {
        let data = SchemaData::parse(data).map_err(|e| Error::input(e.message))?;
        Tree::parse(&data.descriptor_set).map_err(Error::input)
    };
    let mut intended = tree(before)?;
    apply(&mut intended, edits).map_err(Error::input)?;
    let compiled = tree(after)?;
    let found = differences(&intended, &compiled);
    if found.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = found.iter().take(3).map(ToString::to_string).collect();
    let more = match found.len() {
        n if n > 3 => format!(" (and {} more)", n - 3),
        _ => String::new(),
    };
    Err(Error::input(format!("{}{more}", shown.join("; "))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocompat::model::SchemaData;
    use protox::file::{ChainFileResolver, File, FileResolver};

    /// `text` as `order.proto`, compiled by protox and wrapped as schema data.
    fn data(text: &str) -> Vec<u8> {
        struct One(String);
        impl FileResolver for One {
            fn open_file(&self, name: &str) -> Result<File, protox::Error> {
                if name == "order.proto" {
                    File::from_source(name, &self.0)
                } else {
                    Err(protox::Error::file_not_found(name))
                }
            }
        }
        let mut resolver = ChainFileResolver::new();
        resolver.add(One(text.to_owned()));
        let mut compiler = protox::Compiler::with_file_resolver(resolver);
        compiler.include_imports(true);
        compiler.open_file("order.proto").unwrap();
        SchemaData {
            descriptor_set: compiler.encode_file_descriptor_set(),
            root_message: "shop.Order".into(),
            root_file: "order.proto".into(),
        }
        .to_json()
        .into_bytes()
    }

    const BEFORE: &str =
        "syntax = \"proto3\";\npackage shop;\nmessage Order { string note = 5; }\n";

    fn renumbered() -> Vec<Edit> {
        vec![Edit::SetNumber {
            message: "shop.Order".into(),
            field: "note".into(),
            number: 4,
        }]
    }

    #[test]
    fn the_files_must_say_what_the_fixes_meant_and_nothing_else() {
        let before = data(BEFORE);
        let edits = renumbered();
        let exact = "syntax = \"proto3\";\npackage shop;\nmessage Order { string note = 4; }\n";
        assert_eq!(verify(&before, &edits, &data(exact)), Ok(()));
        let planted = "syntax = \"proto3\";\npackage shop;\noption java_package = \"x\";\n\
                       message Order { string note = 4; }\nmessage Injected {}\n";
        let why = verify(&before, &edits, &data(planted))
            .unwrap_err()
            .to_string();
        assert!(why.contains("shop.Injected"), "{why}");
        assert!(
            why.contains("java_package") || why.contains("file option"),
            "{why}"
        );
        let misplaced = "syntax = \"proto3\";\npackage shop;\nmessage Order { string note = 6; }\n";
        let why = verify(&before, &edits, &data(misplaced))
            .unwrap_err()
            .to_string();
        assert!(why.contains("shop.Order.note"), "{why}");
    }
}
