//! `protocompat lsp` in a real editor: Neovim, headless, runs tests/editor/nvim_session.lua on
//! a copy of `examples/service` made a git repository on `main` (the project's baseline). The
//! script drives the editor's own LSP client; this reads what it saw. Without `nvim` the test
//! says so and passes, unless PROTOCOMPAT_REQUIRE_NVIM is set (`.ci/run` sets it and installs
//! Debian's neovim).

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use support::*;

#[test]
fn neovim_shows_the_finding_and_applies_its_fix() {
    let nvim = std::env::var("PROTOCOMPAT_NVIM").unwrap_or_else(|_| "nvim".into());
    if Command::new(&nvim).arg("--version").output().is_err() {
        assert!(
            std::env::var_os("PROTOCOMPAT_REQUIRE_NVIM").is_none(),
            "PROTOCOMPAT_REQUIRE_NVIM is set and there is no {nvim}"
        );
        eprintln!("no {nvim}: the Neovim test did not run");
        return;
    }
    let dir = service_repo("nvim", &[]);
    let out = dir.join("nvim-session.out");
    let script = repo().join("rust/cli/tests/editor/nvim_session.lua");
    let mut child = Command::new(&nvim)
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("PROTOCOMPAT_BIN", env!("CARGO_BIN_EXE_protocompat"))
        .env("PROTOCOMPAT_ROOT", dir.canonicalize().unwrap())
        .env(
            "PROTOCOMPAT_V3",
            repo().join("examples/shop/v3/order.proto"),
        )
        .env("PROTOCOMPAT_OUT", &out)
        .current_dir(&dir)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("Neovim did not finish within 180 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let seen = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(status.success(), "{status}: {seen}");
    let has = |line: &str| seen.lines().any(|l| l == line);
    let starts = |prefix: &str| seen.lines().any(|l| l.starts_with(prefix));
    assert!(
        starts("diagnostic 8:3 ERROR FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] "),
        "{seen}"
    );
    assert!(
        starts("diagnostic 6:3 ERROR PACKED_TO_EXPANDED shop.Order.quantities"),
        "{seen}"
    );
    assert!(
        starts("diagnostic 5:3 WARN SCALAR_TYPE_CHANGED shop.Order.id"),
        "{seen}"
    );
    assert!(has("hover   writer: { note: \"a\" }"), "{seen}");
    assert!(has("hover   bytes:  22 01 61"), "{seen}");
    assert!(
        has("action quickfix preferred protocompat: give field note its old number 4"),
        "{seen}"
    );
    assert!(
        has("applied protocompat: give field note its old number 4"),
        "{seen}"
    );
    assert!(
        has("line 8 is now:   string note = 4;                                 // was field 4"),
        "{seen}"
    );
    assert!(has("modified: true"), "{seen}");
    assert!(has("on disk unchanged: true"), "{seen}");
    println!("{seen}");
}
