//! Panics turned into errors, one thread at a time.
//!
//! Two places run code that may panic for reasons that are not ripples' bugs: the JPEG decoder
//! on some malformed files, and the window system's crates when the display goes away. Both
//! want the panic as an error value, with its message, and nothing printed. The panic hook is
//! process-wide, so swapping it for the duration would also silence a real bug on another
//! thread. Instead one hook is installed, once, in front of whatever hook was there before: on a
//! thread inside [`capture`] it records the panic; on every other thread it hands the panic to
//! the previous hook (the command's "internal error" line, or a fuzzer's abort) unchanged.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, PanicHookInfo};
use std::sync::Once;

/// A panic caught by [`capture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caught {
    /// The panic's message, on one line ("no message" when it carried none).
    pub message: String,
    /// Where it panicked (`file:line:column`), when the panic said.
    pub location: Option<String>,
    /// The source file of that place.
    pub file: Option<String>,
}

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{} (at {location})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

thread_local! {
    /// `Some` while this thread is inside [`capture`]: where the hook puts the first panic.
    static CAPTURING: RefCell<Option<Option<Caught>>> = const { RefCell::new(None) };
}

/// Runs `run` and returns its value, or the panic it raised as a [`Caught`], printing nothing.
///
/// Panics on other threads meanwhile are reported as they would have been. `run` must leave
/// nothing half-changed that the caller goes on to use (as with `catch_unwind`). Whoever sets a
/// panic hook after the first capture replaces the recording one: panics inside `capture` are
/// still caught then, but also reach that hook, and their location is lost.
pub fn capture<T>(run: impl FnOnce() -> T) -> Result<T, Caught> {
    install_hook();
    let outer = CAPTURING.with(|slot| slot.borrow_mut().replace(None));
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(run));
    let recorded = CAPTURING.with(|slot| {
        let mut slot = slot.borrow_mut();
        let recorded = slot.take().flatten();
        *slot = outer;
        recorded
    });
    outcome.map_err(|payload| {
        recorded.unwrap_or_else(|| Caught {
            message: payload_message(payload.as_ref()),
            location: None,
            file: None,
        })
    })
}

/// Puts the recording hook in front of the current one (once per process).
fn install_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let recorded = CAPTURING.with(|slot| match slot.try_borrow_mut() {
                Ok(mut slot) => match slot.as_mut() {
                    Some(first) => {
                        first.get_or_insert_with(|| caught(info));
                        true
                    }
                    None => false,
                },
                Err(_) => false,
            });
            if !recorded {
                previous(info);
            }
        }));
    });
}

fn caught(info: &PanicHookInfo<'_>) -> Caught {
    Caught {
        message: payload_message(info.payload()),
        location: info.location().map(ToString::to_string),
        file: info.location().map(|location| location.file().to_string()),
    }
}

/// A panic's message on one line: its payload when that is a string (as `panic!` makes it).
fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|message| message.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
        .replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_becomes_its_message_and_file() {
        let caught = capture(|| -> u32 { panic!("bad {}", 7) }).unwrap_err();
        assert_eq!(caught.message, "bad 7");
        assert_eq!(caught.file.as_deref(), Some(file!()));
        let location = caught.location.clone().unwrap();
        assert!(location.starts_with(&format!("{}:", file!())), "{location}");
        assert_eq!(caught.to_string(), format!("bad 7 (at {location})"));
        assert_eq!(capture(|| 5), Ok(5));
    }

    #[test]
    fn captures_nest_and_each_gets_its_own_panic() {
        let outer = capture(|| {
            let inner = capture(|| panic!("inner")).unwrap_err();
            assert_eq!(inner.message, "inner");
            panic!("outer");
        })
        .unwrap_err();
        assert_eq!(outer.message, "outer");
    }

    #[test]
    fn a_panic_on_another_thread_is_not_taken_for_this_ones() {
        // The other thread is not capturing, so the hook passes its panic on to the previous
        // hook instead of recording it; the capturing thread still gets its own.
        let (started, go) = std::sync::mpsc::channel();
        let caught = capture(|| {
            let other = std::thread::spawn(move || {
                let _ = go.recv();
                panic!("elsewhere");
            });
            started.send(()).unwrap();
            assert!(other.join().is_err());
            panic!("here");
        })
        .unwrap_err();
        assert_eq!(caught.message, "here");
    }
}
