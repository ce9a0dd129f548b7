//! What to undo when the process ends before an output is finished, and what a killed earlier
//! run left behind.
//!
//! Every sink removes its temporary file, staging directory and encoder child in `Drop`. That
//! covers errors and the first Ctrl-C, which unwind normally, but not an exit that skips
//! destructors: a second Ctrl-C (or the same signal sent twice, as `timeout -s INT` does to the
//! process and then to its group) ends the process from the signal handler's thread. So every
//! temporary thing is also entered here when it is created and forgotten when it is committed
//! or dropped, and [`remove_all_then`] undoes whatever is still entered, newest first (the
//! encoder child before the file it writes, the staging directory before the directories made
//! for it), before that exit. Committing an output (the rename into place) happens with the
//! registry locked, so the cleanup sees an output either still temporary or already in place,
//! never half moved, and nothing is committed after it ran.
//!
//! Only SIGKILL can leave anything now. Temporary names carry the process id
//! (`.ripples-<pid>-XXXXXX.gif`), so a later run writing into the same directory can tell a
//! leftover of a process that is gone from one still being written, and removes it
//! ([`remove_stale_leftovers`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

/// The prefix of every temporary file and staging directory: `.ripples-<pid>-`, hidden on Unix
/// and recognisable as ours.
pub(super) fn temp_prefix() -> String {
    format!("{LEFTOVER_PREFIX}{}-", std::process::id())
}

/// What every temporary name starts with, whichever process made it.
const LEFTOVER_PREFIX: &str = ".ripples-";

/// A leftover of a process that is gone is removed only when it has not changed for this long.
/// A render in progress touches its file at least every few seconds, so this keeps a later run
/// from removing the output of a live render that the process check cannot see (one on another
/// machine sharing the directory, whose process id means nothing here).
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Something temporary that must not outlive the process.
pub(crate) enum Leftover {
    /// A temporary file.
    File(PathBuf),
    /// A staging directory and everything in it.
    Directory(PathBuf),
    /// A directory made for an output; removed only if empty.
    EmptyDirectory(PathBuf),
    /// An encoder child process (and its process group, on Unix).
    Child(Arc<ChildProcess>),
}

impl Leftover {
    fn undo(&self) {
        // Errors mean the thing is gone already or cannot be removed; either way the process
        // is about to exit and there is nobody left to tell but the user, told by the caller.
        match self {
            Leftover::File(path) => {
                let _ = fs::remove_file(path);
            }
            Leftover::Directory(path) => {
                let _ = fs::remove_dir_all(path);
            }
            Leftover::EmptyDirectory(path) => {
                let _ = fs::remove_dir(path);
            }
            Leftover::Child(child) => child.stop(),
        }
    }
}

/// The list of leftovers. One process-wide instance, [`REGISTRY`], is what sinks use; tests
/// make their own so they do not undo each other's files.
pub(super) struct Registry {
    entries: Mutex<Entries>,
}

struct Entries {
    next_id: u64,
    list: Vec<(u64, Leftover)>,
}

/// The registry of this process.
pub(super) static REGISTRY: Registry = Registry::new();

impl Registry {
    pub(super) const fn new() -> Registry {
        Registry {
            entries: Mutex::new(Entries {
                next_id: 0,
                list: Vec::new(),
            }),
        }
    }

    fn entries(&self) -> MutexGuard<'_, Entries> {
        // A panic elsewhere while the lock was held leaves the list as valid as it was.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters `leftover` until the returned value is dropped (or passed to
    /// [`Registry::commit_with`]).
    pub(super) fn register(&'static self, leftover: Leftover) -> Registration {
        let mut entries = self.entries();
        let id = entries.next_id;
        entries.next_id += 1;
        entries.list.push((id, leftover));
        Registration { id, registry: self }
    }

    /// Runs `commit` (the move of a finished output into place) with the registry locked, then
    /// forgets `registrations`: a second Ctrl-C waits for the move rather than removing a file
    /// halfway through it, and once it has run, nothing can be committed any more.
    pub(super) fn commit_with<T>(
        &self,
        registrations: impl IntoIterator<Item = Registration>,
        commit: impl FnOnce() -> T,
    ) -> T {
        let mut entries = self.entries();
        let result = commit();
        for registration in registrations {
            let id = registration.id;
            entries.list.retain(|(entry, _)| *entry != id);
            // Already forgotten; its Drop would lock the registry a second time.
            std::mem::forget(registration);
        }
        result
    }

    /// Stops every registered child and removes every registered temporary file and
    /// directory, newest first, then runs `then` with the registry still locked (so nothing
    /// can be committed or registered any more).
    pub(super) fn remove_all_then<T>(&self, then: impl FnOnce(Removed) -> T) -> T {
        let mut entries = self.entries();
        let mut removed = Removed::default();
        for (_, leftover) in entries.list.drain(..).rev() {
            match leftover {
                Leftover::Child(_) => removed.processes += 1,
                _ => removed.paths += 1,
            }
            leftover.undo();
        }
        then(removed)
    }
}

/// An entry in a registry; dropping it forgets the entry (the owner removes the thing itself).
#[must_use = "dropping a registration forgets the leftover at once"]
pub(crate) struct Registration {
    id: u64,
    registry: &'static Registry,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let id = self.id;
        self.registry
            .entries()
            .list
            .retain(|(entry, _)| *entry != id);
    }
}

/// Enters `leftover` in the process's registry until the returned value is dropped.
pub(crate) fn register(leftover: Leftover) -> Registration {
    REGISTRY.register(leftover)
}

/// [`Registry::commit_with`] on the process's registry.
pub(super) fn commit_with<T>(
    registrations: impl IntoIterator<Item = Registration>,
    commit: impl FnOnce() -> T,
) -> T {
    REGISTRY.commit_with(registrations, commit)
}

/// How many things [`remove_all_then`] undid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    /// Temporary files and directories removed.
    pub paths: usize,
    /// Encoder processes stopped.
    pub processes: usize,
}

/// Stops every encoder child of this process and removes every temporary file and directory
/// it has not committed or dropped yet, newest first, then runs `then` with the registry still
/// locked, so that nothing can be committed any more. For an exit that skips destructors (a
/// second Ctrl-C): `then` is expected to end the process.
pub fn remove_all_then<T>(then: impl FnOnce(Removed) -> T) -> T {
    REGISTRY.remove_all_then(then)
}

/// An encoder child, shared by its sink (which feeds and waits for it), the sink's watchdog and
/// the registry (which may stop it). The child is only ever waited for through this value, so a
/// process id it holds cannot have been reused by another process while it is not reaped.
pub(crate) struct ChildProcess {
    child: Mutex<Child>,
}

impl ChildProcess {
    /// Takes `child`, which must lead a process group of its own on Unix
    /// (`CommandExt::process_group(0)`), so stopping it stops whatever it started too.
    pub(crate) fn new(child: Child) -> ChildProcess {
        ChildProcess {
            child: Mutex::new(child),
        }
    }

    fn child(&self) -> MutexGuard<'_, Child> {
        self.child.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[cfg(test)]
    pub(super) fn id(&self) -> u32 {
        self.child().id()
    }

    /// The exit status, if the child has exited.
    pub(crate) fn try_wait(&self) -> std::io::Result<Option<ExitStatus>> {
        self.child().try_wait()
    }

    /// Kills the child and its process group unless it has exited already, and reaps it.
    pub(crate) fn stop(&self) {
        let mut child = self.child();
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        #[cfg(unix)]
        {
            let group = nix::unistd::Pid::from_raw(child.id() as i32);
            // Fails only if the group is gone already.
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
        }
        // Kills the child itself where there are no process groups; harmless after killpg.
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Removes from `dir` the temporary files and staging directories that a `ripples` process
/// left when it was killed (SIGKILL, a power cut): entries named `.ripples-<pid>-...` whose
/// process no longer runs and which have not changed for a minute. Returns the names removed.
/// Entries of live processes, of other programs and without a process id are left alone.
pub fn remove_stale_leftovers(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let now = SystemTime::now();
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(leftover_process_id) else {
            continue;
        };
        if pid == std::process::id() || process_is_running(pid) {
            continue;
        }
        let Ok(metadata) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let untouched_for = metadata
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok());
        if untouched_for.is_none_or(|age| age < STALE_AFTER) {
            continue;
        }
        let result = if metadata.is_dir() {
            fs::remove_dir_all(entry.path())
        } else {
            fs::remove_file(entry.path())
        };
        if result.is_ok() {
            removed.push(name.to_string_lossy().into_owned());
        }
    }
    removed.sort();
    removed
}

/// The process id in a temporary name `.ripples-<pid>-<random>[suffix]`, if it is one.
fn leftover_process_id(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(LEFTOVER_PREFIX)?;
    let (pid, random) = rest.split_once('-')?;
    if random.is_empty() || !pid.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether a process with this id exists on this machine (any owner). Without a way to ask,
/// assume it does, which keeps its files.
fn process_is_running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return true;
        };
        // Signal 0 only checks: ESRCH means no such process, EPERM one of another user.
        !matches!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
            Err(nix::errno::Errno::ESRCH)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftover_names_carry_a_process_id() {
        assert_eq!(leftover_process_id(".ripples-123-aB3dEf.gif"), Some(123));
        assert_eq!(leftover_process_id(".ripples-7-xY12zz"), Some(7));
        assert_eq!(leftover_process_id(".ripples-aB3dEf.gif"), None);
        assert_eq!(leftover_process_id(".ripples-12x-aB3dEf.gif"), None);
        assert_eq!(leftover_process_id(".ripples-123-"), None);
        assert_eq!(leftover_process_id("ripples-123-aB3dEf.gif"), None);
        assert_eq!(leftover_process_id("water.gif"), None);
        assert!(temp_prefix().starts_with(".ripples-"));
        assert_eq!(
            leftover_process_id(&format!("{}abcdef.gif", temp_prefix())),
            Some(std::process::id())
        );
    }

    /// A process id that no process has: one of a child that has exited and been reaped.
    #[cfg(unix)]
    fn dead_process_id() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[cfg(unix)]
    fn age(path: &Path, seconds: u64) {
        let old = SystemTime::now() - Duration::from_secs(seconds);
        fs::File::options()
            .write(true)
            .open(path)
            .or_else(|_| fs::File::open(path))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_old_leftovers_of_gone_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dead_process_id();
        let path = |name: &str| dir.path().join(name);
        let stale_file = format!(".ripples-{dead}-aaaaaa.gif");
        let stale_dir = format!(".ripples-{dead}-bbbbbb");
        let fresh = format!(".ripples-{dead}-cccccc.gif");
        let live = format!(".ripples-{}-dddddd.gif", std::process::id());
        let parent_live = format!(
            ".ripples-{}-eeeeee.gif",
            std::os::unix::process::parent_id()
        );
        let unknown = ".ripples-ffffff.gif";
        for name in [
            &stale_file,
            &fresh,
            &live,
            &parent_live,
            unknown,
            "water.gif",
        ] {
            fs::write(path(name), "x").unwrap();
        }
        fs::create_dir(path(&stale_dir)).unwrap();
        fs::write(path(&stale_dir).join("frame_00000.png"), "x").unwrap();
        for name in [&stale_file, &stale_dir, &live, &parent_live, unknown] {
            age(&path(name), 3600);
        }

        let removed = remove_stale_leftovers(dir.path());
        let mut expected = [stale_dir.clone(), stale_file.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        for name in [&fresh, &live, &parent_live, unknown, "water.gif"] {
            assert!(path(name).exists(), "{name} was removed");
        }
        assert!(!path(&stale_file).exists() && !path(&stale_dir).exists());
    }

    #[test]
    fn remove_all_undoes_newest_first_and_forgets_dropped_registrations() {
        let dir = tempfile::tempdir().unwrap();
        let made = dir.path().join("made");
        let staging = made.join(".ripples-staging");
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("frame_00000.png"), "x").unwrap();
        let kept = dir.path().join("kept");
        fs::write(&kept, "x").unwrap();
        static REGISTRY: Registry = Registry::new();
        // Removing `made` works only after `staging`: newest first.
        let made_entry = REGISTRY.register(Leftover::EmptyDirectory(made.clone()));
        let staging_entry = REGISTRY.register(Leftover::Directory(staging.clone()));
        drop(REGISTRY.register(Leftover::File(kept.clone())));
        let removed = REGISTRY.remove_all_then(|removed| removed);
        assert_eq!(
            removed,
            Removed {
                paths: 2,
                processes: 0
            }
        );
        assert!(!made.exists());
        assert!(kept.exists());
        // Dropping registrations the cleanup already undid is harmless.
        drop((made_entry, staging_entry));
        assert_eq!(
            REGISTRY.remove_all_then(|removed| removed),
            Removed::default()
        );
    }
}
