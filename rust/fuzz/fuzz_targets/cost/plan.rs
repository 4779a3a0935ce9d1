//! What the `cost` target builds, read from the fuzz input with `arbitrary`: a syntax, a
//! package, up to eight parts of one root message (each a kind of declaration in a count the
//! input scales by up to 1,000) and a history. Every count is held inside
//! `protocompat::Limits::DEFAULT` as it is read ([`Budget`]), so that the engine gets to work
//! on the schemas instead of refusing them at the door.

use crate::budget::{Budget, Cost};
use arbitrary::{Result, Unstructured};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Proto2,
    Proto3,
    Edition2023,
    Edition2024,
    Edition2026,
}

impl Syntax {
    pub fn editions(self) -> bool {
        matches!(
            self,
            Syntax::Edition2023 | Syntax::Edition2024 | Syntax::Edition2026
        )
    }

    /// Whether singular fields have explicit presence by default, so may declare defaults.
    pub fn explicit(self) -> bool {
        self != Syntax::Proto3
    }
}

pub use protocompat_testkit::scalar::{Scalar, SCALARS};

/// How a part differs between the versions of a history: the odd variants change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vary {
    Nothing,
    Retype,
    Relabel,
    Default,
    Rename,
    Renumber,
    Drop,
    Features,
    Structure,
}

const VARIES: [Vary; 9] = [
    Vary::Nothing,
    Vary::Retype,
    Vary::Relabel,
    Vary::Default,
    Vary::Rename,
    Vary::Renumber,
    Vary::Drop,
    Vary::Features,
    Vary::Structure,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Optional,
    Repeated,
    Required,
    /// proto3 `optional`; in Editions, explicit presence set on the field.
    Proto3Optional,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultKind {
    None,
    Typed,
    /// A default of about this many characters (digits for numbers).
    Long(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapValue {
    Scalar(Scalar),
    Enum,
    Message,
}

#[derive(Clone, Debug)]
pub enum Part {
    /// Fields of one scalar type, or of every type in turn (`scalar` None).
    Scalars {
        count: usize,
        scalar: Option<Scalar>,
        label: Label,
        packed: Option<bool>,
        default: DefaultKind,
        /// Bytes added to each field's name.
        pad: usize,
        json: bool,
    },
    /// `copies` enums of `values` values each, and `fields` fields typed with them in turn.
    Enums {
        copies: usize,
        values: usize,
        fields: usize,
        closed: bool,
        alias: bool,
        default_last: bool,
    },
    Oneofs {
        oneofs: usize,
        members: usize,
        scalar: Scalar,
    },
    Maps {
        count: usize,
        key: Scalar,
        value: MapValue,
    },
    /// `count` messages of `fields_each` fields, each held by a field of the root; the first
    /// has `big` fields more.
    Messages {
        count: usize,
        fields_each: usize,
        big: usize,
        delimited: bool,
        recursive: bool,
    },
    /// Messages nested `depth` deep, each with `fields_each` fields and one to the next.
    Nested {
        depth: usize,
        fields_each: usize,
    },
    /// `messages` messages with `ranges` extension ranges each, held by the root, and
    /// `extensions` extensions of the first.
    Extensions {
        messages: usize,
        ranges: usize,
        extensions: usize,
    },
    Reserved {
        ranges: usize,
        names: usize,
    },
    /// Fields typed with a message of another file, named relative to the package.
    Imported {
        fields: usize,
        dotted: bool,
    },
    Services {
        methods: usize,
    },
}

#[derive(Clone, Debug)]
pub struct PartPlan {
    pub part: Part,
    pub vary: Vary,
}

/// Editions features a file sets for everything in it (each `None` keeps the edition's).
#[derive(Clone, Copy, Debug, Default)]
pub struct FileFeatures {
    pub presence: Option<i32>,
    pub enum_type: Option<i32>,
    pub repeated: Option<i32>,
    pub utf8: Option<i32>,
    pub message_encoding: Option<i32>,
    pub java_closed: Option<bool>,
    pub java_utf8: Option<i32>,
    /// Whether the odd variants flip each feature set.
    pub flip: bool,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub syntax: Syntax,
    /// Parts `a.` before the package's last part: deep scopes for relative names.
    pub package_parts: usize,
    /// Type names written relative to their scope instead of fully qualified.
    pub relative: bool,
    pub file_features: Option<FileFeatures>,
    pub parts: Vec<PartPlan>,
    /// Existing versions (variants 0 to `existing - 1`); the new schema is variant `existing`.
    pub existing: usize,
    /// Bit `i`: existing version `i` (of the first eight) is built from the parts; the others
    /// are tiny (the root with one field).
    pub large: u8,
    pub new_tiny: bool,
    pub examples: bool,
}

impl Plan {
    pub fn package(&self) -> String {
        let mut package = "a.".repeat(self.package_parts);
        package.push_str("shop");
        package
    }

    pub fn root(&self) -> String {
        format!("{}.Order", self.package())
    }

    pub fn read(u: &mut Unstructured<'_>) -> Result<Plan> {
        let syntax = *u.choose(&[
            Syntax::Proto2,
            Syntax::Proto3,
            Syntax::Edition2023,
            Syntax::Edition2024,
            Syntax::Edition2026,
        ])?;
        // Up to 484 parts leaves room under the 1,024-byte name limit for a fully qualified
        // type name in the package.
        let package_parts = if u.ratio(1, 4)? {
            usize::from(u.arbitrary::<u8>()?) * 19 / 10
        } else {
            0
        };
        let relative = u.arbitrary()?;
        let file_features = if syntax.editions() && u.arbitrary()? {
            Some(FileFeatures::read(u)?)
        } else {
            None
        };
        let mut budget = Budget::new(package_parts * 2 + 4);
        let mut parts = Vec::new();
        for _ in 0..u.int_in_range(1..=8)? {
            let vary = *u.choose(&VARIES)?;
            parts.push(PartPlan {
                part: Part::read(u, syntax, &mut budget)?,
                vary,
            });
        }
        // Mostly a few versions; sometimes a long history (40 to 2,560).
        let history: u8 = u.arbitrary()?;
        let existing = if history < 192 {
            1 + usize::from(history % 4)
        } else {
            usize::from(history - 191) * 40
        };
        Ok(Plan {
            syntax,
            package_parts,
            relative,
            file_features,
            parts,
            existing,
            large: u.arbitrary()?,
            new_tiny: u.ratio(1, 16)?,
            examples: u.ratio(1, 3)?,
        })
    }
}

impl FileFeatures {
    fn read(u: &mut Unstructured<'_>) -> Result<FileFeatures> {
        use crate::desc::feature as f;
        fn pick(u: &mut Unstructured<'_>, values: &[i32]) -> Result<Option<i32>> {
            Ok(if u.arbitrary()? {
                Some(*u.choose(values)?)
            } else {
                None
            })
        }
        Ok(FileFeatures {
            presence: pick(u, &[f::EXPLICIT, f::IMPLICIT])?,
            enum_type: pick(u, &[f::OPEN, f::CLOSED])?,
            repeated: pick(u, &[f::PACKED, f::EXPANDED])?,
            utf8: pick(u, &[f::VERIFY, f::NONE])?,
            message_encoding: pick(u, &[f::LENGTH_PREFIXED, f::DELIMITED])?,
            java_closed: if u.arbitrary()? {
                Some(u.arbitrary()?)
            } else {
                None
            },
            java_utf8: pick(u, &[f::JAVA_DEFAULT, f::JAVA_VERIFY])?,
            flip: u.arbitrary()?,
        })
    }
}

/// A count from the input: a byte times 1, 10, 100 or 1,000.
fn scaled(u: &mut Unstructured<'_>) -> Result<usize> {
    let count = usize::from(u.arbitrary::<u8>()?);
    let scale = [1, 10, 100, 1_000][usize::from(u.arbitrary::<u8>()? % 4)];
    Ok(count * scale)
}

impl Part {
    fn read(u: &mut Unstructured<'_>, syntax: Syntax, budget: &mut Budget) -> Result<Part> {
        let scope = budget.scope;
        let field = |name: usize, extra: usize| Cost::field(scope, name, extra);
        Ok(match u.int_in_range(0..=9)? {
            0 => {
                let scalar = if u.arbitrary()? {
                    Some(*u.choose(&SCALARS)?)
                } else {
                    None
                };
                let label = *u.choose(&[
                    Label::Optional,
                    Label::Repeated,
                    Label::Required,
                    Label::Proto3Optional,
                ])?;
                let default = match u.int_in_range(0..=3)? {
                    0 | 1 => DefaultKind::None,
                    2 => DefaultKind::Typed,
                    _ => DefaultKind::Long(scaled(u)?.max(1) * 4),
                };
                let pad = if u.ratio(1, 4)? {
                    usize::from(u.arbitrary::<u8>()?) * 39 / 10
                } else {
                    0
                };
                let extra = match default {
                    DefaultKind::Long(n) => n + 8,
                    _ => 24,
                };
                let want = scaled(u)?;
                Part::Scalars {
                    count: budget.fit(want, field(12 + pad, extra)),
                    scalar,
                    label,
                    packed: if u.arbitrary()? {
                        Some(u.arbitrary()?)
                    } else {
                        None
                    },
                    default,
                    pad,
                    json: u.ratio(1, 4)?,
                }
            }
            1 => {
                let copies = budget.fit(
                    1 + usize::from(u.arbitrary::<u8>()? % 100),
                    Cost::enumeration(scope),
                );
                let values = scaled(u)?.max(1);
                let values = budget.fit(values * copies, Cost::value(scope)) / copies.max(1);
                let want = scaled(u)?;
                Part::Enums {
                    copies,
                    values: values.max(1),
                    fields: budget.fit(want, field(14, 40)),
                    closed: u.arbitrary()?,
                    alias: u.ratio(1, 8)?,
                    default_last: u.arbitrary()?,
                }
            }
            2 => {
                let oneofs = budget.fit(scaled(u)?.max(1), Cost::oneof(scope));
                let members = 1 + usize::from(u.arbitrary::<u8>()?);
                let members = budget.fit(members * oneofs, field(14, 4)) / oneofs.max(1);
                Part::Oneofs {
                    oneofs,
                    members,
                    scalar: *u.choose(&SCALARS)?,
                }
            }
            3 => Part::Maps {
                count: budget.fit(scaled(u)?, Cost::map(scope)),
                key: u.choose(&SCALARS)?.as_key(),
                value: match u.int_in_range(0..=2)? {
                    0 => MapValue::Scalar(*u.choose(&SCALARS)?),
                    1 => MapValue::Enum,
                    _ => MapValue::Message,
                },
            },
            4 => {
                let fields_each = usize::from(u.arbitrary::<u8>()?);
                let count = budget.fit(scaled(u)?.max(1), Cost::message(scope, fields_each + 1));
                let big = budget.fit(scaled(u)?, field(12, 4));
                Part::Messages {
                    count,
                    fields_each,
                    big,
                    delimited: syntax.editions() && u.arbitrary()?,
                    recursive: u.arbitrary()?,
                }
            }
            5 => {
                let fields_each = usize::from(u.arbitrary::<u8>()? % 64);
                // Protobuf's nesting limit is 100; the root is one level.
                let depth = 1 + usize::from(u.arbitrary::<u8>()? % 95);
                let mut fit = 0;
                for level in 1..=depth {
                    let scope = scope + level * 7;
                    // A fully qualified name of the deepest level stays under the name limit.
                    if scope > 1_000 || budget.fit(1, Cost::message(scope, fields_each + 1)) == 0 {
                        break;
                    }
                    fit = level;
                }
                Part::Nested {
                    depth: fit.max(1),
                    fields_each,
                }
            }
            6 => {
                let ranges = 1 + usize::from(u.arbitrary::<u8>()? % 16);
                let messages = budget.fit(scaled(u)?.max(1), Cost::ranged(scope, ranges));
                let extensions = budget.fit(scaled(u)?, field(12, 20));
                Part::Extensions {
                    messages,
                    ranges,
                    extensions,
                }
            }
            7 => {
                let ranges = budget.fit(scaled(u)?, Cost::range());
                let names = budget.fit(scaled(u)?, Cost::reserved_name());
                Part::Reserved { ranges, names }
            }
            8 => {
                let fields = budget.fit(scaled(u)?, field(12, scope + 10));
                Part::Imported {
                    fields,
                    dotted: u.arbitrary()?,
                }
            }
            _ => {
                let methods = budget.fit(scaled(u)?, field(12, 2 * scope + 20));
                Part::Services { methods }
            }
        })
    }
}
