//! FULL walks both directions in one traversal and walks the way back again only when it finds
//! something. Its report must be exactly the one built from the two directions walked on their
//! own: here remembered by a checker that was asked BACKWARD and FORWARD first. Same input as
//! `can_read`: [profile byte][split: u16 little-endian][old set][new set].
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocompat::{Bounds, Checker, Strategy, PROFILES};
use protocompat_testkit::schema_of_bytes;

fn schema(set: &[u8]) -> Vec<u8> {
    schema_of_bytes(set.to_vec(), "shop.Order", "order.proto")
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let split = usize::from(u16::from_le_bytes([data[1], data[2]]));
    let rest = &data[3..];
    let (old, new) = rest.split_at(split.min(rest.len()));
    let (old, new) = (schema(old), schema(new));
    let profile = PROFILES[usize::from(data[0]) % PROFILES.len()];
    let checker = || Checker::new(Bounds::DEFAULT).with_profile(profile);
    let one_traversal = checker().check(&[&old], &new, Strategy::Full);
    let separate = checker();
    for strategy in [Strategy::Backward, Strategy::Forward] {
        let _ = separate.check(&[&old], &new, strategy);
    }
    let remembered = separate.check(&[&old], &new, Strategy::Full);
    match (one_traversal, remembered) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.to_json(), b.to_json());
            assert_eq!(a.render_text(), b.render_text());
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("one traversal: {a:?}\nseparate walks: {b:?}"),
    }
});
