//! The command line: what the user asked for, and the pool it describes. The arguments
//! ([`args`], clap) are read first; [`setup`] turns them and a scene file into a pool over its
//! picture, loading every input and refusing bad values before anything runs;
//! [`inert_options`] warns about options that would do nothing and [`landing`] about stones and
//! walls that would land where no water moves; [`input_guard`] refuses an
//! output that would overwrite an input. It builds on [`crate::input`] and [`crate::output`],
//! and the subcommands ([`crate::render`], `crate::play`, [`crate::bench`](mod@crate::bench))
//! build on it.

pub mod args;
pub mod inert_options;
pub mod input_guard;
pub mod landing;
pub mod setup;
