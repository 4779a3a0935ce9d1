//! A descriptor set read in one pass against the same set walked by the prescan and then
//! decoded: whatever the one pass builds must be exactly what the other way builds, and it
//! must never build a set the other way refuses. Same input as `descriptor_set`: a byte that
//! picks the root file, then the set.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocompat::model::build_both_ways;
use protocompat::Limits;

const ROOT_FILES: [&str; 2] = ["order.proto", "root.proto"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, set)) = data.split_first() else {
        return;
    };
    let root_file = ROOT_FILES[usize::from(pick) % ROOT_FILES.len()];
    let (one_pass, after_prescan) = build_both_ways(set, root_file, &Limits::DEFAULT);
    if let Some(model) = one_pass {
        match after_prescan {
            Ok(other) => assert!(model == other, "the two ways build different models"),
            Err(error) => panic!(
                "the one pass builds what the prescan refuses: {}",
                error.message
            ),
        }
    }
});
