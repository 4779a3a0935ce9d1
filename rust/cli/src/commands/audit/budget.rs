//! How much of the admin API's answers the audit holds at once, whatever --concurrency. Each
//! worker reads a topic's history up to its share of --max-response-bytes; a history that
//! proves larger is dropped there, and read again from its start by the one thread for large
//! histories, which reads and checks them one at a time while the worker waits for the
//! outcome, holding no answer and leaving no connection idle mid-answer. The answers held at
//! once so come to the workers' shares (half the bound among them, 64 KiB each at the least)
//! and one large history (up to the bound): 1.5 × --max-response-bytes, where each worker held
//! its own before (N × the bound). One thread rather than a pass the workers take in turn: what
//! the allocator keeps of the memory a large history freed is then kept by one thread's heap,
//! not by each worker's.
//!
//! A large history is read twice, its share once more; at the default bound and concurrency a
//! share is 16 MiB, far above the histories brokers keep.

use std::sync::mpsc::{self, Receiver, Sender};

/// The smallest share: a history of some versions is read in one go at any --concurrency.
const MIN_SHARE: u64 = 64 << 10;

/// The bytes of a history each of `workers` reads on its own: half of `max_response` among
/// them, or [`MIN_SHARE`], within `max_response`.
pub fn share(max_response: u64, workers: usize) -> u64 {
    let workers = u64::try_from(workers.max(1)).unwrap_or(u64::MAX);
    (max_response / workers.saturating_mul(2))
        .max(MIN_SHARE)
        .min(max_response)
}

/// A topic handed to the large thread, and where its outcome goes.
type Request<'t, R> = (&'t str, Sender<R>);

/// A worker's way to the thread for large histories, which serves until every worker's lane
/// is dropped.
pub struct Lane<'t, R> {
    requests: Sender<Request<'t, R>>,
}

impl<R> Clone for Lane<'_, R> {
    fn clone(&self) -> Self {
        Lane {
            requests: self.requests.clone(),
        }
    }
}

impl<'t, R> Lane<'t, R> {
    /// A lane, and what its thread serves until every lane is dropped.
    pub fn new() -> (Lane<'t, R>, Receiver<Request<'t, R>>) {
        let (requests, served) = mpsc::channel();
        (Lane { requests }, served)
    }

    /// `work` for each topic handed over, one at a time, on the calling thread.
    pub fn serve(served: Receiver<Request<'t, R>>, work: impl Fn(&'t str) -> R) {
        for (topic, outcome) in served {
            // A worker gone (it panicked) needs no answer.
            let _ = outcome.send(work(topic));
        }
    }

    /// What the large thread gives `topic`, once it has served those handed over before.
    pub fn hand_over(&self, topic: &'t str) -> R {
        let (outcome, received) = mpsc::channel();
        self.requests
            .send((topic, outcome))
            .expect("the large thread serves until the workers are done");
        received
            .recv()
            .expect("the large thread answers each topic")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shares_come_to_half_the_bound_within_the_floor_and_the_bound() {
        let mib = 1 << 20;
        assert_eq!(share(256 * mib, 8), 16 * mib);
        assert_eq!(share(256 * mib, 64), 2 * mib);
        assert_eq!(share(mib, 64), MIN_SHARE);
        assert_eq!(share(1000, 1), 1000);
    }

    #[test]
    fn the_lane_serves_topics_in_turn_on_its_thread() {
        let topics = ["a", "b", "c"];
        let served = std::thread::scope(|scope| {
            let (lane, requests) = Lane::new();
            let server = scope.spawn(move || {
                let thread = std::thread::current().id();
                Lane::serve(requests, |topic: &str| (topic.to_uppercase(), thread));
            });
            let workers: Vec<_> = topics
                .iter()
                .map(|topic| {
                    let lane = lane.clone();
                    scope.spawn(move || lane.hand_over(topic))
                })
                .collect();
            drop(lane);
            let answers: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
            server.join().unwrap();
            answers
        });
        let names: Vec<&str> = served.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert!(served.iter().all(|(_, thread)| *thread == served[0].1));
        assert_ne!(served[0].1, std::thread::current().id());
    }
}
