//! protoc's descriptor sets as generated classes embed them, for comparing with the schema data
//! the CLI makes: protoc writes a JSON name for every field, generated code only the ones the
//! source sets, and the fixtures set none.

use protocompat::remedy::descriptor::{Kind, Message, Tree};

/// `set` (a serialized FileDescriptorSet) with no field's `json_name`; everything else, Editions
/// fields and unknown ones included, as it was.
pub fn without_json_names(set: &[u8]) -> Vec<u8> {
    fn strip(message: &mut Message) {
        if message.kind == Kind::Field {
            message.remove(10);
        }
        for field in &mut message.fields {
            if let protocompat::remedy::descriptor::Value::Message(inner) = &mut field.value {
                strip(inner);
            }
        }
    }
    let mut tree = Tree::parse(set).expect("a descriptor set");
    strip(&mut tree.set);
    tree.encode()
}
