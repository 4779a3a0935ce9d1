//! A file: its syntax or edition, its options, and the declarations at its top.

use super::super::descriptor_proto::tag;
use super::super::features::{Features, Syntax, EDITION_PROTO2, EDITION_PROTO3};
use super::super::prescan::Kind;
use super::super::tables::File;
use super::super::wire::Fields;
use super::{BuildError, Builder, Context, Element, Result};
use crate::error::DecodeError;
use crate::text::bound;

impl<'a> Builder<'a> {
    /// Reads one serialized `FileDescriptorProto`; the files it imports must be in already.
    pub(crate) fn file(&mut self, bytes: &'a [u8]) -> Result<()> {
        let mut name = "";
        let mut package = "";
        let mut syntax_text: Option<&str> = None;
        let mut edition: Option<i32> = None;
        let mut options: Option<&[u8]> = None;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::file::NAME => {
                    name = value.text()?;
                    self.tally.name(name.len());
                }
                tag::file::PACKAGE => {
                    package = value.text()?;
                    self.tally.name(package.len());
                }
                tag::file::SYNTAX => syntax_text = Some(value.text()?),
                tag::file::EDITION => edition = Some(value.int32()?),
                // `import option "x.proto";` (2026): a file whose custom options this one
                // uses, in the set but outside the closure, since no type of it is read.
                tag::file::OPTION_DEPENDENCY => self.tally.name(value.text()?.len()),
                tag::file::OPTIONS => {
                    let bytes = value.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                _ => self.tally.unread(Kind::File, number, value)?,
            }
        }
        let id = self.model.files.len() as u32;
        let name = self.push(name);
        let package_str = self.push(package);
        self.model.files.push(File {
            name,
            package: package_str,
            syntax: Syntax::Proto2,
        });
        let syntax = self.syntax(id, syntax_text, edition)?;
        self.model.files[id as usize].syntax = syntax;
        let ctx = Context { file: id, syntax };
        if !package.is_empty() {
            for part in package.split('.') {
                self.identifier(ctx, &Element::FILE, "a part of the package", part)?;
            }
        }

        let mut features = Features::defaults(syntax);
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::file_options::FEATURES => {
                        features =
                            features.with(&self.features(ctx, &Element::FILE, value.bytes()?)?)
                    }
                    // Expressed as Java's feature, as protobuf does for proto2 and proto3.
                    tag::file_options::JAVA_STRING_CHECK_UTF8
                        if !syntax.is_edition() && value.bool()? =>
                    {
                        features.java_utf8_validation =
                            super::super::features::JavaUtf8Validation::Verify
                    }
                    _ => {}
                }
            }
        }

        self.ids.enter_package(package);
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::file::MESSAGE_TYPE => {
                    self.message(ctx, package_str, &features, value.bytes()?)?;
                }
                tag::file::ENUM_TYPE => {
                    self.enumeration(ctx, package_str, &features, value.bytes()?)?
                }
                tag::file::EXTENSION => {
                    self.extension(ctx, package_str, value.bytes()?)?;
                }
                tag::file::SERVICE => self.service(ctx, package_str, value.bytes()?)?,
                _ => {}
            }
        }
        self.ids.leave();
        Ok(())
    }

    fn syntax(&self, file: u32, text: Option<&str>, edition: Option<i32>) -> Result<Syntax> {
        let file_name = bound(self.text(self.model.files[file as usize].name), 200);
        match text.unwrap_or("") {
            "" | "proto2" if matches!(edition, None | Some(EDITION_PROTO2)) => Ok(Syntax::Proto2),
            "proto3" if matches!(edition, None | Some(EDITION_PROTO3)) => Ok(Syntax::Proto3),
            "editions" => match edition {
                Some(number) => Syntax::from_edition(number).ok_or_else(|| {
                    BuildError::from(DecodeError::unsupported(format!(
                        "file `{file_name}` uses {}; this checker supports {}",
                        edition_name(number),
                        Syntax::SUPPORTED
                    )))
                }),
                None => Err(BuildError::from(DecodeError::invalid(format!(
                    "file `{file_name}` declares syntax \"editions\" but no edition"
                )))),
            },
            "" | "proto2" | "proto3" => Err(BuildError::from(DecodeError::invalid(format!(
                "file `{file_name}` declares syntax `{}` and {}",
                text.unwrap_or("proto2"),
                edition_name(edition.unwrap_or(0))
            )))),
            other => Err(BuildError::from(DecodeError::invalid(format!(
                "file `{file_name}` declares unknown syntax `{}`",
                bound(other, 40)
            )))),
        }
    }
}

/// The edition as descriptor.proto's `Edition` enum names it.
fn edition_name(number: i32) -> String {
    match number {
        0 => "no edition".to_owned(),
        EDITION_PROTO2 => "EDITION_PROTO2".to_owned(),
        EDITION_PROTO3 => "EDITION_PROTO3".to_owned(),
        // UNSTABLE is refused by name: the same text means other things there (its `int64`
        // compiles to an `sfixed64`), whatever its features say.
        9999 => "EDITION_UNSTABLE".to_owned(),
        i32::MAX => "EDITION_MAX".to_owned(),
        1..=2 | 99_997..=99_999 => format!("test-only edition {number}"),
        n => format!("edition number {n}"),
    }
}
