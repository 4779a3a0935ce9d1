//! Pulsar's schema compatibility strategies (docs/rules.md#strategies).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use strum::VariantArray;

/// A strategy as the broker names it (`FULL_TRANSITIVE`: the name is derived from the
/// variant). The numeric codes are our JNI contract, written as the discriminants so that a
/// reordering of Pulsar's Java enum can never change a verdict.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    strum::IntoStaticStr,
    strum::Display,
    strum::FromRepr,
    strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
#[repr(i32)]
pub enum Strategy {
    Undefined = 0,
    AlwaysIncompatible = 1,
    AlwaysCompatible = 2,
    Backward = 3,
    Forward = 4,
    Full = 5,
    BackwardTransitive = 6,
    ForwardTransitive = 7,
    FullTransitive = 8,
}

/// Which schema of a compared pair wrote the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// `canRead(existing, new)`: data written with the existing schema, read with the new one.
    ExistingWritesNewReads,
    /// `canRead(new, existing)`: data written with the new schema, read with the existing one.
    NewWritesExistingReads,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::ExistingWritesNewReads => "existing writes, new reads",
            Direction::NewWritesExistingReads => "new writes, existing reads",
        })
    }
}

/// The strategy a caller asked for, typed once where its native code arrives (the JNI
/// boundary): a strategy we know, or a code we do not (a newer Pulsar's, say). A check
/// validates the proposed schema first either way, then rejects an unknown code with
/// UNKNOWN_STRATEGY.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Requested {
    Known(Strategy),
    UnknownCode(i32),
}

impl Requested {
    /// The strategy a native code stands for.
    pub fn from_code(code: i32) -> Requested {
        Strategy::from_code(code).map_or(Requested::UnknownCode(code), Requested::Known)
    }

    /// What reports call it: the strategy's name, or `strategy code N`.
    pub fn name(self) -> String {
        match self {
            Requested::Known(strategy) => strategy.name().to_owned(),
            Requested::UnknownCode(code) => format!("strategy code {code}"),
        }
    }
}

impl From<Strategy> for Requested {
    fn from(strategy: Strategy) -> Requested {
        Requested::Known(strategy)
    }
}

impl Strategy {
    /// Every strategy, in native-code order.
    pub fn all() -> impl Iterator<Item = Strategy> {
        Strategy::VARIANTS.iter().copied()
    }

    /// The strategy for a native code, `None` for a code we do not know.
    pub fn from_code(code: i32) -> Option<Strategy> {
        Strategy::from_repr(code)
    }

    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The directions this strategy requires for every existing schema.
    /// Empty for the strategies that decide without comparing.
    pub fn directions(self) -> &'static [Direction] {
        use Direction::*;
        match self {
            Strategy::Backward | Strategy::BackwardTransitive => &[ExistingWritesNewReads],
            Strategy::Forward | Strategy::ForwardTransitive => &[NewWritesExistingReads],
            Strategy::Full | Strategy::FullTransitive => {
                &[ExistingWritesNewReads, NewWritesExistingReads]
            }
            Strategy::Undefined | Strategy::AlwaysIncompatible | Strategy::AlwaysCompatible => &[],
        }
    }

    /// Whether the broker compares a new schema with every version it holds (the `_TRANSITIVE`
    /// strategies), not with the latest one only.
    pub fn is_transitive(self) -> bool {
        matches!(
            self,
            Strategy::BackwardTransitive | Strategy::ForwardTransitive | Strategy::FullTransitive
        )
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// Accepts Pulsar's names in any case, with `-` or `_`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_uppercase().replace('-', "_");
        Strategy::all()
            .find(|strategy| strategy.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::all().map(Strategy::name).collect();
                format!(
                    "unknown strategy `{s}`; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_text_use_the_same_derived_names() {
        for strategy in Strategy::all() {
            let json = serde_json::to_string(&strategy).unwrap();
            assert_eq!(json, format!("\"{}\"", strategy.name()));
            assert_eq!(strategy.to_string(), strategy.name());
        }
        assert_eq!(Strategy::FullTransitive.name(), "FULL_TRANSITIVE");
        assert_eq!(Strategy::AlwaysIncompatible.code(), 1);
    }
}
