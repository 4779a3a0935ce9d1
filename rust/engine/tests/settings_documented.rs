//! The operator's guide's table of properties (docs/operators.md, section 11) is the operator's
//! view of `SETTINGS`: every setting is there with its default, and nothing else is.

use protocompat::SETTINGS;

#[test]
fn the_operators_guide_lists_every_setting_with_its_default() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/operators.md"
    ))
    .expect("docs/operators.md");
    for setting in SETTINGS {
        let row = format!(
            "| `-Dprotocompat.{}` | {} ",
            setting.name,
            setting.default_value()
        );
        assert!(
            readme.contains(&row),
            "docs/operators.md lacks the row `{row}` for {}",
            setting.name
        );
    }
    let listed = readme
        .lines()
        .filter(|line| {
            line.starts_with("| `-Dprotocompat.cache.")
                || line.starts_with("| `-Dprotocompat.limit.")
        })
        .count();
    assert_eq!(
        listed,
        SETTINGS.len(),
        "docs/operators.md lists settings the engine does not have"
    );
}
