//! Compiles the C yardstick (`c/seed_classic.c`) into a program next to this crate's build
//! output, the way the issue asks for it: `gcc -O3 -march=native` (or `$CC` when set).
//!
//! `-march=native` is fine here and only here: this crate is a benchmark built on the machine
//! that runs it and is never published or shipped (the `ripples` binary dispatches at run time
//! and is built without it). Without a C compiler the crate still builds, with a warning, and
//! the yardstick then says that it has no C loop to time and why.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let source = "c/seed_classic.c";
    println!("cargo:rerun-if-changed={source}");
    println!("cargo:rerun-if-env-changed=CC");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let program = out_dir.join("seed_classic");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "gcc".to_string());
    let flags = ["-O3", "-march=native", "-std=c11", "-Wall", "-Wextra"];
    let built = Command::new(&compiler)
        .args(flags)
        .arg("-o")
        .arg(&program)
        .arg(source)
        .status();
    let problem = match built {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!("{compiler} failed ({status}) on {source}")),
        Err(error) => Some(format!(
            "no C compiler: cannot run '{compiler}' ({error}); install gcc or set CC"
        )),
    };
    match problem {
        None => {
            let version = Command::new(&compiler)
                .arg("--version")
                .output()
                .ok()
                .and_then(|output| String::from_utf8(output.stdout).ok())
                .and_then(|text| text.lines().next().map(str::to_string))
                .unwrap_or_else(|| compiler.clone());
            println!("cargo:rustc-env=YARDSTICK_C_PROGRAM={}", program.display());
            println!(
                "cargo:rustc-env=YARDSTICK_C_COMPILER={version} {}",
                flags[..2].join(" ")
            );
            println!("cargo:rustc-env=YARDSTICK_C_PROBLEM=");
        }
        Some(problem) => {
            println!("cargo:warning=the C yardstick is not built: {problem}");
            println!("cargo:rustc-env=YARDSTICK_C_PROGRAM=");
            println!("cargo:rustc-env=YARDSTICK_C_COMPILER=");
            println!("cargo:rustc-env=YARDSTICK_C_PROBLEM={problem}");
        }
    }
}
