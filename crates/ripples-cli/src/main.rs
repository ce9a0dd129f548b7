//! The `ripples` binary: parse the command line, run, and turn errors into one line and an
//! exit code (2 for a wrong command line, 1 for anything else). No backtraces reach the user.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use ripples_cli::UsageError;
use ripples_cli::bench::bench;
use ripples_cli::cli::args::{Cli, Command, RenderArgs};
use ripples_cli::output::interrupt::{self, Interrupted};
use ripples_cli::render::{RenderSummary, render, render_default_scene};

/// The timing of a finished render goes to stderr; what was written, to stdout (or to stderr
/// too when the animation itself went to stdout).
fn report_render(summary: RenderSummary) -> String {
    eprintln!("{}", summary.timing_line());
    if summary.to_standard_output() {
        eprintln!("{summary}");
        return String::new();
    }
    summary.to_string()
}

/// Without a subcommand: the window over the built-in picture with rain, or, when no window
/// can open, the default scene rendered to ripples.gif.
fn no_subcommand() -> anyhow::Result<String> {
    #[cfg(feature = "play")]
    match ripples_cli::play::play_default() {
        Err(error) => match error.downcast_ref::<ripples_cli::play::NoDisplay>() {
            Some(ripples_cli::play::NoDisplay(reason)) => {
                eprintln!(
                    "no window ({reason}): rendering the default scene to ripples.gif instead"
                );
            }
            None => return Err(error),
        },
        Ok(report) => return Ok(report),
    }
    #[cfg(not(feature = "play"))]
    eprintln!("no subcommand: rendering the default scene (see `ripples --help`)");
    interrupt::install()?;
    render_default_scene(&RenderArgs::default()).map(report_render)
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (a bug in ripples, please report it): {info}");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version go to stdout with exit code 0; usage errors exit with 2.
            let _ = error.print();
            return ExitCode::from(error.exit_code().clamp(0, 255) as u8);
        }
    };
    let result = match &cli.command {
        Some(Command::Render(args)) => args
            .water
            .check_standard_input()
            .map_err(anyhow::Error::from)
            .and_then(|()| interrupt::install())
            .and_then(|()| render(args))
            .map(report_render),
        Some(Command::Bench(args)) => bench(args),
        #[cfg(feature = "play")]
        Some(Command::Play(args)) => args
            .water
            .check_standard_input()
            .map_err(anyhow::Error::from)
            .and_then(|()| ripples_cli::play::play(args)),
        None => no_subcommand(),
    };
    // Whatever a job left unfinished has been dropped (and removed) by now; this catches
    // anything still entered in the cleanup registry, whatever the path that led here.
    ripples_cli::output::cleanup::remove_all_then(|_| ());
    match result {
        Ok(report) => {
            if !report.is_empty() {
                println!("{report}");
            }
            ExitCode::SUCCESS
        }
        // Whatever failed after Ctrl-C (a closed pipe to ffmpeg, say) failed because of it.
        Err(error) if interrupt::requested() || error.is::<Interrupted>() => {
            eprintln!(
                "interrupted: stopped before the end; the output was not written (any file \
                 already under its name is untouched)"
            );
            ExitCode::from(interrupt::EXIT_CODE)
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            if error.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
