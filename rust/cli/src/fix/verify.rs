//! After `--fix` has written its fixes, the files are compiled again and their descriptors held
//! against what the fixes meant: the new schema as it was, with the fixes' edits made in memory
//! as the engine proved them. Any declaration, option or import that differs (a misplaced edit,
//! or text no fix names) means the files are not what was proven.

use protocompat::model::SchemaData;
use protocompat::remedy::descriptor::{apply, differences, Tree};
use protocompat::remedy::Edit;

/// `Ok` if `after` (the new schema's data compiled from the written files) is `before` with
/// `edits` made; else the first differences, in words.
pub fn verify(before: &[u8], edits: &[Edit], after: &[u8]) -> Result<(), String> {
    let tree = |data: &[u8]| -> Result<Tree, String> {
        let data = SchemaData::parse(data).map_err(|e| e.message)?;
        Tree::parse(&data.descriptor_set)
    };
    let mut intended = tree(before)?;
    apply(&mut intended, edits)?;
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
    Err(format!("{}{more}", shown.join("; ")))
}
