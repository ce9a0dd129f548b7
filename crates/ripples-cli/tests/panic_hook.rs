//! The panic hook around a contained panic (`ripples_cli::input::panics`), in a process of its own:
//! the hook is one per process, and this test must set it before anything else does.

use std::path::Path;
use std::sync::Mutex;

use ripples_cli::input::panics;
use ripples_cli::input::source_image::SourceImage;

/// Messages of the panics that reached the hook this test installs.
static REPORTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn reported() -> Vec<String> {
    REPORTED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

#[test]
fn contained_panics_are_not_reported_and_every_other_panic_is() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|m| m.to_string()))
            .unwrap_or_default();
        REPORTED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message);
    }));

    // The JPEG decoder panics on this file (with AVX2; other CPUs may refuse or decode it).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jpeg-decoder-panic.jpg");
    let _ = SourceImage::load(&path);
    let contained = panics::capture(|| panic!("contained")).unwrap_err();
    assert_eq!(contained.message, "contained");
    assert_eq!(
        reported(),
        Vec::<String>::new(),
        "a contained panic reached the hook"
    );

    // A panic on another thread while this one contains its own is reported, not swallowed.
    let caught = panics::capture(|| {
        let other = std::thread::spawn(|| panic!("on another thread"));
        assert!(other.join().is_err());
        panic!("here");
    })
    .unwrap_err();
    assert_eq!(caught.message, "here");
    assert_eq!(reported(), ["on another thread"]);

    // A later panic on this thread is reported too.
    assert!(std::panic::catch_unwind(|| panic!("a later bug")).is_err());
    let _ = std::panic::take_hook();
    assert_eq!(reported(), ["on another thread", "a later bug"]);
}
