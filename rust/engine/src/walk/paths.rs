//! Where a walk is: each queued pair as a parent index and the field it was reached through,
//! rendered into a path only for the findings that are kept.

use crate::model::FieldRef;
use crate::text::bound;

/// Longest path kept in a finding; a longer one keeps its root and its last fields.
pub(super) const PATH_LIMIT: usize = 512;

/// One queued message pair's place in the walk: the pair it was reached from, and through
/// which reader field. Index 0 is the root pair.
pub(super) struct Step<'a> {
    pub parent: u32,
    /// The (writer, reader) fields it was reached through.
    pub field: Option<(FieldRef<'a>, FieldRef<'a>)>,
    /// Fields from the root to it.
    pub depth: u32,
}

pub(super) struct Paths<'a> {
    pub root: String,
    pub steps: Vec<Step<'a>>,
}

impl<'a> Paths<'a> {
    /// The paths of a walk from `root`, holding its first step, the root pair's (index 0).
    pub(super) fn new(root: &str) -> Paths<'a> {
        Paths {
            root: root.to_owned(),
            steps: vec![Step {
                parent: 0,
                field: None,
                depth: 0,
            }],
        }
    }

    /// A step reached from `parent` through `field`; its index.
    pub(super) fn push(&mut self, parent: usize, field: (FieldRef<'a>, FieldRef<'a>)) -> usize {
        let depth = self.steps[parent].depth + 1;
        self.steps.push(Step {
            parent: parent as u32,
            field: Some(field),
            depth,
        });
        self.steps.len() - 1
    }

    /// `root.a.b.field`, at most [`PATH_LIMIT`] bytes: past that the root, `…`, and as many of
    /// the last names as fit.
    pub(super) fn render(&self, mut step: usize, field: Option<&str>) -> String {
        let mut names: Vec<&str> = field.into_iter().collect();
        while let Some((_, through)) = &self.steps[step].field {
            names.push(through.name());
            step = self.steps[step].parent as usize;
        }
        let full: usize = self.root.len() + names.iter().map(|n| n.len() + 1).sum::<usize>();
        if full <= PATH_LIMIT {
            let mut path = self.root.clone();
            for name in names.iter().rev() {
                path.push('.');
                path.push_str(name);
            }
            return path;
        }
        let head = bound(&self.root, PATH_LIMIT / 4);
        let mut tail: Vec<String> = Vec::new();
        let mut room = PATH_LIMIT - head.len() - 32;
        for name in &names {
            let name = bound(name, PATH_LIMIT / 4);
            if name.len() + 1 > room {
                break;
            }
            room -= name.len() + 1;
            tail.push(name);
        }
        let skipped = names.len() - tail.len();
        tail.reverse();
        format!("{head}.…({skipped} more).{}", tail.join("."))
    }

    /// Fields from the roots to the pair at `step`.
    pub(super) fn depth(&self, step: usize) -> usize {
        self.steps[step].depth as usize
    }

    /// The (writer, reader) fields from the roots to the pair at `step`.
    pub(super) fn trail(&self, mut step: usize) -> Vec<(FieldRef<'a>, FieldRef<'a>)> {
        let mut trail = Vec::new();
        while let Some(through) = self.steps[step].field {
            trail.push(through);
            step = self.steps[step].parent as usize;
        }
        trail.reverse();
        trail
    }
}
