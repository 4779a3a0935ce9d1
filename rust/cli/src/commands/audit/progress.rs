//! The audit's progress line on stderr, for a person at a terminal.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `listed the topics of 12/300 namespaces`, then `audited 312/1000 topics, 2 conflicts`,
/// redrawn in place on stderr as namespaces and topics are done.
pub(super) struct Progress {
    pub(super) bar: ProgressBar,
    /// Counted and shown under one lock, the line written whole: a count shown after a higher
    /// one, or one phase's count in the other's line, would go back.
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    done: usize,
    total: usize,
    conflicts: usize,
}

impl Progress {
    pub(super) fn new(target: ProgressDrawTarget) -> Progress {
        let bar = ProgressBar::with_draw_target(None, target)
            .with_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
        // Redrawn now and then too: a redraw skipped by indicatif's rate limit is shown then,
        // not only at the next topic, which may take long. No ticking thread for no line.
        if !bar.is_hidden() {
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
        }
        Progress {
            bar,
            counts: Mutex::new(Counts::default()),
        }
    }

    fn update(&self, change: impl FnOnce(&mut Counts), line: impl FnOnce(&Counts) -> String) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut counts);
        self.bar.set_message(line(&counts));
    }

    fn listing_line(counts: &Counts) -> String {
        format!(
            "listed the topics of {}/{} namespaces",
            counts.done, counts.total
        )
    }

    fn audit_line(counts: &Counts) -> String {
        let conflicts = match counts.conflicts {
            1 => "1 conflict".to_owned(),
            n => format!("{n} conflicts"),
        };
        format!(
            "audited {}/{} topics, {conflicts}",
            counts.done, counts.total
        )
    }

    /// Listing a cluster's topics takes two requests a namespace, one after another.
    pub(super) fn listing(&self, namespaces: usize) {
        self.update(
            |counts| {
                *counts = Counts {
                    total: namespaces,
                    ..Counts::default()
                }
            },
            Progress::listing_line,
        );
    }

    pub(super) fn listed(&self) {
        self.update(|counts| counts.done += 1, Progress::listing_line);
    }

    pub(super) fn auditing(&self, topics: usize) {
        self.update(
            |counts| {
                *counts = Counts {
                    total: topics,
                    ..Counts::default()
                }
            },
            Progress::audit_line,
        );
    }

    pub(super) fn audited(&self, conflicts: bool) {
        self.update(
            |counts| {
                counts.done += 1;
                counts.conflicts += usize::from(conflicts);
            },
            Progress::audit_line,
        );
    }
}

/// The progress line is drawn for a person at a terminal only: never into a pipe, a file or a
/// CI log, where a line redrawn with carriage returns is noise.
pub(super) fn progress_target(
    stderr_is_terminal: bool,
    terminal: impl FnOnce() -> ProgressDrawTarget,
) -> ProgressDrawTarget {
    if stderr_is_terminal {
        terminal()
    } else {
        ProgressDrawTarget::hidden()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Default, Clone)]
    struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write_str("\r")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// One of three namespaces listed, then two topics audited, one with conflicts, then the
    /// line cleared as `run` clears it: what was drawn at each step.
    fn drawn(stderr_is_terminal: bool) -> (String, String) {
        let screen = Screen::default();
        let term = screen.clone();
        let progress = Progress::new(progress_target(stderr_is_terminal, || {
            ProgressDrawTarget::term_like(Box::new(term))
        }));
        // The test draws on demand: a steady tick between two takes, on a loaded machine,
        // would redraw the last phase's line into the next one's.
        progress.bar.disable_steady_tick();
        let shown = || std::mem::take(&mut *screen.0.lock().unwrap());
        progress.listing(3);
        progress.listed();
        // Redraws are rate-limited: the last state is drawn on demand.
        progress.bar.tick();
        let listing = shown();
        progress.auditing(2);
        progress.audited(true);
        progress.audited(false);
        progress.bar.tick();
        let auditing = shown();
        progress.bar.finish_and_clear();
        (listing, auditing)
    }

    #[test]
    fn the_progress_line_is_drawn_on_a_terminal_only() {
        let (listing, auditing) = drawn(true);
        assert!(
            listing.contains("listed the topics of 1/3 namespaces"),
            "{listing:?}"
        );
        assert!(
            auditing.contains("audited 2/2 topics, 1 conflict"),
            "{auditing:?}"
        );
        // Each line drawn is one of the phase's own, with its counts.
        for line in auditing
            .split('\r')
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            assert!(
                [
                    "audited 0/2 topics, 0 conflicts",
                    "audited 1/2 topics, 1 conflict",
                    "audited 2/2 topics, 1 conflict"
                ]
                .contains(&line),
                "{auditing:?}"
            );
        }
        assert_eq!(drawn(false), (String::new(), String::new()));
    }
}
