//! Pulsar's schema compatibility strategies (RULES.md section 3).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// A strategy as the broker names it. The numeric codes are our JNI contract, listed
/// explicitly so that a reordering of Pulsar's Java enum can never change a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Strategy {
    Undefined,
    AlwaysIncompatible,
    AlwaysCompatible,
    Backward,
    Forward,
    Full,
    BackwardTransitive,
    ForwardTransitive,
    FullTransitive,
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

const ALL: [(Strategy, i32, &str); 9] = [
    (Strategy::Undefined, 0, "UNDEFINED"),
    (Strategy::AlwaysIncompatible, 1, "ALWAYS_INCOMPATIBLE"),
    (Strategy::AlwaysCompatible, 2, "ALWAYS_COMPATIBLE"),
    (Strategy::Backward, 3, "BACKWARD"),
    (Strategy::Forward, 4, "FORWARD"),
    (Strategy::Full, 5, "FULL"),
    (Strategy::BackwardTransitive, 6, "BACKWARD_TRANSITIVE"),
    (Strategy::ForwardTransitive, 7, "FORWARD_TRANSITIVE"),
    (Strategy::FullTransitive, 8, "FULL_TRANSITIVE"),
];

impl Strategy {
    /// Every strategy, in native-code order.
    pub fn all() -> impl Iterator<Item = Strategy> {
        ALL.iter().map(|(s, _, _)| *s)
    }

    /// The strategy for a native code, `None` for a code we do not know.
    pub fn from_code(code: i32) -> Option<Strategy> {
        ALL.iter().find(|(_, c, _)| *c == code).map(|(s, _, _)| *s)
    }

    pub fn code(self) -> i32 {
        ALL.iter()
            .find(|(s, _, _)| *s == self)
            .map_or(0, |(_, c, _)| *c)
    }

    pub fn name(self) -> &'static str {
        ALL.iter()
            .find(|(s, _, _)| *s == self)
            .map_or("UNDEFINED", |(_, _, n)| n)
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
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// Accepts Pulsar's names in any case, with `-` or `_`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_uppercase().replace('-', "_");
        ALL.iter()
            .find(|(_, _, name)| *name == wanted)
            .map(|(s, _, _)| *s)
            .ok_or_else(|| {
                let names: Vec<&str> = ALL.iter().map(|(_, _, n)| *n).collect();
                format!(
                    "unknown strategy `{s}`; expected one of {}",
                    names.join(", ")
                )
            })
    }
}
